//! The game service: everything a player does, decided without knowing any chat platform.
//!
//! A [`Request`] (platform, chat, user, a command or a button press) goes in; a neutral
//! [`Reply`] (text spans with mentions, an optional board picture, buttons) comes out. The
//! service loads the game from the [`Store`], replays it, checks that the actor holds the seat to
//! act and that a pressed button is not stale, applies the move, resolves dice (drawn by
//! [`Dice`]), appends the new actions in one compare-and-set, and renders the board. Races and
//! repeated requests are settled by the database, never by an in-process lock.
//!
//! What a user did wrong is a [`UserError`] and is answered with a reply; what failed inside
//! (database, renderer, random source) is a [`ServiceError`] returned to the adapter.

mod config;
mod dice;
mod money;
mod text;
mod time;
mod turns;

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tracing::Instrument;

use tabula_core::{
    ActionError, AnyApplied, AnyGame, Game, GameId, Outcome, Seat, SetupError, Status,
};

use crate::store::{
    Acceptance, Append, Challenge, ChallengeNo, Chat, Conflict, Ending, Fine, GameNo, GameRecord,
    GameStatus, History, NewAction, NewChallenge, NewGame, Payout, Platform, RequestKey,
    SEEN_REFRESH_MILLIS, Settlement, Store, StoreError, Timestamp, TurnStart, User, UserId,
};

use config::Terms;
pub use dice::Dice;
pub use time::Clock;
pub use turns::spawn_scheduler;

/// At most this many move buttons are shown at once; beyond, moves are chosen in two steps.
pub const MAX_BUTTONS: usize = 20;

/// One incoming request, as an adapter translated it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The platform it came from.
    pub platform: Platform,
    /// The chat: the platform's id and its title.
    pub chat: (String, String),
    /// The user: the platform's id and the display name.
    pub user: (String, String),
    /// The community the chat belongs to: a Discord server's id and name. `None` when the
    /// chat stands alone (a Telegram group, a direct chat, `tabula local`): it is then its own
    /// community. Settings, wallets and vacations belong to the community.
    pub community: Option<(String, String)>,
    /// Whether the platform says the user moderates the community (Manage Server on Discord,
    /// an administrator of the Telegram group). The service checks it for `/config` changes,
    /// `/grant`, `/take` and `/abort`.
    pub moderator: bool,
    /// The platform's unique id of this request (update id, interaction id), so that a
    /// re-delivered request is applied once.
    pub request_key: String,
    /// What the user sent.
    pub input: Input,
}

/// What a user sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// The text of a slash command, e.g. `/play konane @bob size=10`.
    Command(String),
    /// The data of a pressed button.
    Button(String),
}

/// A neutral reply: text with mentions, an optional picture, and rows of buttons.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reply {
    /// The platform's id of the chat to answer in.
    pub chat: String,
    /// The text, in pieces.
    pub spans: Vec<Span>,
    /// A PNG picture of the board.
    pub picture: Option<Vec<u8>>,
    /// Buttons, in rows.
    pub buttons: Vec<Vec<Button>>,
}

impl Reply {
    /// The text with mentions written `@name`.
    pub fn plain_text(&self) -> String {
        let mut out = String::new();
        for span in &self.spans {
            match span {
                Span::Text(text) => out.push_str(text),
                Span::Mention(_, name) => {
                    out.push('@');
                    out.push_str(name);
                }
            }
        }
        out
    }

    /// Every button, row by row.
    pub fn all_buttons(&self) -> impl Iterator<Item = &Button> {
        self.buttons.iter().flatten()
    }
}

/// A piece of reply text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Span {
    /// Plain text (the adapter escapes markup).
    Text(String),
    /// A mention of a user: the platform's user id and the display name.
    Mention(String, String),
}

/// A button: what it shows and the data it sends back (at most 64 bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Button {
    /// What it shows.
    pub label: String,
    /// What a press sends back as [`Input::Button`].
    pub data: String,
}

/// What a user did wrong: answered with a clear message, nothing changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UserError {
    /// An unknown command.
    #[error("I do not know `/{0}`. Send /help for the list of commands.")]
    UnknownCommand(String),
    /// Not a command at all.
    #[error("commands start with `/`; send /help for the list")]
    NotACommand,
    /// Wrong arguments.
    #[error("usage: {0}")]
    Usage(&'static str),
    /// An unknown game name.
    #[error("there is no game `{0}`; the games are konane, koan, kolowis, coan-ki and pachisi")]
    UnknownGame(String),
    /// Bad options.
    #[error("{0}")]
    Setup(SetupError),
    /// The wrong number of players for the game.
    #[error("{game} is played by {allowed}; you named {named} (yourself included)")]
    Players {
        /// The game's name.
        game: &'static str,
        /// How many may play.
        allowed: &'static str,
        /// How many were named.
        named: usize,
    },
    /// A person named twice, or the challenger named.
    #[error("name each other player once, and not yourself")]
    RepeatedPlayer,
    /// No active game here.
    #[error("there is no active game in this chat; start one with /play <game>")]
    NoGame,
    /// Several candidate games.
    #[error("there are several games here ({0}); add the number, e.g. `/board #{1}`")]
    WhichGame(String, GameNo),
    /// No such active game in this chat.
    #[error("there is no active game #{0} in this chat; /games lists them")]
    NoSuchGame(GameNo),
    /// The game is over.
    #[error("game #{0} is over")]
    GameOver(GameNo),
    /// Not a player of the game.
    #[error("you are not playing in game #{0}; anyone may look with /board #{0}")]
    NotAPlayer(GameNo),
    /// Not the seat to act.
    #[error("it is not your turn in game #{game}: {name} ({seat}) is to move")]
    NotYourTurn {
        /// The game.
        game: GameNo,
        /// Who is to move.
        name: String,
        /// Their seat.
        seat: &'static str,
    },
    /// No move can be made: nobody is to move.
    #[error("nobody can move in game #{0} now")]
    NoMoveNow(GameNo),
    /// The move was refused by the rules.
    #[error("{0}")]
    Illegal(ActionError),
    /// No pending challenge fits.
    #[error("there is no challenge waiting for you here; start one with /play <game>")]
    NoChallenge,
    /// Several pending challenges fit.
    #[error("several challenges are waiting ({0}); add the number, e.g. `/accept #{1}`")]
    WhichChallenge(String, ChallengeNo),
    /// The challenge is not addressed to the user.
    #[error("challenge #{0} is not addressed to you")]
    NotInvited(ChallengeNo),
    /// Only the challenger may cancel.
    #[error("only the challenger may cancel challenge #{0}")]
    NotChallenger(ChallengeNo),
    /// Accepting one's own challenge.
    #[error("you cannot accept your own challenge #{0}; /cancel withdraws it")]
    OwnChallenge(ChallengeNo),
    /// The store refused a challenge change.
    #[error("{0}")]
    Conflict(Conflict),
    /// A player tried to choose the dice.
    #[error("the bot rolls the dice for you; type or press a move instead")]
    NoRolling,
    /// A button that cannot be read.
    #[error("this button is not understood; send /board for a fresh board")]
    BadButton,
    /// A button of a move list that no longer exists.
    #[error("that choice is no longer offered; send /board for a fresh board")]
    NoSuchChoice,
    /// The game is switched off in this community.
    #[error("{game} is switched off here by the moderators; the games here: {enabled}")]
    GameDisabled {
        /// The game's name.
        game: &'static str,
        /// The games that are on.
        enabled: String,
    },
    /// A stake that cannot be read or is out of bounds.
    #[error("the stake must be a whole number of coins from 0 to {max} here, e.g. stake=50")]
    BadStake {
        /// The largest stake here.
        max: i64,
    },
    /// A Coan Ki stake whose tenth is not whole.
    #[error(
        "in Coan Ki the stake must be a multiple of 10, so that the fine for a double one \
         (10% of the stake) is whole"
    )]
    CoanKiStake,
    /// Only moderators may start staked games here.
    #[error("only moderators may start staked games here; play with stake=0")]
    StakedByModerators,
    /// The challenger's wallet is empty or in debt.
    #[error(
        "you have {balance} coins: no staked games until your balance is above zero again \
         (play with stake=0)"
    )]
    InDebt {
        /// The balance.
        balance: i64,
    },
    /// The challenger cannot pay the stake.
    #[error("you have {balance} coins and cannot stake {stake}; /wallet shows your balance")]
    TooPoor {
        /// The balance.
        balance: i64,
        /// The stake asked.
        stake: i64,
    },
    /// A player cannot pay the stake when the game would start.
    #[error(
        "{name} has {balance} coins and cannot stake {stake}, so the game does not start; \
         challenge #{challenge} stays open"
    )]
    CannotAfford {
        /// Who.
        name: String,
        /// Their balance.
        balance: i64,
        /// The stake.
        stake: i64,
        /// The challenge.
        challenge: ChallengeNo,
    },
    /// A time per move that cannot be read or is out of bounds.
    #[error("the time per move must be from 1 hour to {max} here, e.g. time=3d or time=12h")]
    BadTime {
        /// The longest time here.
        max: String,
    },
    /// A moderator's command from someone else.
    #[error("only moderators of this server or group may {0}")]
    NotModerator(&'static str),
    /// A setting that cannot be applied.
    #[error("{0}")]
    BadSetting(String),
    /// An amount of coins that cannot be read.
    #[error("the amount must be a whole number of coins from 1 to {max}")]
    BadAmount {
        /// The largest amount.
        max: i64,
    },
    /// A take of more than the wallet holds.
    #[error("{name} has only {balance} coins; take at most that")]
    TakeTooMuch {
        /// Whose wallet.
        name: String,
        /// What it holds.
        balance: i64,
    },
    /// No clock runs in the game.
    #[error("no clock is running in game #{0}, so there is nothing to claim")]
    NoClock(GameNo),
    /// A claim on one's own (or one's partner's) turn.
    #[error("it is your side's turn in game #{0}: move instead of claiming")]
    OwnTurn(GameNo),
    /// A claim before the time has run out.
    #[error(
        "{name} still has {left} in game #{game} (until {until}); you may claim the win after that"
    )]
    TooEarly {
        /// The game.
        game: GameNo,
        /// Who is to move.
        name: String,
        /// How long they have left.
        left: String,
        /// When their time runs out.
        until: String,
    },
    /// The clock moved on (a vacation) while the claim was made.
    #[error("the clock of game #{0} was paused meanwhile; /board shows the time left")]
    NotDueAnyMore(GameNo),
    /// A player's abort after the first move.
    #[error(
        "game #{0} has begun: players may abort a game only before the first move; /resign \
         gives it up, and a moderator can abort it"
    )]
    AlreadyMoved(GameNo),
    /// Vacations are switched off here.
    #[error("vacations are switched off here by the moderators")]
    VacationOff,
    /// A number of vacation days that cannot be read.
    #[error("take from 1 to {quota} vacation days, e.g. /vacation 2")]
    BadVacation {
        /// Days per month.
        quota: i64,
    },
    /// More vacation days than are left this month.
    #[error("you have taken {used} of {quota} vacation days this month; take at most the rest")]
    VacationQuota {
        /// Days taken this month.
        used: i64,
        /// Days per month.
        quota: i64,
    },
}

/// An internal failure: logged by the adapter, never the user's fault.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The database failed.
    #[error("storage failure")]
    Store(#[from] StoreError),
    /// The picture could not be made.
    #[error("cannot draw the board")]
    Render(#[from] tabula_render::RenderError),
    /// The rendering task died.
    #[error("the rendering task failed")]
    Join(#[from] tokio::task::JoinError),
    /// The random source failed or ran out (scripted dice).
    #[error("cannot roll the dice: {0}")]
    Dice(String),
    /// A stored game that the rules reject.
    #[error("stored game is inconsistent: {0}")]
    Corrupt(String),
}

/// Why a request did not succeed.
enum Failure {
    User(UserError),
    Internal(ServiceError),
}

impl From<UserError> for Failure {
    fn from(error: UserError) -> Self {
        Failure::User(error)
    }
}

impl From<ServiceError> for Failure {
    fn from(error: ServiceError) -> Self {
        Failure::Internal(error)
    }
}

impl From<StoreError> for Failure {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::Conflict(Conflict::GameOver { game, .. }) => {
                Failure::User(UserError::GameOver(game))
            }
            StoreError::Conflict(conflict) => Failure::User(UserError::Conflict(conflict)),
            other => Failure::Internal(ServiceError::Store(other)),
        }
    }
}

type Outcome2<T> = Result<T, Failure>;

/// The answer to a re-delivered request whose change was already made.
const ALREADY_HANDLED: &str = "This request was already handled; nothing was changed.";

/// Who sent a request, where, and when.
struct Ctx {
    chat: Chat,
    user: User,
    key: RequestKey,
    moderator: bool,
    now: Timestamp,
}

/// A game as loaded and replayed.
struct Loaded {
    record: GameRecord,
    state: AnyGame,
    last: Option<AnyApplied>,
    /// Whether a player has made a move (not only the dice).
    moved: bool,
}

/// Actions played in one request: a move and the rolls after it, with their narration and the
/// fines the rules impose (as seats: payer, payee).
#[derive(Default)]
struct Played {
    actions: Vec<NewAction>,
    narration: Vec<String>,
    penalties: Vec<(Seat, Seat)>,
    last: Option<AnyApplied>,
}

impl Played {
    fn push(&mut self, applied: AnyApplied, actor: Option<UserId>) {
        self.actions.push(NewAction {
            action: applied.notation(),
            actor,
        });
        self.narration.extend(applied.narration());
        self.penalties.extend(applied.penalties());
        self.last = Some(applied);
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

/// Users and chats met recently, as the store last returned them, so that a request from
/// someone known under an unchanged name does not go to the database for them. Only the
/// mapping from platform ids to rows (which never changes) and the names are kept; a row is
/// written again once its `updated_at` is [`SEEN_REFRESH_MILLIS`] old or the name changed.
#[derive(Debug, Default)]
struct Seen {
    users: Mutex<HashMap<(Platform, String), User>>,
    chats: Mutex<HashMap<(Platform, String), Chat>>,
}

/// Beyond this many entries a map of [`Seen`] starts afresh.
const SEEN_CAPACITY: usize = 50_000;

impl Seen {
    fn user(&self, key: &(Platform, String), name: &str, now: Timestamp) -> Option<User> {
        let users = self.users.lock().ok()?;
        users
            .get(key)
            .filter(|u| u.display_name == name && now.0 - u.updated_at.0 < SEEN_REFRESH_MILLIS)
            .cloned()
    }

    fn chat(
        &self,
        key: &(Platform, String),
        title: &str,
        community: Option<(&str, &str)>,
        now: Timestamp,
    ) -> Option<Chat> {
        let (community_id, community_title) = community.unwrap_or((key.1.as_str(), title));
        let chats = self.chats.lock().ok()?;
        chats
            .get(key)
            .filter(|c| {
                c.title == title
                    && c.platform_community_id == community_id
                    && c.community_title == community_title
                    && now.0 - c.updated_at.0 < SEEN_REFRESH_MILLIS
            })
            .cloned()
    }

    fn remember_user(&self, key: (Platform, String), user: &User) {
        if let Ok(mut users) = self.users.lock() {
            if users.len() >= SEEN_CAPACITY {
                users.clear();
            }
            users.insert(key, user.clone());
        }
    }

    fn remember_chat(&self, key: (Platform, String), chat: &Chat) {
        if let Ok(mut chats) = self.chats.lock() {
            if chats.len() >= SEEN_CAPACITY {
                chats.clear();
            }
            chats.insert(key, chat.clone());
        }
    }
}

/// The platform-neutral game service.
#[derive(Debug)]
pub struct Service {
    store: Store,
    seen: Seen,
    clock: Clock,
    dice: Dice,
    challenge_ttl: Duration,
    pictures: bool,
}

impl Service {
    /// A service over a store, rolling with `dice`.
    pub fn new(store: Store, dice: Dice) -> Service {
        Service {
            store,
            seen: Seen::default(),
            clock: Clock::System,
            dice,
            challenge_ttl: Duration::from_secs(15 * 60),
            pictures: true,
        }
    }

    /// Sets how long a challenge waits for an answer.
    #[must_use]
    pub fn with_challenge_ttl(mut self, ttl: Duration) -> Service {
        self.challenge_ttl = ttl;
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

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Handles one request.
    ///
    /// # Errors
    /// Internal failures only; everything a user did wrong is answered in the reply.
    pub async fn handle(&self, request: &Request) -> Result<Reply, ServiceError> {
        let span = tracing::info_span!(
            "request",
            platform = %request.platform,
            chat = %request.chat.0,
            user = %request.user.0,
            key = %request.request_key,
        );
        let result = self.handle_inner(request).instrument(span.clone()).await;
        if let Err(error) = &result {
            let _entered = span.enter();
            tracing::error!(error = %error_chain(error), "internal failure");
        }
        result
    }

    async fn handle_inner(&self, request: &Request) -> Result<Reply, ServiceError> {
        // Freshness of the remembered rows is judged by the store's clock, which wrote them.
        let seen_now = Timestamp::now();
        let (chat_key, user_key) = (
            (request.platform, request.chat.0.clone()),
            (request.platform, request.user.0.clone()),
        );
        let community = request
            .community
            .as_ref()
            .map(|(id, name)| (id.as_str(), name.as_str()));
        let chat = match self
            .seen
            .chat(&chat_key, &request.chat.1, community, seen_now)
        {
            Some(chat) => chat,
            None => {
                let chat = self
                    .store
                    .upsert_chat(
                        request.platform,
                        &request.chat.0,
                        &request.chat.1,
                        community,
                    )
                    .await?;
                self.seen.remember_chat(chat_key, &chat);
                chat
            }
        };
        let user = match self.seen.user(&user_key, &request.user.1, seen_now) {
            Some(user) => user,
            None => {
                let user = self
                    .store
                    .upsert_user(request.platform, &request.user.0, &request.user.1)
                    .await?;
                self.seen.remember_user(user_key, &user);
                user
            }
        };
        let ctx = Ctx {
            chat,
            user,
            key: RequestKey {
                platform: request.platform,
                key: request.request_key.clone(),
            },
            moderator: request.moderator,
            now: self.clock.now(),
        };
        let result = match &request.input {
            Input::Command(text) => self.command(&ctx, text).await,
            Input::Button(data) => self.button(&ctx, data).await,
        };
        match result {
            Ok(mut reply) => {
                reply.chat.clone_from(&request.chat.0);
                Ok(reply)
            }
            Err(Failure::User(UserError::Conflict(Conflict::Duplicate))) => Ok(Reply {
                chat: request.chat.0.clone(),
                spans: vec![Span::Text(ALREADY_HANDLED.into())],
                ..Reply::default()
            }),
            Err(Failure::User(error)) => Ok(Reply {
                chat: request.chat.0.clone(),
                spans: vec![Span::Text(sorry(&error))],
                ..Reply::default()
            }),
            Err(Failure::Internal(error)) => Err(error),
        }
    }

    async fn command(&self, ctx: &Ctx, text: &str) -> Outcome2<Reply> {
        let text = text.trim();
        let Some(rest) = text.strip_prefix('/') else {
            return Err(UserError::NotACommand.into());
        };
        let (word, args) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        // `/move@tabulabot` in group chats.
        let word = word.split('@').next().unwrap_or(word).to_lowercase();
        let args = args.trim();
        match word.as_str() {
            "play" => self.play(ctx, args).await,
            "accept" => self.settle(ctx, args, Settlement::Accept).await,
            "decline" => self.settle(ctx, args, Settlement::Decline).await,
            "cancel" => self.settle(ctx, args, Settlement::Cancel).await,
            "move" => {
                let (number, rest) = game_number(args);
                if rest.is_empty() {
                    return Err(UserError::Usage("/move [#game] <move>, e.g. /move d4-f4").into());
                }
                let game = self.pick_game(ctx, number, true).await?;
                self.make_move(ctx, game, rest).await
            }
            "board" => {
                let game = self.pick_game(ctx, game_number(args).0, false).await?;
                let loaded = self.load(ctx, game).await?;
                self.board_reply(&loaded, Vec::new()).await
            }
            "moves" => {
                let game = self.pick_game(ctx, game_number(args).0, false).await?;
                let loaded = self.load(ctx, game).await?;
                Ok(text_reply(text::moves(&loaded.record, &loaded.state)))
            }
            "history" => {
                let game = self.pick_game(ctx, game_number(args).0, false).await?;
                let full = self.store.load_game(game, History::Full).await?;
                let Some(full) = full.filter(|full| full.record.chat == ctx.chat.id) else {
                    return Err(UserError::NoSuchGame(game).into());
                };
                Ok(text_reply(text::history(&full.record, &full.actions)))
            }
            "resign" => {
                // Before picking the game, which a repeated resignation has already ended.
                self.not_repeated(ctx).await?;
                let game = self.pick_game(ctx, game_number(args).0, true).await?;
                self.resign(ctx, game).await
            }
            "games" => self.games(ctx).await,
            "wallet" | "balance" => self.wallet(ctx).await,
            "leaderboard" | "top" => self.leaderboard(ctx).await,
            "grant" => self.adjust(ctx, args, false).await,
            "take" => self.adjust(ctx, args, true).await,
            "config" | "settings" => self.config(ctx, args).await,
            "abort" => {
                self.not_repeated(ctx).await?;
                let (number, reason) = game_number(args);
                let game = self.pick_game(ctx, number, false).await?;
                self.abort(ctx, game, reason).await
            }
            "claim" => {
                self.not_repeated(ctx).await?;
                let game = self.pick_game(ctx, game_number(args).0, false).await?;
                self.claim(ctx, game).await
            }
            "vacation" => self.vacation(ctx, args).await,
            "rules" => match args.split_whitespace().next() {
                None => Err(UserError::Usage("/rules <game>, e.g. /rules konane").into()),
                Some(name) => {
                    let id = parse_game(name)?;
                    Ok(text_reply(text::rules(id).to_string()))
                }
            },
            "help" | "start" => Ok(text_reply(text::HELP.to_string())),
            other => Err(UserError::UnknownCommand(other.to_string()).into()),
        }
    }

    async fn button(&self, ctx: &Ctx, data: &str) -> Outcome2<Reply> {
        let mut chars = data.chars();
        let kind = chars.next().ok_or(UserError::BadButton)?;
        let fields: Vec<i64> = chars
            .as_str()
            .split('.')
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|_| UserError::BadButton)?;
        match (kind, fields.as_slice()) {
            ('m' | 'p', &[game, seq, choice]) => {
                let game = GameNo(game);
                let seq = u32::try_from(seq).map_err(|_| UserError::BadButton)?;
                let choice = usize::try_from(choice).map_err(|_| UserError::BadButton)?;
                if kind == 'm' {
                    self.press_move(ctx, game, seq, choice).await
                } else {
                    self.press_piece(ctx, game, seq, choice).await
                }
            }
            ('b', &[game]) => {
                let game = GameNo(game);
                let loaded = self.load(ctx, game).await?;
                self.board_reply(&loaded, Vec::new()).await
            }
            ('a', &[no]) => {
                self.settle(ctx, &format!("#{no}"), Settlement::Accept)
                    .await
            }
            ('d', &[no]) => {
                self.settle(ctx, &format!("#{no}"), Settlement::Decline)
                    .await
            }
            ('x', &[no]) => {
                self.settle(ctx, &format!("#{no}"), Settlement::Cancel)
                    .await
            }
            _ => Err(UserError::BadButton.into()),
        }
    }

    // ---- Challenges ----

    async fn play(&self, ctx: &Ctx, args: &str) -> Outcome2<Reply> {
        self.not_repeated(ctx).await?;
        let mut words = args.split_whitespace();
        let Some(name) = words.next() else {
            return Err(UserError::Usage(
                "/play <game> [@user ...] [option=value ...], e.g. /play konane @bob size=10",
            )
            .into());
        };
        let id = parse_game(name)?;
        let mut invited_names = Vec::new();
        let mut options = Vec::new();
        let (mut stake, mut time) = (None, None);
        for word in words {
            if let Some(name) = word.strip_prefix('@') {
                if name.is_empty() {
                    return Err(
                        UserError::Usage("/play <game> [@user ...] [option=value ...]").into(),
                    );
                }
                invited_names.push(name.to_string());
            } else if let Some(value) = word.strip_prefix("stake=") {
                stake = Some(value);
            } else if let Some(value) = word.strip_prefix("time=") {
                time = Some(value);
            } else {
                options.push(word);
            }
        }
        AnyGame::start(id, &options, None).map_err(UserError::Setup)?;
        let terms = self.terms(ctx, id, stake, time).await?;
        let named = invited_names.len() + 1;
        let seats = id.seats().len();
        let (ok, allowed) = if seats == 4 {
            (
                invited_names.is_empty() || named == 2 || named == 4,
                "2 or 4 players",
            )
        } else {
            (invited_names.is_empty() || named == 2, "2 players")
        };
        if !ok {
            return Err(UserError::Players {
                game: id.name(),
                allowed,
                named,
            }
            .into());
        }
        let mut invited: Vec<User> = Vec::new();
        for name in &invited_names {
            // A mention names the platform's user id; keep a known user's display name.
            let user = self.named_user(ctx, name).await?;
            if user.id == ctx.user.id || invited.iter().any(|u| u.id == user.id) {
                return Err(UserError::RepeatedPlayer.into());
            }
            invited.push(user);
        }
        let invited_ids: Vec<UserId> = invited.iter().map(|u| u.id).collect();
        let options_text = options.join(" ");
        let ttl = i64::try_from(self.challenge_ttl.as_millis()).unwrap_or(i64::MAX);
        let challenge = self
            .store
            .create_challenge_once(
                &NewChallenge {
                    chat: ctx.chat.id,
                    game: id,
                    options: &options_text,
                    challenger: ctx.user.id,
                    invited: &invited_ids,
                    expires_at: ctx.now.plus_millis(ttl),
                    stake: terms.stake,
                    move_millis: terms.move_millis,
                },
                &ctx.key,
            )
            .await?;
        let mut spans = vec![mention(&ctx.user)];
        if invited.is_empty() {
            spans.push(Span::Text(format!(
                " offers a game of {}{} to anyone here (challenge #{}), {}. /accept to take it.",
                id.name(),
                options_suffix(&options_text),
                challenge.id,
                terms.describe()
            )));
        } else {
            spans.push(Span::Text(" challenges ".into()));
            for (i, user) in invited.iter().enumerate() {
                if i > 0 {
                    spans.push(Span::Text(", ".into()));
                }
                spans.push(mention(user));
            }
            spans.push(Span::Text(format!(
                " to {}{} (challenge #{}), {}. /accept or /decline.",
                id.name(),
                options_suffix(&options_text),
                challenge.id,
                terms.describe()
            )));
        }
        let no = challenge.id;
        Ok(Reply {
            spans,
            buttons: challenge_buttons(no),
            ..Reply::default()
        })
    }

    /// Refuses a request already applied, before anything else is looked at (the change itself
    /// records the request key in its transaction, which settles races between re-deliveries).
    async fn not_repeated(&self, ctx: &Ctx) -> Outcome2<()> {
        if self.store.request_handled(&ctx.key).await? {
            return Err(UserError::Conflict(Conflict::Duplicate).into());
        }
        Ok(())
    }

    async fn settle(&self, ctx: &Ctx, args: &str, settlement: Settlement) -> Outcome2<Reply> {
        self.not_repeated(ctx).await?;
        let now = ctx.now;
        self.store.expire_challenges(now).await?;
        let number = game_number(args).0.map(|GameNo(n)| ChallengeNo(n));
        let challenge = match number {
            Some(no) => match self.store.challenge(no).await? {
                Some(challenge) if challenge.chat == ctx.chat.id => challenge,
                _ => {
                    return Err(UserError::Conflict(Conflict::NoSuchChallenge(no)).into());
                }
            },
            None => {
                let pending = self.store.pending_challenges(ctx.chat.id).await?;
                let fits: Vec<Challenge> = pending
                    .into_iter()
                    .filter(|c| match settlement {
                        Settlement::Cancel => c.challenger == ctx.user.id,
                        _ => {
                            c.challenger != ctx.user.id
                                && (c.is_open() || c.invited.contains(&ctx.user.id))
                        }
                    })
                    .collect();
                match fits.as_slice() {
                    [] => return Err(UserError::NoChallenge.into()),
                    [one] => one.clone(),
                    [first, ..] => {
                        let list: Vec<String> = fits
                            .iter()
                            .map(|c| format!("#{} {}", c.id, c.game.name()))
                            .collect();
                        return Err(UserError::WhichChallenge(list.join(", "), first.id).into());
                    }
                }
            }
        };
        let no = challenge.id;
        match settlement {
            Settlement::Cancel if challenge.challenger != ctx.user.id => {
                return Err(UserError::NotChallenger(no).into());
            }
            Settlement::Accept | Settlement::Decline if challenge.challenger == ctx.user.id => {
                return Err(UserError::OwnChallenge(no).into());
            }
            Settlement::Accept | Settlement::Decline
                if !challenge.is_open() && !challenge.invited.contains(&ctx.user.id) =>
            {
                return Err(UserError::NotInvited(no).into());
            }
            _ => {}
        }
        if settlement != Settlement::Accept {
            self.store
                .settle_challenge_once(no, settlement, ctx.user.id, now, &ctx.key)
                .await?;
            let verb = if settlement == Settlement::Cancel {
                "withdrew"
            } else {
                "declined"
            };
            return Ok(Reply {
                spans: vec![
                    mention(&ctx.user),
                    Span::Text(format!(
                        " {verb} challenge #{no} ({}).",
                        challenge.game.name()
                    )),
                ],
                ..Reply::default()
            });
        }
        if challenge.invited.len() > 1 {
            return self.accept_invitation(ctx, &challenge, now).await;
        }
        self.start_game(ctx, &challenge, now, Some(&ctx.key)).await
    }

    /// One invitee of a challenge to several people accepts: the game starts when nobody is
    /// left to accept; until then the reply says who is.
    async fn accept_invitation(
        &self,
        ctx: &Ctx,
        challenge: &Challenge,
        now: Timestamp,
    ) -> Outcome2<Reply> {
        let no = challenge.id;
        let invitation = self
            .store
            .accept_invitation(no, ctx.user.id, now, Some(&ctx.key))
            .await?;
        if invitation.waiting.is_empty() {
            // The request key is recorded with the acceptance; the game's creation is settled
            // by the challenge's compare-and-set.
            return self.start_game(ctx, &invitation.challenge, now, None).await;
        }
        let verb = if invitation.newly {
            " accepted"
        } else {
            " has already accepted"
        };
        let mut spans = vec![
            mention(&ctx.user),
            Span::Text(format!(
                "{verb} challenge #{no} ({}). Still to accept: ",
                challenge.game.name()
            )),
        ];
        for (i, id) in invitation.waiting.iter().enumerate() {
            if i > 0 {
                spans.push(Span::Text(", ".into()));
            }
            match self.store.user(*id).await? {
                Some(user) => spans.push(mention(&user)),
                None => spans.push(Span::Text(format!("user {id}"))),
            }
        }
        spans.push(Span::Text(".".into()));
        Ok(Reply {
            spans,
            buttons: challenge_buttons(no),
            ..Reply::default()
        })
    }

    async fn start_game(
        &self,
        ctx: &Ctx,
        challenge: &Challenge,
        now: Timestamp,
        request: Option<&RequestKey>,
    ) -> Outcome2<Reply> {
        let id = challenge.game;
        let mut people = vec![challenge.challenger];
        if challenge.is_open() {
            people.push(ctx.user.id);
        } else {
            people.extend(challenge.invited.iter().copied());
        }
        // Seats by lot.
        let seat_count = id.seats().len();
        let mut seats: Vec<UserId> = Vec::with_capacity(seat_count);
        if people.len() == seat_count {
            let mut pool = people.clone();
            while !pool.is_empty() {
                let pick = self.dice.draw(pool.len())?;
                seats.push(pool.remove(pick));
            }
        } else {
            // Two people share four seats: each holds both seats of one team.
            let &[first, second] = people.as_slice() else {
                return Err(ServiceError::Corrupt(format!(
                    "challenge {} has {} players for {seat_count} seats",
                    challenge.id,
                    people.len()
                ))
                .into());
            };
            let (a, b) = if self.dice.draw(2)? == 0 {
                (first, second)
            } else {
                (second, first)
            };
            for seat in 0..seat_count {
                let seat = u8::try_from(seat).unwrap_or(0);
                seats.push(if team_of(id, seat) == 0 { a } else { b });
            }
        }
        let options: Vec<&str> = challenge.options.split_whitespace().collect();
        let mut state = AnyGame::start(id, &options, None).map_err(UserError::Setup)?;
        let community = ctx.chat.community;
        if challenge.stake > 0 {
            // New players get their starting grant before their stake is taken.
            for person in &people {
                self.store.open_wallet(community, *person).await?;
            }
        }
        let turn = match state.status() {
            Status::Decision(seat) => seats.get(usize::from(seat.0)).map(|user| TurnStart {
                user: *user,
                at: now,
            }),
            _ => None,
        };
        let new = NewGame {
            chat: ctx.chat.id,
            game: id,
            options: &challenge.options,
            start_position: None,
            seats: &seats,
            accepting: Some(Acceptance {
                challenge: challenge.id,
                by: ctx.user.id,
                now,
            }),
            community,
            stake: challenge.stake,
            move_millis: challenge.move_millis,
            turn,
        };
        let created = match request {
            Some(request) => self.store.create_game_once(&new, request).await,
            None => self.store.create_game(&new).await,
        };
        let mut record = match created {
            Ok(record) => record,
            Err(StoreError::Conflict(Conflict::InsufficientFunds { user, balance, .. })) => {
                let name = self
                    .store
                    .user(user)
                    .await?
                    .map_or_else(|| format!("user {user}"), |user| user.display_name);
                return Err(UserError::CannotAfford {
                    name,
                    balance,
                    stake: challenge.stake,
                    challenge: challenge.id,
                }
                .into());
            }
            Err(other) => return Err(other.into()),
        };
        // Opening rolls (a roll-off), stored before anyone moves.
        let mut played = Played::default();
        self.resolve_chance(&mut state, &mut played)?;
        let mut consequences = None;
        if !played.actions.is_empty() {
            consequences = Some(
                self.append_played(&mut record, &state, &played, None, now)
                    .await?,
            );
        }
        let mut spans = vec![Span::Text(format!(
            "Game #{} of {} begins. Seats by lot: ",
            record.id,
            id.name()
        ))];
        for (i, holder) in record.seats.iter().enumerate() {
            if i > 0 {
                spans.push(Span::Text(", ".into()));
            }
            spans.push(Span::Text(format!("{} ", seat_name(id, holder.seat))));
            spans.push(mention(&holder.user));
        }
        spans.push(Span::Text(format!(
            ". {}.",
            Terms::of(&record).describe_sentence()
        )));
        for line in played.narration {
            spans.push(Span::Text(format!(" {line}.")));
        }
        if let Some(consequences) = &consequences {
            spans.extend(money_spans(&record, consequences));
        }
        spans.push(Span::Text("\n".into()));
        let loaded = Loaded {
            record,
            state,
            last: played.last,
            moved: false,
        };
        self.board_reply(&loaded, spans).await
    }

    // ---- Games ----

    /// Which game a command means: the one named, else the caller's only game (preferring the
    /// games where the caller is to move when `acting`), else the chat's only game.
    async fn pick_game(&self, ctx: &Ctx, number: Option<GameNo>, acting: bool) -> Outcome2<GameNo> {
        if let Some(game) = number {
            // Checked to be in this chat when it is loaded.
            return Ok(game);
        }
        let all = self.store.active_games_in_chat(ctx.chat.id).await?;
        let mine: Vec<&GameRecord> = all.iter().filter(|g| g.is_seated(ctx.user.id)).collect();
        let candidates: Vec<&GameRecord> = if mine.is_empty() {
            all.iter().collect()
        } else {
            mine
        };
        if candidates.len() > 1 && acting {
            let mut to_move = Vec::new();
            for game in &candidates {
                let loaded = self.load(ctx, game.id).await?;
                if let Status::Decision(seat) = loaded.state.status()
                    && holder(&loaded.record, seat).is_some_and(|u| u.id == ctx.user.id)
                {
                    to_move.push(game.id);
                }
            }
            if let [one] = to_move.as_slice() {
                return Ok(*one);
            }
        }
        match candidates.as_slice() {
            [] => Err(UserError::NoGame.into()),
            [one] => Ok(one.id),
            [first, ..] => {
                let list: Vec<String> = candidates
                    .iter()
                    .map(|g| format!("#{} {}", g.id, g.game.name()))
                    .collect();
                Err(UserError::WhichGame(list.join(", "), first.id).into())
            }
        }
    }

    /// Loads and replays a game of this chat (a game of another chat is "no such game").
    async fn load(&self, ctx: &Ctx, game: GameNo) -> Outcome2<Loaded> {
        let Some(loaded) = self
            .store
            .load_game(game, History::Full)
            .await?
            .filter(|loaded| loaded.record.chat == ctx.chat.id)
        else {
            return Err(UserError::NoSuchGame(game).into());
        };
        let record = loaded.record;
        let options = record.option_list();
        let mut state = AnyGame::start(record.game, &options, record.start_position.as_deref())
            .map_err(|e| ServiceError::Corrupt(format!("game {}: {e}", record.id)))?;
        let mut last = None;
        for action in &loaded.actions {
            let applied = state.apply_text(&action.action).map_err(|e| {
                ServiceError::Corrupt(format!("game {} action {}: {e}", record.id, action.seq))
            })?;
            last = Some(applied);
        }
        let moved = loaded.actions.iter().any(|action| action.actor.is_some());
        let mut loaded = Loaded {
            record,
            state,
            last,
            moved,
        };
        if loaded.record.status == GameStatus::Active && loaded.state.status() == Status::Chance {
            self.heal(ctx, &mut loaded).await?;
        }
        Ok(loaded)
    }

    /// A game stored at rest on a chance node (its rolls were never written, e.g. a crash
    /// between creating a game and storing its opening roll-off): rolls now. If another
    /// request healed it first, its rolls are read back instead.
    async fn heal(&self, ctx: &Ctx, loaded: &mut Loaded) -> Outcome2<()> {
        let mut state = loaded.state.clone();
        let mut played = Played::default();
        self.resolve_chance(&mut state, &mut played)?;
        let mut record = loaded.record.clone();
        let appended = self
            .append_played(&mut record, &state, &played, None, ctx.now)
            .await;
        match appended {
            Ok(_) => {
                loaded.record = record;
                loaded.state = state;
                loaded.last = played.last;
                Ok(())
            }
            Err(StoreError::Conflict(Conflict::StaleSeq { .. } | Conflict::GameOver { .. })) => {
                let Some(fresh) = self
                    .store
                    .load_game(loaded.record.id, History::Full)
                    .await?
                else {
                    return Err(UserError::NoSuchGame(loaded.record.id).into());
                };
                let state = fresh
                    .replay()
                    .map_err(|e| ServiceError::Corrupt(e.to_string()))?;
                loaded.record = fresh.record;
                loaded.state = state;
                loaded.last = None;
                Ok(())
            }
            Err(other) => Err(other.into()),
        }
    }

    async fn press_move(
        &self,
        ctx: &Ctx,
        game: GameNo,
        seq: u32,
        choice: usize,
    ) -> Outcome2<Reply> {
        let loaded = self.load(ctx, game).await?;
        let fresh = loaded.record.seq == seq && self.check_turn(ctx, &loaded).is_ok();
        if let Some(reply) = self.repeated(ctx, &loaded, fresh).await? {
            return Ok(reply);
        }
        if loaded.record.status != GameStatus::Active {
            return Err(UserError::GameOver(game).into());
        }
        if loaded.record.seq != seq {
            return self.stale(&loaded).await;
        }
        let lines = loaded.state.legal_lines();
        let Some(line) = lines.get(choice) else {
            return Err(UserError::NoSuchChoice.into());
        };
        let line = line.clone();
        self.apply(ctx, loaded, &line).await
    }

    async fn press_piece(
        &self,
        ctx: &Ctx,
        game: GameNo,
        seq: u32,
        group: usize,
    ) -> Outcome2<Reply> {
        let loaded = self.load(ctx, game).await?;
        if loaded.record.seq != seq {
            return self.stale(&loaded).await;
        }
        self.check_turn(ctx, &loaded)?;
        let lines = loaded.state.legal_lines();
        let groups = piece_groups(&lines);
        let Some((piece, members)) = groups.get(group) else {
            return Err(UserError::NoSuchChoice.into());
        };
        let buttons = members
            .iter()
            .map(|&i| {
                button(
                    &lines[i],
                    format!("m{}.{}.{}", loaded.record.id, loaded.record.seq, i),
                )
            })
            .collect::<Vec<_>>();
        Ok(Reply {
            spans: vec![Span::Text(format!(
                "Game #{}: moves of {piece}. Choose one:",
                loaded.record.id
            ))],
            buttons: rows(buttons),
            ..Reply::default()
        })
    }

    async fn make_move(&self, ctx: &Ctx, game: GameNo, text: &str) -> Outcome2<Reply> {
        let loaded = self.load(ctx, game).await?;
        let fresh = self.check_turn(ctx, &loaded).is_ok();
        if let Some(reply) = self.repeated(ctx, &loaded, fresh).await? {
            return Ok(reply);
        }
        self.apply(ctx, loaded, text).await
    }

    /// The answer to a move request that was already applied: the current board. A `fresh`
    /// request (its sender is to move on the board it was made for) is not looked up: if it
    /// was a repeat after all, the append refuses its key in the same transaction, and
    /// [`Service::apply`] answers the same way. Every other request is looked up before it is
    /// refused, so that a re-delivered move is not answered "not your turn".
    async fn repeated(&self, ctx: &Ctx, current: &Loaded, fresh: bool) -> Outcome2<Option<Reply>> {
        if fresh || !self.store.request_handled(&ctx.key).await? {
            return Ok(None);
        }
        let spans = vec![Span::Text("This request was already handled.\n".into())];
        self.board_reply(current, spans).await.map(Some)
    }

    fn check_turn(&self, ctx: &Ctx, loaded: &Loaded) -> Outcome2<()> {
        let game = loaded.record.id;
        if loaded.record.status != GameStatus::Active {
            return Err(UserError::GameOver(game).into());
        }
        let seat = match loaded.state.status() {
            Status::Decision(seat) => seat,
            Status::Done(_) => return Err(UserError::GameOver(game).into()),
            Status::Chance => return Err(UserError::NoMoveNow(game).into()),
        };
        if !loaded.record.is_seated(ctx.user.id) {
            return Err(UserError::NotAPlayer(game).into());
        }
        match holder(&loaded.record, seat) {
            Some(user) if user.id == ctx.user.id => Ok(()),
            Some(user) => Err(UserError::NotYourTurn {
                game,
                name: user.display_name.clone(),
                seat: seat_name(loaded.record.game, seat.0),
            }
            .into()),
            None => {
                Err(ServiceError::Corrupt(format!("game {game}: seat {} empty", seat.0)).into())
            }
        }
    }

    async fn apply(&self, ctx: &Ctx, loaded: Loaded, text: &str) -> Outcome2<Reply> {
        self.check_turn(ctx, &loaded)?;
        let mut state = loaded.state.clone();
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if text.starts_with("roll:") {
            return Err(UserError::NoRolling.into());
        }
        let applied = state.apply_text(&text).map_err(UserError::Illegal)?;
        let notation = applied.notation();
        let mut played = Played::default();
        played.push(applied, Some(ctx.user.id));
        self.resolve_chance(&mut state, &mut played)?;
        let mut record = loaded.record.clone();
        let appended = self
            .append_played(&mut record, &state, &played, Some(&ctx.key), ctx.now)
            .await;
        match appended {
            Ok(consequences) => {
                let mut spans = vec![
                    mention(&ctx.user),
                    Span::Text(format!(" played {notation}.")),
                ];
                // The move's own narration came first in `played`; the rolls follow.
                for line in &played.narration {
                    spans.push(Span::Text(format!(" {line}.")));
                }
                spans.extend(money_spans(&record, &consequences));
                spans.extend(self.debt_spans(&record, &consequences).await?);
                spans.push(Span::Text("\n".into()));
                let new = Loaded {
                    record,
                    state,
                    last: played.last,
                    moved: true,
                };
                self.board_reply(&new, spans).await
            }
            Err(StoreError::Conflict(Conflict::Duplicate)) => {
                let current = self.load(ctx, loaded.record.id).await?;
                let spans = vec![Span::Text("This request was already handled.\n".into())];
                self.board_reply(&current, spans).await
            }
            Err(StoreError::Conflict(Conflict::StaleSeq { .. })) => {
                let current = self.load(ctx, loaded.record.id).await?;
                self.stale(&current).await
            }
            Err(StoreError::Conflict(Conflict::GameOver { game, .. })) => {
                Err(UserError::GameOver(game).into())
            }
            Err(other) => Err(other.into()),
        }
    }

    /// Draws outcomes while the state is at a chance node, adding them to `played`.
    fn resolve_chance(&self, state: &mut AnyGame, played: &mut Played) -> Result<(), ServiceError> {
        while state.status() == Status::Chance {
            let mut outcomes = Vec::new();
            for line in state.legal_lines() {
                let (roll, weight) = line
                    .rsplit_once(' ')
                    .ok_or_else(|| ServiceError::Corrupt(format!("chance line {line:?}")))?;
                let weight: u64 = weight
                    .parse()
                    .map_err(|_| ServiceError::Corrupt(format!("chance weight {line:?}")))?;
                outcomes.push((roll.to_string(), weight));
            }
            let roll = self.dice.pick(&outcomes)?;
            let applied = state
                .apply_text(&roll)
                .map_err(|e| ServiceError::Corrupt(format!("roll {roll}: {e}")))?;
            played
                .narration
                .push(format!("Rolled {}", roll.trim_start_matches("roll:")));
            played.push(applied, None);
        }
        Ok(())
    }

    /// Appends what was played (compare-and-set on the record's `seq`) with its consequences:
    /// the result, the next player's clock, fines, and the settlement of the pot. On success
    /// the record is brought up to date.
    async fn append_played(
        &self,
        record: &mut GameRecord,
        state: &AnyGame,
        played: &Played,
        request: Option<&RequestKey>,
        now: Timestamp,
    ) -> Result<Consequences, StoreError> {
        let consequences = consequences(record, state, &played.penalties, now);
        let appended = self
            .store
            .append_actions(
                record.id,
                &Append {
                    expected_seq: record.seq,
                    actions: &played.actions,
                    request,
                    finish: consequences.finish.as_deref(),
                    snapshot: None,
                    turn: consequences.turn,
                    fines: &consequences.fines,
                    payout: consequences.payout.as_ref(),
                },
            )
            .await?;
        record.seq = appended.seq;
        record.clock = appended.clock;
        if consequences.finish.is_some() {
            record.status = GameStatus::Finished;
            record.result.clone_from(&consequences.finish);
            record.settled_at = Some(now);
        }
        Ok(consequences)
    }

    async fn stale(&self, current: &Loaded) -> Outcome2<Reply> {
        let spans = vec![Span::Text(
            "This board has changed; here is the current one.\n".into(),
        )];
        self.board_reply(current, spans).await
    }

    async fn resign(&self, ctx: &Ctx, game: GameNo) -> Outcome2<Reply> {
        let loaded = self.load(ctx, game).await?;
        if loaded.record.status != GameStatus::Active {
            return Err(UserError::GameOver(game).into());
        }
        let id = loaded.record.game;
        let Some(mine) = loaded
            .record
            .seats
            .iter()
            .find(|h| h.user.id == ctx.user.id)
        else {
            return Err(UserError::NotAPlayer(game).into());
        };
        let my_team = team_of(id, mine.seat);
        let winner = loaded
            .record
            .seats
            .iter()
            .map(|h| team_of(id, h.seat))
            .find(|&t| t != my_team)
            .unwrap_or(my_team);
        let result = format!("winner {} (resigned)", team_name(id, winner));
        let winners = team_users(&loaded.record, winner);
        let record = self
            .store
            .end_game_once(
                game,
                &Ending::win(&result, winners.clone(), ctx.user.id),
                &ctx.key,
            )
            .await?;
        let mut spans = vec![
            mention(&ctx.user),
            Span::Text(format!(
                " resigned game #{}. {} wins.",
                record.id,
                team_name(id, winner)
            )),
        ];
        spans.extend(pot_spans(&record, &winners));
        Ok(Reply {
            spans,
            ..Reply::default()
        })
    }

    async fn games(&self, ctx: &Ctx) -> Outcome2<Reply> {
        let all = self.store.active_games_in_chat(ctx.chat.id).await?;
        if all.is_empty() {
            return Err(UserError::NoGame.into());
        }
        let (mut mine, others): (Vec<GameRecord>, Vec<GameRecord>) =
            all.into_iter().partition(|g| g.is_seated(ctx.user.id));
        mine.extend(others);
        let mut lines = vec!["Active games here:".to_string()];
        let mut buttons = Vec::new();
        for record in mine {
            let players: Vec<String> = record
                .seats
                .iter()
                .map(|h| format!("{} {}", seat_name(record.game, h.seat), h.user.display_name))
                .collect();
            lines.push(format!(
                "#{} {}: {} (action {})",
                record.id,
                record.game.name(),
                players.join(", "),
                record.seq
            ));
            buttons.push(button(
                &format!("#{}", record.id),
                format!("b{}", record.id),
            ));
        }
        Ok(Reply {
            spans: vec![Span::Text(lines.join("\n"))],
            buttons: rows(buttons),
            ..Reply::default()
        })
    }

    /// The board: picture, whose turn (or the result), and buttons for the legal moves.
    async fn board_reply(&self, loaded: &Loaded, mut spans: Vec<Span>) -> Outcome2<Reply> {
        let record = &loaded.record;
        let id = record.game;
        spans.push(Span::Text(format!("Game #{} ({}): ", record.id, id.name())));
        let mut buttons = Vec::new();
        if record.status == GameStatus::Active {
            match loaded.state.status() {
                Status::Decision(seat) => {
                    if let Some(user) = holder(record, seat) {
                        spans.push(mention(user));
                    }
                    spans.push(Span::Text(format!(" ({}) to move.", seat_name(id, seat.0))));
                    spans.extend(self.clock_spans(record));
                    buttons = move_buttons(record, &loaded.state.legal_lines());
                }
                Status::Chance => spans.push(Span::Text("rolling.".into())),
                Status::Done(outcome) => spans.extend(result_spans(record, outcome)),
            }
        } else if let Status::Done(outcome) = loaded.state.status() {
            spans.extend(result_spans(record, outcome));
        } else {
            spans.push(Span::Text(format!(
                "over: {}.",
                record.result.as_deref().unwrap_or("no result")
            )));
        }
        let picture = if self.pictures {
            let state = loaded.state.clone();
            let last = loaded.last.clone();
            let png =
                tokio::task::spawn_blocking(move || tabula_render::render(&state, last.as_ref()))
                    .await
                    .map_err(ServiceError::from)?
                    .map_err(ServiceError::from)?;
            Some(png)
        } else {
            None
        };
        Ok(Reply {
            spans,
            picture,
            buttons,
            ..Reply::default()
        })
    }
}

fn result_spans(record: &GameRecord, outcome: Outcome) -> Vec<Span> {
    match outcome {
        Outcome::Draw => vec![Span::Text("the game is over: a draw.".into())],
        Outcome::Winner(team) => {
            let mut spans = vec![Span::Text(format!(
                "the game is over: {} wins (",
                team_name(record.game, team.0)
            ))];
            let mut seen = Vec::new();
            for holder in &record.seats {
                if team_of(record.game, holder.seat) == team.0 && !seen.contains(&holder.user.id) {
                    if !seen.is_empty() {
                        spans.push(Span::Text(", ".into()));
                    }
                    seen.push(holder.user.id);
                    spans.push(mention(&holder.user));
                }
            }
            spans.push(Span::Text(").".into()));
            spans
        }
    }
}

/// Buttons for the legal moves: one per move when few, else one per piece (two steps).
fn move_buttons(record: &GameRecord, lines: &[String]) -> Vec<Vec<Button>> {
    let (game, seq) = (record.id, record.seq);
    if lines.len() <= MAX_BUTTONS {
        let buttons = lines
            .iter()
            .enumerate()
            .map(|(i, line)| button(line, format!("m{game}.{seq}.{i}")))
            .collect();
        return rows(buttons);
    }
    let buttons = piece_groups(lines)
        .into_iter()
        .enumerate()
        .take(MAX_BUTTONS * 2)
        .map(|(i, (piece, members))| {
            if let [only] = members.as_slice() {
                button(&lines[*only], format!("m{game}.{seq}.{only}"))
            } else {
                button(&format!("{piece}…"), format!("p{game}.{seq}.{i}"))
            }
        })
        .collect();
    rows(buttons)
}

/// The legal moves grouped by the piece they start from (the text before the first
/// separator), in first-seen order.
fn piece_groups(lines: &[String]) -> Vec<(String, Vec<usize>)> {
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let piece = line
            .char_indices()
            .skip(1)
            .find(|(_, c)| matches!(c, '-' | 'x' | '+' | '&'))
            .map_or(line.as_str(), |(at, _)| &line[..at])
            .to_string();
        match groups.iter_mut().find(|(p, _)| *p == piece) {
            Some((_, members)) => members.push(i),
            None => groups.push((piece, vec![i])),
        }
    }
    groups
}

fn rows(buttons: Vec<Button>) -> Vec<Vec<Button>> {
    buttons.chunks(4).map(<[Button]>::to_vec).collect()
}

fn button(label: &str, data: String) -> Button {
    Button {
        label: label.to_string(),
        data,
    }
}

/// The Accept, Decline and Cancel buttons of a challenge.
fn challenge_buttons(no: impl std::fmt::Display) -> Vec<Vec<Button>> {
    vec![vec![
        button("Accept", format!("a{no}")),
        button("Decline", format!("d{no}")),
        button("Cancel", format!("x{no}")),
    ]]
}

fn mention(user: &User) -> Span {
    Span::Mention(user.platform_user_id.clone(), user.display_name.clone())
}

fn text_reply(text: String) -> Reply {
    Reply {
        spans: vec![Span::Text(text)],
        ..Reply::default()
    }
}

fn options_suffix(options: &str) -> String {
    if options.is_empty() {
        String::new()
    } else {
        format!(" ({options})")
    }
}

/// A whole number in `min..=max`, as typed (digits only).
fn parse_amount(text: &str, min: i64, max: i64) -> Option<i64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<i64>()
        .ok()
        .filter(|amount| (min..=max).contains(amount))
}

fn parse_game(name: &str) -> Result<GameId, UserError> {
    let wanted = name.to_lowercase().replace([' ', '_'], "-");
    let wanted = if wanted == "coanki" {
        "coan-ki".to_string()
    } else {
        wanted
    };
    wanted
        .parse()
        .map_err(|_| UserError::UnknownGame(name.to_string()))
}

/// A leading `#12` in the arguments, and the rest.
fn game_number(args: &str) -> (Option<GameNo>, &str) {
    let args = args.trim();
    if let Some(rest) = args.strip_prefix('#') {
        let (number, rest) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        if let Ok(n) = number.parse() {
            return (Some(GameNo(n)), rest.trim());
        }
    }
    (None, args)
}

fn holder(record: &GameRecord, seat: Seat) -> Option<&User> {
    record
        .seats
        .iter()
        .find(|h| h.seat == seat.0)
        .map(|h| &h.user)
}

/// The consequences of reaching `state` by actions whose rules imposed `penalties`.
fn consequences(
    record: &GameRecord,
    state: &AnyGame,
    penalties: &[(Seat, Seat)],
    now: Timestamp,
) -> Consequences {
    let finish = finish_text(state);
    let turn = match state.status() {
        Status::Decision(seat) => holder(record, seat).map(|user| TurnStart {
            user: user.id,
            at: now,
        }),
        _ => None,
    };
    // Coan Ki's double one: 10% of the stake to the opponent (coan-ki.md section 13).
    let fine = if record.game == GameId::CoanKi {
        record.stake / 10
    } else {
        0
    };
    let fines = if fine > 0 {
        penalties
            .iter()
            .filter_map(|&(payer, payee)| {
                let (payer, payee) = (holder(record, payer)?, holder(record, payee)?);
                (payer.id != payee.id).then_some(Fine {
                    payer: payer.id,
                    payee: payee.id,
                    amount: fine,
                })
            })
            .collect()
    } else {
        Vec::new()
    };
    let payout = match state.status() {
        Status::Done(Outcome::Winner(team)) => Some(Payout::Winners(team_users(record, team.0))),
        Status::Done(Outcome::Draw) => Some(Payout::Refund),
        _ => None,
    };
    Consequences {
        finish,
        turn,
        fines,
        payout,
    }
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

/// The pot of a staked game: the stake of each person.
fn pot_of(record: &GameRecord) -> i64 {
    record
        .stake
        .saturating_mul(i64::try_from(players(record).len()).unwrap_or(0))
}

/// "@alice takes the pot of 100." (or the partners share it), for a staked game.
fn pot_spans(record: &GameRecord, winners: &[UserId]) -> Vec<Span> {
    if record.stake == 0 || winners.is_empty() {
        return Vec::new();
    }
    let mut spans = vec![Span::Text(" ".into())];
    for (i, winner) in winners.iter().enumerate() {
        if i > 0 {
            spans.push(Span::Text(" and ".into()));
        }
        match seated(record, *winner) {
            Some(user) => spans.push(mention(user)),
            None => spans.push(Span::Text(format!("user {winner}"))),
        }
    }
    let verb = if winners.len() > 1 { "share" } else { "takes" };
    spans.push(Span::Text(format!(
        " {verb} the pot of {} coins.",
        pot_of(record)
    )));
    spans
}

/// "The stakes (50 each) are returned.", for a staked game.
fn refund_spans(record: &GameRecord) -> Vec<Span> {
    if record.stake == 0 {
        return Vec::new();
    }
    vec![Span::Text(format!(
        " The stakes ({} each) are returned.",
        record.stake
    ))]
}

/// What money moved with some actions: fines, and the pot when the game ended.
fn money_spans(record: &GameRecord, consequences: &Consequences) -> Vec<Span> {
    let mut spans = Vec::new();
    for fine in &consequences.fines {
        let (Some(payer), Some(payee)) = (seated(record, fine.payer), seated(record, fine.payee))
        else {
            continue;
        };
        spans.push(Span::Text(" ".into()));
        spans.push(mention(payer));
        spans.push(Span::Text(" pays ".into()));
        spans.push(mention(payee));
        spans.push(Span::Text(format!(
            " a fine of {} coins (10% of the stake).",
            fine.amount
        )));
    }
    match &consequences.payout {
        Some(Payout::Winners(winners)) => spans.extend(pot_spans(record, winners)),
        Some(Payout::Refund) => spans.extend(refund_spans(record)),
        None => {}
    }
    spans
}

fn finish_text(state: &AnyGame) -> Option<String> {
    matches!(state.status(), Status::Done(_)).then(|| state.status_line())
}

fn team_of(id: GameId, seat: u8) -> u8 {
    tabula_core::with_game_type!(id, G => G::team_of(Seat(seat)).0)
}

fn team_name(id: GameId, team: u8) -> &'static str {
    tabula_core::with_game_type!(id, G => G::TEAMS.get(usize::from(team)).copied().unwrap_or("?"))
}

fn seat_name(id: GameId, seat: u8) -> &'static str {
    id.seats().get(usize::from(seat)).copied().unwrap_or("?")
}

/// The answer to a user's mistake.
fn sorry(error: &UserError) -> String {
    let text = error.to_string();
    if text.ends_with(['.', '?', '!']) {
        format!("Sorry: {text}")
    } else {
        format!("Sorry: {text}.")
    }
}

/// An error with its sources, on one line.
pub fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
