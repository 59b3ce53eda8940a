//! The outbox dispatcher: sends what the bot says on its own (reminders, time-outs, expiries,
//! boards), which the store's outbox holds from the moment its cause was committed.
//!
//! Platform-neutral. Each platform's adapter (through the service, which renders a row's
//! payload into a message) implements [`Deliver`]; the [`Dispatcher`] picks the deliverer by
//! the row's platform. The dispatcher claims due rows with a lease ([`Store::claim_outbox`]:
//! at most one per chat, the chat's oldest), delivers the rows of different chats concurrently
//! (one chat's slow or failing send never holds back another), and records each outcome:
//! sent (with the platform's message id, pacing the chat), failed (tried again after a
//! back-off), dropped (it no longer applies) or gone (the bot was removed from the chat: the
//! chat is marked inactive). A dispatcher that dies loses its leases when they expire and
//! another (or the restarted one) delivers the rows: at least once. Any number of dispatchers,
//! in one process or many, may share one database.
//!
//! It touches the store and the deliverers; it holds no state but the rows in hand.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use tokio::task::JoinSet;

use crate::metrics::Delivery;
use crate::store::{OutboxRow, Platform, Store, StoreError, Timestamp};

/// Sends one outbox row to its platform: implemented by each platform's adapter (with the
/// service's rendering of the payload).
pub trait Deliver: Send + Sync {
    /// Sends the row's message to `row.platform_chat_id`.
    ///
    /// # Errors
    /// [`DeliveryError`]: what the dispatcher should do with the row.
    fn deliver(
        &self,
        row: &OutboxRow,
    ) -> impl Future<Output = Result<Delivered, DeliveryError>> + Send;
}

/// The message of an outbox row, as the service renders it now, for a [`Deliver`]: a
/// failure to render is retried later; a row that no longer applies is dropped.
///
/// # Errors
/// [`DeliveryError::Retry`] or [`DeliveryError::Drop`], as said.
pub async fn render(
    service: &crate::service::Service,
    row: &OutboxRow,
) -> Result<crate::service::Reply, DeliveryError> {
    service
        .render_outbox(row)
        .await
        .map_err(|error| DeliveryError::Retry {
            after: None,
            reason: crate::service::error_chain(&error),
            cause: Cause::Internal,
        })?
        .ok_or_else(|| DeliveryError::Drop {
            reason: "no longer applies".into(),
        })
}

/// A message the platform accepted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Delivered {
    /// The platform's id of the sent message (kept with the row; for a board, with its game).
    pub message_id: Option<String>,
}

/// Why a row was not delivered, and so what becomes of it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeliveryError {
    /// A passing failure (network, rate limit, server error): try again later, after `after`
    /// if the platform said how long to wait, else after the dispatcher's back-off.
    #[error("delivery failed, to be retried: {reason}")]
    Retry {
        /// How long the platform asked to wait.
        after: Option<Duration>,
        /// What happened.
        reason: String,
        /// What kind of failure it was (counted by `/metrics`).
        cause: Cause,
    },
    /// The chat is gone, or the bot was removed or blocked: the chat is marked inactive (its
    /// rows wait until someone writes there again) and this row is dropped.
    #[error("the chat is gone: {reason}")]
    Gone {
        /// What the platform said.
        reason: String,
    },
    /// The message no longer applies (a reminder for a turn already played): dropped.
    #[error("the message no longer applies: {reason}")]
    Drop {
        /// Why.
        reason: String,
    },
}

/// What kind of passing failure a [`DeliveryError::Retry`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// The platform asked to slow down (429).
    RateLimited,
    /// The platform failed (5xx, an unreadable answer).
    Server,
    /// No answer, or no connection.
    Network,
    /// The chat moved (Telegram's group became a supergroup): sent again to its new id.
    Moved,
    /// The bot could not prepare the message.
    Internal,
}

/// The object-safe form of [`Deliver`], so that one dispatcher holds deliverers of different
/// types.
trait DynDeliver: Send + Sync {
    fn deliver_boxed<'a>(
        &'a self,
        row: &'a OutboxRow,
    ) -> Pin<Box<dyn Future<Output = Result<Delivered, DeliveryError>> + Send + 'a>>;
}

impl<T: Deliver> DynDeliver for T {
    fn deliver_boxed<'a>(
        &'a self,
        row: &'a OutboxRow,
    ) -> Pin<Box<dyn Future<Output = Result<Delivered, DeliveryError>> + Send + 'a>> {
        Box::pin(self.deliver(row))
    }
}

/// How a [`Dispatcher`] works. The defaults follow the platforms' documented limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DispatchSettings {
    /// How long a claimed row is held before another dispatcher may claim it; a delivery that
    /// takes longer is abandoned (and retried).
    pub lease: Duration,
    /// The most rows in hand at once.
    pub batch: usize,
    /// How often to look for due rows.
    pub poll: Duration,
    /// The least time between two outbox messages of one chat, by platform.
    pub pace: HashMap<Platform, Duration>,
    /// The pace of a platform not in [`DispatchSettings::pace`].
    pub default_pace: Duration,
    /// The wait after a first failure; it doubles with each further one.
    pub backoff_first: Duration,
    /// The longest wait after a failure (unless the platform asks for longer).
    pub backoff_max: Duration,
}

impl Default for DispatchSettings {
    fn default() -> Self {
        DispatchSettings {
            lease: Duration::from_secs(60),
            batch: 32,
            poll: Duration::from_millis(500),
            pace: HashMap::from([
                // Telegram: about 20 messages a minute in a group.
                (Platform::Telegram, Duration::from_secs(3)),
                // Discord: 5 messages per 5 seconds in a channel.
                (Platform::Discord, Duration::from_secs(1)),
                (Platform::Local, Duration::ZERO),
            ]),
            default_pace: Duration::from_secs(1),
            backoff_first: Duration::from_secs(2),
            backoff_max: Duration::from_secs(5 * 60),
        }
    }
}

impl DispatchSettings {
    /// How long a chat waits after a delivery: the platform's pace after a new message; after
    /// an edit that posted nothing (old boards' buttons taken off, a board's page link), at
    /// most a second: Telegram's 20 messages a minute in a group are messages sent, and a 429
    /// for edits, if one comes, is waited out like any other.
    pub fn pace_after(&self, platform: Platform, posted: bool) -> Duration {
        let pace = self.pace_for(platform);
        if posted {
            pace
        } else {
            pace.min(Duration::from_secs(1))
        }
    }

    /// The pace of a platform's chats.
    pub fn pace_for(&self, platform: Platform) -> Duration {
        self.pace
            .get(&platform)
            .copied()
            .unwrap_or(self.default_pace)
    }

    /// The wait before the next attempt after failed attempt number `attempts` (from 1):
    /// `after` if the platform named one, else the back-off, doubled per attempt, capped.
    pub fn backoff(&self, attempts: i64, after: Option<Duration>) -> Duration {
        if let Some(after) = after {
            return after;
        }
        let doublings = u32::try_from(attempts.saturating_sub(1).clamp(0, 30)).unwrap_or(30);
        self.backoff_first
            .saturating_mul(1_u32 << doublings)
            .min(self.backoff_max)
    }
}

/// What became of one claimed row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// Sent and marked.
    Sent,
    /// Failed; to be tried again.
    Retried,
    /// Given up: it no longer applies.
    Dropped,
    /// Given up: the chat is gone (marked inactive).
    Gone,
    /// The lease was lost before the outcome could be recorded (another dispatcher has it).
    Lost,
    /// The outcome could not be recorded (a database failure, logged): the lease expires and
    /// the row is claimed again.
    Unrecorded,
}

/// How many rows of a pass ended how.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Report {
    /// Sent.
    pub sent: usize,
    /// To be retried.
    pub retried: usize,
    /// Dropped (no longer applies).
    pub dropped: usize,
    /// Dropped because the chat is gone.
    pub gone: usize,
    /// Lease lost, or outcome not recorded.
    pub lost: usize,
}

impl Report {
    fn add(&mut self, outcome: Fate) {
        match outcome {
            Fate::Sent => self.sent += 1,
            Fate::Retried => self.retried += 1,
            Fate::Dropped => self.dropped += 1,
            Fate::Gone => self.gone += 1,
            Fate::Lost | Fate::Unrecorded => self.lost += 1,
        }
    }

    /// How many rows the pass handled.
    pub fn total(&self) -> usize {
        self.sent + self.retried + self.dropped + self.gone + self.lost
    }
}

struct Inner {
    store: Store,
    owner: String,
    deliverers: HashMap<Platform, Arc<dyn DynDeliver>>,
    settings: DispatchSettings,
}

/// Delivers the outbox: claims due rows under its owner id, hands each to its platform's
/// [`Deliver`], records the outcome. Cheap to clone (clones share everything).
#[derive(Clone)]
pub struct Dispatcher {
    inner: Arc<Inner>,
}

impl fmt::Debug for Dispatcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Dispatcher")
            .field("owner", &self.inner.owner)
            .field(
                "platforms",
                &self.inner.deliverers.keys().collect::<Vec<_>>(),
            )
            .field("settings", &self.inner.settings)
            .finish_non_exhaustive()
    }
}

/// A fresh owner id for this process: `tabula-` and 16 random hex digits.
pub fn random_owner() -> String {
    use rand::TryRngCore;
    let random = rand::rngs::OsRng.try_next_u64().unwrap_or_else(|_| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_nanos());
        (u64::from(std::process::id()) << 32) ^ u64::try_from(nanos % (1 << 32)).unwrap_or(0)
    });
    format!("tabula-{random:016x}")
}

fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// A builder of [`Dispatcher`]s.
#[derive(Default)]
pub struct DispatcherBuilder {
    owner: Option<String>,
    deliverers: HashMap<Platform, Arc<dyn DynDeliver>>,
    settings: DispatchSettings,
}

impl fmt::Debug for DispatcherBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DispatcherBuilder")
            .field("owner", &self.owner)
            .field("platforms", &self.deliverers.keys().collect::<Vec<_>>())
            .field("settings", &self.settings)
            .finish()
    }
}

impl DispatcherBuilder {
    /// Delivers the rows of `platform` with `deliverer` (replacing any earlier one).
    #[must_use]
    pub fn deliver<D: Deliver + 'static>(mut self, platform: Platform, deliverer: Arc<D>) -> Self {
        self.deliverers.insert(platform, deliverer);
        self
    }

    /// The settings (else the defaults).
    #[must_use]
    pub fn settings(mut self, settings: DispatchSettings) -> Self {
        self.settings = settings;
        self
    }

    /// The owner id its leases carry (else a random one, fresh per process: two dispatchers
    /// must never share one).
    #[must_use]
    pub fn owner(mut self, owner: impl Into<String>) -> Self {
        self.owner = Some(owner.into());
        self
    }

    /// The dispatcher over `store`.
    pub fn build(self, store: Store) -> Dispatcher {
        Dispatcher {
            inner: Arc::new(Inner {
                store,
                owner: self.owner.unwrap_or_else(random_owner),
                deliverers: self.deliverers,
                settings: self.settings,
            }),
        }
    }
}

impl Dispatcher {
    /// A builder: add a deliverer per platform, then [`DispatcherBuilder::build`].
    pub fn builder() -> DispatcherBuilder {
        DispatcherBuilder::default()
    }

    /// The owner id of its leases.
    pub fn owner(&self) -> &str {
        &self.inner.owner
    }

    /// Its settings.
    pub fn settings(&self) -> &DispatchSettings {
        &self.inner.settings
    }

    /// One pass: claims up to a batch of due rows, delivers them concurrently and records the
    /// outcomes; returns when all of them are handled.
    ///
    /// # Errors
    /// A database failure of the claim (failures to record an outcome are logged and counted
    /// as lost: the lease expires and the row is delivered again).
    pub async fn dispatch_once(&self) -> Result<Report, StoreError> {
        let rows = self.claim(self.inner.settings.batch).await?;
        let mut handling = JoinSet::new();
        for row in rows {
            handling.spawn(Self::handle(Arc::clone(&self.inner), row));
        }
        let mut report = Report::default();
        while let Some(done) = handling.join_next().await {
            report.add(done.unwrap_or_else(|error| {
                tracing::error!(%error, "outbox delivery task failed");
                Fate::Unrecorded
            }));
        }
        Ok(report)
    }

    /// Delivers until `shutdown` completes (e.g. a `CancellationToken`'s `cancelled()`): every
    /// poll interval it claims due rows up to the batch size less the rows in hand, and
    /// delivers each in its own task, so a slow chat holds back no other. On shutdown it
    /// claims nothing more, finishes the rows in hand and returns what it did. A failed claim
    /// is logged and tried again at the next poll.
    pub async fn run<F>(&self, shutdown: F) -> Report
    where
        F: Future<Output = ()>,
    {
        let mut report = Report::default();
        let mut in_hand: JoinSet<Fate> = JoinSet::new();
        let mut poll = tokio::time::interval(self.inner.settings.poll);
        poll.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut shutdown = std::pin::pin!(shutdown);
        loop {
            tokio::select! {
                () = &mut shutdown => break,
                Some(done) = in_hand.join_next(), if !in_hand.is_empty() => {
                    report.add(done.unwrap_or_else(|error| {
                        tracing::error!(%error, "outbox delivery task failed");
                        Fate::Unrecorded
                    }));
                }
                _ = poll.tick() => {
                    let room = self.inner.settings.batch.saturating_sub(in_hand.len());
                    if room == 0 {
                        continue;
                    }
                    match self.claim(room).await {
                        Ok(rows) => {
                            for row in rows {
                                in_hand.spawn(Self::handle(Arc::clone(&self.inner), row));
                            }
                        }
                        Err(error) => {
                            tracing::warn!(%error, "cannot claim outbox rows");
                        }
                    }
                }
            }
        }
        while let Some(done) = in_hand.join_next().await {
            report.add(done.unwrap_or(Fate::Unrecorded));
        }
        report
    }

    async fn claim(&self, limit: usize) -> Result<Vec<OutboxRow>, StoreError> {
        self.inner
            .store
            .claim_outbox(
                &self.inner.owner,
                Timestamp::now(),
                millis(self.inner.settings.lease),
                i64::try_from(limit).unwrap_or(i64::MAX),
            )
            .await
    }

    /// Delivers one claimed row and records what happened, in a span naming the row.
    async fn handle(inner: Arc<Inner>, row: OutboxRow) -> Fate {
        use tracing::Instrument;
        let span = tracing::info_span!(
            "outbox",
            row = row.id.0,
            platform = %row.platform,
            chat = row.chat.0,
            kind = %row.kind,
            attempt = row.attempts
        );
        Self::deliver_and_record(inner, row).instrument(span).await
    }

    async fn deliver_and_record(inner: Arc<Inner>, row: OutboxRow) -> Fate {
        let settings = &inner.settings;
        let result = match inner.deliverers.get(&row.platform) {
            None => Err(DeliveryError::Retry {
                after: None,
                reason: format!("no deliverer for platform {}", row.platform),
                cause: Cause::Internal,
            }),
            Some(deliverer) => {
                // Give up a little before the lease ends, so that no other dispatcher sends
                // the row while this one still might.
                let limit = settings.lease.saturating_sub(settings.lease / 10);
                match tokio::time::timeout(limit, deliverer.deliver_boxed(&row)).await {
                    Ok(result) => result,
                    Err(_) => Err(DeliveryError::Retry {
                        after: None,
                        reason: format!("no answer within {} ms", limit.as_millis()),
                        cause: Cause::Network,
                    }),
                }
            }
        };
        crate::metrics::metrics().delivery(
            row.platform.as_str(),
            match &result {
                Ok(_) => Delivery::sent,
                Err(DeliveryError::Gone { .. }) => Delivery::gone,
                Err(DeliveryError::Drop { .. }) => Delivery::refused,
                Err(DeliveryError::Retry { cause, .. }) => match cause {
                    Cause::RateLimited => Delivery::rate_limited,
                    Cause::Server => Delivery::server_error,
                    Cause::Network => Delivery::network,
                    Cause::Internal | Cause::Moved => Delivery::internal,
                },
            },
        );
        let store = &inner.store;
        let owner = inner.owner.as_str();
        let now = Timestamp::now();
        let recorded = match result {
            Ok(delivered) => store
                .outbox_sent(
                    row.id,
                    owner,
                    delivered.message_id.as_deref(),
                    now,
                    millis(settings.pace_after(row.platform, delivered.message_id.is_some())),
                )
                .await
                .map(|held| if held { Fate::Sent } else { Fate::Lost }),
            Err(DeliveryError::Retry { after, reason, .. }) => {
                let wait = settings.backoff(row.attempts, after);
                tracing::warn!(%reason, wait_ms = millis(wait), "outbox delivery failed");
                store
                    .outbox_failed(row.id, owner, now.plus_millis(millis(wait)), &reason)
                    .await
                    .map(|held| if held { Fate::Retried } else { Fate::Lost })
            }
            Err(DeliveryError::Drop { reason }) => store
                .outbox_drop(row.id, owner, &reason)
                .await
                .map(|held| if held { Fate::Dropped } else { Fate::Lost }),
            Err(DeliveryError::Gone { reason }) => {
                tracing::info!(%reason, "chat gone: marked inactive");
                // A private ping or reminder refused for good (the person never started the
                // bot, or closed direct messages): the person is marked, and the game's chat
                // told once how to turn pings on.
                if (row.payload.starts_with("{\"ping\":")
                    || row.payload.contains("\"private\":true"))
                    && let Err(error) = store.ping_refused(&row, now).await
                {
                    tracing::error!(error = %error, "cannot record a refused private ping");
                }
                match store.set_chat_inactive(row.chat, true, now).await {
                    Ok(()) => store
                        .outbox_drop(row.id, owner, &reason)
                        .await
                        .map(|held| if held { Fate::Gone } else { Fate::Lost }),
                    Err(error) => Err(error),
                }
            }
        };
        recorded.unwrap_or_else(|error| {
            tracing::error!(error = %error, "cannot record an outbox outcome");
            Fate::Unrecorded
        })
    }
}
