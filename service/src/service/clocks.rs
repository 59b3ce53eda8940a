//! Time limits: the clock of the turn being played, `/claim` when it has run out, `/vacation`,
//! and a moderator's `/abort`.
//!
//! Decisions (issue 6): a player who is out of time may still move until the opponent claims;
//! the first to act wins the race (the claim is a compare-and-set on the game's `seq`). A
//! vacation pauses the clocks of the player's running turns by its length (not those already
//! out of time), and a turn that begins during a vacation starts its clock when the vacation
//! ends. Vacation days count against the month in which they are taken.

use super::{
    Audience, Conflict, Ctx, Did, Failure, Handled, Loaded, ModeratorAction, Reply, Service,
    ServiceError, UserError, Verdict, brief, ending_spans, mention, seated, team_cause, team_name,
    team_of, team_users,
};
use crate::l10n::{Msg, Span, duration_msg};
use crate::store::{
    ChatId, Ending, GameNo, GameRecord, GameStatus, NewVacation, StoreError, Timestamp, User,
    UserId, Vacation,
};
use crate::time::month_of;

impl Service {
    /// `/claim [#game]`: the win, when the opponent's time has run out.
    pub(super) async fn claim(&self, ctx: &Ctx, game: GameNo) -> Handled<Reply> {
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
                left: clock.deadline_at.0 - ctx.now.0,
                until: clock.deadline_at,
            }
            .into());
        }
        let result = format!("winner {} (time)", team_name(id, my_team));
        let winners = team_users(record, my_team);
        let ended = self
            .end_game_announcing(
                ctx,
                record,
                &Ending {
                    expected_seq: Some(record.seq),
                    deadline_passed: Some(ctx.now),
                    ..Ending::win(&result, winners.clone(), ctx.user.id)
                },
            )
            .await;
        let (ended, announced) = match ended {
            Ok(ended) => ended,
            Err(StoreError::Conflict(Conflict::StaleSeq { .. })) => {
                // The late player moved first: the game goes on.
                let current = self.load(ctx, game).await?;
                return Self::stale(&current);
            }
            Err(StoreError::Conflict(Conflict::NotYetDue(_))) => {
                return Err(UserError::NotDueAnyMore(game).into());
            }
            Err(other) => return Err(other.into()),
        };
        let losers = team_of(id, seat.0);
        let cause = team_cause(&ended, losers, Did::RanOutOfTime);
        self.ended_board(loaded, &ended, Verdict::Winner(my_team), cause, announced)
            .await
    }

    /// `/abort [#game] [reason]`: the game stops without a result and the stakes are
    /// returned. Moderators may abort any game; its players only one in which nobody has
    /// moved yet (afterwards, /resign).
    pub(super) async fn abort(&self, ctx: &Ctx, game: GameNo, reason: &str) -> Handled<Reply> {
        let loaded = self.load(ctx, game).await?;
        self.abort_loaded(ctx, loaded, reason).await
    }

    /// [`Service::abort`] of a game loaded already.
    pub(super) async fn abort_loaded(
        &self,
        ctx: &Ctx,
        loaded: Loaded,
        reason: &str,
    ) -> Handled<Reply> {
        let game = loaded.record.id;
        if loaded.record.status != GameStatus::Active {
            return Err(UserError::GameOver(game).into());
        }
        let player = loaded.record.is_seated(ctx.user.id);
        if !ctx.moderator {
            if !player {
                return Err(UserError::NotModerator(ModeratorAction::AbortOthers).into());
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
        let (record, announced) = self
            .end_game_announcing(ctx, &loaded.record, &Ending::abort(&result, ctx.user.id))
            .await?;
        let cause = if reason.is_empty() {
            Msg::new("cause-aborted").span("person", mention(&ctx.user))
        } else {
            Msg::new("cause-aborted-because")
                .span("person", mention(&ctx.user))
                .text("reason", brief(reason))
        };
        let spans = ending_spans(&record, Verdict::Aborted, Some(cause), loaded.moves());
        let picture = self.ended_picture(loaded, &record).await?;
        Ok(Reply {
            game: Some(record.id),
            spans,
            picture,
            ..Reply::default()
        }
        .into_final_board(&record, announced))
    }

    /// `/vacation`: how many days are left this month; `/vacation <days>` takes them.
    pub(super) async fn vacation(&self, ctx: &Ctx, days: Option<i64>) -> Handled<Reply> {
        let community = ctx.chat.community;
        let quota = self.store.settings(community).await?.vacation_days;
        let month = month_of(ctx.now);
        let Some(days) = days else {
            let used = self
                .store
                .vacation_days_used(community, ctx.user.id, month)
                .await?;
            let mut spans = vec![Span::Msg(
                Msg::new("vacation-status")
                    .span("person", mention(&ctx.user))
                    .num("used", used)
                    .num("quota", quota),
            )];
            if let Some(end) = self
                .store
                .vacation_end(community, ctx.user.id, ctx.now)
                .await?
            {
                spans.push(Span::Text(" ".into()));
                spans.push(Span::Msg(Msg::new("vacation-until").moment("end", end.0)));
            }
            // One's own vacation status is for oneself, like /wallet.
            return Ok(Reply {
                audience: Audience::Actor,
                spans,
                ..Reply::default()
            });
        };
        if quota == 0 {
            return Err(UserError::VacationOff.into());
        }
        let days = Some(days)
            .filter(|days| (1..=quota).contains(days))
            .ok_or(UserError::BadVacation { quota })?;
        self.not_repeated(ctx).await?;
        let new = NewVacation {
            community,
            user: ctx.user.id,
            days,
            now: ctx.now,
            month,
            quota,
        };
        // Announced with the vacation (see `announce.rs`): told again, from the vacation
        // taken at this moment, if this process dies before the reply is posted.
        let payload =
            serde_json::json!({"vacation": ctx.user.id.0, "at": ctx.now.0, "quota": quota});
        let taken = match self.pending_payload(payload, None) {
            Some(pending) => self
                .store
                .take_vacation_announced(&new, &ctx.key, ctx.chat.id, &pending.as_announce())
                .await
                .map(|(vacation, row)| (vacation, Some(row))),
            None => self
                .store
                .take_vacation(&new, Some(&ctx.key))
                .await
                .map(|vacation| (vacation, None)),
        };
        let (vacation, announced) = taken.map_err(|error| match error {
            StoreError::Conflict(Conflict::VacationQuota { used, quota }) => {
                Failure::User(UserError::VacationQuota { used, quota })
            }
            other => other.into(),
        })?;
        let mut reply = vacation_taken(&ctx.user, &vacation, quota);
        reply.announced = announced;
        Ok(reply)
    }

    /// The reply to a vacation whose process died before posting it, from its announcement's
    /// payload (`vacation`: who, `at`: when it was taken, `quota`).
    pub(super) async fn vacation_post_of(
        &self,
        chat: ChatId,
        payload: &serde_json::Value,
    ) -> Result<Option<Reply>, ServiceError> {
        let number = |name: &str| payload.get(name).and_then(serde_json::Value::as_i64);
        let (Some(user), Some(at), Some(quota)) =
            (number("vacation"), number("at"), number("quota"))
        else {
            return Ok(None);
        };
        let (Some(chat), Some(user)) = (
            self.store.chat(chat).await?,
            self.store.user(UserId(user)).await?,
        ) else {
            return Ok(None);
        };
        let vacation = self
            .store
            .vacation_taken_at(chat.community, user.id, Timestamp(at))
            .await?;
        Ok(vacation.map(|vacation| vacation_taken(&user, &vacation, quota)))
    }

    /// The clock under a board: how long the player to move has left.
    pub(super) fn clock_spans(&self, record: &GameRecord) -> Vec<Span> {
        let Some(clock) = record.clock.filter(|_| record.status == GameStatus::Active) else {
            return Vec::new();
        };
        let now = self.clock.now();
        let msg = if clock.started_at > now {
            Msg::new("clock-vacation")
                .moment("start", clock.started_at.0)
                .msg(
                    "time",
                    duration_msg(clock.deadline_at.0 - clock.started_at.0),
                )
        } else if clock.deadline_at > now {
            Msg::new("clock-left")
                .msg("left", duration_msg(clock.deadline_at.0 - now.0))
                .moment("until", clock.deadline_at.0)
        } else {
            Msg::new("clock-out").moment("since", clock.deadline_at.0)
        };
        vec![Span::Text(" ".into()), Span::Msg(msg)]
    }
}

/// "@alice is on vacation from … until … UTC: clocks stand still for 3 days (3 of this
/// month's 7 vacation days)".
fn vacation_taken(user: &User, vacation: &Vacation, quota: i64) -> Reply {
    Reply {
        spans: vec![Span::Msg(
            Msg::new("vacation-taken")
                .span("person", mention(user))
                .moment("from", vacation.starts_at.0)
                .moment("until", vacation.ends_at.0)
                .msg(
                    "time",
                    duration_msg(vacation.ends_at.0 - vacation.starts_at.0),
                )
                .num("days", vacation.days)
                .num("quota", quota),
        )],
        ..Reply::default()
    }
}
