//! Game records (issue 19) through the service over SQLite, with the operating system's dice:
//! a whole Coan Ki game and a whole Pachisi game are committed before anyone accepts, their
//! rolls follow the seed, `/export` gives a record that `tabula verify`'s check accepts, and a
//! copy with one roll, one move, the seed or the commitment changed is refused, naming the line.

use crate::common;

use common::SqliteFile;
use common::said::{num, said};
use common::table::{Lcg, T0, Table, challenge_no, text};
use tabula_core::{AnyGame, GameId, Status};
use tabula_service::export::{Record, Seed, commitment, verify};
use tabula_service::l10n::Arg;
use tabula_service::service::{
    Clock, Dice, FINGERPRINT_DIGITS, FileKind, Reply, Service, Span, UserError,
};
use tabula_service::store::{GameNo, GameStatus};

/// A table whose service rolls the operating system's dice (so its games have committed
/// dice), over a fresh SQLite file.
async fn table(file: &SqliteFile) -> Table {
    let store = common::connect(&file.url()).await;
    let clock = Clock::manual(T0);
    let service = Service::new(store, Dice::Os)
        .with_pictures(false)
        .with_cooldown(None)
        .with_clock(clock.clone());
    Table::with_service(service, clock)
}

/// The code spans of a reply that are a commitment's fingerprint: its first
/// [`FINGERPRINT_DIGITS`] hex digits (the chat is never shown all 64).
fn hex_codes(reply: &Reply) -> Vec<String> {
    reply
        .spans
        .iter()
        .filter_map(|span| match span {
            Span::Code(code)
                if code.len() == FINGERPRINT_DIGITS
                    && code.bytes().all(|b| b.is_ascii_hexdigit()) =>
            {
                Some(code.clone())
            }
            _ => None,
        })
        .collect()
}

/// Whether a record's `Commitment` header is the commitment whose fingerprint was `shown`.
fn commits_to(record: &Record, shown: &str) -> bool {
    record
        .get("Commitment")
        .is_some_and(|(c, _)| c.len() == 64 && c.starts_with(shown))
}

/// `/export` of `game` by `who`: the record file, read.
async fn export(table: &Table, who: &str, game: GameNo) -> (Reply, Record) {
    let reply = table.cmd(who, &format!("/export #{game}")).await;
    assert!(reply.is_done(), "{:?}: {}", reply.kind, text(&reply));
    let file = reply.file.clone().expect("the record is attached");
    assert_eq!(file.name, format!("tabula-game-{game}.txt"));
    let record = Record::parse(&String::from_utf8(file.bytes).expect("UTF-8"))
        .expect("the record reads back");
    (reply, record)
}

/// Plays `game` to its end with random legal moves, typed by whoever is to move; returns the
/// reply that ended it.
async fn play_to_the_end(table: &Table, game: GameNo, seed: u64) -> Reply {
    let mut lcg = Lcg(seed);
    for _ in 0..20_000 {
        let (_, reply) = table
            .random_move(game, &mut lcg)
            .await
            .expect("someone is to move in an active game");
        if table.record(game).await.status != GameStatus::Active {
            return reply;
        }
    }
    panic!("game {game} did not end in 20,000 moves");
}

/// The line of a record's text that holds `line` (from 1) replaced by `with`.
fn replace_line(text: &str, line: usize, with: &str) -> String {
    text.lines()
        .enumerate()
        .map(|(i, l)| if i + 1 == line { with } else { l })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The text of the header `key` in a record's text, with its value replaced.
fn with_header(text: &str, record: &Record, key: &str, value: &str) -> String {
    let (_, line) = record.get(key).expect("the header is there");
    replace_line(text, line, &format!("[{key} \"{value}\"]"))
}

/// One hex digit changed.
fn flip(hex: &str) -> String {
    let mut chars: Vec<char> = hex.chars().collect();
    chars[10] = if chars[10] == '0' { '1' } else { '0' };
    chars.into_iter().collect()
}

/// Checks that a whole game's record verifies and that every kind of tampering is refused at
/// the tampered line.
fn check_record(id: GameId, record: &Record) {
    let text = record.to_string();
    let verified = verify(record).expect("the record verifies");
    let rolls = record
        .actions
        .iter()
        .filter(|(a, _)| a.starts_with("roll:"))
        .count();
    assert!(rolls > 10, "{id}: only {rolls} rolls");
    assert_eq!(verified.rolls_checked, rolls);
    assert_eq!(verified.rolls_unchecked, 0);
    assert_eq!(verified.actions, record.actions.len());

    // One roll changed: another outcome of the same chance node.
    let mut state = AnyGame::start(id, &[], None).expect("starts");
    let mut roll_changed = false;
    for (action, line) in &record.actions {
        if state.status() == Status::Chance && !roll_changed {
            let other = state
                .chance_outcomes()
                .into_iter()
                .map(|(roll, _)| roll)
                .find(|roll| roll != action)
                .expect("a chance node has several outcomes");
            let tampered = Record::parse(&replace_line(&text, *line, &other)).expect("reads");
            let failure = verify(&tampered).expect_err("a changed roll is refused");
            assert_eq!(failure.line, *line, "{failure}");
            assert!(failure.why.contains("by the seed"), "{failure}");
            roll_changed = true;
        }
        state.apply_text(action).expect("the record replays");
    }
    assert!(roll_changed);

    // One move changed: a move of the record that is not legal where it is put.
    let mut state = AnyGame::start(id, &[], None).expect("starts");
    let moves: Vec<&String> = record
        .actions
        .iter()
        .map(|(a, _)| a)
        .filter(|a| !a.starts_with("roll:"))
        .collect();
    let mut move_changed = false;
    for (index, (action, line)) in record.actions.iter().enumerate() {
        if index > record.actions.len() / 2
            && !move_changed
            && matches!(state.status(), Status::Decision(_))
        {
            let legal = state.legal_lines();
            if let Some(other) = moves.iter().find(|m| !legal.contains(m)) {
                let tampered = Record::parse(&replace_line(&text, *line, other)).expect("reads");
                let failure = verify(&tampered).expect_err("an illegal move is refused");
                assert_eq!(failure.line, *line, "{failure}");
                assert!(failure.why.contains("not legal"), "{failure}");
                move_changed = true;
            }
        }
        state.apply_text(action).expect("the record replays");
    }
    assert!(move_changed);

    // The seed changed: it no longer gives the rolls, nor matches the commitment.
    let (seed, seed_line) = record.get("Seed").expect("a finished game shows its seed");
    let tampered = Record::parse(&with_header(&text, record, "Seed", &flip(seed))).expect("reads");
    let failure = verify(&tampered).expect_err("a changed seed is refused");
    assert_eq!(failure.line, seed_line, "{failure}");

    // The commitment changed: every roll follows the seed, which is not the one committed.
    let (committed, commitment_line) = record.get("Commitment").expect("committed");
    let tampered =
        Record::parse(&with_header(&text, record, "Commitment", &flip(committed))).expect("reads");
    let failure = verify(&tampered).expect_err("a changed commitment is refused");
    assert_eq!(failure.line, commitment_line, "{failure}");

    // The salt changed: the rolls no longer follow.
    let (salt, _) = record.get("Salt").expect("salted");
    let tampered =
        Record::parse(&with_header(&text, record, "Salt", &format!("{salt}x"))).expect("reads");
    let failure = verify(&tampered).expect_err("another salt gives other rolls");
    assert!(failure.why.contains("by the seed"), "{failure}");
}

#[tokio::test]
async fn a_coan_ki_game_is_committed_exported_and_verified() {
    let file = SqliteFile::new();
    let table = table(&file).await;
    let challenge = table.cmd("alice", "/play coan-ki @bob").await;
    assert!(challenge.is_done(), "{}", text(&challenge));
    // The commitment is shown before anyone accepts.
    let shown = hex_codes(&challenge);
    assert_eq!(shown.len(), 1, "{}", text(&challenge));
    let no = challenge_no(&challenge);
    // Bob presses Accept: the platform's id of the press salts the dice.
    let mut accept = table.button("bob", &format!("a{no}"));
    accept.nonce = Some("4387234981239847".into());
    let started = table.send(&accept).await;
    let game = started.game.expect("the game started");
    assert!(text(&started).contains(&shown[0]), "{}", text(&started));
    let stored = table.record(game).await;
    let dice = stored.dice.clone().expect("committed dice");
    assert_eq!(dice.salt(game), format!("{game}:4387234981239847"));
    let seed = Seed::from_hex(&dice.seed).expect("hex");
    assert!(commitment(&seed).starts_with(&shown[0]), "{}", shown[0]);
    // The seed is in no reply before the end.
    assert!(!text(&started).contains(&dice.seed));

    // Halfway: the record of a running game verifies its moves, leaves the seed out, and
    // counts its rolls as not checked.
    let mut lcg = Lcg(7);
    for _ in 0..20 {
        table.random_move(game, &mut lcg).await;
    }
    let (reply, running) = export(&table, "carol", game).await;
    assert!(!text(&reply).contains(&dice.seed));
    assert_eq!(running.get("Seed"), None);
    assert_eq!(running.get("Result").map(|(r, _)| r), Some("*"));
    assert!(commits_to(&running, &shown[0]));
    assert_eq!(running.get("SaltSource").map(|(s, _)| s), Some("platform"));
    let checked = verify(&running).expect("a running game's record verifies");
    assert_eq!(checked.rolls_checked, 0);
    assert!(checked.rolls_unchecked > 0);

    let ended = play_to_the_end(&table, game, 11).await;
    // The end reveals the seed.
    assert_eq!(revealed_seed(&ended), dice.seed);
    let (_, record) = export(&table, "bob", game).await;
    assert_eq!(record.get("Game").map(|(g, _)| g), Some("coan-ki"));
    assert_eq!(
        record.get("Id").map(|(i, _)| i),
        Some(game.to_string().as_str())
    );
    assert_eq!(
        record.get("Seats").map(|(s, _)| s.contains("ALICE")),
        Some(true)
    );
    // RFC 3339 in UTC, to the second (the store stamps the game when it creates it).
    let (started, _) = record.get("Started").expect("a start");
    assert!(
        started.len() == 20 && &started[10..11] == "T" && started.ends_with('Z'),
        "{started}"
    );
    assert_eq!(record.get("Seed").map(|(s, _)| s), Some(dice.seed.as_str()));
    let stored = table.record(game).await;
    assert_eq!(
        record.get("Result").map(|(r, _)| r),
        stored.result.as_deref()
    );
    check_record(GameId::CoanKi, &record);

    // `/replay`: the game as an animated GIF, one frame for the start and one per action.
    let replay = table.cmd("carol", &format!("/replay #{game}")).await;
    assert!(replay.is_done(), "{:?}: {}", replay.kind, text(&replay));
    let file = replay.file.clone().expect("the animation is attached");
    assert_eq!(file.kind, FileKind::Animation);
    assert_eq!(file.name, format!("tabula-game-{game}.gif"));
    let mut decoder = gif::DecodeOptions::new()
        .read_info(file.bytes.as_slice())
        .expect("a GIF");
    let mut frames = 0;
    while decoder.read_next_frame().expect("a frame").is_some() {
        frames += 1;
    }
    assert_eq!(frames, record.actions.len() + 1);
    assert_eq!(
        usize::try_from(num(said(&replay, "replay-posted"), "actions")),
        Ok(record.actions.len()),
        "the reply counts the actions"
    );
}

#[tokio::test]
async fn a_pachisi_game_of_four_is_committed_exported_and_verified() {
    let file = SqliteFile::new();
    let table = table(&file).await;
    let challenge = table.cmd("alice", "/play pachisi @bob @carol @dave").await;
    assert!(challenge.is_done(), "{}", text(&challenge));
    let shown = hex_codes(&challenge);
    assert_eq!(shown.len(), 1, "{}", text(&challenge));
    // Typed acceptances: nothing the bot cannot predict salts these dice.
    for who in ["bob", "carol"] {
        let waiting = table.cmd(who, "/accept").await;
        assert!(waiting.is_done(), "{}", text(&waiting));
        // The message updated in place keeps the commitment.
        assert_eq!(hex_codes(&waiting), shown, "{}", text(&waiting));
    }
    let started = table.cmd("dave", "/accept").await;
    let game = started.game.expect("the game started");
    let ended = play_to_the_end(&table, game, 3).await;
    let dice = table.record(game).await.dice.expect("committed dice");
    assert_eq!(revealed_seed(&ended), dice.seed);
    let (_, record) = export(&table, "alice", game).await;
    assert_eq!(
        record.get("Salt").map(|(s, _)| s),
        Some(format!("{game}:none").as_str())
    );
    assert_eq!(record.get("SaltSource").map(|(s, _)| s), Some("none"));
    assert!(commits_to(&record, &shown[0]));
    check_record(GameId::Pachisi, &record);
}

#[tokio::test]
async fn games_without_chance_have_no_dice_and_scripted_dice_commit_nothing() {
    let file = SqliteFile::new();
    let table = table(&file).await;
    let challenge = table.cmd("alice", "/play konane @bob").await;
    assert!(hex_codes(&challenge).is_empty(), "{}", text(&challenge));
    let started = table.cmd("bob", "/accept").await;
    let game = started.game.expect("a game");
    assert_eq!(table.record(game).await.dice, None);
    let (_, record) = export(&table, "bob", game).await;
    assert_eq!(record.get("Dice"), None);
    assert_eq!(record.get("Commitment"), None);
    let verified = verify(&record).expect("verifies");
    assert_eq!(verified.rolls_checked, 0);

    // Scripted dice (the tests' own): rolls as scripted, marked not verifiable.
    let scripted = SqliteFile::new();
    let table = Table::new(common::connect(&scripted.url()).await, 5);
    let challenge = table.cmd("alice", "/play coan-ki @bob").await;
    assert!(hex_codes(&challenge).is_empty(), "{}", text(&challenge));
    let game = table.cmd("bob", "/accept").await.game.expect("a game");
    let mut lcg = Lcg(1);
    for _ in 0..5 {
        table.random_move(game, &mut lcg).await;
    }
    let (reply, record) = export(&table, "bob", game).await;
    said(&reply, "export-unchecked");
    assert!(
        record
            .get("Dice")
            .is_some_and(|(d, _)| d.starts_with("not verifiable"))
    );
    let failure = verify(&record).expect_err("its rolls cannot be checked");
    let first_roll = record
        .actions
        .iter()
        .find(|(a, _)| a.starts_with("roll:"))
        .map(|(_, line)| *line);
    assert_eq!(Some(failure.line), first_roll, "{failure}");
}

/// The dice seed that a game's last reply reveals.
fn revealed_seed(ended: &Reply) -> String {
    match said(ended, "result-seed").arg("seed") {
        Some(Arg::Span(span)) => match span.as_ref() {
            Span::Code(seed) => seed.clone(),
            other => panic!("the seed is not code: {other:?}"),
        },
        other => panic!("no seed: {other:?}"),
    }
}

#[tokio::test]
async fn export_refuses_what_it_cannot_find() {
    let file = SqliteFile::new();
    let table = table(&file).await;
    let reply = table.cmd("alice", "/export").await;
    assert_eq!(
        reply.refusal(),
        Some(&UserError::NoGame),
        "{}",
        text(&reply)
    );
    assert!(reply.file.is_none());
    let reply = table.cmd("alice", "/export #99").await;
    assert_eq!(
        reply.refusal(),
        Some(&UserError::NoSuchGame(GameNo(99))),
        "{}",
        text(&reply)
    );
    assert!(reply.file.is_none());
}
