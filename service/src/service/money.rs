//! Money in the service: `/wallet`, `/leaderboard`, a moderator's `/grant` and `/take`, and
//! the notice that a fine left someone in debt. Stakes are taken when a game starts and the pot
//! is settled when it ends, in the store's transactions (see `store::ledger`); this module only
//! asks and tells.

use serde_json::json;

use super::{
    Audience, Consequences, Ctx, Failure, Handled, ModeratorAction, Reply, Service, ServiceError,
    Span, UserError, coins_msg, mention,
};
use crate::commands::{CommandId, MAX_COINS, ParsedCommand};
use crate::l10n::Msg;
use crate::store::{Adjustment, Announce, ChatId, Conflict, GameRecord, StoreError, User, UserId};

/// How many people `/leaderboard` lists.
const LEADERBOARD_SIZE: i64 = 10;

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
            .filter(|amount| (1..=MAX_COINS).contains(amount))
            .ok_or(UserError::BadAmount { max: MAX_COINS })?;
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
        let adjustment = Adjustment {
            community: ctx.chat.community,
            user: user.id,
            amount: signed,
            actor: ctx.user.id,
            reason: &reason,
        };
        // Its reply is announced with it (see `announce.rs`): what to tell is in the payload,
        // the balance is read when it is told.
        let result = match self.announcement_hold() {
            Some((owner, until)) => {
                let payload = json!({
                    "adjusted": user.id.0,
                    "by": ctx.user.id.0,
                    "amount": signed,
                    "told": told,
                })
                .to_string();
                let announce = Announce {
                    payload: &payload,
                    held: Some((&owner, until)),
                };
                self.store
                    .adjust_wallet_announced(&adjustment, &ctx.key, ctx.chat.id, &announce)
                    .await
                    .map(|(wallet, row)| (wallet, Some(row)))
            }
            None => self
                .store
                .adjust_wallet(
                    adjustment.community,
                    adjustment.user,
                    signed,
                    adjustment.actor,
                    &reason,
                    Some(&ctx.key),
                )
                .await
                .map(|wallet| (wallet, None)),
        };
        let (wallet, announced) = result.map_err(|error| match error {
            StoreError::Conflict(Conflict::InsufficientFunds { balance, .. }) => {
                Failure::User(UserError::TakeTooMuch {
                    name: user.display_name.clone(),
                    balance,
                })
            }
            other => other.into(),
        })?;
        let mut reply = adjustment_reply(&ctx.user, &user, signed, &told, wallet.balance);
        reply.announced = announced;
        Ok(reply)
    }

    /// The reply to a grant or take whose process died before posting it, from its
    /// announcement's payload (`adjusted`, `by`, `amount`, `told`), with the balance as it is
    /// when told.
    pub(super) async fn adjustment_post_of(
        &self,
        chat: ChatId,
        payload: &serde_json::Value,
    ) -> Result<Option<Reply>, ServiceError> {
        let number = |name: &str| payload.get(name).and_then(serde_json::Value::as_i64);
        let (Some(adjusted), Some(by), Some(amount)) =
            (number("adjusted"), number("by"), number("amount"))
        else {
            return Ok(None);
        };
        let told = payload
            .get("told")
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default();
        let (Some(chat), Some(person), Some(moderator)) = (
            self.store.chat(chat).await?,
            self.store.user(UserId(adjusted)).await?,
            self.store.user(UserId(by)).await?,
        ) else {
            return Ok(None);
        };
        let balance = self
            .store
            .wallet(chat.community, person.id)
            .await?
            .map_or(0, |wallet| wallet.balance);
        Ok(Some(adjustment_reply(
            &moderator, &person, amount, told, balance,
        )))
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

/// "@MOD granted 70 coins to @CAROL (prize), who now has 1,070 coins.", or took them:
/// `amount` above zero a grant, below zero a take; `told` the reason as said (" (prize)") or
/// nothing.
fn adjustment_reply(
    moderator: &User,
    person: &User,
    amount: i64,
    told: &str,
    balance: i64,
) -> Reply {
    let id = if amount < 0 {
        "coins-taken"
    } else {
        "coins-granted"
    };
    Reply {
        spans: vec![Span::Msg(
            Msg::new(id)
                .span("moderator", mention(moderator))
                .msg("amount", coins_msg(amount.saturating_abs()))
                .span("person", mention(person))
                .text("reason", told)
                .msg("balance", coins_msg(balance)),
        )],
        ..Reply::default()
    }
}
