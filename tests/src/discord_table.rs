//! The end-to-end [`Table`] on Discord: the fake Discord, the real `tabula run` pointed at it
//! (over the gateway or the HTTP interactions endpoint), and members of a server who play from
//! what the bot shows them (the board's buttons, or `/move` typed with its option). The play
//! itself is [`crate::table`]'s, for both platforms; this module says how Discord differs.

use std::time::Duration;

use serde_json::{Value, json};

use crate::bot_process::{BotProcess, free_port, scratch_dir};
use crate::discord::{
    DEFAULT_MEMBER_PERMISSIONS, DcChannel, DcGuild, DcMessage, DcUser, FakeDiscord,
};
use crate::table::{self, Platform as _};

pub use crate::table::{ANSWER, Lcg, choose};

/// How interactions reach the bot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Over the gateway (the default).
    Gateway,
    /// Signed POSTs to the HTTP interactions endpoint (`DISCORD_PUBLIC_KEY` set).
    Http,
}

/// Discord for a [`table::Table`]: how interactions arrive, and a server with a channel where
/// games are played. People run slash commands and press buttons; the bot's answers to one
/// person only are ephemeral.
#[derive(Debug, Clone)]
pub struct Discord {
    /// How interactions arrive.
    pub mode: Mode,
    /// The server.
    pub guild: DcGuild,
    /// Its channel where games are played.
    pub channel: DcChannel,
}

/// The fake Discord, a server with a channel, the bot's settings and the running process.
pub type Table = table::Table<Discord>;

impl table::Platform for Discord {
    type Fake = FakeDiscord;
    type Chat = DcChannel;
    type Person = DcUser;
    type Player = DcUser;
    type Message = DcMessage;
    type MessageId = u64;

    const START: Duration = Duration::from_secs(60);
    const STOP: Duration = Duration::from_secs(15);

    fn secret(fake: &FakeDiscord) -> String {
        fake.token().to_string()
    }

    /// Over the gateway, waits for a READY session.
    async fn after_start(&self, fake: &FakeDiscord, bot: &BotProcess) {
        if self.mode == Mode::Gateway {
            let ready = fake
                .gateway()
                .wait_until(Duration::from_secs(30), |sessions| {
                    sessions.iter().any(|s| s.ready)
                })
                .await;
            assert!(
                ready.is_ok(),
                "no READY gateway session: {ready:?}\n{}",
                bot.log()
            );
        }
    }

    /// Over the gateway, waits for the session to close.
    async fn after_stop(&self, fake: &FakeDiscord) {
        if self.mode == Mode::Gateway {
            let closed = fake
                .gateway()
                .wait_until(Duration::from_secs(10), |sessions| {
                    sessions.iter().all(|s| !s.ready)
                })
                .await;
            assert!(closed.is_ok(), "the gateway session stays open: {closed:?}");
        }
    }

    /// No request Discord would refuse, every interaction acknowledged in time and every
    /// deferral completed, no protocol error on the gateway, and the fake built only valid
    /// objects.
    fn assert_clean(fake: &FakeDiscord) {
        let violations = fake.violations();
        assert!(
            violations.is_empty(),
            "requests Discord would refuse: {violations:#?}"
        );
        let unacknowledged = fake.unacknowledged();
        assert!(
            unacknowledged.is_empty(),
            "interactions never acknowledged: {unacknowledged:#?}"
        );
        let incomplete = fake.incomplete_deferrals();
        assert!(
            incomplete.is_empty(),
            "deferred interactions never completed: {incomplete:#?}"
        );
        let late: Vec<_> = fake
            .interactions()
            .into_iter()
            .filter(|i| {
                i.initial
                    .as_ref()
                    .is_some_and(|(_, after, _, _)| *after > Duration::from_secs(3))
            })
            .collect();
        assert!(late.is_empty(), "interactions answered late: {late:#?}");
        let gateway = fake.gateway().violations();
        assert!(gateway.is_empty(), "gateway protocol errors: {gateway:#?}");
        let own = fake.self_check_failures();
        assert!(own.is_empty(), "the fake built invalid objects: {own:#?}");
    }

    async fn wait_for<T: Send>(
        fake: &FakeDiscord,
        timeout: Duration,
        check: impl Fn(&FakeDiscord) -> Option<T> + Send + Sync,
    ) -> Option<T> {
        fake.wait_for(timeout, check).await.ok()
    }

    fn id(message: &DcMessage) -> u64 {
        message.id
    }

    fn text(message: &DcMessage) -> &str {
        &message.content
    }

    fn buttons(message: &DcMessage) -> Vec<(String, String)> {
        buttons(message)
    }

    fn is_board(message: &DcMessage) -> bool {
        is_board(message)
    }

    fn is_for_all(message: &DcMessage) -> bool {
        message.ephemeral_for.is_none()
    }

    fn is_new_board(message: &DcMessage) -> bool {
        message.ephemeral_for.is_none() && is_board(message)
    }

    fn is_choice_for(message: &DcMessage, actor: &DcUser) -> bool {
        message.ephemeral_for == Some(actor.id)
    }

    fn person(player: &DcUser) -> &DcUser {
        player
    }

    fn named_in(text: &str, player: &DcUser) -> bool {
        // A mention, or their name where nobody is notified (the name is shown strong).
        text.contains(&format!("<@{}>", player.id))
            || text.contains(&format!("**{}**", player.global_name))
    }

    fn notifies(message: &DcMessage, player: &DcUser) -> bool {
        message.notified.contains(&player.id)
    }

    fn newest_bot_message(
        fake: &FakeDiscord,
        chat: &DcChannel,
        after: u64,
        accept: &dyn Fn(&DcMessage) -> bool,
    ) -> Option<DcMessage> {
        fake.messages(chat).into_iter().rev().find(|m| {
            m.id > after
                && m.author_id == fake.bot_user_id()
                && !m.deleted
                && !m.is_loading()
                && accept(m)
        })
    }

    fn message(fake: &FakeDiscord, _: &DcChannel, id: u64) -> Option<DcMessage> {
        fake.message(id)
    }

    fn last_id(fake: &FakeDiscord, chat: &DcChannel) -> u64 {
        fake.messages(chat).iter().map(|m| m.id).max().unwrap_or(0)
    }

    fn old_board_with_moves(fake: &FakeDiscord, chat: &DcChannel, newest: u64) -> bool {
        fake.messages(chat)
            .iter()
            .any(|m| is_board(m) && m.id < newest && has_moves(m) && !m.deleted)
    }

    fn describe(fake: &FakeDiscord, chat: &DcChannel) -> String {
        format!(
            "{:#?}",
            fake.messages(chat)
                .iter()
                .map(|m| (m.id, m.ephemeral_for, m.content.clone(), m.buttons().len()))
                .collect::<Vec<_>>()
        )
    }

    fn describe_recent(fake: &FakeDiscord, chat: &DcChannel) -> String {
        format!(
            "{:?}\nrequests: {:#?}",
            fake.messages(chat)
                .iter()
                .filter(|m| is_board(m) && has_moves(m))
                .map(|m| (m.id, m.interaction_id))
                .collect::<Vec<_>>(),
            fake.requests()
                .iter()
                .rev()
                .take(12)
                .map(|r| format!(
                    "{} {} {} {:?} {}",
                    r.method, r.path, r.status, r.ended, r.body_summary
                ))
                .collect::<Vec<_>>(),
        )
    }

    async fn press(
        fake: &FakeDiscord,
        chat: &DcChannel,
        person: &DcUser,
        message: u64,
        data: &str,
    ) {
        fake.press(chat, person, message, data)
            .await
            .unwrap_or_else(|error| panic!("cannot press {data}: {error}"));
    }

    async fn type_move(fake: &FakeDiscord, chat: &DcChannel, person: &DcUser, label: &str) {
        fake.slash(chat, person, "move", &[("move", json!(label))])
            .await
            .unwrap_or_else(|error| panic!("/move cannot be sent: {error}"));
    }
}

impl Table {
    /// A fake with a server and a channel, and settings for the bot: SQLite in a scratch
    /// folder, the fake's API, and in [`Mode::Http`] the public key and a local port whose
    /// `/discord/interactions` the fake posts to.
    ///
    /// # Panics
    /// If the fake cannot start.
    pub async fn new(name: &str, mode: Mode) -> Table {
        let fake = FakeDiscord::start().await.expect("the fake starts");
        let dir = scratch_dir(name);
        let mut env = vec![
            (
                "DATABASE_URL",
                format!("sqlite://{}", dir.join("tabula.db").display()),
            ),
            ("DISCORD_BOT_TOKEN", fake.token().to_string()),
            ("DISCORD_APPLICATION_ID", fake.application_id().to_string()),
            ("DISCORD_API_URL", fake.api_url()),
            ("TABULA_LOG", "info".into()),
        ];
        if mode == Mode::Http {
            let port = free_port();
            env.push(("DISCORD_PUBLIC_KEY", fake.public_key_hex()));
            env.push(("TABULA_LISTEN", format!("127.0.0.1:{port}")));
            fake.deliver_over_http(&format!("http://127.0.0.1:{port}/discord/interactions"));
        } else {
            fake.deliver_over_gateway();
        }
        let guild = fake.guild("Board games");
        let channel = fake.text_channel(&guild, "games");
        table::Table {
            fake,
            platform: Discord {
                mode,
                guild,
                channel,
            },
            dir,
            env,
            bot: None,
        }
    }

    /// The interactions endpoint's URL ([`Mode::Http`]).
    pub fn endpoint(&self) -> Option<String> {
        self.env
            .iter()
            .find(|(n, _)| *n == "TABULA_LISTEN")
            .map(|(_, addr)| format!("http://{addr}/discord/interactions"))
    }

    /// A member of the server with the default permissions.
    pub fn person(&self, name: &str) -> DcUser {
        let user = self.fake.user(name);
        self.fake
            .join(&self.platform.guild, &user, DEFAULT_MEMBER_PERMISSIONS);
        user
    }

    /// `user` runs a slash command in the table's channel.
    ///
    /// # Panics
    /// If Discord's client would refuse it (an unregistered command, a bad option).
    pub async fn slash(&self, user: &DcUser, command: &str, options: &[(&str, Value)]) -> u64 {
        self.slash_in(&self.platform.channel, user, command, options)
            .await
    }

    /// `user` runs a slash command in `channel`.
    ///
    /// # Panics
    /// If Discord's client would refuse it (an unregistered command, a bad option).
    pub async fn slash_in(
        &self,
        channel: &DcChannel,
        user: &DcUser,
        command: &str,
        options: &[(&str, Value)],
    ) -> u64 {
        self.fake
            .slash(channel, user, command, options)
            .await
            .unwrap_or_else(|error| panic!("/{command} cannot be sent: {error}"))
    }

    /// `user` presses a button in the table's channel.
    ///
    /// # Panics
    /// If the button is not there for them.
    pub async fn press(&self, user: &DcUser, message: u64, custom_id: &str) -> u64 {
        self.press_in(&self.platform.channel, user, message, custom_id)
            .await
    }

    /// `user` presses a button in `channel`.
    ///
    /// # Panics
    /// If the button is not there for them.
    pub async fn press_in(
        &self,
        channel: &DcChannel,
        user: &DcUser,
        message: u64,
        custom_id: &str,
    ) -> u64 {
        self.fake
            .press(channel, user, message, custom_id)
            .await
            .unwrap_or_else(|error| panic!("cannot press {custom_id}: {error}"))
    }

    /// Waits for a message of the bot, published after the message `after` (ids grow with
    /// time), that everyone sees and `accept` takes.
    ///
    /// # Panics
    /// If none comes within [`ANSWER`].
    pub async fn wait_new(
        &self,
        after: u64,
        what: &str,
        accept: impl Fn(&DcMessage) -> bool + Send + Sync,
    ) -> DcMessage {
        self.wait_new_in(&self.platform.channel, after, what, accept)
            .await
    }

    /// [`Table::wait_new`] in `channel`.
    ///
    /// # Panics
    /// If none comes within [`ANSWER`].
    pub async fn wait_new_in(
        &self,
        channel: &DcChannel,
        after: u64,
        what: &str,
        accept: impl Fn(&DcMessage) -> bool + Send + Sync,
    ) -> DcMessage {
        self.wait_message_in(channel, after, what, |m| {
            Discord::is_for_all(m) && accept(m)
        })
        .await
    }

    /// Waits for a message of the bot after `after` that `accept` takes, ephemeral or not.
    ///
    /// # Panics
    /// If none comes within [`ANSWER`].
    pub async fn wait_message(
        &self,
        after: u64,
        what: &str,
        accept: impl Fn(&DcMessage) -> bool + Send + Sync,
    ) -> DcMessage {
        self.wait_message_in(&self.platform.channel, after, what, accept)
            .await
    }

    /// [`Table::wait_message`] in `channel`.
    ///
    /// # Panics
    /// If none comes within [`ANSWER`].
    pub async fn wait_message_in(
        &self,
        channel: &DcChannel,
        after: u64,
        what: &str,
        accept: impl Fn(&DcMessage) -> bool + Send + Sync,
    ) -> DcMessage {
        self.wait_message_after(channel, after, what, accept).await
    }

    /// The newest message id of the table's channel (0 when none).
    pub fn last_id(&self) -> u64 {
        self.last_id_in(&self.platform.channel)
    }

    /// The newest message id of `channel` (0 when none).
    pub fn last_id_in(&self, channel: &DcChannel) -> u64 {
        Discord::last_id(&self.fake, channel)
    }
}

/// Whether a message is a board: a PNG picture shown by its embed.
pub fn is_board(message: &DcMessage) -> bool {
    message.image_attachment().is_some_and(|a| a.is_png())
}

/// The buttons of a message, `(label, custom_id)`, enabled ones only.
pub fn buttons(message: &DcMessage) -> Vec<(String, String)> {
    message
        .buttons()
        .into_iter()
        .filter(|(_, _, disabled)| !disabled)
        .map(|(label, id, _)| (label, id))
        .collect()
}

/// The web addresses of a message's link buttons, in order.
pub fn link_urls(message: &DcMessage) -> Vec<String> {
    message
        .components
        .iter()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter(|b| b["style"] == 5)
        .filter_map(|b| b["url"].as_str().map(str::to_owned))
        .collect()
}

/// `alice` challenges `bob` to `game` with `/play` in `channel`: the challenge, once posted
/// for everyone with its Accept button.
///
/// # Panics
/// If the bot does not post it.
pub async fn offer_in(
    table: &Table,
    channel: &DcChannel,
    alice: &DcUser,
    bob: &DcUser,
    game: &str,
) -> DcMessage {
    let before = play_in(table, channel, alice, bob, game).await;
    table
        .wait_message_in(channel, before, "the challenge", |m| {
            m.ephemeral_for.is_none() && buttons(m).iter().any(|(_, d)| d.starts_with('a'))
        })
        .await
}

/// Whether a message carries move buttons (a board to play on, or a choice of moves).
pub fn has_moves(message: &DcMessage) -> bool {
    table::has_moves::<Discord>(message)
}

/// Who is to act on a board: the player it mentions (only the player to act is mentioned, and
/// notified).
pub fn to_act<'a>(board: &DcMessage, players: &'a [DcUser]) -> Option<&'a DcUser> {
    table::to_act::<Discord>(board, players)
}

/// Alice challenges Bob to `game` with `/play` in the table's channel and Bob accepts by
/// button; returns the players and the first board.
///
/// # Panics
/// If the bot does not answer as it should.
pub async fn challenge(table: &Table, game: &str) -> (Vec<DcUser>, DcMessage) {
    let alice = table.person("Alice");
    let bob = table.person("Bob");
    let board = challenge_in(table, &table.platform.channel, &alice, &bob, game).await;
    (vec![alice, bob], board)
}

/// `alice` challenges `bob` to `game` with `/play` in `channel` and `bob` accepts by button;
/// returns the first board, once the challenge has lost its buttons.
///
/// # Panics
/// If the bot does not answer as it should.
pub async fn challenge_in(
    table: &Table,
    channel: &DcChannel,
    alice: &DcUser,
    bob: &DcUser,
    game: &str,
) -> DcMessage {
    let before = play_in(table, channel, alice, bob, game).await;
    table::accept_challenge(table, channel, bob, before).await
}

/// `alice` runs `/play game @bob` in `channel`: the newest message id before it.
async fn play_in(
    table: &Table,
    channel: &DcChannel,
    alice: &DcUser,
    bob: &DcUser,
    game: &str,
) -> u64 {
    let before = table.last_id_in(channel);
    table
        .slash_in(
            channel,
            alice,
            "play",
            &[
                ("game", json!(game)),
                ("opponent", json!(bob.id.to_string())),
            ],
        )
        .await;
    before
}

/// Plays the game on `board` to its end, choosing moves at random (seeded) from the board's
/// buttons; every other move is typed with `/move` instead of pressed. At move `restart_at`
/// the bot is stopped by SIGTERM and started again. Where the computer plays, its boards are
/// waited for. Returns how many moves were made.
///
/// # Panics
/// If the bot does not answer, or the game does not end in 6,000 moves.
pub async fn play_to_end(
    table: &mut Table,
    players: &[DcUser],
    board: DcMessage,
    seed: u64,
    restart_at: usize,
) -> usize {
    let channel = table.platform.channel.clone();
    match table::play_moves(table, &channel, players, board, seed, restart_at, 6000).await {
        Ok(moves) => moves,
        Err(_) => panic!("the game did not end in 6000 moves"),
    }
}

/// The player to act on `board` makes a move chosen at random from its buttons: typed with
/// `/move` when `typed` (and the button is a move), pressed otherwise; a piece's button opens
/// its choice of moves, shown to the player only, and one of them is pressed. Returns the next
/// board, once every board before it has lost its move buttons.
///
/// # Panics
/// If the bot does not answer as it should.
pub async fn one_move(
    table: &Table,
    channel: &DcChannel,
    players: &[DcUser],
    board: &DcMessage,
    lcg: &mut Lcg,
    typed: bool,
) -> DcMessage {
    table::one_move(table, channel, players, board, lcg, typed).await
}

/// Plays `games` games of Konane at once, each in its own channel of the table's server
/// between two people of its own: the challenges, the acceptances, then `moves` moves in each
/// (pressed, or typed every third move), all in flight together.
///
/// # Panics
/// If any game does not go as it should.
pub async fn many_games(table: &std::sync::Arc<Table>, games: usize, moves: usize, seed: u64) {
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..games {
        let table = std::sync::Arc::clone(table);
        tasks.spawn(async move {
            let channel = table
                .fake
                .text_channel(&table.platform.guild, &format!("table-{i}"));
            let alice = table.person(&format!("Alice{i}"));
            let bob = table.person(&format!("Bob{i}"));
            let mut board = challenge_in(&table, &channel, &alice, &bob, "konane").await;
            let players = [alice, bob];
            let mut lcg = Lcg(seed.wrapping_add(i as u64));
            for step in 0..moves {
                if !has_moves(&board) {
                    break;
                }
                board = one_move(&table, &channel, &players, &board, &mut lcg, step % 3 == 0).await;
            }
        });
    }
    while let Some(done) = tasks.join_next().await {
        if let Err(error) = done {
            if error.is_panic() {
                std::panic::resume_unwind(error.into_panic());
            }
            panic!("a game's task failed: {error}");
        }
    }
}
