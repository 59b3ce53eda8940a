//! Takebacks (issue 39), on SQLite and PostgreSQL: `/takeback` asks the opponent to undo the
//! asker's last move, saying what; accepted, the log, the turn and the clock go back, the
//! board is posted again, stakes are untouched, and `/history` and the record tell it; a move
//! lapses the request; a roll is never undone (Pachisi: only the moves since the last roll);
//! racing presses apply once.

use crate::common;

use common::connect;
use common::table::{Lcg, Table, start, text};
use tabula_service::service::{Placement, Reply, UserError};
use tabula_service::store::{ActionRecord, DatabaseUrl, GameNo, GameStatus, History, Store};

on_both_databases! {
    a_takeback_accepted_undoes_the_last_move_and_gives_the_turn_back => accepted;
    a_takeback_lapses_with_a_move_and_can_be_declined => lapses;
    racing_answers_to_a_takeback_apply_once => races;
    a_roll_is_never_taken_back => dice;
    kolowis_takes_back_and_draws_like_the_others => kolowis;
}

/// The Accept and Decline buttons of a takeback request.
fn answers(asked: &Reply) -> (String, String) {
    assert!(asked.is_done(), "{:?}: {}", asked.kind, text(asked));
    let data: Vec<&str> = asked.all_buttons().map(|b| b.data.as_str()).collect();
    let accept = data.iter().find(|d| d.starts_with('t')).expect("Accept");
    let decline = data.iter().find(|d| d.starts_with('z')).expect("Decline");
    ((*accept).to_string(), (*decline).to_string())
}

async fn log(store: &Store, game: GameNo) -> Vec<ActionRecord> {
    store
        .load_game(game, History::Full)
        .await
        .expect("load")
        .expect("a game")
        .actions
}

/// The other of two players.
fn other<'a>(one: &str, a: &'a str, b: &'a str) -> &'a str {
    if one == a { b } else { a }
}

async fn accepted(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 101);
    let mut lcg = Lcg(102);
    let game = start(&table, "alice", "bob", "konane stake=10").await;
    let balances = (table.balance("alice").await, table.balance("bob").await);
    table.random_move(game, &mut lcg).await.expect("a move");
    let (mover, _) = table.random_move(game, &mut lcg).await.expect("a move");
    let opponent = other(&mover, "alice", "bob");
    let before = log(&store, game).await;
    assert_eq!(before.len(), 2);
    // Only the last mover has a move to take back.
    let nothing = table.cmd(opponent, &format!("/takeback #{game}")).await;
    assert_eq!(nothing.refusal(), Some(&UserError::NothingToTakeBack(game)));
    // Asked: what will be undone, the opponent notified, two buttons.
    let asked = table.cmd(&mover, "/takeback").await;
    let said = asked.says("takeback-asked").expect("asked");
    assert_eq!(common::said::num(said, "count"), 1);
    assert_eq!(asked.notify, vec![opponent.to_string()]);
    let (accept, _) = answers(&asked);
    let again = table.cmd(&mover, "/takeback").await;
    assert_eq!(again.refusal(), Some(&UserError::TakebackAsked(game)));
    let own = table.press(&mover, &accept).await;
    assert_eq!(own.refusal(), Some(&UserError::OwnTakeback(game)));
    let outsider = table.press("carol", &accept).await;
    assert_eq!(outsider.refusal(), Some(&UserError::NotAPlayer(game)));
    // Accepted: one action fewer, the mover to move again from when their turn began, the
    // board posted again; stakes untouched.
    let done = table.press(opponent, &accept).await;
    assert!(done.is_done(), "{}", text(&done));
    assert!(done.says("takeback-done").is_some(), "{}", text(&done));
    assert_eq!(done.placement, Placement::NewBoard);
    assert_eq!(done.board_seq, Some(1));
    let after = log(&store, game).await;
    assert_eq!(after, before[..1].to_vec());
    assert_eq!(table.state(game).await.1.as_deref(), Some(mover.as_str()));
    let record = table.record(game).await;
    assert_eq!(record.seq, 1);
    let clock = record.clock.expect("a clock runs");
    assert_eq!(clock.started_at, before[0].at, "the turn's clock as it was");
    assert_eq!(
        (table.balance("alice").await, table.balance("bob").await),
        balances
    );
    table.assert_money_adds_up().await;
    // The request is used up.
    let late = table.press(opponent, &accept).await;
    assert!(
        matches!(
            late.refusal(),
            Some(UserError::TakebackLapsed(_) | UserError::Conflict(_))
        ),
        "{}",
        text(&late)
    );
    // `/history` and the record tell it.
    let history = table.cmd("carol", &format!("/history #{game}")).await;
    let told = history.says("history-takeback").expect("told");
    assert_eq!(common::said::num(told, "seq"), 1);
    let file = table.cmd("carol", &format!("/export #{game}")).await;
    let bytes = &file.file.as_ref().expect("a file").bytes;
    let record_text = String::from_utf8_lossy(bytes);
    assert!(record_text.contains("[Takebacks \"1: "), "{record_text}");
    // The game goes on from there, the same move or another.
    table.random_move(game, &mut lcg).await.expect("a move");
    assert_eq!(table.record(game).await.seq, 2);
    assert_eq!(table.record(game).await.status, GameStatus::Active);
    store.close().await;
}

async fn lapses(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 103);
    let mut lcg = Lcg(104);
    let game = start(&table, "alice", "bob", "konane").await;
    let (mover, _) = table.random_move(game, &mut lcg).await.expect("a move");
    let opponent = other(&mover, "alice", "bob");
    // The opponent moves: the request lapses.
    let asked = table.cmd(&mover, "/takeback").await;
    let (accept, decline) = answers(&asked);
    table
        .random_move(game, &mut lcg)
        .await
        .expect("the opponent moves");
    let lapsed = table.press(opponent, &accept).await;
    assert_eq!(lapsed.refusal(), Some(&UserError::TakebackLapsed(game)));
    let lapsed = table.press(opponent, &decline).await;
    assert_eq!(lapsed.refusal(), Some(&UserError::TakebackLapsed(game)));
    assert_eq!(table.record(game).await.seq, 2);
    // Declined: in place of the request, its asker notified; then gone.
    let (mover, _) = table.random_move(game, &mut lcg).await.expect("a move");
    let opponent = other(&mover, "alice", "bob");
    let asked = table.cmd(&mover, "/takeback").await;
    let (accept, decline) = answers(&asked);
    let declined = table.press(opponent, &decline).await;
    assert!(
        declined.says("takeback-declined").is_some(),
        "{}",
        text(&declined)
    );
    assert_eq!(declined.placement, Placement::UpdatePressed);
    assert_eq!(declined.notify, vec![mover.clone()]);
    let gone = table.press(opponent, &accept).await;
    assert_eq!(gone.refusal(), Some(&UserError::TakebackLapsed(game)));
    assert_eq!(table.record(game).await.seq, 3);
    // Not with the computer.
    let vs = table.cmd("erin", "/play konane computer").await;
    let game = vs.game.expect("a game");
    let refused = table.cmd("erin", &format!("/takeback #{game}")).await;
    assert_eq!(refused.refusal(), Some(&UserError::TakebackComputer(game)));
    store.close().await;
}

async fn races(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 105);
    let mut lcg = Lcg(106);
    // Two acceptances at once: the game goes back one move, once.
    let game = start(&table, "alice", "bob", "konane").await;
    table.random_move(game, &mut lcg).await.expect("a move");
    let (mover, _) = table.random_move(game, &mut lcg).await.expect("a move");
    let opponent = other(&mover, "alice", "bob");
    let asked = table.cmd(&mover, &format!("/takeback #{game}")).await;
    let (accept, _) = answers(&asked);
    let (one, two) = (
        table.button(opponent, &accept),
        table.button(opponent, &accept),
    );
    let (one, two) = tokio::join!(table.send(&one), table.send(&two));
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
    assert_eq!(table.record(game).await.seq, 1);
    assert_eq!(log(&store, game).await.len(), 1);
    // An acceptance and the opponent's move at once: one of them, never both.
    for round in 0..4 {
        let game = start(&table, "alice", "bob", "koan").await;
        let (mover, _) = table.random_move(game, &mut lcg).await.expect("a move");
        let opponent = other(&mover, "alice", "bob");
        let asked = table.cmd(&mover, &format!("/takeback #{game}")).await;
        let (accept, _) = answers(&asked);
        let (state, _) = table.state(game).await;
        let lines = state.legal_lines();
        let line = lines[lcg.below(lines.len())].clone();
        let (moving, pressing) = (
            table.command(opponent, &format!("/move #{game} {line}")),
            table.button(opponent, &accept),
        );
        let (moved, taken) = tokio::join!(table.send(&moving), table.send(&pressing));
        let seq = table.record(game).await.seq;
        match (moved.is_done(), taken.is_done()) {
            (true, false) => assert_eq!(seq, 2, "round {round}"),
            (false, true) => assert_eq!(seq, 0, "round {round}"),
            other => panic!(
                "round {round}: {other:?}: {} / {}",
                text(&moved),
                text(&taken)
            ),
        }
        assert_eq!(log(&store, game).await.len(), seq as usize);
    }
    store.close().await;
}

async fn dice(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 107);
    let mut lcg = Lcg(108);
    // Coan Ki: a move ends the turn and the next roll follows it at once: nothing to take
    // back.
    let game = start(&table, "alice", "bob", "coan-ki").await;
    let (mover, _) = table.random_move(game, &mut lcg).await.expect("a move");
    let last = log(&store, game).await.last().cloned().expect("actions");
    assert!(
        last.actor.is_none(),
        "the next roll follows the move: {last:?}"
    );
    let refused = table.cmd(&mover, &format!("/takeback #{game}")).await;
    assert_eq!(refused.refusal(), Some(&UserError::NothingToTakeBack(game)));
    // Pachisi between two: play until someone's last actions are moves after a roll, take
    // them back, and the log ends with that roll again.
    let game = start(&table, "carol", "dave", "pachisi").await;
    let mut taken = false;
    for _ in 0..200 {
        let actions = log(&store, game).await;
        if let Some(last) = actions.last()
            && let Some(actor) = last.actor
            && actions.iter().any(|action| action.actor.is_none())
        {
            let name = if table
                .record(game)
                .await
                .seats
                .iter()
                .any(|h| h.user.id == actor && h.user.platform_user_id == "carol")
            {
                "carol"
            } else {
                "dave"
            };
            let kept = actions
                .iter()
                .rposition(|action| action.actor != Some(actor))
                .map_or(0, |at| at + 1);
            // Only what follows a roll: the asker's own throw, before the roll, stays.
            if actions[..kept].last().is_some_and(|a| a.actor.is_none()) {
                let asked = table.cmd(name, &format!("/takeback #{game}")).await;
                let (accept, _) = answers(&asked);
                let opponent = other(name, "carol", "dave");
                let done = table.press(opponent, &accept).await;
                assert!(done.is_done(), "{}", text(&done));
                let after = log(&store, game).await;
                assert_eq!(after, actions[..kept].to_vec());
                assert!(
                    after.last().expect("a roll").actor.is_none(),
                    "ends with the roll"
                );
                taken = true;
                break;
            }
        }
        if table.random_move(game, &mut lcg).await.is_none() {
            break;
        }
    }
    assert!(taken, "no Pachisi move to take back in 200 actions");
    store.close().await;
}

/// Kolowis: a takeback and an agreed draw, as in the other games of two.
async fn kolowis(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 109);
    let mut lcg = Lcg(110);
    let game = start(&table, "alice", "bob", "kolowis").await;
    table.random_move(game, &mut lcg).await.expect("a move");
    let (mover, _) = table.random_move(game, &mut lcg).await.expect("a move");
    let opponent = other(&mover, "alice", "bob");
    let asked = table.cmd(&mover, &format!("/takeback #{game}")).await;
    let (accept, _) = answers(&asked);
    let done = table.press(opponent, &accept).await;
    assert!(done.says("takeback-done").is_some(), "{}", text(&done));
    assert_eq!(table.record(game).await.seq, 1);
    assert_eq!(table.state(game).await.1.as_deref(), Some(mover.as_str()));
    table
        .random_move(game, &mut lcg)
        .await
        .expect("the move again");
    let offer = table.cmd(opponent, &format!("/draw #{game}")).await;
    assert!(offer.says("draw-offered").is_some(), "{}", text(&offer));
    let back = table.cmd(&mover, &format!("/draw #{game}")).await;
    assert!(back.says("cause-draw-agreed").is_some(), "{}", text(&back));
    let record = table.record(game).await;
    assert_eq!(record.status, GameStatus::Finished);
    assert_eq!(record.result.as_deref(), Some("draw (agreed)"));
    assert_eq!(store.rating_changes(game).await.expect("changes").len(), 2);
    store.close().await;
}
