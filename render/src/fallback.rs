//! A plain picture for games whose board picture is not drawn yet: the header and the text
//! drawing of `tabula rules show`. Replaced game by game.

use tabula_core::Game;

use crate::layout::{self, HEADER, INK};
use crate::scene::{Anchor, Item, Scene};

/// The text drawing as a picture.
pub fn scene<G: Game>(game: &G, subtitle: &str) -> Scene {
    let drawing = game.drawing();
    let lines: Vec<&str> = drawing.lines().collect();
    let height = HEADER + 20.0 + 18.0 * lines.len() as f32 + 20.0;
    let mut scene = layout::page(
        height,
        G::ID.to_string(),
        &game.status_line(),
        None,
        subtitle,
    );
    for (i, line) in lines.iter().enumerate() {
        scene.pieces.push(Item::Text {
            at: (20.0, HEADER + 20.0 + 18.0 * i as f32),
            anchor: Anchor::Left,
            size: 14.0,
            color: INK,
            text: (*line).to_string(),
        });
    }
    scene
}
