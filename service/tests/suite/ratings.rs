//! Glicko-2 ratings (issue 39) through the store, as games end: a rated game updates both
//! sides from their ratings before it, in the result's transaction; games with the computer,
//! aborted games and games that end before each side moved are not rated. On SQLite and
//! PostgreSQL. (The arithmetic itself is checked against a reference in `ratings.rs`.)

use crate::common;

use common::connect;
use common::table::{Lcg, Table, start, text};
use tabula_core::GameId;
use tabula_service::ratings::{MIN_DEVIATION, Rating, Score, TAU};
use tabula_service::store::{DatabaseUrl, GameNo, Platform, RatingShown, Store, UserId};

on_both_databases! {
    a_rated_game_updates_both_sides_from_their_ratings_before_it => rated;
    computer_aborted_and_unplayed_games_are_not_rated => unrated;
    the_rating_leaderboard_lists_settled_ratings_of_regular_players => leaderboard;
    the_rating_history_in_a_game_is_drawn => chart;
    stats_count_results_per_game_with_streak_and_head_to_head => stats;
    a_fixed_list_of_results_replayed_through_the_service_gives_the_references_ratings => replayed;
    pachisi_partners_are_each_rated_against_the_other_side_as_one => teams;
    a_deviation_grows_with_time_away_by_the_services_clock => away;
}

/// A fixed list of results among four people: (first, second, the first's result).
const RESULTS: [(usize, usize, Score); 8] = [
    (0, 1, Score::Win),
    (2, 3, Score::Draw),
    (0, 2, Score::Loss),
    (1, 3, Score::Win),
    (3, 0, Score::Win),
    (1, 2, Score::Draw),
    (0, 1, Score::Win),
    (2, 0, Score::Loss),
];

/// The Glicko-2 scale factor (400 / ln 10), as the paper has it.
const SCALE: f64 = 173.7178;

async fn user(store: &Store, name: &str) -> UserId {
    store
        .user_by_platform_id(Platform::Local, name)
        .await
        .expect("a user")
        .expect("known")
        .id
}

async fn konane(store: &Store, table: &Table, name: &str) -> Option<RatingShown> {
    let community = table.community().await;
    store
        .ratings_of(community, user(store, name).await)
        .await
        .expect("ratings")
        .into_iter()
        .find(|(game, _)| *game == GameId::Konane)
        .map(|(_, shown)| shown)
}

/// Both players move once, then `loser` resigns: the game.
async fn played_then_resigned(
    table: &Table,
    a: &str,
    b: &str,
    loser: &str,
    lcg: &mut Lcg,
) -> GameNo {
    let game = start(table, a, b, "konane").await;
    for _ in 0..2 {
        table.random_move(game, lcg).await.expect("a move");
    }
    let ended = table.confirmed(loser, &format!("/resign #{game}")).await;
    assert!(ended.is_done(), "{}", text(&ended));
    // The result says each side's new rating and change, the winner's up, the loser's down.
    let changes: Vec<&str> = ended
        .said
        .iter()
        .filter_map(|msg| msg.find("rating-changes"))
        .flat_map(|msg| {
            let mut found = Vec::new();
            let mut stack = vec![msg];
            while let Some(m) = stack.pop() {
                if m.id == "rating-change" {
                    found.push(common::said::text_arg(m, "change"));
                }
                for (_, arg) in &m.args {
                    if let tabula_service::l10n::Arg::Msg(inner) = arg {
                        stack.push(inner);
                    }
                }
            }
            found
        })
        .collect();
    assert_eq!(changes.len(), 2, "{}", text(&ended));
    assert!(changes.iter().any(|c| c.starts_with('+')), "{changes:?}");
    assert!(
        changes.iter().any(|c| c.starts_with('\u{2212}')),
        "{changes:?}"
    );
    game
}
async fn rated(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 50);
    let mut lcg = Lcg(51);
    let first = played_then_resigned(&table, "alice", "bob", "bob", &mut lcg).await;
    let (alice, bob) = (
        konane(&store, &table, "alice")
            .await
            .expect("Alice is rated"),
        konane(&store, &table, "bob").await.expect("Bob is rated"),
    );
    // Both new players: as the arithmetic gives it, from 1500/500/0.09 each (the deviation
    // grown a little since, with the time the test took).
    let won = Rating::default().after_game(Rating::default(), Score::Win);
    let lost = Rating::default().after_game(Rating::default(), Score::Loss);
    assert!(
        (alice.rating.rating - won.rating).abs() < 0.01,
        "{alice:?} {won:?}"
    );
    assert!(
        (bob.rating.rating - lost.rating).abs() < 0.01,
        "{bob:?} {lost:?}"
    );
    assert!(alice.rating.rating > 1500.0 && bob.rating.rating < 1500.0);
    assert!(alice.rating.provisional() && bob.rating.provisional());
    assert_eq!((alice.games, bob.games), (1, 1));
    // The result said each side's new rating and change.
    let changes = store.rating_changes(first).await.expect("changes");
    assert_eq!(changes.len(), 2);
    for (_, before, after) in &changes {
        assert!((before - 1500.0).abs() < 1e-9, "{changes:?}");
        assert!((after - 1500.0).abs() > 1.0, "{changes:?}");
    }
    // `/rating`: shown to the asker, the rating rounded right after the game, `?` while
    // provisional; none in a game not played, none for someone unrated.
    let shown = table.cmd("carol", "/rating @alice").await;
    assert!(shown.is_done(), "{}", text(&shown));
    assert_eq!(shown.audience, tabula_service::service::Audience::Actor);
    let entry = common::said::said(&shown, "rating-entry");
    assert_eq!(
        common::said::num(entry, "rating"),
        alice.rating.rating.round() as i64
    );
    assert_eq!(common::said::text_arg(entry, "provisional"), "yes");
    assert_eq!(common::said::num(entry, "games"), 1);
    let own = table.cmd("bob", "/rating konane").await;
    assert_eq!(
        common::said::num(common::said::said(&own, "rating-entry"), "rating"),
        bob.rating.rating.round() as i64
    );
    for (who, asked) in [("alice", "/rating koan"), ("carol", "/rating")] {
        let none = table.cmd(who, asked).await;
        assert!(
            none.says("rating-none").is_some(),
            "{asked}: {}",
            text(&none)
        );
    }
    // A second game, Alice resigning: each side from its rating before it, at full precision.
    let alice_before = alice.rating;
    let bob_before = bob.rating;
    played_then_resigned(&table, "alice", "bob", "alice", &mut lcg).await;
    let alice_now = konane(&store, &table, "alice").await.expect("rated");
    let bob_now = konane(&store, &table, "bob").await.expect("rated");
    let expected_alice = alice_before.after_game(bob_before, Score::Loss);
    let expected_bob = bob_before.after_game(alice_before, Score::Win);
    assert!((alice_now.rating.rating - expected_alice.rating).abs() < 0.01);
    assert!((bob_now.rating.rating - expected_bob.rating).abs() < 0.01);
    assert_eq!(alice_now.games, 2);
    store.close().await;
}

/// `game` changed nobody's rating.
async fn assert_unrated(store: &Store, game: GameNo) {
    let changes = store.rating_changes(game).await.expect("changes");
    assert!(changes.is_empty(), "game {game} was rated: {changes:?}");
}

async fn unrated(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 60);
    let mut lcg = Lcg(61);
    // Resigned before each side moved.
    let game = start(&table, "alice", "bob", "konane").await;
    let ended = table.confirmed("bob", &format!("/resign #{game}")).await;
    assert!(ended.is_done(), "{}", text(&ended));
    assert_unrated(&store, game).await;
    // Aborted (by a moderator) after both moved.
    let game = start(&table, "alice", "carol", "konane").await;
    for _ in 0..2 {
        table.random_move(game, &mut lcg).await.expect("a move");
    }
    let aborted = table.confirmed("mod", &format!("/abort #{game}")).await;
    assert!(aborted.is_done(), "{}", text(&aborted));
    assert_unrated(&store, game).await;
    // Against the computer.
    let vs = table.cmd("dave", "/play konane computer").await;
    let game = vs.game.expect("a game");
    for _ in 0..3 {
        table.tick().await;
        if table.state(game).await.1.as_deref() == Some("dave") {
            break;
        }
    }
    let ended = table.confirmed("dave", &format!("/resign #{game}")).await;
    assert!(ended.is_done(), "{}", text(&ended));
    assert_unrated(&store, game).await;
    for name in ["alice", "bob", "carol", "dave"] {
        assert!(
            konane(&store, &table, name).await.is_none(),
            "{name} unrated"
        );
    }
    store.close().await;
}

async fn leaderboard(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 70);
    let mut lcg = Lcg(71);
    let board = |reply: &tabula_service::service::Reply| -> Vec<i64> {
        reply
            .said
            .iter()
            .filter(|msg| msg.id == "leaderboard-rating-line")
            .map(|msg| common::said::num(msg, "rating"))
            .collect()
    };
    // Nobody yet.
    let none = table.cmd("erin", "/leaderboard konane").await;
    assert!(
        none.says("leaderboard-rating-none").is_some(),
        "{}",
        text(&none)
    );
    // Without a game, the richest (as before).
    let richest = table.cmd("erin", "/leaderboard").await;
    assert!(
        richest.says("leaderboard").is_some() || richest.says("leaderboard-empty").is_some(),
        "{}",
        text(&richest)
    );
    // Alice and Bob play many rated games; Carol and Dave two.
    for n in 0..24 {
        let loser = if n % 3 == 0 { "alice" } else { "bob" };
        played_then_resigned(&table, "alice", "bob", loser, &mut lcg).await;
    }
    for _ in 0..2 {
        played_then_resigned(&table, "carol", "dave", "dave", &mut lcg).await;
    }
    let mut expected = Vec::new();
    for name in ["alice", "bob", "carol", "dave"] {
        let shown = konane(&store, &table, name).await.expect("rated");
        if !shown.rating.provisional() && shown.games >= 5 {
            expected.push(shown.rating.rating.round() as i64);
        }
    }
    expected.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(
        expected.len(),
        2,
        "Alice and Bob are settled, Carol and Dave not"
    );
    let shown = table.cmd("erin", "/leaderboard konane").await;
    assert!(
        shown.says("leaderboard-rating").is_some(),
        "{}",
        text(&shown)
    );
    assert_eq!(board(&shown), expected, "{}", text(&shown));
    // Moderators ask for more games: nobody has as many.
    let set = table.cmd("mod", "/config leaderboard_games=30").await;
    assert!(set.is_done(), "{}", text(&set));
    let none = table.cmd("erin", "/leaderboard konane").await;
    let said = common::said::said(&none, "leaderboard-rating-none");
    assert_eq!(common::said::num(said, "games"), 30);
    assert_eq!(common::said::num(said, "months"), 6);
    let set = table.cmd("mod", "/config leaderboard_games=5").await;
    assert!(set.is_done(), "{}", text(&set));
    assert_eq!(
        board(&table.cmd("erin", "/leaderboard konane").await),
        expected
    );
    // Another game's leaderboard is empty.
    let koan = table.cmd("erin", "/leaderboard koan").await;
    assert!(
        koan.says("leaderboard-rating-none").is_some(),
        "{}",
        text(&koan)
    );
    store.close().await;
}

/// The width and height of a PNG, from its header.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG");
    let be = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
    (be(16), be(20))
}

async fn chart(url: DatabaseUrl) {
    let store = connect(&url).await;
    let clock = tabula_service::time::Clock::manual(common::table::T0);
    let table = Table::with_service(
        tabula_service::service::Service::new(store.clone(), common::table::scripted_dice(92))
            .with_cooldown(None)
            .with_clock(clock.clone()),
        clock,
    );
    let mut lcg = Lcg(93);
    for loser in ["bob", "alice", "bob"] {
        played_then_resigned(&table, "alice", "bob", loser, &mut lcg).await;
    }
    // One game asked about: its history drawn, as a picture.
    let shown = table.cmd("carol", "/rating @alice konane").await;
    assert!(shown.is_done(), "{}", text(&shown));
    let png = shown.picture.as_deref().expect("a chart");
    assert_eq!(png_size(png), (800, 450));
    // Every game: words only; and no chart of a game not played.
    let all = table.cmd("carol", "/rating @alice").await;
    assert!(all.picture.is_none());
    let none = table.cmd("carol", "/rating @alice koan").await;
    assert!(none.picture.is_none());
    // The history holds each game's rating after it, in order, as the changes said.
    let community = table.community().await;
    let alice = user(&store, "alice").await;
    let history = store
        .rating_history(community, GameId::Konane, alice)
        .await
        .expect("history");
    assert_eq!(history.len(), 3);
    let latest = konane(&store, &table, "alice").await.expect("rated");
    assert!((history[2].1 - latest.rating.rating).abs() < 0.01);
    assert!(history[0].1 > 1500.0 && history[1].1 < history[0].1);
    assert!(history.iter().all(|(_, _, deviation)| *deviation > 45.0));
    // A moderator resets Alice's Konane rating: only a moderator, said in the chat; she
    // starts again as a newcomer, her chart from then on.
    let refused = table.cmd("bob", "/resetrating @alice konane").await;
    assert!(
        matches!(
            refused.kind,
            tabula_service::service::Kind::Refused(
                tabula_service::service::UserError::NotModerator(_)
            )
        ),
        "{}",
        text(&refused)
    );
    let reset = table.cmd("mod", "/resetrating @alice konane").await;
    assert!(reset.is_done(), "{}", text(&reset));
    assert_eq!(reset.audience, tabula_service::service::Audience::Chat);
    let said = common::said::said(&reset, "rating-reset");
    assert_eq!(
        common::said::text_arg(said, "was"),
        format!("{}", latest.rating.rating.round() as i64)
            + if latest.rating.provisional() { "?" } else { "" }
    );
    assert!(konane(&store, &table, "alice").await.is_none());
    assert!(konane(&store, &table, "bob").await.is_some(), "Bob's stays");
    let history = store
        .rating_history(community, GameId::Konane, alice)
        .await
        .expect("history");
    assert!(history.is_empty());
    let again = table.cmd("mod", "/resetrating @alice konane").await;
    assert!(
        matches!(
            again.kind,
            tabula_service::service::Kind::Refused(
                tabula_service::service::UserError::NoRatingToReset { .. }
            )
        ),
        "{}",
        text(&again)
    );
    // Her next rated game starts from a newcomer's rating.
    played_then_resigned(&table, "alice", "bob", "bob", &mut lcg).await;
    let after = konane(&store, &table, "alice").await.expect("rated again");
    assert_eq!(after.games, 1);
    assert_eq!(
        store
            .rating_history(community, GameId::Konane, alice)
            .await
            .expect("history")
            .len(),
        1
    );
    store.close().await;
}

async fn stats(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 94);
    let mut lcg = Lcg(95);
    // Alice against Bob: Bob resigns twice, Alice once; a draw agreed; then Carol beats
    // Alice; a game against the computer does not count.
    for loser in ["bob", "alice", "bob"] {
        played_then_resigned(&table, "alice", "bob", loser, &mut lcg).await;
    }
    let game = start(&table, "alice", "bob", "konane").await;
    table.cmd("alice", "/draw").await;
    let drawn = table.cmd("bob", &format!("/draw #{game}")).await;
    assert!(
        drawn.says("cause-draw-agreed").is_some(),
        "{}",
        text(&drawn)
    );
    played_then_resigned(&table, "carol", "alice", "alice", &mut lcg).await;
    let tally = |msg: &tabula_service::l10n::Msg| -> [i64; 4] {
        ["games", "wins", "losses", "draws"].map(|key| common::said::num(msg, key))
    };
    let shown = table.cmd("dave", "/stats @alice @bob").await;
    assert!(shown.is_done(), "{}", text(&shown));
    assert_eq!(shown.audience, tabula_service::service::Audience::Actor);
    assert_eq!(
        tally(common::said::said(&shown, "stats-game")),
        [5, 2, 2, 1],
        "{}",
        text(&shown)
    );
    assert_eq!(
        tally(common::said::said(&shown, "stats-against")),
        [4, 2, 1, 1]
    );
    let streak = common::said::said(&shown, "stats-streak");
    assert_eq!(common::said::text_arg(streak, "result"), "loss");
    assert_eq!(common::said::num(streak, "count"), 1);
    // Their own, without a name; nobody's yet.
    let own = table.cmd("bob", "/stats").await;
    assert_eq!(tally(common::said::said(&own, "stats-game")), [4, 1, 2, 1]);
    let none = table.cmd("erin", "/stats").await;
    assert!(none.says("stats-none").is_some(), "{}", text(&none));
    store.close().await;
}

/// Glickman's Glicko-2 as "Example of the Glicko-2 system" (2013) writes it, step by step,
/// for one player against several opponents in one rating period; written here from the
/// paper, independently of the crate.
fn reference(player: (f64, f64, f64), games: &[((f64, f64), f64)], tau: f64) -> (f64, f64, f64) {
    let (r, rd, sigma) = player;
    // Step 2: to the Glicko-2 scale.
    let mu = (r - 1500.0) / SCALE;
    let phi = rd / SCALE;
    let g = |phi_j: f64| 1.0 / (1.0 + 3.0 * phi_j * phi_j / (std::f64::consts::PI.powi(2))).sqrt();
    let e = |mu_j: f64, phi_j: f64| 1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp());
    // Step 3: the estimated variance v; step 4: the improvement Δ.
    let mut v_inv = 0.0;
    let mut sum = 0.0;
    for &((r_j, rd_j), s) in games {
        let (mu_j, phi_j) = ((r_j - 1500.0) / SCALE, rd_j / SCALE);
        let (gj, ej) = (g(phi_j), e(mu_j, phi_j));
        v_inv += gj * gj * ej * (1.0 - ej);
        sum += gj * (s - ej);
    }
    let v = 1.0 / v_inv;
    let delta = v * sum;
    // Step 5: the new volatility, by the Illinois algorithm.
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    while (big_b - big_a).abs() > 0.000_001 {
        let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(big_c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
    }
    let sigma_new = (big_a / 2.0).exp();
    // Steps 6 to 8.
    let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * sum;
    (mu_new * SCALE + 1500.0, phi_new * SCALE, sigma_new)
}

#[test]
fn the_reference_gives_the_papers_worked_example() {
    // The paper's example: 1500/200/0.06 against 1400/30 (won), 1550/100 (lost) and
    // 1700/300 (lost), τ = 0.5: about 1464.06, 151.52 and 0.05999.
    let (r, rd, sigma) = reference(
        (1500.0, 200.0, 0.06),
        &[
            ((1400.0, 30.0), 1.0),
            ((1550.0, 100.0), 0.0),
            ((1700.0, 300.0), 0.0),
        ],
        0.5,
    );
    assert!((r - 1464.06).abs() < 0.01, "{r}");
    assert!((rd - 151.52).abs() < 0.01, "{rd}");
    assert!((sigma - 0.05999).abs() < 0.00001, "{sigma}");
}

#[test]
fn the_crates_arithmetic_is_the_references_game_by_game() {
    // A fixed list of games between four people, each its own rating period.
    let mut people = [Rating::default(); 4];
    for (a, b, score) in RESULTS {
        let (before_a, before_b) = (people[a], people[b]);
        let other = match score {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        };
        for (me, them, mine) in [(a, before_b, score), (b, before_a, other)] {
            let before = people[me];
            let rated = before.after_game(them, mine);
            let expected = reference(
                (before.rating, before.deviation, before.volatility),
                &[((them.rating, them.deviation), points(mine))],
                TAU,
            );
            assert!(
                (rated.rating - expected.0).abs() < 0.01,
                "{rated:?} {expected:?}"
            );
            assert!(
                (rated.deviation - expected.1.max(MIN_DEVIATION)).abs() < 0.01,
                "{rated:?} {expected:?}"
            );
            assert!((rated.volatility - expected.2).abs() < 0.0001, "{rated:?}");
            people[me] = rated;
        }
    }
    // Both are updated from their ratings before the game: the winner gains, the loser
    // loses, about as much when they were alike.
    let (winner, loser) = (
        Rating::default().after_game(Rating::default(), Score::Win),
        Rating::default().after_game(Rating::default(), Score::Loss),
    );
    assert!((winner.rating - 1500.0 - (1500.0 - loser.rating)).abs() < 1e-9);
    assert!(winner.rating > 1500.0);
}

/// Points of a result.
fn points(score: Score) -> f64 {
    match score {
        Score::Win => 1.0,
        Score::Draw => 0.5,
        Score::Loss => 0.0,
    }
}

async fn replayed(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 120);
    let mut lcg = Lcg(121);
    let names = ["alice", "bob", "carol", "dave"];
    // A fixed list of results among four people: (first, second, the first's result). Each is
    // played through the service (both move, then a resignation or an agreed draw).
    let mut expected = [(1500.0, 500.0, 0.09); 4];
    for (a, b, score) in RESULTS {
        let game = start(&table, names[a], names[b], "konane").await;
        for _ in 0..2 {
            table.random_move(game, &mut lcg).await.expect("a move");
        }
        match score {
            Score::Win => {
                table.confirmed(names[b], &format!("/resign #{game}")).await;
            }
            Score::Loss => {
                table.confirmed(names[a], &format!("/resign #{game}")).await;
            }
            Score::Draw => {
                table.cmd(names[a], &format!("/draw #{game}")).await;
                table.cmd(names[b], &format!("/draw #{game}")).await;
            }
        }
        assert_eq!(store.rating_changes(game).await.expect("changes").len(), 2);
        // The reference: each side from both sides' ratings before the game.
        let (before_a, before_b) = (expected[a], expected[b]);
        let other = 1.0 - points(score);
        for (me, them, mine) in [(a, before_b, points(score)), (b, before_a, other)] {
            let (r, rd, sigma) = reference(expected[me], &[((them.0, them.1), mine)], TAU);
            expected[me] = (r, rd.max(MIN_DEVIATION), sigma);
        }
    }
    for (who, (r, rd, sigma)) in names.iter().zip(expected) {
        let shown = konane(&store, &table, who).await.expect("rated");
        assert!(
            (shown.rating.rating - r).abs() < 0.01,
            "{who}: {shown:?} {r}"
        );
        assert!(
            (shown.rating.deviation - rd).abs() < 0.01,
            "{who}: {shown:?} {rd}"
        );
        assert!(
            (shown.rating.volatility - sigma).abs() < 0.0001,
            "{who}: {shown:?} {sigma}"
        );
    }
    store.close().await;
}

/// A person's Pachisi rating.
async fn pachisi(store: &Store, table: &Table, name: &str) -> Option<Rating> {
    let community = table.community().await;
    store
        .ratings_of(community, user(store, name).await)
        .await
        .expect("ratings")
        .into_iter()
        .find(|(game, _)| *game == GameId::Pachisi)
        .map(|(_, shown)| shown.rating)
}

async fn teams(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 122);
    let mut lcg = Lcg(123);
    // Alice first plays two Pachisi games against Erin alone (a side of one person each), so
    // that her rating and deviation differ from a newcomer's.
    for _ in 0..2 {
        let reply = table.cmd("alice", "/play pachisi @erin").await;
        assert!(reply.is_done(), "{}", text(&reply));
        let started = table.cmd("erin", "/accept").await;
        let game = started.game.expect("a game");
        for _ in 0..12 {
            table.random_move(game, &mut lcg).await;
        }
        let asked = table.cmd("erin", &format!("/resign #{game}")).await;
        let confirm = asked.buttons[0][0].data.clone();
        let ended = table.press("erin", &confirm).await;
        assert!(ended.is_done(), "{}", text(&ended));
    }
    let alice = pachisi(&store, &table, "alice")
        .await
        .expect("Alice is rated");
    assert!(alice.rating > 1500.0 && alice.deviation < 500.0);
    // Two against two: each person is rated against the other side as one player: its mean
    // rating, the root mean square of its deviations, its mean volatility.
    let reply = table.cmd("alice", "/play pachisi @bob @carol @dave").await;
    let challenge = common::table::challenge_no(&reply);
    let mut game = None;
    for name in ["bob", "carol", "dave"] {
        game = table
            .cmd(name, &format!("/accept #{challenge}"))
            .await
            .game
            .or(game);
    }
    let game = game.expect("the game starts");
    let record = table.record(game).await;
    let team_of = |name: &str| {
        record
            .seats
            .iter()
            .find(|h| h.user.platform_user_id == name)
            .map(|h| {
                use tabula_core::Game;
                tabula_core::pachisi::Pachisi::team_of(tabula_core::Seat(h.seat)).0
            })
            .expect("seated")
    };
    let partner = ["bob", "carol", "dave"]
        .into_iter()
        .find(|name| team_of(name) == team_of("alice"))
        .expect("a partner");
    let others: Vec<&str> = ["bob", "carol", "dave"]
        .into_iter()
        .filter(|name| team_of(name) != team_of("alice"))
        .collect();
    // Every side moves, then Alice's side resigns (her partner confirms).
    for _ in 0..16 {
        table.random_move(game, &mut lcg).await;
    }
    let asked = table.cmd("alice", &format!("/resign #{game}")).await;
    let confirm = asked.buttons[0][0].data.clone();
    let ended = table.press(partner, &confirm).await;
    assert!(ended.is_done(), "{}", text(&ended));
    assert_eq!(store.rating_changes(game).await.expect("changes").len(), 4);
    let newcomer = Rating::default();
    let as_one = |a: Rating, b: Rating| Rating {
        rating: (a.rating + b.rating) / 2.0,
        deviation: ((a.deviation.powi(2) + b.deviation.powi(2)) / 2.0).sqrt(),
        volatility: (a.volatility + b.volatility) / 2.0,
    };
    let winners_side = newcomer; // two newcomers as one
    let losers_side = as_one(alice, newcomer);
    let check = |got: Rating, want: Rating, who: &str| {
        assert!(
            (got.rating - want.rating).abs() < 0.01,
            "{who}: {got:?} {want:?}"
        );
        assert!(
            (got.deviation - want.deviation).abs() < 0.01,
            "{who}: {got:?} {want:?}"
        );
    };
    check(
        pachisi(&store, &table, "alice").await.expect("rated"),
        alice.after_game(winners_side, Score::Loss),
        "alice",
    );
    check(
        pachisi(&store, &table, partner).await.expect("rated"),
        newcomer.after_game(winners_side, Score::Loss),
        partner,
    );
    for name in others {
        check(
            pachisi(&store, &table, name).await.expect("rated"),
            newcomer.after_game(losers_side, Score::Win),
            name,
        );
    }
    store.close().await;
}

async fn away(url: DatabaseUrl) {
    let store = connect(&url).await;
    let clock = tabula_service::time::Clock::manual(common::table::T0);
    let table = Table::with_clock(store.clone(), 124, clock.clone());
    let mut lcg = Lcg(125);
    played_then_resigned(&table, "alice", "bob", "bob", &mut lcg).await;
    let community = table.community().await;
    let (alice, bob) = (user(&store, "alice").await, user(&store, "bob").await);
    let konane_as_of = |who: UserId| {
        let store = store.clone();
        let clock = clock.clone();
        async move {
            store
                .ratings_as_of(community, who, clock.now())
                .await
                .expect("ratings")
                .into_iter()
                .find(|(game, _)| *game == GameId::Konane)
                .map(|(_, shown)| shown.rating)
                .expect("rated")
        }
    };
    let (alice_then, bob_then) = (konane_as_of(alice).await, konane_as_of(bob).await);
    // A year away, by the service's clock: read now, the deviations have grown as lichess's
    // 0.21436 rating periods a day give it.
    clock.advance(365 * 86_400_000);
    let grown = alice_then.after_days_away(365.0);
    let read = konane_as_of(alice).await;
    assert!(
        (read.deviation - grown.deviation).abs() < 0.01,
        "{read:?} {grown:?}"
    );
    assert!(read.deviation > alice_then.deviation);
    // The next game rates both from their grown deviations: a returning player's rating moves
    // faster.
    played_then_resigned(&table, "alice", "bob", "alice", &mut lcg).await;
    let expected = alice_then
        .after_days_away(365.0)
        .after_game(bob_then.after_days_away(365.0), Score::Loss);
    let now = konane_as_of(alice).await;
    assert!(
        (now.rating - expected.rating).abs() < 0.01,
        "{now:?} {expected:?}"
    );
    assert!(
        (now.deviation - expected.deviation).abs() < 0.01,
        "{now:?} {expected:?}"
    );
    let without = alice_then.after_game(bob_then, Score::Loss);
    assert!(
        (alice_then.rating - now.rating) > (alice_then.rating - without.rating) + 1.0,
        "the year away makes the loss cost more: {now:?} {without:?}"
    );
    store.close().await;
}
