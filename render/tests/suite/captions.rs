//! Every text of every picture fits the picture and is shown whole: over many positions of
//! random games of all five games (each with its last action highlighted, so the captions that
//! narrate it are long), no text reaches past the picture's edges and none is cut short with an
//! ellipsis.

use tabula_core::{AnyGame, GameId};
use tabula_render::raster::text_width;
use tabula_render::scene::{Anchor, Item, Scene};

/// The smallest space kept between a text and the picture's left or right edge.
const EDGE: f32 = 2.0;

/// Every text of the scene with its left and right ends in pixels.
fn texts(scene: &Scene) -> Vec<(String, f32, f32)> {
    fn walk(items: &[Item], dx: f32, out: &mut Vec<(String, f32, f32)>) {
        for item in items {
            match item {
                Item::Text {
                    at,
                    anchor,
                    size,
                    text,
                    ..
                } => {
                    let w = text_width(text, *size).expect("font");
                    let x = at.0 + dx;
                    let left = match anchor {
                        Anchor::Left => x,
                        Anchor::Centre => x - w / 2.0,
                        Anchor::Right => x - w,
                    };
                    out.push((text.clone(), left, left + w));
                }
                Item::Group { at, items, .. } => walk(items, dx + at.0, out),
                Item::Path { .. } => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(&scene.board, 0.0, &mut out);
    walk(&scene.pieces, 0.0, &mut out);
    out
}

/// What is wrong with the texts of a scene, one line per text.
fn problems(scene: &Scene, position: &str) -> Vec<String> {
    let width = scene.width as f32;
    let mut out = Vec::new();
    for (text, left, right) in texts(scene) {
        if left < EDGE - 0.5 || right > width - EDGE + 0.5 {
            out.push(format!(
                "{position}: {text:?} spans {left:.1}..{right:.1} of {width} px"
            ));
        }
        if text.contains('…') {
            out.push(format!("{position}: {text:?} is cut short"));
        }
    }
    out
}

/// Fails with the first problems found (and how many there were).
fn assert_none(problems: &[String]) {
    assert!(
        problems.is_empty(),
        "{} texts do not fit, for example:\n{}",
        problems.len(),
        problems
            .iter()
            .take(12)
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Plays seeded random games of one game and checks the picture after every action.
fn playouts(id: GameId, options: &[&str], games: u64, found: &mut Vec<String>) -> usize {
    let mut pictures = 0;
    for seed in 0..games {
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut game = AnyGame::start(id, options, None).expect("start");
        found.extend(problems(
            &tabula_render::scene(&game, None),
            &format!("{id} {options:?} start"),
        ));
        let mut played = Vec::new();
        for _ in 0..3000 {
            let lines = game.legal_lines();
            if lines.is_empty() {
                break;
            }
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let choice = &lines[(x % lines.len() as u64) as usize];
            let action = choice.split(' ').next().unwrap_or_default().to_string();
            let applied = game.apply_text(&action).expect("legal action");
            played.push(action);
            let scene = tabula_render::scene(&game, Some(&applied));
            let position = format!("{id} {options:?} seed {seed} after {}", played.join(" "));
            found.extend(problems(&scene, &position));
            pictures += 1;
        }
    }
    pictures
}

#[test]
fn every_caption_of_random_games_fits_the_picture_whole() {
    let mut found = Vec::new();
    for id in GameId::ALL {
        let pictures = playouts(*id, &[], 12, &mut found);
        assert!(pictures > 100, "{id}: only {pictures} pictures");
    }
    for size in ["size=6", "size=10", "size=12"] {
        playouts(GameId::Konane, &[size], 6, &mut found);
    }
    assert_none(&found);
}

#[test]
fn the_konane_game_end_caption_is_whole() {
    // Issue 14: "Black cannot jump: W…". A jump that ends the game says what it took and who won.
    let at = "size=8 turn=white black=c4,d3,d5,d7,e4,g4 white=d4";
    let mut game = AnyGame::start(GameId::Konane, &[], Some(at)).expect("start");
    let last = game.apply_actions("d4-d6-d8").expect("moves");
    let scene = tabula_render::scene(&game, last.as_ref());
    assert_none(&problems(&scene, "konane double jump that wins"));
    let all: String = texts(&scene).into_iter().map(|t| t.0 + "\n").collect();
    assert!(all.contains("wins"), "{all}");
}
