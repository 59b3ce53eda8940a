//! Getting updates to the bot: `getUpdates` (offsets, limits, long polling, the 409 conflicts),
//! `setWebhook` / `deleteWebhook` / `getWebhookInfo`, and the webhook deliverer (POSTs each
//! update to the routed URL with the secret header; one at a time per chat, at most
//! `max_connections` at once; retries after a short delay).

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use super::Inner;
use super::server::ApiError;
use super::state::{Webhook, WebhookAttempt, unix_now};

type Params = Map<String, Value>;

fn conflict(text: &str) -> ApiError {
    ApiError::refused(409, format!("Conflict: {text}"), None)
}

/// `getUpdates`.
///
/// # Errors
///
/// 409 while a webhook is set, or when a newer `getUpdates` replaced this one.
pub async fn get_updates(inner: &Arc<Inner>, p: &Params) -> Result<Value, ApiError> {
    let mut changed = inner.changed.subscribe();
    let (generation, limit, deadline) = {
        let mut state = inner.lock();
        if state.webhook.is_some() {
            return Err(conflict(
                "can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
            ));
        }
        if let Some(Value::Array(kinds)) = p.get("allowed_updates") {
            state.allowed_updates = Some(
                kinds
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect(),
            );
        }
        match p.get("offset").and_then(Value::as_i64) {
            Some(offset) if offset < 0 => {
                let keep = usize::try_from(offset.unsigned_abs()).unwrap_or(usize::MAX);
                let len = state.updates.len();
                state.updates.drain(..len.saturating_sub(keep));
            }
            Some(offset) => state.updates.retain(|u| u.id >= offset),
            None => {}
        }
        let limit = p
            .get("limit")
            .and_then(Value::as_i64)
            .unwrap_or(100)
            .clamp(1, 100);
        // Telegram keeps a long poll open for at most a few minutes; an hour is plenty here.
        let timeout = p
            .get("timeout")
            .and_then(Value::as_i64)
            .unwrap_or(0)
            .clamp(0, 3600);
        let timeout = Duration::from_secs(u64::try_from(timeout).unwrap_or(0));
        state.poll_generation += 1;
        let generation = state.poll_generation;
        drop(state);
        inner.bump();
        changed.mark_unchanged();
        (
            generation,
            usize::try_from(limit).unwrap_or(100),
            Instant::now() + timeout,
        )
    };
    loop {
        {
            let state = inner.lock();
            if state.poll_generation != generation {
                return Err(conflict(
                    "terminated by other getUpdates request; make sure that only one bot instance is running",
                ));
            }
            if state.webhook.is_some() {
                return Err(conflict(
                    "can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
                ));
            }
            let ready: Vec<Value> = state
                .updates
                .iter()
                .take(limit)
                .map(|u| u.json.clone())
                .collect();
            if !ready.is_empty() || Instant::now() >= deadline {
                return Ok(Value::Array(ready));
            }
        }
        let wait = tokio::time::timeout_at(deadline.into(), changed.changed()).await;
        if matches!(wait, Ok(Err(_))) {
            return Ok(json!([]));
        }
    }
}

/// `setWebhook`: an HTTPS URL on port 443, 80, 88 or 8443, whose host the fake can reach
/// through a route given by `route_webhook`.
///
/// # Errors
///
/// Telegram's refusals for a bad URL, `max_connections` or secret.
pub fn set_webhook(inner: &Arc<Inner>, p: &Params) -> Result<Value, ApiError> {
    let url = p.get("url").and_then(Value::as_str).unwrap_or("");
    if url.is_empty() {
        return delete_webhook(inner, p);
    }
    let parsed =
        reqwest::Url::parse(url).map_err(|_| ApiError::bad("bad webhook: Wrong URL host"))?;
    if parsed.scheme() != "https" {
        return Err(ApiError::bad(
            "bad webhook: An HTTPS URL must be provided for webhook",
        ));
    }
    if !matches!(parsed.port_or_known_default(), Some(443 | 80 | 88 | 8443)) {
        return Err(ApiError::bad(
            "bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443",
        ));
    }
    let max_connections = p
        .get("max_connections")
        .and_then(Value::as_i64)
        .unwrap_or(40);
    if !(1..=100).contains(&max_connections) {
        return Err(ApiError::bad(
            "bad webhook: max_connections must be between 1 and 100",
        ));
    }
    let secret = p.get("secret_token").and_then(Value::as_str);
    if let Some(s) = secret {
        if s.is_empty() || s.len() > 256 {
            return Err(ApiError::bad("secret token must be 1-256 characters long"));
        }
        if !s
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        {
            return Err(ApiError::bad("secret token contains unallowed characters"));
        }
    }
    let mut state = inner.lock();
    if rewrite(&state.routes, url).is_none() {
        return Err(ApiError::bad(
            "bad webhook: Failed to resolve host: Name or service not known",
        ));
    }
    if let Some(Value::Array(kinds)) = p.get("allowed_updates") {
        state.allowed_updates = Some(
            kinds
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
        );
    }
    if p.get("drop_pending_updates").and_then(Value::as_bool) == Some(true) {
        state.updates.retain(|u| u.in_flight);
    }
    state.webhook = Some(Webhook {
        url: url.to_owned(),
        secret: secret.map(str::to_owned),
        max_connections: usize::try_from(max_connections).unwrap_or(40),
        last_error: None,
    });
    drop(state);
    inner.bump();
    Ok(json!(true))
}

/// `deleteWebhook` (and `setWebhook` with an empty URL).
///
/// # Errors
///
/// None so far; the signature matches the other methods.
pub fn delete_webhook(inner: &Arc<Inner>, p: &Params) -> Result<Value, ApiError> {
    let mut state = inner.lock();
    state.webhook = None;
    if p.get("drop_pending_updates").and_then(Value::as_bool) == Some(true) {
        state.updates.retain(|u| u.in_flight);
    }
    drop(state);
    inner.bump();
    Ok(json!(true))
}

/// `getWebhookInfo`.
#[must_use]
pub fn webhook_info(inner: &Arc<Inner>) -> Value {
    let state = inner.lock();
    let mut v = json!({"url": "", "has_custom_certificate": false,
        "pending_update_count": state.updates.len()});
    if let Some(hook) = &state.webhook {
        v["url"] = json!(hook.url);
        v["max_connections"] = json!(hook.max_connections);
        if let Some(kinds) = &state.allowed_updates {
            v["allowed_updates"] = json!(kinds);
        }
        if let Some((date, message)) = &hook.last_error {
            v["last_error_date"] = json!(date);
            v["last_error_message"] = json!(message);
        }
    }
    v
}

/// The local URL for a public webhook URL, by the longest matching route prefix.
#[must_use]
pub fn rewrite(routes: &[(String, String)], url: &str) -> Option<String> {
    routes
        .iter()
        .filter(|(public, _)| url.starts_with(public.as_str()))
        .max_by_key(|(public, _)| public.len())
        .map(|(public, local)| format!("{local}{}", &url[public.len()..]))
}

/// Runs for the fake's lifetime: delivers pending updates while a webhook is set.
pub async fn deliverer(inner: Arc<Inner>) {
    let mut changed = inner.changed.subscribe();
    loop {
        let next_retry = schedule(&inner);
        let wait = next_retry.map_or(Duration::from_secs(3600), |t| {
            t.saturating_duration_since(Instant::now()) + Duration::from_millis(1)
        });
        if let Ok(Err(_)) = tokio::time::timeout(wait, changed.changed()).await {
            return;
        }
    }
}

/// Starts the deliveries that may start now; returns when the next retry is due.
fn schedule(inner: &Arc<Inner>) -> Option<Instant> {
    let now = Instant::now();
    let mut jobs = Vec::new();
    let mut next_retry: Option<Instant> = None;
    {
        let mut state = inner.lock();
        let hook = state.webhook.clone()?;
        let url = rewrite(&state.routes, &hook.url)?;
        let mut in_flight = state.updates.iter().filter(|u| u.in_flight).count();
        let mut busy_chats = HashSet::new();
        for update in &mut state.updates {
            if let Some(chat) = update.chat
                && !busy_chats.insert(chat)
            {
                continue;
            }
            if update.in_flight {
                continue;
            }
            if let Some(at) = update.retry_at.filter(|at| *at > now) {
                next_retry = Some(next_retry.map_or(at, |n| n.min(at)));
                continue;
            }
            if in_flight >= hook.max_connections {
                break;
            }
            update.in_flight = true;
            in_flight += 1;
            jobs.push((update.id, update.json.clone()));
        }
        for (_, json) in &jobs {
            if let Err(e) = inner.spec.check_object(json, "Update") {
                state
                    .self_check
                    .push(format!("webhook update is not a valid Update: {e}"));
            }
        }
        drop(state);
        for (id, json) in jobs {
            let inner = Arc::clone(inner);
            let url = url.clone();
            let secret = hook.secret.clone();
            tokio::spawn(async move { deliver(inner, id, json, url, secret).await });
        }
    }
    next_retry
}

async fn deliver(inner: Arc<Inner>, id: i64, body: Value, url: String, secret: Option<String>) {
    let at = Instant::now();
    let mut request = inner
        .http
        .post(&url)
        .timeout(Duration::from_secs(30))
        .json(&body);
    if let Some(s) = &secret {
        request = request.header("X-Telegram-Bot-Api-Secret-Token", s);
    }
    let (status, error) = match request.send().await {
        Ok(response) => {
            let status = response.status();
            let error = (!status.is_success())
                .then(|| format!("Wrong response from the webhook: {status}"));
            (Some(status.as_u16()), error)
        }
        Err(e) => (None, Some(format!("Connection refused or failed: {e}"))),
    };
    let mut state = inner.lock();
    state.attempts.push(WebhookAttempt {
        update_id: id,
        url,
        secret,
        status,
        error: error.clone(),
        at,
    });
    let retry_delay = state.retry_delay;
    if let Some(message) = error {
        if let Some(hook) = state.webhook.as_mut() {
            hook.last_error = Some((unix_now(), message));
        }
        if let Some(update) = state.updates.iter_mut().find(|u| u.id == id) {
            update.in_flight = false;
            update.retry_at = Some(Instant::now() + retry_delay);
        }
    } else {
        state.updates.retain(|u| u.id != id);
    }
    drop(state);
    inner.bump();
}
