//! Telegram updates as the service's requests: who acted, in which chat (a forum topic is a
//! chat of its own), which command or button, and whom it mentions.
//!
//! Pure functions of the update; no network, no store.
//!
//! Chat identity: a group, supergroup or private chat is the chat `"<chat id>"`; a forum
//! topic is the chat `"<chat id>:<thread id>"`, so each topic is a table of its own (its games,
//! its board messages, its reminders), while settings and wallets belong to the group, which is
//! the community of every topic in it.

use teloxide::types::{
    CallbackQuery, ChatId, MaybeInaccessibleMessage, Message, MessageEntityKind, MessageId,
    ThreadId, Update, UpdateKind, User,
};

use tabula_service::service::{Input, Mention, Person, Request};
use tabula_service::store::Platform;

/// What an update asks of the bot.
#[derive(Debug)]
pub enum Incoming {
    /// A command or a button press for the service.
    Request(Box<Request>, Origin),
    /// A group became a supergroup: its chats move to the new id.
    Migrated {
        /// The group's id.
        from: ChatId,
        /// The supergroup's id.
        to: ChatId,
    },
    /// Nothing for the bot (ordinary chat, another bot, an update kind it does not use).
    Ignored,
}

/// Where a request came from, so that its reply can be placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The chat.
    pub chat: ChatId,
    /// The forum topic, if any.
    pub thread: Option<ThreadId>,
    /// Whether the chat is a private chat with the bot.
    pub private: bool,
    /// What was sent.
    pub trigger: Trigger,
}

/// A message or a button press.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trigger {
    /// A typed command: the person's message.
    Message(MessageId),
    /// A pressed button: the query to answer, and the message that carried the button.
    Button {
        /// The callback query's id.
        query: String,
        /// The pressed message, if Telegram still gives it.
        message: Option<MessageId>,
        /// Whether the pressed message is a photo (its text is a caption).
        photo: bool,
    },
}

/// The service's chat id of a Telegram chat and topic.
pub fn chat_key(chat: ChatId, thread: Option<ThreadId>) -> String {
    match thread {
        Some(thread) => format!("{}:{}", chat.0, thread.0.0),
        None => chat.0.to_string(),
    }
}

/// The Telegram chat and topic of a service chat id.
pub fn parse_chat_key(key: &str) -> Option<(ChatId, Option<ThreadId>)> {
    match key.split_once(':') {
        Some((chat, thread)) => Some((
            ChatId(chat.parse().ok()?),
            Some(ThreadId(MessageId(thread.parse().ok()?))),
        )),
        None => Some((ChatId(key.parse().ok()?), None)),
    }
}

/// The person a Telegram user is.
pub fn person(user: &User) -> Person {
    Person {
        id: user.id.0.to_string(),
        name: user.full_name(),
        username: user.username.clone(),
    }
}

/// The commands that name people, which a reply to someone's message names as well.
const NAMING_COMMANDS: [&str; 3] = ["play", "grant", "take"];

/// Translates one update. `bot_username` is the bot's own username, so that a command for
/// another bot is not taken as ours (the service checks it too).
pub fn translate(update: &Update, bot_username: &str) -> Incoming {
    match &update.kind {
        UpdateKind::Message(message) => from_message(update.id.0, message, bot_username),
        UpdateKind::CallbackQuery(query) => from_query(query, bot_username),
        _ => Incoming::Ignored,
    }
}

fn from_message(update_id: u32, message: &Message, bot_username: &str) -> Incoming {
    if let Some(to) = message.migrate_to_chat_id() {
        return Incoming::Migrated {
            from: message.chat.id,
            to: *to,
        };
    }
    if let Some(from) = message.migrate_from_chat_id() {
        return Incoming::Migrated {
            from: *from,
            to: message.chat.id,
        };
    }
    let (Some(user), Some(text)) = (message.from.as_ref(), message.text()) else {
        return Incoming::Ignored;
    };
    if user.is_bot {
        return Incoming::Ignored;
    }
    // A move written as a reply to one of the bot's boards (Telegram delivers replies to the
    // bot in privacy mode too) is that game's `/move`.
    let (mut text, mut mentions) = if text.starts_with('/') {
        mentions_in(text, message.entities().unwrap_or(&[]))
    } else if let Some(game) = replied_board(message, bot_username)
        && looks_like_a_move(text)
    {
        (format!("/move #{game} {}", text.trim()), Vec::new())
    } else {
        return Incoming::Ignored;
    };
    // `/play konane` sent as a reply to someone's message challenges that person.
    if mentions.is_empty()
        && let Some(other) = replied_person(message)
        && other.id != user.id
        && NAMING_COMMANDS.contains(&command_name(&text))
    {
        text.push_str(&format!(" <@{}>", other.id.0));
        mentions.push(Mention::Person(person(other)));
    }
    let origin = Origin {
        chat: message.chat.id,
        thread: topic(message),
        private: message.chat.is_private(),
        trigger: Trigger::Message(message.id),
    };
    let mut request = request(
        user,
        message,
        &origin,
        format!("u{update_id}"),
        bot_username,
    );
    request.mentions = mentions;
    request.input = Input::Command(text);
    Incoming::Request(Box::new(request), origin)
}

fn from_query(query: &CallbackQuery, bot_username: &str) -> Incoming {
    let Some(message) = query.message.as_ref() else {
        return Incoming::Ignored;
    };
    let regular = message.regular_message();
    let chat = message.chat();
    let origin = Origin {
        chat: chat.id,
        thread: regular.and_then(topic),
        private: chat.is_private(),
        trigger: Trigger::Button {
            query: query.id.0.clone(),
            message: Some(message.id()),
            photo: regular.is_some_and(|m| m.photo().is_some()),
        },
    };
    let data = query.data.clone().unwrap_or_default();
    let mut request = Request::new(
        Platform::Telegram,
        (chat_key(chat.id, origin.thread), chat_title(message)),
        person(&query.from),
        format!("cb{}", query.id.0),
        Input::Button(data),
    );
    request.community = Some((chat.id.0.to_string(), chat_title(message)));
    request.thread = origin.thread.map(|t| t.0.0.to_string());
    request.threads = is_forum(chat);
    request.locale.clone_from(&query.from.language_code);
    request.bot_username = Some(bot_username.to_string());
    request.private_chat = Some(query.from.id.0.to_string());
    request.moderator = origin.private;
    // Telegram chooses a callback query's id; the bot cannot predict it (committed dice).
    request.nonce = Some(query.id.0.clone());
    request.pressed = Some(message.id().0.to_string());
    request.group = !origin.private;
    Incoming::Request(Box::new(request), origin)
}

/// Whether a chat is a supergroup with topics turned on: it can hold a topic per game.
fn is_forum(chat: &teloxide::types::Chat) -> bool {
    use teloxide::types::{ChatKind, ChatPublic, PublicChatKind};
    matches!(
        &chat.kind,
        ChatKind::Public(ChatPublic {
            kind: PublicChatKind::Supergroup(supergroup),
            ..
        }) if supergroup.is_forum
    )
}

/// The request of a message, without its input and mentions.
fn request(
    user: &User,
    message: &Message,
    origin: &Origin,
    key: String,
    bot_username: &str,
) -> Request {
    let title = title_of(&message.chat);
    let mut request = Request::new(
        Platform::Telegram,
        (chat_key(origin.chat, origin.thread), title.clone()),
        person(user),
        key,
        Input::Command(String::new()),
    );
    request.community = Some((origin.chat.0.to_string(), title));
    request.thread = origin.thread.map(|t| t.0.0.to_string());
    request.threads = is_forum(&message.chat);
    request.locale.clone_from(&user.language_code);
    request.bot_username = Some(bot_username.to_string());
    // A person's private chat with a bot has the person's id.
    request.private_chat = Some(user.id.0.to_string());
    // In a private chat the person is the chat's only member, so its moderator; in a group
    // the adapter asks Telegram who administers it.
    request.moderator = origin.private;
    request.group = !origin.private;
    request.sent_at = Some(tabula_service::store::Timestamp(
        message.date.timestamp_millis(),
    ));
    request
}

/// The forum topic of a message, if it was sent in one.
fn topic(message: &Message) -> Option<ThreadId> {
    if message.is_topic_message {
        message.thread_id
    } else {
        None
    }
}

fn chat_title(message: &MaybeInaccessibleMessage) -> String {
    title_of(message.chat())
}

fn title_of(chat: &teloxide::types::Chat) -> String {
    if let Some(title) = chat.title() {
        return title.to_string();
    }
    let first = chat.first_name().unwrap_or_default();
    match chat.last_name() {
        Some(last) => format!("{first} {last}"),
        None => first.to_string(),
    }
}

/// The person whose message this one replies to, if it is a real reply (in a forum, every
/// message of a topic "replies" to the topic's first message, which is no reply at all).
fn replied_person(message: &Message) -> Option<&User> {
    let replied = message.reply_to_message()?;
    if replied.forum_topic_created().is_some()
        || message.thread_id.is_some_and(|t| t.0 == replied.id)
    {
        return None;
    }
    replied.from.as_ref().filter(|user| !user.is_bot)
}

/// The game of the bot's board that `message` replies to: the game its move buttons play, or
/// else the first `#number` its text or caption names (an old board says "Game #3 …").
fn replied_board(message: &Message, bot_username: &str) -> Option<i64> {
    let replied = message.reply_to_message()?;
    let from = replied.from.as_ref()?;
    if !from.is_bot || from.username.as_deref() != Some(bot_username) {
        return None;
    }
    let from_buttons = replied.reply_markup().and_then(|markup| {
        markup.inline_keyboard.iter().flatten().find_map(|button| {
            let teloxide::types::InlineKeyboardButtonKind::CallbackData(data) = &button.kind else {
                return None;
            };
            let rest = data.strip_prefix('m').or_else(|| data.strip_prefix('p'))?;
            rest.split('.').next()?.parse().ok()
        })
    });
    from_buttons.or_else(|| {
        let text = replied.text().or(replied.caption())?;
        let at = text.find('#')?;
        let digits: String = text[at + 1..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse().ok()
    })
}

/// Whether a reply's text reads as a move ("d6-d4", "h2+4", "A1-A3"): one short word with a
/// digit, so that talk in reply to a board is left alone.
fn looks_like_a_move(text: &str) -> bool {
    let text = text.trim();
    !text.is_empty()
        && text.chars().count() <= 24
        && !text.contains(char::is_whitespace)
        && text.contains(|c: char| c.is_ascii_digit())
}

/// The command's name, lower case, without `/` or `@bot`.
fn command_name(text: &str) -> &str {
    let word = text.split_whitespace().next().unwrap_or_default();
    let word = word.strip_prefix('/').unwrap_or(word);
    word.split('@').next().unwrap_or_default()
}

/// The mentions of a message's entities, in order, and its text with each `text_mention`
/// (a person without a username, shown by name) written as `<@id>`, the catalogue's token of
/// a person the platform identified.
fn mentions_in(text: &str, entities: &[teloxide::types::MessageEntity]) -> (String, Vec<Mention>) {
    let mut entities: Vec<_> = entities
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                MessageEntityKind::Mention | MessageEntityKind::TextMention { .. }
            )
        })
        .collect();
    entities.sort_by_key(|e| e.offset);
    let mut out = String::with_capacity(text.len());
    let mut mentions = Vec::new();
    let mut done = 0;
    for entity in entities {
        let (Some(start), Some(end)) = (
            byte_index(text, entity.offset),
            byte_index(text, entity.offset + entity.length),
        ) else {
            continue;
        };
        if start < done {
            continue;
        }
        match &entity.kind {
            MessageEntityKind::Mention => {
                let name = text[start..end].trim_start_matches('@');
                mentions.push(Mention::Username(name.to_string()));
            }
            MessageEntityKind::TextMention { user } => {
                out.push_str(&text[done..start]);
                out.push_str(&format!("<@{}>", user.id.0));
                done = end;
                mentions.push(Mention::Person(person(user)));
            }
            _ => {}
        }
    }
    out.push_str(&text[done..]);
    (out, mentions)
}

/// The byte index of a UTF-16 offset into `text`, if it falls on a character boundary.
fn byte_index(text: &str, utf16: usize) -> Option<usize> {
    let mut units = 0;
    for (index, c) in text.char_indices() {
        if units == utf16 {
            return Some(index);
        }
        units += c.len_utf16();
    }
    (units == utf16).then_some(text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn update(json: serde_json::Value) -> Update {
        // As it comes from Telegram: text.
        let update: Update = serde_json::from_str(&json.to_string()).expect("a valid update");
        if let UpdateKind::Error(value) = &update.kind {
            let message: Result<Message, _> = serde_json::from_str(&json["message"].to_string());
            panic!("teloxide cannot read the update: {message:?} {value}");
        }
        update
    }

    fn user(id: u64, name: &str, username: Option<&str>) -> serde_json::Value {
        let mut user = serde_json::json!({"id": id, "is_bot": false, "first_name": name});
        if let Some(username) = username {
            user["username"] = username.into();
        }
        user
    }

    fn group() -> serde_json::Value {
        serde_json::json!({"id": -5001, "type": "group", "title": "Players"})
    }

    fn message(text: &str, entities: serde_json::Value) -> serde_json::Value {
        serde_json::json!({
            "message_id": 7, "date": 1_700_000_000, "chat": group(),
            "from": user(11, "Alice", Some("alice")), "text": text, "entities": entities,
        })
    }

    fn request_of(incoming: Incoming) -> (Request, Origin) {
        match incoming {
            Incoming::Request(request, origin) => (*request, origin),
            other => panic!("not a request: {other:?}"),
        }
    }

    #[test]
    fn a_command_with_mentions() {
        let text = "/play konane @bob Ünal x";
        let u = update(
            serde_json::json!({"update_id": 5, "message": message(text, serde_json::json!([
                {"type": "bot_command", "offset": 0, "length": 5},
                {"type": "mention", "offset": 13, "length": 4},
                {"type": "text_mention", "offset": 18, "length": 4, "user": user(22, "Ünal", None)},
            ]))}),
        );
        let (request, origin) = request_of(translate(&u, "tabula_bot"));
        assert_eq!(
            request.input,
            Input::Command("/play konane @bob <@22> x".into())
        );
        assert_eq!(
            request.mentions,
            vec![
                Mention::Username("bob".into()),
                Mention::Person(Person::new("22", "Ünal"))
            ]
        );
        assert_eq!(request.chat, ("-5001".to_string(), "Players".to_string()));
        assert_eq!(
            request.community,
            Some(("-5001".to_string(), "Players".to_string()))
        );
        assert_eq!(request.request_key, "u5");
        // Update ids count up: a typed command salts nothing.
        assert_eq!(request.nonce, None);
        assert_eq!(
            request.actor,
            Person::new("11", "Alice").with_username("alice")
        );
        assert!(!request.moderator);
        assert_eq!(origin.trigger, Trigger::Message(MessageId(7)));
    }

    #[test]
    fn ordinary_chat_and_other_bots_are_ignored() {
        let u = update(
            serde_json::json!({"update_id": 1, "message": message("hello", serde_json::json!([]))}),
        );
        assert!(matches!(translate(&u, "tabula_bot"), Incoming::Ignored));
        let mut m = message("/help", serde_json::json!([]));
        m["from"]["is_bot"] = true.into();
        let u = update(serde_json::json!({"update_id": 2, "message": m}));
        assert!(matches!(translate(&u, "tabula_bot"), Incoming::Ignored));
    }

    #[test]
    fn a_move_written_in_reply_to_a_board_is_that_games_move() {
        let board = |markup: serde_json::Value, caption: &str| {
            serde_json::json!({
                "message_id": 3, "date": 1_700_000_000, "chat": group(),
                "from": {"id": 99, "is_bot": true, "first_name": "Tabula", "username": "tabula_bot"},
                "photo": [{"file_id": "f", "file_unique_id": "u", "width": 1, "height": 1}],
                "caption": caption, "reply_markup": markup,
            })
        };
        let buttons = serde_json::json!({"inline_keyboard": [[
            {"text": "d6-d4", "callback_data": "m12.4.0"},
        ]]});
        let reply = |text: &str, replied: serde_json::Value| {
            let mut m = message(text, serde_json::json!([]));
            m["reply_to_message"] = replied;
            update(serde_json::json!({"update_id": 9, "message": m}))
        };
        let (request, _) = request_of(translate(
            &reply(" d6-d4 ", board(buttons.clone(), "Game #12 (Konane)")),
            "tabula_bot",
        ));
        assert_eq!(request.input, Input::Command("/move #12 d6-d4".into()));
        // An old board without buttons: the game its caption names.
        let (request, _) = request_of(translate(
            &reply(
                "f5-d5",
                board(
                    serde_json::json!({"inline_keyboard": []}),
                    "Game #7 (Koan): Bob played A1-A3 next.",
                ),
            ),
            "tabula_bot",
        ));
        assert_eq!(request.input, Input::Command("/move #7 f5-d5".into()));
        // Talk in reply to a board, a reply to another bot's message, a reply to a person:
        // left alone.
        for ignored in [
            reply("nice move!", board(buttons.clone(), "Game #12")),
            reply("well played", board(buttons.clone(), "Game #12")),
            {
                let mut other = board(buttons.clone(), "Game #12");
                other["from"]["username"] = "other_bot".into();
                reply("d6-d4", other)
            },
            reply("d6-d4", message("hello", serde_json::json!([]))),
        ] {
            assert!(matches!(
                translate(&ignored, "tabula_bot"),
                Incoming::Ignored
            ));
        }
    }

    #[test]
    fn a_reply_to_someone_challenges_them() {
        let mut m = message("/play konane", serde_json::json!([]));
        m["reply_to_message"] = serde_json::json!({
            "message_id": 3, "date": 1_700_000_000, "chat": group(),
            "from": user(33, "Carol", None), "text": "anyone?",
        });
        let u = update(serde_json::json!({"update_id": 9, "message": m}));
        let (request, _) = request_of(translate(&u, "tabula_bot"));
        assert_eq!(request.input, Input::Command("/play konane <@33>".into()));
        assert_eq!(
            request.mentions,
            vec![Mention::Person(Person::new("33", "Carol"))]
        );
    }

    #[test]
    fn a_forum_topic_is_its_own_chat() {
        let mut m = message("/board", serde_json::json!([]));
        m["chat"] = serde_json::json!({"id": -100_777, "type": "supergroup", "title": "Club", "is_forum": true});
        m["message_thread_id"] = 42.into();
        m["is_topic_message"] = true.into();
        m["reply_to_message"] = serde_json::json!({
            "message_id": 42, "date": 1_700_000_000, "chat": m["chat"].clone(),
            "from": user(33, "Carol", None),
            "forum_topic_created": {"name": "Konane", "icon_color": 7_322_096},
        });
        let u = update(serde_json::json!({"update_id": 9, "message": m}));
        let (request, origin) = request_of(translate(&u, "tabula_bot"));
        assert_eq!(request.chat.0, "-100777:42");
        assert_eq!(request.community.map(|c| c.0).as_deref(), Some("-100777"));
        assert!(
            request.mentions.is_empty(),
            "the topic's first message is no reply"
        );
        assert_eq!(origin.thread, Some(ThreadId(MessageId(42))));
        assert_eq!(
            parse_chat_key("-100777:42"),
            Some((ChatId(-100_777), Some(ThreadId(MessageId(42)))))
        );
        assert_eq!(parse_chat_key("-5"), Some((ChatId(-5), None)));
        assert_eq!(parse_chat_key("x"), None);
    }

    #[test]
    fn a_button_press() {
        let u = update(serde_json::json!({"update_id": 10, "callback_query": {
            "id": "q1", "from": user(22, "Bob", Some("bob")), "chat_instance": "ci",
            "data": "m1.0.3",
            "message": {"message_id": 8, "date": 1_700_000_000, "chat": group(),
                        "from": {"id": 99, "is_bot": true, "first_name": "Tabula"},
                        "photo": [{"file_id": "f", "file_unique_id": "u", "width": 720, "height": 720}]},
        }}));
        let (request, origin) = request_of(translate(&u, "tabula_bot"));
        assert_eq!(request.input, Input::Button("m1.0.3".into()));
        assert_eq!(request.request_key, "cbq1");
        assert_eq!(request.nonce.as_deref(), Some("q1"));
        assert_eq!(
            origin.trigger,
            Trigger::Button {
                query: "q1".into(),
                message: Some(MessageId(8)),
                photo: true
            }
        );
    }

    #[test]
    fn migration() {
        let mut m = message("", serde_json::json!([]));
        m.as_object_mut().map(|o| o.remove("text"));
        m["migrate_to_chat_id"] = (-100_123_i64).into();
        let u = update(serde_json::json!({"update_id": 11, "message": m}));
        assert!(matches!(
            translate(&u, "tabula_bot"),
            Incoming::Migrated {
                from: ChatId(-5001),
                to: ChatId(-100_123)
            }
        ));
    }
}
