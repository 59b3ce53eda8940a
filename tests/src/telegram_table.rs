//! A table for end-to-end Telegram tests: the fake Bot API, the real `tabula run` pointed at
//! it, and people who play from what the bot shows them (the board's buttons, or typed moves).

use std::path::PathBuf;
use std::time::Duration;

use crate::bot_process::{BotProcess, scratch_dir};
use crate::telegram::{FakeMessage, FakeTelegram, MediaKind, TgChat, TgUser};

/// The token of the fake bot.
pub const TOKEN: &str = "7000000001:TEST-token-not-real";

/// How long a test waits for the bot's answer to one action.
pub const ANSWER: Duration = Duration::from_secs(20);

/// The fake, the bot's settings and the running process.
#[derive(Debug)]
pub struct Table {
    /// The fake Telegram.
    pub fake: FakeTelegram,
    /// The scratch folder (the SQLite database lives here).
    pub dir: PathBuf,
    /// The settings `tabula run` gets.
    pub env: Vec<(&'static str, String)>,
    /// The running bot, if started.
    pub bot: Option<BotProcess>,
}

impl Table {
    /// A fake and settings for the bot: SQLite in a scratch folder, long polling, message
    /// limits raised so that long games run fast (tests that keep Telegram's limits call
    /// [`Table::with_documented_limits`]).
    ///
    /// # Panics
    /// If the fake cannot start.
    pub async fn new(name: &str) -> Table {
        let fake = FakeTelegram::start(TOKEN).await.expect("the fake starts");
        fake.set_rate_limits(crate::telegram::RateLimits::unlimited());
        let dir = scratch_dir(name);
        let env = vec![
            (
                "DATABASE_URL",
                format!("sqlite://{}", dir.join("tabula.db").display()),
            ),
            ("TELEGRAM_BOT_TOKEN", TOKEN.to_string()),
            ("TELEGRAM_API_URL", fake.api_url()),
            ("TELEGRAM_CHAT_MESSAGES_PER_SECOND", "1000".into()),
            ("TELEGRAM_GROUP_MESSAGES_PER_MINUTE", "60000".into()),
            ("TELEGRAM_MESSAGES_PER_SECOND", "1000".into()),
            ("TABULA_LOG", "info".into()),
        ];
        Table {
            fake,
            dir,
            env,
            bot: None,
        }
    }

    /// Keeps Telegram's documented limits, in the fake and in the bot.
    pub fn with_documented_limits(mut self) -> Table {
        self.fake
            .set_rate_limits(crate::telegram::RateLimits::default());
        self.env.retain(|(name, _)| !name.contains("MESSAGES_PER"));
        self
    }

    /// Sets (or replaces) a setting.
    pub fn set(&mut self, name: &'static str, value: impl Into<String>) {
        self.env.retain(|(n, _)| *n != name);
        self.env.push((name, value.into()));
    }

    /// Starts `tabula run` and waits for its start line.
    ///
    /// # Panics
    /// If it does not start.
    pub async fn start(&mut self) {
        let mut bot = BotProcess::start(&self.dir, &["run"], &self.env);
        bot.wait_for_log("tabula run:", Duration::from_secs(30))
            .await;
        self.bot = Some(bot);
    }

    /// Stops the bot with SIGTERM: it must exit 0 within a few seconds.
    ///
    /// # Panics
    /// If it does not.
    pub async fn stop(&mut self) {
        if let Some(mut bot) = self.bot.take() {
            let status = bot.terminate(Duration::from_secs(10)).await;
            assert!(
                status.success(),
                "tabula run did not exit 0 on SIGTERM ({status}); it said:\n{}",
                bot.log()
            );
            assert!(
                !bot.log().contains(TOKEN.split(':').nth(1).unwrap_or(TOKEN)),
                "the token reached the log"
            );
        }
    }

    /// What the running bot has said.
    pub fn log(&self) -> String {
        self.bot.as_ref().map(BotProcess::log).unwrap_or_default()
    }

    /// A person with the username `<name>_tg` in lower case (Telegram's usernames have at
    /// least five characters).
    pub fn person(&self, name: &str) -> TgUser {
        self.fake.user(name).username(&username(name))
    }

    /// The bot's newest message in `chat` (`thread` for a topic) that `accept` takes.
    pub fn newest(
        &self,
        chat: &TgChat,
        accept: impl Fn(&FakeMessage) -> bool,
    ) -> Option<FakeMessage> {
        self.fake
            .newest_bot_message(chat, |m| !m.deleted && accept(m))
    }

    /// Waits for a bot message newer than `after` in `chat` that `accept` takes.
    ///
    /// # Panics
    /// If none comes within [`ANSWER`].
    pub async fn wait_new(
        &self,
        chat: &TgChat,
        after: i64,
        what: &str,
        accept: impl Fn(&FakeMessage) -> bool,
    ) -> FakeMessage {
        let found = self
            .fake
            .wait_for(
                |f| f.newest_bot_message(chat, |m| m.message_id > after && !m.deleted && accept(m)),
                ANSWER,
            )
            .await;
        match found {
            Ok(message) => message,
            Err(_) => panic!(
                "no {what} after message {after}; the bot's messages: {:#?}\nits log:\n{}",
                self.fake
                    .bot_messages(chat)
                    .iter()
                    .map(|m| (m.message_id, m.text().to_string()))
                    .collect::<Vec<_>>(),
                self.log()
            ),
        }
    }

    /// Checks what every Telegram test checks at its end: the bot made no request the Bot API
    /// refuses, answered every button press, and the fake built only valid objects.
    ///
    /// # Panics
    /// If not.
    pub fn assert_clean(&self) {
        let violations = self.fake.violations();
        if !violations.is_empty() {
            // What else was asked of the messages concerned, to tell a race from a slip.
            let requests = self.fake.requests();
            let about = |r: &crate::telegram::RequestRecord| {
                violations.iter().any(|v| {
                    v.params.get("message_id").is_some()
                        && v.params.get("chat_id") == r.params.get("chat_id")
                        && v.params.get("message_id") == r.params.get("message_id")
                })
            };
            let history: Vec<String> = requests
                .iter()
                .enumerate()
                .filter(|(_, r)| about(r))
                .map(|(i, r)| format!("request {i}: {} {:?}", r.method, r.outcome))
                .collect();
            panic!(
                "requests Telegram would refuse: {violations:#?}\nthe requests about the same messages: {history:#?}"
            );
        }
        let unanswered = self.fake.unanswered_callbacks();
        assert!(
            unanswered.is_empty(),
            "button presses never answered: {unanswered:#?}"
        );
        let slow: Vec<_> = self
            .fake
            .callbacks()
            .into_iter()
            .filter(|c| c.answer_delay().is_some_and(|d| d > Duration::from_secs(5)))
            .collect();
        assert!(slow.is_empty(), "button presses answered late: {slow:#?}");
        let own = self.fake.self_check_failures();
        assert!(own.is_empty(), "the fake built invalid objects: {own:#?}");
    }
}

/// The username [`Table::person`] gives `name`.
pub fn username(name: &str) -> String {
    format!("{}_tg", name.to_lowercase())
}

/// Whether a message is a board picture.
pub fn is_photo(message: &FakeMessage) -> bool {
    message
        .content
        .media
        .as_ref()
        .is_some_and(|m| m.kind == MediaKind::Photo)
}

/// The callback data of a message's buttons, in order.
pub fn callbacks(message: &FakeMessage) -> Vec<(String, String)> {
    message
        .buttons()
        .into_iter()
        .flatten()
        .filter_map(|b| b.callback_data.map(|d| (b.text, d)))
        .collect()
}

/// Whether a message carries move buttons (a board to play on, or a choice of moves).
pub fn has_moves(message: &FakeMessage) -> bool {
    callbacks(message)
        .iter()
        .any(|(_, data)| data.starts_with('m') || data.starts_with('p'))
}

/// The seeded generator the tables choose moves with (shared with the service's tests).
pub use tabula_testkit::Lcg;

/// Who is to act on a board: the player whose `@username` the text names (only the player
/// to act is mentioned so that Telegram notifies them; others are shown by name).
pub fn to_act<'a>(board: &FakeMessage, players: &'a [(TgUser, String)]) -> Option<&'a TgUser> {
    players
        .iter()
        .find(|(_, username)| board.text().contains(&format!("@{username}")))
        .map(|(user, _)| user)
}

/// A move at random, as a keen player makes them: Pachisi's `skip` (not throwing) and `done`
/// (giving up the rest of a throw) only when nothing else is left.
pub fn choose(choices: &[(String, String)], lcg: &mut Lcg) -> (String, String) {
    let keen: Vec<_> = choices
        .iter()
        .filter(|(label, _)| label != "skip" && label != "done")
        .collect();
    if keen.is_empty() {
        choices[lcg.below(choices.len())].clone()
    } else {
        keen[lcg.below(keen.len())].clone()
    }
}

/// Alice challenges Bob to `game` in a new group and Bob accepts by button; returns the
/// group, the players and the first board.
///
/// # Panics
/// If the bot does not answer as it should.
pub async fn challenge(table: &Table, game: &str) -> (TgChat, Vec<(TgUser, String)>, FakeMessage) {
    let fake = &table.fake;
    let group = fake.group("Board games");
    let alice = table.person("Alice");
    let bob = table.person("Bob");
    fake.add_member(&group, &alice);
    fake.add_member(&group, &bob);
    fake.user_writes(&group, &alice, &format!("/play {game} @bob_tg"));
    let offer = table
        .wait_new(&group, 0, "challenge", |m| {
            callbacks(m).iter().any(|(_, d)| d.starts_with('a'))
        })
        .await;
    assert!(
        offer.text().contains("@bob_tg"),
        "bob is notified: {}",
        offer.text()
    );
    let accept = callbacks(&offer)
        .into_iter()
        .find(|(_, d)| d.starts_with('a'))
        .map(|(_, d)| d)
        .expect("an Accept button");
    fake.press(&group, &bob, offer.message_id, &accept)
        .expect("bob presses Accept");
    let board = table
        .wait_new(&group, offer.message_id, "first board", is_photo)
        .await;
    // The challenge's buttons are gone once the game started.
    fake.wait_for(
        |f| {
            f.message(&group, offer.message_id)
                .filter(|m| callbacks(m).is_empty())
        },
        ANSWER,
    )
    .await
    .expect("the offer's buttons are taken off");
    let players = vec![(alice, username("Alice")), (bob, username("Bob"))];
    (group, players, board)
}

/// Plays the game on `board` to its end, choosing moves at random (seeded) from the board's
/// buttons; every other move is typed instead of pressed. At move `restart_at` the bot is
/// stopped by SIGTERM and started again. Where the computer plays, its boards are waited for.
/// Returns how many moves were made.
///
/// # Panics
/// If the bot does not answer, or the game does not end in 6,000 moves.
pub async fn play_to_end(
    table: &mut Table,
    group: &TgChat,
    players: &[(TgUser, String)],
    board: FakeMessage,
    seed: u64,
    restart_at: usize,
) -> usize {
    match play_moves(table, group, players, board, seed, restart_at, 6000).await {
        Ok(moves) => moves,
        Err(_) => panic!("the game did not end in 6000 moves"),
    }
}

/// Plays at most `limit` moves of the game on `board` as [`play_to_end`] does: `Ok(moves)` when
/// the game ended, `Err(board)` with the latest board when the limit came first.
///
/// # Panics
/// If the bot does not answer as it should.
pub async fn play_moves(
    table: &mut Table,
    group: &TgChat,
    players: &[(TgUser, String)],
    mut board: FakeMessage,
    seed: u64,
    restart_at: usize,
    limit: usize,
) -> Result<usize, Box<FakeMessage>> {
    let mut lcg = Lcg(seed);
    for step in 0..limit {
        if step == restart_at {
            table.stop().await;
            table.start().await;
        }
        if !has_moves(&board) && board.text().contains("is thinking") {
            // The computer's move comes from the outbox.
            let id = board.message_id;
            board = table
                .wait_new(group, id, "the computer's board", |m| {
                    is_photo(m) && m.reply_to.is_none()
                })
                .await;
            continue;
        }
        if !has_moves(&board) {
            assert!(
                board.text().contains("over") || board.text().contains("wins"),
                "a board without moves is the end: {}",
                board.text()
            );
            return Ok(step);
        }
        // People read a board before they act (the bot records which message is the game's
        // board right after posting it).
        tokio::time::sleep(Duration::from_millis(200)).await;
        let actor = to_act(&board, players)
            .unwrap_or_else(|| panic!("nobody is named to act: {}", board.text()))
            .clone();
        let (label, data) = choose(&callbacks(&board), &mut lcg);
        let last = table.newest(group, |_| true).map_or(0, |m| m.message_id);
        if data.starts_with('p') {
            // A piece with several moves: its moves come as a choice, shown to the player.
            table
                .fake
                .press(group, &actor, board.message_id, &data)
                .expect("press a piece");
            let choice = table
                .wait_new(group, last, "choice of moves", has_moves)
                .await;
            let (_, data) = choose(&callbacks(&choice), &mut lcg);
            table
                .fake
                .press(group, &actor, choice.message_id, &data)
                .expect("press a move");
        } else if step % 2 == 0 && data.starts_with('m') {
            table
                .fake
                .user_writes(group, &actor, &format!("/move {label}"));
        } else {
            table
                .fake
                .press(group, &actor, board.message_id, &data)
                .expect("press a move");
        }
        board = table
            .wait_new(group, last, "next board", |m| {
                is_photo(m) && m.reply_to.is_none()
            })
            .await;
        // The boards before lose their buttons.
        let newest = board.message_id;
        table
            .fake
            .wait_for(
                |f| {
                    (!f.any_bot_message(group, |m| {
                        is_photo(m) && m.message_id < newest && has_moves(m)
                    }))
                    .then_some(())
                },
                ANSWER,
            )
            .await
            .expect("old boards lose their move buttons");
    }
    Err(Box::new(board))
}
