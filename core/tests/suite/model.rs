//! The shared game model and the playout driver (`game.rs`, `playout.rs`): the parts every game
//! inherits. A mutation run found no test reading `to_act`, the `Debug` form of an action, the
//! choice of a chance outcome by weight, or the count and limit of a playout.

use tabula_core::coan_ki::CoanKi;
use tabula_core::konane::Konane;
use tabula_core::playout::{Buffers, random_playout, random_step};
use tabula_core::{Action, Game, GameAction, Seat, Status};

/// The first chance node of a Coan Ki game played with the first legal move each time.
fn coan_ki_at_chance() -> CoanKi {
    let mut game = CoanKi::new(&Default::default());
    for _ in 0..100 {
        match game.status() {
            Status::Chance => return game,
            Status::Decision(_) => {
                let mv = game.moves()[0];
                game.play(&mv).expect("a listed move");
            }
            Status::Done(_) => break,
        }
    }
    panic!("no chance node reached");
}

#[test]
fn a_chance_outcome_is_chosen_by_its_weight() {
    let game = coan_ki_at_chance();
    let outcomes = game.outcomes();
    assert!(outcomes.len() > 1, "{outcomes:?}");
    let total: u32 = outcomes.iter().map(|(_, w)| w).sum();
    // Each number below the total picks the outcome whose share of the range holds it.
    let mut expected = Vec::new();
    for (roll, weight) in &outcomes {
        expected.extend(std::iter::repeat_n(*roll, *weight as usize));
    }
    assert_eq!(expected.len(), total as usize);
    for (r, roll) in expected.iter().enumerate() {
        let mut next = game.clone();
        let mut asked = None;
        let mut pick = |n: u32| {
            asked = Some(n);
            r as u32
        };
        assert!(random_step(&mut next, &mut pick, &mut Buffers::default()));
        assert_eq!(
            asked,
            Some(total),
            "the pick is asked for a number below the total"
        );
        let mut by_hand = game.clone();
        by_hand.roll(roll).expect("a listed outcome");
        assert_eq!(next, by_hand, "number {r} of {total} should roll {roll}");
    }
}

#[test]
fn a_playout_stops_at_its_limit_or_at_the_end() {
    let start = Konane::new(&Default::default());
    let mut buffers = Buffers::default();
    // The first legal move every time.
    let mut first = |_: u32| 0;

    let mut game = start.clone();
    assert_eq!(random_playout(&mut game, &mut first, &mut buffers, 0), 0);
    assert_eq!(game, start);

    let mut limited = start.clone();
    assert_eq!(random_playout(&mut limited, &mut first, &mut buffers, 3), 3);
    let mut by_hand = start.clone();
    for _ in 0..3 {
        let mv = by_hand.moves()[0];
        by_hand.play(&mv).expect("a listed move");
    }
    assert_eq!(limited, by_hand);

    let mut whole = start.clone();
    let played = random_playout(&mut whole, &mut first, &mut buffers, 10_000);
    assert!(matches!(whole.status(), Status::Done(_)));
    let mut by_hand = start.clone();
    let mut count = 0;
    while let Some(mv) = by_hand.moves().first().cloned() {
        by_hand.play(&mv).expect("a listed move");
        count += 1;
    }
    assert_eq!((played, &whole), (count, &by_hand));
    assert!(count > 3, "a Konane game lasts more than three moves");
    // At the end nothing more is played.
    assert!(!random_step(&mut whole, &mut first, &mut buffers));
    assert_eq!(random_playout(&mut whole, &mut first, &mut buffers, 10), 0);
}

#[test]
fn the_seat_to_act_is_named_only_at_a_decision() {
    let konane = Konane::new(&Default::default());
    assert_eq!(konane.status(), Status::Decision(Seat(0)));
    assert_eq!(konane.to_act(), Some(Seat(0)));
    let mut second = konane.clone();
    let mv = second.moves()[0];
    second.play(&mv).expect("a listed move");
    assert_eq!(second.to_act(), Some(Seat(1)));
    assert_eq!(coan_ki_at_chance().to_act(), None);
    let mut done = konane;
    random_playout(&mut done, &mut |_| 0, &mut Buffers::default(), 10_000);
    assert_eq!(done.to_act(), None);
}

#[test]
fn actions_have_a_debug_form() {
    let game = coan_ki_at_chance();
    let (roll, _) = game.outcomes()[0];
    let action: GameAction<CoanKi> = Action::Roll(roll);
    assert_eq!(format!("{action:?}"), format!("Roll({roll:?})"));
    let konane = Konane::new(&Default::default());
    let mv = konane.moves()[0];
    let action: GameAction<Konane> = Action::Move(mv);
    assert_eq!(format!("{action:?}"), format!("Move({mv:?})"));
}
