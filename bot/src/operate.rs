//! `tabula migrate` and `tabula backup`: the database of `tabula run` (`DATABASE_URL`, `.env`,
//! or the SQLite default), migrated or copied by an operator.

use std::path::PathBuf;
use std::process::ExitCode;

use tabula_bot::store::{Backend, DatabaseUrl, MigrationStatus, Store};

/// Arguments of `tabula migrate`.
#[derive(Debug, clap::Args)]
pub struct MigrateArgs {
    /// The database (sqlite://FILE or postgres://...); default: as `tabula run` finds it.
    #[arg(long = "database", env = "DATABASE_URL", default_value = DatabaseUrl::DEFAULT, hide_env_values = true)]
    database: String,
    /// Only list the pending migrations; exit 1 when there are any.
    #[arg(long)]
    check: bool,
}

/// Arguments of `tabula backup`.
#[derive(Debug, clap::Args)]
pub struct BackupArgs {
    /// The copy to write (a new file).
    file: PathBuf,
    /// The database (sqlite://FILE or postgres://...); default: as `tabula run` finds it.
    #[arg(long = "database", env = "DATABASE_URL", default_value = DatabaseUrl::DEFAULT, hide_env_values = true)]
    database: String,
}

/// The database URL given, or the default for an empty one.
fn url_of(given: &str, command: &str) -> Result<DatabaseUrl, ExitCode> {
    if given.trim().is_empty() {
        return Ok(DatabaseUrl::default());
    }
    given.parse().map_err(|error| {
        eprintln!("tabula {command}: DATABASE_URL: {error} (sqlite://FILE or postgres://...)");
        ExitCode::from(2)
    })
}

/// The database without its password, for messages (as `tabula run` describes it).
fn described(url: &DatabaseUrl) -> String {
    tabula_bot::run::describe(url)
}

fn runtime(command: &str) -> Result<tokio::runtime::Runtime, ExitCode> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|error| {
            eprintln!("tabula {command}: cannot start the async runtime: {error}");
            ExitCode::FAILURE
        })
}

/// `tabula migrate [--check]`: 0 when done or nothing is pending, 1 with pending migrations
/// under `--check` or when the database cannot be migrated.
pub fn migrate(args: &MigrateArgs) -> ExitCode {
    let url = match url_of(&args.database, "migrate") {
        Ok(url) => url,
        Err(code) => return code,
    };
    let runtime = match runtime("migrate") {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
    runtime.block_on(async {
        let name = described(&url);
        let store = match Store::open(&url).await {
            Ok(store) => store,
            Err(error) => {
                eprintln!(
                    "tabula migrate: cannot open the database ({name}): {}",
                    tabula_bot::service::error_chain(&error)
                );
                return ExitCode::FAILURE;
            }
        };
        let code = migrate_open(&store, &name, args.check).await;
        store.close().await;
        code
    })
}

async fn migrate_open(store: &Store, name: &str, check: bool) -> ExitCode {
    let status = match store.migration_status().await {
        Ok(status) => status,
        Err(error) => {
            eprintln!(
                "tabula migrate: cannot read the migrations of {name}: {}",
                tabula_bot::service::error_chain(&error)
            );
            return ExitCode::FAILURE;
        }
    };
    if !status.unknown.is_empty() {
        eprintln!(
            "tabula migrate: {name} was written by a newer Tabula: it has migration {:?}, and \
             this binary knows migrations up to {}; run the newer Tabula (or restore a backup \
             made before the upgrade). Nothing was changed.",
            status.unknown, status.known_latest
        );
        return ExitCode::FAILURE;
    }
    if check {
        if status.pending.is_empty() {
            println!("{name}: up to date (migration {})", latest(&status));
            return ExitCode::SUCCESS;
        }
        println!("{name}: {} pending migration(s):", status.pending.len());
        for migration in &status.pending {
            println!("  {:04} {}", migration.version, migration.description);
        }
        println!("apply them with `tabula migrate` (after `tabula backup FILE`)");
        return ExitCode::FAILURE;
    }
    if status.pending.is_empty() {
        println!(
            "{name}: nothing to apply; up to date (migration {})",
            latest(&status)
        );
        return ExitCode::SUCCESS;
    }
    println!("{name}: applying {} migration(s)…", status.pending.len());
    match store.migrate().await {
        Ok(applied) => {
            for migration in &applied {
                println!(
                    "  applied {:04} {}",
                    migration.version, migration.description
                );
            }
            println!("{name}: up to date (migration {})", status.known_latest);
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!(
                "tabula migrate: {name}: {}; the migrations before the failing one stay applied",
                tabula_bot::service::error_chain(&error)
            );
            ExitCode::FAILURE
        }
    }
}

fn latest(status: &MigrationStatus) -> i64 {
    status.applied.iter().copied().max().unwrap_or(0)
}

/// `tabula backup FILE`: 0 when the copy is written and checks, 1 when not (or PostgreSQL
/// without `pg_dump`), 2 for a bad setting.
pub fn backup(args: &BackupArgs) -> ExitCode {
    let url = match url_of(&args.database, "backup") {
        Ok(url) => url,
        Err(code) => return code,
    };
    match url.backend() {
        Ok(Backend::Postgres) => {
            // Only Tabula's schema (the URL's search_path), not the whole database.
            let schema = runtime("backup").ok().and_then(|runtime| {
                runtime.block_on(async {
                    let store = Store::open(&url).await.ok()?;
                    let schema = store.postgres_schema().await.ok().flatten();
                    store.close().await;
                    schema
                })
            });
            return backup_postgres(&url, schema.as_deref(), &args.file);
        }
        Ok(Backend::Sqlite) => {}
        Err(error) => {
            eprintln!("tabula backup: {error}");
            return ExitCode::from(2);
        }
    }
    if args.file.exists() {
        eprintln!(
            "tabula backup: {} exists already; name a new file (nothing was written)",
            args.file.display()
        );
        return ExitCode::FAILURE;
    }
    let runtime = match runtime("backup") {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
    runtime.block_on(async {
        let name = described(&url);
        let store = match Store::open(&url).await {
            Ok(store) => store,
            Err(error) => {
                eprintln!(
                    "tabula backup: cannot open the database ({name}): {}",
                    tabula_bot::service::error_chain(&error)
                );
                return ExitCode::FAILURE;
            }
        };
        eprintln!("tabula backup: copying {name} to {}…", args.file.display());
        let result = store.backup_sqlite(&args.file).await;
        store.close().await;
        match result {
            Ok(status) => {
                let path = std::fs::canonicalize(&args.file).unwrap_or_else(|_| args.file.clone());
                let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
                println!(
                    "backup written to {} ({size} bytes): integrity ok, migration {}",
                    path.display(),
                    latest(&status)
                );
                if !status.pending.is_empty() {
                    println!(
                        "the copy lacks {} migration(s) of this binary; `tabula run` applies \
                         them when it opens the copy",
                        status.pending.len()
                    );
                }
                println!(
                    "to restore: stop the bot, put the copy in place of the database file \
                     (removing any -wal and -shm files beside it), start the bot"
                );
                ExitCode::SUCCESS
            }
            Err(error) => {
                let _ = std::fs::remove_file(&args.file);
                eprintln!(
                    "tabula backup: {}",
                    tabula_bot::service::error_chain(&error)
                );
                ExitCode::FAILURE
            }
        }
    })
}

/// PostgreSQL: `pg_dump` in its custom format when it is installed (the password passed in
/// `PGPASSWORD`, never on the command line), checked by `pg_restore --list`; otherwise how to.
fn backup_postgres(url: &DatabaseUrl, schema: Option<&str>, file: &std::path::Path) -> ExitCode {
    let explain = || {
        eprintln!(
            "tabula backup: for PostgreSQL, back up with the server's own tools:\n  \
             pg_dump --format=custom --file={file} \"$DATABASE_URL\"\n\
             and restore into an empty database with:\n  \
             pg_restore --dbname=\"$DATABASE_URL\" --no-owner {file}\n\
             (install the PostgreSQL client, e.g. `apt install postgresql-client`, and this \
             command runs pg_dump itself)",
            file = file.display()
        );
    };
    if file.exists() {
        eprintln!(
            "tabula backup: {} exists already; name a new file (nothing was written)",
            file.display()
        );
        return ExitCode::FAILURE;
    }
    let Ok(mut parsed) = url::Url::parse(url.expose_secret()) else {
        eprintln!("tabula backup: DATABASE_URL is not a URL");
        return ExitCode::from(2);
    };
    let password = parsed.password().map(str::to_string);
    let _ = parsed.set_password(None);
    let mut command = std::process::Command::new("pg_dump");
    command
        .arg("--format=custom")
        .arg(format!("--file={}", file.display()))
        .arg(format!("--dbname={parsed}"));
    if let Some(schema) = schema {
        command.arg(format!("--schema={schema}"));
    }
    if let Some(password) = password {
        command.env("PGPASSWORD", password);
    }
    eprintln!(
        "tabula backup: running pg_dump for {} to {}…",
        described(url),
        file.display()
    );
    match command.status() {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            explain();
            ExitCode::FAILURE
        }
        Err(error) => {
            eprintln!("tabula backup: cannot run pg_dump: {error}");
            ExitCode::FAILURE
        }
        Ok(status) if !status.success() => {
            let _ = std::fs::remove_file(file);
            eprintln!("tabula backup: pg_dump failed ({status}); nothing was kept");
            ExitCode::FAILURE
        }
        Ok(_) => {
            let listed = std::process::Command::new("pg_restore")
                .arg("--list")
                .arg(file)
                .output();
            match listed {
                Ok(output) if output.status.success() => {
                    let entries = String::from_utf8_lossy(&output.stdout)
                        .lines()
                        .filter(|l| !l.starts_with(';') && !l.trim().is_empty())
                        .count();
                    let size = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
                    println!(
                        "backup written to {} ({size} bytes, {entries} entries, read back by \
                         pg_restore --list); restore with: pg_restore --dbname=\"$DATABASE_URL\" \
                         --no-owner {}",
                        file.display(),
                        file.display()
                    );
                    ExitCode::SUCCESS
                }
                _ => {
                    eprintln!(
                        "tabula backup: pg_dump wrote {}, but pg_restore --list cannot read it",
                        file.display()
                    );
                    ExitCode::FAILURE
                }
            }
        }
    }
}
