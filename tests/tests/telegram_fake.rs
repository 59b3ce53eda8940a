//! Self-tests of the fake Telegram Bot API server, driven by the real teloxide client and by raw
//! HTTP requests: what the bot may send is checked against the spec, what the fake answers is
//! what Telegram answers, and everything the fake returns fits the spec.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tabula_tests::telegram::{Failure, FakeTelegram, Outcome, PressError, RateLimits};
use teloxide::prelude::*;
use teloxide::types::{
    BotCommand, BotCommandScope, CallbackQueryId, InlineKeyboardButton, InlineKeyboardMarkup,
    InputFile, InputMedia, InputMediaPhoto, ParseMode, Recipient, UpdateKind,
};
use teloxide::{ApiError, RequestError};

const TOKEN: &str = "123456:TEST-token_abc";
const WAIT: Duration = Duration::from_secs(5);

/// A 1x1 PNG.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 0,
    1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89, 0, 0, 0, 0x0d, 0x49, 0x44, 0x41, 0x54,
    0x78, 0x9c, 0x63, 0, 1, 0, 0, 5, 0, 1, 0x0d, 0x0a, 0x2d, 0xb4, 0, 0, 0, 0, 0x49, 0x45, 0x4e,
    0x44, 0xae, 0x42, 0x60, 0x82,
];

async fn start() -> (FakeTelegram, Bot) {
    let fake = FakeTelegram::start(TOKEN).await.expect("the fake starts");
    let url = reqwest::Url::parse(&fake.api_url()).expect("the fake's URL parses");
    let bot = Bot::new(TOKEN).set_api_url(url);
    fake.set_rate_limits(RateLimits::unlimited());
    (fake, bot)
}

/// A raw JSON request; returns the status and the body.
async fn raw(fake: &FakeTelegram, method: &str, body: Value) -> (u16, Value) {
    let url = format!("{}bot{}/{method}", fake.api_url(), fake.token());
    let response = reqwest::Client::new()
        .post(url)
        .json(&body)
        .send()
        .await
        .expect("the fake answers");
    (
        response.status().as_u16(),
        response.json().await.expect("the fake answers JSON"),
    )
}

fn assert_refused(answer: &(u16, Value), status: u16, description_start: &str) {
    assert_eq!(answer.0, status, "{answer:?}");
    assert_eq!(answer.1["ok"], json!(false), "{answer:?}");
    assert_eq!(answer.1["error_code"], json!(status), "{answer:?}");
    let description = answer.1["description"].as_str().unwrap_or("");
    assert!(
        description.starts_with(description_start),
        "{description:?} vs {description_start:?}"
    );
}

fn assert_clean(fake: &FakeTelegram) {
    assert_eq!(fake.self_check_failures(), Vec::<String>::new());
    for update in fake.pending_updates() {
        fake.check_against_spec(&update, "Update")
            .expect("every pending update fits the spec");
    }
}

#[tokio::test]
async fn a_photo_upload_with_caption_and_keyboard_is_checked_and_stored() {
    let (fake, bot) = start().await;
    let alice = fake.user("Alice").username("alice");
    let chat = fake.private_chat(&alice);
    let keyboard = InlineKeyboardMarkup::new([[
        InlineKeyboardButton::callback("Move a1", "g1:3:a1"),
        InlineKeyboardButton::callback("Resign", "g1:3:resign"),
    ]]);
    let sent = bot
        .send_photo(
            ChatId(chat.id),
            InputFile::memory(PNG.to_vec()).file_name("board.png"),
        )
        .caption("<b>Board</b> 😀 &lt;3 <i>a1</i>")
        .parse_mode(ParseMode::Html)
        .reply_markup(keyboard)
        .await
        .unwrap();
    assert_eq!(sent.caption(), Some("Board 😀 <3 a1"));
    assert_eq!(sent.photo().map(<[_]>::len), Some(1));
    let stored = fake.bot_messages(&chat);
    assert_eq!(stored.len(), 1);
    let message = &stored[0];
    assert_eq!(message.photo_bytes(), Some(PNG));
    assert_eq!(message.text(), "Board 😀 <3 a1");
    assert_eq!(message.content.parse_mode.as_deref(), Some("HTML"));
    let entities: Vec<_> = message
        .content
        .entities
        .iter()
        .map(|e| (e.kind.as_str(), e.offset, e.length))
        .collect();
    // UTF-16: the emoji is two units.
    assert_eq!(entities, vec![("bold", 0, 5), ("italic", 12, 2)]);
    let buttons = message.buttons();
    assert_eq!(buttons[0][1].callback_data.as_deref(), Some("g1:3:resign"));
    assert!(fake.violations().is_empty(), "{:?}", fake.violations());
    assert_clean(&fake);
}

#[tokio::test]
async fn requests_that_break_the_spec_are_refused_and_recorded() {
    let (fake, _bot) = start().await;
    let alice = fake.user("Alice");
    let chat = fake.private_chat(&alice);
    let missing = raw(&fake, "sendMessage", json!({"chat_id": chat.id})).await;
    assert_refused(&missing, 400, "Bad Request: required parameter \"text\"");
    let wrong_type = raw(&fake, "sendMessage", json!({"chat_id": true, "text": "x"})).await;
    assert_refused(
        &wrong_type,
        400,
        "Bad Request: field \"chat_id\" must be of type Integer or String",
    );
    let unknown = raw(
        &fake,
        "sendMessage",
        json!({"chat_id": chat.id, "text": "x", "colour": "red"}),
    )
    .await;
    assert_refused(&unknown, 400, "Bad Request: unknown parameter \"colour\"");
    let bad_button = json!({"chat_id": chat.id, "text": "x",
        "reply_markup": {"inline_keyboard": [[{"text": "A", "callback_data": 5}]]}});
    let nested = raw(&fake, "sendMessage", bad_button).await;
    assert_refused(&nested, 400, "Bad Request: field \"reply_markup");
    let old_param = raw(
        &fake,
        "sendMessage",
        json!({"chat_id": chat.id, "text": "x", "reply_to_message_id": 1}),
    )
    .await;
    assert_refused(&old_param, 400, "Bad Request: unknown parameter");
    assert_eq!(fake.violations().len(), 5);
    assert!(
        fake.violations()
            .iter()
            .all(|v| v.status == 400 && v.method == "sendMessage")
    );

    let url = format!("{}botWRONG:token/getMe", fake.api_url());
    let response = reqwest::get(url).await.unwrap();
    assert_eq!(response.status().as_u16(), 401);
    let no_method = raw(&fake, "sendTelepathy", json!({})).await;
    assert_refused(&no_method, 404, "Not Found");
    // Method names are case-insensitive; query, urlencoded and multipart bodies are read too.
    let (status, _) = raw(&fake, "getme", json!({})).await;
    assert_eq!(status, 200);
    let client = reqwest::Client::new();
    let base = format!("{}bot{TOKEN}", fake.api_url());
    let by_query = client
        .get(format!(
            "{base}/sendMessage?chat_id={}&text=hi%20there",
            chat.id
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(by_query.status().as_u16(), 200);
    let form = client
        .post(format!("{base}/sendMessage"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(format!(
            "chat_id={}&text=a+b&disable_notification=true",
            chat.id
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(form.status().as_u16(), 200);
    let multipart = reqwest::multipart::Form::new()
        .text("chat_id", chat.id.to_string())
        .text("text", "multi")
        .text(
            "reply_markup",
            r#"{"inline_keyboard":[[{"text":"A","callback_data":"a"}]]}"#,
        );
    let sent = client
        .post(format!("{base}/sendMessage"))
        .multipart(multipart)
        .send()
        .await
        .unwrap();
    assert_eq!(sent.status().as_u16(), 200);
    let bad_multipart = reqwest::multipart::Form::new()
        .text("chat_id", "abc1")
        .text("text", "x")
        .text("disable_notification", "yes");
    let refused = client
        .post(format!("{base}/sendMessage"))
        .multipart(bad_multipart)
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status().as_u16(), 400);
    let texts: Vec<_> = fake
        .bot_messages(&chat)
        .iter()
        .map(|m| m.text().to_owned())
        .collect();
    assert_eq!(texts, ["hi there", "a b", "multi"]);
    assert_eq!(fake.violations().len(), 8);
    assert_clean(&fake);
}

#[tokio::test]
async fn bad_html_and_every_length_limit_are_refused() {
    let (fake, bot) = start().await;
    let alice = fake.user("Alice");
    let chat = fake.private_chat(&alice);
    for bad in [
        "<blink>x</blink>",
        "1 < 2",
        "salt & pepper",
        "<b>open",
        "<b>x</i>",
        "&nbsp;",
    ] {
        let result = bot
            .send_message(ChatId(chat.id), bad)
            .parse_mode(ParseMode::Html)
            .await;
        assert!(
            matches!(
                result,
                Err(RequestError::Api(ApiError::CantParseEntities(_)))
            ),
            "{bad}: {result:?}"
        );
    }
    // Without a parse mode the same text is plain.
    bot.send_message(ChatId(chat.id), "1 < 2 & <b>")
        .await
        .unwrap();
    // Limits count characters after parsing: 4096 `&lt;` are 4096 characters.
    bot.send_message(ChatId(chat.id), "&lt;".repeat(4096))
        .parse_mode(ParseMode::Html)
        .await
        .unwrap();
    let long = bot.send_message(ChatId(chat.id), "x".repeat(4097)).await;
    assert!(
        matches!(long, Err(RequestError::Api(ApiError::MessageIsTooLong))),
        "{long:?}"
    );
    let empty = raw(
        &fake,
        "sendMessage",
        json!({"chat_id": chat.id, "text": "<b></b>", "parse_mode": "HTML"}),
    )
    .await;
    assert_refused(&empty, 400, "Bad Request: message text is empty");
    let caption = bot
        .send_photo(ChatId(chat.id), InputFile::memory(PNG.to_vec()))
        .caption("c".repeat(1025))
        .await;
    assert!(
        format!("{caption:?}").contains("message caption is too long"),
        "{caption:?}"
    );
    let data = InlineKeyboardMarkup::new([[InlineKeyboardButton::callback("A", "d".repeat(65))]]);
    let button = bot
        .send_message(ChatId(chat.id), "x")
        .reply_markup(data)
        .await;
    assert!(
        matches!(button, Err(RequestError::Api(ApiError::ButtonDataInvalid))),
        "{button:?}"
    );
    let ok = InlineKeyboardMarkup::new([[InlineKeyboardButton::callback("A", "é".repeat(32))]]);
    let board = bot
        .send_message(ChatId(chat.id), "board")
        .reply_markup(ok)
        .await
        .unwrap();
    let query = fake
        .press(&chat, &alice, i64::from(board.id.0), &"é".repeat(32))
        .unwrap();
    let toast = bot
        .answer_callback_query(CallbackQueryId(query.clone()))
        .text("t".repeat(201))
        .await;
    assert!(toast.is_err());
    bot.answer_callback_query(CallbackQueryId(query))
        .text("t".repeat(200))
        .await
        .unwrap();
    assert_eq!(fake.violations().len(), 11, "{:#?}", fake.violations());
    assert_eq!(fake.bot_messages(&chat).len(), 3);
    assert_clean(&fake);
}

#[tokio::test]
async fn get_updates_long_polls_confirms_by_offset_and_conflicts() {
    let (fake, bot) = start().await;
    let alice = fake.user("Alice").language("ru");
    let chat = fake.private_chat(&alice);
    let first = fake.user_writes(&chat, &alice, "/start");
    let updates = bot.get_updates().await.unwrap();
    assert_eq!(updates.len(), 1);
    let UpdateKind::Message(message) = &updates[0].kind else {
        panic!("{updates:?}")
    };
    assert_eq!(i64::from(message.id.0), first);
    assert_eq!(
        message
            .from
            .as_ref()
            .and_then(|u| u.language_code.as_deref()),
        Some("ru")
    );
    // Not confirmed yet: the same update comes again.
    assert_eq!(bot.get_updates().await.unwrap().len(), 1);
    let next = i32::try_from(updates[0].id.0).unwrap() + 1;
    assert!(bot.get_updates().offset(next).await.unwrap().is_empty());
    assert!(fake.pending_updates().is_empty());

    // A long poll returns as soon as an update arrives.
    let writer = fake.clone();
    let (w_chat, w_alice) = (chat.clone(), alice.clone());
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(200)).await;
        writer.user_writes(&w_chat, &w_alice, "hello");
    });
    let started = std::time::Instant::now();
    let polled = bot.get_updates().offset(next).timeout(10).await.unwrap();
    assert_eq!(polled.len(), 1);
    assert!(started.elapsed() < Duration::from_secs(5));

    // An empty long poll waits its timeout.
    let offset = i32::try_from(polled[0].id.0).unwrap() + 1;
    let started = std::time::Instant::now();
    assert!(
        bot.get_updates()
            .offset(offset)
            .timeout(1)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(started.elapsed() >= Duration::from_millis(900));

    // A second getUpdates ends the pending one with 409.
    let older = tokio::spawn({
        let bot = bot.clone();
        async move { bot.get_updates().offset(offset).timeout(5).await }
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let newer = tokio::spawn({
        let bot = bot.clone();
        async move { bot.get_updates().offset(offset).timeout(1).await }
    });
    let older = older.await.unwrap();
    assert!(
        matches!(
            older,
            Err(RequestError::Api(ApiError::TerminatedByOtherGetUpdates))
        ),
        "{older:?}"
    );
    assert!(newer.await.unwrap().unwrap().is_empty());
    assert_clean(&fake);
}

/// One webhook request: its secret header and body.
type Delivery = (Option<String>, Value);

/// A stand-in for the bot's webhook endpoint: records each body and secret header, answers the
/// queued statuses (then 200).
#[derive(Clone, Default)]
struct Hook {
    seen: Arc<Mutex<Vec<Delivery>>>,
    statuses: Arc<Mutex<Vec<u16>>>,
}

async fn serve_hook(hook: Hook) -> String {
    use axum::http::{HeaderMap, StatusCode};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a free port");
    let addr = listener.local_addr().expect("a local address");
    let app = axum::Router::new().route(
        "/telegram/hook",
        axum::routing::post(move |headers: HeaderMap, body: String| {
            let hook = hook.clone();
            async move {
                let secret = headers
                    .get("x-telegram-bot-api-secret-token")
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_owned);
                let value = serde_json::from_str(&body).unwrap_or(Value::Null);
                hook.seen
                    .lock()
                    .expect("the hook's lock")
                    .push((secret.clone(), value));
                if secret.as_deref() != Some("s3cret") {
                    return StatusCode::UNAUTHORIZED;
                }
                let mut statuses = hook.statuses.lock().expect("the hook's lock");
                let status = if statuses.is_empty() {
                    200
                } else {
                    statuses.remove(0)
                };
                StatusCode::from_u16(status).expect("a valid status")
            }
        }),
    );
    tokio::spawn(async move { axum::serve(listener, app).await.expect("the hook serves") });
    format!("http://{addr}")
}

#[tokio::test]
async fn webhooks_need_https_and_deliver_with_the_secret_and_retries() {
    let (fake, bot) = start().await;
    fake.set_webhook_retry_delay(Duration::from_millis(50));
    let alice = fake.user("Alice");
    let chat = fake.private_chat(&alice);
    let plain = bot
        .set_webhook(reqwest::Url::parse("http://bot.example.test/telegram/hook").unwrap())
        .await;
    assert!(
        format!("{plain:?}").contains("An HTTPS URL must be provided for webhook"),
        "{plain:?}"
    );
    let port = bot
        .set_webhook(reqwest::Url::parse("https://bot.example.test:8080/telegram/hook").unwrap())
        .await;
    assert!(port.is_err());
    let unrouted = bot
        .set_webhook(reqwest::Url::parse("https://bot.example.test/telegram/hook").unwrap())
        .await;
    assert!(
        matches!(unrouted, Err(RequestError::Api(ApiError::UnknownHost))),
        "{unrouted:?}"
    );

    let hook = Hook::default();
    hook.statuses.lock().unwrap().push(500);
    let local = serve_hook(hook.clone()).await;
    fake.route_webhook("https://bot.example.test", &local);
    let url = reqwest::Url::parse("https://bot.example.test/telegram/hook").unwrap();
    bot.set_webhook(url)
        .secret_token("s3cret".to_owned())
        .await
        .unwrap();
    let info = bot.get_webhook_info().await.unwrap();
    assert_eq!(
        info.url.map(|u| u.to_string()).as_deref(),
        Some("https://bot.example.test/telegram/hook")
    );
    let polling = bot.get_updates().await;
    assert!(
        matches!(polling, Err(RequestError::Api(ApiError::CantGetUpdates)))
            || format!("{polling:?}").contains("webhook is active"),
        "{polling:?}"
    );

    fake.user_writes(&chat, &alice, "one");
    fake.user_writes(&chat, &alice, "two");
    fake.wait_for_no_pending_updates(WAIT).await.unwrap();
    let seen = hook.seen.lock().unwrap().clone();
    let texts: Vec<_> = seen
        .iter()
        .map(|(s, v)| (s.clone().unwrap_or_default(), v["message"]["text"].clone()))
        .collect();
    // The first delivery got 500 and was retried before the second update (one at a time per chat).
    assert_eq!(
        texts,
        [
            ("s3cret".into(), json!("one")),
            ("s3cret".into(), json!("one")),
            ("s3cret".into(), json!("two"))
        ]
    );
    let statuses: Vec<_> = fake.webhook_attempts().iter().map(|a| a.status).collect();
    assert_eq!(statuses, [Some(500), Some(200), Some(200)]);
    let info = bot.get_webhook_info().await.unwrap();
    assert!(info.last_error_message.is_some());

    // A forged request without the secret is the bot's to refuse.
    assert_eq!(fake.post_webhook_raw(None, "{}").await.unwrap(), 401);
    assert_eq!(
        fake.post_webhook_raw(Some("s3cret"), "{}").await.unwrap(),
        200
    );
    bot.delete_webhook().await.unwrap();
    assert!(bot.get_updates().await.unwrap().is_empty());
    assert_clean(&fake);
}

#[tokio::test]
async fn edits_follow_telegram() {
    let (fake, bot) = start().await;
    let alice = fake.user("Alice");
    let chat = fake.group("Club");
    let keyboard = InlineKeyboardMarkup::new([[InlineKeyboardButton::callback("Go", "go")]]);
    let sent = bot
        .send_message(ChatId(chat.id), "board")
        .reply_markup(keyboard.clone())
        .await
        .unwrap();
    let same = bot
        .edit_message_text(ChatId(chat.id), sent.id, "board")
        .reply_markup(keyboard.clone())
        .await;
    assert!(
        matches!(same, Err(RequestError::Api(ApiError::MessageNotModified))),
        "{same:?}"
    );
    bot.edit_message_text(ChatId(chat.id), sent.id, "board 2")
        .reply_markup(keyboard)
        .await
        .unwrap();
    // Editing without reply_markup takes the keyboard off.
    bot.edit_message_text(ChatId(chat.id), sent.id, "board 3")
        .await
        .unwrap();
    let message = fake.message(&chat, i64::from(sent.id.0)).unwrap();
    assert_eq!(message.text(), "board 3");
    assert!(message.buttons().is_empty());
    assert_eq!(message.history.len(), 2);
    assert!(message.edit_date.is_some());
    let missing = bot
        .edit_message_text(ChatId(chat.id), teloxide::types::MessageId(999), "x")
        .await;
    assert!(
        matches!(
            missing,
            Err(RequestError::Api(ApiError::MessageToEditNotFound))
        ),
        "{missing:?}"
    );
    let hers = fake.user_writes(&chat, &alice, "mine");
    let id = teloxide::types::MessageId(i32::try_from(hers).unwrap());
    let not_own = bot.edit_message_text(ChatId(chat.id), id, "x").await;
    assert!(
        matches!(
            not_own,
            Err(RequestError::Api(ApiError::MessageCantBeEdited))
        ),
        "{not_own:?}"
    );
    let no_delete = bot.delete_message(ChatId(chat.id), id).await;
    assert!(
        matches!(
            no_delete,
            Err(RequestError::Api(ApiError::MessageCantBeDeleted))
        ),
        "{no_delete:?}"
    );

    let photo = bot
        .send_photo(ChatId(chat.id), InputFile::memory(PNG.to_vec()))
        .caption("c")
        .await
        .unwrap();
    let media =
        InputMedia::Photo(InputMediaPhoto::new(InputFile::memory(PNG.to_vec())).caption("new"));
    bot.edit_message_media(ChatId(chat.id), photo.id, media)
        .await
        .unwrap();
    let edited = fake.message(&chat, i64::from(photo.id.0)).unwrap();
    assert_eq!(edited.text(), "new");
    assert_eq!(edited.photo_bytes(), Some(PNG));
    bot.edit_message_caption(ChatId(chat.id), photo.id)
        .caption("newer")
        .await
        .unwrap();

    bot.delete_message(ChatId(chat.id), sent.id).await.unwrap();
    assert!(fake.message(&chat, i64::from(sent.id.0)).unwrap().deleted);
    let twice = bot.delete_message(ChatId(chat.id), sent.id).await;
    assert!(
        matches!(
            twice,
            Err(RequestError::Api(ApiError::MessageToDeleteNotFound))
        ),
        "{twice:?}"
    );
    assert_eq!(fake.violations().len(), 5);
    assert_clean(&fake);
}

#[tokio::test]
async fn sending_too_fast_gets_429_with_retry_after() {
    let (fake, bot) = start().await;
    fake.set_rate_limits(RateLimits::default());
    let alice = fake.user("Alice");
    let chat = fake.private_chat(&alice);
    bot.send_message(ChatId(chat.id), "one").await.unwrap();
    let second = bot.send_message(ChatId(chat.id), "two").await;
    assert!(
        matches!(second, Err(RequestError::RetryAfter(s)) if s.seconds() == 1),
        "{second:?}"
    );
    let refusal = fake.requests().last().cloned().unwrap();
    assert_eq!((refusal.status, refusal.outcome), (429, Outcome::Refused));
    // Another chat is not limited by this one; a group allows 20 a minute.
    let bob = fake.user("Bob");
    let other = fake.private_chat(&bob);
    bot.send_message(ChatId(other.id), "hi").await.unwrap();
    fake.set_rate_limits(RateLimits {
        per_chat_per_second: 100,
        ..RateLimits::default()
    });
    let group = fake.group("Club");
    for i in 0..20 {
        bot.send_message(ChatId(group.id), format!("{i}"))
            .await
            .unwrap();
    }
    let over = bot.send_message(ChatId(group.id), "21").await;
    assert!(
        matches!(over, Err(RequestError::RetryAfter(s)) if s.seconds() > 50),
        "{over:?}"
    );
    // Injected faults.
    fake.fail_next("sendMessage", Failure::TooManyRequests { retry_after: 7 });
    let injected = bot.send_message(ChatId(other.id), "x").await;
    assert!(
        matches!(injected, Err(RequestError::RetryAfter(s)) if s.seconds() == 7),
        "{injected:?}"
    );
    fake.fail_next("getMe", Failure::DropConnection);
    assert!(matches!(bot.get_me().await, Err(RequestError::Network(_))));
    bot.get_me().await.unwrap();
    assert!(fake.violations().is_empty());
    assert_clean(&fake);
}

#[tokio::test]
async fn a_person_can_only_press_real_buttons_and_answers_are_timed() {
    let (fake, bot) = start().await;
    let alice = fake.user("Alice");
    let chat = fake.supergroup("Club", false);
    let keyboard = InlineKeyboardMarkup::new([[InlineKeyboardButton::callback("Go", "g:1")]]);
    let sent = bot
        .send_message(ChatId(chat.id), "board")
        .reply_markup(keyboard)
        .await
        .unwrap();
    let id = i64::from(sent.id.0);
    let wrong = fake.press(&chat, &alice, id, "g:2");
    assert_eq!(
        wrong,
        Err(PressError::NoSuchButton {
            available: vec!["g:1".to_owned()]
        })
    );
    let said = fake.user_writes(&chat, &alice, "hi");
    assert_eq!(
        fake.press(&chat, &alice, said, "g:1"),
        Err(PressError::NotBotMessage)
    );
    let query = fake.press(&chat, &alice, id, "g:1").unwrap();
    assert_eq!(fake.unanswered_callbacks().len(), 1);
    let updates = bot.get_updates().await.unwrap();
    let UpdateKind::CallbackQuery(q) = &updates[1].kind else {
        panic!("{updates:?}")
    };
    assert_eq!(q.data.as_deref(), Some("g:1"));
    bot.answer_callback_query(CallbackQueryId(query.clone()))
        .await
        .unwrap();
    let twice = bot.answer_callback_query(CallbackQueryId(query)).await;
    assert!(
        format!("{twice:?}").contains("query is too old"),
        "{twice:?}"
    );
    let unknown = bot
        .answer_callback_query(CallbackQueryId("42".into()))
        .await;
    assert!(unknown.is_err());
    assert!(fake.unanswered_callbacks().is_empty());
    assert!(fake.callbacks()[0].answer_delay().unwrap() < WAIT);
    // Once the keyboard is gone, the button cannot be pressed.
    bot.edit_message_reply_markup(ChatId(chat.id), sent.id)
        .await
        .unwrap();
    assert!(fake.press(&chat, &alice, id, "g:1").is_err());
    assert_clean(&fake);
}

#[tokio::test]
async fn a_kicked_bot_gets_403_and_a_my_chat_member_update() {
    let (fake, bot) = start().await;
    let owner = fake.user("Olga");
    let group = fake.group("Club");
    fake.set_creator(&group, &owner);
    fake.kick_bot(&group);
    let updates = bot.get_updates().await.unwrap();
    let UpdateKind::MyChatMember(change) = &updates[0].kind else {
        panic!("{updates:?}")
    };
    assert!(!change.new_chat_member.is_present());
    let sent = bot.send_message(ChatId(group.id), "hello?").await;
    assert!(
        format!("{sent:?}").contains("bot was kicked from the group chat"),
        "{sent:?}"
    );
    assert_eq!(fake.requests().last().unwrap().status, 403);
    let alice = fake.user("Alice");
    let private = fake.private_chat(&alice);
    fake.kick_bot(&private);
    let blocked = bot.send_message(ChatId(private.id), "hello?").await;
    assert!(
        matches!(blocked, Err(RequestError::Api(ApiError::BotBlocked))),
        "{blocked:?}"
    );
    assert!(fake.violations().is_empty());
    assert_clean(&fake);
}

#[tokio::test]
async fn a_group_upgraded_to_a_supergroup_answers_with_migrate_to_chat_id() {
    let (fake, bot) = start().await;
    let owner = fake.user("Olga");
    let group = fake.group("Club");
    fake.set_creator(&group, &owner);
    let supergroup = fake.migrate_to_supergroup(&group);
    assert!(supergroup.id < -1_000_000_000_000);
    let updates = bot.get_updates().await.unwrap();
    assert_eq!(updates.len(), 2);
    let migrated = bot.send_message(ChatId(group.id), "hello").await;
    assert!(
        matches!(migrated, Err(RequestError::MigrateToChatId(c)) if c.0 == supergroup.id),
        "{migrated:?}"
    );
    bot.send_message(ChatId(supergroup.id), "hello")
        .await
        .unwrap();
    let admins = bot
        .get_chat_administrators(ChatId(supergroup.id))
        .await
        .unwrap();
    assert_eq!(admins.len(), 1);
    assert!(admins[0].is_owner());
    assert_clean(&fake);
}

#[tokio::test]
async fn incoming_messages_carry_telegram_entities_topics_and_replies() {
    let (fake, bot) = start().await;
    let alice = fake.user("Alice").username("alice_w").language("en");
    let bob = fake.user("Bob").last_name("Smith");
    let forum = fake.supergroup("Games", true);
    fake.set_creator(&forum, &alice);
    let topic = fake.create_topic(&forum, "Konane");
    let bobs = fake.compose(&forum, &bob, "anyone?").in_topic(topic).send();
    let play = fake
        .compose(&forum, &alice, "/play@tabula_test_bot konane @carol_x ")
        .text_mention("Bob Smith", &bob)
        .in_topic(topic)
        .reply_to(bobs)
        .send();
    let json = fake.message_json(&forum, play).unwrap();
    assert_eq!(json["message_thread_id"], json!(topic));
    assert_eq!(json["is_topic_message"], json!(true));
    assert_eq!(json["reply_to_message"]["message_id"], json!(bobs));
    let kinds: Vec<_> = json["entities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["type"].clone(), e["offset"].clone(), e["length"].clone()))
        .collect();
    assert_eq!(
        kinds,
        [
            (json!("bot_command"), json!(0), json!(21)),
            (json!("mention"), json!(29), json!(8)),
            (json!("text_mention"), json!(38), json!(9))
        ]
    );
    // A message in a topic that replies to nothing replies to the topic's first message.
    assert_eq!(
        fake.message_json(&forum, bobs).unwrap()["reply_to_message"]["message_id"],
        json!(topic)
    );
    let updates = bot.get_updates().await.unwrap();
    assert_eq!(updates.len(), 3);
    let UpdateKind::Message(m) = &updates[2].kind else {
        panic!()
    };
    assert_eq!(m.thread_id.map(|t| i64::from(t.0.0)), Some(topic));
    // The bot answers in the topic; an unknown topic is refused.
    bot.send_message(ChatId(forum.id), "ok")
        .message_thread_id(teloxide::types::ThreadId(teloxide::types::MessageId(
            i32::try_from(topic).unwrap(),
        )))
        .await
        .unwrap();
    let bad = raw(
        &fake,
        "sendMessage",
        json!({"chat_id": forum.id, "text": "x", "message_thread_id": 999}),
    )
    .await;
    assert_refused(&bad, 400, "Bad Request: message thread not found");
    // An HTML mention of a known user becomes a text_mention.
    let html = format!("<a href=\"tg://user?id={}\">Bob</a>", bob.id);
    let sent = bot
        .send_message(ChatId(forum.id), html)
        .parse_mode(ParseMode::Html)
        .await
        .unwrap();
    let entity = &fake
        .message(&forum, i64::from(sent.id.0))
        .unwrap()
        .content
        .entities[0];
    assert_eq!(entity.kind, "text_mention");
    assert_clean(&fake);
}

#[tokio::test]
async fn commands_chats_and_members_fit_the_spec() {
    let (fake, bot) = start().await;
    let owner = fake.user("Olga").username("olga_k");
    let admin = fake.user("Adam");
    let group = fake.supergroup("Club", false);
    fake.set_creator(&group, &owner);
    fake.add_admin(&group, &admin);
    fake.make_bot_admin(&group);
    let me = bot.get_me().await.unwrap();
    assert_eq!(me.username.as_deref(), Some("tabula_test_bot"));
    assert!(me.can_join_groups);
    let scope = BotCommandScope::Chat {
        chat_id: Recipient::Id(ChatId(group.id)),
    };
    let commands = [
        BotCommand::new("play", "Start a game"),
        BotCommand::new("help", "Help"),
    ];
    bot.set_my_commands(commands.clone())
        .scope(scope.clone())
        .language_code("ru")
        .await
        .unwrap();
    bot.set_my_commands([BotCommand::new("help", "Help")])
        .await
        .unwrap();
    let scope_json = json!({"type": "chat", "chat_id": group.id});
    let set = fake.my_commands(Some(&scope_json), "ru").unwrap();
    assert_eq!(set[0], ("play".to_owned(), "Start a game".to_owned()));
    assert_eq!(fake.my_commands(None, "").unwrap().len(), 1);
    let got = bot
        .get_my_commands()
        .scope(scope.clone())
        .language_code("ru")
        .await
        .unwrap();
    assert_eq!(got, commands);
    assert!(
        bot.get_my_commands()
            .scope(scope.clone())
            .await
            .unwrap()
            .is_empty()
    );
    bot.delete_my_commands()
        .scope(scope)
        .language_code("ru")
        .await
        .unwrap();
    assert!(fake.my_commands(Some(&scope_json), "ru").is_none());
    for bad in [
        BotCommand::new("Play", "x"),
        BotCommand::new("play", ""),
        BotCommand::new("a".repeat(33), "x"),
    ] {
        assert!(bot.set_my_commands([bad]).await.is_err());
    }
    let too_many: Vec<_> = (0..101)
        .map(|i| BotCommand::new(format!("c{i}"), "x"))
        .collect();
    assert!(bot.set_my_commands(too_many).await.is_err());
    assert_eq!(fake.violations().len(), 4);

    let chat = bot.get_chat(ChatId(group.id)).await.unwrap();
    assert_eq!(chat.title(), Some("Club"));
    let admins = bot.get_chat_administrators(ChatId(group.id)).await.unwrap();
    assert_eq!(admins.len(), 3);
    let member = bot
        .get_chat_member(ChatId(group.id), UserId(u64::try_from(admin.id).unwrap()))
        .await
        .unwrap();
    assert!(member.is_administrator());
    let private = fake.private_chat(&owner);
    assert!(
        bot.get_chat_administrators(ChatId(private.id))
            .await
            .is_err()
    );
    bot.get_chat(ChatId(private.id)).await.unwrap();
    bot.get_webhook_info().await.unwrap();
    bot.send_animation(ChatId(group.id), InputFile::memory(PNG.to_vec()))
        .await
        .unwrap();
    bot.send_document(
        ChatId(group.id),
        InputFile::memory(b"log".to_vec()).file_name("log.txt"),
    )
    .await
    .unwrap();
    let unsupported = raw(&fake, "sendDice", json!({"chat_id": group.id})).await;
    assert_refused(
        &unsupported,
        400,
        "Bad Request: method sendDice is not supported by the fake",
    );
    assert_eq!(fake.unsupported().len(), 1);
    assert_clean(&fake);
}

#[tokio::test]
async fn the_spec_check_itself_rejects_broken_objects() {
    let fake = FakeTelegram::start(TOKEN).await.unwrap();
    let good = json!({"message_id": 1, "date": 0, "chat": {"id": 1, "type": "private"}});
    fake.check_against_spec(&good, "Message").unwrap();
    let no_chat = json!({"message_id": 1, "date": 0});
    assert!(fake.check_against_spec(&no_chat, "Message").is_err());
    let wrong = json!({"message_id": "1", "date": 0, "chat": {"id": 1, "type": "private"}});
    assert!(fake.check_against_spec(&wrong, "Message").is_err());
    let extra = json!({"message_id": 1, "date": 0, "chat": {"id": 1, "type": "private", "x": 1}});
    assert!(fake.check_against_spec(&extra, "Message").is_err());
    let member =
        json!({"status": "creator", "user": {"id": 1, "is_bot": false, "first_name": "A"}});
    assert!(
        fake.check_against_spec(&member, "ChatMember").is_err(),
        "is_anonymous is required"
    );
    let banned = json!({"status": "kicked", "user": {"id": 1, "is_bot": false, "first_name": "A"}, "until_date": 0});
    fake.check_against_spec(&banned, "ChatMember").unwrap();
    assert!(fake.spec_version().starts_with("Bot API"));
}
