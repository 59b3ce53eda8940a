//! Board bookkeeping in the database (issue 35) and every change announced across a crash
//! (issue 36), on SQLite and PostgreSQL: a posted board takes the buttons off every older
//! message of its game, each once however many boards are posted at once; a change whose
//! process died before posting its reply is announced by any dispatcher once the hold ends,
//! and a change whose board was posted is not announced again (a move, an acceptance, a
//! resignation, a challenge, its withdrawal, refusal, joins and acceptances, a moderator's grant
//! or take, a change of the settings); a request delivered again is
//! answered as already done, changing nothing.

use crate::common;

use std::collections::HashSet;
use std::time::Duration;

use common::connect;
use common::table::{Lcg, T0, Table, challenge_button, scripted_dice, start, text};

use tabula_service::service::{Audience, Button, Clock, Kind, Placement, Reply, Service};
use tabula_service::store::{DatabaseUrl, GameNo, Store};

on_both_databases! {
    a_posted_board_takes_the_buttons_off_every_older_message_of_its_game => bookkeeping;
    an_old_board_says_the_move_that_followed_it => old_board_captions;
    boards_posted_at_once_take_each_message_s_buttons_off_once => at_once;
    a_move_whose_process_died_before_posting_is_announced_after_the_hold => died_after_move;
    a_move_whose_board_was_posted_is_not_announced_again => posted_move;
    a_resignation_whose_process_died_is_announced_with_its_result => died_after_resignation;
    a_request_delivered_again_is_answered_as_done_and_changes_nothing => delivered_again;
    an_acceptance_whose_process_died_is_announced_as_the_game_s_start => died_after_acceptance;
    a_challenge_whose_process_died_is_posted_by_the_dispatcher => died_after_challenge;
    a_posted_challenge_is_not_posted_again_and_loses_its_buttons_when_it_expires => posted_challenge;
    a_grant_whose_process_died_is_told_by_the_dispatcher => died_after_grant;
    challenge_updates_whose_process_died_are_told_by_the_dispatcher => died_after_challenge_updates;
    a_change_of_settings_whose_process_died_is_told_by_the_dispatcher => died_after_config;
    buttons_a_dead_process_left_on_are_taken_off_by_the_dispatcher => died_before_strip;
    a_challenge_accepted_by_its_button_says_which_game_began => accepted_challenge_says_so;
}

/// How long a process holds its announcements in these tests.
const HOLD: Duration = Duration::from_secs(10);

/// A table whose service writes announcements, held by `owner`.
fn announcing(store: &Store, seed: u64, clock: &Clock, owner: &str) -> Table {
    Table::with_service(
        Service::new(store.clone(), scripted_dice(seed))
            .with_pictures(false)
            .with_cooldown(None)
            .with_clock(clock.clone())
            .with_announcements(owner, HOLD),
        clock.clone(),
    )
}

/// A board of `game` showing `seq` actions, with buttons or not, made by pressing `pressed`.
fn board(game: GameNo, seq: u32, buttons: bool, pressed: Option<&str>) -> Reply {
    Reply {
        placement: Placement::NewBoard,
        game: Some(game),
        board_seq: Some(seq),
        pressed: pressed.map(str::to_owned),
        buttons: if buttons {
            vec![vec![Button {
                label: "a1".into(),
                data: "m1:a1".into(),
                label_msg: None,
            }]]
        } else {
            Vec::new()
        },
        ..Reply::default()
    }
}

/// Alice challenges Bob to Konane and Bob accepts; the start's board is posted (message 500).
async fn started(table: &Table) -> GameNo {
    let challenge = table.cmd("alice", "/play konane @bob").await;
    assert!(challenge.is_done());
    posted(table, &challenge, "400").await;
    let accepted = table.cmd("bob", "/accept").await;
    assert!(accepted.is_done());
    posted(table, &accepted, "500").await;
    accepted.game.expect("a game started")
}

async fn posted(table: &Table, reply: &Reply, id: &str) -> Vec<String> {
    table
        .service
        .board_posted(reply, id)
        .await
        .expect("board posted")
}

async fn bookkeeping(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 9);
    let game = start(&table, "alice", "bob", "konane").await;
    let s = table.record(game).await.seq;
    // The first board, pressed on the challenge (message 400).
    assert!(posted(&table, &board(game, s, true, Some("400")), "501").await == ["400"]);
    assert_eq!(
        posted(&table, &board(game, s + 1, true, None), "503").await,
        ["501"]
    );
    // A board showing as much, posted late (a lower id): it loses its own buttons.
    assert_eq!(
        posted(&table, &board(game, s + 1, true, None), "502").await,
        ["502"],
        "late"
    );
    // A newer board without buttons (the computer thinking) still takes the older ones off,
    // and the next one has nothing to take off it.
    assert_eq!(
        posted(&table, &board(game, s + 1, false, None), "504").await,
        ["503"]
    );
    assert!(
        posted(&table, &board(game, s + 1, true, None), "505")
            .await
            .is_empty()
    );
    // A board showing fewer actions, posted after (a higher id): it loses its own buttons.
    assert_eq!(
        posted(&table, &board(game, s, true, None), "511").await,
        ["511"]
    );
    // A board showing more with a lower id is the newest: the others lose theirs.
    assert_eq!(
        posted(&table, &board(game, s + 2, true, Some("77")), "509").await,
        ["77", "505"],
        "the pressed message and the board before"
    );
    // Reporting the same board again changes nothing.
    assert!(
        posted(&table, &board(game, s + 2, true, None), "509")
            .await
            .is_empty()
    );
    assert_eq!(
        store.messages_with_buttons(game).await.expect("read"),
        ["509"]
    );
    // A strip that failed for a passing reason is handed back with the next board.
    table
        .service
        .buttons_still_on(game, "505")
        .await
        .expect("restore");
    assert_eq!(
        posted(&table, &board(game, s + 3, true, None), "520").await,
        ["505", "509"]
    );
    // Another game's boards are its own.
    let other = start(&table, "carol", "dave", "konane").await;
    assert!(
        posted(&table, &board(other, 0, true, None), "600")
            .await
            .is_empty()
    );
    assert_eq!(
        store.messages_with_buttons(game).await.expect("read"),
        ["520"]
    );
    // A look at the board (`/board`, or `/move` alone) posts it again at the bottom of the
    // chat: it becomes the live board, notifying nobody, and the one before loses its buttons.
    let look = table.cmd("erin", &format!("/board #{other}")).await;
    assert_eq!(look.placement, Placement::NewBoard);
    assert!(look.notify.is_empty());
    assert_eq!(posted(&table, &look, "610").await, ["600"]);
    assert_eq!(
        store.messages_with_buttons(other).await.expect("read"),
        ["610"]
    );
    let (_, actor) = table.state(other).await;
    let actor = actor.expect("someone to move");
    let listed = table.cmd(&actor, "/move").await;
    assert!(listed.says("moves-legal").is_some(), "{}", text(&listed));
    assert_eq!(listed.placement, Placement::NewBoard);
    assert!(
        listed.all_buttons().any(|b| b.data.starts_with('m')),
        "a button per move"
    );
    assert_eq!(posted(&table, &listed, "611").await, ["610"]);
    assert_eq!(
        store.messages_with_buttons(other).await.expect("read"),
        ["611"]
    );
    store.close().await;
}

/// Issue 37: the older boards a new board strips say, from then on, the move that followed
/// them (who played what) in place of who was to move, in the chat's language; a message that
/// is not a board (the challenge) only loses its buttons.
async fn old_board_captions(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 12);
    let challenge = table.cmd("alice", "/play konane @bob").await;
    posted(&table, &challenge, "400").await;
    let accepted = table.cmd("bob", "/accept").await;
    let game = accepted.game.expect("a game");
    assert!(
        table
            .service
            .reply_sent(&accepted, Some("500"))
            .await
            .iter()
            .all(|s| s.caption.is_none())
    );
    let mut lcg = Lcg(3);
    let mut id = 500;
    for _ in 0..3 {
        let (_, record) = table.replayed(game).await;
        let (mover, reply) = table.random_move(game, &mut lcg).await.expect("a move");
        let after = table
            .store()
            .load_game(game, tabula_service::store::History::Full)
            .await
            .expect("read")
            .expect("the game");
        let played = after
            .actions
            .iter()
            .find(|a| a.seq > record.seq && a.actor.is_some())
            .expect("the move")
            .action
            .clone();
        let old = id.to_string();
        id += 1;
        let stripped = table
            .service
            .reply_sent(&reply, Some(&id.to_string()))
            .await;
        assert_eq!(stripped.len(), 1, "{stripped:?}");
        assert_eq!(stripped[0].message_id, old);
        let caption = stripped[0]
            .caption
            .as_ref()
            .expect("a caption for the old board");
        let then = caption.says("board-then").expect("board-then");
        assert_eq!(
            common::said::text_arg(common::said::sub(then, "move"), "text"),
            played
        );
        assert_eq!(
            common::said::text_arg(common::said::sub(then, "player"), "text"),
            mover.to_uppercase()
        );
        assert!(caption.buttons.is_empty() && caption.notify.is_empty());
    }
    // A resignation ends the game with no move after the last board: that board says the game
    // ended there, and how, instead of who was to move.
    let asked = table.cmd("alice", &format!("/resign #{game}")).await;
    let confirm = asked.buttons[0][0].data.clone();
    let ended = table.press("alice", &confirm).await;
    assert!(ended.is_done(), "{}", text(&ended));
    let last = id.to_string();
    let stripped = table
        .service
        .reply_sent(&ended, Some(&(id + 1).to_string()))
        .await;
    let caption = stripped
        .iter()
        .find(|s| s.message_id == last)
        .and_then(|s| s.caption.as_ref())
        .unwrap_or_else(|| panic!("the last board's caption: {stripped:?}"));
    let said = caption.says("board-ended").expect("board-ended");
    assert_eq!(common::said::sub(said, "how").id, "picture-resigned");
    assert!(caption.buttons.is_empty() && caption.notify.is_empty());
    store.close().await;
}

async fn at_once(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 10);
    let game = start(&table, "alice", "bob", "konane").await;
    // Twelve boards of one game posted at the same moment (say, by three processes), each made
    // by pressing one of twelve older messages.
    let boards: Vec<(Reply, String)> = (0..12u32)
        .map(|i| {
            let pressed = format!("{}", 100 + i);
            (
                board(game, i, true, Some(&pressed)),
                format!("{}", 1000 + i),
            )
        })
        .collect();
    let mut tasks = tokio::task::JoinSet::new();
    let service = std::sync::Arc::new(table.service);
    for (reply, id) in boards {
        let service = std::sync::Arc::clone(&service);
        tasks.spawn(async move { service.board_posted(&reply, &id).await.expect("posted") });
    }
    let mut seen = HashSet::new();
    while let Some(stripped) = tasks.join_next().await {
        for id in stripped.expect("task") {
            assert!(seen.insert(id.clone()), "{id} stripped twice");
        }
    }
    // Every message but the newest board lost its buttons, each once.
    let mut expected: HashSet<String> = (0..12).map(|i| format!("{}", 100 + i)).collect();
    expected.extend((0..11).map(|i| format!("{}", 1000 + i)));
    assert_eq!(seen, expected);
    assert_eq!(
        store.messages_with_buttons(game).await.expect("read"),
        ["1011"]
    );
    store.close().await;
}

async fn died_after_move(url: DatabaseUrl) {
    let store = connect(&url).await;
    let clock = Clock::manual(T0);
    let dead = announcing(&store, 11, &clock, "process-a/replies");
    let game = started(&dead).await;
    // A move pressed on the board (message 42).
    let (state, actor) = dead.state(game).await;
    let actor = actor.expect("someone to move");
    let look = dead.cmd(&actor, &format!("/board #{game}")).await;
    let line = state.legal_lines()[0].clone();
    let button = dead
        .try_button_for(&actor, &look, &line)
        .await
        .expect("a button");
    let mut press = dead.button(&actor, &button.data);
    press.pressed = Some("42".into());
    let reply = dead.send(&press).await;
    assert!(reply.is_done());
    assert!(reply.announced.is_some(), "the move's announcement is held");
    assert_eq!(reply.pressed.as_deref(), Some("42"));
    let pressed = "42";
    let seq = table_seq(&dead, game).await;
    // The process dies before its board is posted.
    drop(dead);
    let alive = announcing(&store, 12, &clock, "process-b/replies");
    assert!(
        alive.tick().await.is_empty(),
        "nobody else posts it while it is held"
    );
    clock.advance(HOLD.as_millis() as i64 + 1);
    let replies = alive.tick().await;
    assert_eq!(replies.len(), 1, "announced once the hold ends");
    let announced = &replies[0];
    assert_eq!(announced.kind, Kind::Done);
    assert_eq!(announced.audience, Audience::Chat);
    assert_eq!(announced.placement, Placement::NewBoard);
    assert_eq!(announced.game, Some(game));
    assert_eq!(announced.board_seq, Some(seq));
    assert_eq!(announced.pressed.as_deref(), Some(pressed));
    let (_, to_move) = alive.state(game).await;
    assert_eq!(announced.notify, vec![to_move.expect("someone to move")]);
    assert!(!announced.buttons.is_empty(), "the next player's moves");
    // Told as the reply told it, but for the time left, which ran meanwhile.
    let told = |reply: &Reply| reply.spans[..reply.spans.len() - 1].to_vec();
    assert_eq!(told(announced), told(&reply), "told as the reply was");
    // Delivered once.
    clock.advance(HOLD.as_millis() as i64 + 1);
    assert!(alive.tick().await.is_empty());
    store.close().await;
}

async fn table_seq(table: &Table, game: GameNo) -> u32 {
    table.record(game).await.seq
}

async fn posted_move(url: DatabaseUrl) {
    let store = connect(&url).await;
    let clock = Clock::manual(T0);
    let table = announcing(&store, 13, &clock, "process-a/replies");
    let game = started(&table).await;
    let mut lcg = Lcg(6);
    let (_, reply) = table.random_move(game, &mut lcg).await.expect("a move");
    assert!(reply.announced.is_some());
    assert_eq!(
        posted(&table, &reply, "701").await,
        ["500"],
        "the start's board"
    );
    clock.advance(HOLD.as_millis() as i64 + 1);
    assert!(
        table.tick().await.is_empty(),
        "the board was posted: nothing more"
    );
    // A board that could not be posted goes to the dispatcher at once.
    let (_, reply) = table.random_move(game, &mut lcg).await.expect("a move");
    table
        .service
        .board_not_posted(&reply)
        .await
        .expect("handed over");
    let replies = table.tick().await;
    assert_eq!(replies.len(), 1);
    assert_eq!(replies[0].board_seq, reply.board_seq);
    assert_eq!(replies[0].game, Some(game));
    store.close().await;
}

async fn died_after_resignation(url: DatabaseUrl) {
    let store = connect(&url).await;
    let clock = Clock::manual(T0);
    let dead = announcing(&store, 14, &clock, "process-a/replies");
    let game = started(&dead).await;
    let reply = dead.confirmed("bob", &format!("/resign #{game}")).await;
    assert!(reply.is_done());
    assert_eq!(
        reply.placement,
        Placement::NewBoard,
        "the game's last board"
    );
    assert!(reply.announced.is_some());
    drop(dead);
    let alive = announcing(&store, 15, &clock, "process-b/replies");
    clock.advance(HOLD.as_millis() as i64 + 1);
    let replies = alive.tick().await;
    assert_eq!(replies.len(), 1);
    let announced = &replies[0];
    assert_eq!(announced.game, Some(game));
    assert!(
        announced
            .all_buttons()
            .all(|b| !b.data.starts_with(['m', 'p'])),
        "the game is over: no move buttons"
    );
    assert_eq!(announced.buttons, reply.buttons, "Replay, Record, Rematch");
    assert_eq!(announced.notify, reply.notify, "the players");
    assert_eq!(announced.board_seq, Some(table_seq(&alive, game).await));
    assert_eq!(
        announced.spans, reply.spans,
        "the result told as the reply told it"
    );
    store.close().await;
}

async fn delivered_again(url: DatabaseUrl) {
    let store = connect(&url).await;
    let clock = Clock::manual(T0);
    let table = announcing(&store, 16, &clock, "process-a/replies");
    let game = started(&table).await;
    let (state, actor) = table.state(game).await;
    let actor = actor.expect("someone to move");
    let line = state.legal_lines()[0].clone();
    let request = table.command(&actor, &format!("/move #{game} {line}"));
    let first = table.send(&request).await;
    assert!(first.is_done());
    let seq = table.record(game).await.seq;
    let again = table.send(&request).await;
    assert_eq!(again.kind, Kind::AlreadyHandled);
    assert_eq!(again.audience, Audience::Actor);
    assert_eq!(again.announced, None, "nothing new to announce");
    assert_eq!(table.record(game).await.seq, seq, "nothing changed");
    store.close().await;
}

async fn died_after_acceptance(url: DatabaseUrl) {
    let store = connect(&url).await;
    let clock = Clock::manual(T0);
    let dead = announcing(&store, 17, &clock, "process-a/replies");
    assert!(dead.cmd("alice", "/play konane @bob").await.is_done());
    let accepted = dead.cmd("bob", "/accept").await;
    assert!(accepted.is_done());
    assert!(
        accepted.announced.is_some(),
        "the start's announcement is held"
    );
    let game = accepted.game.expect("a game started");
    drop(dead);
    let alive = announcing(&store, 18, &clock, "process-b/replies");
    clock.advance(HOLD.as_millis() as i64 + 1);
    let replies = alive.tick().await;
    assert_eq!(replies.len(), 1, "the start is announced");
    let announced = &replies[0];
    assert_eq!(announced.game, Some(game));
    assert_eq!(announced.placement, Placement::NewBoard);
    assert_eq!(
        announced.notify, accepted.notify,
        "the first player is notified"
    );
    assert_eq!(announced.buttons, accepted.buttons);
    // Told as the reply told it (the seats, the terms), but for the time left.
    let told = |reply: &Reply| reply.spans[..reply.spans.len() - 1].to_vec();
    assert_eq!(told(announced), told(&accepted));
    store.close().await;
}

async fn died_after_challenge(url: DatabaseUrl) {
    let store = connect(&url).await;
    let clock = Clock::manual(T0);
    let dead = announcing(&store, 19, &clock, "process-a/replies");
    let challenge = dead.cmd("alice", "/play konane @bob").await;
    assert!(challenge.is_done());
    assert!(
        challenge.announced.is_some(),
        "the challenge's post is held"
    );
    // The process dies before posting it.
    drop(dead);
    let alive = announcing(&store, 20, &clock, "process-b/replies");
    assert!(alive.tick().await.is_empty(), "held meanwhile");
    clock.advance(HOLD.as_millis() as i64 + 1);
    let replies = alive.tick().await;
    assert_eq!(replies.len(), 1, "the challenge is posted");
    let announced = &replies[0];
    assert_eq!(announced.challenge, challenge.challenge);
    assert_eq!(announced.audience, Audience::Chat);
    assert_eq!(announced.notify, challenge.notify, "Bob is called");
    assert!(!announced.notify.is_empty());
    assert_eq!(announced.buttons, challenge.buttons, "Accept and Decline");
    assert_eq!(announced.spans, challenge.spans, "told as the reply was");
    // Once.
    clock.advance(HOLD.as_millis() as i64 + 1);
    assert!(alive.tick().await.is_empty());
    // Bob can accept it.
    assert!(alive.cmd("bob", "/accept").await.is_done());
    store.close().await;
}

async fn posted_challenge(url: DatabaseUrl) {
    let store = connect(&url).await;
    let clock = Clock::manual(T0);
    let table = announcing(&store, 21, &clock, "process-a/replies");
    let challenge = table.cmd("alice", "/play konane @bob time=1d").await;
    assert!(challenge.announced.is_some());
    assert!(posted(&table, &challenge, "400").await.is_empty());
    clock.advance(HOLD.as_millis() as i64 + 1);
    assert!(
        table.tick().await.is_empty(),
        "the post was delivered: nothing is announced again"
    );
    // Without a post (the platform refused it), the dispatcher posts it.
    let open = table.cmd("carol", "/play koan").await;
    assert!(open.announced.is_some());
    table
        .service
        .board_not_posted(&open)
        .await
        .expect("handed to the outbox");
    let replies = table.tick().await;
    assert_eq!(replies.len(), 1);
    assert_eq!(replies[0].challenge, open.challenge);
    // A day later (its time per move) nobody has answered: the expiry calls Alice, and its post (message 400)
    // loses its buttons once the expiry is posted (issue 37).
    clock.advance(24 * 60 * 60 * 1000 + 1);
    let replies = table.tick().await;
    let expired = replies
        .iter()
        .find(|reply| reply.challenge == challenge.challenge)
        .expect("the expiry of Alice's challenge");
    assert!(expired.says("challenge-expired").is_some());
    assert_eq!(expired.notify, ["alice"], "{}", expired.plain_text());
    assert_eq!(expired.pressed.as_deref(), Some("400"));
    // The post says it expired, in place of its offer.
    assert!(expired.pressed_is_text);
    assert_eq!(expired.pressed_then, expired.spans);
    assert_eq!(posted(&table, expired, "700").await, ["400"]);
    store.close().await;
}

/// A moderator's grant and take are told even when the process that made them died before
/// posting the reply: once, as the reply would have told them, the balance as it is then; a
/// posted one is not told again.
async fn died_after_grant(url: DatabaseUrl) {
    let store = connect(&url).await;
    let clock = Clock::manual(T0);
    let dead = announcing(&store, 23, &clock, "process-a/replies");
    let before = dead.balance("carol").await;
    let grant = dead.cmd("mod", "/grant @carol 70 prize").await;
    assert!(grant.is_done(), "{}", grant.plain_text());
    assert!(grant.announced.is_some(), "the grant's reply is held");
    let told = grant
        .says("coins-granted")
        .expect("the grant is told")
        .clone();
    // The process dies before posting it.
    drop(dead);
    let alive = announcing(&store, 24, &clock, "process-b/replies");
    assert!(alive.tick().await.is_empty(), "held meanwhile");
    clock.advance(HOLD.as_millis() as i64 + 1);
    let replies = alive.tick().await;
    assert_eq!(replies.len(), 1, "the grant is told");
    assert_eq!(replies[0].audience, Audience::Chat);
    assert_eq!(
        replies[0].says("coins-granted"),
        Some(&told),
        "as the reply told it"
    );
    assert_eq!(replies[0].spans, grant.spans);
    assert_eq!(alive.balance("carol").await, before + 70, "granted once");
    clock.advance(HOLD.as_millis() as i64 + 1);
    assert!(alive.tick().await.is_empty(), "told once");

    // A take whose reply was posted is not told again; its balance is the one after it.
    let take = alive.cmd("mod", "/take @carol 20").await;
    assert!(take.is_done(), "{}", take.plain_text());
    assert!(take.says("coins-taken").is_some());
    assert!(posted(&alive, &take, "600").await.is_empty());
    clock.advance(HOLD.as_millis() as i64 + 1);
    assert!(alive.tick().await.is_empty(), "the take was posted");
    assert_eq!(alive.balance("carol").await, before + 50);
    store.close().await;
}

/// Kills the process of `dead` (its announcements held), and lets the hold run out: what a
/// new process's dispatcher then tells.
async fn told_after_death(
    store: &Store,
    dead: Table,
    clock: &Clock,
    seed: u64,
) -> (Table, Vec<Reply>) {
    drop(dead);
    let alive = announcing(store, seed, clock, "process-b/replies");
    assert!(alive.tick().await.is_empty(), "held meanwhile");
    clock.advance(HOLD.as_millis() as i64 + 1);
    let replies = alive.tick().await;
    (alive, replies)
}

/// A challenge declined by pressing its post, joined, or accepted by some of its invitees is
/// told even when the process died before posting the reply: once, as a new message, the
/// pressed post losing its buttons; a withdrawal whose reply was posted is not told again.
async fn died_after_challenge_updates(url: DatabaseUrl) {
    let store = connect(&url).await;
    let clock = Clock::manual(T0);

    // Declined by Bob's press on the post (message 400).
    let dead = announcing(&store, 25, &clock, "process-a/replies");
    let challenge = dead.cmd("alice", "/play konane @bob").await;
    assert!(posted(&dead, &challenge, "400").await.is_empty());
    let decline = challenge_button(&challenge, 'd').expect("a Decline button");
    let mut press = dead.button("bob", &decline.data);
    press.pressed = Some("400".into());
    let declined = dead.send(&press).await;
    assert!(declined.is_done());
    assert!(declined.announced.is_some(), "the refusal is held");
    let told = declined.says("challenge-declined").expect("told").clone();
    let (alive, replies) = told_after_death(&store, dead, &clock, 26).await;
    assert_eq!(replies.len(), 1, "the refusal is told");
    assert_eq!(replies[0].audience, Audience::Chat);
    assert_eq!(replies[0].says("challenge-declined"), Some(&told));
    assert_eq!(replies[0].placement, Placement::New, "a new message");
    assert_eq!(
        posted(&alive, &replies[0], "401").await,
        ["400"],
        "the pressed post loses its buttons"
    );
    clock.advance(HOLD.as_millis() as i64 + 1);
    assert!(alive.tick().await.is_empty(), "told once");
    assert_eq!(alive.pending_challenges().await, 0);

    // A withdrawal whose reply was posted (in place of the post) is not told again.
    let challenge = alive.cmd("alice", "/play konane @bob").await;
    assert!(posted(&alive, &challenge, "410").await.is_empty());
    let cancelled = alive.cmd("alice", "/cancel").await;
    assert!(cancelled.says("challenge-withdrawn").is_some());
    assert!(cancelled.announced.is_some());
    assert!(posted(&alive, &cancelled, "410").await.is_empty());
    clock.advance(HOLD.as_millis() as i64 + 1);
    assert!(alive.tick().await.is_empty(), "the withdrawal was posted");

    // Dave joins Carol's open Pachisi challenge: told with who has joined and the buttons.
    let dead = announcing(&store, 27, &clock, "process-a/replies");
    let open = dead.cmd("carol", "/play pachisi").await;
    assert!(posted(&dead, &open, "420").await.is_empty());
    let joined = dead.cmd("dave", "/accept").await;
    assert!(joined.is_done());
    assert!(joined.announced.is_some(), "the join is held");
    assert!(joined.says("challenge-joined").is_some());
    let (alive, replies) = told_after_death(&store, dead, &clock, 28).await;
    assert_eq!(replies.len(), 1, "the join is told");
    assert_eq!(
        replies[0].says("challenge-joined"),
        joined.says("challenge-joined")
    );
    assert_eq!(replies[0].buttons, joined.buttons, "Join, Start, Cancel");
    assert_eq!(replies[0].notify, joined.notify, "the challenger is called");
    clock.advance(HOLD.as_millis() as i64 + 1);
    assert!(alive.tick().await.is_empty(), "told once");

    // Bob accepts a challenge of three invitees: told with who has still to accept.
    let dead = announcing(&store, 29, &clock, "process-a/replies");
    let invited = dead.cmd("alice", "/play pachisi @bob @erin @frank").await;
    assert!(invited.is_done());
    assert!(posted(&dead, &invited, "430").await.is_empty());
    let accept = challenge_button(&invited, 'a').expect("an Accept button");
    let accepted = dead.press("bob", &accept.data).await;
    assert!(accepted.is_done(), "{}", accepted.plain_text());
    assert!(accepted.announced.is_some(), "the acceptance is held");
    let told = accepted.says("challenge-accepted").expect("told").clone();
    let (alive, replies) = told_after_death(&store, dead, &clock, 30).await;
    assert_eq!(replies.len(), 1, "the acceptance is told");
    assert_eq!(replies[0].says("challenge-accepted"), Some(&told));
    assert_eq!(
        replies[0].notify, accepted.notify,
        "who has still to accept"
    );
    assert_eq!(replies[0].buttons, accepted.buttons);
    clock.advance(HOLD.as_millis() as i64 + 1);
    assert!(alive.tick().await.is_empty(), "told once");
    store.close().await;
}

/// A moderator's change of the settings, and a vacation, are told even when the process died
/// before posting the reply: once, as the reply told them.
async fn died_after_config(url: DatabaseUrl) {
    let store = connect(&url).await;
    let clock = Clock::manual(T0);
    let dead = announcing(&store, 31, &clock, "process-a/replies");
    let changed = dead.cmd("mod", "/config stake=5 reminders=off").await;
    assert!(changed.is_done());
    assert!(changed.announced.is_some(), "the change's reply is held");
    let told = changed.says("settings-changed").expect("told").clone();
    let (alive, replies) = told_after_death(&store, dead, &clock, 32).await;
    assert_eq!(replies.len(), 1, "the change is told");
    assert_eq!(replies[0].audience, Audience::Chat);
    assert_eq!(replies[0].says("settings-changed"), Some(&told));
    assert_eq!(replies[0].spans, changed.spans, "with the same settings");
    clock.advance(HOLD.as_millis() as i64 + 1);
    assert!(alive.tick().await.is_empty(), "told once");
    // A look at the settings changes nothing and announces nothing.
    let shown = alive.cmd("mod", "/config").await;
    assert!(shown.announced.is_none());

    // A vacation, likewise: told once, as taken.
    let allowed = alive.cmd("mod", "/config vacation=7").await;
    assert!(posted(&alive, &allowed, "700").await.is_empty());
    let vacation = alive.cmd("alice", "/vacation 2").await;
    assert!(vacation.is_done());
    assert!(vacation.announced.is_some(), "the vacation's reply is held");
    let (alive, replies) = told_after_death(&store, alive, &clock, 33).await;
    assert_eq!(replies.len(), 1, "the vacation is told");
    assert_eq!(
        replies[0].says("vacation-taken"),
        vacation.says("vacation-taken")
    );
    assert_eq!(replies[0].spans, vacation.spans);
    clock.advance(HOLD.as_millis() as i64 + 1);
    assert!(alive.tick().await.is_empty(), "told once");
    store.close().await;
}

/// Issue 36: a process that posted a board and died before taking the buttons off the older
/// messages leaves them to any dispatcher, which takes them off once the hold ends (an old
/// board saying the move that followed it), posting nothing; a strip reported made is not made
/// again.
async fn died_before_strip(url: DatabaseUrl) {
    let store = connect(&url).await;
    let clock = Clock::manual(T0);
    let dead = announcing(&store, 14, &clock, "process-a/replies");
    let game = started(&dead).await;
    let mut lcg = Lcg(4);
    let (_, reply) = dead.random_move(game, &mut lcg).await.expect("a move");
    let stripped = dead.service.reply_sent(&reply, Some("501")).await;
    let ids: Vec<&str> = stripped.iter().map(|s| s.message_id.as_str()).collect();
    assert_eq!(ids, ["500"]);
    assert!(stripped[0].told_by.is_some(), "the strip is announced");
    // The process dies before its edits.
    drop(dead);
    let alive = announcing(&store, 15, &clock, "process-b/replies");
    assert!(
        alive.tick().await.is_empty(),
        "held by the process that posted"
    );
    clock.advance(HOLD.as_millis() as i64 + 1);
    let replies = alive.tick().await;
    assert_eq!(replies.len(), 1, "{replies:?}");
    let strip = &replies[0];
    assert_eq!(strip.game, Some(game));
    assert!(
        strip.spans.is_empty() && strip.buttons.is_empty() && strip.picture.is_none(),
        "nothing is posted: {strip:?}"
    );
    let ids: Vec<&str> = strip.strip.iter().map(|s| s.message_id.as_str()).collect();
    assert_eq!(ids, ["500"]);
    let caption = strip.strip[0].caption.as_ref().expect("what followed it");
    assert!(caption.says("board-then").is_some(), "{caption:?}");
    clock.advance(HOLD.as_millis() as i64 + 1);
    assert!(alive.tick().await.is_empty(), "made once");

    // A process that made its strip says so: nothing is left to the dispatcher.
    let (_, reply) = alive.random_move(game, &mut lcg).await.expect("a move");
    let stripped = alive.service.reply_sent(&reply, Some("502")).await;
    let ids: Vec<&str> = stripped.iter().map(|s| s.message_id.as_str()).collect();
    assert_eq!(ids, ["501"]);
    alive.service.strips_made(&stripped).await;
    clock.advance(HOLD.as_millis() as i64 + 1);
    assert!(
        alive.tick().await.is_empty(),
        "a strip made is not made again"
    );
    store.close().await;
}

/// Issue 37, item 3: a challenge accepted by its button says from then on that it was accepted
/// and which game began, with its people, in place of its offer: in the press's answer (Discord
/// edits the pressed message there) and as the text the strip puts on it (Telegram).
async fn accepted_challenge_says_so(url: DatabaseUrl) {
    let store = connect(&url).await;
    let clock = Clock::manual(T0);
    // As `tabula run` does: a challenge's post is recorded with its announcement.
    let table = announcing(&store, 16, &clock, "process-a/replies");
    let challenge = table.cmd("alice", "/play konane @bob").await;
    let accept = challenge_button(&challenge, 'a').expect("an Accept button");
    let mut press = table.button("bob", &accept.data);
    press.pressed = Some("400".into());
    let started = table.send(&press).await;
    assert!(started.is_done(), "{}", text(&started));
    let game = started.game.expect("a game");
    let said = started
        .says("challenge-started")
        .expect("challenge-started");
    assert_eq!(
        common::said::text_arg(said, "game"),
        format!("#{game}").as_str()
    );
    let stripped = table.service.reply_sent(&started, Some("401")).await;
    let offer = stripped
        .iter()
        .find(|s| s.message_id == "400")
        .unwrap_or_else(|| panic!("the challenge is stripped: {stripped:?}"));
    assert!(started.pressed_is_text);
    assert!(offer.text, "the challenge is a text message");
    assert_eq!(
        offer.caption.as_ref().map(|c| &c.spans),
        Some(&started.pressed_then),
        "it says what the answer said"
    );
    // A typed acceptance changes the message the bot posted for the challenge, known once the
    // post is recorded.
    let typed = table.cmd("carol", "/play koan @dave").await;
    assert!(typed.is_done());
    posted(&table, &typed, "402").await;
    let accepted = table.cmd("dave", "/accept").await;
    assert_eq!(accepted.pressed.as_deref(), Some("402"));
    assert!(accepted.says("challenge-started").is_some());
    let stripped = table.service.reply_sent(&accepted, Some("403")).await;
    assert!(
        stripped
            .iter()
            .any(|s| s.message_id == "402" && s.text && s.caption.is_some()),
        "{stripped:?}"
    );

    // A typed `/decline` and a typed `/cancel` answer with a new message and change the
    // challenge's post too: it loses its buttons and says what became of it.
    for (who, command, id, said) in [
        ("erin", "/decline", "404", "challenge-declined"),
        ("alice", "/cancel", "406", "challenge-withdrawn"),
    ] {
        let offer = table.cmd("alice", "/play koan @erin").await;
        posted(&table, &offer, id).await;
        let settled = table.cmd(who, command).await;
        assert!(settled.says(said).is_some(), "{}", text(&settled));
        assert_eq!(
            settled.placement,
            Placement::New,
            "{command}: a new message"
        );
        assert_eq!(settled.pressed.as_deref(), Some(id));
        let next = (id.parse::<u32>().expect("a number") + 1).to_string();
        let stripped = table.service.reply_sent(&settled, Some(&next)).await;
        let post = stripped
            .iter()
            .find(|s| s.message_id == id)
            .unwrap_or_else(|| panic!("{command}: the post is stripped: {stripped:?}"));
        assert!(post.text);
        assert!(settled.pressed_is_text);
        assert!(!settled.pressed_then.is_empty());
        assert_eq!(
            post.caption.as_ref().map(|c| &c.spans),
            Some(&settled.pressed_then),
            "{command}: it says what the answer said"
        );
    }

    store.close().await;
}
