//! How interactions arrive: over the gateway (serenity's client, autosharded, with only the
//! `GUILDS` intent, for the servers' names) or at the HTTP interactions endpoint, where each
//! request's Ed25519 signature is checked before anything else and the first response is the
//! HTTP answer. Both hand every interaction to the same code (`Discord::dispatch`), which
//! tracks it so that shutdown waits for the interactions in hand.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use serenity::all::{
    ConnectionStage, Context, EventHandler, GatewayIntents, Guild, Interaction, Ready,
    ShardStageUpdateEvent,
};
use serenity::client::ClientBuilder;
use serenity::interactions_endpoint::Verifier;
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use super::respond::{AUTOCOMPLETE_RESULT, First, PONG, Pending};
use super::{Discord, StartError, translate};
use tabula_service::service::{Input, MAX_SUGGESTION_CHARS};

/// Where the interactions endpoint listens (under `TABULA_LISTEN`).
pub const ENDPOINT_PATH: &str = "/discord/interactions";

/// How long the endpoint waits for the first response before giving up (Discord waits 3 s).
const ANSWER_WITHIN: Duration = Duration::from_millis(2_900);

/// How long an autocomplete may take (its answer cannot be deferred).
const SUGGEST_WITHIN: Duration = Duration::from_millis(1_500);

/// The verifier of a public key in hex, if it is one.
pub(super) fn verifier(public_key: &str) -> Option<Verifier> {
    let key = public_key.trim();
    if key.len() != 64 || !key.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut bytes = [0u8; 32];
    for (i, byte) in bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&key[2 * i..2 * i + 2], 16).ok()?;
    }
    Verifier::try_new(bytes).ok()
}

impl Discord {
    /// Answers one interaction, tracked until it is answered.
    fn dispatch(self: &Arc<Self>, interaction: Interaction, first: First) {
        let kind = match &interaction {
            Interaction::Command(_) => "command",
            Interaction::Component(_) => "button",
            Interaction::Autocomplete(_) => "autocomplete",
            Interaction::Modal(_) => "modal",
            _ => "other",
        };
        tabula_service::metrics::metrics().update_received("discord", kind);
        let discord = Arc::clone(self);
        self.tasks
            .spawn(async move { discord.interaction(interaction, first).await });
    }

    async fn interaction(&self, interaction: Interaction, first: First) {
        match interaction {
            Interaction::Command(command) => {
                let origin =
                    translate::command_origin(&command, self.guild_name(command.guild_id).await);
                let pending = Pending {
                    id: command.id,
                    token: command.token.clone(),
                    channel: command.channel_id,
                    pressed: None,
                    first: Some(first),
                };
                match translate::command_request(&command, &origin) {
                    Some(request) => self.answer(request, pending).await,
                    None => {
                        // A command an older version registered: answered like text.
                        let mut request = origin_request(&origin, &command.data.name);
                        request.request_key = command.id.to_string();
                        self.answer(request, pending).await;
                    }
                }
            }
            Interaction::Component(component) => {
                let origin = translate::component_origin(
                    &component,
                    self.guild_name(component.guild_id).await,
                );
                let request = translate::button_request(&component, &origin);
                let pending = Pending {
                    id: component.id,
                    token: component.token.clone(),
                    channel: component.channel_id,
                    pressed: Some(component.message.id),
                    first: Some(first),
                };
                self.answer(request, pending).await;
            }
            Interaction::Autocomplete(command) => {
                let origin =
                    translate::command_origin(&command, self.guild_name(command.guild_id).await);
                let (typed, game) = translate::autocomplete_query(&command);
                let request = origin_request(&origin, &command.data.name);
                let choices = if command.data.name == "move" {
                    match tokio::time::timeout(
                        SUGGEST_WITHIN,
                        self.service.suggest_moves(&request, game, &typed),
                    )
                    .await
                    {
                        Ok(Ok(moves)) => moves,
                        Ok(Err(error)) => {
                            tracing::warn!(error = %tabula_service::service::error_chain(&error), "cannot suggest moves");
                            Vec::new()
                        }
                        Err(_) => Vec::new(),
                    }
                } else if command.data.name == "help" {
                    tabula_service::commands::command_suggestions(&typed)
                } else {
                    Vec::new()
                };
                let choices: Vec<Value> = choices
                    .into_iter()
                    .filter(|m| !m.is_empty() && m.chars().count() <= MAX_SUGGESTION_CHARS)
                    .map(|m| json!({"name": m, "value": m}))
                    .collect();
                let mut pending = Pending {
                    id: command.id,
                    token: command.token.clone(),
                    channel: command.channel_id,
                    pressed: None,
                    first: Some(first),
                };
                self.first(
                    &mut pending,
                    AUTOCOMPLETE_RESULT,
                    Some(json!({ "choices": choices })),
                )
                .await;
            }
            Interaction::Ping(_) => {
                let mut pending = Pending {
                    id: serenity::all::InteractionId::new(1),
                    token: String::new(),
                    channel: serenity::all::ChannelId::new(1),
                    pressed: None,
                    first: Some(first),
                };
                self.first(&mut pending, PONG, None).await;
            }
            other => {
                tracing::debug!(kind = ?other.kind(), "an interaction the bot never asks for");
            }
        }
    }
}

/// A request for a command known only by name (its options are not read).
fn origin_request(origin: &translate::Origin<'_>, name: &str) -> tabula_service::service::Request {
    origin.request(Input::Command(format!("/{name}")))
}

/// The gateway shards one process runs (`DISCORD_SHARDS`, `DISCORD_SHARD_COUNT`): the others
/// run elsewhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shards {
    /// This process's shards.
    pub range: std::ops::Range<u32>,
    /// All the bot's shards.
    pub count: u32,
}

/// The gateway: serenity's client, stopped by the shutdown token.
#[derive(Debug)]
pub struct Gateway;

struct Handler {
    discord: Arc<Discord>,
    link: crate::ops::Link,
}

#[serenity::async_trait]
impl EventHandler for Handler {
    async fn interaction_create(&self, _ctx: Context, interaction: Interaction) {
        self.discord.dispatch(interaction, First::Rest);
    }

    async fn guild_create(&self, _ctx: Context, guild: Guild, _is_new: Option<bool>) {
        self.discord.remember_guild(guild.id, &guild.name);
    }

    async fn shard_stage_update(&self, _ctx: Context, event: ShardStageUpdateEvent) {
        self.link
            .shard(event.shard_id.0, event.new == ConnectionStage::Connected);
    }

    async fn ready(&self, _ctx: Context, ready: Ready) {
        if let Some(shard) = ready.shard {
            self.link.shards_total(shard.total);
            self.link.shard(shard.id.0, true);
        } else {
            self.link.shards_total(1);
            self.link.shard(0, true);
        }
        tracing::info!(
            user = %ready.user.name,
            shard = ?ready.shard,
            servers = ready.guilds.len(),
            "connected to the Discord gateway"
        );
    }
}

impl Gateway {
    /// Runs the gateway until `shutdown`, then waits for the interactions in hand.
    ///
    /// # Errors
    /// The client cannot start or all shards stopped (a refused token, for instance).
    pub async fn run(
        discord: Arc<Discord>,
        shards: Option<Shards>,
        link: crate::ops::Link,
        shutdown: CancellationToken,
    ) -> Result<(), StartError> {
        let handler = Handler {
            discord: Arc::clone(&discord),
            link: link.clone(),
        };
        let mut client =
            ClientBuilder::new_with_http(discord.settings.http(), GatewayIntents::GUILDS)
                .event_handler(handler)
                .await
                .map_err(|source| StartError::Api {
                    what: "start the gateway client",
                    source,
                })?;
        let manager = Arc::clone(&client.shard_manager);
        let start = async {
            match shards {
                None => client.start_autosharded().await,
                // serenity 0.12 reads the range's end as included ("up to and including").
                Some(shards) => {
                    let last = shards.range.end.saturating_sub(1).max(shards.range.start);
                    client
                        .start_shard_range(shards.range.start..last, shards.count)
                        .await
                }
            }
        };
        // The shards' stages as serenity's manager knows them, each second: a shard restarted
        // after unanswered heartbeats is not connected until it is again (`/readyz`).
        let watch = async {
            loop {
                tokio::time::sleep(Duration::from_secs(1)).await;
                let connected: std::collections::BTreeSet<u32> = manager
                    .runners
                    .lock()
                    .await
                    .iter()
                    .filter(|(_, runner)| runner.stage == ConnectionStage::Connected)
                    .map(|(id, _)| id.0)
                    .collect();
                link.connected_shards(&connected);
            }
        };
        let result = tokio::select! {
            () = watch => Ok(()),
            result = start => result.map_err(|source| StartError::Api {
                what: "the gateway",
                source,
            }),
            () = shutdown.cancelled() => Ok(()),
        };
        manager.shutdown_all().await;
        discord.finish().await;
        result
    }
}

/// The interactions endpoint's route: `POST` [`ENDPOINT_PATH`].
pub fn endpoint_route(
    discord: Arc<Discord>,
    shutdown: CancellationToken,
) -> Option<axum::routing::MethodRouter> {
    let verifier = verifier(discord.settings.public_key.as_deref()?)?;
    let handler = move |headers: HeaderMap, body: Bytes| {
        let discord = Arc::clone(&discord);
        let verifier = verifier.clone();
        let shutdown = shutdown.clone();
        async move { endpoint(&discord, &verifier, &shutdown, &headers, &body).await }
    };
    Some(axum::routing::post(handler))
}

async fn endpoint(
    discord: &Arc<Discord>,
    verifier: &Verifier,
    shutdown: &CancellationToken,
    headers: &HeaderMap,
    body: &[u8],
) -> Response {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let (Some(signature), Some(timestamp)) = (
        header("x-signature-ed25519"),
        header("x-signature-timestamp"),
    ) else {
        return (StatusCode::UNAUTHORIZED, "missing request signature").into_response();
    };
    if verifier.verify(signature, timestamp, body).is_err() {
        return (StatusCode::UNAUTHORIZED, "invalid request signature").into_response();
    }
    let interaction: Interaction = match serde_json::from_slice(body) {
        Ok(interaction) => interaction,
        Err(error) => {
            tracing::warn!(%error, "an interaction the bot cannot read");
            return (StatusCode::BAD_REQUEST, "unreadable interaction").into_response();
        }
    };
    if let Interaction::Ping(_) = interaction {
        return json_response(&json!({ "type": PONG }), None);
    }
    if shutdown.is_cancelled() {
        return (StatusCode::SERVICE_UNAVAILABLE, "shutting down").into_response();
    }
    let (answer, answered) = oneshot::channel();
    let (sent, written) = oneshot::channel();
    discord.dispatch(
        interaction,
        First::Body {
            answer,
            sent: written,
        },
    );
    match tokio::time::timeout(ANSWER_WITHIN, answered).await {
        Ok(Ok(response)) => json_response(&response, Some(sent)),
        _ => {
            tracing::error!("an interaction was not answered in time");
            (StatusCode::INTERNAL_SERVER_ERROR, "not answered in time").into_response()
        }
    }
}

/// A JSON answer; `sent` fires when the body has been handed to the connection.
fn json_response(value: &Value, sent: Option<oneshot::Sender<()>>) -> Response {
    let bytes = Bytes::from(serde_json::to_vec(value).unwrap_or_default());
    let body = Body::new(Signalling {
        bytes: Some(bytes),
        sent,
    });
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// A body of one chunk that says when it has been written out (or dropped).
struct Signalling {
    bytes: Option<Bytes>,
    sent: Option<oneshot::Sender<()>>,
}

impl Signalling {
    fn signal(&mut self) {
        if let Some(sent) = self.sent.take() {
            let _ = sent.send(());
        }
    }
}

impl http_body::Body for Signalling {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _cx: &mut TaskContext<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Infallible>>> {
        match self.bytes.take() {
            Some(bytes) => Poll::Ready(Some(Ok(http_body::Frame::data(bytes)))),
            None => {
                self.signal();
                Poll::Ready(None)
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.bytes.is_none()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        http_body::SizeHint::with_exact(self.bytes.as_ref().map_or(0, |b| b.len() as u64))
    }
}

impl Drop for Signalling {
    fn drop(&mut self) {
        self.signal();
    }
}
