//! The users and chats met recently, so that a known person does not cost a database write.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::store::{Chat, Platform, SEEN_REFRESH_MILLIS, Timestamp, User};

/// Users and chats met recently, as the store last returned them, so that a request from
/// someone known under an unchanged name does not go to the database for them. Only the
/// mapping from platform ids to rows (which never changes) and the names are kept; a row is
/// written again once its `updated_at` is [`SEEN_REFRESH_MILLIS`] old or the name changed.
#[derive(Debug, Default)]
pub(super) struct Seen {
    users: Mutex<HashMap<(Platform, String), User>>,
    chats: Mutex<HashMap<(Platform, String), Chat>>,
}

/// Beyond this many entries a map of [`Seen`] starts afresh.
pub(super) const SEEN_CAPACITY: usize = 50_000;

impl Seen {
    pub(super) fn user(
        &self,
        key: &(Platform, String),
        name: &str,
        username: Option<&str>,
        now: Timestamp,
    ) -> Option<User> {
        let users = self.users.lock().ok()?;
        users
            .get(key)
            .filter(|u| {
                u.display_name == name
                    && u.username.as_deref() == username
                    && now.0 - u.updated_at.0 < SEEN_REFRESH_MILLIS
            })
            .cloned()
    }

    pub(super) fn chat(
        &self,
        key: &(Platform, String),
        title: &str,
        community: Option<(&str, &str)>,
        now: Timestamp,
    ) -> Option<Chat> {
        let (community_id, community_title) = community.unwrap_or((key.1.as_str(), title));
        let chats = self.chats.lock().ok()?;
        chats
            .get(key)
            .filter(|c| {
                c.title == title
                    && c.platform_community_id == community_id
                    && c.community_title == community_title
                    && now.0 - c.updated_at.0 < SEEN_REFRESH_MILLIS
            })
            .cloned()
    }

    pub(super) fn remember_user(&self, key: (Platform, String), user: &User) {
        if let Ok(mut users) = self.users.lock() {
            if users.len() >= SEEN_CAPACITY {
                users.clear();
            }
            users.insert(key, user.clone());
        }
    }

    pub(super) fn remember_chat(&self, key: (Platform, String), chat: &Chat) {
        if let Ok(mut chats) = self.chats.lock() {
            if chats.len() >= SEEN_CAPACITY {
                chats.clear();
            }
            chats.insert(key, chat.clone());
        }
    }

    /// Forgets the chats of `platform` whose id is one of `ids` or a topic of one (`id:...`),
    /// after their rows moved.
    pub(super) fn forget_chats(&self, platform: Platform, ids: &[&str]) {
        if let Ok(mut chats) = self.chats.lock() {
            chats.retain(|(chat_platform, chat), _| {
                *chat_platform != platform
                    || !ids.iter().any(|id| {
                        chat.strip_prefix(id)
                            .is_some_and(|rest| rest.is_empty() || rest.starts_with(':'))
                    })
            });
        }
    }
}
