//! Draw offers, casual games and ratings beside names (issue 39), on SQLite and PostgreSQL:
//! `/draw` offers a draw with Accept and Decline buttons; the opponent accepts with the button
//! or by offering one back; an offer lapses at its maker's next move (not at the opponent's);
//! an agreed draw gives the stakes back and is rated as a draw; racing presses end the game
//! once. `rated=no` makes a challenge's game casual (and its rematch too). Challenges and game
//! starts show each person's rating beside their name.

use crate::common;

use common::connect;
use common::table::{Lcg, Table, start, text};
use tabula_service::service::{Audience, Kind, Placement, Reply, UserError};
use tabula_service::store::{DatabaseUrl, GameNo, GameStatus};

on_both_databases! {
    a_draw_offered_and_accepted_ends_the_game_drawn_and_rated => agreed;
    a_draw_offer_lapses_at_its_makers_move_and_can_be_declined => lapses;
    racing_answers_to_a_draw_offer_end_the_game_once => races;
    draws_are_refused_with_teams_and_the_computer => refused_cases;
    a_casual_challenge_is_not_rated_and_its_rematch_neither => casual;
    ratings_are_shown_beside_names_in_challenges_and_starts => tags;
    a_draw_is_agreed_in_coan_ki_between_the_throws => coan_ki;
}

/// The Accept and Decline buttons of a draw offer.
fn answers(offer: &Reply) -> (String, String) {
    let data: Vec<&str> = offer.all_buttons().map(|b| b.data.as_str()).collect();
    assert!(offer.is_done(), "{:?}: {}", offer.kind, text(offer));
    let accept = data.iter().find(|d| d.starts_with('i')).expect("Accept");
    let decline = data.iter().find(|d| d.starts_with('j')).expect("Decline");
    ((*accept).to_string(), (*decline).to_string())
}

/// The player to move in `game`, and the other.
async fn sides(
    table: &Table,
    game: GameNo,
    a: &'static str,
    b: &'static str,
) -> (&'static str, &'static str) {
    let to_move = table.state(game).await.1.expect("someone to move");
    if to_move == a { (a, b) } else { (b, a) }
}

async fn agreed(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 81);
    let mut lcg = Lcg(82);
    let game = start(&table, "alice", "bob", "konane stake=10").await;
    let before = (table.balance("alice").await, table.balance("bob").await);
    for _ in 0..2 {
        table.random_move(game, &mut lcg).await.expect("a move");
    }
    let (first, second) = sides(&table, game, "alice", "bob").await;
    // Offered: in the chat, the opponent notified, with the two buttons.
    let offer = table.cmd(first, "/draw").await;
    assert!(offer.is_done(), "{}", text(&offer));
    assert!(offer.says("draw-offered").is_some(), "{}", text(&offer));
    assert_eq!(offer.audience, Audience::Chat);
    assert_eq!(offer.notify, vec![second.to_string()]);
    let (accept, _) = answers(&offer);
    // Offering again while it stands changes nothing.
    let again = table.cmd(first, &format!("/draw #{game}")).await;
    assert_eq!(again.refusal(), Some(&UserError::DrawOffered(game)));
    // Its maker cannot accept it.
    let own = table.press(first, &accept).await;
    assert_eq!(own.refusal(), Some(&UserError::OwnDrawOffer(game)));
    // Someone else cannot either.
    let other = table.press("carol", &accept).await;
    assert_eq!(other.refusal(), Some(&UserError::NotAPlayer(game)));
    assert_eq!(table.record(game).await.status, GameStatus::Active);
    // Accepted: drawn by agreement, the final board, the stakes back, rated as a draw.
    let ended = table.press(second, &accept).await;
    assert!(ended.is_done(), "{}", text(&ended));
    assert!(
        ended.says("cause-draw-agreed").is_some(),
        "{}",
        text(&ended)
    );
    assert!(ended.says("verdict-draw").is_some(), "{}", text(&ended));
    assert_eq!(ended.placement, Placement::NewBoard);
    let record = table.record(game).await;
    assert_eq!(record.status, GameStatus::Finished);
    assert_eq!(record.result.as_deref(), Some("draw (agreed)"));
    assert_eq!(
        (table.balance("alice").await, table.balance("bob").await),
        (before.0 + 10, before.1 + 10),
        "both stakes back"
    );
    table.assert_money_adds_up().await;
    let changes = store.rating_changes(game).await.expect("changes");
    assert_eq!(changes.len(), 2, "rated");
    for (_, before, after) in &changes {
        // Two newcomers drawn: each stays at 1500 (only the deviations shrink).
        assert!((before - after).abs() < 0.01, "{changes:?}");
    }
    assert!(ended.says("rating-changes").is_some(), "{}", text(&ended));
    // Too late now.
    let late = table.press(second, &accept).await;
    assert_eq!(late.refusal(), Some(&UserError::GameOver(game)));

    // Offering one back accepts the standing offer.
    let game = start(&table, "alice", "bob", "koan").await;
    let offer = table.cmd("bob", "/draw").await;
    assert!(offer.says("draw-offered").is_some(), "{}", text(&offer));
    let back = table.cmd("alice", &format!("/draw #{game}")).await;
    assert!(back.says("cause-draw-agreed").is_some(), "{}", text(&back));
    assert_eq!(table.record(game).await.status, GameStatus::Finished);
    store.close().await;
}

async fn lapses(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 83);
    let mut lcg = Lcg(84);
    let game = start(&table, "alice", "bob", "konane").await;
    let (first, second) = sides(&table, game, "alice", "bob").await;
    // The maker moves after offering: the offer lapses.
    let offer = table.cmd(first, "/draw").await;
    let (accept, decline) = answers(&offer);
    table
        .random_move(game, &mut lcg)
        .await
        .expect("first moves");
    let lapsed = table.press(second, &accept).await;
    assert_eq!(lapsed.refusal(), Some(&UserError::DrawLapsed(game)));
    let lapsed = table.press(second, &decline).await;
    assert_eq!(lapsed.refusal(), Some(&UserError::DrawLapsed(game)));
    assert_eq!(table.record(game).await.status, GameStatus::Active);
    // The opponent's move does not lapse it: made by the one not to move, then the other
    // moves, it still stands. Declined: said in place of the offer, its maker notified.
    let offer = table.cmd(first, "/draw").await;
    let (accept, decline) = answers(&offer);
    table
        .random_move(game, &mut lcg)
        .await
        .expect("second moves");
    let declined = table.press(second, &decline).await;
    assert!(declined.is_done(), "{}", text(&declined));
    assert!(
        declined.says("draw-declined").is_some(),
        "{}",
        text(&declined)
    );
    assert_eq!(declined.placement, Placement::UpdatePressed);
    assert!(declined.buttons.is_empty());
    assert_eq!(declined.notify, vec![first.to_string()]);
    // Declined, it is gone.
    let gone = table.press(second, &accept).await;
    assert_eq!(gone.refusal(), Some(&UserError::DrawLapsed(game)));
    assert_eq!(table.record(game).await.status, GameStatus::Active);
    // Offered again after the opponent's move, and accepted.
    let offer = table.cmd(first, "/draw").await;
    let (accept, _) = answers(&offer);
    let ended = table.press(second, &accept).await;
    assert!(ended.is_done(), "{}", text(&ended));
    assert_eq!(table.record(game).await.status, GameStatus::Finished);
    store.close().await;
}

async fn races(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 85);
    let mut lcg = Lcg(86);
    // Two acceptances at once (one pressed twice, as a double click is delivered twice):
    // one ends the game, the other is refused; the stakes come back once.
    let game = start(&table, "alice", "bob", "konane stake=20").await;
    let before = table.balance("alice").await + table.balance("bob").await;
    for _ in 0..2 {
        table.random_move(game, &mut lcg).await.expect("a move");
    }
    let (first, second) = sides(&table, game, "alice", "bob").await;
    let offer = table.cmd(first, "/draw").await;
    let (accept, _) = answers(&offer);
    let (press, again) = (table.button(second, &accept), table.button(second, &accept));
    let (one, two) = tokio::join!(table.send(&press), table.send(&again));
    assert_eq!(
        [one.is_done(), two.is_done()]
            .iter()
            .filter(|d| **d)
            .count(),
        1,
        "{} / {}",
        text(&one),
        text(&two)
    );
    assert_eq!(
        table.balance("alice").await + table.balance("bob").await,
        before + 40
    );
    table.assert_money_adds_up().await;
    assert_eq!(store.rating_changes(game).await.expect("changes").len(), 2);

    // An acceptance and the maker's move at once: one of them wins, never both.
    for round in 0..4 {
        let game = start(&table, "alice", "bob", "konane").await;
        let (first, second) = sides(&table, game, "alice", "bob").await;
        let offer = table.cmd(first, &format!("/draw #{game}")).await;
        let (accept, _) = answers(&offer);
        let (state, _) = table.state(game).await;
        let line = state.legal_lines()[lcg.below(state.legal_lines().len())].clone();
        let (mover, press) = (
            table.command(first, &format!("/move #{game} {line}")),
            table.button(second, &accept),
        );
        let (moved, accepted) = tokio::join!(table.send(&mover), table.send(&press));
        let record = table.record(game).await;
        match (moved.is_done(), accepted.is_done()) {
            (true, false) => {
                assert_eq!(record.status, GameStatus::Active, "round {round}");
                assert_eq!(record.seq, 1);
            }
            (false, true) => {
                assert_eq!(record.status, GameStatus::Finished, "round {round}");
                assert_eq!(record.seq, 0, "the move was not stored");
            }
            other => panic!(
                "round {round}: {other:?}: {} / {}",
                text(&moved),
                text(&accepted)
            ),
        }
    }
    store.close().await;
}

async fn refused_cases(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 87);
    // Pachisi is played by teams.
    let reply = table.cmd("alice", "/play pachisi @bob @carol @dave").await;
    assert!(reply.is_done(), "{}", text(&reply));
    for name in ["bob", "carol", "dave"] {
        let accepted = table.cmd(name, "/accept").await;
        assert!(accepted.is_done(), "{}", text(&accepted));
    }
    let game = table
        .active_games()
        .await
        .iter()
        .find(|record| record.game == tabula_core::GameId::Pachisi)
        .expect("Pachisi")
        .id;
    let teams = table.cmd("alice", &format!("/draw #{game}")).await;
    assert_eq!(teams.refusal(), Some(&UserError::DrawTwoPlayers(game)));
    // The computer does not agree draws.
    let vs = table.cmd("erin", "/play konane computer").await;
    let game = vs.game.expect("a game");
    let computer = table.cmd("erin", &format!("/draw #{game}")).await;
    assert_eq!(computer.refusal(), Some(&UserError::DrawComputer(game)));
    // Nobody else's draw to offer.
    let game = start(&table, "frank", "grace", "koan").await;
    let outsider = table.cmd("erin", &format!("/draw #{game}")).await;
    assert_eq!(outsider.refusal(), Some(&UserError::NotAPlayer(game)));
    store.close().await;
}

async fn casual(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 88);
    let mut lcg = Lcg(89);
    // A yes or no, nothing else.
    let bad = table.cmd("alice", "/play konane @bob rated=maybe").await;
    assert!(matches!(bad.kind, Kind::Refused(_)), "{}", text(&bad));
    assert_eq!(table.pending_challenges().await, 0);
    let offer = table.cmd("alice", "/play konane @bob rated=no").await;
    assert!(offer.says("challenge-casual").is_some(), "{}", text(&offer));
    let started = table.cmd("bob", "/accept").await;
    let game = started.game.expect("a game");
    assert!(!table.record(game).await.rated);
    assert!(
        started.says("game-begins-casual").is_some(),
        "{}",
        text(&started)
    );
    for _ in 0..2 {
        table.random_move(game, &mut lcg).await.expect("a move");
    }
    let ended = table.confirmed("bob", &format!("/resign #{game}")).await;
    assert!(ended.is_done(), "{}", text(&ended));
    assert!(
        store
            .rating_changes(game)
            .await
            .expect("changes")
            .is_empty()
    );
    assert!(ended.says("rating-changes").is_none());
    // The rematch is casual too.
    let rematch = table.press("bob", &format!("n{game}")).await;
    assert!(
        rematch.says("challenge-casual").is_some(),
        "{}",
        text(&rematch)
    );
    let started = table.cmd("alice", "/accept").await;
    let game = started.game.expect("a game");
    assert!(!table.record(game).await.rated);
    // Rated by default (and `rated=yes` says so).
    let game = start(&table, "alice", "bob", "koan rated=yes").await;
    assert!(table.record(game).await.rated);
    store.close().await;
}

/// The ratings shown beside names in `reply`'s text.
fn shown_tags(reply: &Reply) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack: Vec<&tabula_service::l10n::Msg> = reply.said.iter().collect();
    while let Some(msg) = stack.pop() {
        if msg.id == "person-rated" {
            found.push(common::said::text_arg(msg, "rating").to_string());
        }
        for (_, arg) in &msg.args {
            if let tabula_service::l10n::Arg::Msg(inner) = arg {
                stack.push(inner);
            }
        }
    }
    found.sort();
    found
}

async fn tags(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 90);
    let mut lcg = Lcg(91);
    // Newcomers: 1500, provisional.
    let offer = table.cmd("alice", "/play konane @bob").await;
    assert_eq!(shown_tags(&offer), ["1500?", "1500?"], "{}", text(&offer));
    let started = table.cmd("bob", "/accept").await;
    assert_eq!(
        shown_tags(&started),
        ["1500?", "1500?"],
        "{}",
        text(&started)
    );
    let game = started.game.expect("a game");
    for _ in 0..2 {
        table.random_move(game, &mut lcg).await.expect("a move");
    }
    table.confirmed("bob", &format!("/resign #{game}")).await;
    // After a rated game: each one's own rating in that game.
    let community = table.community().await;
    let mut expected = Vec::new();
    for name in ["alice", "bob"] {
        let user = store
            .user_by_platform_id(tabula_service::store::Platform::Local, name)
            .await
            .expect("user")
            .expect("known");
        let (_, shown) = store
            .ratings_of(community, user.id)
            .await
            .expect("ratings")
            .into_iter()
            .next()
            .expect("rated");
        expected.push(format!("{}?", shown.rating.rating.round() as i64));
    }
    expected.sort();
    let offer = table.cmd("bob", "/play konane @alice").await;
    assert_eq!(shown_tags(&offer), expected, "{}", text(&offer));
    // Another game's ratings are its own; the computer's games show none.
    let koan = table.cmd("carol", "/play koan @alice").await;
    assert_eq!(shown_tags(&koan), ["1500?", "1500?"], "{}", text(&koan));
    let vs = table.cmd("dave", "/play konane computer").await;
    assert!(shown_tags(&vs).is_empty(), "{}", text(&vs));
    store.close().await;
}

/// Coan Ki: a draw agreed between the throws, rated as one.
async fn coan_ki(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 95);
    let mut lcg = Lcg(96);
    let game = start(&table, "alice", "bob", "coan-ki stake=10").await;
    let before = table.balance("alice").await + table.balance("bob").await;
    for _ in 0..2 {
        table.random_move(game, &mut lcg).await.expect("a move");
    }
    let offer = table.cmd("bob", &format!("/draw #{game}")).await;
    let (accept, _) = answers(&offer);
    let ended = table.press("alice", &accept).await;
    assert!(
        ended.says("cause-draw-agreed").is_some(),
        "{}",
        text(&ended)
    );
    let record = table.record(game).await;
    assert_eq!(record.result.as_deref(), Some("draw (agreed)"));
    assert_eq!(
        table.balance("alice").await + table.balance("bob").await,
        before + 20,
        "both stakes back"
    );
    assert_eq!(store.rating_changes(game).await.expect("changes").len(), 2);
    store.close().await;
}
