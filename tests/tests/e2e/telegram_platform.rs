//! Telegram's platform behaviour end to end: the real `tabula run` against the fake Bot API.
//! Unseen usernames, replies as challenges, webhooks and their secret, forum topics, 429s,
//! a bot removed from a group, a group that became a supergroup, a second poller, and a
//! process killed with `kill -9` while it delivers an outbox message.

use std::time::{Duration, Instant};

use tabula_tests::bot_process::{BotProcess, free_port};
use tabula_tests::said;
use tabula_tests::telegram::{Failure, FakeMessage, TgChat, TgUser};
use tabula_tests::telegram_table::{
    ANSWER, Lcg, Table, callbacks, challenge, has_moves, is_photo, link_urls, to_act, wait_private,
};

fn button(message: &FakeMessage, prefix: char) -> String {
    callbacks(message)
        .into_iter()
        .map(|(_, data)| data)
        .find(|data| data.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix} button on {:?}", message.text()))
}

async fn offer(table: &Table, chat: &TgChat) -> FakeMessage {
    table
        .wait_new(chat, 0, "challenge", |m| !button_list(m).is_empty())
        .await
}

/// `who` presses Accept on `offer`: the game's first board.
async fn accept(
    table: &Table,
    chat: &TgChat,
    who: &TgUser,
    offer: &FakeMessage,
    what: &str,
) -> FakeMessage {
    table
        .fake
        .press(chat, who, offer.message_id, &button(offer, 'a'))
        .expect("Accept can be pressed");
    table.wait_new(chat, offer.message_id, what, is_photo).await
}

fn button_list(message: &FakeMessage) -> Vec<String> {
    callbacks(message)
        .into_iter()
        .map(|(_, d)| d)
        .filter(|d| d.starts_with('a'))
        .collect()
}

/// The answer (toast text) given to the newest press.
async fn toast(table: &Table) -> String {
    let answered = table
        .fake
        .wait_for(
            |f| f.callbacks().last().and_then(|c| c.answer.clone()),
            ANSWER,
        )
        .await
        .expect("the press is answered");
    answered
        .get("text")
        .and_then(|t| t.as_str())
        .unwrap_or_default()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_to_a_username_that_never_wrote() {
    let mut table = Table::new("unseen").await;
    table.start().await;
    let fake = table.fake.clone();
    let group = fake.group("Club");
    let alice = table.person("Alice");
    let carol = table.person("Carol");
    fake.user_writes(&group, &alice, "/play konane @zed_tg");
    let offer = offer(&table, &group).await;
    assert!(offer.text().contains("@zed_tg"), "{}", offer.text());
    // Carol is not zed: refused by a toast to her alone, nothing posted, nothing changed.
    fake.press(&group, &carol, offer.message_id, &button(&offer, 'a'))
        .expect("carol can press");
    let said = toast(&table).await;
    assert!(!said.is_empty(), "the refusal is a toast");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        table.fake.bot_messages(&group).len(),
        1,
        "a refusal posts nothing to the group"
    );
    let still = fake.message(&group, offer.message_id).expect("the offer");
    assert!(!button_list(&still).is_empty(), "the challenge still waits");
    // Zed, who has that username, takes the seat.
    let zed = table.person("Zed");
    let board = accept(&table, &group, &zed, &offer, "board").await;
    assert!(
        board.text().contains("@alice_tg") || board.text().contains("@zed_tg"),
        "the player to act is named: {}",
        board.text()
    );
    table.stop().await;
    table.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_challenges_and_a_text_mention_names_a_person_without_username() {
    let mut table = Table::new("reply").await;
    table.start().await;
    let fake = table.fake.clone();
    let group = fake.group("Club");
    let alice = table.person("Alice");
    let bob = table.person("Bob");
    let dana = fake.user("Dana");
    let hello = fake.user_writes(&group, &bob, "anyone for a game?");
    fake.compose(&group, &alice, "/play koan")
        .reply_to(hello)
        .send();
    let first = offer(&table, &group).await;
    assert!(first.text().contains("@bob_tg"), "{}", first.text());
    fake.compose(&group, &alice, "/play kolowis ")
        .text_mention("Dana", &dana)
        .send();
    let second = table
        .wait_new(&group, first.message_id, "second challenge", |m| {
            !button_list(m).is_empty()
        })
        .await;
    assert!(
        second
            .content
            .entities
            .iter()
            .any(|e| e.kind == "text_mention"),
        "Dana, without a username, is mentioned by a link: {:?}",
        second.content.entities
    );
    accept(&table, &group, &dana, &second, "board").await;
    table.stop().await;
    table.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhook_mode_checks_the_secret() {
    let mut table = Table::new("webhook").await;
    let port = free_port();
    table.set(
        "TELEGRAM_WEBHOOK_URL",
        "https://bot.example.test/telegram/hook",
    );
    table.set("TELEGRAM_WEBHOOK_SECRET", "s3cret-token_1");
    table.set("TABULA_LISTEN", format!("127.0.0.1:{port}"));
    table.fake.route_webhook(
        "https://bot.example.test",
        &format!("http://127.0.0.1:{port}"),
    );
    table.start().await;
    let fake = table.fake.clone();
    let group = fake.group("Club");
    let alice = table.person("Alice");
    fake.add_member(&group, &alice);
    let update = serde_json::json!({"update_id": 999_001, "message": {
        "message_id": 1, "date": 1_700_000_000,
        "chat": {"id": group.id, "type": "group", "title": "Club"},
        "from": {"id": alice.id, "is_bot": false, "first_name": "Alice", "username": "alice_tg"},
        "text": "/help", "entities": [{"type": "bot_command", "offset": 0, "length": 5}],
    }})
    .to_string();
    assert_eq!(fake.post_webhook_raw(None, &update).await, Ok(401));
    assert_eq!(fake.post_webhook_raw(Some("wrong"), &update).await, Ok(401));
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        fake.bot_messages(&group).is_empty(),
        "a refused request was processed"
    );
    assert_eq!(
        fake.post_webhook_raw(Some("s3cret-token_1"), &update).await,
        Ok(200)
    );
    table.wait_new(&group, 0, "help", |_| true).await;
    // Updates the fake delivers itself carry the secret and are answered.
    let bob = table.person("Bob");
    let last = table.newest(&group, |_| true).map_or(0, |m| m.message_id);
    fake.user_writes(&group, &alice, "/play konane @bob_tg");
    let offer = table
        .wait_new(&group, last, "challenge", |m| !button_list(m).is_empty())
        .await;
    accept(&table, &group, &bob, &offer, "board").await;
    assert!(
        fake.webhook_attempts()
            .iter()
            .all(|a| a.secret.as_deref() == Some("s3cret-token_1")),
        "Telegram sends the secret set by setWebhook"
    );
    table.stop().await;
    table.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forum_topic_is_answered_in_its_topic() {
    let mut table = Table::new("topic").await;
    table.start().await;
    let fake = table.fake.clone();
    let forum = fake.supergroup("Games club", true);
    let topic = fake.create_topic(&forum, "Konane");
    let alice = table.person("Alice");
    let bob = table.person("Bob");
    fake.compose(&forum, &alice, "/play konane @bob_tg")
        .in_topic(topic)
        .send();
    let offer = offer(&table, &forum).await;
    assert_eq!(
        offer.thread_id,
        Some(topic),
        "the challenge is in the topic"
    );
    let board = accept(&table, &forum, &bob, &offer, "board").await;
    assert_eq!(board.thread_id, Some(topic), "the board is in the topic");
    // The general chat of the forum is another table: no game there.
    fake.user_writes(&forum, &alice, "/board");
    let answer = table
        .wait_new(&forum, board.message_id, "answer in general", |m| {
            m.thread_id.is_none()
        })
        .await;
    assert!(
        !is_photo(&answer),
        "no game outside the topic: {}",
        answer.text()
    );
    table.stop().await;
    table.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_429_is_retried_after_its_retry_after() {
    let mut table = Table::new("retry").await;
    table.start().await;
    let fake = table.fake.clone();
    let group = fake.group("Club");
    let alice = table.person("Alice");
    fake.fail_next("sendMessage", Failure::TooManyRequests { retry_after: 2 });
    let asked = Instant::now();
    fake.user_writes(&group, &alice, "/help");
    table.wait_new(&group, 0, "help", |_| true).await;
    assert!(
        asked.elapsed() >= Duration::from_secs(2),
        "sent again before retry_after"
    );
    let refused = fake.requests().iter().filter(|r| r.status == 429).count();
    assert_eq!(refused, 1);
    table.stop().await;
    table.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_group_that_removed_the_bot_is_not_retried_forever() {
    let mut table = Table::new("kicked").await;
    table.set("TABULA_CHALLENGE_SECONDS", "2");
    table.set("TABULA_SCHEDULER_SECONDS", "1");
    table.start().await;
    let fake = table.fake.clone();
    let group = fake.group("Club");
    let alice = table.person("Alice");
    fake.set_creator(&group, &alice);
    fake.user_writes(&group, &alice, "/play konane @bob_tg");
    offer(&table, &group).await;
    fake.kick_bot(&group);
    let to_group = |f: &tabula_tests::telegram::FakeTelegram| {
        f.requests()
            .into_iter()
            .filter(|r| {
                r.method.eq_ignore_ascii_case("sendMessage")
                    && r.params.get("chat_id").and_then(serde_json::Value::as_i64) == Some(group.id)
                    && r.status == 403
            })
            .count()
    };
    // The expiry of the challenge is refused with 403 once ...
    fake.wait_for(|f| (to_group(f) >= 1).then_some(()), ANSWER)
        .await
        .expect("the expiry is tried");
    // ... and not tried again.
    tokio::time::sleep(Duration::from_secs(5)).await;
    assert_eq!(
        to_group(&fake),
        1,
        "the bot kept sending to a group that removed it"
    );
    // The bot goes on elsewhere.
    let other = fake.group("Other");
    fake.user_writes(&other, &alice, "/help");
    table.wait_new(&other, 0, "help", |_| true).await;
    table.stop().await;
    table.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_group_that_became_a_supergroup_keeps_its_games() {
    let mut table = Table::new("migrate").await;
    table.start().await;
    let fake = table.fake.clone();
    let group = fake.group("Club");
    let alice = table.person("Alice");
    let bob = table.person("Bob");
    fake.user_writes(&group, &alice, "/play konane @bob_tg");
    let offer = offer(&table, &group).await;
    accept(&table, &group, &bob, &offer, "board").await;
    let supergroup = fake.migrate_to_supergroup(&group);
    // Once the bot has read the migration, the game is found in the supergroup.
    let found = async {
        loop {
            let last = table
                .newest(&supergroup, |_| true)
                .map_or(0, |m| m.message_id);
            fake.user_writes(&supergroup, &alice, "/board");
            let answer = table
                .wait_new(&supergroup, last, "answer to /board", |_| true)
                .await;
            if is_photo(&answer) {
                return answer;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    };
    let board = tokio::time::timeout(ANSWER, found)
        .await
        .expect("the game moved with the group");
    assert!(
        board.text().contains("Konane") || board.text().contains("#1"),
        "{}",
        board.text()
    );
    table.stop().await;
    table.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_poller_is_refused_and_the_first_goes_on() {
    let mut table = Table::new("poller").await;
    table.start().await;
    let fake = table.fake.clone();
    let group = fake.group("Club");
    let alice = table.person("Alice");
    // The first bot is at work: it has answered someone.
    fake.user_writes(&group, &alice, "/help");
    let first = table.wait_new(&group, 0, "help", |_| true).await;
    let mut second = BotProcess::start(&table.dir, &["run"], &table.env);
    let status = second.wait(Duration::from_secs(60)).await;
    assert!(!status.success(), "the second poller must stop");
    assert!(
        second.log().contains("409 Conflict"),
        "it says why: {}",
        second.log()
    );
    fake.user_writes(&group, &alice, "/help");
    table
        .wait_new(&group, first.message_id, "help", |_| true)
        .await;
    table.stop().await;
    table.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_outbox_message_survives_kill_9_between_claim_and_send() {
    let mut table = Table::new("kill9").await;
    table.set("TABULA_CHALLENGE_SECONDS", "1");
    table.set("TABULA_SCHEDULER_SECONDS", "1");
    table.set("TABULA_OUTBOX_LEASE_SECONDS", "3");
    table.start().await;
    let fake = table.fake.clone();
    let group = fake.group("Club");
    let alice = table.person("Alice");
    fake.user_writes(&group, &alice, "/play konane @bob_tg");
    let offer = offer(&table, &group).await;
    // The expiry message is claimed and its send hangs: the process dies right there.
    fake.fail_next("sendMessage", Failure::Hang);
    fake.wait_for(
        |f| {
            f.requests()
                .iter()
                .any(|r| r.method.eq_ignore_ascii_case("sendMessage") && r.status == 0)
                .then_some(())
        },
        ANSWER,
    )
    .await
    .expect("the expiry is being sent");
    if let Some(mut bot) = table.bot.take() {
        bot.kill9().await;
    }
    assert!(
        fake.bot_messages(&group).len() == 1,
        "nothing but the offer was delivered before the kill"
    );
    table.start().await;
    let expired = table
        .wait_new(
            &group,
            offer.message_id,
            "the expiry, after the restart",
            |_| true,
        )
        .await;
    assert!(
        said::says(expired.text(), "challenge-expired"),
        "{}",
        expired.text()
    );
    // The offer said until when it waited; the expiry notifies Alice, and the offer loses
    // its buttons (issue 37).
    assert!(
        said::says(offer.text(), "challenge-until"),
        "{}",
        offer.text()
    );
    assert!(
        expired.mentioned().contains(&"@alice_tg".to_string()),
        "the challenger is notified: {:?}",
        expired.mentioned()
    );
    table
        .wait_buttons_off(
            &group,
            offer.message_id,
            "the expired offer lost its buttons",
        )
        .await;
    let offer_now = fake.message(&group, offer.message_id).expect("the offer");
    assert!(
        said::says(offer_now.text(), "challenge-expired"),
        "the offer says it expired: {}",
        offer_now.text()
    );
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert_eq!(
        fake.bot_messages(&group).len(),
        2,
        "delivered once after the restart"
    );
    table.stop().await;
    table.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn start_in_a_private_chat_greets_and_explains_groups() {
    let mut table = Table::new("start").await;
    table.start().await;
    let fake = table.fake.clone();
    let alice = table.person("Alice");
    let private = fake.private_chat(&alice);
    fake.user_writes(&private, &alice, "/start");
    let hello = table.wait_new(&private, 0, "greeting", |_| true).await;
    assert!(said::says(hello.text(), "greeting"), "{}", hello.text());
    assert!(hello.text().contains("/play"), "{}", hello.text());
    // In a group, /start tells how to play there, not to add the bot to a group (issue 37).
    let group = fake.group("Club");
    fake.user_writes(&group, &alice, "/start");
    let there = table
        .wait_new(&group, 0, "greeting in a group", |_| true)
        .await;
    assert!(
        said::says(there.text(), "greeting-group"),
        "{}",
        there.text()
    );
    assert!(!said::says(there.text(), "greeting"), "{}", there.text());
    // A private chat is its own table: its person moderates it.
    fake.user_writes(&private, &alice, "/config max_stake=100");
    let config = table
        .wait_new(&private, hello.message_id, "config", |_| true)
        .await;
    assert!(!config.text().starts_with("Sorry"), "{}", config.text());
    // The command menu in English for everyone, and in each other language for the people
    // whose app speaks it.
    let menu = |code: &str| {
        fake.my_commands(None, code)
            .unwrap_or_else(|| panic!("commands for {code:?}"))
    };
    let english = menu("");
    assert!(
        english.contains(&(
            "play".into(),
            "Challenge people (or anyone here) to a game".into()
        )),
        "{english:?}"
    );
    // Members do not see the moderators' commands; the groups' administrators do.
    let has = |list: &[(String, String)], name: &str| list.iter().any(|(n, _)| n == name);
    assert!(
        !has(&english, "grant") && !has(&english, "take") && !has(&english, "resetrating"),
        "{english:?}"
    );
    let administrators = serde_json::json!({"type": "all_chat_administrators"});
    for code in ["", "ru", "bg"] {
        let full = fake
            .my_commands(Some(&administrators), code)
            .unwrap_or_else(|| panic!("administrators' commands for {code:?}"));
        assert!(
            has(&full, "grant") && has(&full, "take") && has(&full, "resetrating"),
            "{code}: {full:?}"
        );
        assert_eq!(full.len(), menu(code).len() + 3, "{code}");
    }
    let russian = menu("ru");
    assert_eq!(russian.len(), english.len());
    assert!(
        russian.contains(&("wallet".into(), "Ваши монеты здесь".into())),
        "{russian:?}"
    );
    assert!(menu("bg").contains(&("wallet".into(), "Твоите монети тук".into())));
    // Someone whose app speaks Russian is greeted, and helped, in Russian.
    let boris = table.person("Boris").language("ru");
    let private = fake.private_chat(&boris);
    fake.user_writes(&private, &boris, "/start");
    let hello = table.wait_new(&private, 0, "greeting", |_| true).await;
    assert!(
        hello.text().contains("Команды:\n/play: Вызвать на партию"),
        "{}",
        hello.text()
    );
    fake.user_writes(&private, &boris, "/help move");
    let help = table
        .wait_new(&private, hello.message_id, "help", |_| true)
        .await;
    assert!(
        help.text().starts_with("/move [#партия] [ход]\n"),
        "{}",
        help.text()
    );
    fake.user_writes(&private, &boris, "/vacation 99");
    let refused = table
        .wait_new(&private, help.message_id, "refusal", |_| true)
        .await;
    assert!(
        refused
            .text()
            .contains("дни: нужно число от 1 до 31, а не 99"),
        "{}",
        refused.text()
    );
    table.stop().await;
    table.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_that_are_missing_or_wrong_stop_it_at_once() {
    let dir = tabula_tests::bot_process::scratch_dir("settings");
    let mut none = BotProcess::start(&dir, &["run"], &[]);
    let status = none.wait(Duration::from_secs(20)).await;
    assert_eq!(status.code(), Some(2));
    assert!(none.log().contains("TELEGRAM_BOT_TOKEN"), "{}", none.log());
    let mut no_secret = BotProcess::start(
        &dir,
        &["run"],
        &[
            ("TELEGRAM_BOT_TOKEN", "1:x".to_string()),
            (
                "TELEGRAM_WEBHOOK_URL",
                "https://bot.example.test/hook".to_string(),
            ),
        ],
    );
    let status = no_secret.wait(Duration::from_secs(20)).await;
    assert_eq!(status.code(), Some(2));
    assert!(
        no_secret.log().contains("TELEGRAM_WEBHOOK_SECRET"),
        "{}",
        no_secret.log()
    );
    assert!(
        !dir.join("tabula.db").exists(),
        "nothing is created before the settings are checked"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_connection_is_retried_without_losing_the_board() {
    let mut table = Table::new("network").await;
    table.start().await;
    let fake = table.fake.clone();
    let group = fake.group("Club");
    let alice = table.person("Alice");
    let bob = table.person("Bob");
    fake.user_writes(&group, &alice, "/play konane @bob_tg");
    let offer = offer(&table, &group).await;
    fake.fail_next("sendPhoto", Failure::DropConnection);
    fake.fail_next("sendPhoto", Failure::ServerError);
    accept(&table, &group, &bob, &offer, "board, after two failures").await;
    let photos = fake
        .requests()
        .iter()
        .filter(|r| r.method.eq_ignore_ascii_case("sendPhoto"))
        .count();
    assert_eq!(photos, 3, "tried three times");
    assert_eq!(
        fake.bot_messages(&group)
            .iter()
            .filter(|m| is_photo(m))
            .count(),
        1,
        "posted once"
    );
    table.stop().await;
    table.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_groups_administrators_moderate_it() {
    let mut table = Table::new("admins").await;
    table.start().await;
    let fake = table.fake.clone();
    let group = fake.group("Club");
    let owner = table.person("Olga");
    let admin = table.person("Adam");
    let member = table.person("Mia");
    fake.set_creator(&group, &owner);
    fake.add_admin(&group, &admin);
    fake.add_member(&group, &member);
    let mut last = 0;
    for (who, allowed) in [(&member, false), (&owner, true), (&admin, true)] {
        fake.user_writes(&group, who, "/config max_stake=77");
        let answer = table
            .wait_new(&group, last, "answer to /config", |_| true)
            .await;
        last = answer.message_id;
        assert_eq!(
            !answer.text().starts_with("Sorry"),
            allowed,
            "{:?}: {}",
            who,
            answer.text()
        );
        if !allowed {
            assert!(
                answer.reply_to.is_some(),
                "a refusal answers the person's message"
            );
        }
    }
    // Issue 39: an administrator opens a season of three; the three join with its button,
    // and the last join begins it: the post now tells the games, one for every pair.
    fake.user_writes(&group, &admin, "/season start konane size=3 days=10");
    let season = table
        .wait_new(&group, last, "the season's post", |m| {
            said::says(m.text(), "season-open")
        })
        .await;
    let join = season
        .buttons()
        .into_iter()
        .flatten()
        .find_map(|b| b.callback_data.filter(|d| d.starts_with('J')))
        .expect("Join");
    for who in [&owner, &admin, &member] {
        fake.press(&group, who, season.message_id, &join)
            .expect("join the season");
    }
    let begun = fake
        .wait_for(
            |f| {
                f.message(&group, season.message_id)
                    .filter(|m| said::says(m.text(), "season-begun"))
            },
            ANSWER,
        )
        .await
        .expect("the season begins when its last place is taken");
    let games = begun
        .text()
        .lines()
        .filter(|line| line.starts_with('#'))
        .count();
    assert_eq!(games, 3, "one game for every pair: {}", begun.text());
    table.stop().await;
    table.assert_clean();
}

/// Issue 36: the bot is killed after a move was committed and before its board was posted
/// (its `sendPhoto` hangs). Started again, the move is announced from the outbox: the new
/// board with the next player's buttons, posted once, the pressed board's buttons taken off,
/// and the button press, already answered by the process that died, not answered again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_committed_before_a_kill_9_is_announced_after_the_restart() {
    let mut table = Table::new("announce-kill9").await;
    // The announcement is held for the outbox lease at most (5 s here, 10 s by default).
    table.set("TABULA_OUTBOX_LEASE_SECONDS", "5");
    table.start().await;
    let fake = table.fake.clone();
    let (group, players, board) = challenge(&table, "konane").await;
    let actor = to_act(&board, &players).expect("someone to move").clone();
    // People read a board before they act.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (_, data) = callbacks(&board)
        .into_iter()
        .find(|(_, data)| data.starts_with('m'))
        .expect("a move button on the board");
    fake.fail_next("sendPhoto", Failure::Hang);
    fake.press(&group, &actor, board.message_id, &data)
        .expect("the move is pressed");
    fake.wait_for(
        |f| {
            f.requests()
                .iter()
                .any(|r| r.method.eq_ignore_ascii_case("sendPhoto") && r.status == 0)
                .then_some(())
        },
        ANSWER,
    )
    .await
    .expect("the move's board is being sent");
    if let Some(mut bot) = table.bot.take() {
        bot.kill9().await;
    }
    let before = fake.bot_messages(&group).len();
    table.start().await;
    let announced = table
        .wait_new(
            &group,
            board.message_id,
            "the move's board, after the restart",
            is_photo,
        )
        .await;
    assert!(has_moves(&announced), "the next player's buttons are on it");
    let next = to_act(&announced, &players).expect("someone to move");
    assert_ne!(next.id, actor.id, "the turn passed");
    fake.wait_for(
        |f| (!has_moves(&f.message(&group, board.message_id)?)).then_some(()),
        ANSWER,
    )
    .await
    .expect("the pressed board lost its buttons");
    // Once: nothing more comes.
    tokio::time::sleep(Duration::from_secs(6)).await;
    assert_eq!(
        fake.bot_messages(&group).len(),
        before + 1,
        "announced once"
    );
    table.stop().await;
    table.assert_clean();
}

/// Issue 37, item 3: a challenge accepted by a typed `/accept` loses its buttons and says which
/// game began, as one accepted by its button does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_typed_acceptance_changes_the_challenge_too() {
    let mut table = Table::new("typed-accept").await;
    table.start().await;
    let fake = table.fake.clone();
    let group = fake.group("Club");
    let alice = table.person("Alice");
    let bob = table.person("Bob");
    fake.user_writes(&group, &alice, "/play konane @bob_tg");
    let offer = offer(&table, &group).await;
    // People read a challenge before they accept it; the bot records which message it is
    // right after posting it (its id is known only then).
    tokio::time::sleep(Duration::from_millis(200)).await;
    fake.user_writes(&group, &bob, "/accept");
    table
        .wait_new(&group, offer.message_id, "board", is_photo)
        .await;
    table
        .wait_buttons_off(&group, offer.message_id, "the challenge lost its buttons")
        .await;
    let changed = fake
        .message(&group, offer.message_id)
        .expect("the challenge");
    assert!(
        said::says(changed.text(), "challenge-started"),
        "{changed:?}"
    );
    // A typed `/decline` changes the challenge's post the same way: no buttons, and it says
    // who declined it.
    fake.user_writes(&group, &alice, "/play koan @bob_tg");
    let second = table
        .wait_new(&group, offer.message_id, "the second challenge", |m| {
            !is_photo(m) && !button_list(m).is_empty()
        })
        .await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    fake.user_writes(&group, &bob, "/decline");
    table
        .wait_buttons_off(&group, second.message_id, "the declined challenge")
        .await;
    let declined = fake
        .message(&group, second.message_id)
        .expect("the second challenge");
    assert!(
        said::says(declined.text(), "challenge-declined"),
        "{declined:?}"
    );

    // `/notify` in a group (issue 38): Bob's panel, a reply to his message (Telegram has no
    // message for one person in a group), set by typing and switched by its buttons, which
    // edit it in place: no new message.
    fake.user_writes(&group, &bob, "/notify lastcall on");
    let panel = table
        .wait_new(&group, second.message_id, "Bob's notify panel", |m| {
            said::says(m.text(), "notify-saved")
        })
        .await;
    let switches = callbacks(&panel);
    assert_eq!(
        switches.len(),
        5,
        "three other places, then a button per reminder: {:?}",
        switches
    );
    let posted = fake.bot_messages(&group).len();
    fake.press(&group, &bob, panel.message_id, &switches[0].1)
        .expect("a switch can be pressed");
    let changed = fake
        .wait_for(
            |fake| {
                fake.message(&group, panel.message_id)
                    .filter(|m| callbacks(m).first().map(|b| &b.1) != Some(&switches[0].1))
            },
            ANSWER,
        )
        .await;
    assert!(changed.is_ok(), "the panel shows the switch made");
    assert_eq!(
        fake.bot_messages(&group).len(),
        posted,
        "nothing new is posted"
    );
    table.stop().await;
    table.assert_clean();
}

/// Issue 38: private pings. Alice and Bob started the bot and asked to be told privately: the
/// one to move first (by lot) gets a private message saying which game, in which chat, with the
/// board's picture and a link to the game (the supergroup's `t.me/c/...` link), and the board in
/// the group does not mention them. Carol and Dave never started the bot: the refused ping
/// (403 "bot can't initiate conversation") becomes one hint in the group, mentioning the one
/// concerned, with a button that opens the private chat (the deep link), said once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_pings_reach_those_who_started_the_bot_and_a_hint_the_others() {
    let mut table = Table::new("private-pings").await;
    table.start().await;
    let fake = table.fake.clone();
    let group = fake.supergroup("Club", false);
    let people: Vec<TgUser> = ["Alice", "Bob", "Carol", "Dave"]
        .into_iter()
        .map(|name| table.person(name))
        .collect();
    for person in &people {
        fake.add_member(&group, person);
    }
    let (alice, bob, carol, dave) = (&people[0], &people[1], &people[2], &people[3]);
    for person in [alice, bob] {
        fake.user_starts_bot(person);
    }
    // The challengers ask to be told privately; the others keep the mentions.
    for person in [alice, carol] {
        fake.user_writes(&group, person, "/notify private");
    }
    let mut last = 0;
    for _ in 0..2 {
        let panel = table
            .wait_new(&group, last, "a notify panel", |m| {
                said::says(m.text(), "notify-saved")
            })
            .await;
        last = panel.message_id;
    }
    let mut lcg = Lcg(3);

    // Alice challenges Bob; Bob accepts. Alice is told privately when it is her move (at once
    // if the lot gave her the first move; else after Bob's, who is mentioned), not mentioned.
    fake.user_writes(&group, alice, "/play konane @bob_tg");
    let offer = table
        .wait_new(&group, last, "the challenge", |m| {
            !button_list(m).is_empty()
        })
        .await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    fake.user_writes(&group, bob, "/accept");
    let mut board = table
        .wait_new(&group, offer.message_id, "the first board", is_photo)
        .await;
    let pair = [
        (alice.clone(), "alice_tg".to_string()),
        (bob.clone(), "bob_tg".to_string()),
    ];
    if board.mentioned().contains(&"@bob_tg".to_string()) {
        board = tabula_tests::table::one_move(&table, &group, &pair, &board, &mut lcg, false).await;
    }
    // Their private chats hold the greeting of `/start` too.
    let pings_of = |who: &TgUser| -> Vec<FakeMessage> {
        fake.private_bot_messages(who)
            .into_iter()
            .filter(|m| said::says(m.text(), "ping-your-move"))
            .collect()
    };
    fake.wait_for(|_| (!pings_of(alice).is_empty()).then_some(()), ANSWER)
        .await
        .expect("Alice's private ping");
    assert!(pings_of(bob).is_empty(), "Bob keeps the mentions");
    let pings = pings_of(alice);
    assert_eq!(pings.len(), 1, "{pings:?}");
    let ping = &pings[0];
    assert!(is_photo(ping), "the board's picture");
    let links: Vec<String> = link_urls(ping);
    let channel = group.id.to_string();
    let channel = channel.trim_start_matches("-100");
    assert_eq!(
        links,
        [format!("https://t.me/c/{channel}/{}", board.message_id)],
        "a link to the board"
    );
    assert!(
        !board.mentioned().contains(&"@alice_tg".to_string()),
        "the board names Alice without a mention: {:?}",
        board.mentioned()
    );

    // Carol and Dave never started the bot: the first player's ping is refused, and the
    // group is told once (their game in a group of its own).
    let club_b = fake.supergroup("Club B", false);
    for person in [carol, dave] {
        fake.add_member(&club_b, person);
    }
    fake.user_writes(&club_b, carol, "/play konane @dave_tg");
    let offer = table
        .wait_new(&club_b, 0, "the second challenge", |m| {
            !is_photo(m) && !button_list(m).is_empty()
        })
        .await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    fake.user_writes(&club_b, dave, "/accept");
    let mut second = table
        .wait_new(&club_b, offer.message_id, "the second board", is_photo)
        .await;
    if second.mentioned().contains(&"@dave_tg".to_string()) {
        let pair = [
            (carol.clone(), "carol_tg".to_string()),
            (dave.clone(), "dave_tg".to_string()),
        ];
        second =
            tabula_tests::table::one_move(&table, &club_b, &pair, &second, &mut lcg, false).await;
    }
    let hint = table
        .wait_new(&club_b, second.message_id, "the hint", |m| {
            said::says(m.text(), "ping-unreachable")
        })
        .await;
    let links: Vec<String> = link_urls(&hint);
    assert_eq!(
        links.len(),
        1,
        "a button that opens the private chat: {links:?}"
    );
    assert!(links[0].contains("?start="), "the deep link: {links:?}");
    assert!(fake.private_bot_messages(carol).is_empty());
    assert!(fake.private_bot_messages(dave).is_empty());
    assert!(
        fake.refused()
            .iter()
            .any(|r| r.method.eq_ignore_ascii_case("sendPhoto")
                || r.method.eq_ignore_ascii_case("sendMessage")),
        "the platform refused the private message"
    );
    tokio::time::sleep(Duration::from_secs(2)).await;
    let hints = fake
        .bot_messages(&club_b)
        .into_iter()
        .filter(|m| said::says(m.text(), "ping-unreachable"))
        .count();
    assert_eq!(hints, 1, "said once");

    // `/mygames` in Alice's private chat: her games in both groups, each with a link to its
    // board in its group.
    let other = fake.supergroup("Second club", false);
    for person in [alice, bob] {
        fake.add_member(&other, person);
    }
    fake.user_writes(&other, bob, "/play koan @alice_tg");
    let offer = table
        .wait_new(&other, 0, "the challenge there", |m| {
            !button_list(m).is_empty()
        })
        .await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    fake.user_writes(&other, alice, "/accept");
    let there = table
        .wait_new(&other, offer.message_id, "the board there", is_photo)
        .await;
    let private = fake.private_chat(alice);
    fake.user_writes(&private, alice, "/mygames");
    let inbox = wait_private(&fake, alice, "mygames-heading", ANSWER).await;
    let links: Vec<String> = link_urls(&inbox);
    let link = |chat: &TgChat, message: i64| {
        format!(
            "https://t.me/c/{}/{message}",
            chat.id.to_string().trim_start_matches("-100")
        )
    };
    assert_eq!(links.len(), 2, "{links:?}");
    assert!(links.contains(&link(&group, board.message_id)), "{links:?}");
    assert!(links.contains(&link(&other, there.message_id)), "{links:?}");
    table.stop().await;
    table.assert_clean();
}

/// The daily digest (issue 38), end to end: Alice, who started the bot, chooses a digest at
/// 00:00 UTC (so today's is due at once) in her private chat; with a game waiting for her move
/// in the group, the scheduler sends her one private message listing it with a link to its
/// board, and the group's board names her without a mention.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_daily_digest_comes_privately_at_its_time() {
    let mut table = Table::new("digest").await;
    table.set("TABULA_SCHEDULER_SECONDS", "1");
    table.start().await;
    let fake = table.fake.clone();
    let group = fake.supergroup("Club", false);
    let (alice, bob) = (table.person("Alice"), table.person("Bob"));
    for person in [&alice, &bob] {
        fake.add_member(&group, person);
    }
    fake.user_starts_bot(&alice);
    let private = fake.private_chat(&alice);
    fake.user_writes(&private, &alice, "/notify digest 00:00 UTC");
    wait_private(&fake, &alice, "notify-saved", ANSWER).await;
    assert!(
        !fake
            .private_bot_messages(&alice)
            .iter()
            .any(|m| said::says(m.text(), "digest-heading")),
        "nothing waits for her yet"
    );
    // A game; if Bob is to move first, he moves, and then it waits for Alice.
    fake.user_writes(&group, &alice, "/play konane @bob_tg");
    let posted = offer(&table, &group).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    fake.user_writes(&group, &bob, "/accept");
    let mut board = table
        .wait_new(&group, posted.message_id, "the board", is_photo)
        .await;
    if board.mentioned().contains(&"@bob_tg".to_string()) {
        let mut lcg = Lcg(8);
        let pair = [
            (alice.clone(), "alice_tg".to_string()),
            (bob.clone(), "bob_tg".to_string()),
        ];
        board = tabula_tests::table::one_move(&table, &group, &pair, &board, &mut lcg, false).await;
    }
    assert!(
        !board.mentioned().contains(&"@alice_tg".to_string()),
        "a digest reader is not mentioned: {:?}",
        board.mentioned()
    );
    // The scheduler ticks every second; the wait is long for a whole run that keeps both
    // cores busy with many bots (20 s was once too short there).
    let digest = wait_private(&fake, &alice, "digest-heading", Duration::from_secs(45)).await;
    let links: Vec<String> = link_urls(&digest);
    let channel = group.id.to_string();
    assert_eq!(
        links,
        [format!(
            "https://t.me/c/{}/{}",
            channel.trim_start_matches("-100"),
            board.message_id
        )],
        "a link to the board"
    );
    // Once a day (a run that crosses midnight UTC meanwhile has the next day's too).
    let utc_day = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() / 86_400)
    };
    let day = utc_day();
    tokio::time::sleep(Duration::from_secs(3)).await;
    let digests = fake
        .private_bot_messages(&alice)
        .iter()
        .filter(|m| said::says(m.text(), "digest-heading"))
        .count();
    let days = usize::try_from(utc_day() - day + 1).unwrap_or(1);
    assert!(
        (1..=days).contains(&digests),
        "{digests} digests in {days} day(s)"
    );
    table.stop().await;
    table.assert_clean();
}

/// A topic per game (issue 38), end to end on Telegram: in a forum where the bot may manage
/// topics and the owner turned `/config threads=on`, an accepted challenge opens a topic named
/// after the game, whose board and moves are there; the general topic gets one line with a
/// link to it at the start, and one with the result when it ends, and the topic is closed.
/// Where the bot may not manage topics, the group is told which right is missing and the game
/// is played in the group.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_game_is_played_in_its_own_topic() {
    let mut table = Table::new("topics").await;
    table.set("TABULA_SCHEDULER_SECONDS", "1");
    table.start().await;
    let fake = table.fake.clone();
    let (olga, alice, bob) = (
        table.person("Olga"),
        table.person("Alice"),
        table.person("Bob"),
    );
    let forum = fake.supergroup("Games", true);
    let plain = fake.supergroup("Chat", false);
    let forbidden = fake.supergroup("Strict", true);
    for group in [&forum, &plain, &forbidden] {
        fake.set_creator(group, &olga);
        for person in [&alice, &bob] {
            fake.add_member(group, person);
        }
    }
    fake.make_bot_admin(&forum);
    fake.make_bot_admin_with_topics(&forbidden, false);
    // A group without topics cannot have them; a forum can.
    fake.user_writes(&plain, &olga, "/config threads=on");
    let refused = table.wait_new(&plain, 0, "the refusal", |_| true).await;
    assert!(
        said::says(refused.text(), "setting-threads-here"),
        "{}",
        refused.text()
    );
    for group in [&forum, &forbidden] {
        fake.user_writes(group, &olga, "/config threads=on");
        let set = table.wait_new(group, 0, "the settings", |_| true).await;
        assert!(!set.text().starts_with("Sorry"), "{}", set.text());
    }

    // Alice challenges Bob in the forum; he accepts with the button.
    fake.user_writes(&forum, &alice, "/play konane @bob_tg");
    let posted = offer(&table, &forum).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    fake.press(&forum, &bob, posted.message_id, &button(&posted, 'a'))
        .expect("Accept can be pressed");
    let topic = fake
        .wait_for(
            |fake| fake.topics(&forum).into_iter().find(|t| t.created_by_bot),
            ANSWER,
        )
        .await
        .expect("a topic for the game");
    assert!(
        topic.name.contains("Alice") && topic.name.contains("Bob") && topic.name.contains('#'),
        "{}",
        topic.name
    );
    let board = fake
        .wait_for(
            |fake| {
                fake.bot_messages_in_topic(&forum, topic.thread_id)
                    .into_iter()
                    .find(is_photo)
            },
            ANSWER,
        )
        .await
        .expect("the board in the topic");
    let challenge_post = fake.message(&forum, posted.message_id).expect("the offer");
    assert!(
        said::says(challenge_post.text(), "topic-coming") && callbacks(&challenge_post).is_empty(),
        "the challenge says where the game went: {}",
        challenge_post.text()
    );
    let group_id = forum.id.to_string();
    let short = group_id.trim_start_matches("-100");
    let line = fake
        .wait_for(
            |fake| {
                fake.bot_messages(&forum)
                    .into_iter()
                    .find(|m| said::says(m.text(), "topic-started"))
            },
            ANSWER,
        )
        .await
        .expect("the group's line");
    assert_eq!(line.thread_id, None, "in the general topic");
    let links: Vec<String> = link_urls(&line);
    assert_eq!(
        links,
        [format!("https://t.me/c/{short}/{}", topic.thread_id)]
    );

    // A move in the topic, pressed on its board: the next board is there too.
    let pair = [
        (alice.clone(), "alice_tg".to_string()),
        (bob.clone(), "bob_tg".to_string()),
    ];
    let mut lcg = Lcg(21);
    let next = tabula_tests::table::one_move(&table, &forum, &pair, &board, &mut lcg, false).await;
    assert_eq!(
        next.thread_id,
        Some(topic.thread_id),
        "the next board in the topic"
    );
    // `/resign` typed in the topic acts on its game without a number.
    let loser = if next.mentioned().contains(&"@alice_tg".to_string()) {
        &alice
    } else {
        &bob
    };
    fake.compose(&forum, loser, "/resign")
        .in_topic(topic.thread_id)
        .send();
    let question = fake
        .wait_for(
            |fake| {
                fake.bot_messages_in_topic(&forum, topic.thread_id)
                    .into_iter()
                    .find(|m| said::says(m.text(), "resign-question"))
            },
            ANSWER,
        )
        .await
        .expect("the question, in the topic");
    let confirm = callbacks(&question)
        .into_iter()
        .next()
        .map(|(_, data)| data)
        .expect("a Resign button");
    fake.press(&forum, loser, question.message_id, &confirm)
        .expect("Resign can be pressed");
    // The group's closing line, with the result and a link to the last board; the topic closed.
    let ended = fake
        .wait_for(
            |fake| {
                fake.bot_messages(&forum)
                    .into_iter()
                    .find(|m| m.thread_id.is_none() && said::says(m.text(), "result-because"))
            },
            Duration::from_secs(15),
        )
        .await
        .expect("the group's closing line");
    let link = ended
        .buttons()
        .into_iter()
        .flatten()
        .find_map(|b| b.url)
        .expect("a link to the last board");
    assert!(
        link.starts_with(&format!("https://t.me/c/{short}/{}/", topic.thread_id)),
        "{link}"
    );
    fake.wait_for(
        |fake| {
            fake.topics(&forum)
                .into_iter()
                .find(|t| t.thread_id == topic.thread_id && t.closed)
        },
        Duration::from_secs(15),
    )
    .await
    .expect("the topic closed");

    // Where the bot may not manage topics: the right is named, the game stays in the group.
    fake.user_writes(&forbidden, &alice, "/play koan @bob_tg");
    let posted = offer(&table, &forbidden).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    fake.user_writes(&forbidden, &bob, "/accept");
    table
        .wait_new(&forbidden, posted.message_id, "the missing right", |m| {
            said::says(m.text(), "thread-refused-manage-topics")
        })
        .await;
    let board = table
        .wait_new(
            &forbidden,
            posted.message_id,
            "the board in the group",
            is_photo,
        )
        .await;
    assert_eq!(board.thread_id, None);
    assert!(fake.topics(&forbidden).is_empty());
    table.stop().await;
    table.assert_clean();
}
