//! Open challenges gather the seats their game needs (issue 14, item 1): an open Pachisi
//! challenge takes up to four people, shows who has joined in the challenge message (updated
//! in place for a press), starts when full or earlier when its challenger says so; a two-seat
//! game starts at the first acceptance. On SQLite and PostgreSQL.

use crate::common;

use common::connect;
use common::table::{Table, challenge_button, challenge_no, text};
use tabula_service::service::{Audience, Kind, Placement, Reply, UserError};
use tabula_service::store::{ChallengeNo, ChallengeStatus, DatabaseUrl, GameRecord};

on_both_databases! {
    an_open_pachisi_challenge_gathers_four_and_starts_when_full => four_join;
    the_challenger_starts_an_open_pachisi_challenge_early => started_early;
    three_people_start_pachisi_one_holding_a_whole_team => three_start;
    an_open_two_seat_challenge_starts_at_the_first_acceptance => two_seats;
    an_open_challenge_takes_every_stake_when_it_starts => stakes_at_start;
    racing_joins_fill_an_open_challenge_once => racing_joins;
}

/// The platform ids of the people seated in a game, sorted and without repeats.
fn seated(record: &GameRecord) -> Vec<&str> {
    let mut seated: Vec<&str> = record
        .seats
        .iter()
        .map(|holder| holder.user.platform_user_id.as_str())
        .collect();
    seated.sort_unstable();
    seated.dedup();
    seated
}

/// The data of the challenge's button for `action` (see [`challenge_button`]).
fn button_data(reply: &Reply, action: char) -> String {
    match challenge_button(reply, action) {
        Some(button) => button.data.clone(),
        None => panic!("no {action} button: {}", text(reply)),
    }
}

/// A reply that says someone joined and the game has not started.
fn assert_gathering(reply: &Reply, who: &[&str]) {
    assert!(reply.is_done(), "{:?}: {}", reply.kind, text(reply));
    assert!(reply.game.is_none(), "no game yet: {}", text(reply));
    assert_eq!(reply.placement, Placement::UpdatePressed);
    let body = text(reply);
    for name in who {
        assert!(body.contains(name), "{name} is shown as joined: {body}");
    }
    assert!(challenge_button(reply, 's').is_some(), "a Start button");
}

async fn four_join(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 21);
    let offer = table.cmd("alice", "/play pachisi").await;
    assert!(offer.is_done(), "{}", text(&offer));
    let no = challenge_no(&offer);
    let join = button_data(&offer, 'a');

    // bob types, carol presses: each joins, and the message shows who has.
    let reply = table.cmd("bob", "/accept").await;
    assert_gathering(&reply, &["ALICE", "BOB"]);
    let reply = table.press("carol", &join).await;
    assert_gathering(&reply, &["ALICE", "BOB", "CAROL"]);
    // Joining again changes nothing: a word to the presser, the lobby left as it is.
    let reply = table.press("carol", &join).await;
    assert!(
        reply.is_done() && reply.says("already-joined").is_some(),
        "{}",
        text(&reply)
    );
    assert_eq!(
        (reply.audience, reply.placement),
        (Audience::Actor, Placement::New)
    );
    assert!(reply.buttons.is_empty());
    assert!(table.active_games().await.is_empty());

    // The fourth fills it: the game starts with four people, one seat each.
    let reply = table.cmd("dave", "/accept").await;
    let Some(game) = reply.game.filter(|_| reply.is_done()) else {
        panic!("the game should start: {:?} {}", reply.kind, text(&reply));
    };
    let record = table.record(game).await;
    assert_eq!(record.challenge, Some(ChallengeNo(no)));
    assert_eq!(seated(&record), ["alice", "bob", "carol", "dave"]);
    assert_eq!(record.seats.len(), 4);

    // A fifth finds nothing waiting.
    let reply = table.cmd("erin", "/accept").await;
    assert!(
        matches!(reply.refusal(), Some(UserError::NoChallenge)),
        "{:?}",
        reply.kind
    );
    assert_eq!(table.pending_challenges().await, 0);
    store.close().await;
}

async fn started_early(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 22);
    let offer = table.cmd("alice", "/play pachisi").await;
    let no = challenge_no(&offer);
    let start = button_data(&offer, 's');

    // Nobody has joined: the challenger cannot start yet, by button or by /accept.
    let reply = table.press("alice", &start).await;
    assert!(
        matches!(reply.refusal(), Some(UserError::NobodyJoined(n)) if n.0 == no),
        "{:?}",
        reply.kind
    );
    let reply = table.cmd("alice", &format!("/accept #{no}")).await;
    assert!(
        matches!(reply.refusal(), Some(UserError::NobodyJoined(_))),
        "{:?}",
        reply.kind
    );

    let reply = table.cmd("bob", "/accept").await;
    assert_gathering(&reply, &["ALICE", "BOB"]);
    // Only the challenger may press Start.
    let reply = table.press("bob", &start).await;
    assert!(
        matches!(reply.refusal(), Some(UserError::NotChallengerStart(_))),
        "{:?}",
        reply.kind
    );
    assert!(table.active_games().await.is_empty());

    // alice starts with two: each holds both seats of one team.
    let reply = table.press("alice", &start).await;
    let Some(game) = reply.game.filter(|_| reply.is_done()) else {
        panic!("the game should start: {:?} {}", reply.kind, text(&reply));
    };
    let record = table.record(game).await;
    assert_eq!(seated(&record), ["alice", "bob"]);
    let holder = |seat: usize| record.seats[seat].user.platform_user_id.as_str();
    assert_eq!(holder(0), holder(2), "S and N are one team");
    assert_eq!(holder(1), holder(3), "E and W are one team");
    assert_ne!(holder(0), holder(1));
    let challenge = store.challenge(ChallengeNo(no)).await.ok().flatten();
    assert_eq!(challenge.map(|c| c.status), Some(ChallengeStatus::Accepted));
    store.close().await;
}

async fn three_start(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 23);
    let offer = table.cmd("alice", "/play pachisi").await;
    let no = challenge_no(&offer);
    table.cmd("bob", "/accept").await;
    table.cmd("carol", &format!("/accept #{no}")).await;
    // The challenger's plain /accept starts it.
    let reply = table.cmd("alice", "/accept").await;
    let Some(game) = reply.game.filter(|_| reply.is_done()) else {
        panic!("the game should start: {:?} {}", reply.kind, text(&reply));
    };
    let record = table.record(game).await;
    assert_eq!(seated(&record), ["alice", "bob", "carol"]);
    let holder = |seat: usize| record.seats[seat].user.platform_user_id.as_str();
    // One team is one person; the other is the other two.
    let (whole, split) = if holder(0) == holder(2) {
        ((0, 2), (1, 3))
    } else {
        ((1, 3), (0, 2))
    };
    assert_eq!(holder(whole.0), holder(whole.1));
    assert_ne!(holder(split.0), holder(split.1));
    assert_ne!(holder(whole.0), holder(split.0));
    assert_ne!(holder(whole.0), holder(split.1));
    store.close().await;
}

async fn two_seats(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 24);
    for game in ["konane", "koan", "kolowis", "coan-ki"] {
        let offer = table.cmd("alice", &format!("/play {game}")).await;
        assert!(offer.is_done(), "{game}: {}", text(&offer));
        assert!(
            challenge_button(&offer, 's').is_none(),
            "{game}: nothing to start early"
        );
        let reply = table.cmd("bob", "/accept").await;
        let Some(no) = reply.game.filter(|_| reply.is_done()) else {
            panic!("{game} should start: {:?} {}", reply.kind, text(&reply));
        };
        assert_eq!(seated(&table.record(no).await), ["alice", "bob"]);
        let reply = table.cmd("carol", "/accept").await;
        assert!(matches!(reply.refusal(), Some(UserError::NoChallenge)));
        table.cmd("alice", &format!("/abort #{}", no.0)).await;
    }
    store.close().await;
}

async fn stakes_at_start(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 25);
    // Open the wallets (a starting grant of 1,000 each), then leave carol 50.
    for name in ["alice", "bob", "carol", "dave"] {
        table.cmd(name, "/wallet").await;
    }
    table.cmd("mod", "/take @carol 950").await;
    let offer = table.cmd("alice", "/play pachisi stake=100").await;
    assert!(offer.is_done(), "{}", text(&offer));
    let no = challenge_no(&offer);
    table.cmd("bob", "/accept").await;
    table.cmd("carol", "/accept").await;
    // Nothing is taken while people gather.
    for name in ["alice", "bob"] {
        assert_eq!(table.balance(name).await, 1000, "{name}");
    }
    // dave fills it, but carol cannot pay: nothing starts and nothing is taken.
    let reply = table.cmd("dave", &format!("/accept #{no}")).await;
    assert!(
        matches!(reply.refusal(), Some(UserError::CannotAfford { name, .. }) if name == "CAROL"),
        "{:?}",
        reply.kind
    );
    assert!(table.active_games().await.is_empty());
    for name in ["alice", "bob", "dave"] {
        assert_eq!(table.balance(name).await, 1000, "{name}");
    }
    table.cmd("mod", "/grant @carol 50").await;
    let reply = table.cmd("dave", &format!("/accept #{no}")).await;
    assert!(reply.game.is_some(), "{:?} {}", reply.kind, text(&reply));
    for name in ["alice", "bob", "dave"] {
        assert_eq!(table.balance(name).await, 900, "{name}");
    }
    assert_eq!(table.balance("carol").await, 0);
    table.assert_money_adds_up().await;
    store.close().await;
}

/// Two people press Join for the last seat at once, several times over: exactly one game
/// starts, with four people; the other press sees it started; no challenge is left pending.
async fn racing_joins(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 26);
    for round in 0..4 {
        let offer = table.cmd("alice", "/play pachisi").await;
        let no = challenge_no(&offer);
        table.cmd("bob", &format!("/accept #{no}")).await;
        let carol = table.command("carol", &format!("/accept #{no}"));
        let dave = table.command("dave", &format!("/accept #{no}"));
        let erin = table.command("erin", &format!("/accept #{no}"));
        let (carol, dave, erin) =
            tokio::join!(table.send(&carol), table.send(&dave), table.send(&erin));
        let started: Vec<_> = [&carol, &dave, &erin]
            .iter()
            .filter_map(|reply| reply.game)
            .collect();
        assert_eq!(started.len(), 1, "round {round}: one game starts");
        let record = table.record(started[0]).await;
        assert_eq!(record.seats.len(), 4);
        assert_eq!(seated(&record).len(), 4, "round {round}");
        for reply in [&carol, &dave, &erin] {
            assert!(
                matches!(
                    reply.kind,
                    Kind::Done | Kind::Refused(UserError::Conflict(_))
                ),
                "round {round}: {:?}",
                reply.kind
            );
        }
        assert_eq!(table.pending_challenges().await, 0, "round {round}");
        for record in table.active_games().await {
            table.cmd("mod", &format!("/abort #{}", record.id.0)).await;
        }
    }
    store.close().await;
}
