//! Endings with closure (issue 37, item 7), on SQLite and PostgreSQL: a result notifies every
//! person who played, names each side with its people, says how many moves and how long, each
//! stake and who takes the pot (or that the stakes go back), and carries Replay, Record and
//! Rematch; Rematch makes the same challenge to the same people (or, against the computer,
//! starts the same game at once), and only a player of the game may press it.

use crate::common;

use common::connect;
use common::said::{coins, num, people, said, said_all};
use common::table::{Lcg, T0, Table, challenge_no, start, text};
use tabula_core::GameId;
use tabula_service::service::{Clock, FileKind, Kind, Placement, Reply, UserError};
use tabula_service::store::{ChallengeNo, DatabaseUrl, GameNo, GameStatus};

on_both_databases! {
    a_result_tells_who_played_how_long_and_what_became_of_the_stakes => closure;
    rematch_makes_the_same_challenge_to_the_same_people => rematch;
    rematch_against_the_computer_starts_the_same_game => rematch_computer;
}

/// The data of the buttons under a result.
fn ending_buttons(reply: &Reply) -> Vec<String> {
    reply.all_buttons().map(|b| b.data.clone()).collect()
}

async fn closure(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::with_clock(store.clone(), 7, Clock::manual(T0));
    let game = start(&table, "alice", "bob", "konane stake=50 time=2d").await;
    let mut lcg = Lcg(11);
    for _ in 0..3 {
        table.random_move(game, &mut lcg).await.expect("a move");
    }
    let ended = table.confirmed("bob", &format!("/resign #{game}")).await;
    assert!(ended.is_done(), "{}", text(&ended));
    assert_eq!(ended.placement, Placement::NewBoard, "the final board");

    // Everyone who played is notified, and each side is named with its people.
    let mut notified = ended.notify.clone();
    notified.sort();
    assert_eq!(notified, vec!["alice".to_string(), "bob".to_string()]);
    let played = said(&ended, "result-played");
    assert_eq!(num(played, "moves"), 3, "three moves: {}", text(&ended));
    let sides = said_all(&ended, "result-side");
    assert_eq!(sides.len(), 2, "{}", text(&ended));
    let mut sided: Vec<String> = sides.iter().flat_map(|s| people(s, "people")).collect();
    sided.sort();
    assert_eq!(sided, vec!["alice".to_string(), "bob".to_string()]);

    // The stakes: 50 each; Alice takes the pot of 100.
    let pot = said(&ended, "pot-taken");
    assert_eq!(
        (
            coins(pot, "stake"),
            coins(pot, "pot"),
            people(pot, "people")
        ),
        (50, 100, vec!["alice".to_string()])
    );

    // Replay, Record, Rematch.
    assert_eq!(
        ending_buttons(&ended),
        vec![format!("v{game}"), format!("e{game}"), format!("n{game}")]
    );
    let replay = table.press("carol", &format!("v{game}")).await;
    assert!(replay.is_done(), "{}", text(&replay));
    assert_eq!(
        replay.file.as_ref().map(|f| f.kind),
        Some(FileKind::Animation)
    );
    let record = table.press("carol", &format!("e{game}")).await;
    assert_eq!(
        record.file.as_ref().map(|f| f.kind),
        Some(FileKind::Document)
    );

    // Pressed on the result (message 700), Replay posts the replay, which takes the buttons
    // not yet used (the result loses its own, nothing else said on it); Record pressed under
    // the replay (701) leaves only Rematch, under the record.
    let mut press = table.button("dave", &format!("v{game}"));
    press.pressed = Some("700".into());
    let replay = table.send(&press).await;
    assert_eq!(replay.pressed.as_deref(), Some("700"));
    assert_eq!(
        ending_buttons(&replay),
        vec![format!("e{game}.6"), format!("n{game}.6")]
    );
    table
        .service
        .board_posted(&ended, "700")
        .await
        .expect("the result");
    let stripped = table.service.reply_sent(&replay, Some("701")).await;
    let result = stripped
        .iter()
        .find(|s| s.message_id == "700")
        .unwrap_or_else(|| panic!("the result loses its buttons: {stripped:?}"));
    assert!(result.caption.is_none(), "the result keeps its words");
    let mut press = table.button("dave", &format!("e{game}.6"));
    press.pressed = Some("701".into());
    let record = table.send(&press).await;
    assert_eq!(ending_buttons(&record), vec![format!("n{game}.4")]);
    let mut press = table.button("bob", &format!("n{game}.4"));
    press.pressed = Some("702".into());
    let again = table.send(&press).await;
    assert!(again.says("challenge-named").is_some(), "{}", text(&again));
    table.cmd("bob", "/cancel").await;

    // Only a player of the game makes its rematch.
    let refused = table.press("carol", &format!("n{game}")).await;
    assert_eq!(refused.kind, Kind::Refused(UserError::NotAPlayer(game)));
    assert_eq!(table.pending_challenges().await, 0, "nothing was made");

    // An abort: the stakes go back, and the result says so.
    let aborted = start(&table, "alice", "bob", "konane stake=20").await;
    let ended = table
        .confirmed("alice", &format!("/abort #{aborted}"))
        .await;
    assert!(ended.says("stakes-returned").is_some(), "{}", text(&ended));
    assert_eq!(num(said(&ended, "result-played"), "moves"), 0);
    assert_eq!(ending_buttons(&ended).len(), 3);
    store.close().await;
}

async fn rematch(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::with_clock(store.clone(), 8, Clock::manual(T0));
    let game = start(&table, "alice", "bob", "konane size=6 stake=30 time=3d").await;
    let ended = table.confirmed("alice", &format!("/resign #{game}")).await;
    assert_eq!(table.record(game).await.status, GameStatus::Finished);
    let old = table.record(game).await;

    // The loser asks for a rematch: the same challenge, to the winner.
    let asked = table.press("alice", &format!("n{game}")).await;
    assert!(asked.is_done(), "{:?}: {}", asked.kind, text(&asked));
    let no = challenge_no(&asked);
    let challenge = table
        .store()
        .challenge(ChallengeNo(no))
        .await
        .expect("store")
        .expect("a challenge");
    let bob = old
        .seats
        .iter()
        .find(|h| h.user.platform_user_id == "bob")
        .map(|h| h.user.id)
        .expect("bob played");
    assert_eq!(
        (
            challenge.game,
            challenge.options.as_str(),
            challenge.stake,
            challenge.move_millis,
            challenge.invited.clone(),
        ),
        (GameId::Konane, "size=6", 30, 3 * 86_400_000, vec![bob]),
        "the same game, options, stake and time, to the same person"
    );
    assert!(ended.all_buttons().any(|b| b.data == format!("n{game}")));

    // Pressed again while it waits: the same challenge is not made twice.
    let again = table.press("alice", &format!("n{game}")).await;
    assert_eq!(
        again.kind,
        Kind::Refused(UserError::SameChallenge(ChallengeNo(no)))
    );

    // Bob accepts: the rematch is played on the same terms.
    let accepted = table.cmd("bob", &format!("/accept #{no}")).await;
    let Some(second) = accepted.game else {
        panic!("no game started: {}", text(&accepted));
    };
    assert_ne!(second, game);
    let record = table.record(second).await;
    assert_eq!(
        (record.options.as_str(), record.stake, record.move_millis),
        ("size=6", 30, 3 * 86_400_000)
    );
    store.close().await;
}

async fn rematch_computer(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::with_clock(store.clone(), 9, Clock::manual(T0));
    let started = table.cmd("alice", "/play koan computer level=3").await;
    let Some(game) = started.game else {
        panic!("no game: {}", text(&started));
    };
    let ended = table.confirmed("alice", &format!("/resign #{game}")).await;
    assert!(ended.is_done(), "{}", text(&ended));
    assert_eq!(
        ended.notify,
        vec!["alice".to_string()],
        "the person is notified, the computer is not"
    );
    let again = table.press("alice", &format!("n{game}")).await;
    let Some(second) = again.game else {
        panic!("no game: {:?}: {}", again.kind, text(&again));
    };
    assert_ne!(second, game);
    let record = table.record(second).await;
    let mut holders: Vec<String> = record
        .seats
        .iter()
        .map(|h| h.user.platform_user_id.clone())
        .collect();
    holders.sort();
    assert_eq!(holders, vec!["alice".to_string(), "level-3".to_string()]);
    assert_eq!(record.status, GameStatus::Active);
    let _: GameNo = second;
    store.close().await;
}
