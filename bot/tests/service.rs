//! The service end to end over a real store: whole games of all five games with scripted dice
//! (moves typed with `/move` and pressed as buttons), restarts on the same database, races on
//! PostgreSQL, repeated requests, stale buttons, and the answers to mistakes.
//!
//! SQLite tests use a fresh file each. The PostgreSQL tests are ignored by a plain `cargo test`;
//! `.ci/run` sets `TABULA_TEST_POSTGRES_URL` and runs them with `--include-ignored`.

mod common;

use std::sync::Arc;

use common::table::{Lcg, Table, piece_button, scripted_dice, text, to_act};
use common::{SqliteFile, connect, on_postgres};
use tabula_bot::service::{Audience, Clock, Input, Kind, Reply, Service, UserError};
use tabula_bot::store::{DatabaseUrl, GameNo, GameStatus, History, Platform, Store};
use tabula_core::{AnyGame, GameId, Status};

/// The game's state replayed from the store, its status, who is to act (platform user id),
/// and its last action's number.
async fn game_state(table: &Table, game: GameNo) -> (AnyGame, GameStatus, Option<String>, u32) {
    let (state, record) = table.replayed(game).await;
    let actor = to_act(&state, &record);
    (state, record.status, actor, record.seq)
}

/// Starts a game of `id` between alice and bob (challenge, accept) and returns its number.
async fn start(table: &Table, id: GameId) -> GameNo {
    common::table::start(table, "alice", "bob", &id.to_string()).await
}

/// Plays `game` until it ends (or `limit` moves), alternating between typing the chosen move
/// and pressing its button (in two steps when the moves are grouped by piece). Returns the
/// number of moves made.
async fn drive(table: &Table, game: GameNo, seed: u64, limit: usize) -> usize {
    let mut lcg = Lcg(seed);
    let mut board = table.cmd("alice", &format!("/board #{game}")).await;
    for step in 0..limit {
        let (state, status, actor, seq) = game_state(&table, game).await;
        if status != GameStatus::Active {
            assert!(matches!(state.status(), Status::Done(_)));
            return step;
        }
        let Some(actor) = actor else {
            panic!(
                "active game {game} at rest with nobody to move: {}",
                state.status_line()
            );
        };
        let lines = state.legal_lines();
        assert!(!lines.is_empty());
        let index = usize::try_from(lcg.next()).unwrap_or(0) % lines.len();
        let line = &lines[index];
        let reply = if step % 2 == 0 {
            table.cmd(&actor, &format!("/move #{game} {line}")).await
        } else {
            let direct = board.all_buttons().find(|b| b.label == *line).cloned();
            let button = match direct {
                Some(button) => button,
                None => {
                    let Some(group) = piece_button(&board, line).cloned() else {
                        panic!("no button for {line} in {:?}", board.buttons);
                    };
                    let choices = table.press(&actor, &group.data).await;
                    let found = choices.all_buttons().find(|b| b.label == *line).cloned();
                    match found {
                        Some(button) => button,
                        None => panic!("no button for {line} after {}", text(&choices)),
                    }
                }
            };
            assert!(button.data.len() <= 64, "{}", button.data);
            table.press(&actor, &button.data).await
        };
        let body = text(&reply);
        assert!(
            body.contains(" played ") && !body.starts_with("Sorry"),
            "move {line} at seq {seq}: {body}"
        );
        assert!(
            reply
                .all_buttons()
                .all(|b| b.data.len() <= 64 && b.data.chars().count() <= 100),
            "button data too long: {:?}",
            reply.buttons
        );
        assert!(reply.all_buttons().count() <= 2 * tabula_bot::service::MAX_BUTTONS);
        board = reply;
    }
    limit
}

/// Whole game of `id` to the end, then checks the log.
async fn whole_game(store: Store, id: GameId, seed: u64) {
    let table = Table::system_clock(store, seed);
    let game = start(&table, id).await;
    let moves = drive(&table, game, seed, 5000).await;
    assert!(moves < 5000, "{id} did not end in 5000 moves");
    let (state, status, _, seq) = game_state(&table, game).await;
    assert_eq!(status, GameStatus::Finished);
    assert!(matches!(state.status(), Status::Done(_)));
    let board = table.cmd("bob", &format!("/board #{game}")).await;
    assert!(
        text(&board).contains("the game is over"),
        "{}",
        text(&board)
    );
    assert!(board.buttons.is_empty());
    let history = table.cmd("carol", &format!("/history #{game}")).await;
    assert!(text(&history).contains(&format!("\n{seq}. ")));
    check_log(table.store(), game).await;
    let late = table.cmd("alice", &format!("/move #{game} a1")).await;
    assert!(text(&late).starts_with("Sorry"), "{}", text(&late));
}

/// The log is numbered 1..=seq with no gap or duplicate.
async fn check_log(store: &Store, game: GameNo) {
    let loaded = match store.load_game(game, History::Full).await {
        Ok(Some(loaded)) => loaded,
        other => panic!("{other:?}"),
    };
    let seqs: Vec<u32> = loaded.actions.iter().map(|a| a.seq).collect();
    let expected: Vec<u32> = (1..=loaded.record.seq).collect();
    assert_eq!(seqs, expected);
}

async fn sqlite_store() -> (SqliteFile, Store) {
    let file = SqliteFile::new();
    let store = connect(&file.url()).await;
    (file, store)
}

macro_rules! whole_games {
    ($($name:ident => $id:expr, $seed:expr;)*) => {
        mod whole_game_sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let (_file, store) = super::sqlite_store().await;
                    super::whole_game(store.clone(), $id, $seed).await;
                    store.close().await;
                }
            )*
        }
        mod whole_game_postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                #[ignore = "needs PostgreSQL: set TABULA_TEST_POSTGRES_URL and pass --include-ignored (.ci/run does)"]
                async fn $name() {
                    super::on_postgres(stringify!($name), |url| async move {
                        let store = super::connect(&url).await;
                        super::whole_game(store.clone(), $id, $seed).await;
                        store.close().await;
                    })
                    .await;
                }
            )*
        }
    };
}

whole_games! {
    konane => tabula_core::GameId::Konane, 1;
    koan => tabula_core::GameId::Koan, 2;
    kolowis => tabula_core::GameId::Kolowis, 3;
    coan_ki => tabula_core::GameId::CoanKi, 4;
    pachisi => tabula_core::GameId::Pachisi, 5;
}

/// Runs `case` on a fresh PostgreSQL schema, when the server is configured.
/// Plays a few moves, drops the service and the store, reconnects, and plays to the end.
async fn restart(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::system_clock(store.clone(), 11);
    let game = start(&table, GameId::CoanKi).await;
    let played = drive(&table, game, 7, 6).await;
    assert_eq!(played, 6);
    let (before, _, _, seq_before) = game_state(&table, game).await;
    drop(table);
    store.close().await;

    let store = connect(&url).await;
    let table = Table::system_clock(store.clone(), 12);
    let (after, status, _, seq_after) = game_state(&table, game).await;
    assert_eq!(status, GameStatus::Active);
    assert_eq!(seq_after, seq_before);
    assert_eq!(after, before);
    let games = table.cmd("bob", "/games").await;
    assert!(
        text(&games).contains(&format!("#{game}")),
        "{}",
        text(&games)
    );
    let moves = drive(&table, game, 8, 5000).await;
    assert!(moves < 5000);
    let (_, status, _, _) = game_state(&table, game).await;
    assert_eq!(status, GameStatus::Finished);
    check_log(table.store(), game).await;
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restart_continues_the_game_sqlite() {
    let file = SqliteFile::new();
    restart(file.url()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TABULA_TEST_POSTGRES_URL and pass --include-ignored (.ci/run does)"]
async fn restart_continues_the_game_postgres() {
    on_postgres("restart", restart).await;
}

/// Many tasks press the same button, then send conflicting moves, at once: one is applied per
/// turn, every other caller gets a clear answer, and the log has no gap or duplicate.
async fn races(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Arc::new(Table::system_clock(store.clone(), 21));
    let game = start(&table, GameId::Kolowis).await;
    for round in 0..6 {
        let (state, _, actor, seq) = game_state(&table, game).await;
        let Some(actor) = actor else {
            panic!("nobody to move");
        };
        let lines = state.legal_lines();
        let mut tasks = Vec::new();
        for task in 0..12 {
            let table = Arc::clone(&table);
            let actor = actor.clone();
            let input = if round % 2 == 0 {
                Input::Button(format!("m{game}.{seq}.0"))
            } else {
                Input::Command(format!("/move #{game} {}", lines[task % lines.len()]))
            };
            tasks.push(tokio::spawn(async move {
                let request = table.request(&actor, input);
                table.send(&request).await
            }));
        }
        let mut applied = 0;
        for task in tasks {
            let reply = match task.await {
                Ok(reply) => reply,
                Err(error) => panic!("task failed: {error}"),
            };
            let body = text(&reply);
            if body.contains(" played ") {
                applied += 1;
            } else {
                assert!(
                    body.contains("This board has changed") || body.starts_with("Sorry"),
                    "unclear answer: {body}"
                );
            }
        }
        assert_eq!(applied, 1, "round {round}");
        let (_, _, _, seq_after) = game_state(&table, game).await;
        assert!(seq_after > seq);
        check_log(table.store(), game).await;
    }
    // Many people take one open challenge at once: one game starts.
    let reply = table.cmd("carol", "/play konane").await;
    let Some(accept) = reply.all_buttons().find(|b| b.label == "Accept").cloned() else {
        panic!("no accept button: {}", text(&reply));
    };
    let mut tasks = Vec::new();
    for taker in 0..10 {
        let table = Arc::clone(&table);
        let data = accept.data.clone();
        tasks.push(tokio::spawn(async move {
            let request = table.request(&format!("taker{taker}"), Input::Button(data));
            table.send(&request).await
        }));
    }
    let mut started = 0;
    for task in tasks {
        let reply = match task.await {
            Ok(reply) => reply,
            Err(error) => panic!("task failed: {error}"),
        };
        let body = text(&reply);
        if body.contains("begins") {
            started += 1;
        } else {
            assert!(body.starts_with("Sorry"), "unclear answer: {body}");
        }
    }
    assert_eq!(started, 1);
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs PostgreSQL: set TABULA_TEST_POSTGRES_URL and pass --include-ignored (.ci/run does)"]
async fn concurrent_presses_and_moves_apply_once_postgres() {
    on_postgres("races", races).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn duplicate_request_is_applied_once() {
    let (_file, store) = sqlite_store().await;
    let table = Table::system_clock(store.clone(), 31);
    let game = start(&table, GameId::Konane).await;
    let (state, _, actor, seq) = game_state(&table, game).await;
    let actor = actor.unwrap_or_default();
    let line = state.legal_lines().first().cloned().unwrap_or_default();
    let request = table.request(&actor, Input::Command(format!("/move {line}")));
    let first = table.send(&request).await;
    assert!(text(&first).contains(" played "), "{}", text(&first));
    let second = table.send(&request).await;
    assert!(
        text(&second).contains("already handled"),
        "{}",
        text(&second)
    );
    let (_, _, _, seq_after) = game_state(&table, game).await;
    assert_eq!(seq_after, seq + 1);
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stale_button_gets_the_current_board() {
    let (_file, store) = sqlite_store().await;
    let table = Table::system_clock(store.clone(), 41);
    let game = start(&table, GameId::Konane).await;
    let (_, _, actor, seq) = game_state(&table, game).await;
    let actor = actor.unwrap_or_default();
    let old = format!("m{game}.{seq}.0");
    let reply = table.press(&actor, &old).await;
    assert!(text(&reply).contains(" played "));
    let (_, _, next, seq_after) = game_state(&table, game).await;
    let stale = table.press(&next.unwrap_or_default(), &old).await;
    assert!(
        text(&stale).contains("This board has changed"),
        "{}",
        text(&stale)
    );
    assert!(!stale.buttons.is_empty());
    assert!(
        stale
            .all_buttons()
            .all(|b| b.data.contains(&format!(".{seq_after}.")))
    );
    let (_, _, _, unchanged) = game_state(&table, game).await;
    assert_eq!(unchanged, seq_after);
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn non_players_and_wrong_seats_are_refused() {
    let (_file, store) = sqlite_store().await;
    let table = Table::system_clock(store.clone(), 51);
    let game = start(&table, GameId::Konane).await;
    let (state, _, actor, seq) = game_state(&table, game).await;
    let actor = actor.unwrap_or_default();
    let other = if actor == "alice" { "bob" } else { "alice" };
    let line = state.legal_lines().first().cloned().unwrap_or_default();
    let reply = table.cmd("carol", &format!("/move #{game} {line}")).await;
    assert!(text(&reply).contains("not playing"), "{}", text(&reply));
    let reply = table.press("carol", &format!("m{game}.{seq}.0")).await;
    assert!(text(&reply).contains("not playing"), "{}", text(&reply));
    let reply = table.cmd(other, &format!("/move #{game} {line}")).await;
    assert!(text(&reply).contains("not your turn"), "{}", text(&reply));
    let look = table.cmd("carol", "/board").await;
    assert!(text(&look).contains("to move"), "{}", text(&look));
    let (_, _, _, unchanged) = game_state(&table, game).await;
    assert_eq!(unchanged, seq);
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_gets_clear_messages() {
    let (_file, store) = sqlite_store().await;
    let table = Table::system_clock(store.clone(), 61);
    type Check = fn(&UserError) -> bool;
    let cases: [(&str, Check); 8] = [
        ("/frobnicate", |e| matches!(e, UserError::UnknownCommand(_))),
        ("/play chess @bob", |e| {
            matches!(e, UserError::UnknownGame(_))
        }),
        ("/play konane @bob size=7x", |e| {
            matches!(e, UserError::Setup(_))
        }),
        ("/play konane @bob @carol", |e| {
            matches!(e, UserError::Players { named: 3, .. })
        }),
        ("/play", |e| matches!(e, UserError::Usage(_))),
        ("/accept", |e| matches!(e, UserError::NoChallenge)),
        ("/board", |e| matches!(e, UserError::NoGame)),
        ("/rules", |e| matches!(e, UserError::Usage(_))),
    ];
    for (input, check) in cases {
        let reply = table.cmd("alice", input).await;
        let refusal = reply.refusal();
        assert!(refusal.is_some_and(check), "{input}: {:?}", reply.kind);
        assert_eq!(reply.audience, Audience::Actor, "{input}");
        assert!(
            reply.buttons.is_empty() && reply.picture.is_none(),
            "{input}"
        );
    }
    // Ordinary chat and commands for another bot get no answer at all.
    for input in ["hello", "good game!", "/help@otherbot"] {
        let mut request = table.command("carol", input);
        request.bot_username = Some("TabulaBot".into());
        let answer = table.service.handle(&request).await.expect("no failure");
        assert_eq!(answer, None, "{input}");
    }
    let mut ours = table.command("carol", "/help@tabulabot");
    ours.bot_username = Some("TabulaBot".into());
    let answer = table.service.handle(&ours).await.expect("no failure");
    assert!(answer.is_some_and(|reply| reply.is_done()));
    let game = start(&table, GameId::Konane).await;
    let (_, _, actor, seq) = game_state(&table, game).await;
    let actor = actor.unwrap_or_default();
    for (input, expected) in [
        ("/move z99", "z99"),
        ("/move", "usage"),
        ("/move roll:3", "rolls the dice"),
    ] {
        let reply = table.cmd(&actor, input).await;
        let body = text(&reply);
        assert!(
            body.starts_with("Sorry") && body.contains(expected),
            "{input}: {body}"
        );
    }
    let reply = table.press(&actor, "zz").await;
    assert!(text(&reply).contains("not understood"));
    let reply = table.press(&actor, &format!("m{game}.{seq}.999")).await;
    assert!(
        text(&reply).contains("no longer offered"),
        "{}",
        text(&reply)
    );
    let rules = table.cmd("carol", "/rules coan-ki").await;
    assert!(text(&rules).contains("Coan Ki"));
    let help = table.cmd("carol", "/help").await;
    assert!(text(&help).contains("/play"));
    let (_, _, _, unchanged) = game_state(&table, game).await;
    assert_eq!(unchanged, seq);
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn several_games_ask_which_and_challenges_settle() {
    let (_file, store) = sqlite_store().await;
    let table = Table::system_clock(store.clone(), 71);
    let first = start(&table, GameId::Konane).await;
    let second = start(&table, GameId::Koan).await;
    let reply = table.cmd("alice", "/board").await;
    assert!(text(&reply).contains("several games"), "{}", text(&reply));
    let reply = table.cmd("alice", &format!("/board #{second}")).await;
    assert!(text(&reply).contains(&format!("Game #{second}")));
    let reply = table.cmd("alice", &format!("/resign #{first}")).await;
    assert!(text(&reply).contains("resigned"), "{}", text(&reply));
    // Open challenge, taken by anyone; a named one declined; one cancelled.
    let reply = table.cmd("carol", "/play pachisi").await;
    assert!(text(&reply).contains("anyone"), "{}", text(&reply));
    let reply = table.cmd("carol", "/accept").await;
    assert!(
        text(&reply).contains("no challenge waiting"),
        "{}",
        text(&reply)
    );
    let reply = table.cmd("dave", "/accept").await;
    assert!(text(&reply).contains("begins"), "{}", text(&reply));
    table.cmd("erin", "/play koan @frank").await;
    let reply = table.cmd("gina", "/decline #4").await;
    assert!(
        text(&reply).contains("not addressed to you"),
        "{}",
        text(&reply)
    );
    let reply = table.cmd("frank", "/decline").await;
    assert!(text(&reply).contains("declined"), "{}", text(&reply));
    table.cmd("erin", "/play koan @frank").await;
    let reply = table.cmd("frank", "/cancel").await;
    assert!(text(&reply).starts_with("Sorry"), "{}", text(&reply));
    let reply = table.cmd("erin", "/cancel").await;
    assert!(text(&reply).contains("withdrew"), "{}", text(&reply));
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn board_has_a_picture() {
    let (_file, store) = sqlite_store().await;
    let table = Table::with_service(
        Service::new(store.clone(), scripted_dice(81)),
        Clock::System,
    );
    let game = start(&table, GameId::Pachisi).await;
    let reply = table.cmd("bob", &format!("/board #{game}")).await;
    let Some(png) = &reply.picture else {
        panic!("no picture");
    };
    assert!(png.starts_with(b"\x89PNG"));
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn expired_challenges_cannot_be_accepted() {
    let (_file, store) = sqlite_store().await;
    let table = Table::with_service(
        Service::new(store.clone(), scripted_dice(91))
            .with_pictures(false)
            .with_challenge_ttl(std::time::Duration::ZERO),
        Clock::System,
    );
    let reply = table.cmd("alice", "/play koan @bob").await;
    assert!(text(&reply).contains("challenge #1"), "{}", text(&reply));
    let reply = table.cmd("bob", "/accept").await;
    assert!(
        text(&reply).contains("no challenge waiting"),
        "{}",
        text(&reply)
    );
    let reply = table.press("bob", "a1").await;
    assert!(text(&reply).contains("expired"), "{}", text(&reply));
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mentions_keep_known_display_names() {
    let (_file, store) = sqlite_store().await;
    let table = Table::system_clock(store.clone(), 92);
    table.cmd("bob", "/help").await;
    let reply = table.cmd("alice", "/play konane @bob").await;
    assert!(text(&reply).contains("@BOB"), "{}", text(&reply));
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_left_on_a_chance_node_rolls_when_next_loaded() {
    use tabula_bot::store::NewGame;
    let (_file, store) = sqlite_store().await;
    let table = Table::system_clock(store.clone(), 93);
    let chat = match store
        .upsert_chat(Platform::Local, "chat1", "Test chat", None)
        .await
    {
        Ok(chat) => chat,
        Err(error) => panic!("{error}"),
    };
    let mut seats = Vec::new();
    for name in ["alice", "bob"] {
        match store.upsert_user(Platform::Local, name, name).await {
            Ok(user) => seats.push(user.id),
            Err(error) => panic!("{error}"),
        }
    }
    // Coan Ki opens with a roll-off; store the game without it, as a crash would leave it.
    let record = match store
        .create_game(&NewGame {
            chat: chat.id,
            game: GameId::CoanKi,
            options: "",
            start_position: None,
            seats: &seats,
            accepting: None,
            community: chat.community,
            stake: 0,
            move_millis: 3 * tabula_bot::store::DAY_MILLIS,
            turn: None,
        })
        .await
    {
        Ok(record) => record,
        Err(error) => panic!("{error}"),
    };
    let reply = table.cmd("carol", &format!("/board #{}", record.id)).await;
    assert!(text(&reply).contains("to move"), "{}", text(&reply));
    let (state, _, actor, seq) = game_state(&table, record.id).await;
    assert!(seq > 0);
    assert!(actor.is_some(), "{}", state.status_line());
    store.close().await;
}

// ---- Four-person Pachisi and repeated requests ----

/// The active games of the test chat.
async fn active_games(table: &Table) -> usize {
    table.active_games().await.len()
}

/// The pending challenges of the test chat.
async fn pending(table: &Table) -> usize {
    table.pending_challenges().await
}

/// The challenge number of a challenge's reply (its Accept button).
fn challenge_no(reply: &Reply) -> String {
    common::table::challenge_no(reply).to_string()
}

/// `/play pachisi @b @c @d` starts only after the third acceptance, with four people seated.
async fn four_person_pachisi(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::system_clock(store.clone(), 41);
    let reply = table.cmd("alice", "/play pachisi @bob @carol @dave").await;
    assert!(text(&reply).contains("challenges"), "{}", text(&reply));
    let no = challenge_no(&reply);
    let reply = table.cmd("bob", "/accept").await;
    let body = text(&reply);
    assert!(body.contains("@BOB accepted challenge #"), "{body}");
    assert!(body.contains("Still to accept: @carol, @dave."), "{body}");
    assert_eq!(active_games(&table).await, 0);
    // Accepting again records nothing new and says so.
    let reply = table.press("bob", &format!("a{no}")).await;
    let body = text(&reply);
    assert!(body.contains("already accepted"), "{body}");
    assert!(body.contains("Still to accept: @carol, @dave."), "{body}");
    let reply = table.press("carol", &format!("a{no}")).await;
    let body = text(&reply);
    assert!(body.contains("Still to accept: @dave."), "{body}");
    assert!(!body.contains("begins"), "{body}");
    assert_eq!(active_games(&table).await, 0);
    let reply = table.cmd("erin", &format!("/accept #{no}")).await;
    assert!(text(&reply).starts_with("Sorry"), "{}", text(&reply));
    let reply = table.cmd("dave", "/accept").await;
    let body = text(&reply);
    assert!(body.contains("begins. Seats by lot"), "{body}");
    assert_eq!(active_games(&table).await, 1);
    let games = table.active_games().await;
    let mut people: Vec<String> = games[0]
        .seats
        .iter()
        .map(|h| h.user.platform_user_id.clone())
        .collect();
    people.sort();
    assert_eq!(people, ["alice", "bob", "carol", "dave"]);
    // Two-player Pachisi still starts at the one acceptance.
    table.cmd("erin", "/play pachisi @frank").await;
    let reply = table.cmd("frank", "/accept").await;
    assert!(text(&reply).contains("begins"), "{}", text(&reply));
    assert_eq!(active_games(&table).await, 2);
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_person_pachisi_starts_after_every_acceptance_sqlite() {
    let file = SqliteFile::new();
    four_person_pachisi(file.url()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TABULA_TEST_POSTGRES_URL and pass --include-ignored (.ci/run does)"]
async fn four_person_pachisi_starts_after_every_acceptance_postgres() {
    on_postgres("four_person", four_person_pachisi).await;
}

/// A decline by any invitee, or the challenger's cancel, ends a four-person challenge.
async fn four_person_decline(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::system_clock(store.clone(), 42);
    let reply = table.cmd("alice", "/play pachisi @bob @carol @dave").await;
    let no = challenge_no(&reply);
    let reply = table.cmd("bob", "/accept").await;
    assert!(text(&reply).contains("Still to accept"), "{}", text(&reply));
    let reply = table.cmd("carol", "/decline").await;
    assert!(text(&reply).contains("declined"), "{}", text(&reply));
    let reply = table.press("dave", &format!("a{no}")).await;
    let body = text(&reply);
    assert!(
        body.starts_with("Sorry") && body.contains("declined"),
        "{body}"
    );
    assert_eq!(pending(&table).await, 0);
    assert_eq!(active_games(&table).await, 0);
    // The challenger withdraws after two acceptances.
    let reply = table.cmd("alice", "/play pachisi @bob @carol @dave").await;
    let no = challenge_no(&reply);
    table.cmd("bob", "/accept").await;
    table.cmd("dave", "/accept").await;
    let reply = table.cmd("alice", "/cancel").await;
    assert!(text(&reply).contains("withdrew"), "{}", text(&reply));
    let reply = table.press("carol", &format!("a{no}")).await;
    assert!(text(&reply).starts_with("Sorry"), "{}", text(&reply));
    assert_eq!(active_games(&table).await, 0);
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_person_pachisi_ends_on_a_decline_sqlite() {
    let file = SqliteFile::new();
    four_person_decline(file.url()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TABULA_TEST_POSTGRES_URL and pass --include-ignored (.ci/run does)"]
async fn four_person_pachisi_ends_on_a_decline_postgres() {
    on_postgres("four_decline", four_person_decline).await;
}

/// Re-delivered `/play`, `/accept`, `/decline`, `/cancel` and `/resign` are applied once.
async fn repeated_commands(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::system_clock(store.clone(), 43);
    let play = table.request("alice", Input::Command("/play konane @bob".into()));
    let first = table.send(&play).await;
    assert!(text(&first).contains("challenges"), "{}", text(&first));
    let again = table.send(&play).await;
    assert!(text(&again).contains("already handled"), "{}", text(&again));
    assert_eq!(pending(&table).await, 1);
    let accept = table.request("bob", Input::Command("/accept".into()));
    let first = table.send(&accept).await;
    assert!(text(&first).contains("begins"), "{}", text(&first));
    let again = table.send(&accept).await;
    assert!(text(&again).contains("already handled"), "{}", text(&again));
    assert_eq!(active_games(&table).await, 1);
    let resign = table.request("bob", Input::Command("/resign".into()));
    let first = table.send(&resign).await;
    assert!(text(&first).contains("resigned"), "{}", text(&first));
    let again = table.send(&resign).await;
    assert!(text(&again).contains("already handled"), "{}", text(&again));
    // An acceptance of a four-person challenge, pressed twice.
    let reply = table.cmd("alice", "/play pachisi @bob @carol @dave").await;
    let no = challenge_no(&reply);
    let accept = table.request("bob", Input::Button(format!("a{no}")));
    let first = table.send(&accept).await;
    assert!(text(&first).contains("Still to accept"), "{}", text(&first));
    let again = table.send(&accept).await;
    assert!(text(&again).contains("already handled"), "{}", text(&again));
    let decline = table.request("carol", Input::Button(format!("d{no}")));
    let first = table.send(&decline).await;
    assert!(text(&first).contains("declined"), "{}", text(&first));
    let again = table.send(&decline).await;
    assert!(text(&again).contains("already handled"), "{}", text(&again));
    let play = table.request("erin", Input::Command("/play koan @frank".into()));
    table.send(&play).await;
    let cancel = table.request("erin", Input::Command("/cancel".into()));
    let first = table.send(&cancel).await;
    assert!(text(&first).contains("withdrew"), "{}", text(&first));
    let again = table.send(&cancel).await;
    assert!(text(&again).contains("already handled"), "{}", text(&again));
    assert_eq!(pending(&table).await, 0);
    assert_eq!(active_games(&table).await, 0);
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn repeated_commands_are_applied_once_sqlite() {
    let file = SqliteFile::new();
    repeated_commands(file.url()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TABULA_TEST_POSTGRES_URL and pass --include-ignored (.ci/run does)"]
async fn repeated_commands_are_applied_once_postgres() {
    on_postgres("repeated", repeated_commands).await;
}

/// The three invitees accept at once, each request delivered twice at once: exactly one game
/// starts, and every acceptance is recorded once.
async fn concurrent_acceptances(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Arc::new(Table::system_clock(store.clone(), 44));
    for round in 0..8 {
        let reply = table.cmd("alice", "/play pachisi @bob @carol @dave").await;
        let no = challenge_no(&reply);
        let mut tasks = Vec::new();
        for person in ["bob", "carol", "dave"] {
            let request = table.request(person, Input::Button(format!("a{no}")));
            for _ in 0..2 {
                let table = Arc::clone(&table);
                let request = request.clone();
                tasks.push(tokio::spawn(async move { table.send(&request).await }));
            }
        }
        let (mut started, mut waiting, mut repeated) = (0, 0, 0);
        for task in tasks {
            let reply = match task.await {
                Ok(reply) => reply,
                Err(error) => panic!("task failed: {error}"),
            };
            let body = text(&reply);
            if body.contains("begins") {
                started += 1;
            } else if body.contains("Still to accept") {
                waiting += 1;
            } else {
                assert!(body.contains("already handled"), "unclear answer: {body}");
                repeated += 1;
            }
        }
        assert_eq!((started, waiting, repeated), (1, 2, 3), "round {round}");
        assert_eq!(active_games(&table).await, round + 1);
    }
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs PostgreSQL: set TABULA_TEST_POSTGRES_URL and pass --include-ignored (.ci/run does)"]
async fn concurrent_four_person_acceptances_start_one_game_postgres() {
    on_postgres("four_races", concurrent_acceptances).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_four_person_acceptances_start_one_game_sqlite() {
    let file = SqliteFile::new();
    concurrent_acceptances(file.url()).await;
}
