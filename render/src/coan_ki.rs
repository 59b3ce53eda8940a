//! Coan Ki pictures (`shared/rules/coan-ki.md`, section 11): the eight wooden strips side by
//! side, each split into White's end (rank 1, near side) and Black's end (rank 2), with the
//! file letters and ranks exactly as typed; the anticlockwise loop drawn as a faint track with
//! small arrows; stacks as large discs with their counts (White ivory, Black near-black;
//! travelling pieces solid, finished pieces hollow, "turned over"); the dice just thrown (both
//! roll-off dice at the start); the last play as arrows along the loop from the cells it left to
//! the cells it reached, the removed piece after 1-1, or the lost throw; whose turn it is or who
//! won; blocks with `block8=on`; and a footer with what the throw allows and each side's count of
//! travelling, finished and removed pieces.
//!
//! The board (strips, track, coordinates) is the cached layer; pieces and dice are sprites whose
//! items depend only on their kind and count.

use tabula_core::coan_ki::{Cell, CoanKi, Event, Roll, Throw};
use tabula_core::{Action, Applied, Game, GameId, Outcome, Seat, Status};

use crate::labels::{English, Labels, Word};

use crate::layout::{self, HEADER, INK, MUTED, WIDTH};
use crate::raster;
use crate::scene::{Anchor, Color, Item, Point, Scene, Stroke, shape};

const WHITE: Seat = Seat(0);
const BLACK: Seat = Seat(1);

/// Room on the left and right for the rank labels.
const SIDE: f32 = 34.0;
/// The gap between two strips.
const GAP: f32 = 8.0;
/// The width of a strip.
const STRIP: f32 = (WIDTH - 2.0 * SIDE - 7.0 * GAP) / 8.0;
/// The band above and below the board with the file letters.
const BAND: f32 = 34.0;
/// The top of the strips.
const BOARD_TOP: f32 = HEADER + BAND;
/// The height of one end of a strip (one cell).
const CELL_H: f32 = 204.0;
/// The line between White's ends (below) and Black's ends (above).
const DIVIDER: f32 = BOARD_TOP + CELL_H;
/// The bottom of the strips.
const BOARD_BOTTOM: f32 = DIVIDER + CELL_H;
/// The distance of the track from the divider.
const LANE: f32 = 17.0;
/// The band next to the divider kept free of pieces, for the track and the move arrows.
const RESERVE: f32 = 36.0;
/// The space between the pieces and the outer end of a strip.
const PAD: f32 = 6.0;
/// Vertical distance between two stacks on one cell, at most.
const PITCH: f32 = 62.0;
/// The radius of a piece.
const PIECE: f32 = 26.0;
/// Stack layers drawn below a piece, each this much lower.
const LAYER: f32 = 3.5;
/// The top of the footer.
const FOOTER: f32 = BOARD_BOTTOM + BAND + 6.0;
/// The picture's height.
const HEIGHT: f32 = FOOTER + 74.0;
/// The size of captions and footer text.
const TEXT: f32 = 21.0;
/// The size of a die.
const DIE: f32 = 44.0;

const WOOD: Color = Color::hex(0xd8b27a);
const WOOD_EDGE: Color = Color::hex(0x7a5432);
const GROOVE: Color = Color::hex(0x8f6a3f);
const HOLE: Color = Color::hex(0xc29a63);
const TRACK: Color = Color::hex(0x7a5432);
const CASING: Color = Color::hex(0x2b1d0e);
const IVORY: Color = Color::hex(0xfaf6ec);
const IVORY_SIDE: Color = Color::hex(0xd6ccb8);
const IVORY_RIM: Color = Color::hex(0x3b3b3b);
const EBONY: Color = Color::hex(0x1f1f1f);
const EBONY_SIDE: Color = Color::hex(0x4d4d4d);
const EBONY_RIM: Color = Color::hex(0x000000);

fn seat_name(seat: Seat) -> &'static str {
    if seat == WHITE { "White" } else { "Black" }
}

fn other(seat: Seat) -> Seat {
    if seat == WHITE { BLACK } else { WHITE }
}

/// The x of a strip's centre.
fn strip_x(file: u8) -> f32 {
    SIDE + f32::from(file) * (STRIP + GAP) + STRIP / 2.0
}

/// The top of a cell.
fn cell_top(cell: Cell) -> f32 {
    if cell.rank() == 2 { BOARD_TOP } else { DIVIDER }
}

/// The point of a cell on the track, `d` pixels outside the middle of the track (paths of two
/// parts run side by side). The track turns round the strips `h` and `a`.
fn lane_point(cell: Cell, d: f32) -> Point {
    let x = strip_x(cell.file())
        + match cell.file() {
            7 => d,
            0 => -d,
            _ => 0.0,
        };
    let y = if cell.rank() == 1 {
        DIVIDER + LANE + d
    } else {
        DIVIDER - LANE - d
    };
    (x, y)
}

/// The cell `n` steps further along the loop.
fn step(cell: Cell, n: u8) -> Cell {
    let l = (cell.loop_index() + n) % 16;
    let (file, rank) = if l < 8 { (l, 1) } else { (15 - l, 2) };
    Cell::new(file, rank).unwrap_or(cell)
}

/// Whether a cell is one of `seat`'s two start cells, where its finished pieces stand.
fn is_home_of(seat: Seat, cell: Cell) -> bool {
    let first = if seat == WHITE { 0 } else { 8 };
    (cell.loop_index() + 16 - first) % 16 < 2
}

/// A rectangle with rounded corners, given by its corner and size.
fn rounded(
    (x, y): Point,
    (w, h): Point,
    r: f32,
    fill: Option<Color>,
    stroke: Option<Stroke>,
) -> Item {
    shape::rounded_rect(x, y, w, h, r, fill, stroke)
}

/// A piece (a stack when `count` is given) drawn around the origin: solid when travelling,
/// hollow when finished (turned over); a stack of two or more shows its edge below.
fn piece(seat: Seat, finished: bool, count: Option<u8>, r: f32) -> Vec<Item> {
    let (face, side, rim, text) = if seat == WHITE {
        (IVORY, IVORY_SIDE, IVORY_RIM, INK)
    } else {
        (EBONY, EBONY_SIDE, EBONY_RIM, IVORY)
    };
    let rim = Some(Stroke {
        color: rim,
        width: (r * 0.09).max(1.5),
    });
    let layers = match count {
        Some(n) if n >= 3 => 2u8,
        Some(2) => 1,
        _ => 0,
    };
    let top = -f32::from(layers) * LAYER / 2.0;
    let mut items = Vec::new();
    for j in (1..=layers).rev() {
        items.push(shape::circle(
            (0.0, top + f32::from(j) * LAYER),
            r,
            Some(side),
            rim,
        ));
    }
    items.push(shape::circle((0.0, top), r, Some(face), rim));
    let text = if finished {
        items.push(shape::circle(
            (0.0, top),
            r * 0.66,
            Some(HOLE),
            Some(Stroke {
                color: CASING,
                width: 1.5,
            }),
        ));
        INK
    } else {
        text
    };
    if let Some(n) = count {
        items.push(Item::Text {
            at: (0.0, top),
            anchor: Anchor::Centre,
            size: if finished { 21.0 } else { 24.0 },
            color: text,
            text: n.to_string(),
        });
    }
    items
}

/// A die showing `value`, drawn around the origin in `seat`'s colours.
fn die(seat: Seat, value: u8) -> Vec<Item> {
    let (face, rim, pip) = if seat == WHITE {
        (IVORY, IVORY_RIM, INK)
    } else {
        (EBONY, EBONY_RIM, IVORY)
    };
    let h = DIE / 2.0;
    let mut items = vec![rounded(
        (-h, -h),
        (DIE, DIE),
        8.0,
        Some(face),
        Some(Stroke {
            color: rim,
            width: 2.0,
        }),
    )];
    let o = DIE * 0.26;
    let pips: &[(f32, f32)] = match value {
        1 => &[(0.0, 0.0)],
        2 => &[(-1.0, -1.0), (1.0, 1.0)],
        3 => &[(-1.0, -1.0), (0.0, 0.0), (1.0, 1.0)],
        4 => &[(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)],
        5 => &[
            (-1.0, -1.0),
            (1.0, -1.0),
            (0.0, 0.0),
            (-1.0, 1.0),
            (1.0, 1.0),
        ],
        _ => &[
            (-1.0, -1.0),
            (1.0, -1.0),
            (-1.0, 0.0),
            (1.0, 0.0),
            (-1.0, 1.0),
            (1.0, 1.0),
        ],
    };
    for (px, py) in pips {
        items.push(shape::circle((px * o, py * o), DIE * 0.1, Some(pip), None));
    }
    items
}

/// The width `text` takes at `size`, or a generous estimate if the font cannot be read (the
/// raster step reports that error).
fn width_of(text: &str, size: f32) -> f32 {
    raster::text_width(text, size).unwrap_or(size * 0.6 * text.chars().count() as f32)
}

/// A line of text at `TEXT` size starting at `(x, y)`, one sprite per word: the words of the
/// captions and the footer (a few hundred, with the counts, cells and throws) recur from picture
/// to picture, so each is rasterised once; plays in notation are drawn as plain text. Returns
/// the x where the line ends.
fn line(scene: &mut Scene, at: Point, color: Color, text: &str) -> f32 {
    line_sized(scene, at, TEXT, color, text)
}

/// [`line`] at another size.
fn line_sized(scene: &mut Scene, (x, y): Point, size: f32, color: Color, text: &str) -> f32 {
    let space = width_of(" ", size);
    let mut x = x;
    for (i, word) in text.split(' ').enumerate() {
        if i > 0 {
            x += space;
        }
        let w = width_of(word, size);
        if word.contains('+') {
            // A play in notation: too many different ones to keep as sprites.
            scene.pieces.push(Item::Text {
                at: (x, y),
                anchor: Anchor::Left,
                size,
                color,
                text: word.to_string(),
            });
            x += w;
            continue;
        }
        scene.pieces.push(Item::Group {
            at: (x + w / 2.0, y),
            radius: (w / 2.0).max(size * 0.7),
            items: vec![Item::Text {
                at: (0.0, 0.0),
                anchor: Anchor::Centre,
                size,
                color,
                text: word.to_string(),
            }],
        });
        x += w;
    }
    x
}

/// A text set with [`layout::fit`] to the width of the picture, drawn at `x` = 28 in one or two
/// lines centred on `middle`.
fn caption(scene: &mut Scene, middle: f32, min: f32, color: Color, text: &str) {
    let fitted = layout::fit(text, TEXT, min, WIDTH - 56.0);
    for (text, y) in fitted.lines.iter().zip(fitted.rows(middle)) {
        line_sized(scene, (28.0, y), fitted.size, color, text);
    }
}

/// What a throw other than 1-1 allows, in words (rule 5.4).
fn plays(throw: Throw, labels: &dyn Labels) -> String {
    let (lo, hi) = (throw.lo(), throw.hi());
    let written = throw.to_string();
    if lo == hi {
        labels.word(Word::PlaysDouble {
            throw: &written,
            die: lo,
        })
    } else {
        labels.word(Word::PlaysTwo {
            throw: &written,
            lo,
            hi,
        })
    }
}

/// The static board: strips split into two ends, start cells, the track with its arrows, and
/// the coordinates.
fn board(scene: &mut Scene) {
    let edge = Some(Stroke {
        color: WOOD_EDGE,
        width: 2.5,
    });
    for file in 0..8u8 {
        let x = strip_x(file) - STRIP / 2.0;
        scene.board.push(rounded(
            (x, BOARD_TOP),
            (STRIP, 2.0 * CELL_H),
            6.0,
            Some(WOOD),
            edge,
        ));
        scene.board.push(shape::polyline(
            &[(x + 1.5, DIVIDER), (x + STRIP - 1.5, DIVIDER)],
            Stroke {
                color: GROOVE,
                width: 3.0,
            },
        ));
    }
    // The start cells, where finished pieces stand: an inlaid frame in the owner's colour.
    for cell in Cell::ALL {
        for seat in [WHITE, BLACK] {
            if is_home_of(seat, cell) {
                let x = strip_x(cell.file()) - STRIP / 2.0 + 5.0;
                let y = cell_top(cell) + 5.0;
                scene.board.push(rounded(
                    (x, y),
                    (STRIP - 10.0, CELL_H - 10.0),
                    4.0,
                    None,
                    Some(Stroke {
                        color: if seat == WHITE { IVORY } else { EBONY },
                        width: 2.5,
                    }),
                ));
            }
        }
    }
    // The loop, anticlockwise: a faint track with an arrow at every step between strips.
    let a1 = Cell::ALL[0];
    let track: Vec<Point> = (0..=16).map(|i| lane_point(step(a1, i), 0.0)).collect();
    scene.board.push(shape::polyline(
        &track,
        Stroke {
            color: TRACK.alpha(150),
            width: 2.0,
        },
    ));
    let arrow = Some(TRACK);
    for i in 0..7u8 {
        let x = strip_x(i) + STRIP / 2.0 + GAP / 2.0;
        let y1 = DIVIDER + LANE;
        let y2 = DIVIDER - LANE;
        scene.board.push(shape::polygon(
            &[(x + 4.5, y1), (x - 4.0, y1 - 6.0), (x - 4.0, y1 + 6.0)],
            arrow,
            None,
        ));
        scene.board.push(shape::polygon(
            &[(x - 4.5, y2), (x + 4.0, y2 - 6.0), (x + 4.0, y2 + 6.0)],
            arrow,
            None,
        ));
    }
    let (xh, xa) = (strip_x(7), strip_x(0));
    scene.board.push(shape::polygon(
        &[
            (xh, DIVIDER - 7.0),
            (xh - 7.0, DIVIDER + 5.0),
            (xh + 7.0, DIVIDER + 5.0),
        ],
        arrow,
        None,
    ));
    scene.board.push(shape::polygon(
        &[
            (xa, DIVIDER + 7.0),
            (xa - 7.0, DIVIDER - 5.0),
            (xa + 7.0, DIVIDER - 5.0),
        ],
        arrow,
        None,
    ));
    // Coordinates exactly as typed: files a–h above and below, ranks 1 and 2 on both sides.
    for file in 0..8u8 {
        let letter = char::from(b'a' + file).to_string();
        let x = strip_x(file);
        scene
            .board
            .push(layout::label((x, BOARD_TOP - BAND / 2.0), letter.clone()));
        scene
            .board
            .push(layout::label((x, BOARD_BOTTOM + BAND / 2.0), letter));
    }
    for (rank, y) in [
        ("2", BOARD_TOP + CELL_H / 2.0),
        ("1", DIVIDER + CELL_H / 2.0),
    ] {
        scene
            .board
            .push(layout::label((SIDE / 2.0, y), rank.to_string()));
        scene
            .board
            .push(layout::label((WIDTH - SIDE / 2.0, y), rank.to_string()));
    }
}

/// The stacks on a cell, top to bottom: Black finished, Black travelling, White travelling,
/// White finished (finished pieces stand at their owner's end of the strip).
fn stacks(game: &CoanKi, cell: Cell, scene: &mut Scene) {
    let kinds = [
        (BLACK, true, game.finished_at(BLACK, cell)),
        (BLACK, false, game.travelling_at(BLACK, cell)),
        (WHITE, false, game.travelling_at(WHITE, cell)),
        (WHITE, true, game.finished_at(WHITE, cell)),
    ];
    let present: Vec<_> = kinds.iter().filter(|k| k.2 > 0).collect();
    let (top, bottom) = if cell.rank() == 2 {
        (BOARD_TOP + PAD, DIVIDER - RESERVE)
    } else {
        (DIVIDER + RESERVE, BOARD_BOTTOM - PAD)
    };
    let mid = (top + bottom) / 2.0;
    let x = strip_x(cell.file());
    let n = present.len() as f32;
    let pitch = PITCH.min((bottom - top - 2.0 * PIECE) / (n - 1.0).max(1.0));
    for (i, (seat, finished, count)) in present.into_iter().enumerate() {
        let y = mid + (i as f32 - (n - 1.0) / 2.0) * pitch;
        scene.pieces.push(Item::Group {
            at: (x, y),
            radius: PIECE + 6.0,
            items: piece(*seat, *finished, Some(*count), PIECE),
        });
    }
}

/// A block's barrier across the track, drawn around the origin.
fn barrier() -> Vec<Item> {
    vec![rounded(
        (-6.0, -17.0),
        (12.0, 34.0),
        3.0,
        Some(layout::CAPTURED),
        Some(Stroke {
            color: CASING,
            width: 2.0,
        }),
    )]
}

/// An outline just inside a cell.
fn outline(cell: Cell, inset: f32, color: Color) -> Item {
    let x = strip_x(cell.file()) - STRIP / 2.0 + inset;
    rounded(
        (x, cell_top(cell) + inset),
        (STRIP - 2.0 * inset, CELL_H - 2.0 * inset),
        5.0,
        None,
        Some(Stroke { color, width: 4.0 }),
    )
}

/// An arrow along the track through `points`, in `color` with a dark casing.
fn route(points: &[Point], color: Color) -> Vec<Item> {
    let [.., before, tip] = points else {
        return Vec::new();
    };
    let (dx, dy) = (tip.0 - before.0, tip.1 - before.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-3);
    let (ux, uy) = (dx / len, dy / len);
    let head = 15.0;
    let base = (tip.0 - ux * head, tip.1 - uy * head);
    let wing = 8.5;
    let left = (base.0 - uy * wing, base.1 + ux * wing);
    let right = (base.0 + uy * wing, base.1 - ux * wing);
    let mut shaft: Vec<Point> = points[..points.len() - 1].to_vec();
    shaft.push(base);
    vec![
        shape::polyline(
            &shaft,
            Stroke {
                color: CASING,
                width: 8.0,
            },
        ),
        shape::polygon(
            &[*tip, left, right],
            Some(color),
            Some(Stroke {
                color: CASING,
                width: 2.0,
            }),
        ),
        shape::polyline(&shaft, Stroke { color, width: 4.5 }),
    ]
}

/// One moved piece: the path from the cell it left to the cell it reached along the loop.
fn part_path(from: Cell, to: Cell, d: f32) -> Vec<Point> {
    let steps = (to.loop_index() + 16 - from.loop_index()) % 16;
    (0..=steps).map(|i| lane_point(step(from, i), d)).collect()
}

/// What the last action did, read from its events.
#[derive(Default)]
struct Last {
    moved: Vec<(Seat, Cell, Cell, bool)>,
    removed: Option<(Seat, Cell)>,
    lost: Option<(Seat, Throw)>,
    penalty: Option<Seat>,
    tie: Option<u8>,
    rolloff: Option<(Seat, u8, u8)>,
    won: Option<Seat>,
}

impl Last {
    fn read<'a>(events: impl IntoIterator<Item = &'a Event>) -> Last {
        let mut last = Last::default();
        for event in events {
            match *event {
                Event::RollOffTie { die } => last.tie = Some(die),
                Event::RollOffWon { seat, white, black } => {
                    last.rolloff = Some((seat, white, black));
                }
                Event::Moved {
                    seat,
                    from,
                    to,
                    finished,
                    ..
                } => last.moved.push((seat, from, to, finished)),
                Event::Penalty { payer, .. } => last.penalty = Some(payer),
                Event::Removed { seat, cell } => last.removed = Some((seat, cell)),
                Event::ThrowLost { seat, throw } => last.lost = Some((seat, throw)),
                Event::Won { seat } => last.won = Some(seat),
            }
        }
        last
    }
}

/// The header texts: the title (whose turn, or who won) with the seat of its icon, and the
/// subtitle (what just happened).
fn header(
    game: &CoanKi,
    recent: &[&Applied<CoanKi>],
    happened: &Last,
    labels: &dyn Labels,
) -> (String, Option<Seat>, String) {
    let last = recent.last().copied();
    let played = recent.iter().rev().find_map(|(action, _)| match action {
        Action::Move(mv) => Some(mv),
        Action::Roll(_) => None,
    });
    let (title, icon) = if let Some(seat) = winner(game) {
        (
            labels.word(Word::Wins {
                game: GameId::CoanKi,
                seat: seat.0,
            }),
            Some(seat),
        )
    } else if game.in_rolloff() {
        (
            labels.word(Word::RollOff {
                again: happened.tie.is_some(),
            }),
            None,
        )
    } else if let Some(seat) = game.seat_to_act() {
        let title = match game.throw() {
            Some(t) if t.lo() == 1 && t.hi() == 1 => {
                labels.word(Word::ToRemovePiece { seat: seat.0 })
            }
            Some(t) => labels.word(Word::ToPlay {
                seat: seat.0,
                throw: &t.to_string(),
            }),
            None => labels.word(Word::ToThrow { seat: seat.0 }),
        };
        (title, Some(seat))
    } else {
        (labels.word(Word::GameOver), None)
    };

    let mut subtitle = String::new();
    if let Some(die) = happened.tie {
        subtitle = format!("Both threw {die}: the roll-off is thrown again");
    } else if let Some((seat, white, black)) = happened.rolloff {
        let throw = Throw::new(white, black)
            .map(|t| t.to_string())
            .unwrap_or_default();
        subtitle = format!(
            "Roll-off: White {white}, Black {black}. {} starts with {throw}",
            seat_name(seat)
        );
    } else if let Some((seat, throw)) = happened.lost {
        subtitle = format!(
            "{} threw {throw}: no play fits it, the throw is lost",
            seat_name(seat)
        );
    } else if let Some(payer) = happened.penalty {
        subtitle = format!(
            "{} threw 1-1: pays {} a fine of 10% of the stake",
            seat_name(payer),
            seat_name(other(payer))
        );
    } else if let Some((seat, cell)) = happened.removed {
        let what = if happened.won.is_some() {
            "the last travelling piece".to_string()
        } else {
            format!("the piece on {cell}")
        };
        subtitle = format!(
            "{} took {what} out (1-1, fine paid to {})",
            seat_name(seat),
            seat_name(other(seat))
        );
    } else if let Some(mv) = played {
        if let Some((seat, ..)) = happened.moved.first() {
            let home = happened.moved.iter().filter(|m| m.3).count();
            let tail = match (happened.won.is_some(), home) {
                (true, _) => ": the last piece is home".to_string(),
                (false, 0) => String::new(),
                (false, 1) => ", one piece home".to_string(),
                (false, n) => format!(", {n} pieces home"),
            };
            subtitle = format!("{} played {mv}{tail}", seat_name(*seat));
        }
    } else if let Some((Action::Roll(Roll::Throw(t)), _)) = last
        && let Some(seat) = game.seat_to_act()
    {
        subtitle = format!("{} threw {t}", seat_name(seat));
    }
    (title, icon, subtitle)
}

fn winner(game: &CoanKi) -> Option<Seat> {
    match game.status() {
        Status::Done(Outcome::Winner(team)) => Some(Seat(team.0)),
        _ => None,
    }
}

/// The dice to show in the header: (seat colours, value) for each die, and whether the throw
/// was lost.
fn dice(game: &CoanKi, last: Option<&Applied<CoanKi>>, happened: &Last) -> (Vec<(Seat, u8)>, bool) {
    match last {
        Some((Action::Roll(Roll::RollOff { white, black }), _)) => {
            (vec![(WHITE, *white), (BLACK, *black)], false)
        }
        Some((Action::Roll(Roll::Throw(t)), _)) => {
            let seat = happened
                .lost
                .map(|(s, _)| s)
                .or(happened.penalty)
                .or(game.seat_to_act())
                .unwrap_or(WHITE);
            (
                vec![(seat, t.lo()), (seat, t.hi())],
                happened.lost.is_some(),
            )
        }
        _ => match (game.throw(), game.seat_to_act()) {
            (Some(t), Some(seat)) => (vec![(seat, t.lo()), (seat, t.hi())], false),
            _ => (Vec::new(), false),
        },
    }
}

/// What the player to act may do now, when the title does not say it all: the plays of the
/// throw, the removal after 1-1, or how the roll-off works.
fn hint(game: &CoanKi, labels: &dyn Labels) -> String {
    if game.in_rolloff() {
        return labels.word(Word::RollOffHint);
    }
    match (game.throw(), game.seat_to_act()) {
        (Some(t), Some(seat)) if t.lo() == 1 && t.hi() == 1 => {
            labels.word(Word::RemoveHint { seat: seat.0 })
        }
        (Some(t), Some(_)) => plays(t, labels),
        _ => String::new(),
    }
}

/// The footer: for each side its travelling, finished and removed pieces (the two piece shapes
/// double as the legend) and its blocks with `block8=on`; below, the hint.
fn footer(game: &CoanKi, scene: &mut Scene, labels: &dyn Labels) {
    let y = FOOTER + 16.0;
    let mut x = 28.0;
    for seat in [WHITE, BLACK] {
        let (mut travelling, mut finished) = (0u32, 0u32);
        let mut blocks = Vec::new();
        for cell in Cell::ALL {
            travelling += u32::from(game.travelling_at(seat, cell));
            finished += u32::from(game.finished_at(seat, cell));
            if game.is_block_for(other(seat), cell) {
                blocks.push(cell.to_string());
            }
        }
        let out = 16u32.saturating_sub(travelling + finished);
        let color = if game.seat_to_act() == Some(seat) || winner(game) == Some(seat) {
            INK
        } else {
            MUTED
        };
        let mut token = |scene: &mut Scene, icon: Option<Vec<Item>>, text: String| {
            if let Some(items) = icon {
                scene.pieces.push(Item::Group {
                    at: (x + 14.0, y),
                    radius: 19.0,
                    items,
                });
                x += 34.0;
            }
            x = line(scene, (x, y), color, &text) + 16.0;
        };
        token(
            scene,
            Some(piece(seat, false, None, 14.0)),
            travelling.to_string(),
        );
        token(
            scene,
            Some(piece(seat, true, None, 14.0)),
            labels.word(Word::Home {
                count: finished as usize,
            }),
        );
        if out > 0 {
            token(
                scene,
                None,
                labels.word(Word::Out {
                    count: out as usize,
                }),
            );
        }
        if !blocks.is_empty() {
            token(scene, Some(barrier()), blocks.join(" "));
        }
        x = x.max(WIDTH / 2.0) + 12.0;
    }
    let hint = hint(game, labels);
    if !hint.is_empty() {
        caption(scene, FOOTER + 54.0, 15.0, INK, &hint);
    }
}

/// The scene of a Coan Ki position, with the last action highlighted.
pub fn scene(game: &CoanKi, last: Option<&Applied<CoanKi>>) -> Scene {
    scene_in(game, last, &English, None)
}

/// The scene with its words said by `labels`, and `narration` (when given) as the account of
/// the last action.
pub fn scene_in(
    game: &CoanKi,
    last: Option<&Applied<CoanKi>>,
    labels: &dyn Labels,
    narration: Option<String>,
) -> Scene {
    let recent: Vec<&Applied<CoanKi>> = last.into_iter().collect();
    scene_after(game, &recent, labels, narration)
}

/// The scene after `recent`: the last play and the throws that followed it (issue 37, item 8).
/// A player's turn begins with their own throw, drawn at once after the opponent's play, so
/// the board shows the play the opponent just made (its paths, the cells it left and reached)
/// with the new throw's dice; `narration` (when given) is the account of them all.
pub fn scene_after(
    game: &CoanKi,
    recent: &[&Applied<CoanKi>],
    labels: &dyn Labels,
    narration: Option<String>,
) -> Scene {
    let last = recent.last().copied();
    let happened = Last::read(recent.iter().flat_map(|(_, events)| events));
    let (title, icon_seat, mut subtitle) = header(game, recent, &happened, labels);
    if let (Some(_), Some(narration)) = (last, narration) {
        subtitle = narration;
    }
    let icon = icon_seat.map(|seat| Item::Group {
        at: (0.0, 0.0),
        radius: 15.0,
        items: piece(seat, false, None, 14.0),
    });
    let mut scene = layout::page(HEIGHT, "coan-ki".to_string(), &title, icon, "");
    if !subtitle.is_empty() {
        caption(&mut scene, 70.0, layout::SUBTITLE_MIN, MUTED, &subtitle);
    }
    board(&mut scene);

    // The dice just thrown, at the right of the title.
    // (Only the last action's own events say whose dice they are and whether they were lost.)
    let own = Last::read(last.into_iter().flat_map(|(_, events)| events));
    let (dice, lost) = dice(game, last, &own);
    let mut x = WIDTH - 28.0 - DIE / 2.0 - (DIE + 10.0) * (dice.len().max(1) - 1) as f32;
    let first = x;
    for (seat, value) in &dice {
        scene.pieces.push(Item::Group {
            at: (x, 32.0),
            radius: DIE / 2.0 + 2.0,
            items: die(*seat, *value),
        });
        x += DIE + 10.0;
    }
    if lost {
        let (a, b) = (
            (first - DIE / 2.0, 32.0 + DIE / 2.0 - 2.0),
            (x - 10.0 - DIE / 2.0, 32.0 - DIE / 2.0 + 2.0),
        );
        scene.pieces.push(shape::polyline(
            &[a, b],
            Stroke {
                color: IVORY,
                width: 9.0,
            },
        ));
        scene.pieces.push(shape::polyline(
            &[a, b],
            Stroke {
                color: layout::CAPTURED,
                width: 5.0,
            },
        ));
    }

    // Cells of the last play: where pieces left (blue) and arrived (orange), or the removal.
    for (_, from, to, _) in &happened.moved {
        scene.pieces.push(outline(*to, 2.0, layout::PATH));
        let inset = if happened.moved.iter().any(|m| m.2 == *from) {
            8.0
        } else {
            2.0
        };
        scene.pieces.push(outline(*from, inset, layout::FROM));
    }
    if let Some((_, cell)) = happened.removed {
        scene.pieces.push(outline(cell, 2.0, layout::CAPTURED));
    }

    // The blocks (block8=on): a barrier across the track.
    for cell in Cell::ALL {
        if game.is_block_for(WHITE, cell) || game.is_block_for(BLACK, cell) {
            let (x, y) = lane_point(cell, 0.0);
            scene.pieces.push(Item::Group {
                at: (x, y),
                radius: 19.0,
                items: barrier(),
            });
        }
    }

    for cell in Cell::ALL {
        stacks(game, cell, &mut scene);
    }

    // The paths of the last play, side by side when two pieces moved.
    let parts = happened.moved.len();
    for (i, (_, from, to, _)) in happened.moved.iter().enumerate() {
        let d = if parts > 1 {
            if i == 0 { -5.0 } else { 5.0 }
        } else {
            0.0
        };
        let points = part_path(*from, *to, d);
        scene.pieces.extend(route(&points, layout::PATH));
        scene.pieces.push(shape::circle(
            points[0],
            6.0,
            Some(layout::FROM),
            Some(Stroke {
                color: IVORY,
                width: 2.0,
            }),
        ));
    }
    // The removed piece: a ghost on the track, crossed out.
    if let Some((seat, cell)) = happened.removed {
        let at = lane_point(cell, 0.0);
        scene.pieces.push(Item::Group {
            at,
            radius: 17.0,
            items: piece(seat, false, None, 14.0),
        });
        scene
            .pieces
            .extend(layout::cross(at, 12.0, layout::CAPTURED, 5.0));
    }

    footer(game, &mut scene, labels);
    scene
}
