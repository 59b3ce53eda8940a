//! Nothing destructive in one tap (issue 37), on SQLite and PostgreSQL: `/resign` and a
//! player's `/abort` ask first, with [Resign] or [Abort the game] and [Keep playing]; only the
//! asker answers; the question lapses after a minute or at the next move; a confirmation ends
//! the game, [Keep playing] withdraws the question; a posted question loses its buttons with the
//! game's next board; a moderator aborting a game they do not play in is not asked. (Pachisi's
//! partnership resignation: `economy.rs`, `the_winning_team_shares_the_pot`.)

use crate::common;

use common::connect;
use common::table::{T0, Table, start, text};

use tabula_service::service::{Audience, Clock, Kind, Placement, Reply, UserError};
use tabula_service::store::{DatabaseUrl, GameNo, GameStatus};

on_both_databases! {
    a_resignation_is_asked_first_and_only_the_asker_confirms => resign_asked;
    a_question_lapses_after_a_minute_or_at_the_next_move => lapses;
    a_player_s_abort_is_asked_first_a_moderator_s_is_not => abort_asked;
}

/// The question's confirming button and its Keep playing button.
fn buttons(question: &Reply) -> (String, String) {
    assert!(question.question, "a question: {}", text(question));
    assert_eq!(question.buttons.len(), 1, "one row: {}", text(question));
    let row = &question.buttons[0];
    assert_eq!(row.len(), 2, "two buttons: {}", text(question));
    (row[0].data.clone(), row[1].data.clone())
}

async fn status(table: &Table, game: GameNo) -> GameStatus {
    table.record(game).await.status
}

async fn resign_asked(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::with_clock(store.clone(), 3, Clock::manual(T0));
    let game = start(&table, "alice", "bob", "konane").await;
    let asked = table.cmd("bob", &format!("/resign #{game}")).await;
    assert!(asked.says("resign-question").is_some(), "{}", text(&asked));
    assert_eq!(
        (
            asked.kind.clone(),
            asked.audience,
            asked.placement,
            asked.game
        ),
        (Kind::Done, Audience::Chat, Placement::New, Some(game)),
        "a message of its own, for the chat to see"
    );
    let (confirm, keep) = buttons(&asked);
    assert_eq!(
        status(&table, game).await,
        GameStatus::Active,
        "nothing yet"
    );

    // Nobody else answers it: not the opponent, not a bystander.
    for name in ["alice", "carol"] {
        let refused = table.press(name, &confirm).await;
        assert!(
            matches!(refused.kind, Kind::Refused(_)),
            "{name}: {}",
            text(&refused)
        );
        assert_eq!(refused.audience, Audience::Actor);
        let kept = table.press(name, &keep).await;
        assert!(
            matches!(kept.kind, Kind::Refused(_)),
            "{name}: {}",
            text(&kept)
        );
    }
    let refused = table.press("alice", &confirm).await;
    assert_eq!(
        refused.kind,
        Kind::Refused(UserError::NotYourQuestion(table.display_name("bob")))
    );
    assert_eq!(status(&table, game).await, GameStatus::Active);

    // Keep playing withdraws it, in place; the game goes on.
    let kept = table.press("bob", &keep).await;
    assert!(kept.says("question-withdrawn").is_some(), "{}", text(&kept));
    assert_eq!(kept.placement, Placement::UpdatePressed);
    assert!(kept.buttons.is_empty());
    assert_eq!(status(&table, game).await, GameStatus::Active);

    // Asked again and confirmed: the game ends, Alice wins.
    let asked = table.cmd("bob", &format!("/resign #{game}")).await;
    let (confirm, _) = buttons(&asked);
    let ended = table.press("bob", &confirm).await;
    assert!(ended.is_done(), "{}", text(&ended));
    assert!(ended.says("cause-resigned").is_some(), "{}", text(&ended));
    assert_eq!(ended.placement, Placement::NewBoard, "the final board");
    assert_eq!(status(&table, game).await, GameStatus::Finished);
    let late = table.press("bob", &confirm).await;
    assert_eq!(late.kind, Kind::Refused(UserError::GameOver(game)));
    store.close().await;
}

async fn lapses(url: DatabaseUrl) {
    let store = connect(&url).await;
    let clock = Clock::manual(T0);
    let table = Table::with_clock(store.clone(), 5, clock.clone());
    let game = start(&table, "alice", "bob", "konane").await;

    // After a minute.
    let asked = table.cmd("alice", &format!("/resign #{game}")).await;
    let (confirm, _) = buttons(&asked);
    clock.advance(61_000);
    let lapsed = table.press("alice", &confirm).await;
    assert_eq!(
        lapsed.kind,
        Kind::Refused(UserError::QuestionLapsed("/resign")),
        "{}",
        text(&lapsed)
    );
    assert_eq!(status(&table, game).await, GameStatus::Active);

    // At the next move; and the question's buttons go with the game's next board.
    let asked = table.cmd("alice", &format!("/resign #{game}")).await;
    let (confirm, _) = buttons(&asked);
    assert!(
        table
            .service
            .board_posted(&asked, "900")
            .await
            .expect("recorded")
            .is_empty(),
        "a question strips nothing"
    );
    let mut lcg = common::table::Lcg(7);
    let (_, board) = table
        .random_move(game, &mut lcg)
        .await
        .expect("a move to play");
    assert!(board.is_done(), "{}", text(&board));
    let stripped = table
        .service
        .board_posted(&board, "901")
        .await
        .expect("board posted");
    assert!(
        stripped.iter().any(|id| id == "900"),
        "the next board takes the question's buttons off: {stripped:?}"
    );
    let lapsed = table.press("alice", &confirm).await;
    assert_eq!(
        lapsed.kind,
        Kind::Refused(UserError::QuestionLapsed("/resign")),
        "{}",
        text(&lapsed)
    );
    assert_eq!(status(&table, game).await, GameStatus::Active);
    store.close().await;
}

async fn abort_asked(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::with_clock(store.clone(), 9, Clock::manual(T0));
    let game = start(&table, "alice", "bob", "koan stake=10").await;
    let before = table.balance("alice").await;
    let asked = table.cmd("alice", &format!("/abort #{game}")).await;
    assert!(asked.says("abort-question").is_some(), "{}", text(&asked));
    let (confirm, _) = buttons(&asked);
    assert_eq!(status(&table, game).await, GameStatus::Active);
    let refused = table.press("bob", &confirm).await;
    assert!(
        matches!(refused.kind, Kind::Refused(_)),
        "{}",
        text(&refused)
    );
    let aborted = table.press("alice", &confirm).await;
    assert!(
        aborted.says("cause-aborted").is_some(),
        "{}",
        text(&aborted)
    );
    assert_eq!(status(&table, game).await, GameStatus::Aborted);
    assert_eq!(
        table.balance("alice").await,
        before + 10,
        "the stake is back"
    );

    // After a move, a player's abort is refused before anything is asked.
    let game = start(&table, "alice", "bob", "koan").await;
    let mut lcg = common::table::Lcg(3);
    table.random_move(game, &mut lcg).await.expect("a move");
    let refused = table.cmd("bob", &format!("/abort #{game}")).await;
    assert_eq!(refused.kind, Kind::Refused(UserError::AlreadyMoved(game)));
    assert!(!refused.question);

    // A moderator who does not play aborts at once.
    let aborted = table.cmd("mod", &format!("/abort #{game} asleep")).await;
    assert!(!aborted.question);
    assert!(
        aborted.says("cause-aborted-because").is_some(),
        "{}",
        text(&aborted)
    );
    assert_eq!(status(&table, game).await, GameStatus::Aborted);
    store.close().await;
}
