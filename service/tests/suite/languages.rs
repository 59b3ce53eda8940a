//! Languages through the service (issue 17): who reads which language — the person's own
//! `/language`, then their platform's locale, then the community's `/config language=`, then
//! English — and that a private answer is in the person's language while the chat sees the
//! community's. On SQLite and PostgreSQL.

use crate::common;

use common::connect;
use common::table::{Lcg, Table, challenge_no, text};
use tabula_service::service::{Audience, Reply, Request, Span, UserError};
use tabula_service::store::{DatabaseUrl, Platform};

on_both_databases! {
    each_person_reads_their_own_language => own_language;
    the_chat_reads_the_communitys_language => community_language;
}

/// Words of Latin letters that a Russian or Bulgarian reply may hold besides what people type
/// (commands, options, notation) and names, which the scan takes out first: the names of a
/// hash and of a time scale, written so in every language, and the people's names of the
/// tests' table, which lists such as `/games` write plainly (without `@`).
const NOT_ENGLISH: &[&str] = &["SHA", "UTC", "ALICE", "BOB", "CAROL", "DAVE"];

/// The English words left in a text meant to be Russian or Bulgarian: runs of three or more
/// Latin letters, once commands (`/accept`), mentions (`@ALICE`), options (`stake=50`) and
/// code (`` `tabula verify` ``) are taken out.
fn english_words(text: &str) -> Vec<String> {
    let mut cleaned = String::new();
    let mut in_code = false;
    for word in text.split_inclusive(char::is_whitespace) {
        let mut kept = String::new();
        for c in word.chars() {
            if c == '`' {
                in_code = !in_code;
                kept.push(' ');
            } else if !in_code {
                kept.push(c);
            }
        }
        let trimmed = kept.trim_start_matches(|c: char| "(«„\"".contains(c));
        if trimmed.starts_with('/') || trimmed.starts_with('@') || trimmed.contains('=') {
            cleaned.push(' ');
        } else {
            cleaned.push_str(&kept);
        }
    }
    cleaned
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|word| word.len() >= 3 && !NOT_ENGLISH.contains(word))
        .map(str::to_string)
        .collect()
}

/// A reply's text with its code spans between backticks (what the scan takes out).
fn with_code_marked(reply: &Reply) -> String {
    reply.spans.iter().map(Span::marked).collect()
}

/// Every text of a scene, groups included.
fn scene_texts(items: &[tabula_render::scene::Item], out: &mut Vec<String>) {
    for item in items {
        match item {
            tabula_render::scene::Item::Text { text, .. } => out.push(text.clone()),
            tabula_render::scene::Item::Group { items, .. } => scene_texts(items, out),
            tabula_render::scene::Item::Path { .. } => {}
        }
    }
}

/// The words drawn on board pictures: a whole random game of each of the five, every position
/// drawn with the words in Russian and in Bulgarian (title, the last action, hints, captions,
/// panels), holds no English word, and the bundled font has every letter.
#[test]
fn board_pictures_in_russian_or_bulgarian_have_no_english() {
    use tabula_core::{AnyGame, GameId};
    use tabula_service::l10n::Lang;
    use tabula_service::service::PictureWords;
    for code in ["ru", "bg"] {
        let words = PictureWords::new(Lang::parse(code).expect("a language"));
        for (i, id) in GameId::ALL.iter().copied().enumerate() {
            let mut rng = Lcg(7 + i as u64);
            let mut game = AnyGame::start(id, &[], None).expect("start");
            let mut last = None;
            let mut drawn = 0;
            loop {
                let scene = tabula_render::scene_in(&game, last.as_ref(), &words);
                let mut texts = Vec::new();
                scene_texts(&scene.board, &mut texts);
                scene_texts(&scene.pieces, &mut texts);
                for text in &texts {
                    assert_eq!(
                        english_words(text),
                        Vec::<String>::new(),
                        "{id} in {code}: {text}"
                    );
                    assert_eq!(
                        tabula_render::raster::missing_glyphs(text).expect("the font"),
                        Vec::<char>::new(),
                        "{text}"
                    );
                }
                drawn += 1;
                let lines = game.legal_lines();
                if lines.is_empty() || drawn > 300 {
                    break;
                }
                let keen: Vec<&String> = lines
                    .iter()
                    .filter(|l| !matches!(l.as_str(), "skip" | "done"))
                    .collect();
                let pick = if keen.is_empty() {
                    lines[rng.below(lines.len())].clone()
                } else {
                    keen[rng.below(keen.len())].clone()
                };
                let action = pick.split(' ').next().unwrap_or_default().to_string();
                last = Some(game.apply_text(&action).expect("legal"));
            }
        }
    }
}

#[test]
fn the_english_scan_finds_english_and_passes_notation() {
    assert_eq!(
        english_words("@ALICE (Белые) прыгнул d4-f4, взяв e4. /accept stake=50 `tabula verify`"),
        Vec::<String>::new()
    );
    assert_eq!(english_words("Партия #1: the dice"), ["the", "dice"]);
}

/// A table whose community speaks `language` (set by a moderator), on a fresh SQLite file
/// (kept while the table is used).
async fn table_in(
    language: &str,
    seed: u64,
) -> (common::SqliteFile, tabula_service::store::Store, Table) {
    let file = common::SqliteFile::new();
    let store = connect(&file.url()).await;
    let table = Table::new(store.clone(), seed);
    let reply = table
        .cmd("mod", &format!("/config language={language}"))
        .await;
    assert!(reply.is_done(), "{}", text(&reply));
    (file, store, table)
}

/// A whole game of each of the five, in a chat whose moderators chose Russian, then
/// Bulgarian: every reply the chat sees, from the challenge to the result, and every word
/// button, holds no English word.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_in_russian_or_bulgarian_has_no_english() {
    for (language, seed) in [("ru", 11_u64), ("bg", 12)] {
        for game in ["konane", "koan", "kolowis", "coan-ki", "pachisi"] {
            let (_file, store, table) = table_in(language, seed).await;
            let mut said = Vec::new();
            let challenge = table.cmd("alice", &format!("/play {game} @bob")).await;
            said.push(challenge.clone());
            let start = table.cmd("bob", "/accept").await;
            let number = start.game.expect("a game started");
            said.push(start);
            // What a player asks for on the way: the rules, the games here, their wallet, the
            // history so far (its notation lines left out of the scan).
            said.push(table.cmd("alice", &format!("/rules {game}")).await);
            said.push(table.cmd("alice", "/games").await);
            let wallet = table.cmd("alice", "/wallet").await;
            assert_eq!(wallet.audience, Audience::Actor);
            said.push(Reply {
                audience: Audience::Chat,
                ..wallet
            });
            let mut lcg = Lcg(seed);
            if let Some((_, reply)) = table.random_move(number, &mut lcg).await {
                said.push(reply);
            }
            let history = table.cmd("carol", &format!("/history #{number}")).await;
            let heading = text(&history)
                .lines()
                .next()
                .unwrap_or_default()
                .to_string();
            assert!(
                english_words(&heading).is_empty(),
                "{language} {game}: {heading}"
            );
            let mut moves = 0;
            while let Some((_, reply)) = table.random_move(number, &mut lcg).await {
                said.push(reply);
                moves += 1;
                assert!(moves < 3_000, "{game} does not end");
            }
            said.push(table.cmd("carol", &format!("/board #{number}")).await);
            said.push(table.cmd("carol", &format!("/moves #{number}")).await);
            for reply in &said {
                assert!(reply.is_done(), "{language} {game}: {}", text(reply));
                let body = with_code_marked(reply);
                // The chat's title is a name too.
                let english = english_words(&body.replace("Test chat", ""));
                assert!(
                    english.is_empty(),
                    "{language} {game}: English {english:?} in: {body}"
                );
                // Konane's, Koan's and Kolowis' moves and every piece button are notation;
                // Coan Ki's and Pachisi's moves are in words (issue 37).
                let in_words = matches!(game, "coan-ki" | "pachisi");
                for button in reply.all_buttons() {
                    let notation =
                        button.data.starts_with('p') || (button.data.starts_with('m') && !in_words);
                    if !notation {
                        let english = english_words(&button.label);
                        assert!(
                            english.is_empty(),
                            "{language} {game}: button {}",
                            button.label
                        );
                    }
                }
            }
            assert!(
                said.last()
                    .is_some_and(|board| board.all_buttons().next().is_none()),
                "{game}: the game ended"
            );
            store.close().await;
        }
    }
}

/// A request from `user` whose app is set to `locale`.
fn in_locale(table: &Table, user: &str, text: &str, locale: Option<&str>) -> Request {
    let mut request = table.command(user, text);
    request.locale = locale.map(str::to_string);
    request
}

fn refused_as(reply: &Reply, check: fn(&UserError) -> bool) {
    assert!(
        reply.refusal().is_some_and(check),
        "{:?}: {}",
        reply.kind,
        text(reply)
    );
}

async fn own_language(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 3);
    // No choice: the platform's locale (Russian), else English.
    let reply = table
        .send(&in_locale(&table, "alice", "/move d4-f4", Some("ru-RU")))
        .await;
    refused_as(&reply, |e| matches!(e, UserError::NoGame));
    assert_eq!(reply.audience, Audience::Actor);
    assert!(
        text(&reply).starts_with("Не получилось: в этом чате нет идущей партии"),
        "{}",
        text(&reply)
    );
    let reply = table
        .send(&in_locale(&table, "alice", "/move d4-f4", Some("de")))
        .await;
    assert!(
        text(&reply).starts_with("Sorry: there is no active game"),
        "{}",
        text(&reply)
    );

    // Her own choice comes first, and is answered in the language chosen.
    let reply = table
        .send(&in_locale(&table, "alice", "/language bg", Some("ru")))
        .await;
    assert!(reply.is_done(), "{}", text(&reply));
    assert_eq!(reply.audience, Audience::Actor);
    assert!(text(&reply).contains("български (bg)"), "{}", text(&reply));
    let reply = table
        .send(&in_locale(&table, "alice", "/move d4-f4", Some("ru")))
        .await;
    assert!(
        text(&reply).starts_with("Не стана: в този чат няма текуща партия"),
        "{}",
        text(&reply)
    );
    // Asked, she is told what she reads (in it).
    let reply = table
        .send(&in_locale(&table, "alice", "/language", Some("ru")))
        .await;
    assert!(
        text(&reply).starts_with("Говоря ви на български (bg)"),
        "{}",
        text(&reply)
    );
    // Another person is not concerned.
    let reply = table
        .send(&in_locale(&table, "bob", "/move d4-f4", None))
        .await;
    assert!(text(&reply).starts_with("Sorry:"), "{}", text(&reply));

    // `auto` forgets the choice: the app's language again.
    let reply = table
        .send(&in_locale(&table, "alice", "/language auto", Some("ru")))
        .await;
    assert!(text(&reply).contains("русский (ru)"), "{}", text(&reply));
    let reply = table
        .send(&in_locale(&table, "alice", "/move d4-f4", Some("ru")))
        .await;
    assert!(
        text(&reply).starts_with("Не получилось:"),
        "{}",
        text(&reply)
    );

    // A language there is not is refused, and changes nothing.
    let reply = table
        .send(&in_locale(&table, "alice", "/language klingon", Some("ru")))
        .await;
    refused_as(
        &reply,
        |e| matches!(e, UserError::UnknownLanguage { given, .. } if given == "klingon"),
    );
    assert!(
        text(&reply).contains("en, ru") || text(&reply).contains("bg, en, ru"),
        "{}",
        text(&reply)
    );
    let alice = store
        .upsert_user(Platform::Local, "alice", &table.display_name("alice"))
        .await
        .expect("alice");
    assert_eq!(
        store
            .languages(alice.id, table.community().await)
            .await
            .expect("languages"),
        (None, None)
    );
    store.close().await;
}

async fn community_language(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 4);
    // Only moderators set it.
    let reply = table.cmd("alice", "/config language=ru").await;
    refused_as(&reply, |e| matches!(e, UserError::NotModerator(_)));
    assert!(
        text(&reply).starts_with("Sorry: only moderators"),
        "{}",
        text(&reply)
    );
    let reply = table.cmd("mod", "/config language=ru").await;
    assert!(reply.is_done(), "{}", text(&reply));
    // The confirmation is said in the language just chosen (issue 37, item 9).
    assert!(reply.says("settings-changed").is_some(), "{}", text(&reply));
    // (Its first line names the key changed, `language`, as typed.)
    let first = text(&reply)
        .lines()
        .next()
        .unwrap_or_default()
        .replace("language", "");
    assert!(
        english_words(&first).is_empty(),
        "in Russian: {}",
        text(&reply)
    );

    // A challenge is seen by the whole chat: its buttons are in the community's language,
    // whatever the challenger's app says.
    let reply = table
        .send(&in_locale(&table, "alice", "/play konane @bob", Some("en")))
        .await;
    assert!(reply.is_done(), "{}", text(&reply));
    assert_eq!(reply.audience, Audience::Chat);
    let labels: Vec<&str> = reply.all_buttons().map(|b| b.label.as_str()).collect();
    assert_eq!(labels, ["Принять", "Отклонить", "Отменить"]);
    let cancel = format!("/cancel #{}", challenge_no(&reply));
    // A refusal only Bob sees follows his app's language (English), not the community's.
    let reply = table
        .send(&in_locale(&table, "bob", &cancel, Some("en-GB")))
        .await;
    refused_as(&reply, |e| matches!(e, UserError::NotChallenger(_)));
    assert!(
        text(&reply).starts_with("Sorry: only the challenger"),
        "{}",
        text(&reply)
    );
    // Without a locale, the community's language.
    let reply = table.send(&in_locale(&table, "bob", &cancel, None)).await;
    assert!(
        text(&reply).starts_with("Не получилось: отменить вызов #"),
        "{}",
        text(&reply)
    );

    // `none` goes back to English for the chat.
    let reply = table.cmd("mod", "/config language=none").await;
    assert!(reply.is_done(), "{}", text(&reply));
    let reply = table.cmd("carol", "/play koan @dave").await;
    let labels: Vec<&str> = reply.all_buttons().map(|b| b.label.as_str()).collect();
    assert_eq!(labels, ["Accept", "Decline", "Cancel"]);
    store.close().await;
}

/// Issue 37, item 5, in Russian and Bulgarian: a Pachisi game of four names its teams in words
/// of the chat's language: the start message, `/games` and its buttons (a player's partner apart
/// from the opponents) hold no English word.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pachisi_teams_are_named_in_russian_and_bulgarian() {
    for (language, seed) in [("ru", 21_u64), ("bg", 22)] {
        let (_file, store, table) = table_in(language, seed).await;
        table.cmd("alice", "/play pachisi @bob @carol @dave").await;
        for name in ["bob", "carol"] {
            table.cmd(name, "/accept").await;
        }
        let started = table.cmd("dave", "/accept").await;
        assert!(started.says("game-begins").is_some(), "{}", text(&started));
        let games = table.cmd("alice", "/games").await;
        assert!(games.is_done(), "{}", text(&games));
        for reply in [&started, &games] {
            let body = with_code_marked(reply);
            let english = english_words(&body.replace("Test chat", ""));
            assert!(
                english.is_empty(),
                "{language}: English {english:?} in: {body}"
            );
        }
        let labels: Vec<&str> = games.all_buttons().map(|b| b.label.as_str()).collect();
        for label in &labels {
            let english = english_words(label);
            assert!(
                english.is_empty(),
                "{language}: English {english:?} in {label}"
            );
        }
        store.close().await;
    }
}
