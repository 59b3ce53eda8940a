//! `tabula local` driven by piped scripts: a whole game of Konane played by pressing buttons,
//! split over two runs on the same SQLite file (the second run continues the stored game); a
//! moderator named on the command line sets up the chat and a staked game is paid out.

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::{SqliteFile, unique_name};

/// Runs `tabula local` with `script` on stdin and returns stdout.
fn run(database: &str, images: &std::path::Path, script: &str) -> String {
    run_with(database, images, &[], script)
}

/// [`run`] with more arguments.
fn run_with(database: &str, images: &std::path::Path, args: &[&str], script: &str) -> String {
    let mut child = match Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["local", "--database", database, "--images"])
        .arg(images)
        .args(args)
        .env_remove("DATABASE_URL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(error) => panic!("cannot start tabula: {error}"),
    };
    if let Some(mut stdin) = child.stdin.take()
        && let Err(error) = stdin.write_all(script.as_bytes())
    {
        panic!("cannot write the script: {error}");
    }
    let output = match child.wait_with_output() {
        Ok(output) => output,
        Err(error) => panic!("tabula failed: {error}"),
    };
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "tabula local failed: {}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(!stdout.contains("! internal error"), "{stdout}");
    stdout
}

/// Both players press the first button in turn; the one not to move is told so and the
/// buttons stay, so whoever is to move plays the first legal move.
fn presses(pairs: usize) -> String {
    "alice: #1\nbob: #1\n".repeat(pairs)
}

#[test]
fn a_piped_script_plays_konane_to_the_end_across_two_runs() {
    let file = SqliteFile::new();
    let database = file.url().expose_secret().to_string();
    let images = std::env::temp_dir().join(unique_name("tabula_local_images"));

    let first = run(
        &database,
        &images,
        &format!(
            "alice: /play konane @bob\nbob: /accept\n{}alice: /moves\n",
            presses(5)
        ),
    );
    assert!(first.contains("Game #1 of Konane begins"), "{first}");
    assert!(first.contains("picture: "), "{first}");
    assert!(first.contains("[#1] "), "{first}");
    assert!(!first.contains(") is over: "), "{first}");

    let second = run(
        &database,
        &images,
        &format!("carol: /board\n{}alice: /history #1\n", presses(200)),
    );
    assert!(second.contains("Game #1 (Konane) is over: @"), "{second}");
    assert!(
        second.contains("Result: Game #1 (Konane) is over: @"),
        "{second}"
    );
    let pictures = std::fs::read_dir(&images).map_or(0, Iterator::count);
    assert!(pictures > 10, "{pictures} pictures");
    let _ = std::fs::remove_dir_all(&images);
}

#[test]
fn bad_lines_are_answered_and_skipped() {
    let file = SqliteFile::new();
    let database = file.url().expose_secret().to_string();
    let images = std::env::temp_dir().join(unique_name("tabula_local_images"));
    let out = run(
        &database,
        &images,
        "no colon here\nalice: #3\nalice: /help\nalice: /nonsense\n",
    );
    assert!(out.contains("write lines as"), "{out}");
    assert!(out.contains("there is no button 3"), "{out}");
    assert!(out.contains("/play: Challenge"), "{out}");
    assert!(out.contains("I do not know `/nonsense`"), "{out}");
}

/// The local table's bot knows its own name (`tabula`): a command addressed to it is
/// answered, one addressed to another bot gets no answer, as in a chat (issue 37).
#[test]
fn a_command_for_another_bot_gets_no_answer() {
    let file = SqliteFile::new();
    let database = file.url().expose_secret().to_string();
    let images = std::env::temp_dir().join(unique_name("tabula_local_images"));
    let other = run(
        &database,
        &images,
        "alice: /help@otherbot
",
    );
    assert!(other.trim().is_empty(), "no answer: {other}");
    let ours = run(
        &database,
        &images,
        "alice: /help@tabula
",
    );
    assert!(ours.contains("/play: Challenge"), "{ours}");
}

#[test]
fn a_moderator_named_on_the_command_line_sets_up_a_staked_game() {
    let file = SqliteFile::new();
    let database = file.url().expose_secret().to_string();
    let images = std::env::temp_dir().join(unique_name("tabula_local_images"));
    let out = run_with(
        &database,
        &images,
        &["--moderator", "mia"],
        "alice: /config grant=300
         mia: /config grant=300 max_stake=200
         alice: /play koan @bob stake=250
         alice: /play koan @bob stake=200 time=2d
         bob: /accept
         bob: /wallet
         alice: /resign
         alice: #1
         bob: /wallet
         alice: /leaderboard
",
    );
    assert!(
        out.contains("Sorry: only moderators of this server or group may change the settings."),
        "{out}"
    );
    assert!(out.contains("@mia changed grant, max_stake."), "{out}");
    assert!(
        out.contains("the stake must be a whole number of coins from 0 to 200"),
        "{out}"
    );
    assert!(
        out.contains("(challenge #1), stake 200 coins each, 2 days per move."),
        "{out}"
    );
    assert!(
        out.contains(
            "@bob has 100 coins in Local table, and 200 coins staked in games being played."
        ),
        "{out}"
    );
    assert!(out.contains("@bob takes the pot of 400 coins."), "{out}");
    assert!(out.contains("@bob has 500 coins in Local table."), "{out}");
    assert!(
        out.contains("1. bob: 500 coins\n2. alice: 100 coins"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&images);
}
