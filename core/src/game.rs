//! The game model shared by all five games.
//!
//! A state is exactly one of: a **decision** (a seat picks one of the legal moves), a **chance**
//! node (the caller picks one of the listed outcomes, each with an exact integer weight), or
//! **done**. Nothing here assumes two players who alternate: the same seat may act several times
//! in a row, and seats may play in teams. The engine never draws random numbers.

use std::fmt::{self, Debug, Display};
use std::str::FromStr;

use crate::error::{
    ActionError, IllegalReason, MoveError, NotationError, NotationProblem, PositionError,
    SetupError,
};

/// A seat at the table, numbered from 0 in the game's own order (see [`Game::SEATS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Seat(pub u8);

/// A team of seats; in two-player games each seat is its own team (see [`Game::TEAMS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Team(pub u8);

/// How a finished game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The team won.
    Winner(Team),
    /// Nobody won.
    Draw,
}

/// What kind of node a state is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// The seat must choose one of [`Game::legal_moves`].
    Decision(Seat),
    /// The caller must choose one of [`Game::chance_outcomes`].
    Chance,
    /// The game is over.
    Done(Outcome),
}

/// The roll type of a game without chance: it has no values, so such a game provably never
/// reaches a chance node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NoRoll {}

impl Display for NoRoll {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {}
    }
}

impl FromStr for NoRoll {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Err(NotationError::new(s, NotationProblem::NoDice))
    }
}

/// One entry of a game's history: a move by the seat to act, or the outcome of a chance event.
///
/// The text form is the move's canonical notation, or `roll:<outcome>` for a roll.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Action<M, R> {
    /// A decision by the seat to act.
    Move(M),
    /// The outcome of a chance event.
    Roll(R),
}

impl<M: Debug, R: Debug> Debug for Action<M, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Move(m) => write!(f, "Move({m:?})"),
            Action::Roll(r) => write!(f, "Roll({r:?})"),
        }
    }
}

impl<M: Display, R: Display> Display for Action<M, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Move(m) => write!(f, "{m}"),
            Action::Roll(r) => write!(f, "roll:{r}"),
        }
    }
}

impl<M, R> FromStr for Action<M, R>
where
    M: FromStr<Err = NotationError>,
    R: FromStr<Err = NotationError>,
{
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.strip_prefix("roll:") {
            Some(r) => r.parse().map(Action::Roll),
            None => s.parse().map(Action::Move),
        }
    }
}

/// An action of game `G`.
pub type GameAction<G> = Action<<G as Game>::Move, <G as Game>::Roll>;

/// An action as applied: its canonical form and the events it produced.
pub type Applied<G> = (GameAction<G>, Vec<<G as Game>::Event>);

/// One game's rules. Implemented by each of the five games; [`crate::AnyGame`] dispatches over
/// them.
///
/// Implementations keep the invariant that every `apply_*_unchecked` call with an action taken
/// from [`Game::legal_moves`] or [`Game::chance_outcomes`] yields a consistent state, and the
/// checked [`Game::play`] / [`Game::roll`] never change the state when they return an error.
pub trait Game: Clone + PartialEq + Eq + Debug + Sized {
    /// A whole decision in canonical notation (`Display` and `FromStr` round-trip).
    type Move: Clone + PartialEq + Eq + Debug + Display + FromStr<Err = NotationError>;
    /// The outcome of a chance event; [`NoRoll`] for games without chance.
    type Roll: Clone + PartialEq + Eq + Debug + Display + FromStr<Err = NotationError>;
    /// What applying an action did, for narration and highlighting.
    type Event: Clone + PartialEq + Eq + Debug + Display;
    /// The game's options (`size=10`, `finish=overshoot`, ...).
    type Options: Clone + PartialEq + Eq + Debug + Default;

    /// The identifier used by commands and storage (`konane`, `coan-ki`, ...).
    const ID: &'static str;
    /// The display name.
    const NAME: &'static str;
    /// Seat names, indexed by [`Seat`].
    const SEATS: &'static [&'static str];
    /// Team names, indexed by [`Team`].
    const TEAMS: &'static [&'static str];

    /// The team a seat plays for. Two-player games: each seat is its own team.
    fn team_of(seat: Seat) -> Team {
        Team(seat.0)
    }

    /// Sets one option from its text form.
    ///
    /// # Errors
    /// An unknown key or a value the option does not allow.
    fn set_option(options: &mut Self::Options, key: &str, value: &str) -> Result<(), SetupError>;

    /// The options as `key=value` pairs, every option included (for storage and display).
    fn option_pairs(options: &Self::Options) -> Vec<(&'static str, String)>;

    /// The start position.
    fn new(options: &Self::Options) -> Self;

    /// Reads a position string (see the game's rules file, section 9).
    ///
    /// # Errors
    /// A malformed string, naming the offending token.
    fn from_position(options: &Self::Options, text: &str) -> Result<Self, PositionError>;

    /// The canonical position string.
    fn position(&self) -> String;

    /// The text drawing of the board printed by `tabula rules show` after its two header lines.
    fn drawing(&self) -> String;

    /// The options this state was created with.
    fn options(&self) -> &Self::Options;

    /// What kind of node this is.
    fn status(&self) -> Status;

    /// Appends the legal moves (empty unless the status is a decision). Each move appears once.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Appends the chance outcomes with their exact weights (empty unless at a chance node).
    fn chance_outcomes(&self, out: &mut Vec<(Self::Roll, u32)>);

    /// Applies a move taken from [`Game::legal_moves`] of this very state.
    ///
    /// For any other move the resulting state is unspecified (but memory-safe); use
    /// [`Game::play`] for moves from outside.
    fn apply_move_unchecked(&mut self, mv: &Self::Move, events: &mut Vec<Self::Event>);

    /// Applies an outcome taken from [`Game::chance_outcomes`] of this very state.
    fn apply_roll_unchecked(&mut self, roll: &Self::Roll, events: &mut Vec<Self::Event>);

    /// Reads what a person typed, leniently, and matches it against the legal moves.
    ///
    /// # Errors
    /// Says what was wrong: no such cell, not your piece, why that piece cannot go there, or
    /// the candidates when the input is ambiguous.
    fn interpret(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// The legal moves as a fresh vector.
    fn moves(&self) -> Vec<Self::Move> {
        let mut out = Vec::new();
        self.legal_moves(&mut out);
        out
    }

    /// The chance outcomes as a fresh vector.
    fn outcomes(&self) -> Vec<(Self::Roll, u32)> {
        let mut out = Vec::new();
        self.chance_outcomes(&mut out);
        out
    }

    /// Plays a move after checking that it is legal.
    ///
    /// # Errors
    /// The game is over, a roll is due, or the move is illegal (with the reason). The state is
    /// unchanged in every error case.
    fn play(&mut self, mv: &Self::Move) -> Result<Vec<Self::Event>, ActionError> {
        match self.status() {
            Status::Done(_) => return Err(ActionError::GameOver),
            Status::Chance => return Err(ActionError::RollExpected),
            Status::Decision(_) => {}
        }
        if !self.moves().contains(mv) {
            let text = mv.to_string();
            let error = match self.interpret(&text) {
                Err(e) => e,
                Ok(_) => MoveError::Illegal {
                    input: text,
                    reason: Box::new(IllegalReason::NotLegalHere { legal: Vec::new() }),
                },
            };
            return Err(ActionError::Move(error));
        }
        let mut events = Vec::new();
        self.apply_move_unchecked(mv, &mut events);
        Ok(events)
    }

    /// Applies a chance outcome after checking that it is one of the listed outcomes.
    ///
    /// # Errors
    /// Not a chance node, or not a possible outcome here. The state is unchanged.
    fn roll(&mut self, roll: &Self::Roll) -> Result<Vec<Self::Event>, ActionError> {
        match self.status() {
            Status::Done(_) => return Err(ActionError::GameOver),
            Status::Decision(seat) => {
                return Err(ActionError::MoveExpected {
                    seat: Self::SEATS[usize::from(seat.0)],
                });
            }
            Status::Chance => {}
        }
        if !self.outcomes().iter().any(|(r, _)| r == roll) {
            let possible: Vec<String> =
                self.outcomes().iter().map(|(r, _)| r.to_string()).collect();
            return Err(ActionError::ImpossibleRoll {
                roll: roll.to_string(),
                possible: possible.join(", "),
            });
        }
        let mut events = Vec::new();
        self.apply_roll_unchecked(roll, &mut events);
        Ok(events)
    }

    /// Applies an action in canonical form (what storage keeps).
    ///
    /// # Errors
    /// As [`Game::play`] and [`Game::roll`].
    fn apply(
        &mut self,
        action: &Action<Self::Move, Self::Roll>,
    ) -> Result<Vec<Self::Event>, ActionError> {
        match action {
            Action::Move(m) => self.play(m),
            Action::Roll(r) => self.roll(r),
        }
    }

    /// Applies one action as a person or a script wrote it: `roll:<outcome>` for a roll,
    /// anything else read leniently as a move. Returns the canonical action and the events.
    ///
    /// # Errors
    /// As [`Game::interpret`], [`Game::play`] and [`Game::roll`]. The state is unchanged.
    fn apply_text(&mut self, text: &str) -> Result<Applied<Self>, ActionError> {
        let text = text.trim();
        if let Some(roll) = text.strip_prefix("roll:") {
            let roll: Self::Roll = roll.parse().map_err(ActionError::Notation)?;
            let events = self.roll(&roll)?;
            return Ok((Action::Roll(roll), events));
        }
        match self.status() {
            Status::Done(_) => return Err(ActionError::GameOver),
            Status::Chance => return Err(ActionError::RollExpected),
            Status::Decision(_) => {}
        }
        let mv = self.interpret(text).map_err(ActionError::Move)?;
        let events = self.play(&mv)?;
        Ok((Action::Move(mv), events))
    }

    /// The seat to act, if any.
    fn to_act(&self) -> Option<Seat> {
        match self.status() {
            Status::Decision(seat) => Some(seat),
            _ => None,
        }
    }

    /// The second line of `tabula rules show`: `turn <seat>`, `chance`, `winner <team>` or
    /// `draw`.
    fn status_line(&self) -> String {
        match self.status() {
            Status::Decision(seat) => format!("turn {}", Self::SEATS[usize::from(seat.0)]),
            Status::Chance => "chance".into(),
            Status::Done(Outcome::Winner(team)) => {
                format!("winner {}", Self::TEAMS[usize::from(team.0)])
            }
            Status::Done(Outcome::Draw) => "draw".into(),
        }
    }
}
