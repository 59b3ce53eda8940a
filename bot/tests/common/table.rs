//! A chat of the service for tests: people send commands and press buttons, moderators are
//! named, dice are scripted and the clock is moved by hand.

use std::sync::atomic::{AtomicU64, Ordering};

use tabula_bot::local::typed_mentions;
use tabula_bot::service::{Clock, Dice, Input, Person, Reply, Request, Service};
use tabula_bot::store::{
    CommunityId, GameNo, GameRecord, History, LedgerEntry, Platform, Store, Timestamp, Wallet,
};
use tabula_core::{AnyGame, Status};

/// Where every manual clock of the tests starts: 2027-01-10 12:00 UTC (mid-month, so that a
/// few days on stay in the same month).
pub const T0: Timestamp = Timestamp(1_799_582_400_000);
/// An hour in milliseconds.
pub const HOUR: i64 = 60 * 60 * 1000;
/// A day in milliseconds.
pub const DAY: i64 = 24 * HOUR;

static NEXT_KEY: AtomicU64 = AtomicU64::new(1);

/// A small deterministic generator (dice scripts, move choices).
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    pub fn below(&mut self, bound: usize) -> usize {
        usize::try_from(self.next()).unwrap_or(0) % bound.max(1)
    }
}

/// Dice scripted from a seed.
pub fn scripted_dice(seed: u64) -> Dice {
    let mut lcg = Lcg(seed);
    Dice::scripted((0..200_000).map(|_| lcg.next()))
}

/// One chat, `chat1`, standing alone (its own community), with a manual clock at [`T0`].
pub struct Table {
    pub service: Service,
    pub clock: Clock,
    pub moderators: Vec<&'static str>,
}

impl Table {
    pub fn new(store: Store, seed: u64) -> Table {
        Table::with_clock(store, seed, Clock::manual(T0))
    }

    /// A table whose service reads `clock` (a clone of another table's, after a restart).
    pub fn with_clock(store: Store, seed: u64, clock: Clock) -> Table {
        Table {
            service: Service::new(store, scripted_dice(seed))
                .with_pictures(false)
                .with_clock(clock.clone()),
            clock,
            moderators: vec!["mod"],
        }
    }

    pub fn request(&self, user: &str, input: Input) -> Request {
        let mut request = Request::new(
            Platform::Local,
            ("chat1", "Test chat"),
            Person::new(user, user.to_uppercase()).with_username(user),
            format!("k{}", NEXT_KEY.fetch_add(1, Ordering::Relaxed)),
            input,
        );
        request.moderator = self.moderators.contains(&user);
        if let Input::Command(text) = &request.input {
            request.mentions = typed_mentions(text);
        }
        request
    }

    pub async fn send(&self, request: &Request) -> Reply {
        match self.service.handle(request).await {
            Ok(Some(reply)) => reply,
            Ok(None) => panic!("no answer to {:?}", request.input),
            Err(error) => panic!("internal failure: {}", super::chain(&error)),
        }
    }

    pub async fn cmd(&self, user: &str, text: &str) -> Reply {
        self.send(&self.request(user, Input::Command(text.into())))
            .await
    }

    pub async fn press(&self, user: &str, data: &str) -> Reply {
        self.send(&self.request(user, Input::Button(data.into())))
            .await
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

    /// The chat's community (the chat stands alone).
    pub async fn community(&self) -> CommunityId {
        match self
            .store()
            .upsert_chat(Platform::Local, "chat1", "Test chat", None)
            .await
        {
            Ok(chat) => chat.community,
            Err(error) => panic!("{error}"),
        }
    }

    pub async fn record(&self, game: GameNo) -> GameRecord {
        match self.store().game(game).await {
            Ok(Some(record)) => record,
            other => panic!("no game {game}: {other:?}"),
        }
    }

    /// The game replayed from the store, and who is to act (platform user id).
    pub async fn state(&self, game: GameNo) -> (AnyGame, Option<String>) {
        let loaded = match self.store().load_game(game, History::Full).await {
            Ok(Some(loaded)) => loaded,
            other => panic!("cannot load game {game}: {other:?}"),
        };
        let state = match loaded.replay() {
            Ok(state) => state,
            Err(error) => panic!("stored game does not replay: {error}"),
        };
        let actor = match state.status() {
            Status::Decision(seat) => loaded
                .record
                .seats
                .iter()
                .find(|h| h.seat == seat.0)
                .map(|h| h.user.platform_user_id.clone()),
            _ => None,
        };
        (state, actor)
    }

    /// The player to move plays a random legal move; `None` when nobody is to move.
    pub async fn random_move(&self, game: GameNo, lcg: &mut Lcg) -> Option<(String, Reply)> {
        let (state, actor) = self.state(game).await;
        let actor = actor?;
        let lines = state.legal_lines();
        let line = lines[lcg.below(lines.len())].clone();
        let reply = self.cmd(&actor, &format!("/move #{game} {line}")).await;
        assert!(
            text(&reply).contains(" played "),
            "{actor}: {line}: {}",
            text(&reply)
        );
        Some((actor, reply))
    }

    /// A person's wallet (opened if need be).
    pub async fn wallet(&self, name: &str) -> Wallet {
        let community = self.community().await;
        // Under the name their own requests give them (see `request`).
        let user = match self
            .store()
            .upsert_user_with_username(Platform::Local, name, &name.to_uppercase(), Some(name))
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

pub fn text(reply: &Reply) -> String {
    reply.plain_text()
}

/// The number of a game or challenge in a reply: the first `#<n>` after `prefix`.
pub fn number_after(reply: &Reply, prefix: &str) -> i64 {
    let body = text(reply);
    body.split(prefix)
        .nth(1)
        .and_then(|rest| {
            rest.trim_start_matches('#')
                .split(|c: char| !c.is_ascii_digit())
                .next()
        })
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no `{prefix}<n>` in {body}"))
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
    assert!(text(&reply).contains("challenges"), "{}", text(&reply));
    let reply = table.cmd(accepter, "/accept").await;
    assert!(text(&reply).contains("begins"), "{}", text(&reply));
    GameNo(number_after(&reply, "Game #"))
}
