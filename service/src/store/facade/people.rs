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

    /// A chat by id.
    ///
    /// # Errors
    /// A database failure.
    pub async fn chat(&self, id: ChatId) -> Result<Option<Chat>, StoreError> {
        dispatch!(self, store => store.chat(id).await)
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
        dispatch!(self, store => store.upsert_user_with_username(platform, platform_user_id, display_name, username).await)
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
        dispatch!(self, store => store.user_by_username(platform, username).await)
    }

    /// A chat's platform id changed (Telegram's group → supergroup migration): the chat whose
    /// platform id is `old`, and every chat whose platform id is `old` followed by `:` (forum
    /// topics, stored as `"<chat id>:<thread id>"`), take `new` in place of that prefix, and
    /// the community whose platform id is `old` takes `new`, in one transaction; games,
    /// challenges, settings, wallets, ledger and outbox rows follow, since they refer to
    /// chats and communities by the store's ids. Where rows under the new ids exist already
    /// (someone wrote in the supergroup before the move was processed), those rows stay and
    /// absorb the old ones: no game, challenge, outbox row or coin is lost (see the module
    /// `chat_moves` for exactly how). The old chat's games forget their board message ids. A
    /// move of an unknown id, or to the same id, changes nothing.
    ///
    /// # Errors
    /// A database failure (then nothing is moved).
    pub async fn move_chat(
        &self,
        platform: Platform,
        old: &str,
        new: &str,
    ) -> Result<MovedChat, StoreError> {
        dispatch!(self, store => store.move_chat(platform, old, new).await)
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
        dispatch!(self, store => store.set_chat_inactive(chat, inactive, now).await)
    }
}
