//! Why a request did not succeed: what the user did wrong ([`UserError`], answered in the
//! reply) and what failed inside ([`ServiceError`], returned to the adapter).

use tabula_core::{ActionError, GameId, SetupError};

use super::{Address, Audience, Reply, Request, coins, duration, game_msg};
use crate::commands::CommandId;
use crate::l10n::Msg;
use crate::store::{ChallengeNo, Conflict, GameNo, StoreError, Timestamp};

/// What a user did wrong: answered with a clear message, nothing changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UserError {
    /// An unknown command.
    #[error("I do not know `/{0}`. Send /help for the list of commands.")]
    UnknownCommand(String),
    /// Not a command at all.
    #[error("commands start with `/`; send /help for the list")]
    NotACommand,
    /// Wrong arguments: the command's usage is told.
    #[error("usage: {}", crate::commands::spec(*.0).usage(crate::l10n::Lang::ENGLISH))]
    Usage(CommandId),
    /// Arguments the command parser cannot read.
    #[error("{error}; usage: {}", crate::commands::spec(*.command).usage(crate::l10n::Lang::ENGLISH))]
    BadArguments {
        /// The command.
        command: CommandId,
        /// What is wrong.
        error: crate::commands::ParseError,
    },
    /// An unknown game name.
    #[error("there is no game `{0}`; the games are konane, koan, kolowis, coan-ki and pachisi")]
    UnknownGame(String),
    /// Bad options.
    #[error("{0}")]
    Setup(SetupError),
    /// The wrong number of players for the game.
    #[error("{} is played by {allowed}; you named {named} (yourself included)", game.name())]
    Players {
        /// The game.
        game: GameId,
        /// How many may play.
        allowed: &'static str,
        /// How many were named.
        named: usize,
    },
    /// A `@username` the bot has never seen: money only moves to people it knows.
    #[error("I do not know @{0} yet: they must write here first")]
    UnknownPerson(String),
    /// A stake named for a game against the computer.
    #[error(
        "a game against the computer cannot be staked: leave out stake= (coins are won and lost \
         between people only)"
    )]
    ComputerStake,
    /// People named beside the computer in a game of two seats.
    #[error(
        "{} against the computer is for you alone: `/play {slug} computer`, or challenge \
         a person without `computer`", game.name()
    )]
    ComputerAndPeople {
        /// The game.
        game: GameId,
        /// What is typed for it.
        slug: &'static str,
    },
    /// The computer asked for beside as many people as the game has seats.
    #[error(
        "{} has {seats} seats and you named people for all of them: leave out `computer`, \
         or name fewer people and the computer takes the other seats", game.name()
    )]
    ComputerNoSeat {
        /// The game.
        game: GameId,
        /// How many seats it has.
        seats: usize,
    },
    /// The Start with computers button pressed by someone other than the challenger.
    #[error(
        "only the challenger may fill the empty seats of challenge #{0} with the computer; \
         /accept #{0} joins it"
    )]
    NotChallengerFill(ChallengeNo),
    /// A person named twice, or the challenger named.
    #[error("name each other player once, and not yourself")]
    RepeatedPlayer,
    /// No active game here.
    #[error("there is no active game in this chat; start one with /play <game>")]
    NoGame,
    /// Several candidate games.
    #[error("there are several games here ({0}); add the number, e.g. `{1}`")]
    WhichGame(String, String),
    /// No such active game in this chat.
    #[error("there is no active game #{0} in this chat; /games lists them")]
    NoSuchGame(GameNo),
    /// The game is over.
    #[error("game #{0} is over")]
    GameOver(GameNo),
    /// A replay larger than a chat takes.
    #[error(
        "the replay of game #{game} would be {megabytes} MB, more than a chat takes \
         ({limit} MB); /export #{game} gives its record, and `tabula rules replay` makes the \
         animation from it"
    )]
    ReplayTooLarge {
        /// The game.
        game: GameNo,
        /// How large the replay is, in megabytes (rounded up).
        megabytes: usize,
        /// The largest file posted, in megabytes.
        limit: usize,
    },
    /// Not a player of the game.
    #[error("you are not playing in game #{0}; anyone may look with /board #{0}")]
    NotAPlayer(GameNo),
    /// A second draw offer while one's first stands.
    #[error("you already offered a draw in game #{0}; it stands until you move again")]
    DrawOffered(GameNo),
    /// A draw offer answered that no longer stands.
    #[error("that draw offer in game #{0} no longer stands; /draw #{0} offers one")]
    DrawLapsed(GameNo),
    /// One's own draw offer answered.
    #[error("that is your own draw offer in game #{0}; your opponent answers it")]
    OwnDrawOffer(GameNo),
    /// A draw offered in a game of teams.
    #[error("draws are agreed only in two-player games; play game #{0} on, or /resign #{0}")]
    DrawTwoPlayers(GameNo),
    /// `/season` where none was ever started.
    #[error("there is no season here; a moderator starts one with /season konane days=30")]
    NoSeason,
    /// A season started beside one open or running.
    #[error("season #{0} is already open or running here; /season shows it")]
    SeasonRunning(i64),
    /// A season of a game of teams.
    #[error("seasons are for two-player games, not {0}")]
    SeasonTwoPlayers(GameId),
    /// A season's button pressed once it no longer takes players.
    #[error("season #{0} no longer takes players; /season shows it")]
    SeasonNotOpen(i64),
    /// Joining twice.
    #[error("you are in season #{0} already")]
    SeasonJoined(i64),
    /// Joining a full season.
    #[error("season #{0} is full")]
    SeasonFull(i64),
    /// Begun with too few.
    #[error("season #{season} begins with 3 players at least; {count} joined")]
    SeasonTooFew {
        /// The season.
        season: i64,
        /// How many joined.
        count: usize,
    },
    /// A rating reset for someone without one.
    #[error("{name} has no {game} rating here to reset")]
    NoRatingToReset {
        /// Their name.
        name: String,
        /// The game.
        game: GameId,
    },
    /// A takeback with nothing of one's own at the end of the game's log.
    #[error(
        "you have no move to take back in game #{0}: only your last move, before anyone else acts (and never a roll)"
    )]
    NothingToTakeBack(GameNo),
    /// A second takeback request while the first stands.
    #[error("you already asked to take back your move in game #{0}; your opponent answers it")]
    TakebackAsked(GameNo),
    /// A takeback answered that no longer stands.
    #[error(
        "that takeback request in game #{0} no longer stands: a move was made since, or it was answered"
    )]
    TakebackLapsed(GameNo),
    /// One's own (or a partner's) takeback answered.
    #[error("that takeback request in game #{0} is your side's; the other side answers it")]
    OwnTakeback(GameNo),
    /// A takeback asked in a game with the computer.
    #[error("takebacks are asked of people; the computer does not give them in game #{0}")]
    TakebackComputer(GameNo),
    /// A draw offered to the computer.
    #[error("the computer does not agree draws; play game #{0} on, or /resign #{0}")]
    DrawComputer(GameNo),
    /// Not the seat to act.
    #[error("it is not your turn in game #{game}: {} ({seat}) is to move", .name.as_deref().unwrap_or("the computer"))]
    NotYourTurn {
        /// The game.
        game: GameNo,
        /// Who is to move: their name, or `None` for the computer (named in the chat's
        /// language).
        name: Option<String>,
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
    #[error("several challenges are waiting ({0}); add the number, e.g. `{1}`")]
    WhichChallenge(String, String),
    /// The challenge is not addressed to the user.
    #[error("challenge #{0} is not addressed to you")]
    NotInvited(ChallengeNo),
    /// Declining an offer open to anyone: only invited people decline their own invitation.
    #[error("challenge #{0} is open to anyone: there is nothing to decline (it expires by itself)")]
    DeclineOpen(ChallengeNo),
    /// Only the challenger may cancel.
    #[error("only the challenger may cancel challenge #{0}")]
    NotChallenger(ChallengeNo),
    /// The challenger starts an open challenge nobody has joined yet.
    #[error("nobody has joined challenge #{0} yet; it starts once someone has")]
    NobodyJoined(ChallengeNo),
    /// Someone other than the challenger pressed Start.
    #[error("only the challenger may start challenge #{0} early; /accept #{0} joins it")]
    NotChallengerStart(ChallengeNo),
    /// Accepting one's own challenge.
    #[error("you cannot accept your own challenge #{0}; /cancel withdraws it")]
    OwnChallenge(ChallengeNo),
    /// The same challenge (same challenger, game, options, people, stake and time) is already
    /// waiting.
    #[error(
        "the same challenge is already waiting: challenge #{0}. /cancel #{0} first to change it"
    )]
    SameChallenge(ChallengeNo),
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
    #[error("{} is switched off here by the moderators; the games here: {enabled}", game.name())]
    GameDisabled {
        /// The game.
        game: GameId,
        /// The games that are on.
        enabled: String,
    },
    /// A stake that cannot be read or is out of bounds.
    #[error("the stake must be a whole number of coins from 0 to {max} here, e.g. stake={}", (*.max).min(50))]
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
    /// Stakes are switched off here (`max_stake=0`).
    #[error("stakes are off here: the moderators set max_stake=0; play without stake=")]
    StakesOff,
    /// Only moderators may start staked games here.
    #[error("only moderators may start staked games here; play with stake=0")]
    StakedByModerators,
    /// The challenger's wallet is empty or in debt.
    #[error(
        "you have {}: no staked games until your balance is above zero again \
         (play with stake=0)", coins(*.balance)
    )]
    InDebt {
        /// The balance.
        balance: i64,
    },
    /// The challenger cannot pay the stake.
    #[error("you have {} and cannot stake {stake}; /wallet shows your balance", coins(*.balance))]
    TooPoor {
        /// The balance.
        balance: i64,
        /// The stake asked.
        stake: i64,
    },
    /// A player cannot pay the stake when the game would start.
    #[error(
        "@{name} has {} and cannot stake {stake}, so the game does not start; \
         challenge #{challenge} stays open", coins(*.balance)
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
    #[error("the time per move must be from 1 hour to {} here, e.g. time=3d or time=12h", duration(*.max))]
    BadTime {
        /// The longest time here, in milliseconds.
        max: i64,
    },
    /// A moderator's command from someone else.
    #[error("only moderators of this server or group may {0}")]
    NotModerator(ModeratorAction),
    /// A setting that cannot be applied.
    #[error("{0}")]
    BadSetting(SettingError),
    /// A language the catalogue does not have.
    #[error("there is no language `{given}`; the languages are {known}")]
    UnknownLanguage {
        /// What was typed (quoted).
        given: String,
        /// The languages there are.
        known: String,
    },
    /// An amount of coins that cannot be read.
    #[error("the amount must be a whole number of coins from 1 to {max}")]
    BadAmount {
        /// The largest amount.
        max: i64,
    },
    /// A take of more than the wallet holds.
    #[error("@{name} has only {}; take at most that", coins(*.balance))]
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
        "@{name} still has {} in game #{game} (until {}); you may claim the win after that",
        duration(*.left), crate::time::moment(*.until)
    )]
    TooEarly {
        /// The game.
        game: GameNo,
        /// Who is to move.
        name: String,
        /// How long they have left, in milliseconds.
        left: i64,
        /// When their time runs out.
        until: Timestamp,
    },
    /// The clock moved on (a vacation) while the claim was made.
    #[error("the clock of game #{0} was paused meanwhile; /board shows the time left")]
    NotDueAnyMore(GameNo),
    /// A player's abort after the first roll or move.
    #[error(
        "game #{0} has begun: players may abort a game only before the first roll or move; \
         /resign gives it up, and a moderator can abort it"
    )]
    AlreadyMoved(GameNo),
    /// A question (confirm a resignation or an abort) pressed by someone it is not for: the
    /// name of who answers it.
    #[error("only {0} can answer this question")]
    NotYourQuestion(String),
    /// A Pachisi resignation proposed by the presser: their partner (named) answers it.
    #[error("your partner {0} answers this proposal")]
    PartnerConfirms(String),
    /// A question that lapsed (a minute passed, or the game moved on): the command to ask
    /// again.
    #[error("this question has lapsed; ask again with {0}")]
    QuestionLapsed(&'static str),
    /// A `/notify` setting that cannot be read (quoted).
    #[error(
        "there is no notification setting {0}; try /notify lastcall on or /notify halftime off"
    )]
    UnknownNotify(String),
    /// A button of someone else's `/notify` settings.
    #[error("these are someone else's settings; /notify shows yours")]
    NotYourSettings,
    /// Quiet hours that cannot be read.
    #[error("write quiet hours as /notify quiet 22:00-08:00 Europe/Sofia, or /notify quiet off")]
    BadQuiet,
    /// A digest time that cannot be read.
    #[error("write the digest's time as /notify digest 08:00 Europe/Sofia")]
    BadDigest,
    /// A time zone that is not known (quoted).
    #[error("there is no time zone {0}; use its IANA name, such as Europe/Sofia, or UTC")]
    UnknownZone(String),
    /// `/mygames` for a person with no game in progress anywhere.
    #[error("you have no game in progress; /play starts one")]
    NoGamesAnywhere,
    /// `/link` where there is no other platform to link (a terminal).
    #[error("linking works between Telegram and Discord")]
    LinkNotHere,
    /// A code asked for where others would see it (a Telegram group).
    #[error("ask for a code in your private chat with me: send /link there")]
    LinkInPrivate,
    /// A code that cannot be read (quoted).
    #[error("{0} is not a code; /link without a code gives one")]
    BadLinkCode(String),
    /// A code nobody has, or that lapsed.
    #[error("that code is unknown or has lapsed; type /link on the other platform for a new one")]
    LinkCodeUnknown,
    /// A code typed on the platform it was made on: the other platform's name.
    #[error("type this code on {0}, not here")]
    LinkSamePlatform(&'static str),
    /// The person is linked already: with whom, on which platform.
    #[error("you are linked with {name} on {platform}; /unlink undoes it")]
    AlreadyLinked {
        /// The other identity's name.
        name: String,
        /// Its platform.
        platform: String,
    },
    /// The code's maker linked another identity meanwhile.
    #[error("whoever made that code is linked already")]
    LinkTheyAreLinked,
    /// `/unlink` by someone who is not linked.
    #[error("you are not linked; /link links you with your account on the other platform")]
    NotLinked,
    /// Private pings asked for where the bot has no private chat (a terminal).
    #[error("private messages are not available here")]
    NoPrivateChat,
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

/// Why a `/config key=value` cannot be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingError {
    /// An amount of coins out of bounds (`stake`, `max_stake`, `grant`).
    #[error(
        "{} must be a whole number of coins from 0 to {max}, not `{value}`",
        what(key)
    )]
    Money {
        /// The key.
        key: &'static str,
        /// What was typed (quoted).
        value: String,
        /// The largest amount.
        max: i64,
    },
    /// A time per move out of bounds (`time`, `max_time`).
    #[error(
        "{} must be between 1 hour and 365 days, e.g. 3d or 12h, not `{value}`",
        what(key)
    )]
    Time {
        /// The key.
        key: &'static str,
        /// What was typed (quoted).
        value: String,
    },
    /// `games=` naming no game.
    #[error("name at least one game, e.g. games=konane,koan, or games=all")]
    NoGames,
    /// `reminders=` neither on nor off.
    #[error("reminders is on or off, not `{0}`")]
    Reminders(String),
    /// `pings=` neither on nor off.
    #[error("pings is on or off, not `{0}`")]
    Pings(String),
    /// `threads=` neither on nor off.
    #[error("threads is on or off, not `{0}`")]
    Threads(String),
    /// `pages=` neither on nor off.
    #[error("pages is on or off, not `{0}`")]
    Pages(String),
    /// `threads=on` in a chat that cannot hold a thread or topic per game.
    #[error(
        "threads=on needs a Discord server's channel or a Telegram group with topics turned on"
    )]
    ThreadsHere,
    /// `staked_games=` neither everyone nor moderators.
    #[error("staked_games is everyone or moderators, not `{0}`")]
    StakedGames(String),
    /// `vacation=` out of bounds.
    #[error("vacation is a number of days per month from 0 to {max}, not `{value}`")]
    Vacation {
        /// What was typed (quoted).
        value: String,
        /// The most days.
        max: i64,
    },
    /// A whole number out of its bounds (`leaderboard_games=`, `leaderboard_months=`).
    #[error("{key} is a whole number from {min} to {max}, not `{value}`")]
    Count {
        /// The setting.
        key: &'static str,
        /// What was typed (quoted).
        value: String,
        /// The least.
        min: i64,
        /// The most.
        max: i64,
    },
    /// `language=` not a language of the catalogue.
    #[error(
        "language is one of {known}, or `none` for English with each person's own, not `{value}`"
    )]
    Language {
        /// What was typed (quoted).
        value: String,
        /// The languages there are.
        known: String,
    },
    /// A key there is not.
    #[error("there is no setting `{key}`; the keys: {keys}")]
    UnknownKey {
        /// The key typed (quoted).
        key: String,
        /// The keys there are.
        keys: String,
    },
    /// The default stake above the largest.
    #[error(
        "the default stake ({stake}) is above the largest stake ({max}); change both at once, \
         e.g. /config stake={stake} max_stake={stake}"
    )]
    StakeAboveMax {
        /// The default stake.
        stake: i64,
        /// The largest.
        max: i64,
    },
    /// The default time per move longer than the longest.
    #[error(
        "the default time per move ({default}) is longer than the longest ({longest}); change \
         both at once, e.g. /config time={time} max_time={time}"
    )]
    TimeAboveMax {
        /// The default time, as typed (`3d`).
        time: String,
        /// The default, as people read it.
        default: String,
        /// The longest, as people read it.
        longest: String,
    },
}

/// What a setting's key stands for, in English (for logs).
fn what(key: &str) -> &'static str {
    match key {
        "stake" => "the default stake",
        "max_stake" => "the largest stake",
        "grant" => "the starting grant",
        "time" => "the default time per move",
        "open_wait" => "how long an open challenge waits",
        _ => "the longest time per move",
    }
}

/// What a setting's key stands for, as a message (`setting-what-max-stake`).
fn what_msg(key: &str) -> Msg {
    Msg::new(match key {
        "stake" => "setting-what-stake",
        "max_stake" => "setting-what-max-stake",
        "grant" => "setting-what-grant",
        "time" => "setting-what-time",
        "open_wait" => "setting-what-open-wait",
        _ => "setting-what-max-time",
    })
}

impl SettingError {
    /// What the moderator is told.
    fn msg(&self) -> Msg {
        use SettingError as S;
        match self {
            S::Money { key, value, max } => Msg::new("setting-money")
                .msg("what", what_msg(key))
                .text("value", value.clone())
                .num("max", *max),
            S::Time { key, value } => Msg::new("setting-time")
                .msg("what", what_msg(key))
                .text("value", value.clone()),
            S::NoGames => Msg::new("setting-no-games"),
            S::Reminders(value) => Msg::new("setting-reminders").text("value", value.clone()),
            S::Pings(value) => Msg::new("setting-pings").text("value", value.clone()),
            S::Threads(value) => Msg::new("setting-threads").text("value", value.clone()),
            S::Pages(value) => Msg::new("setting-pages").text("value", value.clone()),
            S::ThreadsHere => Msg::new("setting-threads-here"),
            S::StakedGames(value) => Msg::new("setting-staked-games").text("value", value.clone()),
            S::Vacation { value, max } => Msg::new("setting-vacation")
                .text("value", value.clone())
                .num("max", *max),
            S::Count {
                key,
                value,
                min,
                max,
            } => Msg::new("setting-count")
                .text("key", *key)
                .text("value", value.clone())
                .num("min", *min)
                .num("max", *max),
            S::Language { value, known } => Msg::new("setting-language")
                .text("value", value.clone())
                .text("known", known.clone()),
            S::UnknownKey { key, keys } => Msg::new("setting-unknown-key")
                .text("key", key.clone())
                .text("keys", keys.clone()),
            S::StakeAboveMax { stake, max } => Msg::new("setting-stake-above-max")
                .num("stake", *stake)
                .num("max", *max)
                .text("example", stake.to_string()),
            S::TimeAboveMax {
                time,
                default,
                longest,
            } => Msg::new("setting-time-above-max")
                .text("time", time.clone())
                .text("default", default.clone())
                .text("longest", longest.clone()),
        }
    }
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

impl ServiceError {
    /// Whether the database could not be reached: the adapter tells the person "the bot
    /// cannot reach its database; try again in a minute" ([`ServiceError::reply_to`]).
    pub fn is_unavailable(&self) -> bool {
        matches!(self, ServiceError::Store(error) if error.is_unavailable())
    }
}

/// Why a request did not succeed.
pub(super) enum Failure {
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

impl From<Failure> for ServiceError {
    /// A step that refuses (which only a person's request can be) met outside a request: an
    /// inconsistency.
    fn from(failure: Failure) -> Self {
        match failure {
            Failure::Internal(error) => error,
            Failure::User(error) => ServiceError::Corrupt(error.to_string()),
        }
    }
}

/// What handling a request (or a step of it) gives: its value, or a [`Failure`] (a refusal or an
/// internal error).
pub(super) type Handled<T> = Result<T, Failure>;

/// The answer to a user's mistake.
pub(super) fn sorry(error: &UserError) -> Msg {
    Msg::new("sorry").msg("text", error.msg())
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

impl ServiceError {
    /// The reply an adapter gives, to the person who acted only, when handling `request`
    /// failed inside: that the database is out of reach, or that something failed inside (logged).
    /// Nothing was changed by the failed request.
    pub fn reply_to(&self, request: &Request) -> Reply {
        let id = if self.is_unavailable() {
            "unavailable"
        } else {
            "internal"
        };
        request.said_to_actor(id)
    }
}

impl Request {
    /// The answer to this request when the service gave none because its sender cools down
    /// after a flood of refusals (see `cooldown.rs`), for a platform that must answer
    /// everything (a Discord command): for the person only, in their platform's language.
    pub fn cooling_down_reply(&self) -> Reply {
        self.said_to_actor("cooling-down")
    }

    /// Message `id` of the catalogue, for the person who sent this request only, in their
    /// platform's language (the service's own answers may be out of reach: the database may
    /// be).
    fn said_to_actor(&self, id: &'static str) -> Reply {
        let lang = crate::l10n::Lang::choose(None, self.locale.as_deref(), None);
        Reply {
            address: Address {
                platform: self.platform,
                chat: self.chat.0.clone(),
                thread: self.thread.clone(),
            },
            audience: Audience::Actor,
            spans: crate::l10n::spans(lang, &Msg::new(id)),
            said: vec![Msg::new(id)],
            ..Reply::default()
        }
    }
}

/// What only moderators may do, as a refusal names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModeratorAction {
    /// Change the community's settings.
    ChangeSettings,
    /// Grant coins.
    Grant,
    /// Take coins.
    Take,
    /// Abort games they do not play.
    AbortOthers,
    /// Reset a person's rating.
    ResetRating,
    /// Start and begin seasons.
    Seasons,
}

impl std::fmt::Display for ModeratorAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ModeratorAction::ChangeSettings => "change the settings",
            ModeratorAction::Grant => "grant coins",
            ModeratorAction::Take => "take coins",
            ModeratorAction::AbortOthers => "abort games they do not play",
            ModeratorAction::ResetRating => "reset ratings",
            ModeratorAction::Seasons => "start seasons",
        })
    }
}

/// A number of the chat's games or challenges as a refusal writes it: `#3`.
fn number(n: impl std::fmt::Display) -> String {
    format!("#{n}")
}

impl UserError {
    /// What the person is told, as a message of the catalogue (`Display` is the English
    /// sentence for logs).
    pub fn msg(&self) -> Msg {
        use UserError as E;
        match self {
            E::UnknownCommand(name) => {
                Msg::new("unknown-command").text("command", format!("/{name}"))
            }
            E::NotACommand => Msg::new("not-a-command"),
            E::Usage(command) => Msg::new("usage").msg(
                "usage",
                crate::commands::usage_example_msg(crate::commands::spec(*command)),
            ),
            E::BadArguments { command, error } => {
                Msg::new("bad-arguments").msg("error", error.msg()).msg(
                    "usage",
                    crate::commands::usage_msg(crate::commands::spec(*command)),
                )
            }
            E::UnknownGame(name) => Msg::new("unknown-game").text("name", name.clone()),
            E::Setup(error) => {
                Msg::new("illegal-sentence").msg("reason", super::illegal::setup_error_msg(error))
            }
            E::Players {
                game,
                allowed,
                named,
            } => Msg::new("wrong-players")
                .msg("game", game_msg(*game))
                .msg(
                    "allowed",
                    Msg::new(if allowed.contains('4') {
                        "players-2-or-4"
                    } else {
                        "players-2"
                    }),
                )
                .count("named", *named),
            E::UnknownPerson(name) => Msg::new("unknown-person").text("name", name.clone()),
            E::ComputerStake => Msg::new("computer-stake"),
            E::ComputerAndPeople { game, slug } => Msg::new("computer-and-people")
                .msg("game", game_msg(*game))
                .text("command", format!("/play {slug} computer")),
            E::ComputerNoSeat { game, seats } => Msg::new("computer-no-seat")
                .msg("game", game_msg(*game))
                .count("seats", *seats),
            E::NotChallengerFill(no) => {
                Msg::new("not-challenger-fill").text("challenge", number(no))
            }
            E::RepeatedPlayer => Msg::new("repeated-player"),
            E::NoGame => Msg::new("no-game"),
            E::WhichGame(games, example) => Msg::new("which-game")
                .text("games", games.clone())
                .text("example", example.clone()),
            E::NoSuchGame(game) => Msg::new("no-such-game").text("game", number(game)),
            E::GameOver(game) => Msg::new("game-over").text("game", number(game)),
            E::ReplayTooLarge {
                game,
                megabytes,
                limit,
            } => Msg::new("replay-too-large")
                .text("game", number(game))
                .count("megabytes", *megabytes)
                .count("limit", *limit),
            E::NotAPlayer(game) => Msg::new("not-a-player").text("game", number(game)),
            E::DrawOffered(game) => Msg::new("draw-offered-already").text("game", number(game)),
            E::DrawLapsed(game) => Msg::new("draw-lapsed").text("game", number(game)),
            E::OwnDrawOffer(game) => Msg::new("draw-own").text("game", number(game)),
            E::DrawTwoPlayers(game) => Msg::new("draw-two-players").text("game", number(game)),
            E::DrawComputer(game) => Msg::new("draw-computer").text("game", number(game)),
            E::NothingToTakeBack(game) => Msg::new("takeback-nothing").text("game", number(game)),
            E::TakebackAsked(game) => Msg::new("takeback-already").text("game", number(game)),
            E::TakebackLapsed(game) => Msg::new("takeback-lapsed").text("game", number(game)),
            E::OwnTakeback(game) => Msg::new("takeback-own").text("game", number(game)),
            E::TakebackComputer(game) => Msg::new("takeback-computer").text("game", number(game)),
            E::NoSeason => Msg::new("season-none"),
            E::SeasonRunning(season) => Msg::new("season-running").text("season", number(season)),
            E::SeasonTwoPlayers(game) => {
                Msg::new("season-two-players").msg("name", game_msg(*game))
            }
            E::SeasonNotOpen(season) => Msg::new("season-not-open").text("season", number(season)),
            E::SeasonJoined(season) => Msg::new("season-joined").text("season", number(season)),
            E::SeasonFull(season) => Msg::new("season-full").text("season", number(season)),
            E::SeasonTooFew { season, count } => Msg::new("season-too-few")
                .text("season", number(season))
                .count("count", *count),
            E::NoRatingToReset { name, game } => Msg::new("no-rating-to-reset")
                .msg("person", Msg::new("verbatim").text("text", name.clone()))
                .msg("name", game_msg(*game)),
            E::NotYourTurn { game, name, seat } => Msg::new("not-your-turn")
                .text("game", number(game))
                .msg(
                    "name",
                    name.as_ref().map_or_else(
                        || Msg::new("computer-name"),
                        |name| Msg::new("verbatim").text("text", name.clone()),
                    ),
                )
                .msg("seat", seat_msg(seat)),
            E::NoMoveNow(game) => Msg::new("no-move-now").text("game", number(game)),
            E::Illegal(error) => {
                let reason = super::illegal::action_error_msg(error);
                if matches!(
                    error,
                    ActionError::Move(tabula_core::MoveError::Ambiguous { .. })
                ) {
                    // A question ends with its own mark.
                    Msg::new("illegal").msg("reason", reason)
                } else {
                    Msg::new("illegal-sentence").msg("reason", reason)
                }
            }
            E::NoChallenge => Msg::new("no-challenge"),
            E::WhichChallenge(challenges, example) => Msg::new("which-challenge")
                .text("challenges", challenges.clone())
                .text("example", example.clone()),
            E::NotInvited(no) => Msg::new("not-invited").text("challenge", number(no)),
            E::DeclineOpen(no) => Msg::new("decline-open").text("challenge", number(no)),
            E::NotChallenger(no) => Msg::new("not-challenger").text("challenge", number(no)),
            E::NobodyJoined(no) => Msg::new("nobody-joined").text("challenge", number(no)),
            E::NotChallengerStart(no) => {
                Msg::new("not-challenger-start").text("challenge", number(no))
            }
            E::OwnChallenge(no) => Msg::new("own-challenge").text("challenge", number(no)),
            E::SameChallenge(no) => Msg::new("same-challenge").text("challenge", number(no)),
            E::Conflict(conflict) => {
                Msg::new("illegal-sentence").msg("reason", super::illegal::conflict_msg(conflict))
            }
            E::NoRolling => Msg::new("no-rolling"),
            E::BadButton => Msg::new("bad-button"),
            E::NoSuchChoice => Msg::new("no-such-choice"),
            E::GameDisabled { game, enabled } => Msg::new("game-disabled")
                .msg("game", game_msg(*game))
                .text("enabled", enabled.clone()),
            E::BadStake { max } => Msg::new("bad-stake")
                .num("max", *max)
                .text("example", (*max).min(50).to_string()),
            E::CoanKiStake => Msg::new("coan-ki-stake"),
            E::StakesOff => Msg::new("stakes-off"),
            E::StakedByModerators => Msg::new("staked-by-moderators"),
            E::InDebt { balance } => Msg::new("in-debt").msg("balance", coins_msg(*balance)),
            E::TooPoor { balance, stake } => Msg::new("too-poor")
                .msg("balance", coins_msg(*balance))
                .num("stake", *stake),
            E::CannotAfford {
                name,
                balance,
                stake,
                challenge,
            } => Msg::new("cannot-afford")
                .text("name", name.clone())
                .msg("balance", coins_msg(*balance))
                .num("stake", *stake)
                .text("challenge", number(challenge)),
            E::BadTime { max } => Msg::new("bad-time").msg("max", crate::l10n::duration_msg(*max)),
            E::NotModerator(action) => Msg::new("not-moderator").msg(
                "action",
                Msg::new(match action {
                    ModeratorAction::ChangeSettings => "moderators-change-settings",
                    ModeratorAction::Grant => "moderators-grant",
                    ModeratorAction::Take => "moderators-take",
                    ModeratorAction::AbortOthers => "moderators-abort",
                    ModeratorAction::ResetRating => "moderators-reset-rating",
                    ModeratorAction::Seasons => "moderators-seasons",
                }),
            ),
            E::BadSetting(error) => error.msg(),
            E::UnknownLanguage { given, known } => Msg::new("unknown-language")
                .text("given", given.clone())
                .text("known", known.clone()),
            E::BadAmount { max } => Msg::new("bad-amount").num("max", *max),
            E::TakeTooMuch { name, balance } => Msg::new("take-too-much")
                .text("name", name.clone())
                .msg("balance", coins_msg(*balance)),
            E::NoClock(game) => Msg::new("no-clock").text("game", number(game)),
            E::OwnTurn(game) => Msg::new("own-turn").text("game", number(game)),
            E::TooEarly {
                game,
                name,
                left,
                until,
            } => Msg::new("too-early")
                .text("game", number(game))
                .text("name", name.clone())
                .msg("left", crate::l10n::duration_msg(*left))
                .moment("until", until.0),
            E::NotDueAnyMore(game) => Msg::new("not-due-any-more").text("game", number(game)),
            E::AlreadyMoved(game) => Msg::new("already-moved").text("game", number(game)),
            E::NotYourQuestion(name) => Msg::new("question-not-yours").text("person", name.clone()),
            E::PartnerConfirms(name) => Msg::new("partner-confirms").text("partner", name.clone()),
            E::QuestionLapsed(command) => Msg::new("question-lapsed").text("command", *command),
            E::UnknownNotify(given) => Msg::new("notify-unknown").text("given", given.clone()),
            E::NotYourSettings => Msg::new("notify-not-yours"),
            E::NoPrivateChat => Msg::new("notify-no-private"),
            E::LinkNotHere => Msg::new("link-not-here"),
            E::LinkInPrivate => Msg::new("link-in-private"),
            E::BadLinkCode(given) => Msg::new("link-bad-code").text("given", given.clone()),
            E::LinkCodeUnknown => Msg::new("link-unknown"),
            E::LinkSamePlatform(other) => Msg::new("link-same-platform").text("platform", *other),
            E::AlreadyLinked { name, platform } => Msg::new("link-already")
                .text("name", name.clone())
                .text("platform", platform.clone()),
            E::LinkTheyAreLinked => Msg::new("link-they-are-linked"),
            E::NotLinked => Msg::new("unlink-not-linked"),
            E::NoGamesAnywhere => Msg::new("mygames-none"),
            E::BadQuiet => Msg::new("notify-bad-quiet"),
            E::BadDigest => Msg::new("notify-bad-digest"),
            E::UnknownZone(zone) => Msg::new("notify-unknown-zone").text("zone", zone.clone()),
            E::VacationOff => Msg::new("vacation-off"),
            E::BadVacation { quota } => Msg::new("bad-vacation").num("quota", *quota),
            E::VacationQuota { used, quota } => Msg::new("vacation-quota")
                .num("used", *used)
                .num("quota", *quota),
        }
    }
}

/// A number of coins with its word, by the language's plural rules.
pub(crate) fn coins_msg(n: i64) -> Msg {
    Msg::new("coins").num("n", n)
}

/// A seat's or team's spelled-out English name ("White", "South and North") as a message.
pub(crate) fn seat_msg(label: &str) -> Msg {
    Msg::new(match label {
        "White" => "seat-white",
        "Black" => "seat-black",
        "South" => "seat-south",
        "East" => "seat-east",
        "North" => "seat-north",
        "West" => "seat-west",
        "South and North" => "team-south-north",
        "East and West" => "team-east-west",
        _ => "seat-unknown",
    })
}
