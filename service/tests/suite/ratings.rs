//! Glicko-2 ratings (issue 39) through the store, as games end: a rated game updates both
//! sides from their ratings before it, in the result's transaction; games with the computer,
//! aborted games and games that end before each side moved are not rated. On SQLite and
//! PostgreSQL. (The arithmetic itself is checked against a reference in `ratings.rs`.)

use crate::common;

use common::connect;
use common::table::{Lcg, Table, start, text};
use tabula_core::GameId;
use tabula_service::ratings::{Rating, Score};
use tabula_service::store::{DatabaseUrl, GameNo, Platform, RatingShown, Store, UserId};

on_both_databases! {
    a_rated_game_updates_both_sides_from_their_ratings_before_it => rated;
    computer_aborted_and_unplayed_games_are_not_rated => unrated;
    the_rating_leaderboard_lists_settled_ratings_of_regular_players => leaderboard;
    the_rating_history_in_a_game_is_drawn => chart;
    stats_count_results_per_game_with_streak_and_head_to_head => stats;
}

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
