//! The commands: every command the bot understands, with its typed options, as data.
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
//! Files: `list` (the table and its types), `parser`, `help` and `platforms` (Discord's and
//! Telegram's command lists).
//!
//! Whatever a user typed is echoed only through [`quote`](crate::l10n::quote) (at most 40 characters): the values
//! held by a [`ParseError`] are already quoted.

mod help;
mod list;
mod parser;
mod platforms;

/// How a typed length of time is read: the crate's one reader, so that the commands and the
/// service never disagree.
pub use crate::time::parse_duration;
pub use help::*;
pub use list::*;
pub use parser::*;
pub use platforms::*;

#[cfg(test)]
mod tests {
    use tabula_core::GameId;

    use super::parser::words;
    use super::*;
    use crate::l10n::Lang;
    use crate::values::{DAY_MILLIS, HOUR_MILLIS};

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
        assert_eq!(
            spec(CommandId::Move).usage(Lang::ENGLISH),
            "/move [#game] [move]"
        );
        assert_eq!(
            spec(CommandId::Play).usage(Lang::ENGLISH),
            "/play <game> [@user …] [computer [level=<1-4>]] [option=value …] \
             [stake=<coins>] [time=<3d|12h>] [rated=<yes|no>]"
        );
        assert_eq!(
            spec(CommandId::Grant).usage(Lang::ENGLISH),
            "/grant @user <coins> [reason…]"
        );
        assert_eq!(
            spec(CommandId::Accept).usage(Lang::ENGLISH),
            "/accept [#challenge]"
        );
    }

    #[test]
    fn usage_lines_are_said_in_each_language() {
        assert_eq!(
            spec(CommandId::Move).usage(Lang::parse("ru").unwrap()),
            "/move [#партия] [ход]"
        );
        assert_eq!(
            spec(CommandId::Grant).usage(Lang::parse("bg").unwrap()),
            "/grant @име <монети> [причина…]"
        );
        assert_eq!(
            spec(CommandId::Play).usage(Lang::parse("ru").unwrap()),
            "/play <игра> [@имя …] [computer [level=<1-4>]] [параметр=значение …] \
             [stake=<монеты>] [time=<3d|12h>] [rated=<yes|no>]"
        );
        // Every option has its placeholder in the catalogue: no usage line shows an option's
        // English name for want of one.
        for command in COMMANDS {
            for option in command.options {
                let positional = option.form == TextForm::Positional
                    && !matches!(
                        option.kind,
                        Kind::User | Kind::Options | Kind::Settings | Kind::GameNumber
                    );
                if positional {
                    assert!(
                        help::placeholder_id(option.name).is_some(),
                        "/{} {}",
                        command.name,
                        option.name
                    );
                }
            }
        }
    }

    /// Discord: descriptions 1-100 characters, choice names 1-100; Telegram: command
    /// descriptions 1-256. In every language, and each translated (not English again).
    #[test]
    fn every_description_fits_the_platforms_in_every_language() {
        let fits = |text: &str, max: usize, what: &str| {
            let n = text.chars().count();
            assert!((1..=max).contains(&n), "{what}: {n} characters: {text:?}");
            assert!(
                !text.contains('{') && !text.contains('\u{F0000}'),
                "{what}: {text:?}"
            );
        };
        let english = discord_commands();
        for lang in crate::l10n::Lang::all() {
            for (name, description) in telegram_commands(lang) {
                fits(
                    &description,
                    256,
                    &format!("Telegram /{name} in {}", lang.code()),
                );
            }
        }
        let mut same = Vec::new();
        for command in english.as_array().expect("an array") {
            let name = command["name"].as_str().unwrap_or_default();
            let mut texts = vec![(
                command["description"].clone(),
                command["description_localizations"].clone(),
                format!("/{name}"),
            )];
            for option in command["options"].as_array().into_iter().flatten() {
                texts.push((
                    option["description"].clone(),
                    option["description_localizations"].clone(),
                    format!("/{name} {}", option["name"]),
                ));
                for choice in option["choices"].as_array().into_iter().flatten() {
                    if choice.get("name_localizations").is_some() {
                        texts.push((
                            choice["name"].clone(),
                            choice["name_localizations"].clone(),
                            format!("/{name} {} {}", option["name"], choice["value"]),
                        ));
                    }
                }
            }
            for (text, translations, what) in texts {
                fits(text.as_str().unwrap_or_default(), 100, &what);
                let translations = translations.as_object().expect("localizations");
                assert_eq!(
                    translations.keys().map(String::as_str).collect::<Vec<_>>(),
                    vec!["bg", "ru"],
                    "{what}"
                );
                for (locale, translated) in translations {
                    let translated = translated.as_str().unwrap_or_default();
                    fits(translated, 100, &format!("{what} in {locale}"));
                    if translated == text {
                        same.push(format!("{what} in {locale}"));
                    }
                }
            }
        }
        assert_eq!(same, Vec::<String>::new(), "translated as the English");
    }

    #[test]
    fn discord_locales_of_languages() {
        assert_eq!(discord_locale(Lang::ENGLISH), None);
        assert_eq!(discord_locale(Lang::parse("ru").unwrap()), Some("ru"));
        assert_eq!(discord_locale(Lang::parse("bg").unwrap()), Some("bg"));
    }

    #[test]
    fn help_is_said_in_each_language() {
        let ru = Lang::parse("ru").unwrap();
        let help = help(true).to_text(ru);
        assert!(
            help.starts_with("Tabula: традиционные настольные игры. Команды:\n/play: "),
            "{help}"
        );
        assert!(
            help.contains("\n/wallet, /balance: Ваши монеты здесь\n"),
            "{help}"
        );
        assert!(
            help.contains("/grant: Выдать монеты (модераторы)"),
            "{help}"
        );
        let one = help_for("/language", true).expect("a command").to_text(ru);
        assert!(
            one.starts_with(
                "/language [язык…]\nЗадаёт язык того, что видите только вы: bg, en или ru;"
            ),
            "{one}"
        );
        assert!(
            one.ends_with("\nТакже: /lang.\nПример: /language ru"),
            "{one}"
        );
        let english = help_for("grant", true)
            .expect("a command")
            .to_text(Lang::ENGLISH);
        assert_eq!(
            english,
            "/grant @user <coins> [reason…]\nAdds coins to someone's wallet here.\n\
             For moderators only.\nExample: /grant @bob 100 tournament prize"
        );
        assert_eq!(help_for("nosuch", true), None);
        // Discord registers no aliases: none is listed there (issue 37).
        let discord = super::help(false).to_text(Lang::ENGLISH);
        assert!(discord.contains("\n/wallet: "), "{discord}");
        assert!(!discord.contains("/balance"), "{discord}");
        let one = help_for("language", false)
            .expect("a command")
            .to_text(Lang::ENGLISH);
        assert!(!one.contains("/lang."), "{one}");
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
