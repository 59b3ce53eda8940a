//! Pixels: a scene rasterised with tiny-skia (anti-aliased shapes) and ab_glyph (anti-aliased
//! text in the bundled Inter font), and encoded as an 8-bit palette PNG (the `png` crate writes
//! the chunks; zlib-rs compresses the image data).
//!
//! The board layer of every scene is rasterised once per board key and kept in a process-wide
//! cache; each picture starts from a copy of it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use tiny_skia::{FillRule, Paint, PathBuilder, Pixmap, PremultipliedColorU8, Transform};

use crate::RenderError;
use crate::scene::{Anchor, Color, Item, Scene, Segment};

/// The bundled font: Inter SemiBold, SIL Open Font License 1.1 (`fonts/LICENSE-Inter.txt`).
static FONT_DATA: &[u8] = include_bytes!("../fonts/Inter-SemiBold.otf");

pub(crate) fn font() -> Result<&'static FontRef<'static>, RenderError> {
    static FONT: OnceLock<Option<FontRef<'static>>> = OnceLock::new();
    FONT.get_or_init(|| FontRef::try_from_slice(FONT_DATA).ok())
        .as_ref()
        .ok_or(RenderError::Font)
}

fn board_cache() -> &'static Mutex<HashMap<String, Arc<Pixmap>>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<Pixmap>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Rasterises a scene.
///
/// # Errors
/// The scene's size is zero or too large, or the font cannot be read.
pub fn rasterise(scene: &Scene) -> Result<Pixmap, RenderError> {
    let key = format!("{}|{}x{}", scene.board_key, scene.width, scene.height);
    let cached = board_cache()
        .lock()
        .map_err(|_| RenderError::Poisoned)?
        .get(&key)
        .cloned();
    let board = match cached {
        Some(board) => board,
        None => {
            let mut pixmap = Pixmap::new(scene.width, scene.height).ok_or(RenderError::Size {
                width: scene.width,
                height: scene.height,
            })?;
            let Color(r, g, b, a) = scene.background;
            pixmap.fill(tiny_skia::Color::from_rgba8(r, g, b, a));
            draw(&mut pixmap, &scene.board)?;
            let board = Arc::new(pixmap);
            board_cache()
                .lock()
                .map_err(|_| RenderError::Poisoned)?
                .insert(key, Arc::clone(&board));
            board
        }
    };
    let mut pixmap = (*board).clone();
    draw(&mut pixmap, &scene.pieces)?;
    Ok(pixmap)
}

fn sprite_cache() -> &'static Mutex<HashMap<String, Arc<Pixmap>>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<Pixmap>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The rasterised group, from the cache or drawn now; its origin is at its centre pixel.
fn sprite(radius: f32, items: &[Item]) -> Result<Arc<Pixmap>, RenderError> {
    let key: String = items.iter().map(|i| format!("{i}\n")).collect();
    if let Some(hit) = sprite_cache()
        .lock()
        .map_err(|_| RenderError::Poisoned)?
        .get(&key)
    {
        return Ok(Arc::clone(hit));
    }
    let half = sprite_half(radius);
    let side = (2.0 * half) as u32;
    let mut pixmap = Pixmap::new(side, side).ok_or(RenderError::Size {
        width: side,
        height: side,
    })?;
    let shifted: Vec<Item> = items
        .iter()
        .cloned()
        .map(|i| i.translated(half, half))
        .collect();
    draw(&mut pixmap, &shifted)?;
    let pixmap = Arc::new(pixmap);
    let mut cache = sprite_cache().lock().map_err(|_| RenderError::Poisoned)?;
    if cache.len() > 4096 {
        cache.clear();
    }
    cache.insert(key, Arc::clone(&pixmap));
    Ok(pixmap)
}

/// Half the side of the square sprite a group of `radius` is rasterised into (a whole number of
/// pixels, with a margin for anti-aliasing): the group's origin is this far from the sprite's
/// top-left corner, which is pasted at `(at - half).round()`.
pub(crate) fn sprite_half(radius: f32) -> f32 {
    radius.ceil() + 2.0
}

/// Source-over compositing of a premultiplied sprite at a whole-pixel offset.
fn paste(pixmap: &mut Pixmap, sprite: &Pixmap, x0: i32, y0: i32) {
    let (w, h) = (pixmap.width() as i32, pixmap.height() as i32);
    let sw = sprite.width() as i32;
    let src = sprite.data();
    let dst = pixmap.data_mut();
    for sy in 0..sprite.height() as i32 {
        let y = y0 + sy;
        if y < 0 || y >= h {
            continue;
        }
        for sx in 0..sw {
            let x = x0 + sx;
            if x < 0 || x >= w {
                continue;
            }
            let s = ((sy * sw + sx) * 4) as usize;
            let alpha = src[s + 3];
            if alpha == 0 {
                continue;
            }
            let d = ((y * w + x) * 4) as usize;
            if alpha == 255 {
                dst[d..d + 4].copy_from_slice(&src[s..s + 4]);
            } else {
                let keep = 255 - u32::from(alpha);
                for k in 0..4 {
                    let v = u32::from(src[s + k]) + (u32::from(dst[d + k]) * keep + 127) / 255;
                    dst[d + k] = v.min(255) as u8;
                }
            }
        }
    }
}

fn paint(color: Color) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color_rgba8(color.0, color.1, color.2, color.3);
    paint.anti_alias = true;
    paint
}

fn draw(pixmap: &mut Pixmap, items: &[Item]) -> Result<(), RenderError> {
    for item in items {
        match item {
            Item::Path {
                segments,
                fill,
                stroke,
            } => {
                let mut pb = PathBuilder::new();
                for s in segments {
                    match *s {
                        Segment::Move((x, y)) => pb.move_to(x, y),
                        Segment::Line((x, y)) => pb.line_to(x, y),
                        Segment::Quad((cx, cy), (x, y)) => pb.quad_to(cx, cy, x, y),
                        Segment::Close => pb.close(),
                    }
                }
                let Some(path) = pb.finish() else { continue };
                if let Some(color) = fill {
                    pixmap.fill_path(
                        &path,
                        &paint(*color),
                        FillRule::Winding,
                        Transform::identity(),
                        None,
                    );
                }
                if let Some(stroke) = stroke {
                    let style = tiny_skia::Stroke {
                        width: stroke.width,
                        line_cap: tiny_skia::LineCap::Round,
                        line_join: tiny_skia::LineJoin::Round,
                        ..tiny_skia::Stroke::default()
                    };
                    pixmap.stroke_path(
                        &path,
                        &paint(stroke.color),
                        &style,
                        Transform::identity(),
                        None,
                    );
                }
            }
            Item::Text {
                at,
                anchor,
                size,
                color,
                text,
            } => draw_text(pixmap, *at, *anchor, *size, *color, text)?,
            Item::Group { at, radius, items } => {
                let sprite = sprite(*radius, items)?;
                let half = (sprite.width() / 2) as f32;
                paste(
                    pixmap,
                    &sprite,
                    (at.0 - half).round() as i32,
                    (at.1 - half).round() as i32,
                );
            }
        }
    }
    Ok(())
}

/// The width of a text in pixels at `size`.
///
/// # Errors
/// The bundled font cannot be read.
pub fn text_width(text: &str, size: f32) -> Result<f32, RenderError> {
    let font = font()?.as_scaled(PxScale::from(size));
    let mut width = 0.0;
    let mut previous = None;
    for ch in text.chars() {
        let id = font.glyph_id(ch);
        if let Some(p) = previous {
            width += font.kern(p, id);
        }
        width += font.h_advance(id);
        previous = Some(id);
    }
    Ok(width)
}

/// The characters of `text` that the bundled font has no glyph for (spaces aside).
///
/// # Errors
/// The bundled font cannot be read.
pub fn missing_glyphs(text: &str) -> Result<Vec<char>, RenderError> {
    let font = font()?;
    Ok(text
        .chars()
        .filter(|c| !c.is_whitespace() && font.glyph_id(*c).0 == 0)
        .collect())
}

/// A glyph's coverage, rasterised once per glyph, size and quarter-pixel pen offset, with the
/// position of its top-left pixel relative to the whole-pixel pen position.
#[derive(Debug)]
struct GlyphMask {
    left: i32,
    top: i32,
    width: usize,
    coverage: Vec<f32>,
}

/// A glyph's coverage is rounded to eighths. Text is most of what a PNG of a board costs (the
/// anti-aliased edges of letters are where the compressor finds no repeats): with coverage in
/// eighths, letters of one colour on one background use nine shades instead of hundreds, which
/// makes the pictures about 8% smaller; side by side at three times the size, the two cannot be
/// told apart (four steps can: the curves turn jagged).
const COVERAGE_STEPS: f32 = 8.0;

/// Glyph id, size (bits of the `f32`), and the pen's x and y fractions in quarter pixels.
type GlyphKey = (u16, u32, u8, u8);

fn glyph_cache() -> &'static Mutex<HashMap<GlyphKey, Arc<GlyphMask>>> {
    static CACHE: OnceLock<Mutex<HashMap<GlyphKey, Arc<GlyphMask>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The whole-pixel pen position and the mask of glyph `id` at `size` with its pen at (x, y):
/// from the cache, or drawn now. The pen's fractions are rounded to a quarter pixel, a
/// difference no one can see.
fn glyph_mask(
    id: ab_glyph::GlyphId,
    size: f32,
    x: f32,
    y: f32,
) -> Result<(i32, i32, Arc<GlyphMask>), RenderError> {
    let quarters = |v: f32| {
        let q = (v * 4.0).round();
        ((q / 4.0).floor() as i32, q.rem_euclid(4.0) as u8)
    };
    let ((pen_x, fx), (pen_y, fy)) = (quarters(x), quarters(y));
    let key = (id.0, size.to_bits(), fx, fy);
    if let Some(hit) = glyph_cache()
        .lock()
        .map_err(|_| RenderError::Poisoned)?
        .get(&key)
    {
        return Ok((pen_x, pen_y, Arc::clone(hit)));
    }
    let pen = ab_glyph::point(f32::from(fx) / 4.0, f32::from(fy) / 4.0);
    let glyph = id.with_scale_and_position(PxScale::from(size), pen);
    let mask = match font()?.outline_glyph(glyph) {
        Some(outlined) => {
            let bounds = outlined.px_bounds();
            let width = bounds.width() as usize;
            let mut coverage = vec![0.0; width * bounds.height() as usize];
            outlined.draw(|gx, gy, c| {
                if let Some(cell) = coverage.get_mut(gy as usize * width + gx as usize) {
                    *cell = (c.clamp(0.0, 1.0) * COVERAGE_STEPS).round() / COVERAGE_STEPS;
                }
            });
            GlyphMask {
                left: bounds.min.x as i32,
                top: bounds.min.y as i32,
                width,
                coverage,
            }
        }
        None => GlyphMask {
            left: 0,
            top: 0,
            width: 0,
            coverage: Vec::new(),
        },
    };
    let mask = Arc::new(mask);
    let mut cache = glyph_cache().lock().map_err(|_| RenderError::Poisoned)?;
    if cache.len() > 8192 {
        cache.clear();
    }
    cache.insert(key, Arc::clone(&mask));
    Ok((pen_x, pen_y, mask))
}

/// The height of a capital at `size`, to centre text on its anchor.
fn cap_height(size: f32) -> Result<f32, RenderError> {
    let font = font()?;
    let scaled = font.as_scaled(PxScale::from(size));
    Ok(font
        .outline_glyph(scaled.scaled_glyph('H'))
        .map_or(size * 0.7, |g| g.px_bounds().height()))
}

/// Where a text's first glyph starts: the pen's x (from the anchor and the text's width, with
/// kerning) and the baseline's y (the capital height centred on the anchor's y).
pub(crate) fn text_origin(
    at: (f32, f32),
    anchor: Anchor,
    size: f32,
    text: &str,
) -> Result<(f32, f32), RenderError> {
    let width = text_width(text, size)?;
    let x = match anchor {
        Anchor::Centre => at.0 - width / 2.0,
        Anchor::Left => at.0,
        Anchor::Right => at.0 - width,
    };
    // Centre the capital height on the anchor's y.
    let baseline = at.1 + cap_height(size)? / 2.0;
    Ok((x, baseline))
}

/// A glyph's pen position as drawn: rounded to a quarter pixel (see [`glyph_mask`]).
pub(crate) fn quarter_pixel(v: f32) -> f32 {
    (v * 4.0).round() / 4.0
}

fn draw_text(
    pixmap: &mut Pixmap,
    at: (f32, f32),
    anchor: Anchor,
    size: f32,
    color: Color,
    text: &str,
) -> Result<(), RenderError> {
    let scaled = font()?.as_scaled(PxScale::from(size));
    let (mut x, baseline) = text_origin(at, anchor, size, text)?;
    let (w, h) = (pixmap.width() as i32, pixmap.height() as i32);
    let pixels = pixmap.pixels_mut();
    let opacity = f32::from(color.3) / 255.0;
    let mut previous = None;
    for ch in text.chars() {
        let id = scaled.glyph_id(ch);
        if let Some(p) = previous {
            x += scaled.kern(p, id);
        }
        let (pen_x, pen_y, mask) = glyph_mask(id, size, x, baseline)?;
        x += scaled.h_advance(id);
        previous = Some(id);
        for (gy, row) in mask.coverage.chunks(mask.width.max(1)).enumerate() {
            let py = pen_y + mask.top + gy as i32;
            if py < 0 || py >= h {
                continue;
            }
            for (gx, &coverage) in row.iter().enumerate() {
                let px = pen_x + mask.left + gx as i32;
                if coverage <= 0.0 || px < 0 || px >= w {
                    continue;
                }
                let i = (py * w + px) as usize;
                pixels[i] = blend(pixels[i], color, coverage * opacity);
            }
        }
    }
    Ok(())
}

/// Source-over blending of a straight colour with coverage `alpha` onto a premultiplied pixel.
fn blend(dst: PremultipliedColorU8, color: Color, alpha: f32) -> PremultipliedColorU8 {
    let mix = |d: u8, s: u8| (f32::from(s) * alpha + f32::from(d) * (1.0 - alpha)).round() as u8;
    let a = mix(dst.alpha(), 255);
    let (r, g, b) = (
        mix(dst.red(), color.0).min(a),
        mix(dst.green(), color.1).min(a),
        mix(dst.blue(), color.2).min(a),
    );
    PremultipliedColorU8::from_rgba(r, g, b, a).unwrap_or(dst)
}

/// Encodes an opaque pixmap as an 8-bit palette PNG.
///
/// The palette is adaptive: pixels are counted in a 15-bit colour histogram, the 256 most
/// frequent bins become the palette (each with the average colour of its pixels, so flat areas
/// keep their exact colour), and every other bin maps to its nearest palette entry. Boards are
/// made of a few flat colours and their anti-aliased edges, so the loss is invisible.
///
/// # Errors
/// The encoder failed.
pub fn encode_png(pixmap: &Pixmap) -> Result<Vec<u8>, RenderError> {
    let (palette, raw) = quantise(pixmap.data(), pixmap.width() as usize);
    let data = compress(&raw)?;
    let mut out = Vec::with_capacity(data.len() + 1024);
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(palette);
    let encoding = |e: png::EncodingError| RenderError::Encode(e.to_string());
    let mut writer = encoder.write_header().map_err(encoding)?;
    writer
        .write_chunk(png::chunk::IDAT, &data)
        .map_err(encoding)?;
    writer.finish().map_err(encoding)?;
    Ok(out)
}

/// The zlib level of the image data: see [`compress`].
const ZLIB_LEVEL: i32 = 4;

/// The PNG image data compressed as one zlib stream, in one call, by zlib-rs at [`ZLIB_LEVEL`].
///
/// Measured with the render benchmark (`docs/benchmarks.md`): miniz_oxide at level 1, used
/// before, left the mean Pachisi picture at 40 KB; at level 3 it took 2.8 ms per picture.
/// zlib-rs (a port of zlib-ng) at level 4 makes the pictures about 30% smaller than miniz_oxide
/// at level 1 and costs about half a millisecond more. (Going through the png crate's streaming
/// writer costs three times as much: its deflate wrapper zero-fills a 32 KB buffer for every row
/// written.)
fn compress(raw: &[u8]) -> Result<Vec<u8>, RenderError> {
    let mut out = vec![0u8; zlib_rs::compress_bound(raw.len())];
    let (data, code) =
        zlib_rs::compress_slice(&mut out, raw, zlib_rs::DeflateConfig::new(ZLIB_LEVEL));
    if code != zlib_rs::ReturnCode::Ok {
        return Err(RenderError::Encode(format!("zlib: {code:?}")));
    }
    let len = data.len();
    out.truncate(len);
    Ok(out)
}

/// Calls `f(pixel, start, length)` for each run of equal pixels of a row, left to right (a
/// pixel as a little-endian `u32`: red in the low byte).
fn for_each_run(row: &[[u8; 4]], mut f: impl FnMut(u32, usize, usize)) {
    let mut start = 0;
    while start < row.len() {
        let p = u32::from_le_bytes(row[start]);
        let mut end = start + 1;
        // Four pixels at a time while they all equal `p`, then one by one.
        let four = u128::from(p) * 0x0000_0001_0000_0001_0000_0001_0000_0001;
        let (quads, _) = row[end..].as_chunks::<4>();
        for quad in quads {
            let mut bytes = [0u8; 16];
            bytes.copy_from_slice(quad.as_flattened());
            if u128::from_le_bytes(bytes) != four {
                break;
            }
            end += 4;
        }
        while end < row.len() && u32::from_le_bytes(row[end]) == p {
            end += 1;
        }
        f(p, start, end - start);
        start = end;
    }
}

/// The 15-bit histogram bin of a pixel (read as a little-endian `u32`: red in the low byte).
fn bin(p: u32) -> usize {
    let (r, g, b) = (p & 0xff, (p >> 8) & 0xff, (p >> 16) & 0xff);
    (((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3)) as usize
}

/// Reduces opaque RGBA pixels (`width` per row) to at most 256 colours: the palette (RGB
/// triples) and the PNG image data before compression: each row of palette indices behind its
/// filter byte (0: unfiltered; with palette images, filters make the data larger).
///
/// The histogram reads every fourth row only: boards are flat colours with thin anti-aliased
/// edges, and a quarter of the rows sees every colour that matters. A colour met only in the
/// other rows is mapped to its nearest palette entry when first seen. Both passes go run by
/// run (a run: equal pixels side by side), since boards are mostly long runs of one colour.
fn quantise(rgba: &[u8], width: usize) -> (Vec<u8>, Vec<u8>) {
    let width = width.max(1);
    let mut palette = Palette::of(&[rgba], width, 256);
    let (pixels, _) = rgba.as_chunks::<4>();
    let rows = pixels.len() / width;
    // Filter bytes stay 0 (no filter).
    let mut raw = vec![0u8; rows * (width + 1)];
    for (row, out) in pixels
        .chunks_exact(width)
        .zip(raw.chunks_exact_mut(width + 1))
    {
        let out = &mut out[1..];
        for_each_run(row, |p, at, len| {
            out[at..at + len].fill(palette.index(p));
        });
    }
    (palette.rgb(), raw)
}

/// An adaptive palette of opaque pixels: the most frequent bins of a 15-bit colour histogram,
/// each with the average colour of its pixels; every other bin maps to its nearest entry
/// (found once, then remembered).
#[derive(Debug, Clone)]
pub struct Palette {
    colours: Vec<[u8; 3]>,
    lookup: Vec<u16>,
}

impl Palette {
    const BINS: usize = 1 << 15;
    const UNSET: u16 = u16::MAX;

    /// The palette of at most `max` colours (at most 256) of the pixels of `images` (RGBA,
    /// `width` per row; every fourth row is counted).
    pub fn of(images: &[&[u8]], width: usize, max: usize) -> Palette {
        let width = width.max(1);
        let mut count = vec![0u32; Self::BINS];
        let mut sum = vec![[0u32; 3]; Self::BINS];
        for rgba in images {
            let (pixels, _) = rgba.as_chunks::<4>();
            for row in pixels.chunks_exact(width).step_by(4) {
                for_each_run(row, |p, _, len| {
                    let n = len as u32;
                    let b = bin(p);
                    count[b] += n;
                    let s = &mut sum[b];
                    s[0] += (p & 0xff) * n;
                    s[1] += ((p >> 8) & 0xff) * n;
                    s[2] += ((p >> 16) & 0xff) * n;
                });
            }
        }
        let mut used: Vec<usize> = (0..Self::BINS).filter(|b| count[*b] > 0).collect();
        used.sort_unstable_by_key(|b| std::cmp::Reverse(count[*b]));
        let chosen = &used[..used.len().min(max.min(256))];
        let colours: Vec<[u8; 3]> = chosen
            .iter()
            .map(|b| {
                let n = count[*b];
                [0, 1, 2].map(|c| ((sum[*b][c] + n / 2) / n) as u8)
            })
            .collect();
        let mut lookup = vec![Self::UNSET; Self::BINS];
        for (i, b) in chosen.iter().enumerate() {
            lookup[*b] = i as u16;
        }
        Palette { colours, lookup }
    }

    /// The palette index of an opaque pixel (read as a little-endian `u32`: red in the low
    /// byte).
    pub fn index(&mut self, p: u32) -> u8 {
        let b = bin(p);
        if self.lookup[b] == Self::UNSET {
            let c = [p & 0xff, (p >> 8) & 0xff, (p >> 16) & 0xff];
            self.lookup[b] = self
                .colours
                .iter()
                .enumerate()
                .min_by_key(|(_, q)| {
                    (0..3)
                        .map(|k| (i32::from(q[k]) - c[k] as i32).pow(2))
                        .sum::<i32>()
                })
                .map_or(0, |(i, _)| i as u16);
        }
        self.lookup[b] as u8
    }

    /// How many colours it has.
    pub fn len(&self) -> usize {
        self.colours.len()
    }

    /// Whether it has no colour (made from no pixels).
    pub fn is_empty(&self) -> bool {
        self.colours.is_empty()
    }

    /// The colours as RGB triples, in index order.
    pub fn rgb(&self) -> Vec<u8> {
        self.colours.concat()
    }
}
