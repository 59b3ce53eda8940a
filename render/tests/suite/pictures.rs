//! Every position of many random playouts of every game renders without error, and so does
//! every kind of last action. (Snapshots and goldens of key positions: `<game>_pictures.rs`.)

use tabula_core::playout::{Buffers, random_step};
use tabula_core::{AnyGame, Game, GameId, with_game_type};

fn render_playouts<G: Game>(options: &[&str], playouts: u64) -> usize
where
    AnyGame: From<G>,
{
    let options = tabula_core::script::options::<G>(options).expect("options");
    let mut pictures = 0;
    for seed in 0..playouts {
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut pick = |n: u32| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % u64::from(n)) as u32
        };
        let mut game = G::new(&options);
        let mut buffers = Buffers::<G>::default();
        loop {
            let any = AnyGame::from(game.clone());
            let png = tabula_render::render(&any, None).expect("render");
            assert!(png.starts_with(b"\x89PNG"), "not a PNG");
            pictures += 1;
            if !random_step(&mut game, &mut pick, &mut buffers) {
                break;
            }
        }
    }
    pictures
}

#[test]
fn every_position_of_random_playouts_renders() {
    for id in GameId::ALL {
        let pictures = with_game_type!(*id, G => render_playouts::<G>(&[], 3));
        assert!(pictures > 3, "{id}: {pictures} pictures");
    }
    render_playouts::<tabula_core::konane::Konane>(&["size=12"], 2);
}

#[test]
fn every_last_action_renders_highlighted() {
    // Replays random games through AnyGame so that every kind of last action and event is drawn.
    for id in GameId::ALL {
        let mut game = AnyGame::start(*id, &[], None).expect("start");
        let mut x = 12_345u64;
        for _ in 0..400 {
            let lines = game.legal_lines();
            let Some(choice) = lines.get((x % lines.len().max(1) as u64) as usize) else {
                break;
            };
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let action = choice.split(' ').next().unwrap_or_default().to_string();
            let applied = game.apply_text(&action).expect("legal action");
            tabula_render::render(&game, Some(&applied)).expect("render");
        }
    }
}
