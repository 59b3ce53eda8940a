//! The outbox: everything the bot says on its own (reminders, time-outs, expiries, boards),
//! written in the same transaction as its cause and delivered at least once by the dispatcher
//! (`crate::dispatch`), in order per chat and paced per chat. Also what the adapters need to know
//! of chats (whether the bot may still write there) and games (the latest board's message id).
//! The statements and the operations that run them.
//!
//! A row waits while `sent_at` and `dropped_at` are null. Only the oldest waiting row of a chat
//! (its head) may be claimed, and only when the chat is active, its pacing allows, the row is
//! due and nobody holds a live lease on it: so a chat's messages go out one at a time, in order.
//! A claim sets a lease (`lease_owner`, `lease_until`); the holder then marks the row sent,
//! failed (lease released, tried again later) or dropped. A holder that dies loses its lease
//! when it expires, and another claim delivers the row again: at least once. On PostgreSQL the
//! backend's claim statement picks rows with `FOR UPDATE SKIP LOCKED`, so any number of
//! dispatchers share one database and never wait for each other; on SQLite the one writer
//! settles it.

use super::executor::{Tx, query, query_as, query_scalar};
use super::{
    Announce, Backend, Challenge, ChallengeNo, ChatId, Due, GameNo, NewOutbox, OutboxDbRow,
    OutboxId, OutboxKind, OutboxRow, Platform, Store, StoreError, Timestamp, challenges, community,
    db,
};

/// The claim on SQLite, whose one writer settles who claims what: `$1` now, `$2` owner, `$3`
/// lease end, `$4` the most rows. The rows picked: the head of each chat (its waiting row of
/// least id) that is due, not held by a live lease, of an active chat whose pacing allows it,
/// oldest due first. What the claim sets (the owner, the lease end, one more attempt) it sets
/// only on a picked row still waiting and unleased as it is updated, so that a row claimed
/// meanwhile by someone else is left alone. It returns the rows, with the chat's platform id
/// in the order of `OutboxDbRow`.
pub(super) const CLAIM_OUTBOX_SQLITE: &str = "\
UPDATE outbox SET lease_owner = $2, lease_until = $3, attempts = attempts + 1 WHERE outbox.id IN (SELECT o.id FROM outbox o JOIN chats ch ON ch.id = o.chat_id
         WHERE o.sent_at IS NULL AND o.dropped_at IS NULL AND o.next_attempt_at <= $1
           AND (o.lease_until IS NULL OR o.lease_until <= $1)
           AND ch.inactive_at IS NULL
           AND (ch.outbox_next_at IS NULL OR ch.outbox_next_at <= $1)
           AND o.id = (SELECT MIN(h.id) FROM outbox h
                       WHERE h.chat_id = o.chat_id
                         AND h.sent_at IS NULL AND h.dropped_at IS NULL)
         ORDER BY o.next_attempt_at, o.id LIMIT $4) AND outbox.sent_at IS NULL AND outbox.dropped_at IS NULL
          AND (outbox.lease_until IS NULL OR outbox.lease_until <= $1)
         RETURNING outbox.id, outbox.platform, outbox.chat_id,
         (SELECT c.platform_chat_id FROM chats c WHERE c.id = outbox.chat_id) AS platform_chat_id,
         outbox.game_id,
         outbox.kind, outbox.payload, outbox.created_at, outbox.next_attempt_at, outbox.attempts,
         outbox.lease_owner, outbox.lease_until, outbox.sent_at, outbox.message_id,
         outbox.dropped_at, outbox.last_error";

/// The claim on PostgreSQL, as [`CLAIM_OUTBOX_SQLITE`]: the rows are picked once, in a CTE,
/// with `FOR UPDATE SKIP LOCKED` (rows another claimer holds are skipped, nobody waits). Not
/// `WHERE id IN (subquery)`: the planner may scan such a subquery again for each row, and a
/// rescan skips the rows this statement already locked and picks more than the limit.
pub(super) const CLAIM_OUTBOX_POSTGRES: &str = "\
WITH picked AS (SELECT o.id FROM outbox o JOIN chats ch ON ch.id = o.chat_id
         WHERE o.sent_at IS NULL AND o.dropped_at IS NULL AND o.next_attempt_at <= $1
           AND (o.lease_until IS NULL OR o.lease_until <= $1)
           AND ch.inactive_at IS NULL
           AND (ch.outbox_next_at IS NULL OR ch.outbox_next_at <= $1)
           AND o.id = (SELECT MIN(h.id) FROM outbox h
                       WHERE h.chat_id = o.chat_id
                         AND h.sent_at IS NULL AND h.dropped_at IS NULL)
         ORDER BY o.next_attempt_at, o.id LIMIT $4 FOR UPDATE OF o SKIP LOCKED) UPDATE outbox SET lease_owner = $2, lease_until = $3, attempts = attempts + 1 FROM picked WHERE outbox.id = picked.id AND outbox.sent_at IS NULL AND outbox.dropped_at IS NULL
          AND (outbox.lease_until IS NULL OR outbox.lease_until <= $1)
         RETURNING outbox.id, outbox.platform, outbox.chat_id,
         (SELECT c.platform_chat_id FROM chats c WHERE c.id = outbox.chat_id) AS platform_chat_id,
         outbox.game_id,
         outbox.kind, outbox.payload, outbox.created_at, outbox.next_attempt_at, outbox.attempts,
         outbox.lease_owner, outbox.lease_until, outbox.sent_at, outbox.message_id,
         outbox.dropped_at, outbox.last_error";

/// The outbox rows of chat `$1`, in id order (the columns of the claims).
pub(super) const OUTBOX_ROWS: &str = "\
SELECT outbox.id, outbox.platform, outbox.chat_id,
         (SELECT c.platform_chat_id FROM chats c WHERE c.id = outbox.chat_id) AS platform_chat_id,
         outbox.game_id,
         outbox.kind, outbox.payload, outbox.created_at, outbox.next_attempt_at, outbox.attempts,
         outbox.lease_owner, outbox.lease_until, outbox.sent_at, outbox.message_id,
         outbox.dropped_at, outbox.last_error FROM outbox WHERE outbox.chat_id = $1 ORDER BY outbox.id";

/// Outbox row `$1` (the columns of the claims).
pub(super) const OUTBOX_ROW: &str = "\
SELECT outbox.id, outbox.platform, outbox.chat_id,
         (SELECT c.platform_chat_id FROM chats c WHERE c.id = outbox.chat_id) AS platform_chat_id,
         outbox.game_id,
         outbox.kind, outbox.payload, outbox.created_at, outbox.next_attempt_at, outbox.attempts,
         outbox.lease_owner, outbox.lease_until, outbox.sent_at, outbox.message_id,
         outbox.dropped_at, outbox.last_error FROM outbox WHERE outbox.id = $1";

/// `$1` platform, `$2` chat, `$3` game, `$4` kind, `$5` payload, `$6` now, `$7` the owner
/// holding it from the start and `$8` until when (or nulls: anyone may claim it).
pub(super) const INSERT_OUTBOX: &str = "\
INSERT INTO outbox (platform, chat_id, game_id, kind, payload, created_at, next_attempt_at,
                    lease_owner, lease_until)
VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8)
RETURNING id";

/// `$1` id, `$2` owner, `$3` the new end of its lease: only while `$2` holds it.
pub(super) const RENEW_LEASE: &str = "\
UPDATE outbox SET lease_until = $3
WHERE id = $1 AND lease_owner = $2 AND sent_at IS NULL AND dropped_at IS NULL";

/// Turns the waiting, unleased (at `$2`) boards of game `$1` into text: a newer board
/// supersedes them.
pub(super) const SUPERSEDE_BOARDS: &str = "\
UPDATE outbox SET kind = 'text'
WHERE game_id = $1 AND kind = 'board' AND sent_at IS NULL AND dropped_at IS NULL
  AND (lease_until IS NULL OR lease_until <= $2)";

/// What a reminder's or time-out's payload says of a game, and where it goes.
pub(super) const GAME_FOR_OUTBOX: &str = "\
SELECT g.id, g.seq, g.turn_user_id, g.deadline_at, g.chat_id, c.platform
FROM games g JOIN chats c ON c.id = g.chat_id WHERE g.id = $1";

/// Where an expiry's message goes.
pub(super) const CHALLENGE_FOR_OUTBOX: &str = "\
SELECT ch.id, ch.chat_id, c.platform
FROM challenges ch JOIN chats c ON c.id = ch.chat_id WHERE ch.id = $1";

/// `$1` id, `$2` owner, `$3` message id, `$4` now. Only while `$2` holds it.
pub(super) const OUTBOX_SENT: &str = "\
UPDATE outbox SET sent_at = $4, message_id = $3, lease_owner = NULL, lease_until = NULL
WHERE id = $1 AND lease_owner = $2 AND sent_at IS NULL AND dropped_at IS NULL
RETURNING chat_id";

/// `$1` chat, `$2` the earliest moment of its next outbox message.
pub(super) const PACE_CHAT: &str = "UPDATE chats SET outbox_next_at = $2 WHERE id = $1";

/// `$1` id, `$2` owner, `$3` retry at, `$4` error.
pub(super) const OUTBOX_FAILED: &str = "\
UPDATE outbox SET next_attempt_at = $3, last_error = $4, lease_owner = NULL, lease_until = NULL
WHERE id = $1 AND lease_owner = $2 AND sent_at IS NULL AND dropped_at IS NULL";

/// `$1` id, `$2` owner, `$3` reason, `$4` now.
pub(super) const OUTBOX_DROP: &str = "\
UPDATE outbox SET dropped_at = $4, last_error = $3, lease_owner = NULL, lease_until = NULL
WHERE id = $1 AND lease_owner = $2 AND sent_at IS NULL AND dropped_at IS NULL";

/// `$1` chat, `$2` since when inactive, or null: active.
pub(super) const SET_CHAT_INACTIVE: &str = "UPDATE chats SET inactive_at = $2 WHERE id = $1";

/// A game as a reminder's or time-out's payload reads it.
#[derive(Debug, sqlx::FromRow)]
pub(super) struct GameForOutbox {
    pub(super) id: i64,
    pub(super) seq: i64,
    pub(super) turn_user_id: Option<i64>,
    pub(super) deadline_at: Option<i64>,
    pub(super) chat_id: i64,
    pub(super) platform: String,
}

impl GameForOutbox {
    /// `{"game":5,"seq":12,"user":3,"deadline":1700000000000}` (`null` for what is unknown).
    pub(super) fn payload(&self) -> String {
        let or_null =
            |value: Option<i64>| value.map_or_else(|| "null".to_string(), |v| v.to_string());
        format!(
            r#"{{"game":{},"seq":{},"user":{},"deadline":{}}}"#,
            self.id,
            self.seq,
            or_null(self.turn_user_id),
            or_null(self.deadline_at)
        )
    }
}

/// What [`OUTBOX_SENT`] returns.
#[derive(Debug, sqlx::FromRow)]
pub(super) struct SentRow {
    pub(super) chat_id: i64,
}

/// Marks row `id` sent in the transaction, if `owner` still holds it: the chat it went to, or
/// `None` when `owner` lost it.
pub(super) async fn mark_sent(
    tx: &mut Tx,
    id: OutboxId,
    owner: &str,
    message_id: Option<&str>,
    now: Timestamp,
    operation: &'static str,
) -> Result<Option<i64>, StoreError> {
    let sent = query_as::<SentRow>(OUTBOX_SENT)
        .bind(id.0)
        .bind(owner)
        .bind(message_id)
        .bind(now.0)
        .fetch_optional(&mut *tx)
        .await
        .map_err(db(operation))?;
    Ok(sent.map(|sent| sent.chat_id))
}

/// The platform of chat `$1`.
const CHAT_PLATFORM: &str = "SELECT platform FROM chats WHERE id = $1";

/// The newest message posted for a challenge: its post, or the newest telling of it (someone
/// joined, some accepted); `$1` and `$2` match the challenge's key in the payload, followed by
/// more keys or by the end.
const CHALLENGE_MESSAGE: &str = "\
SELECT message_id FROM outbox
WHERE kind IN ('challenge', 'announce') AND message_id IS NOT NULL
  AND (payload LIKE $1 OR payload LIKE $2)
ORDER BY id DESC LIMIT 1";

/// Writes in the transaction an announcement to chat `chat` that concerns no game: an outbox
/// row of `kind` with the announcement's payload, held by the process that answers
/// ([`Announce::held`]).
pub(super) async fn announce_to_chat(
    tx: &mut Tx,
    chat: ChatId,
    kind: OutboxKind,
    announce: &Announce<'_>,
    now: Timestamp,
    operation: &'static str,
) -> Result<OutboxId, StoreError> {
    let platform: String = query_scalar(CHAT_PLATFORM)
        .bind(chat.0)
        .fetch_one(&mut *tx)
        .await
        .map_err(db(operation))?;
    insert_outbox(
        tx,
        &NewOutbox {
            platform: Platform::parse(&platform)?,
            chat,
            game: None,
            kind,
            payload: announce.payload,
            now,
            held: announce.held,
        },
        operation,
    )
    .await
}

/// [`announce_to_chat`] (kind `announce`) when there is an announcement to write: the row.
pub(super) async fn announce_if_any(
    tx: &mut Tx,
    announce: Option<(ChatId, &Announce<'_>)>,
    now: Timestamp,
    operation: &'static str,
) -> Result<Option<OutboxId>, StoreError> {
    match announce {
        Some((chat, announce)) => {
            announce_to_chat(tx, chat, OutboxKind::Announce, announce, now, operation)
                .await
                .map(Some)
        }
        None => Ok(None),
    }
}

/// Inserts one outbox row in the transaction.
pub(super) async fn insert_outbox(
    tx: &mut Tx,
    new: &NewOutbox<'_>,
    operation: &'static str,
) -> Result<OutboxId, StoreError> {
    if new.kind == OutboxKind::Board
        && let Some(game) = new.game
    {
        query(SUPERSEDE_BOARDS)
            .bind(game.0)
            .bind(new.now.0)
            .execute(&mut *tx)
            .await
            .map_err(db(operation))?;
    }
    let id: i64 = query_scalar(INSERT_OUTBOX)
        .bind(new.platform.as_str())
        .bind(new.chat.0)
        .bind(new.game.map(|game| game.0))
        .bind(new.kind.as_str())
        .bind(new.payload)
        .bind(new.now.0)
        .bind(new.held.map(|(owner, _)| owner))
        .bind(new.held.map(|(_, until)| until.0))
        .fetch_one(&mut *tx)
        .await
        .map_err(db(operation))?;
    Ok(OutboxId(id))
}

impl Store {
    /// [`Store::claim_due`] that, in the same transaction as each claim, writes the outbox row
    /// of the reminder (or time-out): kind `reminder` (`timeout`), the game's platform, chat
    /// and id, payload `{"game":5,"seq":12,"user":3,"deadline":1700000000000}` (the turn's
    /// player and deadline as claimed; `null` when none; a last call adds `"last":true`). A crash after the commit cannot lose
    /// the message; a crash before it loses the claim too, so the next call claims again.
    ///
    /// # Errors
    /// A database failure (then nothing is claimed).
    pub async fn claim_due_to_outbox(
        &self,
        due: Due,
        now: Timestamp,
        limit: i64,
        quiet_until: &(dyn Fn(&super::Quiet) -> Option<Timestamp> + Sync),
    ) -> Result<Vec<GameNo>, StoreError> {
        const OPERATION: &str = "claim_due_to_outbox";
        let kind = match due {
            // A last call is a reminder that says so (`"last":true`).
            Due::Reminder | Due::LastCall => OutboxKind::Reminder,
            Due::Timeout => OutboxKind::Timeout,
        };
        let mut tx = self.begin_write(OPERATION).await?;
        let mut ids: Vec<i64> = query_scalar(community::claim_due_statement(self.backend(), due))
            .bind(now.0)
            .bind(limit)
            .fetch_all(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        ids.sort_unstable();
        for &id in &ids {
            let game = query_as::<GameForOutbox>(GAME_FOR_OUTBOX)
                .bind(id)
                .fetch_one(&mut tx)
                .await
                .map_err(db(OPERATION))?;
            let mut payload = game.payload();
            if due == Due::LastCall {
                payload.pop();
                payload.push_str(r#","last":true}"#);
            }
            // A reminder for a person told privately only goes to their private chat
            // (`"private":true`); a time-out is said in the game's chat.
            let private: Option<i64> = match (due, game.turn_user_id) {
                (Due::Reminder | Due::LastCall, Some(user)) => {
                    query_scalar(super::notify::PRIVATE_ONLY_CHAT)
                        .bind(user)
                        .bind(game.id)
                        .fetch_optional(&mut tx)
                        .await
                        .map_err(db(OPERATION))?
                }
                _ => None,
            };
            if private.is_some() {
                payload.pop();
                payload.push_str(r#","private":true}"#);
            }
            let row = insert_outbox(
                &mut tx,
                &NewOutbox {
                    platform: Platform::parse(&game.platform)?,
                    chat: ChatId(private.unwrap_or(game.chat_id)),
                    game: Some(GameNo(game.id)),
                    kind,
                    payload: &payload,
                    now,
                    held: None,
                },
                OPERATION,
            )
            .await?;
            // Said privately while the person's quiet hours hold: it waits for their end.
            if private.is_some()
                && let Some(user) = game.turn_user_id
                && let Some(until) = super::notify::quiet_hours_in(&mut tx, user, OPERATION)
                    .await?
                    .and_then(|hours| quiet_until(&hours))
            {
                query("UPDATE outbox SET next_attempt_at = $2 WHERE id = $1")
                    .bind(row.0)
                    .bind(until.0)
                    .execute(&mut tx)
                    .await
                    .map_err(db(OPERATION))?;
            }
        }
        tx.commit().await.map_err(db(OPERATION))?;
        Ok(ids.into_iter().map(GameNo).collect())
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
        const OPERATION: &str = "expire_challenges_to_outbox";
        let mut tx = self.begin_write(OPERATION).await?;
        let mut ids: Vec<i64> = query_scalar(challenges::EXPIRE_CHALLENGES)
            .bind(now.0)
            .fetch_all(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        ids.sort_unstable();
        for &id in &ids {
            let (challenge, chat, platform): (i64, i64, String) = query_as(CHALLENGE_FOR_OUTBOX)
                .bind(id)
                .fetch_one(&mut tx)
                .await
                .map_err(db(OPERATION))?;
            let payload = format!(r#"{{"challenge":{challenge}}}"#);
            insert_outbox(
                &mut tx,
                &NewOutbox {
                    platform: Platform::parse(&platform)?,
                    chat: ChatId(chat),
                    game: None,
                    kind: OutboxKind::Expired,
                    payload: &payload,
                    now,
                    held: None,
                },
                OPERATION,
            )
            .await?;
        }
        tx.commit().await.map_err(db(OPERATION))?;
        let mut expired = Vec::with_capacity(ids.len());
        for id in ids {
            expired.push(self.existing_challenge(ChallengeNo(id)).await?);
        }
        Ok(expired)
    }

    /// Writes a message for the dispatcher, due at once. A `board` of a game turns the game's
    /// earlier boards that are still waiting (not sent, not dropped, not leased) into `text`
    /// rows, whose payload stays: their words still go out, without the picture, so a slow chat
    /// never falls behind on boards.
    ///
    /// # Errors
    /// A database failure (an unknown chat or game is one: a broken foreign key).
    pub async fn enqueue_outbox(&self, new: &NewOutbox<'_>) -> Result<OutboxId, StoreError> {
        const OPERATION: &str = "enqueue_outbox";
        let mut tx = self.begin_write(OPERATION).await?;
        let id = insert_outbox(&mut tx, new, OPERATION).await?;
        tx.commit().await.map_err(db(OPERATION))?;
        Ok(id)
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
        const OPERATION: &str = "claim_outbox";
        let claim = match self.backend() {
            Backend::Sqlite => CLAIM_OUTBOX_SQLITE,
            Backend::Postgres => CLAIM_OUTBOX_POSTGRES,
        };
        let mut rows = query_as::<OutboxDbRow>(claim)
            .bind(now.0)
            .bind(owner)
            .bind(now.plus_millis(lease_millis).0)
            .bind(limit)
            .fetch_all(self)
            .await
            .map_err(db(OPERATION))?
            .into_iter()
            .map(OutboxRow::try_from)
            .collect::<Result<Vec<_>, _>>()?;
        rows.sort_by_key(|row| row.id);
        Ok(rows)
    }

    /// Marks a row sent, if `owner` still holds it (true) — false when it lost the row (its
    /// lease expired and someone else claimed it, or it was already marked). Records the
    /// platform's message id and paces the chat (its next outbox message no earlier than
    /// `now + pace_millis`), in one transaction. A board's deliverer records the board itself
    /// ([`Store::board_posted`]), as for any board it posts.
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
        const OPERATION: &str = "outbox_sent";
        let mut tx = self.begin_write(OPERATION).await?;
        let Some(chat) = mark_sent(&mut tx, id, owner, message_id, now, OPERATION).await? else {
            return Ok(false);
        };
        query(PACE_CHAT)
            .bind(chat)
            .bind(now.plus_millis(pace_millis).0)
            .execute(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        tx.commit().await.map_err(db(OPERATION))?;
        Ok(true)
    }

    /// Marks row `id`, an announcement `owner` holds and posted itself as its reply to a
    /// request (message `message_id`; none for a strip, made by edits), sent: whether it still
    /// held the row. The chat is not paced, as the reply was not the dispatcher's.
    ///
    /// # Errors
    /// A database failure.
    pub async fn announcement_posted(
        &self,
        id: OutboxId,
        owner: &str,
        message_id: Option<&str>,
        now: Timestamp,
    ) -> Result<bool, StoreError> {
        const OPERATION: &str = "announcement_posted";
        let mut tx = self.begin_write(OPERATION).await?;
        let held = mark_sent(&mut tx, id, owner, message_id, now, OPERATION).await?;
        tx.commit().await.map_err(db(OPERATION))?;
        Ok(held.is_some())
    }

    /// The newest message that told challenge `no` and showed its buttons (its post, or the
    /// newest post saying who joined or accepted), when the outbox posted it.
    ///
    /// # Errors
    /// A database failure.
    pub async fn challenge_message(&self, no: ChallengeNo) -> Result<Option<String>, StoreError> {
        let key = format!("%\"challenge\":{}", no.0);
        query_scalar::<String>(CHALLENGE_MESSAGE)
            .bind(format!("{key},%"))
            .bind(format!("{key}}}%"))
            .fetch_optional(self)
            .await
            .map_err(db("challenge_message"))
    }

    /// Extends `owner`'s lease on row `id` to `until` (a process still delivering the row
    /// itself): whether it still held the row.
    ///
    /// # Errors
    /// A database failure.
    pub async fn renew_lease(
        &self,
        id: OutboxId,
        owner: &str,
        until: Timestamp,
    ) -> Result<bool, StoreError> {
        let done = query(RENEW_LEASE)
            .bind(id.0)
            .bind(owner)
            .bind(until.0)
            .execute(self)
            .await
            .map_err(db("renew_lease"))?;
        Ok(done.rows_affected() > 0)
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
        let done = query(OUTBOX_FAILED)
            .bind(id.0)
            .bind(owner)
            .bind(retry_at.0)
            .bind(error)
            .execute(self)
            .await
            .map_err(db("outbox_failed"))?;
        Ok(done.rows_affected() > 0)
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
        let done = query(OUTBOX_DROP)
            .bind(id.0)
            .bind(owner)
            .bind(reason)
            .bind(Timestamp::now().0)
            .execute(self)
            .await
            .map_err(db("outbox_drop"))?;
        Ok(done.rows_affected() > 0)
    }

    /// Every outbox row of a chat (sent, dropped and waiting), in id order: for tests and
    /// inspection.
    ///
    /// # Errors
    /// A database failure.
    pub async fn outbox_rows(&self, chat: ChatId) -> Result<Vec<OutboxRow>, StoreError> {
        query_as::<OutboxDbRow>(OUTBOX_ROWS)
            .bind(chat.0)
            .fetch_all(self)
            .await
            .map_err(db("outbox_rows"))?
            .into_iter()
            .map(OutboxRow::try_from)
            .collect()
    }

    /// One outbox row.
    ///
    /// # Errors
    /// A database failure.
    pub async fn outbox_row(&self, id: OutboxId) -> Result<Option<OutboxRow>, StoreError> {
        query_as::<OutboxDbRow>(OUTBOX_ROW)
            .bind(id.0)
            .fetch_optional(self)
            .await
            .map_err(db("outbox_row"))?
            .map(OutboxRow::try_from)
            .transpose()
    }

    /// Marks a chat inactive from `now` (the platform says the bot was removed or blocked:
    /// its outbox rows wait, unclaimed) or active again. [`Store::upsert_chat`] makes a chat
    /// active again too: someone wrote in it.
    ///
    /// # Errors
    /// A database failure.
    pub async fn set_chat_inactive(
        &self,
        chat: ChatId,
        inactive: bool,
        now: Timestamp,
    ) -> Result<(), StoreError> {
        query(SET_CHAT_INACTIVE)
            .bind(chat.0)
            .bind(inactive.then_some(now.0))
            .execute(self)
            .await
            .map_err(db("set_chat_inactive"))?;
        Ok(())
    }
}
