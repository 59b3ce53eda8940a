//! Self-tests of the fake Discord gateway: a raw WebSocket client checks the protocol (HELLO,
//! IDENTIFY, READY, heartbeats, RESUME, the close codes), and the real serenity 0.12 client
//! connects, gets READY, receives a dispatched interaction, and resumes after the gateway closes
//! or drops its connection or asks it to reconnect.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use serenity::all::{
    ClientBuilder, Context, EventHandler, GatewayIntents, HttpBuilder, Interaction, Ready,
};
use tabula_tests::discord::gateway::FakeGateway;
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;

const TOKEN: &str = "MTIz.fake.token";
const APPLICATION_ID: u64 = 1_100_000_000_000_000_001;
const BOT_ID: u64 = 1_100_000_000_000_000_002;
const WAIT: Duration = Duration::from_secs(5);

fn bot_user() -> Value {
    json!({
        "id": BOT_ID.to_string(),
        "username": "tabula",
        "discriminator": "0",
        "global_name": null,
        "avatar": null,
        "bot": true,
        "verified": true,
        "mfa_enabled": false,
        "flags": 0,
    })
}

async fn gateway() -> FakeGateway {
    FakeGateway::start(TOKEN, APPLICATION_ID, bot_user())
        .await
        .expect("the gateway starts")
}

type Ws = WebSocketStream<TcpStream>;

async fn connect_with(gateway: &FakeGateway, query: &str) -> Ws {
    let url = gateway.url();
    let stream = TcpStream::connect(url.trim_start_matches("ws://"))
        .await
        .expect("a TCP connection");
    let (ws, _) = tokio_tungstenite::client_async(format!("{url}/?{query}"), stream)
        .await
        .expect("a WebSocket handshake");
    ws
}

/// Connects like serenity (`?v=10`) and reads HELLO.
async fn connect(gateway: &FakeGateway) -> Ws {
    let mut ws = connect_with(gateway, "v=10").await;
    let hello = recv(&mut ws).await;
    assert_eq!(hello["op"], 10, "{hello}");
    assert!(hello["d"]["heartbeat_interval"].is_u64(), "{hello}");
    assert!(hello["s"].is_null() && hello["t"].is_null(), "{hello}");
    ws
}

async fn send(ws: &mut Ws, payload: Value) {
    ws.send(Message::Text(payload.to_string()))
        .await
        .expect("a frame sent");
}

/// The next text frame as JSON (panics on a close frame or after five seconds).
async fn recv(ws: &mut Ws) -> Value {
    loop {
        let message = tokio::time::timeout(WAIT, ws.next())
            .await
            .expect("a frame in time")
            .expect("an open connection")
            .expect("a WebSocket frame");
        match message {
            Message::Text(text) => return serde_json::from_str(&text).expect("JSON text"),
            Message::Ping(_) | Message::Pong(_) => {}
            other => panic!("a text frame expected, got {other:?}"),
        }
    }
}

/// Reads until the close frame, skipping the frames before it; returns its code.
async fn recv_close(ws: &mut Ws) -> u16 {
    loop {
        let message = tokio::time::timeout(WAIT, ws.next())
            .await
            .expect("a frame in time")
            .expect("a close frame before the end")
            .expect("a WebSocket frame");
        match message {
            Message::Close(Some(frame)) => return u16::from(frame.code),
            Message::Close(None) => panic!("a close frame without code"),
            _ => {}
        }
    }
}

fn identify(token: &str) -> Value {
    json!({"op": 2, "d": {
        "token": token,
        "properties": {"os": "linux", "browser": "raw", "device": "raw"},
        "intents": 0,
        "compress": false,
        "large_threshold": 250,
        "shard": [0, 1],
    }})
}

/// Connects, identifies and returns the connection and READY's `d`.
async fn ready(gateway: &FakeGateway) -> (Ws, Value) {
    let mut ws = connect(gateway).await;
    send(&mut ws, identify(&format!("Bot {TOKEN}"))).await;
    let ready = recv(&mut ws).await;
    assert_eq!(
        (&ready["op"], &ready["t"], &ready["s"]),
        (&json!(0), &json!("READY"), &json!(1))
    );
    (ws, ready["d"].clone())
}

#[tokio::test]
async fn a_wrong_token_is_closed_with_4004() {
    let gateway = gateway().await;
    let mut ws = connect(&gateway).await;
    send(&mut ws, identify("Bot not.the.token")).await;
    assert_eq!(recv_close(&mut ws).await, 4004);
    assert!(gateway.sessions().is_empty());
    assert!(
        gateway.violations().iter().any(|v| v.contains("token")),
        "{:?}",
        gateway.violations()
    );
}

#[tokio::test]
async fn identify_gets_a_ready_serenity_reads_and_heartbeats_are_acknowledged() {
    let gateway = gateway().await;
    let (mut ws, d) = ready(&gateway).await;
    let model: Ready = serde_json::from_value(d.clone()).unwrap();
    assert_eq!(model.version, 10);
    assert_eq!(model.user.id.get(), BOT_ID);
    assert_eq!(model.application.id.get(), APPLICATION_ID);
    assert_eq!(model.resume_gateway_url, gateway.url());
    assert_eq!(model.shard.map(|s| (s.id.0, s.total)), Some((0, 1)));
    assert!(!model.session_id.is_empty());

    send(&mut ws, json!({"op": 1, "d": 1})).await;
    assert_eq!(recv(&mut ws).await, json!({"op": 11, "d": null}));

    assert!(gateway.dispatch(None, "TEST_EVENT", json!({"n": 1})));
    let event = recv(&mut ws).await;
    assert_eq!(
        event,
        json!({"op": 0, "t": "TEST_EVENT", "s": 2, "d": {"n": 1}})
    );
    assert_eq!(gateway.dispatch_all("TEST_EVENT", json!({"n": 2})), 1);
    assert_eq!(recv(&mut ws).await["s"], 3);

    let sessions = gateway.sessions();
    assert_eq!(sessions.len(), 1);
    let session = &sessions[0];
    assert!(session.ready);
    assert_eq!(session.heartbeats, 1);
    assert_eq!(session.shard, (0, 1));
    assert!(session.token_had_bot_prefix);
    assert_eq!(session.session_id, model.session_id);
    assert_eq!(session.identify["intents"], 0);
    assert_eq!(
        gateway.dispatched(),
        [
            (0, "READY".to_owned(), 1),
            (0, "TEST_EVENT".to_owned(), 2),
            (0, "TEST_EVENT".to_owned(), 3)
        ]
    );
    assert_eq!(gateway.queries(), ["v=10"]);

    // A second IDENTIFY on the same connection.
    send(&mut ws, identify(TOKEN)).await;
    assert_eq!(recv_close(&mut ws).await, 4005);
    gateway
        .wait_until(WAIT, |s| !s[0].ready)
        .await
        .expect("the session closed");
    assert!(!gateway.dispatch(None, "TEST_EVENT", json!({})));
}

#[tokio::test]
async fn resume_replays_what_was_missed_and_unknown_sessions_are_invalid() {
    let gateway = gateway().await;
    let (mut ws, d) = ready(&gateway).await;
    let session_id = d["session_id"].as_str().unwrap().to_owned();
    let guild = 81_384_788_765_712_384_u64;
    assert!(gateway.dispatch(Some(guild), "A", json!({"n": 2})));
    assert!(gateway.dispatch(Some(guild), "B", json!({"n": 3})));
    assert_eq!(recv(&mut ws).await["s"], 2);

    gateway.close_all(4000);
    assert_eq!(recv_close(&mut ws).await, 4000);
    assert!(!gateway.dispatch(Some(guild), "LOST", json!({})));

    // The client saw seq 2 (it missed B, though B was sent before the close frame).
    let mut ws = connect(&gateway).await;
    send(
        &mut ws,
        json!({"op": 6, "d": {"token": TOKEN, "session_id": session_id, "seq": 2}}),
    )
    .await;
    assert_eq!(
        recv(&mut ws).await,
        json!({"op": 0, "t": "B", "s": 3, "d": {"n": 3}})
    );
    let resumed = recv(&mut ws).await;
    assert_eq!(
        (&resumed["t"], &resumed["s"]),
        (&json!("RESUMED"), &json!(4))
    );
    assert!(gateway.dispatch(Some(guild), "C", json!({})));
    assert_eq!(recv(&mut ws).await["s"], 5);
    let session = &gateway.sessions()[0];
    assert!(session.ready);
    assert_eq!(session.resumes, 1);

    // A resume with an unknown session: op 9, not resumable.
    let mut other = connect(&gateway).await;
    send(
        &mut other,
        json!({"op": 6, "d": {"token": TOKEN, "session_id": "nope", "seq": 1}}),
    )
    .await;
    assert_eq!(recv(&mut other).await, json!({"op": 9, "d": false}));

    // A dropped connection (no close frame) resumes as well.
    gateway.drop_connections();
    let mut ws = connect(&gateway).await;
    send(
        &mut ws,
        json!({"op": 6, "d": {"token": TOKEN, "session_id": session_id, "seq": 5}}),
    )
    .await;
    assert_eq!(recv(&mut ws).await["t"], "RESUMED");
    assert!(
        gateway.violations().is_empty(),
        "{:?}",
        gateway.violations()
    );
}

#[tokio::test]
async fn payloads_before_identify_bad_json_and_unknown_opcodes_are_closed() {
    let gateway = gateway().await;

    let mut ws = connect(&gateway).await;
    send(&mut ws, json!({"op": 3, "d": {"status": "online"}})).await;
    assert_eq!(recv_close(&mut ws).await, 4003);

    let mut ws = connect(&gateway).await;
    ws.send(Message::Text("{not json".to_owned()))
        .await
        .unwrap();
    assert_eq!(recv_close(&mut ws).await, 4002);

    let mut ws = connect(&gateway).await;
    send(&mut ws, json!({"op": 42, "d": null})).await;
    assert_eq!(recv_close(&mut ws).await, 4001);

    // A heartbeat before IDENTIFY is fine.
    let mut ws = connect(&gateway).await;
    send(&mut ws, json!({"op": 1, "d": null})).await;
    assert_eq!(recv(&mut ws).await["op"], 11);

    let mut ws = connect_with(&gateway, "v=9&encoding=json").await;
    assert_eq!(recv(&mut ws).await["op"], 10);

    let violations = gateway.violations();
    assert_eq!(violations.len(), 4, "{violations:?}");
    assert!(violations.iter().any(|v| v.contains("v=10")));
}

#[tokio::test]
async fn a_missed_heartbeat_is_a_violation_and_gateway_close_is_shard_aware() {
    let gateway = gateway().await;
    gateway.set_heartbeat_interval(Duration::from_millis(100));
    let mut ws = connect(&gateway).await;
    let mut payload = identify(TOKEN);
    payload["d"]["shard"] = json!([1, 2]);
    send(&mut ws, payload).await;
    let ready = recv(&mut ws).await;
    assert_eq!(ready["d"]["shard"], json!([1, 2]));
    assert!(!gateway.sessions()[0].token_had_bot_prefix);
    // Guild 1 << 22 belongs to shard 1 of 2; a DM (None) to shard 0, which nobody holds.
    assert!(gateway.dispatch(Some(1 << 22), "X", json!({})));
    assert!(!gateway.dispatch(Some(2 << 22), "X", json!({})));
    assert!(!gateway.dispatch(None, "X", json!({})));
    tokio::time::sleep(Duration::from_millis(1400)).await;
    let violations = gateway.violations();
    assert!(
        violations.iter().any(|v| v.contains("no heartbeat")),
        "{violations:?}"
    );
}

/// A tiny stand-in for Discord's REST API: only what serenity asks before connecting.
async fn rest_stub(gateway_url: String) -> String {
    use axum::{Json, Router, routing::get};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a free port");
    let address = listener.local_addr().expect("its address");
    let url = gateway_url.clone();
    let app = Router::new()
        .route(
            "/api/v10/gateway",
            get(move || {
                let url = url.clone();
                async move { Json(json!({"url": url})) }
            }),
        )
        .route(
            "/api/v10/gateway/bot",
            get(move || {
                let url = gateway_url.clone();
                async move {
                    Json(json!({"url": url, "shards": 1, "session_start_limit": {
                        "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1,
                    }}))
                }
            }),
        );
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{address}")
}

struct Handler(mpsc::UnboundedSender<String>);

#[serenity::async_trait]
impl EventHandler for Handler {
    async fn ready(&self, _: Context, ready: Ready) {
        let _ = self.0.send(format!("ready {}", ready.user.name));
    }

    async fn resume(&self, _: Context, _: serenity::model::event::ResumedEvent) {
        let _ = self.0.send("resumed".to_owned());
    }

    async fn interaction_create(&self, _: Context, interaction: Interaction) {
        if let Interaction::Command(command) = interaction {
            let _ = self.0.send(format!("command {}", command.data.name));
        }
    }
}

fn interaction(id: u64, name: &str) -> Value {
    json!({
        "id": id.to_string(),
        "application_id": APPLICATION_ID.to_string(),
        "type": 2,
        "data": {"id": "1100000000000000100", "name": name, "type": 1},
        "guild_id": "1100000000000000200",
        "channel_id": "1100000000000000300",
        "member": {
            "user": {
                "id": "1100000000000000400",
                "username": "alice",
                "discriminator": "0",
                "global_name": "Alice",
                "avatar": null,
            },
            "roles": [],
            "joined_at": "2025-01-01T00:00:00.000000+00:00",
            "deaf": false,
            "mute": false,
            "flags": 0,
            "pending": false,
            "permissions": "0",
        },
        "token": "interaction-token",
        "version": 1,
        "locale": "en-US",
        "guild_locale": "en-US",
        "entitlements": [],
        "app_permissions": "0",
        "authorizing_integration_owners": {},
        "context": 0,
        "attachment_size_limit": 8_388_608,
    })
}

async fn next_event(events: &mut mpsc::UnboundedReceiver<String>) -> String {
    tokio::time::timeout(WAIT, events.recv())
        .await
        .expect("a handler call in time")
        .expect("the handler is alive")
}

#[tokio::test]
async fn serenity_gets_ready_an_interaction_and_resumes_after_losing_its_connection() {
    let gateway = gateway().await;
    gateway.set_heartbeat_interval(Duration::from_millis(1000));
    let rest = rest_stub(gateway.url()).await;
    let http = HttpBuilder::new(TOKEN)
        .proxy(rest)
        .ratelimiter_disabled(true)
        .build();
    let (tx, mut events) = mpsc::unbounded_channel();
    let mut client = ClientBuilder::new_with_http(http, GatewayIntents::empty())
        .event_handler(Handler(tx))
        .await
        .unwrap();
    let shards = client.shard_manager.clone();
    let running = tokio::spawn(async move { client.start().await });

    gateway.wait_for_ready(1, WAIT).await.unwrap();
    assert_eq!(next_event(&mut events).await, "ready tabula");
    let session = &gateway.sessions()[0];
    assert!(session.token_had_bot_prefix);
    assert_eq!(session.identify["intents"], 0);
    assert_eq!(session.identify["properties"]["browser"], "serenity");
    assert_eq!(session.identify["compress"], true);
    assert_eq!(gateway.queries(), ["v=10"]);

    let guild = Some(1_100_000_000_000_000_200);
    assert!(gateway.dispatch(guild, "INTERACTION_CREATE", interaction(1, "play")));
    assert_eq!(next_event(&mut events).await, "command play");

    // Closed with 4000, dropped, asked to reconnect: serenity resumes the same session each time.
    gateway.close_all(4000);
    assert_eq!(next_event(&mut events).await, "resumed");
    assert!(gateway.dispatch(guild, "INTERACTION_CREATE", interaction(2, "board")));
    assert_eq!(next_event(&mut events).await, "command board");
    gateway.drop_connections();
    assert_eq!(next_event(&mut events).await, "resumed");
    gateway.reconnect_request();
    assert_eq!(next_event(&mut events).await, "resumed");
    assert!(gateway.dispatch(guild, "INTERACTION_CREATE", interaction(3, "moves")));
    assert_eq!(next_event(&mut events).await, "command moves");

    // Heartbeats at the announced second.
    gateway
        .wait_until(WAIT, |s| s[0].heartbeats >= 2)
        .await
        .expect("heartbeats");
    let sessions = gateway.sessions();
    assert_eq!(sessions.len(), 1, "{sessions:?}");
    assert_eq!(sessions[0].resumes, 3);
    assert!(
        gateway.violations().is_empty(),
        "{:?}",
        gateway.violations()
    );

    shards.shutdown_all().await;
    running.abort();
    let _ = running.await;
}
