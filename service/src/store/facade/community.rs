//! The [`Store`]'s operations on a community: its moderators' settings, wallets and the ledger,
//! and vacations.

use crate::store::*;

impl Store {
    /// A community's settings (the defaults until moderators change them).
    ///
    /// # Errors
    /// A database failure.
    pub async fn settings(&self, community: CommunityId) -> Result<Settings, StoreError> {
        dispatch!(self, store => store.settings(community).await)
    }

    /// Saves a community's settings, recording `request` in the same transaction.
    ///
    /// # Errors
    /// [`Conflict::Duplicate`]; a database failure (settings that break the table's checks
    /// are one).
    pub async fn save_settings(
        &self,
        community: CommunityId,
        settings: &Settings,
        by: UserId,
        request: Option<&RequestKey>,
    ) -> Result<(), StoreError> {
        dispatch!(self, store => store.save_settings(community, settings, by, request).await)
    }

    /// A person's own language and their community's default (locale codes), each `None`
    /// when not chosen.
    ///
    /// # Errors
    /// A database failure.
    pub async fn languages(
        &self,
        user: UserId,
        community: CommunityId,
    ) -> Result<(Option<String>, Option<String>), StoreError> {
        dispatch!(self, store => store.languages(user, community).await)
    }

    /// Sets (`Some`) or forgets (`None`) a person's own language, recording `request` in the
    /// same transaction.
    ///
    /// # Errors
    /// [`Conflict::Duplicate`]; a database failure.
    pub async fn set_user_language(
        &self,
        user: UserId,
        language: Option<&str>,
        request: Option<&RequestKey>,
    ) -> Result<(), StoreError> {
        dispatch!(self, store => store.set_user_language(user, language, request).await)
    }

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

    /// When the person's vacation running at `now` (or starting later) ends, if any.
    ///
    /// # Errors
    /// A database failure.
    pub async fn vacation_end(
        &self,
        community: CommunityId,
        user: UserId,
        now: Timestamp,
    ) -> Result<Option<Timestamp>, StoreError> {
        dispatch!(self, store => store.vacation_end(community, user, now).await)
    }

    /// Vacation days the person took in `[month.0, month.1)`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn vacation_days_used(
        &self,
        community: CommunityId,
        user: UserId,
        month: (Timestamp, Timestamp),
    ) -> Result<i64, StoreError> {
        dispatch!(self, store => store.vacation_days_used(community, user, month).await)
    }

    /// Takes `days` of vacation from `now` (or from the end of the one running), if the days
    /// taken in `month` stay within `quota`; the clocks of the person's running turns move on
    /// by as much, in the same transaction.
    ///
    /// # Errors
    /// [`Conflict::Duplicate`], [`Conflict::VacationQuota`]; a database failure.
    pub async fn take_vacation(
        &self,
        vacation: &NewVacation,
        request: Option<&RequestKey>,
    ) -> Result<Vacation, StoreError> {
        dispatch!(self, store => store.take_vacation(vacation, request).await)
    }
}
