//! The scenarios of `shared/rules/konane.md`, section 12, named after them.

mod common;

use common::{game, head, illegal_at, legal, reason, rejected, rejected_at, set};
use tabula_core::konane::Konane;
use tabula_core::{ActionError, Game, IllegalReason, MoveError, SetupError};

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
        IllegalReason::JumpsOwnPiece { jump: None, what } if what.starts_with("c4")
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
