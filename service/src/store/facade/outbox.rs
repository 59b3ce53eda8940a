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

    /// [`Store::claim_due`] that, in the same transaction as each claim, writes the outbox row
    /// of the reminder (or time-out): kind `reminder` (`timeout`), the game's platform, chat
    /// and id, payload `{"game":5,"seq":12,"user":3,"deadline":1700000000000}` (the turn's
    /// player and deadline as claimed; `null` when none). A crash after the commit cannot lose
    /// the message; a crash before it loses the claim too, so the next call claims again.
    ///
    /// # Errors
    /// A database failure (then nothing is claimed).
    pub async fn claim_due_to_outbox(
        &self,
        due: Due,
        now: Timestamp,
        limit: i64,
    ) -> Result<Vec<GameNo>, StoreError> {
        dispatch!(self, store => store.claim_due_to_outbox(due, now, limit).await)
    }

    /// [`Store::expire_challenges`] that writes, in the same transaction, one outbox row per
    /// expired challenge: kind `expired`, the challenge's chat, payload `{"challenge":7}`.
    /// Returns the expired challenges, in id order.
    ///
    /// # Errors
    /// A database failure (then nothing is expired).
    pub async fn expire_challenges_to_outbox(
        &self,
        now: Timestamp,
    ) -> Result<Vec<Challenge>, StoreError> {
        dispatch!(self, store => store.expire_challenges_to_outbox(now).await)
    }

    /// Writes a message for the dispatcher, due at once. A `board` of a game turns the game's
    /// earlier boards that are still waiting (not sent, not dropped, not leased) into `text`
    /// rows, whose payload stays: their words still go out, without the picture, so a slow chat
    /// never falls behind on boards.
    ///
    /// # Errors
    /// A database failure (an unknown chat or game is one: a broken foreign key).
    pub async fn enqueue_outbox(&self, new: &NewOutbox<'_>) -> Result<OutboxId, StoreError> {
        dispatch!(self, store => store.enqueue_outbox(new).await)
    }

    /// Claims for `owner` up to `limit` outbox rows to send now, leasing each until
    /// `now + lease_millis` and counting the attempt. At most one row per chat, and only the
    /// chat's oldest waiting row (a chat's messages go out in order, one at a time), of a chat
    /// that is active and whose pacing allows a message at `now`; the row must be due
    /// (`next_attempt_at <= now`) and not held by a live lease. A lease that expired (its
    /// holder died or hung) is claimed again: delivery is at least once. Many dispatchers may
    /// claim at once: each row is returned to one of them per lease (on PostgreSQL with
    /// `SKIP LOCKED`, so none waits for another). Rows come back in id order.
    ///
    /// # Errors
    /// A database failure.
    pub async fn claim_outbox(
        &self,
        owner: &str,
        now: Timestamp,
        lease_millis: i64,
        limit: i64,
    ) -> Result<Vec<OutboxRow>, StoreError> {
        dispatch!(self, store => store.claim_outbox(owner, now, lease_millis, limit).await)
    }

    /// Marks a row sent, if `owner` still holds it (true) — false when it lost the row (its
    /// lease expired and someone else claimed it, or it was already marked). Records the
    /// platform's message id and paces the chat (its next outbox message no earlier than
    /// `now + pace_millis`), in one transaction. A board's deliverer records the game's
    /// [`GameRecord::board_message_id`] itself ([`Store::set_board_message`]), as for any
    /// board it posts.
    ///
    /// # Errors
    /// A database failure.
    pub async fn outbox_sent(
        &self,
        id: OutboxId,
        owner: &str,
        message_id: Option<&str>,
        now: Timestamp,
        pace_millis: i64,
    ) -> Result<bool, StoreError> {
        dispatch!(self, store => store.outbox_sent(id, owner, message_id, now, pace_millis).await)
    }

    /// A failed attempt: if `owner` still holds the row, releases it to be tried again at
    /// `retry_at` (the caller's back-off) and records the error. Whether it held the row.
    ///
    /// # Errors
    /// A database failure.
    pub async fn outbox_failed(
        &self,
        id: OutboxId,
        owner: &str,
        retry_at: Timestamp,
        error: &str,
    ) -> Result<bool, StoreError> {
        dispatch!(self, store => store.outbox_failed(id, owner, retry_at, error).await)
    }

    /// Gives a row up (the message no longer applies, such as a reminder for a turn already
    /// played, or the chat is gone), if `owner` still holds it; `reason` is kept as its last
    /// error. The chat's next row becomes its head. Whether it held the row.
    ///
    /// # Errors
    /// A database failure.
    pub async fn outbox_drop(
        &self,
        id: OutboxId,
        owner: &str,
        reason: &str,
    ) -> Result<bool, StoreError> {
        dispatch!(self, store => store.outbox_drop(id, owner, reason, Timestamp::now()).await)
    }

    /// Every outbox row of a chat (sent, dropped and waiting), in id order: for tests and
    /// inspection.
    ///
    /// # Errors
    /// A database failure.
    pub async fn outbox_rows(&self, chat: ChatId) -> Result<Vec<OutboxRow>, StoreError> {
        dispatch!(self, store => store.outbox_rows(chat).await)
    }

    /// One outbox row.
    ///
    /// # Errors
    /// A database failure.
    pub async fn outbox_row(&self, id: OutboxId) -> Result<Option<OutboxRow>, StoreError> {
        dispatch!(self, store => store.outbox_row(id).await)
    }
}
