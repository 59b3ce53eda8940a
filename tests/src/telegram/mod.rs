//! A fake Telegram Bot API server for end-to-end tests.
//!
//! [`FakeTelegram::start`] serves the Bot API on `127.0.0.1` so that the real bot (teloxide
//! pointed at [`FakeTelegram::api_url`]) can run against it. Every request is checked against the
//! Bot API specification in `tests/specs/` (method, token, required parameters, types, unknown
//! parameters) and refused in Telegram's error shape when wrong; refusals caused by a bad request
//! are kept in [`FakeTelegram::violations`]. Every object the fake returns or sends is checked
//! against the same specification ([`FakeTelegram::self_check_failures`]).
//!
//! Tests make people and chats ([`FakeTelegram::user`], [`FakeTelegram::group`], ...), make them
//! act ([`FakeTelegram::user_writes`], [`FakeTelegram::user_starts_bot`], [`FakeTelegram::press`],
//! [`FakeTelegram::kick_bot`], [`FakeTelegram::migrate_to_supergroup`], [`FakeTelegram::create_topic`],
//! [`FakeTelegram::close_topic`]), and observe the bot's messages, requests, callback answers,
//! commands and forum topics ([`FakeTelegram::topics`]), waiting with [`FakeTelegram::wait_for`].
//!
//! What the fake implements, and its departures from the real service, are listed in
//! `tests/src/telegram/README.md`.
//!
//! A whole exchange (the bot under test runs against `fake.api_url()` meanwhile):
//!
//! ```no_run
//! # async fn exchange() -> Result<(), Box<dyn std::error::Error>> {
//! use std::time::Duration;
//! use tabula_tests::telegram::FakeTelegram;
//!
//! let fake = FakeTelegram::start("123456:TEST-token").await?;
//! // Start the bot: TELEGRAM_API_URL=fake.api_url(), or Bot::new(token).set_api_url(url).
//! let alice = fake.user("Alice").username("alice").language("ru");
//! let bob = fake.user("Bob").username("bob_b");
//! let club = fake.group("Club");
//! fake.set_creator(&club, &alice);
//! fake.user_writes(&club, &alice, "/play konane @bob_b");
//! let wait = Duration::from_secs(5);
//! let board = fake.wait_for_bot_messages(&club, 1, wait).await?.remove(0);
//! let data = board.buttons()[0][0].callback_data.clone().unwrap_or_default();
//! fake.press(&club, &bob, board.message_id, &data)?;
//! fake.wait_for(|f| f.unanswered_callbacks().is_empty().then_some(()), wait).await?;
//! assert!(fake.violations().is_empty(), "{:?}", fake.violations());
//! assert!(fake.self_check_failures().is_empty());
//! # Ok(())
//! # }
//! ```

mod events;
mod markup;
mod methods;
mod server;
mod spec;
mod state;
mod updates;

use std::fmt;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::watch;

pub use events::{Incoming, PressError};
pub use markup::{Entity, detect_entities, parse_html};
pub use server::ApiError;
pub use spec::Spec;
pub use state::{
    Button, CallbackRecord, ChatKind, Content, Ended, Failure, FakeMessage, FakeTopic, Media,
    MediaKind, RateLimits, RequestRecord, WebhookAttempt,
};

use state::{BotStanding, ChatRecord, State, UserRecord};

/// The shared inside of a [`FakeTelegram`].
pub(crate) struct Inner {
    token: String,
    spec: Spec,
    state: Mutex<State>,
    changed: watch::Sender<u64>,
    http: reqwest::Client,
    addr: SocketAddr,
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

    /// Wakes every waiter (long polls, the webhook deliverer, `wait_for`).
    fn bump(&self) {
        self.changed.send_modify(|v| *v = v.wrapping_add(1));
    }

    fn self_check_failure(&self, text: String) {
        self.lock().self_check.push(text);
    }

    /// Checks `value` against the spec type `ty`, keeping a failure for the self-tests.
    fn check_own(&self, value: &Value, ty: &str) {
        if let Err(e) = self.spec.check_object(value, ty) {
            self.self_check_failure(format!("the fake built an invalid {ty}: {e}"));
        }
    }
}

/// A fake Telegram Bot API server. Cheap to clone; all clones share one server.
#[derive(Clone, Debug)]
pub struct FakeTelegram {
    inner: Arc<Inner>,
}

/// A person in the fake (as a test made it). Builder methods change the person in the fake too.
#[derive(Clone)]
pub struct TgUser {
    /// Their Telegram user id.
    pub id: i64,
    fake: Weak<Inner>,
}

impl fmt::Debug for TgUser {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TgUser").field("id", &self.id).finish()
    }
}

impl TgUser {
    fn update(self, change: impl FnOnce(&mut UserRecord)) -> Self {
        if let Some(inner) = self.fake.upgrade()
            && let Some(user) = inner.lock().users.get_mut(&self.id)
        {
            change(user);
        }
        self
    }

    /// Gives them a username (without `@`).
    #[must_use]
    pub fn username(self, username: &str) -> Self {
        let name = username.trim_start_matches('@').to_owned();
        self.update(|u| u.username = Some(name))
    }

    /// Gives them a last name.
    #[must_use]
    pub fn last_name(self, last_name: &str) -> Self {
        let name = last_name.to_owned();
        self.update(|u| u.last_name = Some(name))
    }

    /// Sets their client's language (`language_code`, e.g. `ru`).
    #[must_use]
    pub fn language(self, code: &str) -> Self {
        let code = code.to_owned();
        self.update(|u| u.language_code = Some(code))
    }

    /// Their current record in the fake.
    #[must_use]
    pub fn record(&self) -> Option<UserView> {
        let inner = self.fake.upgrade()?;
        let state = inner.lock();
        state.users.get(&self.id).map(|u| UserView {
            id: u.id,
            first_name: u.first_name.clone(),
            last_name: u.last_name.clone(),
            username: u.username.clone(),
            language_code: u.language_code.clone(),
        })
    }
}

/// A copy of a person's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserView {
    /// User id.
    pub id: i64,
    /// First name.
    pub first_name: String,
    /// Last name.
    pub last_name: Option<String>,
    /// Username without `@`.
    pub username: Option<String>,
    /// Client language.
    pub language_code: Option<String>,
}

/// A chat in the fake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TgChat {
    /// Chat id (`-100...` for supergroups).
    pub id: i64,
    /// Its kind.
    pub kind: ChatKind,
    /// A forum supergroup.
    pub is_forum: bool,
}

/// The commands set for one scope and language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandList {
    /// The scope: `default`, `all_private_chats`, `chat:-100123`, `chat_member:-100123:42`...
    pub scope: String,
    /// The language code, or `""` for all languages.
    pub language: String,
    /// (command, description), in order.
    pub commands: Vec<(String, String)>,
}

/// `wait_for` ran out of time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WaitTimeout(pub Duration);

impl fmt::Display for WaitTimeout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the condition did not hold within {:?}", self.0)
    }
}

impl std::error::Error for WaitTimeout {}

impl FakeTelegram {
    /// Starts the fake for a bot with `token` on `127.0.0.1` (a free port), serving in a tokio
    /// task. The bot user is `Tabula` / `tabula_test_bot`; its id is the token's number before
    /// the colon (as in real tokens), or 7000000001.
    ///
    /// # Errors
    ///
    /// If the port cannot be bound.
    pub async fn start(token: &str) -> std::io::Result<Self> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let bot_id = token
            .split(':')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(7_000_000_001);
        let (changed, _) = watch::channel(0);
        let inner = Arc::new(Inner {
            token: token.to_owned(),
            spec: Spec::load(),
            state: Mutex::new(State::new(bot_id, "tabula_test_bot".to_owned())),
            changed,
            http: reqwest::Client::new(),
            addr,
        });
        let app = server::router(Arc::clone(&inner));
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        tokio::spawn(updates::deliverer(Arc::clone(&inner)));
        Ok(Self { inner })
    }

    /// The base URL for teloxide's `Bot::set_api_url` (and the bot's `TELEGRAM_API_URL`):
    /// `http://127.0.0.1:PORT/`. teloxide appends `bot{token}/{method}` to it.
    #[must_use]
    pub fn api_url(&self) -> String {
        format!("http://{}/", self.inner.addr)
    }

    /// The token the fake accepts.
    #[must_use]
    pub fn token(&self) -> &str {
        &self.inner.token
    }

    /// The bot's user id.
    #[must_use]
    pub fn bot_id(&self) -> i64 {
        self.inner.lock().bot_id
    }

    /// The bot's username (`tabula_test_bot`).
    #[must_use]
    pub fn bot_username(&self) -> String {
        self.inner.lock().bot_username.clone()
    }

    /// The Bot API version of the specification the fake checks against.
    #[must_use]
    pub fn spec_version(&self) -> &str {
        &self.inner.spec.version
    }

    /// Checks `value` against the spec type `ty` (`Message`, `Update`, ...).
    ///
    /// # Errors
    ///
    /// What does not match.
    pub fn check_against_spec(&self, value: &Value, ty: &str) -> Result<(), String> {
        self.inner.spec.check_object(value, ty)
    }

    /// A new person, without username, last name or language until the builder adds them.
    #[must_use]
    pub fn user(&self, first_name: &str) -> TgUser {
        let mut state = self.inner.lock();
        let id = state.next_user_id;
        state.next_user_id += 1;
        let record = UserRecord {
            id,
            first_name: first_name.to_owned(),
            last_name: None,
            username: None,
            language_code: None,
        };
        state.users.insert(id, record);
        TgUser {
            id,
            fake: Arc::downgrade(&self.inner),
        }
    }

    fn add_chat(
        &self,
        kind: ChatKind,
        title: &str,
        is_forum: bool,
        private_user: Option<i64>,
    ) -> TgChat {
        let mut state = self.inner.lock();
        let id = match (kind, private_user) {
            (ChatKind::Private, Some(user)) => user,
            _ => {
                let n = state.next_group_id;
                state.next_group_id += 1;
                if kind == ChatKind::Supergroup {
                    -(1_000_000_000_000 + n)
                } else {
                    -n
                }
            }
        };
        state.chats.entry(id).or_insert_with(|| ChatRecord {
            id,
            kind,
            title: title.to_owned(),
            is_forum,
            private_user,
            creator: None,
            admins: Vec::new(),
            members: private_user.into_iter().collect(),
            bot: BotStanding::Member,
            migrated_to: None,
            bot_can_manage_topics: true,
            topics: std::collections::BTreeMap::new(),
        });
        TgChat { id, kind, is_forum }
    }

    /// A basic group with the bot in it.
    #[must_use]
    pub fn group(&self, title: &str) -> TgChat {
        self.add_chat(ChatKind::Group, title, false, None)
    }

    /// A supergroup with the bot in it; a forum when `forum`.
    #[must_use]
    pub fn supergroup(&self, title: &str, forum: bool) -> TgChat {
        self.add_chat(ChatKind::Supergroup, title, forum, None)
    }

    /// The private chat of `user` with the bot (its id is the user's id), opened if it was not:
    /// the user has started the bot, so that the bot may write to them (without it, sends to
    /// their id answer 403 `Forbidden: bot can't initiate conversation with a user`). Nothing
    /// is delivered to the bot; [`FakeTelegram::user_starts_bot`] also writes `/start`.
    #[must_use]
    pub fn private_chat(&self, user: &TgUser) -> TgChat {
        self.add_chat(ChatKind::Private, "", false, Some(user.id))
    }

    fn with_chat(&self, chat: &TgChat, change: impl FnOnce(&mut ChatRecord)) {
        let mut state = self.inner.lock();
        let record = state.chats.get_mut(&chat.id);
        assert!(
            record.is_some(),
            "chat {} is not a chat of this fake",
            chat.id
        );
        if let Some(record) = record {
            change(record);
        }
    }

    /// Makes `user` the creator of `chat` (`ChatMemberOwner`).
    pub fn set_creator(&self, chat: &TgChat, user: &TgUser) {
        self.with_chat(chat, |c| {
            c.creator = Some(user.id);
            c.members.insert(user.id);
        });
    }

    /// Makes `user` an administrator of `chat` (`ChatMemberAdministrator`).
    pub fn add_admin(&self, chat: &TgChat, user: &TgUser) {
        self.with_chat(chat, |c| {
            if !c.admins.contains(&user.id) {
                c.admins.push(user.id);
            }
            c.members.insert(user.id);
        });
    }

    /// Makes `user` an ordinary member of `chat` (writing there does too).
    pub fn add_member(&self, chat: &TgChat, user: &TgUser) {
        self.with_chat(chat, |c| {
            c.members.insert(user.id);
        });
    }

    /// Makes the bot an administrator of `chat` with every right a bot gets by default (it may
    /// then delete others' messages; in a forum it has `can_manage_topics`).
    pub fn make_bot_admin(&self, chat: &TgChat) {
        self.make_bot_admin_with_topics(chat, true);
    }

    /// Makes the bot an administrator of `chat` (or changes its rights if it is one), with
    /// `can_manage_topics` as given: without it, `createForumTopic` is refused, and so are
    /// `closeForumTopic` / `reopenForumTopic` on topics the bot did not create and sends into
    /// closed topics. `getChatMember` reports the right in forums.
    pub fn make_bot_admin_with_topics(&self, chat: &TgChat, can_manage_topics: bool) {
        self.with_chat(chat, |c| {
            c.bot = BotStanding::Administrator;
            c.bot_can_manage_topics = can_manage_topics;
        });
    }

    /// Routes webhook URLs starting with `public_prefix` (what the bot gives `setWebhook`, e.g.
    /// `https://bot.example.test`) to `local_prefix` (where the TLS proxy would forward, e.g.
    /// `http://127.0.0.1:PORT`). Without a route, `setWebhook` fails as for a host that does not
    /// resolve.
    pub fn route_webhook(&self, public_prefix: &str, local_prefix: &str) {
        self.inner
            .lock()
            .routes
            .push((public_prefix.to_owned(), local_prefix.to_owned()));
    }

    /// Posts `body` to the bot's webhook (the routed URL of the current `setWebhook`) as Telegram
    /// would, with the secret header when `secret` is given; returns the HTTP status.
    ///
    /// # Errors
    ///
    /// If no webhook is set or the request fails.
    pub async fn post_webhook_raw(&self, secret: Option<&str>, body: &str) -> Result<u16, String> {
        let url = {
            let state = self.inner.lock();
            let hook = state.webhook.as_ref().ok_or("no webhook is set")?;
            updates::rewrite(&state.routes, &hook.url).ok_or("the webhook has no route")?
        };
        let mut request = self
            .inner
            .http
            .post(url)
            .header("content-type", "application/json")
            .body(body.to_owned());
        if let Some(s) = secret {
            request = request.header("X-Telegram-Bot-Api-Secret-Token", s);
        }
        let response = request.send().await.map_err(|e| e.to_string())?;
        Ok(response.status().as_u16())
    }

    /// The delay before a failed webhook delivery is retried (default 300 ms).
    pub fn set_webhook_retry_delay(&self, delay: Duration) {
        self.inner.lock().retry_delay = delay;
    }

    /// Makes the next call of `method` (case-insensitive) fail with `failure`, before any
    /// check. Several calls queue several failures.
    pub fn fail_next(&self, method: &str, failure: Failure) {
        let mut state = self.inner.lock();
        state
            .failures
            .entry(method.to_ascii_lowercase())
            .or_default()
            .push_back(failure);
    }

    /// Sets the rate limits (the documented ones by default).
    pub fn set_rate_limits(&self, limits: RateLimits) {
        self.inner.lock().rate = limits;
    }

    /// Privacy mode (on by default, as BotFather sets it): in groups where the bot is not an
    /// administrator it receives only commands for it, mentions of it and replies to its
    /// messages. Off: it receives every message (`getMe` says `can_read_all_group_messages`).
    pub fn set_privacy_mode(&self, on: bool) {
        self.inner.lock().privacy_mode = on;
    }

    /// Every command list set by `setMyCommands`.
    #[must_use]
    pub fn all_commands(&self) -> Vec<CommandList> {
        let state = self.inner.lock();
        state
            .commands
            .iter()
            .map(|((scope, language), commands)| CommandList {
                scope: scope.clone(),
                language: language.clone(),
                commands: commands.clone(),
            })
            .collect()
    }

    /// How long after a press `answerCallbackQuery` is still accepted (default 15 s).
    pub fn set_callback_deadline(&self, deadline: Duration) {
        self.inner.lock().callback_deadline = deadline;
    }

    /// All messages of `chat` (the users' and the bot's, deleted ones too), oldest first.
    #[must_use]
    pub fn messages(&self, chat: &TgChat) -> Vec<FakeMessage> {
        let state = self.inner.lock();
        state
            .messages
            .range((chat.id, i64::MIN)..=(chat.id, i64::MAX))
            .map(|(_, m)| m.clone())
            .collect()
    }

    /// The bot's newest message in `chat` that `accept` takes, without copying the others
    /// (long games hold thousands of messages with their pictures).
    pub fn newest_bot_message(
        &self,
        chat: &TgChat,
        accept: impl Fn(&FakeMessage) -> bool,
    ) -> Option<FakeMessage> {
        let state = self.inner.lock();
        state
            .messages
            .range((chat.id, i64::MIN)..=(chat.id, i64::MAX))
            .rev()
            .map(|(_, m)| m)
            .find(|m| m.from_bot && accept(m))
            .cloned()
    }

    /// Whether any message of the bot in `chat` is one `accept` takes, without copying.
    pub fn any_bot_message(&self, chat: &TgChat, accept: impl Fn(&FakeMessage) -> bool) -> bool {
        let state = self.inner.lock();
        state
            .messages
            .range((chat.id, i64::MIN)..=(chat.id, i64::MAX))
            .any(|(_, m)| m.from_bot && accept(m))
    }

    /// The bot's messages in `chat` (deleted ones too), oldest first.
    #[must_use]
    pub fn bot_messages(&self, chat: &TgChat) -> Vec<FakeMessage> {
        self.messages(chat)
            .into_iter()
            .filter(|m| m.from_bot)
            .collect()
    }

    /// The bot's messages in the forum topic `thread_id` of `chat` (deleted ones too), oldest
    /// first: those it sent with that `message_thread_id`. (The service messages of topics it
    /// created or closed are not among them; they are in [`FakeTelegram::messages`].)
    #[must_use]
    pub fn bot_messages_in_topic(&self, chat: &TgChat, thread_id: i64) -> Vec<FakeMessage> {
        self.messages(chat)
            .into_iter()
            .filter(|m| m.from_bot && m.thread_id == Some(thread_id))
            .collect()
    }

    /// The forum topics of `chat`, oldest first: created by people
    /// ([`FakeTelegram::create_topic`]) or by the bot (`createForumTopic`), open or closed.
    /// Empty for a chat that is not a forum.
    #[must_use]
    pub fn topics(&self, chat: &TgChat) -> Vec<FakeTopic> {
        self.inner
            .lock()
            .chats
            .get(&chat.id)
            .map(|c| c.topics.values().cloned().collect())
            .unwrap_or_default()
    }

    /// Whether `user` has a private chat with the bot (started it), so that the bot may write
    /// to them.
    #[must_use]
    pub fn has_private_chat(&self, user: &TgUser) -> bool {
        self.inner
            .lock()
            .chats
            .get(&user.id)
            .is_some_and(|c| c.kind == ChatKind::Private && c.private_user == Some(user.id))
    }

    /// The bot's messages in the private chat of `user` (deleted ones too), oldest first;
    /// empty when they never started the bot. Unlike [`FakeTelegram::private_chat`], this
    /// opens nothing.
    #[must_use]
    pub fn private_bot_messages(&self, user: &TgUser) -> Vec<FakeMessage> {
        if !self.has_private_chat(user) {
            return Vec::new();
        }
        let chat = TgChat {
            id: user.id,
            kind: ChatKind::Private,
            is_forum: false,
        };
        self.bot_messages(&chat)
    }

    /// One message.
    #[must_use]
    pub fn message(&self, chat: &TgChat, message_id: i64) -> Option<FakeMessage> {
        self.inner
            .lock()
            .messages
            .get(&(chat.id, message_id))
            .cloned()
    }

    /// The `Message` object of a message as the Bot API shows it now.
    #[must_use]
    pub fn message_json(&self, chat: &TgChat, message_id: i64) -> Option<Value> {
        let state = self.inner.lock();
        state
            .messages
            .get(&(chat.id, message_id))
            .map(|m| state.message_json(m, false))
    }

    /// Every request the bot made, in order.
    #[must_use]
    pub fn requests(&self) -> Vec<RequestRecord> {
        self.inner.lock().requests.clone()
    }

    /// The requests refused because they were wrong (spec, parsing, limits, unknown message...).
    #[must_use]
    pub fn violations(&self) -> Vec<RequestRecord> {
        self.requests()
            .into_iter()
            .filter(|r| r.ended == Ended::Violation)
            .collect()
    }

    /// The requests refused by the platform's state, not by a fault of the request: the bot
    /// was kicked or blocked, the person never started it, the group was upgraded, a conflict,
    /// a rate limit.
    #[must_use]
    pub fn refused(&self) -> Vec<RequestRecord> {
        self.requests()
            .into_iter()
            .filter(|r| r.ended == Ended::Refused)
            .collect()
    }

    /// The requests the fake could not serve (methods or options it does not implement).
    #[must_use]
    pub fn unsupported(&self) -> Vec<RequestRecord> {
        self.requests()
            .into_iter()
            .filter(|r| r.ended == Ended::Unsupported)
            .collect()
    }

    /// Every callback query sent by `press`, answered or not.
    #[must_use]
    pub fn callbacks(&self) -> Vec<CallbackRecord> {
        self.inner.lock().callbacks.clone()
    }

    /// Callback queries not answered (yet).
    #[must_use]
    pub fn unanswered_callbacks(&self) -> Vec<CallbackRecord> {
        self.callbacks()
            .into_iter()
            .filter(|c| c.answered_at.is_none())
            .collect()
    }

    /// The commands set by `setMyCommands` for `scope` (a `BotCommandScope` object; `None` is
    /// the default scope) and `language` (`""` for all languages), as (command, description).
    #[must_use]
    pub fn my_commands(
        &self,
        scope: Option<&Value>,
        language: &str,
    ) -> Option<Vec<(String, String)>> {
        let key = (methods::scope_key(scope), language.to_owned());
        self.inner.lock().commands.get(&key).cloned()
    }

    /// Every webhook delivery attempt.
    #[must_use]
    pub fn webhook_attempts(&self) -> Vec<WebhookAttempt> {
        self.inner.lock().attempts.clone()
    }

    /// Updates not yet confirmed (by `getUpdates` offset) or delivered (by webhook).
    #[must_use]
    pub fn pending_updates(&self) -> Vec<Value> {
        self.inner
            .lock()
            .updates
            .iter()
            .map(|u| u.json.clone())
            .collect()
    }

    /// Objects the fake built that do not match the spec (should always be empty).
    #[must_use]
    pub fn self_check_failures(&self) -> Vec<String> {
        self.inner.lock().self_check.clone()
    }

    /// Waits until `check` returns `Some`, re-checking after every change in the fake.
    ///
    /// # Errors
    ///
    /// [`WaitTimeout`] if it did not within `timeout`.
    pub async fn wait_for<T>(
        &self,
        mut check: impl FnMut(&FakeTelegram) -> Option<T>,
        timeout: Duration,
    ) -> Result<T, WaitTimeout> {
        let deadline = Instant::now() + timeout;
        let mut changed = self.inner.changed.subscribe();
        loop {
            if let Some(found) = check(self) {
                return Ok(found);
            }
            let wait = tokio::time::timeout_at(deadline.into(), changed.changed()).await;
            if wait.is_err() {
                return check(self).ok_or(WaitTimeout(timeout));
            }
        }
    }

    /// Waits until the bot has sent at least `count` messages to `chat`; returns them.
    ///
    /// # Errors
    ///
    /// [`WaitTimeout`].
    pub async fn wait_for_bot_messages(
        &self,
        chat: &TgChat,
        count: usize,
        timeout: Duration,
    ) -> Result<Vec<FakeMessage>, WaitTimeout> {
        self.wait_for(
            |f| Some(f.bot_messages(chat)).filter(|m| m.len() >= count),
            timeout,
        )
        .await
    }

    /// Waits until every update was taken by the bot (confirmed or delivered).
    ///
    /// # Errors
    ///
    /// [`WaitTimeout`].
    pub async fn wait_for_no_pending_updates(&self, timeout: Duration) -> Result<(), WaitTimeout> {
        self.wait_for(|f| f.inner.lock().updates.is_empty().then_some(()), timeout)
            .await
    }

    fn user_json(&self, id: i64) -> Value {
        self.inner
            .lock()
            .user_json(id)
            .unwrap_or_else(|| json!({"id": id, "is_bot": false, "first_name": "?"}))
    }
}
