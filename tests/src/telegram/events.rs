//! What people do, made by tests: write messages (with the entities Telegram computes), press
//! buttons, create forum topics, remove the bot, upgrade a group. Each becomes an update for the
//! bot, built as the real service builds it.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Instant;

use serde_json::{Map, Value, json};

use super::markup::{self, Entity};
use super::state::{
    BotStanding, CallbackRecord, ChatKind, ChatRecord, Content, DEFAULT_TOPIC_COLOR, FakeMessage,
    FakeTopic, State, unix_now,
};
use super::{FakeTelegram, TgChat, TgUser};

/// A message a person is about to send; [`Incoming::send`] delivers it.
#[derive(Debug)]
pub struct Incoming {
    fake: FakeTelegram,
    chat: i64,
    user: i64,
    text: String,
    extra: Vec<Entity>,
    thread: Option<i64>,
    reply_to: Option<i64>,
}

impl Incoming {
    /// Appends plain text.
    #[must_use]
    pub fn text(mut self, more: &str) -> Self {
        self.text.push_str(more);
        self
    }

    /// Appends `label` as a `text_mention` of `user` (how a person without a username is
    /// mentioned).
    #[must_use]
    pub fn text_mention(mut self, label: &str, user: &TgUser) -> Self {
        let mut entity = Entity::new(
            "text_mention",
            markup::utf16_len(&self.text),
            markup::utf16_len(label),
        );
        entity.user = Some(self.fake.user_json(user.id));
        self.extra.push(entity);
        self.text.push_str(label);
        self
    }

    /// Sends it in the forum topic `thread_id` (`message_thread_id`, `is_topic_message`).
    #[must_use]
    pub fn in_topic(mut self, thread_id: i64) -> Self {
        self.thread = Some(thread_id);
        self
    }

    /// Makes it a reply to message `message_id` of the same chat.
    #[must_use]
    pub fn reply_to(mut self, message_id: i64) -> Self {
        self.reply_to = Some(message_id);
        self
    }

    /// Sends it: stores the message and queues a `message` update. Returns its id.
    ///
    /// # Panics
    ///
    /// If the chat, the topic or the replied message does not exist, or the topic is closed and
    /// the person is neither its creator nor an administrator (a mistake in the test).
    pub fn send(self) -> i64 {
        let inner = &self.fake.inner;
        let (json, id) = {
            let mut state = inner.lock();
            let Some(chat) = state.chats.get_mut(&self.chat) else {
                panic!("chat {} is not a chat of this fake", self.chat)
            };
            chat.members.insert(self.user);
            let forum = chat.is_forum;
            if let Some(t) = self.thread {
                let topic = chat.topics.get(&t);
                assert!(topic.is_some(), "no topic {t} in chat {}", self.chat);
                let may_write_closed =
                    chat.creator == Some(self.user) || chat.admins.contains(&self.user);
                assert!(
                    !topic.is_some_and(|t| t.closed) || may_write_closed,
                    "topic {t} of chat {} is closed: only administrators write there",
                    self.chat
                );
            }
            if let Some(r) = self.reply_to {
                assert!(
                    state.messages.contains_key(&(self.chat, r)),
                    "no message {r} to reply to"
                );
            }
            let mut entities = markup::detect_entities(&self.text);
            entities.extend(self.extra);
            markup::sort_entities(&mut entities);
            let message = FakeMessage {
                chat_id: self.chat,
                message_id: state.take_message_id(self.chat),
                from: Some(self.user),
                from_bot: false,
                date: unix_now(),
                content: Content {
                    text: Some(self.text),
                    caption: None,
                    entities,
                    parse_mode: None,
                    media: None,
                    reply_markup: None,
                },
                thread_id: self.thread,
                is_topic_message: forum && self.thread.is_some(),
                reply_to: self.reply_to.or(self.thread.filter(|_| forum)),
                deleted: false,
                history: Vec::new(),
                edit_date: None,
                service: Map::new(),
            };
            let json = state.message_json(&message, false);
            let id = message.message_id;
            let delivered = reaches_bot(&state, &message);
            state.messages.insert((self.chat, id), message);
            if delivered {
                state.push_update("message", Some(self.chat), json.clone());
            }
            (json, id)
        };
        inner.check_own(&json, "Message");
        inner.bump();
        id
    }
}

/// Why `press` refused: a real person can only press a button that is there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PressError {
    /// No such message in the chat (or it was deleted).
    NoMessage,
    /// The message is not the bot's.
    NotBotMessage,
    /// The message has no button with this `callback_data` now.
    NoSuchButton {
        /// The buttons' data it does have.
        available: Vec<String>,
    },
    /// The bot is no longer in the chat.
    BotRemoved,
}

impl fmt::Display for PressError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoMessage => write!(f, "no such message"),
            Self::NotBotMessage => write!(f, "not a message of the bot"),
            Self::NoSuchButton { available } => {
                write!(f, "no button with this data; the message has {available:?}")
            }
            Self::BotRemoved => write!(f, "the bot is not in the chat"),
        }
    }
}

impl std::error::Error for PressError {}

impl FakeTelegram {
    /// `user` writes `text` in `chat` (entities computed as Telegram does). Returns the message id.
    pub fn user_writes(&self, chat: &TgChat, user: &TgUser, text: &str) -> i64 {
        self.compose(chat, user, text).send()
    }

    /// Starts a message of `user` in `chat`, for a topic, a reply or text mentions.
    #[must_use]
    pub fn compose(&self, chat: &TgChat, user: &TgUser, text: &str) -> Incoming {
        Incoming {
            fake: self.clone(),
            chat: chat.id,
            user: user.id,
            text: text.to_owned(),
            extra: Vec::new(),
            thread: None,
            reply_to: None,
        }
    }

    /// `user` presses the button with `data` on the bot's message `message_id`: a
    /// `callback_query` whose `message` is that message as it is now. Returns the query id.
    ///
    /// # Errors
    ///
    /// If the message does not carry such a button now.
    pub fn press(
        &self,
        chat: &TgChat,
        user: &TgUser,
        message_id: i64,
        data: &str,
    ) -> Result<String, PressError> {
        let inner = &self.inner;
        let json = {
            let mut state = inner.lock();
            let Some(record) = state.chats.get(&chat.id) else {
                return Err(PressError::NoMessage);
            };
            if record.bot == BotStanding::Removed || record.migrated_to.is_some() {
                return Err(PressError::BotRemoved);
            }
            let Some(message) = state
                .messages
                .get(&(chat.id, message_id))
                .filter(|m| !m.deleted)
            else {
                return Err(PressError::NoMessage);
            };
            if !message.from_bot {
                return Err(PressError::NotBotMessage);
            }
            if !message.has_callback(data) {
                let available = message
                    .buttons()
                    .into_iter()
                    .flatten()
                    .filter_map(|b| b.callback_data)
                    .collect();
                return Err(PressError::NoSuchButton { available });
            }
            let message_json = state.message_json(message, false);
            let id = format!("{}{:06}", state.bot_id, state.next_query);
            state.next_query += 1;
            let from = state.user_json(user.id).unwrap_or(Value::Null);
            let query = json!({"id": id, "from": from, "message": message_json,
                "chat_instance": format!("{}", chat.id.unsigned_abs().wrapping_mul(2_654_435_761)),
                "data": data});
            state.callbacks.push(CallbackRecord {
                id: id.clone(),
                chat_id: chat.id,
                message_id,
                user_id: user.id,
                data: data.to_owned(),
                pressed_at: Instant::now(),
                answered_at: None,
                answer: None,
                answers: 0,
            });
            state.push_update("callback_query", Some(chat.id), query.clone());
            (id, query)
        };
        inner.check_own(&json.1, "CallbackQuery");
        inner.bump();
        Ok(json.0)
    }

    /// Creates a forum topic named `name` in a forum supergroup, as its creator (or else its
    /// first administrator) does: a `forum_topic_created` service message, sent as an update.
    /// Returns its `message_thread_id`.
    ///
    /// # Panics
    ///
    /// If the chat is not a forum.
    pub fn create_topic(&self, chat: &TgChat, name: &str) -> i64 {
        let json = {
            let mut state = self.inner.lock();
            let record = state.chats.get(&chat.id);
            assert!(
                record.is_some_and(|c| c.is_forum),
                "chat {} is not a forum",
                chat.id
            );
            let from = record.and_then(|c| c.creator.or_else(|| c.admins.first().copied()));
            let id = state.take_message_id(chat.id);
            let topic = FakeTopic {
                thread_id: id,
                name: name.to_owned(),
                icon_color: DEFAULT_TOPIC_COLOR,
                icon_custom_emoji_id: None,
                created_by_bot: false,
                closed: false,
            };
            let mut service = Map::new();
            service.insert("forum_topic_created".to_owned(), topic.created_json());
            if let Some(c) = state.chats.get_mut(&chat.id) {
                c.topics.insert(id, topic);
            }
            let message = service_message(chat.id, id, from, service, Some(id));
            let json = state.message_json(&message, false);
            state.messages.insert((chat.id, id), message);
            state.push_update("message", Some(chat.id), json.clone());
            (id, json)
        };
        self.inner.check_own(&json.1, "Message");
        self.inner.bump();
        json.0
    }

    /// The forum's creator (or else its first administrator) closes the topic `thread_id`: a
    /// `forum_topic_closed` service message in the topic, sent as an update. From then on
    /// only administrators may write there (the bot needs `can_manage_topics`; others get 400
    /// `TOPIC_CLOSED`).
    ///
    /// # Panics
    ///
    /// If the chat has no such topic, or it is closed already.
    pub fn close_topic(&self, chat: &TgChat, thread_id: i64) {
        self.person_toggles_topic(chat, thread_id, true);
    }

    /// The forum's creator (or else its first administrator) reopens the closed topic
    /// `thread_id`: a `forum_topic_reopened` service message in the topic, sent as an update.
    ///
    /// # Panics
    ///
    /// If the chat has no such topic, or it is open.
    pub fn reopen_topic(&self, chat: &TgChat, thread_id: i64) {
        self.person_toggles_topic(chat, thread_id, false);
    }

    fn person_toggles_topic(&self, chat: &TgChat, thread_id: i64, close: bool) {
        let json = {
            let mut state = self.inner.lock();
            let Some(record) = state.chats.get_mut(&chat.id) else {
                panic!("chat {} is not a chat of this fake", chat.id)
            };
            let from = record.creator.or_else(|| record.admins.first().copied());
            let Some(topic) = record.topics.get_mut(&thread_id) else {
                panic!("no topic {thread_id} in chat {}", chat.id)
            };
            assert_ne!(topic.closed, close, "topic {thread_id} is already so");
            topic.closed = close;
            let message = topic_toggled(&mut state, chat.id, thread_id, from, close);
            let json = state.message_json(&message, false);
            state.push_update("message", Some(chat.id), json.clone());
            json
        };
        self.inner.check_own(&json, "Message");
        self.inner.bump();
    }

    /// Removes the bot from `chat`: a `my_chat_member` update (`left` in a basic group, `kicked`
    /// in a supergroup or when a user blocks the bot in a private chat); from then on sends to
    /// the chat answer 403.
    ///
    /// # Panics
    ///
    /// If a group has no creator or administrator to do it (set one first).
    pub fn kick_bot(&self, chat: &TgChat) {
        let json = {
            let mut state = self.inner.lock();
            let Some(record) = state.chats.get(&chat.id).cloned() else {
                panic!("chat {} is not a chat of this fake", chat.id)
            };
            let actor = record
                .private_user
                .or(record.creator)
                .or_else(|| record.admins.first().copied());
            let Some(actor) = actor else {
                panic!("chat {} has nobody to remove the bot", chat.id)
            };
            let old = state.member_json(&record, state.bot_id);
            let mut removed = record.clone();
            removed.bot = BotStanding::Removed;
            let new = state.member_json(&removed, state.bot_id);
            state.chats.insert(chat.id, removed);
            let body = json!({"chat": state.chat_json(&record), "from": state.user_json(actor),
                "date": unix_now(), "old_chat_member": old, "new_chat_member": new});
            state.push_update("my_chat_member", Some(chat.id), body.clone());
            body
        };
        self.inner.check_own(&json, "ChatMemberUpdated");
        self.inner.bump();
    }

    /// `user` starts the bot, as the Start button of the bot's profile does: opens their
    /// private chat with it (its id is the user's id) and writes `/start` there. A user who had
    /// blocked the bot unblocks it first (a `my_chat_member` update, `kicked` to `member`), as
    /// Restart does. From then on the bot may write to them. Returns the private chat.
    pub fn user_starts_bot(&self, user: &TgUser) -> TgChat {
        let chat = self.private_chat(user);
        let json = {
            let mut state = self.inner.lock();
            let Some(record) = state.chats.get(&chat.id).cloned() else {
                panic!("chat {} is not a chat of this fake", chat.id)
            };
            (record.bot == BotStanding::Removed).then(|| {
                let old = state.member_json(&record, state.bot_id);
                let mut back = record.clone();
                back.bot = BotStanding::Member;
                let new = state.member_json(&back, state.bot_id);
                state.chats.insert(chat.id, back);
                let body = json!({"chat": state.chat_json(&record), "from": state.user_json(user.id),
                    "date": unix_now(), "old_chat_member": old, "new_chat_member": new});
                state.push_update("my_chat_member", Some(chat.id), body.clone());
                body
            })
        };
        if let Some(json) = json {
            self.inner.check_own(&json, "ChatMemberUpdated");
            self.inner.bump();
        }
        self.user_writes(&chat, user, "/start");
        chat
    }

    /// Upgrades a basic group to a supergroup, as Telegram does: a service message with
    /// `migrate_to_chat_id` in the old chat, one with `migrate_from_chat_id` in the new
    /// supergroup (`-100...`), both sent as updates; sends to the old id then answer 400 with
    /// `parameters.migrate_to_chat_id`. Members, admins and the creator move along.
    ///
    /// # Panics
    ///
    /// If `group` is not a basic group of this fake.
    pub fn migrate_to_supergroup(&self, group: &TgChat) -> TgChat {
        let new_chat = self.supergroup("", false);
        let jsons = {
            let mut state = self.inner.lock();
            let Some(old) = state.chats.get(&group.id).cloned() else {
                panic!("chat {} is not a chat of this fake", group.id)
            };
            assert_eq!(
                old.kind,
                ChatKind::Group,
                "only a basic group can be upgraded"
            );
            let moved = ChatRecord {
                id: new_chat.id,
                kind: ChatKind::Supergroup,
                migrated_to: None,
                topics: BTreeMap::new(),
                ..old.clone()
            };
            state.chats.insert(new_chat.id, moved);
            let from = old.creator.or_else(|| old.admins.first().copied());
            let mut to = Map::new();
            to.insert("migrate_to_chat_id".to_owned(), json!(new_chat.id));
            let old_id = state.take_message_id(group.id);
            let old_message = service_message(group.id, old_id, from, to, None);
            let old_json = state.message_json(&old_message, false);
            state.messages.insert((group.id, old_id), old_message);
            if let Some(c) = state.chats.get_mut(&group.id) {
                c.migrated_to = Some(new_chat.id);
            }
            let mut from_field = Map::new();
            from_field.insert("migrate_from_chat_id".to_owned(), json!(group.id));
            let new_id = state.take_message_id(new_chat.id);
            let new_message = service_message(new_chat.id, new_id, from, from_field, None);
            let new_json = state.message_json(&new_message, false);
            state.messages.insert((new_chat.id, new_id), new_message);
            state.push_update("message", Some(group.id), old_json.clone());
            state.push_update("message", Some(new_chat.id), new_json.clone());
            [old_json, new_json]
        };
        for json in &jsons {
            self.inner.check_own(json, "Message");
        }
        self.inner.bump();
        new_chat
    }
}

/// Whether the bot receives a person's message: not after it left the chat or the group was
/// upgraded; in groups with privacy mode on (BotFather's default) only commands for it (`/cmd`,
/// `/cmd@this_bot`, not `/cmd@other_bot`), mentions of it, and replies to its messages, unless it
/// is an administrator.
fn reaches_bot(state: &super::state::State, message: &FakeMessage) -> bool {
    let Some(chat) = state.chats.get(&message.chat_id) else {
        return false;
    };
    if chat.bot == BotStanding::Removed || chat.migrated_to.is_some() {
        return false;
    }
    if chat.kind == ChatKind::Private
        || chat.bot == BotStanding::Administrator
        || !state.privacy_mode
    {
        return true;
    }
    let text = &message.content;
    let body = text.shown_text();
    let me = format!("@{}", state.bot_username);
    let command = text
        .entities
        .iter()
        .find(|e| e.kind == "bot_command" && e.offset == 0)
        .map(|e| e.slice(body));
    let for_me = command.is_some_and(|c| {
        c.split_once('@')
            .is_none_or(|(_, to)| to.eq_ignore_ascii_case(&state.bot_username))
    });
    let mentioned = text
        .entities
        .iter()
        .any(|e| e.kind == "mention" && e.slice(body).eq_ignore_ascii_case(&me));
    let reply_to_bot = message
        .reply_to
        .filter(|r| Some(*r) != message.thread_id)
        .and_then(|r| state.messages.get(&(message.chat_id, r)))
        .is_some_and(|m| m.from_bot);
    for_me || mentioned || reply_to_bot
}

/// A service message (no text; `service` holds its fields, e.g. `forum_topic_created`), in the
/// topic `thread` if given. `from_bot` stays false even when the bot's action made it.
/// Records the service message of topic `thread_id` of `chat` closed or reopened (`close`)
/// by `from`, and returns it.
pub(super) fn topic_toggled(
    state: &mut State,
    chat: i64,
    thread_id: i64,
    from: Option<i64>,
    close: bool,
) -> FakeMessage {
    let kind = if close {
        "forum_topic_closed"
    } else {
        "forum_topic_reopened"
    };
    let mut service = Map::new();
    service.insert(kind.to_owned(), json!({}));
    let id = state.take_message_id(chat);
    let message = service_message(chat, id, from, service, Some(thread_id));
    state.messages.insert((chat, id), message.clone());
    message
}

pub(super) fn service_message(
    chat: i64,
    id: i64,
    from: Option<i64>,
    service: Map<String, Value>,
    thread: Option<i64>,
) -> FakeMessage {
    FakeMessage {
        chat_id: chat,
        message_id: id,
        from,
        from_bot: false,
        date: unix_now(),
        content: Content {
            text: None,
            caption: None,
            entities: Vec::new(),
            parse_mode: None,
            media: None,
            reply_markup: None,
        },
        thread_id: thread,
        is_topic_message: thread.is_some(),
        reply_to: None,
        deleted: false,
        history: Vec::new(),
        edit_date: None,
        service,
    }
}
