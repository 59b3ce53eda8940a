//! The words of a reply before it is said in a language: [`Span`]s of text, mentions of a
//! [`Person`] and games, and the messages ([`Msg`]) that name games and lengths of time; and how
//! user input is quoted back. Below the commands, the contract and the service, which all speak
//! in them; above only the basic values.

use tabula_core::GameId;

use super::{Lang, Msg};
use crate::values::GameNo;

/// A person as the platform gives them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Person {
    /// The platform's id of the user.
    pub id: String,
    /// The display name.
    pub name: String,
    /// The platform's username (without `@`), where the platform has them.
    pub username: Option<String>,
}

impl Person {
    /// A person with an id and a display name, and no username.
    pub fn new(id: impl Into<String>, name: impl Into<String>) -> Person {
        Person {
            id: id.into(),
            name: name.into(),
            username: None,
        }
    }

    /// The same person with a username.
    #[must_use]
    pub fn with_username(mut self, username: impl Into<String>) -> Person {
        self.username = Some(username.into());
        self
    }
}

/// A piece of reply text; each adapter renders it with its own escaping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Span {
    /// Plain text.
    Text(String),
    /// Text shown strong (bold).
    Strong(String),
    /// Text shown as code (a command or a move).
    Code(String),
    /// A mention of a user: the platform's user id, the display name and, where the platform
    /// has one, the username (an adapter may write a notifying mention with it).
    Mention(Person),
    /// A reference to a game of the chat, shown `#n`.
    Game(GameNo),
    /// A message of the catalogue, not yet said in a language. The service says every one
    /// in the reply's language before the reply leaves it (`l10n::spans`), so adapters never
    /// meet one; if one did, it would be shown as English text.
    Msg(Msg),
}

impl Span {
    /// The span as plain text: a mention `@name`, a game `#n`, a message in English.
    pub fn plain(&self) -> String {
        match self {
            Span::Text(text) | Span::Strong(text) | Span::Code(text) => text.clone(),
            Span::Mention(person) => format!("@{}", person.name),
            Span::Game(game) => format!("#{game}"),
            Span::Msg(msg) => msg.to_text(Lang::ENGLISH),
        }
    }

    /// The span as plain text with code between backticks, as Markdown writes it (a terminal,
    /// and tests that look for code).
    pub fn marked(&self) -> String {
        match self {
            Span::Code(code) => format!("`{code}`"),
            span => span.plain(),
        }
    }
}

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

/// A game's name as a message (`game-konane`): game names are translated.
pub fn game_msg(id: GameId) -> Msg {
    Msg::new(match id {
        GameId::Konane => "game-konane",
        GameId::Koan => "game-koan",
        GameId::Kolowis => "game-kolowis",
        GameId::CoanKi => "game-coan-ki",
        GameId::Pachisi => "game-pachisi",
    })
}

/// A length of time as people read it in their language, to the minute (`2 days 3 hours`,
/// `2 дня 3 часа`, `less than a minute`): the same parts as [`crate::time::duration`], each a message
/// with its number, so that its word takes the language's plural form.
pub fn duration_msg(millis: i64) -> Msg {
    let minutes = millis.max(0) / crate::values::MINUTE_MILLIS;
    let (days, hours, minutes) = (minutes / (24 * 60), minutes / 60 % 24, minutes % 60);
    let mut parts = Vec::new();
    if days > 0 {
        parts.push(Msg::new("duration-days").num("n", days));
    }
    if hours > 0 {
        parts.push(Msg::new("duration-hours").num("n", hours));
    }
    if minutes > 0 && days == 0 {
        parts.push(Msg::new("duration-minutes").num("n", minutes));
    }
    let mut parts = parts.into_iter();
    match (parts.next(), parts.next()) {
        (None, _) => Msg::new("duration-less-than-a-minute"),
        (Some(one), None) => one,
        (Some(first), Some(second)) => Msg::new("duration-two")
            .msg("first", first)
            .msg("second", second),
    }
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
}
