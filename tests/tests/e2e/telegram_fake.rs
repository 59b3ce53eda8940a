//! Self-tests of the fake Telegram Bot API server, driven by the real teloxide client and by raw
//! HTTP requests: what the bot sends is checked against the spec and refused as Telegram refuses
//! it, what it sends is stored, and everything the fake returns fits the spec.

use crate::telegram_common;

use serde_json::json;
use tabula_tests::telegram::FakeTelegram;
use telegram_common::{PNG, TOKEN, assert_clean, assert_refused, raw, start};
use teloxide::prelude::*;
use teloxide::types::{
    BotCommand, BotCommandScope, CallbackQueryId, InlineKeyboardButton, InlineKeyboardMarkup,
    InputFile, InputMedia, InputMediaPhoto, ParseMode, Recipient,
};
use teloxide::{ApiError, RequestError};

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
    let upload = reqwest::multipart::Form::new()
        .text("chat_id", chat.id.to_string())
        .part(
            "photo",
            reqwest::multipart::Part::bytes(PNG.to_vec()).file_name("b.png"),
        );
    let photo = client
        .post(format!("{base}/sendPhoto"))
        .multipart(upload)
        .send()
        .await
        .unwrap();
    assert_eq!(photo.status().as_u16(), 200);
    let dangling = reqwest::multipart::Form::new()
        .text("chat_id", chat.id.to_string())
        .text("photo", "attach://nothing");
    let refused = client
        .post(format!("{base}/sendPhoto"))
        .multipart(dangling)
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status().as_u16(), 400);
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
    assert_eq!(texts, ["hi there", "a b", "multi", ""]);
    assert_eq!(fake.bot_messages(&chat)[3].photo_bytes(), Some(PNG));
    assert_eq!(fake.violations().len(), 9);
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
    let scopes: Vec<_> = fake
        .all_commands()
        .into_iter()
        .map(|c| (c.scope, c.language))
        .collect();
    assert_eq!(
        scopes,
        [
            ("chat:".to_owned() + &group.id.to_string(), "ru".to_owned()),
            ("default".to_owned(), String::new())
        ]
    );
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

/// The description of a refusal teloxide does not know by name.
fn refusal(result: Result<impl std::fmt::Debug, RequestError>) -> String {
    match result {
        Err(RequestError::Api(ApiError::Unknown(text))) => text,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[tokio::test]
async fn forum_topics_are_created_closed_and_guarded_as_telegram_does() {
    use teloxide::types::{MessageId, Rgb, ThreadId};
    let thread = |id: i64| ThreadId(MessageId(i32::try_from(id).unwrap()));
    let (fake, bot) = start().await;
    let owner = fake.user("Olga");
    let forum = fake.supergroup("Games", true);
    fake.set_creator(&forum, &owner);
    let (_, chat) = raw(&fake, "getChat", json!({"chat_id": forum.id})).await;
    assert_eq!(chat["result"]["is_forum"], json!(true));

    // Only an administrator with can_manage_topics creates topics, and only in a forum.
    let no_rights = "Bad Request: not enough rights to create a topic";
    let as_member = bot.create_forum_topic(ChatId(forum.id), "Konane").await;
    assert_eq!(refusal(as_member), no_rights);
    fake.make_bot_admin_with_topics(&forum, false);
    let (_, member) = raw(
        &fake,
        "getChatMember",
        json!({"chat_id": forum.id, "user_id": fake.bot_id()}),
    )
    .await;
    assert_eq!(member["result"]["can_manage_topics"], json!(false));
    let without = bot.create_forum_topic(ChatId(forum.id), "Konane").await;
    assert_eq!(refusal(without), no_rights);
    for plain in [fake.supergroup("Plain", false), fake.group("Club")] {
        fake.make_bot_admin(&plain);
        let refused = bot.create_forum_topic(ChatId(plain.id), "Konane").await;
        assert_eq!(refusal(refused), "Bad Request: the chat is not a forum");
    }
    fake.make_bot_admin(&forum);
    let topic = bot
        .create_forum_topic(ChatId(forum.id), "Konane")
        .icon_color(Rgb::from_u32(0x00FF_D67E))
        .await
        .unwrap();
    assert_eq!(topic.name, "Konane");
    assert_eq!(topic.icon_color.to_u32(), 0x00FF_D67E);
    let konane = i64::from(topic.thread_id.0.0);
    let plain_topic = bot
        .create_forum_topic(ChatId(forum.id), "Go")
        .await
        .unwrap();
    assert_eq!(plain_topic.icon_color.to_u32(), 7_322_096);
    for (body, text) in [
        (
            json!({"chat_id": forum.id, "name": " "}),
            "Bad Request: title must be non-empty",
        ),
        (
            json!({"chat_id": forum.id, "name": "x".repeat(129)}),
            "Bad Request: topic name is too long",
        ),
        (
            json!({"chat_id": forum.id, "name": "x", "icon_color": 255}),
            "Bad Request: icon_color must be",
        ),
    ] {
        assert_refused(&raw(&fake, "createForumTopic", body).await, 400, text);
    }
    let topics = fake.topics(&forum);
    assert_eq!(topics.len(), 2);
    assert!(topics.iter().all(|t| t.created_by_bot && !t.closed));
    assert_eq!(
        (topics[0].thread_id, topics[0].name.as_str()),
        (konane, "Konane")
    );
    // The topic starts with the bot's forum_topic_created service message, which the bot does
    // not receive.
    let created = fake.message_json(&forum, konane).unwrap();
    assert_eq!(created["forum_topic_created"]["name"], json!("Konane"));
    assert_eq!(created["from"]["id"], json!(fake.bot_id()));
    assert!(fake.pending_updates().is_empty());

    bot.send_message(ChatId(forum.id), "first move")
        .message_thread_id(thread(konane))
        .await
        .unwrap();
    let in_topic = fake.bot_messages_in_topic(&forum, konane);
    assert_eq!(in_topic.len(), 1);
    assert!(in_topic[0].is_topic_message);
    assert!(
        fake.bot_messages_in_topic(&forum, plain_topic.thread_id.0.0.into())
            .is_empty()
    );

    // Closing: once; an administrator with can_manage_topics may still post there.
    bot.close_forum_topic(ChatId(forum.id), thread(konane))
        .await
        .unwrap();
    assert!(fake.topics(&forum)[0].closed);
    let again = bot
        .close_forum_topic(ChatId(forum.id), thread(konane))
        .await;
    assert_eq!(refusal(again), "Bad Request: TOPIC_NOT_MODIFIED");
    bot.send_message(ChatId(forum.id), "admins may")
        .message_thread_id(thread(konane))
        .await
        .unwrap();
    fake.make_bot_admin_with_topics(&forum, false);
    let closed = bot
        .send_message(ChatId(forum.id), "refused")
        .message_thread_id(thread(konane))
        .await;
    assert_eq!(refusal(closed), "Bad Request: TOPIC_CLOSED");
    let photo = bot
        .send_photo(ChatId(forum.id), InputFile::memory(PNG.to_vec()))
        .message_thread_id(thread(konane))
        .await;
    assert_eq!(refusal(photo), "Bad Request: TOPIC_CLOSED");
    assert_eq!(
        fake.refused().len(),
        2,
        "a closed topic is the platform's state"
    );
    // The bot reopens its own topic without the right; not someone else's.
    bot.reopen_forum_topic(ChatId(forum.id), thread(konane))
        .await
        .unwrap();
    bot.send_message(ChatId(forum.id), "open again")
        .message_thread_id(thread(konane))
        .await
        .unwrap();
    assert_eq!(fake.bot_messages_in_topic(&forum, konane).len(), 3);
    let chess = fake.create_topic(&forum, "Chess");
    let theirs = bot.close_forum_topic(ChatId(forum.id), thread(chess)).await;
    assert_eq!(
        refusal(theirs),
        "Bad Request: not enough rights to close or open the topic"
    );
    let unknown = bot.close_forum_topic(ChatId(forum.id), thread(999)).await;
    assert_eq!(refusal(unknown), "Bad Request: TOPIC_ID_INVALID");
    // A person closes a topic: a service message for the bot; sends there are refused.
    fake.close_topic(&forum, chess);
    let topics = fake.topics(&forum);
    assert!(topics[2].closed && !topics[2].created_by_bot);
    let refused = bot
        .send_message(ChatId(forum.id), "x")
        .message_thread_id(thread(chess))
        .await;
    assert_eq!(refusal(refused), "Bad Request: TOPIC_CLOSED");
    let kinds: Vec<_> = fake
        .pending_updates()
        .iter()
        .map(|u| {
            u["message"]
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect::<Vec<_>>()
        })
        .filter_map(|keys| keys.into_iter().find(|k| k.starts_with("forum_topic_")))
        .collect();
    assert_eq!(kinds, ["forum_topic_created", "forum_topic_closed"]);
    fake.reopen_topic(&forum, chess);
    bot.send_message(ChatId(forum.id), "reopened")
        .message_thread_id(thread(chess))
        .await
        .unwrap();
    assert_eq!(fake.violations().len(), 10, "{:#?}", fake.violations());
    assert_clean(&fake);
}
