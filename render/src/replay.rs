//! Animated replays (issue 19): a game's positions as a GIF or an APNG, one frame for the start
//! and one per action (rolls included: each shows its dice), the last action highlighted as on
//! the boards.
//!
//! Every frame is the board picture of [`crate::scene_with_header`], rasterised once: the same
//! header on every frame (a title and a subtitle the caller chooses, such as the game and its
//! players), not the turn and the account of the last action, which would change the top of
//! every frame; the last action is highlighted on the board. To keep files small:
//! one palette for the whole animation (the adaptive palette of the board pictures, made from
//! the first two frames and the last, with one more index kept for transparency), and after the
//! first frame only the rectangle that changed is stored, its unchanged pixels transparent, over
//! the frame before (GIF disposal "keep"; APNG blend "over", dispose "none").

use std::borrow::Cow;

use tabula_core::{AnyApplied, AnyGame};
use tiny_skia::Pixmap;

use crate::RenderError;
use crate::raster::{Palette, rasterise};

/// The file format of a replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// An animated GIF.
    Gif,
    /// An animated PNG.
    Apng,
}

/// How long the start is shown, in milliseconds.
pub const START_MS: u16 = 1_000;
/// How long a move is shown.
pub const MOVE_MS: u16 = 700;
/// How long a roll is shown (the move it allows follows).
pub const ROLL_MS: u16 = 350;
/// How long the last position is held before the animation starts again.
pub const END_MS: u16 = 3_000;

/// The palette index left transparent in frames after the first.
const CLEAR: u8 = 255;

/// One frame: a position and the action that led to it (`None` for the start).
pub type Step = (AnyGame, Option<AnyApplied>);

/// What a replay made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    /// The file.
    pub bytes: Vec<u8>,
    /// How many frames it has.
    pub frames: usize,
    /// Its width and height in pixels.
    pub size: (u32, u32),
}

/// The steps of a game: its start and the position after each action, with the action.
///
/// # Errors
/// The first action that cannot be applied, with its index (from 0).
pub fn steps(
    start: &AnyGame,
    actions: &[&str],
) -> Result<Vec<Step>, (usize, tabula_core::ActionError)> {
    let mut state = start.clone();
    let mut out = Vec::with_capacity(actions.len() + 1);
    out.push((state.clone(), None));
    for (i, action) in actions.iter().enumerate() {
        let applied = state.apply_text(action).map_err(|error| (i, error))?;
        out.push((state.clone(), Some(applied)));
    }
    Ok(out)
}

/// The replay of `steps` (at least one) as `format`, every frame under the header `title` and
/// `subtitle`; `progress(done, total)` is called after each frame.
///
/// # Errors
/// Internal failures only (see [`RenderError`]), or frames of different sizes.
pub fn animate(
    steps: &[Step],
    format: Format,
    header: (&str, &str),
    progress: impl FnMut(usize, usize),
) -> Result<Replay, RenderError> {
    animate_in(steps, format, header, &crate::labels::English, progress)
}

/// [`animate`] with the words on the boards said by `labels`.
///
/// # Errors
/// As [`animate`].
pub fn animate_in(
    steps: &[Step],
    format: Format,
    header: (&str, &str),
    labels: &dyn crate::labels::Labels,
    progress: impl FnMut(usize, usize),
) -> Result<Replay, RenderError> {
    animate_ending_in(steps, format, header, None, labels, progress)
}

/// [`animate_in`], the last frame titled `ending` when given (how the game ended: "Black
/// resigned: White wins"), so that the replay's end shows the result even where the position
/// does not.
///
/// # Errors
/// As [`animate`].
pub fn animate_ending_in(
    steps: &[Step],
    format: Format,
    (title, subtitle): (&str, &str),
    ending: Option<&str>,
    labels: &dyn crate::labels::Labels,
    mut progress: impl FnMut(usize, usize),
) -> Result<Replay, RenderError> {
    let Some(((first_state, first_last), rest)) = steps.split_first() else {
        return Err(RenderError::Size {
            width: 0,
            height: 0,
        });
    };
    let total = steps.len();
    let draw = |(state, last): &Step, at_end: bool| {
        let title = match ending {
            Some(ending) if at_end => ending,
            _ => title,
        };
        rasterise(&crate::scene_with_header_in(
            state,
            last.as_ref(),
            title,
            subtitle,
            labels,
        ))
    };
    let first = draw(&(first_state.clone(), first_last.clone()), total == 1)?;
    let (width, height) = (first.width(), first.height());
    // The palette: the start, the first action's highlight, and the end.
    let second = rest
        .first()
        .map(|step| draw(step, total == 2))
        .transpose()?;
    let last = if rest.len() > 1 {
        rest.last().map(|step| draw(step, true)).transpose()?
    } else {
        None
    };
    let mut samples = vec![first.data()];
    samples.extend(second.as_ref().map(Pixmap::data));
    samples.extend(last.as_ref().map(Pixmap::data));
    let palette = Palette::of(&samples, width as usize, usize::from(CLEAR));
    let mut out = Vec::new();
    let mut sink = match format {
        Format::Gif => Sink::gif(&mut out, width, height, &palette)?,
        Format::Apng => Sink::apng(&mut out, width, height, &palette, steps.len())?,
    };
    let mut encoder = Frames {
        palette,
        width: width as usize,
        previous: Vec::new(),
    };
    for (i, step) in steps.iter().enumerate() {
        let pixmap = if i == 0 {
            None
        } else {
            Some(draw(step, i + 1 == total)?)
        };
        let pixmap = pixmap.as_ref().unwrap_or(&first);
        if (pixmap.width(), pixmap.height()) != (width, height) {
            return Err(RenderError::Size {
                width: pixmap.width(),
                height: pixmap.height(),
            });
        }
        let delay = if i == 0 {
            START_MS
        } else if i + 1 == total {
            END_MS
        } else if step
            .1
            .as_ref()
            .is_some_and(|a| a.notation().starts_with("roll:"))
        {
            ROLL_MS
        } else {
            MOVE_MS
        };
        let frame = encoder.next(pixmap);
        sink.write(&frame, delay)?;
        progress(i + 1, total);
    }
    sink.finish()?;
    Ok(Replay {
        bytes: out,
        frames: total,
        size: (width, height),
    })
}

/// One frame as stored: a rectangle of palette indices.
struct Frame {
    left: u32,
    top: u32,
    width: u32,
    height: u32,
    /// Whether unchanged pixels are [`CLEAR`] (every frame but the first).
    over: bool,
    indices: Vec<u8>,
}

/// Turns pixmaps into frames: the first whole, the others as their changed rectangle.
struct Frames {
    palette: Palette,
    width: usize,
    /// The previous frame's pixels (RGBA bytes).
    previous: Vec<u8>,
}

/// The index of the first differing 4-byte pixel of two equal-length rows (which differ).
fn first_difference(a: &[u8], b: &[u8]) -> usize {
    let (a8, _) = a.as_chunks::<8>();
    let (b8, _) = b.as_chunks::<8>();
    let start = a8
        .iter()
        .zip(b8)
        .position(|(x, y)| x != y)
        .unwrap_or(a8.len())
        * 8;
    let offset = a[start..]
        .iter()
        .zip(&b[start..])
        .position(|(x, y)| x != y)
        .unwrap_or(0);
    (start + offset) / 4
}

/// The index of the last differing 4-byte pixel of two equal-length rows (which differ).
fn last_difference(a: &[u8], b: &[u8]) -> usize {
    let (_, a8) = a.as_rchunks::<8>();
    let (_, b8) = b.as_rchunks::<8>();
    let from_end = a8
        .iter()
        .rev()
        .zip(b8.iter().rev())
        .position(|(x, y)| x != y)
        .unwrap_or(a8.len())
        * 8;
    let end = a.len() - from_end;
    let back = a[..end]
        .iter()
        .rev()
        .zip(b[..end].iter().rev())
        .position(|(x, y)| x != y)
        .unwrap_or(0);
    (end - 1 - back) / 4
}

impl Frames {
    /// Palette indices of pixels, remembering the last pixel's index (boards are runs).
    fn map(&mut self, pixels: &[u8], out: &mut Vec<u8>, previous: Option<&[u8]>) {
        let mut last = (u32::MAX, 0u8);
        let (now, _) = pixels.as_chunks::<4>();
        match previous {
            None => {
                for pixel in now {
                    let p = u32::from_le_bytes(*pixel);
                    if p != last.0 {
                        last = (p, self.palette.index(p));
                    }
                    out.push(last.1);
                }
            }
            Some(before) => {
                let (before, _) = before.as_chunks::<4>();
                for (pixel, old) in now.iter().zip(before) {
                    if pixel == old {
                        out.push(CLEAR);
                        continue;
                    }
                    let p = u32::from_le_bytes(*pixel);
                    if p != last.0 {
                        last = (p, self.palette.index(p));
                    }
                    out.push(last.1);
                }
            }
        }
    }

    fn next(&mut self, pixmap: &Pixmap) -> Frame {
        let data = pixmap.data();
        let width = self.width.max(1);
        let stride = width * 4;
        let height = data.len() / stride;
        if self.previous.len() != data.len() {
            let mut indices = Vec::with_capacity(width * height);
            self.map(data, &mut indices, None);
            self.previous = data.to_vec();
            return Frame {
                left: 0,
                top: 0,
                width: width as u32,
                height: height as u32,
                over: false,
                indices,
            };
        }
        // The rectangle of changed pixels.
        let (mut x0, mut y0, mut x1, mut y1) = (width, height, 0, 0);
        for (y, (now, before)) in data
            .chunks_exact(stride)
            .zip(self.previous.chunks_exact(stride))
            .enumerate()
        {
            if now == before {
                continue;
            }
            x0 = x0.min(first_difference(now, before));
            x1 = x1.max(last_difference(now, before) + 1);
            y0 = y0.min(y);
            y1 = y + 1;
        }
        if x1 <= x0 || y1 <= y0 {
            // Nothing changed (a pass): one transparent pixel keeps the frame and its delay.
            return Frame {
                left: 0,
                top: 0,
                width: 1,
                height: 1,
                over: true,
                indices: vec![CLEAR],
            };
        }
        let mut indices = Vec::with_capacity((x1 - x0) * (y1 - y0));
        let previous = std::mem::take(&mut self.previous);
        for y in y0..y1 {
            let span = y * stride + x0 * 4..y * stride + x1 * 4;
            self.map(&data[span.clone()], &mut indices, Some(&previous[span]));
        }
        self.previous = previous;
        // Only the changed rows differ from what is kept.
        let rows = y0 * stride..y1 * stride;
        self.previous[rows.clone()].copy_from_slice(&data[rows]);
        Frame {
            left: x0 as u32,
            top: y0 as u32,
            width: (x1 - x0) as u32,
            height: (y1 - y0) as u32,
            over: true,
            indices,
        }
    }
}

/// Where frames are written.
enum Sink<'a> {
    Gif(gif::Encoder<&'a mut Vec<u8>>),
    Apng(png::Writer<&'a mut Vec<u8>>),
}

fn gif_error(error: gif::EncodingError) -> RenderError {
    RenderError::Encode(format!("GIF: {error}"))
}

fn png_error(error: png::EncodingError) -> RenderError {
    RenderError::Encode(format!("APNG: {error}"))
}

/// The palette as 256 RGB entries, the unused ones black.
fn full_palette(palette: &Palette) -> Vec<u8> {
    let mut rgb = palette.rgb();
    rgb.resize(256 * 3, 0);
    rgb
}

impl<'a> Sink<'a> {
    fn gif(
        out: &'a mut Vec<u8>,
        width: u32,
        height: u32,
        palette: &Palette,
    ) -> Result<Sink<'a>, RenderError> {
        let size = |n: u32| u16::try_from(n).map_err(|_| RenderError::Size { width, height });
        let mut encoder =
            gif::Encoder::new(out, size(width)?, size(height)?, &full_palette(palette))
                .map_err(gif_error)?;
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .map_err(gif_error)?;
        Ok(Sink::Gif(encoder))
    }

    fn apng(
        out: &'a mut Vec<u8>,
        width: u32,
        height: u32,
        palette: &Palette,
        frames: usize,
    ) -> Result<Sink<'a>, RenderError> {
        let mut encoder = png::Encoder::new(out, width, height);
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_palette(full_palette(palette));
        // Only the transparent index is not opaque.
        let mut alpha = vec![255u8; 256];
        alpha[usize::from(CLEAR)] = 0;
        encoder.set_trns(alpha);
        encoder.set_compression(png::Compression::Fast);
        let frames = u32::try_from(frames).map_err(|_| RenderError::Size { width, height })?;
        encoder.set_animated(frames, 0).map_err(png_error)?;
        let writer = encoder.write_header().map_err(png_error)?;
        Ok(Sink::Apng(writer))
    }

    fn write(&mut self, frame: &Frame, delay_ms: u16) -> Result<(), RenderError> {
        match self {
            Sink::Gif(encoder) => {
                let size = |n: u32| u16::try_from(n).unwrap_or(u16::MAX);
                let gif_frame = gif::Frame {
                    left: size(frame.left),
                    top: size(frame.top),
                    width: size(frame.width),
                    height: size(frame.height),
                    delay: delay_ms / 10,
                    dispose: gif::DisposalMethod::Keep,
                    transparent: frame.over.then_some(CLEAR),
                    buffer: Cow::Borrowed(&frame.indices),
                    ..gif::Frame::default()
                };
                encoder.write_frame(&gif_frame).map_err(gif_error)
            }
            Sink::Apng(writer) => {
                writer.set_frame_delay(delay_ms, 1000).map_err(png_error)?;
                writer.set_frame_position(0, 0).map_err(png_error)?;
                writer
                    .set_frame_dimension(frame.width, frame.height)
                    .map_err(png_error)?;
                writer
                    .set_frame_position(frame.left, frame.top)
                    .map_err(png_error)?;
                writer
                    .set_blend_op(if frame.over {
                        png::BlendOp::Over
                    } else {
                        png::BlendOp::Source
                    })
                    .map_err(png_error)?;
                writer
                    .set_dispose_op(png::DisposeOp::None)
                    .map_err(png_error)?;
                writer.write_image_data(&frame.indices).map_err(png_error)
            }
        }
    }

    /// Writes the end of the file.
    fn finish(self) -> Result<(), RenderError> {
        match self {
            Sink::Gif(encoder) => encoder
                .into_inner()
                .map(|_| ())
                .map_err(|e| RenderError::Encode(format!("GIF: {e}"))),
            Sink::Apng(writer) => writer.finish().map_err(png_error),
        }
    }
}
