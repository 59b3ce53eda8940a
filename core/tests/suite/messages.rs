//! The English the engine writes for a refusal (what `tabula rules` prints): the shared pieces
//! of those sentences, written from the refusals' data. A mutation run found no test reading
//! them.

use tabula_core::IllegalReason as R;
use tabula_core::coan_ki::Throw;
use tabula_core::{
    CellContents, Colour, Compass, Expected, Holding, MoveError, NoMoveReason, NotYours,
    NotationError, NotationProblem, PositionError, PositionProblem, SetupError,
};

#[test]
fn legal_moves_are_listed_when_known() {
    let listed = R::NotLegalHere {
        legal: vec!["C8-B9".into(), "B2-B1".into()],
    };
    assert_eq!(
        listed.to_string(),
        "not a legal move here (legal: C8-B9, B2-B1)"
    );
    let unlisted = R::NotLegalHere { legal: Vec::new() };
    assert_eq!(unlisted.to_string(), "not a legal move here");
}

#[test]
fn a_jump_inside_a_sequence_is_named_first() {
    let named = R::LandingOccupied {
        jump: Some("C2xC4".into()),
        what: CellContents::new("C4", Holding::Piece(Colour::Black)),
    };
    assert_eq!(
        named.to_string(),
        "C2xC4: the landing point is occupied: C4 holds a Black piece"
    );
    let alone = R::LandingOccupied {
        jump: None,
        what: CellContents::new("C4", Holding::Piece(Colour::Black)),
    };
    assert_eq!(
        alone.to_string(),
        "the landing point is occupied: C4 holds a Black piece"
    );
}

#[test]
fn konane_removals_say_the_rule() {
    let white = R::NotRemovable {
        hole: Some("d4".into()),
        choices: vec!["d5".into(), "e4".into()],
    };
    assert_eq!(
        white.to_string(),
        "not a removable cell: White removes a stone orthogonally next to the hole at d4 (d5, e4)"
    );
    let black = R::NotRemovable {
        hole: None,
        choices: vec!["a1".into(), "d4".into()],
    };
    assert_eq!(
        black.to_string(),
        "not a removable cell: Black removes a stone from the centre or a corner (a1, d4)"
    );
}

/// Sentences written from data that the random sample of `english.rs` seldom or never meets,
/// word for word as the engine wrote them before its refusals became data.
#[test]
fn rare_sentences_are_written_from_the_data() {
    let throw = |a, b| Throw::new(a, b).expect("a throw");
    let plays = [
        (throw(1, 1), "1-1 moves no piece: remove one of yours"),
        (
            throw(3, 3),
            "3-3 moves one piece 3, or two different pieces 6 each",
        ),
        (
            throw(3, 4),
            "3-4 moves one piece 3 and another 7, or one piece 6 and another 7",
        ),
        (
            throw(2, 6),
            "2-6 moves one piece 8, or one piece 2 and another 6",
        ),
    ];
    for (throw, said) in plays {
        assert_eq!(
            R::NotALegalPlay { throw }.to_string(),
            format!("not a legal play here: {said}")
        );
    }
    assert_eq!(R::NoValuesLeft.to_string(), "no values are left");
    assert_eq!(R::TooManyJumps.to_string(), "too many jumps");
    assert_eq!(
        R::ValueNotThrown {
            value: "6".into(),
            left: Vec::new()
        }
        .to_string(),
        "6 was not thrown or is used up (values left: none)"
    );
    assert_eq!(
        R::ValueNotThrown {
            value: "6".into(),
            left: vec![2, 10, 10]
        }
        .to_string(),
        "6 was not thrown or is used up (values left: 2, 10, 10)"
    );
    assert_eq!(
        R::CastleClosed {
            square: "k4".into(),
            who: vec![Compass::West, Compass::East]
        }
        .to_string(),
        "k4 is a castle held by the opponents (W and E): closed to you"
    );
    assert_eq!(
        CellContents::new(
            "k2",
            Holding::Seats(vec![(Compass::South, 2), (Compass::East, 1)])
        )
        .to_string(),
        "k2 holds 2 pieces of S and 1 piece of E"
    );
    assert_eq!(
        MoveError::NoMoveNow(NoMoveReason::TeamWon { team: "SN" }).to_string(),
        "no move can be made now: the game is over: SN won"
    );
    assert_eq!(
        MoveError::NotYourPiece {
            cell: "c1".into(),
            why: NotYours::RemovesOwnTravelling {
                contents: CellContents::new("c1", Holding::OnlyFinished(Colour::White)),
                mover: Colour::White,
            },
        }
        .to_string(),
        "c1 is not yours: c1 holds only finished White pieces, which never move again; White \
         removes one of his own travelling pieces"
    );
    assert_eq!(
        NotationError::new("z9", NotationProblem::PachisiSquare).to_string(),
        "cannot read `z9`: not a square of the cross"
    );
    assert_eq!(
        PositionError::new("6", PositionProblem::TooManyThrows).to_string(),
        "position: `6`: too many throws of this value"
    );
    assert_eq!(
        SetupError::BadOptionValue {
            key: "stall".into(),
            value: "-1".into(),
            expected: Expected::Range { min: 0, max: 1000 },
        }
        .to_string(),
        "option `stall=-1`: expected a whole number from 0 to 1000"
    );
}
