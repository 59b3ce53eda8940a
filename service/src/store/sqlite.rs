//! The SQLite implementation: a file in WAL mode (readers never wait for the writer), or a
//! shared in-memory database held by a single connection.
//!
//! SQLite has one writer at a time. Every transaction that writes starts with
//! `BEGIN IMMEDIATE`, so it takes the write lock before it reads and waits (up to the busy
//! timeout) instead of failing when another connection writes; the compare-and-set on `seq`
//! then sees the latest committed state.

use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Sqlite, SqlitePool, Transaction};

use super::{Backend, DatabaseUrl, StoreError, db};

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations/sqlite");

/// This binary's migrations for SQLite.
pub(super) fn migrator() -> &'static sqlx::migrate::Migrator {
    &MIGRATOR
}

/// How long a connection waits for another one's write lock before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// Connections to a database file: one writes at a time, the others read.
const FILE_CONNECTIONS: u32 = 4;

/// A SQLite database.
#[derive(Debug, Clone)]
pub struct SqliteStore {
    pub(super) pool: SqlitePool,
}

impl SqliteStore {
    /// Opens (creating if needed) the database of a `sqlite:` URL and migrates it.
    ///
    /// # Errors
    /// A malformed URL, a file that cannot be opened, or a failed migration.
    pub async fn connect(url: &DatabaseUrl) -> Result<SqliteStore, StoreError> {
        let store = SqliteStore::open(url).await?;
        MIGRATOR
            .run(&store.pool)
            .await
            .map_err(|source| StoreError::Migrate {
                backend: Backend::Sqlite,
                source,
            })?;
        Ok(store)
    }

    /// Opens (creating if needed) the database of a `sqlite:` URL, without migrating it.
    ///
    /// # Errors
    /// A malformed URL, or a file that cannot be opened.
    pub async fn open(url: &DatabaseUrl) -> Result<SqliteStore, StoreError> {
        let connect_error = |source| StoreError::Connect {
            backend: Backend::Sqlite,
            source,
        };
        let options = SqliteConnectOptions::from_str(url.expose_secret())
            .map_err(connect_error)?
            .create_if_missing(true)
            .foreign_keys(true)
            .busy_timeout(BUSY_TIMEOUT);
        let in_memory =
            url.expose_secret().contains(":memory:") || url.expose_secret().contains("mode=memory");
        let pool = if in_memory {
            // A shared in-memory database lives as long as one connection to it: keep exactly
            // one, forever, which also serialises every statement.
            SqlitePoolOptions::new()
                .max_connections(1)
                .min_connections(1)
                .idle_timeout(None)
                .max_lifetime(None)
                .connect_with(options)
                .await
        } else {
            SqlitePoolOptions::new()
                .max_connections(FILE_CONNECTIONS)
                .connect_with(
                    options
                        .journal_mode(SqliteJournalMode::Wal)
                        .synchronous(SqliteSynchronous::Normal),
                )
                .await
        }
        .map_err(connect_error)?;
        Ok(SqliteStore { pool })
    }

    /// Opens an existing database file read-only, its journal mode untouched (a backup's copy
    /// is checked so, and stays one self-contained file).
    ///
    /// # Errors
    /// A file that cannot be opened.
    pub(super) async fn open_read_only(file: &std::path::Path) -> Result<SqliteStore, StoreError> {
        let options = SqliteConnectOptions::new()
            .filename(file)
            .read_only(true)
            .create_if_missing(false);
        SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options)
            .await
            .map(|pool| SqliteStore { pool })
            .map_err(|source| StoreError::Connect {
                backend: Backend::Sqlite,
                source,
            })
    }

    /// Starts a transaction that reads one consistent snapshot (SQLite's deferred transaction
    /// in WAL mode keeps the snapshot of its first read).
    pub(super) async fn begin_read(
        &self,
        operation: &'static str,
    ) -> Result<Transaction<'static, Sqlite>, StoreError> {
        self.pool.begin().await.map_err(db(operation))
    }

    /// Starts a transaction holding the write lock.
    pub(super) async fn begin_write(
        &self,
        operation: &'static str,
    ) -> Result<Transaction<'static, Sqlite>, StoreError> {
        self.pool
            .begin_with("BEGIN IMMEDIATE")
            .await
            .map_err(db(operation))
    }
}
