//! What the fake Telegram holds: users, chats, messages (with their edit history), the queue of
//! updates, callback queries, webhook settings and attempts, the request log, rate-limit windows,
//! and the bot's commands. Also the JSON shapes (`User`, `Chat`, `Message`, `ChatMember`) built
//! from them. Plain data behind one mutex; nothing here awaits.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value, json};

use super::markup::Entity;

/// The kind of a chat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChatKind {
    /// A private chat with one user.
    Private,
    /// A basic group.
    Group,
    /// A supergroup (a forum when `is_forum`).
    Supergroup,
}

impl ChatKind {
    /// The Bot API `type` string.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Private => "private",
            Self::Group => "group",
            Self::Supergroup => "supergroup",
        }
    }
}

/// A person known to the fake.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserRecord {
    /// Telegram user id.
    pub id: i64,
    /// First name.
    pub first_name: String,
    /// Last name, if any.
    pub last_name: Option<String>,
    /// Username without `@`, if any.
    pub username: Option<String>,
    /// IETF language tag of the user's client, if any.
    pub language_code: Option<String>,
}

impl UserRecord {
    /// The `User` object.
    #[must_use]
    pub fn to_json(&self) -> Value {
        let mut v = json!({"id": self.id, "is_bot": false, "first_name": self.first_name});
        if let Some(x) = &self.last_name {
            v["last_name"] = json!(x);
        }
        if let Some(x) = &self.username {
            v["username"] = json!(x);
        }
        if let Some(x) = &self.language_code {
            v["language_code"] = json!(x);
        }
        v
    }
}

/// The bot's standing in a chat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BotStanding {
    /// An ordinary member.
    Member,
    /// An administrator.
    Administrator,
    /// Removed: kicked from a supergroup, removed from a group, or blocked by the user.
    Removed,
}

/// A chat known to the fake.
#[derive(Debug, Clone)]
pub struct ChatRecord {
    /// Chat id (negative for groups, `-100...` for supergroups).
    pub id: i64,
    /// Its kind.
    pub kind: ChatKind,
    /// Title (groups), or the user's name (private chats).
    pub title: String,
    /// A forum supergroup.
    pub is_forum: bool,
    /// For a private chat, the user.
    pub private_user: Option<i64>,
    /// The creator, as the test set it.
    pub creator: Option<i64>,
    /// Administrators other than the creator.
    pub admins: Vec<i64>,
    /// Users seen in the chat.
    pub members: HashSet<i64>,
    /// The bot's standing.
    pub bot: BotStanding,
    /// A basic group upgraded to this supergroup.
    pub migrated_to: Option<i64>,
    /// Whether the bot, when an administrator, has `can_manage_topics` (true unless a test
    /// took it away with `make_bot_admin_with_topics(chat, false)`).
    pub bot_can_manage_topics: bool,
    /// Forum topics by thread id.
    pub topics: BTreeMap<i64, FakeTopic>,
}

impl ChatRecord {
    /// Whether the bot is an administrator with `can_manage_topics` in this forum.
    #[must_use]
    pub fn bot_manages_topics(&self) -> bool {
        self.is_forum && self.bot == BotStanding::Administrator && self.bot_can_manage_topics
    }
}

/// The colour of a topic icon when none is chosen (`0x6FB9F0`).
pub const DEFAULT_TOPIC_COLOR: i64 = 7_322_096;

/// The topic icon colours `createForumTopic` accepts.
pub const TOPIC_COLORS: [i64; 6] = [
    7_322_096, 16_766_590, 13_338_331, 9_367_192, 16_749_490, 16_478_047,
];

/// A forum topic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FakeTopic {
    /// Its `message_thread_id` (the id of its `forum_topic_created` service message).
    pub thread_id: i64,
    /// Its name.
    pub name: String,
    /// Its icon colour (RGB).
    pub icon_color: i64,
    /// Its custom emoji icon, if one was given.
    pub icon_custom_emoji_id: Option<String>,
    /// Created by the bot (`createForumTopic`), not by a person.
    pub created_by_bot: bool,
    /// Closed (`closeForumTopic`, or a person closed it).
    pub closed: bool,
}

impl FakeTopic {
    /// The `ForumTopic` object.
    #[must_use]
    pub fn to_json(&self) -> Value {
        let mut v = json!({"message_thread_id": self.thread_id, "name": self.name,
            "icon_color": self.icon_color});
        if let Some(emoji) = &self.icon_custom_emoji_id {
            v["icon_custom_emoji_id"] = json!(emoji);
        }
        v
    }

    /// The `ForumTopicCreated` object of its service message.
    #[must_use]
    pub fn created_json(&self) -> Value {
        let mut v = json!({"name": self.name, "icon_color": self.icon_color});
        if let Some(emoji) = &self.icon_custom_emoji_id {
            v["icon_custom_emoji_id"] = json!(emoji);
        }
        v
    }
}

/// The kind of a message's media.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaKind {
    /// `photo`.
    Photo,
    /// `animation`.
    Animation,
    /// `document`.
    Document,
}

/// A message's media file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Media {
    /// Photo, animation or document.
    pub kind: MediaKind,
    /// The file id the fake gave it (or the one the bot sent).
    pub file_id: String,
    /// The uploaded bytes; `None` when the bot sent a file id or a URL.
    pub bytes: Option<Vec<u8>>,
    /// The upload's file name, or the file id or URL the bot sent.
    pub source: String,
}

/// One button of an inline keyboard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Button {
    /// Its label.
    pub text: String,
    /// `callback_data`, if it is a callback button.
    pub callback_data: Option<String>,
    /// `url`, if it is a link button.
    pub url: Option<String>,
}

/// A message's content at one time (the current one, or one in its edit history).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Content {
    /// Text of a text message.
    pub text: Option<String>,
    /// Caption of a media message.
    pub caption: Option<String>,
    /// Entities of the text or caption (UTF-16 offsets).
    pub entities: Vec<Entity>,
    /// The parse mode the bot used, if any.
    pub parse_mode: Option<String>,
    /// Media, if any.
    pub media: Option<Media>,
    /// The inline keyboard as sent (`InlineKeyboardMarkup` object), if any.
    pub reply_markup: Option<Value>,
}

impl Content {
    /// Buttons of the inline keyboard, row by row.
    #[must_use]
    pub fn buttons(&self) -> Vec<Vec<Button>> {
        let rows = self
            .reply_markup
            .as_ref()
            .and_then(|m| m.get("inline_keyboard"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        rows.iter()
            .map(|row| {
                row.as_array()
                    .map(|r| {
                        r.iter()
                            .map(|b| Button {
                                text: str_field(b, "text").unwrap_or_default(),
                                callback_data: str_field(b, "callback_data"),
                                url: str_field(b, "url"),
                            })
                            .collect()
                    })
                    .unwrap_or_default()
            })
            .collect()
    }

    /// The text, or else the caption, or "".
    #[must_use]
    pub fn shown_text(&self) -> &str {
        self.text
            .as_deref()
            .or(self.caption.as_deref())
            .unwrap_or("")
    }
}

fn str_field(v: &Value, k: &str) -> Option<String> {
    v.get(k).and_then(Value::as_str).map(str::to_owned)
}

/// A message in a chat, as the fake holds it.
#[derive(Debug, Clone)]
pub struct FakeMessage {
    /// The chat.
    pub chat_id: i64,
    /// Its id in the chat.
    pub message_id: i64,
    /// Sender's user id (the bot's id for the bot's messages); `None` for some service messages.
    pub from: Option<i64>,
    /// Sent by the bot.
    pub from_bot: bool,
    /// Unix time it was sent.
    pub date: i64,
    /// Current content.
    pub content: Content,
    /// Forum topic (or reply thread) id.
    pub thread_id: Option<i64>,
    /// Sent in a forum topic.
    pub is_topic_message: bool,
    /// The message it replies to.
    pub reply_to: Option<i64>,
    /// Deleted by `deleteMessage`.
    pub deleted: bool,
    /// Earlier contents, oldest first, with the time each was replaced.
    pub history: Vec<(Content, Instant)>,
    /// Unix time of the last edit.
    pub edit_date: Option<i64>,
    /// Extra fields of a service message (`migrate_to_chat_id`, `forum_topic_created`, ...).
    pub service: Map<String, Value>,
}

impl FakeMessage {
    /// The current text or caption.
    #[must_use]
    pub fn text(&self) -> &str {
        self.content.shown_text()
    }

    /// The current inline keyboard's buttons.
    #[must_use]
    pub fn buttons(&self) -> Vec<Vec<Button>> {
        self.content.buttons()
    }

    /// Whether it currently carries a callback button with this data.
    #[must_use]
    pub fn has_callback(&self, data: &str) -> bool {
        self.buttons()
            .iter()
            .flatten()
            .any(|b| b.callback_data.as_deref() == Some(data))
    }

    /// The people its text or caption mentions, as Telegram's entities say: the username of
    /// each `mention` (`@name`, without the `@`) and the user id of each `text_mention`, as
    /// `@name` and `#id`.
    #[must_use]
    pub fn mentioned(&self) -> Vec<String> {
        let units: Vec<u16> = self.text().encode_utf16().collect();
        self.content
            .entities
            .iter()
            .filter_map(|entity| match entity.kind.as_str() {
                "mention" => units
                    .get(entity.offset..entity.offset + entity.length)
                    .map(|name| {
                        let name = String::from_utf16_lossy(name);
                        format!("@{}", name.trim_start_matches('@'))
                    }),
                "text_mention" => entity
                    .user
                    .as_ref()
                    .and_then(|user| user.get("id"))
                    .map(|id| format!("#{id}")),
                _ => None,
            })
            .collect()
    }

    /// The content it was first sent with (before any edit).
    #[must_use]
    pub fn first_content(&self) -> &Content {
        self.history
            .first()
            .map_or(&self.content, |(first, _)| first)
    }

    /// The uploaded photo's bytes, if it is a photo sent by upload.
    #[must_use]
    pub fn photo_bytes(&self) -> Option<&[u8]> {
        self.content
            .media
            .as_ref()
            .filter(|m| m.kind == MediaKind::Photo)
            .and_then(|m| m.bytes.as_deref())
    }
}

/// An update waiting for the bot.
#[derive(Debug, Clone)]
pub struct PendingUpdate {
    /// `update_id`.
    pub id: i64,
    /// The chat it concerns (webhook deliveries are one at a time per chat).
    pub chat: Option<i64>,
    /// The whole `Update` object.
    pub json: Value,
    /// A webhook delivery is under way.
    pub in_flight: bool,
    /// A failed delivery is retried after this time.
    pub retry_at: Option<Instant>,
}

/// The webhook as set by `setWebhook`.
#[derive(Debug, Clone)]
pub struct Webhook {
    /// The URL given by the bot.
    pub url: String,
    /// `secret_token`, if given.
    pub secret: Option<String>,
    /// `max_connections` (default 40).
    pub max_connections: usize,
    /// Unix time and text of the last failed delivery.
    pub last_error: Option<(i64, String)>,
}

/// One webhook delivery attempt.
#[derive(Debug, Clone)]
pub struct WebhookAttempt {
    /// The update delivered.
    pub update_id: i64,
    /// The URL posted to (after `route_webhook`'s rewrite).
    pub url: String,
    /// The secret header sent, if any.
    pub secret: Option<String>,
    /// HTTP status answered; `None` when the connection failed.
    pub status: Option<u16>,
    /// Why it failed, if it did.
    pub error: Option<String>,
    /// When it started.
    pub at: Instant,
}

/// One callback query sent to the bot by `press`.
#[derive(Debug, Clone)]
pub struct CallbackRecord {
    /// The query id.
    pub id: String,
    /// Chat and message of the pressed button.
    pub chat_id: i64,
    /// The pressed message.
    pub message_id: i64,
    /// Who pressed.
    pub user_id: i64,
    /// `callback_data`.
    pub data: String,
    /// When it was pressed.
    pub pressed_at: Instant,
    /// When it was answered, if it was.
    pub answered_at: Option<Instant>,
    /// The `answerCallbackQuery` parameters, once answered.
    pub answer: Option<Value>,
    /// How many times `answerCallbackQuery` was called for it, the refused calls too (a
    /// second answer is refused, as Telegram does).
    pub answers: usize,
}

impl CallbackRecord {
    /// Time from press to answer.
    #[must_use]
    pub fn answer_delay(&self) -> Option<Duration> {
        self.answered_at.map(|a| a.duration_since(self.pressed_at))
    }
}

/// How a request ended, for the request log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// `ok: true`.
    Ok,
    /// Refused because the bot sent a bad request (spec, parse, limits, not found...): a
    /// violation.
    Violation,
    /// Refused by the platform's state (kicked, migrated, rate limit, conflict): not the
    /// request's fault as such.
    Refused,
    /// A method the fake does not implement.
    Unsupported,
    /// A failure injected by the test (`fail_next`).
    Injected,
}

/// One request the bot made.
#[derive(Debug, Clone)]
pub struct RequestRecord {
    /// The method as the spec spells it (`sendMessage`; teloxide sends `SendMessage`), or as it
    /// appeared in the URL when the spec has no such method.
    pub method: String,
    /// The parameters (file parts as `{"file": name, "bytes": n}`).
    pub params: Value,
    /// When it arrived.
    pub at: Instant,
    /// HTTP status answered.
    pub status: u16,
    /// The error description, if refused.
    pub description: Option<String>,
    /// How it ended.
    pub ended: Ended,
}

/// A fault a test injects for the next call of a method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// 429 with `retry_after`.
    TooManyRequests {
        /// Seconds to wait.
        retry_after: u32,
    },
    /// 500 Internal Server Error.
    ServerError,
    /// 502 Bad Gateway (as Telegram's front answers when the back end is down).
    BadGateway,
    /// The connection is closed without an answer.
    DropConnection,
    /// The request is taken (and logged, with status 0) and never answered: a platform that
    /// hangs, or a process killed while it waits.
    Hang,
    /// Not a refusal: the request is answered as usual, but only after this long (a slow
    /// upload or a slow network), so that later requests may be answered first.
    Late(Duration),
    /// Any Telegram error.
    Error {
        /// HTTP status and `error_code`.
        status: u16,
        /// `description`.
        description: String,
    },
}

/// Rate limits on methods that send a new message (every `send*` method).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimits {
    /// Messages per second in one chat (default 1).
    pub per_chat_per_second: u32,
    /// Messages per minute in one group or supergroup (default 20).
    pub per_group_per_minute: u32,
    /// Messages per second overall (default 30).
    pub overall_per_second: u32,
    /// Tolerance for network jitter: a send this much early still counts as on time
    /// (default 100 ms).
    pub slack: Duration,
}

impl Default for RateLimits {
    fn default() -> Self {
        Self {
            per_chat_per_second: 1,
            per_group_per_minute: 20,
            overall_per_second: 30,
            slack: Duration::from_millis(100),
        }
    }
}

impl RateLimits {
    /// Limits high enough never to trigger.
    #[must_use]
    pub fn unlimited() -> Self {
        Self {
            per_chat_per_second: u32::MAX,
            per_group_per_minute: u32::MAX,
            overall_per_second: u32::MAX,
            slack: Duration::ZERO,
        }
    }
}

/// Everything behind the fake's mutex.
#[derive(Debug)]
pub struct State {
    pub bot_id: i64,
    pub bot_username: String,
    pub users: HashMap<i64, UserRecord>,
    pub chats: HashMap<i64, ChatRecord>,
    pub messages: BTreeMap<(i64, i64), FakeMessage>,
    pub next_message_id: HashMap<i64, i64>,
    pub next_user_id: i64,
    pub next_group_id: i64,
    pub next_file: u64,
    pub next_query: u64,
    pub updates: VecDeque<PendingUpdate>,
    pub next_update_id: i64,
    pub allowed_updates: Option<Vec<String>>,
    pub poll_generation: u64,
    pub webhook: Option<Webhook>,
    pub routes: Vec<(String, String)>,
    pub retry_delay: Duration,
    pub attempts: Vec<WebhookAttempt>,
    pub callbacks: Vec<CallbackRecord>,
    pub callback_deadline: Duration,
    pub requests: Vec<RequestRecord>,
    pub failures: HashMap<String, VecDeque<Failure>>,
    pub rate: RateLimits,
    pub sends: VecDeque<(Instant, i64)>,
    pub commands: BTreeMap<(String, String), Vec<(String, String)>>,
    pub self_check: Vec<String>,
    pub privacy_mode: bool,
}

/// Unix time now.
#[must_use]
pub fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

impl State {
    /// A fresh state for the bot `bot_id` / `bot_username`.
    #[must_use]
    pub fn new(bot_id: i64, bot_username: String) -> Self {
        Self {
            bot_id,
            bot_username,
            users: HashMap::new(),
            chats: HashMap::new(),
            messages: BTreeMap::new(),
            next_message_id: HashMap::new(),
            next_user_id: 1_000_001,
            next_group_id: 4_000_000_001,
            next_file: 1,
            next_query: 1,
            updates: VecDeque::new(),
            next_update_id: 700_000_001,
            allowed_updates: None,
            poll_generation: 0,
            webhook: None,
            routes: Vec::new(),
            retry_delay: Duration::from_millis(300),
            attempts: Vec::new(),
            callbacks: Vec::new(),
            callback_deadline: Duration::from_secs(15),
            requests: Vec::new(),
            failures: HashMap::new(),
            rate: RateLimits::default(),
            sends: VecDeque::new(),
            commands: BTreeMap::new(),
            self_check: Vec::new(),
            privacy_mode: true,
        }
    }

    /// The bot's `User` object (in messages; `getMe` adds its capabilities).
    #[must_use]
    pub fn bot_json(&self) -> Value {
        json!({"id": self.bot_id, "is_bot": true, "first_name": "Tabula", "username": self.bot_username})
    }

    /// A user's `User` object, the bot's included.
    #[must_use]
    pub fn user_json(&self, id: i64) -> Option<Value> {
        if id == self.bot_id {
            return Some(self.bot_json());
        }
        self.users.get(&id).map(UserRecord::to_json)
    }

    /// A chat's `Chat` object.
    #[must_use]
    pub fn chat_json(&self, chat: &ChatRecord) -> Value {
        let mut v = json!({"id": chat.id, "type": chat.kind.as_str()});
        match chat.kind {
            ChatKind::Private => {
                let user = chat.private_user.and_then(|u| self.users.get(&u));
                v["first_name"] = json!(user.map_or(chat.title.as_str(), |u| &u.first_name));
                if let Some(x) = user.and_then(|u| u.last_name.as_ref()) {
                    v["last_name"] = json!(x);
                }
                if let Some(x) = user.and_then(|u| u.username.as_ref()) {
                    v["username"] = json!(x);
                }
            }
            ChatKind::Group | ChatKind::Supergroup => {
                v["title"] = json!(chat.title);
                if chat.is_forum {
                    v["is_forum"] = json!(true);
                }
            }
        }
        v
    }

    /// The next message id in `chat`.
    pub fn take_message_id(&mut self, chat: i64) -> i64 {
        let next = self.next_message_id.entry(chat).or_insert(1);
        let id = *next;
        *next += 1;
        id
    }

    /// A new file id.
    pub fn take_file_id(&mut self) -> String {
        let n = self.next_file;
        self.next_file += 1;
        format!("AgACAgIAAxkBAAI{n:08}")
    }

    /// The `Message` object for a stored message; `nested` leaves out `reply_to_message`
    /// (Telegram does not nest replies further).
    #[must_use]
    pub fn message_json(&self, m: &FakeMessage, nested: bool) -> Value {
        let chat = self.chats.get(&m.chat_id).map_or_else(
            || json!({"id": m.chat_id, "type": "private", "first_name": "?"}),
            |c| self.chat_json(c),
        );
        let mut v = json!({"message_id": m.message_id, "date": m.date, "chat": chat});
        if let Some(from) = m.from.and_then(|id| self.user_json(id)) {
            v["from"] = from;
        }
        if let Some(t) = m.thread_id {
            v["message_thread_id"] = json!(t);
        }
        if m.is_topic_message {
            v["is_topic_message"] = json!(true);
        }
        if !nested && let Some(r) = m.reply_to.and_then(|r| self.messages.get(&(m.chat_id, r))) {
            v["reply_to_message"] = self.message_json(r, true);
        }
        if let Some(d) = m.edit_date {
            v["edit_date"] = json!(d);
        }
        let c = &m.content;
        let entities: Vec<Value> = c.entities.iter().map(Entity::to_json).collect();
        if let Some(text) = &c.text {
            v["text"] = json!(text);
            if !entities.is_empty() {
                v["entities"] = json!(entities);
            }
        }
        if let Some(media) = &c.media {
            let unique = format!("u{}", media.file_id);
            let (w, h) = media
                .bytes
                .as_deref()
                .and_then(png_size)
                .unwrap_or((320, 320));
            let size = media.bytes.as_ref().map_or(0, Vec::len);
            match media.kind {
                MediaKind::Photo => {
                    v["photo"] = json!([{"file_id": media.file_id, "file_unique_id": unique,
                        "width": w, "height": h, "file_size": size}]);
                }
                MediaKind::Animation => {
                    v["animation"] = json!({"file_id": media.file_id, "file_unique_id": unique,
                        "width": w, "height": h, "duration": 1});
                    v["document"] = json!({"file_id": media.file_id, "file_unique_id": unique});
                }
                MediaKind::Document => {
                    v["document"] = json!({"file_id": media.file_id, "file_unique_id": unique,
                        "file_name": media.source});
                }
            }
            if let Some(caption) = c.caption.as_ref().filter(|c| !c.is_empty()) {
                v["caption"] = json!(caption);
                if !entities.is_empty() {
                    v["caption_entities"] = json!(entities);
                }
            }
        }
        if let Some(markup) = &c.reply_markup {
            v["reply_markup"] = markup.clone();
        }
        for (k, x) in &m.service {
            v[k] = x.clone();
        }
        v
    }

    /// The `ChatMember` object of `user` in `chat`.
    #[must_use]
    pub fn member_json(&self, chat: &ChatRecord, user: i64) -> Value {
        let user_json = self.user_json(user).unwrap_or_else(
            || json!({"id": user, "is_bot": false, "first_name": format!("User {user}")}),
        );
        let admin = |title: bool, manage_topics: bool| {
            let mut v = json!({"status": "administrator", "user": user_json, "can_be_edited": false,
                "is_anonymous": false, "can_manage_chat": true, "can_delete_messages": true,
                "can_manage_video_chats": true, "can_restrict_members": true,
                "can_promote_members": false, "can_change_info": true, "can_invite_users": true,
                "can_post_stories": false, "can_edit_stories": false, "can_delete_stories": false,
                "can_pin_messages": true});
            if chat.is_forum {
                v["can_manage_topics"] = json!(manage_topics);
            }
            if title {
                v["custom_title"] = json!("admin");
            }
            v
        };
        if user == self.bot_id {
            return match chat.bot {
                BotStanding::Administrator => admin(false, chat.bot_can_manage_topics),
                BotStanding::Member => json!({"status": "member", "user": user_json}),
                BotStanding::Removed if chat.kind == ChatKind::Group => {
                    json!({"status": "left", "user": user_json})
                }
                BotStanding::Removed => {
                    json!({"status": "kicked", "user": user_json, "until_date": 0})
                }
            };
        }
        if chat.creator == Some(user) {
            json!({"status": "creator", "user": user_json, "is_anonymous": false})
        } else if chat.admins.contains(&user) {
            admin(false, true)
        } else if chat.members.contains(&user) || chat.private_user == Some(user) {
            json!({"status": "member", "user": user_json})
        } else {
            json!({"status": "left", "user": user_json})
        }
    }

    /// Queues an update of `kind` (`message`, `callback_query`, ...) unless the bot's
    /// `allowed_updates` leave it out. Returns its id.
    pub fn push_update(&mut self, kind: &str, chat: Option<i64>, body: Value) -> Option<i64> {
        let allowed = match &self.allowed_updates {
            Some(list) if !list.is_empty() => list.iter().any(|k| k == kind),
            _ => !matches!(
                kind,
                "chat_member" | "message_reaction" | "message_reaction_count"
            ),
        };
        if !allowed {
            return None;
        }
        let id = self.next_update_id;
        self.next_update_id += 1;
        let mut json = json!({"update_id": id});
        json[kind] = body;
        self.updates.push_back(PendingUpdate {
            id,
            chat,
            json,
            in_flight: false,
            retry_at: None,
        });
        Some(id)
    }

    /// The chat a request names, following Telegram's rules for upgraded and removed chats.
    ///
    /// # Errors
    ///
    /// `(status, description, parameters)` of Telegram's refusal.
    pub fn target_chat(&self, id: i64) -> Result<&ChatRecord, (u16, String, Option<Value>)> {
        let Some(chat) = self.chats.get(&id) else {
            return Err((400, "Bad Request: chat not found".to_owned(), None));
        };
        if let Some(to) = chat.migrated_to {
            return Err((
                400,
                "Bad Request: group chat was upgraded to a supergroup chat".to_owned(),
                Some(json!({"migrate_to_chat_id": to})),
            ));
        }
        if chat.bot == BotStanding::Removed {
            let text = match chat.kind {
                ChatKind::Private => "Forbidden: bot was blocked by the user",
                ChatKind::Group => "Forbidden: bot was kicked from the group chat",
                ChatKind::Supergroup => "Forbidden: bot was kicked from the supergroup chat",
            };
            return Err((403, text.to_owned(), None));
        }
        Ok(chat)
    }

    /// The chat a new message (or a chat action) is sent to: as [`State::target_chat`], except
    /// that the id of a known person who never started the bot (no private chat with it) is
    /// refused with 403, as Telegram refuses a bot writing first.
    ///
    /// # Errors
    ///
    /// `(status, description, parameters)` of Telegram's refusal.
    pub fn send_target(&self, id: i64) -> Result<&ChatRecord, (u16, String, Option<Value>)> {
        if !self.chats.contains_key(&id) && self.users.contains_key(&id) {
            return Err((
                403,
                "Forbidden: bot can't initiate conversation with a user".to_owned(),
                None,
            ));
        }
        self.target_chat(id)
    }
}

/// Width and height of a PNG, from its header.
fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.get(..8)? != b"\x89PNG\r\n\x1a\n" {
        return None;
    }
    let w = u32::from_be_bytes(bytes.get(16..20)?.try_into().ok()?);
    let h = u32::from_be_bytes(bytes.get(20..24)?.try_into().ok()?);
    Some((w, h))
}
