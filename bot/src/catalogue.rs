//! The command catalogue: every command the bot understands, with its typed options, as data.
//!
//! One table ([`COMMANDS`]) feeds four things, so that they cannot drift apart:
//!
//! - the text parser ([`parse`]) used for typed commands (Telegram, the local terminal, and
//!   Discord messages), which turns `/play konane @bob size=10 stake=50` into a
//!   [`ParsedCommand`] of typed values, or a typed [`ParseError`];
//! - `/help` ([`help`], [`help_for`]);
//! - Discord's application command registration ([`discord_commands`]);
//! - Telegram's `setMyCommands` ([`telegram_commands`]).
//!
//! Nothing here touches the store, a platform or the clock. What the parser checks is what can
//! be checked without them: the shape of each argument and fixed bounds. What depends on the
//! community (its largest stake, its games, vacation quota), on who is asking (moderators) or
//! on the game (how many players, which options) stays with the service.
//!
//! Whatever a user typed is echoed only through [`quote`] (at most 40 characters): the values
//! held by a [`ParseError`] are already quoted.

use std::fmt;

use serde_json::{Value, json};
use tabula_core::GameId;

/// The most characters of user input that an answer repeats (then `…`).
pub const QUOTE_CHARS: usize = 40;

/// The computer's level when `/play … computer` names none.
pub const DEFAULT_COMPUTER_LEVEL: i64 = 2;

/// The most coins a stake, grant or take may name (the community may allow less).
pub const MAX_COINS: i64 = 1_000_000_000;

/// The shortest time per move that may be asked for: one hour.
pub const MIN_TIME_MILLIS: i64 = HOUR_MILLIS;

/// The longest time per move that may be asked for: 365 days (the community may allow less).
pub const MAX_TIME_MILLIS: i64 = 365 * DAY_MILLIS;

/// The most `key=value` game options a challenge may name.
pub const MAX_GAME_OPTIONS: usize = 8;

/// The most `key=value` settings one `/config` may change.
pub const MAX_SETTINGS: usize = 16;

/// The most characters of a move.
pub const MAX_MOVE_CHARS: usize = 100;

/// The most characters of a free text (a reason).
pub const MAX_TEXT_CHARS: usize = 200;

/// Discord's permission bit MANAGE_GUILD, required by wholly moderators' commands.
pub const MANAGE_GUILD: u64 = 1 << 5;

const MINUTE_MILLIS: i64 = 60 * 1000;
const HOUR_MILLIS: i64 = 60 * MINUTE_MILLIS;
const DAY_MILLIS: i64 = 24 * HOUR_MILLIS;

/// The commands, by what they do. A `match` on it must handle every command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CommandId {
    /// `/play`: challenge people, or anyone.
    Play,
    /// `/accept`: accept a challenge.
    Accept,
    /// `/decline`: decline a challenge.
    Decline,
    /// `/cancel`: withdraw one's own challenge.
    Cancel,
    /// `/move`: make a move.
    Move,
    /// `/board`: show a game's board.
    Board,
    /// `/moves`: list the legal moves.
    Moves,
    /// `/history`: list a game's actions.
    History,
    /// `/resign`: give a game up.
    Resign,
    /// `/abort`: call a game off without a result.
    Abort,
    /// `/claim`: win a game whose opponent ran out of time.
    Claim,
    /// `/vacation`: stop one's clocks for some days.
    Vacation,
    /// `/games`: the active games of the chat.
    Games,
    /// `/wallet`: one's coins.
    Wallet,
    /// `/leaderboard`: the richest.
    Leaderboard,
    /// `/config`: the community's settings.
    Config,
    /// `/grant`: give coins (moderators).
    Grant,
    /// `/take`: take coins (moderators).
    Take,
    /// `/rules`: a game's rules.
    Rules,
    /// `/help`: this catalogue, as text.
    Help,
}

/// Who may use a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Anyone.
    Anyone,
    /// Only moderators (Manage Server on Discord, administrators on Telegram).
    Moderators,
    /// Anyone, but some uses need a moderator (changing `/config`, aborting others' games).
    Partly,
}

/// What kind of value an option holds; it decides how the value is typed and checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// One of the five games (case-insensitive: `konane`, `Coan-Ki`, `coanki`).
    Game,
    /// A person, mentioned: `@alice`, or Discord's `<@123>`.
    User,
    /// A whole number within bounds.
    Integer {
        /// The smallest allowed.
        min: i64,
        /// The largest allowed.
        max: i64,
    },
    /// A length of time: `3d`, `12h`, `90m`, `1d12h`; a bare number is days.
    Duration,
    /// A game's (or a challenge's) number, typed `#3`.
    GameNumber,
    /// A move, as free text: the rest of the line.
    Move,
    /// Game options, `key=value` words such as `size=10`.
    Options,
    /// Settings, `key=value` words such as `time=2d`.
    Settings,
    /// Free text, the rest of the line (a reason).
    Text,
    /// The name of one of the listed commands (`/help play`).
    Command,
}

/// How an option is written in a typed command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextForm {
    /// In its place among the words: `konane`, `50`, `#3`, `@bob`, or the rest of the line.
    /// Mentions, `#n` and `key=value` words are recognised wherever they stand.
    Positional,
    /// Anywhere, as `name=value`: `stake=50`, `time=3d`.
    Keyed,
    /// Anywhere, the bare word `name`, optionally followed by `key=value` for its number:
    /// `computer`, `computer level=3`.
    Word {
        /// The key of the number: `level`.
        key: &'static str,
        /// The number when only the word is given.
        default: i64,
    },
}

/// One option of a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionSpec {
    /// Its name: Discord's option name, and the key of a keyed option.
    pub name: &'static str,
    /// What it is for (at most 100 characters).
    pub description: &'static str,
    /// Whether the command needs it.
    pub required: bool,
    /// What it holds.
    pub kind: Kind,
    /// How it is typed.
    pub form: TextForm,
}

/// One command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommandSpec {
    /// What it does.
    pub id: CommandId,
    /// Its name, without `/`.
    pub name: &'static str,
    /// Other names shown in its help (`/balance` for `/wallet`).
    pub aliases: &'static [&'static str],
    /// Other names understood but never shown (`/start`, Telegram's greeting, for `/help`).
    pub hidden_aliases: &'static [&'static str],
    /// A short description for the platforms' command menus (at most 100 characters).
    pub description: &'static str,
    /// One or two sentences for `/help <command>`.
    pub summary: &'static str,
    /// An example of its use.
    pub example: &'static str,
    /// Who may use it.
    pub access: Access,
    /// Its options, required ones first (Discord's order; typed order is in [`usage`]).
    pub options: &'static [OptionSpec],
}

impl CommandSpec {
    /// The usage line, generated from the options: `/move [#game] <move>`.
    pub fn usage(&self) -> String {
        usage(self)
    }

    /// The option called `name`.
    pub fn option(&self, name: &str) -> Option<&'static OptionSpec> {
        self.options.iter().find(|o| o.name == name)
    }
}

const fn opt(
    name: &'static str,
    description: &'static str,
    required: bool,
    kind: Kind,
) -> OptionSpec {
    OptionSpec {
        name,
        description,
        required,
        kind,
        form: TextForm::Positional,
    }
}

const fn keyed(name: &'static str, description: &'static str, kind: Kind) -> OptionSpec {
    OptionSpec {
        name,
        description,
        required: false,
        kind,
        form: TextForm::Keyed,
    }
}

const GAME_OF_CHALLENGE: OptionSpec = opt(
    "challenge",
    "The challenge's number, when several are waiting",
    false,
    Kind::GameNumber,
);
const WHICH_GAME: OptionSpec = opt(
    "game",
    "The game's number, when several are being played here",
    false,
    Kind::GameNumber,
);

/// Every command, in the order of `/help`.
pub static COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        id: CommandId::Play,
        name: "play",
        aliases: &[],
        hidden_aliases: &[],
        description: "Challenge people (or anyone here) to a game",
        summary: "Name up to three people with @, or nobody for an open challenge anyone may \
                  accept, or `computer`. Options such as size=10 set up the game; stake=<coins> \
                  and time=<3d|12h> (time per move) set the terms.",
        example: "/play konane @bob size=10 stake=50 time=3d",
        access: Access::Anyone,
        options: &[
            opt("game", "The game to play", true, Kind::Game),
            opt(
                "opponent",
                "Who to challenge (none: an open challenge)",
                false,
                Kind::User,
            ),
            opt(
                "opponent2",
                "A second person to challenge (Pachisi)",
                false,
                Kind::User,
            ),
            opt(
                "opponent3",
                "A third person to challenge (Pachisi)",
                false,
                Kind::User,
            ),
            OptionSpec {
                name: "computer",
                description: "Play the computer, at this level (1-4)",
                required: false,
                kind: Kind::Integer { min: 1, max: 4 },
                form: TextForm::Word {
                    key: "level",
                    default: DEFAULT_COMPUTER_LEVEL,
                },
            },
            opt(
                "options",
                "Game options, e.g. size=10",
                false,
                Kind::Options,
            ),
            keyed(
                "stake",
                "Coins each player stakes (0: a friendly game)",
                Kind::Integer {
                    min: 0,
                    max: MAX_COINS,
                },
            ),
            keyed("time", "Time per move, e.g. 3d or 12h", Kind::Duration),
        ],
    },
    CommandSpec {
        id: CommandId::Accept,
        name: "accept",
        aliases: &[],
        hidden_aliases: &[],
        description: "Accept a challenge",
        summary: "Accepts the challenge waiting for you; name its number when several are.",
        example: "/accept #3",
        access: Access::Anyone,
        options: &[GAME_OF_CHALLENGE],
    },
    CommandSpec {
        id: CommandId::Decline,
        name: "decline",
        aliases: &[],
        hidden_aliases: &[],
        description: "Decline a challenge",
        summary: "Declines the challenge waiting for you; name its number when several are.",
        example: "/decline #3",
        access: Access::Anyone,
        options: &[GAME_OF_CHALLENGE],
    },
    CommandSpec {
        id: CommandId::Cancel,
        name: "cancel",
        aliases: &[],
        hidden_aliases: &[],
        description: "Withdraw your challenge",
        summary: "Withdraws a challenge you made that nobody has accepted yet.",
        example: "/cancel #3",
        access: Access::Anyone,
        options: &[GAME_OF_CHALLENGE],
    },
    CommandSpec {
        id: CommandId::Move,
        name: "move",
        aliases: &[],
        hidden_aliases: &[],
        description: "Make a move",
        summary: "Makes a move in your game, written as on the board (or press a button under \
                  the board). Name the game's number when you play several here.",
        example: "/move #2 d4-f4",
        access: Access::Anyone,
        options: &[
            OptionSpec {
                name: "move",
                description: "The move, e.g. d4-f4",
                required: true,
                kind: Kind::Move,
                form: TextForm::Positional,
            },
            WHICH_GAME,
        ],
    },
    CommandSpec {
        id: CommandId::Board,
        name: "board",
        aliases: &[],
        hidden_aliases: &[],
        description: "Show a game's board",
        summary: "Shows the board of a game here, with buttons for the player to move. Anyone \
                  may look.",
        example: "/board #2",
        access: Access::Anyone,
        options: &[WHICH_GAME],
    },
    CommandSpec {
        id: CommandId::Moves,
        name: "moves",
        aliases: &[],
        hidden_aliases: &[],
        description: "List the legal moves of a game",
        summary: "Lists every legal move of the player to move.",
        example: "/moves #2",
        access: Access::Anyone,
        options: &[WHICH_GAME],
    },
    CommandSpec {
        id: CommandId::History,
        name: "history",
        aliases: &[],
        hidden_aliases: &[],
        description: "List every move and roll of a game",
        summary: "Lists every action of a game so far, dice rolls included.",
        example: "/history #2",
        access: Access::Anyone,
        options: &[WHICH_GAME],
    },
    CommandSpec {
        id: CommandId::Resign,
        name: "resign",
        aliases: &[],
        hidden_aliases: &[],
        description: "Give up a game",
        summary: "Gives up your game: the other side wins, and takes the pot.",
        example: "/resign #2",
        access: Access::Anyone,
        options: &[WHICH_GAME],
    },
    CommandSpec {
        id: CommandId::Abort,
        name: "abort",
        aliases: &[],
        hidden_aliases: &[],
        description: "Call a game off without a result",
        summary: "Calls a game off and returns the stakes. Players may abort before the first \
                  move; moderators may abort any game.",
        example: "/abort #2 played by mistake",
        access: Access::Partly,
        options: &[
            WHICH_GAME,
            opt("reason", "Why, for the record", false, Kind::Text),
        ],
    },
    CommandSpec {
        id: CommandId::Claim,
        name: "claim",
        aliases: &[],
        hidden_aliases: &[],
        description: "Win a game whose opponent ran out of time",
        summary: "Claims the win when the player to move has run out of time. A move made \
                  before the claim still counts.",
        example: "/claim #2",
        access: Access::Anyone,
        options: &[WHICH_GAME],
    },
    CommandSpec {
        id: CommandId::Vacation,
        name: "vacation",
        aliases: &[],
        hidden_aliases: &[],
        description: "Stop your clocks for a few days",
        summary: "Stops your clocks for some days (a few per month). Without a number, shows \
                  the days you have left.",
        example: "/vacation 2",
        access: Access::Anyone,
        options: &[opt(
            "days",
            "How many days",
            false,
            Kind::Integer { min: 1, max: 31 },
        )],
    },
    CommandSpec {
        id: CommandId::Games,
        name: "games",
        aliases: &[],
        hidden_aliases: &[],
        description: "List the active games here",
        summary: "Lists the games being played in this chat, yours first.",
        example: "/games",
        access: Access::Anyone,
        options: &[],
    },
    CommandSpec {
        id: CommandId::Wallet,
        name: "wallet",
        aliases: &["balance"],
        hidden_aliases: &[],
        description: "Show your coins here",
        summary: "Shows your coins in this server or group, and what you have at stake.",
        example: "/wallet",
        access: Access::Anyone,
        options: &[],
    },
    CommandSpec {
        id: CommandId::Leaderboard,
        name: "leaderboard",
        aliases: &["top"],
        hidden_aliases: &[],
        description: "Show the richest players here",
        summary: "Lists the ten richest people of this server or group.",
        example: "/leaderboard",
        access: Access::Anyone,
        options: &[],
    },
    CommandSpec {
        id: CommandId::Config,
        name: "config",
        aliases: &["settings"],
        hidden_aliases: &[],
        description: "Show the settings here, or change them",
        summary: "Shows this server's or group's settings to anyone. Moderators change them \
                  with key=value pairs, all or none.",
        example: "/config time=2d max_stake=500",
        access: Access::Partly,
        options: &[opt(
            "settings",
            "Settings to change, e.g. time=2d max_stake=500",
            false,
            Kind::Settings,
        )],
    },
    CommandSpec {
        id: CommandId::Grant,
        name: "grant",
        aliases: &[],
        hidden_aliases: &[],
        description: "Give coins to someone",
        summary: "Adds coins to someone's wallet here.",
        example: "/grant @bob 100 tournament prize",
        access: Access::Moderators,
        options: &[
            opt("user", "Who gets the coins", true, Kind::User),
            opt(
                "coins",
                "How many coins",
                true,
                Kind::Integer {
                    min: 1,
                    max: MAX_COINS,
                },
            ),
            opt("reason", "Why, for the record", false, Kind::Text),
        ],
    },
    CommandSpec {
        id: CommandId::Take,
        name: "take",
        aliases: &[],
        hidden_aliases: &[],
        description: "Take coins from someone",
        summary: "Removes coins from someone's wallet here (at most what it holds).",
        example: "/take @bob 50 cheating",
        access: Access::Moderators,
        options: &[
            opt("user", "Whose coins", true, Kind::User),
            opt(
                "coins",
                "How many coins",
                true,
                Kind::Integer {
                    min: 1,
                    max: MAX_COINS,
                },
            ),
            opt("reason", "Why, for the record", false, Kind::Text),
        ],
    },
    CommandSpec {
        id: CommandId::Rules,
        name: "rules",
        aliases: &[],
        hidden_aliases: &[],
        description: "A short summary of a game's rules",
        summary: "Summarises the rules of a game and how its moves are written.",
        example: "/rules coan-ki",
        access: Access::Anyone,
        options: &[opt("game", "The game", true, Kind::Game)],
    },
    CommandSpec {
        id: CommandId::Help,
        name: "help",
        aliases: &[],
        hidden_aliases: &["start"],
        description: "The commands, or how to use one",
        summary: "Lists the commands; with a command's name, explains it.",
        example: "/help play",
        access: Access::Anyone,
        options: &[opt("command", "A command to explain", false, Kind::Command)],
    },
];

/// The command called `name` (lower case, without `/`), aliases included.
pub fn find(name: &str) -> Option<&'static CommandSpec> {
    COMMANDS.iter().find(|spec| {
        spec.name == name || spec.aliases.contains(&name) || spec.hidden_aliases.contains(&name)
    })
}

/// The command with this id.
pub fn spec(id: CommandId) -> &'static CommandSpec {
    // An exhaustive match: a new command fails to compile here until it has its place in
    // `COMMANDS` (and the test `every_id_has_its_spec` checks the places).
    let index = match id {
        CommandId::Play => 0,
        CommandId::Accept => 1,
        CommandId::Decline => 2,
        CommandId::Cancel => 3,
        CommandId::Move => 4,
        CommandId::Board => 5,
        CommandId::Moves => 6,
        CommandId::History => 7,
        CommandId::Resign => 8,
        CommandId::Abort => 9,
        CommandId::Claim => 10,
        CommandId::Vacation => 11,
        CommandId::Games => 12,
        CommandId::Wallet => 13,
        CommandId::Leaderboard => 14,
        CommandId::Config => 15,
        CommandId::Grant => 16,
        CommandId::Take => 17,
        CommandId::Rules => 18,
        CommandId::Help => 19,
    };
    &COMMANDS[index]
}

/// User input, shortened for an answer: at most [`QUOTE_CHARS`] characters, then `…`; control
/// characters (line breaks) become spaces.
pub fn quote(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i == QUOTE_CHARS {
            out.push('…');
            break;
        }
        out.push(if c.is_control() { ' ' } else { c });
    }
    out
}

// ---- Parsing ----

/// What a piece of chat text is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Parse {
    /// Not a command for this bot: ordinary text (no answer), or `/cmd@otherbot`.
    NotForUs,
    /// A command addressed to this bot that it does not know.
    Unknown {
        /// The name typed, lower case, quoted.
        name: String,
    },
    /// A command, read.
    Command(ParsedCommand),
    /// A known command whose arguments cannot be read.
    Invalid {
        /// The command.
        command: &'static CommandSpec,
        /// What is wrong.
        error: ParseError,
    },
}

/// A person named in a command, as typed; the service finds who it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MentionToken {
    /// `@alice`: a username (Telegram: 5–32 of `A-Za-z0-9_`; the local terminal: 1–32 of
    /// `A-Za-z0-9_.-`), without the `@`.
    Username(String),
    /// Discord's `<@123>` or `<@!123>`: the user's id.
    Id(String),
}

impl fmt::Display for MentionToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MentionToken::Username(name) => write!(f, "@{name}"),
            MentionToken::Id(id) => write!(f, "<@{id}>"),
        }
    }
}

/// A command read from text, with typed values. Absent options are `None` or empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedCommand {
    /// The command.
    pub spec: &'static CommandSpec,
    /// The game named (`/play`, `/rules`).
    pub game: Option<GameId>,
    /// The `#n` given: a game's number, or a challenge's for `/accept`, `/decline`, `/cancel`.
    pub game_number: Option<i64>,
    /// The people named, in order (`/play`: up to three; `/grant`, `/take`: one).
    pub mentions: Vec<MentionToken>,
    /// Whole numbers by option name: `stake`, `computer` (the level), `days`, `coins`.
    pub integers: Vec<(&'static str, i64)>,
    /// The time per move asked for (`time=3d`), in milliseconds.
    pub time_millis: Option<i64>,
    /// Game options (`size=10`), keys in lower case, in the order typed.
    pub options: Vec<(String, String)>,
    /// Settings for `/config` (`time=2d`), keys in lower case, in the order typed.
    pub settings: Vec<(String, String)>,
    /// The move (`/move`) or the reason (`/abort`, `/grant`, `/take`), as typed.
    pub text: Option<String>,
    /// The command asked about (`/help play`).
    pub topic: Option<&'static CommandSpec>,
}

impl ParsedCommand {
    fn new(spec: &'static CommandSpec) -> Self {
        ParsedCommand {
            spec,
            game: None,
            game_number: None,
            mentions: Vec::new(),
            integers: Vec::new(),
            time_millis: None,
            options: Vec::new(),
            settings: Vec::new(),
            text: None,
            topic: None,
        }
    }

    /// The command.
    pub fn id(&self) -> CommandId {
        self.spec.id
    }

    /// The whole number given for option `name`.
    pub fn integer(&self, name: &str) -> Option<i64> {
        self.integers
            .iter()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| *value)
    }
}

/// Why a command's arguments cannot be read. Fields holding user input are already quoted
/// ([`quote`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// A required option is missing: `/rules`, `/move #2`, `/grant @bob`.
    #[error("`{option}` is missing")]
    Missing {
        /// The option's name.
        option: &'static str,
    },
    /// A game name that is none of the five: `/play chess`.
    #[error("there is no game `{value}`; the games are konane, koan, kolowis, coan-ki and pachisi")]
    UnknownGame {
        /// What was typed.
        value: String,
    },
    /// The same option given twice: `stake=50 stake=60`, `size=8 size=10`, `#2 #3`,
    /// `computer computer`, or the same person named twice.
    #[error("`{option}` is given more than once")]
    Repeated {
        /// The option (or game option, or setting) repeated.
        option: String,
    },
    /// A mention that is neither `@name` (1–32 of `A-Za-z0-9_.-`) nor `<@id>`: `@@bob`, `@`,
    /// `<@abc>`.
    #[error("`{value}` is not a mention; name people as @name")]
    BadMention {
        /// What was typed.
        value: String,
    },
    /// More people named than the command takes.
    #[error("name at most {max} people")]
    TooManyUsers {
        /// How many it takes.
        max: usize,
    },
    /// A number that is not a whole number: `stake=lots`, `/vacation two`.
    #[error("`{option}` must be a whole number, not `{value}`")]
    NotANumber {
        /// The option.
        option: &'static str,
        /// What was typed.
        value: String,
    },
    /// A whole number out of the option's bounds: `/vacation 40`, `computer level=9`.
    #[error("`{option}` must be from {min} to {max}, not {value}")]
    OutOfRange {
        /// The option.
        option: &'static str,
        /// The smallest allowed.
        min: i64,
        /// The largest allowed.
        max: i64,
        /// What was typed.
        value: String,
    },
    /// A length of time that cannot be read, or is shorter than an hour or longer than 365
    /// days: `time=soon`, `time=10m`.
    #[error("`{option}` must be a time from 1 hour to 365 days, e.g. 3d or 12h, not `{value}`")]
    BadDuration {
        /// The option.
        option: &'static str,
        /// What was typed.
        value: String,
    },
    /// A game number that is not `#` and a positive whole number: `#x`, `#0`, `#`.
    #[error("`{value}` is not a game number; write it like #3")]
    BadGameNumber {
        /// What was typed.
        value: String,
    },
    /// A word that should be `key=value`: `/config time`, `=5`, `size=`.
    #[error("write {option} as key=value, not `{value}`")]
    NotKeyValue {
        /// The option (`options`, `settings`).
        option: &'static str,
        /// What was typed.
        value: String,
    },
    /// Too many game options or settings at once.
    #[error("at most {max} {option} at once")]
    TooManyValues {
        /// The option (`options`, `settings`).
        option: &'static str,
        /// How many are allowed.
        max: usize,
    },
    /// A move or a reason longer than allowed.
    #[error("`{option}` is too long: at most {max} characters")]
    TooLong {
        /// The option.
        option: &'static str,
        /// The most characters.
        max: usize,
    },
    /// `/help` about a command that does not exist.
    #[error("there is no command `/{value}`")]
    UnknownTopic {
        /// What was typed.
        value: String,
    },
    /// A word the command does not take: `/wallet now`, `/play konane bob`.
    #[error("`{value}` is not understood here")]
    Unexpected {
        /// What was typed.
        value: String,
    },
}

/// Reads chat text. `bot_username` is the bot's own username where commands may be addressed
/// (`/help@TabulaBot` in a Telegram group, compared without regard to case); with `None`, any
/// `@suffix` is taken as addressed to this bot.
///
/// Text that does not start with `/`, or whose command name is not made of ASCII letters,
/// digits and `_` (`/usr/bin`, `/ hi`), is [`Parse::NotForUs`]: ordinary chat gets no answer.
pub fn parse(text: &str, bot_username: Option<&str>) -> Parse {
    let text = text.trim_start();
    let Some(rest) = text.strip_prefix('/') else {
        return Parse::NotForUs;
    };
    let head_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let (head, args) = rest.split_at(head_end);
    let (name, addressee) = match head.split_once('@') {
        Some((name, to)) => (name, Some(to)),
        None => (head, None),
    };
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Parse::NotForUs;
    }
    if let (Some(to), Some(ours)) = (addressee, bot_username)
        && !to.eq_ignore_ascii_case(ours.trim_start_matches('@'))
    {
        return Parse::NotForUs;
    }
    let name = name.to_ascii_lowercase();
    let Some(spec) = find(&name) else {
        return Parse::Unknown { name: quote(&name) };
    };
    if spec.hidden_aliases.contains(&name.as_str()) {
        // `/start <payload>`: Telegram's deep links carry a payload that is not a topic.
        return Parse::Command(ParsedCommand::new(spec));
    }
    match parse_args(spec, args) {
        Ok(command) => Parse::Command(command),
        Err(error) => Parse::Invalid {
            command: spec,
            error,
        },
    }
}

/// The words of `args` with their byte offsets.
fn words(args: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in args.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, &args[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &args[s..]));
    }
    out
}

fn parse_args(spec: &'static CommandSpec, args: &str) -> Result<ParsedCommand, ParseError> {
    let mut parsed = ParsedCommand::new(spec);
    let words = words(args);
    let users = spec.options.iter().filter(|o| o.kind == Kind::User).count();
    let game_number = spec.options.iter().find(|o| o.kind == Kind::GameNumber);
    let word_option = spec.options.iter().find_map(|o| match o.form {
        TextForm::Word { key, default } => Some((o, key, default)),
        _ => None,
    });
    let required_users = spec
        .options
        .iter()
        .filter(|o| o.kind == Kind::User && o.required)
        .count();
    let pairs = spec
        .options
        .iter()
        .find(|o| matches!(o.kind, Kind::Options | Kind::Settings));
    // The options typed in their place, in order: not mentions, not `#n`, not keyed.
    let mut positional = spec
        .options
        .iter()
        .filter(|o| {
            o.form == TextForm::Positional
                && !matches!(
                    o.kind,
                    Kind::User | Kind::GameNumber | Kind::Options | Kind::Settings
                )
        })
        .peekable();
    let mut seen: Vec<&'static str> = Vec::new();
    let mut word_seen = false;
    for (index, &(offset, word)) in words.iter().enumerate() {
        if let Some(option) = game_number {
            if index == 0 && word.starts_with('#') {
                parsed.game_number = Some(parse_game_number(word)?);
                seen.push(option.name);
                continue;
            }
            if word.starts_with('#') && seen.contains(&option.name) && positional.peek().is_none() {
                return Err(ParseError::Repeated {
                    option: option.name.to_string(),
                });
            }
        }
        if let Some(option) = positional.peek()
            && matches!(option.kind, Kind::Move | Kind::Text)
        {
            let rest = args[offset..].trim_end();
            let max = if option.kind == Kind::Move {
                MAX_MOVE_CHARS
            } else {
                MAX_TEXT_CHARS
            };
            if rest.chars().count() > max {
                return Err(ParseError::TooLong {
                    option: option.name,
                    max,
                });
            }
            parsed.text = Some(rest.to_string());
            seen.push(option.name);
            positional.next();
            break;
        }
        if users > 0 && (word.starts_with('@') || word.starts_with("<@")) {
            let token = parse_mention(word)?;
            if parsed.mentions.contains(&token) {
                return Err(ParseError::Repeated {
                    option: quote(word),
                });
            }
            if parsed.mentions.len() == users {
                return Err(ParseError::TooManyUsers { max: users });
            }
            parsed.mentions.push(token);
            continue;
        }
        if let Some((option, key, default)) = word_option {
            if word.eq_ignore_ascii_case(option.name) {
                if word_seen {
                    return Err(ParseError::Repeated {
                        option: option.name.to_string(),
                    });
                }
                word_seen = true;
                parsed.integers.push((option.name, default));
                continue;
            }
            if let Some((k, value)) = word.split_once('=')
                && k.eq_ignore_ascii_case(key)
            {
                if !word_seen {
                    return Err(ParseError::Unexpected { value: quote(word) });
                }
                if seen.contains(&key) {
                    return Err(ParseError::Repeated {
                        option: key.to_string(),
                    });
                }
                seen.push(key);
                let level = parse_integer(option, value)?;
                for entry in &mut parsed.integers {
                    if entry.0 == option.name {
                        entry.1 = level;
                    }
                }
                continue;
            }
        }
        if let Some((key, value)) = word.split_once('=')
            && let Some(option) = spec
                .options
                .iter()
                .find(|o| o.form == TextForm::Keyed && key.eq_ignore_ascii_case(o.name))
        {
            if seen.contains(&option.name) {
                return Err(ParseError::Repeated {
                    option: option.name.to_string(),
                });
            }
            seen.push(option.name);
            set_value(&mut parsed, option, value)?;
            continue;
        }
        if parsed.mentions.len() < required_users {
            // `/grant bob 50`: the person comes first.
            return Err(ParseError::BadMention { value: quote(word) });
        }
        if let Some(option) = positional.next() {
            set_value(&mut parsed, option, word)?;
            seen.push(option.name);
            continue;
        }
        if let Some(option) = pairs {
            let list = if option.kind == Kind::Options {
                &mut parsed.options
            } else {
                &mut parsed.settings
            };
            let max = if option.kind == Kind::Options {
                MAX_GAME_OPTIONS
            } else {
                MAX_SETTINGS
            };
            let Some((key, value)) = word.split_once('=') else {
                if option.kind == Kind::Options {
                    return Err(ParseError::Unexpected { value: quote(word) });
                }
                return Err(ParseError::NotKeyValue {
                    option: option.name,
                    value: quote(word),
                });
            };
            if key.is_empty() || value.is_empty() {
                return Err(ParseError::NotKeyValue {
                    option: option.name,
                    value: quote(word),
                });
            }
            let key = key.to_lowercase();
            if list.iter().any(|(k, _)| *k == key) {
                return Err(ParseError::Repeated {
                    option: quote(&key),
                });
            }
            if list.len() == max {
                return Err(ParseError::TooManyValues {
                    option: option.name,
                    max,
                });
            }
            list.push((key, value.to_string()));
            continue;
        }
        return Err(ParseError::Unexpected { value: quote(word) });
    }
    if let Some(missing) = spec
        .options
        .iter()
        .find(|o| o.required && !is_given(&parsed, o))
    {
        return Err(ParseError::Missing {
            option: missing.name,
        });
    }
    Ok(parsed)
}

/// Whether a required option was given (mentions count in the order of the user options).
fn is_given(parsed: &ParsedCommand, option: &OptionSpec) -> bool {
    match option.kind {
        Kind::Game => parsed.game.is_some(),
        Kind::User => {
            let place = parsed
                .spec
                .options
                .iter()
                .filter(|o| o.kind == Kind::User)
                .position(|o| o.name == option.name)
                .unwrap_or(0);
            parsed.mentions.len() > place
        }
        Kind::Integer { .. } => parsed.integer(option.name).is_some(),
        Kind::Duration => parsed.time_millis.is_some(),
        Kind::GameNumber => parsed.game_number.is_some(),
        Kind::Move | Kind::Text => parsed.text.is_some(),
        Kind::Options => !parsed.options.is_empty(),
        Kind::Settings => !parsed.settings.is_empty(),
        Kind::Command => parsed.topic.is_some(),
    }
}

/// Reads one word into the option's place in `parsed`.
fn set_value(
    parsed: &mut ParsedCommand,
    option: &'static OptionSpec,
    word: &str,
) -> Result<(), ParseError> {
    match option.kind {
        Kind::Game => parsed.game = Some(parse_game(word)?),
        Kind::Integer { .. } => {
            let value = parse_integer(option, word)?;
            parsed.integers.push((option.name, value));
        }
        Kind::Duration => {
            parsed.time_millis = Some(
                parse_duration(word)
                    .filter(|millis| (MIN_TIME_MILLIS..=MAX_TIME_MILLIS).contains(millis))
                    .ok_or_else(|| ParseError::BadDuration {
                        option: option.name,
                        value: quote(word),
                    })?,
            );
        }
        Kind::Command => {
            let name = word.strip_prefix('/').unwrap_or(word).to_ascii_lowercase();
            parsed.topic = Some(find(&name).ok_or(ParseError::UnknownTopic {
                value: quote(&name),
            })?);
        }
        Kind::GameNumber => parsed.game_number = Some(parse_game_number(word)?),
        Kind::User => parsed.mentions.push(parse_mention(word)?),
        Kind::Move | Kind::Text => parsed.text = Some(word.to_string()),
        Kind::Options => return Err(ParseError::Unexpected { value: quote(word) }),
        Kind::Settings => return Err(ParseError::Unexpected { value: quote(word) }),
    }
    Ok(())
}

/// A game by its name, in any case: `konane`, `Coan-Ki`, `coan_ki`, `coanki`,
/// `kolowis-awithlaknannai`.
///
/// # Errors
///
/// [`ParseError::UnknownGame`] when it is none of the five.
pub fn parse_game(name: &str) -> Result<GameId, ParseError> {
    let wanted = name.to_lowercase().replace([' ', '_'], "-");
    GameId::ALL
        .iter()
        .copied()
        .find(|id| {
            id.as_str() == wanted
                || id.name().to_lowercase().replace(' ', "-") == wanted
                || id.as_str().replace('-', "") == wanted
        })
        .ok_or_else(|| ParseError::UnknownGame { value: quote(name) })
}

fn parse_game_number(word: &str) -> Result<i64, ParseError> {
    word.strip_prefix('#')
        .filter(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|digits| digits.parse::<i64>().ok())
        .filter(|n| *n > 0)
        .ok_or_else(|| ParseError::BadGameNumber { value: quote(word) })
}

fn parse_integer(option: &'static OptionSpec, text: &str) -> Result<i64, ParseError> {
    let Kind::Integer { min, max } = option.kind else {
        return Err(ParseError::Unexpected { value: quote(text) });
    };
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseError::NotANumber {
            option: option.name,
            value: quote(text),
        });
    }
    text.parse::<i64>()
        .ok()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| ParseError::OutOfRange {
            option: option.name,
            min,
            max,
            value: quote(text),
        })
}

/// A mention as typed: `@name` (1–32 of `A-Za-z0-9_.-`), `<@123>` or `<@!123>`.
///
/// # Errors
///
/// [`ParseError::BadMention`] for anything else (`@@bob`, `@`, `<@abc>`, `<@&123>`).
pub fn parse_mention(word: &str) -> Result<MentionToken, ParseError> {
    let bad = || ParseError::BadMention { value: quote(word) };
    if let Some(inner) = word.strip_prefix("<@").and_then(|w| w.strip_suffix('>')) {
        let id = inner.strip_prefix('!').unwrap_or(inner);
        if (1..=20).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_digit()) {
            return Ok(MentionToken::Id(id.to_string()));
        }
        return Err(bad());
    }
    let name = word.strip_prefix('@').ok_or_else(bad)?;
    if (1..=32).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
    {
        return Ok(MentionToken::Username(name.to_string()));
    }
    Err(bad())
}

/// A length of time as typed: a number and a unit, `d`, `h` or `m`, several in a row
/// (`1d12h`); a bare number is days. `None` when it cannot be read or is not positive. The
/// service's own reader, so that the catalogue and the service never disagree.
pub fn parse_duration(text: &str) -> Option<i64> {
    crate::service::parse_duration(text)
}

// ---- Help ----

/// How an option is typed, for the usage line.
fn placeholder(option: &OptionSpec) -> String {
    let inner = match (option.form, option.kind) {
        (TextForm::Word { key, .. }, Kind::Integer { min, max }) => {
            format!("{} [{key}=<{min}-{max}>]", option.name)
        }
        (TextForm::Word { key, .. }, _) => format!("{} [{key}=<n>]", option.name),
        (TextForm::Keyed, Kind::Duration) => format!("{}=<3d|12h>", option.name),
        (TextForm::Keyed, Kind::Integer { .. }) => format!("{}=<coins>", option.name),
        (TextForm::Keyed, _) => format!("{}=<value>", option.name),
        (TextForm::Positional, Kind::GameNumber) => format!("#{}", option.name),
        (TextForm::Positional, Kind::User) => "@user".to_string(),
        (TextForm::Positional, Kind::Options) => "option=value …".to_string(),
        (TextForm::Positional, Kind::Settings) => "key=value …".to_string(),
        (TextForm::Positional, Kind::Text) => format!("{}…", option.name),
        (TextForm::Positional, _) => option.name.to_string(),
    };
    let angled = matches!(
        (option.form, option.kind),
        (
            TextForm::Positional,
            Kind::Game | Kind::Move | Kind::Integer { .. }
        )
    );
    match (option.required, angled) {
        (true, true) => format!("<{inner}>"),
        (true, false) => inner,
        (false, _) => format!("[{inner}]"),
    }
}

/// The usage line of a command, in typed order: `#n` first, several people as one `@user …`.
fn usage(spec: &CommandSpec) -> String {
    let mut parts = vec![format!("/{}", spec.name)];
    let ordered = spec
        .options
        .iter()
        .filter(|o| o.kind == Kind::GameNumber)
        .chain(spec.options.iter().filter(|o| o.kind != Kind::GameNumber));
    let users = spec.options.iter().filter(|o| o.kind == Kind::User).count();
    let mut users_shown = false;
    for option in ordered {
        if option.kind == Kind::User && users > 1 {
            if !users_shown {
                parts.push("[@user …]".to_string());
                users_shown = true;
            }
            continue;
        }
        parts.push(placeholder(option));
    }
    parts.join(" ")
}

fn access_note(access: Access) -> &'static str {
    match access {
        Access::Anyone => "",
        Access::Moderators => " (moderators)",
        Access::Partly => " (some uses: moderators)",
    }
}

/// The answer to `/help`: one line per command (moderators' commands last, each marked), the
/// games, and how to learn more. It fits one Discord message.
pub fn help() -> String {
    let mut lines = vec!["Tabula: traditional board games. Commands:".to_string()];
    let line = |spec: &CommandSpec| {
        let aliases: String = spec.aliases.iter().map(|a| format!(", /{a}")).collect();
        format!(
            "/{}{aliases}: {}{}",
            spec.name,
            lowercase_first(spec.description),
            access_note(spec.access)
        )
    };
    lines.extend(
        COMMANDS
            .iter()
            .filter(|s| s.access != Access::Moderators)
            .map(line),
    );
    lines.extend(
        COMMANDS
            .iter()
            .filter(|s| s.access == Access::Moderators)
            .map(line),
    );
    let games: Vec<&str> = GameId::ALL.iter().map(|g| g.as_str()).collect();
    lines.push(format!(
        "Games: {}. Dice are rolled for you. /help <command> explains one, e.g. /help play.",
        games.join(", ")
    ));
    lines.join("\n")
}

/// The answer to `/help <name>`: usage line, what it does, an example; `None` for no such
/// command. Aliases are understood (`balance`), with or without `/`.
pub fn help_for(name: &str) -> Option<String> {
    let name = name.trim().trim_start_matches('/').to_ascii_lowercase();
    let spec = find(&name)?;
    let mut text = format!("{}\n{}", spec.usage(), spec.summary);
    match spec.access {
        Access::Anyone => {}
        Access::Moderators => text.push_str("\nFor moderators only."),
        Access::Partly => text.push_str("\nSome uses are for moderators only."),
    }
    if !spec.aliases.is_empty() {
        let aliases: Vec<String> = spec.aliases.iter().map(|a| format!("/{a}")).collect();
        text.push_str(&format!("\nAlso: {}.", aliases.join(", ")));
    }
    text.push_str(&format!("\nExample: {}", spec.example));
    Some(text)
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

// ---- Platforms ----

/// Discord's option types.
const STRING: u8 = 3;
const INTEGER: u8 = 4;
const USER: u8 = 6;

fn discord_option(option: &OptionSpec) -> Value {
    let mut object = json!({
        "name": option.name,
        "description": option.description,
        "required": option.required,
    });
    let extra = match option.kind {
        Kind::Game => json!({
            "type": STRING,
            "choices": GameId::ALL
                .iter()
                .map(|g| json!({"name": g.name(), "value": g.as_str()}))
                .collect::<Vec<_>>(),
        }),
        Kind::User => json!({"type": USER}),
        Kind::Integer { min, max } => json!({"type": INTEGER, "min_value": min, "max_value": max}),
        Kind::GameNumber => json!({"type": INTEGER, "min_value": 1}),
        Kind::Duration => json!({"type": STRING, "max_length": 16}),
        Kind::Move => json!({"type": STRING, "autocomplete": true, "max_length": MAX_MOVE_CHARS}),
        Kind::Text => json!({"type": STRING, "max_length": MAX_TEXT_CHARS}),
        Kind::Options | Kind::Settings => json!({"type": STRING, "max_length": 200}),
        Kind::Command => json!({
            "type": STRING,
            "choices": COMMANDS
                .iter()
                .map(|c| json!({"name": c.name, "value": c.name}))
                .collect::<Vec<_>>(),
        }),
    };
    if let (Value::Object(object), Value::Object(extra)) = (&mut object, extra) {
        object.extend(extra);
    }
    object
}

/// Discord's application commands, for the bulk overwrite of
/// `PUT /applications/{application_id}/commands`: an array of CHAT_INPUT (type 1) commands.
/// Aliases are not registered. Wholly moderators' commands carry
/// `default_member_permissions: "32"` (MANAGE_GUILD), as Discord's documentation writes
/// permissions (a string); commands that are only partly for moderators are open to all and
/// checked by the service.
pub fn discord_commands() -> Value {
    Value::Array(
        COMMANDS
            .iter()
            .map(|spec| {
                let mut command = json!({
                    "type": 1,
                    "name": spec.name,
                    "description": spec.description,
                    "options": spec.options.iter().map(discord_option).collect::<Vec<_>>(),
                });
                if spec.access == Access::Moderators {
                    command["default_member_permissions"] = json!(MANAGE_GUILD.to_string());
                }
                command
            })
            .collect(),
    )
}

/// Telegram's `setMyCommands` list: `(command, description)` for every command, aliases not
/// included.
pub fn telegram_commands() -> Vec<(String, String)> {
    COMMANDS
        .iter()
        .map(|spec| (spec.name.to_string(), spec.description.to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_keeps_short_text_and_cuts_long_text() {
        assert_eq!(quote("size=10"), "size=10");
        let long = "x".repeat(100);
        let quoted = quote(&long);
        assert_eq!(quoted.chars().count(), QUOTE_CHARS + 1);
        assert!(quoted.ends_with('…'));
        assert_eq!(quote("a\nb"), "a b");
        assert_eq!(quote(&"é".repeat(40)), "é".repeat(40));
    }

    #[test]
    fn words_keep_offsets() {
        let args = "  #2  d4-f4 x";
        let found = words(args);
        assert_eq!(found, vec![(2, "#2"), (6, "d4-f4"), (12, "x")]);
    }

    #[test]
    fn durations_read_like_the_service() {
        assert_eq!(parse_duration("3d"), Some(3 * DAY_MILLIS));
        assert_eq!(parse_duration("12H"), Some(12 * HOUR_MILLIS));
        assert_eq!(parse_duration("1d12h"), Some(36 * HOUR_MILLIS));
        assert_eq!(parse_duration("2"), Some(2 * DAY_MILLIS));
        assert_eq!(parse_duration("0"), None);
        assert_eq!(parse_duration("d"), None);
        assert_eq!(parse_duration("3x"), None);
        assert_eq!(parse_duration("99999999999999999999d"), None);
    }

    #[test]
    fn usage_lines_follow_typed_order() {
        assert_eq!(spec(CommandId::Move).usage(), "/move [#game] <move>");
        assert_eq!(
            spec(CommandId::Play).usage(),
            "/play <game> [@user …] [computer [level=<1-4>]] [option=value …] \
             [stake=<coins>] [time=<3d|12h>]"
        );
        assert_eq!(
            spec(CommandId::Grant).usage(),
            "/grant @user <coins> [reason…]"
        );
        assert_eq!(spec(CommandId::Accept).usage(), "/accept [#challenge]");
    }

    #[test]
    fn every_id_has_its_spec() {
        for (index, command) in COMMANDS.iter().enumerate() {
            assert_eq!(spec(command.id).name, command.name);
            assert!(COMMANDS[..index].iter().all(|c| c.id != command.id));
        }
    }

    #[test]
    fn game_names_in_any_form() {
        for (typed, id) in [
            ("KONANE", GameId::Konane),
            ("coanki", GameId::CoanKi),
            ("Coan_Ki", GameId::CoanKi),
            ("kolowis-awithlaknannai", GameId::Kolowis),
            ("Pachisi", GameId::Pachisi),
        ] {
            assert_eq!(parse_game(typed), Ok(id), "{typed}");
        }
    }
}
