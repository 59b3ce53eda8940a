//! What an operator watches (issue 40): `GET /healthz`, `GET /readyz` and `GET /metrics` on
//! `tabula run`'s one listener, in every mode.
//!
//! - `/healthz` is 200 while the process runs.
//! - `/readyz` is 200 only when the database answers (within [`DATABASE_LIMIT`]) and every
//!   configured platform is connected ([`Link`]); otherwise 503 with a short JSON body naming
//!   what is down. From the moment a shutdown begins it is 503, while the listener still
//!   answers, so that a load balancer stops sending first.
//! - `/metrics` is the process's counters ([`tabula_service::metrics`]) with the outbox and the
//!   games in progress read from the database at the scrape.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};
use tabula_service::metrics::{CONTENT_TYPE, metrics};
use tabula_service::store::{Store, Timestamp};

/// How long `/readyz` and `/metrics` wait for the database.
pub const DATABASE_LIMIT: Duration = Duration::from_secs(2);

/// How long a platform reached by heartbeats (Telegram's long polls, or its probe in webhook
/// mode) may go without one before it counts as down.
pub const HEARTBEAT_WINDOW: Duration = Duration::from_secs(30);

/// How one platform's connection is known to be up.
#[derive(Debug)]
enum Liveness {
    /// Always, once configured (Discord's HTTP interactions: Discord calls us).
    Configured,
    /// By heartbeats: up while the last one succeeded and one succeeded within the window.
    Beats {
        last_ok: Option<Instant>,
        failing: Option<String>,
    },
    /// By gateway shards: up while every expected shard is connected.
    Shards {
        expected: Option<BTreeSet<u32>>,
        connected: BTreeSet<u32>,
    },
}

/// One platform's connection, as its receiver reports it.
#[derive(Debug, Clone)]
pub struct Link {
    name: &'static str,
    state: Arc<Mutex<Liveness>>,
}

impl Link {
    fn new(name: &'static str, liveness: Liveness) -> Link {
        Link {
            name,
            state: Arc::new(Mutex::new(liveness)),
        }
    }

    /// A platform that is up as soon as it is configured.
    pub fn configured(name: &'static str) -> Link {
        Link::new(name, Liveness::Configured)
    }

    /// A platform known by heartbeats; down until the first.
    pub fn beats(name: &'static str) -> Link {
        Link::new(
            name,
            Liveness::Beats {
                last_ok: None,
                failing: None,
            },
        )
    }

    /// A gateway of shards: `expected` when known (a range), else learned from the first
    /// shard's `READY` ([`Link::shards_total`]).
    pub fn shards(name: &'static str, expected: Option<std::ops::Range<u32>>) -> Link {
        Link::new(
            name,
            Liveness::Shards {
                expected: expected.map(Iterator::collect),
                connected: BTreeSet::new(),
            },
        )
    }

    /// A heartbeat succeeded.
    pub fn beat(&self) {
        if let Ok(mut state) = self.state.lock()
            && let Liveness::Beats { last_ok, failing } = &mut *state
        {
            *last_ok = Some(Instant::now());
            *failing = None;
        }
    }

    /// A heartbeat failed: down until the next success.
    pub fn beat_failed(&self, why: impl Into<String>) {
        if let Ok(mut state) = self.state.lock()
            && let Liveness::Beats { failing, .. } = &mut *state
        {
            *failing = Some(why.into());
        }
    }

    /// A shard connected (`true`) or left the connected stage.
    pub fn shard(&self, id: u32, connected_now: bool) {
        if let Ok(mut state) = self.state.lock()
            && let Liveness::Shards { connected, .. } = &mut *state
        {
            if connected_now {
                connected.insert(id);
            } else {
                connected.remove(&id);
            }
        }
    }

    /// The shards connected now (the others are not).
    pub fn connected_shards(&self, now: &BTreeSet<u32>) {
        if let Ok(mut state) = self.state.lock()
            && let Liveness::Shards { connected, .. } = &mut *state
        {
            connected.clone_from(now);
        }
    }

    /// The gateway said how many shards there are (autosharding): all of them are expected.
    pub fn shards_total(&self, total: u32) {
        if let Ok(mut state) = self.state.lock()
            && let Liveness::Shards { expected, .. } = &mut *state
            && expected.is_none()
        {
            *expected = Some((0..total).collect());
        }
    }

    /// `None` when up, else why not.
    fn down(&self) -> Option<String> {
        let Ok(state) = self.state.lock() else {
            return Some("unknown".into());
        };
        match &*state {
            Liveness::Configured => None,
            Liveness::Beats { last_ok, failing } => match (last_ok, failing) {
                (_, Some(why)) => Some(why.clone()),
                (None, None) => Some("not connected yet".into()),
                (Some(at), None) if at.elapsed() > HEARTBEAT_WINDOW => {
                    Some(format!("no answer for {} s", at.elapsed().as_secs()))
                }
                (Some(_), None) => None,
            },
            Liveness::Shards {
                expected,
                connected,
            } => match expected {
                None => Some("no shard connected yet".into()),
                Some(expected) => {
                    let missing: Vec<String> = expected
                        .difference(connected)
                        .map(ToString::to_string)
                        .collect();
                    (!missing.is_empty())
                        .then(|| format!("shards not connected: {}", missing.join(", ")))
                }
            },
        }
    }
}

/// The process's health: its platforms' links, its database, and whether it is stopping.
#[derive(Debug)]
pub struct Health {
    store: Store,
    links: Mutex<Vec<Link>>,
    stopping: AtomicBool,
}

impl Health {
    /// The health of a process on `store`, with no platform yet.
    pub fn new(store: Store) -> Arc<Health> {
        Arc::new(Health {
            store,
            links: Mutex::new(Vec::new()),
            stopping: AtomicBool::new(false),
        })
    }

    /// Adds a platform's link (its receiver reports to it).
    pub fn add(&self, link: &Link) {
        if let Ok(mut links) = self.links.lock() {
            links.push(link.clone());
        }
    }

    /// A shutdown began: `/readyz` is 503 from now on.
    pub fn stopping(&self) {
        self.stopping.store(true, Ordering::SeqCst);
    }

    /// Whether the process is ready, and what each part says (`"ok"` or why not).
    pub async fn readiness(&self) -> (bool, Map<String, Value>) {
        let mut parts = Map::new();
        let database = self.store.ping(DATABASE_LIMIT).await;
        parts.insert(
            "database".into(),
            Value::from(if database {
                "ok"
            } else {
                "no answer within 2 s"
            }),
        );
        let links = self.links.lock().map(|l| l.clone()).unwrap_or_default();
        let mut platforms = Vec::new();
        for link in &links {
            let down = link.down();
            platforms.push((link.name, down.is_none()));
            parts.insert(
                link.name.into(),
                Value::from(down.unwrap_or_else(|| "ok".into())),
            );
        }
        let stopping = self.stopping.load(Ordering::SeqCst);
        if stopping {
            parts.insert("process".into(), Value::from("shutting down"));
        }
        let ready = database && !stopping && platforms.iter().all(|(_, up)| *up);
        metrics().readiness(database, &platforms, ready);
        (ready, parts)
    }
}

/// The routes `/healthz`, `/readyz` and `/metrics`.
pub fn routes(health: &Arc<Health>) -> axum::Router {
    let ready = Arc::clone(health);
    let scrape = Arc::clone(health);
    axum::Router::new()
        .route("/healthz", axum::routing::get(|| async { "ok\n" }))
        .route(
            "/readyz",
            axum::routing::get(move || {
                let health = Arc::clone(&ready);
                async move { readyz(&health).await }
            }),
        )
        .route(
            "/metrics",
            axum::routing::get(move || {
                let health = Arc::clone(&scrape);
                async move { metrics_text(&health).await }
            }),
        )
}

async fn readyz(health: &Health) -> Response {
    let (ready, parts) = health.readiness().await;
    let status = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let mut body = json!({ "ready": ready });
    if let Value::Object(object) = &mut body {
        object.extend(parts);
    }
    (status, axum::Json(body)).into_response()
}

async fn metrics_text(health: &Health) -> Response {
    // The database's numbers as of now; when it does not answer, the last ones stay (and
    // `tabula_database_up` says so).
    let snapshot = tokio::time::timeout(DATABASE_LIMIT, health.store.gauges()).await;
    match snapshot {
        Ok(Ok(snapshot)) => {
            let oldest = snapshot.outbox_oldest.map_or(Duration::ZERO, |at| {
                let age = Timestamp::now().0.saturating_sub(at.0);
                Duration::from_millis(u64::try_from(age).unwrap_or(0))
            });
            metrics().outbox(snapshot.outbox_waiting, oldest);
            let counts: Vec<(&str, i64)> = tabula_core::GameId::ALL
                .iter()
                .map(|game| {
                    let count = snapshot
                        .games_in_progress
                        .iter()
                        .find(|(name, _)| name == game.as_str())
                        .map_or(0, |(_, count)| *count);
                    (game.as_str(), count)
                })
                .collect();
            metrics().games_in_progress(&counts);
        }
        Ok(Err(error)) => {
            tracing::warn!(error = %tabula_service::service::error_chain(&error), "metrics: cannot read the outbox and games");
        }
        Err(_) => tracing::warn!("metrics: the database did not answer within 2 s"),
    }
    let _ = health.readiness().await;
    ([(header::CONTENT_TYPE, CONTENT_TYPE)], metrics().encode()).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn readiness_names_what_is_down_and_a_shutdown_turns_it_off() {
        let url = tabula_service::store::DatabaseUrl::new("sqlite::memory:");
        let store = Store::connect(&url).await.expect("an in-memory database");
        let health = Health::new(store.clone());
        let telegram = Link::beats("telegram");
        health.add(&telegram);
        let (ready, parts) = health.readiness().await;
        assert!(!ready, "not ready before the first long poll");
        assert_eq!(parts["database"], "ok");
        assert_ne!(parts["telegram"], "ok");
        telegram.beat();
        assert!(health.readiness().await.0);
        health.stopping();
        let (ready, parts) = health.readiness().await;
        assert!(!ready, "a shutdown turns readiness off first");
        assert_eq!(parts["process"], "shutting down");
        store.close().await;
        let (ready, parts) = health.readiness().await;
        assert!(!ready);
        assert_ne!(parts["database"], "ok");
    }

    #[test]
    fn a_heartbeat_link_is_down_until_its_first_beat_and_after_a_failure() {
        let link = Link::beats("telegram");
        assert!(link.down().is_some());
        link.beat();
        assert_eq!(link.down(), None);
        link.beat_failed("getUpdates failed");
        assert_eq!(link.down().as_deref(), Some("getUpdates failed"));
        link.beat();
        assert_eq!(link.down(), None);
    }

    #[test]
    fn a_gateway_is_up_when_every_expected_shard_is_connected() {
        let link = Link::shards("discord", None);
        assert!(link.down().is_some());
        link.shards_total(2);
        link.shard(0, true);
        assert!(link.down().is_some_and(|why| why.contains('1')));
        link.shard(1, true);
        assert_eq!(link.down(), None);
        link.shard(0, false);
        assert!(link.down().is_some());
        let range = Link::shards("discord", Some(2..4));
        range.shard(2, true);
        range.shard(3, true);
        range.shards_total(8);
        assert_eq!(range.down(), None);
    }
}
