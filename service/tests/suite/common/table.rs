//! A chat of the service for tests: people send commands and press buttons, moderators are
//! named, dice are scripted and the clock is moved by hand. Every service test drives the
//! service through this one harness.

use std::sync::atomic::{AtomicU64, Ordering};

use tabula_core::{AnyGame, Status};
use tabula_service::service::typed_mentions;
use tabula_service::service::{
    Button, Clock, Dice, Input, Mention, Person, Reply, Request, Service,
};
use tabula_service::store::{
    ChatId, CommunityId, GameNo, GameRecord, History, LedgerEntry, Platform, Store, Timestamp,
    Wallet,
};

/// Where every manual clock of the tests starts: 2027-01-10 12:00 UTC (mid-month, so that a
/// few days on stay in the same month).
pub const T0: Timestamp = Timestamp(1_799_582_400_000);
/// An hour in milliseconds.
pub const HOUR: i64 = 60 * 60 * 1000;
/// A day in milliseconds.
pub const DAY: i64 = 24 * HOUR;
/// The chat of a table unless a test names another: its platform id and title.
pub const CHAT: (&str, &str) = ("chat1", "Test chat");

static NEXT_KEY: AtomicU64 = AtomicU64::new(1);

/// A request key no other request of this test binary uses.
pub fn fresh_key() -> String {
    format!("k{}", NEXT_KEY.fetch_add(1, Ordering::Relaxed))
}

/// The seeded generator shared by the tests and the benchmarks (dice scripts, move choices).
pub use tabula_testkit::Lcg;

/// Dice scripted from a seed.
pub fn scripted_dice(seed: u64) -> Dice {
    let mut lcg = Lcg(seed);
    Dice::scripted((0..200_000).map(|_| lcg.next()))
}

/// One chat ([`CHAT`] unless changed), standing alone (its own community), with a manual
/// clock at [`T0`] unless made otherwise. A person's platform id is the name the test uses
/// (`"bob"`); their display name is that name in capitals (`BOB`) unless `names` says
/// otherwise.
pub struct Table {
    pub service: Service,
    pub clock: Clock,
    /// The people whose requests say they moderate.
    pub moderators: Vec<&'static str>,
    /// The chat's platform id and title.
    pub chat: (&'static str, &'static str),
    /// Display names other than the capitalised id: (id, display name).
    pub names: Vec<(&'static str, &'static str)>,
    /// Whether a command's `@name`s arrive as people the platform resolved (as Discord's
    /// USER options do; the default), or as typed usernames (as Telegram's `mention`
    /// entities, which the service resolves or keeps as usernames).
    pub resolved_mentions: bool,
    /// The platform the requests come from ([`Platform::Local`] unless changed).
    pub platform: Platform,
    /// The community the chat belongs to (platform id and name); `None`: it stands alone.
    pub community: Option<(&'static str, &'static str)>,
    /// Whether the chat can hold a thread per game ([`Request::threads`]).
    pub threads: bool,
    /// The thread the requests come from, if any ([`Request::thread`]).
    pub thread: Option<&'static str>,
}

impl Table {
    /// A table with a manual clock at [`T0`], whose service answers every refusal (no
    /// cooldown; see [`Service::with_cooldown`]).
    pub fn new(store: Store, seed: u64) -> Table {
        Table::with_clock(store, seed, Clock::manual(T0))
    }

    /// A table whose service reads the system clock.
    pub fn system_clock(store: Store, seed: u64) -> Table {
        Table::with_clock(store, seed, Clock::System)
    }

    /// A table whose service reads `clock` (a clone of another table's, after a restart).
    pub fn with_clock(store: Store, seed: u64, clock: Clock) -> Table {
        Table::with_service(
            // Tests of mistakes make many in a row: every refusal is answered here; the
            // cooldown against floods has its own tests (the `cooldown` module of the suite).
            Service::new(store, scripted_dice(seed))
                .with_pictures(false)
                .with_cooldown(None)
                .with_clock(clock.clone()),
            clock,
        )
    }

    /// A table around a service the test made (pictures, a challenge time-to-live); `clock`
    /// must be the one the service reads.
    pub fn with_service(service: Service, clock: Clock) -> Table {
        Table {
            service,
            clock,
            moderators: vec!["mod"],
            chat: CHAT,
            names: Vec::new(),
            resolved_mentions: true,
            platform: Platform::Local,
            community: None,
            threads: false,
            thread: None,
        }
    }

    /// The display name of a person of the tests.
    pub fn display_name(&self, user: &str) -> String {
        self.names
            .iter()
            .find(|(id, _)| *id == user)
            .map_or_else(|| user.to_uppercase(), |(_, name)| (*name).to_string())
    }

    /// A request from `user` in the table's chat with a fresh key; it says the user moderates
    /// when they are one of `moderators`, and carries the `@name`s of a command as mentions.
    /// Tests change its fields (community, moderator, bot username, thread) before sending.
    pub fn request(&self, user: &str, input: Input) -> Request {
        let mut request = Request::new(
            self.platform,
            self.chat,
            Person::new(user, self.display_name(user)).with_username(user),
            fresh_key(),
            input,
        );
        request.moderator = self.moderators.contains(&user);
        request.community = self
            .community
            .map(|(id, name)| (id.to_string(), name.to_string()));
        request.threads = self.threads;
        request.thread = self.thread.map(str::to_string);
        // Where the person's private messages go (a platform's private chat with the bot).
        request.private_chat = Some(format!("private-{user}"));
        if let Input::Command(text) = &request.input {
            request.mentions = typed_mentions(text);
            if self.resolved_mentions {
                for mention in &mut request.mentions {
                    if let Mention::Username(name) = mention {
                        let person = Person::new(name.as_str(), self.display_name(name))
                            .with_username(name.as_str());
                        *mention = Mention::Person(person);
                    }
                }
            }
        }
        request
    }

    /// A typed command's request.
    pub fn command(&self, user: &str, text: &str) -> Request {
        self.request(user, Input::Command(text.into()))
    }

    /// A pressed button's request.
    pub fn button(&self, user: &str, data: &str) -> Request {
        self.request(user, Input::Button(data.into()))
    }

    /// The service's answer: `None` when the request is not for the bot; panics on an
    /// internal failure.
    pub async fn send_maybe(&self, request: &Request) -> Option<Reply> {
        match self.service.handle(request).await {
            Ok(reply) => reply,
            Err(error) => panic!(
                "internal failure for {:?} by {}: {}",
                request.input,
                request.actor.id,
                super::chain(&error)
            ),
        }
    }

    /// The service's answer, which must be there.
    pub async fn send(&self, request: &Request) -> Reply {
        match self.send_maybe(request).await {
            Some(reply) => reply,
            None => panic!("no answer to {:?}", request.input),
        }
    }

    pub async fn cmd(&self, user: &str, text: &str) -> Reply {
        self.send(&self.command(user, text)).await
    }

    pub async fn press(&self, user: &str, data: &str) -> Reply {
        self.send(&self.button(user, data)).await
    }

    /// A command that asks first (`/resign`, a player's `/abort`), confirmed at once by the
    /// same person with the question's first button: the confirmation's reply. A command that
    /// did not ask (refused, or a moderator's abort) is its own reply.
    pub async fn confirmed(&self, user: &str, text: &str) -> Reply {
        let asked = self.cmd(user, text).await;
        if !asked.question {
            return asked;
        }
        let confirm = asked.buttons[0][0].data.clone();
        self.press(user, &confirm).await
    }

    pub async fn tick(&self) -> Vec<Reply> {
        match self.service.tick().await {
            Ok(replies) => replies,
            Err(error) => panic!("scheduler failure: {}", super::chain(&error)),
        }
    }

    pub fn store(&self) -> &Store {
        self.service.store()
    }

    /// The chat's store row id and its community (the chat stands alone).
    pub async fn chat_ids(&self) -> (ChatId, CommunityId) {
        match self
            .store()
            .upsert_chat(self.platform, self.chat.0, self.chat.1, self.community)
            .await
        {
            Ok(chat) => (chat.id, chat.community),
            Err(error) => panic!("{error}"),
        }
    }

    /// The chat's community (the chat stands alone).
    pub async fn community(&self) -> CommunityId {
        self.chat_ids().await.1
    }

    pub async fn record(&self, game: GameNo) -> GameRecord {
        match self.store().game(game).await {
            Ok(Some(record)) => record,
            other => panic!("no game {game}: {other:?}"),
        }
    }

    /// The game replayed from its stored log, with its record.
    pub async fn replayed(&self, game: GameNo) -> (AnyGame, GameRecord) {
        let loaded = match self.store().load_game(game, History::Full).await {
            Ok(Some(loaded)) => loaded,
            other => panic!("cannot load game {game}: {other:?}"),
        };
        match loaded.replay() {
            Ok(state) => (state, loaded.record),
            Err(error) => panic!("stored game {game} does not replay: {error}"),
        }
    }

    /// The game replayed from the store, and who is to act (platform user id).
    pub async fn state(&self, game: GameNo) -> (AnyGame, Option<String>) {
        let (state, record) = self.replayed(game).await;
        let actor = to_act(&state, &record);
        (state, actor)
    }

    /// The active games of the chat.
    pub async fn active_games(&self) -> Vec<GameRecord> {
        let chat = self.chat_ids().await.0;
        match self.store().active_games_in_chat(chat).await {
            Ok(games) => games,
            Err(error) => panic!("{error}"),
        }
    }

    /// The pending challenges of the chat.
    pub async fn pending_challenges(&self) -> usize {
        let chat = self.chat_ids().await.0;
        match self.store().pending_challenges(chat).await {
            Ok(challenges) => challenges.len(),
            Err(error) => panic!("{error}"),
        }
    }

    /// The player to move plays a random legal move, typed; `None` when nobody is to move.
    pub async fn random_move(&self, game: GameNo, lcg: &mut Lcg) -> Option<(String, Reply)> {
        self.random_move_by(game, lcg, false).await
    }

    /// The player to move plays a random legal move, typed or (`press`) pressed on a fresh
    /// board; `None` when nobody is to move. The move must be carried out.
    pub async fn random_move_by(
        &self,
        game: GameNo,
        lcg: &mut Lcg,
        press: bool,
    ) -> Option<(String, Reply)> {
        let (state, actor) = self.state(game).await;
        let actor = actor?;
        let lines = state.legal_lines();
        assert!(
            !lines.is_empty(),
            "game {game}: no legal moves at a decision"
        );
        let line = lines[lcg.below(lines.len())].clone();
        let button = if press {
            let board = self.cmd(&actor, &format!("/board #{game}")).await;
            self.try_button_for(&actor, &board, &line).await
        } else {
            None
        };
        let reply = match button {
            Some(button) => self.press(&actor, &button.data).await,
            // Typed, or beyond the 25 buttons a message may carry (see `cut_buttons`).
            None => self.cmd(&actor, &format!("/move #{game} {line}")).await,
        };
        assert!(
            reply.is_done() && reply.game == Some(game),
            "{actor}: {line}: {:?}: {}",
            reply.kind,
            text(&reply)
        );
        Some((actor, reply))
    }

    /// The button of a board that plays `line`, pressing a piece's button first when the moves
    /// are grouped by piece.
    pub async fn button_for(&self, actor: &str, board: &Reply, line: &str) -> Button {
        match self.try_button_for(actor, board, line).await {
            Some(button) => button,
            None => panic!("no button for {line}: the buttons were cut"),
        }
    }

    /// [`Table::button_for`], or `None` when the reply that would hold the button had more
    /// than a message may carry and says that the rest are to be typed (a piece with more
    /// than 25 moves, as Coan Ki's two-piece plays can have); any other miss panics.
    pub async fn try_button_for(&self, actor: &str, board: &Reply, line: &str) -> Option<Button> {
        // A move's button carries its index among the legal moves (`m<game>.<seq>.<index>`);
        // its label is the notation, or words for Coan Ki and Pachisi.
        let game = board.game.expect("a board of a game");
        let (state, _) = self.state(game).await;
        let index = state
            .legal_lines()
            .iter()
            .position(|legal| legal == line)
            .unwrap_or_else(|| panic!("{line} is not legal in game {game}"));
        let plays = |b: &&Button| {
            b.data.starts_with('m') && b.data.rsplit('.').next() == Some(index.to_string().as_str())
        };
        if let Some(button) = board.all_buttons().find(plays) {
            return Some(button.clone());
        }
        let Some(group) = piece_button(board, line) else {
            if cut_buttons(board) {
                return None;
            }
            panic!(
                "no button for {line} on {}: {:?}",
                text(board),
                board.buttons
            );
        };
        let choices = self.press(actor, &group.data).await;
        match choices.all_buttons().find(plays) {
            Some(button) => Some(button.clone()),
            None if cut_buttons(&choices) => None,
            None => panic!("no button for {line} after {}", text(&choices)),
        }
    }

    /// A person's wallet (opened if need be).
    pub async fn wallet(&self, name: &str) -> Wallet {
        let community = self.community().await;
        // Under the name their own requests give them (see `request`).
        let user = match self
            .store()
            .upsert_user_with_username(Platform::Local, name, &self.display_name(name), Some(name))
            .await
        {
            Ok(user) => user,
            Err(error) => panic!("{error}"),
        };
        match self.store().open_wallet(community, user.id).await {
            Ok(wallet) => wallet,
            Err(error) => panic!("{error}"),
        }
    }

    pub async fn balance(&self, name: &str) -> i64 {
        self.wallet(name).await.balance
    }

    pub async fn ledger(&self) -> Vec<LedgerEntry> {
        let community = self.community().await;
        match self.store().ledger(community).await {
            Ok(ledger) => ledger,
            Err(error) => panic!("{error}"),
        }
    }

    /// Checks that the community's money adds up: all balances sum to zero (the bank is minus
    /// what was given out) and every balance is what its ledger rows say.
    pub async fn assert_money_adds_up(&self) {
        let community = self.community().await;
        let accounts = match self.store().accounts(community).await {
            Ok(accounts) => accounts,
            Err(error) => panic!("{error}"),
        };
        let ledger = self.ledger().await;
        super::assert_books_balance(&accounts, &ledger, "the community's books");
    }
}

/// Who is to act in a replayed game (platform user id); `None` unless at a decision.
pub fn to_act(state: &AnyGame, record: &GameRecord) -> Option<String> {
    match state.status() {
        Status::Decision(seat) => record
            .seats
            .iter()
            .find(|h| h.seat == seat.0)
            .map(|h| h.user.platform_user_id.clone()),
        _ => None,
    }
}

/// The button of a board that groups the moves of `line`'s piece (`a1…`), if any.
pub fn piece_button<'a>(board: &'a Reply, line: &str) -> Option<&'a Button> {
    board.all_buttons().find(|b| {
        b.label
            .strip_suffix('…')
            .and_then(|piece| line.strip_prefix(piece))
            .is_some_and(|rest| rest.starts_with(['-', 'x', '+', '&']))
    })
}

/// Whether a reply had more buttons than a message may carry (25), and says so (`more-buttons`).
pub fn cut_buttons(reply: &Reply) -> bool {
    reply.all_buttons().count() == 25 && reply.says("more-buttons").is_some()
}

pub fn text(reply: &Reply) -> String {
    reply.plain_text()
}

/// The button of a reply that acts on a challenge as `action` says, the first letter of its
/// data before the challenge's number: `a` accepts (or joins), `d` declines, `x` cancels, `s`
/// starts early, `c` starts with computers in the empty seats.
pub fn challenge_button(reply: &Reply, action: char) -> Option<&Button> {
    reply.all_buttons().find(|b| {
        b.data
            .strip_prefix(action)
            .is_some_and(|no| !no.is_empty() && no.bytes().all(|c| c.is_ascii_digit()))
    })
}

/// The challenge a reply names ([`Reply::challenge`]); its Accept button, if it has one,
/// must carry the same number (`a<n>`).
pub fn challenge_no(reply: &Reply) -> i64 {
    let Some(no) = reply.challenge else {
        panic!("the reply names no challenge: {}", text(reply));
    };
    if let Some(accept) = reply.all_buttons().find(|b| b.data.starts_with('a')) {
        assert_eq!(
            accept.data,
            format!("a{no}"),
            "the Accept button of challenge {no}"
        );
    }
    no.0
}
/// Starts a game between `challenger` and `accepter` with extra `/play` words (stake=, time=);
/// returns its number.
pub async fn start(
    table: &Table,
    challenger: &str,
    accepter: &str,
    game_and_terms: &str,
) -> GameNo {
    let reply = table
        .cmd(challenger, &format!("/play {game_and_terms} @{accepter}"))
        .await;
    assert!(
        reply.is_done() && reply.all_buttons().all(|b| b.data.len() <= 64),
        "{:?}: {}",
        reply.kind,
        text(&reply)
    );
    let reply = table.cmd(accepter, "/accept").await;
    assert!(reply.is_done(), "{:?}: {}", reply.kind, text(&reply));
    let Some(game) = reply.game else {
        panic!("no game started: {}", text(&reply));
    };
    assert!(
        table
            .active_games()
            .await
            .iter()
            .any(|record| record.id == game),
        "game {game} is not active"
    );
    game
}
