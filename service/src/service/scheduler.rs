//! The scheduler and the outbox: [`Service::schedule`] expires challenges, claims reminders at
//! half time and time-outs, writing each message to the durable outbox in the claim's
//! transaction; [`Service::render_outbox`] turns a row into a reply when it is delivered;
//! [`Service::tick`] does both in-process; [`spawn_scheduler`] runs it in a running bot.

use std::time::Duration;

use super::{
    Address, Reply, Service, ServiceError, game_line, limits, mention, players, said_button, seated,
};
use crate::l10n::{Lang, Msg, Span, duration_msg};
use crate::store::{ChallengeNo, Due, GameNo, GameStatus, OutboxKind, OutboxRow, Timestamp};

/// How many due games the scheduler claims at a time.
const BATCH: i64 = 100;

/// The outbox owner of in-process delivery ([`Service::tick`]).
const IN_PROCESS: &str = "in-process";

/// How long in-process delivery holds a row before another process may take it.
const IN_PROCESS_LEASE: Duration = Duration::from_secs(60);

/// Runs [`Service::tick`] every `period` and sends each reply it makes to `replies` (the
/// adapter posts them), until the receiving end is dropped. An internal failure is logged and
/// the next tick tries again: every deadline is in the database, so a restart loses nothing.
pub fn spawn_scheduler(
    service: std::sync::Arc<Service>,
    period: std::time::Duration,
    replies: tokio::sync::mpsc::Sender<Reply>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut interval = tokio::time::interval(period);
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            interval.tick().await;
            match service.tick().await {
                Ok(due) => {
                    for reply in due {
                        if replies.send(reply).await.is_err() {
                            return;
                        }
                    }
                }
                Err(error) => {
                    tracing::error!(error = %super::error_chain(&error), "scheduler tick failed");
                }
            }
            if replies.is_closed() {
                return;
            }
        }
    })
}

impl Service {
    /// The scheduler's work, to be called now and then (the bot does every 30 seconds):
    /// expires challenges, claims the reminders whose half time has passed and the turns whose
    /// time has run out. Each message is written to the outbox in the same transaction as its
    /// claim, so a crash cannot lose it and several bot instances never write one twice; the
    /// outbox dispatcher (or [`Service::tick`] in-process) delivers it. Returns how many
    /// messages were written.
    ///
    /// # Errors
    /// Internal failures (the database).
    pub async fn schedule(&self) -> Result<usize, ServiceError> {
        let now = self.clock.now();
        let mut written = self.store.expire_challenges_to_outbox(now).await?.len();
        for due in [Due::Reminder, Due::LastCall, Due::Timeout] {
            loop {
                // A reminder said privately waits for the end of its person's quiet hours.
                let quiet = |hours: &crate::store::Quiet| super::notify::held_until(hours, now);
                let games = self
                    .store
                    .claim_due_to_outbox(due, now, BATCH, &quiet)
                    .await?;
                written += games.len();
                if i64::try_from(games.len()).unwrap_or(0) < BATCH {
                    break;
                }
            }
        }
        written += self.claim_pings().await?;
        written += self.claim_digests().await?;
        written += self.claim_thread_endings().await?;
        written += self.end_seasons(now).await?;
        Ok(written)
    }

    /// The message of an outbox row as the chat should see it now, or `None` when it no
    /// longer applies (the turn it reminds of was played, the game ended).
    ///
    /// # Errors
    /// Internal failures (the database).
    pub async fn render_outbox(&self, row: &OutboxRow) -> Result<Option<Reply>, ServiceError> {
        let payload: serde_json::Value = serde_json::from_str(&row.payload)
            .map_err(|e| ServiceError::Corrupt(format!("outbox row {}: {e}", row.id.0)))?;
        let number = |key: &str| payload.get(key).and_then(serde_json::Value::as_i64);
        let now = self.clock.now();
        let reply = match row.kind {
            OutboxKind::Reminder | OutboxKind::Timeout => {
                let due = if row.kind == OutboxKind::Timeout {
                    Due::Timeout
                } else if payload.get("last").is_some_and(|last| last == true) {
                    Due::LastCall
                } else {
                    Due::Reminder
                };
                let (Some(game), Some(seq)) = (number("game"), number("seq")) else {
                    return Err(ServiceError::Corrupt(format!(
                        "outbox row {}: no game or seq",
                        row.id.0
                    )));
                };
                match self.store.game(GameNo(game)).await? {
                    // The turn it speaks of is still being played.
                    Some(record) if i64::from(record.seq) == seq => {
                        let reply = self.due_reply(due, GameNo(game), now).await?;
                        if payload
                            .get("private")
                            .is_some_and(|private| private == true)
                        {
                            // Said privately, in the person's language.
                            return match reply {
                                Some(reply) => self.said_privately(row, &record, reply).await,
                                None => Ok(None),
                            };
                        }
                        reply
                    }
                    _ => None,
                }
            }
            OutboxKind::Expired => match number("challenge") {
                Some(no) => self.expired_reply(ChallengeNo(no)).await?,
                None => None,
            },
            // A challenge whose process died before posting it.
            OutboxKind::Challenge => match number("challenge") {
                Some(no) => self.challenge_post_of(ChallengeNo(no)).await?,
                None => None,
            },
            // The computer's moves, and the announcements of people's requests (`from`).
            OutboxKind::Board => match (number("game").or(row.game.map(|g| g.0)), number("seq")) {
                (Some(game), Some(seq)) => {
                    let board = match number("from") {
                        Some(from) => {
                            let pressed = payload
                                .get("pressed")
                                .and_then(serde_json::Value::as_str)
                                .map(str::to_owned);
                            let flag = |name: &str| payload.get(name).is_some_and(|v| v == true);
                            let (start, end) = (flag("start"), flag("end"));
                            self.announced_board(GameNo(game), from, start, end, pressed)
                                .await?
                        }
                        None => self.computer_board(GameNo(game), seq).await?,
                    };
                    match board {
                        Some(board) => Some(self.board_in_thread(GameNo(game), board).await?),
                        None => None,
                    }
                }
                _ => {
                    return Err(ServiceError::Corrupt(format!(
                        "outbox row {}: no game or seq",
                        row.id.0
                    )));
                }
            },
            // The reply to another public change whose process died before posting it.
            OutboxKind::Announce => {
                if payload.get("ping").is_some() {
                    // Said privately, in the person's language.
                    return self.ping_of(row, &payload).await;
                } else if let Some(user) = number("digest") {
                    return self.digest_of(row, crate::store::UserId(user)).await;
                } else if ["thread_start", "thread_end", "close_thread"]
                    .iter()
                    .any(|key| payload.get(key).is_some())
                {
                    self.thread_post_of(&payload).await?
                } else if payload.get("unreachable").is_some() {
                    self.unreachable_hint(&payload).await?
                } else if payload.get("relink").is_some() {
                    self.relink_of(&payload).await?
                } else if payload.get("strip").is_some() {
                    self.strip_of(&payload).await?
                } else if payload.get("update").is_some() {
                    self.challenge_update_of(&payload).await?
                } else if payload.get("configured").is_some() {
                    self.settings_post_of(row.chat, &payload).await?
                } else if payload.get("season_begun").is_some()
                    || payload.get("season_over").is_some()
                {
                    self.season_post_of(&payload).await?
                } else if payload.get("rating_reset").is_some() {
                    self.reset_post_of(&payload).await?
                } else if payload.get("vacation").is_some() {
                    self.vacation_post_of(row.chat, &payload).await?
                } else {
                    self.adjustment_post_of(row.chat, &payload).await?
                }
            }
            // A board superseded by a newer one before it was sent.
            OutboxKind::Text => None,
        };
        let Some(mut reply) = reply else {
            return Ok(None);
        };
        reply.address.platform = row.platform;
        reply.address.chat.clone_from(&row.platform_chat_id);
        // A board, a reminder or an edit of a board's buttons, of a game that moved to its own
        // thread since the row was written, goes there.
        if (matches!(
            row.kind,
            OutboxKind::Board | OutboxKind::Reminder | OutboxKind::Timeout
        ) || reply.rebutton.is_some())
            && let Some(game) = row.game
            && let Some(record) = self.store.game(game).await?
            && record.chat != row.chat
            && let Some(chat) = self.store.chat(record.chat).await?
        {
            reply.address.chat = chat.platform_chat_id;
        }
        // Said to the whole chat: in the community's language.
        let language = match self.store.chat(row.chat).await? {
            Some(chat) => self.store.settings(chat.community).await?.language,
            None => None,
        };
        let lang = Lang::choose(language.as_deref(), None, None);
        reply.localize(lang);
        limits::fit(&mut reply, lang);
        Ok(Some(reply))
    }

    /// Claims up to `limit` waiting outbox rows for `owner` (at most one per chat, oldest
    /// first), each with its message as [`Service::render_outbox`] makes it.
    ///
    /// # Errors
    /// Internal failures (the database).
    pub async fn take_outbox(
        &self,
        owner: &str,
        lease: Duration,
        limit: i64,
    ) -> Result<Vec<(OutboxRow, Option<Reply>)>, ServiceError> {
        let lease = i64::try_from(lease.as_millis()).unwrap_or(i64::MAX);
        let rows = self
            .store
            .claim_outbox(owner, self.clock.now(), lease, limit)
            .await?;
        let mut taken = Vec::with_capacity(rows.len());
        for row in rows {
            let reply = self.render_outbox(&row).await?;
            taken.push((row, reply));
        }
        Ok(taken)
    }

    /// An adapter reports what it did with a row it took: sent (with the platform's message
    /// id, if it has one), or dropped because its message no longer applies. Returns whether
    /// the row was still `owner`'s.
    ///
    /// # Errors
    /// Internal failures (the database).
    pub async fn outbox_delivered(
        &self,
        row: &OutboxRow,
        owner: &str,
        delivered: Option<Option<&str>>,
        pace: Duration,
    ) -> Result<bool, ServiceError> {
        let pace = i64::try_from(pace.as_millis()).unwrap_or(i64::MAX);
        let done = match delivered {
            Some(message_id) => {
                self.store
                    .outbox_sent(row.id, owner, message_id, self.clock.now(), pace)
                    .await?
            }
            None => {
                self.store
                    .outbox_drop(row.id, owner, "no longer applies")
                    .await?
            }
        };
        Ok(done)
    }

    /// The computer, the scheduler and the outbox in-process, for `tabula local` and tests:
    /// plays the computer's due moves ([`Service::computer_moves`]), runs
    /// [`Service::schedule`], then takes every waiting outbox row, marks it delivered and
    /// returns its message (rows whose message no longer applies are dropped). A process that
    /// dies before the rows are marked leaves them to be taken again once their lease ends.
    ///
    /// # Errors
    /// Internal failures (the database).
    pub async fn tick(&self) -> Result<Vec<Reply>, ServiceError> {
        self.computer_moves().await?;
        self.schedule().await?;
        let mut replies = Vec::new();
        loop {
            let taken = self
                .take_outbox(IN_PROCESS, IN_PROCESS_LEASE, BATCH)
                .await?;
            if taken.is_empty() {
                break;
            }
            for (row, reply) in taken {
                let sent = reply.as_ref().map(|_| None);
                if self
                    .outbox_delivered(&row, IN_PROCESS, sent, Duration::ZERO)
                    .await?
                    && let Some(reply) = reply
                {
                    replies.push(reply);
                }
            }
        }
        Ok(replies)
    }

    /// The message of an expired challenge.
    async fn expired_reply(&self, no: ChallengeNo) -> Result<Option<Reply>, ServiceError> {
        let Some(challenge) = self.store.challenge(no).await? else {
            return Ok(None);
        };
        let challenger = self.store.user(challenge.challenger).await?;
        let spans = vec![super::challenges::expired_msg(
            &challenge,
            challenger.as_ref(),
        )];
        // The challenger is told (notified), and the challenge's message loses its buttons
        // (the newest that showed them, when it was posted through the outbox).
        Ok(Some(Reply {
            challenge: Some(challenge.id),
            notify: challenger
                .map(|user| vec![user.platform_user_id])
                .unwrap_or_default(),
            pressed: self.store.challenge_message(challenge.id).await?,
            // The post no longer offers anything: it says it expired.
            pressed_then: spans.clone(),
            pressed_is_text: true,
            spans,
            ..Reply::default()
        }))
    }

    /// The reminder or time-out message of a claimed game, if it still applies.
    async fn due_reply(
        &self,
        due: Due,
        game: GameNo,
        now: Timestamp,
    ) -> Result<Option<Reply>, ServiceError> {
        let Some(record) = self.store.game(game).await? else {
            return Ok(None);
        };
        let Some(clock) = record.clock.filter(|_| record.status == GameStatus::Active) else {
            return Ok(None);
        };
        let (Some(user), Some(chat)) = (
            seated(&record, clock.user),
            self.store.chat(record.chat).await?,
        ) else {
            return Ok(None);
        };
        let player = mention(user);
        let mut spans = Vec::new();
        // A reminder notifies the player to move; a time-out, those who may claim the win.
        let mut notified = vec![user.platform_user_id.clone()];
        match due {
            Due::Reminder | Due::LastCall => {
                // The community's reminders, then the player's own (`/notify`): the reminder
                // at half time unless they turned it off, a last call when they asked for it.
                if clock.deadline_at <= now
                    || !self.store.settings(record.community).await?.reminders
                {
                    return Ok(None);
                }
                let own = self.store.notify_settings(user.id).await?;
                let (wanted, message) = match due {
                    Due::LastCall => (own.lastcall, "last-call"),
                    _ => (own.halftime, "reminder"),
                };
                if !wanted {
                    return Ok(None);
                }
                spans.push(Span::Msg(
                    game_line(message, &record)
                        .span("player", player.clone())
                        .msg("left", duration_msg(clock.deadline_at.0 - now.0))
                        .moment("until", clock.deadline_at.0),
                ));
            }
            Due::Timeout => {
                let opponents: Vec<_> = players(&record)
                    .into_iter()
                    .filter(|other| other.id != user.id)
                    .collect();
                // Both sides are told: the one who ran out of time, and those who may claim.
                notified.extend(opponents.iter().map(|other| other.platform_user_id.clone()));
                let claimants = opponents
                    .iter()
                    .map(|opponent| Msg::new("person").span("person", mention(opponent)))
                    .collect();
                let claimant = Msg::list(claimants, "either", "either");
                spans.push(Span::Msg(
                    game_line("timed-out", &record)
                        .span("player", player.clone())
                        .moment("at", clock.deadline_at.0)
                        .msg("claimant", claimant),
                ));
            }
        }
        let mut buttons = vec![said_button(
            Msg::new("button-board").text("game", format!("#{}", record.id)),
            format!("b{}", record.id),
        )];
        let timeout = due == Due::Timeout;
        if timeout {
            // The claim, for those who may make it (the service checks who presses it).
            buttons.insert(
                0,
                said_button(Msg::new("button-claim"), format!("w{}", record.id)),
            );
        }
        Ok(Some(Reply {
            address: Address {
                platform: chat.platform,
                chat: chat.platform_chat_id,
                thread: None,
            },
            game: Some(record.id),
            notify: notified,
            spans,
            buttons: vec![buttons],
            // Recorded with the game's messages that show buttons, so that the game's next
            // board (a move, the claim's result) takes its Claim button off.
            question: timeout,
            ..Reply::default()
        }))
    }
}
