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
        assert!(
            violations.is_empty(),
            "requests Telegram would refuse: {violations:#?}"
        );
        let unanswered = self.fake.unanswered_callbacks();
        assert!(
            unanswered.is_empty(),
            "button presses never answered: {unanswered:#?}"
        );
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

/// A small deterministic random source for choosing moves.
#[derive(Debug, Clone)]
pub struct Lcg(pub u64);

impl Lcg {
    /// The next number.
    pub fn draw(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.draw()).unwrap_or(0) % n.max(1)
    }
}
