//! Money in the service: `/wallet`, `/leaderboard`, a moderator's `/grant` and `/take`, and
//! the notice that a fine left someone in debt. Stakes are taken when a game starts and the pot
//! is settled when it ends, in the store's transactions (see `store::ledger`); this module only
//! asks and tells.

use crate::commands::{CommandId, ParsedCommand};
use crate::store::GameRecord;

use super::{
    Audience, Consequences, Ctx, Handled, ModeratorAction, Reply, Service, Span, UserError,
    coins_msg, mention,
};
use crate::l10n::Msg;

/// How many people `/leaderboard` lists.
const LEADERBOARD_SIZE: i64 = 10;

/// The most a moderator may grant or take at once.
pub(super) const MAX_AMOUNT: i64 = 1_000_000_000;

impl Service {
    /// `/wallet`: the caller's balance here (a new wallet gets the starting grant).
    pub(super) async fn wallet(&self, ctx: &Ctx) -> Handled<Reply> {
        let wallet = self
            .store
            .open_wallet(ctx.chat.community, ctx.user.id)
            .await?;
        let mut spans = vec![Span::Msg(
            Msg::new("wallet")
                .span("person", mention(&ctx.user))
                .msg("balance", coins_msg(wallet.balance))
                .text("community", ctx.chat.community_title.clone())
                .num("staked", wallet.in_play)
                .msg("in-play", coins_msg(wallet.in_play)),
        )];
        if wallet.balance <= 0 {
            spans.push(Span::Text(" ".into()));
            spans.push(Span::Msg(Msg::new("wallet-in-debt")));
        }
        Ok(Reply {
            audience: Audience::Actor,
            spans,
            ..Reply::default()
        })
    }

    /// `/leaderboard`: the richest people here. Names are written plainly: a list should not
    /// call ten people.
    pub(super) async fn leaderboard(&self, ctx: &Ctx) -> Handled<Reply> {
        let rows = self
            .store
            .leaderboard(ctx.chat.community, LEADERBOARD_SIZE)
            .await?;
        if rows.is_empty() {
            return Ok(Reply {
                spans: vec![Span::Msg(
                    Msg::new("leaderboard-empty")
                        .text("community", ctx.chat.community_title.clone()),
                )],
                ..Reply::default()
            });
        }
        let mut spans = vec![Span::Msg(
            Msg::new("leaderboard").text("community", ctx.chat.community_title.clone()),
        )];
        for (rank, (user, balance)) in rows.iter().enumerate() {
            spans.push(Span::Text(format!(
                "\n{}. {}: ",
                rank + 1,
                user.display_name
            )));
            spans.push(Span::Msg(coins_msg(*balance)));
        }
        Ok(Reply {
            spans,
            ..Reply::default()
        })
    }

    /// `/grant @user <amount> [reason]` and `/take @user <amount> [reason]` (moderators).
    pub(super) async fn adjust(
        &self,
        ctx: &Ctx,
        command: &ParsedCommand,
        take: bool,
    ) -> Handled<Reply> {
        let (verb, usage) = if take {
            (ModeratorAction::Take, CommandId::Take)
        } else {
            (ModeratorAction::Grant, CommandId::Grant)
        };
        if !ctx.moderator {
            return Err(UserError::NotModerator(verb).into());
        }
        self.not_repeated(ctx).await?;
        // The person is the request's mention (the catalogue checked that one was typed).
        if command.mentions.is_empty() {
            return Err(UserError::Usage(usage).into());
        }
        let Some(amount) = command.integer("coins") else {
            return Err(UserError::Usage(usage).into());
        };
        let amount = Some(amount)
            .filter(|amount| (1..=MAX_AMOUNT).contains(amount))
            .ok_or(UserError::BadAmount { max: MAX_AMOUNT })?;
        let reason = command
            .text
            .as_deref()
            .unwrap_or_default()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        // The ledger keeps a reason; the reply names the moderator already, so a default
        // reason is not repeated there.
        let told = if reason.is_empty() {
            String::new()
        } else {
            format!(" ({reason})")
        };
        let reason = if reason.is_empty() {
            if take {
                "taken by a moderator".to_string()
            } else {
                "granted by a moderator".to_string()
            }
        } else {
            reason
        };
        let user = self.known_person(ctx, usage).await?;
        let signed = if take { -amount } else { amount };
        let wallet =
            self.store
                .adjust_wallet(
                    ctx.chat.community,
                    user.id,
                    signed,
                    ctx.user.id,
                    &reason,
                    Some(&ctx.key),
                )
                .await
                .map_err(|error| match error {
                    crate::store::StoreError::Conflict(
                        crate::store::Conflict::InsufficientFunds { balance, .. },
                    ) => super::Failure::User(UserError::TakeTooMuch {
                        name: user.display_name.clone(),
                        balance,
                    }),
                    other => other.into(),
                })?;
        Ok(Reply {
            spans: vec![Span::Msg(
                Msg::new(if take { "coins-taken" } else { "coins-granted" })
                    .span("moderator", mention(&ctx.user))
                    .msg("amount", coins_msg(amount))
                    .span("person", mention(&user))
                    .text("reason", told)
                    .msg("balance", coins_msg(wallet.balance)),
            )],
            ..Reply::default()
        })
    }

    /// "@alice's balance is now -5: no staked games until it is above zero", for each payer
    /// of a fine whom it left at or below zero.
    pub(super) async fn debt_spans(
        &self,
        record: &GameRecord,
        consequences: &Consequences,
    ) -> Handled<Vec<Span>> {
        let mut spans = Vec::new();
        for fine in &consequences.fines {
            let Some(wallet) = self.store.wallet(record.community, fine.payer).await? else {
                continue;
            };
            if wallet.balance > 0 {
                continue;
            }
            if let Some(payer) = super::seated(record, fine.payer) {
                spans.push(Span::Text(" ".into()));
                spans.push(Span::Msg(
                    Msg::new("in-debt-now")
                        .span("person", mention(payer))
                        .msg("balance", coins_msg(wallet.balance)),
                ));
            }
        }
        Ok(spans)
    }
}
