//! The text parser: chat text to [`Parse`], a command's typed values ([`ParsedCommand`]) or a
//! typed [`ParseError`].

use std::fmt;

use tabula_core::GameId;

use super::help::placeholder_id;
use super::{
    CommandId, CommandSpec, Kind, MAX_GAME_OPTIONS, MAX_MOVE_CHARS, MAX_SETTINGS, MAX_TEXT_CHARS,
    OptionSpec, TextForm, find, parse_duration,
};
use crate::l10n::{Msg, quote};
use crate::values::{MAX_MOVE_MILLIS, MIN_MOVE_MILLIS};

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
    /// Typed as a hidden alias (`/start`, which a person sends first to a Telegram bot): the
    /// answer greets them.
    pub greeting: bool,
}

impl ParsedCommand {
    /// `/play` of `game` with its `options`, `stake` and time per move (`move_millis`), and the
    /// computer at `computer`'s level when given: a rematch, as if typed.
    #[must_use]
    pub fn play(
        game: GameId,
        options: Vec<(String, String)>,
        stake: i64,
        move_millis: i64,
        computer: Option<i64>,
    ) -> Self {
        let mut command = ParsedCommand::new(super::spec(CommandId::Play));
        command.game = Some(game);
        command.options = options;
        command.integers.push(("stake", stake));
        if let Some(level) = computer {
            command.integers.push(("computer", level));
        }
        command.time_millis = Some(move_millis);
        command
    }

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
            greeting: false,
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
    /// A yes-or-no option given something else: `rated=maybe`.
    #[error("`{option}` must be yes or no, not `{value}`")]
    NotYesOrNo {
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

impl ParseError {
    /// What the person is told, as a message of the catalogue (`Display` is the English for
    /// logs). Option names are typed words and stay; positional options are named by their
    /// translated placeholder (`<move>`).
    pub fn msg(&self) -> Msg {
        let option = |name: &str| match placeholder_id(name) {
            Some(id) => Msg::new(id),
            None => Msg::new("verbatim").text("text", name),
        };
        match self {
            ParseError::Missing { option: name } => {
                Msg::new("parse-missing").msg("option", option(name))
            }
            ParseError::UnknownGame { value } => Msg::new("parse-unknown-game").text("name", value),
            ParseError::Repeated { option: name } => {
                Msg::new("parse-repeated").msg("option", option(name))
            }
            ParseError::BadMention { value } => Msg::new("parse-bad-mention").text("value", value),
            ParseError::TooManyUsers { max } => Msg::new("parse-too-many-users").count("max", *max),
            ParseError::NotANumber {
                option: name,
                value,
            } => Msg::new("parse-not-a-number")
                .msg("option", option(name))
                .text("value", value),
            ParseError::OutOfRange {
                option: name,
                min,
                max,
                value,
            } => Msg::new("parse-out-of-range")
                .msg("option", option(name))
                .num("min", *min)
                .num("max", *max)
                .text("value", value),
            ParseError::BadDuration {
                option: name,
                value,
            } => Msg::new("parse-bad-duration")
                .msg("option", option(name))
                .text("value", value),
            ParseError::NotYesOrNo {
                option: name,
                value,
            } => Msg::new("parse-not-yes-or-no")
                .msg("option", option(name))
                .text("value", value),
            ParseError::BadGameNumber { value } => {
                Msg::new("parse-bad-game-number").text("value", value)
            }
            ParseError::NotKeyValue { option: _, value } => {
                Msg::new("parse-not-key-value").text("value", value)
            }
            ParseError::TooManyValues { option: name, max } => Msg::new("parse-too-many-values")
                .text("option", *name)
                .count("max", *max),
            ParseError::TooLong { option: name, max } => Msg::new("parse-too-long")
                .msg("option", option(name))
                .count("max", *max),
            ParseError::UnknownTopic { value } => {
                Msg::new("parse-unknown-topic").text("value", value)
            }
            ParseError::Unexpected { value } => Msg::new("parse-unexpected").text("value", value),
        }
    }
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
        let mut command = ParsedCommand::new(spec);
        command.greeting = true;
        return Parse::Command(command);
    }
    // `/season start konane …` reads as `/season konane …`.
    let args = match (spec.id, words(args).first()) {
        (CommandId::Season, Some((at, word))) if word.eq_ignore_ascii_case("start") => {
            &args[at + word.len()..]
        }
        _ => args,
    };
    match parse_args(spec, args) {
        Ok(command) => Parse::Command(command),
        Err(error) => Parse::Invalid {
            command: spec,
            error,
        },
    }
}

/// The words of `args` with their byte offsets.
pub(super) fn words(args: &str) -> Vec<(usize, &str)> {
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

/// Reads a command's arguments, word by word: a leading `#n`, the rest of the line for a move
/// or a text, mentions, a word option (`computer` and its `level=`), keyed options
/// (`stake=50`), positional values in their order, then `key=value` pairs.
fn parse_args(spec: &'static CommandSpec, args: &str) -> Result<ParsedCommand, ParseError> {
    let mut reading = Reading::new(spec);
    for (index, &(offset, word)) in words(args).iter().enumerate() {
        if reading.game_number(index, word)? {
            continue;
        }
        if reading.rest_of_line(args[offset..].trim_end())? {
            break;
        }
        if reading.mention(word)? || reading.word_option(word)? || reading.keyed(word)? {
            continue;
        }
        if reading.parsed.mentions.len() < reading.required_users {
            // `/grant bob 50`: the person comes first.
            return Err(ParseError::BadMention { value: quote(word) });
        }
        if reading.positional(word)? || reading.pair(word)? {
            continue;
        }
        return Err(ParseError::Unexpected { value: quote(word) });
    }
    reading.finish()
}

/// A command's arguments as they are read: what has been read, and which options are given.
struct Reading {
    spec: &'static CommandSpec,
    parsed: ParsedCommand,
    /// How many people it names at most, and at least.
    users: usize,
    required_users: usize,
    /// The options typed in their place, in order (not mentions, not `#n`, not keyed), and
    /// how many of them have been read.
    positional: Vec<&'static OptionSpec>,
    next_positional: usize,
    /// The options given so far, by name.
    seen: Vec<&'static str>,
    /// Whether the word option (`computer`) was given.
    word_seen: bool,
}

impl Reading {
    fn new(spec: &'static CommandSpec) -> Reading {
        let users = spec.options.iter().filter(|o| o.kind == Kind::User).count();
        let required_users = spec
            .options
            .iter()
            .filter(|o| o.kind == Kind::User && o.required)
            .count();
        let positional = spec
            .options
            .iter()
            .filter(|o| {
                o.form == TextForm::Positional
                    && !matches!(
                        o.kind,
                        Kind::User | Kind::GameNumber | Kind::Options | Kind::Settings
                    )
            })
            .collect();
        Reading {
            spec,
            parsed: ParsedCommand::new(spec),
            users,
            required_users,
            positional,
            next_positional: 0,
            seen: Vec::new(),
            word_seen: false,
        }
    }

    fn repeated(option: &str) -> ParseError {
        ParseError::Repeated {
            option: option.to_string(),
        }
    }

    /// `#n` first names the game; a second `#n` with no positional value left is repeated.
    fn game_number(&mut self, index: usize, word: &str) -> Result<bool, ParseError> {
        let Some(option) = self
            .spec
            .options
            .iter()
            .find(|o| o.kind == Kind::GameNumber)
        else {
            return Ok(false);
        };
        if index == 0 && word.starts_with('#') {
            self.parsed.game_number = Some(parse_game_number(word)?);
            self.seen.push(option.name);
            return Ok(true);
        }
        if word.starts_with('#')
            && self.seen.contains(&option.name)
            && self.next_positional == self.positional.len()
        {
            return Err(Self::repeated(option.name));
        }
        Ok(false)
    }

    /// A move or a text, when it is the next positional value, takes the rest of the line.
    fn rest_of_line(&mut self, rest: &str) -> Result<bool, ParseError> {
        let Some(&option) = self.positional.get(self.next_positional) else {
            return Ok(false);
        };
        let max = match option.kind {
            Kind::Move => MAX_MOVE_CHARS,
            Kind::Text => MAX_TEXT_CHARS,
            _ => return Ok(false),
        };
        if rest.chars().count() > max {
            return Err(ParseError::TooLong {
                option: option.name,
                max,
            });
        }
        self.parsed.text = Some(rest.to_string());
        self.seen.push(option.name);
        self.next_positional += 1;
        Ok(true)
    }

    /// `@name` or Discord's `<@id>`, each person once, as many as the command names.
    fn mention(&mut self, word: &str) -> Result<bool, ParseError> {
        if self.users == 0 || !(word.starts_with('@') || word.starts_with("<@")) {
            return Ok(false);
        }
        let token = parse_mention(word)?;
        if self.parsed.mentions.contains(&token) {
            return Err(Self::repeated(&quote(word)));
        }
        if self.parsed.mentions.len() == self.users {
            return Err(ParseError::TooManyUsers { max: self.users });
        }
        self.parsed.mentions.push(token);
        Ok(true)
    }

    /// The word option (`computer`) and its key (`level=3`), which may only follow it.
    fn word_option(&mut self, word: &str) -> Result<bool, ParseError> {
        let Some((option, key, default)) = self.spec.options.iter().find_map(|o| match o.form {
            TextForm::Word { key, default } => Some((o, key, default)),
            _ => None,
        }) else {
            return Ok(false);
        };
        if word.eq_ignore_ascii_case(option.name) {
            if self.word_seen {
                return Err(Self::repeated(option.name));
            }
            self.word_seen = true;
            self.parsed.integers.push((option.name, default));
            return Ok(true);
        }
        let Some((k, value)) = word.split_once('=') else {
            return Ok(false);
        };
        if !k.eq_ignore_ascii_case(key) {
            return Ok(false);
        }
        if !self.word_seen {
            return Err(ParseError::Unexpected { value: quote(word) });
        }
        if self.seen.contains(&key) {
            return Err(Self::repeated(key));
        }
        self.seen.push(key);
        let level = parse_integer(option, value)?;
        for entry in &mut self.parsed.integers {
            if entry.0 == option.name {
                entry.1 = level;
            }
        }
        Ok(true)
    }

    /// `name=value` for an option typed with its name (`stake=50`), each once.
    fn keyed(&mut self, word: &str) -> Result<bool, ParseError> {
        let Some((key, value)) = word.split_once('=') else {
            return Ok(false);
        };
        let Some(option) = self
            .spec
            .options
            .iter()
            .find(|o| o.form == TextForm::Keyed && key.eq_ignore_ascii_case(o.name))
        else {
            return Ok(false);
        };
        if self.seen.contains(&option.name) {
            return Err(Self::repeated(option.name));
        }
        self.seen.push(option.name);
        set_value(&mut self.parsed, option, value)?;
        Ok(true)
    }

    /// The next value typed in its place.
    fn positional(&mut self, word: &str) -> Result<bool, ParseError> {
        let Some(&option) = self.positional.get(self.next_positional) else {
            return Ok(false);
        };
        self.next_positional += 1;
        set_value(&mut self.parsed, option, word)?;
        self.seen.push(option.name);
        Ok(true)
    }

    /// A `key=value` pair of a game's options or a chat's settings, each key once, as many as
    /// they may be.
    fn pair(&mut self, word: &str) -> Result<bool, ParseError> {
        let Some(option) = self
            .spec
            .options
            .iter()
            .find(|o| matches!(o.kind, Kind::Options | Kind::Settings))
        else {
            return Ok(false);
        };
        let (list, max) = if option.kind == Kind::Options {
            (&mut self.parsed.options, MAX_GAME_OPTIONS)
        } else {
            (&mut self.parsed.settings, MAX_SETTINGS)
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
            return Err(Self::repeated(&quote(&key)));
        }
        if list.len() == max {
            return Err(ParseError::TooManyValues {
                option: option.name,
                max,
            });
        }
        list.push((key, value.to_string()));
        Ok(true)
    }

    /// The command read, unless a required option is missing.
    fn finish(self) -> Result<ParsedCommand, ParseError> {
        if let Some(missing) = self
            .spec
            .options
            .iter()
            .find(|o| o.required && !is_given(&self.parsed, o))
        {
            return Err(ParseError::Missing {
                option: missing.name,
            });
        }
        Ok(self.parsed)
    }
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
        Kind::Integer { .. } | Kind::Switch => parsed.integer(option.name).is_some(),
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
        Kind::Switch => {
            let value = parse_switch(word).ok_or_else(|| ParseError::NotYesOrNo {
                option: option.name,
                value: quote(word),
            })?;
            parsed.integers.push((option.name, i64::from(value)));
        }
        Kind::Duration => {
            parsed.time_millis = Some(
                parse_duration(word)
                    .filter(|millis| (MIN_MOVE_MILLIS..=MAX_MOVE_MILLIS).contains(millis))
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

/// Yes or no, in any case: `yes`/`no`, `on`/`off`, `true`/`false` (Discord's boolean).
fn parse_switch(word: &str) -> Option<bool> {
    match word.to_ascii_lowercase().as_str() {
        "yes" | "on" | "true" => Some(true),
        "no" | "off" | "false" => Some(false),
        _ => None,
    }
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
