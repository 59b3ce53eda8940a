//! A table for end-to-end Discord tests: the fake Discord, the real `tabula run` pointed at it
//! (over the gateway or the HTTP interactions endpoint), and people who play from what the bot
//! shows them (the board's buttons, or `/move` typed with its option).

use std::path::PathBuf;
use std::time::Duration;

use serde_json::{Value, json};

use crate::bot_process::{BotProcess, free_port, scratch_dir};
use crate::discord::{
    DEFAULT_MEMBER_PERMISSIONS, DcChannel, DcGuild, DcMessage, DcUser, FakeDiscord,
};

/// How long a test waits for the bot's answer to one action.
pub const ANSWER: Duration = Duration::from_secs(20);

/// How interactions reach the bot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Over the gateway (the default).
    Gateway,
    /// Signed POSTs to the HTTP interactions endpoint (`DISCORD_PUBLIC_KEY` set).
    Http,
}

/// The fake, a server with a channel, the bot's settings and the running process.
#[derive(Debug)]
pub struct Table {
    /// The fake Discord.
    pub fake: FakeDiscord,
    /// How interactions arrive.
    pub mode: Mode,
    /// The scratch folder (the SQLite database lives here).
    pub dir: PathBuf,
    /// The settings `tabula run` gets.
    pub env: Vec<(&'static str, String)>,
    /// The running bot, if started.
    pub bot: Option<BotProcess>,
    /// The server.
    pub guild: DcGuild,
    /// Its channel where games are played.
    pub channel: DcChannel,
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
        Table {
            fake,
            mode,
            dir,
            env,
            bot: None,
            guild,
            channel,
        }
    }

    /// The interactions endpoint's URL ([`Mode::Http`]).
    pub fn endpoint(&self) -> Option<String> {
        self.env
            .iter()
            .find(|(n, _)| *n == "TABULA_LISTEN")
            .map(|(_, addr)| format!("http://{addr}/discord/interactions"))
    }

    /// Sets (or replaces) a setting.
    pub fn set(&mut self, name: &'static str, value: impl Into<String>) {
        self.env.retain(|(n, _)| *n != name);
        self.env.push((name, value.into()));
    }

    /// Starts `tabula run`, waits for its start line and, over the gateway, for a READY
    /// session.
    ///
    /// # Panics
    /// If it does not start.
    pub async fn start(&mut self) {
        let mut bot = BotProcess::start(&self.dir, &["run"], &self.env);
        bot.wait_for_log("tabula run:", Duration::from_secs(60))
            .await;
        if self.mode == Mode::Gateway {
            let ready = self
                .fake
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
        self.bot = Some(bot);
    }

    /// Stops the bot with SIGTERM: it must exit 0 within a few seconds, without the token in
    /// its log.
    ///
    /// # Panics
    /// If it does not.
    pub async fn stop(&mut self) {
        if let Some(mut bot) = self.bot.take() {
            let status = bot.terminate(Duration::from_secs(15)).await;
            assert!(
                status.success(),
                "tabula run did not exit 0 on SIGTERM ({status}); it said:\n{}",
                bot.log()
            );
            assert!(
                !bot.log().contains(self.fake.token()),
                "the token reached the log"
            );
            if self.mode == Mode::Gateway {
                let closed = self
                    .fake
                    .gateway()
                    .wait_until(Duration::from_secs(10), |sessions| {
                        sessions.iter().all(|s| !s.ready)
                    })
                    .await;
                assert!(closed.is_ok(), "the gateway session stays open: {closed:?}");
            }
        }
    }

    /// What the running bot has said.
    pub fn log(&self) -> String {
        self.bot.as_ref().map(BotProcess::log).unwrap_or_default()
    }

    /// A member of the server with the default permissions.
    pub fn person(&self, name: &str) -> DcUser {
        let user = self.fake.user(name);
        self.fake
            .join(&self.guild, &user, DEFAULT_MEMBER_PERMISSIONS);
        user
    }

    /// `user` runs a slash command in the table's channel.
    ///
    /// # Panics
    /// If Discord's client would refuse it (an unregistered command, a bad option).
    pub async fn slash(&self, user: &DcUser, command: &str, options: &[(&str, Value)]) -> u64 {
        self.slash_in(&self.channel, user, command, options).await
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
        self.press_in(&self.channel, user, message, custom_id).await
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
        accept: impl Fn(&DcMessage) -> bool,
    ) -> DcMessage {
        self.wait_new_in(&self.channel, after, what, accept).await
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
        accept: impl Fn(&DcMessage) -> bool,
    ) -> DcMessage {
        self.wait_message_in(channel, after, what, |m| {
            m.ephemeral_for.is_none() && accept(m)
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
        accept: impl Fn(&DcMessage) -> bool,
    ) -> DcMessage {
        self.wait_message_in(&self.channel, after, what, accept)
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
        accept: impl Fn(&DcMessage) -> bool,
    ) -> DcMessage {
        let found = self
            .fake
            .wait_for(ANSWER, |f| {
                f.messages(channel).into_iter().rev().find(|m| {
                    m.id > after
                        && m.author_id == f.bot_user_id()
                        && !m.deleted
                        && !m.is_loading()
                        && accept(m)
                })
            })
            .await;
        match found {
            Ok(message) => message,
            Err(_) => panic!(
                "no {what} after message {after}; the bot's messages: {:#?}\nits log:\n{}",
                self.fake
                    .messages(channel)
                    .iter()
                    .map(|m| (m.id, m.ephemeral_for, m.content.clone(), m.buttons().len()))
                    .collect::<Vec<_>>(),
                self.log()
            ),
        }
    }

    /// The newest message id of the table's channel (0 when none).
    pub fn last_id(&self) -> u64 {
        self.last_id_in(&self.channel)
    }

    /// The newest message id of `channel` (0 when none).
    pub fn last_id_in(&self, channel: &DcChannel) -> u64 {
        self.fake
            .messages(channel)
            .iter()
            .map(|m| m.id)
            .max()
            .unwrap_or(0)
    }

    /// Checks what every Discord test checks at its end: no request Discord would refuse,
    /// every interaction acknowledged in time and every deferral completed, no protocol error
    /// on the gateway, and the fake built only valid objects.
    ///
    /// # Panics
    /// If not.
    pub fn assert_clean(&self) {
        let violations = self.fake.violations();
        assert!(
            violations.is_empty(),
            "requests Discord would refuse: {violations:#?}"
        );
        let unacknowledged = self.fake.unacknowledged();
        assert!(
            unacknowledged.is_empty(),
            "interactions never acknowledged: {unacknowledged:#?}"
        );
        let incomplete = self.fake.incomplete_deferrals();
        assert!(
            incomplete.is_empty(),
            "deferred interactions never completed: {incomplete:#?}"
        );
        let late: Vec<_> = self
            .fake
            .interactions()
            .into_iter()
            .filter(|i| {
                i.initial
                    .as_ref()
                    .is_some_and(|(_, after, _, _)| *after > Duration::from_secs(3))
            })
            .collect();
        assert!(late.is_empty(), "interactions answered late: {late:#?}");
        let gateway = self.fake.gateway().violations();
        assert!(gateway.is_empty(), "gateway protocol errors: {gateway:#?}");
        let own = self.fake.self_check_failures();
        assert!(own.is_empty(), "the fake built invalid objects: {own:#?}");
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

/// Whether a message carries move buttons (a board to play on, or a choice of moves).
pub fn has_moves(message: &DcMessage) -> bool {
    buttons(message)
        .iter()
        .any(|(_, id)| id.starts_with('m') || id.starts_with('p'))
}

/// Who is to act on a board: the player it mentions (only the player to act is mentioned, and
/// notified).
pub fn to_act<'a>(board: &DcMessage, players: &'a [DcUser]) -> Option<&'a DcUser> {
    players
        .iter()
        .find(|user| board.content.contains(&format!("<@{}>", user.id)))
}

/// The seeded generator the tables choose moves with (shared with the service's tests).
pub use tabula_testkit::Lcg;

/// A move at random, as a keen player makes them: Pachisi's `skip` and `done` only when
/// nothing else is left.
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

/// Alice challenges Bob to `game` with `/play` in the table's channel and Bob accepts by
/// button; returns the players and the first board.
///
/// # Panics
/// If the bot does not answer as it should.
pub async fn challenge(table: &Table, game: &str) -> (Vec<DcUser>, DcMessage) {
    let alice = table.person("Alice");
    let bob = table.person("Bob");
    let board = challenge_in(table, &table.channel, &alice, &bob, game).await;
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
    let offer = table
        .wait_new_in(channel, before, "challenge", |m| {
            buttons(m).iter().any(|(_, id)| id.starts_with('a'))
        })
        .await;
    assert!(
        offer.notified.contains(&bob.id),
        "bob is notified of the challenge: {offer:?}"
    );
    let accept = buttons(&offer)
        .into_iter()
        .find(|(_, id)| id.starts_with('a'))
        .map(|(_, id)| id)
        .expect("an Accept button");
    table.press_in(channel, bob, offer.id, &accept).await;
    let board = table
        .wait_new_in(channel, offer.id, "first board", is_board)
        .await;
    let offer_id = offer.id;
    table
        .fake
        .wait_for(ANSWER, |f| {
            f.message(offer_id).filter(|m| buttons(m).is_empty())
        })
        .await
        .expect("the challenge's buttons are taken off once the game started");
    board
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
    mut board: DcMessage,
    seed: u64,
    restart_at: usize,
) -> usize {
    let mut lcg = Lcg(seed);
    let channel = table.channel.clone();
    for step in 0..6000 {
        if step == restart_at {
            table.stop().await;
            table.start().await;
        }
        if !has_moves(&board) && board.content.contains("is thinking") {
            // The computer's move comes from the outbox.
            board = table
                .wait_new(board.id, "the computer's board", is_board)
                .await;
            continue;
        }
        if !has_moves(&board) {
            assert!(
                board.content.contains("over") || board.content.contains("wins"),
                "a board without moves is the end: {}",
                board.content
            );
            return step;
        }
        board = one_move(table, &channel, players, &board, &mut lcg, step % 2 == 0).await;
    }
    panic!("the game did not end in 6000 moves")
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
    // People read a board before they act; the bot records which message is the game's board
    // right after posting it (its id is known only then), and a press within the same
    // millisecond would find the previous board recorded.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let actor = to_act(board, players)
        .unwrap_or_else(|| panic!("nobody is named to act: {}", board.content))
        .clone();
    assert!(
        board.notified.contains(&actor.id),
        "the player to act is notified: {board:?}"
    );
    let (label, data) = choose(&buttons(board), lcg);
    let last = table.last_id_in(channel);
    if data.starts_with('p') {
        table.press_in(channel, &actor, board.id, &data).await;
        let choice = table
            .wait_message_in(channel, last, "choice of moves", |m| {
                m.ephemeral_for == Some(actor.id) && has_moves(m)
            })
            .await;
        let (_, data) = choose(&buttons(&choice), lcg);
        table.press_in(channel, &actor, choice.id, &data).await;
    } else if typed && data.starts_with('m') {
        table
            .slash_in(channel, &actor, "move", &[("move", json!(label))])
            .await;
    } else {
        table.press_in(channel, &actor, board.id, &data).await;
    }
    let next = table
        .wait_new_in(channel, last, "next board", is_board)
        .await;
    let newest = next.id;
    table
        .fake
        .wait_for(ANSWER, |f| {
            (!f.messages(channel)
                .iter()
                .any(|m| is_board(m) && m.id < newest && has_moves(m) && !m.deleted))
            .then_some(())
        })
        .await
        .unwrap_or_else(|_| {
            panic!(
                "old boards keep their move buttons: {:?}\nrequests: {:#?}\nlog:\n{}",
                table
                    .fake
                    .messages(channel)
                    .iter()
                    .filter(|m| is_board(m) && has_moves(m))
                    .map(|m| (m.id, m.interaction_id))
                    .collect::<Vec<_>>(),
                table
                    .fake
                    .requests()
                    .iter()
                    .rev()
                    .take(12)
                    .map(|r| format!(
                        "{} {} {} {:?} {}",
                        r.method, r.path, r.status, r.outcome, r.body_summary
                    ))
                    .collect::<Vec<_>>(),
                table.log()
            )
        });
    next
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
            let channel = table.fake.text_channel(&table.guild, &format!("table-{i}"));
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
