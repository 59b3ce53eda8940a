//! Takebacks (issue 39): `/takeback` asks the opponent, with Accept and Decline buttons, to
//! undo the asker's last move: the actions at the end of the log that the asker made, since
//! the last roll and before anyone else acted (so a roll is never undone: in Coan Ki and
//! Pachisi only the moves of a turn still being played). The request says what will be
//! undone and lapses when anyone moves. Accepted, the game goes back in one transaction
//! ([`Store::take_back`]): the asker is to move again, their clock running from when their
//! turn began; stakes are untouched; the board is posted again, and `/history` and the record
//! tell the takeback.

use super::narration::name_msg;
use super::{
    Change, Ctx, Handled, Loaded, Placement, Reply, Service, UserError, is_computer, mention,
    said_button, team_of,
};
use crate::l10n::{Msg, Span, game_msg};
use crate::store::{
    ActionRecord, GameNo, GameRecord, GameStatus, OfferKind, Offered, TakeBack, UserId,
};

/// How many actions at the end of `actions` `user` may take back: those they made since the
/// last roll and since anyone else acted (0: none).
pub(super) fn takeable(actions: &[ActionRecord], user: UserId) -> usize {
    actions
        .iter()
        .rev()
        .take_while(|action| action.actor == Some(user))
        .count()
}

impl Service {
    /// `/takeback`: asks the opponents of the person of `ctx` in `game` to undo their last
    /// move.
    pub(super) async fn ask_takeback(&self, ctx: &Ctx, game: GameNo) -> Handled<Reply> {
        self.not_repeated(ctx).await?;
        let full = self.whole_log(ctx, game).await?;
        self.may_take_back(ctx, &full.record)?;
        let count = takeable(&full.actions, ctx.user.id);
        if count == 0 {
            return Err(UserError::NothingToTakeBack(game).into());
        }
        let record = &full.record;
        let undone = full.actions[full.actions.len() - count..]
            .iter()
            .map(|action| action.action.clone())
            .collect::<Vec<_>>()
            .join(", ");
        match self
            .store
            .make_offer(game, OfferKind::Takeback, ctx.user.id, record.seq, ctx.now)
            .await?
        {
            Offered::Made => {}
            Offered::Already(_) => return Err(UserError::TakebackAsked(game).into()),
            // Only the last mover has a move to take back: another's request cannot stand at
            // the same point of the game.
            Offered::Theirs(_) => return Err(UserError::NothingToTakeBack(game).into()),
        }
        let mine = team_of(record.game, seat_of(record, ctx.user.id));
        let opponents: Vec<_> = record
            .seats
            .iter()
            .filter(|holder| team_of(record.game, holder.seat) != mine)
            .map(|holder| &holder.user)
            .fold(Vec::new(), |mut people, user| {
                if !people.iter().any(|p: &&crate::store::User| p.id == user.id) {
                    people.push(user);
                }
                people
            });
        let seq = record.seq;
        Ok(Reply {
            game: Some(game),
            spans: vec![Span::Msg(
                Msg::new("takeback-asked")
                    .span("person", mention(&ctx.user))
                    .text("game", format!("#{game}"))
                    .msg("name", game_msg(record.game))
                    .span("moves", Span::Code(undone))
                    .count("count", count)
                    .msg(
                        "opponent",
                        super::narration::mentions_msg(opponents.iter().copied()),
                    ),
            )],
            notify: opponents
                .iter()
                .map(|user| user.platform_user_id.clone())
                .collect(),
            buttons: vec![vec![
                said_button(Msg::new("button-accept-takeback"), format!("t{game}.{seq}")),
                said_button(
                    Msg::new("button-decline-takeback"),
                    format!("z{game}.{seq}"),
                ),
            ]],
            ..Reply::default()
        })
    }

    /// A press of Accept (`t<game>.<seq>`) or Decline (`z…`) under a takeback request made
    /// when `game` had `seq` actions.
    pub(super) async fn answer_takeback(
        &self,
        ctx: &Ctx,
        game: GameNo,
        seq: u32,
        accept: bool,
    ) -> Handled<Reply> {
        self.not_repeated(ctx).await?;
        let full = self.whole_log(ctx, game).await?;
        self.may_take_back(ctx, &full.record)?;
        let record = &full.record;
        let Some(offer) = self
            .store
            .standing_offer(game, OfferKind::Takeback)
            .await?
            .filter(|offer| offer.seq == seq && record.seq == seq)
        else {
            return Err(UserError::TakebackLapsed(game).into());
        };
        if team_of(record.game, seat_of(record, offer.by))
            == team_of(record.game, seat_of(record, ctx.user.id))
        {
            return Err(UserError::OwnTakeback(game).into());
        }
        let asker = super::seated(record, offer.by);
        let asker_msg = asker.map_or_else(|| Msg::new("someone"), name_msg);
        if !accept {
            if !self
                .store
                .remove_offer(game, OfferKind::Takeback, offer.by)
                .await?
            {
                return Err(UserError::TakebackLapsed(game).into());
            }
            return Ok(Reply {
                game: Some(game),
                spans: vec![Span::Msg(
                    Msg::new("takeback-declined")
                        .span("person", mention(&ctx.user))
                        .msg("asker", asker_msg)
                        .text("game", format!("#{game}")),
                )],
                notify: asker
                    .map(|user| vec![user.platform_user_id.clone()])
                    .unwrap_or_default(),
                placement: Placement::UpdatePressed,
                ..Reply::default()
            });
        }
        let count = takeable(&full.actions, offer.by);
        if count == 0 {
            return Err(UserError::TakebackLapsed(game).into());
        }
        let to = seq - u32::try_from(count).unwrap_or(seq);
        let undone = full.actions[full.actions.len() - count..]
            .iter()
            .map(|action| action.action.clone())
            .collect::<Vec<_>>()
            .join(", ");
        let pending = self.pending_announcement(
            Change::Move {
                game,
                from: to,
                seq: to,
            },
            ctx.pressed.as_deref(),
        );
        let announced = self
            .store
            .take_back(
                &TakeBack {
                    game,
                    from: seq,
                    to,
                    by: offer.by,
                    accepted_by: ctx.user.id,
                    request: &ctx.key,
                },
                pending.as_ref().map(|p| p.as_announce()).as_ref(),
            )
            .await?;
        let loaded: Loaded = self.load(ctx, game).await?;
        let spans = vec![
            Span::Msg(
                Msg::new("takeback-done")
                    .span("person", mention(&ctx.user))
                    .msg("asker", asker_msg)
                    .text("game", format!("#{game}"))
                    .span("moves", Span::Code(undone))
                    .count("count", count),
            ),
            Span::Text("\n".into()),
        ];
        let mut reply = self.board_reply(&loaded, spans).await?;
        reply.announced = announced;
        Ok(reply)
    }

    /// Whether a takeback may be asked for or answered in `record` by the person of `ctx`:
    /// an active game between people, the person one of them.
    fn may_take_back(&self, ctx: &Ctx, record: &GameRecord) -> Handled<()> {
        let game = record.id;
        if record.status != GameStatus::Active {
            return Err(UserError::GameOver(game).into());
        }
        if !record.is_seated(ctx.user.id) {
            return Err(UserError::NotAPlayer(game).into());
        }
        if record.seats.iter().any(|holder| is_computer(&holder.user)) {
            return Err(UserError::TakebackComputer(game).into());
        }
        Ok(())
    }
}

/// The first seat `user` holds in `record` (0 when none: they were checked to hold one).
fn seat_of(record: &GameRecord, user: UserId) -> u8 {
    record
        .seats
        .iter()
        .find(|holder| holder.user.id == user)
        .map_or(0, |holder| holder.seat)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Timestamp;

    fn action(seq: u32, actor: Option<i64>) -> ActionRecord {
        ActionRecord {
            seq,
            action: format!("a{seq}"),
            actor: actor.map(UserId),
            at: Timestamp(0),
        }
    }

    #[test]
    fn only_ones_own_moves_since_the_last_roll_or_reply_are_takeable() {
        let log = [action(1, None), action(2, Some(1)), action(3, Some(1))];
        assert_eq!(takeable(&log, UserId(1)), 2);
        assert_eq!(takeable(&log, UserId(2)), 0);
        let rolled = [action(1, Some(1)), action(2, None)];
        assert_eq!(takeable(&rolled, UserId(1)), 0, "a roll is never undone");
        let replied = [action(1, Some(1)), action(2, Some(2))];
        assert_eq!(takeable(&replied, UserId(1)), 0);
        assert_eq!(takeable(&replied, UserId(2)), 1);
        assert_eq!(takeable(&[], UserId(1)), 0);
    }
}
