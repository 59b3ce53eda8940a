//! The [`Store`]'s operations on a community: its moderators' settings, wallets and the ledger,
//! and vacations.

use crate::store::*;

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
        dispatch!(self, store => store.open_wallet(community, user).await)
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
        dispatch!(self, store => store.wallet(community, user).await)
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
        dispatch!(self, store => store.adjust_wallet(community, user, amount, actor, reason, request).await)
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
        dispatch!(self, store => store.leaderboard(community, limit).await)
    }

    /// Every account of a community (bank, wallets, pots) with its balance.
    ///
    /// # Errors
    /// A database failure.
    pub async fn accounts(&self, community: CommunityId) -> Result<Vec<Account>, StoreError> {
        dispatch!(self, store => store.accounts(community).await)
    }

    /// The whole ledger of a community, in the order it was written.
    ///
    /// # Errors
    /// A database failure.
    pub async fn ledger(&self, community: CommunityId) -> Result<Vec<LedgerEntry>, StoreError> {
        dispatch!(self, store => store.ledger(community).await)
    }
}
