//! The game service: everything a player does, decided without knowing any chat platform.
//!
//! A [`Request`] (platform, chat, user, a command or a button press) goes in; a [`Reply`]
//! envelope comes out. The service loads the game from the [`Store`], replays it, checks that
//! the actor holds the seat to act and that a pressed button is not stale, applies the move,
//! resolves dice (drawn by [`Dice`]), appends the new actions in one compare-and-set, and
//! renders the board. Races and repeated requests are settled by the database, never by an
//! in-process lock.
//!
//! Each concern has its file:
//! - `contract`: the request and the reply envelope, what adapters see;
//! - `errors`: what a user did wrong ([`UserError`]) and internal failures ([`ServiceError`]);
//! - `routing`: users and chats looked up, commands and buttons sent to their concern;
//! - `challenges`: `/play`, `/accept`, `/decline`, `/cancel`, and the start of a game;
//! - `play`: loading and replaying games, moves, dice, resigning, the list of games;
//! - `narration`: how boards, results, money and buttons are told;
//! - `clocks`: `/claim`, `/abort`, `/vacation` and the time left on a board;
//! - `draws` and `takebacks`: `/draw` and `/takeback`, the requests and their answers;
//! - `ratings`: `/rating`, the rating leaderboard, ratings beside names and after results;
//! - `stats`: `/stats`, a person's results per game, streak and head-to-head;
//! - `seasons`: `/season`, round-robin seasons, their games and standings;
//! - `scheduler`: reminders, time-outs and expired challenges;
//! - `announce`: every change announced through the outbox, boards recorded as posted;
//! - `money` and `config`: wallets, `/grant`, `/take`, settings and the terms of a challenge;
//! - `computer` and `suggest`: the computer's turns, and moves suggested as a person types;
//! - `cooldown` and `limits`: silence for a flood of refusals, and every reply cut to fit the
//!   platforms;
//! - `events`, `illegal`, `pictures`, `language`: the engine's events and refusals said from
//!   the message catalogue, the words drawn on pictures, `/language`;
//! - `export`: `/export` and `/replay`;
//! - `people`, `seen`, `dice`, `text`: mentions resolved to users, the cache of known people,
//!   the dice, fixed texts.
//!
//! The clock and the reading and writing of durations are the crate's `time`, below this
//! module; the words of replies (`Span`, `Person`, `Msg`) are `l10n`'s.

mod announce;
use announce::Change;
mod challenges;
mod clocks;
mod computer;
mod config;
mod confirm;
mod contract;
mod cooldown;
mod dice;
mod draws;
mod errors;
mod events;
mod export;
mod illegal;
mod inbox;
mod language;
mod limits;
mod links;
mod money;
mod narration;
mod notify;
mod pages;
mod people;
mod pictures;
mod play;
mod ratings;
mod routing;
mod scheduler;
mod seasons;
mod seen;
mod stats;
mod suggest;
mod takebacks;
mod text;
mod threads;

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tabula_core::{AnyApplied, AnyGame, Game, GameId, Seat};

use crate::store::{
    Chat, ChatId, Conflict, Fine, GameRecord, NewAction, Payout, RequestKey, Store, Timestamp,
    TurnStart, User, UserId,
};

use crate::l10n::Lang;
pub use announce::Stripped;
pub use challenges::FINGERPRINT_DIGITS;
use computer::*;
pub use contract::*;
pub use cooldown::Cooldown;
pub use errors::*;
pub use limits::{MAX_DATA, MAX_LABEL, MAX_ROW, MAX_ROWS, MAX_TEXT, measure};
use narration::*;
pub use pages::{PageMove, PageView};
use people::*;
pub use pictures::PictureWords;
use routing::*;
use seen::*;

pub use crate::l10n::duration_msg;
use crate::l10n::game_msg;
pub use crate::time::{Clock, duration, parse_duration, rfc3339};
use config::Terms;
pub use dice::Dice;
pub use export::record_of;
pub use scheduler::spawn_scheduler;
pub use suggest::{MAX_SUGGESTION_CHARS, MAX_SUGGESTIONS};

/// Who sent a request, where, and when.
#[derive(Clone)]
struct Ctx {
    chat: Chat,
    user: User,
    key: RequestKey,
    /// The platform's unpredictable id of the request, if it has one ([`Request::nonce`]).
    nonce: Option<String>,
    moderator: bool,
    /// Whether the chat is shared by several people ([`Request::group`]).
    group: bool,
    /// The people the request mentions, as the platform resolved them.
    mentions: Vec<Mention>,
    now: Timestamp,
    /// The command as typed (`/move A1-A3`), for hints that repeat it with a number.
    typed: Option<String>,
    /// The person's language: their own choice, their platform's locale, the community's,
    /// English (`Lang::choose`).
    lang: Lang,
    /// The community's language, for what the whole chat sees.
    chat_lang: Lang,
    /// The person's locale as the platform gave it.
    locale: Option<String>,
    /// The community's chosen language, if any.
    community_language: Option<String>,
    /// The message whose button was pressed ([`Request::pressed`]).
    pressed: Option<String>,
    /// The address of the person's private chat with the bot ([`Request::private_chat`]).
    private_chat: Option<String>,
    /// Whether the chat can hold a thread or topic per game ([`Request::threads`]).
    threads: bool,
    /// The thread or topic the request came from, if any ([`Request::thread`]).
    thread: Option<String>,
}

/// A game as loaded and replayed.
struct Loaded {
    record: GameRecord,
    state: AnyGame,
    /// The last player's action and the rolls after it (see [`follow`]), for the picture.
    recent: Vec<AnyApplied>,
    /// Whether anything was played yet: a move, or a roll (a roll-off included).
    moved: bool,
    /// How many rolls its log holds (the next roll's k, for committed dice).
    rolls: u64,
}

impl Loaded {
    /// How many actions the players made: its log without the rolls.
    fn moves(&self) -> u64 {
        u64::from(self.record.seq).saturating_sub(self.rolls)
    }
}

/// Actions played in one request: a move and the rolls after it, each with what it did (told
/// by `narration`), and the fines the rules impose (as seats: payer, payee).
#[derive(Default)]
struct Played {
    actions: Vec<NewAction>,
    steps: Vec<Step>,
    penalties: Vec<(Seat, Seat)>,
    /// Its last player's action and the rolls after it (see [`follow`]).
    recent: Vec<AnyApplied>,
}

/// The actions a picture shows after `applied`, from those it showed before (`recent`): a
/// player's action starts them again, a roll is added (Coan Ki shows the opponent's play under
/// the throw that begins the next turn).
fn follow(recent: &mut Vec<AnyApplied>, applied: AnyApplied) {
    if !applied.notation().starts_with("roll:") {
        recent.clear();
    }
    recent.push(applied);
}

/// `recent` followed by `later`, each as [`follow`] adds it.
fn followed(mut recent: Vec<AnyApplied>, later: Vec<AnyApplied>) -> Vec<AnyApplied> {
    for applied in later {
        follow(&mut recent, applied);
    }
    recent
}

/// One action of [`Played`], as narration needs it.
struct Step {
    /// The action in canonical notation (`roll:6-1` for a roll).
    notation: String,
    /// The seat that acted (for a roll, the seat it was for, when known).
    seat: Option<Seat>,
    /// The action's events, told as clauses of the catalogue (`events`).
    told: Vec<events::Told>,
}

impl Played {
    /// How many of its actions are rolls.
    fn rolls(&self) -> u64 {
        self.steps
            .iter()
            .filter(|step| step.notation.starts_with("roll:"))
            .count() as u64
    }

    /// Adds an action that `actor` (or the dice) played for `seat`.
    fn push(&mut self, applied: AnyApplied, actor: Option<UserId>, seat: Option<Seat>) {
        let notation = applied.notation();
        self.actions.push(NewAction {
            action: notation.clone(),
            actor,
        });
        self.steps.push(Step {
            notation,
            seat,
            told: events::events(&applied),
        });
        self.penalties.extend(applied.penalties());
        follow(&mut self.recent, applied);
    }
}

/// What actions bring with them beyond the log: the result, the next player's clock, fines,
/// and what happens to the pot when the game ends.
struct Consequences {
    finish: Option<String>,
    turn: Option<TurnStart>,
    fines: Vec<Fine>,
    payout: Option<Payout>,
}

/// The platform-neutral game service.
#[derive(Debug)]
pub struct Service {
    store: Store,
    seen: Seen,
    cooldown: Option<Cooldown>,
    clock: Clock,
    dice: Dice,
    /// The longest any challenge waits, when the operator shortens it.
    challenge_ttl: Option<Duration>,
    pictures: bool,
    /// Rung when a board shows the computer to move ([`Service::computer_woken`]).
    computer_wake: tokio::sync::Notify,
    /// Rung when a board shows a person to move ([`Service::pings_woken`]).
    ping_wake: tokio::sync::Notify,
    /// The language each chat was last spoken to in (its requests' `chat_lang`), for the
    /// words of board pictures drawn outside a request (the computer's moves).
    chat_langs: Mutex<HashMap<ChatId, Lang>>,
    /// Announcements written with every change ([`Service::with_announcements`]).
    announcer: Option<announce::Announcer>,
    /// The bot's public address, when games have web pages ([`Service::with_public_url`]).
    public_url: Option<String>,
}

impl Service {
    /// A service over a store, rolling with `dice`.
    pub fn new(store: Store, dice: Dice) -> Service {
        Service {
            store,
            seen: Seen::default(),
            cooldown: Some(Cooldown::default()),
            clock: Clock::System,
            dice,
            challenge_ttl: None,
            pictures: true,
            computer_wake: tokio::sync::Notify::new(),
            ping_wake: tokio::sync::Notify::new(),
            chat_langs: Mutex::new(HashMap::new()),
            announcer: None,
            public_url: None,
        }
    }

    /// Sets the longest any challenge waits for an answer. Unless set, a challenge naming
    /// people waits as long as its time per move (a day at least), an open one as long as
    /// its community's `open_wait` (a day unless moderators change it).
    #[must_use]
    pub fn with_challenge_ttl(mut self, ttl: Duration) -> Service {
        self.challenge_ttl = Some(ttl);
        self
    }

    /// Sets the per-person cooldown against flooding ([`Cooldown::default`] unless set;
    /// `None`: every refusal is answered, as tests of many mistakes in a row want).
    #[must_use]
    pub fn with_cooldown(mut self, cooldown: Option<Cooldown>) -> Service {
        self.cooldown = cooldown;
        self
    }

    /// Whether replies carry board pictures (on by default; tests may save the time).
    #[must_use]
    pub fn with_pictures(mut self, pictures: bool) -> Service {
        self.pictures = pictures;
        self
    }

    /// Sets the clock that deadlines, reminders, vacations and challenge expiry are decided
    /// against (the system clock by default; tests move a manual one).
    #[must_use]
    pub fn with_clock(mut self, clock: Clock) -> Service {
        self.clock = clock;
        self
    }

    /// The clock the service decides by.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }
}

impl Ctx {
    /// The language of a reply seen by `audience`: the person's for a private answer, the
    /// community's for the chat.
    fn lang_for(&self, audience: Audience) -> Lang {
        match audience {
            Audience::Actor => self.lang,
            Audience::Chat => self.chat_lang,
        }
    }

    /// The command the person typed with a game's or challenge's number added, for a hint:
    /// `/move A1-A3` becomes `/move #1 A1-A3`. A button press, which types nothing, gets
    /// `fallback` (`/accept`) with the number.
    fn with_number(&self, number: i64, fallback: &str) -> String {
        let typed = self.typed.as_deref().unwrap_or(fallback);
        let mut words = typed.split_whitespace();
        let command = words.next().unwrap_or(fallback);
        // `/move@tabula_bot`: the bot's name is not needed to repeat the command.
        let command = command.split('@').next().unwrap_or(command);
        let mut hint = format!("{command} #{number}");
        let rest: Vec<&str> = words.filter(|word| !word.starts_with('#')).collect();
        if !rest.is_empty() {
            hint.push(' ');
            hint.push_str(&narration::brief_to(&rest.join(" "), 40));
        }
        hint
    }
}

fn holder(record: &GameRecord, seat: Seat) -> Option<&User> {
    record
        .seats
        .iter()
        .find(|h| h.seat == seat.0)
        .map(|h| &h.user)
}

/// The people holding the seats of a team, each once, in seat order.
fn team_users(record: &GameRecord, team: u8) -> Vec<UserId> {
    let mut users = Vec::new();
    for holder in &record.seats {
        if team_of(record.game, holder.seat) == team && !users.contains(&holder.user.id) {
            users.push(holder.user.id);
        }
    }
    users
}

/// The people of a game, each once, in seat order.
fn players(record: &GameRecord) -> Vec<&User> {
    let mut users: Vec<&User> = Vec::new();
    for holder in &record.seats {
        if !users.iter().any(|user| user.id == holder.user.id) {
            users.push(&holder.user);
        }
    }
    users
}

/// The user of a record's seats with this id.
fn seated(record: &GameRecord, id: UserId) -> Option<&User> {
    record
        .seats
        .iter()
        .map(|holder| &holder.user)
        .find(|user| user.id == id)
}

fn team_of(id: GameId, seat: u8) -> u8 {
    tabula_core::with_game_type!(id, G => G::team_of(Seat(seat)).0)
}

/// Whether a game has chance (dice, cowries): its rolls are committed (issue 19).
fn has_chance(id: GameId) -> bool {
    use std::any::TypeId;
    tabula_core::with_game_type!(id, G => TypeId::of::<<G as tabula_core::Game>::Roll>()
        != TypeId::of::<tabula_core::NoRoll>())
}

impl Service {
    /// A new secret seed for a game of `id`, as 64 hex digits: `None` for a game without
    /// chance, and with scripted dice (tests choose their rolls).
    fn fresh_seed(&self, id: GameId) -> Result<Option<String>, ServiceError> {
        if !has_chance(id) || !matches!(self.dice, Dice::Os) {
            return Ok(None);
        }
        let seed =
            crate::export::Seed::fresh().map_err(|error| ServiceError::Dice(error.to_string()))?;
        Ok(Some(seed.to_hex()))
    }
}

fn team_name(id: GameId, team: u8) -> &'static str {
    tabula_core::with_game_type!(id, G => G::TEAMS.get(usize::from(team)).copied().unwrap_or("?"))
}

fn seat_name(id: GameId, seat: u8) -> &'static str {
    id.seats().get(usize::from(seat)).copied().unwrap_or("?")
}

/// A seat as people read it: "White", "Black", "South".
fn seat_label(id: GameId, seat: u8) -> &'static str {
    label(seat_name(id, seat))
}

/// A team as people read it: "White", or Pachisi's "South and North".
fn team_label(id: GameId, team: u8) -> &'static str {
    match team_name(id, team) {
        "SN" => "South and North",
        "EW" => "East and West",
        name => label(name),
    }
}

/// The capitalised, spelled-out form of a seat's short name.
fn label(name: &str) -> &'static str {
    match name {
        "white" | "White" => "White",
        "black" | "Black" => "Black",
        "S" => "South",
        "E" => "East",
        "N" => "North",
        "W" => "West",
        _ => "?",
    }
}

/// The team whose short name `word` is ("white", "SN"), if any.
fn team_named(id: GameId, word: &str) -> Option<u8> {
    tabula_core::with_game_type!(id, G => G::TEAMS
        .iter()
        .position(|name| name.eq_ignore_ascii_case(word))
        .and_then(|i| u8::try_from(i).ok()))
}
