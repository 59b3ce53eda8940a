//! `tabula rules legal|show|replay`, `tabula verify` and `tabula locales` as a user runs
//! them: the binary, its stdout, stderr and exit status, checked against the contract of
//! `shared/rules/README.md`.

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

/// Runs `tabula rules show` and returns stdout, asserting success.
fn show(args: &[&str]) -> String {
    let mut all = vec!["rules", "show"];
    all.extend_from_slice(args);
    let run = tabula(&all);
    assert_eq!(run.status, 0, "{args:?}: {}", run.stderr);
    run.stdout
}

#[test]
fn every_game_is_reachable_from_the_command_line() {
    for (game, status) in [
        ("konane", "turn black"),
        ("koan", "turn white"),
        ("kolowis", "turn white"),
        ("coan-ki", "chance"),
        ("pachisi", "turn S"),
    ] {
        let out = show(&[game]);
        assert_eq!(out.lines().nth(1), Some(status), "{game}: {out}");
    }
}

#[test]
fn chance_nodes_print_outcomes_with_weights() {
    let run = tabula(&["rules", "legal", "pachisi", "--moves", "throw"]);
    let mut lines: Vec<&str> = run.stdout.lines().collect();
    lines.sort_unstable();
    assert_eq!(
        lines,
        [
            "roll:10 6",
            "roll:2 15",
            "roll:25 1",
            "roll:3 20",
            "roll:4 15",
            "roll:5 6",
            "roll:6 1"
        ]
    );
    let run = tabula(&["rules", "legal", "coan-ki"]);
    assert_eq!(run.stdout.lines().count(), 36);
    assert!(
        run.stdout.lines().all(|l| l.ends_with(" 1")),
        "{}",
        run.stdout
    );
}

#[test]
fn show_prints_the_drawing_examples_of_every_rules_file() {
    let koan = show(&[
        "koan",
        "--position",
        "turn=white white-oct=I1,J4 white-sq=C3,F4 black-oct=G11,J10 black-sq=C9,F8",
    ]);
    assert!(
        koan.contains("11  ( )     ( )     ( )     (B)     ( )     ( )  11"),
        "{koan}"
    );
    assert!(
        koan.contains(" 4      [ ]     [ ]     [w]     [ ]     [W]      4"),
        "{koan}"
    );
    let kolowis = show(&[
        "kolowis",
        "--position",
        "turn=black white=B1 black=A1,B2,B3,C1",
    ]);
    assert!(kolowis.contains("B  w---b---b---.---"), "{kolowis}");
    let coan = show(&[
        "coan-ki",
        "--position",
        "turn=black white=a1x5,c2x2,e1x3,h2x1 white-home=a1x2,b1x1 black=a1x1,c1x2,f2x4,g2x5 black-home=h2x2",
    ]);
    assert!(
        coan.contains(" 1 | W5 w2 B1|    w1   |    B2   |"),
        "{coan}"
    );
    let pachisi = show(&[
        "pachisi",
        "--position",
        "turn=W phase=decide S=0,6,13,80 E=0,0,12,12 N=3,84,84,84 W=0,0,0,33 entered=S,E,N,W",
    ]);
    assert!(pachisi.contains("S: 0 ch, 6 j3, 13 k5, 80 j5"), "{pachisi}");
    assert!(
        pachisi.contains("11  . . . x . . . . # # # . . . . 2 . . .  11"),
        "{pachisi}"
    );
}

#[test]
fn render_writes_a_png() {
    let out = std::env::temp_dir().join(format!("tabula-cli-{}.png", std::process::id()));
    let run = tabula(&[
        "rules",
        "render",
        "konane",
        "--moves",
        "e4 d4",
        "-o",
        out.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let bytes = std::fs::read(&out).expect("the picture");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    let _ = std::fs::remove_file(out);
    assert_rejected(
        &[
            "rules",
            "render",
            "koan",
            "--moves",
            "A1-A5",
            "-o",
            "/tmp/x.png",
        ],
        "A1-A5",
    );
}

#[test]
fn ai_prints_one_legal_move_and_nothing_else() {
    for (game, moves) in [
        ("konane", "e4 d4"),
        ("koan", ""),
        ("kolowis", ""),
        ("coan-ki", "roll:2v5"),
        ("pachisi", "throw roll:2"),
    ] {
        let run = tabula(&[
            "rules", "ai", game, "--moves", moves, "--level", "2", "--seed", "7",
        ]);
        assert_eq!(run.status, 0, "{game}: {}", run.stderr);
        assert_eq!(run.stdout.lines().count(), 1, "{game}: {}", run.stdout);
        let legal = tabula(&["rules", "legal", game, "--moves", moves]);
        let mv = run.stdout.trim_end();
        assert!(
            legal.stdout.lines().any(|l| l == mv),
            "{game}: {mv} not in {}",
            legal.stdout
        );
        let again = tabula(&[
            "rules", "ai", game, "--moves", moves, "--level", "2", "--seed", "7",
        ]);
        assert_eq!(
            again.stdout, run.stdout,
            "{game}: the same seed, the same move"
        );
    }
}

#[test]
fn ai_finds_the_winning_chain() {
    let run = tabula(&[
        "rules",
        "ai",
        "konane",
        "--position",
        "size=8 turn=black black=e4 white=e5,e7,f6",
        "--level",
        "4",
    ]);
    assert_eq!(
        (run.status, run.stdout.as_str()),
        (0, "e4-e6-e8\n"),
        "{}",
        run.stderr
    );
    let run = tabula(&["rules", "ai", "koan", "--level", "1", "--time-ms", "0"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
}

#[test]
fn ai_refuses_a_position_that_is_not_a_decision() {
    assert_rejected(&["rules", "ai", "coan-ki"], "not a decision");
    assert_rejected(
        &[
            "rules",
            "ai",
            "konane",
            "--position",
            "size=8 turn=black black=b1 white=a1",
        ],
        "not a decision",
    );
    assert_rejected(&["rules", "ai", "konane", "--level", "5"], "5");
    assert_rejected(&["rules", "ai", "konane", "--seed", "x"], "x");
    assert_rejected(&["rules", "ai", "konane", "--time-ms", "soon"], "soon");
    assert_rejected(&["rules", "ai", "konane", "--moves", "e4 d3"], "d3");
}

/// `tabula rules replay`: a GIF (or an APNG for a `.png` name) with one frame for the start and
/// one per action; a bad move is refused like the other commands' (exit 2, the token named).
#[test]
fn replay_writes_an_animation() {
    let dir = std::env::temp_dir().join(format!("tabula-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let gif = dir.join("k.gif");
    let gif_path = gif.to_string_lossy().into_owned();
    let moves = "d5 e5 b5-d5 g5-e5";
    let run = tabula(&[
        "rules", "replay", "konane", "--moves", moves, "-o", &gif_path,
    ]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stdout.contains("(5 frames"), "{}", run.stdout);
    let bytes = std::fs::read(&gif).expect("written");
    assert!(bytes.starts_with(b"GIF89a"));
    let mut decoder = gif::DecodeOptions::new()
        .read_info(bytes.as_slice())
        .expect("a GIF");
    let mut frames = 0;
    while decoder.read_next_frame().expect("a frame").is_some() {
        frames += 1;
    }
    assert_eq!(frames, 5);

    let apng = dir.join("k.png");
    let apng_path = apng.to_string_lossy().into_owned();
    let run = tabula(&[
        "rules", "replay", "konane", "--moves", moves, "-o", &apng_path,
    ]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let bytes = std::fs::read(&apng).expect("written");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    // acTL: the animation control chunk, saying five frames.
    let at = bytes
        .windows(4)
        .position(|w| w == b"acTL")
        .expect("an animated PNG");
    assert_eq!(&bytes[at + 4..at + 8], &5u32.to_be_bytes());

    assert_rejected(
        &[
            "rules", "replay", "konane", "--moves", "d5 zz9", "-o", &gif_path,
        ],
        "zz9",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tabula verify`: 0 with a summary for a record that verifies, 1 naming the line that does
/// not, 2 for a file that cannot be read or parsed.
#[test]
fn verify_exits_as_documented() {
    let dir = std::env::temp_dir().join(format!("tabula-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let file = dir.join("r.txt");
    let path = file.to_string_lossy().into_owned();
    // A Konane record: no dice to check.
    let good = "[Game \"konane\"]\n[Options \"\"]\n[Result \"*\"]\n\nd5\ne5\nb5-d5\n";
    std::fs::write(&file, good).expect("write");
    let run = tabula(&["verify", &path]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("verified: konane, 3 actions legal"),
        "{}",
        run.stdout
    );
    // An illegal move on line 7.
    std::fs::write(&file, good.replace("b5-d5", "b5-b7")).expect("write");
    let run = tabula(&["verify", &path]);
    assert_eq!(run.status, 1, "{}", run.stderr);
    assert!(run.stderr.contains("line 7:"), "{}", run.stderr);
    // A result the moves do not reach.
    std::fs::write(&file, good.replace("[Result \"*\"]", "[Result \"draw\"]")).expect("write");
    let run = tabula(&["verify", &path]);
    assert_eq!(run.status, 1, "{}", run.stderr);
    assert!(run.stderr.contains("line 3:"), "{}", run.stderr);
    // Cannot be parsed, or read.
    std::fs::write(&file, "[Game konane]\n").expect("write");
    assert_eq!(tabula(&["verify", &path]).status, 2);
    assert_eq!(tabula(&["verify", &format!("{path}.missing")]).status, 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tabula locales`: every language of the catalogue, complete; one named; an unknown one
/// refused with the list.
#[test]
fn locales_lists_each_language_and_what_it_lacks() {
    let run = tabula(&["locales"]);
    assert_eq!(run.status, 0, "{}{}", run.stdout, run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines, ["bg: complete", "en: complete", "ru: complete"]);
    let run = tabula(&["locales", "ru"]);
    assert_eq!((run.status, run.stdout.as_str()), (0, "ru: complete\n"));
    let stderr = assert_rejected(&["locales", "xx"], "`xx`");
    assert!(stderr.contains("bg, en, ru"), "{stderr}");
}
