//! The service end to end over a real store: whole games of all five games with scripted dice
//! (moves typed with `/move` and pressed as buttons), restarts on the same database, races on
//! PostgreSQL, repeated requests, stale buttons, and the answers to mistakes.
//!
//! SQLite tests use a fresh file each. The PostgreSQL tests are ignored by a plain `cargo test`;
//! `.ci/run` sets `TABULA_TEST_POSTGRES_URL` and runs them with `--include-ignored`.

use crate::common;

use std::sync::Arc;

use common::said::{people, said, said_all, text_arg};
use common::table::{Lcg, Table, challenge_button, scripted_dice, text, to_act};
use common::{SqliteFile, connect, on_postgres};
use tabula_core::{AnyGame, GameId, Status};
use tabula_service::service::{Audience, Clock, Input, Kind, Placement, Reply, Service, UserError};
use tabula_service::store::{
    ChallengeStatus, Conflict, DatabaseUrl, GameNo, GameStatus, History, Platform, Store,
};

/// The game's state replayed from the store, its status, who is to act (platform user id),
/// and its last action's number.
async fn game_state(table: &Table, game: GameNo) -> (AnyGame, GameStatus, Option<String>, u32) {
    let (state, record) = table.replayed(game).await;
    let actor = to_act(&state, &record);
    (state, record.status, actor, record.seq)
}

/// Asserts that a reply refuses as `check` says.
fn refused(reply: &Reply, check: fn(&UserError) -> bool) {
    assert!(
        reply.refusal().is_some_and(check),
        "{:?}: {}",
        reply.kind,
        text(reply)
    );
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
        let (state, status, actor, seq) = game_state(table, game).await;
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
            let button = table.button_for(&actor, &board, line).await;
            assert!(button.data.len() <= 64, "{}", button.data);
            table.press(&actor, &button.data).await
        };
        assert!(
            reply.is_done() && reply.game == Some(game),
            "move {line} at seq {seq}: {:?}: {}",
            reply.kind,
            text(&reply)
        );
        assert!(
            game_state(table, game).await.3 > seq,
            "move {line} at seq {seq} was not stored"
        );
        assert!(
            reply
                .all_buttons()
                .all(|b| b.data.len() <= 64 && b.data.chars().count() <= 100),
            "button data too long: {:?}",
            reply.buttons
        );
        assert!(reply.all_buttons().count() <= 2 * tabula_service::service::MAX_BUTTONS);
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
    assert!(board.is_done() && board.game == Some(game));
    assert!(board.notify.is_empty());
    assert!(
        board.all_buttons().all(|b| !b.data.starts_with(['m', 'p'])),
        "no move buttons after the end"
    );
    let history = table.cmd("carol", &format!("/history #{game}")).await;
    assert!(text(&history).contains(&format!("\n{seq}. ")));
    check_log(table.store(), game).await;
    let late = table.cmd("alice", &format!("/move #{game} a1")).await;
    assert!(
        matches!(late.refusal(), Some(UserError::GameOver(over)) if *over == game),
        "{:?}",
        late.kind
    );
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
        games.is_done() && games.all_buttons().any(|b| b.data == format!("b{game}")),
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
/// turn, every other caller gets a clear answer (stale or refused), and the log has no gap or
/// duplicate. On SQLite and on PostgreSQL.
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
            match &reply.kind {
                Kind::Done => applied += 1,
                Kind::Stale | Kind::Refused(_) => {}
                other => panic!("unclear answer: {other:?}: {}", text(&reply)),
            }
        }
        assert_eq!(applied, 1, "round {round}");
        let (_, _, _, seq_after) = game_state(&table, game).await;
        assert!(seq_after > seq);
        check_log(table.store(), game).await;
    }
    // Many people take one open challenge at once: one game starts.
    let reply = table.cmd("carol", "/play konane").await;
    let Some(accept) = challenge_button(&reply, 'a').cloned() else {
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
        if reply.is_done() && reply.game.is_some() {
            started += 1;
        } else {
            assert!(
                reply.refusal().is_some(),
                "unclear answer: {:?}: {}",
                reply.kind,
                text(&reply)
            );
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

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_presses_and_moves_apply_once_sqlite() {
    let file = SqliteFile::new();
    races(file.url()).await;
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
    assert!(first.is_done(), "{:?}", first.kind);
    let second = table.send(&request).await;
    assert_eq!(second.kind, Kind::AlreadyHandled, "{}", text(&second));
    let (_, _, _, seq_after) = game_state(&table, game).await;
    assert_eq!(seq_after, seq + 1);
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stale_button_says_how_far_the_game_is() {
    let (_file, store) = sqlite_store().await;
    let table = Table::system_clock(store.clone(), 41);
    let game = start(&table, GameId::Konane).await;
    let (_, _, actor, seq) = game_state(&table, game).await;
    let actor = actor.unwrap_or_default();
    let old = format!("m{game}.{seq}.0");
    let reply = table.press(&actor, &old).await;
    assert!(reply.is_done(), "{:?}", reply.kind);
    assert!(
        reply.says("toast-played").is_some(),
        "the mover's toast: {:?}",
        reply.said
    );
    let (_, _, next, seq_after) = game_state(&table, game).await;
    let next = next.unwrap_or_default();
    // By the player to move now, by the one who moved, by someone watching: the same toast
    // naming who is to move, and no board.
    for presser in [next.as_str(), actor.as_str(), "zed"] {
        let stale = table.press(presser, &old).await;
        assert_eq!(stale.kind, Kind::Stale, "{presser}: {}", text(&stale));
        assert_eq!(stale.audience, Audience::Actor);
        assert!(stale.buttons.is_empty() && stale.picture.is_none());
        let said = stale.says("board-old").expect("board-old");
        assert_eq!(
            text_arg(common::said::sub(said, "name"), "text"),
            next.to_uppercase(),
            "{said:?}"
        );
        assert!(!stale.toast_text().is_empty());
    }
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
    assert!(
        matches!(reply.refusal(), Some(UserError::NotAPlayer(_))),
        "{:?}",
        reply.kind
    );
    let reply = table.press("carol", &format!("m{game}.{seq}.0")).await;
    assert!(
        matches!(reply.refusal(), Some(UserError::NotAPlayer(_))),
        "{:?}",
        reply.kind
    );
    let reply = table.cmd(other, &format!("/move #{game} {line}")).await;
    assert!(
        matches!(reply.refusal(), Some(UserError::NotYourTurn { game: g, .. }) if *g == game),
        "{:?}",
        reply.kind
    );
    let look = table.cmd("carol", "/board").await;
    assert!(
        look.is_done() && look.game == Some(game) && !look.buttons.is_empty(),
        "{}",
        text(&look)
    );
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
            matches!(e, UserError::BadArguments { .. })
        }),
        ("/play konane @bob size=7x", |e| {
            matches!(e, UserError::Setup(_))
        }),
        ("/play konane @bob @carol", |e| {
            matches!(e, UserError::Players { named: 3, .. })
        }),
        ("/play", |e| matches!(e, UserError::BadArguments { .. })),
        ("/accept", |e| matches!(e, UserError::NoChallenge)),
        ("/board", |e| matches!(e, UserError::NoGame)),
        ("/rules", |e| matches!(e, UserError::BadArguments { .. })),
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
    let moves: [(&str, Check); 2] = [
        ("/move z99", |e| matches!(e, UserError::Illegal(_))),
        ("/move roll:3", |e| matches!(e, UserError::NoRolling)),
    ];
    for (input, check) in moves {
        let reply = table.cmd(&actor, input).await;
        assert!(
            reply.refusal().is_some_and(check),
            "{input}: {:?}",
            reply.kind
        );
    }
    // The illegal move is quoted back so that the player sees what was not understood.
    assert!(text(&table.cmd(&actor, "/move z99").await).contains("z99"));
    let reply = table.press(&actor, "zz").await;
    assert!(matches!(reply.refusal(), Some(UserError::BadButton)));
    let reply = table.press(&actor, &format!("m{game}.{seq}.999")).await;
    assert!(
        matches!(reply.refusal(), Some(UserError::NoSuchChoice)),
        "{:?}",
        reply.kind
    );
    let rules = table.cmd("carol", "/rules coan-ki").await;
    said(&rules, "rules-coan-ki");
    let help = table.cmd("carol", "/help").await;
    assert!(
        said_all(&help, "help-line")
            .iter()
            .any(|line| text_arg(line, "name") == "play"),
        "{}",
        text(&help)
    );
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
    // Which game? A button per game, for the asker; a press runs the command for its game.
    let reply = table.cmd("alice", "/board").await;
    assert!(reply.says("which-game-pick").is_some(), "{}", text(&reply));
    assert_eq!(
        (reply.kind.clone(), reply.audience),
        (Kind::Done, Audience::Actor)
    );
    let data: Vec<String> = reply.all_buttons().map(|b| b.data.clone()).collect();
    assert_eq!(data.len(), 2, "one button per game: {data:?}");
    let picked = table.press("alice", &data[1]).await;
    assert_eq!(picked.game, Some(second), "{}", text(&picked));
    assert!(!picked.buttons.is_empty(), "the board of the game pressed");
    let reply = table.cmd("alice", &format!("/board #{second}")).await;
    assert_eq!(reply.game, Some(second));
    // /resign without a number asks which, then asks to confirm.
    let reply = table.cmd("alice", "/resign").await;
    assert!(reply.says("which-game-pick").is_some(), "{}", text(&reply));
    let first_button = reply
        .all_buttons()
        .find(|b| b.data.starts_with(&format!("g{first}.")))
        .expect("a button for the first game")
        .data
        .clone();
    let asked = table.press("alice", &first_button).await;
    assert!(
        asked.question && asked.game == Some(first),
        "{}",
        text(&asked)
    );
    let reply = table.confirmed("alice", &format!("/resign #{first}")).await;
    assert!(reply.is_done() && reply.game.is_some(), "{}", text(&reply));
    // Open challenge, joined by anyone; a named one declined; one cancelled.
    let reply = table.cmd("carol", "/play pachisi").await;
    assert!(
        reply.is_done() && reply.notify.is_empty(),
        "an open offer calls nobody: {}",
        text(&reply)
    );
    let reply = table.cmd("carol", "/accept").await;
    refused(&reply, |e| matches!(e, UserError::NoChallenge));
    // dave joins the open Pachisi challenge; carol, its challenger, then starts it with two.
    let reply = table.cmd("dave", "/accept").await;
    assert!(reply.is_done() && reply.game.is_none(), "{}", text(&reply));
    let reply = table.cmd("carol", "/accept").await;
    assert!(reply.is_done() && reply.game.is_some(), "{}", text(&reply));
    table.cmd("erin", "/play koan @frank").await;
    let reply = table.cmd("gina", "/decline #4").await;
    refused(&reply, |e| matches!(e, UserError::NotInvited(_)));
    let reply = table.cmd("frank", "/decline").await;
    assert!(
        reply.is_done() && reply.placement == Placement::UpdatePressed,
        "{}",
        text(&reply)
    );
    table.cmd("erin", "/play koan @frank").await;
    let reply = table.cmd("frank", "/cancel").await;
    refused(&reply, |e| matches!(e, UserError::NoChallenge));
    let reply = table.cmd("erin", "/cancel").await;
    assert!(
        reply.is_done() && reply.placement == Placement::UpdatePressed,
        "{}",
        text(&reply)
    );
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
    assert_eq!(common::table::challenge_no(&reply), 1, "{}", text(&reply));
    let reply = table.cmd("bob", "/accept").await;
    refused(&reply, |e| matches!(e, UserError::NoChallenge));
    let reply = table.press("bob", "a1").await;
    refused(&reply, |e| {
        matches!(
            e,
            UserError::Conflict(
                Conflict::ChallengeExpired(_)
                    | Conflict::ChallengeSettled {
                        status: ChallengeStatus::Expired,
                        ..
                    }
            )
        )
    });
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
    use tabula_service::store::NewGame;
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
            move_millis: 3 * tabula_service::store::DAY_MILLIS,
            turn: None,
            dice: None,
        })
        .await
    {
        Ok(record) => record,
        Err(error) => panic!("{error}"),
    };
    let reply = table.cmd("carol", &format!("/board #{}", record.id)).await;
    assert!(
        reply.is_done() && !reply.buttons.is_empty(),
        "{}",
        text(&reply)
    );
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
    assert!(
        reply.is_done() && !reply.notify.is_empty(),
        "{}",
        text(&reply)
    );
    let no = challenge_no(&reply);
    let reply = table.cmd("bob", "/accept").await;
    assert!(reply.is_done(), "{}", text(&reply));
    assert_eq!(reply.notify, ["carol", "dave"], "still to accept");
    assert_eq!(active_games(&table).await, 0);
    // Accepting again records nothing new and says so.
    let reply = table.press("bob", &format!("a{no}")).await;
    assert!(reply.is_done(), "{}", text(&reply));
    let accepted = said(&reply, "challenge-accepted");
    assert_eq!(
        (people(accepted, "person"), text_arg(accepted, "again")),
        (vec!["bob".to_string()], "yes"),
        "bob has already accepted"
    );
    assert_eq!(reply.notify, ["carol", "dave"], "still to accept");
    let reply = table.press("carol", &format!("a{no}")).await;
    assert!(reply.is_done(), "{}", text(&reply));
    assert_eq!(reply.notify, ["dave"], "still to accept");
    assert_eq!(reply.game, None);
    assert_eq!(active_games(&table).await, 0);
    let reply = table.cmd("erin", &format!("/accept #{no}")).await;
    refused(&reply, |e| matches!(e, UserError::NotInvited(_)));
    let reply = table.cmd("dave", "/accept").await;
    assert!(reply.is_done() && reply.game.is_some(), "{}", text(&reply));
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
    assert!(reply.is_done() && reply.game.is_some(), "{}", text(&reply));
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
    assert!(
        reply.is_done() && reply.game.is_none() && !reply.notify.is_empty(),
        "{}",
        text(&reply)
    );
    let reply = table.cmd("carol", "/decline").await;
    assert!(
        reply.is_done() && reply.placement == Placement::UpdatePressed,
        "{}",
        text(&reply)
    );
    let reply = table.press("dave", &format!("a{no}")).await;
    refused(&reply, |e| {
        matches!(
            e,
            UserError::Conflict(Conflict::ChallengeSettled {
                status: ChallengeStatus::Declined,
                ..
            })
        )
    });
    assert_eq!(pending(&table).await, 0);
    assert_eq!(active_games(&table).await, 0);
    // The challenger withdraws after two acceptances.
    let reply = table.cmd("alice", "/play pachisi @bob @carol @dave").await;
    let no = challenge_no(&reply);
    table.cmd("bob", "/accept").await;
    table.cmd("dave", "/accept").await;
    let reply = table.cmd("alice", "/cancel").await;
    assert!(
        reply.is_done() && reply.placement == Placement::UpdatePressed,
        "{}",
        text(&reply)
    );
    let reply = table.press("carol", &format!("a{no}")).await;
    refused(&reply, |e| {
        matches!(
            e,
            UserError::Conflict(Conflict::ChallengeSettled {
                status: ChallengeStatus::Cancelled,
                ..
            })
        )
    });
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
    assert!(
        first.is_done() && !first.notify.is_empty(),
        "{}",
        text(&first)
    );
    let again = table.send(&play).await;
    assert_eq!(again.kind, Kind::AlreadyHandled, "{}", text(&again));
    assert_eq!(pending(&table).await, 1);
    let accept = table.request("bob", Input::Command("/accept".into()));
    let first = table.send(&accept).await;
    assert!(first.is_done() && first.game.is_some(), "{}", text(&first));
    let again = table.send(&accept).await;
    assert_eq!(again.kind, Kind::AlreadyHandled, "{}", text(&again));
    assert_eq!(active_games(&table).await, 1);
    // A resignation's question asks again when delivered again (it changes nothing); its
    // confirmation is applied once.
    let ask = table.request("bob", Input::Command("/resign".into()));
    let asked = table.send(&ask).await;
    assert!(asked.question, "{}", text(&asked));
    assert!(table.send(&ask).await.question, "asked again");
    let resign = table.request("bob", Input::Button(asked.buttons[0][0].data.clone()));
    let first = table.send(&resign).await;
    assert!(first.is_done() && first.game.is_some(), "{}", text(&first));
    let again = table.send(&resign).await;
    assert_eq!(again.kind, Kind::AlreadyHandled, "{}", text(&again));
    // An acceptance of a four-person challenge, pressed twice.
    let reply = table.cmd("alice", "/play pachisi @bob @carol @dave").await;
    let no = challenge_no(&reply);
    let accept = table.request("bob", Input::Button(format!("a{no}")));
    let first = table.send(&accept).await;
    assert!(
        first.is_done() && first.game.is_none() && !first.notify.is_empty(),
        "{}",
        text(&first)
    );
    let again = table.send(&accept).await;
    assert_eq!(again.kind, Kind::AlreadyHandled, "{}", text(&again));
    let decline = table.request("carol", Input::Button(format!("d{no}")));
    let first = table.send(&decline).await;
    assert!(
        first.is_done() && first.placement == Placement::UpdatePressed,
        "{}",
        text(&first)
    );
    let again = table.send(&decline).await;
    assert_eq!(again.kind, Kind::AlreadyHandled, "{}", text(&again));
    let play = table.request("erin", Input::Command("/play koan @frank".into()));
    table.send(&play).await;
    let cancel = table.request("erin", Input::Command("/cancel".into()));
    let first = table.send(&cancel).await;
    assert!(
        first.is_done() && first.placement == Placement::UpdatePressed,
        "{}",
        text(&first)
    );
    let again = table.send(&cancel).await;
    assert_eq!(again.kind, Kind::AlreadyHandled, "{}", text(&again));
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
            match (&reply.kind, reply.game) {
                (Kind::Done, Some(_)) => started += 1,
                (Kind::Done, None) => waiting += 1,
                (Kind::AlreadyHandled, _) => repeated += 1,
                (other, _) => panic!("unclear answer: {other:?}: {}", text(&reply)),
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
