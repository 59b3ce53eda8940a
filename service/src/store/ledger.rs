//! Money: accounts (a community's bank, wallets, game pots) and the double-entry ledger. Every
//! change of a balance is one row of `ledger` (from one account to another) written in the same
//! transaction, so the sum of a community's balances is always zero (the bank is minus the money
//! given out) and every balance is the sum of its rows. The statements and the operations that
//! run them.
//!
//! Concurrency: a stake is taken by `UPDATE ... SET balance = balance - stake WHERE balance >=
//! stake`, which locks the row and re-checks the condition against the latest committed balance,
//! so two games started at once cannot spend the same money. A transaction that moves money
//! first locks every account it touches in ascending id order ([`lock_accounts`]: `FOR UPDATE`
//! on PostgreSQL; SQLite has one writer at a time), so two transactions
//! never wait for each other in a cycle. A game is settled once: the pot is paid out or refunded
//! only by the transaction that sets the game's `settled_at` from null.

use super::community::settings_in;
use super::executor::{Tx, TxOn, query, query_as, query_scalar};
use super::outbox::announce_if_any;
use super::requests::record_request;
use super::{
    Account, AccountId, AccountKind, Adjustment, Announce, ChatId, CommunityId, Conflict, Fine,
    GameNo, LeaderRow, LedgerEntry, LedgerKind, LedgerRow, OutboxId, Payout, RequestKey, Store,
    StoreError, Timestamp, User, UserId, Wallet, db, distinct, games,
};

pub(super) const BANK: &str = "\
SELECT id FROM accounts WHERE community_id = $1 AND kind = 'bank'";

pub(super) const INSERT_BANK: &str = "\
INSERT INTO accounts (community_id, kind, balance, created_at) VALUES ($1, 'bank', 0, $2)
ON CONFLICT (community_id) WHERE kind = 'bank' DO NOTHING";

/// A new wallet's id, or nothing when it exists.
pub(super) const INSERT_WALLET: &str = "\
INSERT INTO accounts (community_id, kind, user_id, balance, created_at)
VALUES ($1, 'wallet', $2, 0, $3)
ON CONFLICT (community_id, user_id) WHERE kind = 'wallet' DO NOTHING
RETURNING id";

pub(super) const WALLET: &str = "\
SELECT a.id, a.balance,
       CAST(COALESCE((SELECT SUM(l.amount) FROM ledger l JOIN games g ON g.id = l.game_id
                      WHERE l.from_account = a.id AND l.kind = 'stake'
                        AND g.status = 'active'), 0) AS BIGINT) AS in_play
FROM accounts a WHERE a.community_id = $1 AND a.user_id = $2 AND a.kind = 'wallet'";

pub(super) const WALLET_ID: &str = "\
SELECT id, balance FROM accounts WHERE community_id = $1 AND user_id = $2 AND kind = 'wallet'";

pub(super) const INSERT_POT: &str = "\
INSERT INTO accounts (community_id, kind, game_id, balance, created_at)
VALUES ($1, 'pot', $2, 0, $3) RETURNING id";

pub(super) const POT: &str = "SELECT id, balance FROM accounts WHERE game_id = $1 AND kind = 'pot'";

/// Takes `$2` from account `$1` if it holds that much; returns the new balance.
pub(super) const DEBIT_FUNDED: &str = "\
UPDATE accounts SET balance = balance - $2 WHERE id = $1 AND balance >= $2 RETURNING balance";

/// Takes `$2` from account `$1`, below zero if need be; returns the new balance.
pub(super) const DEBIT: &str =
    "UPDATE accounts SET balance = balance - $2 WHERE id = $1 RETURNING balance";

pub(super) const CREDIT: &str =
    "UPDATE accounts SET balance = balance + $2 WHERE id = $1 RETURNING balance";

pub(super) const INSERT_ENTRY: &str = "\
INSERT INTO ledger (community_id, kind, from_account, to_account, amount, game_id, actor_id,
                    reason, created_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";

/// Marks a game settled, once: no row when it already was.
pub(super) const MARK_SETTLED: &str =
    "UPDATE games SET settled_at = $2 WHERE id = $1 AND settled_at IS NULL";

/// What each wallet staked in a game, in account order.
pub(super) const STAKES_OF_GAME: &str = "\
SELECT from_account, CAST(SUM(amount) AS BIGINT) AS amount FROM ledger
WHERE game_id = $1 AND kind = 'stake' GROUP BY from_account ORDER BY from_account";

pub(super) const LEADERBOARD: &str = "\
SELECT u.id, u.platform, u.platform_user_id, u.display_name, u.created_at, u.updated_at, u.username,
       a.balance
FROM accounts a JOIN users u ON u.id = a.user_id
WHERE a.community_id = $1 AND a.kind = 'wallet'
ORDER BY a.balance DESC, u.id LIMIT $2";

pub(super) const ACCOUNTS: &str = "\
SELECT id, community_id, kind, user_id, game_id, balance FROM accounts
WHERE community_id = $1 ORDER BY id";

pub(super) const LEDGER: &str = "\
SELECT id, community_id, kind, from_account, to_account, amount, game_id, actor_id, reason,
       created_at
FROM ledger WHERE community_id = $1 ORDER BY id";

/// A row of [`ACCOUNTS`]: id, community, kind, user, game, balance.
type AccountRow = (i64, i64, String, Option<i64>, Option<i64>, i64);

/// One movement of money within a transaction.
#[derive(Debug, Clone, Copy)]
pub(super) struct Transfer<'a> {
    pub(super) community: i64,
    pub(super) kind: LedgerKind,
    pub(super) from: i64,
    pub(super) to: i64,
    pub(super) amount: i64,
    /// Refuse (with `None` from [`transfer`]) rather than go below zero.
    pub(super) funded: bool,
    pub(super) game: Option<i64>,
    pub(super) actor: Option<i64>,
    pub(super) reason: &'a str,
}

/// How a pot of `balance` is shared: (wallet owner, amount) for the winners, in order, the
/// first taking what does not divide.
pub(super) fn shares(balance: i64, winners: &[super::UserId]) -> Vec<(super::UserId, i64)> {
    let winners = super::distinct(winners);
    let Ok(count) = i64::try_from(winners.len()) else {
        return Vec::new();
    };
    if count == 0 || balance <= 0 {
        return Vec::new();
    }
    let share = balance / count;
    let rest = balance - share * count;
    winners
        .iter()
        .enumerate()
        .map(|(i, user)| (*user, if i == 0 { share + rest } else { share }))
        .filter(|(_, amount)| *amount > 0)
        .collect()
}

/// The kind of a settlement's rows.
pub(super) fn settlement_kind(payout: &Payout) -> LedgerKind {
    match payout {
        Payout::Winners(_) => LedgerKind::Payout,
        Payout::Refund => LedgerKind::Refund,
    }
}

/// Checks a stored account kind.
pub(super) fn account_kind(text: &str) -> Result<AccountKind, StoreError> {
    Ok(AccountKind::parse(text)?)
}

/// Locks the accounts whose ids are in the array `$1` until the transaction ends, in ascending
/// id order (PostgreSQL only: see [`lock_accounts`]).
pub(super) const LOCK_ACCOUNTS_POSTGRES: &str =
    "SELECT id FROM accounts WHERE id = ANY($1) ORDER BY id FOR UPDATE";

/// Locks `accounts` for the rest of the transaction, in ascending id order: `FOR UPDATE` on
/// PostgreSQL; nothing on SQLite, whose writing transaction holds the whole database (`BEGIN
/// IMMEDIATE`).
async fn lock_accounts(
    tx: &mut Tx,
    accounts: &[i64],
    operation: &'static str,
) -> Result<(), StoreError> {
    let mut ids = accounts.to_vec();
    ids.sort_unstable();
    ids.dedup();
    match &mut tx.backend {
        TxOn::Sqlite(_) => Ok(()),
        // The one statement with an array bind, which only PostgreSQL has.
        TxOn::Postgres(tx) => sqlx::query(LOCK_ACCOUNTS_POSTGRES)
            .bind(&ids)
            .fetch_all(&mut **tx)
            .await
            .map(|_| ())
            .map_err(db(operation)),
    }
}

/// Moves money and writes its ledger row. `None`: a funded transfer found too little in the
/// account (nothing was changed). Otherwise the balance left in the `from` account.
async fn transfer(
    tx: &mut Tx,
    transfer: &Transfer<'_>,
    now: Timestamp,
    operation: &'static str,
) -> Result<Option<i64>, StoreError> {
    let debit = if transfer.funded { DEBIT_FUNDED } else { DEBIT };
    let left: Option<i64> = query_scalar(debit)
        .bind(transfer.from)
        .bind(transfer.amount)
        .fetch_optional(&mut *tx)
        .await
        .map_err(db(operation))?;
    let Some(left) = left else {
        return Ok(None);
    };
    query(CREDIT)
        .bind(transfer.to)
        .bind(transfer.amount)
        .execute(&mut *tx)
        .await
        .map_err(db(operation))?;
    query(INSERT_ENTRY)
        .bind(transfer.community)
        .bind(transfer.kind.as_str())
        .bind(transfer.from)
        .bind(transfer.to)
        .bind(transfer.amount)
        .bind(transfer.game)
        .bind(transfer.actor)
        .bind(transfer.reason)
        .bind(now.0)
        .execute(&mut *tx)
        .await
        .map_err(db(operation))?;
    Ok(Some(left))
}

/// The community's bank account, created when missing.
async fn bank(
    tx: &mut Tx,
    community: i64,
    now: Timestamp,
    operation: &'static str,
) -> Result<i64, StoreError> {
    query(INSERT_BANK)
        .bind(community)
        .bind(now.0)
        .execute(&mut *tx)
        .await
        .map_err(db(operation))?;
    query_scalar(BANK)
        .bind(community)
        .fetch_one(&mut *tx)
        .await
        .map_err(db(operation))
}

/// A wallet's id and balance, if it exists.
async fn wallet_in(
    tx: &mut Tx,
    community: i64,
    user: UserId,
    operation: &'static str,
) -> Result<Option<(i64, i64)>, StoreError> {
    query_as(WALLET_ID)
        .bind(community)
        .bind(user.0)
        .fetch_optional(&mut *tx)
        .await
        .map_err(db(operation))
}

/// Opens a wallet with the community's starting grant, unless it exists.
async fn open_wallet_in(
    tx: &mut Tx,
    community: i64,
    user: UserId,
    now: Timestamp,
    operation: &'static str,
) -> Result<i64, StoreError> {
    let created: Option<i64> = query_scalar(INSERT_WALLET)
        .bind(community)
        .bind(user.0)
        .bind(now.0)
        .fetch_optional(&mut *tx)
        .await
        .map_err(db(operation))?;
    let Some(wallet) = created else {
        return wallet_in(tx, community, user, operation)
            .await?
            .map(|(id, _)| id)
            .ok_or_else(|| StoreError::Corrupt(format!("wallet of {user} vanished")));
    };
    let grant = settings_in(&mut *tx, community, operation)
        .await?
        .starting_grant;
    if grant > 0 {
        let bank = bank(tx, community, now, operation).await?;
        lock_accounts(tx, &[bank, wallet], operation).await?;
        transfer(
            tx,
            &Transfer {
                community,
                kind: LedgerKind::Grant,
                from: bank,
                to: wallet,
                amount: grant,
                funded: false,
                game: None,
                actor: None,
                reason: "starting grant",
            },
            now,
            operation,
        )
        .await?;
    }
    Ok(wallet)
}

/// Moves each distinct staker's stake into a new pot for the game.
pub(super) async fn take_stakes(
    tx: &mut Tx,
    game: i64,
    community: i64,
    stakers: &[UserId],
    stake: i64,
    now: Timestamp,
    operation: &'static str,
) -> Result<(), StoreError> {
    let pot: i64 = query_scalar(INSERT_POT)
        .bind(community)
        .bind(game)
        .bind(now.0)
        .fetch_one(&mut *tx)
        .await
        .map_err(db(operation))?;
    let mut wallets = Vec::new();
    for user in distinct(stakers) {
        let Some((wallet, balance)) = wallet_in(tx, community, user, operation).await? else {
            return Err(Conflict::InsufficientFunds {
                user,
                balance: 0,
                needed: stake,
            }
            .into());
        };
        wallets.push((user, wallet, balance));
    }
    let mut ids: Vec<i64> = wallets.iter().map(|(_, id, _)| *id).collect();
    ids.push(pot);
    lock_accounts(tx, &ids, operation).await?;
    for (user, wallet, _) in wallets {
        let taken = transfer(
            tx,
            &Transfer {
                community,
                kind: LedgerKind::Stake,
                from: wallet,
                to: pot,
                amount: stake,
                funded: true,
                game: Some(game),
                actor: Some(user.0),
                reason: "stake",
            },
            now,
            operation,
        )
        .await?;
        if taken.is_none() {
            let balance = wallet_in(tx, community, user, operation)
                .await?
                .map_or(0, |(_, balance)| balance);
            return Err(Conflict::InsufficientFunds {
                user,
                balance,
                needed: stake,
            }
            .into());
        }
    }
    Ok(())
}

/// Pays fines between wallets (below zero if need be).
pub(super) async fn pay_fines(
    tx: &mut Tx,
    game: i64,
    fines: &[Fine],
    now: Timestamp,
    operation: &'static str,
) -> Result<(), StoreError> {
    if fines.is_empty() {
        return Ok(());
    }
    let community = game_community(tx, game, operation).await?;
    let mut pairs = Vec::new();
    for fine in fines {
        let payer = open_wallet_in(tx, community, fine.payer, now, operation).await?;
        let payee = open_wallet_in(tx, community, fine.payee, now, operation).await?;
        pairs.push((fine, payer, payee));
    }
    let ids: Vec<i64> = pairs.iter().flat_map(|(_, a, b)| [*a, *b]).collect();
    lock_accounts(tx, &ids, operation).await?;
    for (fine, payer, payee) in pairs {
        transfer(
            tx,
            &Transfer {
                community,
                kind: LedgerKind::Fine,
                from: payer,
                to: payee,
                amount: fine.amount,
                funded: false,
                game: Some(game),
                actor: Some(fine.payer.0),
                reason: "fine",
            },
            now,
            operation,
        )
        .await?;
    }
    Ok(())
}

/// The community of a game.
async fn game_community(
    tx: &mut Tx,
    game: i64,
    operation: &'static str,
) -> Result<i64, StoreError> {
    let community: Option<i64> = query_scalar(games::GAME_COMMUNITY)
        .bind(game)
        .fetch_one(&mut *tx)
        .await
        .map_err(db(operation))?;
    community.ok_or_else(|| StoreError::Corrupt(format!("game {game} has no community")))
}

/// Settles an ended game's pot, once: pays the winners or refunds the stakes.
pub(super) async fn settle_pot(
    tx: &mut Tx,
    game: i64,
    payout: &Payout,
    actor: Option<UserId>,
    now: Timestamp,
    operation: &'static str,
) -> Result<(), StoreError> {
    let marked = query(MARK_SETTLED)
        .bind(game)
        .bind(now.0)
        .execute(&mut *tx)
        .await
        .map_err(db(operation))?
        .rows_affected();
    if marked == 0 {
        return Ok(());
    }
    let pot: Option<(i64, i64)> = query_as(POT)
        .bind(game)
        .fetch_optional(&mut *tx)
        .await
        .map_err(db(operation))?;
    let Some((pot, _)) = pot else {
        return Ok(());
    };
    let community = game_community(tx, game, operation).await?;
    // Nobody to pay (which the service never asks for) returns the stakes rather than keeping
    // them in the pot for good.
    let payout = match payout {
        Payout::Winners(winners) if winners.is_empty() => &Payout::Refund,
        other => other,
    };
    let paid: Vec<(i64, i64)> = match payout {
        Payout::Refund => query_as(STAKES_OF_GAME)
            .bind(game)
            .fetch_all(&mut *tx)
            .await
            .map_err(db(operation))?,
        Payout::Winners(winners) => {
            let mut ids = vec![pot];
            let mut wallets = Vec::new();
            for user in distinct(winners) {
                let wallet = open_wallet_in(tx, community, user, now, operation).await?;
                ids.push(wallet);
                wallets.push((user, wallet));
            }
            lock_accounts(tx, &ids, operation).await?;
            let (_, balance): (i64, i64) = query_as(POT)
                .bind(game)
                .fetch_one(&mut *tx)
                .await
                .map_err(db(operation))?;
            shares(balance, winners)
                .into_iter()
                .filter_map(|(user, amount)| {
                    wallets
                        .iter()
                        .find(|(owner, _)| *owner == user)
                        .map(|(_, wallet)| (*wallet, amount))
                })
                .collect()
        }
    };
    let mut ids: Vec<i64> = paid.iter().map(|(wallet, _)| *wallet).collect();
    ids.push(pot);
    lock_accounts(tx, &ids, operation).await?;
    let kind = settlement_kind(payout);
    for (wallet, amount) in paid {
        if amount <= 0 {
            continue;
        }
        transfer(
            tx,
            &Transfer {
                community,
                kind,
                from: pot,
                to: wallet,
                amount,
                funded: true,
                game: Some(game),
                actor: actor.map(|user| user.0),
                reason: kind.as_str(),
            },
            now,
            operation,
        )
        .await?
        .ok_or_else(|| StoreError::Corrupt(format!("the pot of game {game} holds too little")))?;
    }
    Ok(())
}

impl Store {
    /// A person's wallet in a community, opened with the community's starting grant (written
    /// in the ledger) if it did not exist.
    ///
    /// # Errors
    /// A database failure.
    pub async fn open_wallet(
        &self,
        community: CommunityId,
        user: UserId,
    ) -> Result<Wallet, StoreError> {
        const OPERATION: &str = "open_wallet";
        let existing = self.wallet(community, user).await?;
        if let Some(wallet) = existing {
            return Ok(wallet);
        }
        let mut tx = self.begin_write(OPERATION).await?;
        open_wallet_in(&mut tx, community.0, user, Timestamp::now(), OPERATION).await?;
        tx.commit().await.map_err(db(OPERATION))?;
        self.wallet(community, user)
            .await?
            .ok_or_else(|| StoreError::Corrupt(format!("wallet of {user} vanished")))
    }

    /// A person's wallet in a community, if it was opened.
    ///
    /// # Errors
    /// A database failure.
    pub async fn wallet(
        &self,
        community: CommunityId,
        user: UserId,
    ) -> Result<Option<Wallet>, StoreError> {
        let row: Option<(i64, i64, i64)> = query_as(WALLET)
            .bind(community.0)
            .bind(user.0)
            .fetch_optional(self)
            .await
            .map_err(db("wallet"))?;
        Ok(row.map(|(account, balance, in_play)| Wallet {
            account: AccountId(account),
            user,
            balance,
            in_play,
        }))
    }

    /// A moderator's grant (`amount` above zero, from the bank) or take (below zero, to the
    /// bank; never more than the wallet holds), recorded in the ledger with the reason, and
    /// `request` in the same transaction.
    ///
    /// # Errors
    /// [`Conflict::Duplicate`], [`Conflict::InsufficientFunds`] for a take; a database failure.
    pub async fn adjust_wallet(
        &self,
        community: CommunityId,
        user: UserId,
        amount: i64,
        actor: UserId,
        reason: &str,
        request: Option<&RequestKey>,
    ) -> Result<Wallet, StoreError> {
        let adjustment = Adjustment {
            community,
            user,
            amount,
            actor,
            reason,
        };
        let (wallet, _) = self.adjust_wallet_in(&adjustment, request, None).await?;
        Ok(wallet)
    }

    /// [`Store::adjust_wallet`] with its announcement to chat `chat` written in the same
    /// transaction (an outbox row of kind `announce`, held as `announce` says): the wallet and
    /// the row.
    ///
    /// # Errors
    /// As [`Store::adjust_wallet`]; an amount of zero, which changes nothing to announce.
    pub async fn adjust_wallet_announced(
        &self,
        adjustment: &Adjustment<'_>,
        request: &RequestKey,
        chat: ChatId,
        announce: &Announce<'_>,
    ) -> Result<(Wallet, OutboxId), StoreError> {
        let (wallet, row) = self
            .adjust_wallet_in(adjustment, Some(request), Some((chat, announce)))
            .await?;
        let row = row.ok_or_else(|| StoreError::Corrupt("no change to announce".into()))?;
        Ok((wallet, row))
    }

    async fn adjust_wallet_in(
        &self,
        adjustment: &Adjustment<'_>,
        request: Option<&RequestKey>,
        announce: Option<(ChatId, &Announce<'_>)>,
    ) -> Result<(Wallet, Option<OutboxId>), StoreError> {
        const OPERATION: &str = "adjust_wallet";
        let Adjustment {
            community,
            user,
            amount,
            actor,
            reason,
        } = *adjustment;
        if amount == 0 {
            return Ok((self.open_wallet(community, user).await?, None));
        }
        let now = Timestamp::now();
        let mut tx = self.begin_write(OPERATION).await?;
        record_request(&mut tx, request, None, now, OPERATION).await?;
        let wallet = open_wallet_in(&mut tx, community.0, user, now, OPERATION).await?;
        let bank = bank(&mut tx, community.0, now, OPERATION).await?;
        lock_accounts(&mut tx, &[bank, wallet], OPERATION).await?;
        let (kind, from, to) = if amount >= 0 {
            (LedgerKind::Grant, bank, wallet)
        } else {
            (LedgerKind::Adjustment, wallet, bank)
        };
        let moved = transfer(
            &mut tx,
            &Transfer {
                community: community.0,
                kind,
                from,
                to,
                amount: amount.saturating_abs(),
                funded: amount < 0,
                game: None,
                actor: Some(actor.0),
                reason,
            },
            now,
            OPERATION,
        )
        .await?;
        if moved.is_none() {
            let balance = wallet_in(&mut tx, community.0, user, OPERATION)
                .await?
                .map_or(0, |(_, balance)| balance);
            return Err(Conflict::InsufficientFunds {
                user,
                balance,
                needed: amount.saturating_abs(),
            }
            .into());
        }
        let announced = announce_if_any(&mut tx, announce, now, OPERATION).await?;
        tx.commit().await.map_err(db(OPERATION))?;
        let wallet = self
            .wallet(community, user)
            .await?
            .ok_or_else(|| StoreError::Corrupt(format!("wallet of {user} vanished")))?;
        Ok((wallet, announced))
    }

    /// The richest wallets of a community, richest first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn leaderboard(
        &self,
        community: CommunityId,
        limit: i64,
    ) -> Result<Vec<(User, i64)>, StoreError> {
        let rows: Vec<LeaderRow> = query_as(LEADERBOARD)
            .bind(community.0)
            .bind(limit)
            .fetch_all(self)
            .await
            .map_err(db("leaderboard"))?;
        rows.into_iter()
            .map(|row| Ok((User::try_from(row.user)?, row.balance)))
            .collect()
    }

    /// Every account of a community (bank, wallets, pots) with its balance.
    ///
    /// # Errors
    /// A database failure.
    pub async fn accounts(&self, community: CommunityId) -> Result<Vec<Account>, StoreError> {
        let rows: Vec<AccountRow> = query_as(ACCOUNTS)
            .bind(community.0)
            .fetch_all(self)
            .await
            .map_err(db("accounts"))?;
        rows.into_iter()
            .map(|(id, community, kind, user, game, balance)| {
                Ok(Account {
                    id: AccountId(id),
                    community: CommunityId(community),
                    kind: account_kind(&kind)?,
                    user: user.map(UserId),
                    game: game.map(GameNo),
                    balance,
                })
            })
            .collect()
    }

    /// The whole ledger of a community, in the order it was written.
    ///
    /// # Errors
    /// A database failure.
    pub async fn ledger(&self, community: CommunityId) -> Result<Vec<LedgerEntry>, StoreError> {
        let rows: Vec<LedgerRow> = query_as(LEDGER)
            .bind(community.0)
            .fetch_all(self)
            .await
            .map_err(db("ledger"))?;
        rows.into_iter().map(LedgerEntry::try_from).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::UserId;
    use super::shares;

    #[test]
    fn a_pot_is_shared_evenly_and_the_first_winner_takes_what_does_not_divide() {
        let (a, b, c) = (UserId(1), UserId(2), UserId(3));
        assert_eq!(shares(100, &[a]), [(a, 100)]);
        assert_eq!(shares(100, &[a, b]), [(a, 50), (b, 50)]);
        assert_eq!(shares(101, &[a, b, c]), [(a, 35), (b, 33), (c, 33)]);
        assert_eq!(
            shares(7, &[c, a]),
            [(c, 4), (a, 3)],
            "in the winners' order"
        );
    }

    #[test]
    fn a_winner_named_twice_shares_once() {
        let (a, b) = (UserId(1), UserId(2));
        assert_eq!(shares(100, &[a, b, a]), [(a, 50), (b, 50)]);
    }

    #[test]
    fn nothing_to_share_pays_nobody() {
        let (a, b) = (UserId(1), UserId(2));
        assert_eq!(shares(0, &[a, b]), []);
        assert_eq!(shares(-5, &[a]), []);
        assert_eq!(shares(100, &[]), [], "no winners: no division by zero");
        assert_eq!(
            shares(1, &[a, b]),
            [(a, 1)],
            "a share of nothing is not a ledger row"
        );
    }
}
