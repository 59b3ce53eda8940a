//! People are platform ids, never typed names (issue 13): a challenge to a `@username` nobody
//! has been seen with keeps that seat for the first person whose platform-given username
//! matches (case-insensitive); anyone else is refused and changes nothing. Money only moves to
//! people the bot knows.

use crate::common;

use common::connect;
use common::table::{T0, Table, challenge_button};
use tabula_service::service::{Audience, Clock, Placement, UserError};
use tabula_service::store::{ChallengeStatus, DatabaseUrl, Platform};

on_both_databases! {
    a_seat_for_an_unseen_username_is_taken_only_by_that_person => unseen_username;
    money_only_moves_to_known_people => money_to_known_people;
    the_same_challenge_twice_is_refused => same_challenge_twice;
}

/// Issue 14 item 3: a second identical challenge is refused, pointing at the first, so that
/// bob's plain /accept is never ambiguous; a different one is still made.
async fn same_challenge_twice(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::with_clock(store.clone(), 5, Clock::manual(T0));
    table.cmd("bob", "/help").await;
    let first = table.cmd("alice", "/play konane @bob").await;
    assert!(first.is_done(), "{:?}", first.kind);
    let again = table.cmd("alice", "/play konane @bob").await;
    assert!(
        matches!(again.refusal(), Some(UserError::SameChallenge(_))),
        "{:?}",
        again.kind
    );
    let pending = store
        .pending_challenges(store_chat(&table).await)
        .await
        .expect("challenges");
    assert_eq!(pending.len(), 1, "nothing was added");
    // Another game, or an open challenge, is another challenge.
    assert!(table.cmd("alice", "/play koan @bob").await.is_done());
    assert!(table.cmd("alice", "/play konane").await.is_done());
    // bob's plain /accept is ambiguous only between really different challenges; the first
    // is still his to accept by number.
    let accepted = table
        .cmd("bob", &format!("/accept #{}", pending[0].id))
        .await;
    assert!(accepted.is_done(), "{:?}", accepted.kind);
    store.close().await;
}

async fn store_chat(table: &Table) -> tabula_service::store::ChatId {
    table.chat_ids().await.0
}

async fn unseen_username(url: DatabaseUrl) {
    let store = connect(&url).await;
    let mut table = Table::with_clock(store.clone(), 5, Clock::manual(T0));
    // Typed usernames, as Telegram's `mention` entities give them.
    table.resolved_mentions = false;
    // zed has never written: the challenge keeps the seat for the username, typed in
    // another case than zed's own.
    let reply = table.cmd("alice", "/play konane @Zed").await;
    assert!(reply.is_done(), "{:?}", reply.kind);
    assert!(
        reply.notify.is_empty(),
        "nobody known to notify: {:?}",
        reply.notify
    );
    assert!(
        store
            .user_by_username(Platform::Local, "zed")
            .await
            .expect("lookup")
            .is_none(),
        "no user row is made from a typed name"
    );
    let accept = challenge_button(&reply, 'a')
        .map(|button| button.data.clone())
        .expect("an Accept button");

    // Someone else presses Accept: refused, to them only, and nothing changes.
    let refused = table.press("carol", &accept).await;
    assert!(
        matches!(refused.refusal(), Some(UserError::NotInvited(_))),
        "{:?}",
        refused.kind
    );
    assert_eq!(refused.audience, Audience::Actor);
    let pending = pending_challenges(&table).await;
    assert_eq!(pending.len(), 1, "the challenge still waits");
    assert_eq!(pending[0].status, ChallengeStatus::Pending);
    assert_eq!(pending[0].unbound_usernames(), vec!["Zed"]);

    // A typed /accept by someone else finds nothing for them either.
    let refused = table.cmd("dave", "/accept").await;
    assert!(
        matches!(refused.refusal(), Some(UserError::NoChallenge)),
        "{:?}",
        refused.kind
    );

    // zed (username "zed" as the platform gives it) presses it: the game starts.
    let started = table.press("zed", &accept).await;
    assert!(started.is_done(), "{:?}", started.kind);
    assert_eq!(started.placement, Placement::NewBoard);
    assert!(started.game.is_some());
    assert!(pending_challenges(&table).await.is_empty());
    let record = table.record(started.game.expect("a game")).await;
    let people: Vec<&str> = record
        .seats
        .iter()
        .map(|holder| holder.user.platform_user_id.as_str())
        .collect();
    assert!(
        people.contains(&"zed") && people.contains(&"alice"),
        "{people:?}"
    );
    store.close().await;
}

async fn money_to_known_people(url: DatabaseUrl) {
    let store = connect(&url).await;
    let mut table = Table::with_clock(store.clone(), 6, Clock::manual(T0));
    table.resolved_mentions = false;
    let reply = table.cmd("mod", "/grant @nobody 10").await;
    assert!(
        matches!(reply.refusal(), Some(UserError::UnknownPerson(_))),
        "{:?}",
        reply.kind
    );
    let community = table.community().await;
    let board = store.leaderboard(community, 10).await.expect("leaderboard");
    assert!(
        board
            .iter()
            .all(|(user, _)| user.platform_user_id != "nobody"),
        "{board:?}"
    );
    // Once nobody has written, the grant goes through.
    table.cmd("nobody", "/wallet").await;
    let reply = table.cmd("mod", "/grant @nobody 10").await;
    assert!(reply.is_done(), "{:?}", reply.kind);
    assert_eq!(table.balance("nobody").await, 1010);
    store.close().await;
}

async fn pending_challenges(table: &Table) -> Vec<tabula_service::store::Challenge> {
    let chat = table
        .store()
        .upsert_chat(Platform::Local, "chat1", "Test chat", None)
        .await
        .expect("chat");
    table
        .store()
        .pending_challenges(chat.id)
        .await
        .expect("pending")
}
