//! What a new user meets in the first minutes with the `tabula` binary (issue 14, items 7, 15,
//! 16, 17, 20): ordinary chat gets no answer, a bad line or an unwritable picture folder does
//! not end a `tabula local` session, `/wait` moves the session's clock so that reminders can be
//! seen, an empty `DATABASE_URL` means the default, and `tabula rules` takes values that start
//! with `-` and game names in any case.

use crate::common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use common::SqliteFile;

/// Runs the binary with `args`, `envs` and `stdin`, in `dir`.
fn tabula(args: &[&str], envs: &[(&str, &str)], stdin: &[u8], dir: &std::path::Path) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tabula"));
    command
        .args(args)
        .current_dir(dir)
        .env_remove("DATABASE_URL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (key, value) in envs {
        command.env(key, value);
    }
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(error) => panic!("cannot start tabula: {error}"),
    };
    if let Some(mut input) = child.stdin.take()
        && let Err(error) = input.write_all(stdin)
    {
        panic!("cannot write stdin: {error}");
    }
    match child.wait_with_output() {
        Ok(output) => output,
        Err(error) => panic!("tabula failed: {error}"),
    }
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn scratch_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(common::unique_name("tabula-first"));
    if let Err(error) = std::fs::create_dir_all(&dir) {
        panic!("cannot create {}: {error}", dir.display());
    }
    dir
}

#[test]
fn a_line_that_is_not_utf8_is_refused_and_the_session_goes_on() {
    let db = SqliteFile::new();
    let url = db.url();
    let dir = scratch_dir();
    let output = tabula(
        &["local", "--database", url.expose_secret()],
        &[],
        b"alice: /help x\xff\nalice: /wallet\n",
        &dir,
    );
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains("line 1"), "{text}");
    // The second line was answered: the session did not end.
    assert!(text.contains("1,000 coins"), "{text}");
}

#[test]
fn ordinary_chat_gets_no_answer() {
    let db = SqliteFile::new();
    let url = db.url();
    let dir = scratch_dir();
    let output = tabula(
        &["local", "--database", url.expose_secret()],
        &[],
        b"carol: hello\ncarol: good game everyone\n",
        &dir,
    );
    assert!(output.status.success());
    assert_eq!(stdout(&output), "");
}

#[test]
fn an_unwritable_picture_folder_is_reported_once_and_the_game_goes_on() {
    let db = SqliteFile::new();
    let url = db.url();
    let dir = scratch_dir();
    // A file where the folder's parent should be: nothing can be created below it.
    let blocker = dir.join("notadir");
    if let Err(error) = std::fs::write(&blocker, b"x") {
        panic!("cannot write {}: {error}", blocker.display());
    }
    let images = blocker.join("sub");
    let images = images.to_string_lossy();
    let script = "alice: /play konane @bob\nbob: /accept\nbob: #1\nalice: /board\n";
    let output = tabula(
        &[
            "local",
            "--database",
            url.expose_secret(),
            "--images",
            &images,
        ],
        &[],
        script.as_bytes(),
        &dir,
    );
    assert!(output.status.success());
    let text = stdout(&output);
    assert_eq!(text.matches("cannot write pictures").count(), 1, "{text}");
    // Every line after the failure was still answered.
    assert!(text.contains("(bob pressed"), "{text}");
    assert!(text.matches("Game #1 (Konane)").count() >= 2, "{text}");
    assert!(!text.contains("picture not saved"), "{text}");
}

#[test]
fn wait_moves_the_clock_and_the_reminder_is_shown() {
    let db = SqliteFile::new();
    let url = db.url();
    let dir = scratch_dir();
    let script = "alice: /play koan @bob time=2d\nbob: /accept\nalice: /wait 25h\n\
                  alice: /wait soon\n";
    let output = tabula(
        &["local", "--database", url.expose_secret()],
        &[],
        script.as_bytes(),
        &dir,
    );
    assert!(output.status.success());
    let text = stdout(&output);
    let before_wait = text.split("(the clock moves on").next().unwrap_or("");
    assert!(!before_wait.contains("reminder"), "{text}");
    let after_wait = text.split("(the clock moves on").nth(1).unwrap_or("");
    assert!(after_wait.contains("reminder"), "{text}");
    // A bad duration is refused with a hint, and nothing else happens.
    assert!(text.contains("/wait 36h"), "{text}");
}

#[test]
fn an_empty_database_url_means_the_default() {
    let dir = scratch_dir();
    let output = tabula(
        &["local"],
        &[("DATABASE_URL", "")],
        b"alice: /wallet\n",
        &dir,
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout(&output).contains("1,000 coins"));
    // The default is the SQLite file tabula.db in the working directory.
    assert!(dir.join("tabula.db").exists());
}

#[test]
fn rules_values_may_start_with_a_dash_and_games_are_case_insensitive() {
    let dir = scratch_dir();
    let output = tabula(
        &["rules", "show", "konane", "--moves", "-1"],
        &[],
        b"",
        &dir,
    );
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("`-1`"), "{stderr}");
    assert!(output.stdout.is_empty());

    let upper = tabula(
        &["rules", "legal", "Konane", "--moves", "e4"],
        &[],
        b"",
        &dir,
    );
    let lower = tabula(
        &["rules", "legal", "konane", "--moves", "e4"],
        &[],
        b"",
        &dir,
    );
    assert!(upper.status.success());
    assert_eq!(upper.stdout, lower.stdout);

    let unknown = tabula(&["rules", "legal", "konane", "--bogus"], &[], b"", &dir);
    assert_eq!(unknown.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&unknown.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("--bogus"), "{stderr}");
}

#[test]
fn a_staked_game_cannot_be_aborted_by_a_player_after_the_roll_off() {
    let db = SqliteFile::new();
    let url = db.url();
    let dir = scratch_dir();
    let script = "alice: /play coan-ki @bob stake=50\nbob: /accept\nbob: /abort\nbob: /wallet\n";
    let output = tabula(
        &["local", "--database", url.expose_secret()],
        &[],
        script.as_bytes(),
        &dir,
    );
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains("has begun"), "{text}");
    // The stake stays in the pot: bob's 1000 coins less 50.
    assert!(text.contains("has 950 coins"), "{text}");
}
