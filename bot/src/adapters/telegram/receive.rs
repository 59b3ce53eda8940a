//! Receiving updates: long polling or the webhook route, and lanes.
//!
//! Updates of one chat are handled in the order Telegram sent them, each after the one before
//! has been handled and its button press answered; their replies are posted in the same
//! order, in a lane of their own that waits for Telegram's pace; updates of different chats
//! are handled concurrently. An update is acknowledged to Telegram only once it has been
//! handled (polling: the next `getUpdates` offset passes it only then; webhook: the HTTP
//! answer is sent only then), so an update the bot did not finish (a crash, or one still
//! queued at shutdown) is delivered again, and the request key makes that harmless.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::{HeaderMap, StatusCode};
use teloxide::RequestError;
use teloxide::payloads::{GetUpdatesSetters, SetWebhookSetters};
use teloxide::prelude::*;
use teloxide::types::{AllowedUpdate, ChatId, Update, UpdateKind};
use tokio::sync::{Notify, mpsc, oneshot};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::translate::{Incoming, translate};
use super::{Mode, Telegram};
use tabula_service::store::Platform;

/// The long-poll timeout of `getUpdates`, in seconds: below teloxide's HTTP timeout (17 s), which
/// does not grow with the long poll.
const POLL_TIMEOUT: u32 = 10;

/// How long an established poller goes on through 409 Conflicts (another process polls with
/// the same token) before it gives up too.
const CONFLICT_PATIENCE: Duration = Duration::from_secs(300);

/// How long without a conflict before earlier conflicts are forgotten.
const CONFLICT_MEMORY: Duration = Duration::from_secs(60);

/// The update kinds the bot asks for: commands and button presses (and the service
/// messages of a group's migration, which are messages).
fn allowed_updates() -> Vec<AllowedUpdate> {
    vec![AllowedUpdate::Message, AllowedUpdate::CallbackQuery]
}

/// The header Telegram sends the webhook secret in.
pub const SECRET_HEADER: &str = "x-telegram-bot-api-secret-token";

/// What is said when another process polls with the same token.
pub fn conflict_message() -> &'static str {
    "another process is already taking this bot's updates by long polling (Telegram answered \
     409 Conflict). Stop the other process, or run every instance in webhook mode \
     (TELEGRAM_WEBHOOK_URL)."
}

/// Why receiving stopped before it was asked to.
#[derive(Debug, thiserror::Error)]
pub enum ReceiveError {
    /// Another process polls with this token.
    #[error("{}", conflict_message())]
    Conflict,
    /// Telegram refused the token or the webhook.
    #[error("Telegram refused {what}: {source}")]
    Refused {
        /// What was asked.
        what: &'static str,
        /// What Telegram said.
        source: RequestError,
    },
}

/// One update waiting in its chat's lane, and who waits for it to be handled.
struct Job {
    update: Update,
    done: Done,
}

/// Who learns that an update was handled.
enum Done {
    /// The webhook's request, which answers Telegram then.
    Answer(oneshot::Sender<()>),
    /// The poller's updates in hand: the update leaves them, so the offset may pass it.
    Polled {
        pending: Arc<Mutex<BTreeSet<i64>>>,
        progress: Arc<Notify>,
    },
}

impl Done {
    fn handled(self, id: i64) {
        match self {
            Done::Answer(answer) => {
                let _ = answer.send(());
            }
            Done::Polled { pending, progress } => {
                if let Ok(mut pending) = pending.lock() {
                    pending.remove(&id);
                }
                progress.notify_one();
            }
        }
    }
}

/// Queues of jobs by chat, each worked in order by a task of its own while it holds any.
struct Queues<J> {
    senders: Mutex<HashMap<ChatId, mpsc::UnboundedSender<J>>>,
}

impl<J> Default for Queues<J> {
    fn default() -> Self {
        Queues {
            senders: Mutex::new(HashMap::new()),
        }
    }
}

impl<J> Queues<J> {
    /// Queues `job` for `chat`; when the chat has no worker, returns the queue a new worker
    /// is to take.
    fn push(&self, chat: ChatId, job: J) -> Option<mpsc::UnboundedReceiver<J>> {
        let mut job = job;
        let mut senders = self.senders.lock().ok()?;
        if let Some(sender) = senders.get(&chat) {
            match sender.send(job) {
                Ok(()) => return None,
                Err(mpsc::error::SendError(back)) => job = back,
            }
        }
        let (sender, queue) = mpsc::unbounded_channel();
        sender.send(job).ok()?;
        senders.insert(chat, sender);
        Some(queue)
    }

    /// A worker's next job; `None` when none is waiting, and the worker ends.
    fn next(&self, chat: ChatId, queue: &mut mpsc::UnboundedReceiver<J>) -> Option<J> {
        match queue.try_recv() {
            Ok(job) => Some(job),
            Err(mpsc::error::TryRecvError::Disconnected) => None,
            Err(mpsc::error::TryRecvError::Empty) => {
                let mut senders = self.senders.lock().ok()?;
                // Checked again under the lock, so that no job is pushed to a queue that is
                // going away.
                let job = queue.try_recv().ok();
                if job.is_none() {
                    senders.remove(&chat);
                }
                job
            }
        }
    }
}

/// A reply waiting to be shown in its chat.
struct Post {
    reply: tabula_service::service::Reply,
    origin: super::translate::Origin,
}

/// What a chat's poster does next: show a reply, or move the chat's games to the supergroup
/// it became. The move waits in the old chat's lane behind the replies before it, so that the
/// boards they post are recorded before the move forgets the old chat's boards (their
/// buttons cannot be taken off in the supergroup).
enum Out {
    Post(Box<Post>),
    Migrated { from: ChatId, to: ChatId },
}

/// The lanes of the chats. Each chat has two: its updates, handled in order by the service
/// (and a button press answered at once), and its replies, posted in the same order behind
/// Telegram's pace for the chat (teloxide's `Throttle`: in a busy group, a board may wait
/// there for most of a minute), so that no press waits behind the boards of earlier ones.
struct Lanes {
    telegram: Arc<Telegram>,
    updates: Queues<Job>,
    posts: Queues<Out>,
    tracker: TaskTracker,
    shutdown: CancellationToken,
}

impl Lanes {
    /// Queues an update in its chat's lane; `done` learns when it was handled (not if it
    /// was not: shutdown came first).
    fn push(self: &Arc<Self>, update: Update, done: Done) {
        tabula_service::metrics::metrics().update_received("telegram", update_kind(&update));
        let chat = lane_of(&update);
        if let Some(queue) = self.updates.push(chat, Job { update, done }) {
            let this = Arc::clone(self);
            self.tracker
                .spawn(async move { this.work(chat, queue).await });
        }
    }

    /// A chat's worker: handles its updates in order, and ends when none is waiting. At
    /// shutdown it finishes the update in hand and leaves the rest unacknowledged. An update
    /// is acknowledged once the service has handled it and a press was answered: what it
    /// changed is announced from the outbox even if the process dies before its reply is
    /// posted (issue 36); a reply that changed nothing (a look, `/help`) is lost then, and
    /// asked for again.
    async fn work(self: Arc<Self>, chat: ChatId, mut queue: mpsc::UnboundedReceiver<Job>) {
        while let Some(job) = self.updates.next(chat, &mut queue) {
            if self.shutdown.is_cancelled() {
                // Not handled: not acknowledged; Telegram delivers it again.
                continue;
            }
            let id = i64::from(job.update.id.0);
            let out = self.telegram.process(job.update).await;
            job.done.handled(id);
            let lane = match &out {
                Some(Out::Migrated { from, .. }) => *from,
                _ => chat,
            };
            if let Some(out) = out
                && let Some(queue) = self.posts.push(lane, out)
            {
                let this = Arc::clone(&self);
                self.tracker
                    .spawn(async move { this.send(lane, queue).await });
            }
        }
    }

    /// A chat's poster: shows its replies in order, and ends when none is waiting (at
    /// shutdown too, once they are all shown).
    async fn send(self: Arc<Self>, chat: ChatId, mut queue: mpsc::UnboundedReceiver<Out>) {
        while let Some(out) = self.posts.next(chat, &mut queue) {
            match out {
                Out::Post(post) => self.telegram.answer(&post.reply, &post.origin).await,
                Out::Migrated { from, to } => self.telegram.migrated(from, to).await,
            }
        }
    }
}

/// The lane of an update: its chat (updates without one share lane 0).
fn lane_of(update: &Update) -> ChatId {
    match &update.kind {
        UpdateKind::Message(message) => message.chat.id,
        UpdateKind::CallbackQuery(query) => query
            .message
            .as_ref()
            .map_or(ChatId(0), |message| message.chat().id),
        _ => ChatId(0),
    }
}

/// How long a request may take before the chat shows that the bot is at work.
const PROGRESS_AFTER: std::time::Duration = std::time::Duration::from_millis(1_000);
/// How often that is renewed (Telegram shows a chat action for five seconds).
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(4_500);

impl Telegram {
    /// Handles one update: translated, given to the service, a button press answered; returns
    /// the reply to show in the chat, if any, or the chat's move to a supergroup.
    async fn process(&self, update: Update) -> Option<Out> {
        use tracing::Instrument;
        let span = tracing::info_span!("telegram", update = update.id.0);
        async {
            match translate(&update, &self.username) {
                Incoming::Request(mut request, origin) => {
                    if !origin.private {
                        request.moderator = self.is_admin(origin.chat, &request.actor.id).await;
                    }
                    let reply = match self.handle_showing_progress(&request, &origin).await {
                        Ok(reply) => reply,
                        // Logged by the service; the person is told.
                        Err(error) => Some(error.reply_to(&request)),
                    };
                    self.acknowledge(reply.as_ref(), &origin).await;
                    reply.map(|reply| Out::Post(Box::new(Post { reply, origin })))
                }
                // Moved in the old chat's lane of replies (see [`Out`]).
                Incoming::Migrated { from, to } => Some(Out::Migrated { from, to }),
                Incoming::Ignored => {
                    // Every button press is answered, even one the bot cannot use.
                    if let UpdateKind::CallbackQuery(query) = &update.kind {
                        self.ack(&query.id.0, None).await;
                    }
                    None
                }
            }
        }
        .instrument(span)
        .await
    }

    /// The service's reply to `request`; while it takes longer than [`PROGRESS_AFTER`] (an
    /// animated replay, a long export), the chat shows that the bot is at work
    /// (`sendChatAction`, renewed before Telegram's five seconds run out).
    async fn handle_showing_progress(
        &self,
        request: &tabula_service::service::Request,
        origin: &super::translate::Origin,
    ) -> Result<Option<tabula_service::service::Reply>, tabula_service::service::ServiceError> {
        use teloxide::prelude::Requester;
        let work = self.service.handle(request);
        tokio::pin!(work);
        let mut wait = PROGRESS_AFTER;
        loop {
            match tokio::time::timeout(wait, &mut work).await {
                Ok(result) => return result,
                Err(_) => {
                    let mut action = self
                        .client
                        .send_chat_action(origin.chat, teloxide::types::ChatAction::Typing);
                    if let Some(thread) = origin.thread {
                        action = action.message_thread_id(thread);
                    }
                    if let Err(error) = action.await {
                        tracing::debug!(%error, "cannot show that the bot is at work");
                    }
                    wait = PROGRESS_EVERY;
                }
            }
        }
    }

    /// A group became a supergroup: its games, settings and wallets move with it.
    pub(super) async fn migrated(&self, from: ChatId, to: ChatId) {
        let (old, new) = (from.0.to_string(), to.0.to_string());
        match self
            .service
            .chat_moved(Platform::Telegram, &old, &new)
            .await
        {
            Ok(_) => tracing::info!(from = from.0, to = to.0, "a group became a supergroup"),
            Err(error) => tracing::error!(
                error = %tabula_service::service::error_chain(&error),
                "cannot move a migrated group's games"
            ),
        }
    }
}

/// Receives updates for one Telegram adapter until shut down.
pub struct Receiver {
    lanes: Arc<Lanes>,
    mode: Mode,
    /// Where it reports that Telegram answers (`/readyz`).
    link: crate::ops::Link,
}

impl std::fmt::Debug for Receiver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Receiver")
            .field("mode", &self.mode)
            .finish_non_exhaustive()
    }
}

impl Receiver {
    /// A receiver for `telegram` in `mode`; `shutdown` stops it.
    pub fn new(telegram: Arc<Telegram>, mode: Mode, shutdown: CancellationToken) -> Receiver {
        Receiver {
            lanes: Arc::new(Lanes {
                telegram,
                updates: Queues::default(),
                posts: Queues::default(),
                tracker: TaskTracker::new(),
                shutdown,
            }),
            mode,
            link: crate::ops::Link::beats("telegram"),
        }
    }

    /// The link this receiver reports to: long polls that come back, or in webhook mode its
    /// registration, updates that arrive and [`Receiver::probe`]s.
    pub fn link(&self) -> &crate::ops::Link {
        &self.link
    }

    /// Webhook mode: asks Telegram who the bot is, to know it still answers (a webhook alone
    /// says nothing while the group is quiet); the link learns the outcome.
    pub async fn probe(&self, limit: Duration) {
        match tokio::time::timeout(limit, self.lanes.telegram.client.get_me().send()).await {
            Ok(Ok(_)) => self.link.beat(),
            Ok(Err(error)) => {
                tracing::warn!(%error, "getMe failed");
                self.link.beat_failed("getMe failed (the log says why)");
            }
            Err(_) => self
                .link
                .beat_failed(format!("getMe: no answer within {} s", limit.as_secs())),
        }
    }

    /// Tells Telegram how updates are to arrive: polling deletes any webhook; webhook mode
    /// sets it, with its secret.
    ///
    /// # Errors
    /// Telegram refused.
    pub async fn register(&self) -> Result<(), ReceiveError> {
        let client = &self.lanes.telegram.client;
        match &self.mode {
            Mode::Polling => {
                client
                    .delete_webhook()
                    .await
                    .map(|_| ())
                    .map_err(|source| ReceiveError::Refused {
                        what: "deleteWebhook",
                        source,
                    })
            }
            Mode::Webhook { url, secret } => client
                .set_webhook(url.clone())
                .secret_token(secret.expose())
                .allowed_updates(allowed_updates())
                .await
                .map(|_| self.link.beat())
                .map_err(|source| ReceiveError::Refused {
                    what: "setWebhook",
                    source,
                }),
        }
    }

    /// The webhook route (`path`, handler) for the shared HTTP listener; `None` in polling
    /// mode.
    pub fn webhook_route(&self) -> Option<(String, axum::routing::MethodRouter)> {
        let Mode::Webhook { url, secret } = &self.mode else {
            return None;
        };
        let lanes = Arc::clone(&self.lanes);
        let secret = secret.clone();
        let link = self.link.clone();
        let handler = move |headers: HeaderMap, body: axum::body::Bytes| {
            let lanes = Arc::clone(&lanes);
            let secret = secret.clone();
            let link = link.clone();
            async move { webhook(&lanes, &link, secret.expose(), &headers, &body).await }
        };
        Some((url.path().to_string(), axum::routing::post(handler)))
    }

    /// Long polling until shutdown (returns `Ok`) or until polling cannot go on; then waits
    /// for the updates in hand and acknowledges them.
    ///
    /// # Errors
    /// Another process polls with this token, or Telegram refused the token.
    pub async fn poll(&self) -> Result<(), ReceiveError> {
        let result = self.poll_loop().await;
        self.finish().await;
        result
    }

    /// Stops taking updates and waits until those in hand are handled (webhook mode: the
    /// route answers them). Polling does this itself.
    pub async fn finish(&self) {
        self.lanes.tracker.close();
        self.lanes.tracker.wait().await;
    }

    async fn poll_loop(&self) -> Result<(), ReceiveError> {
        let client = &self.lanes.telegram.client;
        let shutdown = &self.lanes.shutdown;
        // Updates received and not yet handled; the offset never passes them.
        let pending: Arc<Mutex<BTreeSet<i64>>> = Arc::default();
        let progress = Arc::new(Notify::new());
        let mut next: i64 = 0;
        // A poller is established once one of its long polls came back: then a 409 means a
        // newcomer is polling, which gives up at its first 409 (its long polls never come
        // back while the established one polls).
        let mut started = false;
        let mut established = false;
        let mut conflicts: Option<(Instant, Instant)> = None;
        let mut failures = 0_u32;
        loop {
            let offset = pending
                .lock()
                .ok()
                .and_then(|p| p.first().copied())
                .unwrap_or(next);
            let request = client
                .get_updates()
                .offset(i32::try_from(offset).unwrap_or(i32::MAX))
                // The first poll answers at once: a process that polls alone learns it
                // before another can start.
                .timeout(if started { POLL_TIMEOUT } else { 0 })
                .allowed_updates(allowed_updates());
            let result = tokio::select! {
                () = shutdown.cancelled() => break,
                result = request.send() => result,
            };
            let updates = match result {
                Ok(updates) => {
                    self.link.beat();
                    established |= started;
                    started = true;
                    if conflicts.is_some_and(|(_, last)| last.elapsed() > CONFLICT_MEMORY) {
                        conflicts = None;
                    }
                    failures = 0;
                    updates
                }
                Err(error) if is_conflict(&error) => {
                    self.link
                        .beat_failed("another process polls with this token (409)");
                    let now = Instant::now();
                    let (first, _) = *conflicts.get_or_insert((now, now));
                    conflicts = Some((first, now));
                    if !established || first.elapsed() > CONFLICT_PATIENCE {
                        return Err(ReceiveError::Conflict);
                    }
                    tracing::warn!("{}", conflict_message());
                    sleep_or_shutdown(shutdown, Duration::from_millis(200)).await;
                    continue;
                }
                Err(error) if is_refusal(&error) => {
                    return Err(ReceiveError::Refused {
                        what: "getUpdates",
                        source: error,
                    });
                }
                Err(error) => {
                    self.link
                        .beat_failed("getUpdates failed (the log says why)");
                    failures += 1;
                    let wait = Duration::from_millis(500 * (1 << failures.min(6)));
                    tracing::warn!(%error, wait_ms = wait.as_millis(), "getUpdates failed; trying again");
                    sleep_or_shutdown(shutdown, wait).await;
                    continue;
                }
            };
            let mut fresh = 0;
            for update in updates {
                let id = i64::from(update.id.0);
                if id < next {
                    // Still in hand (not yet acknowledged): already queued.
                    continue;
                }
                next = id + 1;
                fresh += 1;
                if let Ok(mut p) = pending.lock() {
                    p.insert(id);
                }
                self.lanes.push(
                    update,
                    Done::Polled {
                        pending: Arc::clone(&pending),
                        progress: Arc::clone(&progress),
                    },
                );
            }
            if fresh == 0 && pending.lock().is_ok_and(|p| !p.is_empty()) {
                // Telegram repeats the updates still in hand at once: wait for one to be
                // handled instead of asking again and again.
                tokio::select! {
                    () = shutdown.cancelled() => break,
                    () = progress.notified() => {}
                    () = tokio::time::sleep(Duration::from_secs(1)) => {}
                }
            }
        }
        // Shutdown: the lanes finish what they hold; then the handled updates are confirmed.
        self.finish().await;
        let offset = pending
            .lock()
            .ok()
            .and_then(|p| p.first().copied())
            .unwrap_or(next);
        if offset > 0 {
            let confirm = client
                .get_updates()
                .offset(i32::try_from(offset).unwrap_or(i32::MAX))
                .limit(1)
                .timeout(0);
            if let Err(error) = confirm.send().await {
                tracing::warn!(%error, "cannot confirm the last updates; they will come again");
            }
        }
        Ok(())
    }
}

/// The webhook: the secret checked first (401 without processing when missing or wrong), the
/// update handled, then answered, so that Telegram delivers again what was not handled.
async fn webhook(
    lanes: &Arc<Lanes>,
    link: &crate::ops::Link,
    secret: &str,
    headers: &HeaderMap,
    body: &[u8],
) -> StatusCode {
    let given = headers
        .get(SECRET_HEADER)
        .map(axum::http::HeaderValue::as_bytes);
    if !given.is_some_and(|given| constant_time_eq(given, secret.as_bytes())) {
        return StatusCode::UNAUTHORIZED;
    }
    // Telegram reaches the bot.
    link.beat();
    if lanes.shutdown.is_cancelled() {
        return StatusCode::SERVICE_UNAVAILABLE;
    }
    let update: Update = match serde_json::from_slice(body) {
        Ok(update) => update,
        Err(error) => {
            tracing::warn!(%error, "webhook body is not an update");
            return StatusCode::BAD_REQUEST;
        }
    };
    let (answer, handled) = oneshot::channel();
    lanes.push(update, Done::Answer(answer));
    match handled.await {
        Ok(()) => StatusCode::OK,
        // Not handled (shutting down): Telegram sends it again.
        Err(_) => StatusCode::SERVICE_UNAVAILABLE,
    }
}

/// The kind of an update, for `/metrics`.
fn update_kind(update: &Update) -> &'static str {
    match &update.kind {
        UpdateKind::Message(message) if message.text().is_some_and(|t| t.starts_with('/')) => {
            "command"
        }
        UpdateKind::Message(_) | UpdateKind::EditedMessage(_) => "message",
        UpdateKind::CallbackQuery(_) => "button",
        UpdateKind::MyChatMember(_) | UpdateKind::ChatMember(_) => "membership",
        _ => "other",
    }
}

/// Compares secrets in time independent of where they differ.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0_u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn is_conflict(error: &RequestError) -> bool {
    matches!(error, RequestError::Api(api) if api.to_string().starts_with("Conflict"))
}

/// The token is wrong (401) or the bot was deleted: polling cannot go on.
fn is_refusal(error: &RequestError) -> bool {
    matches!(error, RequestError::Api(api) if {
        let text = api.to_string();
        text.contains("Unauthorized") || text.contains("Not Found")
    })
}

async fn sleep_or_shutdown(shutdown: &CancellationToken, wait: Duration) {
    tokio::select! {
        () = shutdown.cancelled() => {}
        () = tokio::time::sleep(wait) => {}
    }
}
