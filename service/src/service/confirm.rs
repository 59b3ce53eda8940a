//! Nothing destructive in one tap (issue 37): `/resign`, and `/abort` by a player, ask first.
//!
//! The question is a message of its own with two buttons, [Resign] (or [Abort the game]) and
//! [Keep playing]. Its buttons carry all it needs (the game, the actions it had then, who asked,
//! until when it holds), so no state is kept: a press after a minute, or after the game moved
//! on, finds it lapsed; a press by anyone else is refused, changing nothing. The question is
//! recorded with the game's messages that show buttons, so the game's next board takes its
//! buttons off. In Pachisi, resigning is the partnership's decision: when the asker's partner is
//! another person, the question is a proposal that the partner confirms (either may withdraw
//! it). A moderator aborting a game they do not play in is not asked.

use super::narration::people_msg;
use super::{
    Ctx, Handled, Loaded, Reply, Service, UserError, game_msg, is_computer, mention, players,
    said_button, seat_msg, team_label, team_of, team_users,
};
use crate::l10n::{Msg, Span};
use crate::store::{GameNo, GameRecord, GameStatus, User, UserId};

/// How long a question holds, in milliseconds.
const QUESTION_MILLIS: i64 = 60_000;

/// What a question asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Asked {
    /// To resign (button data `r…`).
    Resign,
    /// To abort (button data `q…`).
    Abort,
}

impl Asked {
    /// The first letter of its confirming button's data.
    pub(super) fn letter(self) -> char {
        match self {
            Asked::Resign => 'r',
            Asked::Abort => 'q',
        }
    }

    fn command(self) -> &'static str {
        match self {
            Asked::Resign => "/resign",
            Asked::Abort => "/abort",
        }
    }
}

/// A confirming press, as its button's data tells it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Answer {
    /// What was asked.
    pub(super) asked: Asked,
    /// The game.
    pub(super) game: GameNo,
    /// How many actions it had when asked.
    pub(super) seq: i64,
    /// Who asked.
    pub(super) asker: UserId,
    /// Until when the question holds (Unix seconds).
    pub(super) until: i64,
}

impl Service {
    /// `/resign` for `game`: the question, or (Pachisi, a person as partner) the proposal.
    pub(super) async fn ask_resign(&self, ctx: &Ctx, game: GameNo) -> Handled<Reply> {
        let record = self.active_seat(ctx, game).await?.record;
        let mine = my_team(&record, ctx.user.id);
        let opponents: Vec<UserId> = players(&record)
            .into_iter()
            .filter(|user| my_team(&record, user.id) != mine)
            .map(|user| user.id)
            .collect();
        let until = (ctx.now.0 + QUESTION_MILLIS).div_euclid(1000);
        let data = confirm_data(Asked::Resign, &record, ctx.user.id, until);
        let keep = format!("k{}.{}", record.id, ctx.user.id.0);
        let base = |id: &'static str| {
            Msg::new(id)
                .span("person", mention(&ctx.user))
                .text("game", format!("#{}", record.id))
                .msg("name", game_msg(record.game))
                .msg("opponents", people_msg(&record, &opponents))
        };
        let (msg, notify) = match partner(&record, ctx.user.id) {
            Some(partner) => (
                base("resign-proposal")
                    .msg("team", seat_msg(team_label(record.game, mine)))
                    .span("partner", mention(partner)),
                vec![partner.platform_user_id.clone()],
            ),
            None => (base("resign-question"), Vec::new()),
        };
        Ok(question(
            record.id,
            msg,
            notify,
            said_button(Msg::new("button-resign"), data),
            keep,
        ))
    }

    /// `/abort` by a player of `game`: the question.
    pub(super) async fn ask_abort(&self, ctx: &Ctx, game: GameNo) -> Handled<Reply> {
        let loaded = self.active_seat(ctx, game).await?;
        if loaded.moved && !ctx.moderator {
            return Err(UserError::AlreadyMoved(game).into());
        }
        let record = loaded.record;
        let until = (ctx.now.0 + QUESTION_MILLIS).div_euclid(1000);
        let data = confirm_data(Asked::Abort, &record, ctx.user.id, until);
        let keep = format!("k{}.{}", record.id, ctx.user.id.0);
        let msg = Msg::new("abort-question")
            .span("person", mention(&ctx.user))
            .text("game", format!("#{}", record.id))
            .msg("name", game_msg(record.game));
        Ok(question(
            record.id,
            msg,
            Vec::new(),
            said_button(Msg::new("button-abort"), data),
            keep,
        ))
    }

    /// A press of a question's confirming button: the resignation or the abort, if the
    /// question still holds and the presser may answer it.
    pub(super) async fn answer(&self, ctx: &Ctx, answer: Answer) -> Handled<Reply> {
        // Before reading the game, which a confirmation delivered again has already ended.
        self.not_repeated(ctx).await?;
        let loaded = self.active_seat(ctx, answer.game).await?;
        let record = &loaded.record;
        let asker = asker(record, answer.asker)?;
        let partner = match answer.asked {
            Asked::Resign => partner(record, asker.id),
            Asked::Abort => None,
        };
        let lapsed = i64::from(record.seq) != answer.seq || ctx.now.0 > answer.until * 1000;
        match partner {
            // A proposal: the partner answers it.
            Some(partner) if ctx.user.id != partner.id => {
                return Err(if ctx.user.id == asker.id {
                    UserError::PartnerConfirms(partner.display_name.clone())
                } else {
                    UserError::NotYourQuestion(partner.display_name.clone())
                }
                .into());
            }
            None if ctx.user.id != asker.id => {
                return Err(UserError::NotYourQuestion(asker.display_name.clone()).into());
            }
            _ => {}
        }
        if lapsed {
            return Err(UserError::QuestionLapsed(answer.asked.command()).into());
        }
        match answer.asked {
            Asked::Resign => self.resign(ctx, loaded).await,
            Asked::Abort => self.abort_loaded(ctx, loaded, "").await,
        }
    }

    /// A press of [Keep playing]: the question is withdrawn, its message updated in place.
    /// Only the asker (or, for a proposal, their partner) may.
    pub(super) async fn keep_playing(
        &self,
        ctx: &Ctx,
        game: GameNo,
        asker: UserId,
    ) -> Handled<Reply> {
        let record = self.active_seat(ctx, game).await?.record;
        let asker = self::asker(&record, asker)?;
        let partner = partner(&record, asker.id);
        if ctx.user.id != asker.id && partner.is_none_or(|p| p.id != ctx.user.id) {
            return Err(UserError::NotYourQuestion(asker.display_name.clone()).into());
        }
        Ok(Reply {
            placement: super::Placement::UpdatePressed,
            game: Some(record.id),
            spans: vec![Span::Msg(
                Msg::new("question-withdrawn")
                    .span("person", mention(&ctx.user))
                    .text("game", format!("#{}", record.id))
                    .msg("name", game_msg(record.game)),
            )],
            ..Reply::default()
        })
    }

    /// Game `game`, active, in which the actor holds a seat.
    async fn active_seat(&self, ctx: &Ctx, game: GameNo) -> Handled<Loaded> {
        let loaded = self.load(ctx, game).await?;
        if loaded.record.status != GameStatus::Active {
            return Err(UserError::GameOver(game).into());
        }
        if !loaded.record.is_seated(ctx.user.id) {
            return Err(UserError::NotAPlayer(game).into());
        }
        Ok(loaded)
    }
}

/// The asker of a question about `record`, one of its players.
fn asker(record: &GameRecord, asker: UserId) -> Handled<&User> {
    record
        .seats
        .iter()
        .map(|h| &h.user)
        .find(|user| user.id == asker)
        .ok_or_else(|| UserError::BadButton.into())
}

/// The data of a question's confirming button: `r<game>.<seq>.<asker>.<until>` (`q` for an
/// abort), `until` in Unix seconds.
fn confirm_data(asked: Asked, record: &GameRecord, asker: UserId, until: i64) -> String {
    format!(
        "{}{}.{}.{}.{until}",
        asked.letter(),
        record.id,
        record.seq,
        asker.0
    )
}

/// The team of `user` in `record` (a seated player).
fn my_team(record: &GameRecord, user: UserId) -> u8 {
    record
        .seats
        .iter()
        .find(|h| h.user.id == user)
        .map_or(0, |h| team_of(record.game, h.seat))
}

/// The other person of `user`'s team, when it is a person (not the computer, not `user`).
fn partner(record: &GameRecord, user: UserId) -> Option<&User> {
    let team = my_team(record, user);
    team_users(record, team)
        .into_iter()
        .filter(|id| *id != user)
        .filter_map(|id| super::seated(record, id))
        .find(|other| !is_computer(other))
}

/// A question about `game`: its text, who it notifies, and its two buttons.
fn question(
    game: GameNo,
    msg: Msg,
    notify: Vec<String>,
    confirm: super::Button,
    keep: String,
) -> Reply {
    Reply {
        game: Some(game),
        question: true,
        spans: vec![Span::Msg(msg)],
        notify,
        buttons: vec![vec![
            confirm,
            said_button(Msg::new("button-keep-playing"), keep),
        ]],
        ..Reply::default()
    }
}
