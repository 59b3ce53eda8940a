//! A table for end-to-end tests, one for both platforms: a platform's fake, the real
//! `tabula run` pointed at it, and people who play from what the bot shows them (the board's
//! buttons, or typed moves). What differs between Telegram and Discord (how a person presses
//! and types, how the bot's messages and boards are seen, what every test checks at its end)
//! is the [`Platform`] trait, implemented in [`crate::telegram_table`] and
//! [`crate::discord_table`]; the rest (the bot's process, waiting for an answer, a challenge
//! accepted by button, a move, a game played to its end) is written here once.

use std::fmt::{Debug, Display};
use std::future::Future;
use std::path::PathBuf;
use std::time::Duration;

pub use tabula_testkit::Lcg;

use crate::bot_process::BotProcess;
use crate::said;

/// How long a test waits for the bot's answer to one action.
pub const ANSWER: Duration = Duration::from_secs(20);

/// What differs between the platforms for a [`Table`]: the fake and what lives in it, how a
/// person acts there, and how the bot's messages are read.
pub trait Platform: Debug + Send + Sync + Sized + 'static {
    /// The platform's fake.
    type Fake: Debug + Send + Sync;
    /// Where people play (a group, a channel).
    type Chat: Clone + Debug + Send + Sync;
    /// A person of the platform.
    type Person: Clone + Debug + Send + Sync;
    /// A player as the play functions take them: the person and what the bot names them by.
    type Player: Clone + Debug + Send + Sync;
    /// A message of the fake.
    type Message: Clone + Debug + Send + Sync;
    /// A message's id; later messages have greater ids, and the default is below them all.
    type MessageId: Copy + Ord + Default + Debug + Display + Send + Sync;

    /// How long `tabula run` may take to say it started.
    const START: Duration;
    /// How long it may take to exit on SIGTERM.
    const STOP: Duration;

    /// What must never reach the bot's log (its token, or the secret part of it).
    fn secret(fake: &Self::Fake) -> String;

    /// Waits for what the platform needs once the bot said it started (a gateway session).
    fn after_start(&self, fake: &Self::Fake, bot: &BotProcess) -> impl Future<Output = ()> + Send;

    /// Waits for what the platform needs once the bot stopped (the gateway session closed).
    fn after_stop(&self, fake: &Self::Fake) -> impl Future<Output = ()> + Send;

    /// Checks what every test of the platform checks at its end (no request the platform
    /// refuses, every button press answered in time, the fake built only valid objects).
    ///
    /// # Panics
    /// If not.
    fn assert_clean(fake: &Self::Fake);

    /// Waits until `check` finds something in the fake, at most `timeout`.
    fn wait_for<T: Send>(
        fake: &Self::Fake,
        timeout: Duration,
        check: impl Fn(&Self::Fake) -> Option<T> + Send + Sync,
    ) -> impl Future<Output = Option<T>> + Send;

    /// The id of `message`.
    fn id(message: &Self::Message) -> Self::MessageId;
    /// Its text.
    fn text(message: &Self::Message) -> &str;
    /// Its buttons that can be pressed, `(label, data)`, in order.
    fn buttons(message: &Self::Message) -> Vec<(String, String)>;
    /// Whether it is a board picture.
    fn is_board(message: &Self::Message) -> bool;
    /// Whether it is seen by everyone in the chat (not only by one person).
    fn is_for_all(message: &Self::Message) -> bool;
    /// Whether it is the game's new board after a move (not a picture shown with a choice).
    fn is_new_board(message: &Self::Message) -> bool;
    /// Whether it is a choice of moves that `actor` can see.
    fn is_choice_for(message: &Self::Message, actor: &Self::Person) -> bool;

    /// The person a player is.
    fn person(player: &Self::Player) -> &Self::Person;
    /// Whether `text` (a line of a message) names `player`: a mention, or their name where
    /// nobody is notified.
    fn named_in(text: &str, player: &Self::Player) -> bool;
    /// Whether `message` notifies `player`.
    fn notifies(message: &Self::Message, player: &Self::Player) -> bool;

    /// The bot's newest message in `chat` after `after` that is not deleted and `accept` takes.
    fn newest_bot_message(
        fake: &Self::Fake,
        chat: &Self::Chat,
        after: Self::MessageId,
        accept: &dyn Fn(&Self::Message) -> bool,
    ) -> Option<Self::Message>;
    /// The message `id` of `chat`.
    fn message(fake: &Self::Fake, chat: &Self::Chat, id: Self::MessageId) -> Option<Self::Message>;
    /// The newest message's id in `chat`, the one a wait for an answer starts after.
    fn last_id(fake: &Self::Fake, chat: &Self::Chat) -> Self::MessageId;
    /// Whether a board older than `newest` in `chat` still has move buttons.
    fn old_board_with_moves(fake: &Self::Fake, chat: &Self::Chat, newest: Self::MessageId) -> bool;
    /// The bot's messages of `chat`, for a failure's message.
    fn describe(fake: &Self::Fake, chat: &Self::Chat) -> String;
    /// What the fake saw lately, for the failure of old boards keeping their buttons.
    fn describe_recent(fake: &Self::Fake, chat: &Self::Chat) -> String;

    /// `person` presses the button `data` of the message `message` in `chat`.
    ///
    /// # Panics
    /// If the button is not there for them.
    fn press(
        fake: &Self::Fake,
        chat: &Self::Chat,
        person: &Self::Person,
        message: Self::MessageId,
        data: &str,
    ) -> impl Future<Output = ()> + Send;

    /// `person` types the move `label` in `chat` (`/move label`).
    fn type_move(
        fake: &Self::Fake,
        chat: &Self::Chat,
        person: &Self::Person,
        label: &str,
    ) -> impl Future<Output = ()> + Send;
}

/// The fake, the platform's places, the bot's settings and the running process.
#[derive(Debug)]
pub struct Table<P: Platform> {
    /// The platform's fake.
    pub fake: P::Fake,
    /// What the platform keeps beside the fake (Discord: the mode, the server and channel).
    pub platform: P,
    /// The scratch folder (the SQLite database lives here).
    pub dir: PathBuf,
    /// The settings `tabula run` gets.
    pub env: Vec<(&'static str, String)>,
    /// The running bot, if started.
    pub bot: Option<BotProcess>,
}

impl<P: Platform> Table<P> {
    /// Sets (or replaces) a setting.
    pub fn set(&mut self, name: &'static str, value: impl Into<String>) {
        self.env.retain(|(n, _)| *n != name);
        self.env.push((name, value.into()));
    }

    /// Starts `tabula run`, waits for its start line and for what the platform needs then.
    ///
    /// # Panics
    /// If it does not start.
    pub async fn start(&mut self) {
        let mut bot = BotProcess::start(&self.dir, &["run"], &self.env);
        bot.wait_for_log("tabula run:", P::START).await;
        self.platform.after_start(&self.fake, &bot).await;
        self.bot = Some(bot);
    }

    /// Stops the bot with SIGTERM: it must exit 0 within a few seconds, without its token in
    /// its log.
    ///
    /// # Panics
    /// If it does not.
    pub async fn stop(&mut self) {
        if let Some(mut bot) = self.bot.take() {
            let status = bot.terminate(P::STOP).await;
            assert!(
                status.success(),
                "tabula run did not exit 0 on SIGTERM ({status}); it said:\n{}",
                bot.log()
            );
            assert!(
                !bot.log().contains(&P::secret(&self.fake)),
                "the token reached the log"
            );
            self.platform.after_stop(&self.fake).await;
        }
    }

    /// What the running bot has said.
    pub fn log(&self) -> String {
        self.bot.as_ref().map(BotProcess::log).unwrap_or_default()
    }

    /// Checks what every test of the platform checks at its end ([`Platform::assert_clean`]).
    ///
    /// # Panics
    /// If not.
    pub fn assert_clean(&self) {
        P::assert_clean(&self.fake);
    }

    /// Waits for a message of the bot in `chat`, newer than `after`, that `accept` takes.
    ///
    /// # Panics
    /// If none comes within [`ANSWER`].
    pub async fn wait_message_after(
        &self,
        chat: &P::Chat,
        after: P::MessageId,
        what: &str,
        accept: impl Fn(&P::Message) -> bool + Send + Sync,
    ) -> P::Message {
        let found = P::wait_for(&self.fake, ANSWER, |fake| {
            P::newest_bot_message(fake, chat, after, &accept)
        })
        .await;
        match found {
            Some(message) => message,
            None => panic!(
                "no {what} after message {after}; the bot's messages: {}\nits log:\n{}",
                P::describe(&self.fake, chat),
                self.log()
            ),
        }
    }
}

/// Whether a message carries move buttons (a board to play on, or a choice of moves).
pub fn has_moves<P: Platform>(message: &P::Message) -> bool {
    P::buttons(message)
        .iter()
        .any(|(_, data)| data.starts_with('m') || data.starts_with('p'))
}

/// Who is to act on a board: the player it names (only the player to act is named so that
/// the platform notifies them).
pub fn to_act<'a, P: Platform>(
    board: &P::Message,
    players: &'a [P::Player],
) -> Option<&'a P::Player> {
    players
        .iter()
        .find(|player| names_to_act::<P>(board, player))
}

/// Whether `board` names `player` in its line saying who is to act.
fn names_to_act<P: Platform>(board: &P::Message, player: &P::Player) -> bool {
    P::text(board)
        .lines()
        .any(|line| said::says(line, "board-turn") && P::named_in(line, player))
}

/// Whether `board` tells what `player` did just before it (a line other than whose turn it
/// is, or how the game began, names them): their turn goes on (a Pachisi throw, then its
/// move), and they are not notified again.
fn acted_before<P: Platform>(board: &P::Message, player: &P::Player) -> bool {
    P::text(board).lines().any(|line| {
        !said::says(line, "board-turn")
            && !said::says(line, "game-begins")
            && P::named_in(line, player)
    })
}

/// A move at random, as a keen player makes them: Pachisi's Pass without throwing and Give up
/// the rest (of a throw) only when nothing else is left.
pub fn choose(choices: &[(String, String)], lcg: &mut Lcg) -> (String, String) {
    let keen: Vec<_> = choices
        .iter()
        .filter(|(label, _)| !said::says(label, "move-skip") && !said::says(label, "move-done"))
        .collect();
    if keen.is_empty() {
        choices[lcg.below(choices.len())].clone()
    } else {
        keen[lcg.below(keen.len())].clone()
    }
}

/// The challenge the bot posts in `chat` after `before` is accepted by `challenged` with its
/// Accept button; returns the first board, once the challenge has lost its buttons.
///
/// # Panics
/// If the bot does not answer as it should, or the challenge does not notify `challenged`.
pub async fn accept_challenge<P: Platform>(
    table: &Table<P>,
    chat: &P::Chat,
    challenged: &P::Player,
    before: P::MessageId,
) -> P::Message {
    let offer = table
        .wait_message_after(chat, before, "challenge", |m| {
            P::is_for_all(m) && P::buttons(m).iter().any(|(_, d)| d.starts_with('a'))
        })
        .await;
    assert!(
        P::notifies(&offer, challenged),
        "the challenged player is notified of the challenge: {offer:?}"
    );
    let accept = P::buttons(&offer)
        .into_iter()
        .find(|(_, d)| d.starts_with('a'))
        .map(|(_, d)| d)
        .expect("an Accept button");
    let offer_id = P::id(&offer);
    P::press(&table.fake, chat, P::person(challenged), offer_id, &accept).await;
    let board = table
        .wait_message_after(chat, offer_id, "first board", |m| {
            P::is_for_all(m) && P::is_board(m)
        })
        .await;
    P::wait_for(&table.fake, ANSWER, |fake| {
        P::message(fake, chat, offer_id)
            .filter(|m| P::buttons(m).is_empty() && said::says(P::text(m), "challenge-started"))
    })
    .await
    .expect("the challenge loses its buttons and says which game began");
    board
}

/// Plays at most `limit` moves of the game on `board`, choosing moves at random (seeded) from
/// the board's buttons; every other move is typed instead of pressed. At move `restart_at` the
/// bot is stopped by SIGTERM and started again. Where the computer plays, its boards are
/// waited for. `Ok(moves)` when the game ended, `Err(board)` with the latest board when the
/// limit came first.
///
/// # Panics
/// If the bot does not answer as it should.
pub async fn play_moves<P: Platform>(
    table: &mut Table<P>,
    chat: &P::Chat,
    players: &[P::Player],
    mut board: P::Message,
    seed: u64,
    restart_at: usize,
    limit: usize,
) -> Result<usize, Box<P::Message>> {
    let mut lcg = Lcg(seed);
    for step in 0..limit {
        if step == restart_at {
            table.stop().await;
            table.start().await;
        }
        if !has_moves::<P>(&board) && said::says_variant(P::text(&board), "board-turn", "thinking")
        {
            // The computer's move comes from the outbox.
            board = table
                .wait_message_after(chat, P::id(&board), "the computer's board", P::is_new_board)
                .await;
            continue;
        }
        if !has_moves::<P>(&board) {
            assert!(
                said::says(P::text(&board), "result")
                    || said::says(P::text(&board), "result-because"),
                "a board without moves is the end: {}",
                P::text(&board)
            );
            return Ok(step);
        }
        board = one_move(table, chat, players, &board, &mut lcg, step % 2 == 0).await;
    }
    Err(Box::new(board))
}

/// The player to act on `board` makes a move chosen at random from its buttons: typed with
/// `/move` when `typed` (and the button is a move), pressed otherwise; a piece's button opens
/// its choice of moves, shown to the player, and one of them is pressed. Returns the next
/// board, once every board before it has lost its move buttons.
///
/// # Panics
/// If the bot does not answer as it should, or does not notify the player to act.
pub async fn one_move<P: Platform>(
    table: &Table<P>,
    chat: &P::Chat,
    players: &[P::Player],
    board: &P::Message,
    lcg: &mut Lcg,
    typed: bool,
) -> P::Message {
    // People read a board before they act; the bot records which message is the game's board
    // right after posting it (its id is known only then), and a press within the same
    // millisecond would find the previous board recorded.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let player = to_act::<P>(board, players)
        .unwrap_or_else(|| panic!("nobody is named to act: {}", P::text(board)))
        .clone();
    assert!(
        P::notifies(board, &player) || acted_before::<P>(board, &player),
        "the player to act is notified, unless they acted just before: {board:?}"
    );
    let actor = P::person(&player);
    let (label, data) = choose(&P::buttons(board), lcg);
    let last = P::last_id(&table.fake, chat);
    if data.starts_with('p') {
        // A piece with several moves: the board itself shows them, edited in place, with a
        // button back to all the moves.
        P::press(&table.fake, chat, actor, P::id(board), &data).await;
        let moves = P::wait_for(&table.fake, ANSWER, |fake| {
            let shown = P::buttons(&P::message(fake, chat, P::id(board))?);
            let back = shown.iter().any(|(_, data)| data.starts_with('u'));
            let moves: Vec<(String, String)> = shown
                .into_iter()
                .filter(|(_, data)| data.starts_with('m'))
                .collect();
            (back && !moves.is_empty()).then_some(moves)
        })
        .await
        .unwrap_or_else(|| {
            panic!(
                "the board does not show the piece's moves: {}",
                P::describe_recent(&table.fake, chat)
            )
        });
        let (_, data) = choose(&moves, lcg);
        P::press(&table.fake, chat, actor, P::id(board), &data).await;
    } else if typed && data.starts_with('m') && !label.contains(' ') {
        // A move written as on the board (Coan Ki's and Pachisi's buttons are in words, and
        // pressed).
        P::type_move(&table.fake, chat, actor, &label).await;
    } else {
        P::press(&table.fake, chat, actor, P::id(board), &data).await;
    }
    let next = table
        .wait_message_after(chat, last, "next board", P::is_new_board)
        .await;
    // The boards before lose their buttons.
    let newest = P::id(&next);
    let stripped = P::wait_for(&table.fake, ANSWER, |fake| {
        (!P::old_board_with_moves(fake, chat, newest)).then_some(())
    })
    .await;
    if stripped.is_none() {
        panic!(
            "old boards keep their move buttons: {}\nlog:\n{}",
            P::describe_recent(&table.fake, chat),
            table.log()
        );
    }
    // The board played on says the move that followed it, no longer who is to move.
    let then = P::wait_for(&table.fake, ANSWER, |fake| {
        P::message(fake, chat, P::id(board)).filter(|old| said::says(P::text(old), "board-then"))
    })
    .await;
    assert!(
        then.is_some(),
        "the old board does not say what followed: {:?}",
        P::message(&table.fake, chat, P::id(board)).map(|m| P::text(&m).to_string())
    );
    next
}

/// The end of the game in `chat` is told with closure (issue 37, item 7): the result notifies
/// every player, with Replay, Record and Rematch under it. Record pressed there posts the record,
/// which takes the buttons not yet used (Replay, Rematch) while the result loses its own; the
/// second player's Rematch under the record is the same challenge to the first, with an
/// Accept button.
///
/// # Panics
/// If not.
pub async fn ending_has_closure<P: Platform>(
    table: &Table<P>,
    chat: &P::Chat,
    players: &[P::Player],
) {
    let over = P::newest_bot_message(&table.fake, chat, P::MessageId::default(), &|m| {
        said::says(P::text(m), "result") || said::says(P::text(m), "result-because")
    })
    .expect("the result");
    for player in players {
        assert!(P::notifies(&over, player), "every player: {over:?}");
    }
    let under: Vec<String> = P::buttons(&over)
        .into_iter()
        .map(|(_, data)| data)
        .collect();
    assert_eq!(
        under
            .iter()
            .filter_map(|d| d.chars().next())
            .collect::<String>(),
        "ven",
        "{under:?}"
    );
    let record = under.iter().find(|d| d.starts_with('e')).expect("Record");
    P::press(
        &table.fake,
        chat,
        P::person(&players[1]),
        P::id(&over),
        record,
    )
    .await;
    let posted = table
        .wait_message_after(chat, P::id(&over), "the record", |m| {
            said::says(P::text(m), "export-record")
        })
        .await;
    let moved: String = P::buttons(&posted)
        .iter()
        .filter_map(|(_, d)| d.chars().next())
        .collect();
    assert_eq!(moved, "vn", "the buttons not yet used: {posted:?}");
    P::wait_for(&table.fake, ANSWER, |fake| {
        P::message(fake, chat, P::id(&over)).filter(|m| P::buttons(m).is_empty())
    })
    .await
    .expect("the result loses its buttons");
    let rematch = P::buttons(&posted)
        .into_iter()
        .find(|(_, d)| d.starts_with('n'))
        .map(|(_, d)| d)
        .expect("Rematch");
    P::press(
        &table.fake,
        chat,
        P::person(&players[1]),
        P::id(&posted),
        &rematch,
    )
    .await;
    let again = table
        .wait_message_after(chat, P::id(&posted), "the rematch", |m| {
            said::says(P::text(m), "challenge-named")
        })
        .await;
    assert!(
        P::notifies(&again, &players[0]),
        "the same people: {again:?}"
    );
    assert!(P::buttons(&again).iter().any(|(_, d)| d.starts_with('a')));
}
