//! Matches between the computer's levels, a uniform random player and (Konane) a player that
//! always leaves its opponent the fewest replies; prints win rates with their sample sizes.
//! Not part of the test run.
//!
//! `cargo bench -p tabula-ai --bench matches` plays the standard set of matches below;
//! `cargo bench -p tabula-ai --bench matches -- <game> <player> <player> [games] [K=V ...]`
//! plays one match, e.g. `-- konane L3 fewest 20 size=8`. Players: `L1` to `L4`, `random`,
//! `fewest`. Each game's seats (Pachisi: teams) alternate between the two players; the seeds
//! are fixed, so a run can be repeated exactly.

use std::time::Instant;

use tabula_ai::rng::Rng;
use tabula_ai::{Knowledge, Level, choose_move};
use tabula_core::{GameId, Outcome, Status, script, with_game_type};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Player {
    Level(Level),
    Random,
    Fewest,
}

impl Player {
    fn parse(s: &str) -> Option<Player> {
        match s {
            "random" => Some(Player::Random),
            "fewest" => Some(Player::Fewest),
            _ => s
                .strip_prefix('L')
                .and_then(|n| n.parse().ok())
                .map(Player::Level),
        }
    }

    fn name(self) -> String {
        match self {
            Player::Level(l) => format!("level {}", l.number()),
            Player::Random => "random".into(),
            Player::Fewest => "fewest replies".into(),
        }
    }

    fn pick<G: Knowledge>(self, game: &G, rng: &mut Rng) -> G::Move {
        let moves = game.moves();
        match self {
            Player::Level(level) => {
                choose_move(game, &level.settings(), rng.next_u64(), None).expect("a decision")
            }
            Player::Random => moves[rng.below(moves.len() as u32) as usize].clone(),
            Player::Fewest => {
                // The move after which the opponent has the fewest legal moves (ties: random).
                let mut best = Vec::new();
                let mut fewest = usize::MAX;
                let mut events = Vec::new();
                for mv in &moves {
                    let mut next = game.clone();
                    next.apply_move_unchecked(mv, &mut events);
                    let replies = next.moves().len();
                    if replies < fewest {
                        fewest = replies;
                        best.clear();
                    }
                    if replies == fewest {
                        best.push(mv.clone());
                    }
                }
                best[rng.below(best.len() as u32) as usize].clone()
            }
        }
    }
}

/// Plays one game; `first` plays team 0 (the seats of team 0), `second` the other team.
/// Returns the outcome and the number of actions.
fn play<G: Knowledge>(start: &G, first: Player, second: Player, seed: u64) -> (Outcome, usize) {
    let mut game = start.clone();
    let mut rng = Rng::new(seed);
    let mut events = Vec::new();
    let mut actions = 0;
    loop {
        events.clear();
        match game.status() {
            Status::Done(outcome) => return (outcome, actions),
            Status::Decision(seat) => {
                let player = if G::team_of(seat).0 == 0 {
                    first
                } else {
                    second
                };
                let mv = player.pick(&game, &mut rng);
                game.apply_move_unchecked(&mv, &mut events);
            }
            Status::Chance => {
                let outcomes = game.outcomes();
                let total: u32 = outcomes.iter().map(|(_, w)| w).sum();
                let mut r = rng.below(total);
                let mut chosen = outcomes.len() - 1;
                for (i, (_, w)) in outcomes.iter().enumerate() {
                    if r < *w {
                        chosen = i;
                        break;
                    }
                    r -= w;
                }
                game.apply_roll_unchecked(&outcomes[chosen].0, &mut events);
            }
        }
        actions += 1;
        if actions > 100_000 {
            return (Outcome::Draw, actions);
        }
    }
}

fn run<G: Knowledge>(option_pairs: &[&str], a: Player, b: Player, games: u32) {
    let options = script::options::<G>(option_pairs).expect("match options");
    let start = G::new(&options);
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let began = Instant::now();
    for i in 0..games {
        // Player `a` takes team 0 in even games, team 1 in odd games.
        let a_team = (i % 2) as u8;
        let (first, second) = if a_team == 0 { (a, b) } else { (b, a) };
        let (outcome, _) = play(&start, first, second, 1000 + u64::from(i));
        match outcome {
            Outcome::Winner(t) if t.0 == a_team => wins += 1,
            Outcome::Winner(_) => losses += 1,
            Outcome::Draw => draws += 1,
        }
    }
    println!(
        "| {} | {} | {} | {} | {wins}–{draws}–{losses} | {:.0}% | {:.0} s |",
        G::ID,
        if option_pairs.is_empty() {
            "default".to_string()
        } else {
            option_pairs.join(" ")
        },
        a.name(),
        b.name(),
        100.0 * (f64::from(wins) + 0.5 * f64::from(draws)) / f64::from(games.max(1)),
        began.elapsed().as_secs_f64(),
    );
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let games: u32 = std::env::var("TABULA_MATCH_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let mut matches: Vec<(GameId, Vec<String>, Player, Player, u32)> = Vec::new();
    if args.len() >= 3 {
        let id: GameId = args[0].parse().expect("a game id");
        let a = Player::parse(&args[1]).expect("a player: L1-L4, random, fewest");
        let b = Player::parse(&args[2]).expect("a player: L1-L4, random, fewest");
        let n = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(games);
        matches.push((id, args.iter().skip(4).cloned().collect(), a, b, n));
    } else {
        let l = |n: u8| Player::Level(Level::from_number(n).expect("a level"));
        for (id, opts, a, b) in [
            (GameId::Konane, vec!["size=8"], l(3), Player::Fewest),
            (GameId::Koan, vec![], l(2), Player::Random),
            (GameId::Kolowis, vec![], l(2), Player::Random),
            (GameId::CoanKi, vec![], l(2), Player::Random),
            (GameId::Pachisi, vec![], l(2), Player::Random),
            (GameId::Konane, vec!["size=8"], l(1), Player::Random),
            (GameId::Koan, vec![], l(1), Player::Random),
            (GameId::Konane, vec!["size=8"], l(2), l(1)),
            (GameId::Koan, vec![], l(3), l(2)),
        ] {
            matches.push((
                id,
                opts.into_iter().map(String::from).collect(),
                a,
                b,
                games,
            ));
        }
    }
    println!("| game | options | player | against | won–drawn–lost | score | time |");
    println!("| --- | --- | --- | --- | ---: | ---: | ---: |");
    for (id, opts, a, b, n) in matches {
        let opts: Vec<&str> = opts.iter().map(String::as_str).collect();
        with_game_type!(id, G => run::<G>(&opts, a, b, n));
    }
}
