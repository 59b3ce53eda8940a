//! The computer's moves through the public API, for every game: always legal, at every level
//! and in every seat; the same seed gives the same move; a tiny time cap still gives a legal
//! move; positions that are not decisions are refused.

use std::time::Duration;

use tabula_ai::rng::Rng;
use tabula_ai::{AiError, Level, choose};
use tabula_core::{AnyGame, GameId, Status};

/// The games and options the tests play.
const CASES: &[(GameId, &[&str])] = &[
    (GameId::Konane, &["size=6"]),
    (GameId::Konane, &["size=8"]),
    (GameId::Koan, &[]),
    (GameId::Kolowis, &[]),
    (GameId::CoanKi, &[]),
    (GameId::Pachisi, &[]),
];

fn start(id: GameId, options: &[&str]) -> AnyGame {
    AnyGame::start(id, options, None).expect("start position")
}

/// Plays a random action: a uniform legal move, or a roll drawn by its weight.
fn random_action(game: &AnyGame, rng: &mut Rng) -> String {
    let outcomes = game.chance_outcomes();
    if !outcomes.is_empty() {
        let total: u32 = outcomes.iter().map(|(_, w)| w).sum();
        let mut r = rng.below(total);
        for (roll, weight) in &outcomes {
            if r < *weight {
                return roll.clone();
            }
            r -= weight;
        }
        return outcomes[outcomes.len() - 1].0.clone();
    }
    let legal = game.legal_lines();
    legal[rng.below(legal.len() as u32) as usize].clone()
}

/// Asks the computer for a move, checks that it is one of the legal moves, and plays it.
fn computer_moves(game: &mut AnyGame, level: Level, seed: u64, cap: Option<Duration>) {
    let legal = game.legal_lines();
    let mv = choose(game, level, seed, cap).expect("a decision");
    assert!(
        legal.contains(&mv),
        "{} level {}: `{mv}` is not legal in {} (legal: {legal:?})",
        game.id(),
        level.number(),
        game.position()
    );
    game.apply_text(&mv).expect("the chosen move plays");
}

/// Plays one seeded game. At a decision the computer plays when `computer(seat, rng)` says
/// so, a random player otherwise; returns how many moves the computer made.
fn play(
    mut game: AnyGame,
    level: Level,
    seed: u64,
    mut computer: impl FnMut(u8, &mut Rng) -> bool,
) -> usize {
    let mut rng = Rng::new(seed);
    let mut made = 0;
    for _ in 0..20_000 {
        match game.status() {
            Status::Done(_) => return made,
            Status::Decision(seat) if computer(seat.0, &mut rng) => {
                computer_moves(&mut game, level, rng.next_u64(), None);
                made += 1;
            }
            _ => {
                let action = random_action(&game, &mut rng);
                game.apply_text(&action).expect("a legal random action");
            }
        }
    }
    made
}

#[test]
fn level_1_plays_whole_games_in_every_seat() {
    for (i, (id, options)) in CASES.iter().enumerate() {
        // The computer takes every seat: the whole game is its moves and the dice.
        let made = play(start(*id, options), Level::Beginner, i as u64, |_, _| true);
        assert!(made > 0, "{id}");
    }
}

#[test]
fn level_2_plays_whole_games_against_random_players() {
    for (i, (id, options)) in CASES.iter().enumerate() {
        let seats = id.seats().len() as u8;
        // The computer holds one seat, a different one in each game; Pachisi only its first
        // turns (its games are long).
        for seat in 0..seats.min(2) {
            let seat = (seat + i as u8) % seats;
            let mut budget = if *id == GameId::Pachisi {
                25
            } else {
                usize::MAX
            };
            play(
                start(*id, options),
                Level::Casual,
                10 + u64::from(seat),
                |s, _| {
                    let mine = s == seat && budget > 0;
                    budget -= usize::from(mine);
                    mine
                },
            );
        }
    }
}

#[test]
fn levels_3_and_4_choose_legal_moves_along_random_games() {
    for (i, (id, options)) in CASES.iter().enumerate() {
        for (level, count) in [(Level::Strong, 6), (Level::Strongest, 2)] {
            // The computer plays now and then, whoever is to act, at most `count` times.
            let mut left = count;
            let p = if *id == GameId::Pachisi { 40 } else { 12 };
            let made = play(start(*id, options), level, 100 + i as u64, |_, rng| {
                let mine = left > 0 && rng.below(p) == 0;
                left -= usize::from(mine);
                mine
            });
            assert!(made > 0, "{id} level {}", level.number());
        }
    }
}

/// Decision positions from a seeded random game, with at least two legal moves.
fn decisions(id: GameId, options: &[&str], seed: u64, count: usize) -> Vec<AnyGame> {
    let mut game = start(id, options);
    let mut rng = Rng::new(seed);
    let mut found = Vec::new();
    while found.len() < count {
        match game.status() {
            Status::Done(_) => game = start(id, options),
            Status::Decision(_) if game.legal_lines().len() > 1 && rng.below(6) == 0 => {
                found.push(game.clone());
                let action = random_action(&game, &mut rng);
                game.apply_text(&action).expect("a legal random action");
            }
            _ => {
                let action = random_action(&game, &mut rng);
                game.apply_text(&action).expect("a legal random action");
            }
        }
    }
    found
}

#[test]
fn the_same_seed_gives_the_same_move() {
    for (id, options) in CASES {
        for (i, game) in decisions(*id, options, 5, 3).iter().enumerate() {
            for level in [Level::Beginner, Level::Casual, Level::Strong] {
                let seed = 77 + i as u64;
                let first = choose(game, level, seed, None).expect("a decision");
                let again = choose(game, level, seed, None).expect("a decision");
                assert_eq!(first, again, "{id} level {}", level.number());
            }
        }
    }
}

#[test]
fn a_tiny_time_cap_still_gives_a_legal_move() {
    for (id, options) in CASES {
        for game in decisions(*id, options, 9, 3) {
            let legal = game.legal_lines();
            let mv = choose(&game, Level::Strongest, 1, Some(Duration::ZERO)).expect("a decision");
            assert!(legal.contains(&mv), "{id}: {mv} not in {legal:?}");
        }
    }
}

#[test]
fn a_position_that_is_not_a_decision_is_refused() {
    // Coan Ki starts with the roll-off: a chance node.
    let game = start(GameId::CoanKi, &[]);
    let error = choose(&game, Level::Casual, 0, None).expect_err("a chance node");
    assert_eq!(
        error,
        AiError::NotADecision {
            status: "chance".into()
        }
    );
    // A finished Konane game.
    let game = AnyGame::start(
        GameId::Konane,
        &[],
        Some("size=8 turn=black black=b1 white=a1"),
    )
    .expect("position");
    let error = choose(&game, Level::Strongest, 0, None).expect_err("game over");
    assert!(matches!(error, AiError::NotADecision { .. }), "{error}");
}

#[test]
fn levels_read_from_text() {
    assert_eq!("3".parse::<Level>(), Ok(Level::Strong));
    assert!("0".parse::<Level>().is_err());
    assert!("five".parse::<Level>().is_err());
    assert_eq!(
        Level::ALL.map(Level::number),
        [1, 2, 3, 4],
        "levels are numbered 1 to 4"
    );
}
