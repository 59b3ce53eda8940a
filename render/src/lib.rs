//! Board pictures (PNG) for the Tabula games: state → scene (plain data) → pixels → PNG; the same
//! scene also as an SVG document for web pages ([`svg()`]).
//!
//! Pure and synchronous: the bot calls it off the async runtime. Board geometry lives here, not
//! in `tabula-core`. The font is bundled (Inter, OFL); system fonts are never used.

pub mod labels;
pub mod raster;
pub mod replay;
pub mod scene;
pub mod svg;

pub use crate::svg::svg;

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

pub mod chart;
pub mod coan_ki;
pub mod koan;
pub mod kolowis;
pub mod konane;
pub mod layout;
pub mod pachisi;
pub mod table;

use tabula_core::{AnyApplied, AnyGame};

use crate::labels::{English, Labels};
use crate::scene::Scene;

/// The last action when it belongs to the same game.
macro_rules! last_of {
    ($last:expr, $variant:ident) => {
        match $last {
            Some(AnyApplied::$variant(a)) => Some(a),
            _ => None,
        }
    };
}

/// The scene of any game's position, with the last action (and its events) highlighted when
/// given.
pub fn scene(game: &AnyGame, last: Option<&AnyApplied>) -> Scene {
    scene_in(game, last, &English)
}

/// The scene with its words said by `labels` (titles, hints, captions, and the account of the
/// last action when `labels` gives one).
pub fn scene_in(game: &AnyGame, last: Option<&AnyApplied>, labels: &dyn Labels) -> Scene {
    let told = last.and_then(|last| labels.narrate(last));
    match game {
        AnyGame::Konane(g) => konane::scene_in(g, last_of!(last, Konane), labels, told),
        AnyGame::Koan(g) => koan::scene_in(g, last_of!(last, Koan), labels, told),
        AnyGame::Kolowis(g) => kolowis::scene_in(g, last_of!(last, Kolowis), labels, told),
        AnyGame::CoanKi(g) => coan_ki::scene_in(g, last_of!(last, CoanKi), labels, told),
        AnyGame::Pachisi(g) => pachisi::scene_in(g, last_of!(last, Pachisi), labels, told),
    }
}

/// The scene after `recent`, the last actions in order (at least the last one; more are
/// shown where a turn's start hides the play before it: Coan Ki draws the opponent's play
/// under the throw that follows it, issue 37 item 8). `labels` says the words, and narrates
/// each of `recent` for the subtitle.
pub fn scene_after_in(game: &AnyGame, recent: &[AnyApplied], labels: &dyn Labels) -> Scene {
    match game {
        AnyGame::CoanKi(g) => {
            let mut told: Option<Vec<String>> = None;
            for applied in recent {
                if let Some(text) = labels.narrate(applied) {
                    told.get_or_insert_with(Vec::new).push(text);
                }
            }
            let told = told.map(|texts| {
                let texts: Vec<String> = texts.into_iter().filter(|t| !t.is_empty()).collect();
                texts.join("; ")
            });
            let recent: Vec<_> = recent
                .iter()
                .filter_map(|applied| match applied {
                    AnyApplied::CoanKi(a) => Some(a),
                    _ => None,
                })
                .collect();
            coan_ki::scene_after(g, &recent, labels, told)
        }
        _ => scene_in(game, recent.last(), labels),
    }
}

/// The scene of a game that ended without its position showing it (a resignation, a time-out,
/// an abort): the header's title says `title` instead of whose turn it was, and the turn's
/// piece icon is left out.
pub fn scene_titled(game: &AnyGame, last: Option<&AnyApplied>, title: &str) -> Scene {
    scene_titled_in(game, last, title, &English)
}

/// [`scene_titled`] with its words said by `labels`.
pub fn scene_titled_in(
    game: &AnyGame,
    last: Option<&AnyApplied>,
    title: &str,
    labels: &dyn Labels,
) -> Scene {
    retitle(scene_in(game, last, labels), title)
}

/// `scene` with its header's title replaced by `title`, and the turn's icon left out.
fn retitle(mut scene: Scene, title: &str) -> Scene {
    // The header's title is the first text of the pieces layer (see `layout::page`), after
    // the optional icon.
    let mut icon = None;
    for (i, item) in scene.pieces.iter_mut().enumerate() {
        match item {
            scene::Item::Group { .. } if i == 0 => icon = Some(i),
            scene::Item::Text { at, text, .. } => {
                if icon.is_some() {
                    at.0 = 28.0;
                }
                *text = title.to_string();
                break;
            }
            _ => break,
        }
    }
    if let Some(i) = icon {
        scene.pieces.remove(i);
    }
    scene
}

/// The scene of a position with a fixed header instead of the turn and the last action's
/// account: `title`, and `subtitle` below it (if not empty). Every frame of a replay has the
/// same header, so that only the board changes from one frame to the next.
pub fn scene_with_header(
    game: &AnyGame,
    last: Option<&AnyApplied>,
    title: &str,
    subtitle: &str,
) -> Scene {
    scene_with_header_in(game, last, title, subtitle, &English)
}

/// [`scene_with_header`] with the words on the board said by `labels`.
pub fn scene_with_header_in(
    game: &AnyGame,
    last: Option<&AnyApplied>,
    title: &str,
    subtitle: &str,
    labels: &dyn Labels,
) -> Scene {
    let mut scene = scene_in(game, last, labels);
    // The header is the first items of the pieces layer (see `layout::page`): the turn's
    // icon, the title, then the subtitle's one or two lines, all above the board.
    let header = scene
        .pieces
        .iter()
        .take_while(|item| match item {
            scene::Item::Group { at, .. } => at.1 <= 40.0,
            scene::Item::Text { at, .. } => at.1 <= layout::HEADER_BOTTOM,
            scene::Item::Path { .. } => false,
        })
        .count();
    let own = layout::page(0.0, String::new(), title, None, subtitle).pieces;
    scene.pieces.splice(..header, own);
    scene
}

/// The PNG picture of a game ended by resignation, time or abort: see [`scene_titled`].
///
/// # Errors
/// Internal failures only (see [`RenderError`]).
pub fn render_titled(
    game: &AnyGame,
    last: Option<&AnyApplied>,
    title: &str,
) -> Result<Vec<u8>, RenderError> {
    raster::encode_png(&raster::rasterise(&scene_titled(game, last, title))?)
}

/// The PNG picture of any game's position, with the last action highlighted when given.
///
/// # Errors
/// Internal failures only (see [`RenderError`]); every reachable position renders.
pub fn render(game: &AnyGame, last: Option<&AnyApplied>) -> Result<Vec<u8>, RenderError> {
    raster::encode_png(&raster::rasterise(&scene(game, last))?)
}

/// [`render`] after the `recent` actions (see [`scene_after_in`]) with its words said by
/// `labels`; with a `title`, as [`render_titled`].
///
/// # Errors
/// Internal failures only (see [`RenderError`]).
pub fn render_in(
    game: &AnyGame,
    recent: &[AnyApplied],
    title: Option<&str>,
    labels: &dyn Labels,
) -> Result<Vec<u8>, RenderError> {
    let scene = scene_after_in(game, recent, labels);
    let scene = match title {
        Some(title) => retitle(scene, title),
        None => scene,
    };
    raster::encode_png(&raster::rasterise(&scene)?)
}
