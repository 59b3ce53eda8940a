//! The fake Discord gateway: a WebSocket server that speaks the gateway protocol (HELLO,
//! IDENTIFY, READY, heartbeats, RESUME) and dispatches events to the sessions.

use std::time::Duration;

use serde_json::Value;

/// The fake gateway (interface agreed before it is written; see the helper's task).
#[derive(Debug)]
pub struct FakeGateway {}

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
}

impl FakeGateway {
    /// Starts on 127.0.0.1 with a free port. `token` is the bot token IDENTIFY must carry
    /// (without `Bot `), `user` the bot's user object for READY, `application_id` the
    /// application's id for READY's `application`.
    pub async fn start(token: &str, application_id: u64, user: Value) -> std::io::Result<Self> {
        let _ = (token, application_id, user);
        todo!()
    }

    /// `ws://127.0.0.1:PORT` (serenity appends `?v=10`).
    pub fn url(&self) -> String {
        todo!()
    }

    /// Sends a dispatch (op 0) with the next sequence number to the READY session of the shard
    /// that owns `guild_id` (`(guild_id >> 22) % num_shards`; shard 0 for DMs: `None`). Returns
    /// whether a session took it.
    pub fn dispatch(&self, guild_id: Option<u64>, event: &str, data: Value) -> bool {
        let _ = (guild_id, event, data);
        todo!()
    }

    /// Every session so far.
    pub fn sessions(&self) -> Vec<SessionInfo> {
        todo!()
    }

    /// Waits until `count` sessions are READY and open.
    pub async fn wait_for_ready(&self, count: usize, timeout: Duration) -> Result<(), String> {
        let _ = (count, timeout);
        todo!()
    }

    /// Protocol errors the client made (bad IDENTIFY, wrong token, heartbeats missed...).
    pub fn violations(&self) -> Vec<String> {
        todo!()
    }
}
