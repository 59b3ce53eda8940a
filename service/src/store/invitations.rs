//! Usernames and invitations: users found by their platform username, challenges that invite
//! a typed `@username` nobody is known by yet, and the last acceptance of a challenge written
//! with its game in one transaction. The statements and the operations that run them; those
//! that run the games' operations of `sql.rs` in their transaction (accepting and joining) are
//! still, with them, in a macro, [`invitation_operations`], expanded once per backend.
//!
//! Usernames are compared with SQL `lower()`, which both databases agree on for ASCII (the
//! usernames of Telegram and Discord are ASCII).

use super::executor::{query, query_as, query_scalar};
use super::{
    ChallengeNo, Platform, SEEN_REFRESH_MILLIS, Store, StoreError, Timestamp, User, UserId,
    UserRow, clean_username, db, sql,
};

/// Records a user with a username, or updates a known one: `$1` platform, `$2` platform id,
/// `$3` display name, `$4` username or null, `$5` now.
pub(super) const UPSERT_USER_WITH_USERNAME: &str = "\
INSERT INTO users (platform, platform_user_id, display_name, created_at, updated_at, username)
VALUES ($1, $2, $3, $4, $4, $5)
ON CONFLICT (platform, platform_user_id)
DO UPDATE SET display_name = excluded.display_name, updated_at = excluded.updated_at,
              username = excluded.username
RETURNING id, platform, platform_user_id, display_name, created_at, updated_at, username";

/// A username belongs to one account at a time: others of the platform that had it (`$1`
/// platform, `$2` username, `$3` the platform id of its holder now) lose it.
pub(super) const RELEASE_USERNAME: &str = "\
UPDATE users SET username = NULL
WHERE platform = $1 AND lower(username) = lower($2) AND platform_user_id <> $3";

/// `$1` platform, `$2` username; the latest seen first.
pub(super) const USER_BY_USERNAME: &str = "\
SELECT id, platform, platform_user_id, display_name, created_at, updated_at, username
FROM users WHERE platform = $1 AND lower(username) = lower($2) AND username IS NOT NULL
ORDER BY updated_at DESC, id DESC LIMIT 1";

/// Gives the seat of the username-only invitee `$2` of pending challenge `$1` to user `$3`,
/// unless that user already is an invitee.
pub(super) const BIND_INVITEE_USERNAME: &str = "\
UPDATE challenge_invitees SET user_id = $3, username = NULL
WHERE challenge_id = $1 AND user_id IS NULL AND lower(username) = lower($2)
  AND NOT EXISTS (SELECT 1 FROM challenge_invitees i WHERE i.challenge_id = $1 AND i.user_id = $3)
  AND EXISTS (SELECT 1 FROM challenges c WHERE c.id = $1 AND c.status = 'pending')";

/// `SELECT 1` if user `$2`, whose stored username is `$3`, is an invitee of challenge `$1`.
pub(super) const IS_INVITEE_NAMED: &str = "\
SELECT 1 FROM challenge_invitees i JOIN users u ON u.id = i.user_id
WHERE i.challenge_id = $1 AND i.user_id = $2 AND lower(u.username) = lower($3)";

/// `SELECT 1` if challenge `$1` still has a seat for username `$2` unbound.
pub(super) const UNBOUND_USERNAME: &str = "\
SELECT 1 FROM challenge_invitees
WHERE challenge_id = $1 AND user_id IS NULL AND lower(username) = lower($2)";

/// The challenger of challenge `$1`.
pub(super) const CHALLENGER: &str = "SELECT challenger_id FROM challenges WHERE id = $1";

/// The invitees of challenge `$1` known as users.
pub(super) const INVITED_USERS: &str = "\
SELECT user_id FROM challenge_invitees WHERE challenge_id = $1 AND user_id IS NOT NULL";

/// `SELECT 1` if challenge `$1` invites anyone.
pub(super) const HAS_INVITEES: &str = "\
SELECT 1 FROM challenge_invitees WHERE challenge_id = $1 LIMIT 1";

/// Records that user `$2` joined open challenge `$1` at `$3`, unless they had.
pub(super) const INSERT_JOINER: &str = "\
INSERT INTO challenge_joiners (challenge_id, user_id, joined_at) VALUES ($1, $2, $3)
ON CONFLICT (challenge_id, user_id) DO NOTHING";

/// Who joined open challenge `$1`.
pub(super) const JOINED_USERS: &str =
    "SELECT user_id FROM challenge_joiners WHERE challenge_id = $1";

impl Store {
    /// [`Store::upsert_user`] that also records the platform's username (without `@`; `None`:
    /// the user has none, and a stored one is cleared). A username belongs to one account at a
    /// time: another user of the platform that had it loses it, in the same transaction.
    ///
    /// # Errors
    /// A database failure.
    pub async fn upsert_user_with_username(
        &self,
        platform: Platform,
        platform_user_id: &str,
        display_name: &str,
        username: Option<&str>,
    ) -> Result<User, StoreError> {
        const OPERATION: &str = "upsert_user_with_username";
        let username = username.map(clean_username).filter(|name| !name.is_empty());
        let now = Timestamp::now();
        let known = query_as::<UserRow>(sql::USER_BY_PLATFORM_ID)
            .bind(platform.as_str())
            .bind(platform_user_id)
            .fetch_optional(self)
            .await
            .map_err(db(OPERATION))?;
        if let Some(row) = known
            && row.display_name == display_name
            && row.username.as_deref() == username
            && now.0 - row.updated_at < SEEN_REFRESH_MILLIS
        {
            return row.try_into();
        }
        let mut tx = self.begin_write(OPERATION).await?;
        if let Some(name) = username {
            query(RELEASE_USERNAME)
                .bind(platform.as_str())
                .bind(name)
                .bind(platform_user_id)
                .execute(&mut tx)
                .await
                .map_err(db(OPERATION))?;
        }
        let row = query_as::<UserRow>(UPSERT_USER_WITH_USERNAME)
            .bind(platform.as_str())
            .bind(platform_user_id)
            .bind(display_name)
            .bind(now.0)
            .bind(username)
            .fetch_one(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        tx.commit().await.map_err(db(OPERATION))?;
        row.try_into()
    }

    /// The user of a platform with this username (a leading `@` is ignored; ASCII case is
    /// not), if one is known.
    ///
    /// # Errors
    /// A database failure.
    pub async fn user_by_username(
        &self,
        platform: Platform,
        username: &str,
    ) -> Result<Option<User>, StoreError> {
        query_as::<UserRow>(USER_BY_USERNAME)
            .bind(platform.as_str())
            .bind(clean_username(username))
            .fetch_optional(self)
            .await
            .map_err(db("user_by_username"))?
            .map(User::try_from)
            .transpose()
    }

    /// Gives the seat of a pending challenge's username-only invitee `username` (compared
    /// without regard to ASCII case; a leading `@` ignored) to `user`, atomically: exactly one
    /// seat, and only while no one else took it and `user` holds no seat of the challenge yet.
    /// The caller passes the username the platform reported for `user`. Returns whether `user`
    /// now holds that seat: true when this call bound it, and on a repeated call by the same
    /// user (known by that username, see [`Store::upsert_user_with_username`]); false when
    /// there is no such seat (never invited, taken by someone else, the challenge settled).
    ///
    /// # Errors
    /// A database failure.
    pub async fn bind_invitee_username(
        &self,
        challenge: ChallengeNo,
        username: &str,
        user: UserId,
    ) -> Result<bool, StoreError> {
        const OPERATION: &str = "bind_invitee_username";
        let username = clean_username(username);
        if username.is_empty() {
            return Ok(false);
        }
        let mut tx = self.begin_write(OPERATION).await?;
        let bound = query(BIND_INVITEE_USERNAME)
            .bind(challenge.0)
            .bind(username)
            .bind(user.0)
            .execute(&mut tx)
            .await
            .map_err(db(OPERATION))?
            .rows_affected();
        if bound > 0 {
            tx.commit().await.map_err(db(OPERATION))?;
            return Ok(true);
        }
        // A repeated call: the user, known by that username, holds a seat and none of that name
        // is left unbound.
        let holds: Option<i32> = query_scalar(IS_INVITEE_NAMED)
            .bind(challenge.0)
            .bind(user.0)
            .bind(username)
            .fetch_optional(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        let unbound: Option<i32> = query_scalar(UNBOUND_USERNAME)
            .bind(challenge.0)
            .bind(username)
            .fetch_optional(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        tx.commit().await.map_err(db(OPERATION))?;
        Ok(holds.is_some() && unbound.is_none())
    }
}

/// The invitation operations of a backend store type `$store` that run the operations of
/// `sql::store_operations` in their transaction (converted with them).
macro_rules! invitation_operations {
    ($store:ident) => {
        impl $store {
            pub(super) async fn accept_and_create_game(
                &self,
                new: &NewGame<'_>,
                request: Option<&super::RequestKey>,
                announce: Option<&super::Announce<'_>>,
            ) -> Result<(super::Accepted, Option<super::OutboxId>), StoreError> {
                const OPERATION: &str = "accept_and_create_game";
                let now = Timestamp::now();
                let mut tx = self.begin_write(OPERATION).await?;
                Self::record_request(&mut tx, request, None, now, OPERATION).await?;
                if let Some(acceptance) = new.accepting {
                    let id = acceptance.challenge;
                    let invites: Option<i32> = sqlx::query_scalar(invitations::HAS_INVITEES)
                        .bind(id.0)
                        .fetch_optional(&mut *tx)
                        .await
                        .map_err(db(OPERATION))?;
                    if invites.is_some() {
                        let newly =
                            Self::accept_in(&mut tx, id, acceptance.by, acceptance.now, OPERATION)
                                .await?;
                        let (waiting, waiting_usernames) =
                            Self::waiting_invitees(&mut tx, id, OPERATION).await?;
                        if !waiting.is_empty() || !waiting_usernames.is_empty() {
                            tx.commit().await.map_err(db(OPERATION))?;
                            let invitation = super::Invitation {
                                challenge: self.existing_challenge(id).await?,
                                newly,
                                waiting,
                                waiting_usernames,
                            };
                            return Ok((super::Accepted::Waiting(invitation), None));
                        }
                    }
                }
                if let Some(acceptance) = new.accepting {
                    // An open challenge: its row's lock keeps a join from slipping in between
                    // the check of its players and its settlement.
                    Self::lock_pending(&mut tx, acceptance.challenge, acceptance.now, OPERATION)
                        .await?;
                    Self::check_players(&mut tx, new.seats, acceptance, OPERATION).await?;
                }
                let id = Self::create_game_in(&mut tx, new, now, OPERATION).await?;
                let announced = match announce {
                    Some(announce) => Some(
                        Self::announce_in(&mut tx, GameNo(id), announce, now, OPERATION).await?,
                    ),
                    None => None,
                };
                tx.commit().await.map_err(db(OPERATION))?;
                let record = self.existing_game(GameNo(id)).await?;
                Ok((super::Accepted::Started(record), announced))
            }

            pub(super) async fn join_open_challenge(
                &self,
                id: ChallengeNo,
                by: UserId,
                now: Timestamp,
                room: usize,
                request: Option<&super::RequestKey>,
            ) -> Result<super::Joined, StoreError> {
                const OPERATION: &str = "join_open_challenge";
                let mut tx = self.begin_write(OPERATION).await?;
                Self::record_request(&mut tx, request, None, now, OPERATION).await?;
                Self::lock_pending(&mut tx, id, now, OPERATION).await?;
                let invites: Option<i32> = sqlx::query_scalar(invitations::HAS_INVITEES)
                    .bind(id.0)
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(db(OPERATION))?;
                if invites.is_some() {
                    return Err(Conflict::NotInvited(id).into());
                }
                let joined: Vec<i64> = sqlx::query_scalar(invitations::JOINED_USERS)
                    .bind(id.0)
                    .fetch_all(&mut *tx)
                    .await
                    .map_err(db(OPERATION))?;
                let newly = !joined.contains(&by.0);
                if newly {
                    if joined.len() >= room {
                        return Err(Conflict::PlayersChanged(id).into());
                    }
                    sqlx::query(invitations::INSERT_JOINER)
                        .bind(id.0)
                        .bind(by.0)
                        .bind(now.0)
                        .execute(&mut *tx)
                        .await
                        .map_err(db(OPERATION))?;
                }
                tx.commit().await.map_err(db(OPERATION))?;
                Ok(super::Joined {
                    challenge: self.existing_challenge(id).await?,
                    newly,
                })
            }

            /// Refuses a game whose seats are not held by exactly the challenge's players: the
            /// challenger and the invitees (all bound by now), or, for an open challenge, the
            /// challenger and who accepts. Runs before the game is written, so that a caller
            /// holding an older read of the challenge is told before anything else.
            async fn check_players(
                tx: &mut sqlx::Transaction<'static, Db>,
                seats: &[UserId],
                acceptance: super::Acceptance,
                operation: &'static str,
            ) -> Result<(), StoreError> {
                let id = acceptance.challenge;
                let challenger: Option<i64> = sqlx::query_scalar(invitations::CHALLENGER)
                    .bind(id.0)
                    .fetch_optional(&mut **tx)
                    .await
                    .map_err(db(operation))?;
                // No such challenge: the settlement that follows says so.
                let Some(challenger) = challenger else {
                    return Ok(());
                };
                let mut players: Vec<i64> = sqlx::query_scalar(invitations::INVITED_USERS)
                    .bind(id.0)
                    .fetch_all(&mut **tx)
                    .await
                    .map_err(db(operation))?;
                if players.is_empty() {
                    // An open challenge: who joined it, and who accepts now (the challenger,
                    // when starting it early).
                    players = sqlx::query_scalar(invitations::JOINED_USERS)
                        .bind(id.0)
                        .fetch_all(&mut **tx)
                        .await
                        .map_err(db(operation))?;
                    players.push(acceptance.by.0);
                }
                players.push(challenger);
                players.sort_unstable();
                players.dedup();
                let mut seated: Vec<i64> = seats
                    .iter()
                    .filter(|user| Some(**user) != acceptance.computer)
                    .map(|user| user.0)
                    .collect();
                seated.sort_unstable();
                seated.dedup();
                if seated == players {
                    Ok(())
                } else {
                    Err(Conflict::PlayersChanged(id).into())
                }
            }
        }
    };
}

pub(super) use invitation_operations;
