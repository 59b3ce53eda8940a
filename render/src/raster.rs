//! Pixels: a scene rasterised with tiny-skia (anti-aliased shapes) and ab_glyph (anti-aliased
//! text in the bundled Inter font), and encoded as PNG with the `image` crate.
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

fn font() -> Result<&'static FontRef<'static>, RenderError> {
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
    let half = radius.ceil() + 2.0;
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

fn draw_text(
    pixmap: &mut Pixmap,
    at: (f32, f32),
    anchor: Anchor,
    size: f32,
    color: Color,
    text: &str,
) -> Result<(), RenderError> {
    let font = font()?;
    let scaled = font.as_scaled(PxScale::from(size));
    let width = text_width(text, size)?;
    let mut x = match anchor {
        Anchor::Centre => at.0 - width / 2.0,
        Anchor::Left => at.0,
        Anchor::Right => at.0 - width,
    };
    // Centre the capital height on the anchor's y.
    let cap = font
        .outline_glyph(scaled.scaled_glyph('H'))
        .map_or(size * 0.7, |g| g.px_bounds().height());
    let baseline = at.1 + cap / 2.0;
    let (w, h) = (pixmap.width() as i32, pixmap.height() as i32);
    let pixels = pixmap.pixels_mut();
    let mut previous = None;
    for ch in text.chars() {
        let id = scaled.glyph_id(ch);
        if let Some(p) = previous {
            x += scaled.kern(p, id);
        }
        let glyph = id.with_scale_and_position(PxScale::from(size), ab_glyph::point(x, baseline));
        x += scaled.h_advance(id);
        previous = Some(id);
        let Some(outlined) = font.outline_glyph(glyph) else {
            continue;
        };
        let bounds = outlined.px_bounds();
        outlined.draw(|gx, gy, coverage| {
            let px = bounds.min.x as i32 + gx as i32;
            let py = bounds.min.y as i32 + gy as i32;
            if px < 0 || py < 0 || px >= w || py >= h {
                return;
            }
            let alpha = coverage.clamp(0.0, 1.0) * f32::from(color.3) / 255.0;
            let i = (py * w + px) as usize;
            pixels[i] = blend(pixels[i], color, alpha);
        });
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
    let width = pixmap.width() as usize;
    let (palette, indices) = quantise(pixmap.data(), width);
    // The image data: each row behind its filter byte (0, none), compressed in one call at
    // level 1. (Going through the png crate's streaming writer costs three times as much: its
    // deflate wrapper zero-fills a 32 KB buffer for every row written.)
    let mut raw = Vec::with_capacity(indices.len() + indices.len() / width.max(1));
    for row in indices.chunks_exact(width.max(1)) {
        raw.push(0);
        raw.extend_from_slice(row);
    }
    let data = miniz_oxide::deflate::compress_to_vec_zlib(&raw, 1);
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

fn bin(p: &[u8]) -> usize {
    (usize::from(p[0] >> 3) << 10) | (usize::from(p[1] >> 3) << 5) | usize::from(p[2] >> 3)
}

/// Reduces opaque RGBA pixels (`width` per row) to at most 256 colours: the palette (RGB
/// triples) and one index per pixel.
///
/// The histogram reads every fourth row only: boards are flat colours with thin anti-aliased
/// edges, and a quarter of the rows sees every colour that matters. A colour met only in the
/// other rows is mapped to its nearest palette entry when first seen.
fn quantise(rgba: &[u8], width: usize) -> (Vec<u8>, Vec<u8>) {
    const BINS: usize = 1 << 15;
    const UNSET: u16 = u16::MAX;
    let mut count = vec![0u32; BINS];
    let mut sum = vec![[0u32; 3]; BINS];
    // Boards are mostly long runs of one colour: count runs, not pixels.
    let mut add = |p: &[u8], n: u32| {
        let b = bin(p);
        count[b] += n;
        let s = &mut sum[b];
        s[0] += u32::from(p[0]) * n;
        s[1] += u32::from(p[1]) * n;
        s[2] += u32::from(p[2]) * n;
    };
    for row in rgba.chunks_exact(width * 4).step_by(4) {
        let mut run: Option<(&[u8], u32)> = None;
        for p in row.chunks_exact(4) {
            run = match run {
                Some((q, n)) if q == p => Some((q, n + 1)),
                Some((q, n)) => {
                    add(q, n);
                    Some((p, 1))
                }
                None => Some((p, 1)),
            };
        }
        if let Some((q, n)) = run {
            add(q, n);
        }
    }
    let mut used: Vec<usize> = (0..BINS).filter(|b| count[*b] > 0).collect();
    used.sort_unstable_by_key(|b| std::cmp::Reverse(count[*b]));
    let chosen = &used[..used.len().min(256)];
    let palette: Vec<[u8; 3]> = chosen
        .iter()
        .map(|b| {
            let n = count[*b];
            [0, 1, 2].map(|c| ((sum[*b][c] + n / 2) / n) as u8)
        })
        .collect();
    let nearest = |c: [u8; 3]| -> u16 {
        palette
            .iter()
            .enumerate()
            .min_by_key(|(_, p)| {
                (0..3)
                    .map(|k| (i32::from(p[k]) - i32::from(c[k])).pow(2))
                    .sum::<i32>()
            })
            .map_or(0, |(i, _)| i as u16)
    };
    let mut lookup = vec![UNSET; BINS];
    for (i, b) in chosen.iter().enumerate() {
        lookup[*b] = i as u16;
    }
    let mut indices = Vec::with_capacity(rgba.len() / 4);
    let mut last: (&[u8], u8) = (&[], 0);
    for p in rgba.chunks_exact(4) {
        if p != last.0 {
            let b = bin(p);
            if lookup[b] == UNSET {
                lookup[b] = nearest([p[0], p[1], p[2]]);
            }
            last = (p, lookup[b] as u8);
        }
        indices.push(last.1);
    }
    (palette.concat(), indices)
}
