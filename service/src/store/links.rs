//! One person on both platforms (`/link`, `/unlink`, issue 38): a one-time code made on one
//! platform joins, when typed on the other within its time, the two identities. A link is two
//! rows of `user_links`, one each way. Linked identities share their `/notify` settings (each
//! keeps its own private chat and its own refusals), so that one choice covers the games of
//! both platforms; `/mygames` and the daily digest list the games of both.

use super::executor::{Tx, query, query_as, query_scalar};
use super::notify::became_private;
use super::requests::record_request;
use super::{ChatId, RequestKey, Store, StoreError, Timestamp, UserId, db};

/// What became of a typed code ([`Store::link_with_code`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkClaim {
    /// The two identities are linked now: the other one.
    Linked(UserId),
    /// No such code, or it lapsed.
    Unknown,
    /// The code was made on the platform it was typed on (perhaps by the same person).
    SamePlatform,
    /// The person who typed it is linked already (to this identity).
    AlreadyLinked(UserId),
    /// The person who made the code linked another identity meanwhile.
    TheyAreLinked,
}

/// Replaces `$1`'s open code.
const DELETE_OWN_CODE: &str = "DELETE FROM link_codes WHERE user_id = $1";

/// `$1` code, `$2` user, `$3` their private chat, `$4` when it lapses.
const INSERT_CODE: &str = "\
INSERT INTO link_codes (code, user_id, private_chat_id, expires_at) VALUES ($1, $2, $3, $4)";

/// The code `$1`: who made it, their private chat, when it lapses, and their platform.
const CODE: &str = "\
SELECT l.user_id, l.private_chat_id, l.expires_at, u.platform
FROM link_codes l JOIN users u ON u.id = l.user_id WHERE l.code = $1";

/// Claims code `$1` (at most one claimer deletes it).
const CLAIM_CODE: &str = "DELETE FROM link_codes WHERE code = $1";

/// Codes that lapsed before `$1`.
const DELETE_LAPSED: &str = "DELETE FROM link_codes WHERE expires_at <= $1";

/// The identity linked to `$1`.
const PARTNER: &str = "SELECT partner_id FROM user_links WHERE user_id = $1";

/// `$1` and `$2` linked, both ways, at `$3`.
const INSERT_LINKS: &str = "\
INSERT INTO user_links (user_id, partner_id, linked_at) VALUES ($1, $2, $3), ($2, $1, $3)";

/// Unlinks `$1` (both rows).
const DELETE_LINKS: &str = "DELETE FROM user_links WHERE user_id = $1 OR partner_id = $1";

/// Makes sure `$1` has a settings row, with `$2` as its private chat when given (a row made
/// here has the defaults, and is older than any choice).
const KEEP_PRIVATE_CHAT: &str = "\
INSERT INTO notify_settings (user_id, place, halftime, lastcall, updated_at, private_chat_id)
VALUES ($1, 'chat', 1, 0, 0, $2)
ON CONFLICT (user_id) DO UPDATE SET
    private_chat_id = COALESCE(excluded.private_chat_id, notify_settings.private_chat_id)";

/// When `$1` last chose their settings.
const SETTINGS_CHOSEN: &str = "SELECT updated_at FROM notify_settings WHERE user_id = $1";

/// The place `$1` is told in, if they have a row.
const PLACE: &str = "SELECT place FROM notify_settings WHERE user_id = $1";

/// Copies `$1`'s settings to the identity linked to it (its private chat, refusals and last
/// digest day stay its own).
const MIRROR: &str = "\
INSERT INTO notify_settings (user_id, place, halftime, lastcall, updated_at, quiet_start,
    quiet_end, quiet_zone, digest_minute, digest_zone, digest_day)
SELECT l.partner_id, n.place, n.halftime, n.lastcall, n.updated_at, n.quiet_start, n.quiet_end,
       n.quiet_zone, n.digest_minute, n.digest_zone, n.digest_day
FROM notify_settings n JOIN user_links l ON l.user_id = n.user_id WHERE n.user_id = $1
ON CONFLICT (user_id) DO UPDATE SET place = excluded.place, halftime = excluded.halftime,
    lastcall = excluded.lastcall, updated_at = excluded.updated_at,
    quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end,
    quiet_zone = excluded.quiet_zone, digest_minute = excluded.digest_minute,
    digest_zone = excluded.digest_zone";

/// Copies in the transaction `user`'s `/notify` settings to the identity linked to theirs, if
/// any; when that makes the other private, it is treated as asking for private pings there
/// (an earlier refusal forgotten, the turns already waiting counted as pinged).
pub(super) async fn mirror_settings(
    tx: &mut Tx,
    user: UserId,
    now: Timestamp,
    operation: &'static str,
) -> Result<(), StoreError> {
    let Some(partner): Option<i64> = query_scalar(PARTNER)
        .bind(user.0)
        .fetch_optional(&mut *tx)
        .await
        .map_err(db(operation))?
    else {
        return Ok(());
    };
    let before: Option<String> = query_scalar(PLACE)
        .bind(partner)
        .fetch_optional(&mut *tx)
        .await
        .map_err(db(operation))?;
    query(MIRROR)
        .bind(user.0)
        .execute(&mut *tx)
        .await
        .map_err(db(operation))?;
    became_private(tx, UserId(partner), before.as_deref(), now, operation).await
}

impl Store {
    /// Keeps `code` as `user`'s one open code until `expires_at` (an earlier one of theirs is
    /// gone), with their private chat, recording `request`. Lapsed codes are swept meanwhile.
    ///
    /// # Errors
    /// [`super::Conflict::Duplicate`]; a database failure (a code already taken too: the
    /// caller makes codes random enough).
    pub async fn new_link_code(
        &self,
        user: UserId,
        code: &str,
        private_chat: Option<ChatId>,
        expires_at: Timestamp,
        request: Option<&RequestKey>,
        now: Timestamp,
    ) -> Result<(), StoreError> {
        const OPERATION: &str = "new_link_code";
        let mut tx = self.begin_write(OPERATION).await?;
        record_request(&mut tx, request, None, now, OPERATION).await?;
        for (statement, value) in [(DELETE_LAPSED, now.0), (DELETE_OWN_CODE, user.0)] {
            query(statement)
                .bind(value)
                .execute(&mut tx)
                .await
                .map_err(db(OPERATION))?;
        }
        query(INSERT_CODE)
            .bind(code)
            .bind(user.0)
            .bind(private_chat.map(|chat| chat.0))
            .bind(expires_at.0)
            .execute(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        tx.commit().await.map_err(db(OPERATION))
    }

    /// `user` (of `platform`, stored name) typed `code`: when it is open, was made on the other
    /// platform and neither is linked, the two identities are linked (the code is used up) and
    /// share from now the settings chosen last of the two; `private_chat` is `user`'s private
    /// chat. Recorded with `request`; a lapsed code is deleted.
    ///
    /// # Errors
    /// [`super::Conflict::Duplicate`]; a database failure.
    pub async fn link_with_code(
        &self,
        user: UserId,
        platform: &str,
        code: &str,
        private_chat: Option<ChatId>,
        request: Option<&RequestKey>,
        now: Timestamp,
    ) -> Result<LinkClaim, StoreError> {
        const OPERATION: &str = "link_with_code";
        let mut tx = self.begin_write(OPERATION).await?;
        record_request(&mut tx, request, None, now, OPERATION).await?;
        let found: Option<(i64, Option<i64>, i64, String)> = query_as(CODE)
            .bind(code)
            .fetch_optional(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        let claim = match found {
            None => LinkClaim::Unknown,
            Some((.., expires_at, _)) if expires_at <= now.0 => {
                query(CLAIM_CODE)
                    .bind(code)
                    .execute(&mut tx)
                    .await
                    .map_err(db(OPERATION))?;
                LinkClaim::Unknown
            }
            Some((.., theirs)) if theirs == platform => LinkClaim::SamePlatform,
            Some((maker, their_chat, ..)) => {
                self.claim_link(
                    &mut tx,
                    user,
                    UserId(maker),
                    code,
                    (private_chat, their_chat),
                    now,
                )
                .await?
            }
        };
        tx.commit().await.map_err(db(OPERATION))?;
        Ok(claim)
    }

    /// The rest of [`Store::link_with_code`] for an open code of the other platform.
    async fn claim_link(
        &self,
        tx: &mut Tx,
        user: UserId,
        maker: UserId,
        code: &str,
        (own_chat, their_chat): (Option<ChatId>, Option<i64>),
        now: Timestamp,
    ) -> Result<LinkClaim, StoreError> {
        const OPERATION: &str = "link_with_code";
        for (who, linked) in [(user, true), (maker, false)] {
            let partner: Option<i64> = query_scalar(PARTNER)
                .bind(who.0)
                .fetch_optional(&mut *tx)
                .await
                .map_err(db(OPERATION))?;
            if let Some(partner) = partner {
                return Ok(if linked {
                    LinkClaim::AlreadyLinked(UserId(partner))
                } else {
                    LinkClaim::TheyAreLinked
                });
            }
        }
        let used = query(CLAIM_CODE)
            .bind(code)
            .execute(&mut *tx)
            .await
            .map_err(db(OPERATION))?
            .rows_affected();
        if used != 1 {
            return Ok(LinkClaim::Unknown);
        }
        query(INSERT_LINKS)
            .bind(user.0)
            .bind(maker.0)
            .bind(now.0)
            .execute(&mut *tx)
            .await
            .map_err(db(OPERATION))?;
        for (who, chat) in [(user, own_chat.map(|chat| chat.0)), (maker, their_chat)] {
            query(KEEP_PRIVATE_CHAT)
                .bind(who.0)
                .bind(chat)
                .execute(&mut *tx)
                .await
                .map_err(db(OPERATION))?;
        }
        // The settings chosen last are kept for both (those of who typed the code on a tie).
        let mut chosen = Vec::with_capacity(2);
        for who in [user, maker] {
            let at: i64 = query_scalar(SETTINGS_CHOSEN)
                .bind(who.0)
                .fetch_one(&mut *tx)
                .await
                .map_err(db(OPERATION))?;
            chosen.push(at);
        }
        let source = if chosen[1] > chosen[0] { maker } else { user };
        mirror_settings(tx, source, now, OPERATION).await?;
        Ok(LinkClaim::Linked(maker))
    }

    /// The identity linked to `user`'s, if any.
    ///
    /// # Errors
    /// A database failure.
    pub async fn linked(&self, user: UserId) -> Result<Option<UserId>, StoreError> {
        let partner: Option<i64> = query_scalar(PARTNER)
            .bind(user.0)
            .fetch_optional(self)
            .await
            .map_err(db("linked"))?;
        Ok(partner.map(UserId))
    }

    /// Unlinks `user`'s identity from the other (each keeps the settings it has), recording
    /// `request`: the identity it was linked to, if it was.
    ///
    /// # Errors
    /// [`super::Conflict::Duplicate`]; a database failure.
    pub async fn unlink(
        &self,
        user: UserId,
        request: Option<&RequestKey>,
        now: Timestamp,
    ) -> Result<Option<UserId>, StoreError> {
        const OPERATION: &str = "unlink";
        let mut tx = self.begin_write(OPERATION).await?;
        record_request(&mut tx, request, None, now, OPERATION).await?;
        let partner: Option<i64> = query_scalar(PARTNER)
            .bind(user.0)
            .fetch_optional(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        query(DELETE_LINKS)
            .bind(user.0)
            .execute(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        tx.commit().await.map_err(db(OPERATION))?;
        Ok(partner.map(UserId))
    }
}
