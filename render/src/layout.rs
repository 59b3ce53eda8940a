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
    subtitle_lines(&mut scene.pieces, subtitle, WIDTH - 56.0);
    scene
}

/// The lowest point of the header's texts (the subtitle's second line).
pub const HEADER_BOTTOM: f32 = 90.0;

/// The size of the header's subtitle.
pub const SUBTITLE: f32 = 21.0;
/// The smallest size a subtitle shrinks to on one line; a longer one takes two lines.
pub const SUBTITLE_MIN: f32 = 17.0;

/// Pushes the header's subtitle, left-aligned at 28 px, set by [`fit`] to at most `max` pixels
/// wide: one line centred at y = 70, or two lines in the same band.
pub fn subtitle_lines(items: &mut Vec<Item>, text: &str, max: f32) {
    if text.is_empty() {
        return;
    }
    let fitted = fit(text, SUBTITLE, SUBTITLE_MIN, max);
    let rows = fitted.rows(70.0);
    for (line, y) in fitted.lines.into_iter().zip(rows) {
        items.push(Item::Text {
            at: (28.0, y),
            anchor: Anchor::Left,
            size: fitted.size,
            color: MUTED,
            text: line,
        });
    }
}

/// A text set to fit a width, whole: its font size and its lines (one or two).
#[derive(Debug, Clone, PartialEq)]
pub struct Fitted {
    /// The font size in pixels.
    pub size: f32,
    /// The lines, top to bottom.
    pub lines: Vec<String>,
}

impl Fitted {
    /// The y of each line's middle when the block of lines is centred on `middle`.
    pub fn rows(&self, middle: f32) -> Vec<f32> {
        let step = (self.size * 1.25).round();
        let first = middle - step * (self.lines.len() as f32 - 1.0) / 2.0;
        (0..self.lines.len())
            .map(|i| (first + step * i as f32).round())
            .collect()
    }
}

/// The width of a text at `size`, or a generous estimate if the font cannot be read (the
/// raster step reports that error).
fn width_of(text: &str, size: f32) -> f32 {
    crate::raster::text_width(text, size).unwrap_or(size * 0.65 * text.chars().count() as f32)
}

/// Sets `text` to fit `max` pixels without cutting anything off: on one line at `size` when it
/// fits; else on one line at a smaller size, down to `min`; else on two lines broken at the
/// space that makes the longer line shortest, at `min` (or smaller, as far as the longer line
/// needs). Sizes are rounded down to half pixels, so few sizes of each glyph are ever drawn.
pub fn fit(text: &str, size: f32, min: f32, max: f32) -> Fitted {
    let shrink = |width: f32, cap: f32| {
        let s = if width <= max { cap } else { cap * max / width };
        ((s * 2.0).floor() / 2.0).min(cap)
    };
    let one = shrink(width_of(text, size), size);
    let one_line = Fitted {
        size: one,
        lines: vec![text.to_string()],
    };
    if one >= min {
        return one_line;
    }
    let best = text
        .char_indices()
        .filter(|(_, c)| *c == ' ')
        .map(|(i, _)| {
            let (a, b) = (text[..i].trim_end(), text[i..].trim_start());
            (width_of(a, size).max(width_of(b, size)), a, b)
        })
        .min_by(|x, y| x.0.total_cmp(&y.0));
    match best {
        Some((longer, a, b)) => Fitted {
            size: shrink(longer * min / size, min),
            lines: vec![a.to_string(), b.to_string()],
        },
        None => one_line,
    }
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

/// Shortens a text with an ellipsis until it is at most `max` pixels wide at `size`.
pub(crate) fn fit_width(text: &str, size: f32, max: f32) -> String {
    let fits = |t: &str| crate::raster::text_width(t, size).map_or(true, |w| w <= max);
    if fits(text) {
        return text.to_string();
    }
    let mut chars: Vec<char> = text.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let mut t: String = chars.iter().collect::<String>().trim_end().to_string();
        t.push('…');
        if fits(&t) {
            return t;
        }
    }
    String::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_text_keeps_its_size_and_line() {
        let f = fit("White jumped a4-c4, capturing b4", 21.0, 17.0, 664.0);
        assert_eq!(f.size, 21.0);
        assert_eq!(f.lines, ["White jumped a4-c4, capturing b4"]);
        assert_eq!(f.rows(70.0), [70.0]);
    }

    #[test]
    fn a_longer_text_shrinks_on_one_line() {
        let text = "White jumped a10-c10-e10-g10-i10-k10, capturing b10, d10, f10, h10, j10; \
                    Black cannot jump";
        let f = fit(text, 21.0, 17.0, 664.0);
        assert!(f.size < 21.0 && f.size >= 17.0, "{f:?}");
        assert_eq!(f.lines, [text]);
        assert!(width_of(text, f.size) <= 664.0);
    }

    #[test]
    fn a_text_too_long_for_one_line_takes_two_whole() {
        let text = "White jumped a10-c10-e10-g10-i10-k10, capturing b10, d10, f10, h10, j10; \
                    Black cannot jump, and this sentence is much longer than one line";
        let f = fit(text, 21.0, 17.0, 664.0);
        assert_eq!(f.lines.len(), 2, "{f:?}");
        assert_eq!(f.lines.join(" "), text);
        assert!(f.size <= 17.0);
        assert!(f.lines.iter().all(|l| width_of(l, f.size) <= 664.0));
        let rows = f.rows(70.0);
        assert!(rows[0] < 70.0 && rows[1] > 70.0 && rows[1] - rows[0] >= f.size);
    }
}
