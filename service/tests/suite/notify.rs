//! `/notify` (issue 38): each person's reminders, the half-time one (on unless turned off) and
//! a last call when a tenth of the time is left (off unless turned on), set by typing or by the
//! panel's buttons, honoured by the scheduler, each last call sent once however many schedulers
//! run. On SQLite and PostgreSQL.

use crate::common;

use std::sync::Arc;

use common::connect;
use common::said::{game_no, is_duration, moment, people, said};
use common::table::{HOUR, Lcg, T0, Table, start, text};
use tabula_service::service::{Audience, Clock, Placement, Reply, UserError};
use tabula_service::store::{DatabaseUrl, GameNo};

on_both_databases! {
    notify_shows_and_changes_a_persons_reminders => settings;
    a_last_call_comes_once_to_those_who_asked_for_it => last_calls;
    several_schedulers_send_each_last_call_once => several_schedulers;
    private_pings_go_where_each_person_chose => private_pings;
    a_refused_private_ping_is_told_in_the_group_once => refused_ping;
    several_schedulers_send_each_ping_once => several_pingers;
    in_pachisi_only_a_turn_back_within_a_minute_is_looking => pachisi_pings;
    mygames_lists_a_persons_games_in_every_chat_their_move_first => my_games;
    the_one_who_accepts_is_looking_and_the_challenger_is_pinged => accepted;
    reminders_go_where_the_person_is_told => private_reminders;
    quiet_hours_hold_pings_and_send_them_together_when_they_end => quiet_hours;
    the_daily_digest_lists_the_waiting_games_once_a_day => digest;
    private_reminders_wait_for_quiet_hours_to_end => quiet_reminders;
}

const MINUTE: i64 = 60 * 1000;

/// The panel's states: (half-time, last call), as `notify-shown` says them.
fn shown(reply: &Reply) -> (&'static str, &'static str) {
    let msg = said(reply, "notify-shown");
    let state = |name: &str| {
        let id = common::said::sub(msg, name).id;
        match id {
            "notify-on" => "on",
            "notify-off" => "off",
            other => panic!("{name}: {other}"),
        }
    };
    (state("halftime"), state("lastcall"))
}

/// The data of the panel's button that sets a switch (`o<user>.<code>`: 1 and 2 turn the
/// half-time reminder on and off, 3 and 4 the last call).
fn button(reply: &Reply, code: u8) -> String {
    reply
        .buttons
        .iter()
        .flatten()
        .find(|b| b.data.starts_with('o') && b.data.ends_with(&format!(".{code}")))
        .map(|b| b.data.clone())
        .unwrap_or_else(|| panic!("no button {code}: {:?}", reply.buttons))
}

/// Who is to move in a game.
pub(crate) async fn to_move(table: &Table, game: GameNo) -> String {
    table.state(game).await.1.expect("someone to move")
}

async fn settings(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 1);
    // The defaults: the half-time reminder on, no last call; private, with a button for each.
    let panel = table.cmd("alice", "/notify").await;
    assert!(panel.is_done(), "{}", text(&panel));
    assert_eq!(panel.audience, Audience::Actor);
    assert_eq!(shown(&panel), ("on", "off"));
    assert!(panel.says("notify-saved").is_none(), "nothing changed");
    assert_eq!(
        panel.buttons.len(),
        3,
        "the other places, then a row per switch: {:?}",
        panel.buttons
    );
    assert_eq!(
        panel.buttons[0].len(),
        3,
        "private, both, digest: {:?}",
        panel.buttons
    );

    // Typed.
    let set = table.cmd("alice", "/notify lastcall on").await;
    assert!(set.says("notify-saved").is_some(), "{}", text(&set));
    assert_eq!(shown(&set), ("on", "on"));
    let set = table.cmd("alice", "/notify Halftime OFF").await;
    assert_eq!(shown(&set), ("off", "on"));
    assert_eq!(shown(&table.cmd("alice", "/notify").await), ("off", "on"));
    // Someone else's are their own.
    assert_eq!(shown(&table.cmd("bob", "/notify").await), ("on", "off"));

    // Bad input is refused with what to type, and changes nothing.
    for bad in ["/notify lastcall", "/notify lastcall maybe", "/notify on"] {
        let refused = table.cmd("alice", bad).await;
        assert!(
            matches!(refused.refusal(), Some(UserError::UnknownNotify(_))),
            "{bad}: {:?}",
            refused.kind
        );
        assert!(refused.says("notify-unknown").is_some());
    }
    assert_eq!(shown(&table.cmd("alice", "/notify").await), ("off", "on"));

    // The panel's buttons: one press switches, edits the panel and says so in a toast.
    let panel = table.cmd("alice", "/notify").await;
    let on = button(&panel, 1);
    let pressed = table.press("alice", &on).await;
    assert!(pressed.is_done(), "{}", text(&pressed));
    assert_eq!(pressed.placement, Placement::UpdatePressed);
    assert_eq!(shown(&pressed), ("on", "on"));
    assert!(pressed.says("notify-halftime").is_some(), "a toast says it");
    assert!(!pressed.toast.is_empty());
    // Pressed again (a double tap): the same settings, nothing else changes.
    let again = table.press("alice", &on).await;
    assert_eq!(shown(&again), ("on", "on"));
    // Someone else's panel is not theirs to press.
    let off = button(&pressed, 4);
    let other = table.press("bob", &off).await;
    assert!(
        matches!(other.refusal(), Some(UserError::NotYourSettings)),
        "{:?}",
        other.kind
    );
    assert_eq!(shown(&table.cmd("alice", "/notify").await), ("on", "on"));
    assert_eq!(shown(&table.cmd("bob", "/notify").await), ("on", "off"));
    // A forged button is refused.
    let forged = table.press("alice", "o1.10").await;
    assert!(matches!(forged.refusal(), Some(UserError::BadButton)));
    store.close().await;
}

/// The last call a reply says: whom, in which game, whether `left` is the time it says is
/// left, and the deadline.
fn last_call(reply: &Reply, left: i64) -> (Vec<String>, GameNo, bool, i64) {
    let msg = said(reply, "last-call");
    (
        people(msg, "player"),
        game_no(msg, "game"),
        is_duration(msg, "left", left),
        moment(msg, "until"),
    )
}

async fn last_calls(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 2);
    // A game of ten hours a move: half time at 5 hours, the last call at 9.
    let game = start(&table, "alice", "bob", "konane time=10h").await;
    let first = to_move(&table, game).await;
    let second = if first == "alice" { "bob" } else { "alice" };
    table.cmd(&first, "/notify lastcall on").await;
    table.cmd(&first, "/notify halftime off").await;
    table.clock.advance(5 * HOUR + MINUTE);
    assert!(
        table.tick().await.is_empty(),
        "no half-time reminder for whoever turned it off"
    );
    table.clock.advance(4 * HOUR - 2 * MINUTE);
    assert!(table.tick().await.is_empty(), "not a tenth left yet");
    table.clock.advance(2 * MINUTE);
    let replies = table.tick().await;
    assert_eq!(
        replies.len(),
        1,
        "{:?}",
        replies.iter().map(text).collect::<Vec<_>>()
    );
    assert_eq!(
        last_call(&replies[0], HOUR - MINUTE),
        (vec![first.clone()], game, true, T0.0 + 10 * HOUR)
    );
    assert_eq!(
        replies[0].notify,
        std::slice::from_ref(&first),
        "the player is notified"
    );
    assert_eq!(replies[0].address.chat, "chat1");
    assert!(table.tick().await.is_empty(), "called once");

    // The move restarts the clock; the other player kept the defaults: reminded at half
    // time, no last call.
    let (_, played) = table
        .random_move(game, &mut Lcg(7))
        .await
        .expect("a legal move");
    assert!(played.is_done(), "{}", text(&played));
    assert_eq!(to_move(&table, game).await, second);
    table.clock.advance(5 * HOUR + MINUTE);
    let replies = table.tick().await;
    assert_eq!(replies.len(), 1);
    assert!(
        replies[0].says("reminder").is_some(),
        "{}",
        text(&replies[0])
    );
    table.clock.advance(4 * HOUR);
    assert!(table.tick().await.is_empty(), "no last call unasked");
    store.close().await;
}

async fn several_schedulers(url: DatabaseUrl) {
    let clock = Clock::manual(T0);
    let store = connect(&url).await;
    let table = Table::with_clock(store.clone(), 12, clock.clone());
    let players = ["a", "b", "c", "d", "e", "f", "g", "h"];
    let mut games = Vec::new();
    for pair in players.chunks(2) {
        let game = start(&table, pair[0], pair[1], "konane time=1d").await;
        for player in pair {
            table.cmd(player, "/notify lastcall on").await;
        }
        games.push(game);
    }
    // Past half time and into the last tenth at once: each game's reminder and last call.
    clock.advance(22 * HOUR);
    let mut instances = Vec::new();
    for seed in 0..4 {
        instances.push(Table::with_clock(
            connect(&url).await,
            200 + seed,
            clock.clone(),
        ));
    }
    let barrier = Arc::new(tokio::sync::Barrier::new(instances.len()));
    let mut tasks = Vec::new();
    for instance in instances {
        let barrier = Arc::clone(&barrier);
        tasks.push(tokio::spawn(async move {
            barrier.wait().await;
            let calls: Vec<_> = instance
                .tick()
                .await
                .iter()
                .filter(|reply| reply.says("last-call").is_some())
                .map(|reply| last_call(reply, 2 * HOUR))
                .collect();
            instance.store().close().await;
            calls
        }));
    }
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await.expect("scheduler task"));
    }
    all.sort();
    let mut expected = Vec::new();
    for game in &games {
        expected.push((
            vec![to_move(&table, *game).await],
            *game,
            true,
            T0.0 + 24 * HOUR,
        ));
    }
    expected.sort();
    assert_eq!(all, expected, "one last call per game");
    assert!(table.tick().await.is_empty());
    store.close().await;
}

/// The private pings among `replies`: (to whom, which game).
pub(crate) fn pings(replies: &[Reply]) -> Vec<(String, GameNo)> {
    replies
        .iter()
        .filter(|reply| reply.says("ping-your-move").is_some())
        .map(|reply| {
            (
                reply.address.chat.clone(),
                game_no(said(reply, "ping-your-move"), "game"),
            )
        })
        .collect()
}

/// The games listed (`ping-line`) by the one reply among `replies` headed `heading`, which
/// must go to private chat `to`.
pub(crate) fn listed_privately(replies: &[Reply], heading: &str, to: &str) -> Vec<GameNo> {
    let found: Vec<&Reply> = replies
        .iter()
        .filter(|reply| reply.says(heading).is_some())
        .collect();
    assert_eq!(
        found.len(),
        1,
        "one {heading}: {:?}",
        replies.iter().map(text).collect::<Vec<_>>()
    );
    assert_eq!(found[0].address.chat, to);
    found[0]
        .said
        .iter()
        .filter(|msg| msg.id == "ping-line")
        .map(|msg| game_no(msg, "game"))
        .collect()
}

/// Plays a legal move for whoever is to move in `game`: the board it makes.
pub(crate) async fn play(table: &Table, game: GameNo, lcg: &mut Lcg) -> Reply {
    let (_, board) = table.random_move(game, lcg).await.expect("a legal move");
    assert!(board.is_done(), "{}", text(&board));
    board
}

async fn private_pings(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 3);
    let mut lcg = Lcg(11);
    let game = start(&table, "alice", "bob", "konane time=1d").await;
    // Whoever is to move first plays, so that Bob (say) is to move next.
    let first = to_move(&table, game).await;
    let second = if first == "alice" { "bob" } else { "alice" };

    // The default: the board mentions the player; nothing private.
    let board = play(&table, game, &mut lcg).await;
    assert_eq!(board.notify, [second.to_string()]);
    assert!(
        pings(&table.tick().await).is_empty(),
        "no private ping by default"
    );
    play(&table, game, &mut lcg).await;

    // `private`: the board names them without a mention, and a private ping goes to their
    // private chat, saying the game, the chat and the time left, with a link to the board.
    let set = table.cmd(second, "/notify private").await;
    assert!(set.says("notify-saved").is_some(), "{}", text(&set));
    table.clock.advance(2 * MINUTE);
    let board = play(&table, game, &mut lcg).await;
    assert!(board.notify.is_empty(), "no mention: {:?}", board.notify);
    let replies = table.tick().await;
    assert_eq!(pings(&replies), [(format!("private-{second}"), game)]);
    let ping = replies
        .iter()
        .find(|r| r.says("ping-your-move").is_some())
        .expect("ping");
    assert!(is_duration(said(ping, "ping-your-move"), "left", 24 * HOUR));
    assert!(ping.buttons.is_empty(), "the game is played in its chat");
    assert!(table.tick().await.is_empty(), "pinged once");

    // The ping's own move pings nobody privately; the opponent (who chose the chat) is
    // mentioned.
    table.clock.advance(2 * MINUTE);
    let board = play(&table, game, &mut lcg).await;
    assert_eq!(board.notify, std::slice::from_ref(&first));
    assert!(pings(&table.tick().await).is_empty());

    // A reply within a minute of their own move: they are looking, no ping.
    let board = play(&table, game, &mut lcg).await;
    assert!(board.notify.is_empty());
    assert!(pings(&table.tick().await).is_empty(), "looking: no ping");

    // `both`: the mention and a ping.
    table.cmd(second, "/notify both").await;
    table.clock.advance(2 * MINUTE);
    play(&table, game, &mut lcg).await;
    table.clock.advance(2 * MINUTE);
    let board = play(&table, game, &mut lcg).await;
    assert_eq!(board.notify, [second.to_string()]);
    assert_eq!(
        pings(&table.tick().await),
        [(format!("private-{second}"), game)]
    );

    // The moderators turn private pings off: mentions only, whatever people chose.
    let off = table.cmd("mod", "/config pings=off").await;
    assert!(off.is_done(), "{}", text(&off));
    table.cmd(second, "/notify private").await;
    table.clock.advance(2 * MINUTE);
    play(&table, game, &mut lcg).await;
    table.clock.advance(2 * MINUTE);
    let board = play(&table, game, &mut lcg).await;
    assert_eq!(board.notify, [second.to_string()], "mentioned again");
    assert!(
        pings(&table.tick().await).is_empty(),
        "no private pings here"
    );
    store.close().await;
}

async fn refused_ping(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 4);
    let mut lcg = Lcg(12);
    let game = start(&table, "alice", "bob", "konane time=1d").await;
    let first = to_move(&table, game).await;
    let second = if first == "alice" { "bob" } else { "alice" };
    table.cmd(second, "/notify private").await;
    table.clock.advance(2 * MINUTE);
    play(&table, game, &mut lcg).await;
    // The platform refuses the private message for good (Telegram: the person never started
    // the bot; Discord: direct messages closed), as the dispatcher reports it.
    table.service.schedule().await.expect("scheduled");
    let chat = store
        .upsert_chat(
            tabula_service::store::Platform::Local,
            &format!("private-{second}"),
            "",
            None,
        )
        .await
        .expect("the private chat");
    let rows = store.outbox_rows(chat.id).await.expect("rows");
    assert_eq!(rows.len(), 1, "one ping waits");
    assert!(
        store
            .ping_refused(&rows[0], table.clock.now())
            .await
            .expect("recorded")
    );
    assert!(
        !store
            .ping_refused(&rows[0], table.clock.now())
            .await
            .expect("recorded"),
        "told once"
    );
    let replies = table.tick().await;
    let hints: Vec<&Reply> = replies
        .iter()
        .filter(|reply| reply.says("ping-unreachable").is_some())
        .collect();
    assert_eq!(
        hints.len(),
        1,
        "{:?}",
        replies.iter().map(text).collect::<Vec<_>>()
    );
    assert_eq!(hints[0].address.chat, "chat1", "in the game's chat");
    assert_eq!(hints[0].notify, [second.to_string()], "to the person");
    assert!(
        matches!(
            hints[0].goto.first().map(|g| &g.to),
            Some(tabula_service::service::Place::PrivateChat)
        ),
        "with the way to the private chat"
    );
    // Meanwhile the board mentions them again, and `/notify` says why.
    table.clock.advance(2 * MINUTE);
    play(&table, game, &mut lcg).await;
    let board = play(&table, game, &mut lcg).await;
    assert_eq!(board.notify, [second.to_string()]);
    let panel = table.cmd(second, "/notify").await;
    assert!(
        panel.says("notify-unreachable").is_some(),
        "{}",
        text(&panel)
    );
    store.close().await;
}

async fn several_pingers(url: DatabaseUrl) {
    let clock = Clock::manual(T0);
    let store = connect(&url).await;
    let table = Table::with_clock(store.clone(), 13, clock.clone());
    let mut lcg = Lcg(13);
    let players = ["a", "b", "c", "d", "e", "f", "g", "h"];
    let mut games = Vec::new();
    for pair in players.chunks(2) {
        let game = start(&table, pair[0], pair[1], "konane time=1d").await;
        for player in pair {
            table.cmd(player, "/notify private").await;
        }
        games.push(game);
    }
    clock.advance(2 * MINUTE);
    for game in &games {
        play(&table, *game, &mut lcg).await;
    }
    let mut instances = Vec::new();
    for seed in 0..4 {
        instances.push(Table::with_clock(
            connect(&url).await,
            300 + seed,
            clock.clone(),
        ));
    }
    let barrier = Arc::new(tokio::sync::Barrier::new(instances.len()));
    let mut tasks = Vec::new();
    for instance in instances {
        let barrier = Arc::clone(&barrier);
        tasks.push(tokio::spawn(async move {
            barrier.wait().await;
            let sent = pings(&instance.tick().await);
            instance.store().close().await;
            sent
        }));
    }
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await.expect("pinger task"));
    }
    all.sort();
    let mut expected = Vec::new();
    for game in &games {
        expected.push((format!("private-{}", to_move(&table, *game).await), *game));
    }
    expected.sort();
    assert_eq!(all, expected, "one ping per turn");
    assert!(table.tick().await.is_empty());
    store.close().await;
}

/// Four people, each told privately: turns that pass quickly from one to the next still ping
/// each next player (they have not acted in the game for a while); the turn that comes back
/// to the first within a minute of their own move does not (they are looking).
async fn pachisi_pings(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 5);
    let mut lcg = Lcg(14);
    for person in ["alice", "bob", "carol", "dave"] {
        table.cmd(person, "/notify private").await;
    }
    let offer = table.cmd("alice", "/play pachisi @bob @carol @dave").await;
    assert!(offer.is_done(), "{}", text(&offer));
    let mut started = None;
    for person in ["bob", "carol", "dave"] {
        started = table.cmd(person, "/accept").await.game.or(started);
    }
    let game = started.expect("the game began");
    let opener = to_move(&table, game).await;
    assert_eq!(
        pings(&table.tick().await),
        [(format!("private-{opener}"), game)],
        "the first player, at the start"
    );
    table.clock.advance(2 * MINUTE);
    // Whoever is to act plays at once, until the turn comes back to the opener.
    let mut holders = vec![opener.clone()];
    let mut pinged = Vec::new();
    for _ in 0..200 {
        play(&table, game, &mut lcg).await;
        pinged.extend(pings(&table.tick().await));
        let now = to_move(&table, game).await;
        if holders.last() != Some(&now) {
            if now == opener {
                break;
            }
            holders.push(now);
        }
    }
    assert_eq!(holders.len(), 4, "the turn went round: {holders:?}");
    let expected: Vec<(String, GameNo)> = holders[1..]
        .iter()
        .map(|holder| (format!("private-{holder}"), game))
        .collect();
    assert_eq!(
        pinged, expected,
        "each next player, not the opener back within a minute"
    );
    store.close().await;
}

/// `/mygames`: Alice's games in two chats, those where it is her move first (the nearest
/// deadline first), then the others, each with a link to its newest board; a page of eight
/// with a button to the next; someone with no game is told so.
async fn my_games(url: DatabaseUrl) {
    let store = connect(&url).await;
    let here = Table::new(store.clone(), 6);
    let mut there = Table::with_clock(store.clone(), 7, here.clock.clone());
    there.chat = ("chat2", "Other group");
    let none = here.cmd("alice", "/mygames").await;
    assert!(
        matches!(none.refusal(), Some(UserError::NoGamesAnywhere)),
        "{:?}",
        none.kind
    );
    // Three games here (a day a move), two there (two days a move).
    let mut games = Vec::new();
    for opponent in ["bob", "carol", "dave"] {
        games.push((
            start(&here, "alice", opponent, "konane time=1d").await,
            "chat1",
        ));
    }
    for opponent in ["erin", "frank"] {
        games.push((
            start(&there, "alice", opponent, "koan time=2d").await,
            "chat2",
        ));
    }
    // The newest board of the first game is a message the bot posted.
    let board = here.cmd("alice", &format!("/board #{}", games[0].0)).await;
    here.service
        .board_posted(&board, "900")
        .await
        .expect("recorded");
    let mut mine = Vec::new();
    let mut theirs = Vec::new();
    for (game, chat) in &games {
        let table = if *chat == "chat1" { &here } else { &there };
        if to_move(table, *game).await == "alice" {
            mine.push(*game);
        } else {
            theirs.push(*game);
        }
    }
    let listed = |reply: &Reply| -> Vec<GameNo> {
        reply
            .said
            .iter()
            .filter(|msg| msg.id == "mygames-line")
            .map(|msg| game_no(msg, "game"))
            .collect()
    };
    for table in [&here, &there] {
        let inbox = table.cmd("alice", "/mygames").await;
        assert!(inbox.is_done(), "{}", text(&inbox));
        assert_eq!(inbox.audience, Audience::Actor);
        // Her move first, by deadline (the one-day games before the two-day ones), then the
        // others by deadline.
        let mut expected = mine.clone();
        expected.extend(theirs.iter().copied());
        assert_eq!(listed(&inbox), expected, "{}", text(&inbox));
        let heading = said(&inbox, "mygames-heading");
        assert_eq!(common::said::num(heading, "count"), 5);
        assert_eq!(
            common::said::num(heading, "mine"),
            i64::try_from(mine.len()).expect("a count")
        );
        assert_eq!(inbox.goto.len(), 1, "a link where a board was posted");
        assert!(matches!(
            &inbox.goto[0].to,
            tabula_service::service::Place::Message { chat, message, .. }
                if chat == "chat1" && message == "900"
        ));
    }
    // Bob sees only his own.
    let bobs = here.cmd("bob", "/mygames").await;
    assert_eq!(listed(&bobs), [games[0].0]);

    // Many games: pages of eight, a button to the next, back to the first.
    for n in 0..6 {
        let opponent = ["g1", "g2", "g3", "g4", "g5", "g6"][n];
        start(&here, "alice", opponent, "konane time=3d").await;
    }
    let first = here.cmd("alice", "/mygames").await;
    assert_eq!(listed(&first).len(), 8);
    let next = first.buttons[0][0].data.clone();
    let second = here.press("alice", &next).await;
    assert_eq!(second.placement, Placement::UpdatePressed, "in place");
    assert_eq!(listed(&second).len(), 3);
    let mut all = listed(&first);
    all.extend(listed(&second));
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 11, "every game once");
    let back = here.press("alice", &second.buttons[0][0].data).await;
    assert_eq!(listed(&back), listed(&first));
    store.close().await;
}

/// The first turn of a game: the one who just accepted is looking (no ping); the challenger,
/// whose challenge waited, is pinged when the first turn is theirs. Seats are drawn by lot:
/// several games, until each case was seen.
async fn accepted(url: DatabaseUrl) {
    let store = connect(&url).await;
    let mut seen = (false, false);
    for seed in 20..40 {
        let table = Table::new(store.clone(), seed);
        let (challenger, acceptor) = (format!("c{seed}"), format!("a{seed}"));
        for person in [&challenger, &acceptor] {
            table.cmd(person, "/notify private").await;
        }
        table
            .cmd(&challenger, &format!("/play konane @{acceptor}"))
            .await;
        table.clock.advance(5 * MINUTE);
        let started = table.cmd(&acceptor, "/accept").await;
        let game = started.game.expect("the game began");
        let first = to_move(&table, game).await;
        let sent = pings(&table.tick().await);
        if first == challenger {
            assert_eq!(sent, [(format!("private-{challenger}"), game)]);
            seen.0 = true;
        } else {
            assert!(sent.is_empty(), "the acceptor is looking: {sent:?}");
            seen.1 = true;
        }
        if seen == (true, true) {
            break;
        }
    }
    assert_eq!(seen, (true, true), "both cases were drawn");
    store.close().await;
}

/// A person told privately only gets their reminders privately too (no buttons, which act in
/// the game's chat; a link to the board instead); with `both`, in the game's chat as always.
async fn private_reminders(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 8);
    let game = start(&table, "alice", "bob", "konane time=10h").await;
    let first = to_move(&table, game).await;
    table.cmd(&first, "/notify private").await;
    table.cmd(&first, "/notify lastcall on").await;
    let board = table.cmd(&first, &format!("/board #{game}")).await;
    table
        .service
        .board_posted(&board, "800")
        .await
        .expect("recorded");
    table.clock.advance(5 * HOUR + MINUTE);
    let replies = table.tick().await;
    let reminders: Vec<&Reply> = replies
        .iter()
        .filter(|r| r.says("reminder").is_some())
        .collect();
    assert_eq!(
        reminders.len(),
        1,
        "{:?}",
        replies.iter().map(text).collect::<Vec<_>>()
    );
    assert_eq!(reminders[0].address.chat, format!("private-{first}"));
    assert_eq!(
        common::said::text_arg(said(reminders[0], "said-in-chat"), "chat"),
        table.chat.1,
        "a private reminder names the game's chat"
    );
    assert!(reminders[0].buttons.is_empty());
    assert!(matches!(
        reminders[0].goto.first().map(|g| &g.to),
        Some(tabula_service::service::Place::Message { message, .. }) if message == "800"
    ));
    // With both, the last call is said in the game's chat, with its Board button.
    table.cmd(&first, "/notify both").await;
    table.clock.advance(4 * HOUR);
    let replies = table.tick().await;
    let calls: Vec<&Reply> = replies
        .iter()
        .filter(|r| r.says("last-call").is_some())
        .collect();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].address.chat, "chat1");
    assert!(!calls[0].buttons.is_empty());
    store.close().await;
}

/// Quiet hours: nothing is sent privately while they hold; when they end, what came due is
/// sent in one message naming every game; `/notify quiet off` ends them; bad input changes
/// nothing.
async fn quiet_hours(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 9);
    let mut lcg = Lcg(15);
    table.cmd("bob", "/notify private").await;
    // T0 is 12:00 UTC: quiet from 11:00 to 14:00.
    let set = table.cmd("bob", "/notify quiet 11:00-14:00 UTC").await;
    assert!(set.says("notify-quiet").is_some(), "{}", text(&set));
    for bad in [
        "/notify quiet 11-14",
        "/notify quiet on",
        "/notify quiet 11:00-14:00 Mars/Olympus",
    ] {
        let refused = table.cmd("bob", bad).await;
        assert!(
            matches!(
                refused.refusal(),
                Some(UserError::BadQuiet | UserError::UnknownZone(_))
            ),
            "{bad}: {:?}",
            refused.kind
        );
    }
    let mut games = Vec::new();
    for opponent in ["alice", "carol"] {
        let game = start(&table, "bob", opponent, "konane time=1d").await;
        if to_move(&table, game).await != "bob" {
            play(&table, game, &mut lcg).await;
        }
        assert_eq!(to_move(&table, game).await, "bob");
        games.push(game);
    }
    table.clock.advance(MINUTE);
    assert!(pings(&table.tick().await).is_empty(), "quiet");
    let replies = table.tick().await;
    assert!(
        !replies.iter().any(|r| r.says("ping-several").is_some()),
        "still quiet"
    );
    // 14:00:30: the hours are over; both games in one message.
    table.clock.advance(2 * HOUR);
    let replies = table.tick().await;
    assert_eq!(
        listed_privately(&replies, "ping-several", "private-bob"),
        games,
        "every game concerned"
    );
    assert!(table.tick().await.is_empty(), "sent once");
    // The panel shows them, with a button that ends them.
    let panel = table.cmd("bob", "/notify").await;
    assert!(panel.says("notify-quiet").is_some());
    let off = panel
        .buttons
        .iter()
        .flatten()
        .find(|b| b.data.ends_with(".8"))
        .expect("a button that ends quiet hours")
        .data
        .clone();
    let ended = table.press("bob", &off).await;
    assert!(
        ended.says("notify-quiet-none").is_some(),
        "{}",
        text(&ended)
    );
    store.close().await;
}

/// The daily digest: chosen with its time, it replaces the mentions and the pings; once a day
/// at that time, one private message lists the games waiting for the person's move, the
/// nearest deadline first; nothing when none waits, and then the day's digest goes when one
/// comes to wait.
async fn digest(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 10);
    let mut lcg = Lcg(16);
    // T0 is 12:00 UTC; the digest at 13:00.
    let set = table.cmd("bob", "/notify digest 13:00 UTC").await;
    assert!(set.says("notify-digest").is_some(), "{}", text(&set));
    let bad = table.cmd("bob", "/notify digest 25:00").await;
    assert!(
        matches!(bad.refusal(), Some(UserError::BadDigest)),
        "{:?}",
        bad.kind
    );
    // Two games waiting for Bob: a two-day one first, then a one-day one (nearer deadline).
    let mut games = Vec::new();
    for (opponent, time) in [("alice", "2d"), ("carol", "1d")] {
        let game = start(&table, "bob", opponent, &format!("konane time={time}")).await;
        if to_move(&table, game).await != "bob" {
            let board = play(&table, game, &mut lcg).await;
            assert!(board.notify.is_empty(), "no mention for a digest reader");
        }
        games.push(game);
    }
    let replies = table.tick().await;
    assert!(pings(&replies).is_empty(), "no pings");
    assert!(
        !replies.iter().any(|r| r.says("digest-heading").is_some()),
        "not yet"
    );
    table.clock.advance(HOUR + MINUTE);
    let replies = table.tick().await;
    assert_eq!(
        listed_privately(&replies, "digest-heading", "private-bob"),
        [games[1], games[0]],
        "the nearest deadline first"
    );
    assert!(table.tick().await.is_empty(), "once a day");
    // The next day, with nothing waiting (Bob moved in both), nothing is sent.
    for game in &games {
        play(&table, *game, &mut lcg).await;
    }
    table.clock.advance(24 * HOUR);
    let replies = table.tick().await;
    assert!(
        !replies.iter().any(|r| r.says("digest-heading").is_some()),
        "nothing waits"
    );
    // Later that day a game comes to wait for him: the day's digest, not spent, goes then.
    let game = start(&table, "bob", "dave", "konane time=2d").await;
    if to_move(&table, game).await != "bob" {
        play(&table, game, &mut lcg).await;
    }
    table.clock.advance(HOUR);
    let replies = table.tick().await;
    assert_eq!(
        listed_privately(&replies, "digest-heading", "private-bob"),
        [game],
        "the day's digest when something waits"
    );
    assert!(table.tick().await.is_empty(), "once a day");
    store.close().await;
}

/// A reminder said privately waits while its person's quiet hours hold, and goes out when
/// they end; said in the game's chat, it does not wait.
async fn quiet_reminders(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 12);
    let game = start(&table, "alice", "bob", "konane time=10h").await;
    let first = to_move(&table, game).await;
    table.cmd(&first, "/notify private").await;
    // T0 is 12:00 UTC; the half-time reminder comes at 17:00, within quiet hours until 18:30.
    let set = table.cmd(&first, "/notify quiet 16:00-18:30 UTC").await;
    assert!(set.says("notify-quiet").is_some(), "{}", text(&set));
    let reminded = |replies: &[Reply]| {
        replies
            .iter()
            .filter(|r| r.says("reminder").is_some())
            .map(|r| r.address.chat.clone())
            .collect::<Vec<_>>()
    };
    table.clock.advance(5 * HOUR + MINUTE);
    assert!(
        reminded(&table.tick().await).is_empty(),
        "quiet until 18:30"
    );
    table.clock.advance(HOUR);
    assert!(
        reminded(&table.tick().await).is_empty(),
        "still quiet at 18:01"
    );
    table.clock.advance(30 * MINUTE);
    assert_eq!(
        reminded(&table.tick().await),
        [format!("private-{first}")],
        "sent when they end"
    );
    store.close().await;
}
