//! The axum router of the REST API: path, method and auth, injected failures, rate limits, the
//! spec check of the body, the route, the check of the answer, the request log.

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{HeaderValue, StatusCode};
use axum::response::Response;
use serde_json::{Value, json};

use super::checks::{self, ApiError, invalid_form};
use super::spec::{Matched, short};
use super::state::{
    ChannelRec, DcAttachment, DcMessage, Ended, Failure, RequestRecord, State as World, ThreadRec,
    Via, iso8601, now_ms, snowflake_time, user_json,
};
use super::{
    APPLICATION_ID, BOT_USER_ID, CREATE_PRIVATE_THREADS, CREATE_PUBLIC_THREADS, Inner,
    MANAGE_THREADS, SEND_MESSAGES, SEND_MESSAGES_IN_THREADS, TOKEN, VIEW_CHANNEL,
};

/// An uploaded file part.
#[derive(Debug, Clone)]
pub(crate) struct Upload {
    pub field: String,
    pub filename: String,
    pub content_type: String,
    pub bytes: Vec<u8>,
}

pub(crate) fn router(inner: Arc<Inner>) -> Router {
    Router::new().fallback(handle).with_state(inner)
}

/// A successful answer: status, body (None for 204), extra headers.
pub(crate) struct Answer {
    pub status: u16,
    pub body: Option<Value>,
    pub headers: Vec<(String, String)>,
}

impl Answer {
    fn json(body: Value) -> Self {
        Answer {
            status: 200,
            body: Some(body),
            headers: Vec::new(),
        }
    }

    fn empty() -> Self {
        Answer {
            status: 204,
            body: None,
            headers: Vec::new(),
        }
    }
}

fn json_response(status: u16, body: &Value, headers: &[(String, String)]) -> Response {
    let mut r = Response::new(Body::from(body.to_string()));
    *r.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    r.headers_mut()
        .insert("content-type", HeaderValue::from_static("application/json"));
    for (k, v) in headers {
        if let (Ok(name), Ok(value)) = (
            axum::http::HeaderName::from_bytes(k.as_bytes()),
            HeaderValue::from_str(v),
        ) {
            r.headers_mut().insert(name, value);
        }
    }
    r
}

fn unix_now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

struct Ctx {
    method: String,
    path: String,
    summary: String,
    at: Instant,
}

impl Inner {
    fn log(&self, ctx: &Ctx, status: u16, ended: Ended, error: Option<&str>) {
        let mut summary = ctx.summary.clone();
        if let Some(e) = error {
            summary = format!("{summary} => {e}");
        }
        self.lock().requests.push(RequestRecord {
            method: ctx.method.clone(),
            path: ctx.path.clone(),
            status,
            ended,
            body_summary: summary,
            at: ctx.at,
        });
        self.bump();
    }

    fn refuse(&self, ctx: &Ctx, err: &ApiError) -> Response {
        self.log(ctx, err.status, err.ended, Some(&err.body().to_string()));
        json_response(err.status, &err.body(), &[])
    }
}

#[allow(clippy::too_many_lines)]
async fn handle(State(inner): State<Arc<Inner>>, req: Request) -> Response {
    let at = Instant::now();
    let method = req.method().as_str().to_owned();
    let full_path = req.uri().path().to_owned();
    let headers = req.headers().clone();
    let mut ctx = Ctx {
        method: method.clone(),
        path: full_path.clone(),
        summary: String::new(),
        at,
    };
    let Some(path) = full_path.strip_prefix("/api/v10").map(str::to_owned) else {
        return inner.refuse(&ctx, &ApiError::violation(404, 0, "404: Not Found"));
    };
    ctx.path.clone_from(&path);
    let Some(matched) = inner.spec.match_path(&path) else {
        return inner.refuse(&ctx, &ApiError::violation(404, 0, "404: Not Found"));
    };
    let Some(op) = inner
        .spec
        .operation(&matched.template, &method.to_lowercase())
        .cloned()
    else {
        return inner.refuse(
            &ctx,
            &ApiError::violation(405, 0, "405: Method Not Allowed"),
        );
    };
    let token_route = matched
        .template
        .starts_with("/webhooks/{webhook_id}/{webhook_token}")
        || matched.template.starts_with("/interactions/");
    if !token_route {
        let auth = headers
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        if auth != format!("Bot {TOKEN}") {
            return inner.refuse(&ctx, &ApiError::violation(401, 0, "401: Unauthorized"));
        }
    }

    // The body.
    let content_type = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let (body, uploads) = if content_type.starts_with("multipart/form-data") {
        match read_multipart(req).await {
            Ok(x) => x,
            Err(e) => return inner.refuse(&ctx, &e),
        }
    } else {
        let bytes = axum::body::to_bytes(req.into_body(), 64 << 20)
            .await
            .unwrap_or_default();
        if bytes.is_empty() {
            (Value::Null, Vec::new())
        } else {
            match serde_json::from_slice::<Value>(&bytes) {
                Ok(v) => (v, Vec::new()),
                Err(_) => {
                    ctx.summary = String::from_utf8_lossy(&bytes).chars().take(200).collect();
                    return inner.refuse(
                        &ctx,
                        &ApiError::violation(400, 50109, "The request body contains invalid JSON."),
                    );
                }
            }
        }
    };
    ctx.summary = summarize(&body, &uploads);

    // A webhook call for an interaction whose signed POST the fake is still reading the answer
    // of waits for it (the bot may answer and call at once).
    if matched
        .template
        .starts_with("/webhooks/{webhook_id}/{webhook_token}")
        && let Some(token) = matched.params.get("webhook_token")
    {
        let mut rx = inner.changed.subscribe();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(4);
        loop {
            let waiting = inner
                .lock()
                .interactions
                .iter()
                .any(|i| &i.token == token && i.awaiting_http);
            if !waiting || tokio::time::Instant::now() >= deadline {
                break;
            }
            let _ = tokio::time::timeout(Duration::from_millis(50), rx.changed()).await;
        }
    }

    // Injected failures.
    let failure = {
        let mut s = inner.lock();
        let pos = s
            .failures
            .iter()
            .position(|(m, p, _)| (m == "*" || *m == method) && path.contains(p.as_str()));
        pos.map(|i| s.failures.remove(i).2)
    };
    if let Some(f) = failure {
        return injected(&inner, &ctx, f);
    }

    // Rate limits.
    let rl_headers = match rate_limit(&inner, &matched, &method, token_route) {
        Ok(h) => h,
        Err(resp) => {
            inner.log(&ctx, 429, Ended::Refused, Some("rate limited"));
            return resp;
        }
    };

    // The spec check of the body.
    if let Some(schema) = inner.spec.request_schema(&op) {
        if body.is_null() && uploads.is_empty() {
            if super::spec::Spec::body_required(&op) {
                return inner.refuse(
                    &ctx,
                    &ApiError::violation(400, 50109, "The request body contains invalid JSON."),
                );
            }
        } else if let Err(errors) = inner.spec.check(schema, &body) {
            let list: Vec<checks::FormError> = errors
                .into_iter()
                .take(8)
                .map(|m| checks::FormError {
                    path: String::new(),
                    code: "SPEC_MISMATCH",
                    message: m,
                })
                .collect();
            return inner.refuse(&ctx, &invalid_form(&list));
        }
    }

    let result = route(&inner, &matched, &method, &body, &uploads);
    match result {
        Ok(mut answer) => {
            if let Some(b) = &answer.body
                && let Some(schema) = inner.spec.response_schema(&op, answer.status)
            {
                inner.check_own(
                    schema,
                    b,
                    &format!("answer to {method} {}", matched.template),
                );
            }
            answer.headers.extend(rl_headers);
            inner.log(&ctx, answer.status, Ended::Ok, None);
            match answer.body {
                Some(b) => json_response(answer.status, &b, &answer.headers),
                None => {
                    let mut r = json_response(204, &Value::Null, &answer.headers);
                    *r.body_mut() = Body::empty();
                    r.headers_mut().remove("content-type");
                    r
                }
            }
        }
        Err(e) => inner.refuse(&ctx, &e),
    }
}

pub(crate) async fn read_multipart(req: Request) -> Result<(Value, Vec<Upload>), ApiError> {
    let bad = |m: &str| ApiError::violation(400, 50035, m);
    let mut mp = Multipart::from_request(req, &())
        .await
        .map_err(|e| bad(&format!("Invalid Form Body: {e}")))?;
    let mut body = Value::Null;
    let mut uploads = Vec::new();
    while let Some(field) = mp
        .next_field()
        .await
        .map_err(|e| bad(&format!("Invalid Form Body: {e}")))?
    {
        let name = field.name().unwrap_or_default().to_owned();
        let filename = field.file_name().map(str::to_owned);
        let ct = field.content_type().map(str::to_owned);
        let bytes: Bytes = field
            .bytes()
            .await
            .map_err(|e| bad(&format!("Invalid Form Body: {e}")))?;
        if name == "payload_json" {
            body = serde_json::from_slice(&bytes).map_err(|_| {
                ApiError::violation(400, 50109, "The request body contains invalid JSON.")
            })?;
        } else if let Some(filename) = filename {
            uploads.push(Upload {
                field: name,
                content_type: ct.unwrap_or_else(|| guess_type(&filename)),
                filename,
                bytes: bytes.to_vec(),
            });
        } else {
            // A plain text field: Discord takes fields of the JSON body as form fields too.
            let text = String::from_utf8_lossy(&bytes).into_owned();
            if !body.is_object() {
                body = json!({});
            }
            body[name] = serde_json::from_str(&text).unwrap_or(Value::String(text));
        }
    }
    Ok((body, uploads))
}

fn guess_type(name: &str) -> String {
    let lower = name.to_lowercase();
    if lower.ends_with(".png") {
        "image/png"
    } else if lower.ends_with(".gif") {
        "image/gif"
    } else if lower.ends_with(".jpg") || lower.ends_with(".jpeg") {
        "image/jpeg"
    } else if lower.ends_with(".txt") {
        "text/plain"
    } else {
        "application/octet-stream"
    }
    .to_owned()
}

fn summarize(body: &Value, uploads: &[Upload]) -> String {
    let mut s = if body.is_null() {
        String::new()
    } else {
        let t = body.to_string();
        if t.chars().count() > 300 {
            format!("{}...", t.chars().take(300).collect::<String>())
        } else {
            t
        }
    };
    for u in uploads {
        s.push_str(&format!(
            " [{}: {} {} bytes]",
            u.field,
            u.filename,
            u.bytes.len()
        ));
    }
    s
}

fn injected(inner: &Inner, ctx: &Ctx, f: Failure) -> Response {
    match f {
        Failure::Status(status, code, message) => {
            let body = json!({"code": code, "message": message});
            inner.log(ctx, status, Ended::Injected, Some(&body.to_string()));
            json_response(status, &body, &[])
        }
        Failure::TooManyRequests(secs) => {
            let body = json!({"message": "You are being rate limited.", "retry_after": secs, "global": false});
            inner.log(ctx, 429, Ended::Injected, Some(&body.to_string()));
            json_response(
                429,
                &body,
                &[
                    ("Retry-After".into(), format!("{}", secs.ceil())),
                    ("X-RateLimit-Limit".into(), "5".into()),
                    ("X-RateLimit-Remaining".into(), "0".into()),
                    (
                        "X-RateLimit-Reset".into(),
                        format!("{:.3}", unix_now() + secs),
                    ),
                    ("X-RateLimit-Reset-After".into(), format!("{secs:.3}")),
                    ("X-RateLimit-Bucket".into(), "injected".into()),
                    ("X-RateLimit-Scope".into(), "user".into()),
                ],
            )
        }
        Failure::DropConnection => {
            inner.log(ctx, 0, Ended::Injected, Some("connection dropped"));
            let stream = futures_util::stream::once(async {
                Err::<Bytes, std::io::Error>(std::io::Error::other("dropped by the fake"))
            });
            Response::new(Body::from_stream(stream))
        }
        Failure::Hang => {
            inner.log(ctx, 0, Ended::Injected, Some("never answered"));
            let stream = futures_util::stream::once(async {
                tokio::time::sleep(Duration::from_secs(3600)).await;
                Err::<Bytes, std::io::Error>(std::io::Error::other("never answered"))
            });
            Response::new(Body::from_stream(stream))
        }
    }
}

const CHANNEL_LIMIT: usize = 5;
const CHANNEL_WINDOW: Duration = Duration::from_secs(5);
const GLOBAL_LIMIT: usize = 50;
const GLOBAL_WINDOW: Duration = Duration::from_secs(1);

#[allow(clippy::result_large_err)]
fn rate_limit(
    inner: &Inner,
    matched: &Matched,
    method: &str,
    token_route: bool,
) -> Result<Vec<(String, String)>, Response> {
    let now = Instant::now();
    let mut s = inner.lock();
    if !token_route {
        while s
            .global_bucket
            .front()
            .is_some_and(|t| now.duration_since(*t) >= GLOBAL_WINDOW)
        {
            s.global_bucket.pop_front();
        }
        if s.global_bucket.len() >= GLOBAL_LIMIT {
            let retry = s.global_bucket.front().map_or(0.0, |t| {
                (GLOBAL_WINDOW - now.duration_since(*t)).as_secs_f64()
            });
            let body = json!({"message": "You are being rate limited.", "retry_after": retry, "global": true});
            return Err(json_response(
                429,
                &body,
                &[
                    ("Retry-After".into(), format!("{}", retry.ceil().max(1.0))),
                    ("X-RateLimit-Global".into(), "true".into()),
                    ("X-RateLimit-Scope".into(), "global".into()),
                ],
            ));
        }
        s.global_bucket.push_back(now);
    }
    if method == "POST"
        && matched.template == "/channels/{channel_id}/messages"
        && let Some(channel) = matched
            .params
            .get("channel_id")
            .and_then(|c| c.parse::<u64>().ok())
    {
        let bucket = s.channel_buckets.entry(channel).or_default();
        while bucket
            .front()
            .is_some_and(|t| now.duration_since(*t) >= CHANNEL_WINDOW)
        {
            bucket.pop_front();
        }
        let reset_after = bucket
            .front()
            .map_or(CHANNEL_WINDOW, |t| CHANNEL_WINDOW - now.duration_since(*t))
            .as_secs_f64();
        if bucket.len() >= CHANNEL_LIMIT {
            if !token_route {
                s.global_bucket.pop_back();
            }
            let body = json!({"message": "You are being rate limited.", "retry_after": reset_after, "global": false});
            return Err(json_response(
                429,
                &body,
                &[
                    ("Retry-After".into(), format!("{}", reset_after.ceil())),
                    ("X-RateLimit-Limit".into(), CHANNEL_LIMIT.to_string()),
                    ("X-RateLimit-Remaining".into(), "0".into()),
                    (
                        "X-RateLimit-Reset".into(),
                        format!("{:.3}", unix_now() + reset_after),
                    ),
                    (
                        "X-RateLimit-Reset-After".into(),
                        format!("{reset_after:.3}"),
                    ),
                    (
                        "X-RateLimit-Bucket".into(),
                        format!("channel-messages-{channel}"),
                    ),
                    ("X-RateLimit-Scope".into(), "user".into()),
                ],
            ));
        }
        bucket.push_back(now);
        let remaining = CHANNEL_LIMIT - bucket.len();
        let reset_after = bucket
            .front()
            .map_or(CHANNEL_WINDOW, |t| CHANNEL_WINDOW - now.duration_since(*t))
            .as_secs_f64();
        return Ok(vec![
            ("X-RateLimit-Limit".into(), CHANNEL_LIMIT.to_string()),
            ("X-RateLimit-Remaining".into(), remaining.to_string()),
            (
                "X-RateLimit-Reset".into(),
                format!("{:.3}", unix_now() + reset_after),
            ),
            (
                "X-RateLimit-Reset-After".into(),
                format!("{reset_after:.3}"),
            ),
            (
                "X-RateLimit-Bucket".into(),
                format!("channel-messages-{channel}"),
            ),
        ]);
    }
    Ok(Vec::new())
}

fn param_id(matched: &Matched, name: &str) -> Result<u64, ApiError> {
    matched
        .params
        .get(name)
        .and_then(|v| v.parse::<u64>().ok())
        .ok_or_else(|| {
            invalid_form(&[checks::FormError {
                path: name.to_owned(),
                code: "NUMBER_TYPE_COERCE",
                message: "Value is not snowflake.".into(),
            }])
        })
}

#[allow(clippy::too_many_lines)]
fn route(
    inner: &Inner,
    m: &Matched,
    method: &str,
    body: &Value,
    uploads: &[Upload],
) -> Result<Answer, ApiError> {
    let t = m.template.as_str();
    match (method, t) {
        ("GET", "/gateway") => Ok(Answer::json(json!({"url": inner.gateway.url()}))),
        ("GET", "/gateway/bot") => Ok(Answer::json(json!({
            "url": inner.gateway.url(),
            "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1},
        }))),
        ("GET", "/users/@me") => {
            let mut u = user_json(&inner.bot_user(), true);
            u["mfa_enabled"] = json!(false);
            u["verified"] = json!(true);
            u["locale"] = json!("en-US");
            u["premium_type"] = json!(0);
            u["email"] = Value::Null;
            Ok(Answer::json(u))
        }
        ("POST", "/users/@me/channels") => {
            let user = dm_recipient(body)?;
            let mut s = inner.lock();
            if user == BOT_USER_ID {
                return Err(ApiError::violation(
                    400,
                    50007,
                    "Cannot send messages to this user",
                ));
            }
            if !s.users.contains_key(&user) {
                return Err(ApiError::violation(404, 10013, "Unknown User"));
            }
            let id = s.dm_channel(user);
            Ok(Answer::json(channel_json(&s, id)))
        }
        ("GET", "/applications/@me" | "/oauth2/applications/@me") => {
            Ok(Answer::json(application_json(inner)))
        }
        ("GET", "/guilds/{guild_id}") => {
            let id = param_id(m, "guild_id")?;
            let s = inner.lock();
            let g = s
                .guilds
                .get(&id)
                .ok_or_else(|| ApiError::refused(404, 10004, "Unknown Guild"))?;
            Ok(Answer::json(guild_json(g.id, &g.name)))
        }
        ("GET", "/channels/{channel_id}") => {
            let id = param_id(m, "channel_id")?;
            let s = inner.lock();
            let c = channel_ok(&s, id)?;
            let v = channel_json(&s, c.id);
            let thread = c.thread.is_some();
            drop(s);
            if thread {
                inner.check_thread(&v);
            }
            Ok(Answer::json(v))
        }
        ("PATCH", "/channels/{channel_id}") => {
            let id = param_id(m, "channel_id")?;
            let mut s = inner.lock();
            let c = channel_ok(&s, id)?.clone();
            let Some(th) = c.thread.clone() else {
                return Err(unsupported(method, t));
            };
            modify_thread(&mut s, &c, &th, body)?;
            let v = channel_json(&s, id);
            drop(s);
            inner.check_thread(&v);
            Ok(Answer::json(v))
        }
        ("POST", "/channels/{channel_id}/threads") => {
            let id = param_id(m, "channel_id")?;
            let mut s = inner.lock();
            let tid = start_thread(&mut s, id, body)?;
            let v = channel_json(&s, tid);
            drop(s);
            inner.check_thread(&v);
            Ok(Answer {
                status: 201,
                body: Some(v),
                headers: Vec::new(),
            })
        }
        ("POST", "/channels/{channel_id}/messages") => {
            let id = param_id(m, "channel_id")?;
            let mut s = inner.lock();
            let c = channel_ok(&s, id)?;
            let recipient = c.recipient;
            if c.guild_id.is_some() {
                let need = if c.thread.is_some() {
                    SEND_MESSAGES_IN_THREADS
                } else {
                    SEND_MESSAGES
                };
                if !s.bot_can(id, need) {
                    return Err(ApiError::refused(403, 50013, "Missing Permissions"));
                }
            }
            if recipient.is_some_and(|u| s.dms_closed.contains(&u)) {
                return Err(ApiError::refused(
                    403,
                    50007,
                    "Cannot send messages to this user",
                ));
            }
            let mid = create_message(&mut s, id, body, uploads, None, None, 0)?;
            Ok(Answer::json(message_json(&s, mid)))
        }
        ("GET" | "PATCH" | "DELETE", "/channels/{channel_id}/messages/{message_id}") => {
            let id = param_id(m, "channel_id")?;
            let mid = param_id(m, "message_id")?;
            let mut s = inner.lock();
            channel_ok(&s, id)?;
            let msg = s
                .messages
                .get(&mid)
                .filter(|x| x.channel_id == id && !x.deleted && x.ephemeral_for.is_none())
                .ok_or_else(|| ApiError::refused(404, 10008, "Unknown Message"))?;
            let author = msg.author_id;
            match method {
                "GET" => Ok(Answer::json(message_json(&s, mid))),
                "PATCH" => {
                    if author != BOT_USER_ID {
                        return Err(ApiError::violation(
                            403,
                            50005,
                            "Cannot edit a message authored by another user",
                        ));
                    }
                    edit_message(&mut s, mid, body, uploads)?;
                    Ok(Answer::json(message_json(&s, mid)))
                }
                _ => {
                    if author != BOT_USER_ID {
                        return Err(ApiError::violation(403, 50013, "Missing Permissions"));
                    }
                    thread_gate(&s, id, Op::Delete)?;
                    if let Some(x) = s.messages.get_mut(&mid) {
                        x.deleted = true;
                    }
                    Ok(Answer::empty())
                }
            }
        }
        (
            "GET" | "PUT" | "POST",
            "/applications/{application_id}/commands"
            | "/applications/{application_id}/guilds/{guild_id}/commands",
        ) => {
            let app = param_id(m, "application_id")?;
            if app != APPLICATION_ID {
                return Err(ApiError::violation(403, 50001, "Missing Access"));
            }
            let guild = if t.contains("{guild_id}") {
                let g = param_id(m, "guild_id")?;
                if !inner.lock().guilds.contains_key(&g) {
                    return Err(ApiError::refused(404, 10004, "Unknown Guild"));
                }
                Some(g)
            } else {
                None
            };
            let mut s = inner.lock();
            match method {
                "GET" => Ok(Answer::json(json!(
                    s.commands.get(&guild).cloned().unwrap_or_default()
                ))),
                "PUT" => {
                    let list = body.as_array().cloned().unwrap_or_default();
                    let errs = checks::check_commands(&list);
                    if !errs.is_empty() {
                        return Err(invalid_form(&errs));
                    }
                    let old = s.commands.get(&guild).cloned().unwrap_or_default();
                    let mut out = Vec::new();
                    for c in list {
                        let id = old
                            .iter()
                            .find(|o| {
                                o["name"] == c["name"]
                                    && o["type"] == c["type"].as_u64().unwrap_or(1)
                            })
                            .and_then(|o| o["id"].as_str().map(str::to_owned))
                            .unwrap_or_else(|| s.snowflake().to_string());
                        let version = s.snowflake();
                        out.push(command_json(&c, &id, version, guild));
                    }
                    s.commands.insert(guild, out.clone());
                    s.overwrites += 1;
                    Ok(Answer::json(Value::Array(out)))
                }
                _ => {
                    let errs = checks::check_commands(std::slice::from_ref(body));
                    if !errs.is_empty() {
                        return Err(invalid_form(&errs));
                    }
                    let version = s.snowflake();
                    let list = s.commands.entry(guild).or_default();
                    let existing = list.iter().position(|o| o["name"] == body["name"]);
                    let id = existing
                        .and_then(|i| list[i]["id"].as_str().map(str::to_owned))
                        .unwrap_or_else(|| version.to_string());
                    let c = command_json(body, &id, version, guild);
                    let status = match existing {
                        Some(i) => {
                            list[i] = c.clone();
                            200
                        }
                        None => {
                            list.push(c.clone());
                            201
                        }
                    };
                    Ok(Answer {
                        status,
                        body: Some(c),
                        headers: Vec::new(),
                    })
                }
            }
        }
        ("POST", "/interactions/{interaction_id}/{interaction_token}/callback") => {
            let id = param_id(m, "interaction_id")?;
            let token = m
                .params
                .get("interaction_token")
                .cloned()
                .unwrap_or_default();
            initial_response(inner, id, &token, body, uploads, Via::Rest)?;
            Ok(Answer::empty())
        }
        ("POST", "/webhooks/{webhook_id}/{webhook_token}") => {
            let mut s = inner.lock();
            let idx = webhook_interaction(&s, m)?;
            followup(&mut s, idx, body, uploads)
        }
        (
            "GET" | "PATCH" | "DELETE",
            "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
            | "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
        ) => {
            let mut s = inner.lock();
            let idx = webhook_interaction(&s, m)?;
            let which = m.params.get("message_id").cloned();
            let (mid, label) = match &which {
                None => (
                    s.interactions[idx]
                        .original
                        .ok_or_else(|| ApiError::refused(404, 10008, "Unknown Message"))?,
                    "@original".to_owned(),
                ),
                Some(raw) => {
                    let mid = raw
                        .parse::<u64>()
                        .map_err(|_| ApiError::violation(404, 10008, "Unknown Message"))?;
                    let i = &s.interactions[idx];
                    let belongs = i.original == Some(mid)
                        || s.messages
                            .get(&mid)
                            .is_some_and(|x| x.interaction_id == Some(i.record.id));
                    if !belongs {
                        return Err(ApiError::violation(404, 10008, "Unknown Message"));
                    }
                    (mid, mid.to_string())
                }
            };
            if s.messages.get(&mid).is_none_or(|x| x.deleted) {
                return Err(ApiError::refused(404, 10008, "Unknown Message"));
            }
            s.interactions[idx]
                .record
                .later
                .push(format!("{method} {label}"));
            match method {
                "GET" => Ok(Answer::json(message_json(&s, mid))),
                "PATCH" => {
                    edit_message(&mut s, mid, body, uploads)?;
                    if s.interactions[idx].original == Some(mid) {
                        s.interactions[idx].deferred_pending = false;
                    }
                    Ok(Answer::json(message_json(&s, mid)))
                }
                _ => {
                    let channel = s.messages.get(&mid).map_or(0, |x| x.channel_id);
                    thread_gate(&s, channel, Op::Delete)?;
                    if let Some(x) = s.messages.get_mut(&mid) {
                        x.deleted = true;
                    }
                    if s.interactions[idx].original == Some(mid) {
                        s.interactions[idx].deferred_pending = false;
                    }
                    Ok(Answer::empty())
                }
            }
        }
        _ => Err(unsupported(method, t)),
    }
}

fn unsupported(method: &str, template: &str) -> ApiError {
    ApiError::violation(
        400,
        0,
        &format!("{method} {template} is in the spec but not supported by the fake"),
    )
}

impl Inner {
    /// Checks a thread object the fake built against `ThreadResponse` (the answers' `oneOf`
    /// is checked as `anyOf`, which another branch could satisfy).
    pub(crate) fn check_thread(&self, v: &Value) {
        if let Some(schema) = self.spec.schema("ThreadResponse").cloned() {
            self.check_own(&schema, v, "thread channel");
        }
    }
}

const ARCHIVE_DURATIONS: [u64; 4] = [60, 1440, 4320, 10080];

/// Start Thread without Message in a guild text channel (`type` 11 public, 12 private; Discord's
/// default is 12). The bot needs VIEW_CHANNEL and CREATE_PUBLIC_THREADS (or
/// CREATE_PRIVATE_THREADS) in the channel. The new thread's id.
fn start_thread(s: &mut World, parent: u64, body: &Value) -> Result<u64, ApiError> {
    let p = channel_ok(s, parent)?;
    let Some(guild) = p.guild_id else {
        return Err(ApiError::violation(
            400,
            50003,
            "Cannot execute action on a DM channel",
        ));
    };
    if p.thread.is_some() {
        return Err(ApiError::violation(
            400,
            50024,
            "Cannot execute action on this channel type",
        ));
    }
    let kind = match &body["type"] {
        Value::Null => 12,
        v => v.as_u64().unwrap_or(0),
    };
    if kind != 11 && kind != 12 {
        // 10 (announcement thread) is for announcement channels only.
        return Err(invalid_form(&[checks::FormError {
            path: "type".into(),
            code: "BASE_TYPE_CHOICES",
            message: "Value must be one of {11, 12}.".into(),
        }]));
    }
    let need = if kind == 11 {
        CREATE_PUBLIC_THREADS
    } else {
        CREATE_PRIVATE_THREADS
    };
    if !s.bot_can(parent, need) {
        return Err(ApiError::refused(403, 50013, "Missing Permissions"));
    }
    let name = body["name"].as_str().unwrap_or_default().to_owned();
    let id = s.snowflake();
    s.channels.insert(
        id,
        ChannelRec {
            id,
            guild_id: Some(guild),
            name,
            recipient: None,
            deleted: false,
            no_access: false,
            thread: Some(ThreadRec {
                parent_id: parent,
                owner_id: BOT_USER_ID,
                kind: u8::try_from(kind).unwrap_or(12),
                archived: false,
                locked: false,
                auto_archive_duration: body["auto_archive_duration"].as_u64().unwrap_or(1440),
                archive_ms: now_ms(),
                // Only private threads have it; Discord's default is true.
                invitable: kind == 12 && body["invitable"].as_bool().unwrap_or(true),
                rate_limit_per_user: body["rate_limit_per_user"].as_u64().unwrap_or(0),
            }),
        },
    );
    Ok(id)
}

/// Modify Channel for a thread (Discord's "JSON Params (Thread)" and the threads topic): the
/// thread must be active or be unarchived by the request (else 400 50083); unarchiving needs
/// MANAGE_THREADS when the thread is locked, else the thread's creator, MANAGE_THREADS or
/// SEND_MESSAGES; `name`, archiving and `auto_archive_duration` need MANAGE_THREADS or to be the
/// thread's creator; `locked` and `rate_limit_per_user` need MANAGE_THREADS (checked when they
/// change). Missing permissions: 403 50013.
fn modify_thread(
    s: &mut World,
    c: &ChannelRec,
    t: &ThreadRec,
    body: &Value,
) -> Result<(), ApiError> {
    let field = |k: &str| body.get(k).filter(|v| !v.is_null());
    let mut errs = Vec::new();
    let fe = |path: &str, code: &'static str, message: &str| checks::FormError {
        path: path.into(),
        code,
        message: message.into(),
    };
    let name = field("name").map(|v| v.as_str().unwrap_or_default().to_owned());
    if name
        .as_ref()
        .is_some_and(|n| n.trim().is_empty() || n.chars().count() > 100)
    {
        errs.push(fe(
            "name",
            "BASE_TYPE_BAD_LENGTH",
            "Must be between 1 and 100 in length.",
        ));
    }
    let duration = field("auto_archive_duration").map(|v| v.as_u64().unwrap_or(0));
    if duration.is_some_and(|d| !ARCHIVE_DURATIONS.contains(&d)) {
        errs.push(fe(
            "auto_archive_duration",
            "BASE_TYPE_CHOICES",
            "Value must be one of {60, 1440, 4320, 10080}.",
        ));
    }
    let rate = field("rate_limit_per_user").map(|v| v.as_u64().unwrap_or(u64::MAX));
    if rate.is_some_and(|r| r > 21_600) {
        errs.push(fe(
            "rate_limit_per_user",
            "NUMBER_TYPE_MAX",
            "int value should be less than or equal to 21600.",
        ));
    }
    let mut flag = |k: &str| match field(k) {
        None => None,
        Some(Value::Bool(b)) => Some(*b),
        Some(_) => {
            errs.push(fe(k, "BASE_TYPE_BOOLEAN", "Must be either true or false."));
            None
        }
    };
    let archived = flag("archived");
    let locked = flag("locked");
    let invitable = flag("invitable");
    if field("flags")
        .and_then(Value::as_u64)
        .is_some_and(|f| f & 2 != 0)
    {
        errs.push(fe(
            "flags",
            "CHANNEL_FLAGS_INVALID",
            "PINNED can only be set on threads of forum and media channels.",
        ));
    }
    if !errs.is_empty() {
        return Err(invalid_form(&errs));
    }
    if t.archived && archived != Some(false) {
        return Err(ApiError::refused(400, 50083, "Thread is archived"));
    }
    let moderator = s.bot_can(c.id, MANAGE_THREADS);
    let creator = t.owner_id == BOT_USER_ID;
    let missing = || ApiError::refused(403, 50013, "Missing Permissions");
    if t.archived {
        let may = if t.locked {
            moderator
        } else {
            moderator || creator || s.bot_can(c.id, SEND_MESSAGES)
        };
        if !may {
            return Err(missing());
        }
    }
    let renames = name.as_ref().is_some_and(|n| *n != c.name);
    let archives = archived == Some(true) && !t.archived;
    let redates = duration.is_some_and(|d| d != t.auto_archive_duration);
    if (renames || archives || redates) && !(moderator || creator) {
        return Err(missing());
    }
    let relocks = locked.is_some_and(|l| l != t.locked);
    let rerates = rate.is_some_and(|r| r != t.rate_limit_per_user);
    if (relocks || rerates) && !moderator {
        return Err(missing());
    }
    let Some(rec) = s.channels.get_mut(&c.id) else {
        return Err(ApiError::refused(404, 10003, "Unknown Channel"));
    };
    if let Some(n) = name {
        rec.name = n;
    }
    let Some(th) = rec.thread.as_mut() else {
        return Ok(());
    };
    if let Some(a) = archived
        && a != th.archived
    {
        th.archived = a;
        th.archive_ms = now_ms();
    }
    if let Some(d) = duration {
        th.auto_archive_duration = d;
        th.archive_ms = now_ms();
    }
    if let Some(l) = locked {
        th.locked = l;
    }
    if let Some(r) = rate {
        th.rate_limit_per_user = r;
    }
    if let Some(i) = invitable
        && th.kind == 12
    {
        th.invitable = i;
    }
    Ok(())
}

/// What is done to a message in a channel that may be a thread.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Create,
    Edit,
    Delete,
}

/// Discord's rules for messages in threads: in a locked thread only MANAGE_THREADS may create
/// or edit messages (403 50083 `Thread is archived`, as Discord answers), and delete them only
/// while it is active; nobody edits messages of an archived thread (400 50083); a new message
/// unarchives an archived thread that is not locked ([`unarchive_on_post`]).
pub(crate) fn thread_gate(s: &World, channel: u64, op: Op) -> Result<(), ApiError> {
    let Some(t) = s.channels.get(&channel).and_then(|c| c.thread.as_ref()) else {
        return Ok(());
    };
    let moderator = s.bot_can(channel, MANAGE_THREADS);
    let locked_out = match op {
        Op::Create | Op::Edit => t.locked,
        Op::Delete => t.locked && t.archived,
    };
    if locked_out && !moderator {
        return Err(ApiError::refused(403, 50083, "Thread is archived"));
    }
    if op == Op::Edit && t.archived {
        return Err(ApiError::refused(400, 50083, "Thread is archived"));
    }
    Ok(())
}

/// A message posted in an archived thread unarchives it.
fn unarchive_on_post(s: &mut World, channel: u64) {
    if let Some(t) = s.channels.get_mut(&channel).and_then(|c| c.thread.as_mut())
        && t.archived
    {
        t.archived = false;
        t.archive_ms = now_ms();
    }
}

/// The `recipient_id` of a Create DM body (a snowflake as a string or an integer; the spec
/// check has passed). Group DMs (`access_tokens`) are not supported.
fn dm_recipient(body: &Value) -> Result<u64, ApiError> {
    let id = &body["recipient_id"];
    if let Some(n) = id.as_u64() {
        return Ok(n);
    }
    if let Some(n) = id.as_str().and_then(|t| t.parse::<u64>().ok()) {
        return Ok(n);
    }
    if !body["access_tokens"].is_null() {
        return Err(ApiError::violation(
            400,
            0,
            "POST /users/@me/channels with access_tokens (a group DM) is not supported by the fake",
        ));
    }
    Err(invalid_form(&[checks::FormError {
        path: "recipient_id".to_owned(),
        code: "BASE_TYPE_REQUIRED",
        message: "This field is required".into(),
    }]))
}

/// The channel if it exists (a thread's parent too) and the bot can see it (VIEW_CHANNEL,
/// not `remove_access`d): else 404 10003 or 403 50001.
fn channel_ok(s: &World, id: u64) -> Result<&ChannelRec, ApiError> {
    let c = s
        .channels
        .get(&id)
        .filter(|c| !c.deleted)
        .ok_or_else(|| ApiError::refused(404, 10003, "Unknown Channel"))?;
    let parent = c.thread.as_ref().and_then(|t| s.channels.get(&t.parent_id));
    if parent.is_some_and(|p| p.deleted) {
        return Err(ApiError::refused(404, 10003, "Unknown Channel"));
    }
    if c.no_access
        || parent.is_some_and(|p| p.no_access)
        || (c.guild_id.is_some() && !s.bot_can(id, VIEW_CHANNEL))
    {
        return Err(ApiError::refused(403, 50001, "Missing Access"));
    }
    Ok(c)
}

fn webhook_interaction(s: &World, m: &Matched) -> Result<usize, ApiError> {
    let unknown = || ApiError::violation(404, 10015, "Unknown Webhook");
    let app = m.params.get("webhook_id").cloned().unwrap_or_default();
    if app != APPLICATION_ID.to_string() {
        return Err(unknown());
    }
    let token = m.params.get("webhook_token").cloned().unwrap_or_default();
    let idx = s.interaction_by_token(&token).ok_or_else(unknown)?;
    let i = &s.interactions[idx];
    if i.record.sent_at.elapsed() > s.token_lifetime {
        return Err(ApiError::refused(401, 50027, "Invalid Webhook Token"));
    }
    if i.answered_at.is_none() || i.record.kind == 4 {
        return Err(unknown());
    }
    Ok(idx)
}

fn followup(
    s: &mut World,
    idx: usize,
    body: &Value,
    uploads: &[Upload],
) -> Result<Answer, ApiError> {
    let (iid, user, channel) = {
        let i = &s.interactions[idx].record;
        (i.id, i.user_id, i.channel_id)
    };
    // After a deferred message, the first followup edits it (Discord's compatibility rule).
    if s.interactions[idx].deferred_pending
        && let Some(orig) = s.interactions[idx].original
    {
        let mut b = body.clone();
        if let Some(o) = b.as_object_mut() {
            o.remove("flags");
        }
        edit_message(s, orig, &b, uploads)?;
        s.interactions[idx].deferred_pending = false;
        s.interactions[idx]
            .record
            .later
            .push("POST followup (completes the deferred message)".into());
        return Ok(Answer::json(message_json(s, orig)));
    }
    let flags = body["flags"].as_u64().unwrap_or(0);
    let eph = (flags & 64 != 0).then_some(user);
    let mid = create_message(s, channel, body, uploads, eph, Some(iid), 0)?;
    s.interactions[idx]
        .record
        .later
        .push(format!("POST followup {mid}"));
    Ok(Answer::json(message_json(s, mid)))
}

/// Resolves the message's attachments: `attachments` entries name new files (`files[id]`) or
/// kept attachments; files without an entry are added.
fn resolve_attachments(
    s: &mut World,
    data: &Value,
    uploads: &[Upload],
    existing: &[DcAttachment],
    is_edit: bool,
) -> Result<Vec<DcAttachment>, ApiError> {
    let mut out = Vec::new();
    let mut used = vec![false; uploads.len()];
    let listed = data["attachments"].as_array();
    if let Some(list) = listed {
        for (i, a) in list.iter().enumerate() {
            let id = a["id"]
                .as_u64()
                .or_else(|| a["id"].as_str().and_then(|x| x.parse().ok()))
                .unwrap_or(u64::MAX);
            if let Some(k) = uploads
                .iter()
                .position(|u| u.field == format!("files[{id}]"))
            {
                used[k] = true;
                let u = &uploads[k];
                let new_id = s.snowflake();
                out.push(DcAttachment {
                    id: new_id,
                    filename: a["filename"].as_str().unwrap_or(&u.filename).to_owned(),
                    content_type: u.content_type.clone(),
                    bytes: u.bytes.clone(),
                });
            } else if let Some(old) = existing.iter().find(|e| e.id == id) {
                out.push(old.clone());
            } else {
                return Err(invalid_form(&[checks::FormError {
                    path: format!("attachments.{i}"),
                    code: "ATTACHMENT_NOT_FOUND",
                    message: format!("Attachment {id} is neither an uploaded file nor kept"),
                }]));
            }
        }
    } else if is_edit {
        out.extend(existing.iter().cloned());
    }
    for (k, u) in uploads.iter().enumerate() {
        if !used[k] {
            let new_id = s.snowflake();
            out.push(DcAttachment {
                id: new_id,
                filename: u.filename.clone(),
                content_type: u.content_type.clone(),
                bytes: u.bytes.clone(),
            });
        }
    }
    if out.len() > 10 {
        return Err(invalid_form(&[checks::FormError {
            path: "attachments".into(),
            code: "BASE_TYPE_MAX_LENGTH",
            message: "Must be 10 or fewer in length.".into(),
        }]));
    }
    Ok(out)
}

fn message_errors(
    data: &Value,
    embeds: &[Value],
    attachments: &[DcAttachment],
) -> Result<(), ApiError> {
    let mut errs = checks::check_message_fields(data);
    let names: Vec<String> = attachments.iter().map(|a| a.filename.clone()).collect();
    errs.extend(checks::check_attachment_refs(embeds, &names));
    if errs.is_empty() {
        Ok(())
    } else {
        Err(invalid_form(&errs))
    }
}

fn array_of(v: &Value) -> Vec<Value> {
    v.as_array().cloned().unwrap_or_default()
}

/// Users pinged by `<@id>` / `<@!id>` in `content` as `allowed_mentions` allows.
fn notified(content: &str, allowed: &Value) -> Vec<u64> {
    let mut ids = Vec::new();
    let mut rest = content;
    while let Some(i) = rest.find("<@") {
        rest = &rest[i + 2..];
        let r = rest.strip_prefix('!').unwrap_or(rest);
        if let Some(end) = r.find('>')
            && let Ok(id) = r[..end].parse::<u64>()
            && !ids.contains(&id)
        {
            ids.push(id);
        }
    }
    if !allowed.is_object() {
        return ids;
    }
    let parse_users = allowed["parse"]
        .as_array()
        .is_some_and(|p| p.iter().any(|x| x == "users"));
    let listed: Vec<u64> = allowed["users"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|x| {
            x.as_str()
                .and_then(|t| t.parse().ok())
                .or_else(|| x.as_u64())
        })
        .collect();
    ids.into_iter()
        .filter(|id| parse_users || listed.contains(id))
        .collect()
}

/// Creates a bot message after Discord's checks.
pub(crate) fn create_message(
    s: &mut World,
    channel: u64,
    data: &Value,
    uploads: &[Upload],
    ephemeral_for: Option<u64>,
    interaction_id: Option<u64>,
    extra_flags: u64,
) -> Result<u64, ApiError> {
    thread_gate(s, channel, Op::Create)?;
    let attachments = resolve_attachments(s, data, uploads, &[], false)?;
    let embeds = array_of(&data["embeds"]);
    message_errors(data, &embeds, &attachments)?;
    let content = data["content"].as_str().unwrap_or_default().to_owned();
    let components = array_of(&data["components"]);
    let loading = extra_flags & 128 != 0;
    if !loading
        && content.is_empty()
        && embeds.is_empty()
        && attachments.is_empty()
        && components.is_empty()
        && data["sticker_ids"].as_array().is_none_or(Vec::is_empty)
        && data["poll"].is_null()
    {
        return Err(ApiError::violation(
            400,
            50006,
            "Cannot send an empty message",
        ));
    }
    let id = s.snowflake();
    // SUPPRESS_EMBEDS and SUPPRESS_NOTIFICATIONS; EPHEMERAL only where an interaction allows it.
    let flags = (data["flags"].as_u64().unwrap_or(0) & (4 | 4096))
        | extra_flags
        | if ephemeral_for.is_some() { 64 } else { 0 };
    let pinged = if loading || ephemeral_for.is_some() {
        Vec::new()
    } else {
        notified(&content, &data["allowed_mentions"])
    };
    s.messages.insert(
        id,
        DcMessage {
            id,
            channel_id: channel,
            author_id: BOT_USER_ID,
            content,
            embeds,
            attachments,
            components,
            flags,
            ephemeral_for,
            interaction_id,
            notified: pinged,
            edited: false,
            deleted: false,
        },
    );
    unarchive_on_post(s, channel);
    Ok(id)
}

/// Edits a bot message after Discord's checks (fields present replace, `null` clears).
pub(crate) fn edit_message(
    s: &mut World,
    mid: u64,
    data: &Value,
    uploads: &[Upload],
) -> Result<(), ApiError> {
    let Some(old) = s.messages.get(&mid).cloned() else {
        return Err(ApiError::refused(404, 10008, "Unknown Message"));
    };
    thread_gate(s, old.channel_id, Op::Edit)?;
    let attachments = resolve_attachments(s, data, uploads, &old.attachments, true)?;
    let field = |k: &str| data.get(k);
    let content = match field("content") {
        Some(v) => v.as_str().unwrap_or_default().to_owned(),
        None => old.content.clone(),
    };
    let embeds = match field("embeds") {
        Some(v) => array_of(v),
        None => old.embeds.clone(),
    };
    let components = match field("components") {
        Some(v) => array_of(v),
        None => old.components.clone(),
    };
    message_errors(data, &embeds, &attachments)?;
    if content.is_empty() && embeds.is_empty() && attachments.is_empty() && components.is_empty() {
        return Err(ApiError::violation(
            400,
            50006,
            "Cannot send an empty message",
        ));
    }
    let was_loading = old.is_loading();
    let m = s.messages.get_mut(&mid).unwrap_or_else(|| unreachable!());
    if was_loading && m.ephemeral_for.is_none() {
        m.notified = notified(&content, &data["allowed_mentions"]);
    }
    m.content = content;
    m.embeds = embeds;
    m.components = components;
    m.attachments = attachments;
    m.flags &= !128;
    if let Some(f) = data["flags"].as_u64() {
        // Only SUPPRESS_EMBEDS may change on an edit.
        m.flags = (m.flags & !4) | (f & 4);
    }
    if !was_loading {
        m.edited = true;
    }
    Ok(())
}

/// The initial response to an interaction (REST callback or the HTTP answer's body).
#[allow(clippy::too_many_lines)]
pub(crate) fn initial_response(
    inner: &Inner,
    id: u64,
    token: &str,
    body: &Value,
    uploads: &[Upload],
    via: Via,
) -> Result<(), ApiError> {
    let mut s = inner.lock();
    let idx = s
        .interactions
        .iter()
        .position(|i| i.record.id == id && i.token == token)
        .ok_or_else(|| ApiError::violation(404, 10062, "Unknown interaction"))?;
    let (kind, sent_at, user, channel, source) = {
        let i = &s.interactions[idx];
        (
            i.record.kind,
            i.record.sent_at,
            i.record.user_id,
            i.record.channel_id,
            i.source_message,
        )
    };
    if s.interactions[idx].answered_at.is_some() {
        return Err(ApiError::violation(
            400,
            40060,
            "Interaction has already been acknowledged.",
        ));
    }
    let elapsed = sent_at.elapsed();
    if elapsed > s.ack_deadline {
        return Err(ApiError::violation(404, 10062, "Unknown interaction"));
    }
    let ty = body["type"].as_u64().unwrap_or(0);
    let allowed: &[u64] = match kind {
        1 => &[1],
        2 => &[4, 5, 9],
        3 => &[4, 5, 6, 7, 9],
        4 => &[8],
        _ => &[4, 5],
    };
    if !allowed.contains(&ty) {
        return Err(invalid_form(&[checks::FormError {
            path: "type".into(),
            code: "INTERACTION_RESPONSE_TYPE_INVALID",
            message: format!("Response type {ty} is not allowed for an interaction of type {kind}"),
        }]));
    }
    let data = &body["data"];
    let flags = data["flags"].as_u64().unwrap_or(0);
    let ephemeral = flags & 64 != 0;
    let channel_gone = s.channels.get(&channel).is_none_or(|c| c.deleted);
    if channel_gone && kind != 1 {
        return Err(ApiError::refused(404, 10003, "Unknown Channel"));
    }
    match ty {
        1 => {}
        4 => {
            let mid = create_message(
                &mut s,
                channel,
                data,
                uploads,
                ephemeral.then_some(user),
                Some(id),
                0,
            )?;
            s.interactions[idx].original = Some(mid);
        }
        5 => {
            let mid = create_message(
                &mut s,
                channel,
                &json!({"flags": flags}),
                &[],
                ephemeral.then_some(user),
                Some(id),
                128,
            )?;
            s.interactions[idx].original = Some(mid);
            s.interactions[idx].deferred_pending = true;
        }
        6 => {
            s.interactions[idx].original = source;
        }
        7 => {
            let src = source.ok_or_else(|| ApiError::violation(400, 0, "no message"))?;
            if data.is_object() {
                edit_message(&mut s, src, data, uploads)?;
            }
            s.interactions[idx].original = Some(src);
        }
        8 => {
            let errs = checks::check_choices(&data["choices"]);
            if !errs.is_empty() {
                return Err(invalid_form(&errs));
            }
            let choices = array_of(&data["choices"])
                .into_iter()
                .map(|c| {
                    (
                        c["name"].as_str().unwrap_or_default().to_owned(),
                        c["value"].clone(),
                    )
                })
                .collect();
            s.interactions[idx].autocomplete = Some(choices);
        }
        _ => {}
    }
    let i = &mut s.interactions[idx];
    i.answered_at = Some(Instant::now());
    i.record.initial = Some((u8::try_from(ty).unwrap_or(0), elapsed, ephemeral, via));
    drop(s);
    inner.bump();
    Ok(())
}

// ----- JSON shapes -----

pub(crate) fn message_json(s: &World, mid: u64) -> Value {
    let Some(m) = s.messages.get(&mid) else {
        return Value::Null;
    };
    let author = s
        .users
        .get(&m.author_id)
        .map(|u| user_json(u, false))
        .unwrap_or_else(|| {
            user_json(
                &super::DcUser {
                    id: BOT_USER_ID,
                    username: "tabula_test_bot".into(),
                    global_name: "Tabula".into(),
                },
                true,
            )
        });
    let attachments: Vec<Value> = m
        .attachments
        .iter()
        .map(|a| {
            let url = format!(
                "https://cdn.discordapp.com/attachments/{}/{}/{}",
                m.channel_id, a.id, a.filename
            );
            json!({
                "id": a.id.to_string(),
                "filename": a.filename,
                "size": a.bytes.len(),
                "url": url,
                "proxy_url": url.replace("cdn.discordapp.com", "media.discordapp.net"),
                "content_type": a.content_type,
            })
        })
        .collect();
    let mentions: Vec<Value> = m
        .notified
        .iter()
        .filter_map(|id| s.users.get(id))
        .map(|u| user_json(u, false))
        .collect();
    let mut v = json!({
        "type": if m.interaction_id.is_some() && !m.is_followup(s) { 20 } else { 0 },
        "content": m.content,
        "mentions": mentions,
        "mention_roles": [],
        "attachments": attachments,
        "embeds": m.embeds.iter().map(|e| {
            let mut e = e.clone();
            if e.get("type").is_none_or(Value::is_null) {
                e["type"] = json!("rich");
            }
            e
        }).collect::<Vec<_>>(),
        "timestamp": snowflake_time(m.id),
        "edited_timestamp": if m.edited { Value::String(snowflake_time(m.id)) } else { Value::Null },
        "flags": m.flags,
        "components": numbered_components(&m.components),
        "id": m.id.to_string(),
        "channel_id": m.channel_id.to_string(),
        "author": author,
        "pinned": false,
        "mention_everyone": false,
        "tts": false,
    });
    if m.interaction_id.is_some() {
        v["webhook_id"] = json!(APPLICATION_ID.to_string());
        v["application_id"] = json!(APPLICATION_ID.to_string());
    }
    v
}

/// Components as Discord answers them: every one with a numeric `id` (depth first, from 1).
fn numbered_components(components: &[Value]) -> Vec<Value> {
    fn walk(v: &mut Value, next: &mut u64) {
        if let Some(o) = v.as_object_mut() {
            if o.get("id").is_none_or(Value::is_null) {
                o.insert("id".into(), json!(*next));
            }
            *next += 1;
            if let Some(Value::Array(children)) = o.get_mut("components") {
                for c in children {
                    walk(c, next);
                }
            }
        }
    }
    let mut next = 1;
    components
        .iter()
        .map(|c| {
            let mut c = c.clone();
            walk(&mut c, &mut next);
            c
        })
        .collect()
}

impl DcMessage {
    fn is_followup(&self, s: &World) -> bool {
        self.interaction_id.is_some_and(|iid| {
            s.interactions
                .iter()
                .find(|i| i.record.id == iid)
                .is_some_and(|i| i.original != Some(self.id) || i.record.kind != 2)
        })
    }
}

pub(crate) fn channel_json(s: &World, id: u64) -> Value {
    let Some(c) = s.channels.get(&id) else {
        return Value::Null;
    };
    if let Some(t) = &c.thread {
        return thread_json(s, c, t);
    }
    match c.guild_id {
        Some(g) => json!({
            "id": c.id.to_string(),
            "type": 0,
            "flags": 0,
            "guild_id": g.to_string(),
            "name": c.name,
            "position": 0,
            "parent_id": null,
            "topic": null,
            "nsfw": false,
            "last_message_id": null,
            "rate_limit_per_user": 0,
            "permission_overwrites": [],
        }),
        None => {
            let rec = c
                .recipient
                .and_then(|u| s.users.get(&u))
                .map(|u| user_json(u, false));
            json!({
                "id": c.id.to_string(),
                "type": 1,
                "flags": 0,
                "last_message_id": null,
                "recipients": rec.into_iter().collect::<Vec<_>>(),
            })
        }
    }
}

/// A thread channel object as Discord answers it (`ThreadResponse`), with the bot's thread
/// member when the bot made the thread (its creator is a member).
pub(crate) fn thread_json(s: &World, c: &ChannelRec, t: &ThreadRec) -> Value {
    let sent: Vec<&DcMessage> = s
        .messages
        .values()
        .filter(|m| m.channel_id == c.id && m.ephemeral_for.is_none())
        .collect();
    let mut meta = json!({
        "archived": t.archived,
        "archive_timestamp": iso8601(t.archive_ms),
        "auto_archive_duration": t.auto_archive_duration,
        "locked": t.locked,
        "create_timestamp": snowflake_time(c.id),
    });
    if t.kind == 12 {
        meta["invitable"] = json!(t.invitable);
    }
    let mut v = json!({
        "id": c.id.to_string(),
        "type": t.kind,
        "last_message_id": sent.last().map(|m| m.id.to_string()),
        "flags": 0,
        "guild_id": c.guild_id.unwrap_or_default().to_string(),
        "name": c.name,
        "parent_id": t.parent_id.to_string(),
        "rate_limit_per_user": t.rate_limit_per_user,
        "owner_id": t.owner_id.to_string(),
        "thread_metadata": meta,
        "message_count": sent.iter().filter(|m| !m.deleted).count(),
        "member_count": 1,
        "total_message_sent": sent.len(),
    });
    if t.owner_id == BOT_USER_ID {
        v["member"] = json!({
            "id": c.id.to_string(),
            "user_id": BOT_USER_ID.to_string(),
            "join_timestamp": snowflake_time(c.id),
            "flags": 1,
        });
    }
    v
}

pub(crate) fn guild_json(id: u64, name: &str) -> Value {
    json!({
        "id": id.to_string(),
        "name": name,
        "icon": null,
        "description": null,
        "home_header": null,
        "splash": null,
        "discovery_splash": null,
        "features": [],
        "banner": null,
        "owner_id": "1100000000000000009",
        "application_id": null,
        "region": "deprecated",
        "afk_channel_id": null,
        "afk_timeout": 300,
        "system_channel_id": null,
        "system_channel_flags": 0,
        "widget_enabled": false,
        "widget_channel_id": null,
        "verification_level": 0,
        "roles": [{
            "id": id.to_string(),
            "name": "@everyone",
            "description": null,
            "permissions": super::DEFAULT_MEMBER_PERMISSIONS.to_string(),
            "position": 0,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
            "hoist": false,
            "managed": false,
            "mentionable": false,
            "icon": null,
            "unicode_emoji": null,
            "flags": 0,
        }],
        "default_message_notifications": 0,
        "mfa_level": 0,
        "explicit_content_filter": 0,
        "max_presences": null,
        "max_members": 500_000,
        "max_stage_video_channel_users": 50,
        "max_video_channel_users": 25,
        "vanity_url_code": null,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "rules_channel_id": null,
        "safety_alerts_channel_id": null,
        "public_updates_channel_id": null,
        "premium_progress_bar_enabled": false,
        "nsfw": false,
        "nsfw_level": 0,
        "emojis": [],
        "stickers": [],
        "incidents_data": null,
    })
}

fn application_json(inner: &Inner) -> Value {
    let owner = user_json(
        &super::DcUser {
            id: 1_100_000_000_000_000_009,
            username: "tabula_owner".into(),
            global_name: "Owner".into(),
        },
        false,
    );
    json!({
        "id": APPLICATION_ID.to_string(),
        "name": "Tabula",
        "icon": null,
        "description": "Board games",
        "type": null,
        "bot": user_json(&inner.bot_user(), true),
        "bot_public": true,
        "bot_require_code_grant": false,
        "verify_key": super::hex(inner.key.verifying_key().as_bytes()),
        "flags": 0,
        "flags_new": "0",
        "redirect_uris": [],
        "interactions_endpoint_url": null,
        "role_connections_verification_url": null,
        "owner": owner,
        "approximate_guild_count": 1,
        "approximate_user_install_count": 0,
        "approximate_user_authorization_count": 0,
        "explicit_content_filter": 0,
        "team": null,
        "eligible_oauth2_scopes": [],
        "summary": "",
    })
}

fn command_json(c: &Value, id: &str, version: u64, guild: Option<u64>) -> Value {
    let mut v = c.clone();
    let ty = c["type"].as_u64().unwrap_or(1);
    v["id"] = json!(id);
    v["application_id"] = json!(APPLICATION_ID.to_string());
    v["version"] = json!(version.to_string());
    v["type"] = json!(ty);
    if v.get("default_member_permissions").is_none() {
        v["default_member_permissions"] = Value::Null;
    }
    if v.get("description").is_none_or(Value::is_null) {
        v["description"] = json!("");
    }
    if let Some(g) = guild {
        v["guild_id"] = json!(g.to_string());
    }
    if v.get("nsfw").is_none_or(Value::is_null) {
        v["nsfw"] = json!(false);
    }
    if v.get("integration_types").is_none_or(Value::is_null) {
        v["integration_types"] = json!([0]);
    }
    if v.get("contexts").is_some_and(Value::is_null)
        && let Some(o) = v.as_object_mut()
    {
        o.remove("contexts");
    }
    if v.get("dm_permission").is_some_and(Value::is_null)
        && let Some(o) = v.as_object_mut()
    {
        o.remove("dm_permission");
    }
    let _ = short;
    v
}
