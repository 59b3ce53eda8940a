//! A web page for every game (issue 41), end to end: the real `tabula run` in long-polling
//! mode with `TABULA_PUBLIC_URL`, against the Telegram fake. The board carries the page's link;
//! the page shows the players (a chosen name escaped), the board as SVG, the moves, with a
//! strict Content-Security-Policy; its live stream starts with the game as it is and tells a
//! move made through the platform; the slider's positions are served; a token that does not
//! exist is a plain 404; and `/config pages=off` takes the link off the next board and the page
//! away.

use std::time::Duration;

use tabula_tests::bot_process::free_port;
use tabula_tests::table;
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
        html.contains("<svg") && !html.contains("<image"),
        "the board as SVG"
    );
    assert!(html.contains("id=\"moves\"") && html.contains("type=\"range\""));
    assert!(!html.contains("<script>"), "no inline script");
    for asset in ["static/page.js", "static/page.css"] {
        let answer = client
            .get(format!("{public}/g/{asset}"))
            .send()
            .await
            .expect("the asset answers");
        assert_eq!(answer.status().as_u16(), 200, "{asset}");
    }

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
    let mut lcg = Lcg(41);
    let after = table::one_move(&table, &group, &players, &board, &mut lcg, false).await;
    let moved = next_state(&mut stream, &mut buffer).await;
    assert_eq!(moved["seq"], 1, "{moved}");
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
    let next = table::one_move(&table, &group, &players, &after, &mut lcg, false).await;
    assert!(link_urls(&next).is_empty(), "no link once pages are off");
    table.stop().await;
    table.assert_clean();
}
