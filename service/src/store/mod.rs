//! Storage: the database is the source of truth for users, chats, challenges, games, seats and
//! the append-only action log.
//!
//! One interface, [`Store`], with two implementations chosen by the URL scheme at
//! [`Store::connect`]: SQLite ([`SqliteStore`], `sqlite://path` or `sqlite::memory:`) and
//! PostgreSQL ([`PostgresStore`], `postgres://...`). Both run the versioned migrations of
//! `migrations/sqlite` and `migrations/postgres` (same version numbers) when they connect, and
//! both pass the one conformance suite in `service/tests/suite/store_conformance/`.
//!
//! Races are settled by the database, never by an in-process lock: a game row carries `seq`, the
//! number of actions in its log, and [`Store::append_actions`] only writes when `seq` is still
//! what the caller replayed (a compare-and-set in one transaction, backed by the unique
//! `(game, seq)` key of the log); a challenge leaves `pending` by a compare-and-set too. What
//! the database refuses is a [`Conflict`] (expected, caused by users racing or repeating
//! themselves), kept apart from real failures in [`StoreError`].
//!
//! Times are UTC Unix milliseconds ([`Timestamp`]), stored as 64-bit integers in both databases
//! so that the SQL and the decoding are the same for both. Bookkeeping stamps (`created_at`,
//! `updated_at`, the time of an action) come from the store's clock; where time decides an
//! outcome (a challenge's expiry) the caller passes `now`, so that tests can pin it.
//!
//! Queries are plain statements with binds (no compile-time checked macros, so no database
//! is needed to build), which both dialects accept (sqlx binds `$1` placeholders on SQLite
//! too). They run through `executor`: a transaction over either backend (`Store::begin_read`,
//! `Store::begin_write`, each the backend's own way to begin) and a query builder shaped
//! like sqlx's, so one body of code serves both backends; where they differ (the claims of the
//! scheduler and the outbox, locking accounts) a `match` on the backend picks the statement. Each
//! backend module holds only what differs: connecting, and how transactions begin.
//!
//! Files: `url` (the database URL and backend), `records` (what callers write and read
//! back), `errors`, `rows` (how rows decode), `executor`, `requests` (request keys); then one
//! file per concern, each holding its statements and the operations of [`Store`] that run
//! them, as plain functions: `people` (users, usernames, chats), `challenges`, `games`,
//! `boards`, `chat_moves`, `community` (settings, vacations, the scheduler's claims), `ledger`
//! (money) and `outbox`. Times, ids and the closed sets stored as text are the crate's
//! `values`.
//!
//! The migrations are embedded at compile time by `sqlx::migrate!`; the SQL files are tracked
//! by the compiler, but a *new* migration file is only picked up when this crate recompiles.

mod boards;
mod challenges;
mod chat_moves;
mod community;
mod errors;
mod executor;
mod games;
mod ledger;
mod links;
mod notify;
mod offers;
mod operations;
mod outbox;
mod pages;
mod people;
mod postgres;
mod ratings;
mod records;
mod requests;
mod rows;
mod seasons;
mod sqlite;
mod threads;
mod url;

pub use boards::{BoardPosted, PostedBoard};
pub use links::LinkClaim;
pub use notify::{NotifyPlace, NotifySettings, Quiet};
pub use offers::{Offer, OfferKind, Offered, TakeBack, TakenBack};
pub use operations::{Gauges, MigrateOnStart, MigrationInfo, MigrationStatus};
pub use postgres::PostgresStore;
pub use ratings::{FinishedGame, RatingReset, RatingShown};
pub use seasons::{NewSeason, Season, SeasonStatus};
pub use sqlite::SqliteStore;
pub use threads::ThreadState;

pub use crate::values::*;
pub use errors::*;
pub use records::*;
pub use url::*;

use errors::{db, is_foreign_key_violation};
use rows::*;

/// The storage: SQLite or PostgreSQL, opened by [`Store::connect`].
#[derive(Debug, Clone)]
pub enum Store {
    /// A SQLite file (or memory) database.
    Sqlite(SqliteStore),
    /// A PostgreSQL database.
    Postgres(PostgresStore),
}

impl Store {
    /// Opens the database the URL names (`sqlite://path`, `sqlite::memory:`, `postgres://...`)
    /// and applies the pending migrations. A SQLite file is created if missing.
    ///
    /// # Errors
    /// An unsupported scheme, an unreachable or refusing server, or a failed migration.
    pub async fn connect(url: &DatabaseUrl) -> Result<Store, StoreError> {
        Store::connect_with(url, MigrateOnStart::Apply).await
    }

    /// Which database this is.
    pub fn backend(&self) -> Backend {
        match self {
            Store::Sqlite(_) => Backend::Sqlite,
            Store::Postgres(_) => Backend::Postgres,
        }
    }
}
