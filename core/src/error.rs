//! Errors of the rules engine. Every one of them is about what a user or a script wrote; the
//! engine has no internal failures. Messages name the offending token and say why.

use thiserror::Error;

/// Text that is not in a game's canonical notation.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("cannot read `{token}`: {why}")]
pub struct NotationError {
    /// The text that could not be read.
    pub token: String,
    /// What was expected.
    pub why: String,
}

impl NotationError {
    /// A notation error for `token`.
    pub fn new(token: &str, why: impl Into<String>) -> Self {
        Self {
            token: token.to_string(),
            why: why.into(),
        }
    }
}

/// Why typed input is not a legal move here.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text does not look like a move of this game at all.
    #[error("cannot read `{input}` as a move: {hint}")]
    Unreadable {
        /// What was typed.
        input: String,
        /// How moves are written in this game.
        hint: String,
    },
    /// A cell name that is not on the board.
    #[error("`{0}` is not a cell of this board")]
    NoSuchCell(String),
    /// The named cell holds no piece of the player to move.
    #[error("{cell} is not yours: {why}")]
    NotYourPiece {
        /// The cell named.
        cell: String,
        /// What stands there instead.
        why: String,
    },
    /// Readable, but not legal in this position.
    #[error("`{input}` is not legal: {why}")]
    Illegal {
        /// What was typed.
        input: String,
        /// Why it is not legal.
        why: String,
    },
    /// Several legal moves fit.
    #[error("`{input}` is ambiguous: did you mean {}?", candidates.join(" or "))]
    Ambiguous {
        /// What was typed.
        input: String,
        /// The legal moves it could mean, in canonical notation.
        candidates: Vec<String>,
    },
    /// No move can be made: the game is over or a roll is due.
    #[error("no move can be made now: {0}")]
    NoMoveNow(String),
}

/// Why an action could not be applied. The state is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ActionError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// A chance outcome is due, not a move.
    #[error("a roll is due, not a move")]
    RollExpected,
    /// A move by the seat is due, not a roll.
    #[error("{seat} must move now; this is not a roll")]
    MoveExpected {
        /// The seat to act.
        seat: &'static str,
    },
    /// Not one of the listed chance outcomes.
    #[error("roll:{roll} is not a possible outcome here (possible: {possible})")]
    ImpossibleRoll {
        /// The outcome given.
        roll: String,
        /// The possible outcomes.
        possible: String,
    },
    /// The text is not an action in this game's notation.
    #[error(transparent)]
    Notation(NotationError),
    /// The move is not legal here.
    #[error(transparent)]
    Move(MoveError),
}

/// A position string that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("position: `{token}`: {why}")]
pub struct PositionError {
    /// The offending token (a field, a key or a cell).
    pub token: String,
    /// What is wrong with it.
    pub why: String,
}

impl PositionError {
    /// A position error about `token`.
    pub fn new(token: impl Into<String>, why: impl Into<String>) -> Self {
        Self {
            token: token.into(),
            why: why.into(),
        }
    }
}

/// Why a game could not be set up from options, a position and a list of actions.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    /// An unknown game identifier.
    #[error("unknown game `{0}` (games: konane, koan, kolowis, coan-ki, pachisi)")]
    UnknownGame(String),
    /// An option the game does not have.
    #[error("unknown option `{key}` for {game}{}", if allowed.is_empty() { " (it has no options)".to_string() } else { format!(" (options: {allowed})") })]
    UnknownOption {
        /// The game.
        game: &'static str,
        /// The key given.
        key: String,
        /// The game's options.
        allowed: &'static str,
    },
    /// A value the option does not allow.
    #[error("option `{key}={value}`: {why}")]
    BadOptionValue {
        /// The option.
        key: String,
        /// The value given.
        value: String,
        /// What is allowed.
        why: String,
    },
    /// An option written without `=`.
    #[error("option `{0}`: write options as key=value")]
    MalformedOption(String),
    /// The position string is malformed.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// An action of the list cannot be applied.
    #[error("action {index} `{token}`: {error}")]
    Action {
        /// The index of the action in the list, from 0.
        index: usize,
        /// The action as written.
        token: String,
        /// Why it cannot be applied.
        error: ActionError,
    },
}
