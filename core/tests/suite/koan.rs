//! The scenarios of `shared/rules/koan.md`, section 12, named after them; then the position
//! string (section 9), the drawing (section 10), the notation and typed input (section 8), the
//! end of the game (section 6), hand-checked move counts, and seeded random playouts.

use crate::common;

use tabula_core::playout::perft;

use common::{game, head, illegal_at, legal, reason, rejected, rejected_at, set};
use tabula_core::koan::{Cell, Event, Koan, Move, Options, Shape};
use tabula_core::{
    Action, ActionError, CellContents, Colour, Game, Holding, IllegalReason as R, MoveError,
    Outcome, Seat, SetupError, Status, Team, script,
};

const START: &str = "turn=white white-oct=A1,C1,E1,G1,I1,K1 white-sq=B2,D2,F2,H2,J2 \
                     black-oct=A11,C11,E11,G11,I11,K11 black-sq=B10,D10,F10,H10,J10";
const Q_D2: &str = "turn=white white-oct=I1,J4 white-sq=C3,F4 black-oct=G11,J10 black-sq=C9,F8";
const Q_CAP1: &str = "turn=white white-sq=C3 black-oct=D4 black-sq=B4,C5";
const Q_WIN: &str = "turn=white white-oct=B10 black-oct=C11,K11 black-sq=A11";

fn black_to_move(position: &str) -> String {
    position.replace("turn=white", "turn=black")
}

fn parse(position: &str) -> Koan {
    Koan::from_position(&Options, position)
        .unwrap_or_else(|e| panic!("{position} does not parse: {e}"))
}

/// The message of a typed input that must be refused.
fn refused(g: &Koan, text: &str) -> String {
    refusal(g, text).to_string()
}

fn refusal(g: &Koan, text: &str) -> MoveError {
    g.interpret(text)
        .map(|m| m.to_string())
        .expect_err("must be refused")
}

/// The reason an illegal typed move is refused.
fn illegal(g: &Koan, text: &str) -> R {
    reason(refusal(g, text))
}

// Section 12: the scenarios.

#[test]
fn q_init_the_opening_position() {
    assert_eq!(
        legal::<Koan>(&[], None, ""),
        set(&[
            "A1-A3", "B2-A3", "B2-C3", "C1-C3", "D2-C3", "D2-E3", "E1-E3", "F2-E3", "F2-G3",
            "G1-G3", "H2-G3", "H2-I3", "I1-I3", "J2-I3", "J2-K3", "K1-K3",
        ])
    );
    assert_eq!(
        head::<Koan>(&[], None, ""),
        (START.to_string(), "turn white".to_string())
    );
    let black = black_to_move(START);
    assert_eq!(
        legal::<Koan>(&[], Some(&black), ""),
        set(&[
            "A11-A9", "B10-A9", "B10-C9", "C11-C9", "D10-C9", "D10-E9", "E11-E9", "F10-E9",
            "F10-G9", "G11-G9", "H10-G9", "H10-I9", "I11-I9", "J10-I9", "J10-K9", "K11-K9",
        ])
    );
    assert_eq!(
        head::<Koan>(&[], Some(&black), ""),
        (black.clone(), "turn black".to_string())
    );
}

#[test]
fn q_d2_the_moving_diagram_of_the_help_text() {
    assert_eq!(
        legal::<Koan>(&[], Some(Q_D2), ""),
        set(&[
            "C3-B4", "C3-C5", "C3-D4", "F4-E5", "F4-G5", "I1-H2", "I1-I3", "I1-J2", "J4-I5",
            "J4-K5",
        ])
    );
    assert_eq!(head::<Koan>(&[], Some(Q_D2), "").1, "turn white");
    let black = black_to_move(Q_D2);
    assert_eq!(
        legal::<Koan>(&[], Some(&black), ""),
        set(&[
            "C9-B8", "C9-C7", "C9-D8", "F8-E7", "F8-G7", "G11-F10", "G11-G9", "G11-H10", "J10-I9",
            "J10-K9",
        ])
    );
    assert_eq!(head::<Koan>(&[], Some(&black), "").1, "turn black");
}

#[test]
fn q_cap1_a_square_piece_captures_only_on_squares() {
    assert_eq!(
        legal::<Koan>(&[], Some(Q_CAP1), ""),
        set(&["C3xB4", "C3xD4"])
    );
    for input in ["C3xC5", "C3-C5"] {
        assert!(matches!(
            illegal_at::<Koan>(&[], Some(Q_CAP1), input, 0),
            R::WrongCaptureCell {
                shape: Shape::Square,
                ..
            }
        ));
    }
    // Whatever the shape of the victim: D4 holds an octagonal piece, B4 a square one.
    let (position, status) = head::<Koan>(&[], Some(Q_CAP1), "C3xD4");
    assert_eq!(position, "turn=black white-sq=D4 black-sq=B4,C5");
    assert_eq!(status, "turn black");
    let (position, _) = head::<Koan>(&[], Some(Q_CAP1), "C3xB4");
    assert_eq!(position, "turn=black white-sq=B4 black-oct=D4 black-sq=C5");
}

#[test]
fn q_win_reaching_the_far_row_wins_at_once() {
    assert_eq!(
        legal::<Koan>(&[], Some(Q_WIN), ""),
        set(&["B10xA11", "B10xC11"])
    );
    assert_eq!(
        head::<Koan>(&[], Some(Q_WIN), "B10xA11"),
        (
            "turn=black white-oct=A11 black-oct=C11,K11".to_string(),
            "winner white".to_string()
        )
    );
    assert!(legal::<Koan>(&[], Some(Q_WIN), "B10xA11").is_empty());
    assert_eq!(
        head::<Koan>(&[], Some(Q_WIN), "B10xC11"),
        (
            "turn=black white-oct=C11 black-oct=K11 black-sq=A11".to_string(),
            "winner white".to_string()
        )
    );
    assert!(legal::<Koan>(&[], Some(Q_WIN), "B10xC11").is_empty());
    // Nothing more can be played.
    assert!(matches!(
        rejected::<Koan>(&[], Some(Q_WIN), "B10xA11 K11-K9"),
        SetupError::Action {
            index: 1,
            error: ActionError::GameOver,
            ..
        }
    ));
}

#[test]
fn q_input_rejected_input() {
    for (moves, cell) in [("B3-B5", "B3"), ("A2-A3", "A2"), ("L1-K3", "L1")] {
        let message = rejected_at::<Koan>(&[], None, moves, 0);
        assert!(
            message.contains(&format!("`{cell}` is not a cell")),
            "{message}"
        );
    }

    let j10 = "turn=black white-oct=A1 black-oct=J10";
    assert_eq!(
        legal::<Koan>(&[], Some(j10), ""),
        set(&["J10-I9", "J10-K9"])
    );
    assert!(matches!(
        illegal_at::<Koan>(&[], Some(j10), "J10-J8", 0),
        R::SquareToSquare { .. }
    ));

    let g9 = "turn=black white-oct=A1 black-oct=G9";
    assert_eq!(
        legal::<Koan>(&[], Some(g9), ""),
        set(&["G9-F8", "G9-G7", "G9-H8"])
    );
    assert!(matches!(
        illegal_at::<Koan>(&[], Some(g9), "G9-G11", 0),
        R::Backwards {
            seat: Colour::Black,
            ..
        }
    ));

    let white_g9 = "turn=white white-oct=G9 black-oct=A11";
    assert_eq!(
        legal::<Koan>(&[], Some(white_g9), ""),
        set(&["G9-F10", "G9-G11", "G9-H10"])
    );
    assert!(matches!(
        illegal_at::<Koan>(&[], Some(white_g9), "G9-G7", 0),
        R::Backwards {
            seat: Colour::White,
            ..
        }
    ));

    assert!(matches!(
        illegal_at::<Koan>(&[], None, "A1-B2", 0),
        R::OntoOwnPiece { .. }
    ));
    assert!(matches!(
        illegal_at::<Koan>(&[], None, "A1-A5", 0),
        R::NotOneForward { .. }
    ));
}

// Section 2: forward targets depend on the cell, not on the piece.

#[test]
fn section_2_forward_targets_depend_on_the_cell() {
    let cases: [(&str, &[&str]); 6] = [
        // An octagon in column A or K has two targets.
        ("turn=white white-oct=A1 black-oct=K11", &["A1-A3", "A1-B2"]),
        ("turn=white white-sq=K5 black-oct=A11", &["K5-K7", "K5-J6"]),
        // A square has two targets, the octagons diagonally ahead, whatever the piece.
        ("turn=white white-oct=F4 black-oct=A11", &["F4-E5", "F4-G5"]),
        ("turn=black white-oct=A1 black-sq=F4", &["F4-E3", "F4-G3"]),
        // A square piece on an octagon moves like any piece on an octagon.
        (
            "turn=black white-oct=A1 black-sq=G11",
            &["G11-F10", "G11-G9", "G11-H10"],
        ),
        // Row 10 to row 11 from a square; a piece never leaves the board.
        (
            "turn=white white-sq=B10 black-oct=K11",
            &["B10-A11", "B10-C11"],
        ),
    ];
    for (position, expected) in cases {
        assert_eq!(
            legal::<Koan>(&[], Some(position), ""),
            set(expected),
            "{position}"
        );
    }
}

#[test]
fn rule_3_never_onto_own_piece_and_rule_6_capture_is_optional() {
    // White octagonal C3 next to a Black piece on D4 (square: blocked for it), on C5
    // (octagon: capture) and its own piece on B4.
    let position = "turn=white white-oct=C3 white-sq=B4 black-oct=C5 black-sq=D4";
    assert_eq!(
        legal::<Koan>(&[], Some(position), ""),
        set(&["B4-A5", "C3xC5"])
    );
    // Capturing is optional: the square piece may move on instead of taking.
    let position = "turn=white white-sq=C3 black-oct=D4 black-sq=B4 white-oct=K1";
    assert_eq!(
        legal::<Koan>(&[], Some(position), ""),
        set(&["C3-C5", "C3xB4", "C3xD4", "K1-J2", "K1-K3"])
    );
}

// Section 6: the end of the game.

#[test]
fn section_6_no_legal_move_loses() {
    // White's square pieces are all blocked: A9 by an octagon holding a Black piece and by its
    // own piece on B10, B10 by Black pieces on the octagons A11 and C11.
    let blocked = "turn=white white-sq=A9,B10 black-oct=A11,C11";
    assert_eq!(head::<Koan>(&[], Some(blocked), "").1, "winner black");
    assert!(legal::<Koan>(&[], Some(blocked), "").is_empty());
    // No pieces at all.
    let none = "turn=white black-oct=A11";
    assert_eq!(head::<Koan>(&[], Some(none), "").1, "winner black");
    // Reached by a move: Black's E11-E9 leaves White without a move.
    let before = "turn=black white-sq=A9,B10 black-oct=A11,C11,E11";
    let mut g = parse(before);
    let events = g.play(&"E11-E9".parse().expect("notation")).expect("legal");
    assert_eq!(g.status(), Status::Done(Outcome::Winner(Team(1))));
    assert_eq!(
        events.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [
            "Black played E11-E9 with an octagonal piece",
            "White has no legal move: Black wins",
        ]
    );
}

#[test]
fn section_6_a_position_string_with_a_piece_on_the_far_row_is_won() {
    let cases = [
        ("turn=black white-oct=A11 black-oct=C11", "winner white"),
        ("turn=white white-sq=C11 black-oct=K9", "winner white"),
        ("turn=white white-oct=C3 black-oct=E1", "winner black"),
        ("turn=black white-oct=C3 black-sq=E1", "winner black"),
    ];
    for (position, status) in cases {
        assert_eq!(
            head::<Koan>(&[], Some(position), "").1,
            status,
            "{position}"
        );
        assert!(legal::<Koan>(&[], Some(position), "").is_empty());
    }
    let message =
        rejected::<Koan>(&[], Some("turn=white white-oct=C11 black-oct=E1"), "").to_string();
    assert!(
        message.contains("C11") && message.contains("E1"),
        "{message}"
    );
}

#[test]
fn rule_7_reaching_row_10_or_2_does_not_win() {
    let position = "turn=white white-oct=C9 black-oct=K11";
    let (_, status) = head::<Koan>(&[], Some(position), "C9-D10");
    assert_eq!(status, "turn black");
}

// Section 9: the position string.

#[test]
fn position_strings_round_trip() {
    let start = Koan::new(&Options);
    assert_eq!(start.position(), START);
    assert_eq!(parse(START), start);
    for text in [START, Q_CAP1, Q_D2, Q_WIN] {
        let g = parse(text);
        assert_eq!(g.position(), text);
        assert_eq!(parse(&g.position()), g);
    }
    // Any field order, lower-case cells, unsorted and empty lists on input.
    let g = parse("black-sq=F8,C9 white-sq=f4,C3 turn=white black-oct=J10,G11 white-oct=J4,I1");
    assert_eq!(g.position(), Q_D2);
    assert_eq!(g, parse(Q_D2));
    let g = parse("turn=white white-oct= white-sq=C3 black-oct=D4 black-sq=B4,C5");
    assert_eq!(g.position(), Q_CAP1);
    // Sorted by column letter, then by row as a number.
    assert_eq!(
        parse("turn=black black-oct=B2,A11,A3").position(),
        "turn=black black-oct=A3,A11,B2"
    );
    // After a move: replaying and re-reading give equal states.
    let g: Koan = game(&[], None, "B2-C3 G11-G9 C3-B4");
    assert_eq!(parse(&g.position()), g);
}

#[test]
fn position_errors_name_the_token() {
    let cases = [
        ("turn=white colour=red", "colour", "unknown key"),
        ("turn=white white-oct=A2", "A2", "not a cell"),
        ("turn=white white-oct=B3", "B3", "not a cell"),
        ("turn=white white-sq=K10", "K10", "not a cell"),
        ("turn=white white-oct=L1", "L1", "not a cell"),
        ("turn=white white-oct=A12", "A12", "not a cell"),
        ("turn=white white-oct=A01", "A01", "not a cell"),
        ("turn=white black-sq=B2,hello", "hello", "not a cell"),
        ("turn=white white-oct=A1,C1,A1", "A1", "twice"),
        ("turn=white white-oct=A1 black-sq=A1", "A1", "twice"),
        ("turn=green", "turn=green", "white or black"),
        ("turn=", "turn=", "white or black"),
        ("white-oct=A1", "turn", "missing"),
        ("turn=white turn=black", "turn", "twice"),
        ("turn=white white-oct", "white-oct", "key=value"),
        ("turn=white black-oct=A1,C3 white-oct=K11", "A1,K11", "both"),
    ];
    for (position, token, why) in cases {
        let message = rejected::<Koan>(&[], Some(position), "").to_string();
        assert!(message.contains(token), "{position}: {message}");
        assert!(message.contains(why), "{position}: {message}");
    }
}

#[test]
fn section_7_there_are_no_options() {
    let message = common::try_game::<Koan>(&["size=8"], None, "")
        .expect_err("no options")
        .to_string();
    assert!(
        message.contains("size") && message.contains("no options"),
        "{message}"
    );
    assert!(Koan::option_pairs(&Options).is_empty());
}

// Section 10: the drawing.

#[test]
fn section_10_drawing_matches_the_rules_file() {
    let expected = "\
turn=white white-oct=I1,J4 white-sq=C3,F4 black-oct=G11,J10 black-sq=C9,F8
turn white
     A   B   C   D   E   F   G   H   I   J   K
11  ( )     ( )     ( )     (B)     ( )     ( )  11
10      [ ]     [ ]     [ ]     [ ]     [B]      10
 9  ( )     (b)     ( )     ( )     ( )     ( )  9
 8      [ ]     [ ]     [b]     [ ]     [ ]      8
 7  ( )     ( )     ( )     ( )     ( )     ( )  7
 6      [ ]     [ ]     [ ]     [ ]     [ ]      6
 5  ( )     ( )     ( )     ( )     ( )     ( )  5
 4      [ ]     [ ]     [w]     [ ]     [W]      4
 3  ( )     (w)     ( )     ( )     ( )     ( )  3
 2      [ ]     [ ]     [ ]     [ ]     [ ]      2
 1  ( )     ( )     ( )     ( )     (W)     ( )  1
     A   B   C   D   E   F   G   H   I   J   K
";
    assert_eq!(
        script::show_text(&game::<Koan>(&[], Some(Q_D2), "")),
        expected
    );
}

#[test]
fn section_2_start_drawing_matches_the_rules_file() {
    let expected = "     A   B   C   D   E   F   G   H   I   J   K
11  (B)     (B)     (B)     (B)     (B)     (B)  11
10      [b]     [b]     [b]     [b]     [b]      10
 9  ( )     ( )     ( )     ( )     ( )     ( )  9
 8      [ ]     [ ]     [ ]     [ ]     [ ]      8
 7  ( )     ( )     ( )     ( )     ( )     ( )  7
 6      [ ]     [ ]     [ ]     [ ]     [ ]      6
 5  ( )     ( )     ( )     ( )     ( )     ( )  5
 4      [ ]     [ ]     [ ]     [ ]     [ ]      4
 3  ( )     ( )     ( )     ( )     ( )     ( )  3
 2      [w]     [w]     [w]     [w]     [w]      2
 1  (W)     (W)     (W)     (W)     (W)     (W)  1
     A   B   C   D   E   F   G   H   I   J   K
";
    assert_eq!(Koan::new(&Options).drawing(), expected);
}

// Section 8: notation and typed input.

#[test]
fn canonical_notation_round_trips_and_is_strict() {
    for text in ["G11-G9", "B2-C3", "G11xG9", "C3xB4", "A3-A1", "B10xA11"] {
        let mv: Move = text.parse().expect(text);
        assert_eq!(mv.to_string(), text);
    }
    let mv: Move = "C3xB4".parse().expect("capture");
    assert_eq!(
        (mv.from.to_string(), mv.to.to_string(), mv.capture),
        ("C3".into(), "B4".into(), true)
    );
    for bad in [
        "g11-g9", "G11 G9", "G11G9", "G11:G9", "G11-G9 ", "A1-A5", "A1-C1", "B2-B4", "A1-B1",
        "A2-A3", "A1-A1", "", "-", "x", "A1", "A01-A3", "A1-A3-A5", "Ä1-A3",
    ] {
        assert!(bad.parse::<Move>().is_err(), "{bad:?} must not parse");
    }
    assert!(
        "G11-G9"
            .parse::<Action<Move, tabula_core::NoRoll>>()
            .is_ok()
    );
    assert!(
        "roll:1"
            .parse::<Action<Move, tabula_core::NoRoll>>()
            .is_err()
    );
}

#[test]
fn lenient_input_case_separators_and_abbreviations() {
    let black = parse(&black_to_move(START));
    for text in [
        "g11-g9",
        "G11G9",
        "g11 g9",
        " G11 - G9 ",
        "G11xG9",
        "g11:g9",
        "G11–G9",
    ] {
        assert_eq!(
            black.interpret(text).map(|m| m.to_string()),
            Ok("G11-G9".to_string()),
            "{text}"
        );
    }
    let cap = parse(Q_CAP1);
    for text in ["C3-B4", "c3xb4", "c3 b4", "C3B4", "C3:B4"] {
        assert_eq!(
            cap.interpret(text).map(|m| m.to_string()),
            Ok("C3xB4".to_string()),
            "{text}"
        );
    }
    // One cell: the only legal move from or to it.
    let j10 = parse("turn=black white-oct=A1 black-oct=J10");
    assert_eq!(
        j10.interpret("k9").map(|m| m.to_string()),
        Ok("J10-K9".into())
    );
    let white = parse("turn=white white-oct=K1 black-oct=A11 black-sq=B10");
    assert_eq!(
        white.interpret("j2").map(|m| m.to_string()),
        Ok("K1-J2".into())
    );
    match j10.interpret("J10") {
        Err(MoveError::Ambiguous { input, candidates }) => {
            assert_eq!(input, "J10");
            assert_eq!(set(&["J10-I9", "J10-K9"]), {
                let mut c = candidates;
                c.sort();
                c
            });
        }
        other => panic!("expected ambiguity, got {other:?}"),
    }
    let start = Koan::new(&Options);
    let message = refused(&start, "C3");
    assert!(
        message.contains("ambiguous")
            && message.contains("B2-C3")
            && message.contains("C1-C3")
            && message.contains("D2-C3"),
        "{message}"
    );
    assert!(matches!(
        illegal(&start, "A5"),
        R::NothingCanReach { cell, .. } if cell == "A5"
    ));
}

#[test]
fn typed_input_errors_say_what_is_wrong() {
    let start = Koan::new(&Options);
    // No such cell, whatever the case or size of the number.
    assert!(refused(&start, "b3-b5").contains("`b3` is not a cell"));
    assert!(refused(&start, "A1-K10").contains("`K10` is not a cell"));
    assert!(refused(&start, "A99999999999999999999-A3").contains("is not a cell"));
    assert!(refused(&start, "A0-A3").contains("`A0` is not a cell"));
    // Not yours: empty, or the opponent's.
    assert!(refused(&start, "A3-A5").contains("A3 is not yours: A3 is empty"));
    let message = refused(&start, "A11-A9");
    assert!(
        message.contains("not yours") && message.contains("Black's octagonal piece"),
        "{message}"
    );
    // Not a forward target.
    let d2 = parse(Q_D2);
    assert_eq!(
        illegal(&d2, "C3-C1"),
        R::Backwards {
            from: "C3".into(),
            to: "C1".into(),
            seat: Colour::White,
        }
    );
    assert!(matches!(illegal(&d2, "C3-A3"), R::Sideways { .. }));
    assert!(matches!(illegal(&d2, "F4-F6"), R::SquareToSquare { .. }));
    assert!(
        matches!(illegal(&d2, "C3-C7"), R::NotOneForward { targets, .. } if targets == "B4, C5, D4")
    );
    assert_eq!(illegal(&d2, "C3-C3"), R::MustMove { cell: "C3".into() });
    // Own piece on the target, and a capture the shape does not allow.
    assert!(
        matches!(illegal(&start, "A1-B2"), R::OntoOwnPiece { what } if what == CellContents::new("B2", Holding::OwnShaped(Shape::Square)))
    );
    assert_eq!(
        illegal(&parse(Q_CAP1), "C3-C5"),
        R::WrongCaptureCell {
            what: CellContents::new("C5", Holding::Shaped(Colour::Black, Shape::Square)),
            to: "C5".into(),
            shape: Shape::Square,
        }
    );
    // The wording a user reads, built from the reason.
    let message = refused(&parse(Q_CAP1), "C3-C5");
    assert!(
        message.contains("Black's square piece")
            && message.contains("C5 is an octagon")
            && message.contains("a square piece captures only on squares"),
        "{message}"
    );
    // Not a move at all.
    for text in [
        "hello", "", "A1-", "A1-A3-A5", "1-2", "A1 A3 x", "ÄÖ", "A1–",
    ] {
        assert!(refused(&start, text).contains("cannot read"), "{text:?}");
    }
    // The game is over.
    let won: Koan = game(&[], Some(Q_WIN), "B10xA11");
    assert!(refused(&won, "C11-C9").contains("game is over"));
}

#[test]
fn an_illegal_move_leaves_the_state_unchanged() {
    let start = Koan::new(&Options);
    for text in ["A1xA3", "A1-A5", "A11-A9", "B2-C1"] {
        let Ok(mv) = text.parse::<Move>() else {
            continue;
        };
        let mut g = start.clone();
        assert!(g.play(&mv).is_err(), "{text}");
        assert_eq!(g, start, "{text}");
    }
    let mut g = start.clone();
    assert!(g.apply_text("A1-A5").is_err());
    assert!(g.apply_text("roll:3").is_err());
    assert_eq!(g, start);
}

#[test]
fn events_narrate_moves_captures_and_wins() {
    let mut g = parse(Q_CAP1);
    let events = g.play(&"C3xD4".parse().expect("notation")).expect("legal");
    let d4 = Cell::new(3, 4).expect("D4");
    assert_eq!(
        events,
        [
            Event::Moved {
                seat: Seat(0),
                mv: Move {
                    from: Cell::new(2, 3).expect("C3"),
                    to: d4,
                    capture: true,
                },
                shape: Shape::Square,
            },
            Event::Captured {
                seat: Seat(0),
                cell: d4,
                shape: Shape::Octagonal,
            },
        ]
    );
    assert_eq!(
        events.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [
            "White played C3xD4 with a square piece",
            "White captured Black's octagonal piece on D4",
        ]
    );
    let mut g = parse(Q_WIN);
    let events = g
        .play(&"B10xA11".parse().expect("notation"))
        .expect("legal");
    assert_eq!(
        events.last().map(ToString::to_string),
        Some("White reached the far row at A11: White wins".to_string())
    );
    assert_eq!(
        g.piece_at(Cell::new(0, 11).expect("A11")),
        Some((Seat(0), Shape::Octagonal))
    );
}

#[test]
fn cells_are_the_61_octagons_and_squares() {
    assert_eq!(Cell::all().count(), 61);
    assert_eq!(Cell::all().filter(|c| c.is_octagon()).count(), 36);
    assert!(Cell::new(0, 2).is_none() && Cell::new(1, 1).is_none() && Cell::new(11, 1).is_none());
    assert_eq!(
        "g11".parse::<Cell>().map(|c| c.to_string()),
        Ok("G11".into())
    );
    assert!("K10".parse::<Cell>().is_err());
    // A cell's debug form is its name (what a failing test prints).
    assert_eq!(format!("{:?}", Cell::new(6, 11).expect("G11")), "G11");
    let start: Koan = game(&[], None, "");
    let debug = format!("{start:?}");
    assert!(debug.contains(&start.position()), "{debug}");
}

/// Refusals found by a mutation run without a test: a long jump from an octagon, one typed
/// cell that is a stuck piece of the mover's or an enemy piece nothing can reach, and a letter
/// without a number.
#[test]
fn more_refusals_by_their_reason() {
    let d2 = parse(Q_D2);
    assert!(matches!(
        illegal(&d2, "C3-D6"),
        R::NotOneForward { from, to, .. } if from == "C3" && to == "D6"
    ));
    let stuck = parse("turn=white white-oct=A1,A3 white-sq=B2 black-oct=K11");
    assert!(matches!(illegal(&stuck, "A1"), R::PieceCannotMove { .. }));
    assert!(matches!(
        illegal(&stuck, "K11"),
        R::NothingCanReach { cell, .. } if cell == "K11"
    ));
    assert!(matches!(refusal(&stuck, "A"), MoveError::Unreadable { .. }));
}

// Move counts.

#[test]
fn perft_small_depths_checked_by_hand() {
    let start = Koan::new(&Options);
    // Depth 1: each of White's six octagonal pieces has one move, straight ahead to row 3 (its
    // diagonal targets on row 2 hold White's own square pieces); each of the five square
    // pieces has two, to the octagons diagonally ahead on row 3: 6 + 10 = 16 (Q-INIT).
    assert_eq!(perft(&start, 1), 16);
    // Depth 2: White's first move stays on rows 1–3, Black's targets are on rows 9–10, so Black
    // always has his own 16 moves: 16 × 16 = 256.
    assert_eq!(perft(&start, 2), 256);
    // Depth 3: Black's move cannot change White's options, so it is 16 × Σ (White's second
    // moves after each first move).
    // - An octagonal piece X1-X3 (6 moves): it then has 3 moves (2 in column A or K); the five
    //   other row-1 pieces keep 1 each; the squares next to X3 lose one target each (two of
    //   them, one in column A or K): 3 + 5 + 8 = 2 + 5 + 9 = 16. Sum 6 × 16 = 96.
    // - A square piece Y2 to the octagon T3 (10 moves): it then has 3 moves (2 if T is A or K);
    //   the octagonal pieces on either side of Y2 gain the now empty Y2, the one on T1 loses
    //   T3: 6 - 1 + 2 = 7; the four other square pieces have 8 targets less the one beside T3
    //   (none when T is A or K): 3 + 7 + 7 = 2 + 7 + 8 = 17. Sum 10 × 17 = 170.
    // Total 16 × (96 + 170) = 16 × 266 = 4256.
    assert_eq!(perft(&start, 3), 4256);
    // Depth 4: after two moves each side is still on its own rows (White up to row 5, Black's
    // targets down to row 7), so the sides do not interact and by symmetry Black's second
    // moves sum to 266 as well: 266 × 266 = 70756.
    assert_eq!(perft(&start, 4), 70_756);
}

// Seeded random playouts: the generic invariants, for this game.
