//! Time limits: the clock of the turn being played, `/claim` when it has run out, `/vacation`,
//! a moderator's `/abort`, and the scheduler's [`Service::tick`], which reminds players at half
//! time, says when a time has run out, and announces expired challenges.
//!
//! Decisions (issue 6): a player who is out of time may still move until the opponent claims;
//! the first to act wins the race (the claim is a compare-and-set on the game's `seq`). A
//! vacation pauses the clocks of the player's running turns by its length (not those already
//! out of time), and a turn that begins during a vacation starts its clock when the vacation
//! ends. Vacation days count against the month in which they are taken.

use crate::store::{
    Conflict, Due, Ending, GameNo, GameRecord, GameStatus, NewVacation, StoreError, Timestamp,
};

use super::time::{duration, moment, month_of};
use super::{
    Ctx, Failure, Outcome2, Reply, Service, ServiceError, Span, UserError, button, mention,
    parse_amount, players, pot_spans, refund_spans, seated, team_name, team_of, team_users,
};

/// How many due games the scheduler claims at a time.
const BATCH: i64 = 100;

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
    /// expires challenges, reminds players whose half time has passed, says whose time has run
    /// out. Every reply is addressed to its chat. Each reminder and announcement is claimed in
    /// the database first, so it is made once even with several bot instances running; one
    /// whose message is lost (a crash between the claim and the send) is not repeated.
    ///
    /// # Errors
    /// Internal failures (the database).
    pub async fn tick(&self) -> Result<Vec<Reply>, ServiceError> {
        let now = self.clock.now();
        let mut replies = Vec::new();
        for challenge in self.store.expire_challenges(now).await? {
            let Some(chat) = self.store.chat(challenge.chat).await? else {
                continue;
            };
            let mut spans = vec![Span::Text(format!(
                "Challenge #{} ({}) by ",
                challenge.id,
                challenge.game.name()
            ))];
            match self.store.user(challenge.challenger).await? {
                Some(user) => spans.push(mention(&user)),
                None => spans.push(Span::Text("someone".into())),
            }
            spans.push(Span::Text(
                " has expired: nobody took it in time. /play makes a new one.".into(),
            ));
            replies.push(Reply {
                chat: chat.platform_chat_id,
                spans,
                ..Reply::default()
            });
        }
        for due in [Due::Reminder, Due::Timeout] {
            loop {
                let games = self.store.claim_due(due, now, BATCH).await?;
                for game in &games {
                    if let Some(reply) = self.due_reply(due, *game, now).await? {
                        replies.push(reply);
                    }
                }
                if i64::try_from(games.len()).unwrap_or(0) < BATCH {
                    break;
                }
            }
        }
        Ok(replies)
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
        let mut spans = vec![mention(user)];
        match due {
            Due::Reminder => {
                if clock.deadline_at <= now
                    || !self.store.settings(record.community).await?.reminders
                {
                    return Ok(None);
                }
                spans.push(Span::Text(format!(
                    ", a reminder: it is your turn in game #{} ({}). {} left, until {}.",
                    record.id,
                    record.game.name(),
                    duration(clock.deadline_at.0 - now.0),
                    moment(clock.deadline_at)
                )));
            }
            Due::Timeout => {
                spans.push(Span::Text(format!(
                    " has run out of time in game #{} ({}) at {}. ",
                    record.id,
                    record.game.name(),
                    moment(clock.deadline_at)
                )));
                let opponents: Vec<_> = players(&record)
                    .into_iter()
                    .filter(|other| other.id != user.id)
                    .collect();
                for (i, opponent) in opponents.iter().enumerate() {
                    if i > 0 {
                        spans.push(Span::Text(" or ".into()));
                    }
                    spans.push(mention(opponent));
                }
                spans.push(Span::Text(format!(
                    " may /claim #{} to win; a move made before that still counts.",
                    record.id
                )));
            }
        }
        Ok(Some(Reply {
            chat: chat.platform_chat_id,
            spans,
            buttons: vec![vec![button(
                &format!("Board #{}", record.id),
                format!("b{}", record.id),
            )]],
            ..Reply::default()
        }))
    }

    /// `/claim [#game]`: the win, when the opponent's time has run out.
    pub(super) async fn claim(&self, ctx: &Ctx, game: GameNo) -> Outcome2<Reply> {
        let loaded = self.load(ctx, game).await?;
        let record = &loaded.record;
        if record.status != GameStatus::Active {
            return Err(UserError::GameOver(game).into());
        }
        let id = record.game;
        let Some(mine) = record.seats.iter().find(|h| h.user.id == ctx.user.id) else {
            return Err(UserError::NotAPlayer(game).into());
        };
        let my_team = team_of(id, mine.seat);
        let (Some(clock), tabula_core::Status::Decision(seat)) =
            (record.clock, loaded.state.status())
        else {
            return Err(UserError::NoClock(game).into());
        };
        if team_of(id, seat.0) == my_team {
            return Err(UserError::OwnTurn(game).into());
        }
        let late = seated(record, clock.user)
            .map_or_else(|| "your opponent".to_string(), |u| u.display_name.clone());
        if ctx.now < clock.deadline_at {
            return Err(UserError::TooEarly {
                game,
                name: late,
                left: duration(clock.deadline_at.0 - ctx.now.0),
                until: moment(clock.deadline_at),
            }
            .into());
        }
        let result = format!("winner {} (time)", team_name(id, my_team));
        let winners = team_users(record, my_team);
        let ended = self
            .store
            .end_game_once(
                game,
                &Ending {
                    expected_seq: Some(record.seq),
                    deadline_passed: Some(ctx.now),
                    ..Ending::win(&result, winners.clone(), ctx.user.id)
                },
                &ctx.key,
            )
            .await;
        let ended = match ended {
            Ok(ended) => ended,
            Err(StoreError::Conflict(Conflict::StaleSeq { .. })) => {
                // The late player moved first: the game goes on.
                let current = self.load(ctx, game).await?;
                return self.stale(&current).await;
            }
            Err(StoreError::Conflict(Conflict::NotYetDue(_))) => {
                return Err(UserError::NotDueAnyMore(game).into());
            }
            Err(other) => return Err(other.into()),
        };
        let mut spans = vec![
            mention(&ctx.user),
            Span::Text(format!(
                " claims game #{}: {late} ran out of time. {} wins.",
                ended.id,
                team_name(id, my_team)
            )),
        ];
        spans.extend(pot_spans(&ended, &winners));
        Ok(Reply {
            spans,
            ..Reply::default()
        })
    }

    /// `/abort [#game] [reason]`: the game stops without a result and the stakes are
    /// returned. Moderators may abort any game; its players only one in which nobody has
    /// moved yet (afterwards, /resign).
    pub(super) async fn abort(&self, ctx: &Ctx, game: GameNo, reason: &str) -> Outcome2<Reply> {
        let loaded = self.load(ctx, game).await?;
        if loaded.record.status != GameStatus::Active {
            return Err(UserError::GameOver(game).into());
        }
        let player = loaded.record.is_seated(ctx.user.id);
        if !ctx.moderator {
            if !player {
                return Err(UserError::NotModerator("abort games they do not play").into());
            }
            if loaded.moved {
                return Err(UserError::AlreadyMoved(game).into());
            }
        }
        let by = if ctx.moderator && !player {
            "a moderator"
        } else {
            "a player"
        };
        let result = if reason.is_empty() {
            format!("aborted by {by}")
        } else {
            format!("aborted by {by}: {reason}")
        };
        let record = self
            .store
            .end_game_once(game, &Ending::abort(&result, ctx.user.id), &ctx.key)
            .await?;
        let mut spans = vec![
            mention(&ctx.user),
            Span::Text(format!(
                " aborted game #{} ({}){}; it has no result.",
                record.id,
                record.game.name(),
                if reason.is_empty() {
                    String::new()
                } else {
                    format!(": {reason}")
                }
            )),
        ];
        spans.extend(refund_spans(&record));
        Ok(Reply {
            spans,
            ..Reply::default()
        })
    }

    /// `/vacation`: how many days are left this month; `/vacation <days>` takes them.
    pub(super) async fn vacation(&self, ctx: &Ctx, args: &str) -> Outcome2<Reply> {
        let community = ctx.chat.community;
        let quota = self.store.settings(community).await?.vacation_days;
        let month = month_of(ctx.now);
        let args = args.trim();
        if args.is_empty() {
            let used = self
                .store
                .vacation_days_used(community, ctx.user.id, month)
                .await?;
            let mut text = format!(
                " has taken {used} of {quota} vacation days this month (UTC). While on \
                 vacation your clocks stand still; /vacation <days> takes some."
            );
            if let Some(end) = self
                .store
                .vacation_end(community, ctx.user.id, ctx.now)
                .await?
            {
                text.push_str(&format!(" On vacation until {}.", moment(end)));
            }
            return Ok(Reply {
                spans: vec![mention(&ctx.user), Span::Text(text)],
                ..Reply::default()
            });
        }
        if quota == 0 {
            return Err(UserError::VacationOff.into());
        }
        let days = parse_amount(args, 1, quota).ok_or(UserError::BadVacation { quota })?;
        self.not_repeated(ctx).await?;
        let vacation = self
            .store
            .take_vacation(
                &NewVacation {
                    community,
                    user: ctx.user.id,
                    days,
                    now: ctx.now,
                    month,
                    quota,
                },
                Some(&ctx.key),
            )
            .await
            .map_err(|error| match error {
                StoreError::Conflict(Conflict::VacationQuota { used, quota }) => {
                    Failure::User(UserError::VacationQuota { used, quota })
                }
                other => other.into(),
            })?;
        Ok(Reply {
            spans: vec![
                mention(&ctx.user),
                Span::Text(format!(
                    " is on vacation from {} until {}: clocks stand still for {} ({days} of \
                     this month's {quota} vacation days).",
                    moment(vacation.starts_at),
                    moment(vacation.ends_at),
                    duration(vacation.ends_at.0 - vacation.starts_at.0)
                )),
            ],
            ..Reply::default()
        })
    }

    /// The clock under a board: how long the player to move has left.
    pub(super) fn clock_spans(&self, record: &GameRecord) -> Vec<Span> {
        let Some(clock) = record.clock.filter(|_| record.status == GameStatus::Active) else {
            return Vec::new();
        };
        let now = self.clock.now();
        let text = if clock.started_at > now {
            format!(
                " On vacation: the clock starts at {}, then {} to move.",
                moment(clock.started_at),
                duration(clock.deadline_at.0 - clock.started_at.0)
            )
        } else if clock.deadline_at > now {
            format!(
                " {} left (until {}).",
                duration(clock.deadline_at.0 - now.0),
                moment(clock.deadline_at)
            )
        } else {
            format!(
                " Out of time since {}: the opponent may /claim.",
                moment(clock.deadline_at)
            )
        };
        vec![Span::Text(text)]
    }
}
