//! Refusals are data: for a few representative refusals of each game, the typed fields say
//! what is wrong (what stands on a cell, whose turn it is, which throw, which values an option
//! takes), with no English in them. The English written from them is checked in `english.rs`
//! and `messages.rs`.

use tabula_core::coan_ki::Throw;
use tabula_core::koan::Shape;
use tabula_core::{
    ActionError, AnyGame, CellContents, Colour, Compass, Expected, GameId, Holding,
    IllegalReason as R, MoveError, NoMoveReason, NotYours, NotationProblem, PositionProblem,
    SetupError,
};

/// The refusal of `input` in the game set up from `options` and `position`.
fn refusal(id: GameId, options: &[&str], position: Option<&str>, input: &str) -> MoveError {
    let mut game = AnyGame::start(id, options, position).expect("the setup is good");
    match game.apply_text(input) {
        Err(ActionError::Move(error)) => error,
        other => panic!("{input}: a move error expected, not {other:?}"),
    }
}

/// The reason of an illegal move.
fn reason(id: GameId, options: &[&str], position: Option<&str>, input: &str) -> R {
    match refusal(id, options, position, input) {
        MoveError::Illegal {
            input: typed,
            reason,
        } => {
            assert_eq!(typed, input);
            *reason
        }
        other => panic!("{input}: an illegal move expected, not {other:?}"),
    }
}

/// The error of a bad setup.
fn setup(id: GameId, options: &[&str], position: Option<&str>) -> SetupError {
    AnyGame::start(id, options, position).expect_err("the setup must be refused")
}

/// The problem of a bad position string.
fn position(id: GameId, text: &str) -> (String, PositionProblem) {
    match setup(id, &[], Some(text)) {
        SetupError::Position(error) => (error.token, error.why),
        other => panic!("{text}: a position error expected, not {other:?}"),
    }
}

fn at(cell: &str, holds: Holding) -> CellContents {
    CellContents::new(cell, holds)
}

#[test]
fn every_game_names_itself_when_a_move_cannot_be_read() {
    let starts: [(GameId, Option<&str>); 5] = [
        (GameId::Konane, None),
        (GameId::Koan, None),
        (GameId::Kolowis, None),
        (
            GameId::CoanKi,
            Some("turn=white dice=5-6 white=a1x8,b1x8 black=g2x8,h2x8"),
        ),
        (
            GameId::Pachisi,
            Some("turn=S phase=allocate throws=2 S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0"),
        ),
    ];
    for (id, start) in starts {
        assert_eq!(
            refusal(id, &[], start, "?"),
            MoveError::Unreadable {
                input: "?".into(),
                game: id
            }
        );
    }
}

#[test]
fn konane_refusals_are_data() {
    let k = GameId::Konane;
    // The opening: Black removes one of his own stones, and a1 holds a White one.
    assert_eq!(
        refusal(k, &[], None, "a1"),
        MoveError::NotYourPiece {
            cell: "a1".into(),
            why: NotYours::RemovesOwnStone {
                contents: at("a1", Holding::Stone(Colour::White)),
                mover: Colour::Black,
            },
        }
    );
    // After the opening: jumping from an empty cell, over one's own stone, onto a stone.
    let jumps = "size=8 turn=black black=b4,c4,e4 white=f4,h4";
    assert_eq!(
        refusal(k, &[], Some(jumps), "a4-c4"),
        MoveError::NotYourPiece {
            cell: "a4".into(),
            why: NotYours::Holds(at("a4", Holding::Empty)),
        }
    );
    assert_eq!(
        reason(k, &[], Some(jumps), "b4-d4"),
        R::JumpsOwnPiece {
            jump: None,
            what: at("c4", Holding::Stone(Colour::Black)),
        }
    );
    assert_eq!(
        reason(
            k,
            &[],
            Some("size=8 turn=black black=a1,e4 white=b1,f4,g4"),
            "e4-g4"
        ),
        R::LandingOccupied {
            jump: None,
            what: at("g4", Holding::Stone(Colour::White)),
        }
    );
    // An option value out of the choices.
    assert_eq!(
        setup(k, &["size=7"], None),
        SetupError::BadOptionValue {
            key: "size".into(),
            value: "7".into(),
            expected: Expected::OneOf(vec!["6".into(), "8".into(), "10".into(), "12".into()]),
        }
    );
    // A position: a size the option contradicts, a turn that is not a side.
    assert!(matches!(
        setup(k, &["size=6"], Some("size=8 turn=black black=a2 white=a1")),
        SetupError::Position(error) if error.why == PositionProblem::SizeDisagrees { option: 6 }
    ));
    assert_eq!(
        position(k, "size=8 turn=red black=a2 white=a1").1,
        PositionProblem::MustBe {
            key: "turn",
            choices: &["black", "white"],
        }
    );
}

#[test]
fn koan_refusals_are_data() {
    let k = GameId::Koan;
    // White moves first: A11 holds Black's octagonal piece.
    assert_eq!(
        refusal(k, &[], None, "A11-A9"),
        MoveError::NotYourPiece {
            cell: "A11".into(),
            why: NotYours::ToMove {
                contents: at("A11", Holding::Shaped(Colour::Black, Shape::Octagonal)),
                mover: Colour::White,
            },
        }
    );
    assert_eq!(
        reason(k, &[], None, "A1-B2"),
        R::OntoOwnPiece {
            what: at("B2", Holding::OwnShaped(Shape::Square)),
        }
    );
    let capture = "turn=white white-sq=C3 black-oct=D4 black-sq=B4,C5";
    assert_eq!(
        reason(k, &[], Some(capture), "C3-C5"),
        R::WrongCaptureCell {
            what: at("C5", Holding::Shaped(Colour::Black, Shape::Square)),
            to: "C5".into(),
            shape: Shape::Square,
        }
    );
    assert_eq!(
        reason(
            k,
            &[],
            Some("turn=black white-oct=A1 black-oct=G9"),
            "G9-G11"
        ),
        R::Backwards {
            from: "G9".into(),
            to: "G11".into(),
            seat: Colour::Black,
        }
    );
    // Koan has no options; its cells are checked in positions.
    assert!(matches!(
        setup(k, &["size=8"], None),
        SetupError::UnknownOption {
            game: "koan",
            allowed: "",
            ..
        }
    ));
    assert_eq!(
        position(k, "turn=white white-oct=A2"),
        ("A2".into(), PositionProblem::KoanCell)
    );
    assert_eq!(
        position(k, "turn=white white-oct=A11 black-oct=A1").1,
        PositionProblem::BothOnFarRows
    );
}

#[test]
fn kolowis_refusals_are_data() {
    let k = GameId::Kolowis;
    assert_eq!(
        refusal(k, &[], None, "A8-B9"),
        MoveError::NotYourPiece {
            cell: "A8".into(),
            why: NotYours::ToMove {
                contents: at("A8", Holding::Piece(Colour::Black)),
                mover: Colour::White,
            },
        }
    );
    assert_eq!(
        reason(k, &[], None, "C8-C9"),
        R::TargetOccupied {
            what: at("C9", Holding::Piece(Colour::White)),
        }
    );
    // A capture sequence that jumps its own piece names the jump.
    assert_eq!(
        reason(k, &[], None, "C2xC4xC6"),
        R::JumpsOwnPiece {
            jump: Some("C2xC4".into()),
            what: at("C3", Holding::Piece(Colour::White)),
        }
    );
    assert_eq!(
        setup(k, &["stall=x"], None),
        SetupError::BadOptionValue {
            key: "stall".into(),
            value: "x".into(),
            expected: Expected::Range {
                min: 0,
                max: u32::MAX
            },
        }
    );
    assert_eq!(
        position(k, "turn=white white=B2 quiet=x"),
        (
            "quiet=x".into(),
            PositionProblem::Expected(Expected::Range {
                min: 0,
                max: u32::MAX
            })
        )
    );
}

#[test]
fn coan_ki_refusals_are_data() {
    let c = GameId::CoanKi;
    let five_six = Throw::new(5, 6);
    let start = "turn=white dice=5-6 white=a1x8,b1x8 black=g2x8,h2x8";
    assert_eq!(
        refusal(c, &[], Some(start), "h2+5"),
        MoveError::NotYourPiece {
            cell: "h2".into(),
            why: NotYours::Holds(at("h2", Holding::Only(Colour::Black))),
        }
    );
    assert_eq!(
        reason(c, &[], Some(start), "a1+11").clone(),
        R::ExceedsTheThrow {
            throw: five_six.expect("a throw")
        }
    );
    assert_eq!(
        reason(c, &[], Some(start), "pass"),
        R::NoPass { throw: five_six }
    );
    // After a double one: the piece to remove must be one's own.
    let removal = "turn=white dice=1-1 white=a1x8,b1x8 black=g2x8,h2x8";
    assert_eq!(
        refusal(c, &[], Some(removal), "remove:c1"),
        MoveError::NotYourPiece {
            cell: "c1".into(),
            why: NotYours::RemovesOwnTravelling {
                contents: at("c1", Holding::Empty),
                mover: Colour::White,
            },
        }
    );
    assert_eq!(
        reason(c, &[], Some(removal), "pass"),
        R::NoPass { throw: None }
    );
    // Eight Black pieces block d1 with block8=on.
    let block = "turn=white dice=2-2 white=a1x8,b1x8 black=d1x8,h2x8";
    assert_eq!(
        reason(c, &["block8=on"], Some(block), "b1+2"),
        R::PathBlocked {
            cell: "b1".into(),
            steps: 2,
            block: "d1".into(),
            count: 8,
            owner: Colour::Black,
        }
    );
    let mid = "turn=white dice=3-5 white=a1x1,c1x7 white-home=a1x8 black=g2x8,h2x8";
    assert_eq!(
        reason(c, &[], Some(mid), "a1+3&a1+5"),
        R::SamePieceTwice {
            cell: "a1".into(),
            seat: Colour::White,
        }
    );
    assert_eq!(
        setup(c, &["block8=maybe"], None),
        SetupError::BadOptionValue {
            key: "block8".into(),
            value: "maybe".into(),
            expected: Expected::OneOf(vec!["off".into(), "on".into()]),
        }
    );
    assert_eq!(
        position(c, "turn=white white=a1x8,b1x9 black=g2x8,h2x8"),
        ("b1x9".into(), PositionProblem::TooManyPieces(Colour::White))
    );
    assert_eq!(
        position(
            c,
            "turn=white dice=3-5 white=b2x1 white-home=a1x8,b1x7 black=g2x8,h2x8"
        )
        .1,
        PositionProblem::NoPlayForThrow {
            seat: Colour::White,
            throw: Throw::new(3, 5).expect("a throw"),
        }
    );
    // A roll in its notation, and a play not written canonically.
    let mut game = AnyGame::start(c, &[], None).expect("start");
    assert!(matches!(
        game.apply_text("roll:7v1"),
        Err(ActionError::Notation(error)) if error.why == NotationProblem::CoanKiRoll
    ));
}

#[test]
fn pachisi_refusals_are_data() {
    let p = GameId::Pachisi;
    let entered = "turn=S phase=allocate throws=2 S=0,0,0,12 E=0,0,65,65 N=0,0,0,0 W=0,0,0,0 \
                   entered=S,E";
    assert_eq!(
        refusal(p, &[], Some(entered), "k6+2"),
        MoveError::NotYourPiece {
            cell: "k6".into(),
            why: NotYours::NoPieceThere(at("k6", Holding::Seats(vec![(Compass::East, 2)]))),
        }
    );
    assert_eq!(
        refusal(p, &[], Some(entered), "k2h+2"),
        MoveError::NotYourPiece {
            cell: "k2".into(),
            why: NotYours::NoHomeBoundThere(at("k2", Holding::Empty)),
        }
    );
    let few = "turn=S phase=allocate throws=2 S=0,0,12,12 E=0,0,65,65 N=0,0,0,0 W=0,0,0,0 \
               entered=S,E";
    assert_eq!(
        reason(p, &[], Some(few), "k4+2"),
        R::TooFewToCapture {
            square: "k6".into(),
            opposing: 2,
            who: vec![Compass::East],
            arriving: 1,
        }
    );
    let castle = "turn=S phase=allocate throws=2 S=0,0,0,10 E=0,0,0,0 N=0,0,0,0 W=0,0,0,29 \
                  entered=S,W";
    assert!(matches!(
        reason(p, &[], Some(castle), "k2+2"),
        R::CastleClosed { who, .. } if who == [Compass::West]
    ));
    assert_eq!(
        reason(p, &[], Some(few), "k4+6"),
        R::ValueNotThrown {
            value: "6".into(),
            left: vec![2],
        }
    );
    // Read by the interpreter: the cowries are being thrown.
    let throwing = "turn=S phase=throw throws=6 S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0";
    let AnyGame::Pachisi(game) = AnyGame::start(p, &[], Some(throwing)).expect("start") else {
        panic!("a game of Pachisi");
    };
    assert_eq!(
        tabula_core::Game::interpret(&game, "k2+2"),
        Err(MoveError::NoMoveNow(NoMoveReason::CowriesBeingThrown))
    );
    assert_eq!(
        position(
            p,
            "turn=S phase=decide S=0,0,0,85 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0"
        ),
        (
            "85".into(),
            PositionProblem::NotATrackPosition(Compass::South)
        )
    );
    assert_eq!(
        position(
            p,
            "turn=S phase=decide S=0,0,0,10 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0"
        ),
        (
            "S=0,0,0,10".into(),
            PositionProblem::MustBeEntered(Compass::South)
        )
    );
}

#[test]
fn the_game_over_is_said_as_data() {
    let koan_won = "turn=black white-oct=C11 black-oct=A5";
    let AnyGame::Koan(game) = AnyGame::start(GameId::Koan, &[], Some(koan_won)).expect("start")
    else {
        panic!("a game of Koan");
    };
    assert_eq!(
        tabula_core::Game::interpret(&game, "A5-A3"),
        Err(MoveError::NoMoveNow(NoMoveReason::GameOverWinner {
            team: "white"
        }))
    );
    let kolowis_won = "turn=black white=B2";
    let AnyGame::Kolowis(game) =
        AnyGame::start(GameId::Kolowis, &[], Some(kolowis_won)).expect("start")
    else {
        panic!("a game of Kolowis");
    };
    assert_eq!(
        tabula_core::Game::interpret(&game, "B2-B3"),
        Err(MoveError::NoMoveNow(NoMoveReason::GameOver))
    );
}
