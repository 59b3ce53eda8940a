//! The contract between the service and the adapters: what a request carries and what a
//! reply says. Adapters translate a platform's update into a [`Request`] and a [`Reply`] into
//! the platform's messages; they decide nothing else.
//!
//! How an adapter maps a reply:
//! - [`Audience::Actor`]: only the person who acted may see it (Discord: an ephemeral
//!   message; a button press on Telegram: a toast of `answerCallbackQuery`; a typed command in a
//!   Telegram group, where nothing can be shown to one person only: a reply to the person's own
//!   message, deleted after a minute — the same fallback for every such reply).
//! - [`Placement::UpdatePressed`]: the message whose button was pressed is edited; a typed
//!   command has no pressed message, so the adapter posts it as new.
//! - [`Placement::NewBoard`]: posted as a new message, so that the player to act is notified;
//!   the adapter reports it ([`Service::board_posted`]) and takes the buttons off the messages
//!   the service hands back (the game's older boards, the pressed message).
//! - Only the users in [`Reply::notify`] are really notified (`allowed_mentions` on Discord);
//!   other mentions are shown as names.
//! - No reply (`Ok(None)` from [`Service::handle`]): nothing is posted. The request was not
//!   for the bot, or it was refused while its sender cools down after a flood of refusals
//!   ([`Cooldown`]: by default more than 5 within a minute, then 2 minutes of silence; kept
//!   in memory, per process). A button press must still be acknowledged, silently (Telegram:
//!   `answerCallbackQuery` without text; Discord: a deferred update, interaction response
//!   type 6), so the person's client stops waiting.
//! - Every reply already fits both platforms (see [`MAX_TEXT`] and the other limits in
//!   `limits.rs`): at most 25 buttons in at most 5 rows of at most 5, labels of at most 80
//!   characters, data of at most 64 bytes, and text within 2,000 characters as Discord writes
//!   it. An adapter still splits a Telegram caption off a long text with a picture.

use super::UserError;
use crate::l10n::Msg;
pub use crate::l10n::{Person, Span};
use crate::store::{ChallengeNo, GameNo, GameRecord, OutboxId, Platform, Timestamp};

/// At most this many move buttons are shown at once; beyond, moves are chosen in two steps.
pub const MAX_BUTTONS: usize = 20;

/// Someone a request mentions, as the platform resolved them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mention {
    /// A person the platform identified (Discord's USER option, Telegram's `text_mention`).
    Person(Person),
    /// A typed `@username` the platform did not resolve (Telegram's `mention` entity). A
    /// username nobody has been seen with is kept on a challenge as that username and bound to
    /// the first person whose platform-given username matches (case-insensitive).
    Username(String),
}

/// The `@name` words of a typed command, as usernames: in a terminal (and in tests) every
/// name is a username, resolved by the service like a Telegram `mention` entity.
pub fn typed_mentions(text: &str) -> Vec<Mention> {
    text.split_whitespace()
        .filter_map(|word| word.strip_prefix('@'))
        .filter(|name| !name.is_empty())
        .map(|name| Mention::Username(name.to_string()))
        .collect()
}

/// One incoming request, as an adapter translated it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The platform it came from.
    pub platform: Platform,
    /// The community the chat belongs to: a Discord server's id and name. `None` when the
    /// chat stands alone (a Telegram group, a direct chat, `tabula local`): it is then its own
    /// community. Settings, wallets and vacations belong to the community.
    pub community: Option<(String, String)>,
    /// The chat: the platform's id and its title.
    pub chat: (String, String),
    /// The thread or forum topic, if any: replies go there.
    pub thread: Option<String>,
    /// Who acted.
    pub actor: Person,
    /// Whether the platform says the actor moderates the community (Manage Server on Discord,
    /// an administrator of the Telegram group). The service checks it for `/config` changes,
    /// `/grant`, `/take` and `/abort`.
    pub moderator: bool,
    /// The actor's locale as the platform gives it (`en`, `ru-RU`), if any.
    pub locale: Option<String>,
    /// The chat's language as the front end knows it (`tabula local --language`), if any: used
    /// for what the whole chat sees when the community chose no language.
    pub chat_locale: Option<String>,
    /// The people the request mentions, in order, as the platform resolved them.
    pub mentions: Vec<Mention>,
    /// The platform's unique id of this update (update id, interaction id), so that a
    /// re-delivered request is applied once.
    pub request_key: String,
    /// The platform's id of this action when the bot cannot predict it (a Telegram callback
    /// query id, a Discord interaction id): a game started by it salts its dice with it, so
    /// that the bot cannot have chosen a seed that favours anyone (issue 19). `None` for a
    /// typed Telegram command (update ids count up) and for `tabula local`.
    pub nonce: Option<String>,
    /// The bot's own username: a command addressed to another bot (`/help@otherbot`) is not
    /// for us and gets no answer.
    pub bot_username: Option<String>,
    /// The address of the person's private chat with the bot, as the adapter delivers to it
    /// (Telegram: their id; Discord: their direct-message channel, made when first needed);
    /// `None` where there is none (a terminal).
    pub private_chat: Option<String>,
    /// When the platform says the update was sent, if it says (the service decides by its own
    /// clock; this is for logs).
    pub sent_at: Option<Timestamp>,
    /// The platform's id of the message whose button was pressed, if any: a board made by the
    /// press takes its buttons off ([`Reply::pressed`]).
    pub pressed: Option<String>,
    /// Whether the chat is shared by several people (a group, a server's channel), not a
    /// private chat with the bot: `/start` there does not ask to be added to a group.
    pub group: bool,
    /// Whether the chat can hold a thread or topic per game (`/config threads=on`): a Discord
    /// server's channel; a Telegram supergroup with topics turned on. A request from inside a
    /// thread or topic says so in [`Request::thread`]; its games stay there.
    pub threads: bool,
    /// What the actor sent.
    pub input: Input,
}

impl Request {
    /// A request with no community, thread, locale, mentions or bot username, from a person
    /// who does not moderate.
    pub fn new(
        platform: Platform,
        chat: (impl Into<String>, impl Into<String>),
        actor: Person,
        request_key: impl Into<String>,
        input: Input,
    ) -> Request {
        Request {
            platform,
            community: None,
            chat: (chat.0.into(), chat.1.into()),
            thread: None,
            actor,
            moderator: false,
            locale: None,
            chat_locale: None,
            mentions: Vec::new(),
            request_key: request_key.into(),
            nonce: None,
            bot_username: None,
            private_chat: None,
            sent_at: None,
            pressed: None,
            group: false,
            threads: false,
            input,
        }
    }
}

/// What a user sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// The text of a slash command, e.g. `/play konane @bob size=10`.
    Command(String),
    /// The data of a pressed button.
    Button(String),
}

/// Where a reply goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Address {
    /// The platform.
    pub platform: Platform,
    /// The platform's id of the chat.
    pub chat: String,
    /// The thread or forum topic, if any.
    pub thread: Option<String>,
}

impl Default for Address {
    fn default() -> Address {
        Address {
            platform: Platform::Local,
            chat: String::new(),
            thread: None,
        }
    }
}

/// Who may see a reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Audience {
    /// Everyone in the chat.
    #[default]
    Chat,
    /// Only the person who acted.
    Actor,
}

/// What a reply is.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Kind {
    /// The request was carried out (or answered, for a question).
    #[default]
    Done,
    /// The request was refused; nothing changed.
    Refused(UserError),
    /// A re-delivered request whose change was already made; nothing changed again.
    AlreadyHandled,
    /// A button of a board that has changed since; the reply says how far the game is (the
    /// presser's toast), and posts nothing in the chat.
    Stale,
}

/// Where a reply is placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Placement {
    /// A new message.
    #[default]
    New,
    /// An update of the message whose button was pressed (new when nothing was pressed).
    UpdatePressed,
    /// The game's new board: a new message that notifies the player to act; the previous
    /// board's buttons are taken off.
    NewBoard,
}

/// A reply envelope: address, audience, kind, placement, game, text, notified people, an
/// optional picture, and buttons.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reply {
    /// Where it goes.
    pub address: Address,
    /// Who may see it.
    pub audience: Audience,
    /// What it is.
    pub kind: Kind,
    /// Where it is placed.
    pub placement: Placement,
    /// The game it concerns, if one.
    pub game: Option<GameNo>,
    /// The challenge it concerns, if one (an offer, its withdrawal or refusal, who has joined
    /// it); a game that starts from a challenge is named in [`Reply::game`] instead.
    pub challenge: Option<ChallengeNo>,
    /// The text, in pieces.
    pub spans: Vec<Span>,
    /// The platform ids of the people whose mention notifies them (those who must act);
    /// every other mention is shown without notifying.
    pub notify: Vec<String>,
    /// A PNG picture of the board.
    pub picture: Option<Vec<u8>>,
    /// A file sent with the text (a game's record); never with a picture.
    pub file: Option<Attachment>,
    /// Buttons, in rows.
    pub buttons: Vec<Vec<Button>>,
    /// For a new board: how many actions of the game it shows, which orders the game's boards
    /// when they are posted out of order ([`Service::board_posted`]).
    pub board_seq: Option<u32>,
    /// For a new board: the platform's id of the message pressed for it, which loses its
    /// buttons when the board is posted ([`Service::board_posted`]).
    pub pressed: Option<String>,
    /// For a new board: the outbox row announcing it, which this process holds and marks sent
    /// when the adapter reports the board ([`Service::board_posted`]) or hands to the
    /// dispatcher when it could not post it ([`Service::board_not_posted`]).
    pub announced: Option<OutboxId>,
    /// For a button press: what a platform shows the presser at once, however long the rest of
    /// the reply waits in the chat's queue (Telegram's toast, within 200 characters: "Played
    /// d6-d4"). A reply for the presser alone without buttons is its own toast; this is for
    /// the others (empty: none).
    pub toast: Vec<Span>,
    /// For a new board made by pressing an older one: what the pressed board says from then
    /// on (the move just played, as [`super::Stripped`]'s caption), for a platform that edits the
    /// pressed message in its answer to the press (Discord); empty: nothing.
    pub pressed_then: Vec<Span>,
    /// Whether the pressed message is text, not a board's picture (a challenge accepted by
    /// its button): [`Reply::pressed_then`] replaces its text where a platform edits it after
    /// the post (Telegram), as the old boards' captions do.
    pub pressed_is_text: bool,
    /// A question about [`Reply::game`] (confirm a resignation or an abort): when posted, it
    /// is recorded with the game's messages that show buttons, so that the game's next board
    /// takes its buttons off ([`Service::board_posted`]).
    pub question: bool,
    /// Messages whose buttons the adapter takes off instead of posting anything (each with
    /// the caption it shows from then on, if any): a strip whose process died before making
    /// it, told by the dispatcher (issue 36). Empty for every other reply.
    pub strip: Vec<super::Stripped>,
    /// The message whose buttons become this reply's buttons and links, instead of posting
    /// anything: a board whose page link comes or goes with `/config pages=` (issue 41).
    /// `None` for every other reply.
    pub rebutton: Option<String>,
    /// The catalogue's messages its text was said from, in order and with their arguments,
    /// kept when it is said in a language ([`Reply::localize`]): what tests and logs read
    /// ([`Reply::says`]); adapters show the spans.
    pub said: Vec<Msg>,
    /// Buttons that open a place rather than sending a press (a private ping's link to the
    /// game's board; the way to the bot's private chat; `/mygames`' games), under the other
    /// buttons; the adapter makes the platform's address of each, and leaves out those that
    /// have none.
    pub goto: Vec<Goto>,
    /// For a game's first board, delivered through the outbox: the thread or forum topic to
    /// open first, where the board and the rest of the game go (`/config threads=on`). The
    /// adapter opens it and reports it ([`Service::thread_opened`](super::Service::thread_opened)),
    /// or reports the refusal ([`Service::thread_refused`](super::Service::thread_refused)).
    pub open_thread: Option<OpenThread>,
    /// Close (not delete) the thread or topic the reply is addressed to: its game ended. Such
    /// a reply says nothing.
    pub close_thread: bool,
}

/// A button that opens a place ([`Reply::goto`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Goto {
    /// What it shows.
    pub label: String,
    /// The label as a message of the catalogue, said in the reply's language.
    pub label_msg: Option<Msg>,
    /// Where it goes.
    pub to: Place,
}

/// Where a [`Goto`] button goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// A message: Discord's message link; on Telegram the `t.me/c/...` link of a supergroup's
    /// message (a basic group's messages have none). Either adapter links to either platform's
    /// messages (`tabula_bot::adapters::message_url`).
    Message {
        /// The platform of the chat (a linked person's `/mygames` and digest link to games of
        /// the other platform too).
        platform: Platform,
        /// The platform's id of the chat.
        chat: String,
        /// The platform's id of its community (a Discord server).
        community: String,
        /// The platform's id of the message.
        message: String,
    },
    /// The person's private chat with the bot, opened with a start parameter (Telegram's deep
    /// link); none on Discord.
    PrivateChat,
    /// A web address: a game's page (issue 41).
    Web {
        /// The address.
        url: String,
    },
    /// A game's thread or forum topic (Discord's channel link; Telegram's `t.me/c/<id>/<topic>`).
    Thread {
        /// The platform of the thread.
        platform: Platform,
        /// The platform's id of its chat (Telegram: `<chat>:<topic>`).
        chat: String,
        /// The platform's id of its community.
        community: String,
    },
}

/// A thread or forum topic a game's first board opens ([`Reply::open_thread`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenThread {
    /// Its name, "Konane #12: Alice vs Bob", within the platforms' length.
    pub name: String,
    /// The name as a message of the catalogue, said in the reply's language.
    pub name_msg: Option<Msg>,
}

/// Why a platform refused to open a game's thread, as the adapter tells the service
/// ([`Service::thread_refused`](super::Service::thread_refused)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThreadRefusal {
    /// The Telegram group has topics turned off.
    NotForum,
    /// The bot is not an administrator of the Telegram group with the right to manage topics.
    ManageTopics,
    /// The bot lacks Discord's permission to create public threads in the channel.
    CreateThreads,
}

/// Says the catalogue's messages among `spans` in `lang`, noting each in `said`.
fn say(spans: &mut Vec<Span>, lang: crate::l10n::Lang, said: &mut Vec<Msg>) {
    if !spans.iter().any(|span| matches!(span, Span::Msg(_))) {
        return;
    }
    let mut out = Vec::with_capacity(spans.len());
    for span in spans.drain(..) {
        match span {
            Span::Msg(msg) => {
                out.extend(crate::l10n::spans(lang, &msg));
                said.push(msg);
            }
            span => out.push(span),
        }
    }
    *spans = out;
}

/// A file a reply carries: Telegram sends it as a document (the text as its caption when it
/// fits), Discord as an attachment, `tabula local` writes it to its folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    /// The file's name, e.g. `tabula-game-12.txt`.
    pub name: String,
    /// Its contents.
    pub bytes: Vec<u8>,
    /// What it is.
    pub kind: FileKind,
}

/// What a reply's file is: how a platform shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A file to keep (a game's record): Telegram's `sendDocument`.
    Document,
    /// An animation (a replay, GIF): Telegram's `sendAnimation`, which plays it in the chat.
    Animation,
}

impl Reply {
    /// The text with mentions written `@name` and game references `#n`.
    pub fn plain_text(&self) -> String {
        self.spans.iter().map(Span::plain).collect()
    }

    /// What the presser of a button sees at once: the toast, or, for a reply to them alone
    /// without buttons, its text (empty: nothing to show).
    pub fn toast_text(&self) -> String {
        if !self.toast.is_empty() {
            return self.toast.iter().map(Span::plain).collect();
        }
        if self.audience == Audience::Actor && self.buttons.is_empty() {
            return self.plain_text();
        }
        String::new()
    }

    /// Says every message of the reply (its spans and button labels) in `lang`.
    pub fn localize(&mut self, lang: crate::l10n::Lang) {
        say(&mut self.spans, lang, &mut self.said);
        say(&mut self.toast, lang, &mut self.said);
        say(&mut self.pressed_then, lang, &mut self.said);
        for button in self.buttons.iter_mut().flatten() {
            if let Some(msg) = button.label_msg.take() {
                button.label = msg.to_text(lang);
            }
        }
        for goto in &mut self.goto {
            if let Some(msg) = goto.label_msg.take() {
                goto.label = msg.to_text(lang);
            }
        }
        if let Some(open) = &mut self.open_thread
            && let Some(msg) = open.name_msg.take()
        {
            open.name = super::threads::thread_name(&msg.to_text(lang));
        }
    }

    /// The message `id` its text says (at any depth: a result inside a board's text), if it
    /// says it, as it was said ([`Reply::said`]).
    pub fn says(&self, id: &str) -> Option<&Msg> {
        self.said.iter().find_map(|msg| msg.find(id))
    }

    /// Every button, row by row.
    pub fn all_buttons(&self) -> impl Iterator<Item = &Button> {
        self.buttons.iter().flatten()
    }

    /// The refusal, if the request was refused.
    pub fn refusal(&self) -> Option<&UserError> {
        match &self.kind {
            Kind::Refused(error) => Some(error),
            _ => None,
        }
    }

    /// The same reply, for the person who acted only.
    #[must_use]
    pub fn to_actor(mut self) -> Reply {
        self.audience = Audience::Actor;
        self
    }

    /// The same reply, placed as said.
    #[must_use]
    pub fn placed(mut self, placement: Placement) -> Reply {
        self.placement = placement;
        self
    }

    /// The same reply, about a game.
    #[must_use]
    pub fn about(mut self, game: GameNo) -> Reply {
        self.game = Some(game);
        self
    }

    /// The same reply, of another kind.
    #[must_use]
    pub fn of_kind(mut self, kind: Kind) -> Reply {
        self.kind = kind;
        self
    }

    /// The reply to a request that ended a game (a resignation, a claim, an abort), shown as
    /// the game's last board: posted as new, taking the buttons off the game's older boards,
    /// its announcement held (`announced`), notifying the game's people, with the buttons
    /// under a result.
    #[must_use]
    pub(crate) fn into_final_board(
        mut self,
        record: &GameRecord,
        announced: Option<OutboxId>,
    ) -> Reply {
        self.placement = Placement::NewBoard;
        self.game = Some(record.id);
        self.board_seq = Some(record.seq);
        self.announced = announced;
        self.buttons = super::narration::ending_buttons(record);
        self.notify = super::narration::people_to_notify(record);
        self
    }

    /// The same board asked for again (`/board`, `/move` alone, a Board button): posted anew
    /// at the bottom of the chat, it becomes the game's live board (the older one loses its
    /// buttons, so that a game keeps one message with move buttons), and notifies nobody.
    #[must_use]
    pub fn as_look(mut self) -> Reply {
        self.placement = Placement::NewBoard;
        self.notify.clear();
        self.pressed = None;
        self
    }

    /// The same board as a note for the person who acted (a request already handled): a new
    /// message without buttons, recorded as no board, notifying nobody.
    #[must_use]
    pub fn as_note(mut self) -> Reply {
        self.placement = Placement::New;
        self.board_seq = None;
        self.buttons.clear();
        self.notify.clear();
        self.pressed = None;
        self
    }

    /// Whether a reply for one person, where a platform cannot show it to them alone (a
    /// Telegram group, where it is a reply to their message), is noise to clear away after a
    /// while: a refusal, a request already handled, a stale button. What the person asked for
    /// (`/help`, `/rules`, `/history`, `/games`, `/config`, `/wallet`) stays.
    #[must_use]
    pub fn fleeting(&self) -> bool {
        !matches!(self.kind, Kind::Done)
    }

    /// Whether the request was carried out.
    pub fn is_done(&self) -> bool {
        self.kind == Kind::Done
    }
}

/// A button: what it shows and the data it sends back (at most 64 bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Button {
    /// What it shows.
    pub label: String,
    /// What a press sends back as [`Input::Button`].
    pub data: String,
    /// The label as a message of the catalogue, said in the reply's language (it then
    /// replaces `label`) before the reply leaves the service; `None`: the label is notation.
    pub label_msg: Option<crate::l10n::Msg>,
}
