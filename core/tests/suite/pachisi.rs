//! The scenarios of `shared/rules/pachisi.md`, section 12, named after them; the position strings
//! of section 9, the drawing of section 10, typed-input and position errors, and a hand-checked
//! perft.

use crate::common;

use tabula_core::playout::perft;

use common::{game, head, illegal_at, legal, reason, rejected, rejected_at, set};
use tabula_core::pachisi::{Move, Pachisi, Roll};
use tabula_core::{
    Compass, Game, IllegalReason as R, MoveError, NoMoveReason, SetupError, Status, script,
};

const START: &str = "turn=S phase=decide S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0";
const MID_GAME: &str =
    "turn=W phase=decide S=0,6,13,80 E=0,0,12,12 N=3,84,84,84 W=0,0,0,33 entered=S,E,N,W";

fn at(position: &str) -> Pachisi {
    game(&[], Some(position), "")
}

/// The legal lines of a position after `moves`.
fn legal_at(position: &str, moves: &str) -> Vec<String> {
    legal::<Pachisi>(&[], Some(position), moves)
}

/// The position string and status line of a position after `moves`.
fn head_at(position: &str, moves: &str) -> (String, String) {
    head::<Pachisi>(&[], Some(position), moves)
}

/// The message of a move rejected at `index` of `moves` from `position` (naming the token).
fn rejected_move(position: Option<&str>, moves: &str, index: usize) -> String {
    rejected_at::<Pachisi>(&[], position, moves, index)
}

/// Why action `index` is an illegal move.
fn illegal_move(position: Option<&str>, moves: &str, index: usize) -> R {
    illegal_at::<Pachisi>(&[], position, moves, index)
}

const OUTCOMES: [&str; 7] = [
    "roll:25 1",
    "roll:10 6",
    "roll:2 15",
    "roll:3 20",
    "roll:4 15",
    "roll:5 6",
    "roll:6 1",
];

#[test]
fn p0_the_start() {
    assert_eq!(legal::<Pachisi>(&[], None, ""), set(&["skip", "throw"]));
    let (position, status) = head::<Pachisi>(&[], None, "");
    assert_eq!(position, START);
    assert_eq!(status, "turn S");
    let g: Pachisi = game(&[], None, "");
    assert_eq!(g.status(), Status::Decision(tabula_core::Seat(0)));
}

#[test]
fn p17_the_cowrie_outcomes() {
    let g: Pachisi = game(&[], None, "throw");
    assert_eq!(g.status(), Status::Chance);
    assert_eq!(head::<Pachisi>(&[], None, "throw").1, "chance");
    // Exactly these lines, in the order of the rules file.
    assert_eq!(script::legal_lines(&g), OUTCOMES.map(String::from).to_vec());
    assert_eq!(g.outcomes().iter().map(|(_, w)| w).sum::<u32>(), 64);
    let (position, status) = head::<Pachisi>(&[], None, "throw roll:10 roll:6");
    assert_eq!(
        position,
        "turn=S phase=throw throws=6,10 S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0"
    );
    assert_eq!(status, "chance");
    let g: Pachisi = game(&[], None, "throw roll:10 roll:6");
    assert_eq!(script::legal_lines(&g), OUTCOMES.map(String::from).to_vec());
    // A move where a roll is due, and a roll where a move is due, are rejected.
    rejected_move(None, "throw j6+3", 1);
    rejected_move(None, "roll:3", 0);
    rejected_move(None, "throw roll:7", 1);
}

#[test]
fn p1_the_first_piece_enters_with_any_value() {
    let (position, status) = head::<Pachisi>(&[], None, "throw roll:3");
    assert_eq!(
        position,
        "turn=S phase=allocate throws=3 S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0"
    );
    assert_eq!(status, "turn S");
    assert_eq!(
        legal::<Pachisi>(&[], None, "throw roll:3"),
        set(&["enter+3", "done"])
    );
    let (position, status) = head::<Pachisi>(&[], None, "throw roll:3 enter+3");
    assert_eq!(
        position,
        "turn=W phase=decide S=0,0,0,3 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S"
    );
    assert_eq!(status, "turn W");
    assert!(matches!(
        illegal_move(None, "throw roll:3 enter+6", 2),
        R::ValueNotThrown { .. }
    ));
}

#[test]
fn p2_later_pieces_need_a_grace() {
    let three = "turn=S phase=allocate throws=3 S=0,0,0,3 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S";
    assert_eq!(legal_at(three, ""), set(&["j6+3", "done"]));
    assert!(matches!(
        illegal_move(Some(three), "enter+3", 0),
        R::EnterNeedsGrace { .. }
    ));
    let ten = "turn=S phase=allocate throws=10 S=0,0,0,3 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S";
    assert_eq!(legal_at(ten, ""), set(&["enter+10", "j6+10", "done"]));
    assert_eq!(
        head_at(ten, "enter+10").0,
        "turn=W phase=decide S=0,0,3,10 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S"
    );
    assert_eq!(
        head_at(ten, "j6+10").0,
        "turn=W phase=decide S=0,0,0,13 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S"
    );
}

#[test]
fn p3_several_values_used_one_at_a_time() {
    let moves = "throw roll:10 roll:6 roll:3";
    assert_eq!(
        head::<Pachisi>(&[], None, moves).0,
        "turn=S phase=allocate throws=3,6,10 S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0"
    );
    assert_eq!(
        legal::<Pachisi>(&[], None, moves),
        set(&["enter+3", "enter+6", "enter+10", "done"])
    );
    let moves = "throw roll:10 roll:6 roll:3 enter+10";
    assert_eq!(
        head::<Pachisi>(&[], None, moves).0,
        "turn=S phase=allocate throws=3,6 S=0,0,0,10 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S"
    );
    assert_eq!(
        legal::<Pachisi>(&[], None, moves),
        set(&["enter+6", "k2+3", "k2+6", "done"])
    );
    assert!(matches!(
        illegal_move(None, &format!("{moves} enter+3"), 5),
        R::EnterNeedsGrace { .. }
    ));
    assert!(matches!(
        illegal_move(None, &format!("{moves} enter+10"), 5),
        R::ValueNotThrown { .. }
    ));
    // No value may be split: 9 = 3 + 6 is not a value.
    assert!(matches!(
        illegal_move(None, &format!("{moves} k2+9"), 5),
        R::NotACowrieValue { .. }
    ));
    let moves = "throw roll:10 roll:6 roll:3 enter+10 enter+6";
    assert_eq!(
        head::<Pachisi>(&[], None, moves).0,
        "turn=S phase=allocate throws=3 S=0,0,6,10 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S"
    );
    assert_eq!(
        legal::<Pachisi>(&[], None, moves),
        set(&["j3+3", "k2+3", "done"])
    );
    let (position, status) = head::<Pachisi>(&[], None, &format!("{moves} k2+3"));
    assert_eq!(
        position,
        "turn=W phase=decide S=0,0,6,13 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S"
    );
    assert_eq!(status, "turn W");
}

#[test]
fn p4_capture() {
    let p = "turn=S phase=allocate throws=2 S=0,0,0,14 E=0,0,0,67 N=0,0,0,0 W=0,0,0,0 entered=S,E";
    assert_eq!(legal_at(p, ""), set(&["k6+2", "done"]));
    assert_eq!(
        head_at(p, "k6+2").0,
        "turn=W phase=decide S=0,0,0,16 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S,E"
    );
    let mut g = at(p);
    let events = g
        .play(&"k6+2".parse().expect("canonical notation"))
        .expect("legal here");
    let narration: Vec<String> = events.iter().map(ToString::to_string).collect();
    assert_eq!(
        narration,
        [
            "S moves k6 to k8 with 2",
            "S captures 1 piece of E on k8: back to the Charkoni"
        ]
    );
    let message = rejected_move(Some(p), "k8+2", 0);
    assert!(message.contains("not yours"), "{message}");
    assert!(matches!(
        illegal_move(Some(p), "enter+2", 0),
        R::EnterNeedsGrace { .. }
    ));
}

#[test]
fn p5_an_occupied_castle_is_closed_to_opponents() {
    let p = "turn=S phase=allocate throws=3 S=0,0,0,10 E=0,0,0,0 N=0,0,0,0 W=0,0,0,29 entered=S,W";
    assert_eq!(legal_at(p, ""), set(&["k2+3", "done"]));
    let thrown = "turn=S phase=throw S=0,0,0,10 E=0,0,0,0 N=0,0,0,0 W=0,0,0,29 entered=S,W";
    let (position, status) = head_at(thrown, "roll:2");
    assert_eq!(
        position,
        "turn=W phase=decide S=0,0,0,10 E=0,0,0,0 N=0,0,0,0 W=0,0,0,29 entered=S,W"
    );
    assert_eq!(status, "turn W");
    let mut g = at(thrown);
    let events = g
        .roll(&"2".parse().expect("canonical notation"))
        .expect("legal here");
    let narration: Vec<String> = events.iter().map(ToString::to_string).collect();
    assert_eq!(
        narration,
        ["S throws 2", "S cannot use 2: lost, the turn passes"]
    );
    // A loaded position that stops there has only `done`, and says why k2+2 is illegal.
    let two =
        "turn=S phase=allocate throws=2 S=0,0,0,10 E=0,0,0,0 N=0,0,0,0 W=0,0,0,29 entered=S,W";
    assert_eq!(legal_at(two, ""), set(&["done"]));
    assert!(matches!(
        illegal_move(Some(two), "k2+2", 0),
        R::CastleClosed { who, .. } if who == [Compass::West]
    ));
}

#[test]
fn p6_a_castle_held_by_the_partner_is_open() {
    let p = "turn=S phase=allocate throws=2 S=0,0,0,10 E=0,0,0,0 N=0,0,0,46 W=0,0,0,0 entered=S,N";
    assert_eq!(legal_at(p, ""), set(&["k2+2", "done"]));
    assert_eq!(
        head_at(p, "k2+2").0,
        "turn=W phase=decide S=0,0,0,12 E=0,0,0,0 N=0,0,0,46 W=0,0,0,0 entered=S,N"
    );
    let message = rejected_move(Some(p), "k4+2", 0);
    assert!(message.contains("not yours"), "{message}");
}

#[test]
fn p9_the_home_column() {
    let two = "turn=S phase=allocate throws=2 S=0,0,0,80 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S";
    assert_eq!(legal_at(two, ""), set(&["j5+2", "done"]));
    assert_eq!(
        head_at(two, "j5+2").0,
        "turn=W phase=decide S=0,0,0,82 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S"
    );
    let four = "turn=S phase=allocate throws=4 S=0,0,0,80 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S";
    assert_eq!(legal_at(four, ""), set(&["j5+4", "done"]));
    assert_eq!(
        head_at(four, "j5+4").0,
        "turn=W phase=decide S=0,0,0,84 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S"
    );
    let thrown =
        "turn=S phase=throw throws=6,10,25 S=80,84,84,84 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S";
    assert_eq!(
        head_at(thrown, "roll:5").0,
        "turn=W phase=decide S=80,84,84,84 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S"
    );
    let mut g = at(thrown);
    let events = g
        .roll(&"5".parse().expect("canonical notation"))
        .expect("legal here");
    assert_eq!(
        events.last().map(ToString::to_string).as_deref(),
        Some("S cannot use 5, 6, 10, 25: lost, the turn passes")
    );
    let stuck = "turn=S phase=allocate throws=5,6,10,25 S=80,84,84,84 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S";
    assert_eq!(legal_at(stuck, ""), set(&["done"]));
    for (moves, why) in [
        ("j5+5", "overshoots"),
        ("j5+25", "exactly"),
        ("j5+3", "not thrown"),
    ] {
        let message = rejected_move(Some(stuck), moves, 0);
        assert!(message.contains(why), "{message}");
    }
}

#[test]
fn p11_one_square_short() {
    let p = "turn=S phase=allocate throws=3,6,10,25 S=83,84,84,84 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S";
    assert_eq!(legal_at(p, ""), set(&["j8+6", "j8+10", "j8+25", "done"]));
    assert!(matches!(
        illegal_move(Some(p), "j8+3", 0),
        R::FinishNeedsGrace { .. }
    ));
    assert_eq!(
        head_at(p, "j8+10").0,
        "turn=W phase=decide S=84,84,84,84 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S"
    );
    let mut g = at(p);
    let events = g
        .play(&"j8+10".parse().expect("canonical notation"))
        .expect("legal here");
    let narration: Vec<String> = events.iter().map(ToString::to_string).collect();
    assert_eq!(
        narration,
        [
            "S moves j8 into the Charkoni with 10: finished",
            "S has brought all four pieces home",
            "S cannot use 3, 6, 25: lost, the turn passes"
        ]
    );
    // S is skipped from now on: W, N, E, then W again.
    let after = head_at(p, "j8+10 skip skip skip").0;
    assert!(after.starts_with("turn=W phase=decide"), "{after}");
}

#[test]
fn p12_entering_onto_an_enemys_end_castle() {
    let east =
        "turn=S phase=allocate throws=2,25 S=0,0,0,5 E=0,0,0,8 N=0,0,0,0 W=0,0,0,0 entered=S,E";
    assert_eq!(legal_at(east, ""), set(&["j4+2", "j4+25", "done"]));
    assert!(matches!(
        illegal_move(Some(east), "enter+25", 0),
        R::CastleClosed { who, .. } if who == [Compass::East]
    ));
    let west =
        "turn=S phase=allocate throws=2,25 S=0,0,0,5 E=0,0,0,0 N=0,0,0,0 W=0,0,0,42 entered=S,W";
    assert_eq!(legal_at(west, ""), set(&["j4+2", "j4+25", "done"]));
    assert!(matches!(
        illegal_move(Some(west), "enter+25", 0),
        R::CastleClosed { who, .. } if who == [Compass::West]
    ));
    let north =
        "turn=S phase=allocate throws=2,25 S=0,0,0,5 E=0,0,0,0 N=0,0,0,59 W=0,0,0,0 entered=S,N";
    assert_eq!(
        legal_at(north, ""),
        set(&["enter+25", "j4+2", "j4+25", "done"])
    );
    let empty =
        "turn=S phase=allocate throws=2,25 S=0,0,0,5 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S";
    assert_eq!(
        legal_at(empty, ""),
        set(&["enter+25", "j4+2", "j4+25", "done"])
    );
    assert!(matches!(
        illegal_move(Some(empty), "enter+2", 0),
        R::EnterNeedsGrace { .. }
    ));
    assert_eq!(
        head_at(empty, "enter+25").0,
        "turn=S phase=allocate throws=2 S=0,0,5,25 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S"
    );
}

#[test]
fn p_h_outbound_and_home_bound_pieces_on_one_middle_column_square() {
    let p = "turn=S phase=allocate throws=2 S=0,3,81,84 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S";
    assert_eq!(legal_at(p, ""), set(&["j6+2", "j6h+2", "done"]));
    assert_eq!(
        head_at(p, "j6+2").0,
        "turn=W phase=decide S=0,5,81,84 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S"
    );
    assert_eq!(
        head_at(p, "j6h+2").0,
        "turn=W phase=decide S=0,3,83,84 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S"
    );
    let g = at(p);
    assert_eq!(
        g.interpret("J6H 2").map(|m| m.to_string()),
        Ok("j6h+2".into())
    );
    assert!(matches!(
        illegal_move(Some(p), "j6x2+2", 0),
        R::NotThatMany { .. }
    ));
    // Alone on its square, the home-bound piece is written without h; h is still accepted.
    let alone =
        "turn=S phase=allocate throws=2 S=0,0,81,84 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S";
    assert_eq!(legal_at(alone, ""), set(&["j6+2", "done"]));
    let g = at(alone);
    assert_eq!(
        g.interpret("j6h+2").map(|m| m.to_string()),
        Ok("j6+2".into())
    );
    // The own end square: pos 8 and pos 76 share j1.
    let end = "turn=S phase=allocate throws=4 S=0,8,76,84 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S";
    assert_eq!(legal_at(end, ""), set(&["j1+4", "j1h+4", "done"]));
    assert_eq!(
        head_at(end, "j1h+4").0,
        "turn=W phase=decide S=0,8,80,84 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S"
    );
    assert_eq!(
        head_at(end, "j1+4").0,
        "turn=W phase=decide S=0,12,76,84 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S"
    );
}

#[test]
fn p14_turn_order() {
    assert!(
        head::<Pachisi>(&[], None, "throw roll:3 enter+3")
            .0
            .starts_with("turn=W phase=decide")
    );
    assert!(
        head::<Pachisi>(&[], None, "throw roll:3 enter+3 skip")
            .0
            .starts_with("turn=N phase=decide")
    );
    assert!(
        head::<Pachisi>(&[], None, "throw roll:3 enter+3 skip skip")
            .0
            .starts_with("turn=E phase=decide")
    );
    assert_eq!(
        head::<Pachisi>(&[], None, "throw roll:3 enter+3 skip skip skip").0,
        "turn=S phase=decide S=0,0,0,3 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S"
    );
    let p = "turn=S phase=decide S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=84,84,84,84 entered=W";
    let (position, status) = head_at(p, "skip");
    assert_eq!(
        position,
        "turn=N phase=decide S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=84,84,84,84 entered=W"
    );
    assert_eq!(status, "turn N");
    // ... and from E it goes on to S.
    assert!(head_at(p, "skip skip skip").0.starts_with("turn=S "));
}

#[test]
fn p15_declining() {
    assert_eq!(
        head::<Pachisi>(&[], None, "skip").0,
        "turn=W phase=decide S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0"
    );
    let moves = "throw roll:10 roll:4";
    assert_eq!(
        head::<Pachisi>(&[], None, moves).0,
        "turn=S phase=allocate throws=4,10 S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0"
    );
    assert_eq!(
        legal::<Pachisi>(&[], None, moves),
        set(&["enter+4", "enter+10", "done"])
    );
    assert_eq!(
        head::<Pachisi>(&[], None, "throw roll:10 roll:4 done").0,
        "turn=W phase=decide S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0"
    );
    // S kept the first-entry privilege: next time any value enters.
    assert_eq!(
        legal::<Pachisi>(
            &[],
            None,
            "throw roll:10 roll:4 done skip skip skip throw roll:2"
        ),
        set(&["enter+2", "done"])
    );
    assert!(matches!(illegal_move(None, "done", 0), R::NothingToGiveUp));
    assert!(matches!(
        illegal_move(None, "throw roll:4 skip", 2),
        R::SkipOnlyBeforeThrowing
    ));
}

#[test]
fn p16_the_team_win() {
    let p = "turn=S phase=allocate throws=2,10 S=82,84,84,84 E=0,0,0,0 N=84,84,84,84 W=0,0,0,0 entered=S,N";
    assert_eq!(legal_at(p, ""), set(&["j7+2", "done"]));
    let (position, status) = head_at(p, "j7+2");
    assert_eq!(
        position,
        "turn=W phase=decide S=84,84,84,84 E=0,0,0,0 N=84,84,84,84 W=0,0,0,0 entered=S,N"
    );
    assert_eq!(status, "winner SN");
    assert!(legal_at(p, "j7+2").is_empty());
    let message = rejected_move(Some(p), "j7+2 throw", 1);
    assert!(message.contains("over"), "{message}");
    assert!(matches!(
        illegal_move(Some(p), "j7+10", 0),
        R::MustFinishExactly {
            pos: 82,
            away: 2,
            ..
        }
    ));
    // The finished game's string reads back as a finished game.
    let done = at(&position);
    assert_eq!(done.status_line(), "winner SN");
    assert_eq!(done, game(&[], Some(p), "j7+2"));
}

/// The winning partnership is named in the narration and in the refusal of a move after the end.
#[test]
fn the_winners_are_named_by_their_partnership() {
    for (position, team) in [
        (
            "turn=S phase=allocate throws=2,10 S=82,84,84,84 E=0,0,0,0 N=84,84,84,84 W=0,0,0,0 entered=S,N",
            "SN",
        ),
        (
            "turn=E phase=allocate throws=2,10 S=0,0,0,0 E=82,84,84,84 N=0,0,0,0 W=84,84,84,84 entered=E,W",
            "EW",
        ),
    ] {
        let finishing: Vec<String> = legal_at(position, "")
            .into_iter()
            .filter(|line| line.ends_with("+2"))
            .collect();
        let [finishing] = &finishing[..] else {
            panic!("one finishing move expected: {finishing:?}");
        };
        let mut g = at(position);
        let events = g
            .play(&finishing.parse().expect("canonical notation"))
            .expect("legal here");
        let narration: Vec<String> = events.iter().map(ToString::to_string).collect();
        assert_eq!(
            narration.last().map(String::as_str),
            Some(format!("{team} win: all eight pieces are home").as_str()),
            "{narration:?}"
        );
        assert_eq!(g.status_line(), format!("winner {team}"));
        let refusal = g.interpret("done").expect_err("the game is over");
        assert_eq!(
            refusal,
            MoveError::NoMoveNow(NoMoveReason::TeamWon { team })
        );
    }
}

/// The 96 squares of the cross (section 2), read back from their grid coordinates, in rank
/// then file order; the twelve castles; no square for the Charkoni or beyond the track.
#[test]
fn the_squares_of_the_cross() {
    use tabula_core::Seat;
    use tabula_core::pachisi::Square;
    let letters = b"abcdefghijklmnopqrs";
    let mut expected = Vec::new();
    for rank in 1..=19u8 {
        for file in 0..19u8 {
            let middle_column = (8..=10).contains(&file);
            let middle_row = (9..=11).contains(&rank);
            if middle_column != middle_row {
                expected.push(format!("{}{rank}", char::from(letters[usize::from(file)])));
            }
        }
    }
    assert_eq!(expected.len(), 96);
    let all: Vec<String> = Square::all().map(|s| s.to_string()).collect();
    assert_eq!(all, expected);
    for rank in 0..=20u8 {
        for file in 0..=20u8 {
            let square = Square::from_coords(file, rank);
            let name =
                (file < 19).then(|| format!("{}{rank}", char::from(letters[usize::from(file)])));
            match square {
                Some(square) => {
                    assert_eq!(Some(square.to_string()), name);
                    assert_eq!((square.file(), square.rank()), (file, rank));
                    assert_eq!(format!("{square:?}"), square.to_string());
                }
                None => assert!(
                    name.is_none_or(|name| !expected.contains(&name)),
                    "{file} {rank}"
                ),
            }
        }
    }
    let castles: Vec<String> = Square::all()
        .filter(|s| s.is_castle())
        .map(|s| s.to_string())
        .collect();
    let mut listed = [
        "j1", "i4", "k4", "s10", "p9", "p11", "j19", "i16", "k16", "a10", "d9", "d11",
    ]
    .map(String::from)
    .to_vec();
    listed.sort_by_key(|name| {
        let square: Square = name.parse().expect("a square");
        (square.rank(), square.file())
    });
    assert_eq!(castles, listed);
    for seat in 0..4 {
        let seat = Seat(seat);
        assert_eq!(Square::of(seat, 0), None);
        assert_eq!(Square::of(seat, 84), None);
        assert_eq!(Square::of(seat, 85), None);
        assert!(Square::of(seat, 8).is_some_and(Square::is_castle));
    }
    assert_eq!(
        Square::of(Seat(0), 8).map(|s| s.to_string()),
        Some("j1".into())
    );
    assert_eq!(Square::of(Seat(4), 8), None);
    // S and N play as SN, E and W as EW.
    let teams: Vec<&str> = (0..4)
        .map(|seat| Pachisi::TEAMS[usize::from(Pachisi::team_of(Seat(seat)).0)])
        .collect();
    assert_eq!(teams, ["SN", "EW", "SN", "EW"]);
    let rolls: Vec<String> = Roll::ALL.iter().map(|roll| format!("{roll:?}")).collect();
    assert_eq!(
        rolls,
        [
            "Roll(25)", "Roll(10)", "Roll(2)", "Roll(3)", "Roll(4)", "Roll(5)", "Roll(6)"
        ]
    );
}

#[test]
fn start_and_section_9_examples_round_trip() {
    for text in [
        START,
        "turn=S phase=allocate throws=3,6,10 S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0",
        MID_GAME,
    ] {
        let g = at(text);
        assert_eq!(g.position(), text);
        assert_eq!(at(&g.position()), g);
    }
    assert_eq!(at(START), Pachisi::new(&Default::default()));
    assert_eq!(
        at("turn=S phase=allocate throws=3,6,10 S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0"),
        game(&[], None, "throw roll:10 roll:6 roll:3")
    );
    // Field order and list order do not matter on input.
    let shuffled =
        "entered=W,N,E,S W=33,0,0,0 N=84,3,84,84 E=12,0,12,0 S=80,13,6,0 phase=decide turn=W";
    assert_eq!(at(shuffled).position(), MID_GAME);
    let throws = "throws=10,3,6 turn=S phase=allocate S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0";
    assert_eq!(
        at(throws).position(),
        "turn=S phase=allocate throws=3,6,10 S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0"
    );
}

const DRAWING: &str = "\
turn=W phase=decide S=0,6,13,80 E=0,0,12,12 N=3,84,84,84 W=0,0,0,33 entered=S,E,N,W
turn W
    a b c d e f g h i j k l m n o p q r s
19                  . x .                  19
18                  . . .                  18
17                  . . .                  17
16                  x . x                  16
15                  . . .                  15
14                  . N .                  14
13                  . . .                  13
12                  . . .                  12
11  . . . x . . . . # # # . . . . 2 . . .  11
10  x . . . . . . . # # # . . . . . . . x  10
 9  . . . x . . . . # # # . . . . x . . .  9
 8                  . . W                  8
 7                  . . .                  7
 6                  . . .                  6
 5                  . s S                  5
 4                  x . x                  4
 3                  . S .                  3
 2                  . . .                  2
 1                  . x .                  1
    a b c d e f g h i j k l m n o p q r s
S: 0 ch, 6 j3, 13 k5, 80 j5
E: 0 ch, 0 ch, 12 p11, 12 p11
N: 3 j14, 84 home, 84 home, 84 home
W: 0 ch, 0 ch, 0 ch, 33 k8
";

#[test]
fn drawing_of_section_10() {
    assert_eq!(script::show_text(&at(MID_GAME)), DRAWING);
    let g = at("turn=S phase=allocate throws=3,6,10 S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0");
    let text = script::show_text(&g);
    assert!(
        text.ends_with("W: 0 ch, 0 ch, 0 ch, 0 ch\nthrows 3 6 10\n"),
        "{text}"
    );
    // The empty board is the figure of section 2.
    let empty = script::show_text(&at(START));
    assert!(
        empty.contains("\n 1                  . x .                  1\n"),
        "{empty}"
    );
    assert!(
        empty.contains("\n11  . . . x . . . . # # # . . . . x . . .  11\n"),
        "{empty}"
    );
}

#[test]
fn position_errors_name_the_token() {
    let cases = [
        // Unknown key, missing key, duplicate key.
        (
            "turn=S phase=decide colour=red S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0",
            "colour",
        ),
        ("turn=S phase=decide S=0,0,0,0 E=0,0,0,0 N=0,0,0,0", "W"),
        (
            "phase=decide S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0",
            "turn",
        ),
        (
            "turn=S turn=E phase=decide S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0",
            "turn",
        ),
        (
            "turn=S phase=decide S=0,0,0,0 S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0",
            "S",
        ),
        (
            "turn=S phase decide S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0",
            "phase",
        ),
        // Bad values.
        (
            "turn=X phase=decide S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0",
            "X",
        ),
        (
            "turn=S phase=move S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0",
            "move",
        ),
        (
            "turn=S phase=decide S=0,0,0,85 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S",
            "85",
        ),
        (
            "turn=S phase=decide S=0,0,0,j6 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S",
            "j6",
        ),
        (
            "turn=S phase=decide S=0,0,0,+8 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S",
            "+8",
        ),
        (
            "turn=S phase=decide S=0,0,0,8 E=0,0,0,8 N=0,0,0,0 W=0,0,0,0 entered=S,E,E",
            "E",
        ),
        (
            "turn=S phase=decide S=0,0,0,008 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S",
            "008",
        ),
        (
            "turn=S phase=decide S=0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0",
            "S=0,0,0",
        ),
        (
            "turn=S phase=decide S=0,0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0",
            "S=0,0,0,0,0",
        ),
        (
            "turn=S phase=throw throws=7 S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0",
            "7",
        ),
        (
            "turn=S phase=decide S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=X",
            "X",
        ),
        // Duplicate seat in entered.
        (
            "turn=S phase=decide S=0,0,0,3 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S,S",
            "S",
        ),
        // Section 9: the values must fit the phase.
        (
            "turn=S phase=decide throws=3 S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0",
            "throws=3",
        ),
        (
            "turn=S phase=throw throws=6,3 S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0",
            "3",
        ),
        (
            "turn=S phase=allocate S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0",
            "throws",
        ),
        (
            "turn=S phase=allocate throws=2,5 S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0",
            "5",
        ),
        // A seat with a piece out must be listed in entered.
        (
            "turn=S phase=decide S=0,0,0,3 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0",
            "S=0,0,0,3",
        ),
        // No square holds both teams (k8: S pos 16, E pos 67).
        (
            "turn=S phase=decide S=0,0,0,16 E=0,0,0,67 N=0,0,0,0 W=0,0,0,0 entered=S,E",
            "k8",
        ),
        // The seat to act must have a piece that is not finished.
        (
            "turn=W phase=decide S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=84,84,84,84 entered=W",
            "turn=W",
        ),
    ];
    for (position, token) in cases {
        let error = rejected::<Pachisi>(&[], Some(position), "");
        assert!(
            matches!(error, SetupError::Position(_)),
            "{position}: {error}"
        );
        let message = error.to_string();
        assert!(
            message.contains(&format!("`{token}`")),
            "{position}: {message}"
        );
    }
    // Partners may share a square; the same seat may stand at pos 8 and 76.
    at("turn=S phase=decide S=0,0,0,10 E=0,0,0,0 N=0,0,0,44 W=0,0,0,0 entered=S,N");
    at("turn=S phase=decide S=0,0,8,76 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S");
    // A finished game: the winners' seat may be named to act.
    let won = at("turn=S phase=decide S=84,84,84,84 E=0,0,0,0 N=84,84,84,84 W=0,0,0,0 entered=S,N");
    assert_eq!(won.status_line(), "winner SN");
}

#[test]
fn typed_input_errors_say_what_is_wrong() {
    let p = "turn=S phase=allocate throws=2,6 S=0,10,10,80 E=0,0,0,67 N=0,0,0,0 W=0,0,12,12 entered=S,E,W";
    let g = at(p);
    let read = |text: &str| g.interpret(text).map(|m| m.to_string());
    let why = |text: &str| read(text).expect_err("must be rejected").to_string();
    let illegal = |text: &str| reason(g.interpret(text).expect_err("must be rejected"));
    // Lenient forms of legal moves.
    assert_eq!(read("K2+2"), Ok("k2+2".into()));
    assert_eq!(read(" k2 2 "), Ok("k2+2".into()));
    assert_eq!(read("k2x2 6"), Ok("k2x2+6".into()));
    assert_eq!(read("K2X2+6"), Ok("k2x2+6".into()));
    assert_eq!(read("k2 x2 + 6"), Ok("k2x2+6".into()));
    assert_eq!(read("ENTER+6"), Ok("enter+6".into()));
    assert_eq!(read("enter 6"), Ok("enter+6".into()));
    assert_eq!(read("enter"), Ok("enter+6".into()));
    assert_eq!(read("j5"), Ok("j5+2".into()));
    assert_eq!(read("Done"), Ok("done".into()));
    // Ambiguous: the value left out where two values fit.
    let ambiguous = read("k2").expect_err("must be rejected");
    assert_eq!(
        ambiguous,
        MoveError::Ambiguous {
            input: "k2".into(),
            candidates: vec!["k2+2".into(), "k2+6".into()]
        }
    );
    assert!(why("k2").contains("k2+2 or k2+6"));
    // No such square.
    assert!(why("a1+2").contains("not a cell"));
    assert!(why("t10+2").contains("not a cell"));
    assert!(why("j99999999999+2").contains("not a cell"));
    // A letter alone is not a cell name at all.
    for text in ["k+2", "k 2", "z"] {
        assert!(
            matches!(g.interpret(text), Err(MoveError::Unreadable { .. })),
            "{text}: {:?}",
            g.interpret(text)
        );
    }
    assert!(matches!(illegal("j10+2"), R::CharkoniIsNotASquare { cell } if cell == "j10"));
    assert!(matches!(illegal("ch+6"), R::CharkoniIsNotASquare { .. }));
    // No piece of yours there.
    let message = why("k8+2");
    assert!(
        message.contains("not yours") && message.contains("1 piece of E"),
        "{message}"
    );
    assert!(why("d9+2").contains("2 pieces of W"));
    assert!(why("k3+2").contains("empty"));
    assert!(why("k2h+2").contains("home-bound"));
    // Not that many pieces there.
    assert_eq!(
        illegal("k2x3+2"),
        R::NotThatMany {
            have: 2,
            square: "k2".into()
        }
    );
    assert_eq!(illegal("k2x0+2"), R::NoPieces);
    // The value was not thrown, or is not a cowrie value.
    assert!(matches!(illegal("k2+3"), R::ValueNotThrown { value, .. } if value == "3"));
    assert!(matches!(illegal("k2+7"), R::NotACowrieValue { value } if value == "7"));
    assert!(matches!(
        illegal("k2+99999999999999"),
        R::NotACowrieValue { .. }
    ));
    // Entering needs a grace.
    assert_eq!(illegal("enter+2"), R::EnterNeedsGrace { value: 2 });
    // Overshoot.
    assert!(matches!(
        illegal("j5+6"),
        R::MustFinishExactly { value: 6, .. }
    ));
    // A castle held by the opponents: W holds p11 (S pos 29) ... reached from k2 with 19? Use
    // a position built for it.
    let castle =
        at("turn=S phase=allocate throws=2 S=0,0,0,10 E=0,0,0,0 N=0,0,0,0 W=0,0,0,29 entered=S,W");
    assert!(matches!(
        reason(castle.interpret("k2+2").expect_err("must be rejected")),
        R::CastleClosed { .. }
    ));
    // Too few pieces to capture: two E pieces on k6 (E pos 65), one S piece arriving.
    let few = at(
        "turn=S phase=allocate throws=2 S=0,0,12,12 E=0,0,65,65 N=0,0,0,0 W=0,0,0,0 entered=S,E",
    );
    let refusal = few.interpret("k4+2").expect_err("must be rejected");
    assert_eq!(
        reason(refusal.clone()),
        R::TooFewToCapture {
            square: "k6".into(),
            opposing: 2,
            who: vec![Compass::East],
            arriving: 1
        }
    );
    // The wording a user reads, built from the reason.
    assert_eq!(
        refusal.to_string(),
        "`k4+2` is not legal: k6 holds 2 opposing pieces (E); 1 arriving piece \
         cannot capture them (at least 2 needed)"
    );
    assert_eq!(
        few.interpret("k4x2+2").map(|m| m.to_string()),
        Ok("k4x2+2".into())
    );
    // Unreadable, and moves at the wrong time.
    assert!(why("hello").contains("cannot read"));
    assert!(why("k2+2+").contains("cannot read"));
    assert!(why("ключ").contains("cannot read"));
    assert_eq!(illegal("throw"), R::AlreadyThrown);
    let start: Pachisi = game(&[], None, "");
    assert_eq!(
        reason(start.interpret("k2+2").expect_err("must be rejected")),
        R::ThrowFirst
    );
    let chance: Pachisi = game(&[], None, "throw");
    assert!(matches!(
        chance.interpret("k2+2"),
        Err(MoveError::NoMoveNow(_))
    ));
}

#[test]
fn notation_round_trips_and_rejects_non_canonical_text() {
    for text in [
        "throw", "skip", "done", "enter+25", "k2+3", "c9x2+4", "j6h+2", "j6hx3+10", "a10+6",
    ] {
        let mv: Move = text.parse().expect("canonical notation");
        assert_eq!(mv.to_string(), text);
    }
    for text in [
        "Throw", "enter+7", "k2+1", "K2+3", "k2 3", "k2x1+3", "k2x5+3", "a1+3", "j10+3", "k2+03",
        "k2", "enter", "", "k2x+3", "ch+6",
    ] {
        assert!(text.parse::<Move>().is_err(), "{text}");
    }
    for text in ["25", "10", "2", "3", "4", "5", "6"] {
        assert_eq!(text.parse::<Roll>().map(|r| r.to_string()), Ok(text.into()));
    }
    for text in ["1", "7", "02", "+3", ""] {
        assert!(text.parse::<Roll>().is_err(), "{text}");
    }
}

#[test]
fn pachisi_has_no_options() {
    let error = rejected::<Pachisi>(&["size=8"], None, "");
    assert!(
        matches!(error, SetupError::UnknownOption { allowed: "", .. }),
        "{error}"
    );
    assert!(error.to_string().contains("size"));
    assert!(Pachisi::option_pairs(&Default::default()).is_empty());
}

#[test]
fn perft_small_depths_checked_by_hand() {
    let start: Pachisi = game(&[], None, "");
    // Depth 1: S decides: throw or skip.
    assert_eq!(perft(&start, 1), 2);
    // Depth 2: after skip, W decides (2); after throw, the cowries have 7 outcomes (7). 2 + 7 = 9.
    assert_eq!(perft(&start, 2), 9);
    // Depth 3:
    // - skip skip: N decides, 2;
    // - skip throw: W's 7 outcomes, 7;
    // - throw and one of the 3 graces: S throws again, 7 outcomes each, 21;
    // - throw and one of 2, 3, 4, 5: allocate with that single value; S has the first-entry
    //   privilege, so enter+v or done, 2 each, 8.
    // 2 + 7 + 21 + 8 = 38.
    assert_eq!(perft(&start, 3), 38);
    // Depth 4:
    // - skip skip skip: E decides, 2;  skip skip throw: N's 7 outcomes, 7;
    // - skip throw grace: W throws again, 3 × 7 = 21;  skip throw 2–5: enter+v or done, 4 × 2 = 8;
    // - throw grace grace: 3 × 3 sequences, 7 outcomes each, 63;
    // - throw grace small: 3 × 4 sequences, values {g, v}: enter+g, enter+v (privilege), done,
    //   3 each, 36;
    // - throw small enter+v: the only value is used, the turn passes to W, who decides: 4 × 2 = 8;
    // - throw small done: W decides, 4 × 2 = 8.
    // 2 + 7 + 21 + 8 + 63 + 36 + 8 + 8 = 153.
    assert_eq!(perft(&start, 4), 153);
}

#[test]
fn parsers_never_panic_on_odd_input() {
    let g = at(MID_GAME);
    let allocate = at(
        "turn=S phase=allocate throws=2,6 S=0,10,10,80 E=0,0,0,67 N=0,0,0,0 W=0,0,12,12 entered=S,E,W",
    );
    for text in [
        "",
        " ",
        "+",
        "x",
        "h",
        "enter+",
        "enter++",
        "j",
        "j6h",
        "j6hx",
        "j6x",
        "j6x99999999999+2",
        "é6+3",
        "j6+é",
        "ⅸ",
        "enteré",
        "ch",
        "CH+6",
        "j6 h x 2 + 2",
        "🎲",
        "\u{0}",
        "9",
        "+6",
        "turn=S",
        "a=b=c",
        "S=,,,,",
        "throws=,",
        "j6+2 j6+2",
    ] {
        let _ = g.interpret(text);
        let _ = allocate.interpret(text);
        let _ = text.parse::<Move>();
        let _ = text.parse::<Roll>();
        let _ = Pachisi::from_position(&Default::default(), text);
    }
}

/// Property tests on material (see `common::fuzz`): typed input made from the legal moves of
/// states in phase `allocate` (where pieces move, the reading with the most ways to go wrong)
/// sampled from seeded random playouts, edited, plus random text; and position strings of
/// sampled states, edited. Both branches of each (interpreted-and-legal / refused, parsed /
/// rejected) must be reached in at least 5 % of the cases; `--nocapture` prints the counts.
mod properties {
    use super::common::fuzz::{interpreter, material, positions};
    use tabula_core::Game;
    use tabula_core::pachisi::Pachisi;

    fn allocating(g: &Pachisi) -> bool {
        g.position().contains("phase=allocate")
    }

    #[test]
    fn interpreted_input_in_phase_allocate_is_legal() {
        let m = material::<Pachisi>(&[], 20, 3, allocating);
        assert!(m.states.len() > 100, "only {} states", m.states.len());
        interpreter("pachisi allocate", &m, 4_000);
    }

    #[test]
    fn parsed_positions_round_trip() {
        let m = material::<Pachisi>(&[], 20, 3, |_| true);
        positions("pachisi", &[], &m, 4_000);
    }
}

/// The helpers the pictures and the narration share: where a track position stands, whether a
/// move finishes a piece or turns it home-bound, and a seat's positions and unused values.
#[test]
fn track_positions_as_the_pictures_read_them() {
    use tabula_core::Seat;
    use tabula_core::pachisi::{becomes_home_bound, finishes, position_name};
    let (south, east) = (Seat(0), Seat(1));
    assert_eq!(position_name(south, 0), "ch");
    assert_eq!(position_name(south, 3), "j6");
    assert_eq!(position_name(south, 81), "j6");
    assert_eq!(position_name(east, 8), "s10");
    assert_eq!(position_name(south, 84), "home");
    assert!(finishes(84));
    assert!(!finishes(83) && !finishes(76));
    for (from, to, turns) in [
        (70, 76, true),
        (75, 76, true),
        (70, 83, true),
        (70, 75, false),
        (76, 78, false),
        (77, 83, false),
        (80, 84, false),
        (70, 84, false),
        (0, 8, false),
    ] {
        assert_eq!(becomes_home_bound(from, to), turns, "{from} → {to}");
    }
    let g = at(MID_GAME);
    assert_eq!(g.positions(Seat(0)), [0, 6, 13, 80]);
    assert_eq!(g.positions(Seat(2)), [3, 84, 84, 84]);
    assert_eq!(g.positions(Seat(3)), [0, 0, 0, 33]);
    let g = at(
        "turn=S phase=allocate throws=2,6,6 S=0,10,10,80 E=0,0,0,67 N=0,0,0,0 W=0,0,12,12 entered=S,E,W",
    );
    let thrown: Vec<String> = g.throws().iter().map(|roll| roll.to_string()).collect();
    assert_eq!(thrown, ["2", "6", "6"]);
    assert_eq!(format!("{:?}", g.throws()), "[2, 6, 6]");
    assert_eq!(g.throws().to_string(), "2, 6, 6");
}

/// The narration of a grace, of a stack moving together, and of a piece turning home-bound
/// (only when it passes its own end square, not when it moves on from there).
#[test]
fn moves_are_narrated_with_graces_stacks_and_turning_home() {
    let narrate = |position: &str, action: &str| -> Vec<String> {
        let mut g = at(position);
        let (_, events) = g.apply_text(action).expect("legal here");
        events.iter().map(ToString::to_string).collect()
    };
    let throwing = "turn=S phase=throw S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0";
    assert_eq!(
        narrate(throwing, "roll:6"),
        ["S throws 6, a grace: throws again"]
    );
    assert_eq!(narrate(throwing, "roll:3")[0], "S throws 3");
    let stack = "turn=S phase=allocate throws=2,6 S=0,10,10,80 E=0,0,0,67 N=0,0,0,0 W=0,0,12,12 entered=S,E,W";
    let told = narrate(stack, "k2x2+6");
    assert!(
        told[0].starts_with("S moves 2 pieces from k2 to "),
        "{told:?}"
    );
    let turning =
        "turn=S phase=allocate throws=2,6 S=0,0,70,76 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S";
    assert_eq!(
        narrate(turning, "i6+6")[0],
        "S moves i6 to j1 with 6, now home-bound"
    );
    assert_eq!(narrate(turning, "j1h+2")[0], "S moves j1 to j3 with 2");
    // A piece home while others still travel; giving up the values left.
    let one_home =
        "turn=S phase=allocate throws=2,6 S=0,10,82,84 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S";
    assert_eq!(
        narrate(one_home, "j7+2"),
        ["S moves j7 into the Charkoni with 2: finished"]
    );
    assert_eq!(narrate(one_home, "done")[0], "S gives up 2, 6");
}

/// A piece typed without a value that no value thrown can move is refused with the reason for
/// each value.
#[test]
fn a_piece_no_value_fits_is_refused_for_each_value() {
    let p = "turn=S phase=allocate throws=3,6 S=0,10,10,82 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S";
    let refusal = at(p).interpret("j7").expect_err("nothing fits");
    let R::NoValueFits { reasons } = reason(refusal) else {
        panic!("expected NoValueFits");
    };
    let values: Vec<&str> = reasons.iter().map(|(value, _)| value.as_str()).collect();
    assert_eq!(values, ["3", "6"]);
    assert!(
        reasons
            .iter()
            .all(|(_, why)| matches!(why, R::MustFinishExactly { away: 2, .. })),
        "{reasons:?}"
    );
}

/// No square holds pieces of both teams (D10), whichever seats they are: each pair of
/// opponents is tried on a shared square.
#[test]
fn opponents_never_share_a_square_in_a_position() {
    use tabula_core::Seat;
    use tabula_core::pachisi::position_name;
    for (a, b) in [(0u8, 1u8), (0, 3), (2, 1), (2, 3)] {
        let (p, q) = (9..76u8)
            .flat_map(|p| (9..76u8).map(move |q| (p, q)))
            .find(|(p, q)| position_name(Seat(a), *p) == position_name(Seat(b), *q))
            .expect("the loop is shared");
        let mut fields = [
            "0,0,0,0".to_string(),
            "0,0,0,0".into(),
            "0,0,0,0".into(),
            "0,0,0,0".into(),
        ];
        fields[usize::from(a)] = format!("0,0,0,{p}");
        fields[usize::from(b)] = format!("0,0,0,{q}");
        let position = format!(
            "turn=S phase=decide S={} E={} N={} W={} entered=S,E,N,W",
            fields[0], fields[1], fields[2], fields[3]
        );
        let message = rejected::<Pachisi>(&[], Some(&position), "").to_string();
        let square = position_name(Seat(a), p);
        assert!(
            message.contains(&square) && message.contains("both teams"),
            "{position}: {message}"
        );
    }
}
