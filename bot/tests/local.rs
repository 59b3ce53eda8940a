//! `tabula local` driven by piped scripts: a whole game of Konane played by pressing buttons,
//! split over two runs on the same SQLite file (the second run continues the stored game).

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::{SqliteFile, unique_name};

/// Runs `tabula local` with `script` on stdin and returns stdout.
fn run(database: &str, images: &std::path::Path, script: &str) -> String {
    let mut child = match Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["local", "--database", database, "--images"])
        .arg(images)
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
    assert!(!first.contains("the game is over"), "{first}");

    let second = run(
        &database,
        &images,
        &format!("carol: /board\n{}alice: /history #1\n", presses(200)),
    );
    assert!(second.contains("the game is over"), "{second}");
    assert!(second.contains("Result: winner"), "{second}");
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
    assert!(out.contains("/play <game>"), "{out}");
    assert!(out.contains("I do not know `/nonsense`"), "{out}");
}
