//! Draw offers (issue 39): `/draw` offers one in a two-player game, at any time while it runs;
//! the opponent accepts or declines with the buttons under the offer, or accepts by offering
//! one back (`/draw`). An offer lapses when its maker moves again ([`Store::standing_offer`]).
//! An agreed draw ends the game like any draw: the stakes go back, and it is rated as a draw.
//!
//! Races are settled by the store: the draw ends the game only if nobody moved since the
//! game was read (`expected_seq`), so an acceptance and a move at once leave one of them, and
//! two acceptances end the game once.

use super::narration::{Verdict, mentions_msg, name_msg};
use super::{
    Ctx, Handled, Loaded, Placement, Reply, Service, UserError, is_computer, mention, said_button,
};
use crate::l10n::{Msg, Span, game_msg};
use crate::store::{Ending, GameEnd, GameNo, GameStatus, OfferKind, Offered, Payout, UserId};

/// The result stored for a draw the players agreed.
pub(super) const AGREED_DRAW: &str = "draw (agreed)";

impl Service {
    /// `/draw`: offers a draw in `game`, or accepts the opponent's standing offer.
    pub(super) async fn offer_draw(&self, ctx: &Ctx, game: GameNo) -> Handled<Reply> {
        self.not_repeated(ctx).await?;
        let loaded = self.load(ctx, game).await?;
        self.may_draw(ctx, &loaded)?;
        let record = &loaded.record;
        match self
            .store
            .make_offer(game, OfferKind::Draw, ctx.user.id, record.seq, ctx.now)
            .await?
        {
            Offered::Already(_) => Err(UserError::DrawOffered(game).into()),
            Offered::Theirs(offer) => self.agree_draw(ctx, loaded, offer.by).await,
            Offered::Made => {
                let opponents: Vec<_> = record
                    .seats
                    .iter()
                    .map(|holder| &holder.user)
                    .filter(|user| user.id != ctx.user.id)
                    .collect();
                Ok(Reply {
                    game: Some(game),
                    spans: vec![Span::Msg(
                        Msg::new("draw-offered")
                            .span("person", mention(&ctx.user))
                            .text("game", format!("#{game}"))
                            .msg("name", game_msg(record.game))
                            .msg("opponent", mentions_msg(opponents.iter().copied())),
                    )],
                    notify: opponents
                        .iter()
                        .map(|user| user.platform_user_id.clone())
                        .collect(),
                    buttons: vec![vec![
                        said_button(
                            Msg::new("button-accept-draw"),
                            format!("i{game}.{}", ctx.user.id.0),
                        ),
                        said_button(
                            Msg::new("button-decline-draw"),
                            format!("j{game}.{}", ctx.user.id.0),
                        ),
                    ]],
                    ..Reply::default()
                })
            }
        }
    }

    /// A press of Accept (`i<game>.<offerer>`) or Decline (`j…`) under `offerer`'s draw offer.
    pub(super) async fn answer_draw(
        &self,
        ctx: &Ctx,
        game: GameNo,
        offerer: UserId,
        accept: bool,
    ) -> Handled<Reply> {
        self.not_repeated(ctx).await?;
        let loaded = self.load(ctx, game).await?;
        self.may_draw(ctx, &loaded)?;
        if ctx.user.id == offerer {
            return Err(UserError::OwnDrawOffer(game).into());
        }
        let standing = self
            .store
            .standing_offer(game, OfferKind::Draw)
            .await?
            .filter(|offer| offer.by == offerer);
        if standing.is_none() {
            return Err(UserError::DrawLapsed(game).into());
        }
        if accept {
            return self.agree_draw(ctx, loaded, offerer).await;
        }
        if !self
            .store
            .remove_offer(game, OfferKind::Draw, offerer)
            .await?
        {
            return Err(UserError::DrawLapsed(game).into());
        }
        let maker = super::seated(&loaded.record, offerer);
        Ok(Reply {
            game: Some(game),
            spans: vec![Span::Msg(
                Msg::new("draw-declined")
                    .span("person", mention(&ctx.user))
                    .text("game", format!("#{game}"))
                    .msg("maker", maker.map_or_else(|| Msg::new("someone"), name_msg)),
            )],
            notify: maker
                .map(|user| vec![user.platform_user_id.clone()])
                .unwrap_or_default(),
            // The offer's message says so, without its buttons.
            placement: Placement::UpdatePressed,
            ..Reply::default()
        })
    }

    /// Whether a draw may be offered or answered in `loaded` by the person of `ctx`: an active
    /// game of two sides of one person each, both people, the person one of them.
    fn may_draw(&self, ctx: &Ctx, loaded: &Loaded) -> Handled<()> {
        let record = &loaded.record;
        let game = record.id;
        if record.status != GameStatus::Active {
            return Err(UserError::GameOver(game).into());
        }
        if !record.is_seated(ctx.user.id) {
            return Err(UserError::NotAPlayer(game).into());
        }
        if record.game.seats().len() != 2 {
            return Err(UserError::DrawTwoPlayers(game).into());
        }
        if record.seats.iter().any(|holder| is_computer(&holder.user)) {
            return Err(UserError::DrawComputer(game).into());
        }
        Ok(())
    }

    /// Ends `loaded` drawn by agreement: the offer of `offerer` accepted by the person of
    /// `ctx`, if nobody moved since it was read.
    async fn agree_draw(&self, ctx: &Ctx, loaded: Loaded, offerer: UserId) -> Handled<Reply> {
        let ending = Ending {
            end: GameEnd::Finished,
            result: AGREED_DRAW,
            payout: Payout::Refund,
            actor: Some(ctx.user.id),
            expected_seq: Some(loaded.record.seq),
            deadline_passed: None,
            rated_at: None,
        };
        let (record, announced) = self
            .end_game_announcing(ctx, &loaded.record, &ending)
            .await?;
        let maker = super::seated(&record, offerer);
        let cause = Msg::new("cause-draw-agreed")
            .span("person", mention(&ctx.user))
            .msg("maker", maker.map_or_else(|| Msg::new("someone"), name_msg));
        self.ended_board(loaded, &record, Verdict::Draw, cause, announced)
            .await
    }
}
