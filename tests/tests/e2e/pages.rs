//! A web page for every game (issue 41), end to end: the real `tabula run` in long-polling
//! mode with `TABULA_PUBLIC_URL`, against the Telegram fake. The board carries the page's link;
//! the page shows the players (a chosen name escaped), the board as SVG, the moves, with a
//! strict Content-Security-Policy; its live stream starts with the game as it is and tells a
//! move made through the platform; the slider's positions are served; a token that does not
//! exist is a plain 404; and `/config pages=off` takes the link off the live board (an edit)
//! and the next board, and the page away.

use std::time::Duration;

use serde_json::json;

use tabula_tests::bot_process::free_port;
use tabula_tests::table;
use tabula_tests::telegram::FakeMessage;
use tabula_tests::telegram_table::{ANSWER, Lcg, Table, link_urls, username};

/// Reads server-sent events from `response` until one named `state`: its data, as JSON.
async fn next_state(response: &mut reqwest::Response, buffer: &mut String) -> serde_json::Value {
    loop {
        if let Some(end) = buffer.find("\n\n") {
            let block: String = buffer.drain(..end + 2).collect();
            let mut name = "";
            let mut data = String::new();
            for line in block.lines() {
                if let Some(value) = line.strip_prefix("event:") {
                    name = value.trim();
                } else if let Some(value) = line.strip_prefix("data:") {
                    data.push_str(value.strip_prefix(' ').unwrap_or(value));
                }
            }
            if name == "state" {
                return serde_json::from_str(&data).expect("the state is JSON");
            }
            continue;
        }
        let chunk = tokio::time::timeout(Duration::from_secs(10), response.chunk())
            .await
            .expect("an event within 10 s")
            .expect("the stream reads")
            .expect("the stream goes on");
        buffer.push_str(&String::from_utf8_lossy(&chunk));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_games_page_is_linked_shown_live_and_turned_off() {
    let mut table = Table::new("pages").await;
    let port = free_port();
    let public = format!("http://127.0.0.1:{port}");
    table.set("TABULA_LISTEN", format!("127.0.0.1:{port}"));
    table.set("TABULA_PUBLIC_URL", format!("{public}/"));
    table.start().await;
    let fake = table.fake.clone();
    let group = fake.group("Page club");
    let alice = table.person("Alice");
    // A name a person chose, which must stay text.
    let eve = fake.user("<i>Eve</i> & co").username(&username("Eve"));
    fake.add_member(&group, &alice);
    fake.add_member(&group, &eve);
    fake.add_admin(&group, &alice);
    fake.user_writes(&group, &alice, "/play konane size=6 @eve_tg");
    let players = vec![
        (alice.clone(), username("Alice")),
        (eve.clone(), username("Eve")),
    ];
    let board = table::accept_challenge(&table, &group, &players[1], 0).await;
    let links = link_urls(&board);
    assert_eq!(links.len(), 1, "the board links to its page: {links:?}");
    let page_url = links[0].clone();
    let token = page_url
        .strip_prefix(&format!("{public}/g/"))
        .expect("the public address, then /g/<token>")
        .to_string();
    assert_eq!(token.len(), 32);

    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .expect("a client");
    let page = client
        .get(&page_url)
        .send()
        .await
        .expect("the page answers");
    assert_eq!(page.status().as_u16(), 200);
    let csp = page
        .headers()
        .get("content-security-policy")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    assert!(
        csp.contains("script-src 'self'") && !csp.contains('*') && !csp.contains("unsafe"),
        "{csp}"
    );
    let html = page.text().await.expect("the page's text");
    assert!(html.len() < 100_000, "{} bytes", html.len());
    assert!(
        html.contains("&lt;i&gt;Eve&lt;/i&gt; &amp; co"),
        "the name escaped"
    );
    assert!(!html.contains("<i>Eve"), "a chosen name is never markup");
    assert!(
        !html.contains("@Alice") && !html.contains("@&lt;i") && !html.contains("@eve_tg"),
        "a page notifies nobody: names, not mentions"
    );
    assert!(
        html.contains("<svg") && !html.contains("<image"),
        "the board as SVG"
    );
    assert!(html.contains("id=\"moves\"") && html.contains("type=\"range\""));
    assert!(!html.contains("<script>"), "no inline script");
    // What loads before the board (the page without it, its script and its style) is under
    // 100 KB; the board's SVG is a few tens of KB.
    let svg = html
        .find("<svg")
        .and_then(|start| html[start..].find("</svg>").map(|end| end + "</svg>".len()))
        .expect("one SVG");
    let mut before_board = html.len() - svg;
    for asset in ["static/page.js", "static/page.css"] {
        let answer = client
            .get(format!("{public}/g/{asset}"))
            .send()
            .await
            .expect("the asset answers");
        assert_eq!(answer.status().as_u16(), 200, "{asset}");
        before_board += answer.bytes().await.expect("the asset").len();
    }
    assert!(
        before_board < 100_000,
        "{before_board} bytes before the board"
    );
    assert!(svg < 60_000, "the board's SVG is {svg} bytes");
    eprintln!("the page: {before_board} bytes before the board, {svg} bytes of board");

    // Live: the stream starts with the game as it is, and tells a move made in the chat.
    let mut stream = client
        .get(format!("{page_url}/events"))
        .timeout(Duration::from_secs(120))
        .send()
        .await
        .expect("the stream answers");
    assert_eq!(stream.status().as_u16(), 200);
    let mut buffer = String::new();
    let first = next_state(&mut stream, &mut buffer).await;
    assert_eq!(first["seq"], 0, "{first}");
    // A second page of the same game, open at once.
    let mut other = client
        .get(format!("{page_url}/events"))
        .timeout(Duration::from_secs(120))
        .send()
        .await
        .expect("the second stream answers");
    let mut other_buffer = String::new();
    assert_eq!(next_state(&mut other, &mut other_buffer).await, first);
    let mut lcg = Lcg(41);
    let after = table::one_move(&table, &group, &players, &board, &mut lcg, false).await;
    let moved = next_state(&mut stream, &mut buffer).await;
    assert_eq!(moved["seq"], 1, "{moved}");
    assert_eq!(
        next_state(&mut other, &mut other_buffer).await,
        moved,
        "both pages follow the game"
    );
    drop(other);
    assert_eq!(moved["moves"].as_array().map(Vec::len), Some(1));
    assert!(
        moved["board"]
            .as_str()
            .is_some_and(|svg| svg.starts_with("<svg"))
    );
    assert_eq!(link_urls(&after), links, "the same page from every board");
    // The slider's positions: before and after the move; past the end there is none.
    for (n, status) in [(0, 200), (1, 200), (2, 404)] {
        let answer = client
            .get(format!("{page_url}/at/{n}"))
            .send()
            .await
            .expect("a position answers");
        assert_eq!(answer.status().as_u16(), status, "position {n}");
    }
    // A token that does not exist, or is not one: the same plain 404.
    for wrong in ["0".repeat(32), "nope".to_string(), token.to_uppercase()] {
        let answer = client
            .get(format!("{public}/g/{wrong}"))
            .send()
            .await
            .expect("an answer");
        assert_eq!(answer.status().as_u16(), 404, "{wrong}");
    }

    // Pages off: the page is gone, and the next board has no link.
    fake.user_writes(&group, &alice, "/config pages=off");
    let deadline = std::time::Instant::now() + ANSWER;
    loop {
        let status = client
            .get(&page_url)
            .send()
            .await
            .expect("an answer")
            .status()
            .as_u16();
        if status == 404 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the page stays after pages=off"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // The live board is edited: its link goes, its moves stay.
    let moves_on = |message: &FakeMessage| {
        message
            .buttons()
            .iter()
            .flatten()
            .filter(|b| b.callback_data.is_some())
            .count()
    };
    let moves = moves_on(&after);
    assert!(moves > 0, "the board has moves");
    let deadline = std::time::Instant::now() + ANSWER;
    let edited = loop {
        let now = fake.message(&group, after.message_id).expect("the board");
        if link_urls(&now).is_empty() {
            break now;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the live board keeps its link after pages=off"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(moves_on(&edited), moves, "the moves stay on the board");
    let next = table::one_move(&table, &group, &players, &edited, &mut lcg, false).await;
    assert!(link_urls(&next).is_empty(), "no link once pages are off");
    table.stop().await;
    table.assert_clean();
}

/// The width and height of a PNG, from its header.
fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    if png.get(..8)? != b"\x89PNG\r\n\x1a\n" {
        return None;
    }
    let number = |at: usize| Some(u32::from_be_bytes(png.get(at..at + 4)?.try_into().ok()?));
    Some((number(16)?, number(20)?))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium: install Debian's chromium and pass --include-ignored (.ci/run does)"]
async fn the_page_in_a_real_browser_follows_the_game_and_steps_through_it() {
    use tabula_tests::browser::Browser;
    let mut table = Table::new("pages-browser").await;
    let port = free_port();
    let public = format!("http://127.0.0.1:{port}");
    table.set("TABULA_LISTEN", format!("127.0.0.1:{port}"));
    table.set("TABULA_PUBLIC_URL", public.clone());
    table.start().await;
    let fake = table.fake.clone();
    let group = fake.group("Клуб");
    let alice = table.person("Alice");
    let bob = table.person("Bob");
    fake.add_member(&group, &alice);
    fake.add_member(&group, &bob);
    fake.add_admin(&group, &alice);
    fake.user_writes(&group, &alice, "/play konane size=6 @bob_tg");
    let players = vec![
        (alice.clone(), username("Alice")),
        (bob.clone(), username("Bob")),
    ];
    let board = table::accept_challenge(&table, &group, &players[1], 0).await;
    let page_url = link_urls(&board)
        .pop()
        .expect("the board links to its page");
    // The group speaks Russian from now on: so does the page, whatever the browser's.
    let before = fake.bot_messages(&group).len();
    fake.user_writes(&group, &alice, "/config language=ru");
    fake.wait_for_bot_messages(&group, before + 1, ANSWER)
        .await
        .expect("the setting is answered");

    // A phone-sized window.
    let mut browser = Browser::start(390, 844, "en-US").await;
    browser.open(&page_url).await;
    assert_eq!(browser.eval("document.documentElement.lang").await, "ru");
    assert_eq!(
        browser
            .eval("document.querySelectorAll('#players li').length")
            .await,
        2
    );
    assert_eq!(
        browser
            .eval("!!document.querySelector('#board svg g.board') && !!document.querySelector('#board svg g.pieces')")
            .await,
        true,
        "the board is inline SVG"
    );
    assert_eq!(
        browser
            .eval("document.querySelectorAll('#moves li').length")
            .await,
        0
    );
    let shot = browser.screenshot().await;
    assert_eq!(
        png_size(&shot),
        Some((390, 844)),
        "a screenshot of the page"
    );
    let saved = tabula_tests::bot_process::scratch_dir("page-screenshot").join("page.png");
    std::fs::write(&saved, &shot).expect("the screenshot saved");
    eprintln!("the page's screenshot: {}", saved.display());

    // A move in the chat appears on the open page, without a reload.
    browser.eval("window.stillTheSamePage = true").await;
    browser
        .wait_for(
            "document.getElementById('live').textContent.length > 0",
            Duration::from_secs(10),
        )
        .await;
    // A move pressed on the board (the chat speaks Russian now: no English is read).
    let actor = tabula_tests::telegram_table::to_act(&board, &players)
        .expect("someone to move")
        .clone();
    let data = tabula_tests::telegram_table::callbacks(&board)
        .into_iter()
        .map(|(_, data)| data)
        .find(|data| data.starts_with('m'))
        .expect("a move button");
    fake.press(&group, &actor, board.message_id, &data)
        .expect("the move is pressed");
    browser
        .wait_for(
            "document.querySelectorAll('#moves li').length === 1",
            Duration::from_secs(5),
        )
        .await;
    assert_eq!(browser.eval("window.stillTheSamePage === true").await, true);
    assert_eq!(
        browser.eval("document.getElementById('step').max").await,
        "1"
    );
    let latest = browser
        .eval("document.getElementById('board').innerHTML")
        .await;

    // The slider steps back and forward, by the arrow keys.
    browser.key("ArrowLeft", 37).await;
    browser
        .wait_for(
            "document.getElementById('step').value === '0'",
            Duration::from_secs(5),
        )
        .await;
    browser
        .wait_for(
            &format!(
                "document.getElementById('board').innerHTML !== {}",
                serde_json::Value::from(latest.as_str().unwrap_or_default())
            ),
            Duration::from_secs(5),
        )
        .await;
    browser.key("ArrowRight", 39).await;
    browser
        .wait_for(
            "document.getElementById('step').value === '1'",
            Duration::from_secs(5),
        )
        .await;
    assert_eq!(
        browser
            .eval("document.querySelector('#moves li[aria-current=step]').dataset.seq")
            .await,
        "1"
    );

    // What a screen reader is given (the browser's accessibility tree): the board as an image
    // with a name, described by the position in words; the slider, named; the status, read
    // out when it changes; the moves as a list.
    browser.call("Accessibility.enable", json!({})).await;
    let tree = browser.call("Accessibility.getFullAXTree", json!({})).await;
    let nodes = tree["nodes"].as_array().cloned().unwrap_or_default();
    let named = |role: &str| {
        nodes
            .iter()
            .filter(|n| n["role"]["value"] == role && n["ignored"] != true)
            .filter_map(|n| n["name"]["value"].as_str().map(str::to_owned))
            .filter(|name| !name.trim().is_empty())
            .count()
    };
    assert!(named("image") >= 1, "the board is an image with a name");
    assert!(named("slider") == 1, "the slider has a name");
    assert!(
        nodes.iter().any(|n| n["role"]["value"] == "status"),
        "the status is read out"
    );
    // The description is the position in words, in the page's language (Russian here): each
    // side's pieces by cell.
    let figure = nodes
        .iter()
        .find(|n| n["role"]["value"] == "figure")
        .expect("the board's figure");
    assert!(
        figure["name"]["value"]
            .as_str()
            .is_some_and(|name| !name.is_empty()),
        "the board is named: {figure}"
    );
    let description = figure["description"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        description.contains("Белые: ") && description.contains("Чёрные: "),
        "the board is described in words, in Russian: {description:?}"
    );
    assert!(
        !description.contains("White") && !description.contains("turn="),
        "words, not notation keys: {description:?}"
    );

    // The bot dies in the night and comes back: the open page reconnects by itself and shows
    // the next move.
    table.bot.take().expect("the bot runs").kill9().await;
    browser
        .wait_for(
            "document.getElementById('live').classList.contains('offline')",
            Duration::from_secs(10),
        )
        .await;
    table.start().await;
    let newest = table
        .newest(&group, tabula_tests::telegram_table::has_moves)
        .expect("the newest board");
    // The board speaks Russian: the player to act is the one it mentions (the others are
    // named without notifying).
    let said = newest.content.caption.clone().unwrap_or_default();
    let actor = players
        .iter()
        .find(|(_, name)| said.contains(&format!("@{name}")))
        .map(|(user, _)| user.clone())
        .expect("someone to move");
    let data = tabula_tests::telegram_table::callbacks(&newest)
        .into_iter()
        .map(|(_, data)| data)
        .find(|data| data.starts_with('m'))
        .expect("a move button");
    fake.press(&group, &actor, newest.message_id, &data)
        .expect("the move is pressed");
    browser
        .wait_for(
            "document.querySelectorAll('#moves li').length === 2 \
             && !document.getElementById('live').classList.contains('offline')",
            Duration::from_secs(20),
        )
        .await;
    assert_eq!(browser.eval("window.stillTheSamePage === true").await, true);

    // Alice resigns (a question, then its confirmation): the game ends with no new move, and
    // the open page says so, with the record and the replay, still without a reload.
    assert_eq!(
        browser
            .eval("document.getElementById('files').hidden")
            .await,
        true
    );
    let before = fake.bot_messages(&group).len();
    fake.user_writes(&group, &alice, "/resign");
    fake.wait_for_bot_messages(&group, before + 1, ANSWER)
        .await
        .expect("the question");
    let question = fake
        .bot_messages(&group)
        .into_iter()
        .skip(before)
        .find(|m| !tabula_tests::telegram_table::callbacks(m).is_empty())
        .expect("the question, with its buttons");
    let confirm = question.buttons()[0][0]
        .callback_data
        .clone()
        .expect("a callback button");
    fake.press(&group, &alice, question.message_id, &confirm)
        .expect("the resignation is confirmed");
    browser
        .wait_for(
            "!document.getElementById('files').hidden \
             && document.getElementById('live').textContent === ''",
            Duration::from_secs(10),
        )
        .await;
    assert_eq!(
        browser
            .eval("document.querySelectorAll('#moves li').length")
            .await,
        2,
        "no move was added"
    );
    assert_eq!(browser.eval("window.stillTheSamePage === true").await, true);
    drop(browser);
    table.stop().await;
    table.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discord_boards_carry_a_link_button_to_the_games_page() {
    use tabula_tests::discord_table::{self, Mode};
    let mut table = discord_table::Table::new("pages-discord", Mode::Http).await;
    let endpoint = table.endpoint().expect("the interactions endpoint");
    let listen = endpoint
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap_or_default()
        .to_string();
    let public = format!("http://{listen}");
    table.set("TABULA_PUBLIC_URL", public.clone());
    table.start().await;
    let (_, board) = discord_table::challenge(&table, "konane").await;
    let links = discord_table::link_urls(&board);
    let page = links
        .iter()
        .find(|url| url.starts_with(&format!("{public}/g/")))
        .unwrap_or_else(|| panic!("a link button to the game's page: {links:?}"));
    let answer = reqwest::get(page.as_str()).await.expect("the page answers");
    assert_eq!(answer.status().as_u16(), 200);
    let html = answer.text().await.expect("the page");
    assert!(html.contains("<svg"));

    // A moderator turns pages off: the live board is edited, its link gone, its moves kept.
    let moves = |message: &tabula_tests::discord::DcMessage| {
        message
            .components
            .iter()
            .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
            .filter(|b| b["style"] != 5)
            .count()
    };
    assert!(moves(&board) > 0);
    let olga = table.fake.user("Olga");
    table.fake.join(
        &table.platform.guild,
        &olga,
        tabula_tests::discord::DEFAULT_MEMBER_PERMISSIONS | tabula_tests::discord::MANAGE_GUILD,
    );
    table
        .slash(
            &olga,
            "config",
            &[("settings", serde_json::json!("pages=off"))],
        )
        .await;
    let edited = <discord_table::Discord as tabula_tests::table::Platform>::wait_for(
        &table.fake,
        tabula_tests::table::ANSWER,
        |fake| {
            fake.message(board.id)
                .filter(|now| discord_table::link_urls(now).is_empty())
        },
    )
    .await
    .expect("the live board loses its link");
    assert_eq!(moves(&edited), moves(&board), "the moves stay");

    // A moderator deletes the board, then turns pages on again: the edit finds no message,
    // and is given up without taking the channel for gone.
    table.fake.delete_message(board.id);
    table
        .slash(
            &olga,
            "config",
            &[("settings", serde_json::json!("pages=on"))],
        )
        .await;
    let db = table.dir.join("tabula.db");
    let deadline = std::time::Instant::now() + tabula_tests::table::ANSWER;
    loop {
        let mut conn = sqlx::ConnectOptions::connect(
            &sqlx::sqlite::SqliteConnectOptions::new()
                .filename(&db)
                .read_only(true),
        )
        .await
        .expect("the bot's database opens");
        let (waiting, inactive): (i64, i64) = sqlx::query_as(
            "SELECT (SELECT COUNT(*) FROM outbox WHERE payload LIKE '{\"relink\"%' \
             AND sent_at IS NULL AND dropped_at IS NULL), \
             (SELECT COUNT(*) FROM chats WHERE inactive_at IS NOT NULL)",
        )
        .fetch_one(&mut conn)
        .await
        .expect("the outbox and chats read");
        assert_eq!(inactive, 0, "no chat is taken for gone");
        if waiting == 0 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the edit is never done"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    table.stop().await;
    table.assert_clean();
}

/// Telegram refuses a button to an address like `http://localhost:8080`: the boards are posted
/// all the same, without the link (said once in the log), with their moves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn boards_go_without_the_link_when_telegram_refuses_its_address() {
    let mut table = Table::new("pages-refused").await;
    table.set("TABULA_PUBLIC_URL", "http://localhost:8080");
    table.start().await;
    let fake = table.fake.clone();
    let group = fake.group("Local club");
    let alice = table.person("Alice");
    let bob = table.person("Bob");
    fake.add_member(&group, &alice);
    fake.add_member(&group, &bob);
    fake.user_writes(&group, &alice, "/play konane size=6 @bob_tg");
    let players = vec![
        (alice.clone(), username("Alice")),
        (bob.clone(), username("Bob")),
    ];
    let board = table::accept_challenge(&table, &group, &players[1], 0).await;
    assert!(link_urls(&board).is_empty(), "no link Telegram refuses");
    assert!(tabula_tests::telegram_table::has_moves(&board));
    let mut lcg = Lcg(7);
    let next = table::one_move(&table, &group, &players, &board, &mut lcg, false).await;
    assert!(link_urls(&next).is_empty());
    assert!(tabula_tests::telegram_table::has_moves(&next));
    assert_eq!(
        table.log().matches("Telegram refuses links").count(),
        1,
        "said once"
    );
    table.stop().await;
    // One board was refused with its link, and sent again without it; none after.
    let refused = fake.violations();
    assert_eq!(refused.len(), 1, "{refused:#?}");
    assert_eq!(refused[0].method, "sendPhoto");
    assert!(fake.unanswered_callbacks().is_empty());
}
