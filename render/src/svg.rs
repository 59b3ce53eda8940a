//! Vectors: a scene written as a standalone SVG document, for a web page to draw the same board
//! the PNG pictures show.
//!
//! The document draws exactly what [`crate::raster`] draws: the background, the board layer once
//! (`<g class="board">`), then the pieces layer (`<g class="pieces">`), each item as its own
//! element. Paths keep their segments (quadratic curves stay `Q`), filled with the non-zero rule
//! and stroked with round caps and joins (set once on the root, inherited by every shape).
//! Each group is a `<g transform="translate(x y)">` at the whole-pixel origin the raster back end
//! pastes its sprite at, clipped to the sprite's square where its items reach beyond it. Text is
//! written as the outlines of the bundled Inter font's glyphs, placed as the raster back end
//! places them (same anchor, kerning, baseline and quarter-pixel pen positions), so that no font
//! of the browser is used; each text's glyphs sit in a `<g>` whose `aria-label` is the text, and
//! the document's `<title>` says the texts of the pieces layer. Nothing outside the document is
//! referred to: no image, no script, no font, no style sheet.
//!
//! Size: coordinates have at most two decimals (trailing and leading zeros left out) and path
//! data is relative to the previous point. What repeats is written once, in `<defs>`, and used
//! by `<use href="#…">` (as the raster back end rasterises it once and pastes it): each glyph
//! (at one size, 10 pixels, which each text's `<g>` scales to its own), each long outline
//! met more than once (a board's cells, a piece's disc; the copies may differ in place and
//! paint), and the items of groups met more than once (the pieces, each through its own group's
//! `<g>`). A board stays within a few tens of KB.

use std::collections::HashMap;
use std::fmt::Write as _;

use ab_glyph::{Font, GlyphId, OutlineCurve, PxScale, ScaleFont};

use crate::RenderError;
use crate::raster::{font, quarter_pixel, sprite_half, text_origin, text_width};
use crate::scene::{Color, Item, Point, Scene, Segment};

/// The scene as a standalone SVG document (UTF-8 text), `width` × `height` user units, one per
/// pixel of the raster picture.
///
/// # Errors
/// The bundled font cannot be read.
pub fn svg(scene: &Scene) -> Result<String, RenderError> {
    let mut census = Census::default();
    census.items(&scene.board);
    census.items(&scene.pieces);
    let mut writer = Writer {
        census,
        defs: String::new(),
        glyphs: HashMap::new(),
        shapes: HashMap::new(),
        groups: HashMap::new(),
        clips: HashMap::new(),
    };
    let mut board = String::new();
    writer.items(&mut board, &scene.board, Sprite::NONE)?;
    let mut pieces = String::new();
    writer.items(&mut pieces, &scene.pieces, Sprite::NONE)?;

    let (w, h) = (scene.width, scene.height);
    let mut out = String::with_capacity(board.len() + pieces.len() + writer.defs.len() + 512);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" \
         height=\"{h}\" role=\"img\" fill-rule=\"nonzero\" stroke-linecap=\"round\" \
         stroke-linejoin=\"round\">"
    );
    let title = title(scene);
    if !title.is_empty() {
        out.push_str("<title>");
        escape_into(&mut out, &title);
        out.push_str("</title>");
    }
    if !writer.defs.is_empty() {
        out.push_str("<defs>");
        out.push_str(&writer.defs);
        out.push_str("</defs>");
    }
    let _ = write!(out, "<rect width=\"{w}\" height=\"{h}\"");
    paint_attributes(&mut out, "fill", scene.background);
    out.push_str("/>");
    out.push_str("<g class=\"board\">");
    out.push_str(&board);
    out.push_str("</g><g class=\"pieces\">");
    out.push_str(&pieces);
    out.push_str("</g></svg>");
    Ok(out)
}

/// The document's title: the texts of the pieces layer outside groups (the header's title and
/// subtitle, the captions), in order.
fn title(scene: &Scene) -> String {
    let texts: Vec<&str> = scene
        .pieces
        .iter()
        .filter_map(|item| match item {
            Item::Text { text, .. } if !text.trim().is_empty() => Some(text.trim()),
            _ => None,
        })
        .collect();
    texts.join(" — ")
}

/// Where the items being written are in the raster back end's coordinates: the offset of the
/// sprite being drawn into (the items of a group are drawn into a sprite with their origin at
/// the sprite's centre, a whole number of pixels from its corner). Rounding (group origins,
/// glyph pen positions) happens in those coordinates, as the raster back end rounds.
#[derive(Debug, Clone, Copy)]
struct Sprite {
    shift: f32,
}

impl Sprite {
    /// The picture itself.
    const NONE: Sprite = Sprite { shift: 0.0 };
}

/// The size glyph outlines are written at in `<defs>`; each text scales them to its own size
/// (with two decimals, a glyph's points are within 0.005 × size / 10 pixels: a sixtieth of a
/// pixel at size 30).
const GLYPH_SIZE: f32 = 10.0;

/// Outlines shorter than this (in characters of path data, first point aside) are written where
/// they are used even when repeated: a `<use>` would save little or nothing.
const SHORTEST_SHARED: usize = 40;

/// What a scene repeats: how often each outline (its path data relative to its first point) and
/// each group's items (as the raster back end's sprite cache tells them apart) are drawn. The
/// items of a group are counted once however often the group is drawn, since they are written
/// once.
#[derive(Debug, Default)]
struct Census {
    shapes: HashMap<String, usize>,
    groups: HashMap<String, usize>,
}

impl Census {
    fn items(&mut self, items: &[Item]) {
        for item in items {
            match item {
                Item::Path {
                    segments,
                    fill,
                    stroke,
                } => {
                    if (fill.is_some() || stroke.is_some())
                        && let Some((_, rest)) = local_path(segments)
                        && rest.len() >= SHORTEST_SHARED
                    {
                        *self.shapes.entry(rest).or_default() += 1;
                    }
                }
                Item::Group { radius, items, .. } => {
                    let count = self.groups.entry(group_key(*radius, items)).or_default();
                    *count += 1;
                    if *count == 1 {
                        self.items(items);
                    }
                }
                Item::Text { .. } => {}
            }
        }
    }

    fn shared_shape(&self, rest: &str) -> bool {
        rest.len() >= SHORTEST_SHARED && self.shapes.get(rest).is_some_and(|n| *n > 1)
    }

    fn shared_group(&self, key: &str) -> bool {
        self.groups.get(key).is_some_and(|n| *n > 1)
    }
}

/// A group's items as the raster back end's sprite cache knows them, with the sprite's size.
fn group_key(radius: f32, items: &[Item]) -> String {
    let mut key = format!("{}\n", sprite_half(radius));
    for item in items {
        let _ = writeln!(key, "{item}");
    }
    key
}

/// A text placed: its first pen at `(x, baseline)`, before rounding.
#[derive(Debug, Clone, Copy)]
struct Run<'a> {
    text: &'a str,
    size: f32,
    color: Color,
    x: f32,
    baseline: f32,
}

/// The document being written: the `<defs>` so far, and the ids of what is in them.
#[derive(Debug)]
struct Writer {
    census: Census,
    defs: String,
    /// Glyph id → the element id in `defs` (`None`: the glyph has no outline, such as a
    /// space).
    glyphs: HashMap<u16, Option<String>>,
    /// Shared outlines (path data after the first point) → element id.
    shapes: HashMap<String, String>,
    /// Shared groups' items ([`group_key`]) → element id.
    groups: HashMap<String, String>,
    /// Sprite half-sides (bits of the `f32`) → the id of the clip path of that square.
    clips: HashMap<u32, String>,
}

impl Writer {
    fn items(
        &mut self,
        out: &mut String,
        items: &[Item],
        sprite: Sprite,
    ) -> Result<(), RenderError> {
        for item in items {
            self.item(out, item, sprite)?;
        }
        Ok(())
    }

    fn item(&mut self, out: &mut String, item: &Item, sprite: Sprite) -> Result<(), RenderError> {
        match item {
            Item::Path {
                segments,
                fill,
                stroke,
            } => {
                if fill.is_none() && stroke.is_none() {
                    return Ok(());
                }
                let Some((first, rest)) = local_path(segments) else {
                    return Ok(());
                };
                if self.census.shared_shape(&rest) {
                    let id = self.shape(rest);
                    out.push_str("<use href=\"#");
                    out.push_str(&id);
                    out.push_str("\" x=\"");
                    number(out, first.0);
                    out.push_str("\" y=\"");
                    number(out, first.1);
                    out.push('"');
                } else {
                    out.push_str("<path d=\"M");
                    let (x, y) = (hundredths(first.0), hundredths(first.1));
                    write_hundredths(out, x);
                    if y >= 0 {
                        out.push(' ');
                    }
                    write_hundredths(out, y);
                    out.push_str(&rest);
                    out.push('"');
                }
                match fill {
                    Some(color) => paint_attributes(out, "fill", *color),
                    None => out.push_str(" fill=\"none\""),
                }
                if let Some(stroke) = stroke {
                    paint_attributes(out, "stroke", stroke.color);
                    out.push_str(" stroke-width=\"");
                    number(out, stroke.width);
                    out.push('"');
                }
                out.push_str("/>");
            }
            Item::Text {
                at,
                anchor,
                size,
                color,
                text,
            } => {
                let (x, baseline) = text_origin(*at, *anchor, *size, text)?;
                let run = Run {
                    text,
                    size: *size,
                    color: *color,
                    x,
                    baseline,
                };
                self.text(out, &run, sprite)?;
            }
            Item::Group { at, radius, items } => {
                // The raster back end draws the items into a sprite, their origin `half` pixels
                // from its corner, and pastes the sprite's corner at `(at - half).round()` in
                // the coordinates of the sprite (or picture) the group is drawn into; what
                // reaches beyond the sprite is cut off.
                let half = sprite_half(*radius);
                let origin = |v: f32| (v + sprite.shift - half).round() + half - sprite.shift;
                out.push_str("<g transform=\"translate(");
                number(out, origin(at.0));
                out.push(' ');
                number(out, origin(at.1));
                out.push_str(")\"");
                if !within(items, half)? {
                    let id = self.clip(half);
                    out.push_str(" clip-path=\"url(#");
                    out.push_str(&id);
                    out.push_str(")\"");
                }
                out.push('>');
                let inside = Sprite { shift: half };
                let key = group_key(*radius, items);
                if self.census.shared_group(&key) {
                    let id = match self.groups.get(&key) {
                        Some(id) => id.clone(),
                        None => {
                            let mut content = String::new();
                            self.items(&mut content, items, inside)?;
                            let id = format!("p{}", self.groups.len());
                            let _ = write!(self.defs, "<g id=\"{id}\">{content}</g>");
                            self.groups.insert(key, id.clone());
                            id
                        }
                    };
                    out.push_str("<use href=\"#");
                    out.push_str(&id);
                    out.push_str("\"/>");
                } else {
                    self.items(out, items, inside)?;
                }
                out.push_str("</g>");
            }
        }
        Ok(())
    }

    /// The id of the shared outline whose path data after its first point is `rest` (written in
    /// `<defs>` on first use, its first point at (0, 0)).
    fn shape(&mut self, rest: String) -> String {
        if let Some(id) = self.shapes.get(&rest) {
            return id.clone();
        }
        let id = format!("s{}", self.shapes.len());
        let _ = write!(self.defs, "<path id=\"{id}\" d=\"M0 0{rest}\"/>");
        self.shapes.insert(rest, id.clone());
        id
    }

    /// The id of the clip path of a sprite's square, `half` on each side of its origin.
    fn clip(&mut self, half: f32) -> String {
        if let Some(id) = self.clips.get(&half.to_bits()) {
            return id.clone();
        }
        let id = format!("c{}", self.clips.len());
        let _ = write!(self.defs, "<clipPath id=\"{id}\"><rect x=\"");
        number(&mut self.defs, -half);
        self.defs.push_str("\" y=\"");
        number(&mut self.defs, -half);
        self.defs.push_str("\" width=\"");
        number(&mut self.defs, 2.0 * half);
        self.defs.push_str("\" height=\"");
        number(&mut self.defs, 2.0 * half);
        self.defs.push_str("\"/></clipPath>");
        self.clips.insert(half.to_bits(), id.clone());
        id
    }

    /// A text's glyphs: a `<g>` labelled with the text, moved to the first glyph's pen and
    /// scaled from [`GLYPH_SIZE`] to the text's size, with a `<use>` of each glyph that has an
    /// outline.
    fn text(&mut self, out: &mut String, run: &Run<'_>, sprite: Sprite) -> Result<(), RenderError> {
        let Run {
            text,
            size,
            color,
            mut x,
            baseline,
        } = *run;
        let scaled = font()?.as_scaled(PxScale::from(size));
        // The raster back end rounds each pen position to a quarter pixel, in the coordinates
        // of what it draws into.
        let pen = |v: f32| quarter_pixel(v + sprite.shift) - sprite.shift;
        let mut glyphs = Vec::new();
        let mut previous = None;
        for ch in text.chars() {
            let id = scaled.glyph_id(ch);
            if let Some(p) = previous {
                x += scaled.kern(p, id);
            }
            if let Some(href) = self.glyph(id)? {
                glyphs.push((href, pen(x)));
            }
            x += scaled.h_advance(id);
            previous = Some(id);
        }
        let mut k = f64::from(size) / f64::from(GLYPH_SIZE);
        if !(k.is_finite() && k > 0.0) {
            // Nothing to see (nor does the raster back end draw anything).
            glyphs.clear();
            k = 1.0;
        }
        let x0 = glyphs.first().map_or(pen(x), |(_, x)| *x);
        out.push_str("<g aria-label=\"");
        escape_into(out, text);
        out.push('"');
        paint_attributes(out, "fill", color);
        out.push_str(" transform=\"translate(");
        number(out, x0);
        out.push(' ');
        number(out, pen(baseline));
        out.push_str(") scale(");
        // Exact enough that the last glyph of a long line is within a hundredth of a pixel.
        fixed(out, k, 6);
        out.push_str(")\">");
        for (href, x) in glyphs {
            out.push_str("<use href=\"#");
            out.push_str(&href);
            out.push('"');
            let local = f64::from(x - x0) / k;
            if (local * 100.0).round() != 0.0 {
                out.push_str(" x=\"");
                fixed(out, local, 2);
                out.push('"');
            }
            out.push_str("/>");
        }
        out.push_str("</g>");
        Ok(())
    }

    /// The id of glyph `id`'s outline in `<defs>` (written there on first use) at
    /// [`GLYPH_SIZE`], with its pen at (0, 0); `None` when the glyph has no outline.
    fn glyph(&mut self, id: GlyphId) -> Result<Option<String>, RenderError> {
        if let Some(known) = self.glyphs.get(&id.0) {
            return Ok(known.clone());
        }
        let font = font()?;
        let scaled = font.as_scaled(PxScale::from(GLYPH_SIZE));
        let (h, v) = (scaled.h_scale_factor(), scaled.v_scale_factor());
        let name = font
            .outline(id)
            .filter(|outline| !outline.curves.is_empty())
            .map(|outline| {
                let name = format!("g{}", self.glyphs.len());
                // Font units, y up, to pixels, y down, the pen at (0, 0).
                let scale = |p: ab_glyph::Point| (p.x * h, -p.y * v);
                let mut d = PathData::default();
                let mut end: Option<ab_glyph::Point> = None;
                for curve in &outline.curves {
                    let start = match curve {
                        OutlineCurve::Line(p0, _)
                        | OutlineCurve::Quad(p0, _, _)
                        | OutlineCurve::Cubic(p0, _, _, _) => *p0,
                    };
                    // The curves come contour after contour, each starting where the last
                    // ended.
                    if end != Some(start) {
                        if end.is_some() {
                            d.close();
                        }
                        d.command('M', &[scale(start)]);
                    }
                    end = Some(match curve {
                        OutlineCurve::Line(_, p1) => {
                            d.command('L', &[scale(*p1)]);
                            *p1
                        }
                        OutlineCurve::Quad(_, c, p2) => {
                            d.command('Q', &[scale(*c), scale(*p2)]);
                            *p2
                        }
                        OutlineCurve::Cubic(_, c1, c2, p3) => {
                            d.command('C', &[scale(*c1), scale(*c2), scale(*p3)]);
                            *p3
                        }
                    });
                }
                d.close();
                let _ = write!(self.defs, "<path id=\"{name}\" d=\"{}\"/>", d.text);
                name
            });
        self.glyphs.insert(id.0, name.clone());
        Ok(name)
    }
}

/// Whether everything `items` draw lies inside a sprite's square, `half` on each side of the
/// origin (an estimate that errs towards "no": then the square clips, as the raster back end's
/// sprite does, which changes nothing where nothing reaches beyond it).
fn within(items: &[Item], half: f32) -> Result<bool, RenderError> {
    let inside =
        |x0: f32, y0: f32, x1: f32, y1: f32| x0 >= -half && y0 >= -half && x1 <= half && y1 <= half;
    for item in items {
        let fits = match item {
            Item::Path {
                segments, stroke, ..
            } => {
                // Control points included; a pixel for anti-aliasing.
                let margin = stroke.map_or(0.0, |s| s.width / 2.0) + 1.0;
                let points = segments.iter().flat_map(|s| match *s {
                    Segment::Move(p) | Segment::Line(p) => [Some(p), None],
                    Segment::Quad(c, p) => [Some(c), Some(p)],
                    Segment::Close => [None, None],
                });
                let mut fits = true;
                for (x, y) in points.flatten() {
                    fits &= inside(x - margin, y - margin, x + margin, y + margin);
                }
                fits
            }
            Item::Text {
                at,
                anchor,
                size,
                text,
                ..
            } => {
                // Letters stay within a size above and below the middle line, and a quarter of
                // a size beyond their advances.
                let (x, _) = text_origin(*at, *anchor, *size, text)?;
                let width = text_width(text, *size)?;
                inside(
                    x - size / 4.0,
                    at.1 - size,
                    x + width + size / 4.0,
                    at.1 + size,
                )
            }
            Item::Group { at, radius, .. } => {
                let r = sprite_half(*radius) + 1.0;
                inside(at.0 - r, at.1 - r, at.0 + r, at.1 + r)
            }
        };
        if !fits {
            return Ok(false);
        }
    }
    Ok(true)
}

/// A path's first point and its path data after that point (`M` to it left out), every point
/// relative to the one before as measured from the first point, so that copies of an outline
/// in other places have the same data. `None` when it draws nothing (as tiny-skia draws
/// nothing of it).
fn local_path(segments: &[Segment]) -> Option<(Point, String)> {
    let first = match segments.first() {
        Some(Segment::Move(p)) => *p,
        _ => (0.0, 0.0),
    };
    let local = |(x, y): Point| (x - first.0, y - first.1);
    let mut d = PathData::default();
    d.command('M', &[(0.0, 0.0)]);
    let mut segments = segments.iter();
    if matches!(segments.as_slice().first(), Some(Segment::Move(_))) {
        segments.next();
    }
    for s in segments {
        match *s {
            Segment::Move(p) => d.command('M', &[local(p)]),
            Segment::Line(p) => d.command('L', &[local(p)]),
            Segment::Quad(c, p) => d.command('Q', &[local(c), local(p)]),
            Segment::Close => d.close(),
        }
    }
    if !d.drawn {
        return None;
    }
    let rest = d.text.strip_prefix("M0 0").unwrap_or(&d.text).to_string();
    Some((first, rest))
}

/// Path data written compactly: every command after the first relative to the current point
/// (as rounded to hundredths, so that rounding errors do not add up), repeated command letters
/// left out, numbers separated only where needed.
#[derive(Debug, Default)]
struct PathData {
    text: String,
    /// The current point and the current sub-path's start, in hundredths of a pixel.
    current: (i64, i64),
    start: (i64, i64),
    /// The last command letter written (`None`: none yet, or after a close).
    last: Option<char>,
    /// Whether anything but moves has been written.
    drawn: bool,
}

impl PathData {
    fn command(&mut self, letter: char, points: &[Point]) {
        let first = self.text.is_empty();
        let letter = if first {
            letter
        } else {
            letter.to_ascii_lowercase()
        };
        // After a move, further coordinate pairs are lines: `m` then `l` needs no letter.
        let implied = match self.last {
            Some(last) => last == letter || (last == 'm' && letter == 'l'),
            None => false,
        };
        if !implied {
            self.text.push(letter);
        }
        let origin = if first { (0, 0) } else { self.current };
        let mut need_separator = implied;
        for &(x, y) in points {
            let p = (hundredths(x), hundredths(y));
            for v in [p.0 - origin.0, p.1 - origin.1] {
                if need_separator && v >= 0 {
                    self.text.push(' ');
                }
                write_hundredths(&mut self.text, v);
                need_separator = true;
            }
        }
        // The last point of a command is the new current point.
        if let Some(&(x, y)) = points.last() {
            self.current = (hundredths(x), hundredths(y));
        }
        if letter.eq_ignore_ascii_case(&'M') {
            self.start = self.current;
        } else {
            self.drawn = true;
        }
        self.last = Some(letter);
    }

    fn close(&mut self) {
        if self.text.is_empty() || self.last.is_none() {
            return;
        }
        self.text.push('z');
        self.current = self.start;
        self.last = None;
    }
}

fn hundredths(v: f32) -> i64 {
    (f64::from(v) * 100.0).round() as i64
}

/// A number of hundredths written with at most two decimals, trailing zeros and a leading zero
/// left out (`-0.5` → `-.5`).
fn write_hundredths(out: &mut String, v: i64) {
    if v < 0 {
        out.push('-');
    }
    let v = v.unsigned_abs();
    let (whole, fraction) = (v / 100, v % 100);
    if whole != 0 || fraction == 0 {
        let _ = write!(out, "{whole}");
    }
    if fraction != 0 {
        if fraction % 10 == 0 {
            let _ = write!(out, ".{}", fraction / 10);
        } else {
            let _ = write!(out, ".{fraction:02}");
        }
    }
}

/// A number in an attribute: at most two decimals, trailing zeros left out (`0.5`, `12`, `-3.25`).
fn number(out: &mut String, v: f32) {
    fixed(out, f64::from(v), 2);
}

/// A number with at most `decimals` decimals, trailing zeros left out.
fn fixed(out: &mut String, v: f64, decimals: usize) {
    let unit = 10f64.powi(decimals as i32);
    let n = (v * unit).round() as i64;
    if n < 0 {
        out.push('-');
    }
    let n = n.unsigned_abs();
    let unit = unit as u64;
    let _ = write!(out, "{}", n / unit);
    let fraction = n % unit;
    if fraction != 0 {
        let digits = format!("{fraction:0decimals$}");
        out.push('.');
        out.push_str(digits.trim_end_matches('0'));
    }
}

/// ` fill="#rrggbb"` (or `stroke`), with ` fill-opacity="…"` when the colour is translucent.
fn paint_attributes(out: &mut String, name: &str, Color(r, g, b, a): Color) {
    let _ = write!(out, " {name}=\"#{r:02x}{g:02x}{b:02x}\"");
    if a != 255 {
        let _ = write!(out, " {name}-opacity=\"");
        // Three decimals tell all 256 levels apart.
        let thousandths = (u32::from(a) * 1000 + 127) / 255;
        if thousandths == 0 {
            out.push('0');
        } else {
            let digits = format!("{thousandths:03}");
            let _ = write!(out, ".{}", digits.trim_end_matches('0'));
        }
        out.push('"');
    }
}

/// `text` with the XML special characters escaped, for attribute values and element content.
fn escape_into(out: &mut String, text: &str) {
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 does not allow (control characters other than tab and
            // newlines, U+FFFE and U+FFFF) are left out.
            c if (c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
                || matches!(c, '\u{fffe}' | '\u{ffff}') => {}
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_compact() {
        let mut out = String::new();
        for v in [0, 5, -5, 50, 100, 125, -1230, 7] {
            write_hundredths(&mut out, v);
            out.push(' ');
        }
        assert_eq!(out, "0 .05 -.05 .5 1 1.25 -12.3 .07 ");
        let mut out = String::new();
        for v in [0.0, 0.5, 12.0, -3.254, 799.999] {
            number(&mut out, v);
            out.push(' ');
        }
        assert_eq!(out, "0 0.5 12 -3.25 800 ");
        let mut out = String::new();
        for v in [2.2, 1.0 / 3.0, -0.0000004, 7.25] {
            fixed(&mut out, v, 6);
            out.push(' ');
        }
        assert_eq!(out, "2.2 0.333333 0 7.25 ");
    }

    #[test]
    fn path_data_is_relative_after_the_first_point() {
        let (first, rest) = local_path(&[
            Segment::Move((10.0, 20.0)),
            Segment::Line((15.5, 20.0)),
            Segment::Line((15.5, 10.25)),
            Segment::Quad((0.0, 0.0), (10.0, 20.0)),
            Segment::Close,
            Segment::Move((1.0, 1.0)),
            Segment::Line((2.0, 2.0)),
        ])
        .expect("drawn");
        assert_eq!(first, (10.0, 20.0));
        assert_eq!(rest, "l5.5 0 0-9.75q-15.5-10.25-5.5 9.75zm-9-19 1 1");
        // The same outline elsewhere has the same data.
        let moved = local_path(&[
            Segment::Move((110.25, 20.0)),
            Segment::Line((115.75, 20.0)),
            Segment::Line((115.75, 10.25)),
            Segment::Quad((100.25, 0.0), (110.25, 20.0)),
            Segment::Close,
            Segment::Move((101.25, 1.0)),
            Segment::Line((102.25, 2.0)),
        ]);
        assert_eq!(moved, Some(((110.25, 20.0), rest)));
        assert_eq!(local_path(&[Segment::Move((1.0, 1.0))]), None);
        assert_eq!(local_path(&[]), None);
    }

    #[test]
    fn colours_and_opacity() {
        let mut out = String::new();
        paint_attributes(&mut out, "fill", Color(0x12, 0xab, 0, 255));
        paint_attributes(&mut out, "stroke", Color(0, 0, 0, 128));
        paint_attributes(&mut out, "fill", Color(0, 0, 0, 0));
        assert_eq!(
            out,
            " fill=\"#12ab00\" stroke=\"#000000\" stroke-opacity=\".502\" fill=\"#000000\" \
             fill-opacity=\"0\""
        );
    }

    #[test]
    fn special_characters_are_escaped() {
        let mut out = String::new();
        escape_into(&mut out, "<a href=\"x\">'&'</a>\u{1}\u{ffff}");
        assert_eq!(
            out,
            "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;"
        );
    }
}
