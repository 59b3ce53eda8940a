//! Money in the service: `/wallet`, `/leaderboard`, a moderator's `/grant` and `/take`, and
//! the notice that a fine left someone in debt. Stakes are taken when a game starts and the pot
//! is settled when it ends, in the store's transactions (see `store::ledger`); this module only
//! asks and tells.

use crate::catalogue::ParsedCommand;
use crate::store::GameRecord;

use super::{
    Audience, Consequences, Ctx, Outcome2, Reply, Service, Span, UserError, coins, mention,
};

/// How many people `/leaderboard` lists.
const LEADERBOARD_SIZE: i64 = 10;

/// The most a moderator may grant or take at once.
pub(super) const MAX_AMOUNT: i64 = 1_000_000_000;

impl Service {
    /// `/wallet`: the caller's balance here (a new wallet gets the starting grant).
    pub(super) async fn wallet(&self, ctx: &Ctx) -> Outcome2<Reply> {
        let wallet = self
            .store
            .open_wallet(ctx.chat.community, ctx.user.id)
            .await?;
        let mut text = format!(
            " has {} in {}",
            coins(wallet.balance),
            ctx.chat.community_title
        );
        if wallet.in_play > 0 {
            text.push_str(&format!(
                ", and {} staked in games being played",
                coins(wallet.in_play)
            ));
        }
        text.push('.');
        if wallet.balance <= 0 {
            text.push_str(" No staked games until the balance is above zero again.");
        }
        Ok(Reply {
            audience: Audience::Actor,
            spans: vec![mention(&ctx.user), Span::Text(text)],
            ..Reply::default()
        })
    }

    /// `/leaderboard`: the richest people here. Names are written plainly: a list should not
    /// call ten people.
    pub(super) async fn leaderboard(&self, ctx: &Ctx) -> Outcome2<Reply> {
        let rows = self
            .store
            .leaderboard(ctx.chat.community, LEADERBOARD_SIZE)
            .await?;
        if rows.is_empty() {
            return Ok(Reply {
                spans: vec![Span::Text(format!(
                    "Nobody in {} has a wallet yet; /wallet opens yours.",
                    ctx.chat.community_title
                ))],
                ..Reply::default()
            });
        }
        let mut lines = vec![format!("The richest in {}:", ctx.chat.community_title)];
        for (rank, (user, balance)) in rows.iter().enumerate() {
            lines.push(format!(
                "{}. {}: {}",
                rank + 1,
                user.display_name,
                coins(*balance)
            ));
        }
        Ok(Reply {
            spans: vec![Span::Text(lines.join("\n"))],
            ..Reply::default()
        })
    }

    /// `/grant @user <amount> [reason]` and `/take @user <amount> [reason]` (moderators).
    pub(super) async fn adjust(
        &self,
        ctx: &Ctx,
        command: &ParsedCommand,
        take: bool,
    ) -> Outcome2<Reply> {
        let (verb, usage) = if take {
            (
                "take coins",
                "/take @user <amount> [reason], e.g. /take @bob 50 cheating",
            )
        } else {
            (
                "grant coins",
                "/grant @user <amount> [reason], e.g. /grant @bob 100 prize",
            )
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
        let user = self.known_person(ctx).await?;
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
        let what = if take { " took " } else { " granted " };
        let direction = if take { " from " } else { " to " };
        Ok(Reply {
            spans: vec![
                mention(&ctx.user),
                Span::Text(format!("{what}{}{direction}", coins(amount))),
                mention(&user),
                Span::Text(format!("{told}, who now has {}.", coins(wallet.balance))),
            ],
            ..Reply::default()
        })
    }

    /// "@alice's balance is now -5: no staked games until it is above zero", for each payer
    /// of a fine whom it left at or below zero.
    pub(super) async fn debt_spans(
        &self,
        record: &GameRecord,
        consequences: &Consequences,
    ) -> Outcome2<Vec<Span>> {
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
                    crate::l10n::Msg::new("in-debt-now")
                        .span("person", mention(payer))
                        .msg("balance", super::coins_msg(wallet.balance)),
                ));
            }
        }
        Ok(spans)
    }
}
