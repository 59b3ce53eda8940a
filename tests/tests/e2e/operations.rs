//! What an operator watches, end to end (issue 40): the real `tabula run` in long-polling mode
//! (no webhook, so before this issue it had no listener) serves `/healthz`, `/readyz` and
//! `/metrics`; readiness follows Telegram both ways when its long polls hang; the metrics
//! count what the bot did in the Prometheus text format; and at the most verbose level, in
//! JSON, every line of its log is one object (time, level, source, and Tabula's own lines a
//! message) and none holds the token.

use std::time::{Duration, Instant};

use tabula_tests::bot_process::free_port;
use tabula_tests::telegram::Failure;
use tabula_tests::telegram_table::{ANSWER, TOKEN, Table};

/// A GET on the bot's listener: status and body. Every answer must come within a few seconds,
/// whatever is down.
async fn get(port: u16, path: &str) -> (u16, String) {
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(5))
        .build()
        .expect("a client");
    let response = client
        .get(format!("http://127.0.0.1:{port}{path}"))
        .send()
        .await
        .unwrap_or_else(|error| panic!("GET {path}: no answer within 5 s: {error}"));
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let body = response.text().await.unwrap_or_default();
    if path == "/metrics" {
        assert!(content_type.starts_with("text/plain"), "{content_type}");
    }
    (status, body)
}

/// Polls `/readyz` until its status is `wanted`; the body then.
async fn ready_becomes(port: u16, wanted: u16, within: Duration) -> serde_json::Value {
    let deadline = Instant::now() + within;
    loop {
        let (status, body) = get(port, "/readyz").await;
        let json: serde_json::Value =
            serde_json::from_str(&body).unwrap_or_else(|e| panic!("/readyz body {body}: {e}"));
        assert_eq!(
            json["ready"],
            serde_json::Value::Bool(status == 200),
            "{body}"
        );
        if status == wanted {
            return json;
        }
        assert!(
            Instant::now() < deadline,
            "/readyz stayed {status} for {within:?}: {body}"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// The value of the sample `name{labels}` in a metrics text (0 when absent).
fn sample(text: &str, name_and_labels: &str) -> f64 {
    text.lines()
        .find_map(|line| {
            line.strip_prefix(name_and_labels)
                .and_then(|rest| rest.strip_prefix(' '))
                .and_then(|value| value.trim().parse::<f64>().ok())
        })
        .unwrap_or(0.0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_readiness_metrics_and_json_logs_in_long_polling_mode() {
    let mut table = Table::new("operations").await;
    let port = free_port();
    table.set("TABULA_LISTEN", format!("127.0.0.1:{port}"));
    table.set("TABULA_LOG", "trace");
    table.set("TABULA_LOG_FORMAT", "json");
    table.start().await;
    let fake = table.fake.clone();

    assert_eq!(get(port, "/healthz").await.0, 200);
    let ready = ready_becomes(port, 200, ANSWER).await;
    assert_eq!(ready["database"], "ok", "{ready}");
    assert_eq!(ready["telegram"], "ok", "{ready}");

    // Something to count: a challenge typed in a group, refused and done requests.
    let group = fake.group("Ops");
    let alice = table.person("Alice");
    let bob = table.person("Bob");
    fake.add_member(&group, &alice);
    fake.add_member(&group, &bob);
    fake.user_writes(&group, &alice, "/help");
    fake.user_writes(&group, &alice, "/play konane @bob_tg");
    fake.user_writes(&group, &bob, "/play nosuchgame");
    fake.wait_for_bot_messages(&group, 3, ANSWER)
        .await
        .expect("the bot answers");
    let (status, metrics) = get(port, "/metrics").await;
    assert_eq!(status, 200);
    for line in metrics.lines().filter(|l| l.starts_with("# TYPE ")) {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert!(words[2].starts_with("tabula_"), "{line}");
        if words[3] == "counter" {
            assert!(words[2].ends_with("_total"), "{line}");
        }
    }
    assert!(
        sample(
            &metrics,
            "tabula_updates_received_total{platform=\"telegram\",kind=\"command\"}"
        ) >= 3.0,
        "{metrics}"
    );
    assert!(
        sample(
            &metrics,
            "tabula_requests_total{command=\"play\",outcome=\"done\"}"
        ) >= 1.0,
        "{metrics}"
    );
    assert!(
        sample(
            &metrics,
            "tabula_requests_total{command=\"play\",outcome=\"refused\"}"
        ) >= 1.0,
        "{metrics}"
    );
    assert!(
        sample(
            &metrics,
            "tabula_reply_duration_seconds_count{platform=\"telegram\",input=\"command\"}"
        ) >= 3.0,
        "{metrics}"
    );
    assert!(
        metrics.contains("tabula_reply_duration_seconds_bucket{platform=\"telegram\",input=\"command\",le=\"+Inf\"}"),
        "a histogram with buckets: {metrics}"
    );
    assert_eq!(
        sample(&metrics, "tabula_games_in_progress{game=\"konane\"}"),
        0.0
    );
    assert!(
        metrics.contains("tabula_outbox_waiting_messages "),
        "{metrics}"
    );
    assert!(
        metrics.contains("tabula_outbox_oldest_age_seconds "),
        "{metrics}"
    );
    assert!(
        metrics.contains("tabula_database_transaction_duration_seconds_bucket"),
        "{metrics}"
    );
    assert_eq!(sample(&metrics, "tabula_ready"), 1.0, "{metrics}");
    assert!(metrics.contains("tabula_build_info{version="), "{metrics}");

    // Telegram stops answering: a long poll hangs. Within 30 s (and the poll's own wait)
    // /readyz says so, /healthz stays 200, and it is ready again by itself afterwards.
    fake.fail_next("getUpdates", Failure::Hang);
    let down = ready_becomes(port, 503, Duration::from_secs(50)).await;
    assert_ne!(down["telegram"], "ok", "{down}");
    assert_eq!(down["database"], "ok", "{down}");
    assert_eq!(get(port, "/healthz").await.0, 200);
    let (_, metrics) = get(port, "/metrics").await;
    assert_eq!(sample(&metrics, "tabula_ready"), 0.0, "{metrics}");
    assert_eq!(
        sample(&metrics, "tabula_platform_up{platform=\"telegram\"}"),
        0.0,
        "{metrics}"
    );
    ready_becomes(port, 200, Duration::from_secs(40)).await;

    // Stopped by SIGTERM; its whole log is read then.
    let mut bot = table.bot.take().expect("the bot runs");
    let stopped = bot.terminate(Duration::from_secs(20)).await;
    assert!(stopped.success(), "{stopped}");
    // Every line is one JSON object with a time, a level and a message; no secret anywhere.
    let log = bot.log();
    let mut lines = 0;
    for line in log.lines().filter(|l| !l.trim().is_empty()) {
        let object: serde_json::Value = serde_json::from_str(line)
            .unwrap_or_else(|error| panic!("not a JSON line ({error}): {line}"));
        assert!(
            object["timestamp"].is_string()
                && object["level"].is_string()
                && object["target"].is_string(),
            "{line}"
        );
        // Tabula's own lines say something; a library's may carry only its fields.
        if object["target"]
            .as_str()
            .is_some_and(|t| t.starts_with("tabula"))
        {
            assert!(object["message"].is_string(), "{line}");
        }
        lines += 1;
    }
    assert!(lines > 50, "a trace-level run logs plenty: {lines} lines");
    assert!(
        log.contains("\"level\":\"TRACE\""),
        "the most verbose level was on"
    );
    let secret = TOKEN.split(':').nth(1).unwrap_or(TOKEN);
    assert!(
        !log.contains(secret) && !log.contains(&TOKEN.replace(':', "%3A")),
        "the token reached the log"
    );
    table.assert_clean();
}

/// The shard of Discord's gateway that owns `guild` among `count`.
fn shard_of(guild: u64, count: u64) -> u64 {
    (guild >> 22) % count
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_each_run_their_own_discord_shards() {
    use tabula_tests::bot_process::{BotProcess, scratch_dir};
    use tabula_tests::discord::{DEFAULT_MEMBER_PERMISSIONS, FakeDiscord};

    let fake = FakeDiscord::start().await.expect("the fake starts");
    fake.gateway()
        .set_heartbeat_interval(Duration::from_secs(1));
    fake.deliver_over_gateway();
    // A server on each of two shards.
    let mut guilds = [None, None];
    for n in 0..64 {
        let guild = fake.guild(&format!("Server {n}"));
        let shard = usize::try_from(shard_of(guild.id, 2)).unwrap_or(0);
        if guilds[shard].is_none() {
            guilds[shard] = Some(guild);
        }
        if guilds.iter().all(Option::is_some) {
            break;
        }
        // Snowflakes carry the millisecond, which decides the shard.
        tokio::time::sleep(Duration::from_millis(3)).await;
    }
    let [Some(first), Some(second)] = guilds else {
        panic!("no server on each shard");
    };
    let dir = scratch_dir("shards");
    let database = format!("sqlite://{}", dir.join("tabula.db").display());
    let ports = [free_port(), free_port()];
    let start = |shard: u32, port: u16, log: &str| {
        BotProcess::start(
            &dir,
            &["run"],
            &[
                ("DATABASE_URL", database.clone()),
                ("DISCORD_BOT_TOKEN", fake.token().to_string()),
                ("DISCORD_APPLICATION_ID", fake.application_id().to_string()),
                ("DISCORD_API_URL", fake.api_url()),
                ("DISCORD_SHARDS", shard.to_string()),
                ("DISCORD_SHARD_COUNT", "2".to_string()),
                ("TABULA_LISTEN", format!("127.0.0.1:{port}")),
                ("TABULA_LOG", log.to_string()),
            ],
        )
    };
    let mut zero = start(0, ports[0], "info");
    zero.wait_for_log("tabula run:", Duration::from_secs(60))
        .await;
    // The second at the most verbose level: serenity's own trace lines hold no token either.
    let mut one = start(1, ports[1], "trace");
    one.wait_for_log("tabula run:", Duration::from_secs(60))
        .await;
    let sessions = fake
        .gateway()
        .wait_until(Duration::from_secs(30), |sessions| {
            let ready: Vec<(u64, u64)> = sessions
                .iter()
                .filter(|s| s.ready)
                .map(|s| s.shard)
                .collect();
            ready.contains(&(0, 2)) && ready.contains(&(1, 2))
        })
        .await;
    assert!(sessions.is_ok(), "both shards READY: {sessions:?}");
    // Each process identified its own shard only.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let mut shards: Vec<(u64, u64)> = fake
        .gateway()
        .sessions()
        .iter()
        .filter(|s| s.ready)
        .map(|s| s.shard)
        .collect();
    shards.sort_unstable();
    assert_eq!(shards, vec![(0, 2), (1, 2)], "one session per shard");
    for port in ports {
        let ready = ready_becomes(port, 200, ANSWER).await;
        assert_eq!(ready["discord"], "ok", "{ready}");
    }

    // A command in each server reaches the process running its shard, and only that one.
    for (guild, user) in [(&first, "Ana"), (&second, "Ben")] {
        let channel = fake.text_channel(guild, "games");
        let person = fake.user(user);
        fake.join(guild, &person, DEFAULT_MEMBER_PERMISSIONS);
        fake.slash(&channel, &person, "help", &[])
            .await
            .unwrap_or_else(|error| panic!("/help cannot be sent: {error}"));
    }
    let answered = fake
        .gateway()
        .wait_until(ANSWER, |_| {
            fake.interactions()
                .iter()
                .filter(|i| i.initial.is_some())
                .count()
                >= 2
        })
        .await;
    assert!(answered.is_ok(), "both commands answered");
    for (shard, port) in ports.into_iter().enumerate() {
        let (_, metrics) = get(port, "/metrics").await;
        assert_eq!(
            sample(
                &metrics,
                "tabula_updates_received_total{platform=\"discord\",kind=\"command\"}"
            ),
            1.0,
            "shard {shard}'s process received one command: {metrics}"
        );
    }

    // The gateway stops answering: heartbeats go unacknowledged and reconnections get no
    // HELLO. Both processes turn not ready, and ready again when it answers.
    fake.gateway().pause(true);
    for port in ports {
        let down = ready_becomes(port, 503, Duration::from_secs(30)).await;
        assert_ne!(down["discord"], "ok", "{down}");
        assert_eq!(get(port, "/healthz").await.0, 200);
    }
    fake.gateway().pause(false);
    for port in ports {
        ready_becomes(port, 200, Duration::from_secs(60)).await;
    }

    for bot in [&mut zero, &mut one] {
        let stopped = bot.terminate(Duration::from_secs(20)).await;
        assert!(stopped.success(), "{stopped}: {}", bot.log());
        assert!(
            !bot.log().contains(fake.token()),
            "the token reached the log"
        );
    }
    assert!(one.log().contains("TRACE"), "the most verbose level was on");
    let violations = fake.violations();
    assert!(violations.is_empty(), "{violations:#?}");
    let gateway = fake.gateway().violations();
    assert!(gateway.is_empty(), "{gateway:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TABULA_TEST_POSTGRES_URL and pass --include-ignored (.ci/run does)"]
async fn readiness_follows_the_database_both_ways() {
    use tabula_tests::proxy::Cuttable;
    let base = std::env::var("TABULA_TEST_POSTGRES_URL")
        .expect("TABULA_TEST_POSTGRES_URL must name the PostgreSQL test server");
    let server: reqwest::Url = base.parse().expect("a URL");
    let target = format!(
        "{}:{}",
        server.host_str().unwrap_or("127.0.0.1"),
        server.port().unwrap_or(5432)
    );
    let forwarder = Cuttable::start(&target).await;
    let mut through = server.clone();
    through.set_host(Some("127.0.0.1")).expect("a host");
    through.set_port(Some(forwarder.port)).expect("a port");
    let schema = format!("e2e_ready_{}", std::process::id());
    let (_admin, url) = crate::telegram_postgres::fresh_schema(through.as_str(), &schema).await;
    let mut table = Table::new("ready-db").await;
    let port = free_port();
    table.set("DATABASE_URL", url);
    table.set("TABULA_LISTEN", format!("127.0.0.1:{port}"));
    table.start().await;
    ready_becomes(port, 200, ANSWER).await;

    // The database stops answering (connections hang): not ready within seconds, and every
    // answer still comes within 5 s; alive all along.
    forwarder.set_cut(true);
    let down = ready_becomes(port, 503, Duration::from_secs(15)).await;
    assert_ne!(down["database"], "ok", "{down}");
    assert_eq!(down["telegram"], "ok", "{down}");
    assert_eq!(get(port, "/healthz").await.0, 200);
    let (status, metrics) = get(port, "/metrics").await;
    assert_eq!(status, 200);
    assert_eq!(sample(&metrics, "tabula_database_up"), 0.0, "{metrics}");
    // Back: ready again by itself.
    forwarder.set_cut(false);
    ready_becomes(port, 200, Duration::from_secs(30)).await;
    let (_, metrics) = get(port, "/metrics").await;
    assert_eq!(sample(&metrics, "tabula_database_up"), 1.0, "{metrics}");
    table.stop().await;
    table.assert_clean();
}
