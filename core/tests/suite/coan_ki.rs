//! The scenarios of `shared/rules/coan-ki.md`, section 12, named after them, and the notation,
//! position string and drawing of sections 8–10.

use crate::common;

use tabula_core::playout::perft;

use common::{game, head, illegal_at, legal, reason, rejected, rejected_at, set};
use tabula_core::coan_ki::{CoanKi, Event, Move, Roll, Throw};
use tabula_core::{
    Action, Colour, Game, IllegalReason as R, MoveError, NotationProblem, Seat, Status, script,
};

const START: &str = "turn=rolloff white=a1x8,b1x8 black=g2x8,h2x8";
const MID: &str = "turn=black white=a1x5,c2x2,e1x3,h2x1 white-home=a1x2,b1x1 black=a1x1,c1x2,f2x4,g2x5 black-home=h2x2";
const T10: &str = "turn=white white=b2x1 white-home=a1x8,b1x7 black=g2x8,h2x8";
const T13: &str = "turn=white white=a1x7,b1x8,e1x1 black=g2x8,h2x8";
const BLOCK: &str = "turn=white dice=2-2 white=a1x8,b1x8 black=d1x8,h2x8";

const WHITE: Seat = Seat(0);
const BLACK: Seat = Seat(1);

/// The plays of T2 (White 5-6 at the start).
const T2_PLAYS: [&str; 8] = [
    "a1+5&a1+11",
    "a1+5&b1+11",
    "a1+11&b1+5",
    "b1+5&b1+11",
    "a1+10&a1+11",
    "a1+10&b1+11",
    "a1+11&b1+10",
    "b1+10&b1+11",
];

/// Applies one action to a copy and returns the events.
fn events_of(g: &CoanKi, action: &str) -> Vec<Event> {
    let mut g = g.clone();
    match g.apply_text(action) {
        Ok((_, events)) => events,
        Err(e) => panic!("{action}: {e}"),
    }
}

#[test]
fn t_chance_outcomes_and_weights() {
    let lines = script::legal_lines(&game::<CoanKi>(&[], None, ""));
    let mut expected = Vec::new();
    for w in 1..=6 {
        for b in 1..=6 {
            expected.push(format!("roll:{w}v{b} 1"));
        }
    }
    assert_eq!(lines, expected);
    let position = "turn=black white=a1x7,b1x8 black=g2x8,h2x8";
    let lines = script::legal_lines(&game::<CoanKi>(&[], Some(position), ""));
    let expected = [
        "roll:1-1 1",
        "roll:1-2 2",
        "roll:1-3 2",
        "roll:1-4 2",
        "roll:1-5 2",
        "roll:1-6 2",
        "roll:2-2 1",
        "roll:2-3 2",
        "roll:2-4 2",
        "roll:2-5 2",
        "roll:2-6 2",
        "roll:3-3 1",
        "roll:3-4 2",
        "roll:3-5 2",
        "roll:3-6 2",
        "roll:4-4 1",
        "roll:4-5 2",
        "roll:4-6 2",
        "roll:5-5 1",
        "roll:5-6 2",
        "roll:6-6 1",
    ];
    assert_eq!(lines, expected);
    let g: CoanKi = game(&[], Some(position), "");
    assert_eq!(g.outcomes().iter().map(|(_, w)| w).sum::<u32>(), 36);
    // A throw may be given with the larger die first; it is normalised.
    assert_eq!("6-5".parse::<Roll>(), "5-6".parse::<Roll>());
    assert_eq!(
        "6-5".parse::<Roll>().map(|r| r.to_string()),
        Ok("5-6".into())
    );
    let (position, _) = head::<CoanKi>(&[], Some(position), "roll:6-5");
    assert_eq!(
        position,
        "turn=black dice=5-6 white=a1x7,b1x8 black=g2x8,h2x8"
    );
}

#[test]
fn t1_the_roll_off() {
    let (position, status) = head::<CoanKi>(&[], None, "roll:3v3");
    assert_eq!(position, START);
    assert_eq!(status, "chance");
    assert_eq!(legal::<CoanKi>(&[], None, "roll:3v3").len(), 36);
    let g: CoanKi = game(&[], None, "");
    assert_eq!(events_of(&g, "roll:3v3"), [Event::RollOffTie { die: 3 }]);

    let moves = "roll:3v3 roll:4v6";
    let (position, status) = head::<CoanKi>(&[], None, moves);
    assert_eq!(
        position,
        "turn=black dice=4-6 white=a1x8,b1x8 black=g2x8,h2x8"
    );
    assert_eq!(status, "turn black");
    assert_eq!(
        legal::<CoanKi>(&[], None, moves),
        set(&[
            "g2+10",
            "h2+10",
            "g2+4&g2+6",
            "g2+4&h2+6",
            "g2+6&h2+4",
            "h2+4&h2+6"
        ])
    );
    let g: CoanKi = game(&[], None, "roll:3v3");
    assert_eq!(
        events_of(&g, "roll:4v6"),
        [Event::RollOffWon {
            seat: BLACK,
            white: 4,
            black: 6
        }]
    );
    // The roll-off outcome is not a normal throw, and vice versa.
    rejected_at::<CoanKi>(&[], None, "roll:4-6", 0);
    rejected_at::<CoanKi>(&[], None, "roll:6v5 a1+5&b1+11 roll:4v6", 2);
}

#[test]
fn t2_white_plays_5_6_consecutive() {
    let (position, status) = head::<CoanKi>(&[], None, "roll:6v5");
    assert_eq!(
        position,
        "turn=white dice=5-6 white=a1x8,b1x8 black=g2x8,h2x8"
    );
    assert_eq!(status, "turn white");
    assert_eq!(legal::<CoanKi>(&[], None, "roll:6v5"), set(&T2_PLAYS));
    for play in ["a1+11", "a1+5&a1+6"] {
        assert!(matches!(
            illegal_at::<CoanKi>(&[], None, &format!("roll:6v5 {play}"), 1),
            R::ExceedsTheThrow { throw } if Some(throw) == Throw::new(5, 6)
        ));
    }
    let (position, status) = head::<CoanKi>(&[], None, "roll:6v5 a1+5&b1+11");
    assert_eq!(
        position,
        "turn=black white=a1x7,b1x7,d2x1,f1x1 black=g2x8,h2x8"
    );
    assert_eq!(status, "chance");
}

#[test]
fn t3_start_position_4_4() {
    let position = "turn=white dice=4-4 white=a1x8,b1x8 black=g2x8,h2x8";
    assert_eq!(
        legal::<CoanKi>(&[], Some(position), ""),
        set(&["a1+4", "b1+4", "a1+8&a1+8", "a1+8&b1+8", "b1+8&b1+8"])
    );
    // a1+8 lands on h2, Black's start cell: mixed stacks are fine.
    let (position, _) = head::<CoanKi>(&[], Some(position), "a1+8&a1+8");
    assert_eq!(position, "turn=black white=a1x6,b1x8,h2x2 black=g2x8,h2x8");
}

#[test]
fn t6_start_position_6_6() {
    let position = "turn=white dice=6-6 white=a1x8,b1x8 black=g2x8,h2x8";
    assert_eq!(
        legal::<CoanKi>(&[], Some(position), ""),
        set(&["a1+6", "b1+6", "a1+12&a1+12", "a1+12&b1+12", "b1+12&b1+12"])
    );
}

#[test]
fn t7_start_1_3_is_an_other_throw() {
    let (position, _) = head::<CoanKi>(&[], None, "roll:3v1");
    assert_eq!(
        position,
        "turn=white dice=1-3 white=a1x8,b1x8 black=g2x8,h2x8"
    );
    assert_eq!(
        legal::<CoanKi>(&[], None, "roll:3v1"),
        set(&[
            "a1+4",
            "b1+4",
            "a1+1&a1+3",
            "a1+1&b1+3",
            "a1+3&b1+1",
            "b1+1&b1+3"
        ])
    );
}

#[test]
fn t8_black_starts_with_5_6() {
    let (position, status) = head::<CoanKi>(&[], None, "roll:5v6");
    assert_eq!(
        position,
        "turn=black dice=5-6 white=a1x8,b1x8 black=g2x8,h2x8"
    );
    assert_eq!(status, "turn black");
    assert_eq!(
        legal::<CoanKi>(&[], None, "roll:5v6"),
        set(&[
            "g2+5&g2+11",
            "g2+5&h2+11",
            "g2+11&h2+5",
            "h2+5&h2+11",
            "g2+10&g2+11",
            "g2+10&h2+11",
            "g2+11&h2+10",
            "h2+10&h2+11",
        ])
    );
}

#[test]
fn t10_one_travelling_piece_left() {
    let lost = "turn=black white=b2x1 white-home=a1x8,b1x7 black=g2x8,h2x8";
    let g: CoanKi = game(&[], Some(T10), "");
    for roll in ["roll:3-5", "roll:1-2", "roll:1-3", "roll:5-6", "roll:6-6"] {
        assert_eq!(
            head::<CoanKi>(&[], Some(T10), roll),
            (lost.into(), "chance".into()),
            "{roll}"
        );
        let throw = roll.trim_start_matches("roll:").parse::<Roll>();
        let Ok(Roll::Throw(throw)) = throw else {
            panic!("{roll}")
        };
        assert_eq!(
            events_of(&g, roll),
            [Event::ThrowLost { seat: WHITE, throw }],
            "{roll}"
        );
    }
    assert_eq!(legal::<CoanKi>(&[], Some(T10), "roll:2-2"), set(&["b2+2"]));
    let (position, status) = head::<CoanKi>(&[], Some(T10), "roll:2-2 b2+2");
    assert_eq!(position, "turn=black white-home=a1x9,b1x7 black=g2x8,h2x8");
    assert_eq!(status, "winner white");
    assert!(legal::<CoanKi>(&[], Some(T10), "roll:2-2 b2+2").is_empty());

    assert_eq!(
        events_of(&g, "roll:1-1"),
        [Event::Penalty {
            payer: WHITE,
            payee: BLACK
        }]
    );
    let (position, status) = head::<CoanKi>(&[], Some(T10), "roll:1-1");
    assert_eq!(
        position,
        "turn=white dice=1-1 white=b2x1 white-home=a1x8,b1x7 black=g2x8,h2x8"
    );
    assert_eq!(status, "turn white");
    assert_eq!(
        legal::<CoanKi>(&[], Some(T10), "roll:1-1"),
        set(&["remove:b2"])
    );
    let (position, status) = head::<CoanKi>(&[], Some(T10), "roll:1-1 remove:b2");
    assert_eq!(position, "turn=black white-home=a1x8,b1x7 black=g2x8,h2x8");
    assert_eq!(status, "winner white");
    let message = rejected_at::<CoanKi>(&[], Some(T10), "roll:3-5 b2+8", 1);
    assert!(message.contains("roll is due"), "{message}");
}

#[test]
fn t10_overshoot_the_same_with_finish_overshoot() {
    let over = ["finish=overshoot"];
    assert_eq!(
        legal::<CoanKi>(&over, Some(T10), "roll:3-5"),
        set(&["b2+8"])
    );
    let (position, status) = head::<CoanKi>(&over, Some(T10), "roll:3-5 b2+8");
    assert_eq!(position, "turn=black white-home=a1x8,b1x8 black=g2x8,h2x8");
    assert_eq!(status, "winner white");
    assert_eq!(
        legal::<CoanKi>(&over, Some(T10), "roll:6-6"),
        set(&["b2+6"])
    );
    let (position, status) = head::<CoanKi>(&over, Some(T10), "roll:1-2");
    assert_eq!(
        position,
        "turn=black white=b2x1 white-home=a1x8,b1x7 black=g2x8,h2x8"
    );
    assert_eq!(status, "chance");
    // Exactly t = 16 finishes on the first start cell.
    let (position, _) = head::<CoanKi>(&over, Some(T10), "roll:2-2 b2+2");
    assert_eq!(position, "turn=black white-home=a1x9,b1x7 black=g2x8,h2x8");
}

#[test]
fn t13_double_one_in_mid_game() {
    let g: CoanKi = game(&[], Some(T13), "");
    assert_eq!(
        events_of(&g, "roll:1-1"),
        [Event::Penalty {
            payer: WHITE,
            payee: BLACK
        }]
    );
    let penalty = Event::Penalty {
        payer: WHITE,
        payee: BLACK,
    }
    .to_string();
    assert!(
        penalty.contains("White") && penalty.contains("pays Black"),
        "{penalty}"
    );
    let (position, status) = head::<CoanKi>(&[], Some(T13), "roll:1-1");
    assert_eq!(
        position,
        "turn=white dice=1-1 white=a1x7,b1x8,e1x1 black=g2x8,h2x8"
    );
    assert_eq!(status, "turn white");
    assert_eq!(
        legal::<CoanKi>(&[], Some(T13), "roll:1-1"),
        set(&["remove:a1", "remove:b1", "remove:e1"])
    );
    let (position, status) = head::<CoanKi>(&[], Some(T13), "roll:1-1 remove:e1");
    assert_eq!(position, "turn=black white=a1x7,b1x8 black=g2x8,h2x8");
    assert_eq!(status, "chance");
    // Lenient forms of the removal.
    for typed in ["remove e1", "remove E1", "REMOVE:e1", "e1"] {
        let g: CoanKi = game(&[], Some(T13), "roll:1-1");
        assert_eq!(
            g.interpret(typed).map(|m| m.to_string()),
            Ok("remove:e1".into()),
            "{typed}"
        );
    }
    let message = rejected_at::<CoanKi>(&[], Some(T13), "roll:1-1 remove:c1", 1);
    assert!(message.contains("c1 is empty"), "{message}");
    let message = rejected_at::<CoanKi>(&[], Some(T13), "roll:1-1 remove:g2", 1);
    assert!(message.contains("Black"), "{message}");
    assert_eq!(
        illegal_at::<CoanKi>(&[], Some(T13), "roll:1-1 e1+2", 1),
        R::MustRemove
    );
}

#[test]
fn t14_mixed_stacks() {
    let position = "turn=white dice=2-2 white=a1x1,h1x1 black=e2x3,h2x8";
    assert_eq!(
        legal::<CoanKi>(&[], Some(position), ""),
        set(&["a1+2", "h1+2", "a1+4&h1+4"])
    );
    let (after, status) = head::<CoanKi>(&[], Some(position), "a1+4&h1+4");
    assert_eq!(after, "turn=black white=e1x1,e2x1 black=e2x3,h2x8");
    assert_eq!(status, "chance");
    let g: CoanKi = game(&[], Some(position), "");
    let events = events_of(&g, "a1+4&h1+4");
    assert_eq!(events.len(), 2, "{events:?}");
    assert!(matches!(
        events[1],
        Event::Moved {
            finished: false,
            ..
        }
    ));
}

#[test]
fn t15_no_pass() {
    assert!(matches!(
        illegal_at::<CoanKi>(&[], None, "roll:6v5 pass", 1),
        R::NoPass { throw: Some(_) }
    ));
    assert_eq!(
        illegal_at::<CoanKi>(&[], Some(T13), "roll:1-1 pass", 1),
        R::NoPass { throw: None }
    );
    assert_eq!(legal::<CoanKi>(&[], None, "roll:6v5"), set(&T2_PLAYS));
}

#[test]
fn t16_the_turn_passes_after_a_lost_throw_and_after_a_double_one() {
    // A lost throw leaves Black to roll (T10) ...
    let g: CoanKi = game(&[], Some(T10), "roll:3-5");
    assert_eq!(g.status(), Status::Chance);
    assert!(g.position().starts_with("turn=black "));
    // ... and so does the removal after 1-1 (T13), and any other play.
    let g: CoanKi = game(&[], Some(T13), "roll:1-1 remove:a1");
    assert_eq!(g.status(), Status::Chance);
    assert!(g.position().starts_with("turn=black "));
    let g: CoanKi = game(&[], Some(T13), "roll:6-6 a1+6");
    assert!(g.position().starts_with("turn=black "), "{}", g.position());
    let g: CoanKi = game(&[], Some(T13), "roll:6-6 a1+6 roll:1-1");
    assert_eq!(g.status(), Status::Decision(BLACK));
}

#[test]
fn t_block8_the_block_variant() {
    assert_eq!(
        legal::<CoanKi>(&[], Some(BLOCK), ""),
        set(&["a1+2", "b1+2", "a1+4&a1+4", "a1+4&b1+4", "b1+4&b1+4"])
    );
    let on = ["block8=on"];
    assert_eq!(legal::<CoanKi>(&on, Some(BLOCK), ""), set(&["a1+2"]));
    assert_eq!(
        illegal_at::<CoanKi>(&on, Some(BLOCK), "b1+2", 0),
        R::PathBlocked {
            cell: "b1".into(),
            steps: 2,
            block: "d1".into(),
            count: 8,
            owner: Colour::Black
        }
    );
    let rolling = "turn=white white=a1x8,b1x8 black=d1x8,h2x8";
    let (position, status) = head::<CoanKi>(&on, Some(rolling), "roll:5-6");
    assert_eq!(position, "turn=black white=a1x8,b1x8 black=d1x8,h2x8");
    assert_eq!(status, "chance");
    assert_eq!(legal::<CoanKi>(&on, None, "roll:6v5"), set(&T2_PLAYS));
    // A block affects only the opponent: Black moves through his own eight.
    let black = "turn=black dice=2-2 white=a1x8,b1x8 black=d1x8,h2x8";
    assert!(legal::<CoanKi>(&on, Some(black), "").contains(&"d1+4&d1+4".to_string()));
    // A position string with a throw that no play fits is rejected.
    let message = rejected::<CoanKi>(
        &on,
        Some("turn=white dice=5-6 white=a1x8,b1x8 black=d1x8,h2x8"),
        "",
    )
    .to_string();
    assert!(message.contains("dice=5-6"), "{message}");
}

#[test]
fn start_and_section_9_examples_round_trip() {
    let start: CoanKi = game(&[], None, "");
    assert_eq!(start.position(), START);
    assert_eq!(start.status(), Status::Chance);
    for position in [
        START,
        "turn=white dice=5-6 white=a1x8,b1x8 black=g2x8,h2x8",
        MID,
        T10,
        T13,
        BLOCK,
        "turn=white dice=1-1 white=b2x1 white-home=a1x8,b1x7 black=g2x8,h2x8",
        "turn=black white-home=a1x9,b1x7 black=g2x8,h2x8",
    ] {
        let g: CoanKi = game(&[], Some(position), "");
        assert_eq!(g.position(), position);
        let again: CoanKi = game(&[], Some(&g.position()), "");
        assert_eq!(again, g, "{position}");
    }
    let after: CoanKi = game(&[], None, "roll:6v5");
    let parsed: CoanKi = game(
        &[],
        Some("turn=white dice=5-6 white=a1x8,b1x8 black=g2x8,h2x8"),
        "",
    );
    assert_eq!(after, parsed);
    // Fields and list items in any order read the same.
    let shuffled = "black-home=h2x2 black=g2x5,f2x4,c1x2,a1x1 white=h2x1,e1x3,c2x2,a1x5 white-home=b1x1,a1x2 turn=black";
    assert_eq!(game::<CoanKi>(&[], Some(shuffled), "").position(), MID);
}

#[test]
fn drawing_of_section_10() {
    let expected = "\
turn=black white=a1x5,c2x2,e1x3,h2x1 white-home=a1x2,b1x1 black=a1x1,c1x2,f2x4,g2x5 black-home=h2x2
chance
        a         b         c         d         e         f         g         h
   +---------+---------+---------+---------+---------+---------+---------+---------+
 2 |         |         |    W2   |         |         |    B4   |    B5   |  W1 b2  |
   +---------+---------+---------+---------+---------+---------+---------+---------+
 1 | W5 w2 B1|    w1   |    B2   |         |    W3   |         |         |         |
   +---------+---------+---------+---------+---------+---------+---------+---------+
        a         b         c         d         e         f         g         h
";
    assert_eq!(
        script::show_text(&game::<CoanKi>(&[], Some(MID), "")),
        expected
    );
    let start = [
        "        a         b         c         d         e         f         g         h",
        "   +---------+---------+---------+---------+---------+---------+---------+---------+",
        " 2 |         |         |         |         |         |         |    B8   |    B8   |",
        "   +---------+---------+---------+---------+---------+---------+---------+---------+",
        " 1 |    W8   |    W8   |         |         |         |         |         |         |",
        "   +---------+---------+---------+---------+---------+---------+---------+---------+",
        "        a         b         c         d         e         f         g         h",
        "",
    ]
    .join("\n");
    assert_eq!(game::<CoanKi>(&[], None, "").drawing(), start);
    let drawing = game::<CoanKi>(&[], None, "roll:6v5").drawing();
    assert!(drawing.ends_with("\ndice 5-6\n"), "{drawing}");
}

#[test]
fn position_errors_name_the_token() {
    let cases = [
        ("turn=white colour=red white=a1x8", "colour"),
        ("turn=white white=i1x3 black=h2x8", "i1x3"),
        ("turn=white white=a3x3 black=h2x8", "a3x3"),
        ("turn=white white=a1 black=h2x8", "a1"),
        ("turn=white white=a1x0 black=h2x8", "a1x0"),
        ("turn=white white=a1x17 black=h2x8", "a1x17"),
        (
            "turn=white white=a1x99999999999999999999 black=h2x8",
            "a1x99999999999999999999",
        ),
        ("turn=white white=a1x2,a1x3 black=h2x8", "a1x3"),
        ("turn=white white=c2x2,c2x3 black=h2x8", "c2x3"),
        ("turn=white white=c1x+8 black=h2x8", "c1x+8"),
        ("turn=white white=c1x008 black=h2x8", "c1x008"),
        ("turn=white white=a1x8,b1x8,c1x1 black=h2x8", "white"),
        (
            "turn=white white=a1x8 white-home=a1x8,b1x1 black=h2x8",
            "white",
        ),
        ("turn=white white=a1x8 white-home=c1x1 black=h2x8", "c1x1"),
        (
            "turn=white white=a1x16,b1x16,c1x16,d1x16,e1x16,f1x16,g1x16,h1x16,a2x16,b2x16,\
             c2x16,d2x16,e2x16,f2x16,g2x16,h2x16 black=h2x8",
            "b1x16",
        ),
        ("turn=white white=a1x8 black=h2x8 black-home=a1x1", "a1x1"),
        ("turn=rolloff dice=5-6 white=a1x8 black=h2x8", "dice=5-6"),
        ("turn=white dice=7-1 white=a1x8 black=h2x8", "7-1"),
        ("turn=white dice=56 white=a1x8 black=h2x8", "56"),
        ("turn=red white=a1x8 black=h2x8", "red"),
        ("white=a1x8 black=h2x8", "turn"),
        ("turn=white turn=black white=a1x8 black=h2x8", "turn"),
        ("turn=white white=a1x8 black", "black"),
        ("turn=white white-home=a1x8 black-home=h2x8", "turn=white"),
        (
            "turn=black dice=2-2 white-home=a1x9,b1x7 black=g2x8",
            "dice=2-2",
        ),
        (
            "turn=white dice=6-6 white=b2x1 white-home=a1x8,b1x7 black=g2x8",
            "dice=6-6",
        ),
        ("turn=rolloff white-home=a1x8 black=g2x8", "turn=rolloff"),
        ("turn=white white=A1x8 black=h2x8", "A1x8"),
    ];
    for (position, token) in cases {
        let message = rejected::<CoanKi>(&[], Some(position), "").to_string();
        assert!(message.contains(token), "{position}: {message}");
    }
}

#[test]
fn options_are_read_and_checked() {
    let message = rejected::<CoanKi>(&["colour=red"], None, "").to_string();
    assert!(message.contains("colour"), "{message}");
    let message = rejected::<CoanKi>(&["finish=exact"], None, "").to_string();
    assert!(message.contains("exact"), "{message}");
    let message = rejected::<CoanKi>(&["block8=yes"], None, "").to_string();
    assert!(message.contains("yes"), "{message}");
    let options = script::options::<CoanKi>(&["finish=overshoot", "block8=on"]);
    let Ok(options) = options else {
        panic!("{options:?}")
    };
    assert_eq!(
        CoanKi::option_pairs(&options),
        vec![
            ("finish", "overshoot".to_string()),
            ("block8", "on".to_string())
        ]
    );
    assert_eq!(
        CoanKi::option_pairs(&Default::default()),
        vec![
            ("finish", "zone".to_string()),
            ("block8", "off".to_string())
        ]
    );
}

#[test]
fn typed_input_errors_say_what_is_wrong() {
    let g: CoanKi = game(&[], None, "roll:6v5");
    let refusal = |g: &CoanKi, text: &str| match g.interpret(text) {
        Ok(mv) => panic!("{text} was read as {mv}"),
        Err(e) => e,
    };
    let why = |g: &CoanKi, text: &str| refusal(g, text).to_string();
    let illegal = |g: &CoanKi, text: &str| reason(refusal(g, text));
    // Lenient forms.
    for typed in [
        "a1+5 b1+11",
        "b1+11&a1+5",
        "B1+11 A1+5",
        " a1+5 & b1+11 ",
        "a1+5,b1+11",
    ] {
        assert_eq!(
            g.interpret(typed).map(|m| m.to_string()),
            Ok("a1+5&b1+11".into()),
            "{typed}"
        );
    }
    // Abbreviation: a part without its steps, when only one legal play fits.
    let t3: CoanKi = game(
        &[],
        Some("turn=white dice=4-4 white=a1x8,b1x8 black=g2x8,h2x8"),
        "",
    );
    assert_eq!(t3.interpret("a1").map(|m| m.to_string()), Ok("a1+4".into()));
    assert_eq!(
        t3.interpret("a1 b1").map(|m| m.to_string()),
        Ok("a1+8&b1+8".into())
    );
    let message = why(&g, "a1 b1");
    assert!(
        message.contains("ambiguous") && message.contains("a1+10&b1+11"),
        "{message}"
    );
    // No such cell.
    assert!(why(&g, "i1+5&b1+11").contains("`i1` is not a cell"));
    assert!(why(&g, "a3+5").contains("`a3` is not a cell"));
    // No piece of yours there.
    let message = why(&g, "c1+5&b1+11");
    assert!(
        message.contains("c1 is not yours") && message.contains("empty"),
        "{message}"
    );
    let message = why(&g, "h2+5&b1+11");
    assert!(
        message.contains("h2 is not yours") && message.contains("Black"),
        "{message}"
    );
    // A finished piece.
    let t10: CoanKi = game(&[], Some(T10), "roll:2-2");
    let message = why(&t10, "a1+2");
    assert!(
        message.contains("finished") && message.contains("never move"),
        "{message}"
    );
    // The same piece used twice.
    let mid: CoanKi = game(
        &[],
        Some(MID.replace("turn=black", "turn=white dice=5-6").as_str()),
        "",
    );
    assert_eq!(
        illegal(&mid, "h2+5&h2+11"),
        R::SamePieceTwice {
            cell: "h2".into(),
            seat: Colour::White
        }
    );
    // A part that overshoots the home cells.
    // (3-5 is lost with one piece left on b2, so a second piece makes it a decision.)
    let two = "turn=white dice=3-5 white=b2x1,c1x1 white-home=a1x8,b1x6 black=g2x8,h2x8";
    let g2: CoanKi = game(&[], Some(two), "");
    assert!(matches!(
        illegal(&g2, "b2+8"),
        R::OvershootsHome { cell, steps: 8, .. } if cell == "b2"
    ));
    // The wording a user reads, built from the reason.
    assert_eq!(
        why(&g2, "b2+8"),
        "`b2+8` is not legal: b2+8 overshoots the home cells: a White piece on b2 comes home \
         with 2 steps (on a1) or 3 (on b1) and may not go beyond"
    );
    // A play that does not fit the throw.
    assert!(matches!(
        illegal(&g, "a1+11"),
        R::ExceedsTheThrow { throw } if Some(throw) == Throw::new(5, 6)
    ));
    assert!(matches!(
        illegal(&g, "a1+5&a1+6"),
        R::ExceedsTheThrow { .. }
    ));
    // Pass, removal at the wrong time, garbage, three parts.
    assert!(matches!(illegal(&g, "pass"), R::NoPass { .. }));
    assert_eq!(illegal(&g, "remove:a1"), R::RemoveOnlyAfterDoubleOne);
    for text in ["hello", "a1+x", ""] {
        assert!(matches!(refusal(&g, text), MoveError::Unreadable { .. }));
    }
    assert!(matches!(
        illegal(&g, "a1+5&a1+5&b1+1"),
        R::TooManyParts { .. }
    ));
    assert!(matches!(
        illegal(&g, "a1+99999999999999999999&b1+5"),
        R::ExceedsTheThrow { .. }
    ));
    // At a chance node or after the end no move can be made.
    assert!(why(&game(&[], None, ""), "a1+5").contains("thrown"));
    let over: CoanKi = game(&[], Some(T10), "roll:2-2 b2+2");
    assert!(why(&over, "a1+5").contains("over"));
}

#[test]
fn notation_round_trips_and_rejects_non_canonical_text() {
    for text in [
        "c1+7",
        "a1+5&b1+11",
        "a1+11&b1+5",
        "a1+8&a1+8",
        "g2+11&h2+5",
        "remove:e1",
    ] {
        let mv: Result<Move, _> = text.parse();
        assert_eq!(mv.map(|m| m.to_string()), Ok(text.to_string()));
    }
    for text in [
        "b1+11&a1+5",
        "A1+5",
        "a1+05",
        "a1+13",
        "a1+0",
        "remove e1",
        "a1 + 5",
        "",
        "é+1",
    ] {
        assert!(text.parse::<Move>().is_err(), "{text}");
    }
    for text in ["4v6", "1v1", "5-6", "1-1", "6-6"] {
        assert_eq!(
            text.parse::<Roll>().map(|r| r.to_string()),
            Ok(text.to_string())
        );
    }
    for text in ["0v1", "7-1", "5-", "56", "5v6v", "", "v"] {
        assert!(text.parse::<Roll>().is_err(), "{text}");
    }
    let action: Result<Action<Move, Roll>, _> = "roll:6-5".parse();
    assert_eq!(action.map(|a| a.to_string()), Ok("roll:5-6".into()));
}

#[test]
fn perft_small_depths_checked_by_hand() {
    let start: CoanKi = game(&[], None, "");
    // Depth 1: the 36 roll-off outcomes.
    assert_eq!(perft(&start, 1), 36);
    // Depth 2: the 6 ties repeat the roll-off (36 outcomes each: 216). The 30 others give the
    // starter a non-double throw to play on a start position with 8 pieces on each of t = 0
    // and t = 1 (no move reaches t = 18, nothing is blocked):
    // - 10 outcomes are consecutive (1-2 … 5-6, both orders): 2 options of two different amounts
    //   x ≠ y, each amount from either of the 2 cells (two pieces on one cell are allowed, as
    //   each holds 8): 2 × 2 × 2 = 8 plays (T2, T8);
    // - 20 outcomes are "other": one piece s from either cell (2), or a and b from the 2 × 2
    //   cell pairs (4): 6 plays (T1, T7).
    // 216 + 10 × 8 + 20 × 6 = 416.
    assert_eq!(perft(&start, 2), 416);
    // Depth 3: tie, tie, any roll-off: 6 × 6 × 36 = 1296; tie, then a non-tie, then a play:
    // 6 × (80 + 120) = 1200; a non-tie, a play (200 sequences), then the opponent's 21 throws
    // (no play wins yet): 200 × 21 = 4200. 1296 + 1200 + 4200 = 6696.
    assert_eq!(perft(&start, 3), 6696);
}

#[test]
fn events_are_narrated_in_english() {
    let narrate = |g: &CoanKi, action: &str| -> Vec<String> {
        events_of(g, action)
            .iter()
            .map(ToString::to_string)
            .collect()
    };
    let start: CoanKi = game(&[], None, "");
    assert_eq!(
        narrate(&start, "roll:3v3"),
        ["both threw 3 in the roll-off: it is thrown again"]
    );
    assert_eq!(
        narrate(&start, "roll:4v6"),
        ["Black threw 6 against White's 4 in the roll-off and starts with 4-6"]
    );
    let t2: CoanKi = game(&[], None, "roll:6v5");
    assert_eq!(
        narrate(&t2, "a1+5&b1+11"),
        [
            "White moved a piece 5 from a1 to f1",
            "White moved a piece 11 from b1 to d2"
        ]
    );
    let t10: CoanKi = game(&[], Some(T10), "");
    assert_eq!(
        narrate(&t10, "roll:3-5"),
        ["White cannot use 3-5: the throw is lost"]
    );
    assert_eq!(
        narrate(&t10, "roll:1-1"),
        ["White threw 1-1 and pays Black a fine of 10% of the stake"]
    );
    let t10: CoanKi = game(&[], Some(T10), "roll:2-2");
    assert_eq!(
        narrate(&t10, "b2+2"),
        [
            "White moved a piece 2 from b2 home to a1, where it is turned over",
            "White has no travelling pieces left and wins"
        ]
    );
    let t10: CoanKi = game(&[], Some(T10), "roll:1-1");
    assert_eq!(
        narrate(&t10, "remove:b2"),
        [
            "White took his piece on b2 out of the game",
            "White has no travelling pieces left and wins"
        ]
    );
}

/// Section 13: the engine reports who pays whom on a double one, through any game too.
#[test]
fn rule_5_8_penalty_reported_through_any_game() {
    let mut any =
        tabula_core::AnyGame::start(tabula_core::GameId::CoanKi, &[], Some(T10)).expect("start");
    let applied = any.apply_text("roll:1-1").expect("double one");
    assert_eq!(applied.penalties(), [(WHITE, BLACK)]);
    let mut any =
        tabula_core::AnyGame::start(tabula_core::GameId::CoanKi, &[], Some(T10)).expect("start");
    let applied = any.apply_text("roll:2-2").expect("double two");
    assert!(applied.penalties().is_empty());
}

/// The accessors the pictures use: a cell's place on the loop, a throw's dice, a removal's cell,
/// and the debug forms.
#[test]
fn cells_throws_and_moves_expose_their_parts() {
    use tabula_core::coan_ki::{Cell, Part, Throw};
    let cell = |file, rank| Cell::new(file, rank).expect("a cell");
    let loop_of: Vec<(String, u8)> = [(0, 1), (1, 1), (7, 1), (7, 2), (1, 2), (0, 2)]
        .into_iter()
        .map(|(file, rank)| (cell(file, rank).to_string(), cell(file, rank).loop_index()))
        .collect();
    let expected = [
        ("a1", 0),
        ("b1", 1),
        ("h1", 7),
        ("h2", 8),
        ("b2", 14),
        ("a2", 15),
    ];
    assert_eq!(
        loop_of,
        expected.map(|(name, index)| (name.to_string(), index))
    );
    assert_eq!(format!("{:?}", cell(4, 1)), "Cell(e1)");

    let throw = Throw::new(6, 2).expect("a throw");
    assert_eq!((throw.lo(), throw.hi(), throw.total()), (2, 6, 8));
    assert_eq!(throw.to_string(), "2-6");
    let double = Throw::new(5, 5).expect("a throw");
    assert_eq!((double.lo(), double.hi()), (5, 5));

    let removal = Move::remove(cell(4, 1));
    assert_eq!(removal.removed(), Some(cell(4, 1)));
    assert_eq!(removal.parts().count(), 0);
    let play = Move::two(
        Part {
            from: cell(1, 1),
            steps: 11,
        },
        Part {
            from: cell(0, 1),
            steps: 5,
        },
    );
    assert_eq!(play.removed(), None);
    assert_eq!(format!("{play:?}"), "Move(a1+5&b1+11)");
    assert_eq!(format!("{removal:?}"), "Move(remove:e1)");
}

/// A die that is not a digit, even one below `0` in ASCII, is refused (not a panic).
#[test]
fn throws_with_a_non_digit_die_are_refused() {
    for text in ["/-5", "5-/", " -5", "5- ", "!-!", "0-5", "5-7"] {
        assert!(text.parse::<Roll>().is_err(), "{text}");
        let position = format!("turn=white dice={text} white=a1x8,b1x8 black=g2x8,h2x8");
        let error = rejected::<CoanKi>(&[], Some(&position), "").to_string();
        assert!(error.contains(text.trim()), "{text}: {error}");
    }
    assert_eq!(
        "1-6".parse::<Roll>().map(|r| r.to_string()),
        Ok("1-6".into())
    );
}

/// A part's steps are one or two digits (1 to 12): padded or signed steps are not notation,
/// and the refusal does not offer them a canonical form.
#[test]
fn steps_are_plain_numbers_in_notation() {
    for text in ["a1+007", "a1++5", "a1+-5", "a1+", "a1+5&b1+011"] {
        let error = text.parse::<Move>().expect_err(text);
        assert_eq!(error.why, NotationProblem::CoanKiMove, "{text}");
    }
    let error = "b1+11&a1+5".parse::<Move>().expect_err("order");
    assert_eq!(
        error.why,
        NotationProblem::NotCanonical {
            canonical: "a1+5&b1+11".into()
        }
    );
    assert_eq!(
        error.to_string(),
        "cannot read `b1+11&a1+5`: not in canonical form (write `a1+5&b1+11`)"
    );
}

/// With blocks, a piece standing on an enemy block's cell (pieces of both colours may share a
/// cell) may leave it: only landing on a block or passing over it is forbidden (rule 11).
#[test]
fn a_piece_on_an_enemy_block_may_leave_it() {
    let on = ["block8=on"];
    let position = "turn=white dice=3-3 white=a1x7,b1x8,d1x1 black=d1x8,h2x8";
    assert_eq!(legal::<CoanKi>(&on, Some(position), ""), set(&["d1+3"]));
}

/// A typed play whose steps are one of the throw's plays is refused for what stops it (a block),
/// and one whose steps are not is refused as not fitting the throw: doubles of three and more
/// (two pieces 2n each) and consecutive throws (s − 1 and s).
#[test]
fn typed_steps_are_checked_against_each_kind_of_throw() {
    let on = ["block8=on"];
    let blocked = |throw: &str, typed: &str| {
        let position = format!("turn=white dice={throw} white=a1x6,b1x8,e1x1,f1x1 black=d1x8,h2x8");
        illegal_at::<CoanKi>(&on, Some(&position), typed, 0)
    };
    for (throw, typed) in [
        ("3-3", "a1+6&b1+6"),
        ("4-4", "a1+8&b1+8"),
        ("5-5", "a1+10&b1+10"),
        ("6-6", "a1+12&b1+12"),
        ("3-4", "a1+6&b1+7"),
        ("3-4", "a1+3&b1+7"),
        ("2-3", "a1+4&b1+5"),
    ] {
        assert!(
            matches!(blocked(throw, typed), R::PathBlocked { ref block, .. } if block == "d1"),
            "{throw} {typed}: {:?}",
            blocked(throw, typed)
        );
    }
    for (throw, typed) in [
        ("3-3", "a1+5&b1+5"),
        ("3-3", "a1+7&b1+7"),
        ("3-4", "a1+8&b1+7"),
        ("3-4", "a1+5&b1+7"),
    ] {
        assert!(
            matches!(blocked(throw, typed), R::ExceedsTheThrow { .. }),
            "{throw} {typed}: {:?}",
            blocked(throw, typed)
        );
    }
}

/// Who acts, the roll-off and the blocks, as the pictures read them.
#[test]
fn the_seat_to_act_the_roll_off_and_blocks() {
    let start: CoanKi = game(&[], None, "");
    assert!(start.in_rolloff());
    assert_eq!(start.seat_to_act(), None);
    let white: CoanKi = game(&[], None, "roll:6v5");
    assert!(!white.in_rolloff());
    assert_eq!(white.seat_to_act(), Some(WHITE));
    let black: CoanKi = game(&[], None, "roll:5v6");
    assert_eq!(black.seat_to_act(), Some(BLACK));
    let rolling: CoanKi = game(&[], None, "roll:6v5 a1+5&b1+11");
    assert_eq!(
        (rolling.in_rolloff(), rolling.seat_to_act()),
        (false, Some(BLACK))
    );
    let over: CoanKi = game(&[], Some(T10), "roll:2-2 b2+2");
    assert_eq!(over.seat_to_act(), None);

    use tabula_core::coan_ki::Cell;
    let cell = |name: &str| {
        Cell::ALL
            .into_iter()
            .find(|c| c.to_string() == name)
            .expect("a cell")
    };
    // Black's eight on d1 block White there, not Black; seven on c1 and eight on the start
    // cell h2 block nobody; without the option nothing is a block.
    let position = "turn=white white=a1x8,b1x8 black=c1x7,d1x8,h2x1";
    let on: CoanKi = game(&["block8=on"], Some(position), "");
    let blocks: Vec<(Seat, String)> = [WHITE, BLACK]
        .into_iter()
        .flat_map(|seat| Cell::ALL.into_iter().map(move |c| (seat, c)))
        .filter(|(seat, c)| on.is_block_for(*seat, *c))
        .map(|(seat, c)| (seat, c.to_string()))
        .collect();
    assert_eq!(blocks, [(WHITE, "d1".to_string())]);
    let start_eight: CoanKi = game(
        &["block8=on"],
        Some("turn=white white=a1x8,b1x8 black=g2x8,h2x8"),
        "",
    );
    assert!(!start_eight.is_block_for(WHITE, cell("h2")));
    let off: CoanKi = game(&[], Some(position), "");
    assert!(!off.is_block_for(WHITE, cell("d1")));
}

/// A piece that comes home beyond the first home cell is turned over on the second (White's
/// b1), and the narration says so.
#[test]
fn a_piece_home_on_the_second_cell_is_narrated_there() {
    let g: CoanKi = game(&[], Some(T10), "roll:3-3");
    let events = events_of(&g, "b2+3");
    let told: Vec<String> = events.iter().map(ToString::to_string).collect();
    assert_eq!(
        told,
        [
            "White moved a piece 3 from b2 home to b1, where it is turned over",
            "White has no travelling pieces left and wins"
        ]
    );
}

/// The options a game was set up with are the ones it reports, and `finish=zone` written out
/// is the default, not the other choice.
#[test]
fn options_written_out_are_kept() {
    use tabula_core::coan_ki::{Finish, Options};
    let both: CoanKi = game(&["finish=overshoot", "block8=on"], None, "");
    assert_eq!(
        *both.options(),
        Options {
            finish: Finish::Overshoot,
            block8: true
        }
    );
    let zone: CoanKi = game(&["finish=zone", "block8=off"], None, "");
    assert_eq!(*zone.options(), Options::default());
    let two = "turn=white dice=3-5 white=b2x1,c1x1 white-home=a1x8,b1x6 black=g2x8,h2x8";
    assert!(matches!(
        illegal_at::<CoanKi>(&["finish=zone"], Some(two), "b2+8", 0),
        R::OvershootsHome { .. }
    ));
}

/// A drawing cell holds 9 characters: tokens are spaced when they fit (exactly 9 included)
/// and run together when they do not.
#[test]
fn drawing_cells_space_tokens_that_fit() {
    for (black, cell) in [("a1x1,h2x15", "|W10 w5 B1|"), ("a1x10,h2x6", "| W10w5B10|")] {
        let position = format!("turn=white white=a1x10,c1x1 white-home=a1x5 black={black}");
        let drawing = game::<CoanKi>(&[], Some(&position), "").drawing();
        assert!(drawing.contains(cell), "{drawing}");
    }
}
