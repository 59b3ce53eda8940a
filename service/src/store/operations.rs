//! What an operator needs of the database (issue 40): which migrations are applied and which
//! pending, applying them on demand, refusing a database written by a newer Tabula, a quick
//! check that the database answers, the numbers `/metrics` shows, and a consistent copy of a
//! SQLite file.

use std::path::Path;
use std::time::Duration;

use sqlx::migrate::Migrator;

use super::executor::{query_as, query_scalar};
use super::{Backend, DatabaseUrl, PostgresStore, SqliteStore, Store, StoreError, Timestamp, db};

/// One migration: its version and description.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MigrationInfo {
    /// Its version (the number its file starts with).
    pub version: i64,
    /// What it does (the rest of its file's name).
    pub description: String,
}

/// Where a database stands against this binary's migrations.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MigrationStatus {
    /// Versions applied, oldest first.
    pub applied: Vec<i64>,
    /// This binary's migrations not yet applied, oldest first.
    pub pending: Vec<MigrationInfo>,
    /// Versions applied that this binary does not know: a newer Tabula wrote the database.
    pub unknown: Vec<i64>,
    /// The newest version this binary knows.
    pub known_latest: i64,
}

/// Whether `tabula run` applies pending migrations when it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MigrateOnStart {
    /// Apply them (the default).
    Apply,
    /// Refuse to start while any is pending (`TABULA_MIGRATE=manual`): the operator runs
    /// `tabula migrate`.
    Manual,
}

/// The numbers of `/metrics` read from the database.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Gauges {
    /// Outbox messages waiting for an active chat.
    pub outbox_waiting: i64,
    /// When the oldest of them was written.
    pub outbox_oldest: Option<Timestamp>,
    /// Games being played, by game (its stored name).
    pub games_in_progress: Vec<(String, i64)>,
}

const OUTBOX_WAITING: &str = "\
SELECT COUNT(*), MIN(o.created_at) FROM outbox o JOIN chats c ON c.id = o.chat_id
WHERE o.sent_at IS NULL AND o.dropped_at IS NULL AND c.inactive_at IS NULL";

const GAMES_IN_PROGRESS: &str = "\
SELECT game, COUNT(*) FROM games WHERE status = 'active' GROUP BY game ORDER BY game";

const APPLIED: &str = "\
SELECT version FROM _sqlx_migrations WHERE success ORDER BY version";

const HAS_MIGRATIONS_SQLITE: &str = "\
SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'";

const HAS_MIGRATIONS_POSTGRES: &str = "\
SELECT COUNT(*) FROM information_schema.tables
WHERE table_schema = current_schema() AND table_name = '_sqlx_migrations'";

impl Store {
    /// Opens the database the URL names without applying any migration (`tabula migrate`,
    /// `TABULA_MIGRATE=manual`).
    ///
    /// # Errors
    /// An unsupported scheme, or an unreachable or refusing server.
    pub async fn open(url: &DatabaseUrl) -> Result<Store, StoreError> {
        match url.backend()? {
            Backend::Sqlite => SqliteStore::open(url).await.map(Store::Sqlite),
            Backend::Postgres => PostgresStore::open(url).await.map(Store::Postgres),
        }
    }

    /// Opens the database and, as `on_start` says, applies the pending migrations or refuses
    /// when any is pending; a database written by a newer Tabula is refused either way.
    ///
    /// # Errors
    /// As [`Store::open`]; [`StoreError::Newer`], [`StoreError::Pending`], or a failed
    /// migration.
    pub async fn connect_with(
        url: &DatabaseUrl,
        on_start: MigrateOnStart,
    ) -> Result<Store, StoreError> {
        let store = Store::open(url).await?;
        let status = store.migration_status().await?;
        if !status.unknown.is_empty() {
            store.close().await;
            return Err(StoreError::Newer {
                versions: status.unknown,
                known: status.known_latest,
            });
        }
        match on_start {
            MigrateOnStart::Apply => {
                store.migrate().await?;
            }
            MigrateOnStart::Manual if !status.pending.is_empty() => {
                store.close().await;
                return Err(StoreError::Pending {
                    versions: status.pending.iter().map(|m| m.version).collect(),
                });
            }
            MigrateOnStart::Manual => {}
        }
        Ok(store)
    }

    fn migrator(&self) -> &'static Migrator {
        match self {
            Store::Sqlite(_) => super::sqlite::migrator(),
            Store::Postgres(_) => super::postgres::migrator(),
        }
    }

    /// Which migrations are applied, pending, or unknown to this binary.
    ///
    /// # Errors
    /// A database failure.
    pub async fn migration_status(&self) -> Result<MigrationStatus, StoreError> {
        let has_table: i64 = query_scalar(match self {
            Store::Sqlite(_) => HAS_MIGRATIONS_SQLITE,
            Store::Postgres(_) => HAS_MIGRATIONS_POSTGRES,
        })
        .fetch_one(self)
        .await
        .map_err(db("migration_status"))?;
        let applied: Vec<i64> = if has_table > 0 {
            query_scalar(APPLIED)
                .fetch_all(self)
                .await
                .map_err(db("migration_status"))?
        } else {
            Vec::new()
        };
        let migrator = self.migrator();
        let known: Vec<&sqlx::migrate::Migration> = migrator
            .iter()
            .filter(|m| m.migration_type.is_up_migration())
            .collect();
        let pending = known
            .iter()
            .filter(|m| !applied.contains(&m.version))
            .map(|m| MigrationInfo {
                version: m.version,
                description: m.description.to_string(),
            })
            .collect();
        let unknown = applied
            .iter()
            .copied()
            .filter(|v| !known.iter().any(|m| m.version == *v))
            .collect();
        Ok(MigrationStatus {
            applied,
            pending,
            unknown,
            known_latest: known.iter().map(|m| m.version).max().unwrap_or(0),
        })
    }

    /// Applies the pending migrations, each in its own transaction, and returns them.
    ///
    /// # Errors
    /// [`StoreError::Newer`] for a database written by a newer Tabula; a failed migration
    /// (the ones before it stay applied).
    pub async fn migrate(&self) -> Result<Vec<MigrationInfo>, StoreError> {
        let status = self.migration_status().await?;
        if !status.unknown.is_empty() {
            return Err(StoreError::Newer {
                versions: status.unknown,
                known: status.known_latest,
            });
        }
        let backend = self.backend();
        let migrate_error = |source| StoreError::Migrate { backend, source };
        match self {
            Store::Sqlite(store) => self.migrator().run(&store.pool).await,
            Store::Postgres(store) => self.migrator().run(&store.pool).await,
        }
        .map_err(migrate_error)?;
        Ok(status.pending)
    }

    /// PostgreSQL: the schema the store's tables are in (the URL's `search_path`, `public`
    /// unless set); `None` for SQLite.
    ///
    /// # Errors
    /// A database failure.
    pub async fn postgres_schema(&self) -> Result<Option<String>, StoreError> {
        match self {
            Store::Sqlite(_) => Ok(None),
            Store::Postgres(_) => query_scalar::<String>("SELECT current_schema()")
                .fetch_one(self)
                .await
                .map(Some)
                .map_err(db("postgres_schema")),
        }
    }

    /// Whether the database answers a trivial query within `limit`.
    pub async fn ping(&self, limit: Duration) -> bool {
        let answer = query_scalar::<i32>("SELECT 1").fetch_one(self);
        matches!(tokio::time::timeout(limit, answer).await, Ok(Ok(1)))
    }

    /// The outbox's backlog and the games in progress, for `/metrics`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn gauges(&self) -> Result<Gauges, StoreError> {
        let (outbox_waiting, oldest): (i64, Option<i64>) = query_as(OUTBOX_WAITING)
            .fetch_one(self)
            .await
            .map_err(db("gauges"))?;
        let games_in_progress: Vec<(String, i64)> = query_as(GAMES_IN_PROGRESS)
            .fetch_all(self)
            .await
            .map_err(db("gauges"))?;
        Ok(Gauges {
            outbox_waiting,
            outbox_oldest: oldest.map(Timestamp),
            games_in_progress,
        })
    }

    /// Writes a consistent, self-contained copy of a SQLite database to `file` (SQLite's
    /// `VACUUM INTO`, which reads one snapshot while the bot goes on writing), then opens the
    /// copy and checks it: `PRAGMA integrity_check`, and its migrations against this binary's.
    /// Returns the copy's status.
    ///
    /// # Errors
    /// [`StoreError::NotSqlite`] for PostgreSQL; a file that exists already, a failed copy, or a
    /// copy that does not check.
    pub async fn backup_sqlite(&self, file: &Path) -> Result<MigrationStatus, StoreError> {
        let Store::Sqlite(store) = self else {
            return Err(StoreError::NotSqlite);
        };
        let target = file.to_str().ok_or_else(|| StoreError::Backup {
            reason: format!("{} is not a UTF-8 path", file.display()),
        })?;
        if file.exists() {
            return Err(StoreError::Backup {
                reason: format!("{} exists already; name a new file", file.display()),
            });
        }
        sqlx::query("VACUUM INTO ?")
            .bind(target)
            .execute(&store.pool)
            .await
            .map_err(db("backup"))?;
        let copy = SqliteStore::open_read_only(file).await.map(Store::Sqlite)?;
        let checked = copy.check_copy().await;
        copy.close().await;
        checked
    }

    async fn check_copy(&self) -> Result<MigrationStatus, StoreError> {
        let Store::Sqlite(store) = self else {
            return Err(StoreError::NotSqlite);
        };
        let integrity: Vec<String> = sqlx::query_scalar("PRAGMA integrity_check")
            .fetch_all(&store.pool)
            .await
            .map_err(db("backup_check"))?;
        if integrity != ["ok"] {
            return Err(StoreError::Backup {
                reason: format!(
                    "the copy fails its integrity check: {}",
                    integrity.join("; ")
                ),
            });
        }
        // A copy of a database not yet migrated is migrated when restored; one a newer
        // Tabula wrote cannot be used by this binary.
        let status = self.migration_status().await?;
        if !status.unknown.is_empty() {
            return Err(StoreError::Backup {
                reason: format!(
                    "the copy has migrations {:?} this binary does not know",
                    status.unknown
                ),
            });
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_backend_knows_the_same_migrations() {
        let versions = |m: &Migrator| m.iter().map(|m| m.version).collect::<Vec<_>>();
        let sqlite = versions(super::super::sqlite::migrator());
        assert!(!sqlite.is_empty());
        assert_eq!(sqlite, versions(super::super::postgres::migrator()));
    }
}
