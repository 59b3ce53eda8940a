//! `/help` and `/help <command>`, and each command's usage line, generated from the table and
//! said from the message catalogue (`service/locales/<code>/commands.ftl`).

use tabula_core::GameId;

use super::{Access, COMMANDS, CommandSpec, Kind, OptionSpec, TextForm, find};
use crate::l10n::{Lang, Msg};

/// One word of a usage line: literal text around a translated placeholder (`[#` `game` `]`).
struct Word {
    before: String,
    /// The placeholder's message (`usage-game`), or none when the word is all literal.
    word: Option<&'static str>,
    after: String,
}

impl Word {
    fn new(
        before: impl Into<String>,
        word: Option<&'static str>,
        after: impl Into<String>,
    ) -> Word {
        Word {
            before: before.into(),
            word,
            after: after.into(),
        }
    }
}

/// The message naming what an option holds in a usage line (`game` for `<game>`): options are
/// named by what they hold, so the names of positional options are placeholders.
pub(super) fn placeholder_id(name: &str) -> Option<&'static str> {
    Some(match name {
        "game" => "usage-game",
        "move" => "usage-move",
        "challenge" => "usage-challenge",
        "user" => "usage-user",
        "coins" => "usage-coins",
        "reason" => "usage-reason",
        "days" => "usage-days",
        "command" => "usage-command",
        "language" => "usage-language",
        "setting" => "usage-setting",
        "code" => "usage-code",
        _ => return None,
    })
}

/// How an option is typed, for the usage line.
fn placeholder(option: &OptionSpec) -> Word {
    let name = option.name;
    let mut word = match (option.form, option.kind) {
        (TextForm::Word { key, .. }, Kind::Integer { min, max }) => {
            Word::new(format!("{name} [{key}=<{min}-{max}>]"), None, "")
        }
        (TextForm::Word { key, .. }, _) => Word::new(format!("{name} [{key}=<n>]"), None, ""),
        (TextForm::Keyed, Kind::Duration) => Word::new(format!("{name}=<3d|12h>"), None, ""),
        (TextForm::Keyed, Kind::Switch) => Word::new(format!("{name}=<yes|no>"), None, ""),
        (TextForm::Keyed, Kind::Integer { .. }) => {
            Word::new(format!("{name}=<"), Some("usage-coins"), ">")
        }
        (TextForm::Keyed, _) => Word::new(format!("{name}=<"), Some("usage-value"), ">"),
        (TextForm::Positional, Kind::GameNumber) if name == "game" => {
            Word::new("#", Some("usage-game-number"), "")
        }
        (TextForm::Positional, Kind::GameNumber) => Word::new("#", placeholder_id(name), ""),
        (TextForm::Positional, Kind::User) => Word::new("@", Some("usage-user"), ""),
        (TextForm::Positional, Kind::Options) => Word::new("", Some("usage-options"), " …"),
        (TextForm::Positional, Kind::Settings) => Word::new("", Some("usage-settings"), " …"),
        (TextForm::Positional, Kind::Text) => Word::new("", placeholder_id(name), "…"),
        (TextForm::Positional, _) => Word::new("", placeholder_id(name), ""),
    };
    if word.word.is_none() && word.before.is_empty() {
        // An option without a placeholder message is shown by its name (the test
        // `every_placeholder_is_translated` keeps this from happening).
        word.before = name.to_string();
    }
    let angled = matches!(
        (option.form, option.kind),
        (
            TextForm::Positional,
            Kind::Game | Kind::Move | Kind::Integer { .. }
        )
    );
    let (open, close) = match (option.required, angled) {
        (true, true) => ("<", ">"),
        (true, false) => ("", ""),
        (false, _) => ("[", "]"),
    };
    word.before.insert_str(0, open);
    word.after.push_str(close);
    word
}

/// The words of a command's usage line, in typed order: `#n` first, several people as one
/// `[@user …]`.
fn usage_words(spec: &CommandSpec) -> Vec<Word> {
    let mut words = Vec::new();
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
                words.push(Word::new("[@", Some("usage-user"), " …]"));
                users_shown = true;
            }
            continue;
        }
        words.push(placeholder(option));
    }
    words
}

/// The usage line of a command, as a message: `/move [#game] <move>`, its placeholders
/// translated.
pub fn usage_msg(spec: &CommandSpec) -> Msg {
    let mut rest = Msg::new("usage-line").text("command", format!("/{}", spec.name));
    let mut tail: Option<Msg> = None;
    for word in usage_words(spec).into_iter().rev() {
        let mut msg = Msg::new("usage-word")
            .text("before", word.before)
            .text("after", word.after);
        msg = match word.word {
            Some(id) => msg.msg("word", Msg::new(id)),
            None => msg.text("word", ""),
        };
        msg = match tail {
            Some(tail) => msg.msg("rest", tail),
            None => msg.text("rest", ""),
        };
        tail = Some(msg);
    }
    rest = match tail {
        Some(tail) => rest.msg("rest", tail),
        None => rest.text("rest", ""),
    };
    rest
}

/// The usage line with the command's example: `/move [#game] <move>, e.g. /move #2 d4-f4`.
pub fn usage_example_msg(spec: &CommandSpec) -> Msg {
    Msg::new("usage-example")
        .msg("usage", usage_msg(spec))
        .text("example", spec.example)
}

/// The usage line of a command in `lang`.
pub(super) fn usage(spec: &CommandSpec, lang: Lang) -> String {
    usage_msg(spec).to_text(lang)
}

/// The language codes of the catalogue as a list (`en, ru or bg`), for the descriptions that
/// name them.
pub fn languages_msg() -> Msg {
    Msg::list(
        Lang::all()
            .map(|lang| Msg::new("verbatim").text("text", lang.code()))
            .collect(),
        "list-comma",
        "clauses-or",
    )
}

/// A command's description (for the platforms' menus and `/help`), as a message.
pub fn description_msg(spec: &CommandSpec) -> Msg {
    with_languages(Msg::new(spec.description))
}

/// An option's description, as a message.
pub fn option_msg(option: &OptionSpec) -> Msg {
    with_languages(Msg::new(option.description))
}

/// Messages that name the languages get the list (a message ignores arguments it does not use).
fn with_languages(msg: Msg) -> Msg {
    msg.msg("languages", languages_msg())
}

/// Items, one per line.
fn lines(items: Vec<Msg>) -> Msg {
    Msg::list(items, "lines", "lines")
}

/// The answer to `/help`: one line per command (moderators' commands last, each marked), the
/// games, and how to learn more. It fits one Discord message. `aliases`: whether the
/// commands' other names are listed (typed commands understand them; Discord registers only
/// the names, issue 37).
pub fn help(aliases: bool) -> Msg {
    let line = |spec: &CommandSpec| {
        let aliases: String = if aliases {
            spec.aliases.iter().map(|a| format!(", /{a}")).collect()
        } else {
            String::new()
        };
        let line = Msg::new("help-line")
            .text("name", spec.name)
            .text("aliases", aliases)
            .msg("description", description_msg(spec));
        match spec.access {
            Access::Anyone => line.text("access", ""),
            Access::Moderators => line.msg("access", Msg::new("help-line-moderators")),
            Access::Partly => line.msg("access", Msg::new("help-line-partly")),
        }
    };
    let mut items = vec![Msg::new("help-heading")];
    items.extend(
        COMMANDS
            .iter()
            .filter(|s| s.access != Access::Moderators)
            .map(line),
    );
    items.extend(
        COMMANDS
            .iter()
            .filter(|s| s.access == Access::Moderators)
            .map(line),
    );
    let games: Vec<&str> = GameId::ALL.iter().map(|g| g.as_str()).collect();
    items.push(Msg::new("help-games").text("games", games.join(", ")));
    lines(items)
}

/// The answer to `/help <name>`: usage line, what it does, an example; `None` for no such
/// command. Aliases are understood (`balance`), with or without `/`; they are listed when
/// `aliases` (not on Discord).
pub fn help_for(name: &str, aliases: bool) -> Option<Msg> {
    let name = name.trim().trim_start_matches('/').to_ascii_lowercase();
    let spec = find(&name)?;
    let mut items = vec![usage_msg(spec), with_languages(Msg::new(spec.summary))];
    match spec.access {
        Access::Anyone => {}
        Access::Moderators => items.push(Msg::new("help-moderators")),
        Access::Partly => items.push(Msg::new("help-partly")),
    }
    if aliases && !spec.aliases.is_empty() {
        let aliases: Vec<String> = spec.aliases.iter().map(|a| format!("/{a}")).collect();
        items.push(Msg::new("help-also").text("aliases", aliases.join(", ")));
    }
    items.push(Msg::new("help-example").text("example", spec.example));
    Some(lines(items))
}
