//! A reply as Discord's answer to an interaction, and outbox rows as channel messages.
//!
//! Every interaction is answered within Discord's 3 seconds: when the service's reply is
//! ready within [`DEFER_AFTER`] ([`PRESS_DEFER_AFTER`] for a button press, which the presser
//! sees answered at once), it is answered at once with the right response; otherwise it
//! is deferred (a "thinking" message for a command, type 5; a silent acknowledgement for a
//! button, type 6) and edited or followed up when the reply comes.
//!
//! - A reply for the actor alone (refusals, looks at moves) is ephemeral (flag 64). Whether a
//!   deferred command is ephemeral is fixed when deferring, and a command is deferred publicly;
//!   a refusal that comes after that deletes the "thinking" message and follows up
//!   ephemerally. Refusals are fast (no picture), so this is rare.
//! - A picture is a PNG attachment shown by an embed (`attachment://board.png`). Pictures never
//!   travel in the first response (the HTTP endpoint answers with JSON only): a command with a
//!   picture is deferred and its "thinking" message edited into the board.
//! - A file (a game's record) is an attachment of the message, sent the way pictures are.
//! - A button press that brings a new board: the pressed message loses its buttons (type 7),
//!   and the board is posted as a new message (a follow-up), so that the player to act is
//!   notified; the game's previous board loses its buttons too. A press that changes only the
//!   pressed message updates it in place (type 7, or type 6 and an edit with a picture).
//! - `allowed_mentions` names only the people in [`Reply::notify`].

use std::time::Duration;

use serde_json::{Value, json};
use serenity::all::{ChannelId, CreateAttachment, InteractionId, MessageId};
use tokio::sync::oneshot;

use super::Discord;
use super::markdown;
use tabula_service::dispatch::{Cause, Deliver, Delivered, DeliveryError};
use tabula_service::service::{
    Audience, Placement, Reply, Request, ServiceError, Stripped, ThreadRefusal,
};
use tabula_service::store::{GameNo, OutboxRow};

/// How long a command's reply may take before the interaction is deferred (a public
/// "thinking" message, which a quick answer spares the channel).
pub(super) const DEFER_AFTER: Duration = Duration::from_millis(1_200);

/// How long a button press's reply may take before the interaction is deferred (silently:
/// the press is shown answered, and the reply follows).
pub(super) const PRESS_DEFER_AFTER: Duration = Duration::from_millis(400);

/// The board picture's file name.
const PICTURE: &str = "board.png";

/// The message flag of an ephemeral message.
const EPHEMERAL: u64 = 1 << 6;

/// Interaction callback types.
pub(super) const PONG: u8 = 1;
const CHANNEL_MESSAGE: u8 = 4;
const DEFERRED_CHANNEL_MESSAGE: u8 = 5;
const DEFERRED_UPDATE_MESSAGE: u8 = 6;
const UPDATE_MESSAGE: u8 = 7;
pub(super) const AUTOCOMPLETE_RESULT: u8 = 8;

/// Discord's error code for an interaction webhook it does not know (yet).
const UNKNOWN_WEBHOOK: isize = 10015;

/// How the first response reaches Discord.
pub(super) enum First {
    /// `POST /interactions/{id}/{token}/callback` (gateway mode).
    Rest,
    /// The HTTP answer of the interactions endpoint; `sent` fires once it has been written.
    Body {
        answer: oneshot::Sender<Value>,
        sent: oneshot::Receiver<()>,
    },
}

/// An interaction being answered.
pub(super) struct Pending {
    pub id: InteractionId,
    pub token: String,
    pub channel: ChannelId,
    /// A button press: the message pressed.
    pub pressed: Option<MessageId>,
    pub first: Option<First>,
}

/// A message's JSON and its files.
struct Message {
    payload: Value,
    files: Vec<CreateAttachment>,
}

/// The buttons as Discord components: rows of up to 5 secondary buttons; a `custom_id`
/// repeated in a message is left out (Discord refuses duplicates).
fn components(reply: &Reply) -> Value {
    let mut seen = std::collections::HashSet::new();
    let rows: Vec<Value> = reply
        .buttons
        .iter()
        .map(|row| {
            row.iter()
                .filter(|b| !b.data.is_empty() && seen.insert(b.data.clone()))
                .map(|b| {
                    let label: String = b.label.chars().take(80).collect();
                    json!({
                        "type": 2,
                        "style": 2,
                        "label": if label.trim().is_empty() { "·".to_string() } else { label },
                        "custom_id": b.data,
                    })
                })
                .collect::<Vec<_>>()
        })
        .filter(|row| !row.is_empty())
        .take(5)
        .map(|row| json!({"type": 1, "components": row}))
        .collect();
    let mut rows = rows;
    // Links to messages of a server's channel (a private ping's "Open the game", `/mygames`),
    // five to a row within Discord's five rows; Discord has no link that opens a
    // direct-message channel.
    let links: Vec<Value> = reply
        .goto
        .iter()
        .filter_map(|goto| {
            crate::adapters::place_url(&goto.to).map(|url| {
                json!({
                    "type": 2,
                    "style": 5,
                    "label": goto.label.chars().take(80).collect::<String>(),
                    "url": url.as_str(),
                })
            })
        })
        .collect();
    for chunk in links.chunks(5) {
        if rows.len() == 5 {
            break;
        }
        rows.push(json!({"type": 1, "components": chunk}));
    }
    Value::Array(rows)
}

/// The pressed board's update when a press made a new board: its buttons off, and what it
/// says from then on (the move just played), when the reply says it.
fn pressed_then(reply: &Reply) -> Value {
    if reply.pressed_then.is_empty() {
        return json!({"components": []});
    }
    json!({
        "content": markdown::content(&reply.pressed_then, &[]),
        "components": [],
        "allowed_mentions": {"parse": []},
    })
}

/// Who is notified: only the people who must act, never everyone or roles.
fn allowed_mentions(reply: &Reply) -> Value {
    let mut users: Vec<&String> = Vec::new();
    for id in &reply.notify {
        if !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) && !users.contains(&id) {
            users.push(id);
        }
    }
    users.truncate(100);
    json!({"parse": [], "users": users})
}

/// The reply as a message. `create`: a new message (flags may be set); else an edit.
fn message(reply: &Reply, create: bool) -> Message {
    let mut content = markdown::content(&reply.spans, &reply.notify);
    if content.trim().is_empty() && reply.picture.is_none() && reply.buttons.is_empty() {
        content = "…".into();
    }
    let mut payload = json!({
        "content": content,
        "components": components(reply),
        "allowed_mentions": allowed_mentions(reply),
    });
    let mut files = Vec::new();
    if let Some(png) = &reply.picture {
        payload["embeds"] = json!([{"image": {"url": format!("attachment://{PICTURE}")}}]);
        payload["attachments"] = json!([{"id": 0, "filename": PICTURE}]);
        files.push(CreateAttachment::bytes(png.clone(), PICTURE));
    } else if let Some(file) = &reply.file {
        payload["attachments"] = json!([{"id": 0, "filename": file.name}]);
        files.push(CreateAttachment::bytes(
            file.bytes.clone(),
            file.name.clone(),
        ));
    }
    if create && reply.audience == Audience::Actor {
        payload["flags"] = json!(EPHEMERAL);
    }
    Message { payload, files }
}

fn status_and_code(error: &serenity::Error) -> Option<(u16, isize)> {
    match error {
        serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(response)) => {
            Some((response.status_code.as_u16(), response.error.code))
        }
        _ => None,
    }
}

impl Discord {
    /// Answers an interaction with the service's reply to `request`.
    pub(super) async fn answer(&self, request: Request, mut pending: Pending) {
        let work = self.service.handle(&request);
        tokio::pin!(work);
        let patience = if pending.pressed.is_some() {
            PRESS_DEFER_AFTER
        } else {
            DEFER_AFTER
        };
        match tokio::time::timeout(patience, &mut work).await {
            Ok(result) => {
                let reply = outcome(result, &request, &pending);
                self.at_once(&mut pending, reply).await;
            }
            Err(_) => {
                let kind = if pending.pressed.is_some() {
                    DEFERRED_UPDATE_MESSAGE
                } else {
                    DEFERRED_CHANNEL_MESSAGE
                };
                self.first(&mut pending, kind, None).await;
                let reply = outcome(work.await, &request, &pending);
                self.after_deferring(&pending, reply).await;
            }
        }
    }

    /// The reply is ready before the interaction had to be deferred.
    async fn at_once(&self, pending: &mut Pending, reply: Option<Reply>) {
        let component = pending.pressed.is_some();
        let Some(reply) = reply else {
            // A button press nobody answers (a command always has a reply: see `outcome`).
            self.first(pending, DEFERRED_UPDATE_MESSAGE, None).await;
            return;
        };
        // A reply for the presser alone is a new ephemeral message, unless it updates the
        // pressed message (their own `/notify` panel).
        let private = reply.audience == Audience::Actor
            && !(component && reply.placement == Placement::UpdatePressed);
        let board = reply.placement == Placement::NewBoard && reply.game.is_some();
        // Files never travel in the first response either; nor does a reply announcing a
        // change or asking a question, whose message id the service records (the first
        // response tells none).
        let heavy = reply.picture.is_some()
            || reply.file.is_some()
            || board
            || reply.announced.is_some()
            || reply.question
            // A reply that changes another message (a challenge accepted by typing, whose
            // game goes to its own thread) needs its own id, which the first response tells
            // none.
            || reply.pressed.is_some();
        if !component || private {
            if !heavy {
                let data = message(&reply, true).payload;
                self.first(pending, CHANNEL_MESSAGE, Some(data)).await;
                self.after_post(&reply, pending.channel, None, pending.pressed)
                    .await;
                return;
            }
            let flags = if private { EPHEMERAL } else { 0 };
            self.first(
                pending,
                DEFERRED_CHANNEL_MESSAGE,
                Some(json!({ "flags": flags })),
            )
            .await;
            let posted = self.edit_original(pending, message(&reply, false)).await;
            self.after_post(&reply, pending.channel, posted, pending.pressed)
                .await;
            return;
        }
        match reply.placement {
            // An answer to the pressed message (a "which game?" picker, ephemeral: only the
            // interaction's responses can edit it): its buttons go in the first response, and
            // the answer follows as a message of its own.
            Placement::New if answers_pressed(&reply, pending) => {
                self.first(pending, UPDATE_MESSAGE, Some(json!({"components": []})))
                    .await;
                let posted = self.followup(pending, message(&reply, true)).await;
                self.after_post(&reply, pending.channel, posted, pending.pressed)
                    .await;
            }
            Placement::UpdatePressed if reply.picture.is_none() && reply.file.is_none() => {
                let mut data = message(&reply, false).payload;
                if let Some(object) = data.as_object_mut() {
                    object.remove("allowed_mentions");
                }
                let updated = self.first(pending, UPDATE_MESSAGE, Some(data)).await;
                let posted = pending.pressed.filter(|_| updated);
                self.after_post(&reply, pending.channel, posted, pending.pressed)
                    .await;
            }
            Placement::UpdatePressed => {
                self.first(pending, DEFERRED_UPDATE_MESSAGE, None).await;
                let posted = self.edit_original(pending, message(&reply, false)).await;
                self.after_post(&reply, pending.channel, posted, pending.pressed)
                    .await;
            }
            Placement::NewBoard => {
                self.first(pending, UPDATE_MESSAGE, Some(pressed_then(&reply)))
                    .await;
                let posted = self.followup(pending, message(&reply, true)).await;
                self.after_post(&reply, pending.channel, posted, pending.pressed)
                    .await;
            }
            Placement::New if !heavy => {
                let data = message(&reply, true).payload;
                self.first(pending, CHANNEL_MESSAGE, Some(data)).await;
            }
            Placement::New => {
                self.first(pending, DEFERRED_UPDATE_MESSAGE, None).await;
                let posted = self.followup(pending, message(&reply, true)).await;
                self.after_post(&reply, pending.channel, posted, pending.pressed)
                    .await;
            }
        }
    }

    /// The reply came after the interaction was deferred.
    async fn after_deferring(&self, pending: &Pending, reply: Option<Reply>) {
        if pending.pressed.is_none() {
            // A public "thinking" message stands in the channel.
            match reply {
                None => self.delete_original(pending).await,
                Some(reply) if reply.audience == Audience::Actor => {
                    self.delete_original(pending).await;
                    self.followup(pending, message(&reply, true)).await;
                }
                Some(reply) => {
                    let posted = self.edit_original(pending, message(&reply, false)).await;
                    self.after_post(&reply, pending.channel, posted, None).await;
                }
            }
            return;
        }
        let Some(reply) = reply else {
            return;
        };
        if reply.audience == Audience::Actor && reply.placement != Placement::UpdatePressed {
            self.followup(pending, message(&reply, true)).await;
            return;
        }
        match reply.placement {
            Placement::UpdatePressed => {
                let posted = self.edit_original(pending, message(&reply, false)).await;
                self.after_post(&reply, pending.channel, posted, pending.pressed)
                    .await;
            }
            Placement::NewBoard => {
                self.edit_original(
                    pending,
                    Message {
                        payload: pressed_then(&reply),
                        files: Vec::new(),
                    },
                )
                .await;
                let posted = self.followup(pending, message(&reply, true)).await;
                self.after_post(&reply, pending.channel, posted, pending.pressed)
                    .await;
            }
            Placement::New => {
                if answers_pressed(&reply, pending) {
                    // The original message of a press is the pressed one.
                    self.edit_original(
                        pending,
                        Message {
                            payload: json!({"components": []}),
                            files: Vec::new(),
                        },
                    )
                    .await;
                }
                let posted = self.followup(pending, message(&reply, true)).await;
                self.after_post(&reply, pending.channel, posted, pending.pressed)
                    .await;
            }
        }
    }

    /// Sends the interaction's first response (once; later calls do nothing).
    pub(super) async fn first(&self, pending: &mut Pending, kind: u8, data: Option<Value>) -> bool {
        let Some(first) = pending.first.take() else {
            return false;
        };
        let mut response = json!({ "type": kind });
        if let Some(data) = data {
            response["data"] = data;
        }
        match first {
            First::Rest => {
                if let Err(error) = self
                    .http
                    .create_interaction_response(pending.id, &pending.token, &response, Vec::new())
                    .await
                {
                    tracing::warn!(%error, interaction = %pending.id, kind, "cannot answer the interaction");
                    return false;
                }
                true
            }
            First::Body { answer, sent } => {
                if answer.send(response).is_err() {
                    tracing::warn!(interaction = %pending.id, "the endpoint's answer came too late");
                    return false;
                }
                // Follow-ups need Discord to have the answer first.
                let _ = tokio::time::timeout(Duration::from_secs(3), sent).await;
                true
            }
        }
    }

    /// Runs a call to the interaction's webhook; right after the HTTP endpoint answered,
    /// Discord may not know the interaction yet: "Unknown Webhook" is tried again shortly.
    async fn webhook<T, F, Fut>(&self, what: &str, call: F) -> Option<T>
    where
        F: Fn() -> Fut,
        Fut: Future<Output = serenity::Result<T>>,
    {
        self.retrying(what, call).await.ok()
    }

    /// Runs a REST call, tried again after a pause when Discord asks the bot to slow down
    /// (429: serenity's own rate limiter is off when the API is configured, and the global
    /// limit of 50 requests a second can be met when many games move at once) or fails on
    /// its side (5xx), and, in HTTP-interactions mode, when a webhook is not known yet.
    async fn retrying<T, F, Fut>(&self, what: &str, call: F) -> serenity::Result<T>
    where
        F: Fn() -> Fut,
        Fut: Future<Output = serenity::Result<T>>,
    {
        let mut attempt: u32 = 0;
        loop {
            match call().await {
                Ok(value) => return Ok(value),
                Err(error) => {
                    attempt += 1;
                    let again = match status_and_code(&error) {
                        Some((429 | 500..=599, _)) => attempt < 6,
                        Some((_, code)) if code == UNKNOWN_WEBHOOK => self.endpoint && attempt < 4,
                        _ => false,
                    };
                    if again {
                        let pause = 150u64.saturating_mul(1 << (attempt - 1)).min(2_000);
                        tokio::time::sleep(Duration::from_millis(pause)).await;
                        continue;
                    }
                    tracing::warn!(%error, what, "Discord refused a request");
                    return Err(error);
                }
            }
        }
    }

    /// Edits the interaction's original message (the "thinking" message, or the pressed one).
    async fn edit_original(&self, pending: &Pending, message: Message) -> Option<MessageId> {
        self.webhook("edit the original response", || {
            self.http.edit_original_interaction_response(
                &pending.token,
                &message.payload,
                message.files.clone(),
            )
        })
        .await
        .map(|m| m.id)
    }

    /// Posts a follow-up message.
    async fn followup(&self, pending: &Pending, message: Message) -> Option<MessageId> {
        self.webhook("post a follow-up", || {
            self.http.create_followup_message(
                &pending.token,
                &message.payload,
                message.files.clone(),
            )
        })
        .await
        .map(|m| m.id)
    }

    /// Deletes the original "thinking" message.
    async fn delete_original(&self, pending: &Pending) {
        self.webhook("delete the original response", || {
            self.http
                .delete_original_interaction_response(&pending.token)
        })
        .await;
    }

    /// After a reply is posted (`posted`: its message, if it was): it is reported to the
    /// service, and the buttons of the messages the service names are taken off (a board's
    /// older messages), but the pressed message's, which the interaction's response took off
    /// already; a reply announcing a change that could not be posted goes to the outbox.
    async fn after_post(
        &self,
        reply: &Reply,
        channel: ChannelId,
        posted: Option<MessageId>,
        pressed: Option<MessageId>,
    ) {
        let posted = posted.map(|id| id.to_string());
        let stripped = self.service.reply_sent(reply, posted.as_deref()).await;
        for one in &stripped {
            // The interaction's response took the pressed message's buttons off already (and
            // said what followed it, when it could).
            if pressed.is_some_and(|pressed| pressed.to_string() == one.message_id)
                && (one.caption.is_none() || !reply.pressed_then.is_empty())
            {
                continue;
            }
            self.strip_one(channel, reply.game, one).await;
        }
        self.service.strips_made(&stripped).await;
    }

    /// Takes the buttons off `stripped`, a message of `game` in `channel`: an old board of a
    /// game that went on says the move that followed it instead of who was to move. A failure
    /// is logged; a passing one leaves the buttons to the game's next board.
    async fn strip_one(&self, channel: ChannelId, game: Option<GameNo>, stripped: &Stripped) {
        let id = &stripped.message_id;
        let Some(message) = id
            .parse::<u64>()
            .ok()
            .filter(|id| *id != 0)
            .map(MessageId::new)
        else {
            return;
        };
        let components = match &stripped.caption {
            Some(caption) => json!({
                "content": markdown::content(&caption.spans, &[]),
                "components": [],
                "allowed_mentions": {"parse": []},
            }),
            None => json!({"components": []}),
        };
        if let Err(error) = self
            .retrying("take the buttons off an older board", || {
                self.http
                    .edit_message(channel, message, &components, Vec::new())
            })
            .await
            && matches!(classify(&error), DeliveryError::Retry { .. })
            && let Some(game) = game
            && let Err(error) = self.service.buttons_still_on(game, id).await
        {
            tracing::warn!(error = %tabula_service::service::error_chain(&error), "cannot record the buttons left on");
        }
    }
}

/// Whether `reply` answers the message pressed for it, which then loses its buttons
/// ([`Reply::pressed`]).
fn answers_pressed(reply: &Reply, pending: &Pending) -> bool {
    pending
        .pressed
        .is_some_and(|pressed| reply.pressed.as_deref() == Some(pressed.to_string().as_str()))
}

/// The reply to hand on: an internal failure becomes its reply for the actor, and a command
/// the service does not answer (its sender cools down after a flood of refusals) is answered
/// that it does, since Discord wants an answer to every command; a button press nobody answers
/// is acknowledged silently.
fn outcome(
    result: Result<Option<Reply>, ServiceError>,
    request: &Request,
    pending: &Pending,
) -> Option<Reply> {
    match result {
        Ok(Some(reply)) => Some(reply),
        Ok(None) if pending.pressed.is_none() => Some(request.cooling_down_reply()),
        Ok(None) => None,
        Err(error) => Some(error.reply_to(request)),
    }
}

impl Deliver for Discord {
    async fn deliver(&self, row: &OutboxRow) -> Result<Delivered, DeliveryError> {
        let reply = tabula_service::dispatch::render(&self.service, row).await?;
        // The row's chat, or where the row's game is played now (its thread).
        let to = reply.address.chat.clone();
        let channel = match to.strip_prefix(super::DM_PREFIX) {
            // A person's direct messages: the channel is opened (Discord answers with the
            // same one every time).
            Some(user) => self.dm_channel(user).await?,
            None => channel_id(&to),
        };
        let Some(mut channel) = channel else {
            return Err(DeliveryError::Drop {
                reason: format!("not a Discord channel id: {to}"),
            });
        };
        if !reply.strip.is_empty() {
            // A strip whose process died before making it: edits, nothing posted.
            for one in &reply.strip {
                self.strip_one(channel, reply.game, one).await;
            }
            return Ok(Delivered::default());
        }
        if let Some(message) = &reply.rebutton {
            // A board's buttons as they are now (its page link came or went): an edit.
            let Some(message) = message.parse::<u64>().ok().filter(|id| *id != 0) else {
                return Err(DeliveryError::Drop {
                    reason: format!("not a Discord message id: {message}"),
                });
            };
            let id = MessageId::new(message);
            let edit = json!({"components": components(&reply)});
            return match self.http.edit_message(channel, id, &edit, Vec::new()).await {
                Ok(_) => {
                    // A newer board came while this waited: this one shows no buttons.
                    if let Some(game) = reply.game
                        && !self
                            .service
                            .is_live_board(game, &message.to_string())
                            .await
                            .unwrap_or(true)
                    {
                        let off = json!({"components": []});
                        if let Err(error) =
                            self.http.edit_message(channel, id, &off, Vec::new()).await
                        {
                            tracing::debug!(%error, "cannot take the buttons off an old board");
                        }
                    }
                    Ok(Delivered::default())
                }
                Err(error) => match classify(&error) {
                    retry @ DeliveryError::Retry { .. } => Err(retry),
                    // An edit of buttons only: a board deleted, or one the bot may no longer
                    // edit, says nothing of the channel, which stays active.
                    other => Err(DeliveryError::Drop {
                        reason: format!("cannot edit the board's buttons: {other:?}"),
                    }),
                },
            };
        }
        if reply.close_thread {
            // Archived, not deleted: its game ended.
            let archive = json!({"archived": true});
            return match self.http.edit_thread(channel, &archive, None).await {
                Ok(_) => Ok(Delivered::default()),
                Err(error) => Err(classify(&error)),
            };
        }
        let mut reply = reply;
        if reply.open_thread.is_some() {
            reply = self.open_thread(&reply, channel).await?;
            if let Some(thread) = channel_id(&reply.address.chat) {
                channel = thread;
            }
        }
        // Sent elsewhere than the row's chat (a game's thread): a refusal there says nothing
        // of the row's chat, which stays active, and the row is given up (the bot may not
        // write in the thread, or it was deleted): kept, it would hold the channel's queue.
        let elsewhere = reply.address.chat != row.platform_chat_id;
        // A channel message cannot be for one person only.
        reply.audience = Audience::Chat;
        let message = message(&reply, true);
        match self
            .http
            .send_message(channel, message.files, &message.payload)
            .await
        {
            Ok(sent) => {
                self.after_post(&reply, channel, Some(sent.id), None).await;
                Ok(Delivered {
                    message_id: Some(sent.id.to_string()),
                })
            }
            Err(error) => match classify(&error) {
                DeliveryError::Gone { reason } if elsewhere => {
                    tracing::warn!(%reason, "cannot post in the game's thread");
                    Err(DeliveryError::Drop { reason })
                }
                other => Err(other),
            },
        }
    }
}

/// A channel's id as the service writes it.
fn channel_id(text: &str) -> Option<ChannelId> {
    text.parse::<u64>()
        .ok()
        .filter(|id| *id != 0)
        .map(ChannelId::new)
}

/// Discord's longest wait before archiving an idle thread (a week, in minutes): a game's
/// thread stays open between slow moves.
const THREAD_ARCHIVE_MINUTES: u32 = 10_080;

impl Discord {
    /// Opens the public thread a game's first board asks for ([`Reply::open_thread`]) under
    /// `channel` and returns the board to post, addressed to it; when Discord refuses (a
    /// missing permission), the channel is told which one and the board stays there.
    async fn open_thread(&self, reply: &Reply, channel: ChannelId) -> Result<Reply, DeliveryError> {
        let Some(open) = &reply.open_thread else {
            return Ok(reply.clone());
        };
        let internal = |error: ServiceError| DeliveryError::Retry {
            after: None,
            reason: tabula_service::service::error_chain(&error),
            cause: Cause::Internal,
        };
        let wanted = json!({
            "name": open.name,
            "type": 11,
            "auto_archive_duration": THREAD_ARCHIVE_MINUTES,
        });
        match self.http.create_thread(channel, &wanted, None).await {
            Ok(thread) => self
                .service
                .thread_opened(reply, &thread.id.to_string(), &open.name)
                .await
                .map_err(internal),
            Err(error) => {
                let refused = match status_and_code(&error) {
                    Some((403, _)) => Some(ThreadRefusal::CreateThreads),
                    Some((400 | 404, _)) => None,
                    _ => return Err(classify(&error)),
                };
                tracing::warn!(%error, "Discord refused the game's thread");
                let notice = self
                    .service
                    .thread_refused(reply, refused)
                    .await
                    .map_err(internal)?;
                if let Some(notice) = notice {
                    let message = message(&notice, true);
                    if let Err(error) = self
                        .http
                        .send_message(channel, message.files, &message.payload)
                        .await
                    {
                        tracing::warn!(%error, "cannot say why the game has no thread");
                    }
                }
                let mut board = reply.clone();
                board.open_thread = None;
                Ok(board)
            }
        }
    }

    /// The direct-message channel of the person with Discord id `user`: `None` for an id that
    /// is not one.
    ///
    /// # Errors
    /// What Discord's refusal means for the row ([`classify`]).
    async fn dm_channel(&self, user: &str) -> Result<Option<ChannelId>, DeliveryError> {
        let Some(user) = user.parse::<u64>().ok().filter(|id| *id != 0) else {
            return Ok(None);
        };
        let map = json!({ "recipient_id": user.to_string() });
        match self.http.create_private_channel(&map).await {
            Ok(channel) => Ok(Some(channel.id)),
            Err(error) => Err(classify(&error)),
        }
    }
}

/// What the dispatcher should do after Discord refused a message.
fn classify(error: &serenity::Error) -> DeliveryError {
    let reason = error.to_string();
    match status_and_code(error) {
        // The channel is gone, or the bot may no longer see or write in it.
        Some((403 | 404, _)) => DeliveryError::Gone { reason },
        Some((429, _)) => DeliveryError::Retry {
            after: None,
            reason,
            cause: Cause::RateLimited,
        },
        Some((500..=599, _)) => DeliveryError::Retry {
            after: None,
            reason,
            cause: Cause::Server,
        },
        None => DeliveryError::Retry {
            after: None,
            reason,
            cause: Cause::Network,
        },
        Some(_) => DeliveryError::Drop { reason },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_service::service::{Button, Span};

    fn button(data: &str) -> Button {
        Button {
            label: data.to_string(),
            data: data.to_string(),
            label_msg: None,
        }
    }

    #[test]
    fn buttons_become_rows_without_repeated_ids() {
        let reply = Reply {
            buttons: vec![
                vec![button("a"), button("b"), button("a")],
                vec![],
                vec![button("c")],
            ],
            ..Reply::default()
        };
        let rows = components(&reply);
        assert_eq!(rows.as_array().map(Vec::len), Some(2));
        assert_eq!(rows[0]["components"].as_array().map(Vec::len), Some(2));
        assert_eq!(rows[1]["components"][0]["custom_id"], "c");
    }

    #[test]
    fn only_the_people_to_act_are_notified() {
        let reply = Reply {
            spans: vec![Span::Text("hi".into())],
            notify: vec!["12".into(), "12".into(), "x".into(), "34".into()],
            picture: Some(vec![1, 2, 3]),
            audience: Audience::Actor,
            ..Reply::default()
        };
        let created = message(&reply, true);
        assert_eq!(
            created.payload["allowed_mentions"],
            json!({"parse": [], "users": ["12", "34"]})
        );
        assert_eq!(created.payload["flags"], json!(EPHEMERAL));
        assert_eq!(
            created.payload["embeds"][0]["image"]["url"],
            "attachment://board.png"
        );
        assert_eq!(created.files.len(), 1);
        let edited = message(&reply, false);
        assert!(edited.payload.get("flags").is_none());
    }
}
