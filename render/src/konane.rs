//! Konane pictures (`shared/rules/konane.md`, section 11): the square board of hollows with
//! files along the bottom and top and ranks up both sides, Black stones (dark, with a light ring)
//! and White stones (light, with a dark rim), the last move (removed cell; or start, path,
//! landings and captured cells), the removable cells during the opening, and whose turn it is.

use tabula_core::konane::{Event, Konane, Move};
use tabula_core::{Action, Applied, Game, GameId, Seat, Status};

use crate::labels::{English, Labels, Word, turn_title};
use crate::layout::{self, HEADER, WIDTH};
use crate::scene::{Color, Item, Scene, Stroke, shape};

const MARGIN: f32 = 40.0;
const WOOD: Color = Color::hex(0xd8b27a);
const WOOD_EDGE: Color = Color::hex(0x7a5432);
const HOLLOW: Color = Color::hex(0xb88d55);
const BLACK: Color = Color::hex(0x1f1f1f);
const BLACK_RING: Color = Color::hex(0xd9d9d9);
const WHITE: Color = Color::hex(0xfaf6ec);
const WHITE_RIM: Color = Color::hex(0x3b3b3b);

/// A stone drawn around the origin.
fn stone(seat: Seat, radius: f32) -> Vec<Item> {
    if seat == Seat(0) {
        vec![
            shape::circle((0.0, 0.0), radius, Some(BLACK), None),
            shape::circle(
                (0.0, 0.0),
                radius * 0.58,
                None,
                Some(Stroke {
                    color: BLACK_RING,
                    width: (radius * 0.13).max(1.5),
                }),
            ),
        ]
    } else {
        vec![shape::circle(
            (0.0, 0.0),
            radius,
            Some(WHITE),
            Some(Stroke {
                color: WHITE_RIM,
                width: (radius * 0.08).max(1.5),
            }),
        )]
    }
}

fn seat_name(seat: Seat) -> &'static str {
    if seat == Seat(0) { "Black" } else { "White" }
}

/// The scene of a Konane position, with the last action highlighted.
pub fn scene(game: &Konane, last: Option<&Applied<Konane>>) -> Scene {
    scene_in(game, last, &English, None)
}

/// The scene with its words said by `labels`, and `narration` (when given) as the account of
/// the last action.
pub fn scene_in(
    game: &Konane,
    last: Option<&Applied<Konane>>,
    labels: &dyn Labels,
    narration: Option<String>,
) -> Scene {
    let n = game.board_size();
    let cell = (WIDTH - 2.0 * MARGIN) / f32::from(n);
    let top = HEADER + MARGIN;
    let height = top + cell * f32::from(n) + MARGIN;
    let centre = |file: u8, rank: u8| {
        (
            MARGIN + cell * (f32::from(file) + 0.5),
            top + cell * (f32::from(n - 1 - rank) + 0.5),
        )
    };

    let (title, icon_seat) = match game.status() {
        Status::Decision(seat) if game.in_opening() => {
            (labels.word(Word::ToRemoveStone { seat: seat.0 }), seat)
        }
        status => turn_title(labels, GameId::Konane, status, Seat(0)),
    };
    let subtitle = narration.unwrap_or_else(|| {
        last.map(|(_, events)| events.iter().map(narrate).collect::<Vec<_>>().join("; "))
            .unwrap_or_default()
    });
    let icon = Item::Group {
        at: (0.0, 0.0),
        radius: 14.0,
        items: stone(icon_seat, 13.0),
    };
    let mut scene = layout::page(height, format!("konane-{n}"), &title, Some(icon), &subtitle);

    // The board: wood, hollows, coordinates exactly as typed.
    let side = cell * f32::from(n);
    scene.board.push(shape::rect(
        MARGIN,
        top,
        side,
        side,
        Some(WOOD),
        Some(Stroke {
            color: WOOD_EDGE,
            width: 3.0,
        }),
    ));
    for f in 0..n {
        for r in 0..n {
            scene
                .board
                .push(shape::circle(centre(f, r), cell * 0.16, Some(HOLLOW), None));
        }
    }
    for i in 0..n {
        let (x, _) = centre(i, 0);
        let (_, y) = centre(0, i);
        let letter = char::from(b'a' + i).to_string();
        scene
            .board
            .push(layout::label((x, top - MARGIN / 2.0), letter.clone()));
        scene
            .board
            .push(layout::label((x, top + side + MARGIN / 2.0), letter));
        scene
            .board
            .push(layout::label((MARGIN / 2.0, y), (i + 1).to_string()));
        scene.board.push(layout::label(
            (WIDTH - MARGIN / 2.0, y),
            (i + 1).to_string(),
        ));
    }

    // Hints: the cells that may be removed in the opening.
    if game.in_opening() {
        for mv in game.moves() {
            if let [(f, r)] = mv.path()[..] {
                scene.pieces.push(layout::ring(
                    centre(f, r),
                    cell * 0.47,
                    layout::FROM,
                    cell * 0.05,
                ));
            }
        }
    }

    // Stones.
    let radius = cell * 0.4;
    for f in 0..n {
        for r in 0..n {
            if let Some(seat) = game.stone(f, r) {
                scene.pieces.push(Item::Group {
                    at: centre(f, r),
                    radius: radius + 2.0,
                    items: stone(seat, radius),
                });
            }
        }
    }

    // The last move.
    if let Some((Action::Move(mv), _)) = last {
        highlight(&mut scene, mv, &centre, cell);
    }
    scene
}

/// One event in words. The title already names the winner, so the end says only why.
fn narrate(event: &Event) -> String {
    match event {
        Event::NoJump { loser } => format!("{} cannot jump", seat_name(*loser)),
        Event::Removed { .. } | Event::Jumped { .. } => event.to_string(),
    }
}

fn highlight(scene: &mut Scene, mv: &Move, centre: &dyn Fn(u8, u8) -> (f32, f32), cell: f32) {
    let points: Vec<(f32, f32)> = mv.path().iter().map(|(f, r)| centre(*f, *r)).collect();
    match mv {
        Move::Remove(_) => {
            scene.pieces.extend(layout::cross(
                points[0],
                cell * 0.18,
                layout::CAPTURED,
                cell * 0.07,
            ));
        }
        Move::Jump { .. } => {
            scene.pieces.push(layout::ring(
                points[0],
                cell * 0.3,
                layout::FROM,
                cell * 0.07,
            ));
            scene
                .pieces
                .extend(layout::path(&points, layout::PATH, cell * 0.08));
            for (f, r) in mv.captured() {
                scene.pieces.extend(layout::cross(
                    centre(f, r),
                    cell * 0.16,
                    layout::CAPTURED,
                    cell * 0.07,
                ));
            }
        }
    }
}
