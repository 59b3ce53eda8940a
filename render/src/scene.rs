//! Scenes: what a picture shows, as plain data (shapes, text, colours), before any pixel.
//!
//! A scene has two layers: the **board**, which depends only on the game and its options and is
//! rasterised once and cached, and the **pieces** layer (pieces, highlights, captions), drawn on
//! a copy of the cached board for every picture. Scenes print as text (`Display`), one item per
//! line with coordinates rounded to a tenth of a pixel, which is what the snapshot tests compare.

use std::fmt::{self, Display};

/// An opaque or translucent colour, straight (not premultiplied) RGBA.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Color(pub u8, pub u8, pub u8, pub u8);

impl Color {
    /// An opaque colour from `0xRRGGBB`.
    pub const fn hex(rgb: u32) -> Color {
        Color((rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8, 255)
    }

    /// The same colour with another opacity.
    pub const fn alpha(self, a: u8) -> Color {
        Color(self.0, self.1, self.2, a)
    }
}

impl Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.0, self.1, self.2)?;
        if self.3 != 255 {
            write!(f, "{:02x}", self.3)?;
        }
        Ok(())
    }
}

/// An outline: colour and width in pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stroke {
    /// The colour.
    pub color: Color,
    /// The width in pixels.
    pub width: f32,
}

/// A point in pixels, from the top-left corner.
pub type Point = (f32, f32);

/// One step of an outline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Segment {
    /// Start a new sub-path here.
    Move(Point),
    /// A straight line to here.
    Line(Point),
    /// A quadratic curve through a control point to here.
    Quad(Point, Point),
    /// Close the sub-path.
    Close,
}

/// How a text is placed relative to its point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// The point is the centre of the text.
    Centre,
    /// The point is the left end of the text's middle line.
    Left,
    /// The point is the right end of the text's middle line.
    Right,
}

/// Something drawn.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A shape made of segments, filled and/or outlined.
    Path {
        /// The outline.
        segments: Vec<Segment>,
        /// The fill colour, if filled.
        fill: Option<Color>,
        /// The outline stroke, if outlined.
        stroke: Option<Stroke>,
    },
    /// A line of text, vertically centred on its point.
    Text {
        /// The anchor point.
        at: Point,
        /// How the text sits on the anchor point.
        anchor: Anchor,
        /// The font size in pixels.
        size: f32,
        /// The colour.
        color: Color,
        /// The text.
        text: String,
    },
    /// Items drawn relative to a point, such as a piece. Groups that look the same are
    /// rasterised once and pasted, at whole-pixel positions.
    Group {
        /// Where the group's origin goes.
        at: Point,
        /// Half the size of the square the group's items fit in, around its origin.
        radius: f32,
        /// The items, with coordinates relative to the origin.
        items: Vec<Item>,
    },
}

impl Item {
    /// Moves the item by `(dx, dy)`.
    pub fn translated(mut self, dx: f32, dy: f32) -> Item {
        let shift = |p: &mut Point| {
            p.0 += dx;
            p.1 += dy;
        };
        match &mut self {
            Item::Path { segments, .. } => {
                for s in segments {
                    match s {
                        Segment::Move(p) | Segment::Line(p) => shift(p),
                        Segment::Quad(c, p) => {
                            shift(c);
                            shift(p);
                        }
                        Segment::Close => {}
                    }
                }
            }
            Item::Text { at, .. } => shift(at),
            Item::Group { at, .. } => shift(at),
        }
        self
    }
}

/// A whole picture: its size, background, board layer and pieces layer.
#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The background colour (opaque).
    pub background: Color,
    /// A key naming the board layer: scenes with the same key have the same board layer.
    pub board_key: String,
    /// The static board: cells, lines, coordinates.
    pub board: Vec<Item>,
    /// Everything that changes with the position.
    pub pieces: Vec<Item>,
}

impl Scene {
    /// An empty scene.
    pub fn new(width: u32, height: u32, background: Color, board_key: String) -> Scene {
        Scene {
            width,
            height,
            background,
            board_key,
            board: Vec::new(),
            pieces: Vec::new(),
        }
    }
}

/// Builders for the usual shapes.
pub mod shape {
    use super::{Color, Item, Point, Segment, Stroke};

    /// Approximates a circle by four quadratic arcs per quadrant pair (good to a tenth of a
    /// pixel at board sizes).
    pub fn circle(c: Point, r: f32, fill: Option<Color>, stroke: Option<Stroke>) -> Item {
        polygon_curved(&regular(c, r, 16, 0.0), fill, stroke, c, r)
    }

    /// A regular polygon's corners, starting at `angle` (radians, 0 = east, clockwise on
    /// screen).
    pub fn regular(c: Point, r: f32, n: usize, angle: f32) -> Vec<Point> {
        (0..n)
            .map(|i| {
                let a = angle + std::f32::consts::TAU * i as f32 / n as f32;
                (c.0 + r * a.cos(), c.1 + r * a.sin())
            })
            .collect()
    }

    fn polygon_curved(
        corners: &[Point],
        fill: Option<Color>,
        stroke: Option<Stroke>,
        c: Point,
        r: f32,
    ) -> Item {
        // A circle through the corners: quadratic curves whose control points lie on the
        // tangents, so the outline is smooth.
        let n = corners.len();
        let half = std::f32::consts::PI / n as f32;
        let k = r / half.cos();
        let mut segments = vec![Segment::Move(corners[0])];
        for i in 0..n {
            let a = std::f32::consts::TAU * (i as f32 + 0.5) / n as f32;
            let control = (c.0 + k * a.cos(), c.1 + k * a.sin());
            segments.push(Segment::Quad(control, corners[(i + 1) % n]));
        }
        segments.push(Segment::Close);
        Item::Path {
            segments,
            fill,
            stroke,
        }
    }

    /// A closed polygon.
    pub fn polygon(corners: &[Point], fill: Option<Color>, stroke: Option<Stroke>) -> Item {
        let mut segments: Vec<Segment> = Vec::with_capacity(corners.len() + 1);
        for (i, p) in corners.iter().enumerate() {
            segments.push(if i == 0 {
                Segment::Move(*p)
            } else {
                Segment::Line(*p)
            });
        }
        segments.push(Segment::Close);
        Item::Path {
            segments,
            fill,
            stroke,
        }
    }

    /// An axis-aligned rectangle.
    pub fn rect(
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        fill: Option<Color>,
        stroke: Option<Stroke>,
    ) -> Item {
        polygon(
            &[(x, y), (x + w, y), (x + w, y + h), (x, y + h)],
            fill,
            stroke,
        )
    }

    /// An axis-aligned rectangle with corners rounded by radius `r` (at most half the shorter
    /// side).
    pub fn rounded_rect(
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        r: f32,
        fill: Option<Color>,
        stroke: Option<Stroke>,
    ) -> Item {
        let r = r.min(w / 2.0).min(h / 2.0);
        let (x1, y1) = (x + w, y + h);
        Item::Path {
            segments: vec![
                Segment::Move((x + r, y)),
                Segment::Line((x1 - r, y)),
                Segment::Quad((x1, y), (x1, y + r)),
                Segment::Line((x1, y1 - r)),
                Segment::Quad((x1, y1), (x1 - r, y1)),
                Segment::Line((x + r, y1)),
                Segment::Quad((x, y1), (x, y1 - r)),
                Segment::Line((x, y + r)),
                Segment::Quad((x, y), (x + r, y)),
                Segment::Close,
            ],
            fill,
            stroke,
        }
    }

    /// An open line through the points.
    pub fn polyline(points: &[Point], stroke: Stroke) -> Item {
        let segments = points
            .iter()
            .enumerate()
            .map(|(i, p)| {
                if i == 0 {
                    Segment::Move(*p)
                } else {
                    Segment::Line(*p)
                }
            })
            .collect();
        Item::Path {
            segments,
            fill: None,
            stroke: Some(stroke),
        }
    }

    /// A line with an arrow head at its end.
    pub fn arrow(from: Point, to: Point, color: Color, width: f32) -> Vec<Item> {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-3);
        let (ux, uy) = (dx / len, dy / len);
        let head = width * 3.0;
        let base = (to.0 - ux * head, to.1 - uy * head);
        let left = (base.0 - uy * head * 0.6, base.1 + ux * head * 0.6);
        let right = (base.0 + uy * head * 0.6, base.1 - ux * head * 0.6);
        vec![
            polyline(&[from, base], Stroke { color, width }),
            polygon(&[to, left, right], Some(color), None),
        ]
    }
}

fn round(v: f32) -> f32 {
    (v * 10.0).round() / 10.0
}

impl Display for Segment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Segment::Move(p) => write!(f, "M{},{}", round(p.0), round(p.1)),
            Segment::Line(p) => write!(f, "L{},{}", round(p.0), round(p.1)),
            Segment::Quad(c, p) => write!(
                f,
                "Q{},{} {},{}",
                round(c.0),
                round(c.1),
                round(p.0),
                round(p.1)
            ),
            Segment::Close => write!(f, "Z"),
        }
    }
}

impl Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Item::Path {
                segments,
                fill,
                stroke,
            } => {
                write!(f, "path")?;
                if let Some(c) = fill {
                    write!(f, " fill={c}")?;
                }
                if let Some(s) = stroke {
                    write!(f, " stroke={}/{}", s.color, round(s.width))?;
                }
                // Long outlines (circles) are summarised by their extent.
                if segments.len() > 8 {
                    let points = segments.iter().filter_map(|s| match s {
                        Segment::Move(p) | Segment::Line(p) | Segment::Quad(_, p) => Some(*p),
                        Segment::Close => None,
                    });
                    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
                    for (x, y) in points {
                        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
                    }
                    write!(
                        f,
                        " {} segments within {},{} {},{}",
                        segments.len(),
                        round(x0),
                        round(y0),
                        round(x1),
                        round(y1)
                    )
                } else {
                    for s in segments {
                        write!(f, " {s}")?;
                    }
                    Ok(())
                }
            }
            Item::Text {
                at,
                anchor,
                size,
                color,
                text,
            } => write!(
                f,
                "text {:?} at {},{} {anchor:?} size={} {color}",
                text,
                round(at.0),
                round(at.1),
                round(*size)
            ),
            Item::Group { at, radius, items } => {
                write!(
                    f,
                    "group at {},{} radius {}:",
                    round(at.0),
                    round(at.1),
                    round(*radius)
                )?;
                for item in items {
                    write!(f, "\n  {item}")?;
                }
                Ok(())
            }
        }
    }
}

impl Display for Scene {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "scene {}x{} background={} board={}",
            self.width, self.height, self.background, self.board_key
        )?;
        writeln!(f, "[board]")?;
        for item in &self.board {
            writeln!(f, "{item}")?;
        }
        writeln!(f, "[pieces]")?;
        for item in &self.pieces {
            writeln!(f, "{item}")?;
        }
        Ok(())
    }
}
