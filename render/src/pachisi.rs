//! Pachisi pictures (`shared/rules/pachisi.md`, section 11).
//!
//! The cloth cross of 96 squares on its 19×19 grid, drawn upright as in section 2 (South at the
//! bottom), with the 12 castles crossed, each seat's private middle column tinted in its colour
//! and the Charkoni in the middle, where each seat's waiting pieces stand next to its own column
//! and its finished pieces lie in the corner towards its panel. Coordinates are written next to
//! the squares they name, exactly as typed, as a pinwheel: ranks left of the South arm, files
//! below the East arm, ranks right of the North arm, files above the West arm, and the arm
//! ends' files and ranks outside the grid. The four corners hold one panel per seat (pieces in
//! the Charkoni, on the board, home, and how far the seat has come), South's bottom right where
//! its pieces begin their round, then anticlockwise. Beside the top of the North arm: the
//! values of this turn (to use, just used, lost) and, after a throw, the six cowries as they
//! fell.
//!
//! Seats: South and North (team `SN`) have round pieces in dark and light blue, East and West
//! (team `EW`) square pieces in dark vermillion and light yellow, so partners share a shape and a
//! hue family and every seat differs from its partner by lightness; each piece carries its seat
//! letter (a stack its count). Home-bound pieces lie on their side: wider than tall, lower-case
//! letter; so do finished pieces in the Charkoni, and a legend under the West panel says so. The last action is highlighted with the shared colours of [`crate::layout`]: its
//! starting square ringed in blue, its path along the track in orange (under the pieces, its
//! arrow head over them), the moved pieces ringed in orange, captured pieces as
//! vermillion-crossed ghosts and a vermillion ring where they went back.
//!
//! Pieces, chips, cowries and panel numbers are [`Item::Group`] sprites whose items never depend
//! on where they are drawn, so each is rasterised once. Square edges fall on whole pixels, which
//! keeps the picture crisp and the PNG small.

use tabula_core::pachisi::{Event, Move, Pachisi, Roll, Square, Throws};
use tabula_core::{Action, Applied, Game, GameId, Outcome, Seat, Status};

use crate::labels::{English, Labels, Word};

use crate::layout::{self, HEADER, INK, MUTED, WIDTH};
use crate::scene::{Anchor, Color, Item, Point, Scene, Segment, Stroke, shape};

/// Side of one square of the 19×19 grid.
const CELL: f32 = 35.0;
/// Left edge of the grid. Whole-pixel square edges keep the picture crisp and the PNG small
/// (the right margin is one pixel wider than the left).
const LEFT: f32 = 27.0;
/// Top edge of the grid, just under the header.
const TOP: f32 = HEADER + 12.0;
/// The middle line of the values thrown and the cowries, beside the top of the North arm.
const BAND_Y: f32 = TOP + CELL / 2.0;
/// Room below the grid for the files of the South arm's end; also the side margins.
const MARGIN: f32 = 28.0;
/// Height of the picture.
const HEIGHT: f32 = TOP + 19.0 * CELL + MARGIN;
/// Gap between squares (the cloth shows through).
const GAP: f32 = 1.0;
/// Radius of a lone piece on a square.
const PIECE: f32 = 16.0;
/// Track position of a finished piece.
const HOME: u8 = 84;
/// The first home-bound track position.
const HOME_BOUND: u8 = 76;

const CLOTH: Color = Color::hex(0x7d2e25);
const CLOTH_EDGE: Color = Color::hex(0x4a1a15);
const SQUARE_FILL: Color = Color::hex(0xf8f0dd);
const CASTLE_FILL: Color = Color::hex(0xe9d4a8);
const CASTLE_MARK: Color = Color::hex(0xa0573f);
const CHARKONI: Color = Color::hex(0xeacb86);
const PANEL: Color = Color::hex(0xfbf7ee);
const TRACK: Color = Color::hex(0xe6dcc6);
const WHITE: Color = Color::hex(0xffffff);
const SHELL: Color = Color::hex(0xf6ead0);
const SHELL_BACK: Color = Color::hex(0xe2c58f);
const SHELL_EDGE: Color = Color::hex(0x7a5a32);

/// How a seat's pieces look.
struct Style {
    name: &'static str,
    letter: &'static str,
    home_letter: &'static str,
    fill: Color,
    text: Color,
    tint: Color,
    round: bool,
}

/// Indexed by seat: S, E, N, W.
const STYLES: [Style; 4] = [
    Style {
        name: "South",
        letter: "S",
        home_letter: "s",
        fill: Color::hex(0x0072b2),
        text: WHITE,
        tint: Color::hex(0xd4e4f0),
        round: true,
    },
    Style {
        name: "East",
        letter: "E",
        home_letter: "e",
        fill: Color::hex(0xd55e00),
        text: WHITE,
        tint: Color::hex(0xf5dcc8),
        round: false,
    },
    Style {
        name: "North",
        letter: "N",
        home_letter: "n",
        fill: Color::hex(0x56b4e9),
        text: INK,
        tint: Color::hex(0xdbeefa),
        round: true,
    },
    Style {
        name: "West",
        letter: "W",
        home_letter: "w",
        fill: Color::hex(0xf0e442),
        text: INK,
        tint: Color::hex(0xf6f0b4),
        round: false,
    },
];

fn style(seat: usize) -> &'static Style {
    &STYLES[seat & 3]
}

// ---------------------------------------------------------------------------------------------
// Geometry

/// Turns South's grid coordinates (x = file index, y = rank − 1) about the centre by 90°
/// anticlockwise per seat (section 2).
fn rotate(seat: usize, (x, y): (u8, u8)) -> (u8, u8) {
    match seat & 3 {
        0 => (x, y),
        1 => (18 - y, x),
        2 => (18 - x, 18 - y),
        _ => (y, 18 - x),
    }
}

/// The centre of grid cell (x, y), y = rank − 1.
fn centre((x, y): (u8, u8)) -> Point {
    (
        LEFT + CELL * (f32::from(x) + 0.5),
        TOP + CELL * (18.5 - f32::from(y)),
    )
}

fn square_centre(square: Square) -> Point {
    centre((square.file(), square.rank() - 1))
}

/// Where a seat's pieces wait in the Charkoni: the cell next to its own middle column.
fn waiting_spot(seat: usize) -> Point {
    centre(rotate(seat, (9, 8)))
}

/// Where a seat's finished pieces rest: the Charkoni corner towards its panel.
fn home_spot(seat: usize) -> Point {
    centre(rotate(seat, (10, 8)))
}

/// Where a piece of `seat` at `pos` is drawn (the Charkoni spots for pos 0 and 84).
fn pos_point(seat: usize, pos: u8) -> Point {
    match Square::of(Seat(seat as u8), pos) {
        Some(square) => square_centre(square),
        None if pos >= HOME => home_spot(seat),
        None => waiting_spot(seat),
    }
}

/// A seat's panel in the grid corner where its pieces start their round (South's is bottom
/// right, then anticlockwise): (x, y, w, h). The top panels leave the top row free for the
/// values thrown; all four are the same size.
fn panel_rect(seat: usize) -> (f32, f32, f32, f32) {
    let (inset, top) = (3.0, 7.0);
    let right = matches!(seat & 3, 0 | 1);
    let bottom = matches!(seat & 3, 0 | 3);
    let x = if right { 12.0 } else { 0.0 };
    let y = if bottom { 13.0 } else { 1.0 };
    (
        LEFT + CELL * x + inset,
        TOP + CELL * y + top,
        CELL * 7.0 - 2.0 * inset,
        CELL * 6.0 - top - inset,
    )
}

// ---------------------------------------------------------------------------------------------
// Shapes

/// Scales and moves every point of a path item.
fn mapped(item: Item, f: impl Fn(Point) -> Point) -> Item {
    match item {
        Item::Path {
            segments,
            fill,
            stroke,
        } => Item::Path {
            segments: segments
                .into_iter()
                .map(|s| match s {
                    Segment::Move(p) => Segment::Move(f(p)),
                    Segment::Line(p) => Segment::Line(f(p)),
                    Segment::Quad(c, p) => Segment::Quad(f(c), f(p)),
                    Segment::Close => Segment::Close,
                })
                .collect(),
            fill,
            stroke,
        },
        other => other,
    }
}

/// An axis-aligned ellipse (a scaled circle: quadratic arcs stay exact under scaling).
fn ellipse(c: Point, rx: f32, ry: f32, fill: Option<Color>, stroke: Option<Stroke>) -> Item {
    mapped(shape::circle((0.0, 0.0), 1.0, fill, stroke), |(x, y)| {
        (c.0 + x * rx, c.1 + y * ry)
    })
}

/// A rectangle with rounded corners, given as (x, y, width, height).
fn rounded(
    (x, y, w, h): (f32, f32, f32, f32),
    r: f32,
    fill: Option<Color>,
    stroke: Option<Stroke>,
) -> Item {
    shape::rounded_rect(x, y, w, h, r, fill, stroke)
}

fn text(at: Point, anchor: Anchor, size: f32, color: Color, text: impl Into<String>) -> Item {
    Item::Text {
        at,
        anchor,
        size,
        color,
        text: text.into(),
    }
}

/// A text starting at `at`, `width` wide: a cached sprite when short. Sprites are square, so a
/// long text is cheaper drawn directly than pasted from a mostly empty sprite.
fn text_sprite(at: Point, width: f32, size: f32, color: Color, words: impl Into<String>) -> Item {
    if width > 100.0 {
        return text(at, Anchor::Left, size, color, words);
    }
    let half = width / 2.0;
    Item::Group {
        at: (at.0 + half, at.1),
        radius: half.max(size),
        items: vec![text((-half, 0.0), Anchor::Left, size, color, words)],
    }
}

/// Upright (outbound or waiting) or laid on its side (home-bound or finished).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pose {
    Upright,
    Laid,
}

/// The body of one piece around `c`: a circle or rounded square, stretched sideways when laid.
fn body(seat: usize, pose: Pose, c: Point, r: f32, fill: Color, edge: Color) -> Item {
    let st = style(seat);
    let stroke = Some(Stroke {
        color: edge,
        width: if r >= 12.0 { 2.0 } else { 1.5 },
    });
    let (rx, ry) = match pose {
        Pose::Upright => (1.0, 1.0),
        Pose::Laid => (1.1, 0.7),
    };
    if st.round {
        ellipse(c, r * rx, r * ry, Some(fill), stroke)
    } else {
        let (hw, hh) = (r * 0.9 * rx, r * 0.9 * ry);
        rounded(
            (c.0 - hw, c.1 - hh, 2.0 * hw, 2.0 * hh),
            r * 0.3,
            Some(fill),
            stroke,
        )
    }
}

/// A piece (or a stack of `count`) of `seat` around the origin, with its letter or count.
fn piece(seat: usize, pose: Pose, count: u8, r: f32) -> Vec<Item> {
    let st = style(seat);
    let mut items = Vec::new();
    let mut c = (0.0, 0.0);
    if count >= 2 {
        // The pile: one more piece peeking out behind, up and to the right.
        let d = r * 0.2;
        items.push(body(seat, pose, (d, -d), r, st.fill, INK));
        c = (-d * 0.6, d * 0.6);
    }
    items.push(body(seat, pose, c, r, st.fill, INK));
    let label = match (count, pose) {
        (0 | 1, Pose::Upright) => st.letter.to_string(),
        (0 | 1, Pose::Laid) => st.home_letter.to_string(),
        (n, _) => n.to_string(),
    };
    items.push(text(c, Anchor::Centre, (r * 1.2).round(), st.text, label));
    items
}

fn piece_group(at: Point, seat: usize, pose: Pose, count: u8, r: f32) -> Item {
    Item::Group {
        at,
        radius: r * 1.25 + 3.0,
        items: piece(seat, pose, count, r),
    }
}

/// One cowrie around the origin, mouth up (the toothed slit) or down (the humped back).
fn cowrie(mouth_up: bool) -> Vec<Item> {
    let (rx, ry) = (11.5, 17.0);
    let edge = Some(Stroke {
        color: SHELL_EDGE,
        width: 1.5,
    });
    if mouth_up {
        let mut items = vec![
            ellipse((0.0, 0.0), rx, ry, Some(SHELL), edge),
            ellipse((0.0, 0.0), 2.8, 13.0, Some(Color::hex(0x3a2a1a)), None),
        ];
        let stroke = Stroke {
            color: SHELL_EDGE,
            width: 1.4,
        };
        for i in -3..=3 {
            let y = i as f32 * 3.4;
            items.push(shape::polyline(&[(-6.5, y), (-3.0, y)], stroke));
            items.push(shape::polyline(&[(3.0, y), (6.5, y)], stroke));
        }
        items
    } else {
        vec![
            ellipse((0.0, 0.0), rx, ry, Some(SHELL_BACK), edge),
            ellipse((-2.8, -5.0), 4.2, 7.4, Some(Color::hex(0xf3e2bd)), None),
        ]
    }
}

/// The number of cowries falling mouth up for a value (rule 1).
fn mouths_up(roll: Roll) -> usize {
    match roll.value() {
        25 => 0,
        10 => 1,
        v => usize::from(v),
    }
}

// ---------------------------------------------------------------------------------------------
// The static board

fn board(scene: &mut Scene, labels: &dyn Labels) {
    let b = &mut scene.board;
    // The cloth: the cross outline, padded outwards.
    let pad = 4.0;
    let sx = |g: u8| match g {
        0 => LEFT - pad,
        8 => LEFT + 8.0 * CELL - pad,
        11 => LEFT + 11.0 * CELL + pad,
        _ => LEFT + 19.0 * CELL + pad,
    };
    let sy = |g: u8| match g {
        0 => TOP - pad,
        8 => TOP + 8.0 * CELL - pad,
        11 => TOP + 11.0 * CELL + pad,
        _ => TOP + 19.0 * CELL + pad,
    };
    let outline: Vec<Point> = [
        (8, 0),
        (11, 0),
        (11, 8),
        (19, 8),
        (19, 11),
        (11, 11),
        (11, 19),
        (8, 19),
        (8, 11),
        (0, 11),
        (0, 8),
        (8, 8),
    ]
    .iter()
    .map(|(x, y)| (sx(*x), sy(*y)))
    .collect();
    b.push(shape::polygon(
        &outline,
        Some(CLOTH),
        Some(Stroke {
            color: CLOTH_EDGE,
            width: 2.0,
        }),
    ));

    // The squares: castles crossed, each seat's private column tinted.
    let private: Vec<(Square, Color)> = (0..4)
        .flat_map(|seat| {
            (1..=7).filter_map(move |pos| {
                Square::of(Seat(seat as u8), pos).map(|sq| (sq, style(seat).tint))
            })
        })
        .collect();
    for square in Square::all() {
        let (cx, cy) = square_centre(square);
        let half = CELL / 2.0 - GAP;
        let tint = private.iter().find(|(s, _)| *s == square).map(|(_, c)| *c);
        let fill = if square.is_castle() {
            CASTLE_FILL
        } else {
            tint.unwrap_or(SQUARE_FILL)
        };
        b.push(shape::rect(
            cx - half,
            cy - half,
            2.0 * half,
            2.0 * half,
            Some(fill),
            None,
        ));
        if square.is_castle() {
            let k = half - 4.0;
            b.extend(layout::cross((cx, cy), k, CASTLE_MARK, 2.5));
        }
    }

    // The Charkoni: one space of 3×3 cells, with a gold frame and a centre rosette.
    let (x0, y0) = (LEFT + 8.0 * CELL + GAP, TOP + 8.0 * CELL + GAP);
    let side = 3.0 * CELL - 2.0 * GAP;
    b.push(shape::rect(x0, y0, side, side, Some(CHARKONI), None));
    b.push(shape::rect(
        x0 + 4.0,
        y0 + 4.0,
        side - 8.0,
        side - 8.0,
        None,
        Some(Stroke {
            color: CLOTH,
            width: 2.0,
        }),
    ));
    let (cx, cy) = centre((9, 9));
    let petal = CELL * 0.36;
    b.push(shape::polygon(
        &[
            (cx, cy - petal),
            (cx + petal, cy),
            (cx, cy + petal),
            (cx - petal, cy),
        ],
        Some(CLOTH),
        None,
    ));
    b.push(shape::circle((cx, cy), petal * 0.32, Some(CHARKONI), None));

    // Coordinates, next to the squares they name, as a pinwheel: ranks left of the South arm,
    // files below the East arm, ranks right of the North arm, files above the West arm (so
    // each inner corner holds one label); the arm ends' files and ranks outside the grid.
    let file = |x: u8| char::from(b'a' + x).to_string();
    let rank = |y: u8| (y + 1).to_string();
    let mut coordinates: Vec<((u8, u8), String)> = Vec::new();
    for x in 8..=10 {
        coordinates.push(((x, 255), file(x)));
    }
    for y in 8..=10 {
        coordinates.push(((255, y), rank(y)));
        coordinates.push(((19, y), rank(y)));
    }
    for seat in 0..4 {
        for i in 0..=7u8 {
            let (x, y) = rotate(seat, (7, i));
            let name = if seat & 1 == 0 { rank(y) } else { file(x) };
            coordinates.push(((x, y), name));
        }
    }
    for ((x, y), name) in coordinates {
        let px = match x {
            255 => LEFT / 2.0,
            19 => LEFT + 19.0 * CELL + (WIDTH - LEFT - 19.0 * CELL) / 2.0,
            _ => centre((x, 0)).0,
        };
        let py = match y {
            255 => TOP + 19.0 * CELL + MARGIN / 2.0,
            _ => centre((0, y)).1,
        };
        b.push(layout::label((px, py), name));
    }
    // The seat panels: frame, piece, name and the captions of the counts.
    for seat in 0..4 {
        let st = style(seat);
        let rect = panel_rect(seat);
        b.push(rounded(
            rect,
            10.0,
            Some(PANEL),
            Some(Stroke {
                color: st.fill,
                width: 2.0,
            }),
        ));
        let (x, y, _, _) = rect;
        b.push(piece_group(
            (x + 30.0, y + PANEL_TITLE_Y),
            seat,
            Pose::Upright,
            1,
            16.0,
        ));
        let name = labels.word(Word::Seat {
            game: GameId::Pachisi,
            seat: seat as u8,
        });
        b.push(text(
            (x + 58.0, y + PANEL_TITLE_Y),
            Anchor::Left,
            26.0,
            INK,
            name,
        ));
        for i in 0..4 {
            b.push(text(
                (x + 16.0, panel_row_y(y, i)),
                Anchor::Left,
                20.0,
                MUTED,
                labels.word(Word::PanelRow(i)),
            ));
        }
    }
    legend(b, labels);
}

/// The legend under the West panel: the four seats' pieces laid on their side (lower-case
/// letters) are home-bound on the track, or home in the Charkoni. Returns where it ends.
fn legend(b: &mut Vec<Item>, labels: &dyn Labels) -> f32 {
    let y = TOP + 19.0 * CELL + MARGIN / 2.0;
    let mut x = LEFT + 10.0;
    for seat in [0, 1, 2, 3] {
        b.push(piece_group((x, y), seat, Pose::Laid, 1, 9.5));
        x += 24.0;
    }
    x -= 6.0;
    let legend = labels.word(Word::HomeBoundLegend);
    let end = x + crate::raster::text_width(&legend, LEGEND_SIZE).unwrap_or(200.0);
    b.push(text((x, y), Anchor::Left, LEGEND_SIZE, MUTED, legend));
    end
}

/// Its size.
const LEGEND_SIZE: f32 = 18.0;

// ---------------------------------------------------------------------------------------------
// The picture

/// The scene of a Pachisi position, with the last action (and its events) highlighted.
pub fn scene(game: &Pachisi, last: Option<&Applied<Pachisi>>) -> Scene {
    scene_in(game, last, &English, None)
}

/// The scene with its words said by `labels`, and `narration` (when given) as the account of
/// the last action.
pub fn scene_in(
    game: &Pachisi,
    last: Option<&Applied<Pachisi>>,
    labels: &dyn Labels,
    narration: Option<String>,
) -> Scene {
    let seat = game.turn().0;
    let turn = usize::from(game.turn().0);
    let status = game.status();
    let (title, icon) = match status {
        Status::Done(Outcome::Winner(team)) => {
            // Both partners' pieces, overlapping.
            let seat = usize::from(team.0);
            let items = [(seat, -5.5), (seat + 2, 5.5)]
                .into_iter()
                .flat_map(|(s, d)| {
                    piece(s, Pose::Upright, 1, 11.0)
                        .into_iter()
                        .map(move |i| i.translated(d, d))
                })
                .collect();
            (
                labels.word(Word::Wins {
                    game: GameId::Pachisi,
                    seat: team.0,
                }),
                items,
            )
        }
        Status::Done(Outcome::Draw) => (labels.word(Word::GameOver), Vec::new()),
        Status::Chance if !game.throws().is_empty() => (
            labels.word(Word::ThrowsAgain { seat }),
            piece(turn, Pose::Upright, 1, 14.0),
        ),
        Status::Chance => (
            labels.word(Word::ThrowsCowries { seat }),
            piece(turn, Pose::Upright, 1, 14.0),
        ),
        Status::Decision(_) if game.throws().is_empty() => (
            labels.word(Word::ToThrowOrSkip { seat }),
            piece(turn, Pose::Upright, 1, 14.0),
        ),
        Status::Decision(_) => (
            labels.word(Word::ToMove {
                game: GameId::Pachisi,
                seat,
            }),
            piece(turn, Pose::Upright, 1, 14.0),
        ),
    };
    let events: &[Event] = last.map_or(&[], |(_, events)| events.as_slice());
    let subtitle = match (last, narration) {
        (Some((Action::Move(Move::Throw), _)), _) => labels.word(Word::ChoseToThrow { seat }),
        (Some(_), Some(narration)) => narration,
        _ => narrate(events),
    };
    let icon = (!icon.is_empty()).then_some(Item::Group {
        at: (0.0, 0.0),
        radius: 16.0,
        items: icon,
    });
    let mut scene = layout::page(
        HEIGHT,
        format!("pachisi{}", labels.key()),
        &title,
        icon,
        &subtitle,
    );
    board(&mut scene, labels);

    panels(&mut scene, game, status, labels);
    band(&mut scene, game, last, labels);

    // The last move's path and starting square, under the pieces.
    let moved = events.iter().find_map(|e| match *e {
        Event::Entered { seat, to, .. } => Some((usize::from(seat.0), 0, to)),
        Event::Moved { seat, from, to, .. } => Some((usize::from(seat.0), from, to)),
        _ => None,
    });
    let head = moved.and_then(|(seat, from, to)| track_path(&mut scene, seat, from, to));

    pieces(&mut scene, game);
    scene.pieces.extend(head);

    // Over the pieces: the starting point and the landed pieces ringed, captured pieces
    // crossed.
    if let Some((seat, from, to)) = moved {
        let ring =
            |pos: u8, color: Color| layout::ring(pos_point(seat, pos), CELL * 0.5, color, 3.0);
        scene.pieces.push(ring(from, layout::FROM));
        scene.pieces.push(ring(to, layout::PATH));
    }
    for e in events {
        if let Event::Captured {
            victim,
            count,
            square,
            ..
        } = *e
        {
            captured(&mut scene, usize::from(victim.0), count, square);
        }
    }
    scene
}

/// The header's subtitle: what the last action did, in short.
fn narrate(events: &[Event]) -> String {
    let name = |seat: Seat| style(usize::from(seat.0)).name;
    let at = |seat: Seat, pos: u8| match Square::of(seat, pos) {
        Some(square) => square.to_string(),
        None => "the Charkoni".to_string(),
    };
    let values = |v: Throws| {
        let list: Vec<String> = v.iter().map(|r| r.to_string()).collect();
        list.join(", ")
    };
    let parts: Vec<String> = events
        .iter()
        .filter_map(|e| {
            Some(match *e {
                Event::Skipped { seat } => format!("{} declined to throw", name(seat)),
                Event::Thrown { seat, roll } if roll.is_grace() => {
                    format!("{} threw {roll}, a grace: throws again", name(seat))
                }
                Event::Thrown { seat, roll } => format!("{} threw {roll}", name(seat)),
                Event::Entered { seat, roll, to } => {
                    format!(
                        "{} entered a piece to {} with {roll}",
                        name(seat),
                        at(seat, to)
                    )
                }
                Event::Moved {
                    seat,
                    from,
                    to,
                    count,
                    roll,
                } => {
                    let what = if count > 1 {
                        format!("{count} pieces")
                    } else {
                        "a piece".to_string()
                    };
                    if to >= HOME {
                        format!("{} finished {what} with {roll}", name(seat))
                    } else {
                        let turned = if from < HOME_BOUND && to >= HOME_BOUND {
                            ", now home-bound"
                        } else {
                            ""
                        };
                        let what = if from >= HOME_BOUND {
                            format!("{what} (home-bound)")
                        } else {
                            what
                        };
                        format!(
                            "{} moved {what} {}–{} with {roll}{turned}",
                            name(seat),
                            at(seat, from),
                            at(seat, to)
                        )
                    }
                }
                Event::Captured { victim, count, .. } => format!(
                    "captured {count} {} {}",
                    style(usize::from(victim.0)).name,
                    if count == 1 { "piece" } else { "pieces" }
                ),
                // Always right after the mover's last piece finished.
                Event::SeatFinished { .. } => "all four home".to_string(),
                Event::ValuesLost { values: v, .. } => format!("{} lost", values(v)),
                Event::GaveUp { seat, values: v } => {
                    format!("{} gave up {}", name(seat), values(v))
                }
                Event::Won { .. } => return None,
            })
        })
        .collect();
    parts.join("; ")
}

/// The middle line of a panel's title (its seat's piece and name, and the tag), above the
/// line of the name of whoever holds the seat.
const PANEL_TITLE_Y: f32 = 24.0;

/// The middle line of row `i` of a panel whose top is at `y`.
fn panel_row_y(y: f32, i: usize) -> f32 {
    y + 78.0 + 26.0 * i as f32
}

/// Every seat's counts in its panel, and a frame round the seat to act (or the winners).
fn panels(scene: &mut Scene, game: &Pachisi, status: Status, labels: &dyn Labels) {
    let turn = usize::from(game.turn().0);
    for seat in 0..4 {
        let ps = game.positions(Seat(seat as u8));
        let waiting = ps.iter().filter(|p| **p == 0).count();
        let home = ps.iter().filter(|p| **p >= HOME).count();
        let out = 4 - waiting - home;
        let (x, y, w, h) = panel_rect(seat);
        for (i, n) in [waiting, out, home].into_iter().enumerate() {
            scene.pieces.push(Item::Group {
                at: (x + w - 30.0, panel_row_y(y, i)),
                radius: 14.0,
                items: vec![text((14.0, 0.0), Anchor::Right, 24.0, INK, n.to_string())],
            });
        }
        // How far the seat has come: the sum of its track positions, of 4 × 84, as a number
        // and a bar; before its first entry, the reminder that any value enters.
        let done: u16 = ps.iter().map(|p| u16::from(*p)).sum();
        let percent = (f32::from(done) * 100.0 / (4.0 * f32::from(HOME))).round();
        scene.pieces.push(Item::Group {
            at: (x + w - 40.0, panel_row_y(y, 3)),
            radius: 26.0,
            items: vec![text(
                (24.0, 0.0),
                Anchor::Right,
                24.0,
                INK,
                format!("{percent}%"),
            )],
        });
        let (bx, by, bw) = (x + 16.0, panel_row_y(y, 3) + 18.0, w - 32.0);
        if game.has_entered(Seat(seat as u8)) {
            let filled = (bw * percent / 100.0).round();
            scene
                .pieces
                .push(shape::rect(bx, by, bw, 10.0, Some(TRACK), None));
            if filled > 0.0 {
                scene.pieces.push(shape::rect(
                    bx,
                    by,
                    filled,
                    10.0,
                    Some(style(seat).fill),
                    None,
                ));
            }
        } else {
            scene.pieces.push(text_sprite(
                (bx, by + 8.0),
                bw,
                20.0,
                MUTED,
                labels.word(Word::FirstEntry),
            ));
        }
        let (active, winner) = match status {
            Status::Done(Outcome::Winner(team)) => (false, usize::from(team.0) == seat & 1),
            _ => (seat == turn, false),
        };
        if active || winner {
            scene.pieces.push(rounded(
                (x - 1.5, y - 1.5, w + 3.0, h + 3.0),
                11.0,
                None,
                Some(Stroke {
                    color: INK,
                    width: 4.0,
                }),
            ));
        }
        let tag = if winner {
            Some(Word::WinnerTag)
        } else if active {
            Some(match status {
                Status::Chance => Word::ThrowingTag,
                _ if game.throws().is_empty() => Word::ToThrowTag,
                _ => Word::ToMoveTag,
            })
        } else {
            None
        };
        // Who holds the seat, under its name (issue 37, item 5: partners are seen at a glance).
        if let Some(name) = labels.player(seat as u8) {
            let name = layout::fit_width(&name, 17.0, w - 58.0 - 14.0);
            scene
                .pieces
                .push(text((x + 58.0, y + 51.0), Anchor::Left, 17.0, MUTED, name));
        }
        if let Some(tag) = tag.map(|tag| labels.word(tag)) {
            // A dark tag in the panel's top-right corner.
            let tw = caption_width(&tag) + 18.0;
            scene.pieces.push(Item::Group {
                at: (x + w - 10.0 - tw / 2.0, y + PANEL_TITLE_Y),
                radius: tw / 2.0 + 2.0,
                items: vec![
                    rounded((-tw / 2.0, -15.0, tw, 30.0), 8.0, Some(INK), None),
                    text((0.0, 0.0), Anchor::Centre, 20.0, WHITE, tag),
                ],
            });
        }
    }
}

/// How a value chip is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Chip {
    /// Waiting to be used.
    Left,
    /// Just thrown, waiting to be used.
    New,
    /// Just used.
    Used,
    /// Lost or given up.
    Lost,
}

const CHIP: f32 = 36.0;

fn chip(roll: Roll, kind: Chip) -> Item {
    let h = CHIP / 2.0;
    let (fill, edge, ink) = match kind {
        Chip::Left => (WHITE, INK, INK),
        Chip::New => (WHITE, layout::PATH, INK),
        Chip::Used | Chip::Lost => (layout::PAPER, MUTED, MUTED),
    };
    let width = if kind == Chip::New { 4.0 } else { 2.0 };
    let mut items = vec![
        rounded(
            (-h, -h, CHIP, CHIP),
            8.0,
            Some(fill),
            Some(Stroke { color: edge, width }),
        ),
        text(
            (0.0, 0.0),
            Anchor::Centre,
            if roll.value() >= 10 { 21.0 } else { 23.0 },
            ink,
            roll.to_string(),
        ),
    ];
    // Used and lost values are faded; lost ones are struck through too.
    if kind == Chip::Lost {
        items.push(shape::polyline(
            &[(-h + 5.0, h - 5.0), (h - 5.0, -h + 5.0)],
            Stroke {
                color: layout::CAPTURED,
                width: 3.0,
            },
        ));
    }
    Item::Group {
        at: (0.0, 0.0),
        radius: h + 3.0,
        items,
    }
}

/// The band under the header: the values of this turn (left, just used, lost) and the cowries
/// of the last throw.
fn band(scene: &mut Scene, game: &Pachisi, last: Option<&Applied<Pachisi>>, labels: &dyn Labels) {
    let cy = BAND_Y;
    let events: &[Event] = last.map_or(&[], |(_, e)| e.as_slice());
    let thrown = match last {
        Some((Action::Roll(roll), _)) => Some(*roll),
        _ => None,
    };

    // Sections of chips, each with a caption.
    let mut sections: Vec<Section> = Vec::new();
    let left = game.throws();
    if !left.is_empty() {
        let mut chips: Vec<(Roll, Chip, usize)> = left.iter().map(|r| (r, Chip::Left, 1)).collect();
        if let Some(roll) = thrown
            && let Some(c) = chips.iter_mut().rev().find(|(r, _, _)| *r == roll)
        {
            c.1 = Chip::New;
        }
        let caption = match game.status() {
            Status::Chance => Word::Thrown,
            _ => Word::ToUse,
        };
        sections.push((labels.word(caption), chips));
    }
    for e in events {
        match *e {
            Event::Entered { roll, .. } | Event::Moved { roll, .. } => {
                sections.push((labels.word(Word::Used), vec![(roll, Chip::Used, 1)]));
            }
            Event::ValuesLost { values, .. } => sections.push((
                labels.word(Word::Lost),
                values.iter().map(|r| (r, Chip::Lost, 1)).collect(),
            )),
            Event::GaveUp { values, .. } => sections.push((
                labels.word(Word::GivenUp),
                values.iter().map(|r| (r, Chip::Lost, 1)).collect(),
            )),
            _ => {}
        }
    }
    if sections.is_empty() {
        let words = match game.status() {
            Status::Chance => labels.word(Word::NoValuesYet),
            Status::Done(_) => String::new(),
            _ => labels.word(Word::NoValuesThrownYet),
        };
        sections.push((words, Vec::new()));
    }

    // Two places beside the top of the North arm: the values on the left, the cowries of the
    // last throw on the right, or more values when nothing was just thrown or when the values
    // need the room (a long run of graces).
    // (The right place starts after the North arm's rank labels.)
    let arm = (LEFT + 8.0 * CELL - 12.0, LEFT + 12.0 * CELL + 4.0);
    let places = [(MARGIN, arm.0), (arm.1, WIDTH - MARGIN)];

    // Chips one by one if they fit; otherwise equal values share a chip marked with their
    // number, and whatever still does not fit is summed up as "+n".
    let width = |section: &Section| -> f32 {
        let (caption, chips) = section;
        let words = if caption.is_empty() {
            0.0
        } else {
            caption_width(caption) + 8.0
        };
        let chips: f32 = chips
            .iter()
            .map(|(_, _, n)| CHIP + 6.0 + if *n > 1 { TIMES } else { 0.0 })
            .sum();
        words + chips + 18.0
    };
    let left_room = places[0].1 - places[0].0;
    let all_room = left_room + places[1].1 - places[1].0;
    let room = if thrown.is_some() {
        left_room
    } else {
        all_room
    };
    if sections.iter().map(width).sum::<f32>() > room {
        for (_, chips) in &mut sections {
            let mut merged: Vec<(Roll, Chip, usize)> = Vec::new();
            for (r, k, n) in chips.drain(..) {
                match merged.last_mut() {
                    Some((lr, lk, ln)) if *lr == r && *lk == k => *ln += n,
                    _ => merged.push((r, k, n)),
                }
            }
            *chips = merged;
        }
    }
    let wanted: f32 = sections.iter().map(width).sum();
    let regions: &[(f32, f32)] = match thrown {
        Some(roll) if wanted <= left_room => {
            cowries(scene, roll, places[1].0, cy);
            &places[..1]
        }
        _ => &places,
    };

    // Place the sections in reading order, moving on to the next place when one is full.
    let mut region = 0;
    let mut x = regions[0].0;
    'sections: for (caption, chips) in sections {
        let first = chips.first().map_or(0.0, |_| CHIP);
        let words = if caption.is_empty() {
            0.0
        } else {
            caption_width(&caption)
        };
        if x + words + 8.0 + first > regions[region].1 && region + 1 < regions.len() {
            region += 1;
            x = regions[region].0;
        }
        if !caption.is_empty() {
            if x + words > regions[region].1 {
                break;
            }
            scene
                .pieces
                .push(text_sprite((x, cy), words, 20.0, MUTED, caption));
            x += words + 8.0;
        }
        let total: usize = chips.iter().map(|(_, _, n)| n).sum();
        let mut shown = 0;
        for (roll, kind, n) in chips {
            let need = CHIP + if n > 1 { TIMES } else { 0.0 };
            if x + need > regions[region].1 && region + 1 < regions.len() {
                region += 1;
                x = regions[region].0;
            }
            let last_place = region + 1 == regions.len();
            let more = shown + n < total;
            let right = regions[region].1;
            if x + need > right || (last_place && more && x + need + 52.0 > right) {
                scene.pieces.push(text_sprite(
                    (x, cy),
                    40.0,
                    22.0,
                    INK,
                    format!("+{}", total - shown),
                ));
                break 'sections;
            }
            scene
                .pieces
                .push(chip(roll, kind).translated(x + CHIP / 2.0, cy));
            x += CHIP + 6.0;
            if n > 1 {
                scene.pieces.push(text_sprite(
                    (x - 2.0, cy),
                    TIMES,
                    22.0,
                    INK,
                    format!("×{n}"),
                ));
                x += TIMES;
            }
            shown += n;
        }
        x += 18.0;
    }
}

/// The six cowries of a throw as they fell, and its value, from `x` on.
fn cowries(scene: &mut Scene, roll: Roll, x: f32, cy: f32) {
    let up = mouths_up(roll);
    for i in 0..6 {
        scene.pieces.push(Item::Group {
            at: (x + 13.0 + 28.0 * i as f32, cy),
            radius: 18.0,
            items: cowrie(i < up),
        });
    }
    scene.pieces.push(text_sprite(
        (x + 176.0, cy),
        60.0,
        26.0,
        INK,
        format!("= {roll}"),
    ));
}

/// A caption and its chips, each with the number of equal values it stands for.
type Section = (String, Vec<(Roll, Chip, usize)>);

/// Room for the "×n" after a chip that stands for several equal values.
const TIMES: f32 = 36.0;

/// The width of a 20 px caption (an estimate if the bundled font cannot be read).
fn caption_width(caption: &str) -> f32 {
    crate::raster::text_width(caption, 20.0)
        .unwrap_or(caption.chars().count() as f32 * 11.5)
        .ceil()
        + 2.0
}

/// Draws the path of the last move along the seat's track, to go under the pieces, and returns
/// its arrow head, to go over them.
fn track_path(scene: &mut Scene, seat: usize, from: u8, to: u8) -> Option<Item> {
    let mut points: Vec<Point> = (from..=to.min(HOME)).map(|p| pos_point(seat, p)).collect();
    // End the arrow at the edge of the landed piece, so that its head stays visible.
    if let [.., a, b] = points[..] {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-3);
        let cut = (PIECE + 3.0).min(len * 0.6);
        let end = (b.0 - dx / len * cut, b.1 - dy / len * cut);
        if let Some(p) = points.last_mut() {
            *p = end;
        }
    }
    let mut items = layout::path(&points, layout::PATH, 5.0);
    let head = items.pop();
    scene.pieces.extend(items);
    head
}

/// Pieces of one seat in one pose standing together: seat, pose, count.
type Stack = (usize, Pose, u8);

/// All pieces: on their squares (sharing a square side by side) and in the Charkoni.
fn pieces(scene: &mut Scene, game: &Pachisi) {
    // The stacks on each occupied square, in seat order.
    let mut on: Vec<(Square, Vec<Stack>)> = Vec::new();
    for seat in 0..4 {
        let ps = game.positions(Seat(seat as u8));
        let waiting = ps.iter().filter(|p| **p == 0).count() as u8;
        let home = ps.iter().filter(|p| **p >= HOME).count() as u8;
        if waiting > 0 {
            scene.pieces.push(piece_group(
                waiting_spot(seat),
                seat,
                Pose::Upright,
                waiting,
                14.0,
            ));
        }
        if home > 0 {
            scene
                .pieces
                .push(piece_group(home_spot(seat), seat, Pose::Laid, home, 14.0));
        }
        let mut i = 0;
        while i < 4 {
            let p = ps[i];
            let mut j = i + 1;
            while j < 4 && ps[j] == p {
                j += 1;
            }
            if let Some(square) = Square::of(Seat(seat as u8), p) {
                let pose = if p >= HOME_BOUND {
                    Pose::Laid
                } else {
                    Pose::Upright
                };
                let entry = (seat, pose, (j - i) as u8);
                match on.iter_mut().find(|(s, _)| *s == square) {
                    Some((_, groups)) => groups.push(entry),
                    None => on.push((square, vec![entry])),
                }
            }
            i = j;
        }
    }
    for (square, groups) in on {
        let (cx, cy) = square_centre(square);
        let slots: &[(f32, f32)] = match groups.len() {
            1 => &[(0.0, 0.0)],
            2 => &[(-7.0, -7.0), (7.0, 7.0)],
            _ => &[(-8.0, -7.5), (8.0, -7.5), (0.0, 8.0)],
        };
        let r = match groups.len() {
            1 => PIECE,
            2 => 12.0,
            _ => 10.0,
        };
        for ((seat, pose, count), (dx, dy)) in groups.into_iter().zip(slots) {
            scene
                .pieces
                .push(piece_group((cx + dx, cy + dy), seat, pose, count, r));
        }
    }
}

/// Captured pieces: a crossed ghost in the corner of the square where they stood, and a ring
/// round their seat's spot in the Charkoni, where they went back.
fn captured(scene: &mut Scene, victim: usize, count: u8, square: Square) {
    let (cx, cy) = square_centre(square);
    let st = style(victim);
    let r = 12.0;
    let mut items = vec![body(
        victim,
        Pose::Upright,
        (0.0, 0.0),
        r,
        st.fill.alpha(200),
        INK.alpha(200),
    )];
    if count > 1 {
        items.push(text(
            (0.0, 0.0),
            Anchor::Centre,
            14.0,
            st.text,
            count.to_string(),
        ));
    }
    // A white halo keeps the cross visible on East's vermillion pieces too.
    items.extend(layout::cross((0.0, 0.0), r * 0.62, WHITE, 7.0));
    items.extend(layout::cross((0.0, 0.0), r * 0.62, layout::CAPTURED, 3.5));
    scene.pieces.push(Item::Group {
        at: (cx + CELL * 0.45, cy - CELL * 0.45),
        radius: r + 3.0,
        items,
    });
    scene.pieces.push(layout::ring(
        waiting_spot(victim),
        CELL * 0.5,
        layout::CAPTURED,
        3.0,
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_legend_ends_before_the_south_arm() {
        let mut items = Vec::new();
        let end = legend(&mut items, &English);
        // The South arm's left edge, and the file letter under it.
        assert!(end + 8.0 <= LEFT + 8.0 * CELL, "legend ends at {end}");
    }
}
