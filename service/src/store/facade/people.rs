//! The [`Store`]'s operations on people and chats: users (with their platform usernames), chats
//! and their communities, a chat's move to a new platform id, and the request keys that make a
//! re-delivered request harmless.

use crate::store::*;

impl Store {
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
        dispatch!(self, store => store.upsert_user(platform, platform_user_id, display_name).await)
    }

    /// A user by id.
    ///
    /// # Errors
    /// A database failure.
    pub async fn user(&self, id: UserId) -> Result<Option<User>, StoreError> {
        dispatch!(self, store => store.user(id).await)
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
        dispatch!(self, store => store.user_by_platform_id(platform, platform_user_id).await)
    }

    /// Whether a request was already applied (by [`Store::append_actions`] or one of the
    /// `_once` methods, or [`Store::accept_invitation`]).
    ///
    /// # Errors
    /// A database failure.
    pub async fn request_handled(&self, request: &RequestKey) -> Result<bool, StoreError> {
        dispatch!(self, store => store.request_handled(request).await)
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
        dispatch!(self, store => store.upsert_chat(platform, platform_chat_id, title, community).await)
    }
}
