//! Storage: the database is the source of truth for users, chats, challenges, games, seats and
//! the append-only action log.
//!
//! One interface, [`Store`], with two implementations chosen by the URL scheme at
//! [`Store::connect`]: SQLite ([`SqliteStore`], `sqlite://path` or `sqlite::memory:`) and
//! PostgreSQL ([`PostgresStore`], `postgres://...`). Both run the versioned migrations of
//! `migrations/sqlite` and `migrations/postgres` (same version numbers) when they connect, and
//! both pass the one conformance suite in `service/tests/suite/store_conformance.rs`.
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
//! back), `errors`, `rows` (how rows decode), `executor`, `requests` (request keys);
//! `boards`, `chat_moves`, `community`, `ledger` (money) and `outbox` hold their statements
//! and the operations of [`Store`] that run them, as does `invitations` for usernames. Not yet
//! converted: `sql` (people, chats, challenges, games) and the acceptances and joins of
//! `invitations` hold statements and, in `macro_rules!` bodies, the code both backends run,
//! expanded in `sqlite` and `postgres`, reached through `facade` (forwarding methods by
//! concern); they call the ledger through forwarding methods on the backend types and
//! `executor::TxRef`, a transaction lent from their own. Times, ids and the
//! closed sets stored as text are the crate's `values`.
//!
//! The migrations are embedded at compile time by `sqlx::migrate!`; the SQL files are tracked
//! by the compiler, but a *new* migration file is only picked up when this crate recompiles.

mod boards;
mod chat_moves;
mod community;
mod errors;
mod executor;
mod invitations;
mod ledger;
mod outbox;
mod postgres;
mod records;
mod requests;
mod rows;
mod sql;
mod sqlite;
mod url;

pub use boards::PostedBoard;
pub use postgres::PostgresStore;
pub use sqlite::SqliteStore;

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

macro_rules! dispatch {
    ($self:ident, $store:ident => $body:expr) => {
        match $self {
            Store::Sqlite($store) => $body,
            Store::Postgres($store) => $body,
        }
    };
}

mod facade;

impl Store {
    /// Opens the database the URL names (`sqlite://path`, `sqlite::memory:`, `postgres://...`)
    /// and applies the pending migrations. A SQLite file is created if missing.
    ///
    /// # Errors
    /// An unsupported scheme, an unreachable or refusing server, or a failed migration.
    pub async fn connect(url: &DatabaseUrl) -> Result<Store, StoreError> {
        match url.backend()? {
            Backend::Sqlite => SqliteStore::connect(url).await.map(Store::Sqlite),
            Backend::Postgres => PostgresStore::connect(url).await.map(Store::Postgres),
        }
    }

    /// Which database this is.
    pub fn backend(&self) -> Backend {
        match self {
            Store::Sqlite(_) => Backend::Sqlite,
            Store::Postgres(_) => Backend::Postgres,
        }
    }

    /// Closes every connection; later calls fail.
    pub async fn close(&self) {
        dispatch!(self, store => store.close().await)
    }

    /// The latest migration version applied.
    ///
    /// # Errors
    /// A database failure.
    pub async fn schema_version(&self) -> Result<i64, StoreError> {
        dispatch!(self, store => store.schema_version().await)
    }
}
