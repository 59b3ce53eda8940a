//! Board pictures (PNG) for the Tabula games: state → scene (plain data) → pixels → PNG.
//!
//! Pure and synchronous: the bot calls it off the async runtime. Board geometry lives here, not
//! in `tabula-core`. The font is bundled (Inter, OFL); system fonts are never used.

pub mod raster;
pub mod scene;

use thiserror::Error;

/// Why a picture could not be made. None of these depend on the game state: they are internal
/// failures (a bad size, a broken bundled font, a poisoned cache, an encoder error).
#[derive(Debug, Error)]
pub enum RenderError {
    /// The picture size is zero or too large.
    #[error("cannot make a {width}x{height} picture")]
    Size {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
    },
    /// The bundled font could not be read.
    #[error("the bundled font cannot be read")]
    Font,
    /// Another thread panicked while holding the board cache.
    #[error("the board cache is poisoned")]
    Poisoned,
    /// The PNG encoder failed.
    #[error("PNG encoding failed: {0}")]
    Encode(String),
}

pub mod konane;
pub mod layout;

use tabula_core::{AnyApplied, AnyGame};

use crate::scene::Scene;

/// The scene of any game's position, with the last action (and its events) highlighted when
/// given.
pub fn scene(game: &AnyGame, last: Option<&AnyApplied>) -> Scene {
    match game {
        AnyGame::Konane(g) => konane::scene(
            g,
            match last {
                Some(AnyApplied::Konane(a)) => Some(a),
                _ => None,
            },
        ),
    }
}

/// The PNG picture of any game's position, with the last action highlighted when given.
///
/// # Errors
/// Internal failures only (see [`RenderError`]); every reachable position renders.
pub fn render(game: &AnyGame, last: Option<&AnyApplied>) -> Result<Vec<u8>, RenderError> {
    raster::encode_png(&raster::rasterise(&scene(game, last))?)
}
