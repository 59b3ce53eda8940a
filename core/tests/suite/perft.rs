//! Move-count regression (perft): the number of action sequences of each depth from the start
//! position, per game and options, as listed in `perft.txt`. At chance nodes each outcome counts
//! once. The counts were produced by the engine after the small depths had been checked by hand
//! (see `konane_perft_small_depths_checked_by_hand` here and the `perft_small_depths_*` tests of
//! each game). To regenerate on purpose:
//! `TABULA_BLESS=1 cargo test -p tabula-core --test suite -- perft::`.

use tabula_core::playout::perft;
use tabula_core::{GameId, script, with_game_type};

fn count(id: GameId, options: &[&str], depth: u32) -> u64 {
    with_game_type!(id, G => {
        let options = script::options::<G>(options).expect("options");
        perft(&<G as tabula_core::Game>::new(&options), depth)
    })
}

#[test]
fn perft_regression() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft.txt");
    let text = std::fs::read_to_string(path).expect("perft.txt");
    let bless = std::env::var_os("TABULA_BLESS").is_some();
    let mut out = String::new();
    let mut checked = 0;
    for line in text.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if line.starts_with('#') || fields.is_empty() {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let [game, options, depth, expected] = fields[..] else {
            panic!("bad line in perft.txt: {line}");
        };
        let id: GameId = game.parse().expect("game id");
        let options: Vec<&str> = options.split(',').filter(|o| *o != "-").collect();
        let depth: u32 = depth.parse().expect("depth");
        let got = count(id, &options, depth);
        if bless {
            let opts = if options.is_empty() {
                "-".to_string()
            } else {
                options.join(",")
            };
            out.push_str(&format!("{game} {opts} {depth} {got}\n"));
        } else {
            assert_eq!(got.to_string(), expected, "{line}");
        }
        checked += 1;
    }
    if bless {
        std::fs::write(path, out).expect("write perft.txt");
    }
    assert!(checked > 0, "perft.txt lists no counts");
}

#[test]
fn konane_perft_small_depths_checked_by_hand() {
    // Depth 1: Black's four removable stones (rule 1).
    assert_eq!(count(GameId::Konane, &["size=8"], 1), 4);
    // Depth 2: after a corner two White neighbours, after a centre cell four: 2 + 2 + 4 + 4.
    assert_eq!(count(GameId::Konane, &["size=8"], 2), 12);
    assert_eq!(count(GameId::Konane, &["size=6"], 2), 12);
    // Depth 3, 8×8, after h1 g1 (holes h1 and g1): Black's stones two cells from h1 over a White
    // stone are f1 (over g1? empty: no) and h3 (over h2: yes); nothing can land on g1, a White
    // cell. After h1 h2: f1 over g1 lands on h1; h3 over h2 is empty: so 1 each. By symmetry the
    // a8 corner gives 1 + 1. After e4 d4: g4, e2, e6 can jump into e4 (c4's jump would cross the
    // empty d4), and the Black stones next to d4... land on White cells, impossible: 3. Likewise
    // for every centre pair the hole next to the Black hole removes exactly one of its four
    // jumps: 3 each, 4 White replies × 2 centre cells = 8 × 3 = 24. Total 2 + 2 + 24 = 28.
    assert_eq!(count(GameId::Konane, &["size=8"], 3), 28);
}
