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
//! Files: `commands` (the table and its types), `parser`, `help` and `platforms` (Discord's and
//! Telegram's command lists).
//!
//! Whatever a user typed is echoed only through [`quote`] (at most 40 characters): the values
//! held by a [`ParseError`] are already quoted.

mod commands;
mod help;
mod parser;
mod platforms;

pub use commands::*;
pub use help::*;
pub use parser::*;
pub use platforms::*;

/// The most characters of user input that an answer repeats (then `…`).
pub const QUOTE_CHARS: usize = 40;

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

#[cfg(test)]
mod tests {
    use tabula_core::GameId;

    use super::commands::{DAY_MILLIS, HOUR_MILLIS};
    use super::parser::words;
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
