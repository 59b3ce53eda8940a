//! The English voice check: how the bot's English sentences read (issue 14, items 8–14). Every
//! event is told once, naming the person and the seat once; every ending is one result
//! sentence naming the winners, their seats or teams capitalised; Coan Ki's dice are told in
//! words; hints repeat the command that was typed; stakes switched off say so; `/games` names
//! the games, players and turns; a game ended by resignation or abort is pictured with its
//! result. Through the service over SQLite. This module reads English on purpose, where the
//! wording is what it checks; which message was said is asserted by its id
//! ([`Reply::says`]), as in the rest of the suite.

use crate::common;

use common::SqliteFile;
use common::said::{coins, people, said, said_all, sub, text_arg};
use common::table::{Lcg, Table, scripted_dice, start, text};
use tabula_core::{GameId, Status};
use tabula_service::service::{Audience, Clock, Kind, Reply, Service, Span, UserError};
use tabula_service::store::{GameNo, GameStatus};

const GAMES: [GameId; 5] = [
    GameId::Konane,
    GameId::Koan,
    GameId::Kolowis,
    GameId::CoanKi,
    GameId::Pachisi,
];

/// How often `needle` occurs in `haystack`.
fn count(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

/// How often `word` occurs in `haystack` as a whole word (`throw` is not in `throws`).
fn count_word(haystack: &str, word: &str) -> usize {
    haystack
        .match_indices(word)
        .filter(|(at, _)| {
            let before = haystack[..*at].chars().next_back();
            let after = haystack[at + word.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
        })
        .count()
}

/// The people a reply mentions (platform ids).
fn mentioned(reply: &Reply) -> Vec<String> {
    reply
        .spans
        .iter()
        .filter_map(|span| match span {
            Span::Mention(person) => Some(person.id.clone()),
            _ => None,
        })
        .collect()
}

fn refused(reply: &Reply, check: fn(&UserError) -> bool) {
    assert!(
        reply.refusal().is_some_and(check),
        "{:?}: {}",
        reply.kind,
        text(reply)
    );
}

/// Plays `game` to its end with moves typed by whoever is to move; every reply is checked:
/// the move's notation and the result are told at most once, seats are capitalised, and the
/// dice are told in words. Returns the replies.
async fn play_out(table: &Table, game: GameNo, seed: u64) -> Vec<Reply> {
    let mut lcg = Lcg(seed);
    let mut replies = Vec::new();
    for _ in 0..5000 {
        let (state, actor) = table.state(game).await;
        if matches!(state.status(), Status::Done(_)) || actor.is_none() {
            break;
        }
        let lines = state.legal_lines();
        let line = lines[lcg.below(lines.len())].clone();
        let Some(actor) = actor else { break };
        let reply = table.cmd(&actor, &format!("/move #{game} {line}")).await;
        assert!(
            reply.is_done(),
            "{line}: {:?}: {}",
            reply.kind,
            text(&reply)
        );
        let body = text(&reply);
        assert!(count_word(&body, &line) <= 1, "{line} told twice: {body}");
        assert!(count(&body, " is over: ") <= 1, "result told twice: {body}");
        assert!(
            count(&body, " wins") + count(&body, " win.") + count(&body, " win:") <= 1,
            "winner told twice: {body}"
        );
        for jargon in [
            "Rolled ",
            "(white)",
            "(black)",
            "(S)",
            "(N)",
            " 1 coins",
            "the game is over",
        ] {
            assert!(!body.contains(jargon), "`{jargon}` in {body}");
        }
        // The mover is named once in the sentence of the move.
        assert_eq!(reply.audience, Audience::Chat, "{body}");
        replies.push(reply);
    }
    replies
}

#[tokio::test]
async fn whole_games_of_all_five_tell_each_move_and_the_result_once() {
    let file = SqliteFile::new();
    let store = common::connect(&file.url()).await;
    for (i, id) in GAMES.into_iter().enumerate() {
        let seed = 11 + i as u64;
        let table = Table::new(store.clone(), seed);
        let game = start(&table, "alice", "bob", &id.to_string()).await;
        let replies = play_out(&table, game, seed).await;
        let record = table.record(game).await;
        assert_eq!(record.status, GameStatus::Finished, "{id} did not end");
        let Some(last) = replies.last() else {
            panic!("{id}: no moves");
        };
        let body = text(last);
        assert!(
            body.contains(&format!("Game #{game} ({}) is over: @", id.name())),
            "{id}: {body}"
        );
        // The winners are named as people, with their seat or team capitalised.
        assert!(
            body.contains(") wins.") || body.contains(") win.") || body.contains("is a draw"),
            "{id}: {body}"
        );
        let drawn = last.says("verdict-draw").is_some();
        assert!(
            drawn || last.says("verdict-winner").is_some(),
            "{id}: {body}"
        );
        assert!(!mentioned(last).is_empty(), "{id}: {body}");
        assert!(
            last.all_buttons().all(|b| !b.data.starts_with(['m', 'p'])),
            "{id}: move buttons after the end"
        );
        if id == GameId::Pachisi && !drawn {
            assert!(
                body.contains("(South and North) win") || body.contains("(East and West) win"),
                "{body}"
            );
        }
        // The board and the history of the finished game say the same result once.
        let board = text(&table.cmd("carol", &format!("/board #{game}")).await);
        assert_eq!(count(&board, " is over: "), 1, "{board}");
        let history = table.cmd("carol", &format!("/history #{game}")).await;
        said(&history, "history-result");
        // Rolls in words, never the engine's `roll:` notation (issue 37).
        assert!(!text(&history).contains("roll:"), "{}", text(&history));
        let rolls = [
            "rolled",
            "rolled-double",
            "history-roll-off",
            "history-thrown",
        ]
        .iter()
        .filter(|id| history.says(id).is_some())
        .count();
        match id {
            GameId::CoanKi | GameId::Pachisi => {
                assert!(rolls > 0, "the rolls are told: {}", text(&history));
            }
            _ => assert_eq!(rolls, 0, "{}", text(&history)),
        }
        assert!(
            history.says("result").is_some() || history.says("result-because").is_some(),
            "the history ends with the result sentence: {}",
            text(&history)
        );
        assert!(
            !text(&history).contains("Result: winner"),
            "{}",
            text(&history)
        );
    }
    store.close().await;
}

#[tokio::test]
async fn a_move_is_one_sentence_naming_the_person_and_the_seat() {
    let file = SqliteFile::new();
    let store = common::connect(&file.url()).await;
    let table = Table::new(store.clone(), 3);
    let game = start(&table, "alice", "bob", "koan").await;
    let (state, actor) = table.state(game).await;
    let Some(actor) = actor else {
        panic!("nobody to move")
    };
    let line = state.legal_lines()[0].clone();
    let reply = table.cmd(&actor, &format!("/move {line}")).await;
    let body = text(&reply);
    assert!(reply.is_done(), "{body}");
    assert_eq!(count_word(&body, &line), 1, "{body}");
    assert!(
        body.starts_with(&format!("@{} (White) played {line}", actor.to_uppercase())),
        "{body}"
    );
    // The person who moved is mentioned once; the next player once, on the board line.
    let mentions = mentioned(&reply);
    assert_eq!(
        mentions.iter().filter(|m| **m == actor).count(),
        1,
        "{body}"
    );
    assert_eq!(mentions.len(), 2, "{body}");
    store.close().await;
}

#[tokio::test]
async fn every_ending_is_one_result_sentence_naming_the_winners() {
    let file = SqliteFile::new();
    let store = common::connect(&file.url()).await;
    let table = Table::new(store.clone(), 5);

    // Resignation.
    let game = start(&table, "alice", "bob", "konane").await;
    let reply = table.confirmed("bob", "/resign").await;
    let body = text(&reply);
    assert!(reply.is_done() && reply.game == Some(game), "{body}");
    assert_eq!(reply.audience, Audience::Chat);
    assert!(
        body.starts_with(&format!("Game #{game} (Konane) is over: @BOB (")),
        "{body}"
    );
    assert!(body.contains(") resigned, so @ALICE ("), "{body}");
    assert!(body.contains(") wins."), "{body}");
    let result = said(&reply, "result-because");
    let (cause, verdict) = (sub(result, "cause"), sub(result, "verdict"));
    assert_eq!(
        (cause.id, people(cause, "people")),
        ("cause-resigned", vec!["bob".to_string()])
    );
    assert_eq!(
        (verdict.id, people(verdict, "people")),
        ("verdict-winner", vec!["alice".to_string()])
    );
    assert_eq!(count(&body, "wins"), 1, "{body}");
    assert!(
        !body.contains("(white)") && !body.contains("(black)"),
        "{body}"
    );
    // Afterwards the board tells the same result, without move buttons.
    let board = table.cmd("carol", &format!("/board #{game}")).await;
    let told = text(&board);
    assert!(told.contains(") resigned, so @ALICE ("), "{told}");
    assert!(
        board.all_buttons().all(|b| !b.data.starts_with(['m', 'p'])),
        "{told}"
    );

    // Abort before any move: no result.
    let game = start(&table, "alice", "bob", "koan").await;
    let reply = table.confirmed("alice", &format!("/abort #{game}")).await;
    let body = text(&reply);
    assert!(reply.is_done(), "{body}");
    assert!(
        body.starts_with(&format!("Game #{game} (Koan) is over: @ALICE aborted it")),
        "{body}"
    );
    let result = said(&reply, "result-because");
    let cause = sub(result, "cause");
    assert_eq!(
        (cause.id, people(cause, "person"), sub(result, "verdict").id),
        (
            "cause-aborted",
            vec!["alice".to_string()],
            "verdict-aborted"
        ),
        "alice aborted it, so there is no result"
    );
    store.close().await;
}

#[tokio::test]
async fn coan_ki_dice_are_told_in_words_and_a_double_one_asks_for_a_removal() {
    let file = SqliteFile::new();
    let store = common::connect(&file.url()).await;
    let mut rolled = false;
    let mut removal = false;
    for seed in 1..40u64 {
        let table = Table::new(store.clone(), seed);
        let game = start(&table, "alice", "bob", "coan-ki stake=100").await;
        for reply in play_out(&table, game, seed).await {
            let body = text(&reply);
            if ["rolled", "rolled-double", "rolled-double-one-fined"]
                .iter()
                .any(|id| reply.says(id).is_some())
            {
                assert!(body.contains(") rolled a "), "{body}");
                rolled = true;
            }
            let removals = reply
                .says("board-turn")
                .is_some_and(|turn| text_arg(turn, "task") == "remove");
            if removals {
                removal = true;
                // A button per piece that may go, said in words ("Remove h2").
                assert!(reply.all_buttons().count() > 0, "{body}");
                assert!(
                    reply.all_buttons().all(|b| !b.label.contains("remove:")),
                    "{body}"
                );
                // The double one is told with its fine, once, in coins.
                let fines = said_all(&reply, "rolled-double-one-fined");
                assert_eq!(fines.len(), 1, "{body}");
                assert_eq!(coins(fines[0], "fine"), 10, "{body}");
                assert_eq!(count(&body, "a fine of"), 1, "{body}");
                assert!(body.contains("a fine of 10 coins"), "{body}");
            }
        }
        if rolled && removal {
            break;
        }
    }
    assert!(rolled, "no roll was told");
    assert!(removal, "no double one was met");
    store.close().await;
}

#[tokio::test]
async fn hints_repeat_the_command_that_was_typed() {
    let file = SqliteFile::new();
    let store = common::connect(&file.url()).await;
    let table = Table::new(store.clone(), 7);

    // Two challenges waiting for bob: /decline suggests /decline with a number.
    table.cmd("alice", "/play konane @bob").await;
    table.cmd("carol", "/play koan @bob").await;
    let reply = table.cmd("bob", "/decline").await;
    refused(&reply, |e| matches!(e, UserError::WhichChallenge(..)));
    assert!(code_starts(&reply, "/decline #"), "{}", text(&reply));
    assert!(!text(&reply).contains("/accept"), "{}", text(&reply));
    let reply = table.cmd("bob", "/accept").await;
    assert!(code_starts(&reply, "/accept #"), "{}", text(&reply));

    // Two challenges by dave: /cancel suggests /cancel with a number.
    table.cmd("dave", "/play konane @erin").await;
    table.cmd("dave", "/play koan @erin").await;
    let reply = table.cmd("dave", "/cancel").await;
    refused(&reply, |e| matches!(e, UserError::WhichChallenge(..)));
    assert!(code_starts(&reply, "/cancel #"), "{}", text(&reply));

    // Two games: a move by someone in neither suggests the same move with a number.
    let first = start(&table, "frank", "gina", "koan").await;
    start(&table, "hugo", "ivy", "koan").await;
    let reply = table.cmd("judy", "/move A1-A3").await;
    refused(&reply, |e| matches!(e, UserError::WhichGame(..)));
    assert!(
        code_starts(&reply, &format!("/move #{first} A1-A3")),
        "{}",
        text(&reply)
    );
    store.close().await;
}

/// Whether a reply shows code (a command to copy, which each platform shows as code, never as
/// backticks) starting with `start`.
fn code_starts(reply: &Reply, start: &str) -> bool {
    reply
        .spans
        .iter()
        .any(|span| matches!(span, Span::Code(code) if code.starts_with(start)))
}

#[tokio::test]
async fn stakes_switched_off_say_so() {
    let file = SqliteFile::new();
    let store = common::connect(&file.url()).await;
    let table = Table::new(store.clone(), 8);
    let reply = table.cmd("mod", "/config max_stake=0").await;
    assert!(reply.is_done(), "{}", text(&reply));
    let reply = table.cmd("alice", "/play koan @bob stake=10").await;
    refused(&reply, |e| matches!(e, UserError::StakesOff));
    said(&reply, "stakes-off");
    // A friendly game is still fine.
    let reply = table.cmd("alice", "/play koan @bob stake=0").await;
    assert!(reply.is_done(), "{}", text(&reply));
    store.close().await;
}

#[tokio::test]
async fn games_lists_names_players_and_turns() {
    let file = SqliteFile::new();
    let store = common::connect(&file.url()).await;
    let table = Table::new(store.clone(), 9);
    let konane = start(&table, "alice", "bob", "konane").await;
    let koan = start(&table, "carol", "dave", "koan").await;
    let reply = table.cmd("alice", "/games").await;
    let body = text(&reply);
    assert!(reply.is_done(), "{body}");
    assert!(!body.contains("(action"), "{body}");
    assert!(body.contains(&format!("#{konane} Konane: ")), "{body}");
    assert!(body.contains(&format!("#{koan} Koan: ")), "{body}");
    assert!(body.contains("ALICE (") && body.contains(" vs "), "{body}");
    assert_eq!(count(&body, " to move."), 2, "{body}");
    let labels: Vec<&str> = reply.all_buttons().map(|b| b.label.as_str()).collect();
    assert!(
        labels.contains(&format!("#{konane} Konane vs BOB").as_str()),
        "{labels:?}"
    );
    assert!(
        labels.contains(&format!("#{koan} Koan: CAROL vs DAVE").as_str()),
        "{labels:?}"
    );
    store.close().await;
}

#[tokio::test]
async fn a_resigned_game_is_pictured_with_its_result() {
    let file = SqliteFile::new();
    let store = common::connect(&file.url()).await;
    let clock = Clock::manual(common::table::T0);
    let table = Table::with_service(
        Service::new(store.clone(), scripted_dice(4)).with_clock(clock.clone()),
        clock,
    );
    let game = start(&table, "alice", "bob", "konane").await;
    let reply = table.confirmed("alice", "/resign").await;
    assert!(reply.is_done(), "{}", text(&reply));
    assert!(
        reply.picture.is_some(),
        "the resignation shows the ended board"
    );
    let game2 = start(&table, "carol", "dave", "koan").await;
    let reply = table.confirmed("carol", &format!("/abort #{game2}")).await;
    assert!(
        reply.is_done() && reply.picture.is_some(),
        "{}",
        text(&reply)
    );
    let board = table.cmd("carol", &format!("/board #{game}")).await;
    assert_eq!(board.kind, Kind::Done, "{}", text(&board));
    assert!(board.picture.is_some());
    // The picture's header is the result, not whose turn it was.
    let (state, _) = table.state(game).await;
    let title = "Black resigned: White wins";
    let titled = tabula_render::scene_titled(&state, None, title).to_string();
    let plain = tabula_render::scene(&state, None).to_string();
    assert!(titled.contains(title), "{titled}");
    assert!(!titled.contains("to remove a stone") && !titled.contains("to move"));
    assert!(plain.contains("to remove a stone") || plain.contains("to move"));
    store.close().await;
}

/// Issue 14 item 13: after a game ends, plain `/board`, `/moves` and `/history` show the
/// caller's most recent game of the chat instead of "no active game"; someone who played no
/// game here is still told there is none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_still_shown_to_its_players() {
    let file = SqliteFile::new();
    let store = common::connect(&file.url()).await;
    let clock = Clock::manual(common::table::T0);
    let table = Table::with_service(
        Service::new(store.clone(), scripted_dice(4)).with_clock(clock.clone()),
        clock,
    );
    let first = start(&table, "alice", "bob", "konane").await;
    assert!(table.confirmed("alice", "/resign").await.is_done());
    let second = start(&table, "alice", "bob", "koan").await;
    assert!(table.confirmed("bob", "/resign").await.is_done());
    for command in ["/board", "/moves", "/history"] {
        let reply = table.cmd("alice", command).await;
        assert_eq!(reply.kind, Kind::Done, "{command}: {}", text(&reply));
        assert_eq!(reply.game, Some(second), "{command}: the latest game");
    }
    assert_ne!(first, second);
    let stranger = table.cmd("carol", "/board").await;
    refused(&stranger, |e| matches!(e, UserError::NoGame));
    store.close().await;
}

/// Issue 37, item 5: Pachisi's sides are teams. `/games` tells each side with its people and
/// seats, and the button of a player's own game names their partner apart from the opponents.
#[tokio::test]
async fn games_names_pachisi_teams() {
    let file = SqliteFile::new();
    let store = common::connect(&file.url()).await;
    let table = Table::new(store.clone(), 9);
    table.cmd("alice", "/play pachisi @bob @carol @dave").await;
    for name in ["bob", "carol"] {
        table.cmd(name, "/accept").await;
    }
    let started = table.cmd("dave", "/accept").await;
    let game = started.game.expect("a game");
    let record = table.record(game).await;
    let team_of = |name: &str| {
        let seat = record
            .seats
            .iter()
            .find(|h| h.user.platform_user_id == name)
            .expect("seated")
            .seat;
        seat % 2
    };
    let partner = ["bob", "carol", "dave"]
        .into_iter()
        .find(|name| team_of(name) == team_of("alice"))
        .expect("a partner");
    // The start names the teams: each side's people, then its seats.
    let begins = said(&started, "game-begins");
    let sides = common::said::within(sub(begins, "seats"));
    assert_eq!(
        sides.iter().filter(|m| m.id == "result-side").count(),
        2,
        "{sides:?}"
    );

    let reply = table.cmd("alice", "/games").await;
    assert!(reply.is_done(), "{}", text(&reply));
    let line = said(&reply, "games-line");
    let sides: Vec<&tabula_service::l10n::Msg> = common::said::within(line)
        .into_iter()
        .filter(|m| m.id == "games-side")
        .collect();
    assert_eq!(sides.len(), 2, "one side per team: {}", text(&reply));
    for side in &sides {
        assert!(
            ["team-south-north", "team-east-west"].contains(&sub(side, "seats").id),
            "{side:?}"
        );
    }
    let button = reply
        .all_buttons()
        .find(|b| b.data == format!("b{game}"))
        .expect("the game's button");
    // The label names the partner first, then both opponents.
    let label = &button.label;
    let at = |name: &str| {
        label
            .find(&table.display_name(name))
            .unwrap_or_else(|| panic!("{name} is not on {label:?}"))
    };
    for other in ["bob", "carol", "dave"]
        .into_iter()
        .filter(|n| *n != partner)
    {
        assert!(
            at(partner) < at(other),
            "{partner} before {other}: {label:?}"
        );
    }
    store.close().await;
}
