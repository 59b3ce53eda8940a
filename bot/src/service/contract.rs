//! The contract between the service and the adapters: what a request carries and what a
//! reply says.

use super::*;

/// At most this many move buttons are shown at once; beyond, moves are chosen in two steps.
pub const MAX_BUTTONS: usize = 20;

/// One incoming request, as an adapter translated it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The platform it came from.
    pub platform: Platform,
    /// The chat: the platform's id and its title.
    pub chat: (String, String),
    /// The user: the platform's id and the display name.
    pub user: (String, String),
    /// The community the chat belongs to: a Discord server's id and name. `None` when the
    /// chat stands alone (a Telegram group, a direct chat, `tabula local`): it is then its own
    /// community. Settings, wallets and vacations belong to the community.
    pub community: Option<(String, String)>,
    /// Whether the platform says the user moderates the community (Manage Server on Discord,
    /// an administrator of the Telegram group). The service checks it for `/config` changes,
    /// `/grant`, `/take` and `/abort`.
    pub moderator: bool,
    /// The platform's unique id of this request (update id, interaction id), so that a
    /// re-delivered request is applied once.
    pub request_key: String,
    /// What the user sent.
    pub input: Input,
}

/// What a user sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// The text of a slash command, e.g. `/play konane @bob size=10`.
    Command(String),
    /// The data of a pressed button.
    Button(String),
}

/// A neutral reply: text with mentions, an optional picture, and rows of buttons.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reply {
    /// The platform's id of the chat to answer in.
    pub chat: String,
    /// The text, in pieces.
    pub spans: Vec<Span>,
    /// A PNG picture of the board.
    pub picture: Option<Vec<u8>>,
    /// Buttons, in rows.
    pub buttons: Vec<Vec<Button>>,
}

impl Reply {
    /// The text with mentions written `@name`.
    pub fn plain_text(&self) -> String {
        let mut out = String::new();
        for span in &self.spans {
            match span {
                Span::Text(text) => out.push_str(text),
                Span::Mention(_, name) => {
                    out.push('@');
                    out.push_str(name);
                }
            }
        }
        out
    }

    /// Every button, row by row.
    pub fn all_buttons(&self) -> impl Iterator<Item = &Button> {
        self.buttons.iter().flatten()
    }
}

/// A piece of reply text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Span {
    /// Plain text (the adapter escapes markup).
    Text(String),
    /// A mention of a user: the platform's user id and the display name.
    Mention(String, String),
}

/// A button: what it shows and the data it sends back (at most 64 bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Button {
    /// What it shows.
    pub label: String,
    /// What a press sends back as [`Input::Button`].
    pub data: String,
}
