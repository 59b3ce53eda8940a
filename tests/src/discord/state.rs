//! The data behind the fake's mutex and the public records a test observes.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

/// Discord's epoch (2015-01-01) in Unix milliseconds.
const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;

/// How a request ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// A 2xx answer.
    Ok,
    /// Refused because the bot's request was wrong (spec, limits, acknowledgements...).
    Violation,
    /// Refused by the platform's state (deleted channel, missing access, rate limits).
    Refused,
    /// A failure injected by the test (`fail_next`).
    Injected,
}

/// One request the bot made.
#[derive(Debug, Clone)]
pub struct RequestRecord {
    /// HTTP method (`POST`).
    pub method: String,
    /// The path after `/api/v10` (`/channels/1/messages`).
    pub path: String,
    /// Status answered.
    pub status: u16,
    /// How it ended.
    pub ended: Ended,
    /// The body shortened (JSON, or `payload_json` plus file names), and the error if refused.
    pub body_summary: String,
    /// When it arrived.
    pub at: Instant,
}

/// A failure injected for the next matching request.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// This status with Discord's error body `{"code", "message"}`.
    Status(u16, u64, String),
    /// 429 with `retry_after` seconds (not global).
    TooManyRequests(f64),
    /// The connection is dropped without an answer.
    DropConnection,
    /// The request is taken (logged with status 0) and never answered: a platform that
    /// hangs, or a process killed while it waits.
    Hang,
}

/// How the initial response of an interaction arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// `POST /interactions/{id}/{token}/callback`.
    Rest,
    /// The body of the answer to the signed HTTP POST.
    HttpBody,
}

/// An interaction the fake sent.
#[derive(Debug, Clone)]
pub struct InteractionRecord {
    /// Interaction id.
    pub id: u64,
    /// Interaction type: 1 PING, 2 command, 3 component, 4 autocomplete.
    pub kind: u8,
    /// Who acted (0 for PING).
    pub user_id: u64,
    /// Where (0 for PING).
    pub channel_id: u64,
    /// When it was sent.
    pub sent_at: Instant,
    /// The initial response: its type, delay after sending, whether ephemeral, and how.
    pub initial: Option<(u8, Duration, bool, Via)>,
    /// The followup, edit and delete calls after it (`POST followup 123`, `PATCH @original`...).
    pub later: Vec<String>,
}

/// An attachment of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DcAttachment {
    /// Attachment id.
    pub id: u64,
    /// File name.
    pub filename: String,
    /// MIME type as uploaded (or guessed from the name).
    pub content_type: String,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// A message in the fake (the bot's, or a person's made by the fake).
#[derive(Debug, Clone)]
pub struct DcMessage {
    /// Message id.
    pub id: u64,
    /// Channel id.
    pub channel_id: u64,
    /// Author's user id (the bot's for bot messages).
    pub author_id: u64,
    /// Text.
    pub content: String,
    /// Embeds as sent.
    pub embeds: Vec<Value>,
    /// Attachments.
    pub attachments: Vec<DcAttachment>,
    /// Components (action rows) as sent.
    pub components: Vec<Value>,
    /// Message flags (64 ephemeral, 128 loading).
    pub flags: u64,
    /// For an ephemeral message: the only user who sees it.
    pub ephemeral_for: Option<u64>,
    /// The interaction it answers (initial response or followup).
    pub interaction_id: Option<u64>,
    /// Users pinged when the content was first published.
    pub notified: Vec<u64>,
    /// Edited after creation.
    pub edited: bool,
    /// Deleted.
    pub deleted: bool,
}

impl DcMessage {
    /// Every button: label, custom id (or url for link buttons), disabled.
    #[must_use]
    pub fn buttons(&self) -> Vec<(String, String, bool)> {
        let mut out = Vec::new();
        for row in &self.components {
            for b in row["components"].as_array().into_iter().flatten() {
                if b["type"] == 2 {
                    let id = b["custom_id"]
                        .as_str()
                        .or_else(|| b["url"].as_str())
                        .unwrap_or_default();
                    out.push((
                        b["label"].as_str().unwrap_or_default().to_owned(),
                        id.to_owned(),
                        b["disabled"].as_bool().unwrap_or(false),
                    ));
                }
            }
        }
        out
    }

    /// The attachment an embed shows with `attachment://name`.
    #[must_use]
    pub fn image_attachment(&self) -> Option<&DcAttachment> {
        for e in &self.embeds {
            for key in ["image", "thumbnail"] {
                if let Some(name) = e[key]["url"]
                    .as_str()
                    .and_then(|u| u.strip_prefix("attachment://"))
                    && let Some(a) = self.attachments.iter().find(|a| a.filename == name)
                {
                    return Some(a);
                }
            }
        }
        None
    }

    /// Whether the message is still loading (a deferred response not completed).
    #[must_use]
    pub fn is_loading(&self) -> bool {
        self.flags & 128 != 0
    }
}

impl DcAttachment {
    /// Whether the bytes are a PNG image.
    #[must_use]
    pub fn is_png(&self) -> bool {
        self.bytes.starts_with(b"\x89PNG\r\n\x1a\n")
    }
}

/// A guild.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DcGuild {
    /// Guild id.
    pub id: u64,
    /// Name.
    pub name: String,
}

/// A channel: a guild text channel or a DM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DcChannel {
    /// Channel id.
    pub id: u64,
    /// The guild, for guild channels.
    pub guild_id: Option<u64>,
    /// Name (empty for DMs).
    pub name: String,
}

/// A thread under a guild text channel, as a test sees it ([`crate::discord::FakeDiscord::threads`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FakeThread {
    /// The thread as a channel: usable with `slash`, `press`, `autocomplete` and `messages`.
    pub channel: DcChannel,
    /// The text channel it was made under.
    pub parent_id: u64,
    /// Its name now.
    pub name: String,
    /// Who made it (the bot's user id for threads the bot made).
    pub owner_id: u64,
    /// 11 public thread, 12 private thread.
    pub kind: u8,
    /// `thread_metadata.archived`.
    pub archived: bool,
    /// `thread_metadata.locked`.
    pub locked: bool,
    /// `thread_metadata.auto_archive_duration` (minutes).
    pub auto_archive_duration: u64,
}

/// A person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DcUser {
    /// User id.
    pub id: u64,
    /// Username (lower case).
    pub username: String,
    /// Display name.
    pub global_name: String,
}

#[derive(Debug, Clone)]
pub(crate) struct ChannelRec {
    pub id: u64,
    pub guild_id: Option<u64>,
    pub name: String,
    pub recipient: Option<u64>,
    pub deleted: bool,
    pub no_access: bool,
    /// For threads: what only threads have.
    pub thread: Option<ThreadRec>,
}

/// What a thread has beyond a channel.
#[derive(Debug, Clone)]
pub(crate) struct ThreadRec {
    pub parent_id: u64,
    pub owner_id: u64,
    /// 11 public, 12 private.
    pub kind: u8,
    pub archived: bool,
    pub locked: bool,
    pub auto_archive_duration: u64,
    /// When `archived` last changed or `auto_archive_duration` was set (Unix ms).
    pub archive_ms: u64,
    pub invitable: bool,
    pub rate_limit_per_user: u64,
}

impl ChannelRec {
    /// Discord's channel type: 0 guild text, 1 DM, 11/12 threads.
    pub fn kind(&self) -> u8 {
        match (&self.thread, self.guild_id) {
            (Some(t), _) => t.kind,
            (None, Some(_)) => 0,
            (None, None) => 1,
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct GuildRec {
    pub id: u64,
    pub name: String,
    pub members: BTreeMap<u64, u64>,
}

/// What an interaction is waiting for and what it did.
#[derive(Debug, Clone)]
pub(crate) struct InterState {
    pub record: InteractionRecord,
    pub token: String,
    #[allow(dead_code)]
    pub guild_id: Option<u64>,
    /// For components: the message the button is on.
    pub source_message: Option<u64>,
    /// The `@original` message once there is one.
    pub original: Option<u64>,
    /// A deferred message not completed yet.
    pub deferred_pending: bool,
    /// The answer of an autocomplete (its choices).
    pub autocomplete: Option<Vec<(String, Value)>>,
    /// When the initial response came.
    pub answered_at: Option<Instant>,
    /// The signed POST to the bot's endpoint has not been answered yet.
    pub awaiting_http: bool,
}

pub(crate) struct State {
    pub last_id: u64,
    pub guilds: BTreeMap<u64, GuildRec>,
    pub channels: BTreeMap<u64, ChannelRec>,
    pub users: BTreeMap<u64, DcUser>,
    /// People whose DMs are closed to the bot (`close_dms`).
    pub dms_closed: BTreeSet<u64>,
    pub messages: BTreeMap<u64, DcMessage>,
    pub interactions: Vec<InterState>,
    pub commands: HashMap<Option<u64>, Vec<Value>>,
    pub overwrites: usize,
    pub requests: Vec<RequestRecord>,
    pub self_check: Vec<String>,
    pub failures: Vec<(String, String, Failure)>,
    pub channel_buckets: HashMap<u64, VecDeque<Instant>>,
    pub global_bucket: VecDeque<Instant>,
    pub http_endpoint: Option<String>,
    pub ack_deadline: Duration,
    pub token_lifetime: Duration,
    /// The bot's permissions in a guild (`set_bot_permissions`); absent: the default.
    pub bot_guild_perms: BTreeMap<u64, u64>,
    /// The bot's permissions in a channel, overwrites included (`set_bot_channel_permissions`).
    pub bot_channel_perms: BTreeMap<u64, u64>,
}

impl State {
    pub fn new() -> Self {
        State {
            last_id: 0,
            guilds: BTreeMap::new(),
            channels: BTreeMap::new(),
            users: BTreeMap::new(),
            dms_closed: BTreeSet::new(),
            messages: BTreeMap::new(),
            interactions: Vec::new(),
            commands: HashMap::new(),
            overwrites: 0,
            requests: Vec::new(),
            self_check: Vec::new(),
            failures: Vec::new(),
            channel_buckets: HashMap::new(),
            global_bucket: VecDeque::new(),
            http_endpoint: None,
            ack_deadline: Duration::from_secs(3),
            token_lifetime: Duration::from_secs(15 * 60),
            bot_guild_perms: BTreeMap::new(),
            bot_channel_perms: BTreeMap::new(),
        }
    }

    /// The bot's permissions in a channel: a thread's are its parent's (threads have no
    /// overwrites of their own); a channel's are set for it, else the guild's, else the default.
    pub fn bot_permissions(&self, channel: u64) -> u64 {
        let Some(c) = self.channels.get(&channel) else {
            return super::DEFAULT_BOT_PERMISSIONS;
        };
        let at = c.thread.as_ref().map_or(c.id, |t| t.parent_id);
        match c.guild_id {
            None => super::DEFAULT_BOT_PERMISSIONS,
            Some(g) => self.bot_channel_perms.get(&at).copied().unwrap_or_else(|| {
                self.bot_guild_perms
                    .get(&g)
                    .copied()
                    .unwrap_or(super::DEFAULT_BOT_PERMISSIONS)
            }),
        }
    }

    /// Whether the bot has `permission` in a channel (ADMINISTRATOR has every permission).
    pub fn bot_can(&self, channel: u64, permission: u64) -> bool {
        allows(self.bot_permissions(channel), permission)
    }

    /// A new snowflake: milliseconds since Discord's epoch in the high bits, increasing.
    pub fn snowflake(&mut self) -> u64 {
        let ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(0))
            .saturating_sub(DISCORD_EPOCH_MS);
        let id = (ms << 22).max(self.last_id + 1);
        self.last_id = id;
        id
    }

    /// The id of the DM channel between the bot and `user`, made on the first call (the same
    /// one on every call, as Discord's Create DM returns).
    pub fn dm_channel(&mut self, user: u64) -> u64 {
        if let Some(c) = self.channels.values().find(|c| c.recipient == Some(user)) {
            return c.id;
        }
        let id = self.snowflake();
        self.channels.insert(
            id,
            ChannelRec {
                id,
                guild_id: None,
                name: String::new(),
                recipient: Some(user),
                deleted: false,
                no_access: false,
                thread: None,
            },
        );
        id
    }

    pub fn interaction_by_token(&self, token: &str) -> Option<usize> {
        self.interactions.iter().position(|i| i.token == token)
    }
}

/// Whether a permission bitfield grants `permission` (ADMINISTRATOR grants every one).
pub(crate) fn allows(perms: u64, permission: u64) -> bool {
    perms & super::ADMINISTRATOR != 0 || perms & permission == permission
}

/// Now in Unix milliseconds.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(0))
}

/// ISO 8601 time of a snowflake.
pub(crate) fn snowflake_time(id: u64) -> String {
    let ms = (id >> 22) + DISCORD_EPOCH_MS;
    iso8601(ms)
}

/// ISO 8601 (UTC, milliseconds) of Unix milliseconds.
pub(crate) fn iso8601(ms: u64) -> String {
    let secs = ms / 1000;
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    // Civil from days (Howard Hinnant).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}000+00:00",
        rem / 3600,
        (rem / 60) % 60,
        rem % 60,
        ms % 1000
    )
}

/// A user object as Discord sends it.
pub(crate) fn user_json(u: &DcUser, bot: bool) -> Value {
    let mut v = json!({
        "id": u.id.to_string(),
        "username": u.username,
        "avatar": null,
        "discriminator": "0",
        "public_flags": 0,
        "flags": 0,
        "global_name": u.global_name,
        "primary_guild": null,
    });
    if bot {
        v["bot"] = json!(true);
        v["global_name"] = Value::Null;
    }
    v
}
