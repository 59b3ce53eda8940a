//! The scenarios of `shared/rules/konane.md`, section 12, named after them.

use crate::common;

use common::{game, head, illegal_at, legal, reason, rejected, rejected_at, set};
use tabula_core::konane::{Konane, Move, Options};
use tabula_core::{
    ActionError, CellContents, Colour, Game, Holding, IllegalReason, MoveError, Seat, SetupError,
};

const N_TURN: &str = "size=8 turn=black black=e4 white=e5,e7,f6";
const N_MULTI: &str = "size=8 turn=white black=c4,d3,d5,d7,e4,g4 white=d4";

#[test]
fn n_open_b_black_removal_choices() {
    let cases: [(&[&str], &[&str]); 4] = [
        (&[], &["a8", "d5", "e4", "h1"]),
        (&["size=6"], &["a6", "c4", "d3", "f1"]),
        (&["size=10"], &["a10", "e6", "f5", "j1"]),
        (&["size=12"], &["a12", "f7", "g6", "l1"]),
    ];
    for (options, expected) in cases {
        assert_eq!(
            legal::<Konane>(options, None, ""),
            set(expected),
            "{options:?}"
        );
    }
    for bad in ["d4", "a1", "b1"] {
        rejected_at::<Konane>(&[], None, bad, 0);
    }
}

#[test]
fn n_open_w_white_removal_choices() {
    let cases: [(&[&str], &str, &[&str]); 6] = [
        (&[], "h1", &["g1", "h2"]),
        (&[], "e4", &["d4", "e3", "e5", "f4"]),
        (&[], "d5", &["c5", "d4", "d6", "e5"]),
        (&[], "a8", &["a7", "b8"]),
        (&["size=6"], "d3", &["c3", "d2", "d4", "e3"]),
        (&["size=6"], "f1", &["e1", "f2"]),
    ];
    for (options, moves, expected) in cases {
        assert_eq!(
            legal::<Konane>(options, None, moves),
            set(expected),
            "{moves}"
        );
    }
    let error = rejected::<Konane>(&[], None, "e4 d3");
    assert!(
        matches!(
            &error,
            SetupError::Action {
                index: 1,
                error: ActionError::Move(MoveError::NotYourPiece { cell, .. }),
                ..
            } if cell == "d3"
        ),
        "{error}"
    );
}

#[test]
fn n_turn_a_chain_may_not_turn() {
    assert_eq!(
        legal::<Konane>(&[], Some(N_TURN), ""),
        set(&["e4-e6", "e4-e6-e8"])
    );
    assert_eq!(
        illegal_at::<Konane>(&[], Some(N_TURN), "e4-e6-g6", 0),
        IllegalReason::ChainTurns
    );
    let (position, status) = head::<Konane>(&[], Some(N_TURN), "e4-e8");
    assert_eq!(position, "size=8 turn=white black=e8 white=f6");
    assert_eq!(status, "winner black");
    assert!(legal::<Konane>(&[], Some(N_TURN), "e4-e8").is_empty());
    let g: Konane = game(&[], Some(N_TURN), "");
    assert_eq!(
        g.interpret("E4-E8").map(|m| m.to_string()),
        Ok("e4-e6-e8".into())
    );
}

#[test]
fn n_multi_jumps_in_several_directions_with_prefixes() {
    assert_eq!(
        legal::<Konane>(&[], Some(N_MULTI), ""),
        set(&["d4-b4", "d4-d2", "d4-d6", "d4-d6-d8", "d4-f4", "d4-f4-h4"])
    );
    let black = N_MULTI.replace("turn=white", "turn=black");
    assert_eq!(head::<Konane>(&[], Some(&black), "").1, "winner white");
    assert!(legal::<Konane>(&[], Some(&black), "").is_empty());
}

#[test]
fn n_lose_no_jump_no_game() {
    let black = "size=8 turn=black black=b1 white=a1";
    assert_eq!(head::<Konane>(&[], Some(black), "").1, "winner white");
    assert!(legal::<Konane>(&[], Some(black), "").is_empty());
    let white = "size=8 turn=white black=b1 white=a1";
    assert_eq!(legal::<Konane>(&[], Some(white), ""), set(&["a1-c1"]));
}

#[test]
fn n_own_never_jump_your_own_colour() {
    let position = "size=8 turn=black black=b4,c4,e4 white=f4";
    assert_eq!(legal::<Konane>(&[], Some(position), ""), set(&["e4-g4"]));
    assert!(matches!(
        illegal_at::<Konane>(&[], Some(position), "b4-d4", 0),
        IllegalReason::JumpsOwnPiece { jump: None, what }
            if what == CellContents::new("c4", Holding::Stone(Colour::Black))
    ));
}

#[test]
fn opening_positions_round_trip_as_position_strings() {
    for moves in ["", "e4", "h1"] {
        let g: Konane = game(&[], None, moves);
        let again: Konane = game(&[], Some(&g.position()), "");
        assert_eq!(again, g, "{moves}");
    }
    let start: Konane = game(&[], None, "");
    assert_eq!(
        start.position(),
        "size=8 turn=black black=a2,a4,a6,a8,b1,b3,b5,b7,c2,c4,c6,c8,d1,d3,d5,d7,e2,e4,e6,e8,f1,f3,f5,f7,g2,g4,g6,g8,h1,h3,h5,h7 white=a1,a3,a5,a7,b2,b4,b6,b8,c1,c3,c5,c7,d2,d4,d6,d8,e1,e3,e5,e7,f2,f4,f6,f8,g1,g3,g5,g7,h2,h4,h6,h8"
    );
}

#[test]
fn position_errors_name_the_token() {
    let cases = [
        ("size=8 turn=black black=i1", "i1"),
        ("size=8 turn=black black=e4,e4 white=a1", "e4"),
        ("size=8 turn=black black=e4 white=e4", "e4"),
        ("size=7 turn=black", "7"),
        ("size=8 black=e4", "turn"),
        ("size=8 turn=black colour=red", "colour"),
    ];
    for (position, token) in cases {
        let message = rejected::<Konane>(&[], Some(position), "").to_string();
        assert!(message.contains(token), "{position}: {message}");
    }
    let message = rejected::<Konane>(&["size=10"], Some("size=8 turn=black"), "").to_string();
    assert!(message.contains("size"), "{message}");
}

#[test]
fn typed_input_errors_say_what_is_wrong() {
    let g: Konane = game(&[], Some(N_MULTI), "");
    let why = |text: &str| {
        g.interpret(text)
            .map(|m| m.to_string())
            .expect_err("must be refused")
    };
    assert_eq!(why("i4-k4"), MoveError::NoSuchCell("i4".into()));
    assert!(matches!(why("c4-a4"), MoveError::NotYourPiece { cell, .. } if cell == "c4"));
    assert_eq!(
        reason(why("d4-f6")),
        IllegalReason::NotInLine {
            from: "d4".into(),
            to: "f6".into()
        }
    );
    assert_eq!(reason(why("d4-e4")), IllegalReason::OddDistance);
    assert_eq!(reason(why("d4")), IllegalReason::MustJump);
    assert!(matches!(why("hello"), MoveError::Unreadable { .. }));
    assert_eq!(
        g.interpret(" D4-H4 ").map(|m| m.to_string()),
        Ok("d4-f4-h4".into())
    );
}

/// What the pictures and the buttons read of a move: its cells, as (file, rank) from 0 and as
/// text. A mutation run found no core test reading them.
#[test]
fn a_move_names_its_cells() {
    let east: Move = "d4-f4-h4".parse().expect("a canonical jump");
    assert_eq!(east.path(), [(3, 3), (5, 3), (7, 3)]);
    assert_eq!(east.captured(), [(4, 3), (6, 3)]);
    assert_eq!(east.from_cell(), "d4");
    assert_eq!(east.captured_cells(), ["e4", "g4"]);
    assert_eq!(east.landing_cells(), ["f4", "h4"]);
    let south: Move = "c5-c3".parse().expect("a canonical jump");
    assert_eq!(south.path(), [(2, 4), (2, 2)]);
    assert_eq!(south.captured(), [(2, 3)]);
    assert_eq!(south.captured_cells(), ["c4"]);
    let removal: Move = "e4".parse().expect("a canonical removal");
    assert_eq!(removal.path(), [(4, 3)]);
    assert_eq!(removal.from_cell(), "e4");
    assert!(removal.captured().is_empty());
    assert!(removal.captured_cells().is_empty() && removal.landing_cells().is_empty());
}

/// The canonical notation is exactly one text per move (rules README): other spellings are
/// for `interpret`, not for `FromStr`.
#[test]
fn notation_reads_only_canonical_text() {
    for text in [
        "E4", "e04", "m4", "e13", "d4-h4", "d4-f4-j4", "d4-f4-f6", "d4-f5",
    ] {
        assert!(text.parse::<Move>().is_err(), "{text} parsed");
    }
    let g: Konane = game(&[], None, "");
    assert_eq!(g.interpret("E4").map(|m| m.to_string()), Ok("e4".into()));
}

/// A typed cell that is a cell name but not on the board, against text that is no cell name.
#[test]
fn typed_cells_off_the_board_or_not_cells_at_all() {
    let g: Konane = game(&[], None, "");
    for text in ["e100", "e04", "e13", "m4", "i4", "e0"] {
        assert_eq!(
            g.interpret(text),
            Err(MoveError::NoSuchCell(text.into())),
            "{text}"
        );
    }
    for text in ["e1234", "e+1", "e", "4e", "e4x"] {
        assert!(
            matches!(g.interpret(text), Err(MoveError::Unreadable { .. })),
            "{text}: {:?}",
            g.interpret(text)
        );
    }
}

#[test]
fn options_with_a_size() {
    let options = Options::with_size(10).expect("a size the rules allow");
    assert_eq!(options.size(), 10);
    assert_eq!(
        Konane::new(&options).position(),
        game::<Konane>(&["size=10"], None, "").position()
    );
    assert!(Options::with_size(7).is_err());
    assert_eq!(Options::default().size(), 8);
}

/// The narration names who did what (the bot's history and `tabula rules` print it).
#[test]
fn events_are_narrated_with_the_right_side() {
    let mut g: Konane = game(&[], Some(N_MULTI), "");
    let (_, events) = g.apply_text("d4-f4-h4").expect("a legal jump");
    let said: Vec<String> = events.iter().map(ToString::to_string).collect();
    assert_eq!(said[0], "White jumped d4-f4-h4, capturing e4, g4");
    let mut g: Konane = game(&[], None, "");
    let (_, events) = g.apply_text("e4").expect("Black's removal");
    assert_eq!(events[0].to_string(), "Black removed e4");
    // A position's debug form lists its stones by cell (what a failing test prints).
    let debug = format!("{:?}", game::<Konane>(&[], Some(N_TURN), ""));
    assert!(
        debug.contains("\"e4\"") && debug.contains("\"f6\""),
        "{debug}"
    );
}

/// Refusals name the rule that was broken: a removal away from the hole (rule 2) and a jump
/// onto a stone (rule 4).
#[test]
fn refusals_of_a_removal_and_of_a_landing() {
    let removal = |moves: &str, text: &str| {
        let g: Konane = game(&[], None, moves);
        match reason(g.interpret(text).expect_err("not removable")) {
            IllegalReason::NotRemovable { hole, choices } => {
                let choices: Vec<&str> = choices.iter().map(String::as_str).collect();
                (hole, set(&choices))
            }
            other => panic!("{text}: {other:?}"),
        }
    };
    assert_eq!(
        removal("e4", "a1"),
        (Some("e4".into()), set(&["d4", "e3", "e5", "f4"]))
    );
    assert_eq!(removal("", "b1"), (None, set(&["a8", "d5", "e4", "h1"])));
    let onto: Konane = game(&[], Some("size=8 turn=black black=e4,e6 white=e5,f6"), "");
    assert!(
        matches!(
            reason(
                onto.interpret("e4-e6")
                    .expect_err("the landing holds a stone")
            ),
            IllegalReason::LandingOccupied { jump: None, .. }
        ),
        "{:?}",
        onto.interpret("e4-e6")
    );
}

/// What the renderer reads of a position: the board size, the stone on each cell, and whether
/// the opening removals are still due.
#[test]
fn the_board_as_the_pictures_read_it() {
    let start: Konane = game(&["size=10"], None, "");
    assert_eq!(start.board_size(), 10);
    // a1 is White's (rule N2), b1 Black's; nothing lies beyond the board.
    assert_eq!(start.stone(0, 0), Some(Seat(1)));
    assert_eq!(start.stone(1, 0), Some(Seat(0)));
    assert_eq!(start.stone(9, 9), Some(Seat(1)));
    assert_eq!((start.stone(10, 0), start.stone(0, 10)), (None, None));
    // Far beyond the board, not a cell of a later rank.
    assert_eq!((start.stone(17, 0), start.stone(0, 17)), (None, None));
    assert!(start.in_opening());
    let g: Konane = game(&[], None, "e4 e5");
    assert_eq!(g.board_size(), 8);
    assert_eq!((g.stone(4, 3), g.stone(4, 4)), (None, None));
    assert_eq!(g.stone(3, 3), Some(Seat(1)));
    assert!(!g.in_opening());
    assert!(game::<Konane>(&[], None, "e4").in_opening());
    let corner: Konane = game(&[], Some("size=8 turn=black black=h8 white=g8"), "");
    assert_eq!(
        (corner.stone(7, 7), corner.stone(6, 7)),
        (Some(Seat(0)), Some(Seat(1)))
    );
    assert_eq!(corner.stone(7, 6), None);
}

/// The position string is refused as a position (not for an option or an action).
fn position_refused(text: &str) {
    assert!(
        matches!(
            rejected::<Konane>(&[], Some(text), ""),
            SetupError::Position(_)
        ),
        "{text}"
    );
}

/// A board with no hole or one hole is one of the two opening positions or nothing: the full
/// start board with Black to remove, or the start board without one of Black's removable
/// stones with White to remove.
#[test]
fn positions_with_fewer_than_two_holes_must_be_openings() {
    let full = game::<Konane>(&[], None, "").position();
    let one_hole = game::<Konane>(&[], None, "e4").position();
    assert!(full.contains("turn=black") && one_hole.contains("turn=white"));
    // The openings themselves are read back.
    assert!(game::<Konane>(&[], Some(&full), "").in_opening());
    assert!(game::<Konane>(&[], Some(&one_hole), "").in_opening());
    let swapped = {
        let black = full
            .split(' ')
            .find(|f| f.starts_with("black="))
            .expect("black");
        let white = full
            .split(' ')
            .find(|f| f.starts_with("white="))
            .expect("white");
        format!(
            "size=8 turn=black black={} white={}",
            &white["white=".len()..],
            &black["black=".len()..]
        )
    };
    for bad in [
        full.replace("turn=black", "turn=white"),
        swapped,
        one_hole.replace("turn=white", "turn=black"),
    ] {
        position_refused(&bad);
    }
}

#[test]
fn options_are_listed_whole() {
    assert_eq!(
        Konane::option_pairs(&Options::default()),
        [("size", "8".to_string())]
    );
    assert_eq!(
        Konane::option_pairs(&Options::with_size(12).expect("size 12")),
        [("size", "12".to_string())]
    );
}

/// The board drawn by `tabula rules show`, read by eye: files and ranks on every side, `B`
/// and `W` for the stones, `.` for an empty cell.
#[test]
fn the_drawing_of_a_small_board() {
    let g: Konane = game(&[], Some("size=6 turn=black black=a2,c3 white=b3,f6"), "");
    assert_eq!(
        g.drawing(),
        "    a b c d e f\n \
         6  . . . . . W  6\n \
         5  . . . . . .  5\n \
         4  . . . . . .  4\n \
         3  . W B . . .  3\n \
         2  B . . . . .  2\n \
         1  . . . . . .  1\n    \
         a b c d e f\n"
    );
    assert_eq!(g.options().size(), 6);
}

#[test]
fn a_one_hole_board_must_lack_one_of_blacks_removable_stones() {
    let start = game::<Konane>(&[], None, "").position();
    // b1 is Black's but not removable (rule 1); a1 is White's.
    for cell in ["b1", "a1"] {
        let without: Vec<String> = start
            .split(' ')
            .map(|field| {
                let Some((key, cells)) = field.split_once('=') else {
                    return field.to_string();
                };
                let cells: Vec<&str> = cells.split(',').filter(|c| *c != cell).collect();
                format!("{key}={}", cells.join(","))
            })
            .collect();
        let text = without.join(" ").replace("turn=black", "turn=white");
        assert_ne!(text.len(), start.len());
        position_refused(&text);
    }
}

/// Typed text that asks for the wrong kind of turn: a jump while removals are due, a removal
/// once they are over.
#[test]
fn removals_and_jumps_each_in_their_phase() {
    let opening: Konane = game(&[], None, "");
    assert_eq!(
        reason(opening.interpret("d4-f4").expect_err("removals first")),
        IllegalReason::MustRemoveInOpening
    );
    let jumping: Konane = game(&[], Some(N_MULTI), "");
    assert_eq!(
        reason(
            jumping
                .interpret("remove d4")
                .expect_err("removals are over")
        ),
        IllegalReason::RemovalsAreOver
    );
}
