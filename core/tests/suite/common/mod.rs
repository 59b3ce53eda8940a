//! Helpers shared by the scenario tests: they drive the engine exactly as `tabula rules` does.
#![allow(dead_code)]

pub mod fuzz;

use tabula_core::{Game, SetupError, script};

/// Sets a game up as `tabula rules` would, panicking with the error if that fails.
pub fn game<G: Game>(options: &[&str], position: Option<&str>, moves: &str) -> G {
    try_game::<G>(options, position, moves).unwrap_or_else(|e| panic!("setup failed: {e}"))
}

/// Sets a game up as `tabula rules` would.
pub fn try_game<G: Game>(
    options: &[&str],
    position: Option<&str>,
    moves: &str,
) -> Result<G, SetupError> {
    let options = script::options::<G>(options)?;
    script::setup::<G>(&options, position, moves)
}

/// The sorted output lines of `tabula rules legal`.
pub fn legal<G: Game>(options: &[&str], position: Option<&str>, moves: &str) -> Vec<String> {
    let mut lines = script::legal_lines(&game::<G>(options, position, moves));
    lines.sort();
    lines
}

/// A sorted list of expected lines.
pub fn set(lines: &[&str]) -> Vec<String> {
    let mut lines: Vec<String> = lines.iter().map(ToString::to_string).collect();
    lines.sort();
    lines
}

/// The first two lines of `tabula rules show`: the position string and the status line.
pub fn head<G: Game>(options: &[&str], position: Option<&str>, moves: &str) -> (String, String) {
    let g = game::<G>(options, position, moves);
    (g.position(), g.status_line())
}

/// The error of a setup that must fail.
pub fn rejected<G: Game>(options: &[&str], position: Option<&str>, moves: &str) -> SetupError {
    match try_game::<G>(options, position, moves) {
        Ok(g) => panic!("expected an error, got position {}", g.position()),
        Err(e) => e,
    }
}

/// Asserts that applying `moves` fails at action `index`, and that the message names the token.
pub fn rejected_at<G: Game>(
    options: &[&str],
    position: Option<&str>,
    moves: &str,
    index: usize,
) -> String {
    let error = rejected::<G>(options, position, moves);
    let token = moves.split_whitespace().nth(index).unwrap_or_default();
    match &error {
        SetupError::Action { index: i, .. } => assert_eq!(*i, index, "{error}"),
        other => panic!("expected an action error, got {other}"),
    }
    let message = error.to_string();
    assert!(message.contains(token), "{message} does not name {token}");
    message
}

/// The reason why action `index` of `moves` is an illegal move (the setup must fail there,
/// with [`tabula_core::MoveError::Illegal`]).
pub fn illegal_at<G: Game>(
    options: &[&str],
    position: Option<&str>,
    moves: &str,
    index: usize,
) -> tabula_core::IllegalReason {
    use tabula_core::{ActionError, MoveError};
    match rejected::<G>(options, position, moves) {
        SetupError::Action {
            index: i,
            error: ActionError::Move(MoveError::Illegal { reason, .. }),
            ..
        } if i == index => *reason,
        other => panic!("expected an illegal move at action {index}, got {other}"),
    }
}

/// The reason of an [`tabula_core::MoveError::Illegal`], panicking on any other error.
pub fn reason(error: tabula_core::MoveError) -> tabula_core::IllegalReason {
    match error {
        tabula_core::MoveError::Illegal { reason, .. } => *reason,
        other => panic!("expected an illegal move, got {other}"),
    }
}
