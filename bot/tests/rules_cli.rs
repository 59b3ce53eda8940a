//! `tabula rules legal|show` as a user runs it: the binary, its stdout, stderr and exit status,
//! checked against the contract of `shared/rules/README.md`.

use std::process::Command;

struct Run {
    status: i32,
    stdout: String,
    stderr: String,
}

fn tabula(args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .output()
        .expect("run tabula");
    Run {
        status: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// A rejected invocation: exit status 2, nothing on stdout, one line on stderr naming `token`.
fn assert_rejected(args: &[&str], token: &str) -> String {
    let run = tabula(args);
    assert_eq!(run.status, 2, "{args:?}: {}", run.stderr);
    assert!(run.stdout.is_empty(), "{args:?} printed {}", run.stdout);
    assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
    assert!(run.stderr.contains(token), "{args:?}: {}", run.stderr);
    run.stderr
}

#[test]
fn legal_prints_one_move_per_line() {
    let run = tabula(&["rules", "legal", "konane"]);
    assert_eq!(run.status, 0);
    let mut lines: Vec<&str> = run.stdout.lines().collect();
    lines.sort_unstable();
    assert_eq!(lines, ["a8", "d5", "e4", "h1"]);
}

#[test]
fn legal_prints_nothing_when_the_game_is_over() {
    let run = tabula(&[
        "rules",
        "legal",
        "konane",
        "--position",
        "size=8 turn=black black=b1 white=a1",
    ]);
    assert_eq!((run.status, run.stdout.as_str()), (0, ""));
}

#[test]
fn show_prints_the_konane_example_of_section_10() {
    let run = tabula(&[
        "rules",
        "show",
        "konane",
        "--position",
        "size=8 turn=white black=c4,d3,d5,d7,e4,g4 white=d4",
    ]);
    let expected = "\
size=8 turn=white black=c4,d3,d5,d7,e4,g4 white=d4
turn white
    a b c d e f g h
 8  . . . . . . . .  8
 7  . . . B . . . .  7
 6  . . . . . . . .  6
 5  . . . B . . . .  5
 4  . . B W B . B .  4
 3  . . . B . . . .  3
 2  . . . . . . . .  2
 1  . . . . . . . .  1
    a b c d e f g h
";
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.stdout, expected);
}

#[test]
fn options_and_moves_apply_in_order() {
    let run = tabula(&[
        "rules", "legal", "konane", "--option", "size=6", "--moves", "d3",
    ]);
    let mut lines: Vec<&str> = run.stdout.lines().collect();
    lines.sort_unstable();
    assert_eq!(lines, ["c3", "d2", "d4", "e3"]);
}

#[test]
fn bad_input_exits_2_with_one_line_naming_the_token() {
    assert_rejected(&["rules", "legal", "chess"], "chess");
    assert_rejected(
        &["rules", "show", "konane", "--option", "colour=red"],
        "colour",
    );
    assert_rejected(&["rules", "show", "konane", "--option", "size=7"], "size=7");
    assert_rejected(&["rules", "show", "konane", "--option", "size"], "size");
    assert_rejected(
        &[
            "rules",
            "legal",
            "konane",
            "--position",
            "size=8 turn=black black=z9",
        ],
        "z9",
    );
    assert_rejected(
        &["rules", "legal", "konane", "--position", "size=8"],
        "turn",
    );
    let message = assert_rejected(&["rules", "legal", "konane", "--moves", "e4 d3"], "d3");
    assert!(message.contains("action 1"), "{message}");
    assert_rejected(
        &["rules", "legal", "konane", "--moves", "e4 roll:3"],
        "roll:3",
    );
}
