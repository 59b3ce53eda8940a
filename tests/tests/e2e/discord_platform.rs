//! Discord beyond whole games: the interactions endpoint's signatures, moves out of turn,
//! autocomplete, 32 games at once, command registration and settings. The real `tabula run`
//! against the fake Discord.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tabula_tests::bot_process::{BotProcess, scratch_dir};
use tabula_tests::discord::DcMessage;
use tabula_tests::discord_table::{
    Lcg, Mode, Table, buttons, challenge, challenge_in, is_board, link_urls, many_games, offer_in,
    one_move, to_act,
};
use tabula_tests::said;

/// The labels of the move buttons of a board.
fn move_labels(board: &DcMessage) -> BTreeSet<String> {
    buttons(board)
        .into_iter()
        .filter(|(_, id)| id.starts_with('m'))
        .map(|(label, _)| label)
        .collect()
}

/// A POST to the endpoint: what it tries, its headers and its body.
type Attempt<'a> = (&'a str, Vec<(&'a str, &'a str)>, &'a str);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_endpoint_refuses_bad_signatures_and_answers_a_ping() {
    let mut table = Table::new("dc-signatures", Mode::Http).await;
    table.start().await;
    let url = table.endpoint().expect("an endpoint");
    let fake = &table.fake;
    let body = json!({
        "id": "1234567890",
        "application_id": fake.application_id().to_string(),
        "type": 1,
        "token": "aW50ZXJhY3Rpb246dGVzdA",
        "version": 1
    })
    .to_string();
    let ts = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_secs()
        .to_string();
    let good = fake.sign(&ts, &body);
    let json_type = ("Content-Type", "application/json");
    let random: String = {
        let mut lcg = Lcg(77);
        (0..128)
            .map(|_| char::from_digit(lcg.below(16) as u32, 16).expect("a hex digit"))
            .collect()
    };
    let other = fake.sign_with_other_key(&ts, &body);
    let later = (ts.parse::<u64>().expect("a number") + 1).to_string();
    let tampered_body = body.replace("\"version\":1", "\"version\":2");
    assert_ne!(tampered_body, body, "the body was changed");
    let refused: Vec<Attempt<'_>> = vec![
        ("no signature", vec![json_type], &body),
        (
            "no timestamp",
            vec![json_type, ("X-Signature-Ed25519", &good)],
            &body,
        ),
        (
            "no signature beside the timestamp",
            vec![json_type, ("X-Signature-Timestamp", &ts)],
            &body,
        ),
        (
            "a random signature",
            vec![
                json_type,
                ("X-Signature-Ed25519", &random),
                ("X-Signature-Timestamp", &ts),
            ],
            &body,
        ),
        (
            "a signature that is not hex",
            vec![
                json_type,
                ("X-Signature-Ed25519", "not-a-signature"),
                ("X-Signature-Timestamp", &ts),
            ],
            &body,
        ),
        (
            "another application's key",
            vec![
                json_type,
                ("X-Signature-Ed25519", &other),
                ("X-Signature-Timestamp", &ts),
            ],
            &body,
        ),
        (
            "a tampered body",
            vec![
                json_type,
                ("X-Signature-Ed25519", &good),
                ("X-Signature-Timestamp", &ts),
            ],
            &tampered_body,
        ),
        (
            "a tampered timestamp",
            vec![
                json_type,
                ("X-Signature-Ed25519", &good),
                ("X-Signature-Timestamp", &later),
            ],
            &body,
        ),
    ];
    for (what, headers, body) in &refused {
        let (status, answer) = fake.post_raw(&url, headers, body).await;
        assert_eq!(status, 401, "{what}: {status} {answer}");
        assert!(
            !answer.contains("\"type\""),
            "{what}: nothing is answered beyond the refusal: {answer}"
        );
    }
    // The same body, signed right, is answered.
    let (status, answer) = fake
        .post_raw(
            &url,
            &[
                json_type,
                ("X-Signature-Ed25519", &good),
                ("X-Signature-Timestamp", &ts),
            ],
            &body,
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    // The developer portal's PING when the endpoint is saved.
    let (status, answer) = fake.ping_endpoint(&url).await;
    assert_eq!(status, 200, "{answer}");
    let answer: Value = serde_json::from_str(&answer).expect("JSON");
    assert_eq!(answer, json!({"type": 1}));
    assert!(
        fake.messages(&table.platform.channel).is_empty(),
        "nothing was posted"
    );
    table.stop().await;
    table.assert_clean();
}

/// Autocomplete offers the player to move exactly the board's moves, filtered by what is
/// typed, and nothing to the other; a move out of turn, typed or pressed, gets a reply only
/// its author sees and no board; then the game goes on.
async fn out_of_turn_and_autocomplete(name: &str, mode: Mode) {
    let mut table = Table::new(name, mode).await;
    table.start().await;
    let (players, board) = challenge(&table, "konane").await;
    let actor = to_act(&board, &players).expect("someone to act").clone();
    let other = players
        .iter()
        .find(|p| p.id != actor.id)
        .expect("two players")
        .clone();
    let legal = move_labels(&board);
    assert!(!legal.is_empty(), "the first board offers moves");
    let channel = table.platform.channel.clone();
    let suggest = |user, typed: &str| {
        let fake = &table.fake;
        let channel = &channel;
        let typed = typed.to_owned();
        async move {
            fake.autocomplete(channel, user, "move", &[("move", json!(typed))], "move")
                .await
                .unwrap_or_else(|error| panic!("autocomplete: {error}"))
        }
    };
    let all = suggest(&actor, "").await;
    for (name, value) in &all {
        assert_eq!(Some(name.as_str()), value.as_str(), "name and value agree");
        assert!(name.chars().count() <= 100, "{name}");
    }
    let offered: BTreeSet<String> = all.into_iter().map(|(name, _)| name).collect();
    assert_eq!(
        offered, legal,
        "autocomplete offers exactly the legal moves"
    );
    let one = legal.iter().next().expect("a move").clone();
    let typed: String = one.chars().take(2).collect();
    let narrowed = suggest(&actor, &typed).await;
    assert!(
        narrowed.iter().any(|(name, _)| *name == one),
        "{typed} still offers {one}: {narrowed:?}"
    );
    for (name, _) in &narrowed {
        assert!(legal.contains(name), "{name} is legal");
        assert!(
            name.to_lowercase().contains(&typed.to_lowercase()),
            "{name} matches {typed}"
        );
    }
    let nothing = suggest(&actor, "zz9").await;
    assert!(nothing.is_empty(), "nothing matches zz9: {nothing:?}");
    let theirs = suggest(&other, "").await;
    assert!(
        theirs.is_empty(),
        "the player not to move is offered nothing: {theirs:?}"
    );

    // Out of turn, typed then pressed.
    let before = table.last_id();
    table.slash(&other, "move", &[("move", json!(one))]).await;
    let typed_reply = table
        .wait_message(before, "reply to a move out of turn", |m| {
            m.ephemeral_for == Some(other.id)
        })
        .await;
    assert!(!is_board(&typed_reply), "{typed_reply:?}");
    assert!(!typed_reply.content.is_empty(), "{typed_reply:?}");
    let data = buttons(&board)
        .into_iter()
        .find(|(_, id)| id.starts_with('m'))
        .map(|(_, id)| id)
        .expect("a move button");
    let before = table.last_id();
    table.press(&other, board.id, &data).await;
    let pressed_reply = table
        .wait_message(before, "reply to a press out of turn", |m| {
            m.ephemeral_for == Some(other.id)
        })
        .await;
    assert!(!is_board(&pressed_reply), "{pressed_reply:?}");
    tokio::time::sleep(Duration::from_secs(2)).await;
    let public_after: Vec<_> = table
        .fake
        .messages(&table.platform.channel)
        .into_iter()
        .filter(|m| m.id > board.id && m.ephemeral_for.is_none() && !m.deleted)
        .collect();
    assert!(
        public_after.is_empty(),
        "nothing is posted for everyone: {public_after:#?}"
    );
    let still = table.fake.message(board.id).expect("the board");
    assert_eq!(move_labels(&still), legal, "the board keeps its moves");

    // The player to move still moves.
    let mut lcg = Lcg(5);
    let next = one_move(&table, &channel, &players, &board, &mut lcg, false).await;
    assert!(is_board(&next));

    // With two games, `/resign` asks which one, in a picker only Alice sees; her press takes
    // the picker's buttons off (only the interaction's response can edit an ephemeral
    // message) and asks the question in the channel (issue 37, items 1 and 9).
    let alice = &players[0];
    let carol = table.person("Carol");
    challenge_in(&table, &channel, alice, &carol, "koan").await;
    let before = table.last_id();
    table.slash(alice, "resign", &[]).await;
    let picker = table
        .wait_message(before, "which game?", |m| {
            m.ephemeral_for == Some(alice.id) && said::says(&m.content, "which-game-pick")
        })
        .await;
    let games = buttons(&picker);
    assert_eq!(games.len(), 2, "one button per game: {picker:?}");
    let before = table.last_id();
    table.press(alice, picker.id, &games[0].1).await;
    table
        .wait_message(before, "the question", |m| {
            m.ephemeral_for.is_none() && said::says(&m.content, "resign-question")
        })
        .await;
    let picker = table.fake.message(picker.id).expect("the picker");
    assert!(
        buttons(&picker).is_empty(),
        "the picker's buttons go: {picker:?}"
    );

    // `/notify` (issue 38): Carol's reminders, shown to her alone, set by its option and by
    // the panel's buttons, which edit the panel.
    let before = table.last_id();
    table
        .slash(&carol, "notify", &[("setting", json!("lastcall on"))])
        .await;
    let panel = table
        .wait_message(before, "the notify panel", |m| {
            m.ephemeral_for == Some(carol.id) && said::says(&m.content, "notify-saved")
        })
        .await;
    let switches = buttons(&panel);
    assert_eq!(
        switches.len(),
        5,
        "three other places, then a button per reminder: {:?}",
        switches
    );
    table.press(&carol, panel.id, &switches[0].1).await;
    let changed =
        <tabula_tests::discord_table::Discord as tabula_tests::table::Platform>::wait_for(
            &table.fake,
            tabula_tests::table::ANSWER,
            |fake| {
                fake.message(panel.id)
                    .filter(|m| buttons(m).first().map(|b| &b.1) != Some(&switches[0].1))
            },
        )
        .await;
    assert!(
        changed.is_some(),
        "the panel shows the switch made: {:?}",
        table.fake.message(panel.id)
    );

    // Issue 39, in the first game (#1, Konane), where `actor` moved last: `/takeback`, the
    // other accepts with the request's button and the board comes again; then `/draw`, which
    // `actor` accepts, ends it drawn. A casual challenge by the `rated` option (a boolean).
    let answer = |message: &DcMessage, kind: char| {
        buttons(message)
            .into_iter()
            .find(|(_, id)| id.starts_with(kind))
            .map(|(_, id)| id)
            .unwrap_or_else(|| panic!("no {kind} button: {message:?}"))
    };
    let public = |id: &'static str| {
        move |m: &DcMessage| m.ephemeral_for.is_none() && said::says(&m.content, id)
    };
    let before = table.last_id();
    table.slash(&actor, "takeback", &[("game", json!(1))]).await;
    let asked = table
        .wait_message(before, "the takeback request", public("takeback-asked"))
        .await;
    let before = table.last_id();
    table.press(&other, asked.id, &answer(&asked, 't')).await;
    let again = table
        .wait_message(before, "the board again", |m| {
            is_board(m) && said::says(&m.content, "takeback-done")
        })
        .await;
    assert_eq!(to_act(&again, &players).map(|u| u.id), Some(actor.id));
    let before = table.last_id();
    table.slash(&other, "draw", &[("game", json!(1))]).await;
    let offer = table
        .wait_message(before, "the draw offer", public("draw-offered"))
        .await;
    let before = table.last_id();
    table.press(&actor, offer.id, &answer(&offer, 'i')).await;
    table
        .wait_message(before, "the drawn ending", |m| {
            is_board(m) && said::says(&m.content, "cause-draw-agreed")
        })
        .await;
    let before = table.last_id();
    table
        .slash(
            &carol,
            "play",
            &[
                ("game", json!("kolowis")),
                ("opponent", json!(alice.id.to_string())),
                ("rated", json!(false)),
            ],
        )
        .await;
    table
        .wait_message(before, "a casual challenge", public("challenge-casual"))
        .await;
    // A moderator (Manage Server) opens a season of three with `/season`'s options; the three
    // join with its button, and the last join begins it: the post tells one game a pair.
    let moderator = table.fake.user("Mo");
    table.fake.join(
        &table.platform.guild,
        &moderator,
        tabula_tests::discord::DEFAULT_MEMBER_PERMISSIONS | (1 << 5),
    );
    let before = table.last_id();
    table
        .slash(
            &moderator,
            "season",
            &[
                ("game", json!("koan")),
                ("size", json!(3)),
                ("days", json!(10)),
            ],
        )
        .await;
    let season = table
        .wait_message(before, "the season's post", public("season-open"))
        .await;
    let join = answer(&season, 'J');
    for who in [&players[0], &players[1], &carol] {
        table.press(who, season.id, &join).await;
    }
    let begun = <tabula_tests::discord_table::Discord as tabula_tests::table::Platform>::wait_for(
        &table.fake,
        tabula_tests::table::ANSWER,
        |fake| {
            fake.message(season.id)
                .filter(|m| said::says(&m.content, "season-begun"))
        },
    )
    .await
    .unwrap_or_else(|| panic!("the season begins: {:?}", table.fake.message(season.id)));
    // Discord's markdown would make `#` at a line's start a heading: the bot escapes it.
    let games = begun
        .content
        .lines()
        .filter(|line| line.trim_start_matches('\\').starts_with('#'))
        .count();
    assert_eq!(games, 3, "one game for every pair: {}", begun.content);
    table.stop().await;
    table.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn out_of_turn_and_autocomplete_over_the_gateway() {
    out_of_turn_and_autocomplete("dc-turn-gw", Mode::Gateway).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn out_of_turn_and_autocomplete_over_http() {
    out_of_turn_and_autocomplete("dc-turn-http", Mode::Http).await;
}

/// 32 games at once: every interaction acknowledged in time by the right kind of response,
/// every deferral completed, no request over a limit.
async fn thirty_two_games(name: &str, mode: Mode) {
    let mut table = Table::new(name, mode).await;
    table.start().await;
    let table = Arc::new(table);
    many_games(&table, 32, 3, 100).await;
    let mut table = Arc::try_unwrap(table).expect("the games are over");
    table.stop().await;
    table.assert_clean();
    let interactions = table.fake.interactions();
    let commands = interactions.iter().filter(|i| i.kind == 2).count();
    let presses = interactions.iter().filter(|i| i.kind == 3).count();
    assert!(
        commands >= 32 && presses >= 64,
        "{commands} commands, {presses} presses"
    );
    for i in &interactions {
        let (kind, _, ephemeral, _) = i.initial.expect("acknowledged");
        match i.kind {
            // A command: a message now, or deferred.
            2 => assert!(matches!(kind, 4 | 5), "a command answered by {kind}: {i:?}"),
            // A press: an update of its message (now or deferred), or a message only the
            // presser sees.
            3 => assert!(
                matches!(kind, 6 | 7) || (kind == 4 && ephemeral),
                "a press answered by {kind}: {i:?}"
            ),
            4 => assert_eq!(kind, 8, "autocomplete answered by {kind}"),
            _ => {}
        }
    }
    let limited = table.fake.rate_limited();
    assert!(limited.is_empty(), "requests over a limit: {limited:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thirty_two_games_at_once_over_http() {
    thirty_two_games("dc-32-http", Mode::Http).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thirty_two_games_at_once_over_the_gateway() {
    thirty_two_games("dc-32-gw", Mode::Gateway).await;
}

/// The option names of a registered command.
fn option_names(command: &Value) -> Vec<String> {
    command["options"]
        .as_array()
        .map(|options| {
            options
                .iter()
                .filter_map(|o| o["name"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_are_registered_once_with_typed_options() {
    let mut table = Table::new("dc-commands", Mode::Gateway).await;
    table.start().await;
    table.stop().await;
    table.start().await;
    table.stop().await;
    assert_eq!(
        table.fake.command_overwrites(),
        1,
        "the commands are overwritten once, and not again when unchanged"
    );
    let commands = table.fake.commands(None);
    let by_name = |name: &str| {
        commands
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("/{name} is registered: {commands:#?}"))
            .clone()
    };
    let play = by_name("play");
    // Names stay; descriptions and the games' names are translated for Russian and Bulgarian.
    assert_eq!(
        play["description_localizations"]["ru"],
        "Вызвать на партию (кого-то или всех в чате)"
    );
    assert_eq!(
        play["description_localizations"]["bg"],
        "Покани някого (или всички тук) на партия"
    );
    assert_eq!(play["options"][0]["choices"][0]["value"], "konane");
    assert_eq!(
        play["options"][0]["choices"][0]["name_localizations"]["ru"],
        "Конане"
    );
    let names = option_names(&play);
    for option in [
        "game",
        "opponent",
        "opponent2",
        "opponent3",
        "computer",
        "options",
        "stake",
        "time",
    ] {
        assert!(names.iter().any(|n| n == option), "/play has {option}");
    }
    let option = |command: &Value, name: &str| {
        command["options"]
            .as_array()
            .and_then(|options| options.iter().find(|o| o["name"] == name))
            .cloned()
            .unwrap_or(Value::Null)
    };
    let game = option(&play, "game");
    assert_eq!(game["type"], 3, "game is a string");
    assert_eq!(game["required"], true);
    let choices: BTreeSet<&str> = game["choices"]
        .as_array()
        .expect("game has choices")
        .iter()
        .filter_map(|c| c["value"].as_str())
        .collect();
    assert_eq!(
        choices,
        ["coan-ki", "koan", "kolowis", "konane", "pachisi"]
            .into_iter()
            .collect()
    );
    assert_eq!(option(&play, "opponent")["type"], 6, "a user");
    let computer = option(&play, "computer");
    assert_eq!(computer["type"], 4, "an integer");
    assert_eq!(computer["min_value"], 1);
    assert_eq!(computer["max_value"], 4);
    assert_eq!(option(&play, "stake")["type"], 4);
    let mv = by_name("move");
    let typed = option(&mv, "move");
    // `/move` alone lists the moves under the board, so the move is optional.
    assert_eq!(typed["required"], false);
    assert_eq!(typed["autocomplete"], true);
    assert_eq!(option(&mv, "game")["type"], 4);
    for moderators_only in ["grant", "take"] {
        assert!(
            !by_name(moderators_only)["default_member_permissions"].is_null(),
            "/{moderators_only} is for moderators"
        );
    }
    for anyone in ["config", "abort", "play", "move"] {
        assert!(
            by_name(anyone)["default_member_permissions"].is_null(),
            "/{anyone} is visible to everyone"
        );
    }
    // A development server gets them at once, in the server.
    let guild = table.platform.guild.id;
    table.set("DISCORD_GUILD_ID", guild.to_string());
    table.start().await;
    table.stop().await;
    assert_eq!(table.fake.commands(Some(guild)).len(), commands.len());
    table.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discord_settings_that_are_half_set_or_wrong_stop_it_at_once() {
    let dir = scratch_dir("dc-settings");
    let cases: [(&[(&str, &str)], &str); 4] = [
        (&[("DISCORD_BOT_TOKEN", "x.y.z")], "DISCORD_APPLICATION_ID"),
        (
            &[("DISCORD_APPLICATION_ID", "1234567890")],
            "DISCORD_BOT_TOKEN",
        ),
        (
            &[
                ("DISCORD_BOT_TOKEN", "x.y.z"),
                ("DISCORD_APPLICATION_ID", "1234567890"),
                ("DISCORD_PUBLIC_KEY", "not-a-key"),
            ],
            "DISCORD_PUBLIC_KEY",
        ),
        (
            &[
                ("DISCORD_BOT_TOKEN", "x.y.z"),
                ("DISCORD_APPLICATION_ID", "an-id"),
            ],
            "DISCORD_APPLICATION_ID",
        ),
    ];
    for (settings, named) in cases {
        let env: Vec<(&str, String)> = settings
            .iter()
            .map(|(k, v)| (*k, (*v).to_string()))
            .collect();
        let mut bot = BotProcess::start(&dir, &["run"], &env);
        let status = bot.wait(Duration::from_secs(20)).await;
        assert_eq!(status.code(), Some(2), "{settings:?}: {}", bot.log());
        assert!(bot.log().contains(named), "{settings:?}: {}", bot.log());
        assert!(!bot.log().contains("x.y.z"), "the token is not shown");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_channel_gone_or_closed_to_the_bot_is_tried_once() {
    let mut table = Table::new("dc-gone", Mode::Gateway).await;
    table.set("TABULA_CHALLENGE_SECONDS", "2");
    table.set("TABULA_SCHEDULER_SECONDS", "1");
    table.start().await;
    let alice = table.person("Alice");
    let bob = table.person("Bob");
    let gone = table.fake.text_channel(&table.platform.guild, "gone");
    let closed = table.fake.text_channel(&table.platform.guild, "closed");
    let open = table.platform.channel.clone();
    for channel in [&gone, &closed, &open] {
        let before = table.last_id_in(channel);
        table
            .slash_in(
                channel,
                &alice,
                "play",
                &[
                    ("game", json!("koan")),
                    ("opponent", json!(bob.id.to_string())),
                ],
            )
            .await;
        table
            .wait_new_in(channel, before, "challenge", |m| !buttons(m).is_empty())
            .await;
    }
    table.fake.delete_channel(&gone);
    table.fake.remove_access(&closed);
    // The expiry reaches the open channel; the other two are tried once each, then left.
    let last = table.last_id_in(&open);
    let expired = table
        .wait_new_in(&open, last, "expiry", |m| buttons(m).is_empty())
        .await;
    assert!(
        said::says(&expired.content, "challenge-expired"),
        "{}",
        expired.content
    );
    tokio::time::sleep(Duration::from_secs(5)).await;
    let posts_to = |channel: u64| {
        table
            .fake
            .requests()
            .into_iter()
            .filter(|r| r.method == "POST" && r.path == format!("/channels/{channel}/messages"))
            .map(|r| r.status)
            .collect::<Vec<_>>()
    };
    assert_eq!(posts_to(gone.id), vec![404], "the deleted channel");
    assert_eq!(
        posts_to(closed.id),
        vec![403],
        "the channel closed to the bot"
    );
    table.stop().await;
    table.assert_clean();
}

/// Issue 37, item 3: on Discord too, a challenge accepted by a typed `/accept` loses its
/// buttons and says which game began.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_typed_acceptance_changes_the_challenge_too() {
    let mut table = Table::new("dc-typed-accept", Mode::Http).await;
    table.start().await;
    let alice = table.person("Alice");
    let bob = table.person("Bob");
    let offer = offer_in(&table, &table.platform.channel, &alice, &bob, "konane").await;
    // People read a challenge before they accept it; the bot records which message it is
    // right after posting it (its id is known only then).
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    table.slash(&bob, "accept", &[]).await;
    table
        .wait_message(offer.id, "the first board", is_board)
        .await;
    let changed =
        <tabula_tests::discord_table::Discord as tabula_tests::table::Platform>::wait_for(
            &table.fake,
            tabula_tests::table::ANSWER,
            |fake| {
                fake.message(offer.id).filter(|m| {
                    buttons(m).is_empty() && said::says(&m.content, "challenge-started")
                })
            },
        )
        .await;
    assert!(
        changed.is_some(),
        "the challenge says which game began: {:?}",
        table.fake.message(offer.id)
    );
    table.stop().await;
    table.assert_clean();
}

/// Issue 38: private pings on Discord. Alice and Bob ask to be told privately: the one to
/// move first gets a direct message (the channel opened with `POST /users/@me/channels`)
/// saying which game and where, with a link button to the board's message. Carol closed her
/// direct messages and Dave did too: the refused message (403, code 50007) becomes one line
/// in the channel mentioning the one concerned, said once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_pings_are_direct_messages_and_closed_ones_a_hint() {
    let mut table = Table::new("dc-private-pings", Mode::Http).await;
    table.start().await;
    let channel = table.platform.channel.clone();
    let guild = table.platform.guild.id;
    let people: Vec<_> = ["Alice", "Bob", "Carol", "Dave"]
        .into_iter()
        .map(|name| table.person(name))
        .collect();
    let (alice, bob, carol, dave) = (&people[0], &people[1], &people[2], &people[3]);
    for person in [carol, dave] {
        table.fake.close_dms(person);
    }
    // The challengers ask to be told privately; the others keep the mentions.
    for person in [alice, carol] {
        let before = table.last_id();
        table
            .slash(person, "notify", &[("setting", json!("private"))])
            .await;
        table
            .wait_message(before, "the notify panel", |m| {
                m.ephemeral_for == Some(person.id) && said::says(&m.content, "notify-saved")
            })
            .await;
    }
    let mut lcg = Lcg(4);
    // Alice is told privately when it is her move: at once, or after Bob's (he is mentioned).
    let mut board = challenge_in(&table, &channel, alice, bob, "konane").await;
    if board.notified.contains(&bob.id) {
        let pair = [alice.clone(), bob.clone()];
        board = one_move(&table, &channel, &pair, &board, &mut lcg, false).await;
    }
    let pings = <tabula_tests::discord_table::Discord as tabula_tests::table::Platform>::wait_for(
        &table.fake,
        tabula_tests::table::ANSWER,
        |fake| {
            let got = fake.dm_messages(alice);
            (!got.is_empty()).then_some(got)
        },
    )
    .await
    .expect("a direct message");
    assert!(
        table.fake.dm_messages(bob).is_empty(),
        "Bob keeps the mentions"
    );
    assert_eq!(pings.len(), 1, "{pings:?}");
    assert!(
        said::says(&pings[0].content, "ping-your-move"),
        "{}",
        pings[0].content
    );
    let links = link_urls(&pings[0]);
    assert_eq!(
        links,
        [format!(
            "https://discord.com/channels/{guild}/{}/{}",
            channel.id, board.id
        )],
        "a link to the board"
    );
    assert!(
        !board.notified.contains(&alice.id),
        "the board does not mention Alice: {:?}",
        board.notified
    );

    // Carol and Dave closed their direct messages: one hint in the channel.
    // Their game in a channel of its own.
    let other = table.fake.text_channel(&table.platform.guild, "second");
    let mut second = challenge_in(&table, &other, carol, dave, "konane").await;
    if second.notified.contains(&dave.id) {
        let pair = [carol.clone(), dave.clone()];
        second = one_move(&table, &other, &pair, &second, &mut lcg, false).await;
    }
    let hint = table
        .wait_message_in(&other, second.id, "the hint", |m| {
            m.ephemeral_for.is_none() && said::says(&m.content, "ping-unreachable")
        })
        .await;
    assert_eq!(hint.notified, [carol.id], "Carol is mentioned");
    assert!(
        table
            .fake
            .refused()
            .iter()
            .any(|r| r.method == "POST" && r.path.starts_with("/channels/")),
        "Discord refused the direct message"
    );
    tokio::time::sleep(Duration::from_secs(2)).await;
    let hints = table
        .fake
        .messages(&other)
        .into_iter()
        .filter(|m| said::says(&m.content, "ping-unreachable"))
        .count();
    assert_eq!(hints, 1, "said once");
    table.stop().await;
    table.assert_clean();
}

/// A thread per game (issue 38), end to end on Discord: with `/config threads=on`, a challenge
/// accepted in the channel opens a public thread named after the game, where its boards and
/// moves go; the channel gets one line with a link to the thread at the start and one with the
/// result when it ends, and the thread is archived. Where the bot may not create threads, the
/// channel is told which permission is missing and the game is played there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_game_is_played_in_its_own_thread() {
    use tabula_tests::discord::{
        CREATE_PUBLIC_THREADS, DEFAULT_BOT_PERMISSIONS, DEFAULT_MEMBER_PERMISSIONS, MANAGE_GUILD,
    };
    let mut table = Table::new("dc-threads", Mode::Http).await;
    table.set("TABULA_SCHEDULER_SECONDS", "1");
    table.start().await;
    let channel = table.platform.channel.clone();
    let guild = table.platform.guild.clone();
    let olga = table.fake.user("Olga");
    table
        .fake
        .join(&guild, &olga, DEFAULT_MEMBER_PERMISSIONS | MANAGE_GUILD);
    let (alice, bob) = (table.person("Alice"), table.person("Bob"));
    let before = table.last_id();
    table
        .slash(&olga, "config", &[("settings", json!("threads=on"))])
        .await;
    table
        .wait_message(before, "the settings", |m| {
            said::says(&m.content, "settings-heading")
        })
        .await;

    let offer = offer_in(&table, &table.platform.channel, &alice, &bob, "koan").await;
    let accept = buttons(&offer)
        .into_iter()
        .find(|(_, d)| d.starts_with('a'))
        .map(|(_, d)| d)
        .expect("Accept");
    table.press(&bob, offer.id, &accept).await;
    let thread = <tabula_tests::discord_table::Discord as tabula_tests::table::Platform>::wait_for(
        &table.fake,
        tabula_tests::table::ANSWER,
        |fake| fake.threads(&channel).into_iter().next(),
    )
    .await
    .expect("a thread for the game");
    assert_eq!(thread.kind, 11, "a public thread");
    assert!(
        thread.name.contains("Alice") && thread.name.contains("Bob") && thread.name.contains('#'),
        "{}",
        thread.name
    );
    let board = table
        .wait_message_in(&thread.channel, 0, "the board in the thread", is_board)
        .await;
    let line = table
        .wait_message(offer.id, "the channel's line", |m| {
            said::says(&m.content, "thread-started")
        })
        .await;
    let links: Vec<String> = link_urls(&line);
    assert_eq!(
        links,
        [format!(
            "https://discord.com/channels/{}/{}",
            guild.id, thread.channel.id
        )]
    );
    let post = table.fake.message(offer.id).expect("the offer");
    assert!(
        buttons(&post).is_empty() && said::says(&post.content, "thread-coming"),
        "the challenge says where the game went: {}",
        post.content
    );

    // A move in the thread, then `/resign` typed there acts on its game without a number.
    let pair = [alice.clone(), bob.clone()];
    let mut lcg = Lcg(22);
    one_move(&table, &thread.channel, &pair, &board, &mut lcg, false).await;
    let before = table.last_id_in(&thread.channel);
    table.slash_in(&thread.channel, &alice, "resign", &[]).await;
    let question = table
        .wait_message_in(&thread.channel, before, "the question", |m| {
            m.ephemeral_for.is_none() && said::says(&m.content, "resign-question")
        })
        .await;
    let confirm = buttons(&question)
        .into_iter()
        .next()
        .map(|(_, d)| d)
        .expect("Resign");
    table
        .press_in(&thread.channel, &alice, question.id, &confirm)
        .await;
    let ended = table
        .wait_message(line.id, "the channel's closing line", |m| {
            said::says(&m.content, "result-because")
        })
        .await;
    assert!(
        link_urls(&ended).iter().any(|url| url.starts_with(&format!(
            "https://discord.com/channels/{}/{}/",
            guild.id, thread.channel.id
        ))),
        "a link to the last board: {:?}",
        ended.components
    );
    let archived =
        <tabula_tests::discord_table::Discord as tabula_tests::table::Platform>::wait_for(
            &table.fake,
            Duration::from_secs(15),
            |fake| fake.thread(&thread.channel).filter(|t| t.archived),
        )
        .await;
    assert!(archived.is_some(), "the thread is archived");

    // Without the permission to create threads: the permission named, the game in the channel.
    let strict = table.fake.text_channel(&guild, "strict");
    table
        .fake
        .set_bot_channel_permissions(&strict, DEFAULT_BOT_PERMISSIONS & !CREATE_PUBLIC_THREADS);
    let offer = offer_in(&table, &strict, &alice, &bob, "konane").await;
    let accept = buttons(&offer)
        .into_iter()
        .find(|(_, d)| d.starts_with('a'))
        .map(|(_, d)| d)
        .expect("Accept");
    table.press_in(&strict, &bob, offer.id, &accept).await;
    table
        .wait_message_in(&strict, offer.id, "the missing permission", |m| {
            said::says(&m.content, "thread-refused-create-threads")
        })
        .await;
    table
        .wait_message_in(&strict, offer.id, "the board in the channel", is_board)
        .await;
    assert!(table.fake.threads(&strict).is_empty());
    table.stop().await;
    table.assert_clean();
}
