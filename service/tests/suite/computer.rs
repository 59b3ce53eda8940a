//! The computer at the table (issue 18), through the service over SQLite: whole games of every
//! game against it, a Pachisi game with three computer seats, a restart while it is to move,
//! Pachisi challenges whose empty seats the computer fills, and what is refused (stakes, people
//! beside it in a two-seat game or at a full table).

use crate::common;

use common::SqliteFile;
use common::said::{num, said, said_all, text_arg};
use common::table::{Lcg, Table, challenge_button, text};
use tabula_core::Status;
use tabula_service::service::{Audience, Placement, Reply, Span, UserError};
use tabula_service::store::{GameNo, GameStatus, Platform};

/// Whether the one to act in `game` is the computer.
async fn computer_to_move(table: &Table, game: GameNo) -> bool {
    let (state, record) = table.replayed(game).await;
    match state.status() {
        Status::Decision(seat) => record
            .seats
            .iter()
            .any(|h| h.seat == seat.0 && h.user.platform == Platform::Computer),
        _ => false,
    }
}

/// What every board of the computer's moves shows: a new board of the game, the computer named
/// by name (never mentioned as a person, never notified), and no buttons while it is to move.
fn check_computer_board(reply: &Reply, game: GameNo, level: u8) {
    assert_eq!(reply.placement, Placement::NewBoard, "{}", text(reply));
    assert_eq!(reply.game, Some(game));
    let _ = level;
    assert!(
        reply.says("computer-name").is_some(),
        "the computer named: {}",
        text(reply)
    );
    for span in &reply.spans {
        if let Span::Mention(person) = span {
            assert!(!person.id.starts_with("level-"), "{person:?} is mentioned");
        }
    }
    assert!(
        reply.notify.iter().all(|id| !id.starts_with("level-")),
        "{:?}",
        reply.notify
    );
}

/// Alice plays `game` against the computer at `level` to the end, moving at random; the
/// computer's moves come from the scheduler's tick. Returns (Alice's moves, computer boards).
async fn play_against(table: &Table, game_name: &str, level: u8, seed: u64) -> (usize, usize) {
    let start = table
        .cmd(
            "alice",
            &format!("/play {game_name} computer level={level}"),
        )
        .await;
    assert!(start.is_done(), "{:?}: {}", start.kind, text(&start));
    assert_eq!(start.placement, Placement::NewBoard, "{}", text(&start));
    let game = start.game.expect("a game started");
    // The game begins saying the computer's level, in a sentence of its own.
    let level_said = said(&start, "game-begins-computer");
    assert_eq!(num(level_said, "level"), i64::from(level));
    let record = table.record(game).await;
    assert_eq!(record.stake, 0);
    play_out(table, game, level, seed, &["alice"]).await
}

/// Plays `game`, where the computer at `level` holds some seats and `people` the others, to
/// the end: the people move at random, the computer at each tick. Returns (the people's moves,
/// computer boards).
async fn play_out(
    table: &Table,
    game: GameNo,
    level: u8,
    seed: u64,
    people: &[&str],
) -> (usize, usize) {
    let mut last = Reply::default();
    let mut lcg = Lcg(seed);
    let mut mine = 0;
    let mut boards = 0;
    for _ in 0..5000 {
        let replies = table.tick().await;
        for reply in &replies {
            check_computer_board(reply, game, level);
        }
        boards += replies.len();
        if let Some(reply) = replies.last() {
            last = reply.clone();
        }
        assert!(
            !computer_to_move(table, game).await,
            "the tick left the computer to move"
        );
        if table.record(game).await.status != GameStatus::Active {
            // The last board tells the result.
            assert!(
                last.says("result").is_some() || last.says("result-because").is_some(),
                "{}",
                text(&last)
            );
            return (mine, boards);
        }
        let (state, _) = table.state(game).await;
        if state.status() == Status::Chance {
            continue;
        }
        let (actor, reply) = table
            .random_move(game, &mut lcg)
            .await
            .expect("a person is to move");
        assert!(people.contains(&actor.as_str()), "{actor} moved");
        mine += 1;
        last = reply.clone();
        if computer_to_move(table, game).await {
            // Alice's board says the computer thinks, and has no buttons for her.
            assert!(reply.buttons.is_empty(), "{}", text(&reply));
            assert_eq!(text_arg(said(&reply, "board-turn"), "task"), "thinking");
        }
    }
    panic!("game {game} against the computer did not end")
}

#[tokio::test]
async fn whole_games_against_the_computer() {
    for (i, (game, level)) in [
        ("konane", 2),
        ("koan", 1),
        ("kolowis", 1),
        ("coan-ki", 1),
        ("konane size=6", 3),
    ]
    .into_iter()
    .enumerate()
    {
        let file = SqliteFile::new();
        let table = Table::new(common::connect(&file.url()).await, 40 + i as u64);
        let (mine, boards) = play_against(&table, game, level, 7 + i as u64).await;
        assert!(
            mine > 0 && boards > 0,
            "{game}: {mine} moves, {boards} boards"
        );
    }
}

#[tokio::test]
async fn pachisi_with_three_computer_seats() {
    let file = SqliteFile::new();
    let table = Table::new(common::connect(&file.url()).await, 3);
    let (mine, boards) = play_against(&table, "pachisi", 1, 11).await;
    let games = table
        .store()
        .game(GameNo(1))
        .await
        .expect("db")
        .expect("game");
    let computers = games
        .seats
        .iter()
        .filter(|h| h.user.platform == Platform::Computer)
        .count();
    assert_eq!(computers, 3, "{:?}", games.seats);
    assert!(mine > 5 && boards > 5, "{mine} moves, {boards} boards");
}

/// The seats of `game`: how many the computer holds, and each person's count.
async fn seat_counts(table: &Table, game: GameNo) -> (usize, Vec<(String, usize)>) {
    let record = table.record(game).await;
    let computers = record
        .seats
        .iter()
        .filter(|h| h.user.platform == Platform::Computer)
        .count();
    let mut people: Vec<(String, usize)> = Vec::new();
    for holder in record
        .seats
        .iter()
        .filter(|h| h.user.platform != Platform::Computer)
    {
        match people
            .iter_mut()
            .find(|(name, _)| *name == holder.user.display_name)
        {
            Some((_, n)) => *n += 1,
            None => people.push((holder.user.display_name.clone(), 1)),
        }
    }
    people.sort();
    (computers, people)
}

#[tokio::test]
async fn a_pachisi_challenge_fills_its_empty_seats_with_the_computer() {
    let file = SqliteFile::new();
    let table = Table::new(common::connect(&file.url()).await, 21);
    // Two people named: the challenge waits for Bob, then the computer takes two seats.
    let challenge = table
        .cmd("alice", "/play pachisi @bob computer level=1")
        .await;
    assert!(challenge.is_done(), "{}", text(&challenge));
    assert!(challenge.game.is_none(), "{}", text(&challenge));
    assert_eq!(
        num(said(&challenge, "challenge-computer-beside"), "level"),
        1,
        "the computer (level 1) takes the other seats"
    );
    assert_eq!(table.pending_challenges().await, 1);
    let started = table.cmd("bob", "/accept").await;
    let game = started
        .game
        .unwrap_or_else(|| panic!("the game starts when Bob accepts: {}", text(&started)));
    assert_eq!(table.record(game).await.stake, 0);
    let (computers, people) = seat_counts(&table, game).await;
    assert_eq!(computers, 2);
    assert_eq!(
        people,
        vec![
            (table.display_name("alice"), 1),
            (table.display_name("bob"), 1)
        ]
    );
    let (moves, _) = play_out(&table, game, 1, 5, &["alice", "bob"]).await;
    assert!(moves > 5, "{moves} moves");

    // Three people named: one computer seat.
    let challenge = table
        .cmd("alice", "/play pachisi @bob @carol computer")
        .await;
    assert!(challenge.game.is_none(), "{}", text(&challenge));
    assert!(table.cmd("bob", "/accept").await.game.is_none());
    let game = table.cmd("carol", "/accept").await.game.expect("a game");
    let (computers, people) = seat_counts(&table, game).await;
    assert_eq!(computers, 1);
    assert_eq!(people.len(), 3, "{people:?}");
    assert!(people.iter().all(|(_, n)| *n == 1), "{people:?}");
    assert!(
        table
            .record(game)
            .await
            .seats
            .iter()
            .any(|h| h.user.display_name == "Computer (level 2)"),
        "level 2 by default"
    );
}

/// The data of the Start with computers button of an open challenge.
fn fill_button(open: &Reply) -> String {
    challenge_button(open, 'c')
        .map(|b| b.data.clone())
        .unwrap_or_else(|| panic!("no Start with computers button: {}", text(open)))
}

#[tokio::test]
async fn an_open_pachisi_challenge_starts_with_computers() {
    let file = SqliteFile::new();
    let table = Table::new(common::connect(&file.url()).await, 22);
    let open = table.cmd("alice", "/play pachisi").await;
    let fill = fill_button(&open);
    table.cmd("bob", "/accept").await;
    // Only the challenger fills the seats; Bob's press changes nothing.
    let refused = table.press("bob", &fill).await;
    assert!(
        matches!(refused.refusal(), Some(UserError::NotChallengerFill(_))),
        "{}",
        text(&refused)
    );
    assert!(table.active_games().await.is_empty());
    let started = table.press("alice", &fill).await;
    let game = started.game.expect("a game");
    let (computers, people) = seat_counts(&table, game).await;
    assert_eq!(computers, 2);
    assert_eq!(people.len(), 2, "{people:?}");
    assert_eq!(table.pending_challenges().await, 0);
    // A second press finds the challenge taken.
    let again = table.press("alice", &fill).await;
    assert!(again.refusal().is_some(), "{}", text(&again));
    assert_eq!(table.active_games().await.len(), 1);

    // A staked open challenge cannot take the computer.
    table.cmd("mod", "/config max_stake=100").await;
    let staked = table.cmd("carol", "/play pachisi stake=5").await;
    let refused = table.press("carol", &fill_button(&staked)).await;
    assert!(
        matches!(refused.refusal(), Some(UserError::ComputerStake)),
        "{}",
        text(&refused)
    );
    assert_eq!(table.active_games().await.len(), 1);

    // The group's default stake does not stand in the way (issue 37): the game is friendly.
    table.cmd("mod", "/config stake=5").await;
    let defaulted = table.cmd("dave", "/play pachisi").await;
    assert!(defaulted.is_done(), "{}", text(&defaulted));
    let before = table.balance("dave").await;
    let started = table.press("dave", &fill_button(&defaulted)).await;
    let game = started
        .game
        .unwrap_or_else(|| panic!("a game: {}", text(&started)));
    assert_eq!(table.record(game).await.stake, 0, "friendly");
    assert_eq!(table.balance("dave").await, before, "no stake taken");
    table.assert_money_adds_up().await;
}

/// Alice starts Konane against the computer and, if she is first, moves; the computer is then
/// to move. Returns the game.
async fn until_the_computer_is_to_move(table: &Table) -> GameNo {
    let start = table.cmd("alice", "/play konane computer").await;
    let game = start.game.expect("a game");
    if !computer_to_move(table, game).await {
        let mut lcg = Lcg(1);
        table
            .random_move(game, &mut lcg)
            .await
            .expect("alice moves");
    }
    assert!(computer_to_move(table, game).await);
    game
}

#[tokio::test]
async fn a_restart_while_the_computer_is_to_move() {
    // The same game on two databases with the same dice: one runs on, one restarts while the
    // computer is to move, and again after its move was written but before it was announced.
    let steady_file = SqliteFile::new();
    let steady = Table::new(common::connect(&steady_file.url()).await, 5);
    let game = until_the_computer_is_to_move(&steady).await;
    let boards = steady.tick().await;
    assert_eq!(boards.len(), 1, "one board for the computer's move");
    let (steady_state, _) = steady.replayed(game).await;

    let file = SqliteFile::new();
    let before = Table::new(common::connect(&file.url()).await, 5);
    let same = until_the_computer_is_to_move(&before).await;
    assert_eq!(same, game);
    let seq = before.record(game).await.seq;
    drop(before);
    // Started again: the computer's turn is found in the database and played once.
    let after = Table::new(common::connect(&file.url()).await, 5);
    let played = after
        .service
        .computer_moves()
        .await
        .expect("the computer moves");
    assert_eq!(played, 1);
    assert!(after.record(game).await.seq > seq);
    drop(after);
    // Started again before the board went out: the outbox delivers it, once.
    let again = Table::new(common::connect(&file.url()).await, 5);
    let boards = again.tick().await;
    assert_eq!(
        boards.len(),
        1,
        "{:?}",
        boards.iter().map(text).collect::<Vec<_>>()
    );
    check_computer_board(&boards[0], game, 2);
    assert!(again.tick().await.is_empty(), "announced once");
    let (state, _) = again.replayed(game).await;
    assert_eq!(
        state.legal_lines(),
        steady_state.legal_lines(),
        "the same position gets the same move after a restart"
    );
    assert_eq!(state.status(), steady_state.status());
}

#[tokio::test]
async fn stakes_and_people_beside_the_computer_are_refused() {
    let file = SqliteFile::new();
    let table = Table::new(common::connect(&file.url()).await, 9);
    table.cmd("mod", "/config max_stake=100").await;
    let staked = table.cmd("alice", "/play konane computer stake=10").await;
    assert!(
        matches!(staked.refusal(), Some(UserError::ComputerStake)),
        "{:?}: {}",
        staked.kind,
        text(&staked)
    );
    said(&staked, "computer-stake");
    let with_bob = table.cmd("alice", "/play koan @bob computer").await;
    assert!(
        matches!(
            with_bob.refusal(),
            Some(UserError::ComputerAndPeople { .. })
        ),
        "{:?}: {}",
        with_bob.kind,
        text(&with_bob)
    );
    let full_table = table
        .cmd("alice", "/play pachisi @bob @carol @dave computer")
        .await;
    assert!(
        matches!(full_table.refusal(), Some(UserError::ComputerNoSeat { .. })),
        "{}",
        text(&full_table)
    );
    let staked_beside = table
        .cmd("alice", "/play pachisi @bob computer stake=5")
        .await;
    assert!(
        matches!(staked_beside.refusal(), Some(UserError::ComputerStake)),
        "{}",
        text(&staked_beside)
    );
    let too_strong = table.cmd("alice", "/play koan computer level=9").await;
    assert!(too_strong.refusal().is_some(), "{}", text(&too_strong));
    assert!(table.active_games().await.is_empty(), "nothing started");
    assert_eq!(table.pending_challenges().await, 0);
    // A community whose default stake is not zero still plays the computer for nothing.
    table.cmd("mod", "/config default_stake=10").await;
    let friendly = table.cmd("alice", "/play kolowis computer").await;
    assert!(friendly.is_done(), "{}", text(&friendly));
    let game = friendly.game.expect("a game");
    assert_eq!(table.record(game).await.stake, 0);
    // Two computers of different levels are different players.
    let other = table.cmd("bob", "/play kolowis computer level=4").await;
    let other = other.game.expect("a game");
    let a = table.record(game).await;
    let b = table.record(other).await;
    let computer = |r: &tabula_service::store::GameRecord| {
        r.seats
            .iter()
            .find(|h| h.user.platform == Platform::Computer)
            .map(|h| h.user.display_name.clone())
    };
    assert_eq!(computer(&a).as_deref(), Some("Computer (level 2)"));
    assert_eq!(computer(&b).as_deref(), Some("Computer (level 4)"));
}

/// Issue 37: a move pressed against the computer posts no board of its own (the presser's
/// toast says it was played), and the computer's board tells both moves, once the boards
/// shown are known (as the adapters report them). A typed move still shows its board.
#[tokio::test]
async fn a_pressed_move_and_the_computers_answer_are_one_board() {
    let file = SqliteFile::new();
    let table = Table::new(common::connect(&file.url()).await, 9);
    let start = table.cmd("alice", "/play konane computer level=1").await;
    let game = start.game.expect("a game");
    let mut shown = 100;
    let mut post = |reply: Reply| {
        shown += 1;
        (reply, shown.to_string())
    };
    let (reply, id) = post(start);
    table
        .service
        .board_posted(&reply, &id)
        .await
        .expect("shown");
    for reply in table.tick().await {
        let (reply, id) = post(reply);
        table
            .service
            .board_posted(&reply, &id)
            .await
            .expect("shown");
    }
    assert!(!computer_to_move(&table, game).await);
    let (state, actor) = table.state(game).await;
    assert_eq!(actor.as_deref(), Some("alice"));
    let line = state.legal_lines()[0].clone();
    let board = table.cmd("alice", &format!("/board #{game}")).await;
    let button = table.button_for("alice", &board, &line).await;
    let pressed = table.press("alice", &button.data).await;
    assert!(pressed.is_done(), "{}", text(&pressed));
    assert_eq!(pressed.audience, Audience::Actor, "{}", text(&pressed));
    assert!(pressed.buttons.is_empty() && pressed.picture.is_none());
    assert_eq!(
        text_arg(
            common::said::sub(said(&pressed, "toast-played-computer"), "move"),
            "text"
        ),
        line
    );
    assert!(computer_to_move(&table, game).await);
    let boards = table.tick().await;
    assert_eq!(boards.len(), 1, "one board: {boards:?}");
    check_computer_board(&boards[0], game, 1);
    let moves: Vec<&str> = said_all(&boards[0], "konane-jumped")
        .into_iter()
        .chain(said_all(&boards[0], "konane-removed"))
        .map(|msg| text_arg(msg, "move"))
        .collect();
    assert_eq!(moves.len(), 2, "Alice's move and the computer's: {moves:?}");
    assert!(moves.contains(&line.as_str()), "{line} in {moves:?}");
    let (reply, id) = post(boards[0].clone());
    table
        .service
        .board_posted(&reply, &id)
        .await
        .expect("shown");

    // Typed, the move shows its board (it answers a command), and the computer's board tells
    // its own move only.
    if table.record(game).await.status == GameStatus::Active {
        let (state, _) = table.state(game).await;
        let line = state.legal_lines()[0].clone();
        let typed = table.cmd("alice", &format!("/move #{game} {line}")).await;
        assert_eq!(typed.placement, Placement::NewBoard, "{}", text(&typed));
    }
}

/// Issue 37, item 9: a move out of turn while the computer is to move names it in the chat's
/// language ("Computer"), not by its stored name.
#[tokio::test]
async fn out_of_turn_the_computer_is_named_in_the_chats_language() {
    let file = SqliteFile::new();
    let table = Table::new(common::connect(&file.url()).await, 3);
    let start = table.cmd("alice", "/play pachisi computer level=1").await;
    let game = start.game.expect("a game");
    let (_, actor) = table.state(game).await;
    assert_ne!(
        actor.as_deref(),
        Some("alice"),
        "the computer moves first here"
    );
    let reply = table.cmd("alice", &format!("/move #{game} throw")).await;
    assert!(
        matches!(
            reply.refusal(),
            Some(UserError::NotYourTurn { name: None, .. })
        ),
        "{:?}: {}",
        reply.kind,
        text(&reply)
    );
    let refused = said(&reply, "not-your-turn");
    assert_eq!(common::said::sub(refused, "name").id, "computer-name");
}
