//! What the search knows about each game beyond its rules: the default policy of playouts
//! (immediate wins and captures first where the rules reward them), the order in which moves
//! are tried, and a score for playouts cut short. Everything here reads the public API of
//! `tabula-core` only.

use std::hash::Hash;

use tabula_core::coan_ki::CoanKi;
use tabula_core::koan::Koan;
use tabula_core::kolowis::Kolowis;
use tabula_core::konane::Konane;
use tabula_core::pachisi::{self, Pachisi};
use tabula_core::{Game, Seat};

/// A game the computer can play: the rules plus a little knowledge for the search.
///
/// `Hash` keys identical positions (transpositions): two states that compare equal must hash
/// alike, which the derived implementations of the games guarantee.
pub trait Knowledge: Game + Hash {
    /// Whether the game has no chance nodes, so that [`crate::solver`] may calculate it exactly.
    const EXACT: bool;

    /// A playout stops after this many actions and is scored by [`Knowledge::estimate`].
    const PLAYOUT_LIMIT: usize = 3_000;

    /// The index in `moves` (the legal moves of `self`, not empty) of the move a playout plays.
    /// `pick(n)` returns a random number below `n`. The default is uniform.
    fn playout_move(&self, moves: &[Self::Move], pick: &mut impl FnMut(u32) -> u32) -> usize {
        pick(moves.len() as u32) as usize
    }

    /// How promising a move looks before any search (higher first): the search and the solver
    /// try moves in this order.
    fn rank(&self, _mv: &Self::Move) -> u32 {
        0
    }

    /// The estimated score of team 0 (1 a win, 0 a loss) in an unfinished position, for
    /// playouts cut short by [`Knowledge::PLAYOUT_LIMIT`].
    fn estimate(&self) -> f64 {
        0.5
    }
}

/// Among the moves of the highest rank, one drawn uniformly; with probability `1 - greed` (in
/// 256ths) any move instead, so that playouts stay varied.
fn greedy<G: Knowledge>(
    game: &G,
    moves: &[G::Move],
    greed: u32,
    pick: &mut impl FnMut(u32) -> u32,
) -> usize {
    if pick(256) >= greed {
        return pick(moves.len() as u32) as usize;
    }
    let best = moves.iter().map(|m| game.rank(m)).max().unwrap_or(0);
    let count = moves.iter().filter(|m| game.rank(m) == best).count() as u32;
    let mut nth = pick(count.max(1));
    for (i, m) in moves.iter().enumerate() {
        if game.rank(m) == best {
            if nth == 0 {
                return i;
            }
            nth -= 1;
        }
    }
    0
}

/// Konane: every move captures; uniform playouts to the end are what the search is tuned on,
/// and longer chains (more captures) are tried first.
impl Knowledge for Konane {
    const EXACT: bool = true;

    fn rank(&self, mv: &Self::Move) -> u32 {
        mv.captured().len() as u32
    }
}

/// Koan: a move onto the far row wins at once and is always played; otherwise captures come
/// first in three playouts out of four.
impl Knowledge for Koan {
    const EXACT: bool = true;

    fn playout_move(&self, moves: &[Self::Move], pick: &mut impl FnMut(u32) -> u32) -> usize {
        if let Some(i) = moves.iter().position(|m| self.rank(m) == 2) {
            return i;
        }
        greedy(self, moves, 192, pick)
    }

    fn rank(&self, mv: &Self::Move) -> u32 {
        let far = if self.to_act() == Some(Seat(0)) {
            11
        } else {
            1
        };
        if mv.to.row() == far {
            2
        } else {
            u32::from(mv.capture)
        }
    }
}

/// Kolowis: capturing is compulsory; the longest capture sequence is played in three playouts
/// out of four. A playout cut short is scored by the piece count.
impl Knowledge for Kolowis {
    const EXACT: bool = true;
    const PLAYOUT_LIMIT: usize = 600;

    fn playout_move(&self, moves: &[Self::Move], pick: &mut impl FnMut(u32) -> u32) -> usize {
        greedy(self, moves, 192, pick)
    }

    fn rank(&self, mv: &Self::Move) -> u32 {
        mv.captured().count() as u32
    }

    fn estimate(&self) -> f64 {
        let white = self.pieces(Seat(0)).count() as f64;
        let black = self.pieces(Seat(1)).count() as f64;
        if white + black == 0.0 {
            0.5
        } else {
            white / (white + black)
        }
    }
}

/// Coan Ki: a race without captures; uniform playouts.
impl Knowledge for CoanKi {
    const EXACT: bool = false;
}

/// Pachisi: always throw rather than skip, never give up values while something can use them,
/// and take a capture or a win when one is there. Its playouts would run about 1,250 actions to
/// the end; they stop after 400 and are scored by the teams' progress along the track, which
/// makes a search about five times faster.
impl Knowledge for Pachisi {
    const EXACT: bool = false;
    const PLAYOUT_LIMIT: usize = 400;

    fn playout_move(&self, moves: &[Self::Move], pick: &mut impl FnMut(u32) -> u32) -> usize {
        if let Some(i) = moves.iter().position(|m| *m == pachisi::Move::Throw) {
            return i;
        }
        let mut events = Vec::new();
        let mut useful = 0u32;
        for (i, m) in moves.iter().enumerate() {
            if matches!(m, pachisi::Move::Done | pachisi::Move::Skip) {
                continue;
            }
            useful += 1;
            let mut next = self.clone();
            events.clear();
            next.apply_move_unchecked(m, &mut events);
            if events.iter().any(|e| {
                matches!(
                    e,
                    pachisi::Event::Captured { .. } | pachisi::Event::Won { .. }
                )
            }) {
                return i;
            }
        }
        if useful == 0 {
            return pick(moves.len() as u32) as usize;
        }
        let mut nth = pick(useful);
        for (i, m) in moves.iter().enumerate() {
            if !matches!(m, pachisi::Move::Done | pachisi::Move::Skip) {
                if nth == 0 {
                    return i;
                }
                nth -= 1;
            }
        }
        0
    }

    fn rank(&self, mv: &Self::Move) -> u32 {
        match mv {
            pachisi::Move::Throw => 2,
            pachisi::Move::Skip | pachisi::Move::Done => 0,
            _ => 1,
        }
    }

    fn estimate(&self) -> f64 {
        let progress = |seat: u8| -> f64 {
            self.positions(Seat(seat))
                .iter()
                .map(|p| f64::from(*p))
                .sum()
        };
        // Teams: SN (seats 0 and 2) and EW (seats 1 and 3); 8 pieces of 84 steps each.
        let sn = progress(0) + progress(2);
        let ew = progress(1) + progress(3);
        0.5 + (sn - ew) / (2.0 * 8.0 * 84.0)
    }
}
