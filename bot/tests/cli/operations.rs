//! The operator's commands (issue 40): `tabula migrate [--check]`, `tabula backup FILE`,
//! `TABULA_MIGRATE=manual`, and the packaging: every setting named in `compose.yaml`, the
//! systemd unit, the `Dockerfile` and `.env.example` is one `tabula run --help` documents, and
//! the unit passes `systemd-analyze verify` where that tool exists.

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tabula_bot::store::{DatabaseUrl, Store};

fn tabula(args: &[&str], envs: &[(&str, &str)], dir: &Path) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tabula"));
    command.args(args).current_dir(dir);
    for name in [
        "DATABASE_URL",
        "TABULA_MIGRATE",
        "TABULA_LOG",
        "TABULA_LOG_FORMAT",
        "TELEGRAM_BOT_TOKEN",
        "DISCORD_BOT_TOKEN",
    ] {
        command.env_remove(name);
    }
    for (key, value) in envs {
        command.env(key, value);
    }
    command.output().expect("tabula runs")
}

fn scratch_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(common::unique_name("tabula-ops"));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The migration lines `tabula migrate` prints: `  0007 committed dice`, `  applied 0007 …`.
fn migration_lines(output: &Output) -> usize {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            words
                .iter()
                .take(2)
                .any(|w| w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit()))
                && line.starts_with("  ")
        })
        .count()
}

async fn migrations_are_listed_then_applied(url: DatabaseUrl) {
    let dir = scratch_dir();
    let env = [("DATABASE_URL", url.expose_secret())];
    // A database no migration has touched: everything is pending.
    let check = tabula(&["migrate", "--check"], &env, &dir);
    assert_eq!(check.status.code(), Some(1), "{check:?}");
    let pending = migration_lines(&check);
    assert!(pending >= 18, "{pending} pending listed: {check:?}");
    // Manual mode: `tabula run` refuses to start and applies nothing.
    let run = tabula(
        &["run"],
        &[
            ("DATABASE_URL", url.expose_secret()),
            ("TABULA_MIGRATE", "manual"),
            ("TELEGRAM_BOT_TOKEN", "123456:not-a-real-token"),
            ("TELEGRAM_API_URL", "http://127.0.0.1:9"),
            ("TABULA_LISTEN", "127.0.0.1:0"),
        ],
        &dir,
    );
    assert_eq!(run.status.code(), Some(1), "{run:?}");
    assert!(
        String::from_utf8_lossy(&run.stderr).contains("tabula migrate"),
        "the refusal names the command: {run:?}"
    );
    let still = tabula(&["migrate", "--check"], &env, &dir);
    assert_eq!(migration_lines(&still), pending, "nothing was applied");
    // Applied: each named once; then nothing is pending, and applying again does nothing.
    let applied = tabula(&["migrate"], &env, &dir);
    assert!(applied.status.success(), "{applied:?}");
    assert_eq!(migration_lines(&applied), pending);
    let check = tabula(&["migrate", "--check"], &env, &dir);
    assert_eq!(check.status.code(), Some(0), "{check:?}");
    assert_eq!(migration_lines(&check), 0);
    let again = tabula(&["migrate"], &env, &dir);
    assert!(again.status.success(), "{again:?}");
    assert_eq!(migration_lines(&again), 0);
    let store = Store::open(&url).await.expect("it opens");
    let status = store.migration_status().await.expect("status");
    assert!(status.pending.is_empty() && status.unknown.is_empty());
    store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

async fn a_backup_is_written_and_checked(url: DatabaseUrl) {
    let dir = scratch_dir();
    let env = [("DATABASE_URL", url.expose_secret())];
    // A game in progress, played in the terminal.
    let mut local = Command::new(env!("CARGO_BIN_EXE_tabula"));
    let played = local
        .args(["local"])
        .current_dir(&dir)
        .env("DATABASE_URL", url.expose_secret())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            if let Some(mut input) = child.stdin.take() {
                input.write_all(b"alice: /play konane @bob\nbob: /accept\n")?;
            }
            child.wait_with_output()
        })
        .expect("tabula local runs");
    assert!(played.status.success(), "{played:?}");
    let copy = dir.join("copy.db");
    let backup = tabula(&["backup", copy.to_str().expect("a path")], &env, &dir);
    if url.backend().ok() == Some(tabula_bot::store::Backend::Postgres)
        && which("pg_dump").is_none()
    {
        // Without the client tools it explains how, and fails.
        assert_eq!(backup.status.code(), Some(1), "{backup:?}");
        assert!(String::from_utf8_lossy(&backup.stderr).contains("pg_dump"));
        return;
    }
    assert!(backup.status.success(), "{backup:?}");
    assert!(copy.exists());
    if url.backend().ok() == Some(tabula_bot::store::Backend::Sqlite) {
        assert!(!dir.join("copy.db-wal").exists(), "one self-contained file");
        let restored = Store::connect(&DatabaseUrl::new(format!("sqlite://{}", copy.display())))
            .await
            .expect("the copy opens");
        let games: i64 = restored
            .gauges()
            .await
            .expect("the copy reads")
            .games_in_progress
            .iter()
            .map(|(_, count)| count)
            .sum();
        assert_eq!(games, 1, "the game in progress is in the copy");
        restored.close().await;
    }
    // A file that exists already is never overwritten.
    let size = std::fs::metadata(&copy).map(|m| m.len()).unwrap_or(0);
    let again = tabula(&["backup", copy.to_str().expect("a path")], &env, &dir);
    assert_eq!(again.status.code(), Some(1), "{again:?}");
    assert_eq!(std::fs::metadata(&copy).map(|m| m.len()).unwrap_or(0), size);
    let _ = std::fs::remove_dir_all(dir);
}

fn which(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(program))
            .find(|path| path.is_file())
    })
}

on_both_databases! {
    migrations_are_listed_applied_and_checked => migrations_are_listed_then_applied;
    a_backup_is_written_checked_and_never_overwrites => a_backup_is_written_and_checked;
}

/// The settings `tabula run --help` documents (`[env: NAME=`).
fn documented_settings() -> BTreeSet<String> {
    let help = tabula(&["run", "--help"], &[], &repository());
    assert!(help.status.success(), "{help:?}");
    let text = String::from_utf8_lossy(&help.stdout).into_owned();
    text.split("[env: ")
        .skip(1)
        .filter_map(|rest| rest.split(['=', ']']).next())
        .map(str::to_string)
        .collect()
}

/// Names that look like settings (`TABULA_…`, `DISCORD_…`, `TELEGRAM_…`, `DATABASE_URL`).
fn settings_named(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for word in text.split(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')) {
        if word == "DATABASE_URL"
            || ["TABULA_", "DISCORD_", "TELEGRAM_"]
                .iter()
                .any(|prefix| word.starts_with(prefix) && word.len() > prefix.len())
        {
            names.insert(word.to_string());
        }
    }
    names
}

#[test]
fn the_packaging_names_only_settings_tabula_run_documents() {
    let documented = documented_settings();
    assert!(documented.contains("TABULA_LISTEN") && documented.contains("DISCORD_SHARDS"));
    for file in [
        "compose.yaml",
        "deploy/tabula.service",
        "Dockerfile",
        ".env.example",
    ] {
        let text = std::fs::read_to_string(repository().join(file))
            .unwrap_or_else(|error| panic!("{file}: {error}"));
        let named = settings_named(&text);
        assert!(!named.is_empty(), "{file} names no setting");
        let unknown: Vec<&String> = named.difference(&documented).collect();
        assert!(
            unknown.is_empty(),
            "{file} names settings `tabula run --help` does not: {unknown:?}"
        );
    }
    // Every documented setting is in .env.example.
    let example = settings_named(
        &std::fs::read_to_string(repository().join(".env.example")).expect(".env.example"),
    );
    let missing: Vec<&String> = documented.difference(&example).collect();
    assert!(missing.is_empty(), ".env.example lacks {missing:?}");
}

#[test]
fn the_systemd_unit_verifies() {
    let Some(analyze) = which("systemd-analyze") else {
        eprintln!("systemd-analyze is not installed here: the unit is not verified");
        return;
    };
    let unit =
        std::fs::read_to_string(repository().join("deploy/tabula.service")).expect("the unit");
    // The unit as installed, with this build's binary in place of /usr/local/bin/tabula.
    let dir = scratch_dir();
    let installed = unit.replace("/usr/local/bin/tabula", env!("CARGO_BIN_EXE_tabula"));
    let path = dir.join("tabula.service");
    std::fs::write(&path, installed).expect("the unit written");
    let verified = Command::new(analyze)
        .arg("verify")
        .arg(&path)
        .output()
        .expect("systemd-analyze runs");
    let said = String::from_utf8_lossy(&verified.stderr).into_owned();
    // Warnings about the machine (no systemd running in a container) are not the unit's.
    let about_unit: Vec<&str> = said
        .lines()
        .filter(|line| line.contains("tabula.service"))
        .collect();
    assert!(
        verified.status.success() && about_unit.is_empty(),
        "{:?}: {said}",
        verified.status
    );
    let _ = std::fs::remove_dir_all(dir);
}
