//! Kolowis Awithlaknannai pictures (`shared/rules/kolowis.md`, section 11).
//!
//! The long board lies landscape, North (Black, row `A`) at the top, as a sandstone panel with
//! the 49 points of section 2 and all 110 lines: the three rows, the 30 straight diagonals that
//! cross at `B2`–`B16` (drawn whole, so the capture lines read as straight), and the two curved
//! end links through `B1` and `B17`. Row letters stand at both ends of each row; the coordinates
//! are written whole (`A1`, `C13`, `B17`, as typed): the A points' along the top, the C points'
//! along the bottom and the B points' below those, each exactly under or over its point. (Bare
//! numbers in two rows along the bottom read as one row.)
//!
//! White pieces are light with a dark rim, Black pieces dark with a light inner ring (they differ
//! in lightness and in marking). The last move shows its start (blue ring, Okabe–Ito blue), its
//! path through every landing point (orange with a dark casing; a step along an end link follows
//! the curve), an orange dot on each intermediate landing point, an orange halo round the moved
//! piece, and each captured piece as a faded ghost crossed out in vermillion. The header says
//! whose turn it is or who won and why, counts the pieces of both sides, and shows the stall
//! counter (`quiet 42 of 50`, as `tabula rules show` prints it) once at most [`QUIET_WARNING`]
//! plies are left.
//!
//! The board layer depends on nothing but the game, so it is rasterised once (`kolowis`);
//! pieces, ghosts and icons are groups that look the same wherever they stand, so each kind is
//! rasterised once too.

use tabula_core::kolowis::{Event, Kolowis, Move, Point, Stall};
use tabula_core::{Action, Applied, Game, GameId, Outcome, Seat, Status};

use crate::labels::{English, Labels, Word};

use crate::layout::{self, HEADER, INK, MUTED, WIDTH};
use crate::raster::text_width;
use crate::scene::{Anchor, Color, Item, Scene, Segment, Stroke, shape};

/// White (South, bottom) is seat 0.
const WHITE: Seat = Seat(0);
/// Black (North, top) is seat 1.
const BLACK: Seat = Seat(1);

/// The stall counter is shown once at most this many plies are left before the limit.
pub const QUIET_WARNING: u32 = 10;

// Geometry in pixels. In board units (section 2) `Bj` sits at x = j and `Ai`, `Ci` at
// x = i + ½; one unit is `UNIT` pixels and the rows are `ROW` pixels apart.

/// Centre of the row letters, from either side.
const LETTER_X: f32 = 14.0;
/// Left edge of the board panel (the right edge mirrors it).
const EDGE: f32 = 28.0;
/// Piece radius as a share of the unit.
const PIECE_SHARE: f32 = 0.42;
/// Space between a piece at an end point and the panel's edge.
const GAP: f32 = 6.0;
/// One board unit: 16 units from `B1` to `B17`, plus a piece and a gap at each end.
const UNIT: f32 = (WIDTH - 2.0 * EDGE - 2.0 * GAP) / (16.0 + 2.0 * PIECE_SHARE);
/// Piece radius.
const R: f32 = UNIT * PIECE_SHARE;
/// Panel padding around the outermost points.
const PAD: f32 = R + GAP;
/// Distance between two rows.
const ROW: f32 = UNIT * 1.45;
/// Centre of the A numbers.
const TOP_NUMBERS: f32 = HEADER + 20.0;
/// Top edge of the panel.
const PANEL_TOP: f32 = HEADER + 38.0;
/// The y of row A (B and C follow `ROW` apart).
const A_Y: f32 = PANEL_TOP + PAD;
/// Bottom edge of the panel.
const PANEL_BOTTOM: f32 = A_Y + 2.0 * ROW + PAD;
/// Centre of the C numbers.
const C_NUMBERS: f32 = PANEL_BOTTOM + 19.0;
/// Centre of the B numbers.
const B_NUMBERS: f32 = C_NUMBERS + 28.0;
/// The size of the coordinates along the top and bottom.
const COORDINATE: f32 = 19.0;
/// Picture height.
const HEIGHT: f32 = B_NUMBERS + 22.0;

const PAPER_SAND: Color = Color::hex(0xe4cfa6);
const PANEL_EDGE: Color = Color::hex(0x8a6a45);
const LINE: Color = Color::hex(0x6b4e33);
const WHITE_FILL: Color = Color::hex(0xfaf6ec);
const WHITE_RIM: Color = Color::hex(0x3b3b3b);
const BLACK_FILL: Color = Color::hex(0x1f1f1f);
const BLACK_RING: Color = Color::hex(0xd9d9d9);
/// The dark edge drawn under orange highlights so they stand out on the sand.
const CASING: Color = Color::hex(0x3a2614);
/// Width of the last move's path.
const PATH_WIDTH: f32 = 6.0;
/// Radius of the ring on the point the last move started from.
const START_RING: f32 = R - 3.0;

/// The x of a board unit.
fn x_of(units: f32) -> f32 {
    EDGE + PAD + (units - 1.0) * UNIT
}

/// The centre of a point in pixels.
fn centre(p: Point) -> (f32, f32) {
    let n = f32::from(p.number());
    match p.row() {
        'A' => (x_of(n + 0.5), A_Y),
        'B' => (x_of(n), A_Y + ROW),
        _ => (x_of(n + 0.5), A_Y + 2.0 * ROW),
    }
}

fn point(row: char, number: u8) -> (f32, f32) {
    Point::new(row, number).map_or((0.0, 0.0), centre)
}

/// The control point of the end curve through `B1` (left) or `B17` (right): half a unit beyond
/// the end point, so the quadratic curve from `A1` to `C1` passes through `B1` itself.
fn curve_control(right: bool) -> (f32, f32) {
    let units = if right { 17.5 } else { 0.5 };
    (x_of(units), A_Y + ROW)
}

/// A piece drawn around the origin.
fn piece(seat: Seat, radius: f32) -> Vec<Item> {
    if seat == BLACK {
        vec![
            shape::circle((0.0, 0.0), radius, Some(BLACK_FILL), None),
            shape::circle(
                (0.0, 0.0),
                radius * 0.56,
                None,
                Some(Stroke {
                    color: BLACK_RING,
                    width: (radius * 0.14).max(1.5),
                }),
            ),
        ]
    } else {
        vec![shape::circle(
            (0.0, 0.0),
            radius - 0.5,
            Some(WHITE_FILL),
            Some(Stroke {
                color: WHITE_RIM,
                width: (radius * 0.11).max(1.5),
            }),
        )]
    }
}

fn other(seat: Seat) -> Seat {
    Seat(1 - seat.0)
}

/// The scene of a Kolowis position, with the last action highlighted.
pub fn scene(game: &Kolowis, last: Option<&Applied<Kolowis>>) -> Scene {
    scene_in(game, last, &English, None)
}

/// The scene with its words said by `labels`, and `narration` (when given) as the account of
/// the last action.
pub fn scene_in(
    game: &Kolowis,
    last: Option<&Applied<Kolowis>>,
    labels: &dyn Labels,
    narration: Option<String>,
) -> Scene {
    let (title, icon_seat, ending) = headline(game, labels);
    let quiet = quiet_note(game, labels);
    let mv = match last {
        Some((Action::Move(mv), _)) => Some(mv),
        _ => None,
    };
    let narration =
        narration.unwrap_or_else(|| last.map(|(_, events)| narrate(events)).unwrap_or_default());
    let subtitle = match (narration.is_empty(), ending) {
        (_, None) => narration,
        (true, Some(why)) => why,
        (false, Some(why)) => format!("{narration} · {why}"),
    };
    let counts_width = 150.0;
    let quiet_width = quiet
        .as_ref()
        .map_or(0.0, |q| text_width(q, 21.0).unwrap_or(150.0) + 24.0);
    let icon = icon_seat.map(|seat| Item::Group {
        at: (0.0, 0.0),
        radius: 14.0,
        items: piece(seat, 13.0),
    });
    let title = layout::fit_width(&title, 30.0, WIDTH - 72.0 - 28.0 - counts_width);
    let mut scene = layout::page(HEIGHT, "kolowis".to_string(), &title, icon, "");
    layout::subtitle_lines(&mut scene.pieces, &subtitle, WIDTH - 56.0 - quiet_width);

    draw_board(&mut scene.board);
    counts(&mut scene.pieces, game);
    if let Some(q) = quiet {
        scene.pieces.push(Item::Text {
            at: (WIDTH - 28.0, 70.0),
            anchor: Anchor::Right,
            size: 21.0,
            color: INK,
            text: q,
        });
    }

    // Under the pieces: the start ring, the path and the halo of the moved piece.
    if let Some(mv) = mv {
        under_pieces(&mut scene.pieces, mv);
    }
    for seat in [WHITE, BLACK] {
        for p in game.pieces(seat) {
            scene.pieces.push(Item::Group {
                at: centre(p),
                radius: R + 2.0,
                items: piece(seat, R),
            });
        }
    }
    // Over the pieces: the captured pieces' ghosts and the intermediate landing points.
    // The moved piece stands on the move's last point: nothing can take it in the same ply.
    if let Some((mv, mover)) = mv.and_then(|mv| Some((mv, game.piece_at(mv.to())?))) {
        over_pieces(&mut scene.pieces, mv, mover);
    }
    scene
}

/// The title (whose turn, or the result), the seat of the icon before it, and why the game
/// ended.
fn headline(game: &Kolowis, labels: &dyn Labels) -> (String, Option<Seat>, Option<String>) {
    match game.status() {
        Status::Decision(seat) => (
            labels.word(Word::ToMove {
                game: GameId::Kolowis,
                seat: seat.0,
            }),
            Some(seat),
            None,
        ),
        Status::Done(outcome) => {
            let why = match game.stall_ending() {
                Some(Stall::Quiet(plies)) => labels.word(Word::QuietPlies { plies }),
                Some(Stall::Repetition) => labels.word(Word::Repetition),
                None => match outcome {
                    Outcome::Winner(team) => labels.word(Word::CannotMove {
                        seat: other(Seat(team.0)).0,
                    }),
                    Outcome::Draw => String::new(),
                },
            };
            match outcome {
                Outcome::Winner(team) if game.stall_ending().is_some() => (
                    labels.word(Word::WinsOnPieces { seat: team.0 }),
                    Some(Seat(team.0)),
                    Some(why),
                ),
                Outcome::Winner(team) => (
                    labels.word(Word::Wins {
                        game: GameId::Kolowis,
                        seat: team.0,
                    }),
                    Some(Seat(team.0)),
                    Some(why),
                ),
                Outcome::Draw => (labels.word(Word::Draw), None, Some(why)),
            }
        }
        Status::Chance => (labels.word(Word::GameOver), None, None),
    }
}

/// What the last move did, in notation.
fn narrate(events: &[Event]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Stepped { .. } | Event::Captured { .. } => Some(e.to_string()),
            Event::NoMove { .. } | Event::Stalled { .. } => None,
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The stall counter, once the limit is near (section 11).
fn quiet_note(game: &Kolowis, labels: &dyn Labels) -> Option<String> {
    let stall = game.options().stall();
    let quiet = game.quiet();
    let playing = matches!(game.status(), Status::Decision(_));
    (playing && stall > 0 && quiet > 0 && quiet + QUIET_WARNING >= stall)
        .then(|| labels.word(Word::Quiet { quiet, stall }))
}

/// The piece counts at the right of the title line: a White piece and its count, a Black piece
/// and its count.
fn counts(items: &mut Vec<Item>, game: &Kolowis) {
    let mut x = WIDTH - 28.0;
    for seat in [BLACK, WHITE] {
        let n = game.pieces(seat).count().to_string();
        let w = text_width(&n, 26.0).unwrap_or(30.0);
        items.push(Item::Text {
            at: (x, 32.0),
            anchor: Anchor::Right,
            size: 26.0,
            color: INK,
            text: n,
        });
        x -= w + 8.0 + 13.0;
        items.push(Item::Group {
            at: (x, 32.0),
            radius: 14.0,
            items: piece(seat, 13.0),
        });
        x -= 13.0 + 18.0;
    }
}

/// The static board: panel, lines, points and coordinates.
fn draw_board(board: &mut Vec<Item>) {
    let left = EDGE;
    let right = WIDTH - EDGE;
    board.push(shape::rounded_rect(
        left,
        PANEL_TOP,
        right - left,
        PANEL_BOTTOM - PANEL_TOP,
        PAD + 4.0,
        Some(PAPER_SAND),
        Some(Stroke {
            color: PANEL_EDGE,
            width: 2.5,
        }),
    ));
    let line = Stroke {
        color: LINE,
        width: 2.5,
    };
    // The three rows.
    for (row, last) in [('A', 16), ('B', 17), ('C', 16)] {
        board.push(shape::polyline(&[point(row, 1), point(row, last)], line));
    }
    // The straight diagonals through B2..B16: A(j−1)–Bj–Cj and C(j−1)–Bj–Aj.
    for j in 2..=16u8 {
        board.push(shape::polyline(&[point('A', j - 1), point('C', j)], line));
        board.push(shape::polyline(&[point('C', j - 1), point('A', j)], line));
    }
    // The curved end links A1–B1–C1 and A16–B17–C16.
    for (right, n) in [(false, 1u8), (true, 16u8)] {
        board.push(Item::Path {
            segments: vec![
                Segment::Move(point('A', n)),
                Segment::Quad(curve_control(right), point('C', n)),
            ],
            fill: None,
            stroke: Some(line),
        });
    }
    // The points.
    for p in Point::all() {
        board.push(shape::circle(centre(p), 4.5, Some(LINE), None));
    }
    // Row letters at both ends of each row.
    for (row, y) in [('A', A_Y), ('B', A_Y + ROW), ('C', A_Y + 2.0 * ROW)] {
        for x in [LETTER_X, WIDTH - LETTER_X] {
            board.push(Item::Text {
                at: (x, y),
                anchor: Anchor::Centre,
                size: 22.0,
                color: INK,
                text: row.to_string(),
            });
        }
    }
    // Coordinates written whole, as they are typed: A over row A, C under row C and B under
    // those, each exactly over or under its point. Bare numbers in two rows along the bottom read
    // as one row.
    let name = |row: char, n: u8, y: f32| Item::Text {
        at: (point(row, n).0, y),
        anchor: Anchor::Centre,
        size: COORDINATE,
        color: MUTED,
        text: format!("{row}{n}"),
    };
    for i in 1..=16u8 {
        board.push(name('A', i, TOP_NUMBERS));
        board.push(name('C', i, C_NUMBERS));
    }
    for j in 1..=17u8 {
        board.push(name('B', j, B_NUMBERS));
    }
}

/// The points a move passes through, in pixels: straight between landings, and along the end
/// curve for a step between an end point and its outer neighbour.
fn route(mv: &Move) -> Vec<(f32, f32)> {
    let (from, to) = (mv.from(), mv.to());
    if !mv.is_capture() {
        if let Some(curve) = end_curve(from, to) {
            return curve;
        }
        return vec![centre(from), centre(to)];
    }
    std::iter::once(from)
        .chain(mv.landings())
        .map(centre)
        .collect()
}

/// For a step along an end link (`A1`–`B1`, `C1`–`B1`, `A16`–`B17`, `C16`–`B17`, either way),
/// points along the curve from `from` to `to`.
fn end_curve(from: Point, to: Point) -> Option<Vec<(f32, f32)>> {
    let (outer, end, reversed) = match (from.row(), to.row()) {
        ('B', _) => (to, from, true),
        (_, 'B') => (from, to, false),
        _ => return None,
    };
    let right = match (end.number(), outer.number()) {
        (1, 1) => false,
        (17, 16) => true,
        _ => return None,
    };
    // The half of the quadratic A–control–C from the outer point to the end point (de
    // Casteljau at t = ½): start, the midpoint of start and control, the end point.
    let p0 = centre(outer);
    let c = curve_control(right);
    let c1 = ((p0.0 + c.0) / 2.0, (p0.1 + c.1) / 2.0);
    let p1 = centre(end);
    let mut points: Vec<(f32, f32)> = (0..=12)
        .map(|k| {
            let t = k as f32 / 12.0;
            let (a, b, d) = ((1.0 - t) * (1.0 - t), 2.0 * t * (1.0 - t), t * t);
            (
                a * p0.0 + b * c1.0 + d * p1.0,
                a * p0.1 + b * c1.1 + d * p1.1,
            )
        })
        .collect();
    if reversed {
        points.reverse();
    }
    Some(points)
}

/// Cuts `length` pixels off the start of a polyline.
fn trim_start(points: &[(f32, f32)], mut length: f32) -> Vec<(f32, f32)> {
    let mut out: Vec<(f32, f32)> = points.iter().rev().copied().collect();
    while out.len() >= 2 {
        let b = out[out.len() - 1];
        let a = out[out.len() - 2];
        let seg = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
        if seg > length {
            let t = (seg - length) / seg;
            let last = out.len() - 1;
            out[last] = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
            break;
        }
        length -= seg;
        out.pop();
    }
    out.reverse();
    out
}

/// The start ring, the path and the moved piece's halo (drawn before the pieces).
///
/// The path runs from the edge of the start ring to the centre of the moved piece, which
/// hides its end; the halo marks where the piece arrived, so no arrow head is needed (a step
/// along a row leaves no room for one).
fn under_pieces(items: &mut Vec<Item>, mv: &Move) {
    let to = centre(mv.to());
    let path = trim_start(&route(mv), START_RING);
    for (color, width) in [(CASING, PATH_WIDTH + 3.5), (layout::PATH, PATH_WIDTH)] {
        items.push(layout::ring(to, R + 3.0, color, width - 0.5));
        if path.len() >= 2 {
            items.push(shape::polyline(&path, Stroke { color, width }));
        }
    }
    items.push(layout::ring(
        centre(mv.from()),
        START_RING,
        layout::FROM,
        4.5,
    ));
}

/// The captured pieces (faded and crossed out) and the intermediate landing points (drawn
/// after the pieces).
fn over_pieces(items: &mut Vec<Item>, mv: &Move, mover: Seat) {
    let landings: Vec<Point> = mv.landings().collect();
    if let [middle @ .., _] = &landings[..] {
        for p in middle {
            if *p != mv.to() {
                items.push(shape::circle(
                    centre(*p),
                    7.0,
                    Some(layout::PATH),
                    Some(Stroke {
                        color: CASING,
                        width: 2.0,
                    }),
                ));
            }
        }
    }
    let victim = other(mover);
    for p in mv.captured() {
        let mut ghost = piece(victim, R);
        for item in &mut ghost {
            if let Item::Path { fill, stroke, .. } = item {
                *fill = fill.map(|c| c.alpha(110));
                *stroke = stroke.map(|s| Stroke {
                    color: s.color.alpha(110),
                    ..s
                });
            }
        }
        ghost.extend(layout::cross((0.0, 0.0), R * 0.55, layout::CAPTURED, 5.0));
        items.push(Item::Group {
            at: centre(p),
            radius: R + 2.0,
            items: ghost,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_end_curve_passes_through_the_end_points() {
        // The quadratic from A1 over the control point to C1 is at B1 for t = ½.
        let (a, c, ctl) = (point('A', 1), point('C', 1), curve_control(false));
        let mid = (
            0.25 * a.0 + 0.5 * ctl.0 + 0.25 * c.0,
            0.25 * a.1 + 0.5 * ctl.1 + 0.25 * c.1,
        );
        let b = point('B', 1);
        assert!((mid.0 - b.0).abs() < 0.01 && (mid.1 - b.1).abs() < 0.01);
    }

    #[test]
    fn the_board_fits_the_width() {
        assert!(point('B', 1).0 - R >= EDGE + GAP - 0.01);
        assert!(point('B', 17).0 + R <= WIDTH - EDGE - GAP + 0.01);
    }
}
