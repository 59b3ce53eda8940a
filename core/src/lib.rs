//! The rules of the five Tabula games: Konane, Koan, Kolowis Awithlaknannai, Coan Ki and
//! Pachisi, as specified in `shared/rules/`.
//!
//! No I/O, no async, no clock, no randomness: every game is a pure state machine behind the
//! [`Game`] trait, and [`AnyGame`] dispatches over the closed set of games. See
//! [`script`] for the `tabula rules` contract (setup from options, position and actions; the
//! `legal` and `show` output).

pub mod any;
pub mod coan_ki;
pub mod error;
pub mod game;
pub mod koan;
pub mod kolowis;
pub mod konane;
pub mod pachisi;
pub mod playout;
pub mod script;
pub mod text;

pub use any::{AnyApplied, AnyGame, GameId};
pub use error::{
    ActionError, CellContents, Colour, Compass, Expected, Holding, IllegalReason, MoveError,
    NoMoveReason, NotYours, NotationError, NotationProblem, PositionError, PositionProblem,
    SetupError,
};
pub use game::{Action, Applied, Game, GameAction, NoRoll, Outcome, Seat, Status, Team};
