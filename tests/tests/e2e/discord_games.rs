//! Whole games of all five through Discord: the real `tabula run` against the fake Discord,
//! two members of a server playing by button presses and `/move`, the bot stopped by SIGTERM in
//! the middle and started again on the same database; over the gateway and over the HTTP
//! interactions endpoint.

use serde_json::json;
use tabula_tests::discord_table::{Mode, Table, buttons, challenge, is_board, play_to_end};
use tabula_tests::said;

async fn whole_game(name: &str, game: &str, mode: Mode, seed: u64) {
    let mut table = Table::new(name, mode).await;
    table.start().await;
    let (players, board) = challenge(&table, game).await;
    let moves = play_to_end(&mut table, &players, board, seed, 7).await;
    assert!(
        moves > 7,
        "{game} ended after {moves} moves, before the restart"
    );
    // The end notifies both players, with Replay, Record and Rematch under it (issue 37).
    let channel = table.platform.channel.clone();
    tabula_tests::table::ending_has_closure(&table, &channel, &players).await;
    // The finished game is still there for /games.
    let last = table.last_id();
    table.slash(&players[0], "games", &[]).await;
    table.wait_message(last, "answer to /games", |_| true).await;
    table.stop().await;
    table.assert_clean();
}

macro_rules! games {
    ($($test:ident: $game:expr, $mode:expr, $seed:expr;)*) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $test() {
                whole_game(stringify!($test), $game, $mode, $seed).await;
            }
        )*
    };
}

games! {
    konane_over_the_gateway: "konane", Mode::Gateway, 1;
    konane_over_http_interactions: "konane", Mode::Http, 11;
    koan_over_the_gateway: "koan", Mode::Gateway, 2;
    koan_over_http_interactions: "koan", Mode::Http, 12;
    kolowis_over_the_gateway: "kolowis", Mode::Gateway, 3;
    kolowis_over_http_interactions: "kolowis", Mode::Http, 13;
    coan_ki_over_the_gateway: "coan-ki", Mode::Gateway, 4;
    coan_ki_over_http_interactions: "coan-ki", Mode::Http, 14;
    pachisi_over_the_gateway: "pachisi", Mode::Gateway, 5;
    pachisi_over_http_interactions: "pachisi", Mode::Http, 15;
}

/// Alice alone plays the computer: `/play` with its `computer` option, her moves by buttons
/// and `/move`, the computer's boards posted by the outbox, a restart in the middle.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn against_the_computer_over_http_interactions() {
    let mut table = Table::new("dc-computer", Mode::Http).await;
    table.start().await;
    let alice = table.person("Alice");
    let before = table.last_id();
    table
        .slash(
            &alice,
            "play",
            &[
                ("game", json!("konane")),
                ("computer", json!(1)),
                ("options", json!("size=6")),
            ],
        )
        .await;
    let board = table.wait_new(before, "first board", is_board).await;
    assert!(
        said::says(&board.content, "game-begins-computer"),
        "{}",
        board.content
    );
    let players = [alice];
    play_to_end(&mut table, &players, board, 21, 4).await;
    let messages = table.fake.messages(&table.platform.channel);
    let from_outbox = messages
        .iter()
        .filter(|m| is_board(m) && m.interaction_id.is_none())
        .count();
    assert!(
        from_outbox > 0,
        "the computer's boards come from the outbox"
    );
    for m in &messages {
        assert!(!m.content.contains("<@level"), "{}", m.content);
        assert!(m.notified.iter().all(|id| *id == players[0].id));
    }
    table.stop().await;
    table.assert_clean();
}

/// Issue 19 on Discord: a Coan Ki challenge accepted by button (Discord's interaction id salts
/// the dice), a few moves, a resignation that reveals the seed, then `/export` posts the record
/// and `/replay` the animation as attachments; the real `tabula verify` accepts the record;
/// `/leaderboard` names the server as Discord calls it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_coan_ki_record_and_replay_over_http_interactions() {
    use tabula_tests::discord_table::{Lcg, one_move};
    let mut table = Table::new("dc-export", Mode::Http).await;
    table.start().await;
    let (players, mut board) = challenge(&table, "coan-ki").await;
    let channel = table.platform.channel.clone();
    let mut lcg = Lcg(31);
    for step in 0..4 {
        board = one_move(&table, &channel, &players, &board, &mut lcg, step % 2 == 0).await;
    }
    // Resigning asks first; the press confirms.
    let last = table.last_id();
    table.slash(&players[0], "resign", &[]).await;
    let question = table
        .wait_message(last, "the question", |m| {
            said::says(&m.content, "resign-question")
        })
        .await;
    let (_, confirm) = buttons(&question)[0].clone();
    let last = table.last_id();
    table.press(&players[0], question.id, &confirm).await;
    let over = table
        .wait_message(last, "the end", |m| {
            said::says(&m.content, "result-because")
        })
        .await;
    assert!(said::says(&over.content, "result-seed"), "{}", over.content);

    let last = table.last_id();
    table.slash(&players[1], "export", &[]).await;
    let exported = table
        .wait_message(last, "the record", |m| {
            m.attachments.iter().any(|a| a.filename.ends_with(".txt"))
        })
        .await;
    assert_eq!(
        exported.ephemeral_for, None,
        "the record is posted to the channel"
    );
    let file = &exported.attachments[0];
    let record = String::from_utf8(file.bytes.clone()).expect("UTF-8");
    assert!(record.contains("[SaltSource \"platform\"]"), "{record}");
    assert!(record.contains("[Seed \""), "{record}");
    let verified = tabula_tests::bot_process::tabula_verify(&record);
    assert!(
        verified.status.success(),
        "{}",
        String::from_utf8_lossy(&verified.stderr)
    );

    let last = table.last_id();
    table.slash(&players[0], "replay", &[]).await;
    let replay = table
        .wait_message(last, "the replay", |m| {
            m.attachments.iter().any(|a| a.filename.ends_with(".gif"))
        })
        .await;
    let gif = &replay.attachments[0];
    assert!(gif.bytes.starts_with(b"GIF89a"), "a GIF");
    assert!(gif.bytes.len() < 10 * 1024 * 1024);

    // Without a gateway the server is still called by its name (issue 37), read once from
    // Discord.
    let last = table.last_id();
    table.slash(&players[0], "leaderboard", &[]).await;
    let board = table
        .wait_message(last, "the leaderboard", |m| {
            said::says(&m.content, "leaderboard") || said::says(&m.content, "leaderboard-empty")
        })
        .await;
    assert!(board.content.contains("Board games"), "{}", board.content);
    assert!(
        !board.content.contains("Discord server"),
        "{}",
        board.content
    );
    table.stop().await;
    table.assert_clean();
}
