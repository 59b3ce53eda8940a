//! Setting up a game from options, a position string and a list of actions, and the output of
//! `tabula rules legal` and `tabula rules show`, for any game. The command line and the tests
//! both use these, so the tests check exactly what the command line prints.

use crate::error::SetupError;
use crate::game::Game;

/// Reads `key=value` option strings.
///
/// # Errors
/// A malformed option, an unknown key or a bad value.
pub fn options<G: Game>(pairs: &[&str]) -> Result<G::Options, SetupError> {
    let mut options = G::Options::default();
    for pair in pairs {
        let Some((key, value)) = pair.split_once('=') else {
            return Err(SetupError::MalformedOption((*pair).to_string()));
        };
        G::set_option(&mut options, key.trim(), value.trim())?;
    }
    Ok(options)
}

/// Starts from the initial position (or `position`) and applies the space-separated `actions`
/// in order, reading moves leniently.
///
/// # Errors
/// A bad option, a malformed position, or the first action that cannot be applied, with its
/// index.
pub fn setup<G: Game>(
    options: &G::Options,
    position: Option<&str>,
    actions: &str,
) -> Result<G, SetupError> {
    let mut game = match position {
        Some(text) => G::from_position(options, text)?,
        None => G::new(options),
    };
    for (index, token) in actions.split_whitespace().enumerate() {
        game.apply_text(token).map_err(|error| SetupError::Action {
            index,
            token: token.to_string(),
            error,
        })?;
    }
    Ok(game)
}

/// The lines printed by `tabula rules legal`: one legal move per line, or `roll:<outcome>
/// <weight>` at a chance node, nothing when the game is over.
pub fn legal_lines<G: Game>(game: &G) -> Vec<String> {
    let mut lines: Vec<String> = game.moves().iter().map(ToString::to_string).collect();
    lines.extend(
        game.outcomes()
            .iter()
            .map(|(roll, weight)| format!("roll:{roll} {weight}")),
    );
    lines
}

/// The text printed by `tabula rules show`: the position string, the status line, and the
/// drawing.
pub fn show_text<G: Game>(game: &G) -> String {
    let mut out = format!("{}\n{}\n", game.position(), game.status_line());
    out.push_str(&game.drawing());
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}
