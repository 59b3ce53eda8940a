//! The reply envelope of every command and button (`service::contract`): what it is (done,
//! refused, already handled, stale), who may see it (the chat or the actor), where it goes (new
//! message, update of the pressed message, the game's new board), which game it concerns, and
//! whose mentions notify. Adapters map these onto ephemeral flags, toasts, edits and
//! `allowed_mentions`, so they are asserted here without looking at the wording.
//!
//! In the harness a person's platform id is the name the test uses: `"bob"` is notified as
//! `"bob"`. On a SQLite file, and on PostgreSQL when asked for (see `common`).

use crate::common;

use common::connect;
use common::table::{DAY, HOUR, Lcg, Table, challenge_no, piece_button, start, text, to_act};
use tabula_core::GameId;
use tabula_service::service::{Audience, Clock, Kind, Placement, Reply, Service, UserError};
use tabula_service::store::{Conflict, DatabaseUrl, GameNo, GameStatus, NewGame, Platform};

on_both_databases! {
    challenges_notify_the_invited_and_starting_games_the_player_to_move => challenges;
    a_four_person_challenge_notifies_those_still_to_accept => four_person;
    moves_post_a_new_board_for_the_next_player => moves;
    looks_and_questions_notify_nobody => looks;
    stale_buttons_and_repeated_requests_answer_the_actor_only => stale_and_repeated;
    endings_money_and_settings_are_told_to_the_chat => endings;
    every_common_refusal_is_for_the_actor_and_changes_nothing => refusals;
    scheduler_replies_are_addressed_and_notify_who_must_act => scheduler;
}

/// What an envelope must say, apart from the text.
struct Expect<'a> {
    kind: Kind,
    audience: Audience,
    placement: Placement,
    game: Option<GameNo>,
    notify: &'a [&'a str],
}

impl Expect<'_> {
    fn check(&self, reply: &Reply, what: &str) {
        let mut notify: Vec<&str> = reply.notify.iter().map(String::as_str).collect();
        notify.sort_unstable();
        let mut expected = self.notify.to_vec();
        expected.sort_unstable();
        assert_eq!(
            (
                &reply.kind,
                reply.audience,
                reply.placement,
                reply.game,
                notify.as_slice()
            ),
            (
                &self.kind,
                self.audience,
                self.placement,
                self.game,
                expected.as_slice()
            ),
            "{what}: {}",
            text(reply)
        );
        assert_eq!(
            (reply.address.platform, reply.address.chat.as_str()),
            (Platform::Local, "chat1"),
            "{what}"
        );
    }
}

/// Done, for the chat, as a new message.
fn told<'a>(game: Option<GameNo>, notify: &'a [&'a str]) -> Expect<'a> {
    Expect {
        kind: Kind::Done,
        audience: Audience::Chat,
        placement: Placement::New,
        game,
        notify,
    }
}

/// Done, told to the chat about `game` as its last board (it takes the buttons off the older
/// boards), notifying its players, Alice and Bob: a game that ended (issue 37: the result
/// mentions the players).
fn ended(game: GameNo) -> Expect<'static> {
    Expect {
        placement: Placement::NewBoard,
        ..told(Some(game), &["alice", "bob"])
    }
}

/// A board asked for again: the game's live board, posted anew, notifying nobody.
fn look(game: GameNo) -> Expect<'static> {
    Expect {
        placement: Placement::NewBoard,
        ..told(Some(game), &[])
    }
}

/// Done, for the actor only, as a new message notifying nobody.
fn private(game: Option<GameNo>) -> Expect<'static> {
    Expect {
        kind: Kind::Done,
        audience: Audience::Actor,
        placement: Placement::New,
        game,
        notify: &[],
    }
}

/// The game's new board, for the chat, notifying `notify`.
fn new_board<'a>(game: GameNo, notify: &'a [&'a str]) -> Expect<'a> {
    Expect {
        kind: Kind::Done,
        audience: Audience::Chat,
        placement: Placement::NewBoard,
        game: Some(game),
        notify,
    }
}

/// The pressed message updated, for the chat.
fn updated<'a>(notify: &'a [&'a str]) -> Expect<'a> {
    Expect {
        kind: Kind::Done,
        audience: Audience::Chat,
        placement: Placement::UpdatePressed,
        game: None,
        notify,
    }
}

/// Who is to move in a game (platform id).
async fn to_move(table: &Table, game: GameNo) -> String {
    match table.state(game).await.1 {
        Some(actor) => actor,
        None => panic!("nobody to move in game {game}"),
    }
}

/// The other player of a two-person game.
fn other(of: &str) -> &'static str {
    if of == "alice" { "bob" } else { "alice" }
}

async fn challenges(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 1);
    // A named challenge calls the invited.
    let reply = table.cmd("alice", "/play konane @bob").await;
    told(None, &["bob"]).check(&reply, "/play named");
    assert_eq!(reply.all_buttons().count(), 3, "accept, decline, cancel");
    let named = challenge_no(&reply);
    // An open offer calls nobody.
    let reply = table.cmd("carol", "/play koan").await;
    told(None, &[]).check(&reply, "/play open");
    let open = challenge_no(&reply);
    // Accepting by button starts the game: its new board calls the player to move.
    let reply = table.press("bob", &format!("a{named}")).await;
    let Some(game) = reply.game else {
        panic!("no game: {}", text(&reply));
    };
    let first = to_move(&table, game).await;
    new_board(game, &[&first]).check(&reply, "accept button");
    assert!(!reply.buttons.is_empty(), "the new board has move buttons");
    // Taking an open offer by typing, likewise.
    let reply = table.cmd("dave", &format!("/accept #{open}")).await;
    let Some(second) = reply.game else {
        panic!("no game: {}", text(&reply));
    };
    let first = to_move(&table, second).await;
    new_board(second, &[&first]).check(&reply, "/accept of an open offer");
    // Decline and cancel update the challenge's message, by button and typed.
    for (by, data) in [("bob", "d"), ("alice", "x")] {
        let no = challenge_no(&table.cmd("alice", "/play konane @bob").await);
        let reply = table.press(by, &format!("{data}{no}")).await;
        updated(&[]).check(&reply, &format!("{data} button"));
        assert!(
            reply.buttons.is_empty(),
            "a settled challenge has no buttons"
        );
    }
    for (by, command) in [("bob", "/decline"), ("alice", "/cancel")] {
        table.cmd("alice", "/play konane @bob").await;
        let reply = table.cmd(by, command).await;
        updated(&[]).check(&reply, command);
    }
    assert_eq!(table.pending_challenges().await, 0);
    store.close().await;
}

async fn four_person(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 2);
    let reply = table.cmd("alice", "/play pachisi @bob @carol @dave").await;
    told(None, &["bob", "carol", "dave"]).check(&reply, "/play of four");
    let no = challenge_no(&reply);
    let reply = table.press("bob", &format!("a{no}")).await;
    updated(&["carol", "dave"]).check(&reply, "first acceptance");
    assert!(
        !reply.buttons.is_empty(),
        "the challenge stays open to accept"
    );
    let reply = table.cmd("carol", "/accept").await;
    updated(&["dave"]).check(&reply, "second acceptance");
    assert!(table.active_games().await.is_empty());
    let reply = table.press("dave", &format!("a{no}")).await;
    let Some(game) = reply.game else {
        panic!("no game: {}", text(&reply));
    };
    let first = to_move(&table, game).await;
    new_board(game, &[&first]).check(&reply, "last acceptance");
    // A Pachisi turn (throw, then move) pings its player once (issue 37, item 3): the board
    // after their own throw, theirs to move (any value enters at first), calls nobody.
    let (state, _) = table.state(game).await;
    assert!(
        state.legal_lines().iter().any(|line| line == "throw"),
        "{:?}",
        state.legal_lines()
    );
    let reply = table.cmd(&first, &format!("/move #{game} throw")).await;
    assert_eq!(to_move(&table, game).await, first, "the thrower moves");
    new_board(game, &[]).check(&reply, "the thrower's own throw");
    // Their move calls whoever acts next.
    let (state, _) = table.state(game).await;
    let line = state.legal_lines()[0].clone();
    let reply = table.cmd(&first, &format!("/move #{game} {line}")).await;
    let next = to_move(&table, game).await;
    assert_ne!(next, first);
    new_board(game, &[&next]).check(&reply, "the move after the throw");
    store.close().await;
}

async fn moves(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 3);
    let game = start(&table, "alice", "bob", "konane").await;
    // Typed.
    let (state, actor) = table.state(game).await;
    let actor = actor.unwrap_or_default();
    let line = state.legal_lines()[0].clone();
    let reply = table.cmd(&actor, &format!("/move {line}")).await;
    new_board(game, &[other(&actor)]).check(&reply, "typed move");
    // Pressed.
    let (_, record) = table.replayed(game).await;
    let next = to_move(&table, game).await;
    let reply = table
        .press(&next, &format!("m{game}.{}.0", record.seq))
        .await;
    new_board(game, &[other(&next)]).check(&reply, "pressed move");
    // A move that ends the game calls nobody.
    let kolowis = start(&table, "carol", "dave", "kolowis stall=1").await;
    let (state, actor) = table.state(kolowis).await;
    let line = state.legal_lines()[0].clone();
    let reply = table
        .cmd(
            &actor.unwrap_or_default(),
            &format!("/move #{kolowis} {line}"),
        )
        .await;
    new_board(kolowis, &["carol", "dave"]).check(&reply, "the last move");
    assert!(
        reply.all_buttons().all(|b| !b.data.starts_with(['m', 'p'])),
        "a finished game has no move buttons"
    );

    // The two-step choice: a piece's button shows that piece's moves on the board itself,
    // edited in place, with a button back to all the moves.
    let grouped_game = start(&table, "erin", "frank", "coan-ki").await;
    let mut lcg = Lcg(3);
    for _ in 0..400 {
        let (state, actor) = table.state(grouped_game).await;
        let Some(actor) = actor else {
            panic!("game {grouped_game} ended before a board grouped its moves");
        };
        let board = table.cmd(&actor, &format!("/board #{grouped_game}")).await;
        let grouped = state
            .legal_lines()
            .iter()
            .find_map(|line| piece_button(&board, line).cloned());
        if let Some(group) = grouped {
            let reply = table.press(&actor, &group.data).await;
            Expect {
                placement: Placement::UpdatePressed,
                ..told(Some(grouped_game), &[])
            }
            .check(&reply, "piece button");
            assert!(reply.picture.is_none(), "the picture stays as it is");
            assert!(reply.all_buttons().any(|b| b.data.starts_with('m')));
            let back = reply
                .all_buttons()
                .find(|b| b.data.starts_with('u'))
                .expect("All moves");
            let all = table.press(&actor, &back.data).await;
            Expect {
                placement: Placement::UpdatePressed,
                ..told(Some(grouped_game), &[])
            }
            .check(&all, "All moves");
            assert_eq!(all.buttons, board.buttons, "every move again");
            let other = if actor == "erin" { "frank" } else { "erin" };
            let refused = table.press(other, &group.data).await;
            assert!(matches!(refused.kind, Kind::Refused(_)), "not their turn");
            store.close().await;
            return;
        }
        table.random_move(grouped_game, &mut lcg).await;
    }
    panic!("no board of game {grouped_game} grouped its moves by piece");
}

async fn looks(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 4);
    let game = start(&table, "alice", "bob", "koan").await;
    let reply = table.cmd("carol", "/board").await;
    look(game).check(&reply, "/board");
    assert!(!reply.buttons.is_empty());
    let reply = table.press("carol", &format!("b{game}")).await;
    look(game).check(&reply, "board button");
    let reply = table.cmd("alice", "/games").await;
    told(None, &[]).check(&reply, "/games");
    assert_eq!(reply.all_buttons().count(), 1, "one board button per game");
    let reply = table.cmd("carol", "/leaderboard").await;
    told(None, &[]).check(&reply, "/leaderboard");
    // What a person asked for, for them alone, stays where it cannot be private (issue 37).
    for command in ["/moves", "/history"] {
        let reply = table.cmd("carol", command).await;
        private(Some(game)).check(&reply, command);
        assert!(!reply.fleeting(), "{command} stays");
    }
    for command in ["/rules konane", "/help", "/wallet", "/config"] {
        let reply = table.cmd("carol", command).await;
        private(None).check(&reply, command);
        assert!(!reply.fleeting(), "{command} stays");
        assert!(
            reply.buttons.is_empty() && reply.picture.is_none(),
            "{command}"
        );
    }
    store.close().await;
}

async fn stale_and_repeated(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 5);
    // A repeated /play: the second delivery is handled already.
    let play = table.command("alice", "/play konane @bob");
    told(None, &["bob"]).check(&table.send(&play).await, "/play");
    let again = table.send(&play).await;
    Expect {
        kind: Kind::AlreadyHandled,
        audience: Audience::Actor,
        placement: Placement::New,
        game: None,
        notify: &[],
    }
    .check(&again, "repeated /play");
    assert!(again.fleeting(), "a repeated request is cleared away");
    assert_eq!(table.pending_challenges().await, 1);
    let game = match table.cmd("bob", "/accept").await.game {
        Some(game) => game,
        None => panic!("no game"),
    };
    // A repeated move: the current board, to the actor, calling nobody.
    let (state, actor) = table.state(game).await;
    let actor = actor.unwrap_or_default();
    let (_, record) = table.replayed(game).await;
    let request = table.command(&actor, &format!("/move {}", state.legal_lines()[0]));
    table.send(&request).await;
    let again = table.send(&request).await;
    Expect {
        kind: Kind::AlreadyHandled,
        audience: Audience::Actor,
        placement: Placement::New,
        game: Some(game),
        notify: &[],
    }
    .check(&again, "repeated move");
    assert_eq!(table.replayed(game).await.1.seq, record.seq + 1);
    // A stale button: how far the game is, to the actor alone, without buttons (a toast),
    // calling nobody.
    let stale = table
        .press(other(&actor), &format!("m{game}.{}.0", record.seq))
        .await;
    Expect {
        kind: Kind::Stale,
        audience: Audience::Actor,
        placement: Placement::New,
        game: Some(game),
        notify: &[],
    }
    .check(&stale, "stale button");
    assert!(stale.buttons.is_empty(), "no board: {}", text(&stale));
    assert!(stale.picture.is_none(), "no picture: {}", text(&stale));
    assert!(stale.says("board-old").is_some(), "{:?}", stale.said);
    assert_eq!(table.replayed(game).await.1.seq, record.seq + 1);
    // A repeated resignation (its confirmation pressed twice).
    let asked = table.cmd("bob", "/resign").await;
    assert!(asked.question, "{}", text(&asked));
    let resign = table.button("bob", &asked.buttons[0][0].data);
    ended(game).check(&table.send(&resign).await, "/resign");
    let again = table.send(&resign).await;
    assert_eq!(
        (&again.kind, again.audience, again.notify.len()),
        (&Kind::AlreadyHandled, Audience::Actor, 0),
        "repeated /resign: {}",
        text(&again)
    );
    store.close().await;
}

async fn endings(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 6);
    // Resign, a player's abort, a moderator's abort, a claim: told to the chat, about the game.
    let game = start(&table, "alice", "bob", "konane stake=10").await;
    ended(game).check(&table.confirmed("alice", "/resign").await, "/resign");
    let game = start(&table, "alice", "bob", "konane stake=10").await;
    ended(game).check(&table.confirmed("bob", "/abort").await, "player's /abort");
    let game = start(&table, "alice", "bob", "konane").await;
    ended(game).check(
        &table
            .confirmed("mod", &format!("/abort #{game} test"))
            .await,
        "moderator's /abort",
    );
    let game = start(&table, "alice", "bob", "konane time=1d").await;
    let late = to_move(&table, game).await;
    table.clock.advance(DAY);
    ended(game).check(&table.cmd(other(&late), "/claim").await, "/claim");
    // Money and settings.
    told(None, &[]).check(&table.cmd("mod", "/grant @bob 5 prize").await, "/grant");
    told(None, &[]).check(&table.cmd("mod", "/take @bob 5").await, "/take");
    told(None, &[]).check(
        &table.cmd("mod", "/config reminders=off").await,
        "/config change",
    );
    // A vacation taken is news for the chat: clocks stand still.
    told(None, &[]).check(&table.cmd("alice", "/vacation 1").await, "/vacation 1");
    store.close().await;
}

/// Asking how many vacation days one has left is a question about oneself, like `/wallet`:
/// the answer should go to the asker only, not to the whole chat.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vacation_status_is_for_the_asker() {
    let file = common::SqliteFile::new();
    let store = connect(&file.url()).await;
    let table = Table::new(store.clone(), 7);
    private(None).check(&table.cmd("alice", "/vacation").await, "/vacation");
    store.close().await;
}

/// What a refusal must leave as it was: the chat's games (with their last action), challenges,
/// the community's settings, wallets and ledger.
async fn snapshot(table: &Table) -> String {
    let community = table.community().await;
    let games: Vec<(GameNo, u32)> = table
        .active_games()
        .await
        .iter()
        .map(|record| (record.id, record.seq))
        .collect();
    let store = table.store();
    format!(
        "{games:?}\n{} challenges\n{:?}\n{:?}\n{:?}",
        table.pending_challenges().await,
        store.settings(community).await.ok(),
        store.accounts(community).await.ok(),
        store.ledger(community).await.ok(),
    )
}

type Check = fn(&UserError) -> bool;

async fn refusals(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 8);
    // Refusals that need no game.
    let before_games: [(&str, &str, Check); 13] = [
        ("alice", "/frobnicate", |e| {
            matches!(e, UserError::UnknownCommand(_))
        }),
        ("alice", "/play", |e| {
            matches!(e, UserError::BadArguments { .. })
        }),
        ("alice", "/play chess @bob", |e| {
            matches!(e, UserError::BadArguments { .. })
        }),
        ("alice", "/play konane size=7x @bob", |e| {
            matches!(e, UserError::Setup(_))
        }),
        ("alice", "/play konane @bob @carol", |e| {
            matches!(e, UserError::Players { named: 3, .. })
        }),
        // Konane is for two: three names are too many, even if two of them are the same.
        ("alice", "/play konane @bob @bob", |e| {
            matches!(e, UserError::BadArguments { .. })
        }),
        ("alice", "/play pachisi @bob @bob @carol", |e| {
            matches!(e, UserError::BadArguments { .. })
        }),
        ("alice", "/play konane @alice", |e| {
            matches!(e, UserError::RepeatedPlayer)
        }),
        ("alice", "/board", |e| matches!(e, UserError::NoGame)),
        ("alice", "/accept", |e| matches!(e, UserError::NoChallenge)),
        ("alice", "/play konane @bob stake=lots", |e| {
            matches!(e, UserError::BadArguments { .. })
        }),
        ("alice", "/play coan-ki @bob stake=15", |e| {
            matches!(e, UserError::CoanKiStake)
        }),
        ("alice", "/play konane @bob time=5m", |e| {
            matches!(e, UserError::BadArguments { .. })
        }),
    ];
    refuse_all(&table, &before_games).await;

    let challenge = challenge_no(&table.cmd("alice", "/play koan @bob").await);
    let game = start(&table, "carol", "dave", "konane stake=100").await;
    let (state, actor) = table.state(game).await;
    let actor = actor.unwrap_or_default();
    let waiting = if actor == "carol" { "dave" } else { "carol" };
    let line = state.legal_lines()[0].clone();
    let seq = table.replayed(game).await.1.seq;
    let accept_own = format!("/accept #{challenge}");
    let cancel_other = format!("/cancel #{challenge}");
    let board = format!("/board #{}", game.0 + 100);
    let not_a_player = format!("/move #{game} {line}");
    let requests: [(&str, &str, Check); 19] = [
        ("alice", &accept_own, |e| {
            matches!(e, UserError::OwnChallenge(_))
        }),
        ("erin", &accept_own, |e| {
            matches!(e, UserError::NotInvited(_))
        }),
        ("bob", &cancel_other, |e| {
            matches!(e, UserError::NotChallenger(_))
        }),
        ("bob", "/accept #999", |e| {
            matches!(e, UserError::Conflict(Conflict::NoSuchChallenge(_)))
        }),
        ("erin", &board, |e| matches!(e, UserError::NoSuchGame(_))),
        ("erin", &not_a_player, |e| {
            matches!(e, UserError::NotAPlayer(_))
        }),
        (waiting, &not_a_player, |e| {
            matches!(e, UserError::NotYourTurn { .. })
        }),
        (&actor, "/move z99", |e| matches!(e, UserError::Illegal(_))),
        (&actor, "/move roll:3", |e| {
            matches!(e, UserError::NoRolling)
        }),
        (&actor, "/claim", |e| matches!(e, UserError::OwnTurn(_))),
        (waiting, "/claim", |e| {
            matches!(e, UserError::TooEarly { .. })
        }),
        ("erin", "/grant @bob 5", |e| {
            matches!(e, UserError::NotModerator(_))
        }),
        ("erin", "/abort", |e| {
            matches!(e, UserError::NotModerator(_))
        }),
        ("mod", "/grant @bob lots", |e| {
            matches!(e, UserError::BadArguments { .. })
        }),
        ("mod", "/take @bob 1000000", |e| {
            matches!(e, UserError::TakeTooMuch { .. })
        }),
        ("mod", "/config colour=blue", |e| {
            matches!(e, UserError::BadSetting(_))
        }),
        ("erin", "/config vacation=3", |e| {
            matches!(e, UserError::NotModerator(_))
        }),
        ("erin", "/vacation 99", |e| {
            matches!(e, UserError::BadArguments { .. })
        }),
        ("erin", "/play konane @frank stake=2000", |e| {
            matches!(e, UserError::BadStake { .. })
        }),
    ];
    refuse_all(&table, &requests).await;
    // Buttons.
    let buttons: [(&str, String, Check); 2] = [
        (&actor, "zz".to_string(), |e| {
            matches!(e, UserError::BadButton)
        }),
        (&actor, format!("m{game}.{seq}.999"), |e| {
            matches!(e, UserError::NoSuchChoice)
        }),
    ];
    for (user, data, check) in buttons {
        let before = snapshot(&table).await;
        let reply = table.press(user, &data).await;
        refused(&reply, check, &data);
        assert_eq!(snapshot(&table).await, before, "{data} changed the store");
    }

    // Refusals that need the game to have begun, money moved, or the settings changed.
    let line = table.state(game).await.0.legal_lines()[0].clone();
    table.cmd(&actor, &format!("/move {line}")).await;
    table.cmd("mod", "/take @erin 1000").await;
    table.cmd("mod", "/take @frank 950").await;
    let open = challenge_no(&table.cmd("gina", "/play konane @frank stake=100").await);
    let accept_poor = format!("/accept #{open}");
    let second = start(&table, "carol", "dave", "koan").await;
    let claim_second = format!("/claim #{second}");
    let abort = format!("/abort #{game}");
    let later: [(&str, &str, Check); 6] = [
        (&actor, &abort, |e| matches!(e, UserError::AlreadyMoved(_))),
        ("erin", "/play konane @frank stake=10", |e| {
            matches!(e, UserError::InDebt { balance: 0 })
        }),
        ("frank", "/play konane @gina stake=60", |e| {
            matches!(
                e,
                UserError::TooPoor {
                    balance: 50,
                    stake: 60
                }
            )
        }),
        ("frank", &accept_poor, |e| {
            matches!(e, UserError::CannotAfford { balance: 50, .. })
        }),
        ("carol", &claim_second, |e| {
            matches!(e, UserError::OwnTurn(_) | UserError::TooEarly { .. })
        }),
        ("frank", &format!("/resign #{second}"), |e| {
            matches!(e, UserError::NotAPlayer(_))
        }),
    ];
    refuse_all(&table, &later).await;
    table.cmd("gina", "/play konane @bob").await;
    table.cmd("gina", "/play koan @bob").await;
    let which: [(&str, &str, Check); 1] = [("bob", "/decline", |e| {
        matches!(e, UserError::WhichChallenge(..))
    })];
    refuse_all(&table, &which).await;
    table
        .confirmed("carol", &format!("/resign #{second}"))
        .await;
    let over = [(
        "dave",
        format!("/move #{second} a1"),
        (|e| matches!(e, UserError::GameOver(_))) as Check,
    )];
    for (user, command, check) in over {
        let before = snapshot(&table).await;
        refused(&table.cmd(user, &command).await, check, &command);
        assert_eq!(snapshot(&table).await, before, "{command}");
    }
    table
        .cmd(
            "mod",
            "/config games=konane,koan staked_games=moderators vacation=2",
        )
        .await;
    table.cmd("erin", "/vacation 2").await;
    let settings: [(&str, &str, Check); 3] = [
        ("alice", "/play kolowis @bob", |e| {
            matches!(e, UserError::GameDisabled { .. })
        }),
        ("alice", "/play konane @bob stake=10", |e| {
            matches!(e, UserError::StakedByModerators)
        }),
        ("erin", "/vacation 1", |e| {
            matches!(e, UserError::VacationQuota { used: 2, quota: 2 })
        }),
    ];
    refuse_all(&table, &settings).await;
    table.cmd("mod", "/config vacation=0").await;
    let off: [(&str, &str, Check); 1] = [("alice", "/vacation 1", |e| {
        matches!(e, UserError::VacationOff)
    })];
    refuse_all(&table, &off).await;
    store.close().await;
}

/// Each command is refused as its check says, to the actor only, with nothing changed.
async fn refuse_all(table: &Table, cases: &[(&str, &str, Check)]) {
    for (user, command, check) in cases {
        let before = snapshot(table).await;
        let reply = table.cmd(user, command).await;
        refused(&reply, *check, &format!("{command} by {user}"));
        assert_eq!(
            snapshot(table).await,
            before,
            "{command} by {user} changed the store"
        );
    }
}

/// A refusal: of the kind `check` accepts, for the actor, a new message with no buttons, no
/// picture and nobody notified.
fn refused(reply: &Reply, check: Check, what: &str) {
    assert!(
        reply.refusal().is_some_and(check),
        "{what}: {:?}: {}",
        reply.kind,
        text(reply)
    );
    assert!(reply.fleeting(), "{what}: a refusal is cleared away");
    assert_eq!(
        (reply.audience, reply.placement, reply.notify.len()),
        (Audience::Actor, Placement::New, 0),
        "{what}"
    );
    assert!(
        reply.buttons.is_empty() && reply.picture.is_none(),
        "{what}"
    );
}

async fn scheduler(url: DatabaseUrl) {
    let store = connect(&url).await;
    let clock = Clock::manual(common::table::T0);
    let table = Table::with_service(
        Service::new(store.clone(), common::table::scripted_dice(9))
            .with_pictures(false)
            .with_challenge_ttl(std::time::Duration::from_secs(600))
            .with_clock(clock.clone()),
        clock,
    );
    let game = start(&table, "alice", "bob", "konane time=1d").await;
    let late = to_move(&table, game).await;
    table.cmd("carol", "/play koan @dave").await;
    // The challenge expires: told to its chat, calling its challenger (issue 37).
    table.clock.advance(HOUR);
    let replies = table.tick().await;
    assert_eq!(
        replies.len(),
        1,
        "{:?}",
        replies.iter().map(text).collect::<Vec<_>>()
    );
    told(None, &["carol"]).check(&replies[0], "expiry");
    // At half time the player to move is reminded.
    table.clock.advance(12 * HOUR);
    let replies = table.tick().await;
    assert_eq!(replies.len(), 1);
    told(Some(game), &[&late]).check(&replies[0], "reminder");
    // At the deadline those who may claim are called.
    table.clock.advance(12 * HOUR);
    let replies = table.tick().await;
    assert_eq!(replies.len(), 1);
    told(Some(game), &[&late, other(&late)]).check(&replies[0], "time-out");
    // Its Claim button (issue 37): refused to the one who ran out of time, the win for the
    // other; the time-out is recorded with the game's messages that lose their buttons.
    assert!(replies[0].question, "recorded with the game's buttons");
    let claim = replies[0]
        .all_buttons()
        .find(|b| b.data == format!("w{game}"))
        .expect("a Claim button")
        .data
        .clone();
    let refused = table.press(&late, &claim).await;
    assert!(refused.refusal().is_some(), "{}", text(&refused));
    let claimed = table.press(other(&late), &claim).await;
    assert!(claimed.is_done(), "{}", text(&claimed));
    assert_eq!(table.record(game).await.status, GameStatus::Finished);
    store.close().await;
}

/// A game that has no clock: through the service every game gets one when it starts (a time
/// per move is required and at least an hour), so only a game stored without its first turn
/// (as a crash between creating it and starting its clock could leave it) has none. A claim
/// there is refused as "no clock".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claim_in_a_game_without_a_clock_is_refused() {
    let file = common::SqliteFile::new();
    let store = connect(&file.url()).await;
    let table = Table::new(store.clone(), 10);
    let (chat, community) = table.chat_ids().await;
    let mut seats = Vec::new();
    for name in ["alice", "bob"] {
        match store.upsert_user(Platform::Local, name, "X").await {
            Ok(user) => seats.push(user.id),
            Err(error) => panic!("{error}"),
        }
    }
    let record = match store
        .create_game(&NewGame {
            chat,
            game: GameId::Konane,
            options: "",
            start_position: None,
            seats: &seats,
            accepting: None,
            community,
            stake: 0,
            move_millis: DAY,
            turn: None,
            dice: None,
        })
        .await
    {
        Ok(record) => record,
        Err(error) => panic!("{error}"),
    };
    assert_eq!(record.clock, None);
    let (state, record) = table.replayed(record.id).await;
    let waiting = other(&to_act(&state, &record).unwrap_or_default());
    table.clock.advance(30 * DAY);
    let reply = table.cmd(waiting, &format!("/claim #{}", record.id)).await;
    refused(
        &reply,
        |e| matches!(e, UserError::NoClock(_)),
        "claim without a clock",
    );
    store.close().await;
}
