//! A busy group (issue 37): four people keep three games going in one Telegram group at
//! Telegram's documented limits (a message a second in the chat, twenty a minute in the
//! group), pressing twice, pressing boards a move has just made old, writing a move in reply
//! to a board, asking for lists while boards wait in the chat's queue; then games end by a
//! resignation chosen from several games and by an abort. Asserted: every press answered,
//! within a second at the 99th percentile (the distribution is printed), no board posted for a
//! stale press, one board posted per move, exactly one message with move buttons per running
//! game, every older board saying the move that followed it, and no button left on a game
//! that ended.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use tabula_tests::said;
use tabula_tests::table::{ANSWER, Lcg, accept_challenge, choose};
use tabula_tests::telegram::{FakeMessage, FakeTelegram, TgChat, TgUser};
use tabula_tests::telegram_table::{Table, callbacks, is_photo, to_act, username};

/// A game in play: its number, its newest board, and its two players.
type Game = (i64, FakeMessage, Vec<(TgUser, String)>);

/// A message that keeps buttons: its id, its text and its buttons.
type Kept = (i64, String, Vec<(String, String)>);

/// Moves made in each game.
const MOVES: usize = 5;

/// The game a button's data is about (`m12.3.0`, `p12.3.1`, `r12.…`, `q12.…`, `k12.…`,
/// `g12.0`), and its letter.
fn button_game(data: &str) -> Option<(char, i64)> {
    let letter = data.chars().next()?;
    if !"mprqkg".contains(letter) {
        return None;
    }
    let number: String = data[1..].chars().take_while(char::is_ascii_digit).collect();
    Some((letter, number.parse().ok()?))
}

/// The games whose moves a message's buttons play.
fn move_games(message: &FakeMessage) -> Vec<i64> {
    let mut games: Vec<i64> = callbacks(message)
        .iter()
        .filter_map(|(_, data)| button_game(data))
        .filter(|(letter, _)| matches!(letter, 'm' | 'p'))
        .map(|(_, game)| game)
        .collect();
    games.dedup();
    games
}

/// The bot's messages in `chat` that still show a button about `game` (of the letters given).
fn with_buttons_of(fake: &FakeTelegram, chat: &TgChat, game: i64, letters: &str) -> Vec<i64> {
    fake.bot_messages(chat)
        .iter()
        .filter(|m| !m.deleted)
        .filter(|m| {
            callbacks(m).iter().any(|(_, data)| {
                button_game(data).is_some_and(|(l, g)| g == game && letters.contains(l))
            })
        })
        .map(|m| m.message_id)
        .collect()
}

/// The newest board of `game` after message `after`.
fn new_board(fake: &FakeTelegram, chat: &TgChat, game: i64, after: i64) -> Option<FakeMessage> {
    fake.newest_bot_message(chat, |m| {
        m.message_id > after
            && is_photo(m)
            && m.reply_to.is_none()
            && (move_games(m) == [game] || said::says(m.text(), "result"))
            && m.text().contains(&format!("#{game}"))
    })
}

/// Waits until the fake holds what `check` finds.
async fn until<T>(
    fake: &FakeTelegram,
    what: &str,
    check: impl FnMut(&FakeTelegram) -> Option<T>,
) -> T {
    match fake.wait_for(check, ANSWER).await {
        Ok(found) => found,
        Err(_) => panic!("{what}: not within {ANSWER:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_people_three_games_one_group() {
    let mut table = Table::new("busy-group").await.with_documented_limits();
    table.start().await;
    let fake = table.fake.clone();
    let group = fake.group("Board games");
    let people: Vec<(TgUser, String)> = ["Alice", "Bob", "Carol", "Dana"]
        .iter()
        .map(|name| (table.person(name), username(name)))
        .collect();
    for (person, _) in &people {
        fake.add_member(&group, person);
    }

    // Three games: Alice and Bob, Carol and Dana, Bob and Carol.
    let mut games: Vec<Game> = Vec::new();
    for (a, b, game) in [(0, 1, "konane"), (2, 3, "konane"), (1, 2, "koan")] {
        let before = fake
            .newest_bot_message(&group, |_| true)
            .map_or(0, |m| m.message_id);
        fake.user_writes(
            &group,
            &people[a].0,
            &format!("/play {game} @{}", people[b].1),
        );
        let board = accept_challenge(&table, &group, &people[b], before).await;
        let number = move_games(&board)[0];
        games.push((number, board, vec![people[a].clone(), people[b].clone()]));
    }

    // The moves: each game's player presses as soon as their game's board is there, while the
    // other games' boards may still wait in the chat's queue; every press is followed at once
    // by a second press of the same person and one of somebody watching (both stale once the
    // first is played); now and then someone asks for /games.
    let started = fake
        .newest_bot_message(&group, |_| true)
        .map_or(0, |m| m.message_id);
    let mut lcg = Lcg(37);
    let mut made = [0_usize; 3];
    let mut waiting: [Option<i64>; 3] = [None; 3];
    let mut asked = 0;
    let deadline = Instant::now() + Duration::from_secs(240);
    while made.iter().any(|&m| m < MOVES) || waiting.iter().any(Option::is_some) {
        assert!(Instant::now() < deadline, "the games did not move on");
        let mut acted = false;
        for g in 0..3 {
            let (number, board, players) = &mut games[g];
            if let Some(pressed) = waiting[g] {
                match new_board(&fake, &group, *number, pressed) {
                    Some(next) => {
                        *board = next;
                        waiting[g] = None;
                    }
                    None => continue,
                }
            }
            if made[g] == MOVES {
                continue;
            }
            // People read a board before they press.
            tokio::time::sleep(Duration::from_millis(200)).await;
            let actor = to_act(board, players)
                .unwrap_or_else(|| panic!("nobody to act: {}", board.text()))
                .clone();
            let choices: Vec<(String, String)> = callbacks(board)
                .into_iter()
                .filter(|(_, data)| data.starts_with('m'))
                .collect();
            let (label, data) = choose(&choices, &mut lcg);
            let (_, again) = choose(&choices, &mut lcg);
            if made[g] == 1 {
                // Written in reply to the board instead (privacy mode delivers it).
                fake.compose(&group, &actor, &label)
                    .reply_to(board.message_id)
                    .send();
            } else {
                fake.press(&group, &actor, board.message_id, &data)
                    .expect("the move can be pressed");
                fake.press(&group, &actor, board.message_id, &again)
                    .expect("a second press");
            }
            let watcher = people
                .iter()
                .find(|(p, _)| players.iter().all(|(q, _)| q.id != p.id))
                .expect("someone watches");
            fake.press(&group, &watcher.0, board.message_id, &data)
                .expect("a watcher's press");
            waiting[g] = Some(board.message_id);
            made[g] += 1;
            acted = true;
            if (made.iter().sum::<usize>()) % 4 == 0 {
                fake.user_writes(&group, &people[lcg.below(4)].0, "/games");
                asked += 1;
            }
        }
        if !acted {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    let moves: usize = made.iter().sum();

    // Quiet: every running game shows exactly one message with move buttons.
    fake.wait_for_no_pending_updates(ANSWER)
        .await
        .expect("every update taken");
    for (number, board, _) in &games {
        let live = until(&fake, "one live board per game", |f| {
            let live = with_buttons_of(f, &group, *number, "mp");
            (live.len() == 1).then_some(live)
        })
        .await;
        assert_eq!(live, [board.message_id], "game #{number}'s live board");
        // Every older board of the game says the move that followed it, not who was to move.
        let older: Vec<FakeMessage> = fake
            .bot_messages(&group)
            .into_iter()
            .filter(|m| {
                is_photo(m)
                    && m.message_id < board.message_id
                    && m.text().contains(&format!("#{number} "))
            })
            .collect();
        assert!(
            older.len() >= MOVES,
            "game #{number}'s boards: {}",
            older.len()
        );
        let wrong: Vec<(i64, &str)> = older
            .iter()
            .filter(|m| !said::says(m.text(), "board-then") || !m.mentioned().is_empty())
            .map(|m| (m.message_id, m.text()))
            .collect();
        assert!(
            wrong.is_empty(),
            "old boards that do not say what followed: {wrong:#?}"
        );
    }
    let phase: Vec<FakeMessage> = fake
        .bot_messages(&group)
        .into_iter()
        .filter(|m| m.message_id > started)
        .collect();
    let boards = phase.iter().filter(|m| is_photo(m)).count();
    let board_ids: Vec<i64> = fake
        .bot_messages(&group)
        .iter()
        .filter(|m| is_photo(m))
        .map(|m| m.message_id)
        .collect();
    let replies_to_boards: Vec<i64> = phase
        .iter()
        .filter(|m| m.reply_to.is_some_and(|to| board_ids.contains(&to)))
        .map(|m| m.message_id)
        .collect();
    eprintln!(
        "busy group: {moves} moves, {} presses, {} bot messages while playing ({boards} boards, \
         {asked} answers to /games): {:.2} messages per move",
        fake.callbacks().len(),
        phase.len(),
        phase.len() as f64 / moves as f64
    );
    assert_eq!(boards, moves, "one board per move, none for a stale press");
    assert!(
        replies_to_boards.is_empty(),
        "nothing is posted in answer to a press on a board: {replies_to_boards:?}"
    );

    // Endings. Carol plays two games: her /resign asks which, then asks to confirm.
    let (koan_game, _, _) = games[2].clone();
    let before = fake
        .newest_bot_message(&group, |_| true)
        .map_or(0, |m| m.message_id);
    fake.user_writes(&group, &people[2].0, "/resign");
    let picker = until(&fake, "which game to resign", |f| {
        f.newest_bot_message(&group, |m| {
            m.message_id > before && callbacks(m).iter().any(|(_, d)| d.starts_with('g'))
        })
    })
    .await;
    let pick = callbacks(&picker)
        .into_iter()
        .find(|(_, d)| button_game(d) == Some(('g', koan_game)))
        .expect("a button for the game")
        .1;
    fake.press(&group, &people[2].0, picker.message_id, &pick)
        .expect("pick the game");
    let question = until(&fake, "the resignation's question", |f| {
        f.bot_messages(&group)
            .into_iter()
            .rev()
            .find(|m| !m.deleted && callbacks(m).iter().any(|(_, d)| d.starts_with('r')))
    })
    .await;
    let confirm = callbacks(&question)
        .into_iter()
        .find(|(_, d)| d.starts_with('r'))
        .expect("a confirming button")
        .1;
    // Somebody else's press does not resign for Carol.
    fake.press(&group, &people[0].0, question.message_id, &confirm)
        .expect("a press by someone else");
    fake.press(&group, &people[2].0, question.message_id, &confirm)
        .expect("Carol confirms");
    until(&fake, "the resigned game's last board", |f| {
        new_board(f, &group, koan_game, question.message_id)
            .filter(|m| said::says(m.text(), "result") || said::says(m.text(), "result-because"))
    })
    .await;

    // A fourth game, aborted by a player before its first move.
    let before = fake
        .newest_bot_message(&group, |_| true)
        .map_or(0, |m| m.message_id);
    fake.user_writes(
        &group,
        &people[3].0,
        &format!("/play konane @{}", people[0].1),
    );
    let board = accept_challenge(&table, &group, &people[0], before).await;
    let fourth = move_games(&board)[0];
    fake.user_writes(&group, &people[3].0, &format!("/abort #{fourth}"));
    let question = until(&fake, "the abort's question", |f| {
        f.bot_messages(&group).into_iter().rev().find(|m| {
            !m.deleted
                && callbacks(m)
                    .iter()
                    .any(|(_, d)| button_game(d) == Some(('q', fourth)))
        })
    })
    .await;
    let confirm = callbacks(&question)
        .into_iter()
        .find(|(_, d)| d.starts_with('q'))
        .expect("a confirming button")
        .1;
    fake.press(&group, &people[3].0, question.message_id, &confirm)
        .expect("Dana confirms");
    until(&fake, "the aborted game's last board", |f| {
        new_board(f, &group, fourth, question.message_id)
    })
    .await;

    // Every game that ended shows no button any more (boards, questions, pickers); the game
    // still running shows one board with moves.
    fake.wait_for_no_pending_updates(ANSWER)
        .await
        .expect("every update taken");
    for ended in [koan_game, fourth] {
        let left = fake
            .wait_for(
                |f| {
                    with_buttons_of(f, &group, ended, "mprqkg")
                        .is_empty()
                        .then_some(())
                },
                ANSWER,
            )
            .await;
        if left.is_err() {
            let left: Vec<Kept> = with_buttons_of(&fake, &group, ended, "mprqkg")
                .into_iter()
                .filter_map(|id| fake.message(&group, id))
                .map(|m| (m.message_id, m.text().to_string(), callbacks(&m)))
                .collect();
            panic!("game #{ended} ended, and these messages keep its buttons: {left:#?}");
        }
    }
    table
        .wait_buttons_off(&group, picker.message_id, "the picker loses its buttons")
        .await;
    for (number, _, _) in &games[..2] {
        assert_eq!(
            with_buttons_of(&fake, &group, *number, "mp").len(),
            1,
            "game #{number} still has its one live board"
        );
    }

    // Every press answered, and at once.
    let mut delays: Vec<Duration> = fake
        .callbacks()
        .iter()
        .map(|c| c.answer_delay().expect("every press is answered"))
        .collect();
    delays.sort();
    let at = |q: f64| delays[((delays.len() - 1) as f64 * q).round() as usize];
    let by_toast: BTreeMap<bool, usize> =
        fake.callbacks()
            .iter()
            .fold(BTreeMap::new(), |mut counts, c| {
                let toast = c
                    .answer
                    .as_ref()
                    .and_then(|a| a.get("text"))
                    .is_some_and(|t| t.as_str().is_some_and(|t| !t.is_empty()));
                *counts.entry(toast).or_default() += 1;
                counts
            });
    eprintln!(
        "busy group: {} presses answered in p50 {:?}, p90 {:?}, p99 {:?}, max {:?}; with a \
         toast {}, without {}",
        delays.len(),
        at(0.5),
        at(0.9),
        at(0.99),
        delays[delays.len() - 1],
        by_toast.get(&true).copied().unwrap_or(0),
        by_toast.get(&false).copied().unwrap_or(0),
    );
    assert!(
        at(0.99) < Duration::from_secs(1),
        "presses answered in p99 {:?}",
        at(0.99)
    );
    table.stop().await;
    table.assert_clean();
}
