//! Round-robin seasons (issue 39), on SQLite and PostgreSQL: a moderator opens one, four
//! people join with the button, every pair's game is created at once when the last joins;
//! five games are played to their end and one is left to its clock; when the season's days
//! pass, the scheduler ends it once and the standings score the timed-out game against the
//! player whose time ran out.

use crate::common;

use common::connect;
use common::table::{Lcg, T0, Table, text};
use tabula_service::service::{Placement, Reply, UserError};
use tabula_service::store::{DatabaseUrl, GameStatus, SeasonStatus};
use tabula_service::time::Clock;

on_both_databases! {
    a_season_of_four_is_played_through_to_its_standings => played_through;
}

const DAY: i64 = 86_400_000;

async fn played_through(url: DatabaseUrl) {
    let store = connect(&url).await;
    let clock = Clock::manual(T0);
    let table = Table::with_clock(store.clone(), 111, clock.clone());
    let mut lcg = Lcg(112);
    // Nothing yet; only moderators open one; not for Pachisi's teams.
    let none = table.cmd("alice", "/season").await;
    assert_eq!(none.refusal(), Some(&UserError::NoSeason));
    let refused = table.cmd("alice", "/season konane").await;
    assert!(
        matches!(refused.refusal(), Some(UserError::NotModerator(_))),
        "{}",
        text(&refused)
    );
    let teams = table.cmd("mod", "/season pachisi").await;
    assert!(
        matches!(teams.refusal(), Some(UserError::SeasonTwoPlayers(_))),
        "{}",
        text(&teams)
    );
    let opened = table
        .cmd("mod", "/season start konane days=30 size=4 time=1d")
        .await;
    assert!(opened.says("season-open").is_some(), "{}", text(&opened));
    let join = opened
        .all_buttons()
        .find(|b| b.data.starts_with('J'))
        .expect("Join")
        .data
        .clone();
    let begin = opened
        .all_buttons()
        .find(|b| b.data.starts_with('B'))
        .expect("Begin")
        .data
        .clone();
    let again = table.cmd("mod", "/season koan").await;
    assert!(
        matches!(again.refusal(), Some(UserError::SeasonRunning(_))),
        "{}",
        text(&again)
    );
    // Joining, once each; Begin needs three and a moderator.
    let joined = table.press("alice", &join).await;
    assert_eq!(joined.placement, Placement::UpdatePressed);
    let twice = table.press("alice", &join).await;
    assert!(matches!(twice.refusal(), Some(UserError::SeasonJoined(_))));
    let early = table.press("mod", &begin).await;
    assert!(
        matches!(
            early.refusal(),
            Some(UserError::SeasonTooFew { count: 1, .. })
        ),
        "{}",
        text(&early)
    );
    table.press("bob", &join).await;
    table.press("carol", &join).await;
    let not_mod = table.press("carol", &begin).await;
    assert!(matches!(
        not_mod.refusal(),
        Some(UserError::NotModerator(_))
    ));
    // The fourth fills it: every pair's game at once, told in one message.
    let begun = table.press("dave", &join).await;
    assert!(begun.is_done(), "{}", text(&begun));
    let said = begun.says("season-begun").expect("begun");
    assert_eq!(common::said::num(said, "games"), 6);
    assert_eq!(begun.notify.len(), 4);
    let late = table.press("erin", &join).await;
    assert!(matches!(late.refusal(), Some(UserError::SeasonNotOpen(_))));
    let (chat, _) = table.chat_ids().await;
    let season = store
        .season_of_chat(chat)
        .await
        .expect("season")
        .expect("one");
    assert_eq!(season.status, SeasonStatus::Running);
    assert_eq!(season.games.len(), 6);
    let mut pairs = Vec::new();
    for game in &season.games {
        let record = table.record(*game).await;
        assert_eq!(record.status, GameStatus::Active);
        assert_eq!(record.move_millis, DAY);
        assert!(record.rated);
        let mut pair: Vec<String> = record
            .seats
            .iter()
            .map(|h| h.user.platform_user_id.clone())
            .collect();
        pair.sort();
        pairs.push(pair);
    }
    pairs.sort();
    pairs.dedup();
    assert_eq!(pairs.len(), 6, "every pair once");
    // Five games played to their end; the last left to its clock.
    let (last, played) = season.games.split_last().expect("games");
    for game in played {
        while table.random_move(*game, &mut lcg).await.is_some() {}
        assert_eq!(table.record(*game).await.status, GameStatus::Finished);
    }
    let running = table.cmd("erin", "/season").await;
    let state = running.says("season-state-running").expect("running");
    assert_eq!(common::said::num(state, "left"), 1);
    let timed_out = table.record(*last).await;
    let to_move = timed_out.clock.as_ref().expect("a clock").user;
    // The season's days pass: ended once, announced with its standings.
    clock.advance(31 * DAY);
    let told = table.tick().await;
    let over: Vec<&Reply> = told
        .iter()
        .filter(|reply| reply.says("season-standings").is_some())
        .collect();
    assert_eq!(over.len(), 1, "told once");
    assert!(over[0].says("season-winner").is_some());
    assert!(
        table
            .tick()
            .await
            .iter()
            .all(|reply| reply.says("season-standings").is_none()),
        "not twice"
    );
    let season = store.season(season.id).await.expect("season").expect("one");
    assert_eq!(season.status, SeasonStatus::Over);
    // The standings: six points in all (a point a game); everyone played three; the one whose
    // time ran out lost that game.
    let shown = table.cmd("erin", "/season").await;
    assert!(
        shown.says("season-state-over").is_some(),
        "{}",
        text(&shown)
    );
    let lines: Vec<&tabula_service::l10n::Msg> = shown
        .said
        .iter()
        .filter(|msg| msg.id == "season-line")
        .collect();
    assert_eq!(lines.len(), 4);
    let points: Vec<f64> = lines
        .iter()
        .map(|line| {
            let points = common::said::sub(line, "points");
            let whole = common::said::num(points, "whole") as f64;
            match common::said::text_arg(points, "fraction") {
                "none" => whole,
                "5" => whole + 0.5,
                other => panic!("half points only: {other}"),
            }
        })
        .collect();
    assert!(
        (points.iter().sum::<f64>() - 6.0).abs() < 1e-9,
        "{points:?}"
    );
    assert!(
        points.windows(2).all(|w| w[0] >= w[1]),
        "best first: {points:?}"
    );
    for line in &lines {
        assert_eq!(common::said::num(line, "played"), 3);
    }
    // Recomputed here from the records: each person's points.
    let mut expected: Vec<(String, f64)> = Vec::new();
    for game in &season.games {
        let record = table.record(*game).await;
        let seats: Vec<(u8, String, tabula_service::store::UserId)> = record
            .seats
            .iter()
            .map(|h| (h.seat, h.user.platform_user_id.clone(), h.user.id))
            .collect();
        for (seat, name, id) in &seats {
            let mine = if record.status == GameStatus::Active {
                if *id == to_move { 0.0 } else { 1.0 }
            } else {
                let result = record.result.clone().unwrap_or_default();
                // Konane: seat 0 is Black, seat 1 White.
                let team = if *seat == 0 { "black" } else { "white" };
                if result.starts_with("draw") {
                    0.5
                } else if result.starts_with(&format!("winner {team}")) {
                    1.0
                } else {
                    0.0
                }
            };
            match expected.iter_mut().find(|(n, _)| n == name) {
                Some((_, p)) => *p += mine,
                None => expected.push((name.clone(), mine)),
            }
        }
    }
    let mut expected: Vec<f64> = expected.into_iter().map(|(_, p)| p).collect();
    expected.sort_by(|a, b| b.total_cmp(a));
    assert_eq!(points, expected);
    // With pictures on, the standings come as a table picture too.
    assert!(shown.picture.is_none(), "pictures are off here");
    let drawn = Table::with_service(
        tabula_service::service::Service::new(store.clone(), common::table::scripted_dice(113))
            .with_cooldown(None)
            .with_clock(clock.clone()),
        clock.clone(),
    );
    let pictured = drawn.cmd("erin", "/season").await;
    let png = pictured.picture.as_deref().expect("a table picture");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    store.close().await;
}
