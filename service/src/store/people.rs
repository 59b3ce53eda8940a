//! People and chats: users (with their platform usernames), chats and their communities, and
//! whether a request was already applied. The statements and the operations that run them.
//!
//! Usernames are compared with SQL `lower()`, which both databases agree on for ASCII (the
//! usernames of Telegram and Discord are ASCII).

use super::executor::{query, query_as, query_scalar};
use super::{
    Chat, ChatRow, Platform, RequestKey, SEEN_REFRESH_MILLIS, Store, StoreError, Timestamp, User,
    UserId, UserRow, clean_username, db,
};

const SCHEMA_VERSION: &str = "SELECT MAX(version) FROM _sqlx_migrations WHERE success";

const UPSERT_USER: &str = "\
INSERT INTO users (platform, platform_user_id, display_name, created_at, updated_at)
VALUES ($1, $2, $3, $4, $4)
ON CONFLICT (platform, platform_user_id)
DO UPDATE SET display_name = excluded.display_name, updated_at = excluded.updated_at
RETURNING id, platform, platform_user_id, display_name, created_at, updated_at, username";

/// Records a user with a username, or updates a known one: `$1` platform, `$2` platform id,
/// `$3` display name, `$4` now, `$5` username or null.
const UPSERT_USER_WITH_USERNAME: &str = "\
INSERT INTO users (platform, platform_user_id, display_name, created_at, updated_at, username)
VALUES ($1, $2, $3, $4, $4, $5)
ON CONFLICT (platform, platform_user_id)
DO UPDATE SET display_name = excluded.display_name, updated_at = excluded.updated_at,
              username = excluded.username
RETURNING id, platform, platform_user_id, display_name, created_at, updated_at, username";

/// A username belongs to one account at a time: others of the platform that had it (`$1`
/// platform, `$2` username, `$3` the platform id of its holder now) lose it.
const RELEASE_USERNAME: &str = "\
UPDATE users SET username = NULL
WHERE platform = $1 AND lower(username) = lower($2) AND platform_user_id <> $3";

const USER: &str = "\
SELECT id, platform, platform_user_id, display_name, created_at, updated_at, username
FROM users WHERE id = $1";

const USER_BY_PLATFORM_ID: &str = "\
SELECT id, platform, platform_user_id, display_name, created_at, updated_at, username
FROM users WHERE platform = $1 AND platform_user_id = $2";

/// `$1` platform, `$2` username; the latest seen first.
const USER_BY_USERNAME: &str = "\
SELECT id, platform, platform_user_id, display_name, created_at, updated_at, username
FROM users WHERE platform = $1 AND lower(username) = lower($2) AND username IS NOT NULL
ORDER BY updated_at DESC, id DESC LIMIT 1";

/// The chat of platform `$1` with the platform's id `$2`, with its community.
const CHAT_BY_PLATFORM_ID: &str = "\
SELECT ch.id, ch.platform, ch.platform_chat_id, ch.title, ch.created_at, ch.updated_at,
       co.id AS community_id, co.platform_community_id, co.title AS community_title,
       ch.inactive_at
FROM chats ch JOIN communities co ON co.id = ch.community_id
WHERE ch.platform = $1 AND ch.platform_chat_id = $2";

/// Chat `$1`, with its community.
pub(super) const CHAT: &str = "\
SELECT ch.id, ch.platform, ch.platform_chat_id, ch.title, ch.created_at, ch.updated_at,
       co.id AS community_id, co.platform_community_id, co.title AS community_title,
       ch.inactive_at
FROM chats ch JOIN communities co ON co.id = ch.community_id
WHERE ch.id = $1";

const UPSERT_COMMUNITY: &str = "\
INSERT INTO communities (platform, platform_community_id, title, created_at, updated_at)
VALUES ($1, $2, $3, $4, $4)
ON CONFLICT (platform, platform_community_id)
DO UPDATE SET title = excluded.title, updated_at = excluded.updated_at
RETURNING id";

const UPSERT_CHAT: &str = "\
INSERT INTO chats (platform, platform_chat_id, title, created_at, updated_at, community_id)
VALUES ($1, $2, $3, $4, $4, $5)
ON CONFLICT (platform, platform_chat_id)
DO UPDATE SET title = excluded.title, updated_at = excluded.updated_at,
              community_id = excluded.community_id, inactive_at = NULL";

/// `SELECT 1` is an INT4 on PostgreSQL and an INTEGER on SQLite: both decode as `i32`.
const REQUEST_HANDLED: &str = "\
SELECT 1 FROM processed_requests WHERE platform = $1 AND request_key = $2";

impl Store {
    /// Closes every connection; later calls fail.
    pub async fn close(&self) {
        match self {
            Store::Sqlite(store) => store.pool.close().await,
            Store::Postgres(store) => store.pool.close().await,
        }
    }

    /// The latest migration version applied.
    ///
    /// # Errors
    /// A database failure.
    pub async fn schema_version(&self) -> Result<i64, StoreError> {
        let version: Option<i64> = query_scalar(SCHEMA_VERSION)
            .fetch_one(self)
            .await
            .map_err(db("schema_version"))?;
        Ok(version.unwrap_or(0))
    }

    /// Records a user, or updates the display name of a known one.
    ///
    /// # Errors
    /// A database failure.
    pub async fn upsert_user(
        &self,
        platform: Platform,
        platform_user_id: &str,
        display_name: &str,
    ) -> Result<User, StoreError> {
        const OPERATION: &str = "upsert_user";
        let now = Timestamp::now();
        // Most requests come from someone known under the same name: only a read.
        let known = query_as::<UserRow>(USER_BY_PLATFORM_ID)
            .bind(platform.as_str())
            .bind(platform_user_id)
            .fetch_optional(self)
            .await
            .map_err(db(OPERATION))?;
        if let Some(row) = known
            && row.display_name == display_name
            && now.0 - row.updated_at < SEEN_REFRESH_MILLIS
        {
            return row.try_into();
        }
        query_as::<UserRow>(UPSERT_USER)
            .bind(platform.as_str())
            .bind(platform_user_id)
            .bind(display_name)
            .bind(now.0)
            .fetch_one(self)
            .await
            .map_err(db(OPERATION))?
            .try_into()
    }

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
        let known = query_as::<UserRow>(USER_BY_PLATFORM_ID)
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

    /// A user by id.
    ///
    /// # Errors
    /// A database failure.
    pub async fn user(&self, id: UserId) -> Result<Option<User>, StoreError> {
        query_as::<UserRow>(USER)
            .bind(id.0)
            .fetch_optional(self)
            .await
            .map_err(db("user"))?
            .map(User::try_from)
            .transpose()
    }

    /// A user by the platform's id, if known.
    ///
    /// # Errors
    /// A database failure.
    pub async fn user_by_platform_id(
        &self,
        platform: Platform,
        platform_user_id: &str,
    ) -> Result<Option<User>, StoreError> {
        query_as::<UserRow>(USER_BY_PLATFORM_ID)
            .bind(platform.as_str())
            .bind(platform_user_id)
            .fetch_optional(self)
            .await
            .map_err(db("user_by_platform_id"))?
            .map(User::try_from)
            .transpose()
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

    /// Whether a request was already applied (by [`Store::append_actions`] or one of the
    /// `_once` methods, or [`Store::accept_invitation`]).
    ///
    /// # Errors
    /// A database failure.
    pub async fn request_handled(&self, request: &RequestKey) -> Result<bool, StoreError> {
        let found: Option<i32> = query_scalar(REQUEST_HANDLED)
            .bind(request.platform.as_str())
            .bind(&request.key)
            .fetch_optional(self)
            .await
            .map_err(db("request_handled"))?;
        Ok(found.is_some())
    }

    /// Records a chat and its community (the platform's id and name of a Discord server;
    /// `None`: the chat stands alone and is its own community), or updates the names of known
    /// ones.
    ///
    /// # Errors
    /// A database failure.
    pub async fn upsert_chat(
        &self,
        platform: Platform,
        platform_chat_id: &str,
        title: &str,
        community: Option<(&str, &str)>,
    ) -> Result<Chat, StoreError> {
        const OPERATION: &str = "upsert_chat";
        let now = Timestamp::now();
        let (community_id, community_title) = community.unwrap_or((platform_chat_id, title));
        // Most requests come from a known chat under the same names: only a read.
        let known = query_as::<ChatRow>(CHAT_BY_PLATFORM_ID)
            .bind(platform.as_str())
            .bind(platform_chat_id)
            .fetch_optional(self)
            .await
            .map_err(db(OPERATION))?;
        if let Some(row) = known
            && row.title == title
            && row.platform_community_id == community_id
            && row.community_title == community_title
            && row.inactive_at.is_none()
            && now.0 - row.updated_at < SEEN_REFRESH_MILLIS
        {
            return row.try_into();
        }
        let mut tx = self.begin_write(OPERATION).await?;
        let community: i64 = query_scalar(UPSERT_COMMUNITY)
            .bind(platform.as_str())
            .bind(community_id)
            .bind(community_title)
            .bind(now.0)
            .fetch_one(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        query(UPSERT_CHAT)
            .bind(platform.as_str())
            .bind(platform_chat_id)
            .bind(title)
            .bind(now.0)
            .bind(community)
            .execute(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        let chat = query_as::<ChatRow>(CHAT_BY_PLATFORM_ID)
            .bind(platform.as_str())
            .bind(platform_chat_id)
            .fetch_one(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        tx.commit().await.map_err(db(OPERATION))?;
        chat.try_into()
    }
}
