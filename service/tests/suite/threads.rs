//! A thread or topic per game (`/config threads=on`, issue 38), through the service: a game
//! started in a channel that wants them has its first board open its thread (delivered
//! through the outbox), moves there when the adapter reports the thread, gets one line in the
//! channel at its start and one at its end, and its thread closed then, once; commands in the
//! thread act on its game without a number; a refused thread leaves the game in the channel
//! with the reason said. On SQLite and PostgreSQL.

use crate::common;

use std::time::Duration;

use common::connect;
use common::table::{Lcg, Table, scripted_dice, text};
use tabula_service::service::{
    Clock, Place, Placement, Reply, Service, SettingError, ThreadRefusal, UserError,
};
use tabula_service::store::{DatabaseUrl, Platform, Store, ThreadState};

on_both_databases! {
    each_game_gets_its_own_thread_and_the_channel_a_line_at_its_start_and_end => threads;
    a_refused_thread_leaves_the_game_in_the_channel_with_the_reason => refused;
    threads_on_needs_a_chat_that_can_hold_them => setting;
}

/// A Telegram forum's general topic, whose service announces (as `tabula run` does).
fn forum(store: &Store, seed: u64, clock: &Clock) -> Table {
    let mut table = Table::with_service(
        Service::new(store.clone(), scripted_dice(seed))
            .with_pictures(false)
            .with_cooldown(None)
            .with_clock(clock.clone())
            .with_announcements("threads-test", Duration::from_secs(10)),
        clock.clone(),
    );
    table.platform = Platform::Telegram;
    table.chat = ("-1005550", "Forum");
    table.community = Some(("-1005550", "Forum"));
    table.threads = true;
    table
}

/// The same forum's topic `key` (`<chat>:<topic>`).
fn topic(store: &Store, seed: u64, clock: &Clock, key: &'static str, id: &'static str) -> Table {
    let mut table = forum(store, seed, clock);
    table.chat = (key, "Forum");
    table.thread = Some(id);
    table
}

/// Alice challenges Bob and he accepts: the answer to the acceptance.
async fn challenge(table: &Table, game: &str) -> Reply {
    let offer = table.cmd("alice", &format!("/play {game} @bob")).await;
    assert!(offer.is_done(), "{}", text(&offer));
    // Posted, as an adapter reports it (its announcement is done).
    table
        .service
        .board_posted(
            &offer,
            &format!("{}", 50 + offer.challenge.map_or(0, |c| c.0)),
        )
        .await
        .expect("posted");
    let accepted = table.cmd("bob", "/accept").await;
    assert!(accepted.is_done(), "{}", text(&accepted));
    accepted
}

/// A moderator turns threads on (the settings' post reported posted, as an adapter does).
async fn threads_on(table: &Table) {
    let set = table.cmd("mod", "/config threads=on").await;
    assert!(set.is_done(), "{}", text(&set));
    table
        .service
        .board_posted(&set, "40")
        .await
        .expect("posted");
}

/// The replies among `replies` that say `id`.
fn saying<'a>(replies: &'a [Reply], id: &str) -> Vec<&'a Reply> {
    replies.iter().filter(|r| r.says(id).is_some()).collect()
}

async fn setting(url: DatabaseUrl) {
    let store = connect(&url).await;
    let clock = Clock::manual(common::table::T0);
    let mut group = forum(&store, 1, &clock);
    group.threads = false;
    let refused = group.cmd("mod", "/config threads=on").await;
    assert!(
        matches!(
            refused.refusal(),
            Some(UserError::BadSetting(SettingError::ThreadsHere))
        ),
        "{:?}",
        refused.kind
    );
    let bad = group.cmd("mod", "/config threads=maybe").await;
    assert!(
        matches!(
            bad.refusal(),
            Some(UserError::BadSetting(SettingError::Threads(_)))
        ),
        "{:?}",
        bad.kind
    );
    let forum = forum(&store, 1, &clock);
    let not_moderator = forum.cmd("alice", "/config threads=on").await;
    assert!(not_moderator.refusal().is_some());
    let set = forum.cmd("mod", "/config threads=on").await;
    assert!(set.is_done(), "{}", text(&set));
    assert!(
        store
            .settings(forum.community().await)
            .await
            .expect("settings")
            .threads
    );
    // Off again, anywhere.
    assert!(group.cmd("mod", "/config threads=off").await.is_done());
    assert!(
        !store
            .settings(forum.community().await)
            .await
            .expect("settings")
            .threads
    );
    store.close().await;
}

async fn threads(url: DatabaseUrl) {
    let store = connect(&url).await;
    let clock = Clock::manual(common::table::T0);
    let channel = forum(&store, 2, &clock);
    threads_on(&channel).await;

    // Bob accepts: he is told the board comes in its thread; no board in the channel.
    let accepted = challenge(&channel, "konane").await;
    assert!(
        accepted.says("topic-coming").is_some(),
        "{}",
        text(&accepted)
    );
    assert!(accepted.picture.is_none() && accepted.game.is_none());
    assert_ne!(accepted.placement, Placement::NewBoard);
    let game = channel.active_games().await[0].id;
    assert_eq!(
        store.thread_state(game).await.expect("state"),
        Some(ThreadState::Wanted)
    );

    // The outbox delivers the first board at once, asking to open the thread.
    let delivered = channel.tick().await;
    let boards: Vec<&Reply> = delivered.iter().filter(|r| r.game == Some(game)).collect();
    assert_eq!(
        boards.len(),
        1,
        "{:?}",
        delivered.iter().map(text).collect::<Vec<_>>()
    );
    let board = boards[0];
    assert_eq!(board.placement, Placement::NewBoard);
    assert!(board.says("game-begins").is_some());
    let open = board.open_thread.as_ref().expect("the thread to open");
    assert!(open.name.contains(&format!("#{game}")), "{}", open.name);
    assert!(
        open.name.contains("ALICE") && open.name.contains("BOB"),
        "{}",
        open.name
    );
    assert!(open.name.chars().count() <= 100);
    assert_eq!(board.address.chat, "-1005550");

    // The adapter opened topic 77: the board goes there, and the game too.
    let moved = channel
        .service
        .thread_opened(board, "-1005550:77", &open.name)
        .await
        .expect("recorded");
    assert_eq!(moved.address.chat, "-1005550:77");
    assert!(moved.open_thread.is_none());
    channel
        .service
        .board_posted(&moved, "99")
        .await
        .expect("posted");
    assert!(matches!(
        store.thread_state(game).await.expect("state"),
        Some(ThreadState::Open { .. })
    ));
    // Reported twice (another process): the game stays in its first thread.
    let again = channel
        .service
        .thread_opened(board, "-1005550:78", &open.name)
        .await
        .expect("recorded");
    assert_eq!(again.address.chat, "-1005550:77");

    // The channel's line: the game, its players, a link to the thread.
    let lines = channel.tick().await;
    let started = saying(&lines, "topic-started");
    assert_eq!(
        started.len(),
        1,
        "{:?}",
        lines.iter().map(text).collect::<Vec<_>>()
    );
    assert_eq!(started[0].address.chat, "-1005550");
    assert!(matches!(
        &started[0].goto[..],
        [goto] if matches!(&goto.to, Place::Thread { chat, .. } if chat == "-1005550:77")
    ));
    assert!(channel.tick().await.is_empty(), "said once");

    // In the topic, commands act on its game without a number; the channel has another.
    let thread = topic(&store, 3, &clock, "-1005550:77", "77");
    challenge(&channel, "koan").await;
    channel.tick().await;
    let shown = thread.cmd("alice", "/board").await;
    assert_eq!(shown.game, Some(game), "{}", text(&shown));
    let mut lcg = Lcg(5);
    let (_, board) = thread.random_move(game, &mut lcg).await.expect("a move");
    assert_eq!(board.game, Some(game));
    thread
        .service
        .board_posted(&board, "100")
        .await
        .expect("posted");

    // The game ends (Bob resigns in the topic): the channel's line with the result and a link
    // to the last board, and the topic closed; once.
    let resigned = thread.confirmed("bob", "/resign").await;
    assert!(resigned.is_done(), "{}", text(&resigned));
    thread
        .service
        .board_posted(&resigned, "101")
        .await
        .expect("posted");
    let ended = channel.tick().await;
    let line = ended
        .iter()
        .find(|r| r.address.chat == "-1005550")
        .unwrap_or_else(|| {
            panic!(
                "{:?}",
                ended
                    .iter()
                    .map(|r| (r.address.chat.clone(), r.close_thread, text(r)))
                    .collect::<Vec<_>>()
            )
        });
    assert!(
        line.said.iter().any(|msg| msg.id.starts_with("result")),
        "the result: {}",
        text(line)
    );

    assert!(matches!(
        &line.goto[..],
        [goto] if matches!(&goto.to, Place::Message { chat, .. } if chat == "-1005550:77")
    ));
    let closes: Vec<&Reply> = ended.iter().filter(|r| r.close_thread).collect();
    assert_eq!(closes.len(), 1);
    assert_eq!(closes[0].address.chat, "-1005550:77");
    assert!(closes[0].spans.is_empty());
    assert!(matches!(
        store.thread_state(game).await.expect("state"),
        Some(ThreadState::Closed { .. })
    ));
    assert!(
        !channel.tick().await.iter().any(|r| r.close_thread),
        "closed once"
    );

    // A game started inside a topic stays there (a topic holds no other).
    let before = thread.active_games().await.len();
    let offer = thread.cmd("alice", "/play konane @bob").await;
    assert!(offer.is_done());
    let board = thread.cmd("bob", "/accept").await;
    assert_eq!(board.placement, Placement::NewBoard, "{}", text(&board));
    assert!(board.open_thread.is_none());
    assert_eq!(thread.active_games().await.len(), before + 1);

    // Rematch, pressed under the result in the closed topic: offered in the channel.
    let rematch = thread.press("bob", &format!("n{game}")).await;
    assert!(rematch.is_done(), "{}", text(&rematch));
    assert!(
        rematch.says("rematch-in-group").is_some(),
        "{}",
        text(&rematch)
    );
    assert_eq!(rematch.audience, tabula_service::service::Audience::Actor);
    let posted = channel.tick().await;
    assert!(
        posted
            .iter()
            .any(|r| r.address.chat == "-1005550"
                && common::table::challenge_button(r, 'a').is_some()),
        "the rematch's challenge in the channel: {:?}",
        posted.iter().map(text).collect::<Vec<_>>()
    );

    // Against the computer, when it moves first (its board supersedes the start's, waiting in
    // the outbox): the first board delivered opens the game's topic all the same.
    let forums = [
        ("-1005551", "Forum 1"),
        ("-1005552", "Forum 2"),
        ("-1005553", "Forum 3"),
        ("-1005554", "Forum 4"),
        ("-1005555", "Forum 5"),
        ("-1005556", "Forum 6"),
    ];
    let mut computer_first = false;
    for (seed, place) in (7..).zip(forums) {
        let mut vs_computer = forum(&store, seed, &clock);
        vs_computer.chat = place;
        vs_computer.community = Some(place);
        threads_on(&vs_computer).await;
        let started = vs_computer.cmd("carol", "/play konane computer").await;
        assert!(started.says("topic-coming").is_some(), "{}", text(&started));
        let computer_game = vs_computer.active_games().await[0].id;
        let delivered = vs_computer.tick().await;
        assert!(
            delivered
                .iter()
                .any(|r| r.game == Some(computer_game) && r.open_thread.is_some()),
            "{:?}",
            delivered.iter().map(text).collect::<Vec<_>>()
        );
        if vs_computer.record(computer_game).await.seq > 0 {
            computer_first = true;
            break;
        }
    }
    assert!(computer_first, "no seed gave the computer the first move");
    store.close().await;
}

async fn refused(url: DatabaseUrl) {
    let store = connect(&url).await;
    let clock = Clock::manual(common::table::T0);
    let channel = forum(&store, 4, &clock);
    threads_on(&channel).await;
    challenge(&channel, "konane").await;
    let game = channel.active_games().await[0].id;
    let delivered = channel.tick().await;
    let board = delivered
        .iter()
        .find(|r| r.game == Some(game))
        .expect("the first board");
    assert!(board.open_thread.is_some());
    // Telegram refused: the bot may not manage topics. The channel is told why, once.
    let notice = channel
        .service
        .thread_refused(board, Some(ThreadRefusal::ManageTopics))
        .await
        .expect("recorded")
        .expect("a notice");
    assert!(
        notice.says("thread-refused-manage-topics").is_some(),
        "{}",
        text(&notice)
    );
    assert_eq!(
        store.thread_state(game).await.expect("state"),
        Some(ThreadState::Refused)
    );
    let twice = channel
        .service
        .thread_refused(board, Some(ThreadRefusal::ManageTopics))
        .await
        .expect("recorded");
    assert!(twice.is_none(), "said once");
    // The game is played in the channel.
    let mut lcg = Lcg(6);
    let (_, next) = channel.random_move(game, &mut lcg).await.expect("a move");
    assert!(next.open_thread.is_none());
    let record = channel.record(game).await;
    assert_eq!(record.chat, channel.chat_ids().await.0);
    // Nothing is told of a thread that was never opened.
    let later = channel.tick().await;
    assert!(saying(&later, "topic-started").is_empty());
    assert!(!later.iter().any(|r| r.close_thread));
    store.close().await;
}
