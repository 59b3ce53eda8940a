//! The fake Discord gateway: a WebSocket server that speaks the gateway protocol (HELLO,
//! IDENTIFY, READY, heartbeats, RESUME) and dispatches events to the sessions.
//!
//! What it follows (Discord's "Gateway" and "Opcodes and Status Codes" documentation, API v10):
//!
//! - Every connection gets HELLO (op 10) with the heartbeat interval (41250 ms unless
//!   [`FakeGateway::set_heartbeat_interval`] set another one). The connection's query is
//!   recorded; `v` other than 10, an `encoding` other than `json`, or a `compress` transport
//!   compression (not implemented) is a violation.
//! - Heartbeats (op 1, any time) are answered with op 11 and counted; `d` must be null or a
//!   sequence number no higher than the last one the session was sent (serenity sends `0` before
//!   any dispatch: accepted). No heartbeat within 1.5 intervals (plus a second of slack for a
//!   loaded machine) after HELLO or the previous heartbeat is a violation; the connection stays.
//! - IDENTIFY (op 2): `token` must be the configured token, with or without `Bot ` (recorded),
//!   else close 4004 "Authentication failed"; `properties` needs the strings `os`, `browser`,
//!   `device` and `intents` an integer, else close 4002 "Decode error"; `shard` when present must
//!   be `[id, count]` with `id < count`, else close 4010 "Invalid shard"; `large_threshold` when
//!   present must be within 50..=250 (a violation otherwise); `compress` is recorded. A second
//!   IDENTIFY or RESUME on an authenticated connection: close 4005 "Already authenticated".
//!   Success: dispatch READY (`s: 1`) with `v: 10`, the bot user, `guilds: []`, a new
//!   `session_id`, `resume_gateway_url` (this gateway's url), `shard` and
//!   `application: {id, flags: 0}`.
//! - RESUME (op 6): wrong token: 4004; `seq` above the session's last: close 4007 "Invalid seq";
//!   unknown session (or one ended by the client's close code 1000/1001): op 9 `d: false`, the
//!   connection stays open for the client to close. Known: the session's dispatches after `seq`
//!   (READY and RESUMED excluded) are replayed, then RESUMED (a dispatch with the next sequence
//!   number). A session still open on another connection is taken over (the old one is dropped).
//! - Before authentication, anything but heartbeats, IDENTIFY and RESUME: close 4003 "Not
//!   authenticated". A frame that is not a JSON object with an integer `op` (binary frames too:
//!   ETF is not spoken): close 4002 "Decode error". A send-only or unknown opcode: close 4001
//!   "Unknown opcode". Presence updates (3), voice state updates (4), member requests (8) and
//!   soundboard requests (31) are accepted and recorded ([`FakeGateway::client_payloads`]), not
//!   answered.
//! - Every rule broken by the client is recorded in [`FakeGateway::violations`].
//!
//! What it does not do: payload or transport zlib compression (serenity's IDENTIFY says
//! `compress: true`, which allows compressed payloads but does not require them: every frame sent
//! is plain text JSON), ETF, rate limits on gateway commands, session start limits, sessions
//! timing out, the GUILD_CREATE that follow READY (dispatch them yourself), heartbeat requests
//! from the server (op 1), and closing on missed heartbeats. Dispatches to a session without an
//! open connection are not queued: [`FakeGateway::dispatch`] returns false and keeps nothing.

use std::collections::HashMap;
use std::hash::BuildHasher;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};
use tokio::task::AbortHandle;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::handshake::server::{Request, Response};
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

/// The default heartbeat interval Discord announces.
pub const DEFAULT_HEARTBEAT_INTERVAL: Duration = Duration::from_millis(41_250);

/// The fake gateway (interface agreed before it is written; see the helper's task).
///
/// Dropping it stops the listener and every connection.
#[derive(Debug)]
pub struct FakeGateway {
    inner: Arc<Inner>,
    addr: SocketAddr,
    shutdown: watch::Sender<bool>,
    listener: AbortHandle,
}

/// One session as the gateway saw it.
#[derive(Debug, Clone)]
pub struct SessionInfo {
    /// The IDENTIFY payload's `d`.
    pub identify: Value,
    /// `[shard_id, num_shards]` from IDENTIFY (`[0, 1]` when absent).
    pub shard: (u64, u64),
    /// Whether READY was sent and the connection is still open.
    pub ready: bool,
    /// Heartbeats received.
    pub heartbeats: usize,
    /// The `session_id` READY gave.
    pub session_id: String,
    /// Whether IDENTIFY's token carried the `Bot ` prefix (serenity sends it).
    pub token_had_bot_prefix: bool,
    /// Successful RESUMEs of this session.
    pub resumes: usize,
    /// The last sequence number sent to this session.
    pub seq: u64,
}

/// What the gateway does with a connection (sent to its task).
#[derive(Debug)]
enum Out {
    Text(String),
    Close(u16, String),
    Drop,
}

#[derive(Debug)]
struct Inner {
    token: String,
    application_id: u64,
    user: Value,
    state: Mutex<State>,
    /// Bumped on every change a waiter may look at.
    changes: watch::Sender<u64>,
}

#[derive(Debug)]
struct Session {
    id: String,
    identify: Value,
    shard: (u64, u64),
    token_had_bot_prefix: bool,
    /// The open connection carrying the session.
    conn: Option<u64>,
    /// False once the client closed with 1000/1001 (Discord invalidates such sessions).
    resumable: bool,
    heartbeats: usize,
    resumes: usize,
    seq: u64,
    /// Dispatches for replay: `(seq, event, data)`, READY and RESUMED excluded.
    events: Vec<(u64, String, Value)>,
}

#[derive(Debug)]
struct Conn {
    tx: mpsc::UnboundedSender<Out>,
    /// Index into `State::sessions` once IDENTIFY or RESUME succeeded.
    session: Option<usize>,
    heartbeats: usize,
    /// Set when the gateway decided to close it (no more dispatches).
    closing: bool,
}

#[derive(Debug)]
struct State {
    heartbeat_interval: Duration,
    /// Paused: heartbeats go unacknowledged and new connections wait for HELLO (a gateway
    /// that stopped answering).
    paused: bool,
    next_conn: u64,
    conns: HashMap<u64, Conn>,
    sessions: Vec<Session>,
    violations: Vec<String>,
    dispatched: Vec<(u64, String, u64)>,
    queries: Vec<String>,
    client_payloads: Vec<Value>,
    close_codes: Vec<Option<u16>>,
    tasks: Vec<AbortHandle>,
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn changed(&self) {
        self.changes.send_modify(|n| *n += 1);
    }

    fn violation(&self, message: String) {
        self.lock().violations.push(message);
        self.changed();
    }
}

impl State {
    /// Sends a dispatch to a session's open connection; false when it has none.
    fn dispatch_to(&mut self, index: usize, event: &str, data: Value) -> bool {
        let Some(session) = self.sessions.get_mut(index) else {
            return false;
        };
        let Some(conn_id) = session.conn else {
            return false;
        };
        let Some(conn) = self.conns.get(&conn_id).filter(|c| !c.closing) else {
            return false;
        };
        session.seq += 1;
        let seq = session.seq;
        let frame = dispatch_frame(event, seq, &data);
        if conn.tx.send(Out::Text(frame)).is_err() {
            return false;
        }
        session.events.push((seq, event.to_owned(), data));
        self.dispatched.push((index as u64, event.to_owned(), seq));
        true
    }

    fn open_conns(&self) -> Vec<u64> {
        let mut ids: Vec<u64> = self
            .conns
            .iter()
            .filter(|(_, c)| !c.closing)
            .map(|(id, _)| *id)
            .collect();
        ids.sort_unstable();
        ids
    }

    /// Marks a connection as going away: its session is detached at once, so that dispatches
    /// made after this call return false.
    fn detach(&mut self, conn_id: u64) {
        if let Some(conn) = self.conns.get_mut(&conn_id) {
            conn.closing = true;
            if let Some(index) = conn.session
                && let Some(session) = self.sessions.get_mut(index)
                && session.conn == Some(conn_id)
            {
                session.conn = None;
            }
        }
    }

    fn info(&self, session: &Session) -> SessionInfo {
        SessionInfo {
            identify: session.identify.clone(),
            shard: session.shard,
            ready: session
                .conn
                .is_some_and(|id| self.conns.get(&id).is_some_and(|c| !c.closing)),
            heartbeats: session.heartbeats,
            session_id: session.id.clone(),
            token_had_bot_prefix: session.token_had_bot_prefix,
            resumes: session.resumes,
            seq: session.seq,
        }
    }
}

fn dispatch_frame(event: &str, seq: u64, data: &Value) -> String {
    json!({"op": 0, "t": event, "s": seq, "d": data}).to_string()
}

impl FakeGateway {
    /// Starts on 127.0.0.1 with a free port. `token` is the bot token IDENTIFY must carry
    /// (without `Bot `), `user` the bot's user object for READY, `application_id` the
    /// application's id for READY's `application`.
    pub async fn start(token: &str, application_id: u64, user: Value) -> std::io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let inner = Arc::new(Inner {
            token: token.strip_prefix("Bot ").unwrap_or(token).to_owned(),
            application_id,
            user,
            state: Mutex::new(State {
                heartbeat_interval: DEFAULT_HEARTBEAT_INTERVAL,
                paused: false,
                next_conn: 0,
                conns: HashMap::new(),
                sessions: Vec::new(),
                violations: Vec::new(),
                dispatched: Vec::new(),
                queries: Vec::new(),
                client_payloads: Vec::new(),
                close_codes: Vec::new(),
                tasks: Vec::new(),
            }),
            changes: watch::Sender::new(0),
        });
        let (shutdown, _) = watch::channel(false);
        let accept_inner = Arc::clone(&inner);
        let accept_shutdown = shutdown.subscribe();
        let url = format!("ws://{addr}");
        let listener = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    continue;
                };
                let inner = Arc::clone(&accept_inner);
                let shutdown = accept_shutdown.clone();
                let url = url.clone();
                let task = tokio::spawn(serve(stream, inner, shutdown, url));
                let mut state = accept_inner.lock();
                state.tasks.retain(|t| !t.is_finished());
                state.tasks.push(task.abort_handle());
            }
        })
        .abort_handle();
        Ok(Self {
            inner,
            addr,
            shutdown,
            listener,
        })
    }

    /// `ws://127.0.0.1:PORT` (serenity appends `?v=10`).
    pub fn url(&self) -> String {
        format!("ws://{}", self.addr)
    }

    /// The heartbeat interval HELLO announces to connections made from now on.
    pub fn set_heartbeat_interval(&self, interval: Duration) {
        self.inner.lock().heartbeat_interval = interval;
    }

    /// Sends a dispatch (op 0) with the next sequence number to the READY session of the shard
    /// that owns `guild_id` (`(guild_id >> 22) % num_shards`; shard 0 for DMs: `None`). Returns
    /// whether a session took it.
    pub fn dispatch(&self, guild_id: Option<u64>, event: &str, data: Value) -> bool {
        let taken = {
            let mut state = self.inner.lock();
            let target = (0..state.sessions.len()).rev().find(|&i| {
                let session = &state.sessions[i];
                let (shard, count) = session.shard;
                let wanted = guild_id.map_or(0, |g| (g >> 22) % count.max(1));
                shard == wanted && state.info(session).ready
            });
            target.is_some_and(|i| state.dispatch_to(i, event, data))
        };
        self.inner.changed();
        taken
    }

    /// Sends a dispatch to every READY, open session; returns how many took it.
    pub fn dispatch_all(&self, event: &str, data: Value) -> usize {
        let count = {
            let mut state = self.inner.lock();
            (0..state.sessions.len())
                .filter(|&i| state.dispatch_to(i, event, data.clone()))
                .count()
        };
        self.inner.changed();
        count
    }

    /// Every session so far.
    pub fn sessions(&self) -> Vec<SessionInfo> {
        let state = self.inner.lock();
        state.sessions.iter().map(|s| state.info(s)).collect()
    }

    /// Waits until `count` sessions are READY and open.
    pub async fn wait_for_ready(&self, count: usize, timeout: Duration) -> Result<(), String> {
        self.wait_until(timeout, |sessions| {
            sessions.iter().filter(|s| s.ready).count() >= count
        })
        .await
        .map_err(|sessions| {
            format!("{count} READY sessions expected within {timeout:?}; sessions: {sessions:?}")
        })
    }

    /// Waits until `done` holds for the sessions; on timeout, returns the sessions as they were.
    pub async fn wait_until(
        &self,
        timeout: Duration,
        done: impl Fn(&[SessionInfo]) -> bool,
    ) -> Result<(), Vec<SessionInfo>> {
        let deadline = Instant::now() + timeout;
        let mut changes = self.inner.changes.subscribe();
        loop {
            changes.borrow_and_update();
            let sessions = self.sessions();
            if done(&sessions) {
                return Ok(());
            }
            if tokio::time::timeout_at(deadline, changes.changed())
                .await
                .is_err()
            {
                return Err(self.sessions());
            }
        }
    }

    /// Protocol errors the client made (bad IDENTIFY, wrong token, heartbeats missed...).
    pub fn violations(&self) -> Vec<String> {
        self.inner.lock().violations.clone()
    }

    /// Every dispatch sent: `(session index in sessions(), event name, sequence number)`, READY
    /// and RESUMED included, replays not.
    pub fn dispatched(&self) -> Vec<(u64, String, u64)> {
        self.inner.lock().dispatched.clone()
    }

    /// The query string of every WebSocket handshake (`v=10` from serenity).
    pub fn queries(&self) -> Vec<String> {
        self.inner.lock().queries.clone()
    }

    /// Payloads the client sent besides heartbeats, IDENTIFY and RESUME (presence updates,
    /// member requests...), whole (`op` and `d`).
    pub fn client_payloads(&self) -> Vec<Value> {
        self.inner.lock().client_payloads.clone()
    }

    /// The close codes of the close frames clients sent (`None`: a close frame without code).
    pub fn client_close_codes(&self) -> Vec<Option<u16>> {
        self.inner.lock().close_codes.clone()
    }

    /// How many connections are open (whether authenticated or not).
    pub fn open_connections(&self) -> usize {
        self.inner.lock().open_conns().len()
    }

    /// Closes every open connection with a close frame of `code` (4000 "Unknown error" lets
    /// clients resume; 4004 and the like make serenity give up). Sessions stay resumable.
    pub fn close_all(&self, code: u16) {
        self.for_each_open(|state, id| {
            state.detach(id);
            Out::Close(code, "closed by the fake gateway".to_owned())
        });
    }

    /// Stops answering (`true`): heartbeats are not acknowledged, and a new connection gets no
    /// HELLO until the gateway answers again (`false`).
    pub fn pause(&self, paused: bool) {
        self.inner.lock().paused = paused;
        self.inner.changed();
    }

    /// Drops every open connection without a close frame (a network failure).
    pub fn drop_connections(&self) {
        self.for_each_open(|state, id| {
            state.detach(id);
            Out::Drop
        });
    }

    /// Sends op 7 RECONNECT to every open connection (the client should reconnect and resume);
    /// the connections are left open for the client to close.
    pub fn reconnect_request(&self) {
        self.for_each_open(|_, _| Out::Text(json!({"op": 7, "d": null}).to_string()));
    }

    /// Sends op 9 INVALID_SESSION with `d: resumable` to every open connection; when not
    /// resumable, the sessions are forgotten (a later RESUME gets op 9 `d: false`).
    pub fn invalidate_sessions(&self, resumable: bool) {
        self.for_each_open(|state, id| {
            if !resumable
                && let Some(index) = state.conns.get(&id).and_then(|c| c.session)
                && let Some(session) = state.sessions.get_mut(index)
            {
                session.resumable = false;
            }
            Out::Text(json!({"op": 9, "d": resumable}).to_string())
        });
    }

    fn for_each_open(&self, mut make: impl FnMut(&mut State, u64) -> Out) {
        {
            let mut state = self.inner.lock();
            for id in state.open_conns() {
                let out = make(&mut state, id);
                if let Some(conn) = state.conns.get(&id) {
                    let _ = conn.tx.send(out);
                }
            }
        }
        self.inner.changed();
    }
}

impl Drop for FakeGateway {
    fn drop(&mut self) {
        let _ = self.shutdown.send(true);
        self.listener.abort();
        for task in self.inner.lock().tasks.drain(..) {
            task.abort();
        }
    }
}

/// What handling one client payload leads to.
enum Step {
    Continue,
    Close(u16, &'static str),
}

/// One connection: handshake, HELLO, then client payloads and the gateway's orders.
async fn serve(
    stream: TcpStream,
    inner: Arc<Inner>,
    mut shutdown: watch::Receiver<bool>,
    url: String,
) {
    let mut query = String::new();
    // The callback's error type is tungstenite's (an HTTP response), not ours to shrink.
    #[allow(clippy::result_large_err)]
    let callback = |request: &Request, response: Response| {
        query = request.uri().query().unwrap_or("").to_owned();
        Ok(response)
    };
    let Ok(mut ws) = tokio_tungstenite::accept_hdr_async(stream, callback).await else {
        inner.violation("a connection failed the WebSocket handshake".to_owned());
        return;
    };
    check_query(&inner, &query);
    let (tx, mut rx) = mpsc::unbounded_channel();
    let (conn_id, interval) = {
        let mut state = inner.lock();
        let id = state.next_conn;
        state.next_conn += 1;
        state.conns.insert(
            id,
            Conn {
                tx,
                session: None,
                heartbeats: 0,
                closing: false,
            },
        );
        state.queries.push(query);
        (id, state.heartbeat_interval)
    };
    inner.changed();
    let interval_ms = u64::try_from(interval.as_millis()).unwrap_or(u64::MAX);
    let hello = json!({"op": 10, "d": {"heartbeat_interval": interval_ms}, "s": null, "t": null});
    // A paused gateway keeps a new connection waiting for its HELLO.
    while inner.lock().paused {
        if *shutdown.borrow() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let allowed = interval * 3 / 2 + Duration::from_secs(1);
    let mut heartbeat_deadline = Instant::now() + allowed;
    let mut heartbeat_reported = false;
    let mut closing: Option<(u16, String)> = None;
    if ws.send(Message::Text(hello.to_string())).await.is_ok() {
        loop {
            tokio::select! {
                _ = shutdown.changed() => break,
                out = rx.recv() => match out {
                    Some(Out::Text(text)) => {
                        if ws.send(Message::Text(text)).await.is_err() {
                            break;
                        }
                    }
                    Some(Out::Close(code, reason)) => {
                        closing = Some((code, reason));
                        break;
                    }
                    Some(Out::Drop) | None => break,
                },
                message = ws.next() => {
                    let Some(Ok(message)) = message else { break };
                    let step = match message {
                        Message::Text(text) => {
                            let before = conn_heartbeats(&inner, conn_id);
                            let step = handle(&inner, conn_id, &text, &url, &mut ws).await;
                            if conn_heartbeats(&inner, conn_id) != before {
                                heartbeat_deadline = Instant::now() + allowed;
                                heartbeat_reported = false;
                            }
                            step
                        }
                        Message::Binary(_) => {
                            inner.violation(
                                "a binary frame (ETF or compressed payloads are not spoken)"
                                    .to_owned(),
                            );
                            Step::Close(4002, "Decode error")
                        }
                        Message::Close(frame) => {
                            client_closed(&inner, conn_id, frame.map(|f| u16::from(f.code)));
                            break;
                        }
                        Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => Step::Continue,
                    };
                    if let Step::Close(code, reason) = step {
                        closing = Some((code, reason.to_owned()));
                        break;
                    }
                },
                () = tokio::time::sleep_until(heartbeat_deadline), if !heartbeat_reported => {
                    heartbeat_reported = true;
                    // A paused gateway acknowledges nothing: a client that stops then is right.
                    if inner.lock().paused {
                        continue;
                    }
                    inner.violation(format!(
                        "connection {conn_id}: no heartbeat within 1.5 intervals ({interval:?} each)"
                    ));
                }
            }
        }
    }
    {
        let mut state = inner.lock();
        state.detach(conn_id);
        state.conns.remove(&conn_id);
    }
    inner.changed();
    if let Some((code, reason)) = closing {
        let frame = CloseFrame {
            code: CloseCode::from(code),
            reason: reason.into(),
        };
        if ws.send(Message::Close(Some(frame))).await.is_ok() {
            // Waits for the client's close frame, so that the close frame is read before the
            // TCP connection goes.
            let _ = tokio::time::timeout(Duration::from_secs(2), async {
                while let Some(Ok(_)) = ws.next().await {}
            })
            .await;
        }
    }
}

fn conn_heartbeats(inner: &Inner, conn_id: u64) -> usize {
    inner.lock().conns.get(&conn_id).map_or(0, |c| c.heartbeats)
}

fn check_query(inner: &Inner, query: &str) {
    let params: Vec<(&str, &str)> = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| p.split_once('=').unwrap_or((p, "")))
        .collect();
    let get = |name: &str| params.iter().find(|(k, _)| *k == name).map(|(_, v)| *v);
    if get("v") != Some("10") {
        inner.violation(format!(
            "the gateway URL's query {query:?} does not ask for v=10"
        ));
    }
    if let Some(encoding) = get("encoding")
        && encoding != "json"
    {
        inner.violation(format!("encoding={encoding} (only json is spoken)"));
    }
    if let Some(compress) = get("compress") {
        inner.violation(format!(
            "compress={compress}: transport compression is not implemented by the fake"
        ));
    }
}

fn client_closed(inner: &Inner, conn_id: u64, code: Option<u16>) {
    let mut state = inner.lock();
    state.close_codes.push(code);
    if matches!(code, Some(1000 | 1001))
        && let Some(index) = state.conns.get(&conn_id).and_then(|c| c.session)
        && let Some(session) = state.sessions.get_mut(index)
    {
        session.resumable = false;
    }
}

/// The token of an IDENTIFY or RESUME: whether it is right, and whether it had `Bot `.
fn check_token(inner: &Inner, token: Option<&Value>) -> Option<bool> {
    let token = token?.as_str()?;
    let (bare, prefixed) = match token.strip_prefix("Bot ") {
        Some(bare) => (bare, true),
        None => (token, false),
    };
    (bare == inner.token).then_some(prefixed)
}

fn session_id(n: usize) -> String {
    let hash = std::collections::hash_map::RandomState::new().hash_one(n);
    format!("{hash:016x}{n:04x}")
}

async fn handle<S>(
    inner: &Inner,
    conn_id: u64,
    text: &str,
    url: &str,
    ws: &mut tokio_tungstenite::WebSocketStream<S>,
) -> Step
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    let Ok(payload) = serde_json::from_str::<Value>(text) else {
        inner.violation(format!("a payload that is not JSON: {text:?}"));
        return Step::Close(4002, "Decode error");
    };
    let Some(op) = payload.get("op").and_then(Value::as_u64) else {
        inner.violation(format!("a payload without an integer op: {text}"));
        return Step::Close(4002, "Decode error");
    };
    let d = payload.get("d").cloned().unwrap_or(Value::Null);
    let authenticated = inner
        .lock()
        .conns
        .get(&conn_id)
        .is_some_and(|c| c.session.is_some());
    let frames = match op {
        1 => heartbeat(inner, conn_id, &d),
        2 | 6 if authenticated => {
            inner.violation(format!("op {op} on an authenticated connection"));
            return Step::Close(4005, "Already authenticated");
        }
        2 => match identify(inner, conn_id, d, url) {
            Ok(frames) => frames,
            Err(step) => return step,
        },
        6 => match resume(inner, conn_id, &d) {
            Ok(frames) => frames,
            Err(step) => return step,
        },
        3 | 4 | 8 | 31 if !authenticated => {
            inner.violation(format!("op {op} before IDENTIFY: {text}"));
            return Step::Close(4003, "Not authenticated");
        }
        3 | 4 | 8 | 31 => {
            inner.lock().client_payloads.push(payload);
            inner.changed();
            Vec::new()
        }
        _ => {
            inner.violation(format!("unknown or receive-only opcode {op}: {text}"));
            return Step::Close(4001, "Unknown opcode");
        }
    };
    for frame in frames {
        if ws.send(Message::Text(frame)).await.is_err() {
            break;
        }
    }
    Step::Continue
}

fn heartbeat(inner: &Inner, conn_id: u64, d: &Value) -> Vec<String> {
    let violation = {
        let mut state = inner.lock();
        let session = state.conns.get_mut(&conn_id).and_then(|conn| {
            conn.heartbeats += 1;
            conn.session
        });
        let last = session
            .and_then(|i| state.sessions.get_mut(i))
            .map_or(0, |s| {
                s.heartbeats += 1;
                s.seq
            });
        match d {
            Value::Null => None,
            Value::Number(n) if n.as_u64().is_some_and(|n| n <= last) => None,
            other => Some(format!(
                "heartbeat d {other} is not null nor a sequence number sent (last {last})"
            )),
        }
    };
    if let Some(message) = violation {
        inner.violation(message);
    }
    inner.changed();
    if inner.lock().paused {
        return Vec::new();
    }
    vec![json!({"op": 11, "d": null}).to_string()]
}

fn identify(inner: &Inner, conn_id: u64, d: Value, url: &str) -> Result<Vec<String>, Step> {
    let Some(prefixed) = check_token(inner, d.get("token")) else {
        inner.violation("IDENTIFY with a wrong or missing token".to_owned());
        return Err(Step::Close(4004, "Authentication failed"));
    };
    let properties = d.get("properties");
    let missing: Vec<&str> = ["os", "browser", "device"]
        .into_iter()
        .filter(|k| {
            !properties
                .and_then(|p| p.get(k))
                .is_some_and(Value::is_string)
        })
        .collect();
    if !missing.is_empty() {
        inner.violation(format!("IDENTIFY properties lack {missing:?}"));
        return Err(Step::Close(4002, "Decode error"));
    }
    if !d.get("intents").is_some_and(Value::is_u64) {
        inner.violation("IDENTIFY without integer intents".to_owned());
        return Err(Step::Close(4002, "Decode error"));
    }
    let shard = match d.get("shard") {
        None | Some(Value::Null) => (0, 1),
        Some(shard) => match shard.as_array().map(Vec::as_slice) {
            Some([id, count]) => match (id.as_u64(), count.as_u64()) {
                (Some(id), Some(count)) if id < count => (id, count),
                _ => {
                    inner.violation(format!("IDENTIFY shard {shard} is invalid"));
                    return Err(Step::Close(4010, "Invalid shard"));
                }
            },
            _ => {
                inner.violation(format!("IDENTIFY shard {shard} is not [id, count]"));
                return Err(Step::Close(4010, "Invalid shard"));
            }
        },
    };
    if let Some(threshold) = d.get("large_threshold")
        && !threshold.as_u64().is_some_and(|t| (50..=250).contains(&t))
    {
        inner.violation(format!(
            "IDENTIFY large_threshold {threshold} not in 50..=250"
        ));
    }
    if let Some(compress) = d.get("compress")
        && !compress.is_boolean()
    {
        inner.violation(format!("IDENTIFY compress {compress} is not a boolean"));
    }
    let mut state = inner.lock();
    let index = state.sessions.len();
    let id = session_id(index);
    let ready = json!({
        "v": 10,
        "user": inner.user,
        "guilds": [],
        "session_id": id,
        "resume_gateway_url": url,
        "shard": [shard.0, shard.1],
        "application": {"id": inner.application_id.to_string(), "flags": 0},
    });
    state.sessions.push(Session {
        id,
        identify: d,
        shard,
        token_had_bot_prefix: prefixed,
        conn: Some(conn_id),
        resumable: true,
        heartbeats: 0,
        resumes: 0,
        seq: 1,
        events: Vec::new(),
    });
    if let Some(conn) = state.conns.get_mut(&conn_id) {
        conn.session = Some(index);
        let heartbeats = conn.heartbeats;
        state.sessions[index].heartbeats = heartbeats;
    }
    state.dispatched.push((index as u64, "READY".to_owned(), 1));
    drop(state);
    inner.changed();
    Ok(vec![dispatch_frame("READY", 1, &ready)])
}

fn resume(inner: &Inner, conn_id: u64, d: &Value) -> Result<Vec<String>, Step> {
    if check_token(inner, d.get("token")).is_none() {
        inner.violation("RESUME with a wrong or missing token".to_owned());
        return Err(Step::Close(4004, "Authentication failed"));
    }
    let (Some(session_id), Some(seq)) = (
        d.get("session_id").and_then(Value::as_str),
        d.get("seq").and_then(Value::as_u64),
    ) else {
        inner.violation(format!("RESUME without session_id and integer seq: {d}"));
        return Err(Step::Close(4002, "Decode error"));
    };
    let mut state = inner.lock();
    let Some(index) = state
        .sessions
        .iter()
        .position(|s| s.id == session_id && s.resumable)
    else {
        return Ok(vec![json!({"op": 9, "d": false}).to_string()]);
    };
    if seq > state.sessions[index].seq {
        let last = state.sessions[index].seq;
        drop(state);
        inner.violation(format!(
            "RESUME with seq {seq} beyond the last sent, {last}"
        ));
        return Err(Step::Close(4007, "Invalid seq"));
    }
    if let Some(old) = state.sessions[index].conn
        && old != conn_id
    {
        state.detach(old);
        if let Some(conn) = state.conns.get(&old) {
            let _ = conn.tx.send(Out::Drop);
        }
    }
    let heartbeats = state.conns.get_mut(&conn_id).map_or(0, |conn| {
        conn.session = Some(index);
        conn.heartbeats
    });
    let session = &mut state.sessions[index];
    session.conn = Some(conn_id);
    session.heartbeats += heartbeats;
    session.resumes += 1;
    let mut frames: Vec<String> = session
        .events
        .iter()
        .filter(|(s, _, _)| *s > seq)
        .map(|(s, event, data)| dispatch_frame(event, *s, data))
        .collect();
    session.seq += 1;
    let resumed = session.seq;
    frames.push(dispatch_frame("RESUMED", resumed, &json!({})));
    state
        .dispatched
        .push((index as u64, "RESUMED".to_owned(), resumed));
    drop(state);
    inner.changed();
    Ok(frames)
}
