//! The end-to-end [`Table`] on Telegram: the fake Bot API, the real `tabula run` pointed at it
//! (long polling, or a webhook), and people in a group who play from what the bot shows them
//! (the board's buttons, or `/move` typed). The play itself is [`crate::table`]'s, for both
//! platforms; this module says how Telegram differs.

use std::time::Duration;

use crate::bot_process::{BotProcess, scratch_dir};
use crate::table;
use crate::telegram::{FakeMessage, FakeTelegram, MediaKind, TgChat, TgUser};

pub use crate::table::{ANSWER, Lcg, choose};

/// The token of the fake bot.
pub const TOKEN: &str = "7000000001:TEST-token-not-real";

/// Telegram for a [`table::Table`]: people write in groups and press inline buttons; a player is
/// a person with the username the bot mentions them by.
#[derive(Debug, Clone, Copy, Default)]
pub struct Telegram;

/// The fake Telegram, the bot's settings and the running process.
pub type Table = table::Table<Telegram>;

impl table::Platform for Telegram {
    type Fake = FakeTelegram;
    type Chat = TgChat;
    type Person = TgUser;
    type Player = (TgUser, String);
    type Message = FakeMessage;
    type MessageId = i64;

    const START: Duration = Duration::from_secs(30);
    const STOP: Duration = Duration::from_secs(10);

    fn secret(_: &FakeTelegram) -> String {
        TOKEN.split(':').nth(1).unwrap_or(TOKEN).to_string()
    }

    async fn after_start(&self, _: &FakeTelegram, _: &BotProcess) {}

    async fn after_stop(&self, _: &FakeTelegram) {}

    fn assert_clean(fake: &FakeTelegram) {
        let violations = fake.violations();
        if !violations.is_empty() {
            // What else was asked of the messages concerned, to tell a race from a slip.
            let requests = fake.requests();
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
                .map(|(i, r)| format!("request {i}: {} {:?}", r.method, r.ended))
                .collect();
            panic!(
                "requests Telegram would refuse: {violations:#?}\nthe requests about the same messages: {history:#?}"
            );
        }
        let unanswered = fake.unanswered_callbacks();
        assert!(
            unanswered.is_empty(),
            "button presses never answered: {unanswered:#?}"
        );
        let slow: Vec<_> = fake
            .callbacks()
            .into_iter()
            .filter(|c| c.answer_delay().is_some_and(|d| d > Duration::from_secs(5)))
            .collect();
        assert!(slow.is_empty(), "button presses answered late: {slow:#?}");
        let own = fake.self_check_failures();
        assert!(own.is_empty(), "the fake built invalid objects: {own:#?}");
    }

    async fn wait_for<T: Send>(
        fake: &FakeTelegram,
        timeout: Duration,
        check: impl Fn(&FakeTelegram) -> Option<T> + Send + Sync,
    ) -> Option<T> {
        fake.wait_for(check, timeout).await.ok()
    }

    fn id(message: &FakeMessage) -> i64 {
        message.message_id
    }

    fn text(message: &FakeMessage) -> &str {
        message.text()
    }

    fn buttons(message: &FakeMessage) -> Vec<(String, String)> {
        callbacks(message)
    }

    fn is_board(message: &FakeMessage) -> bool {
        is_photo(message)
    }

    fn is_for_all(_: &FakeMessage) -> bool {
        true
    }

    fn is_new_board(message: &FakeMessage) -> bool {
        // Not a reply to someone's message; in a forum topic, every message replies to the
        // topic's first one, as Telegram shows it.
        is_photo(message) && (message.reply_to.is_none() || message.reply_to == message.thread_id)
    }

    fn is_choice_for(_: &FakeMessage, _: &TgUser) -> bool {
        true
    }

    fn person(player: &(TgUser, String)) -> &TgUser {
        &player.0
    }

    fn named_in(text: &str, (user, username): &(TgUser, String)) -> bool {
        text.contains(&format!("@{username}"))
            || user
                .record()
                .is_some_and(|record| text.contains(&record.first_name))
    }

    fn notifies(message: &FakeMessage, (_, username): &(TgUser, String)) -> bool {
        // A mention by `@username` is what notifies a person on Telegram.
        message.text().contains(&format!("@{username}"))
    }

    fn newest_bot_message(
        fake: &FakeTelegram,
        chat: &TgChat,
        after: i64,
        accept: &dyn Fn(&FakeMessage) -> bool,
    ) -> Option<FakeMessage> {
        fake.newest_bot_message(chat, |m| m.message_id > after && !m.deleted && accept(m))
    }

    fn message(fake: &FakeTelegram, chat: &TgChat, id: i64) -> Option<FakeMessage> {
        fake.message(chat, id)
    }

    fn last_id(fake: &FakeTelegram, chat: &TgChat) -> i64 {
        fake.newest_bot_message(chat, |m| !m.deleted)
            .map_or(0, |m| m.message_id)
    }

    fn old_board_with_moves(fake: &FakeTelegram, chat: &TgChat, newest: i64) -> bool {
        fake.any_bot_message(chat, |m| {
            is_photo(m) && m.message_id < newest && has_moves(m)
        })
    }

    fn describe(fake: &FakeTelegram, chat: &TgChat) -> String {
        format!(
            "{:#?}",
            fake.bot_messages(chat)
                .iter()
                .map(|m| (m.message_id, m.text().to_string()))
                .collect::<Vec<_>>()
        )
    }

    fn describe_recent(fake: &FakeTelegram, chat: &TgChat) -> String {
        format!(
            "{:?}",
            fake.bot_messages(chat)
                .iter()
                .filter(|m| is_photo(m) && has_moves(m))
                .map(|m| m.message_id)
                .collect::<Vec<_>>()
        )
    }

    async fn press(fake: &FakeTelegram, chat: &TgChat, person: &TgUser, message: i64, data: &str) {
        if let Err(error) = fake.press(chat, person, message, data) {
            panic!("cannot press {data}: {error}");
        }
    }

    async fn type_move(fake: &FakeTelegram, chat: &TgChat, person: &TgUser, label: &str) {
        fake.user_writes(chat, person, &format!("/move {label}"));
    }
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
        table::Table {
            fake,
            platform: Telegram,
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

    /// Waits until message `message_id` of `chat` shows no button.
    ///
    /// # Panics
    /// If it still shows one after [`ANSWER`]; `what` names it.
    pub async fn wait_buttons_off(&self, chat: &TgChat, message_id: i64, what: &str) {
        let off = self
            .fake
            .wait_for(
                |f| {
                    f.message(chat, message_id)
                        .filter(|m| callbacks(m).is_empty())
                },
                ANSWER,
            )
            .await;
        assert!(off.is_ok(), "{what}: still shows buttons after {ANSWER:?}");
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
        accept: impl Fn(&FakeMessage) -> bool + Send + Sync,
    ) -> FakeMessage {
        self.wait_message_after(chat, after, what, accept).await
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

/// Waits for the bot's private message to `who` that says the catalogue's message `id`.
///
/// # Panics
/// If none comes within `within`.
pub async fn wait_private(
    fake: &FakeTelegram,
    who: &TgUser,
    id: &str,
    within: Duration,
) -> FakeMessage {
    fake.wait_for(
        |fake| {
            fake.private_bot_messages(who)
                .into_iter()
                .find(|m| crate::said::says(m.text(), id))
        },
        within,
    )
    .await
    .unwrap_or_else(|_| panic!("no private message saying {id} within {within:?}"))
}

/// The web addresses of a message's link buttons, in order.
pub fn link_urls(message: &FakeMessage) -> Vec<String> {
    message
        .buttons()
        .into_iter()
        .flatten()
        .filter_map(|b| b.url)
        .collect()
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
    table::has_moves::<Telegram>(message)
}

/// Who is to act on a board: the player whose `@username` the text names (only the player
/// to act is mentioned so that Telegram notifies them; others are shown by name).
pub fn to_act<'a>(board: &FakeMessage, players: &'a [(TgUser, String)]) -> Option<&'a TgUser> {
    table::to_act::<Telegram>(board, players).map(|(user, _)| user)
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
    let players = vec![(alice, username("Alice")), (bob, username("Bob"))];
    let board = table::accept_challenge(table, &group, &players[1], 0).await;
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
    board: FakeMessage,
    seed: u64,
    restart_at: usize,
    limit: usize,
) -> Result<usize, Box<FakeMessage>> {
    table::play_moves(table, group, players, board, seed, restart_at, limit).await
}
