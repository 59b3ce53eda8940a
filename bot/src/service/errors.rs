//! Why a request did not succeed: what the user did wrong ([`UserError`], answered in the
//! reply) and what failed inside ([`ServiceError`], returned to the adapter).

use super::*;

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
    /// Arguments the catalogue cannot read.
    #[error("{error}; usage: {usage}")]
    BadArguments {
        /// The command's usage line.
        usage: String,
        /// What is wrong.
        error: crate::catalogue::ParseError,
    },
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
        "{game} against the computer is for you alone: `/play {slug} computer`, or challenge \
         a person without `computer`"
    )]
    ComputerAndPeople {
        /// The game's name.
        game: &'static str,
        /// What is typed for it.
        slug: &'static str,
    },
    /// The computer asked for beside as many people as the game has seats.
    #[error(
        "{game} has {seats} seats and you named people for all of them: leave out `computer`, \
         or name fewer people and the computer takes the other seats"
    )]
    ComputerNoSeat {
        /// The game's name.
        game: &'static str,
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
    /// Not the seat to act.
    #[error("it is not your turn in game #{game}: @{name} ({seat}) is to move")]
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
    #[error("{game} is switched off here by the moderators; the games here: {enabled}")]
    GameDisabled {
        /// The game's name.
        game: &'static str,
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
        "@{name} still has {left} in game #{game} (until {until}); you may claim the win after that"
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
    /// A player's abort after the first roll or move.
    #[error(
        "game #{0} has begun: players may abort a game only before the first roll or move; \
         /resign gives it up, and a moderator can abort it"
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

impl ServiceError {
    /// Whether the database could not be reached: the adapter tells the person "the bot
    /// cannot reach its database; try again in a minute" ([`UNAVAILABLE`]).
    pub fn is_unavailable(&self) -> bool {
        matches!(self, ServiceError::Store(error) if error.is_unavailable())
    }
}

/// What an adapter tells a person when the database cannot be reached.
pub const UNAVAILABLE: &str = "The bot cannot reach its database; try again in a minute.";

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

pub(super) type Outcome2<T> = Result<T, Failure>;

/// The answer to a re-delivered request whose change was already made.
pub(super) const ALREADY_HANDLED: &str = "This request was already handled; nothing was changed.";

/// The answer to a user's mistake.
pub(super) fn sorry(error: &UserError) -> String {
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

/// What an adapter tells a person when the bot failed inside (the failure is logged).
pub const INTERNAL: &str =
    "Something went wrong inside the bot; it was logged. Try again in a moment.";

impl ServiceError {
    /// The reply an adapter gives, to the person who acted only, when handling `request`
    /// failed inside: [`UNAVAILABLE`] when the database is out of reach, else [`INTERNAL`].
    /// Nothing was changed by the failed request.
    pub fn reply_to(&self, request: &Request) -> Reply {
        let text = if self.is_unavailable() {
            UNAVAILABLE
        } else {
            INTERNAL
        };
        Reply {
            address: Address {
                platform: request.platform,
                chat: request.chat.0.clone(),
                thread: request.thread.clone(),
            },
            audience: Audience::Actor,
            spans: vec![Span::Text(text.into())],
            ..Reply::default()
        }
    }
}
