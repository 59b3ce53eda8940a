//! What every picture shares: its width, the colours, and the header with whose turn it is (or
//! who won) and what just happened.
//!
//! Colours come from the Okabe–Ito palette, which stays distinguishable with every common
//! colour-vision deficiency; highlights never rely on red against green.

use crate::scene::{Anchor, Color, Item, Scene, Stroke, shape};

/// Width of every picture in pixels (Discord and Telegram show inline pictures scaled down to
/// about 400 px on a phone, so labels are drawn at 20 px or more).
pub const WIDTH: f32 = 720.0;
/// Height of the header band.
pub const HEADER: f32 = 92.0;

/// The page background.
pub const PAPER: Color = Color::hex(0xf4eee2);
/// Main text.
pub const INK: Color = Color::hex(0x1d1d1f);
/// Secondary text and coordinates.
pub const MUTED: Color = Color::hex(0x55514a);
/// The last move's path and landing cells (Okabe–Ito orange).
pub const PATH: Color = Color::hex(0xe69f00);
/// The last move's starting cell and hints (Okabe–Ito blue).
pub const FROM: Color = Color::hex(0x0072b2);
/// Captured pieces (Okabe–Ito vermillion).
pub const CAPTURED: Color = Color::hex(0xd55e00);

/// Starts a scene of the standard width with the header: a title (whose turn, or the result)
/// with an optional piece icon before it, and a subtitle (what just happened).
pub fn page(
    height: f32,
    board_key: String,
    title: &str,
    icon: Option<Item>,
    subtitle: &str,
) -> Scene {
    let mut scene = Scene::new(WIDTH as u32, height.ceil() as u32, PAPER, board_key);
    let mut x = 28.0;
    if let Some(icon) = icon {
        scene.pieces.push(Item::Group {
            at: (x + 16.0, 32.0),
            radius: 16.0,
            items: vec![icon],
        });
        x += 44.0;
    }
    scene.pieces.push(Item::Text {
        at: (x, 32.0),
        anchor: Anchor::Left,
        size: 30.0,
        color: INK,
        text: title.to_string(),
    });
    if !subtitle.is_empty() {
        scene.pieces.push(Item::Text {
            at: (28.0, 70.0),
            anchor: Anchor::Left,
            size: 21.0,
            color: MUTED,
            text: fit(subtitle, 62),
        });
    }
    scene
}

/// Shortens a text to at most `max` characters with an ellipsis.
pub fn fit(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max - 1).collect();
    out.push('…');
    out
}

/// A coordinate label.
pub fn label(at: (f32, f32), text: String) -> Item {
    Item::Text {
        at,
        anchor: Anchor::Centre,
        size: 22.0,
        color: MUTED,
        text,
    }
}

/// An × mark of the given half-size, for captured pieces.
pub fn cross(at: (f32, f32), half: f32, color: Color, width: f32) -> Vec<Item> {
    let stroke = Stroke { color, width };
    vec![
        shape::polyline(
            &[(at.0 - half, at.1 - half), (at.0 + half, at.1 + half)],
            stroke,
        ),
        shape::polyline(
            &[(at.0 - half, at.1 + half), (at.0 + half, at.1 - half)],
            stroke,
        ),
    ]
}

/// A ring around a cell, for the starting cell of a move or a hint.
pub fn ring(at: (f32, f32), radius: f32, color: Color, width: f32) -> Item {
    shape::circle(at, radius, None, Some(Stroke { color, width }))
}

/// The path of a move through cell centres, ending in an arrow head.
pub fn path(points: &[(f32, f32)], color: Color, width: f32) -> Vec<Item> {
    let mut items = Vec::new();
    if let [.., before, last] = points {
        if points.len() > 2 {
            items.push(shape::polyline(
                &points[..points.len() - 1],
                Stroke { color, width },
            ));
        }
        items.extend(shape::arrow(*before, *last, color, width));
    }
    items
}
