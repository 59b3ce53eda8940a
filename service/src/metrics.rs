//! The bot's own numbers, kept for Prometheus (issue 40): one registry for the process, which
//! the service, the store and the dispatcher count into and `tabula run` serves at `/metrics`
//! in the Prometheus text format (the `prometheus-client` crate writes it).
//!
//! Every name starts with `tabula_`; counters end in `_total` and durations in `_seconds`
//! (the crate adds both). `docs/operations.md` lists them with alert rules.

use std::sync::LazyLock;
use std::sync::atomic::AtomicU64;
use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::{Registry, Unit};

/// The labels of an update received from a platform.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct UpdateLabels {
    platform: String,
    kind: String,
}

/// The labels of a request the service answered.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    command: String,
    outcome: Outcome,
}

/// The labels of a request's time to its reply.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ReplyLabels {
    platform: String,
    input: String,
}

/// A game's label.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct GameLabels {
    game: String,
}

/// The labels of an outbox delivery.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct DeliveryLabels {
    platform: String,
    result: Delivery,
}

/// A transaction's label: the store operation that ran it.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct TransactionLabels {
    operation: String,
}

/// A platform's label.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct PlatformLabels {
    platform: String,
}

/// The build's labels.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct BuildLabels {
    version: String,
}

/// How a request ended.
#[derive(
    Clone, Copy, Debug, Hash, PartialEq, Eq, prometheus_client::encoding::EncodeLabelValue,
)]
#[allow(non_camel_case_types)]
pub enum Outcome {
    /// It did what was asked.
    done,
    /// It was refused (a mistake of the person's, a duplicate).
    refused,
    /// It failed inside the bot.
    failed,
}

/// What became of one outbox delivery.
#[derive(
    Clone, Copy, Debug, Hash, PartialEq, Eq, prometheus_client::encoding::EncodeLabelValue,
)]
#[allow(non_camel_case_types)]
pub enum Delivery {
    /// The platform took it.
    sent,
    /// The platform asked to slow down (HTTP 429).
    rate_limited,
    /// The chat is gone, or the bot may not write there (403, 404): dropped.
    gone,
    /// The platform refused the message itself (another 4xx): dropped.
    refused,
    /// The platform failed (5xx): tried again.
    server_error,
    /// No answer, or no connection: tried again.
    network,
    /// The bot itself could not prepare it: tried again.
    internal,
}

/// Durations of requests and transactions, in seconds: from 5 ms to 10 s.
const FAST_BUCKETS: [f64; 12] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

/// Durations of the computer's moves, in seconds: from 10 ms to a minute.
const COMPUTER_BUCKETS: [f64; 11] = [0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0];

fn fast_histogram() -> Histogram {
    Histogram::new(FAST_BUCKETS)
}

fn computer_histogram() -> Histogram {
    Histogram::new(COMPUTER_BUCKETS)
}

/// The process's metrics.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    updates: Family<UpdateLabels, Counter>,
    requests: Family<RequestLabels, Counter>,
    replies: Family<ReplyLabels, Histogram, fn() -> Histogram>,
    moves: Family<GameLabels, Counter>,
    deliveries: Family<DeliveryLabels, Counter>,
    computer: Family<GameLabels, Histogram, fn() -> Histogram>,
    transactions: Family<TransactionLabels, Histogram, fn() -> Histogram>,
    outbox_waiting: Gauge,
    outbox_oldest: Gauge<f64, AtomicU64>,
    games_in_progress: Family<GameLabels, Gauge>,
    platform_up: Family<PlatformLabels, Gauge>,
    database_up: Gauge,
    ready: Gauge,
}

static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);

/// The process's metrics.
pub fn metrics() -> &'static Metrics {
    &METRICS
}

impl Metrics {
    fn new() -> Metrics {
        let mut registry = Registry::with_prefix("tabula");
        let updates = Family::<UpdateLabels, Counter>::default();
        registry.register(
            "updates_received",
            "Updates received from a chat platform, by platform and kind",
            updates.clone(),
        );
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "requests",
            "Commands and button presses handled, by command and outcome (done, refused, failed)",
            requests.clone(),
        );
        let replies = Family::<ReplyLabels, Histogram, fn() -> Histogram>::new_with_constructor(
            fast_histogram,
        );
        registry.register_with_unit(
            "reply_duration",
            "Time from a command or button press reaching the service to its reply being ready",
            Unit::Seconds,
            replies.clone(),
        );
        let moves = Family::<GameLabels, Counter>::default();
        registry.register("moves", "Moves and rolls stored, by game", moves.clone());
        let deliveries = Family::<DeliveryLabels, Counter>::default();
        registry.register(
            "deliveries",
            "Outbox deliveries by platform and result (sent, rate_limited, gone, refused, \
             server_error, network, internal)",
            deliveries.clone(),
        );
        let computer = Family::<GameLabels, Histogram, fn() -> Histogram>::new_with_constructor(
            computer_histogram,
        );
        registry.register_with_unit(
            "computer_move_duration",
            "Time the computer took to choose a move, by game",
            Unit::Seconds,
            computer.clone(),
        );
        let transactions =
            Family::<TransactionLabels, Histogram, fn() -> Histogram>::new_with_constructor(
                fast_histogram,
            );
        registry.register_with_unit(
            "database_transaction_duration",
            "Time from a database transaction's start to its commit, by store operation",
            Unit::Seconds,
            transactions.clone(),
        );
        let outbox_waiting = Gauge::default();
        registry.register(
            "outbox_waiting_messages",
            "Outbox messages not yet delivered (as of the last scrape)",
            outbox_waiting.clone(),
        );
        let outbox_oldest = Gauge::<f64, AtomicU64>::default();
        registry.register_with_unit(
            "outbox_oldest_age",
            "Age of the oldest outbox message not yet delivered (0 when none waits)",
            Unit::Seconds,
            outbox_oldest.clone(),
        );
        let games_in_progress = Family::<GameLabels, Gauge>::default();
        registry.register(
            "games_in_progress",
            "Games being played, by game",
            games_in_progress.clone(),
        );
        let platform_up = Family::<PlatformLabels, Gauge>::default();
        registry.register(
            "platform_up",
            "1 when the platform is connected (what /readyz checks), else 0",
            platform_up.clone(),
        );
        let database_up = Gauge::default();
        registry.register(
            "database_up",
            "1 when the database answered the last readiness check, else 0",
            database_up.clone(),
        );
        let ready = Gauge::default();
        registry.register("ready", "1 when /readyz answers 200, else 0", ready.clone());
        let build = Family::<BuildLabels, Gauge>::default();
        build
            .get_or_create(&BuildLabels {
                version: env!("CARGO_PKG_VERSION").to_string(),
            })
            .set(1);
        registry.register(
            "build_info",
            "The build: always 1, labelled with its version",
            build,
        );
        Metrics {
            registry,
            updates,
            requests,
            replies,
            moves,
            deliveries,
            computer,
            transactions,
            outbox_waiting,
            outbox_oldest,
            games_in_progress,
            platform_up,
            database_up,
            ready,
        }
    }

    /// An update arrived from `platform` (`kind`: message, command, button, …).
    pub fn update_received(&self, platform: &str, kind: &str) {
        self.updates
            .get_or_create(&UpdateLabels {
                platform: platform.to_string(),
                kind: kind.to_string(),
            })
            .inc();
    }

    /// A request was answered: its command (or `button`), outcome and time to the reply.
    pub fn request(&self, platform: &str, command: &str, outcome: Outcome, took: Duration) {
        self.requests
            .get_or_create(&RequestLabels {
                command: command.to_string(),
                outcome,
            })
            .inc();
        let input = if command == "button" {
            "button"
        } else {
            "command"
        };
        self.replies
            .get_or_create(&ReplyLabels {
                platform: platform.to_string(),
                input: input.to_string(),
            })
            .observe(took.as_secs_f64());
    }

    /// Moves or rolls were stored in a game.
    pub fn moves(&self, game: &str, count: u64) {
        self.moves
            .get_or_create(&GameLabels {
                game: game.to_string(),
            })
            .inc_by(count);
    }

    /// An outbox delivery ended.
    pub fn delivery(&self, platform: &str, result: Delivery) {
        self.deliveries
            .get_or_create(&DeliveryLabels {
                platform: platform.to_string(),
                result,
            })
            .inc();
    }

    /// The computer chose a move.
    pub fn computer_move(&self, game: &str, took: Duration) {
        self.computer
            .get_or_create(&GameLabels {
                game: game.to_string(),
            })
            .observe(took.as_secs_f64());
    }

    /// A transaction committed.
    pub fn transaction(&self, operation: &str, took: Duration) {
        self.transactions
            .get_or_create(&TransactionLabels {
                operation: operation.to_string(),
            })
            .observe(took.as_secs_f64());
    }

    /// The outbox as of now: how many wait and the oldest's age.
    pub fn outbox(&self, waiting: i64, oldest: Duration) {
        self.outbox_waiting.set(waiting);
        self.outbox_oldest.set(oldest.as_secs_f64());
    }

    /// The games being played as of now, by game (every game named, zero included).
    pub fn games_in_progress(&self, counts: &[(&str, i64)]) {
        for (game, count) in counts {
            self.games_in_progress
                .get_or_create(&GameLabels {
                    game: (*game).to_string(),
                })
                .set(*count);
        }
    }

    /// What the last readiness check found.
    pub fn readiness(&self, database: bool, platforms: &[(&str, bool)], ready: bool) {
        self.database_up.set(i64::from(database));
        for (platform, up) in platforms {
            self.platform_up
                .get_or_create(&PlatformLabels {
                    platform: (*platform).to_string(),
                })
                .set(i64::from(*up));
        }
        self.ready.set(i64::from(ready));
    }

    /// The metrics in the Prometheus text format (version 0.0.4).
    pub fn encode(&self) -> String {
        let mut text = String::new();
        if let Err(error) =
            prometheus_client::encoding::prometheus_text::encode(&mut text, &self.registry)
        {
            tracing::error!(%error, "cannot write the metrics");
        }
        text
    }
}

/// The `Content-Type` of [`Metrics::encode`]'s text.
pub const CONTENT_TYPE: &str = prometheus_client::encoding::prometheus_text::CONTENT_TYPE;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_prometheus_conventions() {
        let metrics = Metrics::new();
        metrics.request("telegram", "play", Outcome::done, Duration::from_millis(12));
        metrics.delivery("discord", Delivery::rate_limited);
        metrics.moves("konane", 2);
        let text = metrics.encode();
        for line in text.lines().filter(|l| l.starts_with("# TYPE ")) {
            let mut words = line.split_whitespace().skip(2);
            let (name, kind) = (
                words.next().unwrap_or_default(),
                words.next().unwrap_or_default(),
            );
            assert!(name.starts_with("tabula_"), "{line}");
            match kind {
                "counter" => assert!(name.ends_with("_total"), "{line}"),
                "histogram" => assert!(name.ends_with("_seconds"), "{line}"),
                "gauge" => {}
                other => panic!("unexpected type {other}: {line}"),
            }
        }
        assert!(
            text.contains("tabula_requests_total{command=\"play\",outcome=\"done\"} 1"),
            "{text}"
        );
        assert!(
            text.contains("tabula_reply_duration_seconds_bucket{platform=\"telegram\",input=\"command\",le=\"0.025\"} 1"),
            "{text}"
        );
        assert!(
            text.contains(
                "tabula_deliveries_total{platform=\"discord\",result=\"rate_limited\"} 1"
            ),
            "{text}"
        );
        assert!(
            text.contains("tabula_moves_total{game=\"konane\"} 2"),
            "{text}"
        );
        assert!(text.contains("tabula_build_info{version="), "{text}");
    }
}
