//! The [`Store`]'s operations for the scheduler and the outbox: claiming due reminders and
//! time-outs, expiring challenges, and writing, claiming and settling outbox rows.

use crate::store::*;

impl Store {
    /// Claims up to `limit` active games whose reminder (or time-out) is due at `now` and not
    /// yet claimed, marking them in the same statement: each is returned to one caller only,
    /// however many run at once.
    ///
    /// # Errors
    /// A database failure.
    pub async fn claim_due(
        &self,
        due: Due,
        now: Timestamp,
        limit: i64,
    ) -> Result<Vec<GameNo>, StoreError> {
        dispatch!(self, store => store.claim_due(due, now, limit).await)
    }
}
