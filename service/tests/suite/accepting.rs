//! Accepting a challenge through the service: the last acceptance and the game it starts are
//! written in one transaction (`Store::accept_and_create_game`), on SQLite and PostgreSQL.

use crate::common;

use common::connect;
use common::table::{Table, number_after, text};
use tabula_service::service::UserError;
use tabula_service::store::{ChallengeNo, ChallengeStatus, DatabaseUrl, GameRecord, RequestKey};

on_both_databases! {
    a_last_acceptance_that_cannot_start_the_game_is_not_kept => unpaid_last_acceptance;
    racing_last_acceptances_start_one_game => racing_acceptances;
}

/// The platform ids of the people seated in a game, sorted.
fn seated(record: &GameRecord) -> Vec<&str> {
    let mut seated: Vec<&str> = record
        .seats
        .iter()
        .map(|holder| holder.user.platform_user_id.as_str())
        .collect();
    seated.sort_unstable();
    seated
}

/// Four-person Pachisi for 100 each, dave holding 50: bob and dave accept and wait; carol's
/// acceptance, the last, cannot start the game, and is not recorded either (nor its request),
/// so the challenge can still start or be cancelled. Once dave has the money, carol's next
/// acceptance starts the game with all four.
async fn unpaid_last_acceptance(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 8);
    table.cmd("mod", "/take @dave 950").await;
    let reply = table
        .cmd("alice", "/play pachisi @bob @carol @dave stake=100")
        .await;
    let no = ChallengeNo(number_after(&reply, "challenge #"));
    for name in ["bob", "dave"] {
        let reply = table.cmd(name, &format!("/accept #{no}")).await;
        assert!(reply.is_done() && reply.game.is_none(), "{}", text(&reply));
    }
    let request = table.command("carol", &format!("/accept #{no}"));
    let reply = table.send(&request).await;
    assert!(
        matches!(reply.refusal(), Some(UserError::CannotAfford { name, .. }) if name == "DAVE"),
        "{:?}",
        reply.kind
    );
    let challenge = store.challenge(no).await.ok().flatten().expect("challenge");
    assert_eq!(challenge.status, ChallengeStatus::Pending);
    let accepted: Vec<bool> = challenge
        .invitees
        .iter()
        .map(|invitee| invitee.accepted_at.is_some())
        .collect();
    assert_eq!(
        accepted,
        [true, false, true],
        "carol's acceptance is not kept"
    );
    let key = RequestKey {
        platform: request.platform,
        key: request.request_key.clone(),
    };
    assert_eq!(store.request_handled(&key).await.ok(), Some(false));
    assert!(table.active_games().await.is_empty());

    table.cmd("mod", "/grant @dave 50").await;
    let reply = table.cmd("carol", &format!("/accept #{no}")).await;
    let Some(game) = reply.game.filter(|_| reply.is_done()) else {
        panic!("the game should start: {}", text(&reply));
    };
    assert_eq!(
        seated(&table.record(game).await),
        ["alice", "bob", "carol", "dave"]
    );
    for name in ["alice", "bob", "carol"] {
        assert_eq!(table.balance(name).await, 900, "{name}");
    }
    assert_eq!(table.balance("dave").await, 0);
    table.assert_money_adds_up().await;
    store.close().await;
}

/// The two last invitees of four-person Pachisi accept at the same moment, several times over:
/// each time exactly one game starts, with all four seated, and the other acceptance is told
/// to wait or sees the game start; nothing is refused and no challenge is left pending.
async fn racing_acceptances(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 9);
    for round in 0..6 {
        let reply = table.cmd("alice", "/play pachisi @bob @carol @dave").await;
        let no = number_after(&reply, "challenge #");
        let reply = table.cmd("bob", &format!("/accept #{no}")).await;
        assert!(reply.is_done() && reply.game.is_none(), "{}", text(&reply));
        let carol = table.command("carol", &format!("/accept #{no}"));
        let dave = table.command("dave", &format!("/accept #{no}"));
        let (carol, dave) = tokio::join!(table.send(&carol), table.send(&dave));
        assert!(
            carol.is_done() && dave.is_done(),
            "round {round}: {:?} / {:?}",
            carol.kind,
            dave.kind
        );
        let started: Vec<_> = [&carol, &dave]
            .iter()
            .filter_map(|reply| reply.game)
            .collect();
        assert_eq!(started.len(), 1, "round {round}: one game starts");
        let record = table.record(started[0]).await;
        assert_eq!(record.challenge, Some(ChallengeNo(no)));
        assert_eq!(
            seated(&record),
            ["alice", "bob", "carol", "dave"],
            "round {round}"
        );
        assert_eq!(table.pending_challenges().await, 0, "round {round}");
    }
    store.close().await;
}
