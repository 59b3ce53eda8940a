//! The computer plays endings it can calculate exactly: hand-made Konane and Koan endings with
//! one winning move, and endings of seeded random games checked against an independent
//! brute-force minimax written here.

use tabula_ai::rng::Rng;
use tabula_ai::{Level, choose};
use tabula_core::koan::Koan;
use tabula_core::konane::Konane;
use tabula_core::{AnyGame, Game, GameId, Outcome, Status, script};

fn position(id: GameId, text: &str) -> AnyGame {
    AnyGame::start(id, &[], Some(text)).expect("position")
}

#[test]
fn konane_takes_the_whole_chain_that_wins() {
    // `e4-e6` leaves White two jumps into the hole; `e4-e6-e8` leaves White none (rule 7).
    let game = position(GameId::Konane, "size=8 turn=black black=e4 white=e5,e7,f6");
    for level in [Level::Casual, Level::Strong, Level::Strongest] {
        for seed in 0..4 {
            assert_eq!(
                choose(&game, level, seed, None).as_deref(),
                Ok("e4-e6-e8"),
                "level {} seed {seed}",
                level.number()
            );
        }
    }
}

#[test]
fn koan_steps_onto_the_far_row() {
    // `G9-G11` wins at once (rule 7); the other steps do not.
    let game = position(GameId::Koan, "turn=white white-oct=G9 black-oct=A11");
    for level in Level::ALL.into_iter().skip(1) {
        assert_eq!(
            choose(&game, level, 3, None).as_deref(),
            Ok("G9-G11"),
            "level {}",
            level.number()
        );
    }
}

/// Whether the side to act wins with best play, by plain minimax (no draws in these games),
/// or `None` after `budget` nodes.
fn wins<G: Game>(game: &G, budget: &mut u32) -> Option<bool> {
    let Status::Decision(seat) = game.status() else {
        unreachable!("only decisions are searched");
    };
    let me = G::team_of(seat);
    *budget = budget.checked_sub(1)?;
    let mut events = Vec::new();
    for mv in game.moves() {
        let mut next = game.clone();
        next.apply_move_unchecked(&mv, &mut events);
        let won = match next.status() {
            Status::Done(Outcome::Winner(team)) => team == me,
            Status::Done(Outcome::Draw) | Status::Chance => return None,
            Status::Decision(other) => {
                let theirs = wins(&next, budget)?;
                if G::team_of(other) == me {
                    theirs
                } else {
                    !theirs
                }
            }
        };
        if won {
            return Some(true);
        }
    }
    Some(false)
}

/// Positions from seeded random games where some moves win and some lose, with the winning
/// moves, as far as brute force can tell within a small budget.
fn endings<G: Game>(options: &[&str], games: u64) -> Vec<(G, Vec<String>)> {
    let options = script::options::<G>(options).expect("options");
    let mut found = Vec::new();
    let mut events = Vec::new();
    for seed in 0..games {
        let mut rng = Rng::new(seed);
        let mut line = vec![G::new(&options)];
        while let Status::Decision(_) = line[line.len() - 1].status() {
            let mut next = line[line.len() - 1].clone();
            let moves = next.moves();
            let mv = &moves[rng.below(moves.len() as u32) as usize];
            next.apply_move_unchecked(mv, &mut events);
            line.push(next);
        }
        // The last dozen decisions of the game.
        for game in line.iter().rev().skip(1).take(12) {
            let mut winning = Vec::new();
            let mut losing = 0;
            let mut budget = 20_000;
            for mv in game.moves() {
                let mut next = game.clone();
                next.apply_move_unchecked(&mv, &mut events);
                let me = G::team_of(game.to_act().expect("a decision"));
                let won = match next.status() {
                    Status::Done(Outcome::Winner(team)) => Some(team == me),
                    Status::Decision(other) => wins(&next, &mut budget)
                        .map(|w| if G::team_of(other) == me { w } else { !w }),
                    _ => None,
                };
                match won {
                    Some(true) => winning.push(mv.to_string()),
                    Some(false) => losing += 1,
                    None => {
                        winning.clear();
                        break;
                    }
                }
            }
            if !winning.is_empty() && losing > 0 {
                found.push((game.clone(), winning));
            }
        }
    }
    found
}

fn check_endings<G: Game>(endings: Vec<(G, Vec<String>)>, wrap: fn(G) -> AnyGame) -> usize {
    let count = endings.len();
    for (game, winning) in endings {
        let any = wrap(game);
        for level in [Level::Strong, Level::Strongest] {
            let mv = choose(&any, level, 11, None).expect("a decision");
            assert!(
                winning.contains(&mv),
                "level {} played {mv} in {}; winning: {winning:?}",
                level.number(),
                any.position()
            );
        }
    }
    count
}

#[test]
fn konane_endings_of_random_games_are_won() {
    let six = check_endings(endings::<Konane>(&["size=6"], 30), AnyGame::Konane);
    let eight = check_endings(endings::<Konane>(&["size=8"], 15), AnyGame::Konane);
    assert!(six + eight >= 20, "only {six} + {eight} endings to check");
}

#[test]
fn koan_endings_of_random_games_are_won() {
    let count = check_endings(endings::<Koan>(&[], 30), AnyGame::Koan);
    assert!(count >= 10, "only {count} endings to check");
}
