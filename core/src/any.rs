//! The closed set of games, dispatched by `match`: adding a game fails to compile everywhere it
//! must be handled.

use std::fmt;
use std::str::FromStr;

use crate::error::{ActionError, SetupError};
use crate::game::{Applied, Game, Status};
use crate::script;

/// Calls `$body` with `$G` bound to the game type of a [`GameId`].
#[macro_export]
#[doc(hidden)]
macro_rules! with_game_type {
    ($id:expr, $G:ident => $body:expr) => {
        match $id {
            $crate::GameId::Konane => {
                type $G = $crate::konane::Konane;
                $body
            }
            $crate::GameId::Koan => {
                type $G = $crate::koan::Koan;
                $body
            }
            $crate::GameId::Kolowis => {
                type $G = $crate::kolowis::Kolowis;
                $body
            }
            $crate::GameId::CoanKi => {
                type $G = $crate::coan_ki::CoanKi;
                $body
            }
            $crate::GameId::Pachisi => {
                type $G = $crate::pachisi::Pachisi;
                $body
            }
        }
    };
}

/// Calls `$body` with `$g` bound to the state inside an [`AnyGame`].
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            AnyGame::Konane($g) => $body,
            AnyGame::Koan($g) => $body,
            AnyGame::Kolowis($g) => $body,
            AnyGame::CoanKi($g) => $body,
            AnyGame::Pachisi($g) => $body,
        }
    };
}

/// The identifier of one of the games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameId {
    /// Konane.
    Konane,
    /// Koan.
    Koan,
    /// Kolowis.
    Kolowis,
    /// CoanKi.
    CoanKi,
    /// Pachisi.
    Pachisi,
}

impl GameId {
    /// Every game, in the order of the rules reference.
    pub const ALL: &'static [GameId] = &[
        GameId::Konane,
        GameId::Koan,
        GameId::Kolowis,
        GameId::CoanKi,
        GameId::Pachisi,
    ];

    /// The identifier used by commands and storage (`coan-ki`).
    pub fn as_str(self) -> &'static str {
        with_game_type!(self, G => G::ID)
    }

    /// The display name (`Coan Ki`).
    pub fn name(self) -> &'static str {
        with_game_type!(self, G => G::NAME)
    }

    /// The seat names of the game.
    pub fn seats(self) -> &'static [&'static str] {
        with_game_type!(self, G => G::SEATS)
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for GameId {
    type Err = SetupError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameId::ALL
            .iter()
            .copied()
            .find(|id| id.as_str() == s)
            .ok_or_else(|| SetupError::UnknownGame(s.to_string()))
    }
}

/// An action applied to any of the games, in canonical form, with its events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnyApplied {
    /// Konane.
    Konane(Applied<crate::konane::Konane>),
    /// Koan.
    Koan(Applied<crate::koan::Koan>),
    /// Kolowis.
    Kolowis(Applied<crate::kolowis::Kolowis>),
    /// CoanKi.
    CoanKi(Applied<crate::coan_ki::CoanKi>),
    /// Pachisi.
    Pachisi(Applied<crate::pachisi::Pachisi>),
}

/// Calls `$body` with `$a` bound to the applied action inside an [`AnyApplied`].
macro_rules! with_applied {
    ($any:expr, $a:ident => $body:expr) => {
        match $any {
            AnyApplied::Konane($a) => $body,
            AnyApplied::Koan($a) => $body,
            AnyApplied::Kolowis($a) => $body,
            AnyApplied::CoanKi($a) => $body,
            AnyApplied::Pachisi($a) => $body,
        }
    };
}

impl AnyApplied {
    /// The action in canonical notation (what storage keeps).
    pub fn notation(&self) -> String {
        with_applied!(self, a => a.0.to_string())
    }

    /// The events, narrated in English.
    pub fn narration(&self) -> Vec<String> {
        with_applied!(self, a => a.1.iter().map(ToString::to_string).collect())
    }

    /// The fines the rules impose with this action, as (payer, payee) seats: Coan Ki's double
    /// one (`coan-ki.md` rule 5.8). The amount is the service's business (section 13).
    pub fn penalties(&self) -> Vec<(crate::Seat, crate::Seat)> {
        match self {
            AnyApplied::CoanKi(a) => {
                a.1.iter()
                    .filter_map(|event| match *event {
                        crate::coan_ki::Event::Penalty { payer, payee } => Some((payer, payee)),
                        _ => None,
                    })
                    .collect()
            }
            _ => Vec::new(),
        }
    }
}

/// A position of any of the games.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnyGame {
    /// Konane.
    Konane(crate::konane::Konane),
    /// Koan.
    Koan(crate::koan::Koan),
    /// Kolowis.
    Kolowis(crate::kolowis::Kolowis),
    /// CoanKi.
    CoanKi(crate::coan_ki::CoanKi),
    /// Pachisi.
    Pachisi(crate::pachisi::Pachisi),
}

impl AnyGame {
    /// Sets a game up from `key=value` options, an optional position string and a
    /// space-separated list of actions, as `tabula rules` does.
    ///
    /// # Errors
    /// A bad option, a malformed position, or the first action that cannot be applied.
    pub fn setup(
        id: GameId,
        options: &[&str],
        position: Option<&str>,
        actions: &str,
    ) -> Result<AnyGame, SetupError> {
        let mut game = AnyGame::start(id, options, position)?;
        game.apply_actions(actions)?;
        Ok(game)
    }

    /// The initial position (or `position`) of a game with `key=value` options.
    ///
    /// # Errors
    /// A bad option or a malformed position.
    pub fn start(
        id: GameId,
        options: &[&str],
        position: Option<&str>,
    ) -> Result<AnyGame, SetupError> {
        with_game_type!(id, G => {
            let options = script::options::<G>(options)?;
            script::setup::<G>(&options, position, "").map(AnyGame::from)
        })
    }

    /// Applies space-separated actions in order (moves read leniently), returning the last one
    /// applied.
    ///
    /// # Errors
    /// The first action that cannot be applied, with its index; the actions before it stay
    /// applied.
    pub fn apply_actions(&mut self, actions: &str) -> Result<Option<AnyApplied>, SetupError> {
        let mut last = None;
        for (index, token) in actions.split_whitespace().enumerate() {
            let applied = self.apply_text(token).map_err(|error| SetupError::Action {
                index,
                token: token.to_string(),
                error,
            })?;
            last = Some(applied);
        }
        Ok(last)
    }

    /// Which game this is.
    pub fn id(&self) -> GameId {
        match self {
            AnyGame::Konane(_) => GameId::Konane,
            AnyGame::Koan(_) => GameId::Koan,
            AnyGame::Kolowis(_) => GameId::Kolowis,
            AnyGame::CoanKi(_) => GameId::CoanKi,
            AnyGame::Pachisi(_) => GameId::Pachisi,
        }
    }

    /// The lines of `tabula rules legal`.
    pub fn legal_lines(&self) -> Vec<String> {
        with_game!(self, g => script::legal_lines(g))
    }

    /// At a chance node, each outcome as the action that rolls it (`roll:<outcome>`, in
    /// canonical notation) with its exact weight, in the engine's order; empty elsewhere.
    pub fn chance_outcomes(&self) -> Vec<(String, u32)> {
        with_game!(self, g => g
            .outcomes()
            .into_iter()
            .map(|(roll, weight)| (format!("roll:{roll}"), weight))
            .collect())
    }

    /// The text of `tabula rules show`.
    pub fn show_text(&self) -> String {
        with_game!(self, g => script::show_text(g))
    }

    /// The canonical position string.
    pub fn position(&self) -> String {
        with_game!(self, g => g.position())
    }

    /// What kind of node this is.
    pub fn status(&self) -> Status {
        with_game!(self, g => g.status())
    }

    /// Applies one action as a person or a script wrote it (see [`Game::apply_text`]).
    ///
    /// # Errors
    /// Says why the action cannot be applied; the state is unchanged.
    pub fn apply_text(&mut self, text: &str) -> Result<AnyApplied, ActionError> {
        match self {
            AnyGame::Konane(g) => g.apply_text(text).map(AnyApplied::Konane),
            AnyGame::Koan(g) => g.apply_text(text).map(AnyApplied::Koan),
            AnyGame::Kolowis(g) => g.apply_text(text).map(AnyApplied::Kolowis),
            AnyGame::CoanKi(g) => g.apply_text(text).map(AnyApplied::CoanKi),
            AnyGame::Pachisi(g) => g.apply_text(text).map(AnyApplied::Pachisi),
        }
    }

    /// The status line of `tabula rules show`.
    pub fn status_line(&self) -> String {
        with_game!(self, g => g.status_line())
    }
}

impl From<crate::konane::Konane> for AnyGame {
    fn from(g: crate::konane::Konane) -> Self {
        AnyGame::Konane(g)
    }
}

impl From<crate::koan::Koan> for AnyGame {
    fn from(g: crate::koan::Koan) -> Self {
        AnyGame::Koan(g)
    }
}

impl From<crate::kolowis::Kolowis> for AnyGame {
    fn from(g: crate::kolowis::Kolowis) -> Self {
        AnyGame::Kolowis(g)
    }
}

impl From<crate::coan_ki::CoanKi> for AnyGame {
    fn from(g: crate::coan_ki::CoanKi) -> Self {
        AnyGame::CoanKi(g)
    }
}

impl From<crate::pachisi::Pachisi> for AnyGame {
    fn from(g: crate::pachisi::Pachisi) -> Self {
        AnyGame::Pachisi(g)
    }
}
