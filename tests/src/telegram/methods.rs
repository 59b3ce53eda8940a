//! The Bot API methods the fake implements, on parameters already checked against the spec and
//! turned into JSON types: sending (`sendMessage`, `sendPhoto`, `sendAnimation`,
//! `sendDocument`), editing, deleting, callback answers, commands, chat information, and forum
//! topics (`createForumTopic`, `closeForumTopic`, `reopenForumTopic`).
//! Updates and webhooks are in `updates.rs`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use super::Inner;
use super::events::{service_message, topic_toggled};
use super::markup::{self, Entity};
use super::server::{ApiError, Files};
use super::state::{
    BotStanding, ChatKind, ChatRecord, Content, DEFAULT_TOPIC_COLOR, FakeMessage, FakeTopic, Media,
    MediaKind, State, TOPIC_COLORS, unix_now,
};
use super::updates;

type Params = Map<String, Value>;

/// Runs `method` (its spelling in the spec).
///
/// # Errors
///
/// Telegram's refusal.
pub async fn call(
    inner: &Arc<Inner>,
    method: &str,
    p: &Params,
    files: &Files,
) -> Result<Value, ApiError> {
    match method {
        "getUpdates" => return updates::get_updates(inner, p).await,
        "setWebhook" => return updates::set_webhook(inner, p),
        "deleteWebhook" => return updates::delete_webhook(inner, p),
        "getWebhookInfo" => return Ok(updates::webhook_info(inner)),
        _ => {}
    }
    let mut state = inner.lock();
    let state = &mut *state;
    match method {
        "getMe" => {
            let mut me = state.bot_json();
            me["can_read_all_group_messages"] = json!(!state.privacy_mode);
            for (k, v) in [
                ("can_join_groups", true),
                ("supports_inline_queries", false),
                ("can_connect_to_business", false),
                ("has_main_web_app", false),
            ] {
                me[k] = json!(v);
            }
            Ok(me)
        }
        "sendMessage" => send(state, p, files, None),
        "sendPhoto" => send(state, p, files, Some(MediaKind::Photo)),
        "sendAnimation" => send(state, p, files, Some(MediaKind::Animation)),
        "sendDocument" => send(state, p, files, Some(MediaKind::Document)),
        "editMessageText"
        | "editMessageCaption"
        | "editMessageReplyMarkup"
        | "editMessageMedia" => edit(state, method, p, files),
        "deleteMessage" => delete(state, p),
        "answerCallbackQuery" => answer_callback(state, p),
        "setMyCommands" | "getMyCommands" | "deleteMyCommands" => commands(state, method, p),
        "getChat" => get_chat(state, p),
        "getChatAdministrators" => {
            let chat = chat_of(state, p)?;
            if chat.kind == ChatKind::Private {
                return Err(ApiError::bad(
                    "there are no administrators in the private chat",
                ));
            }
            let mut ids: Vec<i64> = chat
                .creator
                .into_iter()
                .chain(chat.admins.iter().copied())
                .collect();
            if chat.bot == BotStanding::Administrator {
                ids.push(state.bot_id);
            }
            Ok(Value::Array(
                ids.iter().map(|&u| state.member_json(chat, u)).collect(),
            ))
        }
        "getChatMember" => {
            let chat = chat_of(state, p)?;
            let user = int(p, "user_id").unwrap_or(0);
            if state.user_json(user).is_none() {
                return Err(ApiError::bad("user not found"));
            }
            Ok(state.member_json(chat, user))
        }
        "sendChatAction" => send_chat_of(state, p).map(|_| json!(true)),
        "createForumTopic" => create_topic(state, p),
        "closeForumTopic" => toggle_topic(state, p, true),
        "reopenForumTopic" => toggle_topic(state, p, false),
        other => Err(ApiError::unsupported(&format!("method {other}"))),
    }
}

fn int(p: &Params, k: &str) -> Option<i64> {
    p.get(k).and_then(Value::as_i64)
}

fn text<'a>(p: &'a Params, k: &str) -> Option<&'a str> {
    p.get(k).and_then(Value::as_str)
}

fn chat_id(state: &State, p: &Params) -> Result<i64, ApiError> {
    match p.get("chat_id") {
        Some(Value::Number(n)) => n.as_i64().ok_or_else(|| ApiError::bad("chat not found")),
        Some(Value::String(name)) => {
            let name = name.trim_start_matches('@');
            state
                .chats
                .values()
                .find(|c| {
                    c.kind == ChatKind::Private
                        && c.private_user
                            .and_then(|u| state.users.get(&u))
                            .and_then(|u| u.username.as_deref())
                            .is_some_and(|n| n.eq_ignore_ascii_case(name))
                })
                .map(|c| c.id)
                .ok_or_else(|| ApiError::bad("chat not found"))
        }
        _ => Err(ApiError::bad("chat_id is empty")),
    }
}

fn chat_of<'a>(state: &'a State, p: &Params) -> Result<&'a ChatRecord, ApiError> {
    let id = chat_id(state, p)?;
    state
        .target_chat(id)
        .map_err(|(status, d, params)| state_error(status, d, params))
}

/// The chat of `chat_id` for a new message or a chat action ([`State::send_target`]).
fn send_chat_of<'a>(state: &'a State, p: &Params) -> Result<&'a ChatRecord, ApiError> {
    let id = chat_id(state, p)?;
    state
        .send_target(id)
        .map_err(|(status, d, params)| state_error(status, d, params))
}

fn state_error(status: u16, description: String, parameters: Option<Value>) -> ApiError {
    if description.starts_with("Bad Request: chat not found") {
        return ApiError::bad("chat not found");
    }
    ApiError::refused(status, description, parameters)
}

/// Text or caption with its entities, as Telegram stores them after parsing.
fn parse_text(
    state: &State,
    source: &str,
    parse_mode: Option<&str>,
    entities: Option<&Value>,
) -> Result<(String, Vec<Entity>), ApiError> {
    let (plain, mut list) = if let Some(Value::Array(given)) = entities {
        (
            source.to_owned(),
            given.iter().map(Entity::from_json).collect(),
        )
    } else {
        match parse_mode {
            None | Some("") => (source.to_owned(), Vec::new()),
            Some(mode) if mode.eq_ignore_ascii_case("html") => {
                let lookup = |id: i64| state.users.get(&id).map(super::state::UserRecord::to_json);
                markup::parse_html(source, &lookup)
                    .map_err(|e| ApiError::bad(format!("can't parse entities: {e}")))?
            }
            Some(mode)
                if mode.eq_ignore_ascii_case("markdownv2")
                    || mode.eq_ignore_ascii_case("markdown") =>
            {
                return Err(ApiError::unsupported(&format!("parse_mode {mode}")));
            }
            Some(_) => return Err(ApiError::bad("unsupported parse_mode")),
        }
    };
    let units = markup::utf16_len(&plain);
    if list.iter().any(|e| e.offset + e.length > units) {
        return Err(ApiError::bad(
            "can't parse entities: entity beyond the end of the text",
        ));
    }
    markup::add_detected(&plain, &mut list);
    Ok((plain, list))
}

/// The inline keyboard of a request, as a message keeps it (an empty one is none; reply
/// keyboards are not part of the message).
fn inline_markup(p: &Params) -> Option<Value> {
    p.get("reply_markup")
        .filter(|m| {
            m.get("inline_keyboard")
                .and_then(Value::as_array)
                .is_some_and(|rows| {
                    rows.iter()
                        .any(|r| r.as_array().is_some_and(|r| !r.is_empty()))
                })
        })
        .cloned()
}

/// Checks an inline keyboard: every button has one action; `callback_data` 1-64 bytes; a URL
/// Telegram takes.
fn check_markup(markup: Option<&Value>) -> Result<(), ApiError> {
    let Some(rows) = markup
        .and_then(|m| m.get("inline_keyboard"))
        .and_then(Value::as_array)
    else {
        return Ok(());
    };
    for button in rows.iter().filter_map(Value::as_array).flatten() {
        let Some(obj) = button.as_object() else {
            continue;
        };
        if obj
            .get("text")
            .and_then(Value::as_str)
            .is_none_or(str::is_empty)
        {
            return Err(ApiError::bad("BUTTON_TEXT_EMPTY"));
        }
        let actions = obj
            .keys()
            .filter(|k| !matches!(k.as_str(), "text" | "icon_custom_emoji_id" | "style"))
            .count();
        if actions != 1 {
            return Err(ApiError::bad(
                "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard",
            ));
        }
        if let Some(data) = obj.get("callback_data").and_then(Value::as_str)
            && (data.is_empty() || data.len() > 64)
        {
            return Err(ApiError::bad("BUTTON_DATA_INVALID"));
        }
        if let Some(url) = obj.get("url").and_then(Value::as_str)
            && !button_url_taken(url)
        {
            return Err(ApiError::bad("BUTTON_URL_INVALID"));
        }
    }
    Ok(())
}

/// Whether Telegram takes `url` for a URL button: "HTTP or tg:// URL" (the specification),
/// and, as Telegram is seen to answer `BUTTON_URL_INVALID` to `http://localhost:8080/...`,
/// an HTTP address whose host has no dot is refused.
fn button_url_taken(url: &str) -> bool {
    let Ok(parsed) = reqwest::Url::parse(url) else {
        return false;
    };
    match parsed.scheme() {
        "http" | "https" => parsed.host_str().is_some_and(|host| host.contains('.')),
        "tg" => true,
        _ => false,
    }
}

fn media_from(
    state: &mut State,
    kind: MediaKind,
    value: Option<&Value>,
    direct: Option<&super::server::FilePart>,
    files: &Files,
) -> Result<Media, ApiError> {
    let part = match value.and_then(Value::as_str) {
        Some(s) if s.starts_with("attach://") => files.get(&s["attach://".len()..]).or(direct),
        Some(_) => None,
        None => direct,
    };
    if let Some(part) = part {
        if part.bytes.is_empty() {
            return Err(ApiError::bad("file must be non-empty"));
        }
        return Ok(Media {
            kind,
            file_id: state.take_file_id(),
            bytes: Some(part.bytes.clone()),
            source: part.file_name.clone(),
        });
    }
    let Some(s) = value.and_then(Value::as_str) else {
        return Err(ApiError::bad("there is no file in the request"));
    };
    let known = state
        .messages
        .values()
        .filter_map(|m| m.content.media.as_ref())
        .find(|m| m.file_id == s)
        .cloned();
    if let Some(m) = known {
        return Ok(Media { kind, ..m });
    }
    if s.starts_with("http://") || s.starts_with("https://") {
        return Ok(Media {
            kind,
            file_id: state.take_file_id(),
            bytes: None,
            source: s.to_owned(),
        });
    }
    Err(ApiError::bad("wrong file identifier/HTTP URL specified"))
}

fn check_lengths(content: &Content) -> Result<(), ApiError> {
    if let Some(t) = &content.text {
        if t.trim().is_empty() {
            return Err(ApiError::bad("message text is empty"));
        }
        if markup::char_len(t) > 4096 {
            return Err(ApiError::bad("message is too long"));
        }
    }
    if content
        .caption
        .as_deref()
        .is_some_and(|c| markup::char_len(c) > 1024)
    {
        return Err(ApiError::bad("message caption is too long"));
    }
    Ok(())
}

fn send(
    state: &mut State,
    p: &Params,
    files: &Files,
    kind: Option<MediaKind>,
) -> Result<Value, ApiError> {
    let chat = send_chat_of(state, p)?.clone();
    let mut thread_id = int(p, "message_thread_id");
    if chat.is_forum {
        if thread_id.is_some_and(|t| !chat.topics.contains_key(&t)) {
            return Err(ApiError::bad("message thread not found"));
        }
    } else if chat.kind != ChatKind::Supergroup {
        thread_id = None;
    }
    let parse_mode = text(p, "parse_mode");
    let mut content = Content {
        text: None,
        caption: None,
        entities: Vec::new(),
        parse_mode: parse_mode.map(str::to_owned),
        media: None,
        reply_markup: inline_markup(p),
    };
    match kind {
        None => {
            let (t, e) = parse_text(
                state,
                text(p, "text").unwrap_or(""),
                parse_mode,
                p.get("entities"),
            )?;
            content.text = Some(t);
            content.entities = e;
        }
        Some(_) => {
            if let Some(caption) = text(p, "caption") {
                let (c, e) = parse_text(state, caption, parse_mode, p.get("caption_entities"))?;
                content.caption = Some(c);
                content.entities = e;
            }
        }
    }
    check_lengths(&content)?;
    check_markup(content.reply_markup.as_ref())?;
    let mut reply_to = None;
    if let Some(reply) = p.get("reply_parameters") {
        let target_chat = reply
            .get("chat_id")
            .and_then(Value::as_i64)
            .unwrap_or(chat.id);
        let id = reply.get("message_id").and_then(Value::as_i64).unwrap_or(0);
        let exists = state
            .messages
            .get(&(target_chat, id))
            .is_some_and(|m| !m.deleted);
        let lenient = reply
            .get("allow_sending_without_reply")
            .and_then(Value::as_bool)
            == Some(true);
        if target_chat != chat.id {
            return Err(ApiError::unsupported(
                "a reply to a message of another chat",
            ));
        }
        if exists {
            reply_to = Some(id);
        } else if !lenient {
            return Err(ApiError::bad("message to be replied not found"));
        }
    }
    if let Some(thread) = thread_id
        && chat.topics.get(&thread).is_some_and(|topic| topic.closed)
        && !chat.bot_manages_topics()
    {
        // A person may close a topic at any time: the platform's state, not a bad request.
        return Err(ApiError::refused(
            400,
            "Bad Request: TOPIC_CLOSED".to_owned(),
            None,
        ));
    }
    rate_limit(state, &chat)?;
    if let Some(kind) = kind {
        let field = match kind {
            MediaKind::Photo => "photo",
            MediaKind::Animation => "animation",
            MediaKind::Document => "document",
        };
        content.media = Some(media_from(
            state,
            kind,
            p.get(field),
            files.get(field),
            files,
        )?);
    }
    let is_topic_message = chat.is_forum && thread_id.is_some();
    if is_topic_message && reply_to.is_none() {
        reply_to = thread_id;
    }
    let message = FakeMessage {
        chat_id: chat.id,
        message_id: state.take_message_id(chat.id),
        from: Some(state.bot_id),
        from_bot: true,
        date: unix_now(),
        content,
        thread_id,
        is_topic_message,
        reply_to,
        deleted: false,
        history: Vec::new(),
        edit_date: None,
        service: Map::new(),
    };
    let json = state.message_json(&message, false);
    state
        .messages
        .insert((chat.id, message.message_id), message);
    Ok(json)
}

/// The documented limits on sending: per chat per second, per group per minute, overall per
/// second. Counts every `send*` call that passed its checks.
fn rate_limit(state: &mut State, chat: &ChatRecord) -> Result<(), ApiError> {
    let now = Instant::now();
    let limits = state.rate;
    while state
        .sends
        .front()
        .is_some_and(|(t, _)| now.duration_since(*t) > Duration::from_secs(61))
    {
        state.sends.pop_front();
    }
    let window = |len: Duration, in_chat: bool, max: u32| -> Option<u64> {
        let len = len.saturating_sub(limits.slack);
        let recent: Vec<Instant> = state
            .sends
            .iter()
            .filter(|(t, c)| (!in_chat || *c == chat.id) && now.duration_since(*t) < len)
            .map(|(t, _)| *t)
            .collect();
        if recent.len() < usize::try_from(max).unwrap_or(usize::MAX) {
            return None;
        }
        let oldest = recent.first().copied().unwrap_or(now);
        let wait = len.saturating_sub(now.duration_since(oldest));
        Some(wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).map(|s| s.max(1))
    };
    let mut retry = window(Duration::from_secs(1), true, limits.per_chat_per_second);
    if chat.kind != ChatKind::Private {
        retry =
            retry.or_else(|| window(Duration::from_secs(60), true, limits.per_group_per_minute));
    }
    retry = retry.or_else(|| window(Duration::from_secs(1), false, limits.overall_per_second));
    if let Some(after) = retry {
        return Err(ApiError::refused(
            429,
            format!("Too Many Requests: retry after {after}"),
            Some(json!({"retry_after": after})),
        ));
    }
    state.sends.push_back((now, chat.id));
    Ok(())
}

fn edit(state: &mut State, method: &str, p: &Params, files: &Files) -> Result<Value, ApiError> {
    if p.contains_key("inline_message_id") {
        return Err(ApiError::unsupported("inline_message_id"));
    }
    let chat = chat_of(state, p)?.clone();
    let Some(id) = int(p, "message_id") else {
        return Err(ApiError::bad("message identifier is not specified"));
    };
    let Some(old) = state
        .messages
        .get(&(chat.id, id))
        .filter(|m| !m.deleted)
        .cloned()
    else {
        return Err(ApiError::bad("message to edit not found"));
    };
    if !old.from_bot {
        return Err(ApiError::bad("message can't be edited"));
    }
    let mut content = old.content.clone();
    content.reply_markup = inline_markup(p);
    let parse_mode = text(p, "parse_mode");
    match method {
        "editMessageText" => {
            if content.text.is_none() {
                return Err(ApiError::bad("there is no text in the message to edit"));
            }
            let (t, e) = parse_text(
                state,
                text(p, "text").unwrap_or(""),
                parse_mode,
                p.get("entities"),
            )?;
            content.text = Some(t);
            content.entities = e;
            content.parse_mode = parse_mode.map(str::to_owned);
        }
        "editMessageCaption" => {
            if content.media.is_none() {
                return Err(ApiError::bad("there is no caption in the message to edit"));
            }
            let source = text(p, "caption").unwrap_or("");
            let (c, e) = parse_text(state, source, parse_mode, p.get("caption_entities"))?;
            content.caption = Some(c);
            content.entities = e;
            content.parse_mode = parse_mode.map(str::to_owned);
        }
        "editMessageMedia" => {
            if content.media.is_none() {
                return Err(ApiError::bad("there is no media in the message to edit"));
            }
            let media = p.get("media").cloned().unwrap_or(Value::Null);
            let kind = match media.get("type").and_then(Value::as_str) {
                Some("photo") => MediaKind::Photo,
                Some("animation") => MediaKind::Animation,
                Some("document") => MediaKind::Document,
                Some(other) => {
                    return Err(ApiError::unsupported(&format!(
                        "InputMedia of type {other}"
                    )));
                }
                None => return Err(ApiError::bad("can't parse InputMedia")),
            };
            let mode = media.get("parse_mode").and_then(Value::as_str);
            let (c, e) = match media.get("caption").and_then(Value::as_str) {
                Some(caption) => parse_text(state, caption, mode, media.get("caption_entities"))?,
                None => (String::new(), Vec::new()),
            };
            content.caption = Some(c);
            content.entities = e;
            content.parse_mode = mode.map(str::to_owned);
            content.media = Some(media_from(state, kind, media.get("media"), None, files)?);
        }
        _ => {}
    }
    check_lengths(&content)?;
    check_markup(content.reply_markup.as_ref())?;
    let same = content.text == old.content.text
        && content.caption == old.content.caption
        && content.entities == old.content.entities
        && content.media == old.content.media
        && content.reply_markup == old.content.reply_markup;
    if same {
        return Err(ApiError::bad(
            "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
        ));
    }
    let mut message = old;
    message
        .history
        .push((message.content.clone(), Instant::now()));
    message.content = content;
    message.edit_date = Some(unix_now());
    let json = state.message_json(&message, false);
    state.messages.insert((chat.id, id), message);
    Ok(json)
}

fn delete(state: &mut State, p: &Params) -> Result<Value, ApiError> {
    let chat = chat_of(state, p)?.clone();
    let id = int(p, "message_id").unwrap_or(0);
    let Some(message) = state
        .messages
        .get_mut(&(chat.id, id))
        .filter(|m| !m.deleted)
    else {
        return Err(ApiError::bad("message to delete not found"));
    };
    let may = message.from_bot
        || chat.kind == ChatKind::Private
        || chat.bot == BotStanding::Administrator;
    if !may {
        return Err(ApiError::bad("message can't be deleted"));
    }
    message.deleted = true;
    Ok(json!(true))
}

fn answer_callback(state: &mut State, p: &Params) -> Result<Value, ApiError> {
    let id = text(p, "callback_query_id").unwrap_or("");
    let deadline = state.callback_deadline;
    let too_old =
        || ApiError::bad("query is too old and response timeout expired or query ID is invalid");
    let Some(query) = state.callbacks.iter_mut().find(|q| q.id == id) else {
        return Err(too_old());
    };
    query.answers += 1;
    if query.answered_at.is_some() || query.pressed_at.elapsed() > deadline {
        return Err(too_old());
    }
    if text(p, "text").is_some_and(|t| markup::char_len(t) > 200) {
        return Err(ApiError::bad("MESSAGE_TOO_LONG"));
    }
    query.answered_at = Some(Instant::now());
    query.answer = Some(Value::Object(p.clone()));
    Ok(json!(true))
}

/// The key under which commands are kept: the scope (`default`, `chat:-100..`, ...) and the
/// language code (`""` for all).
pub fn scope_key(scope: Option<&Value>) -> String {
    let Some(scope) = scope else {
        return "default".to_owned();
    };
    let kind = scope
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("default");
    let mut key = kind.to_owned();
    for field in ["chat_id", "user_id"] {
        if let Some(v) = scope.get(field) {
            key.push(':');
            key.push_str(&v.as_str().map_or_else(|| v.to_string(), str::to_owned));
        }
    }
    key
}

fn commands(state: &mut State, method: &str, p: &Params) -> Result<Value, ApiError> {
    let lang = text(p, "language_code").unwrap_or("").to_owned();
    if !(lang.is_empty() || (lang.len() == 2 && lang.bytes().all(|b| b.is_ascii_lowercase()))) {
        return Err(ApiError::bad("LANG_CODE_INVALID"));
    }
    if let Some(chat) = p.get("scope").and_then(|s| s.get("chat_id")) {
        let mut q = Params::new();
        q.insert("chat_id".to_owned(), chat.clone());
        chat_of(state, &q)?;
    }
    let key = (scope_key(p.get("scope")), lang);
    match method {
        "getMyCommands" => {
            let list = state.commands.get(&key).cloned().unwrap_or_default();
            Ok(Value::Array(
                list.into_iter()
                    .map(|(c, d)| json!({"command": c, "description": d}))
                    .collect(),
            ))
        }
        "deleteMyCommands" => {
            state.commands.remove(&key);
            Ok(json!(true))
        }
        _ => {
            let given = p
                .get("commands")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            if given.len() > 100 {
                return Err(ApiError::bad("BOT_COMMANDS_TOO_MUCH"));
            }
            let mut list = Vec::new();
            for c in &given {
                let command = c.get("command").and_then(Value::as_str).unwrap_or("");
                let description = c.get("description").and_then(Value::as_str).unwrap_or("");
                let valid = (1..=32).contains(&command.len())
                    && command
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
                if !valid {
                    return Err(ApiError::bad("BOT_COMMAND_INVALID"));
                }
                if !(1..=256).contains(&markup::char_len(description.trim())) {
                    return Err(ApiError::bad("BOT_COMMAND_DESCRIPTION_INVALID"));
                }
                list.push((command.to_owned(), description.to_owned()));
            }
            if list.is_empty() {
                state.commands.remove(&key);
            } else {
                state.commands.insert(key, list);
            }
            Ok(json!(true))
        }
    }
}

fn get_chat(state: &State, p: &Params) -> Result<Value, ApiError> {
    let chat = chat_of(state, p)?;
    let mut v = state.chat_json(chat);
    v["accent_color_id"] = json!(0);
    v["max_reaction_count"] = json!(11);
    v["accepted_gift_types"] = json!({"unlimited_gifts": false, "limited_gifts": false,
        "unique_gifts": false, "premium_subscription": false, "gifts_from_channels": false});
    Ok(v)
}

/// The forum a topic method names: refused unless the chat is a forum supergroup (private chats
/// with topics are not modelled: the bot has no threaded mode).
fn forum_of(state: &State, p: &Params) -> Result<ChatRecord, ApiError> {
    let chat = chat_of(state, p)?;
    if !chat.is_forum {
        return Err(ApiError::bad("the chat is not a forum"));
    }
    Ok(chat.clone())
}

/// `createForumTopic`: the bot must be an administrator with `can_manage_topics`. The topic's
/// `forum_topic_created` service message is the bot's, in the topic, and not sent to the bot.
fn create_topic(state: &mut State, p: &Params) -> Result<Value, ApiError> {
    let chat = forum_of(state, p)?;
    if !chat.bot_manages_topics() {
        return Err(ApiError::bad("not enough rights to create a topic"));
    }
    let name = text(p, "name").unwrap_or("");
    if name.trim().is_empty() {
        return Err(ApiError::bad("title must be non-empty"));
    }
    if markup::char_len(name) > 128 {
        return Err(ApiError::bad("topic name is too long (1-128 characters)"));
    }
    let icon_color = int(p, "icon_color").unwrap_or(DEFAULT_TOPIC_COLOR);
    if !TOPIC_COLORS.contains(&icon_color) {
        return Err(ApiError::bad(
            "icon_color must be one of 7322096, 16766590, 13338331, 9367192, 16749490, 16478047",
        ));
    }
    let id = state.take_message_id(chat.id);
    let topic = FakeTopic {
        thread_id: id,
        name: name.to_owned(),
        icon_color,
        icon_custom_emoji_id: text(p, "icon_custom_emoji_id")
            .filter(|e| !e.is_empty())
            .map(str::to_owned),
        created_by_bot: true,
        closed: false,
    };
    let mut service = Map::new();
    service.insert("forum_topic_created".to_owned(), topic.created_json());
    let message = service_message(chat.id, id, Some(state.bot_id), service, Some(id));
    state.messages.insert((chat.id, id), message);
    let json = topic.to_json();
    if let Some(c) = state.chats.get_mut(&chat.id) {
        c.topics.insert(id, topic);
    }
    Ok(json)
}

/// `closeForumTopic` / `reopenForumTopic`: the topic must exist; the bot needs
/// `can_manage_topics` unless it created the topic; closing a closed topic (or reopening an
/// open one) is `TOPIC_NOT_MODIFIED`. The service message is the bot's and not sent to it.
fn toggle_topic(state: &mut State, p: &Params, close: bool) -> Result<Value, ApiError> {
    let chat = forum_of(state, p)?;
    let thread_id = int(p, "message_thread_id").unwrap_or(0);
    if thread_id <= 0 {
        return Err(ApiError::bad("invalid message thread identifier specified"));
    }
    let Some(topic) = chat.topics.get(&thread_id) else {
        return Err(ApiError::bad("TOPIC_ID_INVALID"));
    };
    if !topic.created_by_bot && !chat.bot_manages_topics() {
        return Err(ApiError::bad(
            "not enough rights to close or open the topic",
        ));
    }
    if topic.closed == close {
        return Err(ApiError::bad("TOPIC_NOT_MODIFIED"));
    }
    let bot = state.bot_id;
    topic_toggled(state, chat.id, thread_id, Some(bot), close);
    if let Some(t) = state
        .chats
        .get_mut(&chat.id)
        .and_then(|c| c.topics.get_mut(&thread_id))
    {
        t.closed = close;
    }
    Ok(json!(true))
}

#[cfg(test)]
mod url_tests {
    use super::button_url_taken;

    #[test]
    fn button_urls_telegram_takes() {
        for taken in [
            "https://bot.example.org/g/abc",
            "http://127.0.0.1:8080/g/abc",
            "tg://user?id=5",
        ] {
            assert!(button_url_taken(taken), "{taken}");
        }
        for refused in [
            "http://localhost:8080/g/abc",
            "ftp://example.org/",
            "not a url",
            "",
        ] {
            assert!(!button_url_taken(refused), "{refused}");
        }
    }
}
