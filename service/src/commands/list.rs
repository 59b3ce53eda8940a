//! The commands as data: every command with its name, aliases, description, help, access and
//! typed options ([`COMMANDS`]), and the bounds the parser checks.

use super::help::usage;
use crate::l10n::Lang;

/// The computer's level when `/play … computer` names none.
pub const DEFAULT_COMPUTER_LEVEL: i64 = 2;

/// The most coins a stake, grant or take may name (the community may allow less).
pub const MAX_COINS: i64 = 1_000_000_000;

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
    /// `/export`: a game's record as a file.
    Export,
    /// `/replay`: a game as an animation.
    Replay,
    /// `/resign`: give a game up.
    Resign,
    /// `/draw`: offer a draw, or accept the opponent's.
    Draw,
    /// `/takeback`: ask the opponent to undo one's last move.
    Takeback,
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
    /// `/language`: the language the bot speaks to the person.
    Language,
    /// `/notify`: how the person is reminded that it is their move.
    Notify,
    /// `/mygames`: the person's games in every chat.
    MyGames,
    /// `/link`: join one's identities on both platforms.
    Link,
    /// `/unlink`: part them.
    Unlink,
    /// `/rating`: a person's Glicko-2 ratings here.
    Rating,
    /// `/stats`: a person's results here, and a head-to-head.
    Stats,
    /// `/resetrating`: start a person's rating in a game again (moderators).
    ResetRating,
    /// `/season`: a round-robin season's standings, or a new one (moderators).
    Season,
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
    /// Yes or no: `yes`, `no` (also `on`/`off`, `true`/`false`), read as 1 or 0 among the
    /// whole numbers (`rated=no`).
    Switch,
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
    /// The message id of what it is for (at most 100 characters in every language):
    /// `cmd-<command>-<option>`, or `opt-…` for an option several commands share.
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
    /// The message id of a short description for the platforms' command menus (at most 100
    /// characters in every language): `cmd-<name>`.
    pub description: &'static str,
    /// The message id of one or two sentences for `/help <command>`: `cmd-<name>-about`.
    pub summary: &'static str,
    /// An example of its use.
    pub example: &'static str,
    /// Who may use it.
    pub access: Access,
    /// Its options, required ones first (Discord's order; typed order is in [`usage`]).
    pub options: &'static [OptionSpec],
}

impl CommandSpec {
    /// The usage line in `lang`, generated from the options: `/move [#game] <move>`.
    pub fn usage(&self, lang: Lang) -> String {
        usage(self, lang)
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

const GAME_OF_CHALLENGE: OptionSpec = opt("challenge", "opt-challenge", false, Kind::GameNumber);
const WHICH_GAME: OptionSpec = opt("game", "opt-game-number", false, Kind::GameNumber);

/// Every command, in the order of `/help`.
pub static COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        id: CommandId::Play,
        name: "play",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-play",
        summary: "cmd-play-about",
        example: "/play konane @bob size=10 stake=50 time=3d",
        access: Access::Anyone,
        options: &[
            opt("game", "cmd-play-game", true, Kind::Game),
            opt("opponent", "cmd-play-opponent", false, Kind::User),
            opt("opponent2", "cmd-play-opponent2", false, Kind::User),
            opt("opponent3", "cmd-play-opponent3", false, Kind::User),
            OptionSpec {
                name: "computer",
                description: "cmd-play-computer",
                required: false,
                kind: Kind::Integer { min: 1, max: 4 },
                form: TextForm::Word {
                    key: "level",
                    default: DEFAULT_COMPUTER_LEVEL,
                },
            },
            opt("options", "cmd-play-options", false, Kind::Options),
            keyed(
                "stake",
                "cmd-play-stake",
                Kind::Integer {
                    min: 0,
                    max: MAX_COINS,
                },
            ),
            keyed("time", "cmd-play-time", Kind::Duration),
            keyed("rated", "cmd-play-rated", Kind::Switch),
        ],
    },
    CommandSpec {
        id: CommandId::Accept,
        name: "accept",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-accept",
        summary: "cmd-accept-about",
        example: "/accept #3",
        access: Access::Anyone,
        options: &[GAME_OF_CHALLENGE],
    },
    CommandSpec {
        id: CommandId::Decline,
        name: "decline",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-decline",
        summary: "cmd-decline-about",
        example: "/decline #3",
        access: Access::Anyone,
        options: &[GAME_OF_CHALLENGE],
    },
    CommandSpec {
        id: CommandId::Cancel,
        name: "cancel",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-cancel",
        summary: "cmd-cancel-about",
        example: "/cancel #3",
        access: Access::Anyone,
        options: &[GAME_OF_CHALLENGE],
    },
    CommandSpec {
        id: CommandId::Move,
        name: "move",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-move",
        summary: "cmd-move-about",
        example: "/move #2 d4-f4",
        access: Access::Anyone,
        options: &[
            OptionSpec {
                name: "move",
                description: "cmd-move-move",
                // Without it, the legal moves and the board with a button for each.
                required: false,
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
        description: "cmd-board",
        summary: "cmd-board-about",
        example: "/board #2",
        access: Access::Anyone,
        options: &[WHICH_GAME],
    },
    CommandSpec {
        id: CommandId::Moves,
        name: "moves",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-moves",
        summary: "cmd-moves-about",
        example: "/moves #2",
        access: Access::Anyone,
        options: &[WHICH_GAME],
    },
    CommandSpec {
        id: CommandId::History,
        name: "history",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-history",
        summary: "cmd-history-about",
        example: "/history #2",
        access: Access::Anyone,
        options: &[WHICH_GAME],
    },
    CommandSpec {
        id: CommandId::Export,
        name: "export",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-export",
        summary: "cmd-export-about",
        example: "/export #2",
        access: Access::Anyone,
        options: &[WHICH_GAME],
    },
    CommandSpec {
        id: CommandId::Replay,
        name: "replay",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-replay",
        summary: "cmd-replay-about",
        example: "/replay #2",
        access: Access::Anyone,
        options: &[WHICH_GAME],
    },
    CommandSpec {
        id: CommandId::Resign,
        name: "resign",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-resign",
        summary: "cmd-resign-about",
        example: "/resign #2",
        access: Access::Anyone,
        options: &[WHICH_GAME],
    },
    CommandSpec {
        id: CommandId::Draw,
        name: "draw",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-draw",
        summary: "cmd-draw-about",
        example: "/draw #2",
        access: Access::Anyone,
        options: &[WHICH_GAME],
    },
    CommandSpec {
        id: CommandId::Takeback,
        name: "takeback",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-takeback",
        summary: "cmd-takeback-about",
        example: "/takeback #2",
        access: Access::Anyone,
        options: &[WHICH_GAME],
    },
    CommandSpec {
        id: CommandId::Abort,
        name: "abort",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-abort",
        summary: "cmd-abort-about",
        example: "/abort #2 played by mistake",
        access: Access::Partly,
        options: &[
            WHICH_GAME,
            opt("reason", "cmd-abort-reason", false, Kind::Text),
        ],
    },
    CommandSpec {
        id: CommandId::Claim,
        name: "claim",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-claim",
        summary: "cmd-claim-about",
        example: "/claim #2",
        access: Access::Anyone,
        options: &[WHICH_GAME],
    },
    CommandSpec {
        id: CommandId::Vacation,
        name: "vacation",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-vacation",
        summary: "cmd-vacation-about",
        example: "/vacation 2",
        access: Access::Anyone,
        options: &[opt(
            "days",
            "cmd-vacation-days",
            false,
            Kind::Integer { min: 1, max: 31 },
        )],
    },
    CommandSpec {
        id: CommandId::Games,
        name: "games",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-games",
        summary: "cmd-games-about",
        example: "/games",
        access: Access::Anyone,
        options: &[],
    },
    CommandSpec {
        id: CommandId::Wallet,
        name: "wallet",
        aliases: &["balance"],
        hidden_aliases: &[],
        description: "cmd-wallet",
        summary: "cmd-wallet-about",
        example: "/wallet",
        access: Access::Anyone,
        options: &[],
    },
    CommandSpec {
        id: CommandId::Leaderboard,
        name: "leaderboard",
        aliases: &["top"],
        hidden_aliases: &[],
        description: "cmd-leaderboard",
        summary: "cmd-leaderboard-about",
        example: "/leaderboard konane",
        access: Access::Anyone,
        options: &[opt("game", "cmd-leaderboard-game", false, Kind::Game)],
    },
    CommandSpec {
        id: CommandId::Config,
        name: "config",
        aliases: &["settings"],
        hidden_aliases: &[],
        description: "cmd-config",
        summary: "cmd-config-about",
        example: "/config time=2d max_stake=500",
        access: Access::Partly,
        options: &[opt(
            "settings",
            "cmd-config-settings",
            false,
            Kind::Settings,
        )],
    },
    CommandSpec {
        id: CommandId::Grant,
        name: "grant",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-grant",
        summary: "cmd-grant-about",
        example: "/grant @bob 100 tournament prize",
        access: Access::Moderators,
        options: &[
            opt("user", "cmd-grant-user", true, Kind::User),
            opt(
                "coins",
                "cmd-grant-coins",
                true,
                Kind::Integer {
                    min: 1,
                    max: MAX_COINS,
                },
            ),
            opt("reason", "cmd-grant-reason", false, Kind::Text),
        ],
    },
    CommandSpec {
        id: CommandId::Take,
        name: "take",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-take",
        summary: "cmd-take-about",
        example: "/take @bob 50 cheating",
        access: Access::Moderators,
        options: &[
            opt("user", "cmd-take-user", true, Kind::User),
            opt(
                "coins",
                "cmd-take-coins",
                true,
                Kind::Integer {
                    min: 1,
                    max: MAX_COINS,
                },
            ),
            opt("reason", "cmd-take-reason", false, Kind::Text),
        ],
    },
    CommandSpec {
        id: CommandId::Rules,
        name: "rules",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-rules",
        summary: "cmd-rules-about",
        example: "/rules coan-ki",
        access: Access::Anyone,
        options: &[opt("game", "cmd-rules-game", true, Kind::Game)],
    },
    CommandSpec {
        id: CommandId::Help,
        name: "help",
        aliases: &[],
        hidden_aliases: &["start"],
        description: "cmd-help",
        summary: "cmd-help-about",
        example: "/help play",
        access: Access::Anyone,
        options: &[opt("command", "cmd-help-command", false, Kind::Command)],
    },
    CommandSpec {
        id: CommandId::Language,
        name: "language",
        aliases: &["lang"],
        hidden_aliases: &[],
        description: "cmd-language",
        summary: "cmd-language-about",
        example: "/language ru",
        access: Access::Anyone,
        options: &[opt("language", "cmd-language-language", false, Kind::Text)],
    },
    CommandSpec {
        id: CommandId::Notify,
        name: "notify",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-notify",
        summary: "cmd-notify-about",
        example: "/notify lastcall on",
        access: Access::Anyone,
        options: &[opt("setting", "cmd-notify-setting", false, Kind::Text)],
    },
    CommandSpec {
        id: CommandId::MyGames,
        name: "mygames",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-mygames",
        summary: "cmd-mygames-about",
        example: "/mygames",
        access: Access::Anyone,
        options: &[],
    },
    CommandSpec {
        id: CommandId::Link,
        name: "link",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-link",
        summary: "cmd-link-about",
        example: "/link K7P2QX",
        access: Access::Anyone,
        options: &[opt("code", "cmd-link-code", false, Kind::Text)],
    },
    CommandSpec {
        id: CommandId::Unlink,
        name: "unlink",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-unlink",
        summary: "cmd-unlink-about",
        example: "/unlink",
        access: Access::Anyone,
        options: &[],
    },
    CommandSpec {
        id: CommandId::Rating,
        name: "rating",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-rating",
        summary: "cmd-rating-about",
        example: "/rating @bob konane",
        access: Access::Anyone,
        options: &[
            opt("user", "cmd-rating-user", false, Kind::User),
            opt("game", "cmd-rating-game", false, Kind::Game),
        ],
    },
    CommandSpec {
        id: CommandId::Stats,
        name: "stats",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-stats",
        summary: "cmd-stats-about",
        example: "/stats @bob @carol",
        access: Access::Anyone,
        options: &[
            opt("user", "cmd-stats-user", false, Kind::User),
            opt("other", "cmd-stats-other", false, Kind::User),
        ],
    },
    CommandSpec {
        id: CommandId::ResetRating,
        name: "resetrating",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-resetrating",
        summary: "cmd-resetrating-about",
        example: "/resetrating @bob konane",
        access: Access::Moderators,
        options: &[
            opt("user", "cmd-resetrating-user", true, Kind::User),
            opt("game", "cmd-resetrating-game", true, Kind::Game),
        ],
    },
    CommandSpec {
        id: CommandId::Season,
        name: "season",
        aliases: &[],
        hidden_aliases: &[],
        description: "cmd-season",
        summary: "cmd-season-about",
        example: "/season konane days=30 size=8 time=2d",
        access: Access::Partly,
        options: &[
            opt("game", "cmd-season-game", false, Kind::Game),
            keyed(
                "days",
                "cmd-season-days",
                Kind::Integer { min: 1, max: 365 },
            ),
            keyed("size", "cmd-season-size", Kind::Integer { min: 3, max: 16 }),
            keyed("time", "cmd-play-time", Kind::Duration),
        ],
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
        CommandId::Export => 8,
        CommandId::Replay => 9,
        CommandId::Resign => 10,
        CommandId::Draw => 11,
        CommandId::Takeback => 12,
        CommandId::Abort => 13,
        CommandId::Claim => 14,
        CommandId::Vacation => 15,
        CommandId::Games => 16,
        CommandId::Wallet => 17,
        CommandId::Leaderboard => 18,
        CommandId::Config => 19,
        CommandId::Grant => 20,
        CommandId::Take => 21,
        CommandId::Rules => 22,
        CommandId::Help => 23,
        CommandId::Language => 24,
        CommandId::Notify => 25,
        CommandId::MyGames => 26,
        CommandId::Link => 27,
        CommandId::Unlink => 28,
        CommandId::Rating => 29,
        CommandId::Stats => 30,
        CommandId::ResetRating => 31,
        CommandId::Season => 32,
    };
    &COMMANDS[index]
}
