//! What people do: slash commands, button presses, autocomplete; the interaction payloads as
//! Discord builds them, and their delivery (gateway or a signed POST to the bot's endpoint).

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value, json};

use super::server::{initial_response, message_json, thread_json};
use super::state::{
    DcChannel, DcUser, Ended, InterState, InteractionRecord, RequestRecord, State, Via,
    snowflake_time, user_json,
};
use super::{APPLICATION_ID, FakeDiscord, Inner};

const ATTACHMENT_SIZE_LIMIT: u64 = 26_214_400;

impl Inner {
    /// Registers an interaction and builds its payload.
    #[allow(clippy::too_many_arguments)]
    fn new_interaction(
        &self,
        s: &mut State,
        kind: u8,
        channel: &DcChannel,
        user: &DcUser,
        data: Option<Value>,
        message: Option<Value>,
        source_message: Option<u64>,
    ) -> Result<(u64, Value), String> {
        let id = s.snowflake();
        let token = format!(
            "aW50ZXJhY3Rpb246{id}:{}",
            super::hex(&id.wrapping_mul(0x9E37_79B9_7F4A_7C15).to_le_bytes())
        );
        let perms = match channel.guild_id {
            Some(g) => *s
                .guilds
                .get(&g)
                .ok_or("unknown guild")?
                .members
                .get(&user.id)
                .ok_or_else(|| format!("{} is not a member of the guild", user.username))?,
            None => super::DEFAULT_MEMBER_PERMISSIONS,
        };
        let mut p = json!({
            "id": id.to_string(),
            "application_id": APPLICATION_ID.to_string(),
            "type": kind,
            "channel_id": channel.id.to_string(),
            "token": token,
            "version": 1,
            "app_permissions": s.bot_permissions(channel.id).to_string(),
            "locale": "en-US",
            "entitlements": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        });
        if let Some(d) = data {
            p["data"] = d;
        }
        if let Some(m) = message {
            p["message"] = m;
        }
        let uj = user_json(user, false);
        match channel.guild_id {
            Some(g) => {
                p["guild_id"] = json!(g.to_string());
                p["guild"] = json!({"id": g.to_string(), "locale": "en-US", "features": []});
                p["guild_locale"] = json!("en-US");
                let thread = s
                    .channels
                    .get(&channel.id)
                    .and_then(|c| c.thread.as_ref().map(|t| thread_json(s, c, t)));
                p["channel"] = match thread {
                    // A thread: the thread channel object (type 11 or 12, parent_id,
                    // thread_metadata...), without the bot's thread member.
                    Some(mut t) => {
                        if let Some(o) = t.as_object_mut() {
                            o.remove("member");
                        }
                        t["permissions"] = json!(perms.to_string());
                        t
                    }
                    None => json!({
                        "id": channel.id.to_string(),
                        "type": 0,
                        "name": channel.name,
                        "guild_id": g.to_string(),
                        "flags": 0,
                        "position": 0,
                        "parent_id": null,
                        "nsfw": false,
                        "topic": null,
                        "last_message_id": null,
                        "rate_limit_per_user": 0,
                        "permissions": perms.to_string(),
                    }),
                };
                p["member"] = member_json(&uj, perms, g);
                p["authorizing_integration_owners"] = json!({"0": g.to_string()});
                p["context"] = json!(0);
            }
            None => {
                p["channel"] = json!({
                    "id": channel.id.to_string(),
                    "type": 1,
                    "flags": 0,
                    "last_message_id": null,
                    "recipients": [uj.clone()],
                });
                p["user"] = uj;
                p["authorizing_integration_owners"] = json!({"0": "0"});
                p["context"] = json!(1);
            }
        }
        s.interactions.push(InterState {
            record: InteractionRecord {
                id,
                kind,
                user_id: user.id,
                channel_id: channel.id,
                sent_at: Instant::now(),
                initial: None,
                later: Vec::new(),
            },
            token,
            guild_id: channel.guild_id,
            source_message,
            original: None,
            deferred_pending: false,
            autocomplete: None,
            answered_at: None,
            awaiting_http: false,
        });
        Ok((id, p))
    }
}

fn member_json(user: &Value, perms: u64, guild: u64) -> Value {
    json!({
        "user": user,
        "roles": [],
        "permissions": perms.to_string(),
        "nick": null,
        "avatar": null,
        "banner": null,
        "joined_at": snowflake_time(guild),
        "premium_since": null,
        "flags": 0,
        "deaf": false,
        "mute": false,
        "pending": false,
        "communication_disabled_until": null,
    })
}

fn unix_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl FakeDiscord {
    /// Finds a registered chat-input command visible in `channel`.
    fn find_command(&self, channel: &DcChannel, name: &str) -> Result<Value, String> {
        let s = self.inner.lock();
        let mut found = None;
        if let Some(g) = channel.guild_id {
            found = s
                .commands
                .get(&Some(g))
                .and_then(|l| l.iter().find(|c| c["name"] == name && c["type"] == 1))
                .cloned();
        }
        if found.is_none() {
            found = s
                .commands
                .get(&None)
                .and_then(|l| l.iter().find(|c| c["name"] == name && c["type"] == 1))
                .cloned();
        }
        let cmd = found.ok_or_else(|| format!("/{name} is not a registered command here"))?;
        if channel.guild_id.is_none() {
            let dm_ok = match cmd["contexts"].as_array() {
                Some(ctx) => ctx.iter().any(|c| c == 1),
                None => cmd["dm_permission"].as_bool() != Some(false),
            };
            if !dm_ok {
                return Err(format!("/{name} is not available in DMs"));
            }
        } else if let Some(ctx) = cmd["contexts"].as_array()
            && !ctx.iter().any(|c| c == 0)
        {
            return Err(format!("/{name} is not available in guilds"));
        }
        Ok(cmd)
    }

    fn member_permissions(&self, channel: &DcChannel, user: &DcUser) -> Result<u64, String> {
        match channel.guild_id {
            Some(g) => self
                .inner
                .lock()
                .guilds
                .get(&g)
                .and_then(|g| g.members.get(&user.id).copied())
                .ok_or_else(|| format!("{} is not a member of the guild", user.username)),
            None => Ok(super::DEFAULT_MEMBER_PERMISSIONS),
        }
    }

    /// Checks that the channel is usable by a person (for a thread: its parent exists, it is
    /// not archived, for application commands and buttons alike, and a private one is only
    /// usable by MANAGE_THREADS members, as thread membership is not modelled).
    fn channel_usable(&self, channel: &DcChannel, user: &DcUser) -> Result<(), String> {
        let s = self.inner.lock();
        let gone = || Err("the channel does not exist".into());
        let Some(c) = s.channels.get(&channel.id).filter(|c| !c.deleted) else {
            return gone();
        };
        let Some(t) = &c.thread else {
            return Ok(());
        };
        if s.channels.get(&t.parent_id).is_none_or(|p| p.deleted) {
            return gone();
        }
        if t.archived {
            return Err(
                "the thread is archived: people cannot use commands or buttons there".into(),
            );
        }
        let perms = c
            .guild_id
            .and_then(|g| s.guilds.get(&g))
            .and_then(|g| g.members.get(&user.id).copied())
            .unwrap_or(0);
        if t.kind == 12 && !super::state::allows(perms, super::MANAGE_THREADS) {
            return Err(format!(
                "{} does not see the private thread (only its members and MANAGE_THREADS do)",
                user.username
            ));
        }
        Ok(())
    }

    /// `user` runs `/command` (`"game sub"` for a subcommand) with options in `channel`, as the
    /// Discord client would: only a registered command, options checked against its definition.
    /// Returns the interaction id.
    ///
    /// # Errors
    ///
    /// What the Discord client would refuse, or a failed delivery.
    pub async fn slash(
        &self,
        channel: &DcChannel,
        user: &DcUser,
        command: &str,
        options: &[(&str, Value)],
    ) -> Result<u64, String> {
        self.channel_usable(channel, user)?;
        let mut words = command.trim_start_matches('/').split_whitespace();
        let name = words.next().ok_or("no command name")?;
        let cmd = self.find_command(channel, name)?;
        let perms = self.member_permissions(channel, user)?;
        if let Some(req) = cmd["default_member_permissions"]
            .as_str()
            .and_then(|p| p.parse::<u64>().ok())
            .or_else(|| cmd["default_member_permissions"].as_u64())
            && perms & 8 == 0
            && perms & req != req
        {
            return Err(format!("{} may not use /{name}", user.username));
        }
        let path: Vec<&str> = words.collect();
        let mut resolved = Resolved::default();
        let built = self.build_options(&cmd, &path, options, None, &mut resolved)?;
        let mut data = json!({
            "id": cmd["id"],
            "name": name,
            "type": 1,
            "options": built,
        });
        if let Some(g) = cmd["guild_id"].as_str() {
            data["guild_id"] = json!(g);
        }
        if let Some(r) = resolved.to_json(self, channel.guild_id) {
            data["resolved"] = r;
        }
        let (id, payload) = {
            let mut s = self.inner.lock();
            self.inner
                .new_interaction(&mut s, 2, channel, user, Some(data), None, None)?
        };
        self.deliver(id, channel.guild_id, payload).await?;
        Ok(id)
    }

    /// Builds the option list of `cmd` following the subcommand `path`.
    fn build_options(
        &self,
        cmd: &Value,
        path: &[&str],
        options: &[(&str, Value)],
        focused: Option<&str>,
        resolved: &mut Resolved,
    ) -> Result<Vec<Value>, String> {
        let defs = cmd["options"].as_array().cloned().unwrap_or_default();
        if let Some((first, rest)) = path.split_first() {
            let sub = defs
                .iter()
                .find(|o| o["name"] == *first && (o["type"] == 1 || o["type"] == 2))
                .ok_or_else(|| format!("no subcommand {first}"))?;
            let inner = self.build_options(sub, rest, options, focused, resolved)?;
            return Ok(vec![
                json!({"name": first, "type": sub["type"], "options": inner}),
            ]);
        }
        if defs.iter().any(|o| o["type"] == 1 || o["type"] == 2) {
            return Err("the command needs a subcommand".into());
        }
        let mut out = Vec::new();
        for (name, value) in options {
            let def = defs
                .iter()
                .find(|o| o["name"] == *name)
                .ok_or_else(|| format!("the command has no option {name}"))?;
            if out.iter().any(|o: &Value| o["name"] == *name) {
                return Err(format!("the option {name} is given twice"));
            }
            let ty = def["type"].as_u64().unwrap_or(0);
            if focused == Some(*name) {
                if def["autocomplete"].as_bool() != Some(true) {
                    return Err(format!("the option {name} has no autocomplete"));
                }
                let text = match value {
                    Value::String(t) => t.clone(),
                    other => other.to_string(),
                };
                out.push(json!({"name": name, "type": ty, "value": text, "focused": true}));
                continue;
            }
            let v = check_option_value(def, value)?;
            if ty == 6 || ty == 9 {
                let id = v.as_str().and_then(|t| t.parse::<u64>().ok()).unwrap_or(0);
                if !self.inner.lock().users.contains_key(&id) {
                    return Err(format!("{id} is not a known user"));
                }
                resolved.users.push(id);
            }
            if ty == 7 {
                let id = v.as_str().and_then(|t| t.parse::<u64>().ok()).unwrap_or(0);
                if !self.inner.lock().channels.contains_key(&id) {
                    return Err(format!("{id} is not a known channel"));
                }
                resolved.channels.push(id);
            }
            out.push(json!({"name": name, "type": ty, "value": v}));
        }
        if focused.is_none() {
            for d in &defs {
                if d["required"].as_bool() == Some(true)
                    && !options.iter().any(|(n, _)| d["name"] == *n)
                {
                    return Err(format!(
                        "the required option {} is missing",
                        d["name"].as_str().unwrap_or_default()
                    ));
                }
            }
        }
        Ok(out)
    }

    /// `user` presses the button `custom_id` of message `message_id`.
    ///
    /// # Errors
    ///
    /// When the message or an enabled button is not there for the person, or delivery fails.
    pub async fn press(
        &self,
        channel: &DcChannel,
        user: &DcUser,
        message_id: u64,
        custom_id: &str,
    ) -> Result<u64, String> {
        self.channel_usable(channel, user)?;
        self.member_permissions(channel, user)?;
        let (id, payload) = {
            let mut s = self.inner.lock();
            let m = s
                .messages
                .get(&message_id)
                .filter(|m| m.channel_id == channel.id && !m.deleted)
                .ok_or_else(|| format!("no message {message_id} in the channel"))?;
            if m.ephemeral_for.is_some_and(|u| u != user.id) {
                return Err(format!(
                    "{} cannot see that ephemeral message",
                    user.username
                ));
            }
            if m.is_loading() {
                return Err("the message is still loading".into());
            }
            let button = m
                .components
                .iter()
                .flat_map(|r| r["components"].as_array().cloned().unwrap_or_default())
                .find(|b| b["type"] == 2 && b["custom_id"] == custom_id)
                .ok_or_else(|| format!("no button {custom_id:?} on the message"))?;
            if button["disabled"].as_bool() == Some(true) {
                return Err(format!("the button {custom_id:?} is disabled"));
            }
            let message = message_json(&s, message_id);
            let data = json!({"custom_id": custom_id, "component_type": 2});
            self.inner.new_interaction(
                &mut s,
                3,
                channel,
                user,
                Some(data),
                Some(message),
                Some(message_id),
            )?
        };
        self.deliver(id, channel.guild_id, payload).await?;
        Ok(id)
    }

    /// `user` types in option `focused` of `/command`; the bot's choices (waits up to 3 s).
    ///
    /// # Errors
    ///
    /// When the command or option is not there, delivery fails or no answer comes.
    pub async fn autocomplete(
        &self,
        channel: &DcChannel,
        user: &DcUser,
        command: &str,
        options: &[(&str, Value)],
        focused: &str,
    ) -> Result<Vec<(String, Value)>, String> {
        self.channel_usable(channel, user)?;
        let mut words = command.trim_start_matches('/').split_whitespace();
        let name = words.next().ok_or("no command name")?;
        let cmd = self.find_command(channel, name)?;
        let path: Vec<&str> = words.collect();
        if !options.iter().any(|(n, _)| *n == focused) {
            return Err(format!(
                "the focused option {focused} is not among the options"
            ));
        }
        let mut resolved = Resolved::default();
        let built = self.build_options(&cmd, &path, options, Some(focused), &mut resolved)?;
        let mut data = json!({"id": cmd["id"], "name": name, "type": 1, "options": built});
        if let Some(g) = cmd["guild_id"].as_str() {
            data["guild_id"] = json!(g);
        }
        let (id, payload) = {
            let mut s = self.inner.lock();
            self.inner
                .new_interaction(&mut s, 4, channel, user, Some(data), None, None)?
        };
        self.deliver(id, channel.guild_id, payload).await?;
        let got = self
            .wait_for(Duration::from_secs(3), |f| {
                f.inner
                    .lock()
                    .interactions
                    .iter()
                    .find(|i| i.record.id == id)
                    .and_then(|i| i.autocomplete.clone())
            })
            .await;
        got.map_err(|_| "no autocomplete answer within 3 s".to_owned())
    }

    /// Sends a signed PING to `url`, as the developer portal does when the endpoint is saved;
    /// the answer's status and body.
    pub async fn ping_endpoint(&self, url: &str) -> (u16, String) {
        let (id, token) = {
            let mut s = self.inner.lock();
            let id = s.snowflake();
            let token = format!("aW50ZXJhY3Rpb246ping{id}");
            s.interactions.push(InterState {
                record: InteractionRecord {
                    id,
                    kind: 1,
                    user_id: 0,
                    channel_id: 0,
                    sent_at: Instant::now(),
                    initial: None,
                    later: Vec::new(),
                },
                token: token.clone(),
                guild_id: None,
                source_message: None,
                original: None,
                deferred_pending: false,
                autocomplete: None,
                answered_at: None,
                awaiting_http: false,
            });
            (id, token)
        };
        let payload = json!({
            "id": id.to_string(),
            "application_id": APPLICATION_ID.to_string(),
            "type": 1,
            "token": token,
            "version": 1,
            "user": null,
            "entitlements": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        });
        match self.post_signed(url, &payload).await {
            Ok((status, ct, bytes)) => {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                if status == 200 {
                    self.take_http_answer(id, &token, &ct, bytes).await;
                }
                (status, text)
            }
            Err(e) => (0, e),
        }
    }

    /// POSTs `body` to `url` with these headers; the status and body of the answer (0 and the
    /// error when there is none).
    pub async fn post_raw(&self, url: &str, headers: &[(&str, &str)], body: &str) -> (u16, String) {
        let mut req = self.inner.http.post(url).body(body.to_owned());
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        match req.send().await {
            Ok(r) => {
                let status = r.status().as_u16();
                (status, r.text().await.unwrap_or_default())
            }
            Err(e) => (0, e.to_string()),
        }
    }

    /// POSTs a signed payload; the answer's status, content type and bytes.
    async fn post_signed(
        &self,
        url: &str,
        payload: &Value,
    ) -> Result<(u16, String, Vec<u8>), String> {
        let body = payload.to_string();
        let ts = unix_secs().to_string();
        let sig = self.sign(&ts, &body);
        let r = self
            .inner
            .http
            .post(url)
            .header("Content-Type", "application/json")
            .header("X-Signature-Ed25519", sig)
            .header("X-Signature-Timestamp", ts)
            .header(
                "User-Agent",
                "Discord-Interactions/1.0 (+https://discord.com)",
            )
            .body(body)
            .timeout(Duration::from_secs(5))
            .send()
            .await
            .map_err(|e| e.to_string())?;
        let status = r.status().as_u16();
        let ct = r
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let bytes = r.bytes().await.map(|b| b.to_vec()).unwrap_or_default();
        Ok((status, ct, bytes))
    }

    /// Takes an HTTP answer's body (JSON, or multipart with `payload_json` and files) as the
    /// initial response; a wrong one is logged as a violation (method `ANSWER`).
    async fn take_http_answer(&self, id: u64, token: &str, content_type: &str, bytes: Vec<u8>) {
        let at = Instant::now();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let body = text.as_str();
        let mut refused_by_state = false;
        let parsed: Result<(Value, Vec<super::server::Upload>), String> =
            if content_type.starts_with("multipart/form-data") {
                let req = axum::http::Request::builder()
                    .method("POST")
                    .header("content-type", content_type)
                    .body(axum::body::Body::from(bytes))
                    .map_err(|e| e.to_string());
                match req {
                    Ok(req) => super::server::read_multipart(req)
                        .await
                        .map_err(|e| e.body().to_string()),
                    Err(e) => Err(e),
                }
            } else {
                serde_json::from_str::<Value>(body)
                    .map(|v| (v, Vec::new()))
                    .map_err(|_| format!("the answer is not JSON: {body:.200}"))
            };
        let result = match parsed {
            Err(e) => Err(e),
            Ok((v, uploads)) => {
                let schema = self
                    .inner
                    .spec
                    .operation(
                        "/interactions/{interaction_id}/{interaction_token}/callback",
                        "post",
                    )
                    .and_then(|op| self.inner.spec.request_schema(op))
                    .cloned();
                let spec_ok = match schema {
                    Some(sch) => self.inner.spec.check(&sch, &v).map_err(|e| e.join("; ")),
                    None => Ok(()),
                };
                match spec_ok {
                    Err(e) => Err(e),
                    Ok(()) => initial_response(&self.inner, id, token, &v, &uploads, Via::HttpBody)
                        .map_err(|e| {
                            // A locked thread's refusal is the platform's state, not the
                            // answer's fault.
                            refused_by_state = e.code == 50083;
                            e.body().to_string()
                        }),
                }
            }
        };
        let (status, ended, summary) = match result {
            Ok(()) => (200, Ended::Ok, body.chars().take(300).collect()),
            Err(e) if refused_by_state => (400, Ended::Refused, format!("{body:.300} => {e}")),
            Err(e) => (400, Ended::Violation, format!("{body:.300} => {e}")),
        };
        self.inner.lock().requests.push(RequestRecord {
            method: "ANSWER".into(),
            path: format!("interaction {id}"),
            status,
            ended,
            body_summary: summary,
            at,
        });
        self.inner.bump();
    }

    async fn deliver(&self, id: u64, guild: Option<u64>, payload: Value) -> Result<(), String> {
        self.check_payload(&payload);
        let endpoint = self.inner.lock().http_endpoint.clone();
        match endpoint {
            None => {
                if self
                    .inner
                    .gateway
                    .dispatch(guild, "INTERACTION_CREATE", payload)
                {
                    self.inner.bump();
                    Ok(())
                } else {
                    self.forget(id);
                    Err("no gateway session took the interaction".into())
                }
            }
            Some(url) => {
                let token = payload["token"].as_str().unwrap_or_default().to_owned();
                self.set_awaiting_http(id, true);
                let answer = self.post_signed(&url, &payload).await;
                // The bot may call the webhook routes before its HTTP answer is read here: they
                // wait until it is (see `server::handle`).
                let result = match answer {
                    Ok((200, ct, bytes)) => {
                        self.take_http_answer(id, &token, &ct, bytes).await;
                        Ok(())
                    }
                    Ok((status, _, bytes)) => {
                        let body = String::from_utf8_lossy(&bytes);
                        self.inner.lock().requests.push(RequestRecord {
                            method: "ANSWER".into(),
                            path: format!("interaction {id}"),
                            status,
                            ended: Ended::Violation,
                            body_summary: format!("the endpoint answered {status}: {body:.300}"),
                            at: Instant::now(),
                        });
                        self.inner.bump();
                        Ok(())
                    }
                    Err(e) => {
                        self.forget(id);
                        Err(format!("the interactions endpoint failed: {e}"))
                    }
                };
                self.set_awaiting_http(id, false);
                self.inner.bump();
                result
            }
        }
    }

    fn set_awaiting_http(&self, id: u64, on: bool) {
        if let Some(i) = self
            .inner
            .lock()
            .interactions
            .iter_mut()
            .find(|i| i.record.id == id)
        {
            i.awaiting_http = on;
        }
    }

    fn forget(&self, id: u64) {
        self.inner.lock().interactions.retain(|i| i.record.id != id);
    }

    /// The payload's message, user and thread channel objects against the spec (self-check).
    fn check_payload(&self, p: &Value) {
        if p["channel"]["type"] == 11 || p["channel"]["type"] == 12 {
            self.inner.check_thread(&p["channel"]);
        }
        if let Some(m) = p.get("message")
            && let Some(schema) = self.inner.spec.schema("MessageResponse").cloned()
        {
            self.inner.check_own(&schema, m, "interaction message");
        }
        if let Some(u) = p.get("user").filter(|u| u.is_object())
            && let Some(schema) = self.inner.spec.schema("UserResponse").cloned()
        {
            self.inner.check_own(&schema, u, "interaction user");
        }
    }
}

/// Checks an option value against its definition as the Discord client does; the value to send.
fn check_option_value(def: &Value, value: &Value) -> Result<Value, String> {
    let name = def["name"].as_str().unwrap_or_default();
    let ty = def["type"].as_u64().unwrap_or(0);
    let v = match ty {
        3 => {
            let t = value.as_str().ok_or_else(|| format!("{name} takes text"))?;
            let n = t.chars().count() as u64;
            if def["min_length"].as_u64().is_some_and(|m| n < m)
                || def["max_length"].as_u64().is_some_and(|m| n > m)
                || n == 0
            {
                return Err(format!("{name}: the text length is out of bounds"));
            }
            json!(t)
        }
        4 => {
            let x = value
                .as_i64()
                .or_else(|| value.as_str().and_then(|t| t.parse().ok()))
                .ok_or_else(|| format!("{name} takes an integer"))?;
            if x.unsigned_abs() > (1 << 53) {
                return Err(format!("{name}: out of range"));
            }
            json!(x)
        }
        10 => json!(
            value
                .as_f64()
                .or_else(|| value.as_str().and_then(|t| t.parse().ok()))
                .ok_or_else(|| format!("{name} takes a number"))?
        ),
        5 => json!(
            value
                .as_bool()
                .ok_or_else(|| format!("{name} takes true or false"))?
        ),
        6..=9 => {
            let id = value
                .as_u64()
                .or_else(|| {
                    value
                        .as_str()
                        .and_then(|t| t.trim_matches(|c| "<@!#&>".contains(c)).parse().ok())
                })
                .ok_or_else(|| format!("{name} takes an id"))?;
            json!(id.to_string())
        }
        _ => {
            return Err(format!(
                "{name}: option type {ty} is not supported by the fake"
            ));
        }
    };
    if let Some(n) = v.as_f64()
        && (ty == 4 || ty == 10)
        && (def["min_value"].as_f64().is_some_and(|m| n < m)
            || def["max_value"].as_f64().is_some_and(|m| n > m))
    {
        return Err(format!("{name}: {n} is out of bounds"));
    }
    if let Some(choices) = def["choices"].as_array()
        && !choices.is_empty()
        && !choices.iter().any(|c| {
            c["value"] == v || (c["value"].as_f64().is_some() && c["value"].as_f64() == v.as_f64())
        })
    {
        return Err(format!("{name}: {v} is not one of the choices"));
    }
    Ok(v)
}

#[derive(Default)]
struct Resolved {
    users: Vec<u64>,
    channels: Vec<u64>,
}

impl Resolved {
    fn to_json(&self, fake: &FakeDiscord, guild: Option<u64>) -> Option<Value> {
        if self.users.is_empty() && self.channels.is_empty() {
            return None;
        }
        let s = fake.inner.lock();
        let mut users = Map::new();
        let mut members = Map::new();
        for id in &self.users {
            if let Some(u) = s.users.get(id) {
                users.insert(id.to_string(), user_json(u, false));
                if let Some(g) = guild
                    && let Some(perms) = s.guilds.get(&g).and_then(|g| g.members.get(id))
                {
                    let mut m = member_json(&Value::Null, *perms, g);
                    if let Some(o) = m.as_object_mut() {
                        o.remove("user");
                        o.remove("deaf");
                        o.remove("mute");
                    }
                    members.insert(id.to_string(), m);
                }
            }
        }
        let mut channels = Map::new();
        for id in &self.channels {
            if let Some(c) = s.channels.get(id) {
                let mut v = json!({
                    "id": id.to_string(),
                    "name": c.name,
                    "type": c.kind(),
                    "permissions": super::DEFAULT_MEMBER_PERMISSIONS.to_string(),
                });
                if let Some(t) = &c.thread {
                    let full = thread_json(&s, c, t);
                    v["parent_id"] = full["parent_id"].clone();
                    v["thread_metadata"] = full["thread_metadata"].clone();
                }
                channels.insert(id.to_string(), v);
            }
        }
        let mut r = json!({});
        if !users.is_empty() {
            r["users"] = Value::Object(users);
        }
        if !members.is_empty() {
            r["members"] = Value::Object(members);
        }
        if !channels.is_empty() {
            r["channels"] = Value::Object(channels);
        }
        Some(r)
    }
}
