//! A small exact solver for games without chance (Konane, Koan, Kolowis): a depth-first
//! minimax over win, draw and loss with a transposition table, stopping at the first win
//! found for the side to act (which is exactly alpha-beta on these three values), and giving
//! up after a fixed number of nodes. The count of nodes, not time, bounds it, so its answer is
//! the same on every run. Endings with few moves left are solved in a few thousand nodes.

use std::collections::HashMap;

use tabula_core::{Outcome, Status};

use crate::knowledge::Knowledge;
use crate::rng;

/// The value of a finished game for team 0: 1 a win, 0 a draw, −1 a loss.
fn value_of(outcome: Outcome) -> i8 {
    match outcome {
        Outcome::Winner(team) if team.0 == 0 => 1,
        Outcome::Winner(_) => -1,
        Outcome::Draw => 0,
    }
}

struct Solver {
    nodes: u64,
    budget: u64,
    table: HashMap<u64, i8>,
}

/// The legal moves, most promising first.
fn ordered<G: Knowledge>(state: &G) -> Vec<G::Move> {
    let mut moves = state.moves();
    moves.sort_by_key(|m| std::cmp::Reverse(state.rank(m)));
    moves
}

impl Solver {
    /// The exact value of `state` for team 0, or `None` when the budget ran out or a chance
    /// node was met.
    fn value<G: Knowledge>(&mut self, state: &G) -> Option<i8> {
        let team = match state.status() {
            Status::Done(outcome) => return Some(value_of(outcome)),
            Status::Chance => return None,
            Status::Decision(seat) => G::team_of(seat).0,
        };
        let key = rng::key(state);
        if let Some(v) = self.table.get(&key) {
            return Some(*v);
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        let (mut best, target) = if team == 0 { (-1, 1) } else { (1, -1) };
        let mut events = Vec::new();
        for mv in ordered(state) {
            let mut next = state.clone();
            events.clear();
            next.apply_move_unchecked(&mv, &mut events);
            let v = self.value(&next)?;
            if v == target {
                best = v;
                break;
            }
            best = if team == 0 { best.max(v) } else { best.min(v) };
        }
        self.table.insert(key, best);
        Some(best)
    }
}

/// A move that wins by force for the team to act, if the solver proves one within `budget`
/// nodes. `None` when no win exists, when the budget ran out, or when the game has chance.
pub fn winning_move<G: Knowledge>(game: &G, budget: u64) -> Option<G::Move> {
    let Status::Decision(seat) = game.status() else {
        return None;
    };
    let want = if G::team_of(seat).0 == 0 { 1 } else { -1 };
    let mut solver = Solver {
        nodes: 0,
        budget,
        table: HashMap::new(),
    };
    let mut events = Vec::new();
    for mv in ordered(game) {
        let mut next = game.clone();
        events.clear();
        next.apply_move_unchecked(&mv, &mut events);
        if solver.value(&next)? == want {
            return Some(mv);
        }
    }
    None
}

/// The exact value for team 0 of `game` (1 won, 0 drawn, −1 lost with best play), if the
/// solver finds it within `budget` nodes.
pub fn solve<G: Knowledge>(game: &G, budget: u64) -> Option<i8> {
    let mut solver = Solver {
        nodes: 0,
        budget,
        table: HashMap::new(),
    };
    solver.value(game)
}
