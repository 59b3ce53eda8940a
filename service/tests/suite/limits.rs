//! Every reply fits the chat platforms (issue 14, item 5): long games of all five, played to
//! the end through the service, with every reply checked — the moves' answers, boards, move
//! lists, every page of `/history`, `/games` with thirty games — for Discord's 2,000
//! characters, 25 buttons in at most 5 rows of 5, labels of at most 80 characters, and
//! Telegram's 64 bytes of button data.

use crate::common;

use common::SqliteFile;
use common::connect;
use common::said::{num, said};
use common::table::{Lcg, Table, piece_button, start, text};
use tabula_core::{GameId, Status};
use tabula_service::service::{MAX_TEXT, Reply, measure};
use tabula_service::store::{GameNo, GameStatus};

/// Asserts that `reply` fits every platform.
fn check(reply: &Reply, context: &str) {
    let body = text(reply);
    assert!(
        body.chars().count() <= 2_000,
        "{context}: {} characters",
        body.chars().count()
    );
    assert!(
        measure(&reply.spans) <= MAX_TEXT,
        "{context}: measured {}",
        measure(&reply.spans)
    );
    assert!(
        reply.buttons.len() <= 5,
        "{context}: {} rows",
        reply.buttons.len()
    );
    for row in &reply.buttons {
        assert!(row.len() <= 5, "{context}: a row of {}", row.len());
    }
    assert!(reply.all_buttons().count() <= 25, "{context}");
    for button in reply.all_buttons() {
        assert!(
            button.label.chars().count() <= 80,
            "{context}: label {}",
            button.label
        );
        assert!(button.data.len() <= 64, "{context}: data {}", button.data);
    }
}

/// Sends a command, checks its reply and returns it.
async fn cmd(table: &Table, user: &str, command: &str) -> Reply {
    let reply = table.cmd(user, command).await;
    check(&reply, command);
    reply
}

/// Presses a button, checks its reply and returns it.
async fn press(table: &Table, user: &str, data: &str) -> Reply {
    let reply = table.press(user, data).await;
    check(&reply, data);
    reply
}

/// Every page of `/history` of `game`, following the Earlier buttons; returns how many.
async fn history_pages(table: &Table, game: GameNo) -> usize {
    let mut page = cmd(table, "carol", &format!("/history #{game}")).await;
    let mut pages = 1;
    loop {
        let earlier: Option<String> = page
            .all_buttons()
            .find(|b| b.data.starts_with(&format!("h{game}.")))
            .map(|b| b.data.clone());
        let Some(data) = earlier else {
            break;
        };
        page = press(table, "carol", &data).await;
        assert!(page.is_done(), "{:?}", page.kind);
        pages += 1;
        assert!(pages < 1_000, "history pages never end");
    }
    assert!(
        text(&page).contains("\n1. "),
        "the last page starts at the first action: {}",
        text(&page)
    );
    pages
}

/// Plays `game` to its end, alternately typing a random legal move and pressing its button
/// (a piece's button first when the moves are grouped; typed when no button offers it),
/// checking every reply, and now and then the board, the move list and the history.
async fn play_out(table: &Table, game: GameNo, seed: u64) -> usize {
    let mut lcg = Lcg(seed);
    for step in 0..5_000 {
        let (state, actor) = table.state(game).await;
        let Some(actor) = actor else {
            assert!(
                matches!(state.status(), Status::Done(_)),
                "game {game} at rest"
            );
            return step;
        };
        let lines = state.legal_lines();
        let line = lines[lcg.below(lines.len())].clone();
        let board = cmd(table, &actor, &format!("/board #{game}")).await;
        let mut reply = None;
        if step % 2 == 1 {
            if let Some(button) = board.all_buttons().find(|b| b.label == line) {
                reply = Some(press(table, &actor, &button.data.clone()).await);
            } else if let Some(group) = piece_button(&board, &line) {
                let pieces = press(table, &actor, &group.data.clone()).await;
                if let Some(button) = pieces.all_buttons().find(|b| b.label == line) {
                    reply = Some(press(table, &actor, &button.data.clone()).await);
                }
            }
        }
        let reply = match reply {
            Some(reply) => reply,
            None => cmd(table, &actor, &format!("/move #{game} {line}")).await,
        };
        assert!(
            reply.is_done() && reply.game == Some(game),
            "{line}: {:?}: {}",
            reply.kind,
            text(&reply)
        );
        if step % 50 == 0 {
            cmd(table, &actor, &format!("/moves #{game}")).await;
            cmd(table, "carol", &format!("/history #{game}")).await;
        }
    }
    panic!("game {game} did not end in 5,000 moves");
}

async fn long_game(id: GameId, seed: u64) {
    let file = SqliteFile::new();
    let store = connect(&file.url()).await;
    let table = Table::system_clock(store.clone(), seed);
    let game = start(&table, "alice", "bob", &id.to_string()).await;
    let moves = play_out(&table, game, seed).await;
    let record = table.record(game).await;
    assert_eq!(record.status, GameStatus::Finished);
    cmd(&table, "bob", &format!("/board #{game}")).await;
    let pages = history_pages(&table, game).await;
    // A long game's history takes several pages rather than one wall of text.
    if record.seq > 100 {
        assert!(pages > 1, "{id}: {} actions in one page", record.seq);
    }
    assert!(moves > 0);
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_konane_fits_the_chat() {
    long_game(GameId::Konane, 31).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_koan_fits_the_chat() {
    long_game(GameId::Koan, 32).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_kolowis_fits_the_chat() {
    long_game(GameId::Kolowis, 33).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_coan_ki_fits_the_chat() {
    long_game(GameId::CoanKi, 34).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_pachisi_fits_the_chat() {
    long_game(GameId::Pachisi, 35).await;
}

/// Thirty active games: `/games` shows at most 25 buttons, in rows of at most five, and says
/// that more are not shown.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thirty_games_list_within_twenty_five_buttons() {
    let file = SqliteFile::new();
    let store = connect(&file.url()).await;
    let table = Table::new(store.clone(), 36);
    for _ in 0..30 {
        start(&table, "alice", "bob", "konane").await;
    }
    let games = cmd(&table, "alice", "/games").await;
    assert!(games.is_done(), "{:?}", games.kind);
    assert_eq!(games.all_buttons().count(), 25);
    assert_eq!(num(said(&games, "more-buttons"), "count"), 5, "5 more");
    store.close().await;
}
