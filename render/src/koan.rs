//! Koan pictures (`shared/rules/koan.md`, section 11).
//!
//! The board is drawn as it is: the octagon-and-square tiling, 36 green octagons with a small
//! cream square (standing on its corner, as the tiling has it) in every inner gap, set in a
//! walnut frame. Column letters `A`–`K` run above and below, row numbers `1`–`11` up both sides,
//! each centred on its cells, exactly as typed (`G11`, `J10`). The far rows are marked by bands
//! along the frame: White's goal (row 11) at the top in White's colour, Black's goal (row 1) at
//! the bottom in Black's colour.
//!
//! Pieces keep their shape on any cell: an octagonal piece is an octagon, a square piece a
//! square on its corner, like the cells it captures on. White pieces are ivory with a dark rim,
//! Black pieces near-black with a light inner line, so owner reads by lightness and kind by
//! shape. Every piece has the same size wherever it stands; pieces are cached sprites.
//!
//! The last move: the from-cell tinted and outlined in blue (Okabe–Ito), an orange arrow from it
//! to the moved piece, an orange outline around that piece, and for a capture a vermillion badge
//! with a white × beside it; a win on the far row also outlines the goal band reached. The header
//! says whose turn it is (or who won, and the subtitle why), what the last move was, and counts
//! the pieces each side has left by shape.

use tabula_core::koan::{Cell, Event, Koan, Move, Shape};
use tabula_core::{Action, Applied, Game, GameId, Seat};

use crate::labels::{English, Labels, Word, turn_title};

use crate::layout::{self, HEADER, WIDTH};
use crate::scene::{Anchor, Color, Item, Point, Scene, Stroke, shape};

/// One step of the coordinate grid: the distance between neighbouring columns (and rows).
/// Octagons are two steps apart, so the 6×6 octagons span 12 steps.
const STEP: f32 = 52.0;
/// The gap between tiles, showing the frame colour.
const GROUT: f32 = 4.0;
/// Frame width around the tiles (left, right, and between the tiles and the goal bands).
const PAD: f32 = 6.0;
/// Height of the goal bands at the top and bottom of the frame.
const BAND: f32 = 28.0;
/// Height of the strips holding the column letters.
const LETTERS: f32 = 30.0;
/// Left edge of the tiles.
const LEFT: f32 = (WIDTH - 12.0 * STEP) / 2.0;
/// Top edge of the tiles.
const TOP: f32 = HEADER + LETTERS + BAND + PAD;
/// The frame around the tiles and goal bands.
const FRAME_LEFT: f32 = LEFT - PAD;
const FRAME_TOP: f32 = HEADER + LETTERS;
const FRAME_WIDTH: f32 = 12.0 * STEP + 2.0 * PAD;
const FRAME_HEIGHT: f32 = 12.0 * STEP + 2.0 * (PAD + BAND);
/// Height of the whole picture.
const HEIGHT: f32 = TOP + 12.0 * STEP + PAD + BAND + LETTERS;

/// The frame and grout (walnut).
const FRAME: Color = Color::hex(0x4a3a2c);
/// Octagon cells: the "green spaces" of the original, mid lightness.
const OCTAGON: Color = Color::hex(0x5e9a6c);
/// Square cells: light cream, far lighter than the octagons.
const SQUARE: Color = Color::hex(0xe9dcbd);
/// White pieces: ivory with a dark rim.
const WHITE: Color = Color::hex(0xfaf6ec);
const WHITE_RIM: Color = Color::hex(0x2b2b2b);
const WHITE_LINE: Color = Color::hex(0xbdb5a3);
/// Black pieces: near black with a light inner line.
const BLACK: Color = Color::hex(0x222222);
const BLACK_LINE: Color = Color::hex(0xd4d4d4);
/// The dark edge under the orange arrow.
const ARROW_EDGE: Color = Color::hex(0x3a2a10);
/// The from-cell's tint (a pale Okabe–Ito blue).
const FROM_TINT: Color = Color::hex(0xb5d6ea);

/// Apothem (centre to flat side) of an octagonal piece.
const OCT_PIECE: f32 = 32.0;
/// Half-diagonal (centre to corner) of a square piece.
const SQ_PIECE: f32 = 40.0;

const WHITE_SEAT: Seat = Seat(0);
const BLACK_SEAT: Seat = Seat(1);

fn seat_name(seat: Seat) -> &'static str {
    if seat == WHITE_SEAT { "White" } else { "Black" }
}

fn other(seat: Seat) -> Seat {
    if seat == WHITE_SEAT {
        BLACK_SEAT
    } else {
        WHITE_SEAT
    }
}

/// The centre of a cell in pixels.
fn centre(cell: Cell) -> Point {
    (
        LEFT + STEP * (f32::from(cell.column()) + 1.0),
        TOP + STEP * (12.0 - f32::from(cell.row())),
    )
}

/// A regular octagon with flat sides up, down, left and right, by its apothem.
fn octagon(c: Point, apothem: f32) -> Vec<Point> {
    let r = apothem / (std::f32::consts::PI / 8.0).cos();
    shape::regular(c, r, 8, std::f32::consts::PI / 8.0)
}

/// A square standing on its corner, by its half-diagonal.
fn diamond(c: Point, half_diagonal: f32) -> Vec<Point> {
    let h = half_diagonal;
    vec![
        (c.0 + h, c.1),
        (c.0, c.1 + h),
        (c.0 - h, c.1),
        (c.0, c.1 - h),
    ]
}

/// The outline of a cell, with half the grout around it.
fn cell_outline(cell: Cell) -> Vec<Point> {
    let c = centre(cell);
    if cell.is_octagon() {
        octagon(c, STEP - GROUT / 2.0)
    } else {
        // The square's apothem in the regular tiling is STEP·(√2 − 1).
        let apothem = STEP * (std::f32::consts::SQRT_2 - 1.0) - GROUT / 2.0;
        diamond(c, apothem * std::f32::consts::SQRT_2)
    }
}

/// The outline of a piece around the origin, grown by `grow` pixels on every side.
fn piece_outline(shape: Shape, grow: f32) -> Vec<Point> {
    match shape {
        Shape::Octagonal => octagon((0.0, 0.0), OCT_PIECE + grow),
        Shape::Square => diamond((0.0, 0.0), SQ_PIECE + grow * std::f32::consts::SQRT_2),
    }
}

/// A piece drawn around the origin, `scale` times the board size.
fn piece(seat: Seat, kind: Shape, scale: f32) -> Vec<Item> {
    let outline: Vec<Point> = piece_outline(kind, 0.0)
        .iter()
        .map(|(x, y)| (x * scale, y * scale))
        .collect();
    let inner: Vec<Point> = outline.iter().map(|(x, y)| (x * 0.6, y * 0.6)).collect();
    if seat == WHITE_SEAT {
        vec![
            shape::polygon(
                &outline,
                Some(WHITE),
                Some(Stroke {
                    color: WHITE_RIM,
                    width: (3.0 * scale).max(1.5),
                }),
            ),
            shape::polygon(
                &inner,
                None,
                Some(Stroke {
                    color: WHITE_LINE,
                    width: (2.5 * scale).max(1.0),
                }),
            ),
        ]
    } else {
        vec![
            shape::polygon(&outline, Some(BLACK), None),
            shape::polygon(
                &inner,
                None,
                Some(Stroke {
                    color: BLACK_LINE,
                    width: (3.5 * scale).max(1.5),
                }),
            ),
        ]
    }
}

/// Half the size of the square a piece at `scale` fits in, with its rim.
fn piece_radius(kind: Shape, scale: f32) -> f32 {
    let extent = match kind {
        Shape::Octagonal => OCT_PIECE / (std::f32::consts::PI / 8.0).cos(),
        Shape::Square => SQ_PIECE,
    };
    (extent + 3.0) * scale
}

fn piece_group(at: Point, seat: Seat, kind: Shape, scale: f32) -> Item {
    Item::Group {
        at,
        radius: piece_radius(kind, scale),
        items: piece(seat, kind, scale),
    }
}

/// The scene of a Koan position, with the last action highlighted.
pub fn scene(game: &Koan, last: Option<&Applied<Koan>>) -> Scene {
    scene_in(game, last, &English, None)
}

/// The scene with its words said by `labels`, and `narration` (when given) as the account of
/// the last action.
pub fn scene_in(
    game: &Koan,
    last: Option<&Applied<Koan>>,
    labels: &dyn Labels,
    narration: Option<String>,
) -> Scene {
    let events: &[Event] = last.map_or(&[], |(_, events)| events.as_slice());
    let mv = match last {
        Some((Action::Move(mv), _)) => Some(*mv),
        _ => None,
    };
    let (title, icon_seat) = turn_title(labels, GameId::Koan, game.status(), WHITE_SEAT);
    let count = count(game);
    let subtitle = match (mv, narration) {
        (None, _) => labels.word(Word::KoanHint),
        (Some(_), Some(narration)) => narration,
        (Some(_), None) => subtitle(mv, events, &count),
    };
    let icon = piece_group((0.0, 0.0), icon_seat, Shape::Octagonal, 0.4);
    let mut scene = layout::page(
        HEIGHT,
        format!("koan{}", labels.key()),
        &title,
        Some(icon),
        &subtitle,
    );
    board(&mut scene, labels);
    tally(&mut scene, &count);

    if let Some(mv) = mv {
        let from = cell_outline(mv.from);
        scene.pieces.push(shape::polygon(
            &from,
            Some(FROM_TINT),
            Some(Stroke {
                color: layout::FROM,
                width: 4.0,
            }),
        ));
    }
    for cell in Cell::all() {
        if let Some((seat, kind)) = game.piece_at(cell) {
            if mv.is_some_and(|m| m.to == cell) {
                scene.pieces.push(shape::polygon(
                    &shift(&piece_outline(kind, 6.0), centre(cell)),
                    None,
                    Some(Stroke {
                        color: layout::PATH,
                        width: 5.0,
                    }),
                ));
            }
            scene
                .pieces
                .push(piece_group(centre(cell), seat, kind, 1.0));
        }
    }
    if let Some(mv) = mv {
        arrow(&mut scene, &mv);
        for event in events {
            match *event {
                Event::Captured { cell, .. } => {
                    badge(&mut scene, cell, mv.from.column() > mv.to.column());
                }
                Event::ReachedFarRow { seat, .. } => {
                    // The goal just reached, outlined like the landing cell.
                    let (x, y, w, h) = band(seat);
                    scene.pieces.push(shape::rect(
                        x,
                        y,
                        w,
                        h,
                        None,
                        Some(Stroke {
                            color: layout::PATH,
                            width: 4.0,
                        }),
                    ));
                }
                Event::Moved { .. } | Event::NoMove { .. } => {}
            }
        }
    }
    scene
}

fn shift(points: &[Point], by: Point) -> Vec<Point> {
    points.iter().map(|(x, y)| (x + by.0, y + by.1)).collect()
}

/// What just happened, in words (at most 62 characters, the header's line), given the pieces
/// left by owner and shape.
fn subtitle(mv: Option<Move>, events: &[Event], count: &Count) -> String {
    let Some(mv) = mv else {
        return English.word(Word::KoanHint);
    };
    let (mut mover, mut moved, mut taken, mut far, mut stuck) =
        (WHITE_SEAT, Shape::Octagonal, None, false, None);
    for event in events {
        match *event {
            Event::Moved { seat, shape, .. } => (mover, moved) = (seat, shape),
            Event::Captured { shape, .. } => taken = Some(shape),
            Event::ReachedFarRow { .. } => far = true,
            Event::NoMove { loser } => stuck = Some(loser),
        }
    }
    let who = seat_name(mover);
    match (taken, far, stuck) {
        (Some(_), true, _) => format!("{who} played {mv}, capturing onto the far row"),
        (None, true, _) => format!("{who} played {mv}, reaching the far row"),
        (Some(_), false, Some(loser)) if count[usize::from(loser.0)] == [0, 0] => format!(
            "{who} played {mv}, taking {}'s last piece",
            seat_name(loser)
        ),
        (_, false, Some(loser)) => {
            format!("{who} played {mv}; {} has no legal move", seat_name(loser))
        }
        (Some(kind), false, None) => format!(
            "{who} played {mv}, taking {}'s {} piece",
            seat_name(other(mover)),
            shape_name(kind)
        ),
        (None, false, None) => format!(
            "{who} played {mv} with {} {} piece",
            if moved == Shape::Octagonal { "an" } else { "a" },
            shape_name(moved)
        ),
    }
}

fn shape_name(kind: Shape) -> &'static str {
    match kind {
        Shape::Octagonal => "octagonal",
        Shape::Square => "square",
    }
}

/// The goal band of a seat (its far row): left, top, width, height.
fn band(seat: Seat) -> (f32, f32, f32, f32) {
    let y = if seat == WHITE_SEAT {
        FRAME_TOP
    } else {
        FRAME_TOP + FRAME_HEIGHT - BAND
    };
    (FRAME_LEFT + 3.0, y + 2.0, FRAME_WIDTH - 6.0, BAND - 4.0)
}

/// The static board: frame, goal bands, cells and coordinates.
fn board(scene: &mut Scene, labels: &dyn Labels) {
    scene.board.push(shape::rect(
        FRAME_LEFT,
        FRAME_TOP,
        FRAME_WIDTH,
        FRAME_HEIGHT,
        Some(FRAME),
        None,
    ));
    // Goal bands: the far row of each side, in that side's colour.
    for (seat, fill, ink) in [(WHITE_SEAT, WHITE, layout::INK), (BLACK_SEAT, BLACK, WHITE)] {
        let text = labels.word(Word::KoanGoal { seat: seat.0 });
        let (x, y, w, h) = band(seat);
        scene.board.push(shape::rect(x, y, w, h, Some(fill), None));
        scene.board.push(Item::Text {
            at: (WIDTH / 2.0, y + h / 2.0),
            anchor: Anchor::Centre,
            size: 20.0,
            color: ink,
            text,
        });
    }
    for cell in Cell::all() {
        let fill = if cell.is_octagon() { OCTAGON } else { SQUARE };
        scene
            .board
            .push(shape::polygon(&cell_outline(cell), Some(fill), None));
    }
    // Coordinates, each centred on its column or row.
    let bottom = FRAME_TOP + FRAME_HEIGHT;
    for i in 0..11u8 {
        let x = LEFT + STEP * (f32::from(i) + 1.0);
        let letter = char::from(b'A' + i).to_string();
        scene.board.push(layout::label(
            (x, HEADER + LETTERS / 2.0 + 2.0),
            letter.clone(),
        ));
        scene
            .board
            .push(layout::label((x, bottom + LETTERS / 2.0 - 2.0), letter));
        let row = i + 1;
        let y = TOP + STEP * (12.0 - f32::from(row));
        scene
            .board
            .push(layout::label((FRAME_LEFT / 2.0, y), row.to_string()));
        scene.board.push(layout::label(
            (WIDTH - FRAME_LEFT / 2.0, y),
            row.to_string(),
        ));
    }
}

/// The number of pieces by owner (White, Black) and shape (octagonal, square).
type Count = [[u32; 2]; 2];

fn count(game: &Koan) -> Count {
    let mut count = [[0; 2]; 2];
    for cell in Cell::all() {
        if let Some((seat, kind)) = game.piece_at(cell) {
            count[usize::from(seat.0)][usize::from(kind == Shape::Square)] += 1;
        }
    }
    count
}

/// The pieces each side has left, by shape, at the right of the title line.
fn tally(scene: &mut Scene, count: &Count) {
    let mut x = WIDTH - 28.0;
    for seat in [BLACK_SEAT, WHITE_SEAT] {
        for kind in [Shape::Square, Shape::Octagonal] {
            let n = count[usize::from(seat.0)][usize::from(kind == Shape::Square)];
            scene.pieces.push(Item::Text {
                at: (x, 32.0),
                anchor: Anchor::Right,
                size: 22.0,
                color: layout::INK,
                text: n.to_string(),
            });
            x -= if n >= 10 { 28.0 } else { 16.0 } + 18.0;
            scene.pieces.push(piece_group((x, 32.0), seat, kind, 0.36));
            x -= 24.0;
        }
        x -= 14.0;
    }
}

/// The orange arrow from the from-cell's centre towards the moved piece's centre, drawn over
/// the piece (moves are one step, so the arrow would be too short to read if it stopped at the
/// piece's edge). Outlined in dark brown so it stays clear on green, cream, ivory and black.
fn arrow(scene: &mut Scene, mv: &Move) {
    let (a, b) = (centre(mv.from), centre(mv.to));
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt();
    let (ux, uy) = (dx / len, dy / len);
    let (nx, ny) = (-uy, ux);
    let tip = (b.0 - ux * 10.0, b.1 - uy * 10.0);
    let (shaft, head, head_len) = (4.0, 12.0, 20.0);
    let base = (tip.0 - ux * head_len, tip.1 - uy * head_len);
    let side = |p: Point, w: f32| (p.0 + nx * w, p.1 + ny * w);
    let edge = Stroke {
        color: ARROW_EDGE,
        width: 2.0,
    };
    scene
        .pieces
        .push(shape::circle(a, 8.0, Some(layout::PATH), Some(edge)));
    scene.pieces.push(shape::polygon(
        &[
            side(a, shaft),
            side(base, shaft),
            side(base, head),
            tip,
            side(base, -head),
            side(base, -shaft),
            side(a, -shaft),
        ],
        Some(layout::PATH),
        Some(edge),
    ));
    // The dot's outline is covered by the shaft where they meet: redraw the dot's fill.
    scene
        .pieces
        .push(shape::circle(a, 7.0, Some(layout::PATH), None));
}

/// A vermillion badge with a white × beside the piece now standing on `cell`: a piece was taken
/// there. It sits on the right of the piece, or on the left when the arrow comes from the
/// right, and fits between the neighbouring pieces whatever stands there.
fn badge(scene: &mut Scene, cell: Cell, left: bool) {
    let c = centre(cell);
    let mut items = vec![shape::circle(
        (0.0, 0.0),
        13.0,
        Some(layout::CAPTURED),
        Some(Stroke {
            color: layout::PAPER,
            width: 2.0,
        }),
    )];
    items.extend(layout::cross((0.0, 0.0), 5.5, layout::PAPER, 3.0));
    scene.pieces.push(Item::Group {
        at: (if left { c.0 - 40.0 } else { c.0 + 40.0 }, c.1),
        radius: 15.0,
        items,
    });
}
