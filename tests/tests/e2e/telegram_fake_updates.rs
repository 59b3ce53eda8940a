//! Self-tests of the fake Telegram Bot API server: updates (long polling, webhooks), rate
//! limits and injected faults, and what people do (write, press, remove the bot, upgrade a group),
//! driven by the real teloxide client.

use crate::telegram_common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tabula_tests::telegram::{Ended, Failure, PressError, RateLimits};
use telegram_common::{WAIT, assert_clean, assert_refused, raw, start};
use teloxide::prelude::*;
use teloxide::types::{
    CallbackQueryId, InlineKeyboardButton, InlineKeyboardMarkup, ParseMode, UpdateKind,
};
use teloxide::{ApiError, RequestError};

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
    /// How long each answer takes.
    delay: Duration,
    /// Requests being answered now, and the most seen at once.
    busy: Arc<Mutex<(usize, usize)>>,
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
                {
                    let mut busy = hook.busy.lock().expect("the hook's lock");
                    busy.0 += 1;
                    busy.1 = busy.1.max(busy.0);
                }
                tokio::time::sleep(hook.delay).await;
                hook.busy.lock().expect("the hook's lock").0 -= 1;
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
    assert_eq!((refusal.status, refusal.ended), (429, Ended::Refused));
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
    fake.fail_next("getme", Failure::ServerError);
    let server_error = raw(&fake, "getMe", json!({})).await;
    assert_refused(&server_error, 500, "Internal Server Error");
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
    // With privacy mode, "hi" in a group is not the bot's to see; the press is.
    let updates = bot.get_updates().await.unwrap();
    assert_eq!(updates.len(), 1);
    let UpdateKind::CallbackQuery(q) = &updates[0].kind else {
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
    assert_eq!(fake.callbacks()[0].answers, 2, "both answers are counted");
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
async fn a_bot_writes_privately_only_to_people_who_started_it() {
    let (fake, bot) = start().await;
    let alice = fake.user("Alice");
    let never = raw(
        &fake,
        "sendMessage",
        json!({"chat_id": alice.id, "text": "hello"}),
    )
    .await;
    assert_refused(
        &never,
        403,
        "Forbidden: bot can't initiate conversation with a user",
    );
    let action = bot
        .send_chat_action(ChatId(alice.id), teloxide::types::ChatAction::Typing)
        .await;
    assert!(matches!(action, Err(RequestError::Api(_))), "{action:?}");
    assert!(!fake.has_private_chat(&alice));
    assert!(fake.private_bot_messages(&alice).is_empty());
    assert_eq!(fake.refused().len(), 2);
    assert!(fake.refused().iter().all(|r| r.status == 403));
    // An id nobody has is still not found, and a violation.
    let nobody = raw(&fake, "sendMessage", json!({"chat_id": 99, "text": "x"})).await;
    assert_refused(&nobody, 400, "Bad Request: chat not found");
    assert_eq!(fake.violations().len(), 1);

    let chat = fake.user_starts_bot(&alice);
    assert_eq!(chat.id, alice.id);
    assert!(fake.has_private_chat(&alice));
    let updates = bot.get_updates().await.unwrap();
    let UpdateKind::Message(start) = &updates[0].kind else {
        panic!("{updates:?}")
    };
    assert_eq!(start.text(), Some("/start"));
    bot.send_message(ChatId(alice.id), "welcome").await.unwrap();
    let sent = fake.private_bot_messages(&alice);
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].chat_id, alice.id);
    assert_eq!(sent[0].text(), "welcome");

    // Blocked, then started again (Restart): 403 in between, accepted after.
    fake.kick_bot(&chat);
    let blocked = bot.send_message(ChatId(alice.id), "still there?").await;
    assert!(
        matches!(blocked, Err(RequestError::Api(ApiError::BotBlocked))),
        "{blocked:?}"
    );
    fake.user_starts_bot(&alice);
    bot.send_message(ChatId(alice.id), "welcome back")
        .await
        .unwrap();
    assert_eq!(fake.private_bot_messages(&alice).len(), 2);
    let bob = fake.user("Bob");
    let bobs = fake.private_chat(&bob);
    bot.send_message(ChatId(bobs.id), "hi").await.unwrap();
    assert_eq!(fake.bot_messages(&bobs).len(), 1);
    assert_eq!(fake.violations().len(), 1);
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
    // The topic's creation (a service message) and the command reach the bot; with privacy
    // mode, Bob's "anyone?" does not.
    let updates = bot.get_updates().await.unwrap();
    assert_eq!(updates.len(), 2);
    let UpdateKind::Message(m) = &updates[1].kind else {
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
async fn teloxide_throttle_keeps_within_the_default_limits() {
    use teloxide::adaptors::throttle::Limits;
    let (fake, bot) = start().await;
    fake.set_rate_limits(RateLimits::default());
    let bot = bot.throttle(Limits::default());
    let alice = fake.user("Alice");
    let chat = fake.private_chat(&alice);
    let started = std::time::Instant::now();
    for i in 0..3 {
        bot.send_message(ChatId(chat.id), format!("{i}"))
            .await
            .unwrap();
    }
    assert!(started.elapsed() >= Duration::from_millis(1800));
    let sent = fake.wait_for_bot_messages(&chat, 3, WAIT).await.unwrap();
    assert_eq!(sent.len(), 3);
    assert!(
        fake.requests().iter().all(|r| r.status == 200),
        "{:?}",
        fake.requests()
    );
}

#[tokio::test]
async fn the_overall_limit_is_thirty_messages_a_second() {
    let (fake, bot) = start().await;
    fake.set_rate_limits(RateLimits::default());
    let chats: Vec<_> = (0..31)
        .map(|i| fake.private_chat(&fake.user(&format!("U{i}"))))
        .collect();
    let mut refused = 0;
    for chat in &chats {
        if bot.send_message(ChatId(chat.id), "hi").await.is_err() {
            refused += 1;
        }
    }
    assert_eq!(refused, 1);
    assert_eq!(fake.requests().last().map(|r| r.status), Some(429));
}

#[tokio::test]
async fn a_late_answer_to_a_callback_query_is_refused() {
    let (fake, bot) = start().await;
    fake.set_callback_deadline(Duration::from_millis(50));
    let alice = fake.user("Alice");
    let chat = fake.private_chat(&alice);
    let keyboard = InlineKeyboardMarkup::new([[InlineKeyboardButton::callback("Go", "go")]]);
    let sent = bot
        .send_message(ChatId(chat.id), "b")
        .reply_markup(keyboard)
        .await
        .unwrap();
    let query = fake
        .press(&chat, &alice, i64::from(sent.id.0), "go")
        .unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(
        bot.answer_callback_query(CallbackQueryId(query))
            .await
            .is_err()
    );
    assert_eq!(fake.unanswered_callbacks().len(), 1);
}

/// Three chats' updates to a slow webhook: how many deliveries were in flight at once.
async fn most_deliveries_at_once(max_connections: Option<u8>) -> usize {
    let (fake, bot) = start().await;
    let hook = Hook {
        delay: Duration::from_millis(150),
        ..Hook::default()
    };
    let local = serve_hook(hook.clone()).await;
    fake.route_webhook("https://bot.example.test:8443", &local);
    let url =
        reqwest::Url::parse("https://bot.example.test:8443/telegram/hook").expect("a valid URL");
    let mut request = bot.set_webhook(url).secret_token("s3cret".to_owned());
    if let Some(n) = max_connections {
        request = request.max_connections(n);
    }
    request.await.expect("setWebhook succeeds");
    let people: Vec<_> = (0..3).map(|i| fake.user(&format!("U{i}"))).collect();
    for person in &people {
        let chat = fake.private_chat(person);
        fake.user_writes(&chat, person, "hi");
    }
    fake.wait_for_no_pending_updates(WAIT)
        .await
        .expect("every update is delivered");
    let attempts = fake.webhook_attempts();
    assert_eq!(attempts.len(), 3);
    assert!(attempts.windows(2).all(|w| w[0].at <= w[1].at));
    assert_eq!(hook.seen.lock().expect("the hook's lock").len(), 3);
    assert_clean(&fake);
    hook.busy.lock().expect("the hook's lock").1
}

#[tokio::test]
async fn webhook_deliveries_respect_max_connections() {
    assert_eq!(most_deliveries_at_once(Some(1)).await, 1);
    assert_eq!(most_deliveries_at_once(None).await, 3);
}

#[tokio::test]
async fn privacy_mode_decides_which_group_messages_reach_the_bot() {
    let (fake, bot) = start().await;
    let alice = fake.user("Alice");
    let group = fake.group("Club");
    let board = bot.send_message(ChatId(group.id), "board").await.unwrap();
    let texts = |fake: &tabula_tests::telegram::FakeTelegram| -> Vec<String> {
        fake.pending_updates()
            .iter()
            .filter_map(|u| u["message"]["text"].as_str().map(str::to_owned))
            .collect()
    };
    fake.user_writes(&group, &alice, "e2e4");
    fake.user_writes(&group, &alice, "/play@other_bot konane");
    fake.user_writes(&group, &alice, "/play konane");
    fake.user_writes(&group, &alice, "/play@Tabula_Test_Bot konane");
    fake.user_writes(&group, &alice, "hey @tabula_test_bot");
    fake.compose(&group, &alice, "d2d4")
        .reply_to(i64::from(board.id.0))
        .send();
    assert_eq!(
        texts(&fake),
        [
            "/play konane",
            "/play@Tabula_Test_Bot konane",
            "hey @tabula_test_bot",
            "d2d4"
        ]
    );
    assert!(!bot.get_me().await.unwrap().can_read_all_group_messages);
    fake.set_privacy_mode(false);
    fake.user_writes(&group, &alice, "e2e4");
    assert!(bot.get_me().await.unwrap().can_read_all_group_messages);
    fake.set_privacy_mode(true);
    fake.make_bot_admin(&group);
    fake.user_writes(&group, &alice, "e7e5");
    assert_eq!(texts(&fake)[4..], ["e2e4", "e7e5"]);
    // In a private chat everything reaches the bot.
    let private = fake.private_chat(&alice);
    fake.user_writes(&private, &alice, "hello");
    assert_eq!(texts(&fake).len(), 7);
    assert_clean(&fake);
}

#[tokio::test]
async fn allowed_updates_leave_out_the_kinds_not_asked_for() {
    let (fake, bot) = start().await;
    let alice = fake.user("Alice");
    let chat = fake.private_chat(&alice);
    let keyboard = InlineKeyboardMarkup::new([[InlineKeyboardButton::callback("Go", "go")]]);
    let sent = bot
        .send_message(ChatId(chat.id), "b")
        .reply_markup(keyboard)
        .await
        .unwrap();
    let (status, _) = raw(&fake, "getUpdates", json!({"allowed_updates": ["message"]})).await;
    assert_eq!(status, 200);
    fake.press(&chat, &alice, i64::from(sent.id.0), "go")
        .unwrap();
    fake.user_writes(&chat, &alice, "hi");
    let kinds: Vec<_> = fake
        .pending_updates()
        .iter()
        .map(|u| {
            u.as_object().map(|o| {
                o.keys()
                    .filter(|k| *k != "update_id")
                    .cloned()
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    assert_eq!(kinds, [Some(vec!["message".to_owned()])]);
}

#[tokio::test]
async fn teloxides_own_polling_dispatcher_runs_against_the_fake() {
    use teloxide::update_listeners::Polling;
    let (fake, bot) = start().await;
    let alice = fake.user("Alice");
    let chat = fake.private_chat(&alice);
    let handler = Update::filter_message().endpoint(|bot: Bot, msg: Message| async move {
        let text = format!("echo {}", msg.text().unwrap_or_default());
        bot.send_message(msg.chat.id, text).await?;
        respond(())
    });
    let listener = Polling::builder(bot.clone())
        .timeout(Duration::from_secs(1))
        .build();
    let mut dispatcher = Dispatcher::builder(bot, handler).build();
    let shutdown = dispatcher.shutdown_token();
    let task = tokio::spawn(async move {
        dispatcher
            .dispatch_with_listener(listener, LoggingErrorHandler::new())
            .await;
    });
    fake.user_writes(&chat, &alice, "hello");
    let sent = fake.wait_for_bot_messages(&chat, 1, WAIT).await.unwrap();
    assert_eq!(sent[0].text(), "echo hello");
    fake.user_writes(&chat, &alice, "again");
    let sent = fake.wait_for_bot_messages(&chat, 2, WAIT).await.unwrap();
    assert_eq!(sent[1].text(), "echo again");
    tokio::time::timeout(WAIT, shutdown.shutdown().unwrap())
        .await
        .unwrap();
    task.await.unwrap();
    assert!(fake.violations().is_empty(), "{:?}", fake.violations());
    let methods: Vec<_> = fake.requests().iter().map(|r| r.method.clone()).collect();
    // teloxide sends `GetMe`, `SendMessage`: the log spells methods as the spec does.
    assert_eq!(methods[..3], ["getMe", "getUpdates", "sendMessage"]);
    assert_clean(&fake);
}
