//! A fake Discord for end-to-end tests: the v10 REST API checked against Discord's OpenAPI
//! description (`tests/specs/discord-openapi.json`), interactions delivered over the gateway or
//! signed and POSTed to an interactions endpoint, and the state a test observes.
//!
//! [`FakeDiscord::start`] serves the REST API on `127.0.0.1` (serenity pointed at
//! [`FakeDiscord::api_url`] with `HttpBuilder::proxy`) and starts a [`gateway::FakeGateway`].
//! Tests make guilds, channels and people, make people act ([`FakeDiscord::slash`],
//! [`FakeDiscord::press`], [`FakeDiscord::autocomplete`]) and observe the bot's messages,
//! requests and interaction responses. What is checked and the departures from the real service
//! are listed in `tests/src/discord/README.md`.

pub mod gateway;

mod checks;
mod people;
mod server;
mod spec;
mod state;

use std::fmt;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use ed25519_dalek::{Signer, SigningKey};
use serde_json::{Value, json};
use tokio::sync::watch;

pub use gateway::FakeGateway;
pub use spec::Spec;
pub use state::{
    DcAttachment, DcChannel, DcGuild, DcMessage, DcUser, Ended, Failure, FakeThread,
    InteractionRecord, RequestRecord, Via,
};

use state::{ChannelRec, GuildRec, State, user_json};

/// The bot token the fake accepts.
pub const TOKEN: &str = "fake.discord.token";
/// The application's id.
pub const APPLICATION_ID: u64 = 1_100_000_000_000_000_001;
/// The bot user's id.
pub const BOT_USER_ID: u64 = 1_100_000_000_000_000_002;
/// Permissions of an ordinary member (view channel, send messages, embed links, attach files,
/// read history, use application commands...).
pub const DEFAULT_MEMBER_PERMISSIONS: u64 = 0x0000_0000_0006_4C40 | (1 << 31);
/// `MANAGE_GUILD`.
pub const MANAGE_GUILD: u64 = 1 << 5;
/// `ADMINISTRATOR` (every permission).
pub const ADMINISTRATOR: u64 = 1 << 3;
/// `VIEW_CHANNEL`.
pub const VIEW_CHANNEL: u64 = 1 << 10;
/// `SEND_MESSAGES` (no effect in threads).
pub const SEND_MESSAGES: u64 = 1 << 11;
/// `MANAGE_THREADS`: lock threads, unarchive locked ones, post in locked ones.
pub const MANAGE_THREADS: u64 = 1 << 34;
/// `CREATE_PUBLIC_THREADS`.
pub const CREATE_PUBLIC_THREADS: u64 = 1 << 35;
/// `CREATE_PRIVATE_THREADS`.
pub const CREATE_PRIVATE_THREADS: u64 = 1 << 36;
/// `SEND_MESSAGES_IN_THREADS`: what posting in a thread needs (not `SEND_MESSAGES`).
pub const SEND_MESSAGES_IN_THREADS: u64 = 1 << 38;
/// The bot's permissions unless a test sets others (`set_bot_permissions`,
/// `set_bot_channel_permissions`); also the `app_permissions` of interactions. Among them
/// VIEW_CHANNEL, SEND_MESSAGES, CREATE_PUBLIC_THREADS, CREATE_PRIVATE_THREADS and
/// SEND_MESSAGES_IN_THREADS; not ADMINISTRATOR, MANAGE_MESSAGES or MANAGE_THREADS.
pub const DEFAULT_BOT_PERMISSIONS: u64 = 2_248_473_465_835_073;

const KEY_SEED: [u8; 32] = *b"tabula fake discord signing key!";
const OTHER_KEY_SEED: [u8; 32] = *b"not the key discord has for tabu";

/// The shared inside of a [`FakeDiscord`].
pub(crate) struct Inner {
    spec: Spec,
    state: Mutex<State>,
    changed: watch::Sender<u64>,
    http: reqwest::Client,
    addr: SocketAddr,
    key: SigningKey,
    gateway: FakeGateway,
}

impl fmt::Debug for Inner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Inner")
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn bump(&self) {
        self.changed.send_modify(|v| *v = v.wrapping_add(1));
    }

    /// Checks an object the fake built against a named schema or an operation's answer schema.
    fn check_own(&self, schema: &Value, value: &Value, what: &str) {
        if let Err(e) = self.spec.check(schema, value) {
            self.lock().self_check.push(format!(
                "the fake built an invalid {what}: {}",
                e.join("; ")
            ));
        }
    }

    fn bot_user(&self) -> DcUser {
        DcUser {
            id: BOT_USER_ID,
            username: "tabula_test_bot".into(),
            global_name: "Tabula".into(),
        }
    }
}

/// A fake Discord (REST API, gateway, interactions). Cheap to clone; clones share one server.
#[derive(Clone, Debug)]
pub struct FakeDiscord {
    inner: Arc<Inner>,
}

/// `wait_for` gave up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WaitTimeout(pub Duration);

impl fmt::Display for WaitTimeout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the condition did not hold within {:?}", self.0)
    }
}

impl std::error::Error for WaitTimeout {}

impl FakeDiscord {
    /// Starts the REST API on `127.0.0.1` (a free port) and the gateway.
    ///
    /// # Errors
    ///
    /// When a port cannot be bound.
    pub async fn start() -> std::io::Result<FakeDiscord> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let bot = DcUser {
            id: BOT_USER_ID,
            username: "tabula_test_bot".into(),
            global_name: "Tabula".into(),
        };
        let gateway = FakeGateway::start(TOKEN, APPLICATION_ID, user_json(&bot, true)).await?;
        let (changed, _) = watch::channel(0);
        let inner = Arc::new(Inner {
            spec: Spec::load(),
            state: Mutex::new(State::new()),
            changed,
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(10))
                .build()
                .map_err(std::io::Error::other)?,
            addr,
            key: SigningKey::from_bytes(&KEY_SEED),
            gateway,
        });
        let app = server::router(Arc::clone(&inner));
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Ok(FakeDiscord { inner })
    }

    /// `http://127.0.0.1:PORT` (serenity appends `/api/v10/...`).
    #[must_use]
    pub fn api_url(&self) -> String {
        format!("http://{}", self.inner.addr)
    }

    /// The bot token (without `Bot `).
    #[must_use]
    pub fn token(&self) -> &'static str {
        TOKEN
    }

    /// The application id.
    #[must_use]
    pub fn application_id(&self) -> u64 {
        APPLICATION_ID
    }

    /// The bot user's id.
    #[must_use]
    pub fn bot_user_id(&self) -> u64 {
        BOT_USER_ID
    }

    /// The application's public key, 64 hex characters (`DISCORD_PUBLIC_KEY`).
    #[must_use]
    pub fn public_key_hex(&self) -> String {
        hex(self.inner.key.verifying_key().as_bytes())
    }

    /// The gateway.
    #[must_use]
    pub fn gateway(&self) -> &FakeGateway {
        &self.inner.gateway
    }

    // ----- the world -----

    /// A new guild.
    #[must_use]
    pub fn guild(&self, name: &str) -> DcGuild {
        let mut s = self.inner.lock();
        let id = s.snowflake();
        s.guilds.insert(
            id,
            GuildRec {
                id,
                name: name.to_owned(),
                members: std::collections::BTreeMap::new(),
            },
        );
        DcGuild {
            id,
            name: name.to_owned(),
        }
    }

    /// A new text channel of a guild.
    #[must_use]
    pub fn text_channel(&self, guild: &DcGuild, name: &str) -> DcChannel {
        let mut s = self.inner.lock();
        let id = s.snowflake();
        s.channels.insert(
            id,
            ChannelRec {
                id,
                guild_id: Some(guild.id),
                name: name.to_owned(),
                recipient: None,
                deleted: false,
                no_access: false,
                thread: None,
            },
        );
        DcChannel {
            id,
            guild_id: Some(guild.id),
            name: name.to_owned(),
        }
    }

    /// The DM channel between the bot and a person (the same one on every call, and the one
    /// `POST /users/@me/channels` returns).
    #[must_use]
    pub fn dm_channel(&self, user: &DcUser) -> DcChannel {
        let id = self.inner.lock().dm_channel(user.id);
        DcChannel {
            id,
            guild_id: None,
            name: String::new(),
        }
    }

    /// A new person; `name` is the display name, the username is it in lower case.
    #[must_use]
    pub fn user(&self, name: &str) -> DcUser {
        let mut s = self.inner.lock();
        let id = s.snowflake();
        let username: String = name
            .to_lowercase()
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { '_' })
            .collect();
        let u = DcUser {
            id,
            username,
            global_name: name.to_owned(),
        };
        s.users.insert(id, u.clone());
        u
    }

    /// Makes a person a member of a guild with a permissions bitfield
    /// ([`DEFAULT_MEMBER_PERMISSIONS`], `| MANAGE_GUILD`...).
    pub fn join(&self, guild: &DcGuild, user: &DcUser, permissions: u64) {
        if let Some(g) = self.inner.lock().guilds.get_mut(&guild.id) {
            g.members.insert(user.id, permissions);
        }
    }

    /// A member (a moderator) deletes message `id`: later requests about it get 404
    /// `Unknown Message`.
    pub fn delete_message(&self, id: u64) {
        if let Some(message) = self.inner.lock().messages.get_mut(&id) {
            message.deleted = true;
        }
    }

    /// Deletes a channel (and its threads, as Discord does): later requests about it get 404
    /// `Unknown Channel`.
    pub fn delete_channel(&self, channel: &DcChannel) {
        for c in self.inner.lock().channels.values_mut() {
            if c.id == channel.id || c.thread.as_ref().is_some_and(|t| t.parent_id == channel.id) {
                c.deleted = true;
            }
        }
    }

    /// Takes the bot's access to a channel away (to its threads too): 403 `Missing Access`.
    pub fn remove_access(&self, channel: &DcChannel) {
        if let Some(c) = self.inner.lock().channels.get_mut(&channel.id) {
            c.no_access = true;
        }
    }

    /// Sets the bot's permissions in a guild (what its roles give), for every channel of the
    /// guild without its own ([`FakeDiscord::set_bot_channel_permissions`]). Until set:
    /// [`DEFAULT_BOT_PERMISSIONS`]. E.g. `DEFAULT_BOT_PERMISSIONS & !CREATE_PUBLIC_THREADS`.
    pub fn set_bot_permissions(&self, guild: &DcGuild, permissions: u64) {
        self.inner
            .lock()
            .bot_guild_perms
            .insert(guild.id, permissions);
    }

    /// Sets the bot's permissions in one guild channel, overwrites included (they replace the
    /// guild's there). Threads have no overwrites: given a thread, this sets its parent's, which
    /// its threads inherit.
    pub fn set_bot_channel_permissions(&self, channel: &DcChannel, permissions: u64) {
        let mut s = self.inner.lock();
        let at = s
            .channels
            .get(&channel.id)
            .and_then(|c| c.thread.as_ref().map(|t| t.parent_id))
            .unwrap_or(channel.id);
        s.bot_channel_perms.insert(at, permissions);
    }

    /// The bot's permissions in a channel (a thread's are its parent's), as `app_permissions`
    /// of interactions there says.
    #[must_use]
    pub fn bot_permissions(&self, channel: &DcChannel) -> u64 {
        self.inner.lock().bot_permissions(channel.id)
    }

    /// Archives a thread as Discord does after its inactivity period or a moderator does;
    /// `locked` also locks it (a moderator's "lock"), so that only MANAGE_THREADS may unarchive it.
    pub fn archive_thread(&self, thread: &DcChannel, locked: bool) {
        if let Some(t) = self
            .inner
            .lock()
            .channels
            .get_mut(&thread.id)
            .and_then(|c| c.thread.as_mut())
        {
            if !t.archived {
                t.archive_ms = state::now_ms();
            }
            t.archived = true;
            t.locked |= locked;
        }
    }

    /// The person closes their DMs to the bot (privacy settings, or a block): the bot may still
    /// open the DM channel, but its messages there answer 403 `Cannot send messages to this
    /// user` (50007).
    pub fn close_dms(&self, user: &DcUser) {
        self.inner.lock().dms_closed.insert(user.id);
    }

    /// The person opens their DMs to the bot again (they are open by default).
    pub fn open_dms(&self, user: &DcUser) {
        self.inner.lock().dms_closed.remove(&user.id);
    }

    /// Interactions go through the gateway as `INTERACTION_CREATE` (the default).
    pub fn deliver_over_gateway(&self) {
        self.inner.lock().http_endpoint = None;
    }

    /// Interactions are signed and POSTed to the bot's interactions endpoint `url`.
    pub fn deliver_over_http(&self, url: &str) {
        self.inner.lock().http_endpoint = Some(url.to_owned());
    }

    /// Sets how long an interaction may wait for its initial response (3 s by default) and how
    /// long its token lasts (15 minutes by default).
    pub fn set_interaction_deadlines(&self, ack: Duration, token_lifetime: Duration) {
        let mut s = self.inner.lock();
        s.ack_deadline = ack;
        s.token_lifetime = token_lifetime;
    }

    /// The hex signature Discord would send for `timestamp` and `body`.
    #[must_use]
    pub fn sign(&self, timestamp: &str, body: &str) -> String {
        sign_with(&self.inner.key, timestamp, body)
    }

    /// A signature made with a key that is not the application's.
    #[must_use]
    pub fn sign_with_other_key(&self, timestamp: &str, body: &str) -> String {
        sign_with(&SigningKey::from_bytes(&OTHER_KEY_SEED), timestamp, body)
    }

    /// Queues a failure for the next request whose method is `method` (or `*`) and whose path
    /// (after `/api/v10`) contains `path_contains`.
    pub fn fail_next(&self, method: &str, path_contains: &str, failure: Failure) {
        self.inner
            .lock()
            .failures
            .push((method.to_uppercase(), path_contains.to_owned(), failure));
    }

    // ----- observation -----

    /// Every message of a channel, oldest first, ephemeral and deleted ones included.
    #[must_use]
    pub fn messages(&self, channel: &DcChannel) -> Vec<DcMessage> {
        self.inner
            .lock()
            .messages
            .values()
            .filter(|m| m.channel_id == channel.id)
            .cloned()
            .collect()
    }

    /// The threads made under a text channel (by the bot or anyone), oldest first; deleted
    /// ones left out. Each one's `channel` works with [`FakeDiscord::slash`],
    /// [`FakeDiscord::press`] and [`FakeDiscord::messages`] like a text channel.
    #[must_use]
    pub fn threads(&self, parent: &DcChannel) -> Vec<FakeThread> {
        let s = self.inner.lock();
        s.channels
            .values()
            .filter(|c| !c.deleted && c.thread.as_ref().is_some_and(|t| t.parent_id == parent.id))
            .filter_map(thread_of)
            .collect()
    }

    /// One thread (deleted ones too), by its channel.
    #[must_use]
    pub fn thread(&self, thread: &DcChannel) -> Option<FakeThread> {
        self.inner
            .lock()
            .channels
            .get(&thread.id)
            .and_then(thread_of)
    }

    /// Every message of the DM channel between the bot and a person, oldest first (ephemeral
    /// and deleted ones included); empty when there is no such channel yet (this makes none).
    #[must_use]
    pub fn dm_messages(&self, user: &DcUser) -> Vec<DcMessage> {
        let s = self.inner.lock();
        let Some(channel) = s
            .channels
            .values()
            .find(|c| c.recipient == Some(user.id))
            .map(|c| c.id)
        else {
            return Vec::new();
        };
        s.messages
            .values()
            .filter(|m| m.channel_id == channel)
            .cloned()
            .collect()
    }

    /// One message.
    #[must_use]
    pub fn message(&self, id: u64) -> Option<DcMessage> {
        self.inner.lock().messages.get(&id).cloned()
    }

    /// The newest message of the bot in a channel that everyone sees (not ephemeral, not
    /// deleted) and that `f` accepts.
    #[must_use]
    pub fn newest_bot_message(
        &self,
        channel: &DcChannel,
        f: impl Fn(&DcMessage) -> bool,
    ) -> Option<DcMessage> {
        self.inner
            .lock()
            .messages
            .values()
            .rev()
            .find(|m| {
                m.channel_id == channel.id
                    && m.author_id == BOT_USER_ID
                    && m.ephemeral_for.is_none()
                    && !m.deleted
                    && f(m)
            })
            .cloned()
    }

    /// Every interaction sent so far.
    #[must_use]
    pub fn interactions(&self) -> Vec<InteractionRecord> {
        self.inner
            .lock()
            .interactions
            .iter()
            .map(|i| i.record.clone())
            .collect()
    }

    /// Interactions never answered (PINGs included).
    #[must_use]
    pub fn unacknowledged(&self) -> Vec<InteractionRecord> {
        self.inner
            .lock()
            .interactions
            .iter()
            .filter(|i| i.record.initial.is_none())
            .map(|i| i.record.clone())
            .collect()
    }

    /// Interactions answered with a deferred message (type 5) that was never completed.
    #[must_use]
    pub fn incomplete_deferrals(&self) -> Vec<InteractionRecord> {
        self.inner
            .lock()
            .interactions
            .iter()
            .filter(|i| i.deferred_pending)
            .map(|i| i.record.clone())
            .collect()
    }

    /// Registered commands: global (`None`) or of a guild.
    #[must_use]
    pub fn commands(&self, guild: Option<u64>) -> Vec<Value> {
        self.inner
            .lock()
            .commands
            .get(&guild)
            .cloned()
            .unwrap_or_default()
    }

    /// How many bulk overwrites (`PUT .../commands`) were made.
    #[must_use]
    pub fn command_overwrites(&self) -> usize {
        self.inner.lock().overwrites
    }

    /// Every request, in order.
    #[must_use]
    pub fn requests(&self) -> Vec<RequestRecord> {
        self.inner.lock().requests.clone()
    }

    /// The requests refused because they were wrong.
    #[must_use]
    pub fn violations(&self) -> Vec<RequestRecord> {
        self.requests_with(Ended::Violation)
    }

    /// The requests refused by the platform's state, not by a fault of the request: a deleted
    /// channel, missing access, closed DMs, an unknown message, an expired token, rate limits.
    #[must_use]
    pub fn refused(&self) -> Vec<RequestRecord> {
        self.requests_with(Ended::Refused)
    }

    /// The requests answered 429 by the rate limits.
    #[must_use]
    pub fn rate_limited(&self) -> Vec<RequestRecord> {
        self.inner
            .lock()
            .requests
            .iter()
            .filter(|r| r.status == 429 && r.ended == Ended::Refused)
            .cloned()
            .collect()
    }

    fn requests_with(&self, ended: Ended) -> Vec<RequestRecord> {
        self.inner
            .lock()
            .requests
            .iter()
            .filter(|r| r.ended == ended)
            .cloned()
            .collect()
    }

    /// Answers and payloads of the fake that do not match the spec (must stay empty).
    #[must_use]
    pub fn self_check_failures(&self) -> Vec<String> {
        self.inner.lock().self_check.clone()
    }

    /// Waits until `f` gives `Some`, re-checking on every change and every 50 ms.
    ///
    /// # Errors
    ///
    /// [`WaitTimeout`] when `timeout` passes first.
    pub async fn wait_for<T>(
        &self,
        timeout: Duration,
        f: impl Fn(&FakeDiscord) -> Option<T>,
    ) -> Result<T, WaitTimeout> {
        let deadline = tokio::time::Instant::now() + timeout;
        let mut rx = self.inner.changed.subscribe();
        loop {
            if let Some(v) = f(self) {
                return Ok(v);
            }
            let now = tokio::time::Instant::now();
            if now >= deadline {
                return Err(WaitTimeout(timeout));
            }
            let step = (deadline - now).min(Duration::from_millis(50));
            let _ = tokio::time::timeout(step, rx.changed()).await;
        }
    }

    /// The bot's user object as Discord sends it.
    #[must_use]
    pub fn bot_user_json(&self) -> Value {
        user_json(&self.inner.bot_user(), true)
    }

    /// A JSON summary of the world (for debugging a failed test).
    #[must_use]
    pub fn dump(&self) -> Value {
        let s = self.inner.lock();
        json!({
            "guilds": s.guilds.values().map(|g| json!({"id": g.id, "name": g.name})).collect::<Vec<_>>(),
            "channels": s.channels.values().map(|c| json!({"id": c.id, "name": c.name, "deleted": c.deleted})).collect::<Vec<_>>(),
            "messages": s.messages.len(),
            "interactions": s.interactions.len(),
            "requests": s.requests.len(),
        })
    }
}

fn thread_of(c: &ChannelRec) -> Option<FakeThread> {
    let t = c.thread.as_ref()?;
    Some(FakeThread {
        channel: DcChannel {
            id: c.id,
            guild_id: c.guild_id,
            name: c.name.clone(),
        },
        parent_id: t.parent_id,
        name: c.name.clone(),
        owner_id: t.owner_id,
        kind: t.kind,
        archived: t.archived,
        locked: t.locked,
        auto_archive_duration: t.auto_archive_duration,
    })
}

pub(crate) fn sign_with(key: &SigningKey, timestamp: &str, body: &str) -> String {
    let mut msg = timestamp.as_bytes().to_vec();
    msg.extend_from_slice(body.as_bytes());
    hex(&key.sign(&msg).to_bytes())
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}
