//! The computer opponent: Monte Carlo tree search over the rules of every Tabula game.
//!
//! One search serves all five games through [`tabula_core::Game`] (see [`search`]): it handles
//! chance nodes (Coan Ki's dice, Pachisi's cowries) by drawing outcomes by their exact weights,
//! the same seat acting several times in a row, and teams (a Pachisi seat plays for its team:
//! every result is scored per team). Identical positions reached by different orders of moves
//! share one node (transpositions). Playouts use a per-game default policy ([`Knowledge`]):
//! immediate wins and captures first where the rules reward them. In games without chance
//! (Konane, Koan, Kolowis) a small exact solver ([`solver`]) first tries to calculate the game
//! to its end, and plays a proven win when it finds one.
//!
//! # Levels
//!
//! | level | iterations | exact solver (nodes) | how the move is picked |
//! | ---: | ---: | ---: | --- |
//! | 1 | 48 | none | drawn in proportion to the root visits: a beginner who makes real mistakes |
//! | 2 | 400 | none | the most visited move |
//! | 3 | 3,000 | 50,000 | the most visited move, or a proven win |
//! | 4 | 12,000 | 400,000 | the most visited move, or a proven win |
//!
//! An iteration is one descent of the tree and one playout. A level with a seed always gives the
//! same move for the same position: the search draws its random numbers from the seed only and
//! counts iterations and solver nodes, never time. The optional time cap (`cap`) stops the search
//! early when it runs out, which gives up that determinism (the move then depends on the
//! machine's speed); with a cap of zero the search still makes one iteration and returns a legal
//! move.
//!
//! The API is synchronous and pure: [`choose`] keeps no state between calls (the bot calls it
//! from `spawn_blocking`).

use std::time::Duration;

use tabula_core::{AnyGame, Status};

pub mod knowledge;
pub mod rng;
pub mod search;
pub mod solver;

pub use knowledge::Knowledge;
pub use search::Settings;

/// How strongly the computer plays, from 1 (a beginner) to 4 (the strongest).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Level 1: a short search whose move is drawn in proportion to its visits.
    Beginner = 1,
    /// Level 2: a short search, best move.
    Casual = 2,
    /// Level 3: a longer search with an exact solver for endings.
    Strong = 3,
    /// Level 4: the longest search and solver.
    Strongest = 4,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 4] = [
        Level::Beginner,
        Level::Casual,
        Level::Strong,
        Level::Strongest,
    ];

    /// The level numbered 1 to 4.
    ///
    /// # Errors
    /// Any other number.
    pub fn from_number(n: u8) -> Result<Level, AiError> {
        match n {
            1 => Ok(Level::Beginner),
            2 => Ok(Level::Casual),
            3 => Ok(Level::Strong),
            4 => Ok(Level::Strongest),
            _ => Err(AiError::NoSuchLevel(n.to_string())),
        }
    }

    /// The level's number, 1 to 4.
    pub fn number(self) -> u8 {
        self as u8
    }

    /// What the level searches (see the crate documentation's table).
    pub fn settings(self) -> Settings {
        match self {
            Level::Beginner => Settings {
                iterations: 48,
                solver_nodes: 0,
                proportional: true,
            },
            Level::Casual => Settings {
                iterations: 400,
                solver_nodes: 0,
                proportional: false,
            },
            Level::Strong => Settings {
                iterations: 3_000,
                solver_nodes: 50_000,
                proportional: false,
            },
            Level::Strongest => Settings {
                iterations: 12_000,
                solver_nodes: 400_000,
                proportional: false,
            },
        }
    }
}

impl std::str::FromStr for Level {
    type Err = AiError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.trim()
            .parse::<u8>()
            .map_err(|_| AiError::NoSuchLevel(s.to_string()))
            .and_then(Level::from_number)
    }
}

/// Why the computer cannot choose a move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AiError {
    /// The position is not a decision: a roll is due or the game is over.
    #[error("the position is not a decision ({status}): there is no move to choose")]
    NotADecision {
        /// The status line of the position (`chance`, `winner white`, `draw`).
        status: String,
    },
    /// A level other than 1 to 4.
    #[error("no such level `{0}`: the levels are 1 to 4")]
    NoSuchLevel(String),
}

/// Chooses a move for the seat to act in `game`, in canonical notation.
///
/// Without `cap` the result depends only on the position, the level and the seed. With `cap`
/// the search also stops when that much time has passed (always after at least one iteration),
/// so the move may then differ from run to run.
///
/// # Errors
/// [`AiError::NotADecision`] when a roll is due or the game is over.
pub fn choose(
    game: &AnyGame,
    level: Level,
    seed: u64,
    cap: Option<Duration>,
) -> Result<String, AiError> {
    choose_with(game, &level.settings(), seed, cap)
}

/// [`choose`] with explicit search settings (for benchmarks and experiments).
///
/// # Errors
/// [`AiError::NotADecision`] when a roll is due or the game is over.
pub fn choose_with(
    game: &AnyGame,
    settings: &Settings,
    seed: u64,
    cap: Option<Duration>,
) -> Result<String, AiError> {
    match game {
        AnyGame::Konane(g) => choose_move(g, settings, seed, cap).map(|m| m.to_string()),
        AnyGame::Koan(g) => choose_move(g, settings, seed, cap).map(|m| m.to_string()),
        AnyGame::Kolowis(g) => choose_move(g, settings, seed, cap).map(|m| m.to_string()),
        AnyGame::CoanKi(g) => choose_move(g, settings, seed, cap).map(|m| m.to_string()),
        AnyGame::Pachisi(g) => choose_move(g, settings, seed, cap).map(|m| m.to_string()),
    }
}

/// Chooses a move of one game (see [`choose`]).
///
/// # Errors
/// [`AiError::NotADecision`] when a roll is due or the game is over.
pub fn choose_move<G: Knowledge>(
    game: &G,
    settings: &Settings,
    seed: u64,
    cap: Option<Duration>,
) -> Result<G::Move, AiError> {
    if !matches!(game.status(), Status::Decision(_)) {
        return Err(AiError::NotADecision {
            status: game.status_line(),
        });
    }
    let moves = game.moves();
    if let [only] = moves.as_slice() {
        return Ok(only.clone());
    }
    if settings.solver_nodes > 0
        && G::EXACT
        && let Some(mv) = solver::winning_move(game, settings.solver_nodes)
    {
        return Ok(mv);
    }
    search::search(game, settings, seed, cap)
        .or_else(|| moves.first().cloned())
        .ok_or_else(|| AiError::NotADecision {
            status: game.status_line(),
        })
}
