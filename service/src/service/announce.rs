//! Every stored change is announced, even across a crash (issue 36), and the boards a game
//! posted are kept in the database (issue 35).
//!
//! A request that changes a game in public (a move, the start of a game, a resignation, a
//! claim, an abort) writes, in the transaction of the change, an outbox row announcing it
//! ([`Announce`]): the game, how many actions the new board shows, the actions before the
//! request (what the board narrates starts after them) and the message pressed, if any. The
//! process that made the change holds the row (a lease in its name, renewed while it posts)
//! and answers the person at once as before; when its board is posted, the adapter reports it
//! ([`Service::board_posted`]) and the row is marked sent in the same transaction as the board
//! is recorded. If the process dies anywhere between the commit and that report, its lease
//! runs out within [`Service::with_announcements`]'s `hold` and any dispatcher (this process
//! restarted, or another one on the same database) delivers the row: the board is rendered
//! from the database, with its narration, the mention of whoever must act, the result of a
//! game that ended, and the buttons taken off older messages. Nothing depends on the platform
//! delivering the request again, so it holds on Discord too, and with several processes.
//!
//! A new challenge's post (kind `challenge`) is announced the same way, and so (kind
//! `announce`, the payload saying what to tell) are a moderator's grant or take (who, by whom,
//! how much and why), a challenge withdrawn, declined or joined (which, how, by whom, the
//! message pressed: told again as a new message, the pressed one losing its buttons), and a
//! change of the settings (by whom, which keys: told with the settings as they are).
//!
//! Without [`Service::with_announcements`] (`tabula local`, most tests) nothing is written:
//! the reply is the only announcement, as it is there anyway.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use serde_json::json;

use super::{Placement, Reply, Service, ServiceError};
use crate::l10n::{Msg, Span};
use crate::store::{
    Announce, BoardPosted, GameNo, GameRecord, GameStatus, History, OutboxId, Platform,
    PostedBoard, Timestamp, User,
};

/// A message whose buttons an adapter takes off after a post ([`Service::reply_sent`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stripped {
    /// The platform's id of the message.
    pub message_id: String,
    /// For an older board of a game that went on: what it says from then on, in place of its
    /// text or caption (the move that followed it); `None`: only its buttons go.
    pub caption: Option<Reply>,
    /// Whether the message is text (its text is replaced by the caption), not a board's
    /// picture (whose caption is).
    pub text: bool,
    /// The held announcement of this strip, which the adapter reports done with
    /// [`Service::strips_made`] once it tried them all: if the process dies first, a
    /// dispatcher takes the buttons off when the hold ends (issue 36).
    pub told_by: Option<OutboxId>,
}

/// How long a renewal keeps holding an announcement its process has not reported: after it,
/// the dispatcher delivers the row (an adapter that dropped the reply without a word).
const LONGEST_HOLD: Duration = Duration::from_secs(5 * 60);

/// The announcements of this process: who it is and how long it holds a row.
#[derive(Debug)]
pub(super) struct Announcer {
    /// The owner its leases carry (the dispatcher's).
    owner: String,
    /// How long a row is held before anyone else may deliver it; renewed every third of it.
    hold: Duration,
    /// The renewals running, by row.
    renewals: Mutex<HashMap<OutboxId, tokio::task::AbortHandle>>,
}

impl Drop for Announcer {
    /// A service dropped (a process stopping) holds nothing any more: its leases run out.
    fn drop(&mut self) {
        if let Ok(renewals) = self.renewals.lock() {
            for task in renewals.values() {
                task.abort();
            }
        }
    }
}

/// A change to announce.
#[derive(Debug, Clone, Copy)]
pub(super) enum Change {
    /// A game starts: told with its seats, terms and dice.
    Start,
    /// Actions were played in `game`: its board shows `seq` actions, telling those after the
    /// first `from`.
    Move { game: GameNo, from: u32, seq: u32 },
    /// `game` ended (a resignation, a claim, an abort) at `seq` actions: its result is told
    /// even though the board shows no new action.
    End { game: GameNo, seq: u32 },
}

/// An announcement to write with a change: its payload, and who holds it until when.
pub(super) struct Pending {
    payload: String,
    owner: String,
    until: Timestamp,
}

impl Pending {
    /// As the store takes it.
    pub(super) fn as_announce(&self) -> Announce<'_> {
        Announce {
            payload: &self.payload,
            held: Some((&self.owner, self.until)),
        }
    }
}

/// What an old board of `record` says once the game went on from it: `player` (at `seat`)
/// played `played` next.
pub(super) fn board_then(record: &GameRecord, player: &User, seat: u8, played: &str) -> Msg {
    Msg::new("board-then")
        .text("game", format!("#{}", record.id))
        .msg("name", crate::l10n::game_msg(record.game))
        .msg("player", super::narration::name_msg(player))
        .msg(
            "seat",
            super::seat_msg(super::seat_label(record.game, seat)),
        )
        .msg("move", super::narration::move_msg(record.game, played))
}

impl Service {
    /// Writes an announcement with every change a request makes to a game, held by `owner`
    /// (the dispatcher's owner id of this process) for `hold` at a time (see the module doc).
    #[must_use]
    pub fn with_announcements(mut self, owner: impl Into<String>, hold: Duration) -> Service {
        self.announcer = Some(Announcer {
            owner: owner.into(),
            hold,
            renewals: Mutex::new(HashMap::new()),
        });
        self
    }

    /// The announcement of `change`, made by pressing `pressed`; `None` without
    /// announcements.
    pub(super) fn pending_announcement(
        &self,
        change: Change,
        pressed: Option<&str>,
    ) -> Option<Pending> {
        let payload = match change {
            // Not created yet: its row names it.
            Change::Start => json!({"seq": 0, "from": 0, "start": true}),
            Change::Move { game, from, seq } => {
                json!({"game": game.0, "seq": seq, "from": from})
            }
            Change::End { game, seq } => {
                json!({"game": game.0, "seq": seq, "from": seq, "end": true})
            }
        };
        self.pending_payload(payload, pressed)
    }

    /// The announcement of a change told by `payload` (a JSON object), made by pressing
    /// `pressed`; `None` without announcements.
    pub(super) fn pending_payload(
        &self,
        payload: serde_json::Value,
        pressed: Option<&str>,
    ) -> Option<Pending> {
        let mut payload = payload;
        if let Some(pressed) = pressed {
            payload["pressed"] = json!(pressed);
        }
        let (owner, until) = self.announcement_hold()?;
        Some(Pending {
            payload: payload.to_string(),
            owner,
            until,
        })
    }

    /// Who holds an announcement written now, and until when; `None` without announcements.
    pub(super) fn announcement_hold(&self) -> Option<(String, Timestamp)> {
        let announcer = self.announcer.as_ref()?;
        let hold = i64::try_from(announcer.hold.as_millis()).unwrap_or(i64::MAX);
        Some((announcer.owner.clone(), self.clock.now().plus_millis(hold)))
    }

    /// Keeps holding announcement `row` while this process posts it: its lease is renewed
    /// every third of the hold until the board is reported, the row is lost, or
    /// [`LONGEST_HOLD`] has passed.
    pub(super) fn keep_holding(&self, row: OutboxId) {
        let Some(announcer) = &self.announcer else {
            return;
        };
        let store = self.store.clone();
        let clock = self.clock.clone();
        let owner = announcer.owner.clone();
        let hold = announcer.hold;
        let task = tokio::spawn(async move {
            let started = tokio::time::Instant::now();
            let every = (hold / 3).max(Duration::from_millis(50));
            let hold = i64::try_from(hold.as_millis()).unwrap_or(i64::MAX);
            while started.elapsed() < LONGEST_HOLD {
                tokio::time::sleep(every).await;
                match store
                    .renew_lease(row, &owner, clock.now().plus_millis(hold))
                    .await
                {
                    Ok(true) => {}
                    Ok(false) => break,
                    Err(error) => tracing::warn!(%error, "cannot renew an announcement's lease"),
                }
            }
        });
        if let Ok(mut renewals) = announcer.renewals.lock() {
            renewals.retain(|_, task| !task.is_finished());
            renewals.insert(row, task.abort_handle());
        }
    }

    /// Stops renewing announcement `row`.
    fn stop_holding(&self, row: OutboxId) {
        if let Some(announcer) = &self.announcer
            && let Ok(mut renewals) = announcer.renewals.lock()
            && let Some(task) = renewals.remove(&row)
        {
            task.abort();
        }
    }

    /// An adapter posted `reply` as message `message_id`. For a board
    /// ([`Placement::NewBoard`]) it is recorded with the message pressed for it, its
    /// announcement is marked sent, and the messages of the game whose buttons the adapter
    /// takes off now are returned (see [`crate::store::Store::board_posted`]): each once,
    /// whichever process asks. Any other reply that announces a change (a challenge's post):
    /// its announcement is marked sent. Anything else: nothing to do.
    ///
    /// # Errors
    /// Internal failures (the database).
    pub async fn board_posted(
        &self,
        reply: &Reply,
        message_id: &str,
    ) -> Result<Vec<String>, ServiceError> {
        Ok(self.record_post(reply, message_id, false).await?.stripped)
    }

    /// [`Service::board_posted`], with the strip it causes announced (held by this process)
    /// when `announce_strip` and this process has announcements.
    async fn record_post(
        &self,
        reply: &Reply,
        message_id: &str,
        announce_strip: bool,
    ) -> Result<BoardPosted, ServiceError> {
        if let Some(row) = reply.announced {
            self.stop_holding(row);
        }
        let owner = self.announcer.as_ref().map(|a| a.owner.as_str());
        let (Placement::NewBoard, Some(game), Some(seq)) =
            (reply.placement, reply.game, reply.board_seq)
        else {
            if let (Some(row), Some(owner)) = (reply.announced, owner) {
                self.store
                    .announcement_posted(row, owner, Some(message_id), self.clock.now())
                    .await?;
            }
            if let (true, Some(game)) = (reply.question, reply.game) {
                self.store
                    .question_posted(game, message_id, self.clock.now())
                    .await?;
            }
            // Told by the dispatcher for a press (not in place of the pressed message): the
            // pressed message loses its buttons.
            return Ok(BoardPosted {
                stripped: match (&reply.pressed, reply.placement) {
                    (Some(pressed), Placement::New) if pressed != message_id => {
                        vec![pressed.clone()]
                    }
                    _ => Vec::new(),
                },
                strip_row: None,
            });
        };
        let hold = self.announcement_hold().filter(|_| announce_strip);
        let posted = self
            .store
            .board_posted(&PostedBoard {
                game,
                message_id,
                buttons: !reply.buttons.is_empty(),
                seq,
                pressed: reply.pressed.as_deref(),
                announcement: reply.announced.zip(owner),
                strip_hold: hold.as_ref().map(|(owner, until)| (owner.as_str(), *until)),
                now: self.clock.now(),
            })
            .await?;
        if let Some(row) = posted.strip_row {
            // Held while the adapter's edits wait behind the chat's pace.
            self.keep_holding(row);
        }
        // A person may be to move: their private ping links to this board.
        self.wake_pings();
        Ok(posted)
    }

    /// An adapter tried to take the buttons off `stripped` (those it could not, for a
    /// passing reason, it handed back with [`Service::buttons_still_on`]): their announcement
    /// is done. A database failure is logged: the dispatcher then takes them off again.
    pub async fn strips_made(&self, stripped: &[Stripped]) {
        let (Some(row), Some(announcer)) =
            (stripped.iter().find_map(|s| s.told_by), &self.announcer)
        else {
            return;
        };
        self.stop_holding(row);
        if let Err(error) = self
            .store
            .announcement_posted(row, &announcer.owner, None, self.clock.now())
            .await
        {
            tracing::warn!(%error, "cannot record the buttons taken off");
        }
    }

    /// What an adapter does after trying to post `reply` (`posted`: its message id, if it
    /// was): [`Service::board_posted`] or [`Service::board_not_posted`]. Returns the messages
    /// whose buttons the adapter takes off, each older board of a game that went on with the
    /// caption it shows from then on ([`Stripped`]); a database failure is logged and leaves
    /// none.
    pub async fn reply_sent(&self, reply: &Reply, posted: Option<&str>) -> Vec<Stripped> {
        let result = match posted {
            Some(message_id) => self.record_post(reply, message_id, true).await,
            None => self
                .board_not_posted(reply)
                .await
                .map(|()| BoardPosted::default()),
        };
        let BoardPosted {
            stripped: ids,
            strip_row,
        } = result.unwrap_or_else(|error| {
            tracing::warn!(error = %super::error_chain(&error), "cannot record a posted reply");
            BoardPosted::default()
        });
        let mut captions = match reply.game {
            Some(game) if !ids.is_empty() => {
                self.captions_of_old_boards(game, &ids)
                    .await
                    .unwrap_or_else(|error| {
                        tracing::warn!(error = %super::error_chain(&error), "cannot tell the old boards' next moves");
                        HashMap::new()
                    })
            }
            _ => HashMap::new(),
        };
        // The pressed message that is not a board (a challenge accepted by its button) says
        // what became of it, as the answer to the press says it where a platform edits the
        // pressed message there (Discord).
        let mut said_then = None;
        if let Some(pressed) = &reply.pressed
            && reply.pressed_is_text
            && !reply.pressed_then.is_empty()
            && ids.contains(pressed)
        {
            said_then = Some(pressed.clone());
            captions.insert(
                pressed.clone(),
                Reply {
                    game: reply.game,
                    spans: reply.pressed_then.clone(),
                    ..Reply::default()
                },
            );
        }
        ids.into_iter()
            .map(|message_id| Stripped {
                caption: captions.remove(&message_id),
                text: said_then.as_ref() == Some(&message_id),
                message_id,
                told_by: strip_row,
            })
            .collect()
    }

    /// What each board of `game` that the game went on from says from then on, by message: the
    /// move that followed it ("Bob (White) played d6-d4 next"), in the chat's language, so that
    /// an old board no longer says who is to move and the chat reads as the game went when
    /// scrolling back (issue 37).
    /// Only the boards among `stripped` are told; when there is none (a challenge, a question),
    /// the game's log is not read.
    async fn captions_of_old_boards(
        &self,
        game: GameNo,
        stripped: &[String],
    ) -> Result<HashMap<String, Reply>, ServiceError> {
        let mut boards = self.store.board_seqs(game).await?;
        // The newest board (most actions shown, then the latest message) says what it said:
        // when it loses its buttons (a result whose Replay or Record was pressed), nothing
        // followed it.
        let newest = boards.first().map(|(message_id, _)| message_id.clone());
        boards.retain(|(message_id, _)| {
            stripped.contains(message_id) && Some(message_id) != newest.as_ref()
        });
        if boards.is_empty() {
            return Ok(HashMap::new());
        }
        let Some(stored) = self.store.load_game(game, History::Full).await? else {
            return Ok(HashMap::new());
        };
        let record = &stored.record;
        let lang = match self.chat_lang(record.chat).await {
            Ok(lang) => lang,
            Err(super::Failure::Internal(error)) => return Err(error),
            Err(super::Failure::User(_)) => crate::l10n::Lang::ENGLISH,
        };
        let mut captions = HashMap::new();
        for (message_id, seq) in boards {
            // The log is in order: the first action by someone after the board's.
            let after = stored.actions.partition_point(|action| action.seq <= seq);
            let next = stored.actions[after..].iter().find_map(|action| {
                let actor = action.actor?;
                let holder = record.seats.iter().find(|h| h.user.id == actor)?;
                Some((action, holder))
            });
            let said = match next {
                Some((action, holder)) => {
                    board_then(record, &holder.user, holder.seat, &action.action)
                }
                // Nobody played after it, and the game is over: it ended there, by a
                // resignation, the clock or an abort.
                None if record.status != GameStatus::Active => Msg::new("board-ended")
                    .text("game", format!("#{}", record.id))
                    .msg("name", crate::l10n::game_msg(record.game))
                    .msg("how", super::narration::stored_verdict(record).2),
                None => continue,
            };
            let mut caption = Reply {
                game: Some(game),
                spans: vec![Span::Msg(said)],
                ..Reply::default()
            };
            caption.localize(lang);
            captions.insert(message_id, caption);
        }
        Ok(captions)
    }

    /// The strip announced by `payload` (`{"strip": <game>, "messages": [ids]}`), whose
    /// process died before making it: a reply that only takes the buttons off those messages,
    /// each older board saying what followed it.
    pub(super) async fn strip_of(
        &self,
        payload: &serde_json::Value,
    ) -> Result<Option<Reply>, ServiceError> {
        let Some(game) = payload.get("strip").and_then(serde_json::Value::as_i64) else {
            return Ok(None);
        };
        let ids: Vec<String> = payload
            .get("messages")
            .and_then(serde_json::Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|id| id.as_str().map(str::to_owned))
            .collect();
        if ids.is_empty() {
            return Ok(None);
        }
        let game = GameNo(game);
        let mut captions = self.captions_of_old_boards(game, &ids).await?;
        Ok(Some(Reply {
            game: Some(game),
            strip: ids
                .into_iter()
                .map(|message_id| Stripped {
                    caption: captions.remove(&message_id),
                    text: false,
                    message_id,
                    told_by: None,
                })
                .collect(),
            ..Reply::default()
        }))
    }

    /// An adapter could not post `reply`: its announcement, if it holds one, goes to the
    /// dispatcher at once (which tries again, paced).
    ///
    /// # Errors
    /// Internal failures (the database).
    pub async fn board_not_posted(&self, reply: &Reply) -> Result<(), ServiceError> {
        let (Some(row), Some(announcer)) = (reply.announced, &self.announcer) else {
            return Ok(());
        };
        self.stop_holding(row);
        self.store
            .outbox_failed(
                row,
                &announcer.owner,
                self.clock.now(),
                "the reply to the request could not be posted",
            )
            .await?;
        Ok(())
    }

    /// The buttons of `message_id` (of `game`, handed back by [`Service::board_posted`])
    /// could not be taken off for a passing reason: the game's next board hands it back again.
    ///
    /// # Errors
    /// Internal failures (the database).
    pub async fn buttons_still_on(
        &self,
        game: GameNo,
        message_id: &str,
    ) -> Result<(), ServiceError> {
        self.store.restore_buttons(game, message_id).await?;
        Ok(())
    }

    /// Whether this process may answer callback `id` (a Telegram button press): true once per
    /// callback, however many times the platform delivers the press and whichever process
    /// answered it before. A database failure answers true (a second answer is refused by the
    /// platform, harmlessly; none would leave the person waiting).
    pub async fn may_answer_callback(&self, platform: Platform, id: &str) -> bool {
        match self
            .store
            .claim_callback(platform, id, self.clock.now())
            .await
        {
            Ok(first) => first,
            Err(error) => {
                tracing::warn!(%error, "cannot record a callback's answer");
                true
            }
        }
    }
}
