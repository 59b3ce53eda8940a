//! Test databases shared by the service tests: a SQLite file per test, and a fresh PostgreSQL
//! schema per test when `TABULA_TEST_POSTGRES_URL` is set (as in `store_conformance.rs`).

#![allow(dead_code, unreachable_pub)]

pub mod said;
pub mod table;

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

use tabula_service::store::{Account, DatabaseUrl, LedgerEntry, Store};

/// The environment variable naming the PostgreSQL server of the tests.
const POSTGRES_URL_VAR: &str = "TABULA_TEST_POSTGRES_URL";

static NEXT_DATABASE: AtomicU32 = AtomicU32::new(0);

/// A name no other test of any run uses.
pub fn unique_name(prefix: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.subsec_nanos());
    format!(
        "{prefix}_{}_{}_{nanos}",
        std::process::id(),
        NEXT_DATABASE.fetch_add(1, Ordering::Relaxed)
    )
}

pub async fn connect(url: &DatabaseUrl) -> Store {
    match Store::connect(url).await {
        Ok(store) => store,
        Err(error) => panic!("cannot open the test database: {}", chain(&error)),
    }
}

/// An error with its sources, on one line.
pub fn chain(error: &dyn std::error::Error) -> String {
    tabula_service::service::error_chain(error)
}

/// A SQLite database file in the temporary directory, removed (with its WAL files) on drop.
pub struct SqliteFile {
    path: PathBuf,
}

impl SqliteFile {
    pub fn new() -> SqliteFile {
        SqliteFile {
            path: std::env::temp_dir().join(format!("{}.db", unique_name("tabula_store"))),
        }
    }

    pub fn url(&self) -> DatabaseUrl {
        DatabaseUrl::new(format!("sqlite://{}", self.path.display()))
    }
}

impl Drop for SqliteFile {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm"] {
            let mut path = self.path.clone().into_os_string();
            path.push(suffix);
            let _ = std::fs::remove_file(path);
        }
    }
}

/// A fresh PostgreSQL schema on the server of `TABULA_TEST_POSTGRES_URL`; the store connects
/// with its `search_path` set to it, so tests running at once never see each other's rows.
pub struct PostgresSchema {
    base: String,
    name: String,
}

impl PostgresSchema {
    /// A fresh schema; panics (failing the test) when the variable is unset or the server
    /// cannot be used. The PostgreSQL tests are `#[ignore]`d, so they only run when asked for
    /// with `--include-ignored` (as `.ci/run` does), and then they must run.
    pub async fn create(test: &str) -> Option<PostgresSchema> {
        let Ok(base) = std::env::var(POSTGRES_URL_VAR) else {
            panic!(
                "postgres::{test}: {POSTGRES_URL_VAR} is unset: set it to a PostgreSQL URL \
                 (for example postgres://postgres@127.0.0.1:5432/test) to run these tests"
            );
        };
        let name = unique_name("service");
        admin(&base, &format!("CREATE SCHEMA {name}")).await;
        Some(PostgresSchema { base, name })
    }

    pub fn url(&self) -> DatabaseUrl {
        let separator = if self.base.contains('?') { '&' } else { '?' };
        DatabaseUrl::new(format!(
            "{}{separator}options=-c%20search_path%3D{}",
            self.base, self.name
        ))
    }

    /// Drops the schema, then passes on the test's panic, if any.
    pub async fn finish(self, outcome: Result<(), tokio::task::JoinError>) {
        admin(&self.base, &format!("DROP SCHEMA {} CASCADE", self.name)).await;
        if let Err(error) = outcome {
            match error.try_into_panic() {
                Ok(panic) => std::panic::resume_unwind(panic),
                Err(error) => panic!("test task failed: {error}"),
            }
        }
    }
}

/// Runs one administrative statement on the test server, creating the test database first if
/// the server does not have it yet.
async fn admin(base: &str, statement: &str) {
    use sqlx::postgres::PgConnectOptions;
    use sqlx::{ConnectOptions, Executor};
    use std::str::FromStr;

    let options = match PgConnectOptions::from_str(base) {
        Ok(options) => options,
        Err(error) => panic!("{POSTGRES_URL_VAR} is not a PostgreSQL URL: {error}"),
    };
    let mut connection = match options.connect().await {
        Ok(connection) => connection,
        Err(error)
            if error
                .as_database_error()
                .and_then(|error| error.code())
                .is_some_and(|code| code == "3D000") =>
        {
            // The database does not exist: create it from the server's `postgres` database.
            let database = options.get_database().unwrap_or("postgres").to_string();
            let mut server = match options.clone().database("postgres").connect().await {
                Ok(connection) => connection,
                Err(error) => panic!("{POSTGRES_URL_VAR} is set but unusable: {error}"),
            };
            if let Err(error) = server
                .execute(sqlx::AssertSqlSafe(format!(
                    "CREATE DATABASE \"{database}\""
                )))
                .await
            {
                // Another test may have created it meanwhile (duplicate_database, or the
                // unique index of the catalogue when both tried at once).
                let code = error.as_database_error().and_then(|error| error.code());
                assert!(
                    matches!(code.as_deref(), Some("42P04" | "23505")),
                    "cannot create the test database: {error}"
                );
            }
            match options.connect().await {
                Ok(connection) => connection,
                Err(error) => panic!("{POSTGRES_URL_VAR} is set but unusable: {error}"),
            }
        }
        Err(error) => panic!(
            "{POSTGRES_URL_VAR} is set but the server is unreachable: {error} \
             (start it: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start)"
        ),
    };
    if let Err(error) = connection
        .execute(sqlx::AssertSqlSafe(statement.to_string()))
        .await
    {
        panic!("{statement}: {error}");
    }
}

/// Runs a test case on a fresh PostgreSQL schema (dropped afterwards), passing on its panic.
pub async fn on_postgres<F, Fut>(test: &str, case: F)
where
    F: FnOnce(DatabaseUrl) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let Some(schema) = PostgresSchema::create(test).await else {
        return;
    };
    let url = schema.url();
    let outcome = tokio::spawn(case(url)).await;
    schema.finish(outcome).await;
}

/// Generates, for each `name => case`, a test on a SQLite file (`sqlite::name`) and one on
/// PostgreSQL (`postgres::name`, ignored unless asked for, as everywhere). A case is an
/// `async fn(DatabaseUrl)`.
#[macro_export]
macro_rules! on_both_databases {
    ($($name:ident => $case:ident;)*) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let file = $crate::common::SqliteFile::new();
                    super::$case(file.url()).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                #[ignore = "needs PostgreSQL: set TABULA_TEST_POSTGRES_URL and pass --include-ignored (.ci/run does)"]
                async fn $name() {
                    $crate::common::on_postgres(stringify!($name), super::$case).await;
                }
            )*
        }
    };
}

/// Double entry: a community's balances (bank included) sum to zero, and every balance is what
/// its ledger rows brought in minus what they took out. `context` names the moment in messages.
pub fn assert_books_balance(accounts: &[Account], ledger: &[LedgerEntry], context: &str) {
    assert_eq!(
        accounts.iter().map(|account| account.balance).sum::<i64>(),
        0,
        "{context}: balances do not sum to zero: {accounts:?}"
    );
    for account in accounts {
        let inflow: i64 = ledger
            .iter()
            .filter(|entry| entry.to == account.id)
            .map(|entry| entry.amount)
            .sum();
        let outflow: i64 = ledger
            .iter()
            .filter(|entry| entry.from == account.id)
            .map(|entry| entry.amount)
            .sum();
        assert_eq!(
            account.balance,
            inflow - outflow,
            "{context}: balance of {account:?} is not what its ledger rows say (in {inflow}, \
             out {outflow})"
        );
    }
}
