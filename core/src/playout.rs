//! Random playouts and move counting (perft), generic over every game.
//!
//! The engine draws no random numbers: the caller passes `pick(n)`, which must return a number
//! below `n`. The bot's computer opponent, the tests and the benchmarks all drive games through
//! these functions.

use crate::game::{Game, Status};

/// Reusable buffers for playouts, so that a playout allocates nothing after warm-up.
#[derive(Debug)]
pub struct Buffers<G: Game> {
    /// Legal moves of the current node.
    pub moves: Vec<G::Move>,
    /// Chance outcomes of the current node.
    pub outcomes: Vec<(G::Roll, u32)>,
    /// Events of the last action.
    pub events: Vec<G::Event>,
}

impl<G: Game> Default for Buffers<G> {
    fn default() -> Self {
        Self {
            moves: Vec::new(),
            outcomes: Vec::new(),
            events: Vec::new(),
        }
    }
}

/// Picks an outcome index by weight: `r` must be below the total weight.
fn by_weight<R>(outcomes: &[(R, u32)], mut r: u32) -> usize {
    for (i, (_, weight)) in outcomes.iter().enumerate() {
        if r < *weight {
            return i;
        }
        r -= weight;
    }
    outcomes.len() - 1
}

/// Plays one action chosen by `pick`: a uniformly chosen legal move at a decision, an outcome
/// drawn by weight at a chance node. Returns `false` when the game is over (nothing played).
pub fn random_step<G: Game>(
    game: &mut G,
    pick: &mut impl FnMut(u32) -> u32,
    buffers: &mut Buffers<G>,
) -> bool {
    buffers.events.clear();
    match game.status() {
        Status::Done(_) => false,
        Status::Decision(_) => {
            buffers.moves.clear();
            game.legal_moves(&mut buffers.moves);
            let n = buffers.moves.len() as u32;
            let mv = &buffers.moves[pick(n) as usize];
            game.apply_move_unchecked(mv, &mut buffers.events);
            true
        }
        Status::Chance => {
            buffers.outcomes.clear();
            game.chance_outcomes(&mut buffers.outcomes);
            let total: u32 = buffers.outcomes.iter().map(|(_, w)| w).sum();
            let i = by_weight(&buffers.outcomes, pick(total));
            game.apply_roll_unchecked(&buffers.outcomes[i].0, &mut buffers.events);
            true
        }
    }
}

/// Plays random actions until the game ends or `limit` actions have been played; returns the
/// number of actions played.
pub fn random_playout<G: Game>(
    game: &mut G,
    pick: &mut impl FnMut(u32) -> u32,
    buffers: &mut Buffers<G>,
    limit: usize,
) -> usize {
    let mut played = 0;
    while played < limit && random_step(game, pick, buffers) {
        played += 1;
    }
    played
}

/// The number of action sequences of exactly `depth` actions from `game` (sequences that end
/// earlier, because the game is over, are not counted). At chance nodes each outcome counts
/// once, whatever its weight.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut events = Vec::new();
    match game.status() {
        Status::Done(_) => 0,
        Status::Decision(_) => {
            let moves = game.moves();
            if depth == 1 {
                return moves.len() as u64;
            }
            moves
                .iter()
                .map(|mv| {
                    let mut next = game.clone();
                    next.apply_move_unchecked(mv, &mut events);
                    events.clear();
                    perft(&next, depth - 1)
                })
                .sum()
        }
        Status::Chance => {
            let outcomes = game.outcomes();
            if depth == 1 {
                return outcomes.len() as u64;
            }
            outcomes
                .iter()
                .map(|(roll, _)| {
                    let mut next = game.clone();
                    next.apply_roll_unchecked(roll, &mut events);
                    events.clear();
                    perft(&next, depth - 1)
                })
                .sum()
        }
    }
}
