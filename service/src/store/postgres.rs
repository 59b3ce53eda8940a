//! The PostgreSQL implementation.
//!
//! Writes run at READ COMMITTED: each compare-and-set is one `UPDATE ... WHERE seq = $expected`
//! (or `status = 'pending'`), which locks the row and, when another transaction changed it
//! first, waits for that one to commit and re-checks its condition against the new row; so of
//! two racing writers exactly one matches, and the other is told why. A request key is
//! inserted first, so a re-delivered request waits for the first delivery and is then refused
//! as a duplicate. Lists that need several statements (games and their seats) run in one
//! REPEATABLE READ transaction, so that they are of the same moment; a single game is loaded
//! without one, since its log is append-only and is read up to the `seq` read with its record.

use std::str::FromStr;

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{PgPool, Postgres, Transaction};

use super::{Backend, DatabaseUrl, StoreError, db};

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations/postgres");

/// This binary's migrations for PostgreSQL.
pub(super) fn migrator() -> &'static sqlx::migrate::Migrator {
    &MIGRATOR
}

/// The most connections the store opens.
const MAX_CONNECTIONS: u32 = 16;

/// How long a request waits for a connection before it fails.
const ACQUIRE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(3);

/// A PostgreSQL database.
#[derive(Debug, Clone)]
pub struct PostgresStore {
    pub(super) pool: PgPool,
}

impl PostgresStore {
    /// Connects to the database of a `postgres:` URL and migrates it.
    ///
    /// # Errors
    /// A malformed URL, an unreachable or refusing server, or a failed migration.
    pub async fn connect(url: &DatabaseUrl) -> Result<PostgresStore, StoreError> {
        let store = PostgresStore::open(url).await?;
        MIGRATOR
            .run(&store.pool)
            .await
            .map_err(|source| StoreError::Migrate {
                backend: Backend::Postgres,
                source,
            })?;
        Ok(store)
    }

    /// Connects to the database of a `postgres:` URL, without migrating it.
    ///
    /// # Errors
    /// A malformed URL, or an unreachable or refusing server.
    pub async fn open(url: &DatabaseUrl) -> Result<PostgresStore, StoreError> {
        let connect_error = |source| StoreError::Connect {
            backend: Backend::Postgres,
            source,
        };
        let options = PgConnectOptions::from_str(url.expose_secret()).map_err(connect_error)?;
        // Fail fast when the server is gone (the pool reconnects by itself when it is back):
        // a request waits a few seconds for a connection, not sqlx's default 30.
        let pool = PgPoolOptions::new()
            .max_connections(MAX_CONNECTIONS)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect_with(options)
            .await
            .map_err(connect_error)?;
        Ok(PostgresStore { pool })
    }

    /// Starts a read-only transaction whose statements all see one snapshot.
    pub(super) async fn begin_read(
        &self,
        operation: &'static str,
    ) -> Result<Transaction<'static, Postgres>, StoreError> {
        self.pool
            .begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            .await
            .map_err(db(operation))
    }

    /// Starts a READ COMMITTED transaction: its compare-and-set statements see the latest
    /// committed rows.
    pub(super) async fn begin_write(
        &self,
        operation: &'static str,
    ) -> Result<Transaction<'static, Postgres>, StoreError> {
        self.pool.begin().await.map_err(db(operation))
    }
}
