//! The platforms' command lists, generated from the table: Discord's application commands and
//! Telegram's `setMyCommands`.

use serde_json::{Value, json};
use tabula_core::GameId;

use super::{
    Access, COMMANDS, Kind, MANAGE_GUILD, MAX_MOVE_CHARS, MAX_TEXT_CHARS, OptionSpec, TextForm,
    description_msg, option_msg,
};
use crate::l10n::game_msg;
use crate::l10n::{Lang, Msg};

/// Discord's option types.
const STRING: u8 = 3;
const INTEGER: u8 = 4;
const BOOLEAN: u8 = 5;
const USER: u8 = 6;

/// Discord's locales (`AvailableLocalesEnum` of its OpenAPI description), for the
/// `*_localizations` maps.
const DISCORD_LOCALES: &[&str] = &[
    "ar", "bg", "cs", "da", "de", "el", "en-GB", "en-US", "es-419", "es-ES", "fi", "fr", "he",
    "hi", "hr", "hu", "id", "it", "ja", "ko", "lt", "nl", "no", "pl", "pt-BR", "ro", "ru", "sv-SE",
    "th", "tr", "uk", "vi", "zh-CN", "zh-TW",
];

/// The Discord locale of a language of the catalogue: the same code (`ru`, `bg`), or the
/// first regional one of its language (`es` → `es-419`, `pt` → `pt-BR`). English is the
/// commands' own language and has none; a language Discord lacks has none.
pub fn discord_locale(lang: Lang) -> Option<&'static str> {
    if lang == Lang::ENGLISH {
        return None;
    }
    let code = lang.code();
    DISCORD_LOCALES
        .iter()
        .copied()
        .find(|l| *l == code)
        .or_else(|| {
            DISCORD_LOCALES
                .iter()
                .copied()
                .find(|l| l.split('-').next() == Some(code))
        })
}

/// A message in English, and the map of its translations by Discord locale.
fn localized(msg: &Msg) -> (String, Value) {
    let translations: serde_json::Map<String, Value> = Lang::all()
        .filter_map(|lang| Some((discord_locale(lang)?.to_string(), json!(msg.to_text(lang)))))
        .collect();
    (msg.to_text(Lang::ENGLISH), Value::Object(translations))
}

fn discord_option(option: &OptionSpec) -> Value {
    let (description, description_localizations) = localized(&option_msg(option));
    let mut object = json!({
        "name": option.name,
        "description": description,
        "description_localizations": description_localizations,
        "required": option.required,
    });
    let extra = match option.kind {
        Kind::Game => json!({
            "type": STRING,
            "choices": GameId::ALL
                .iter()
                .map(|g| {
                    let (name, name_localizations) = localized(&game_msg(*g));
                    json!({
                        "name": name,
                        "name_localizations": name_localizations,
                        "value": g.as_str(),
                    })
                })
                .collect::<Vec<_>>(),
        }),
        Kind::User => json!({"type": USER}),
        Kind::Integer { min, max } => json!({"type": INTEGER, "min_value": min, "max_value": max}),
        Kind::GameNumber => json!({"type": INTEGER, "min_value": 1}),
        Kind::Switch => json!({"type": BOOLEAN}),
        Kind::Duration => json!({"type": STRING, "max_length": 16}),
        Kind::Move => json!({"type": STRING, "autocomplete": true, "max_length": MAX_MOVE_CHARS}),
        Kind::Text => json!({"type": STRING, "max_length": MAX_TEXT_CHARS}),
        Kind::Options | Kind::Settings => json!({"type": STRING, "max_length": 200}),
        // More commands than Discord's 25 choices: suggested as the person types
        // ([`command_suggestions`]).
        Kind::Command => json!({"type": STRING, "autocomplete": true, "max_length": 32}),
    };
    if let (Value::Object(object), Value::Object(extra)) = (&mut object, extra) {
        object.extend(extra);
    }
    object
}

/// The most suggestions Discord shows for an autocompleted option.
pub const MAX_SUGGESTIONS: usize = 25;

/// The command names to suggest for `/help`'s option on Discord as `typed` so far (with or
/// without `/`): those that begin with it, then those that contain it, at most
/// [`MAX_SUGGESTIONS`].
pub fn command_suggestions(typed: &str) -> Vec<String> {
    let typed = typed.trim().trim_start_matches('/').to_lowercase();
    let names = COMMANDS.iter().map(|spec| spec.name);
    let starting = names.clone().filter(|name| name.starts_with(&typed));
    let containing = names.filter(|name| !name.starts_with(&typed) && name.contains(&typed));
    starting
        .chain(containing)
        .take(MAX_SUGGESTIONS)
        .map(str::to_string)
        .collect()
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
                let (description, description_localizations) = localized(&description_msg(spec));
                let mut command = json!({
                    "type": 1,
                    "name": spec.name,
                    "description": description,
                    "description_localizations": description_localizations,
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

/// Telegram's `setMyCommands` list in `lang`: `(command, description)` for every command,
/// aliases not included. The adapter sets the English list for everyone and each other
/// language's for the people whose app speaks it (`language_code`).
pub fn telegram_commands(lang: Lang) -> Vec<(String, String)> {
    menu(lang, true)
}

/// [`telegram_commands`] for the members of a group who do not administer it: the moderators'
/// own commands (`/grant`, `/take`) left out (issue 37). The adapter sets it as the default
/// list and the whole one for the groups' administrators (Telegram's command scopes).
pub fn telegram_member_commands(lang: Lang) -> Vec<(String, String)> {
    menu(lang, false)
}

fn menu(lang: Lang, moderators: bool) -> Vec<(String, String)> {
    COMMANDS
        .iter()
        .filter(|spec| moderators || spec.access != Access::Moderators)
        .map(|spec| (spec.name.to_string(), description_msg(spec).to_text(lang)))
        .collect()
}

/// A value of a Discord command option, as the interaction gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SlashValue {
    /// A STRING option.
    Text(String),
    /// An INTEGER option.
    Integer(i64),
    /// A USER option: the user's id.
    User(String),
}

/// A Discord slash command as the text the parser reads, so that a command typed with
/// Discord's options and one typed as text are the same request: `play` with `game: konane`,
/// `opponent: 123`, `stake: 50` becomes `/play konane <@123> stake=50`. Each option is written
/// in its [`TextForm`]; the option that is the rest of the line (a move, a reason) comes last.
/// Line breaks in typed strings become spaces. `None`: no such command.
pub fn command_text(name: &str, options: &[(String, SlashValue)]) -> Option<String> {
    let spec = COMMANDS.iter().find(|c| c.name == name)?;
    let mut words: Vec<String> = vec![format!("/{}", spec.name)];
    let mut rest: Option<String> = None;
    for option in spec.options {
        let Some((_, value)) = options.iter().find(|(n, _)| n == option.name) else {
            continue;
        };
        let value = match value {
            SlashValue::Text(text) => text
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect::<String>()
                .trim()
                .to_string(),
            SlashValue::Integer(number) => number.to_string(),
            SlashValue::User(id) => format!("<@{id}>"),
        };
        if value.is_empty() {
            continue;
        }
        let word = match (option.form, option.kind) {
            (TextForm::Keyed, _) => format!("{}={value}", option.name),
            (TextForm::Word { key, .. }, _) => format!("{} {key}={value}", option.name),
            (TextForm::Positional, Kind::GameNumber) => format!("#{value}"),
            (TextForm::Positional, Kind::Move | Kind::Text) => {
                rest = Some(value);
                continue;
            }
            (TextForm::Positional, _) => value,
        };
        words.push(word);
    }
    words.extend(rest);
    Some(words.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::{MentionToken, Parse, parse};

    fn text(value: &str) -> SlashValue {
        SlashValue::Text(value.into())
    }

    #[test]
    fn slash_commands_read_as_their_text_forms() {
        let play = command_text(
            "play",
            &[
                ("time".into(), text("3d")),
                ("stake".into(), SlashValue::Integer(50)),
                ("game".into(), text("konane")),
                ("options".into(), text("size=10")),
                ("opponent".into(), SlashValue::User("123".into())),
            ],
        );
        assert_eq!(
            play.as_deref(),
            Some("/play konane <@123> size=10 stake=50 time=3d")
        );
        let computer = command_text(
            "play",
            &[
                ("game".into(), text("koan")),
                ("computer".into(), SlashValue::Integer(3)),
            ],
        );
        assert_eq!(computer.as_deref(), Some("/play koan computer level=3"));
        let mv = command_text(
            "move",
            &[
                ("move".into(), text(" d4-f4\n")),
                ("game".into(), SlashValue::Integer(2)),
            ],
        );
        assert_eq!(mv.as_deref(), Some("/move #2 d4-f4"));
        assert_eq!(command_text("help", &[]).as_deref(), Some("/help"));
        assert_eq!(command_text("nosuch", &[]), None);
    }

    #[test]
    fn help_suggests_commands_as_they_are_typed() {
        assert_eq!(
            command_suggestions("").len(),
            MAX_SUGGESTIONS.min(COMMANDS.len())
        );
        assert_eq!(command_suggestions("/li")[0], "link");
        let un = command_suggestions("link");
        assert_eq!(un, ["link", "unlink"], "beginning first, then containing");
        assert!(command_suggestions("zzz").is_empty());
    }

    #[test]
    fn no_discord_option_offers_more_choices_than_discord_allows() {
        for command in discord_commands().as_array().expect("an array") {
            for option in command["options"].as_array().into_iter().flatten() {
                let choices = option["choices"].as_array().map_or(0, Vec::len);
                assert!(
                    choices <= MAX_SUGGESTIONS,
                    "/{}: {choices}",
                    command["name"]
                );
            }
        }
    }

    #[test]
    fn every_slash_command_parses_back() {
        for spec in COMMANDS {
            let text = command_text(spec.name, &[]).expect("known");
            assert!(
                !matches!(parse(&text, None), Parse::NotForUs | Parse::Unknown { .. }),
                "{text}"
            );
        }
        let text = command_text(
            "grant",
            &[
                ("user".into(), SlashValue::User("42".into())),
                ("coins".into(), SlashValue::Integer(50)),
                ("reason".into(), text("for the tournament")),
            ],
        )
        .expect("known");
        let Parse::Command(parsed) = parse(&text, None) else {
            panic!("{text}");
        };
        assert_eq!(parsed.mentions, vec![MentionToken::Id("42".into())]);
        assert_eq!(parsed.integer("coins"), Some(50));
        assert_eq!(parsed.text.as_deref(), Some("for the tournament"));
    }
}
