//! The scenarios of `shared/rules/kolowis.md`, section 12, named after them; the position string
//! (section 9), the drawing (section 10), typed input (section 8) and move counts.

use crate::common;

use tabula_core::playout::perft;

use common::{game, head, illegal_at, legal, reason, rejected, rejected_at, set};
use tabula_core::kolowis::{Event, Kolowis, Move, Options, Point, Stall};
use tabula_core::{
    ActionError, CellContents, Colour, Game, Holding, IllegalReason as R, MoveError, NotYours,
    Outcome, Seat, SetupError, Status, script,
};

const START: &str = "turn=white white=B2,B3,B4,B5,B6,B7,B8,C1,C2,C3,C4,C5,C6,C7,C8,C9,C10,C11,C12,C13,C14,C15,C16 black=A1,A2,A3,A4,A5,A6,A7,A8,A9,A10,A11,A12,A13,A14,A15,A16,B10,B11,B12,B13,B14,B15,B16";
const K_CHAIN: &str = "turn=white white=C2 black=C3,C5,C7";
const K_CURVE: &str = "turn=white white=A1 black=B1";
const K_MAND: &str = "turn=white white=C3,C10 black=A12,C4";
const K_END: &str = "turn=white white=B1 black=A1,B2,B3,C1";
const K_QUIET: &str = "turn=white white=C1,C2 black=A16 quiet=49";
const REPETITION: &str = "B2-B1 B16-B17 B1-B2 B17-B16 B2-B1 B16-B17 B1-B2 B17-B16";

fn start_with_black() -> String {
    START.replace("turn=white", "turn=black")
}

#[test]
fn k_open_the_opening_position() {
    assert_eq!(
        legal::<Kolowis>(&[], None, ""),
        set(&["B2-B1", "B8-B9", "C1-B1", "C8-B9", "C9-B9", "C16-B17"])
    );
    assert_eq!(
        legal::<Kolowis>(&[], Some(&start_with_black()), ""),
        set(&["A1-B1", "A8-B9", "A9-B9", "A16-B17", "B10-B9", "B16-B17"])
    );
    assert_eq!(
        head::<Kolowis>(&[], None, ""),
        (START.into(), "turn white".into())
    );
    // Rule 3 (K10): every first move goes to one of the three free points.
    let reason = illegal_at::<Kolowis>(&[], None, "C2-B1", 0);
    assert!(
        matches!(&reason, R::NotStraight { from, to, .. } if from == "C2" && to == "B1"),
        "{reason:?}"
    );
    rejected_at::<Kolowis>(&[], None, "A8-B9", 0);
}

#[test]
fn k_reply_the_reply_to_each_first_move() {
    let white_first: [(&str, &[&str]); 6] = [
        ("C8-B9", &["A7xC8", "A9xC8"]),
        ("C9-B9", &["A8xC9"]),
        ("B8-B9", &["B10xB8"]),
        ("C1-B1", &["A2xC1"]),
        (
            "B2-B1",
            &[
                "A1-B2", "A2-B2", "A8-B9", "A9-B9", "A16-B17", "B10-B9", "B16-B17",
            ],
        ),
        ("C16-B17", &["A1-B1", "A8-B9", "A9-B9", "B10-B9", "B16-C16"]),
    ];
    for (first, replies) in white_first {
        assert_eq!(legal::<Kolowis>(&[], None, first), set(replies), "{first}");
    }
    // The captured pieces named in the table.
    let taken = |moves: &str, reply: &str| {
        let g: Kolowis = game(&[], None, moves);
        let mv = g.interpret(reply).expect("legal");
        mv.captured().map(|p| p.to_string()).collect::<Vec<_>>()
    };
    assert_eq!(taken("C8-B9", "A7xC8"), ["B8"]);
    assert_eq!(taken("C8-B9", "A9xC8"), ["B9"]);
    assert_eq!(taken("C9-B9", "A8xC9"), ["B9"]);
    assert_eq!(taken("B8-B9", "B10xB8"), ["B9"]);
    assert_eq!(taken("C1-B1", "A2xC1"), ["B2"]);

    let black = start_with_black();
    let black_first: [(&str, &[&str]); 6] = [
        ("A16-B17", &["C15xA16"]),
        ("A8-B9", &["C9xA8"]),
        ("A9-B9", &["C8xA9", "C10xA9"]),
        ("B10-B9", &["B8xB10"]),
        ("A1-B1", &["B2-A1", "B8-B9", "C8-B9", "C9-B9", "C16-B17"]),
        (
            "B16-B17",
            &[
                "B2-B1", "B8-B9", "C1-B1", "C8-B9", "C9-B9", "C15-B16", "C16-B16",
            ],
        ),
    ];
    for (first, replies) in black_first {
        assert_eq!(
            legal::<Kolowis>(&[], Some(&black), first),
            set(replies),
            "{first}"
        );
    }
    // After C8-B9 Black must capture: a step is refused, naming it.
    assert!(matches!(
        illegal_at::<Kolowis>(&[], None, "C8-B9 A16-B17", 1),
        R::MustCapture { .. }
    ));
}

#[test]
fn k_chain_every_prefix_of_a_sequence_is_a_move() {
    assert_eq!(
        legal::<Kolowis>(&[], Some(K_CHAIN), ""),
        set(&["C2xC4", "C2xC4xC6", "C2xC4xC6xC8"])
    );
    let (position, status) = head::<Kolowis>(&[], Some(K_CHAIN), "C2xC4xC6");
    assert_eq!(position, "turn=black white=C6 black=C7");
    assert_eq!(status, "turn black");
    assert_eq!(
        legal::<Kolowis>(&[], Some(K_CHAIN), "C2xC4xC6"),
        set(&["C7xC5"])
    );
    let black = K_CHAIN.replace("turn=white", "turn=black");
    assert_eq!(legal::<Kolowis>(&[], Some(&black), ""), set(&["C3xC1"]));
    // A shortened sequence is not accepted (section 8).
    assert!(matches!(
        illegal_at::<Kolowis>(&[], Some(K_CHAIN), "C2xC6", 0),
        R::NotJoined { .. }
    ));
    // Black may not step while a capture exists.
    assert_eq!(
        illegal_at::<Kolowis>(&[], Some(K_CHAIN), "C2xC4xC6 C7-C8", 1),
        R::MustCapture {
            captures: vec!["C7xC5".into()]
        }
    );
}

#[test]
fn k_curve_no_jump_round_the_end() {
    assert_eq!(
        legal::<Kolowis>(&[], Some(K_CURVE), ""),
        set(&["A1-A2", "A1-B2"])
    );
    assert!(matches!(
        illegal_at::<Kolowis>(&[], Some(K_CURVE), "A1xC1", 0),
        R::NotStraight { bend, .. } if bend == "B1"
    ));
    // A step along the curve is allowed, to an empty point.
    let g: Kolowis = game(&[], Some("turn=white white=A1"), "");
    assert!(g.moves().iter().any(|m| m.to_string() == "A1-B1"));
}

#[test]
fn k_mand_capturing_is_compulsory_for_the_whole_side() {
    assert_eq!(legal::<Kolowis>(&[], Some(K_MAND), ""), set(&["C3xC5"]));
    assert_eq!(
        illegal_at::<Kolowis>(&[], Some(K_MAND), "C10-C11", 0),
        R::MustCapture {
            captures: vec!["C3xC5".into()]
        }
    );
}

/// A piece that can capture in two directions has both captures (a fold of the capturing pieces
/// with `^` instead of `|` drops a piece found twice: a mutation run found no test for it).
#[test]
fn a_piece_with_two_captures_has_both() {
    assert_eq!(
        legal::<Kolowis>(&[], Some("turn=white white=B5 black=B4,B6"), ""),
        set(&["B5xB3", "B5xB7"])
    );
}

/// What the pictures and the computer read from a state: each side's pieces and the quiet
/// counter (a mutation run found no test reading them).
#[test]
fn pieces_and_quiet_plies_read_the_position() {
    let g: Kolowis = game(&[], Some(K_QUIET), "");
    let names = |seat| g.pieces(seat).map(|p| p.to_string()).collect::<Vec<_>>();
    assert_eq!(names(Seat(0)), ["C1", "C2"], "White");
    assert_eq!(names(Seat(1)), ["A16"], "Black");
    assert_eq!(g.quiet(), 49);
}

#[test]
fn k_end_no_move_loses() {
    let (position, status) = head::<Kolowis>(&[], Some(K_END), "");
    assert_eq!(position, K_END);
    assert_eq!(status, "winner black");
    assert!(legal::<Kolowis>(&[], Some(K_END), "").is_empty());
    assert!(matches!(
        rejected::<Kolowis>(&[], Some(K_END), "B1-B2"),
        SetupError::Action {
            index: 0,
            error: ActionError::GameOver,
            ..
        }
    ));
    let black = K_END.replace("turn=white", "turn=black");
    assert_eq!(
        legal::<Kolowis>(&[], Some(&black), ""),
        set(&[
            "A1-A2", "B2-A2", "B2-C2", "B3-A2", "B3-A3", "B3-B4", "B3-C2", "B3-C3", "C1-C2"
        ])
    );
    // Capturing the last piece wins at once: the side with no pieces has no move.
    let (_, status) = head::<Kolowis>(&[], Some("turn=white white=C1 black=C2"), "C1xC3");
    assert_eq!(status, "winner white");
}

#[test]
fn k_stall_the_house_rule() {
    // Repetition: the start position occurs for the third time after the eighth ply.
    let (position, status) = head::<Kolowis>(&[], None, REPETITION);
    assert_eq!(position, format!("{START} quiet=8"));
    assert_eq!(status, "draw");
    assert!(legal::<Kolowis>(&[], None, REPETITION).is_empty());
    let seven = REPETITION.rsplit_once(' ').map_or("", |(a, _)| a);
    assert_eq!(head::<Kolowis>(&[], None, seven).1, "turn black");
    assert_eq!(
        legal::<Kolowis>(&[], None, seven),
        set(&[
            "A1-B1", "A8-B9", "A9-B9", "A15-B16", "A16-B16", "B10-B9", "B15-B16", "B17-B16"
        ])
    );
    assert!(matches!(
        rejected::<Kolowis>(&[], None, &format!("{REPETITION} C8-B9")),
        SetupError::Action {
            index: 8,
            error: ActionError::GameOver,
            ..
        }
    ));
    // With stall=0 the game goes on.
    assert_eq!(
        head::<Kolowis>(&["stall=0"], None, REPETITION).1,
        "turn white"
    );
    assert_eq!(
        legal::<Kolowis>(&["stall=0"], None, REPETITION),
        legal::<Kolowis>(&[], None, "")
    );
    // Ply count.
    assert_eq!(
        legal::<Kolowis>(&[], Some(K_QUIET), ""),
        set(&["C1-B1", "C1-B2", "C2-B2", "C2-B3", "C2-C3"])
    );
    let (position, status) = head::<Kolowis>(&[], Some(K_QUIET), "C1-B1");
    assert_eq!(position, "turn=black white=B1,C2 black=A16 quiet=50");
    assert_eq!(status, "winner white");
    assert!(legal::<Kolowis>(&[], Some(K_QUIET), "C1-B1").is_empty());
    rejected_at::<Kolowis>(&[], Some(K_QUIET), "C1-B1 A16-A15", 1);
    let (position, status) = head::<Kolowis>(&["stall=0"], Some(K_QUIET), "C1-B1");
    assert_eq!(position, "turn=black white=B1,C2 black=A16 quiet=50");
    assert_eq!(status, "turn black");
    assert_eq!(
        legal::<Kolowis>(&["stall=0"], Some(K_QUIET), "C1-B1"),
        set(&["A16-A15", "A16-B16", "A16-B17"])
    );
    // After any capture quiet is 0 again.
    let (position, _) = head::<Kolowis>(&[], Some(&format!("{K_CHAIN} quiet=7")), "C2xC4xC6");
    assert_eq!(position, "turn=black white=C6 black=C7");
}

/// A lone White piece goes round the triangle C1, B1, B2 (three plies of White) while Black
/// steps A16-A15 and back (two plies): after these five plies the placement of the start is
/// back, but with Black to move, so it is a different position (section 6, rule 2: "the same
/// placement of all pieces with the same player to move").
const TRIANGLE: &str = "turn=white white=C1 black=A16";
const ROUND: &str = "C1-B1 A16-A15 B1-B2 A15-A16 B2-C1";

#[test]
fn stall_repetition_needs_the_same_side_to_move() {
    // Five plies: the start placement with the other side to move is not an occurrence.
    let g: Kolowis = game(&[], Some(TRIANGLE), ROUND);
    assert_eq!(g.position(), "turn=black white=C1 black=A16 quiet=5");
    // Twelve plies: every placement of the round has now been seen twice, each time once with
    // each side to move, and the start placement twice with White to move (counting the given
    // position): no position has occurred three times, so play goes on. A rule that forgot the
    // side to move would count the start placement three times here and end the game.
    let twelve = format!("{ROUND} A16-A15 C1-B1 A15-A16 B1-B2 A16-A15 B2-C1 A15-A16");
    let g: Kolowis = game(&[], Some(TRIANGLE), &twelve);
    assert_eq!(g.position(), "turn=white white=C1 black=A16 quiet=12");
    assert_eq!(g.status(), Status::Decision(tabula_core::Seat(0)));
    assert_eq!(g.stall_ending(), None);
    assert!(!g.moves().is_empty());
    // Four more plies bring the start placement with White to move a third time: a draw.
    let sixteen = format!("{twelve} C1-B1 A16-A15 B1-C1 A15-A16");
    let g: Kolowis = game(&[], Some(TRIANGLE), &sixteen);
    assert_eq!(g.position(), "turn=white white=C1 black=A16 quiet=16");
    assert_eq!(g.stall_ending(), Some(Stall::Repetition));
    assert_eq!(g.status(), Status::Done(Outcome::Draw));
}

#[test]
fn stall_repetition_counts_the_given_position_as_the_first_occurrence() {
    // From the start position given as a string, the same eight plies repeat it a third time.
    assert_eq!(head::<Kolowis>(&[], Some(START), REPETITION).1, "draw");
    // From the position after four plies, the start position is new: four more plies make
    // only its second occurrence.
    let g: Kolowis = game(&[], None, "B2-B1 B16-B17 B1-B2 B17-B16");
    let (position, status) =
        head::<Kolowis>(&[], Some(&g.position()), "B2-B1 B16-B17 B1-B2 B17-B16");
    assert_eq!(status, "turn white");
    assert_eq!(position, format!("{START} quiet=8"));
    // A position read with quiet at the limit is over at once; the side with more pieces wins.
    assert_eq!(
        head::<Kolowis>(&[], Some("turn=white white=C1 black=A16,A1 quiet=50"), "").1,
        "winner black"
    );
    assert_eq!(
        head::<Kolowis>(
            &["stall=3"],
            Some("turn=white white=C1 black=A16 quiet=3"),
            ""
        )
        .1,
        "draw"
    );
    // No legal move is checked before the stall rule (section 6).
    assert_eq!(
        head::<Kolowis>(&[], Some("turn=white white=B1 black=A1,C1 quiet=60"), "").1,
        "winner black"
    );
}

#[test]
fn events_narrate_the_move_and_the_end() {
    let mut g: Kolowis = game(&[], Some(K_CHAIN), "");
    let events = g.apply_text("c2 c4 c6").expect("legal").1;
    assert_eq!(events.len(), 1);
    assert!(matches!(events[0], Event::Captured { .. }));
    assert_eq!(
        events[0].to_string(),
        "White captured C2xC4xC6, taking C3, C5"
    );
    let mut g: Kolowis = game(&[], Some(K_QUIET), "");
    let events = g.apply_text("C1-B1").expect("legal").1;
    assert_eq!(
        events.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [
            "White moved C1-B1",
            "50 plies without a capture: White wins with 2 pieces against 1"
        ]
    );
    let mut g: Kolowis = game(&[], None, "B2-B1 B16-B17 B1-B2 B17-B16 B2-B1 B16-B17 B1-B2");
    let events = g.apply_text("B17-B16").expect("legal").1;
    assert_eq!(
        events[1].to_string(),
        "the same position occurred a third time: a draw, 23 pieces each"
    );
    let mut g: Kolowis = game(&[], Some("turn=white white=C1 black=C2"), "");
    let events = g.apply_text("C1xC3").expect("legal").1;
    assert_eq!(events[1].to_string(), "Black has no legal move: White wins");
    assert_eq!(
        g.status(),
        Status::Done(Outcome::Winner(tabula_core::Team(0)))
    );
}

#[test]
fn position_strings_round_trip() {
    let examples = [
        START,
        "turn=black white=B1 black=A1,B2,B3,C1",
        "turn=white white=C1,C2 black=A16 quiet=49",
    ];
    for text in examples {
        let g: Kolowis = game(&[], Some(text), "");
        assert_eq!(g.position(), text);
    }
    let start: Kolowis = game(&[], None, "");
    assert_eq!(start.position(), START);
    assert_eq!(game::<Kolowis>(&[], Some(START), ""), start);
    // Fields in any order, lists in any order and case, empty lists and quiet=0 left out.
    let g: Kolowis = game(
        &[],
        Some("quiet=0 black=c1,B3,A1,B2 white=b1 turn=black"),
        "",
    );
    assert_eq!(g.position(), "turn=black white=B1 black=A1,B2,B3,C1");
    let g: Kolowis = game(&[], Some("turn=white white=A2,A10,B1 black="), "");
    assert_eq!(g.position(), "turn=white white=A2,A10,B1");
}

#[test]
fn position_errors_name_the_token() {
    let cases = [
        ("turn=white colour=red", "colour"),
        ("turn=white white=D4", "D4"),
        ("turn=white white=A17", "A17"),
        ("turn=white white=B0", "B0"),
        ("turn=white white=C01", "C01"),
        ("turn=white white=B18", "B18"),
        ("turn=white white=C5,C5", "C5"),
        ("turn=white white=C5 black=C5", "C5"),
        ("turn=red", "red"),
        ("white=C1", "turn"),
        ("turn=white turn=black", "turn"),
        ("turn=white quiet=-1", "-1"),
        ("turn=white quiet=x", "x"),
        (
            "turn=white quiet=99999999999999999999",
            "99999999999999999999",
        ),
        ("turn=white white", "white"),
    ];
    for (position, token) in cases {
        let message = rejected::<Kolowis>(&[], Some(position), "").to_string();
        assert!(message.contains(token), "{position}: {message}");
    }
}

#[test]
fn options_are_checked() {
    let message = common::try_game::<Kolowis>(&["size=8"], None, "")
        .map(|g| g.position())
        .expect_err("an unknown option")
        .to_string();
    assert!(
        message.contains("size") && message.contains("stall"),
        "{message}"
    );
    for bad in ["stall=-1", "stall=x", "stall=99999999999"] {
        let message = common::try_game::<Kolowis>(&[bad], None, "")
            .map(|g| g.position())
            .expect_err(bad)
            .to_string();
        assert!(message.contains(bad), "{message}");
    }
    let options = script::options::<Kolowis>(&["stall=10"]).expect("options");
    assert_eq!(options, Options::with_stall(10));
    // The limit the pictures show (a mutation run found no test reading it back).
    assert_eq!(options.stall(), 10);
    assert_eq!(Options::default().stall(), 50);
    assert_eq!(Options::with_stall(0).stall(), 0);
    let g: Kolowis = game(&["stall=10"], None, "");
    assert_eq!(
        g.options(),
        &Options::with_stall(10),
        "a game keeps its options"
    );
    assert_eq!(
        Kolowis::option_pairs(&Options::default()),
        [("stall", "50".to_string())]
    );
}

#[test]
fn drawing_matches_section_10() {
    let expected = "\
turn=black white=B1 black=A1,B2,B3,C1
turn black
     1   2   3   4   5   6   7   8   9  10  11  12  13  14  15  16
A    b---.---.---.---.---.---.---.---.---.---.---.---.---.---.---.
    / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\
B  w---b---b---.---.---.---.---.---.---.---.---.---.---.---.---.---.
    \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ /
C    b---.---.---.---.---.---.---.---.---.---.---.---.---.---.---.
   1   2   3   4   5   6   7   8   9  10  11  12  13  14  15  16  17
";
    let g: Kolowis = game(&[], Some("turn=black white=B1 black=A1,B2,B3,C1"), "");
    assert_eq!(script::show_text(&g), expected);
    // The start board of section 2.
    let start: Kolowis = game(&[], None, "");
    let board = "     1   2   3   4   5   6   7   8   9  10  11  12  13  14  15  16
A    b---b---b---b---b---b---b---b---b---b---b---b---b---b---b---b
    / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\
B  .---w---w---w---w---w---w---w---.---b---b---b---b---b---b---b---.
    \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ /
C    w---w---w---w---w---w---w---w---w---w---w---w---w---w---w---w
   1   2   3   4   5   6   7   8   9  10  11  12  13  14  15  16  17
";
    assert_eq!(start.drawing(), board);
    // The quiet line, only when the stall rule is on and quiet is not 0.
    let g: Kolowis = game(&[], Some(K_QUIET), "");
    assert!(
        g.drawing().ends_with("\nquiet 49 of 50\n"),
        "{}",
        g.drawing()
    );
    let g: Kolowis = game(&["stall=0"], Some(K_QUIET), "");
    assert!(!g.drawing().contains("quiet"));
}

#[test]
fn typed_input_is_read_leniently() {
    let g: Kolowis = game(&[], None, "");
    for text in [
        "C8-B9",
        "c8-b9",
        "C8 B9",
        "C8B9",
        "c8xb9",
        "C8:B9",
        " C8 - B9 ",
    ] {
        assert_eq!(
            g.interpret(text).map(|m| m.to_string()),
            Ok("C8-B9".into()),
            "{text}"
        );
    }
    let g: Kolowis = game(&[], None, "C8-B9");
    for text in ["A9xC8", "A9-C8", "a9c8", "A9 : C8"] {
        assert_eq!(
            g.interpret(text).map(|m| m.to_string()),
            Ok("A9xC8".into()),
            "{text}"
        );
    }
    let g: Kolowis = game(&[], Some(K_CHAIN), "");
    for text in ["C2xC4xC6xC8", "c2-c4-c6-c8", "C2 C4:C6xC8", "c2c4c6c8"] {
        assert_eq!(
            g.interpret(text).map(|m| m.to_string()),
            Ok("C2xC4xC6xC8".into()),
            "{text}"
        );
    }
}

#[test]
fn typed_input_errors_say_what_is_wrong() {
    let g: Kolowis = game(&[], None, "");
    let why = |g: &Kolowis, text: &str| g.interpret(text).map(|m| m.to_string()).expect_err(text);
    // No such point.
    assert_eq!(why(&g, "D4-D5"), MoveError::NoSuchCell("D4".into()));
    assert_eq!(why(&g, "C8-B18"), MoveError::NoSuchCell("B18".into()));
    assert_eq!(
        why(&g, "C8-C99999999999"),
        MoveError::NoSuchCell("C99999999999".into())
    );
    // No piece of yours there.
    assert!(matches!(why(&g, "A8-B9"), MoveError::NotYourPiece { cell, .. } if cell == "A8"));
    assert_eq!(
        why(&g, "B9-B1"),
        MoveError::NotYourPiece {
            cell: "B9".into(),
            why: NotYours::ToMove {
                contents: CellContents::new("B9", Holding::Empty),
                mover: Colour::White,
            },
        }
    );
    // Not joined by a line.
    let r = |g: &Kolowis, text: &str| reason(why(g, text));
    assert_eq!(
        r(&g, "C8-B12"),
        R::NotJoined {
            from: "C8".into(),
            to: "B12".into()
        }
    );
    // The target is occupied.
    assert_eq!(
        r(&g, "C8-C9"),
        R::TargetOccupied {
            what: CellContents::new("C9", Holding::Piece(Colour::White))
        }
    );
    // Jumping one's own piece.
    assert!(matches!(r(&g, "C8-C10"), R::JumpsOwnPiece { jump: Some(j), .. } if j == "C8xC10"));
    // A capture must be made.
    let after = game::<Kolowis>(&[], None, "C8-B9");
    assert!(
        matches!(r(&after, "A1-B1"), R::MustCapture { captures } if captures.contains(&"A9xC8".to_string()))
    );
    // Not along a straight line.
    let curve: Kolowis = game(&[], Some(K_CURVE), "");
    assert_eq!(
        r(&curve, "A1xC1"),
        R::NotStraight {
            from: "A1".into(),
            to: "C1".into(),
            bend: "B1".into()
        }
    );
    let bent: Kolowis = game(&[], Some("turn=white white=A1 black=B2"), "");
    assert!(matches!(r(&bent, "A1xB3"), R::NotStraight { .. }));
    // A shortened sequence, a step inside a sequence, a point named twice.
    let chain: Kolowis = game(&[], Some(K_CHAIN), "");
    assert!(matches!(r(&chain, "C2xC6"), R::NotJoined { .. }));
    assert_eq!(
        r(&chain, "C2xC4xC6-C7"),
        R::StepInCapture {
            step: "C6-C7".into()
        }
    );
    assert_eq!(r(&chain, "C2xC4xC4"), R::MustMove { cell: "C4".into() });
    assert_eq!(
        r(&chain, "C2xC4xC2"),
        R::AlreadyCaptured {
            jump: "C4xC2".into(),
            point: "C3".into()
        }
    );
    // Nothing to capture, or a step typed with `x` while a capture must be made.
    assert!(matches!(r(&chain, "C2xB3"), R::MustCapture { .. }));
    let lone: Kolowis = game(&[], Some("turn=white white=C2 black=A1"), "");
    assert_eq!(
        r(&lone, "C2xC4"),
        R::NothingToJump {
            jump: Some("C2xC4".into()),
            cell: "C3".into()
        }
    );
    // The landing point of a jump is taken.
    let blocked: Kolowis = game(&[], Some("turn=white white=C2 black=C3,C4"), "");
    assert!(
        matches!(r(&blocked, "C2xC4"), R::LandingOccupied { jump: Some(j), .. } if j == "C2xC4")
    );
    // A single point is an abbreviation when that piece has exactly one legal move, and lists
    // the piece's moves when it has several.
    assert_eq!(g.interpret("b8").map(|m| m.to_string()), Ok("B8-B9".into()));
    let start: Kolowis = game(&[], None, "");
    assert_eq!(
        start.interpret("C8").map(|m| m.to_string()),
        Ok("C8-B9".into())
    );
    let chain: Kolowis = game(&[], Some("turn=white white=C2 black=C3,C5,C7"), "");
    assert_eq!(
        why(&chain, "C2"),
        MoveError::Ambiguous {
            input: "C2".into(),
            candidates: vec!["C2xC4".into(), "C2xC4xC6".into(), "C2xC4xC6xC8".into()]
        }
    );
    assert!(matches!(r(&g, "C5"), R::PieceCannotMove { .. }));
    // The message a user reads is built from the reason.
    assert_eq!(
        why(&g, "C8-C9").to_string(),
        "`C8-C9` is not legal: the target is occupied: C9 holds a White piece"
    );
    // Unreadable input; a letter without a number is unreadable, not a point with no name.
    for text in ["", "hello", "8C-9B", "C8→B9", "Ç8-B9", "C-B9", "C8-B", "h"] {
        let error = why(&g, text);
        assert!(
            matches!(error, MoveError::Unreadable { .. }),
            "{text}: {error:?}"
        );
    }
    assert_eq!(why(&g, "D5-B9"), MoveError::NoSuchCell("D5".into()));
    // After the end nothing can be typed.
    let over: Kolowis = game(&[], Some(K_END), "");
    assert!(matches!(why(&over, "B1-B2"), MoveError::NoMoveNow(_)));
}

#[test]
fn canonical_notation_is_strict() {
    for text in [
        "C8-B9",
        "A9xC8",
        "C2xC4xC6xC8",
        "B10xB8",
        "A1-B1",
        "B17-C16",
    ] {
        let mv: Move = text.parse().expect(text);
        assert_eq!(mv.to_string(), text);
    }
    for text in [
        "c8-b9",
        "C8xB9",
        "A9-C8",
        "C8 B9",
        "C8B9",
        "A1xC1",
        "C2xC6",
        "C8-",
        "x",
        "",
        "C8-B9-B10",
        "C2xC4-C6",
        "A0-A1",
        "A1-A1",
    ] {
        assert!(text.parse::<Move>().is_err(), "{text}");
    }
    let mv: Move = "C2xC4xC6".parse().expect("parses");
    assert_eq!(mv.from().to_string(), "C2");
    assert_eq!(mv.to().to_string(), "C6");
    assert_eq!(
        mv.captured().map(|p| p.to_string()).collect::<Vec<_>>(),
        ["C3", "C5"]
    );
    assert_eq!(
        mv.landings().map(|p| p.to_string()).collect::<Vec<_>>(),
        ["C4", "C6"]
    );
    assert_eq!(
        "B17".parse::<Point>().map(|p| (p.row(), p.number())),
        Ok(('B', 17))
    );
}

#[test]
fn board_geometry_matches_section_2() {
    // 110 lines and 146 capture triples.
    let lines: usize = Point::all().map(|p| p.neighbours().count()).sum();
    assert_eq!(lines, 2 * 110);
    let mut triples = 0;
    for from in Point::all() {
        for to in Point::all() {
            if format!("{from}x{to}").parse::<Move>().is_ok() {
                triples += 1;
            }
        }
    }
    assert_eq!(triples, 146);
    let names = |p: &str| {
        p.parse::<Point>()
            .expect("point")
            .neighbours()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(names("B9"), ["A8", "A9", "B8", "B10", "C8", "C9"]);
    assert_eq!(names("B1"), ["A1", "B2", "C1"]);
    assert_eq!(names("B17"), ["A16", "B16", "C16"]);
    assert_eq!(names("A1"), ["A2", "B1", "B2"]);
    assert_eq!(names("C16"), ["B16", "B17", "C15"]);
}

#[test]
fn perft_small_depths_checked_by_hand() {
    let start: Kolowis = game(&[], None, "");
    // Depth 1: only B1, B9, B17 are empty (K10). B1 is reached from B2 and C1 (A1 is Black's),
    // B9 from B8, C8, C9 (A8, A9, B10 are Black's), B17 from C16 (A16, B16 are Black's); no
    // capture exists since every landing point of a triple is occupied or beyond an own piece.
    // 2 + 3 + 1 = 6.
    assert_eq!(perft(&start, 1), 6);
    // Depth 2: Black's replies as in K-REPLY: C8-B9 → 2 (A7xC8, A9xC8), C9-B9 → 1, B8-B9 → 1,
    // C1-B1 → 1 (captures are compulsory there), B2-B1 → 7 steps (B2 to A1/A2, B9 from A8, A9,
    // B10, B17 from A16, B16), C16-B17 → 5 steps (B1 from A1, B9 from A8, A9, B10, C16 from
    // B16). 2 + 1 + 1 + 1 + 7 + 5 = 17.
    assert_eq!(perft(&start, 2), 17);
    // Depth 3: White's moves after each of the 17 two-ply lines.
    // C8-B9 A7xC8: empty A7, B8, B1, B17; no White capture (C8 has own pieces on both sides,
    //   the only triple to A7 from C8 is Black's); steps B7-A7, B7-B8, B9-B8, C7-B8, B2-B1,
    //   C1-B1, C16-B17 = 7.
    // C8-B9 A9xC8: C10xA9 over B10 is the only capture (compulsory), no continuation = 1.
    // C9-B9 A8xC9: empty A8, B9, B1, B17; no capture; B8-A8, B8-B9, C8-B9, B2-B1, C1-B1,
    //   C16-B17 = 6.
    // B8-B9 B10xB8: B7xB9 is the only capture = 1.
    // C1-B1 A2xC1: empty A2, B2, B9, B17; no capture; B3-A2, B1-B2, B3-B2, C2-B2, B8-B9,
    //   C8-B9, C9-B9, C16-B17 = 8.
    // B2-B1 then: A1-B2 → C2xA1 = 1; A2-B2 → C1xA2 = 1; A8-B9 → C9xA8 = 1; A9-B9 → C8xA9,
    //   C10xA9 = 2; A16-B17 → C15xA16 = 1; B10-B9 → B8xB10 = 1; B16-B17 → no capture, steps
    //   C15-B16, C16-B16, B1-B2, B3-B2, C1-B2, C2-B2, B8-B9, C8-B9, C9-B9 = 9. Sum 16.
    // C16-B17 then: A1-B1 → B2-A1, C15-C16, B17-C16, B8-B9, C8-B9, C9-B9 = 6; A8-B9 → C9xA8
    //   = 1; A9-B9 → C8xA9, C10xA9 = 2; B10-B9 → B8xB10 = 1; B16-C16 → no capture (C16 has
    //   no point beyond, B17 has nothing to jump), steps B17-B16, C15-B16, B2-B1, C1-B1,
    //   B8-B9, C8-B9, C9-B9 = 7. Sum 17.
    // 7 + 1 + 6 + 1 + 8 + 16 + 17 = 56.
    assert_eq!(perft(&start, 3), 56);
}
