//! Whole games of all five through Telegram: the real `tabula run` against the fake Bot API,
//! two people in a group playing by button presses and typed moves, the bot stopped by SIGTERM
//! in the middle and started again on the same database.

use std::time::Duration;

use tabula_tests::telegram::{FakeMessage, TgChat, TgUser};
use tabula_tests::telegram_table::{ANSWER, Lcg, Table, callbacks, has_moves, is_photo, username};

/// Who is to act on a board: the player whose `@username` the text names (only the player
/// to act is mentioned so that Telegram notifies them; others are shown by name).
fn to_act<'a>(board: &FakeMessage, players: &'a [(TgUser, String)]) -> Option<&'a TgUser> {
    players
        .iter()
        .find(|(_, username)| board.text().contains(&format!("@{username}")))
        .map(|(user, _)| user)
}

/// A move at random, as a keen player makes them: Pachisi's `skip` (not throwing) and `done`
/// (giving up the rest of a throw) only when nothing else is left.
fn choose(choices: &[(String, String)], lcg: &mut Lcg) -> (String, String) {
    let keen: Vec<_> = choices
        .iter()
        .filter(|(label, _)| label != "skip" && label != "done")
        .collect();
    if keen.is_empty() {
        choices[lcg.below(choices.len())].clone()
    } else {
        keen[lcg.below(keen.len())].clone()
    }
}

/// Alice challenges Bob to `game` in a new group and Bob accepts by button; returns the
/// group, the players and the first board.
async fn challenge(table: &Table, game: &str) -> (TgChat, Vec<(TgUser, String)>, FakeMessage) {
    let fake = &table.fake;
    let group = fake.group("Board games");
    let alice = table.person("Alice");
    let bob = table.person("Bob");
    fake.add_member(&group, &alice);
    fake.add_member(&group, &bob);
    fake.user_writes(&group, &alice, &format!("/play {game} @bob_tg"));
    let offer = table
        .wait_new(&group, 0, "challenge", |m| {
            callbacks(m).iter().any(|(_, d)| d.starts_with('a'))
        })
        .await;
    assert!(
        offer.text().contains("@bob_tg"),
        "bob is notified: {}",
        offer.text()
    );
    let accept = callbacks(&offer)
        .into_iter()
        .find(|(_, d)| d.starts_with('a'))
        .map(|(_, d)| d)
        .expect("an Accept button");
    fake.press(&group, &bob, offer.message_id, &accept)
        .expect("bob presses Accept");
    let board = table
        .wait_new(&group, offer.message_id, "first board", is_photo)
        .await;
    // The challenge's buttons are gone once the game started.
    fake.wait_for(
        |f| {
            f.message(&group, offer.message_id)
                .filter(|m| callbacks(m).is_empty())
        },
        ANSWER,
    )
    .await
    .expect("the offer's buttons are taken off");
    let players = vec![(alice, username("Alice")), (bob, username("Bob"))];
    (group, players, board)
}

/// Plays the game on `board` to its end, choosing moves at random (seeded) from the board's
/// buttons; every other move is typed instead of pressed. At move `restart_at` the bot is
/// stopped by SIGTERM and started again. Returns how many moves were made.
async fn play_to_end(
    table: &mut Table,
    group: &TgChat,
    players: &[(TgUser, String)],
    mut board: FakeMessage,
    seed: u64,
    restart_at: usize,
) -> usize {
    let mut lcg = Lcg(seed);
    for step in 0..6000 {
        if step == restart_at {
            table.stop().await;
            table.start().await;
        }
        if !has_moves(&board) {
            assert!(
                board.text().contains("over") || board.text().contains("wins"),
                "a board without moves is the end: {}",
                board.text()
            );
            return step;
        }
        let actor = to_act(&board, players)
            .unwrap_or_else(|| panic!("nobody is named to act: {}", board.text()))
            .clone();
        let (label, data) = choose(&callbacks(&board), &mut lcg);
        let last = table.newest(group, |_| true).map_or(0, |m| m.message_id);
        if data.starts_with('p') {
            // A piece with several moves: its moves come as a choice, shown to the player.
            table
                .fake
                .press(group, &actor, board.message_id, &data)
                .expect("press a piece");
            let choice = table
                .wait_new(group, last, "choice of moves", has_moves)
                .await;
            let (_, data) = choose(&callbacks(&choice), &mut lcg);
            table
                .fake
                .press(group, &actor, choice.message_id, &data)
                .expect("press a move");
        } else if step % 2 == 0 && data.starts_with('m') {
            table
                .fake
                .user_writes(group, &actor, &format!("/move {label}"));
        } else {
            table
                .fake
                .press(group, &actor, board.message_id, &data)
                .expect("press a move");
        }
        board = table
            .wait_new(group, last, "next board", |m| {
                is_photo(m) && m.reply_to.is_none()
            })
            .await;
        // The boards before lose their buttons.
        let newest = board.message_id;
        table
            .fake
            .wait_for(
                |f| {
                    (!f.any_bot_message(group, |m| {
                        is_photo(m) && m.message_id < newest && has_moves(m)
                    }))
                    .then_some(())
                },
                ANSWER,
            )
            .await
            .expect("old boards lose their move buttons");
    }
    panic!("the game did not end in 6000 moves")
}

async fn whole_game(name: &str, game: &str, seed: u64) {
    let mut table = Table::new(name).await;
    table.start().await;
    let (group, players, board) = challenge(&table, game).await;
    let moves = play_to_end(&mut table, &group, &players, board, seed, 7).await;
    if std::env::var_os("TABULA_TEST_TIMING").is_some() {
        let requests = table.fake.requests();
        let first = requests[0].at;
        for r in requests.iter().take(80) {
            eprintln!(
                "{:>8.3} {} {}",
                (r.at - first).as_secs_f64(),
                r.method,
                r.status
            );
        }
    }
    assert!(
        moves > 7,
        "{game} ended after {moves} moves, before the restart"
    );
    // The end is told, and the finished game still shows on /board.
    let last = table.newest(&group, |_| true).map_or(0, |m| m.message_id);
    table.fake.user_writes(&group, &players[0].0, "/games");
    table
        .wait_new(&group, last, "answer to /games", |_| true)
        .await;
    table.stop().await;
    table.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn konane_in_a_group() {
    whole_game("konane", "konane", 1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn koan_in_a_group() {
    whole_game("koan", "koan", 2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kolowis_in_a_group() {
    whole_game("kolowis", "kolowis", 3).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn coan_ki_in_a_group() {
    whole_game("coan-ki", "coan-ki", 4).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pachisi_in_a_group() {
    whole_game("pachisi", "pachisi", 5).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_game_within_telegrams_documented_limits() {
    let mut table = Table::new("limits").await.with_documented_limits();
    table.start().await;
    let (group, players, mut board) = challenge(&table, "konane").await;
    let mut lcg = Lcg(9);
    for _ in 0..4 {
        let actor = to_act(&board, &players).expect("someone to act").clone();
        let choices: Vec<_> = callbacks(&board)
            .into_iter()
            .filter(|(_, d)| d.starts_with('m'))
            .collect();
        let (_, data) = choices[lcg.below(choices.len())].clone();
        let last = table.newest(&group, |_| true).map_or(0, |m| m.message_id);
        table
            .fake
            .press(&group, &actor, board.message_id, &data)
            .expect("press a move");
        board = table.wait_new(&group, last, "next board", is_photo).await;
    }
    table.stop().await;
    table.assert_clean();
    let refused: Vec<_> = table
        .fake
        .requests()
        .into_iter()
        .filter(|r| r.status == 429)
        .collect();
    assert!(
        refused.is_empty(),
        "the bot went over Telegram's limits: {refused:#?}"
    );
    let _ = Duration::ZERO;
}
