//! A reply envelope as Telegram messages.
//!
//! - A button press is answered with `answerCallbackQuery` at once, before anything is posted
//!   and whatever waits in the chat's queue (`receive`): with the reply's toast
//!   ([`Reply::toast_text`]: "Played d6-d4", or a reply for the presser alone that is only
//!   text, such as a refusal or a press on an old board, within 200 characters), and nothing
//!   else is shown for such a reply.
//! - A reply for the person alone that Telegram cannot show privately (to a typed command in a
//!   group, or one with buttons) is the documented fallback: a reply to the person's own
//!   message (or the pressed one), deleted after a minute when it is noise (a refusal, a
//!   stale press: [`Reply::fleeting`]); what the person asked for stays. In a private chat it
//!   is a plain message.
//! - [`Placement::UpdatePressed`]: the pressed message is edited (a typed command has none:
//!   posted as new).
//! - [`Placement::NewBoard`]: a new message (so the player to act is notified), its buttons on
//!   it; the service is told the new board's message id ([`Service::board_posted`]) and names
//!   the messages whose buttons are taken off (the game's older boards, the pressed message),
//!   each once whichever process posted the board; a post that failed is handed to the
//!   outbox ([`Service::board_not_posted`]).
//! - A callback query is answered once ([`Service::may_answer_callback`]), even when Telegram
//!   delivers the press again after a process died; a request already applied
//!   ([`Kind::AlreadyHandled`]) is answered as the original was: the callback without a toast,
//!   a typed command not at all (the change itself is announced through the outbox).
//! - A picture is sent with `sendPhoto`, last, the end of the text as its caption (within
//!   1,024 characters) and any text before that in messages of its own before it; text beyond
//!   4,096 characters is cut into several messages between lines. Buttons go on the last
//!   message (the picture, when there is one).

use std::sync::atomic::Ordering;
use std::time::Duration;

use teloxide::RequestError;
use teloxide::payloads::{
    AnswerCallbackQuerySetters, EditMessageCaptionSetters, EditMessageTextSetters,
    SendMessageSetters, SendPhotoSetters,
};
use teloxide::prelude::*;
use teloxide::types::{
    CallbackQueryId, ChatId, InlineKeyboardButton, InlineKeyboardMarkup, InputFile,
    LinkPreviewOptions, MessageId, ParseMode, ReplyParameters, ThreadId,
};

use super::Telegram;
use super::html::{self, CAPTION_LIMIT, MESSAGE_LIMIT};
use super::translate::{Origin, Trigger, chat_key, parse_chat_key};
use tabula_service::dispatch::{Cause, Deliver, Delivered, DeliveryError};
#[cfg(doc)]
use tabula_service::service::Service;
use tabula_service::service::{
    Audience, FileKind, Kind, Place, Placement, Reply, ServiceError, Stripped, ThreadRefusal,
};
use tabula_service::store::{GameNo, OutboxRow};

/// How long the fallback for a private reply stays in a group.
const PRIVATE_REPLY_LIFETIME: Duration = Duration::from_secs(60);

/// How often a direct reply is tried when the network fails.
const ATTEMPTS: u32 = 3;

/// Where a message goes.
#[derive(Debug, Clone, Copy)]
struct Target {
    chat: ChatId,
    thread: Option<ThreadId>,
    reply_to: Option<MessageId>,
}

/// Why Telegram did not take a message.
#[derive(Debug)]
pub(super) enum SendError {
    /// The bot was blocked, kicked, or the chat is gone.
    Gone(String),
    /// The group became a supergroup with this id.
    Migrated(ChatId),
    /// A passing failure: try again, after `after` if Telegram said.
    Retry {
        after: Option<Duration>,
        reason: String,
        cause: Cause,
    },
    /// Telegram refused the message itself; sending it again would not help.
    Refused(String),
}

fn classify(error: RequestError) -> SendError {
    match error {
        RequestError::MigrateToChatId(to) => SendError::Migrated(to),
        RequestError::RetryAfter(after) => SendError::Retry {
            after: Some(after.duration()),
            reason: "Telegram asked to slow down (429)".into(),
            cause: Cause::RateLimited,
        },
        RequestError::Network(error) => SendError::Retry {
            after: None,
            reason: format!("network: {error}"),
            cause: Cause::Network,
        },
        RequestError::Io(error) => SendError::Retry {
            after: None,
            reason: format!("i/o: {error}"),
            cause: Cause::Network,
        },
        RequestError::InvalidJson { source, .. } => SendError::Retry {
            after: None,
            reason: format!("unreadable answer from Telegram: {source}"),
            cause: Cause::Server,
        },
        RequestError::Api(error) => {
            let text = error.to_string();
            // teloxide names the refusals it knows ("Forbidden: bot was blocked by the
            // user"); others, such as today's wording of a private chat never started ("Forbidden:
            // bot can't initiate conversation with a user"), come as unknown errors quoting it.
            let forbidden = matches!(
                &error,
                teloxide::ApiError::Unknown(said) if said.starts_with("Forbidden")
            ) || matches!(error, teloxide::ApiError::CantInitiateConversation);
            if forbidden
                || text.starts_with("Forbidden")
                || text.contains("bot was kicked")
                || text.contains("chat not found")
            {
                SendError::Gone(text)
            } else if [
                "Too Many Requests",
                "Internal Server Error",
                "Bad Gateway",
                "Gateway Timeout",
                "Service Unavailable",
            ]
            .iter()
            .any(|passing| text.contains(passing))
            {
                let cause = if text.contains("Too Many Requests") {
                    Cause::RateLimited
                } else {
                    Cause::Server
                };
                SendError::Retry {
                    after: None,
                    reason: text,
                    cause,
                }
            } else {
                SendError::Refused(text)
            }
        }
    }
}

/// Whether an edit failed only because nothing changed (or the message is gone already):
/// not an error.
fn harmless(error: &RequestError) -> bool {
    matches!(error, RequestError::Api(api) if {
        let text = api.to_string();
        text.contains("message is not modified") || text.contains("message to edit not found")
            || text.contains("message to delete not found")
    })
}

/// Whether `reply` has a button linking to a web address (a game's page).
fn has_web_links(reply: &Reply) -> bool {
    reply
        .goto
        .iter()
        .any(|goto| matches!(goto.to, Place::Web { .. }))
}

/// Whether Telegram's refusal `said` is of a button's URL ("Bad Request: BUTTON_URL_INVALID";
/// today's wording "inline keyboard button URL '...' is invalid").
fn refuses_button_url(said: &str) -> bool {
    said.contains("BUTTON_URL_INVALID") || said.contains("button URL")
}

fn keyboard(reply: &Reply, username: &str) -> Option<InlineKeyboardMarkup> {
    let mut rows: Vec<Vec<InlineKeyboardButton>> = reply
        .buttons
        .iter()
        .map(|row| {
            row.iter()
                .map(|b| InlineKeyboardButton::callback(b.label.clone(), b.data.clone()))
                .collect()
        })
        .collect();
    for goto in &reply.goto {
        if let Some(url) = goto_url(&goto.to, username) {
            rows.push(vec![InlineKeyboardButton::url(goto.label.clone(), url)]);
        }
    }
    (!rows.is_empty()).then(|| InlineKeyboardMarkup::new(rows))
}

/// Telegram's address of a [`Place`]: a message ([`crate::adapters::message_url`]: a basic
/// group's messages have no link), or the bot's private chat opened with a start parameter
/// (the deep link).
fn goto_url(place: &Place, username: &str) -> Option<url::Url> {
    let text = match place {
        Place::Message { .. } | Place::Thread { .. } | Place::Web { .. } => {
            return crate::adapters::place_url(place);
        }
        Place::PrivateChat if !username.is_empty() => {
            format!("https://t.me/{username}?start=notify")
        }
        Place::PrivateChat => return None,
    };
    url::Url::parse(&text).ok()
}

fn no_preview() -> LinkPreviewOptions {
    LinkPreviewOptions {
        is_disabled: true,
        url: None,
        prefer_small_media: false,
        prefer_large_media: false,
        show_above_text: false,
    }
}

fn message_id(text: &str) -> Option<MessageId> {
    text.parse().ok().map(MessageId)
}

impl Telegram {
    /// What cannot wait for the chat's queue of messages: a button press's callback query,
    /// answered at once with its toast ([`Reply::toast_text`]); a press already answered (a
    /// request delivered again) without one. Nothing for a typed command.
    pub(super) async fn acknowledge(&self, reply: Option<&Reply>, origin: &Origin) {
        let Trigger::Button { query, .. } = &origin.trigger else {
            return;
        };
        let toast = reply
            .filter(|reply| reply.kind != Kind::AlreadyHandled)
            .map(html::toast);
        self.ack(query, toast).await;
    }

    /// Shows a request's reply in the chat as its origin asks (after [`Telegram::acknowledge`];
    /// this may wait behind the chat's earlier messages).
    pub(super) async fn answer(&self, reply: &Reply, origin: &Origin) {
        let target = Target {
            chat: origin.chat,
            thread: origin.thread,
            reply_to: None,
        };
        if reply.kind == Kind::AlreadyHandled {
            // The change itself is announced through the outbox.
            return;
        }
        match &origin.trigger {
            Trigger::Button { message, photo, .. } => {
                if reply.audience == Audience::Actor && reply.buttons.is_empty() {
                    // Its toast said it all.
                    return;
                }
                // A reply for the presser that updates the pressed message (their own
                // `/notify` panel) edits it where it is.
                if reply.audience == Audience::Actor
                    && !origin.private
                    && reply.placement != Placement::UpdatePressed
                {
                    self.post_private(
                        reply,
                        Target {
                            reply_to: *message,
                            ..target
                        },
                    )
                    .await;
                    return;
                }
                match (reply.placement, message) {
                    (Placement::UpdatePressed, Some(pressed))
                        if reply.picture.is_none() && reply.file.is_none() =>
                    {
                        let posted = self.edit(reply, target.chat, *pressed, *photo).await;
                        self.after_post(reply, target.chat, posted).await;
                    }
                    _ => {
                        let posted = self.post_retrying(reply, target).await;
                        self.after_post(reply, target.chat, posted).await;
                    }
                }
            }
            Trigger::Message(id) => {
                if reply.audience == Audience::Actor && !origin.private {
                    self.post_private(
                        reply,
                        Target {
                            reply_to: Some(*id),
                            ..target
                        },
                    )
                    .await;
                    return;
                }
                let posted = self.post_retrying(reply, target).await;
                self.after_post(reply, target.chat, posted).await;
            }
        }
    }

    /// After a reply is posted (`posted`: its last message, if it was): it is reported to the
    /// service, and the buttons of the messages the service names are taken off (a board's
    /// older messages); a reply announcing a change that could not be posted goes to the
    /// outbox.
    async fn after_post(&self, reply: &Reply, chat: ChatId, posted: Option<MessageId>) {
        let posted = posted.map(|id| id.0.to_string());
        let stripped = self.service.reply_sent(reply, posted.as_deref()).await;
        self.strip(reply.game, chat, &stripped).await;
    }

    /// Takes the buttons off `stripped`, messages of `game` in `chat` (an older board says
    /// what followed it), and reports the strip done; a message whose buttons stay for a
    /// passing reason is handed back, for the game's next board.
    async fn strip(&self, game: Option<GameNo>, chat: ChatId, stripped: &[Stripped]) {
        for stripped in stripped {
            let Some(message) = message_id(&stripped.message_id) else {
                continue;
            };
            let done = match &stripped.caption {
                Some(caption) => self.reword(chat, message, caption, stripped.text).await,
                None => self.take_buttons_off(chat, message).await,
            };
            if !done
                && let Some(game) = game
                && let Err(error) = self
                    .service
                    .buttons_still_on(game, &stripped.message_id)
                    .await
            {
                tracing::warn!(error = %tabula_service::service::error_chain(&error), "cannot record the buttons left on");
            }
        }
        self.service.strips_made(stripped).await;
    }

    /// Answers a callback query, with a toast if there is text; not if it was answered
    /// already (by a process that died since, when Telegram delivers the press again).
    pub(super) async fn ack(&self, query: &str, text: Option<String>) {
        if !self
            .service
            .may_answer_callback(tabula_service::store::Platform::Telegram, query)
            .await
        {
            tracing::debug!(query, "the callback query was answered already");
            return;
        }
        let mut request = self
            .client
            .answer_callback_query(CallbackQueryId(query.to_string()));
        if let Some(text) = text.filter(|t| !t.is_empty()) {
            request = request.text(text);
        }
        if let Err(error) = request.await {
            tracing::warn!(%error, "cannot answer a callback query");
        }
    }

    /// The fallback for a reply meant for one person in a group: a reply to their message,
    /// deleted after a minute when it is noise ([`Reply::fleeting`]: a refusal, a stale
    /// press); what they asked for stays.
    async fn post_private(&self, reply: &Reply, target: Target) {
        let Some(posted) = self.post_retrying(reply, target).await else {
            return;
        };
        // A reply to a press of a picker ("which game?") takes the picker's buttons off.
        self.after_post(reply, target.chat, Some(posted)).await;
        if !reply.fleeting() {
            return;
        }
        let client = self.client.clone();
        let chat = target.chat;
        tokio::spawn(async move {
            tokio::time::sleep(PRIVATE_REPLY_LIFETIME).await;
            if let Err(error) = client.delete_message(chat, posted).await
                && !harmless(&error)
            {
                tracing::debug!(%error, "cannot delete a private reply");
            }
        });
    }

    /// Edits the pressed message to read as the reply (its text or caption and its buttons),
    /// or posts the reply when the edit fails: the message that shows it, if any.
    async fn edit(
        &self,
        reply: &Reply,
        chat: ChatId,
        message: MessageId,
        photo: bool,
    ) -> Option<MessageId> {
        let mut result = self.edit_once(reply, chat, message, photo).await;
        if let Err(RequestError::Api(error)) = &result
            && self.links_refused(reply, &error.to_string())
        {
            result = self.edit_once(reply, chat, message, photo).await;
        }
        if let Err(error) = result
            && !harmless(&error)
        {
            tracing::warn!(%error, "cannot edit the pressed message; posting the reply instead");
            let target = Target {
                chat,
                thread: None,
                reply_to: Some(message),
            };
            return self.post_retrying(reply, target).await;
        }
        Some(message)
    }

    /// One edit of the pressed message to read as the reply.
    async fn edit_once(
        &self,
        reply: &Reply,
        chat: ChatId,
        message: MessageId,
        photo: bool,
    ) -> Result<(), RequestError> {
        let markup = self
            .keyboard(reply)
            .unwrap_or_else(|| InlineKeyboardMarkup::new(Vec::<Vec<_>>::new()));
        if photo {
            let caption = html::chunks(reply, CAPTION_LIMIT).into_iter().next();
            let mut request = self
                .client
                .edit_message_caption(chat, message)
                .parse_mode(ParseMode::Html)
                .reply_markup(markup);
            if let Some(caption) = caption {
                request = request.caption(caption);
            }
            request.await.map(|_| ())
        } else {
            let text = html::chunks(reply, MESSAGE_LIMIT)
                .into_iter()
                .next()
                .unwrap_or_else(|| "…".into());
            self.client
                .edit_message_text(chat, message, text)
                .parse_mode(ParseMode::Html)
                .link_preview_options(no_preview())
                .reply_markup(markup)
                .await
                .map(|_| ())
        }
    }

    /// An older message says `said` from then on and its buttons go (an edit without a
    /// keyboard takes it off): an old board of a game that went on, its caption (the move that
    /// followed it); a text message (`text`: a challenge accepted by its button), its text. A
    /// board without a caption (pictures off) only loses its buttons. False when it failed for
    /// a passing reason, as [`Telegram::take_buttons_off`].
    async fn reword(&self, chat: ChatId, message: MessageId, said: &Reply, text: bool) -> bool {
        let limit = if text { MESSAGE_LIMIT } else { CAPTION_LIMIT };
        let body = html::chunks(said, limit)
            .into_iter()
            .next()
            .unwrap_or_default();
        let edited = if text {
            self.client
                .edit_message_text(chat, message, body)
                .parse_mode(ParseMode::Html)
                .await
                .map(drop)
        } else {
            self.client
                .edit_message_caption(chat, message)
                .caption(body)
                .parse_mode(ParseMode::Html)
                .await
                .map(drop)
        };
        match edited {
            Ok(()) => true,
            Err(error) if harmless(&error) => true,
            Err(error) => match classify(error) {
                SendError::Refused(_) => self.take_buttons_off(chat, message).await,
                SendError::Gone(_) => true,
                _ => false,
            },
        }
    }

    /// Makes `reply`'s buttons and links those of message `message` (none: takes them off).
    async fn rebutton(
        &self,
        chat: ChatId,
        message: &str,
        reply: &Reply,
    ) -> Result<Delivered, DeliveryError> {
        let id = message;
        let Some(message) = message_id(message) else {
            return Err(DeliveryError::Drop {
                reason: format!("not a Telegram message id: {message}"),
            });
        };
        for _ in 0..2 {
            let mut edit = self.client.edit_message_reply_markup(chat, message);
            if let Some(markup) = self.keyboard(reply) {
                edit = edit.reply_markup(markup);
            }
            match edit.await {
                Ok(_) => {
                    // A newer board came while this waited: this one shows no buttons.
                    if let Some(game) = reply.game
                        && !self.service.is_live_board(game, id).await.unwrap_or(true)
                    {
                        self.take_buttons_off(chat, message).await;
                    }
                    return Ok(Delivered::default());
                }
                Err(error) if harmless(&error) => return Ok(Delivered::default()),
                Err(error) => match classify(error) {
                    SendError::Refused(said) if self.links_refused(reply, &said) => {}
                    SendError::Migrated(to) => {
                        self.migrated(chat, to).await;
                        return Err(delivery_error(SendError::Migrated(to)));
                    }
                    // Passing: tried again later.
                    retry @ SendError::Retry { .. } => return Err(delivery_error(retry)),
                    // An edit of buttons only: a board deleted, or one the bot may no longer
                    // edit, says nothing of the chat, which stays active.
                    other => {
                        return Err(DeliveryError::Drop {
                            reason: format!("cannot edit the board's buttons: {other:?}"),
                        });
                    }
                },
            }
        }
        Err(DeliveryError::Drop {
            reason: "Telegram refuses the board's buttons".into(),
        })
    }

    /// Takes the buttons off a message (an old board): false when it failed for a passing
    /// reason (it may be tried again with the game's next board).
    async fn take_buttons_off(&self, chat: ChatId, message: MessageId) -> bool {
        match self.client.edit_message_reply_markup(chat, message).await {
            Ok(_) => true,
            Err(error) if harmless(&error) => true,
            Err(error) => {
                tracing::debug!(%error, "cannot take the buttons off an old message");
                matches!(classify(error), SendError::Refused(_) | SendError::Gone(_))
            }
        }
    }

    /// Posts a reply, trying again a few times when the network fails; gives up (logged)
    /// otherwise. Telegram's 429s are retried by the throttle.
    async fn post_retrying(&self, reply: &Reply, target: Target) -> Option<MessageId> {
        let mut wait = Duration::from_millis(500);
        for attempt in 1..=ATTEMPTS {
            match self.post(reply, target).await {
                Ok(posted) => return posted,
                Err(SendError::Retry { after, reason, .. }) if attempt < ATTEMPTS => {
                    tracing::warn!(%reason, attempt, "sending failed; trying again");
                    tokio::time::sleep(after.unwrap_or(wait)).await;
                    wait *= 2;
                }
                Err(error) => {
                    tracing::warn!(?error, "cannot send a reply");
                    return None;
                }
            }
        }
        None
    }

    /// Posts a reply as new messages: its text, and its picture last with the end of the
    /// text as caption; the buttons go on the last message, whose id is returned.
    async fn post(&self, reply: &Reply, target: Target) -> Result<Option<MessageId>, SendError> {
        let mut sent = 0;
        match self.post_once(reply, target, &mut sent).await {
            // Only the last message carries buttons: the ones before it are not sent again.
            Err(SendError::Refused(said)) if self.links_refused(reply, &said) => {
                self.post_once(reply, target, &mut sent).await
            }
            other => other,
        }
    }

    /// The reply's buttons as an inline keyboard, without links to web addresses once Telegram
    /// refused one.
    fn keyboard(&self, reply: &Reply) -> Option<InlineKeyboardMarkup> {
        if self.web_links_refused.load(Ordering::Relaxed) && has_web_links(reply) {
            let mut plain = reply.clone();
            plain
                .goto
                .retain(|goto| !matches!(goto.to, Place::Web { .. }));
            return keyboard(&plain, &self.username);
        }
        keyboard(reply, &self.username)
    }

    /// Whether Telegram's refusal `said` of `reply` was of its link to a web address (a game's
    /// page): then links to web addresses are left out from now on, said once in the log, and
    /// the reply may be sent again without them.
    fn links_refused(&self, reply: &Reply, said: &str) -> bool {
        if !has_web_links(reply) || !refuses_button_url(said) {
            return false;
        }
        if !self.web_links_refused.swap(true, Ordering::Relaxed) {
            tracing::warn!(
                refusal = said,
                "Telegram refuses links to the games' pages at TABULA_PUBLIC_URL; boards go \
                 without them: set it to a public address Telegram takes (https://bot.example.org)"
            );
        }
        true
    }

    /// Posts `reply`'s messages from its `sent`-th on, counting in `sent` those posted.
    async fn post_once(
        &self,
        reply: &Reply,
        target: Target,
        sent: &mut usize,
    ) -> Result<Option<MessageId>, SendError> {
        let skip = *sent;
        let (texts, caption) = if reply.picture.is_some() || reply.file.is_some() {
            html::with_caption(reply)
        } else {
            (html::chunks(reply, MESSAGE_LIMIT), None)
        };
        let mut last = None;
        let count = texts.len();
        for (i, text) in texts.into_iter().enumerate().skip(skip) {
            let mut request = self
                .client
                .send_message(target.chat, text)
                .parse_mode(ParseMode::Html)
                .link_preview_options(no_preview());
            if let Some(thread) = target.thread {
                request = request.message_thread_id(thread);
            }
            if let Some(to) = target.reply_to.filter(|_| *sent == 0) {
                request = request
                    .reply_parameters(ReplyParameters::new(to).allow_sending_without_reply());
            }
            if i + 1 == count
                && reply.picture.is_none()
                && reply.file.is_none()
                && let Some(markup) = self.keyboard(reply)
            {
                request = request.reply_markup(markup);
            }
            last = Some(request.await.map_err(classify)?.id);
            *sent += 1;
        }
        if let Some(png) = &reply.picture {
            let mut request = self
                .client
                .send_photo(
                    target.chat,
                    InputFile::memory(png.clone()).file_name("board.png"),
                )
                .parse_mode(ParseMode::Html);
            if let Some(caption) = caption {
                request = request.caption(caption);
            }
            if let Some(thread) = target.thread {
                request = request.message_thread_id(thread);
            }
            if let Some(to) = target.reply_to.filter(|_| *sent == 0) {
                request = request
                    .reply_parameters(ReplyParameters::new(to).allow_sending_without_reply());
            }
            if let Some(markup) = self.keyboard(reply) {
                request = request.reply_markup(markup);
            }
            last = Some(request.await.map_err(classify)?.id);
            *sent += 1;
        } else if let Some(file) = &reply.file {
            let input = InputFile::memory(file.bytes.clone()).file_name(file.name.clone());
            // The same optional parameters for both methods.
            macro_rules! send_file {
                ($request:expr) => {{
                    let mut request = $request.parse_mode(ParseMode::Html);
                    if let Some(caption) = caption {
                        request = request.caption(caption);
                    }
                    if let Some(thread) = target.thread {
                        request = request.message_thread_id(thread);
                    }
                    if let Some(to) = target.reply_to.filter(|_| *sent == 0) {
                        request = request.reply_parameters(
                            ReplyParameters::new(to).allow_sending_without_reply(),
                        );
                    }
                    if let Some(markup) = self.keyboard(reply) {
                        request = request.reply_markup(markup);
                    }
                    request.await.map_err(classify)?.id
                }};
            }
            last = Some(match file.kind {
                FileKind::Document => send_file!(self.client.send_document(target.chat, input)),
                FileKind::Animation => {
                    send_file!(self.client.send_animation(target.chat, input))
                }
            });
        }
        Ok(last)
    }
}

/// What a failed call to Telegram means for an outbox row.
fn delivery_error(error: SendError) -> DeliveryError {
    match error {
        SendError::Gone(reason) => DeliveryError::Gone { reason },
        SendError::Retry {
            after,
            reason,
            cause,
        } => DeliveryError::Retry {
            after,
            reason,
            cause,
        },
        SendError::Migrated(to) => DeliveryError::Retry {
            after: Some(Duration::ZERO),
            reason: format!("the group became the supergroup {}", to.0),
            cause: Cause::Moved,
        },
        SendError::Refused(reason) => DeliveryError::Drop { reason },
    }
}

/// A failure of the service while delivering: the row is tried again later.
fn internal_error(error: ServiceError) -> DeliveryError {
    DeliveryError::Retry {
        after: None,
        reason: tabula_service::service::error_chain(&error),
        cause: Cause::Internal,
    }
}

/// Why Telegram refused to open a topic, as the service tells the group.
fn topic_refusal(reason: &str) -> Option<ThreadRefusal> {
    if reason.contains("not a forum") || reason.contains("CHAT_NOT_FORUM") {
        Some(ThreadRefusal::NotForum)
    } else if reason.contains("not enough rights") || reason.contains("CHAT_ADMIN_REQUIRED") {
        Some(ThreadRefusal::ManageTopics)
    } else {
        None
    }
}

impl Telegram {
    /// Opens the forum topic a game's first board asks for ([`Reply::open_thread`]) and
    /// returns the board to post, addressed to it; when Telegram refuses, the group is told
    /// why (the service says what) and the board stays in the group.
    async fn open_topic(&self, reply: &Reply, chat: ChatId) -> Result<Reply, DeliveryError> {
        let Some(open) = &reply.open_thread else {
            return Ok(reply.clone());
        };
        // Asked first: a bot without the right would only be refused.
        if !self.may_manage_topics(chat).await {
            return self
                .without_topic(reply, chat, Some(ThreadRefusal::ManageTopics))
                .await;
        }
        match self
            .client
            .create_forum_topic(chat, open.name.clone())
            .await
        {
            Ok(topic) => {
                let key = chat_key(chat, Some(topic.thread_id));
                self.service
                    .thread_opened(reply, &key, &open.name)
                    .await
                    .map_err(internal_error)
            }
            Err(error) => match classify(error) {
                SendError::Refused(reason) => {
                    tracing::warn!(%reason, "Telegram refused the game's topic");
                    self.without_topic(reply, chat, topic_refusal(&reason))
                        .await
                }
                other => Err(delivery_error(other)),
            },
        }
    }

    /// Whether the bot may open topics in `chat`: its owner, or an administrator with the
    /// right to manage topics (when Telegram cannot say, it tries).
    async fn may_manage_topics(&self, chat: ChatId) -> bool {
        use teloxide::types::ChatMemberKind;
        match self.client.get_chat_member(chat, self.me).await {
            Ok(member) => match &member.kind {
                ChatMemberKind::Owner(_) => true,
                ChatMemberKind::Administrator(admin) => admin.can_manage_topics,
                _ => false,
            },
            Err(error) => {
                tracing::warn!(%error, "cannot ask the bot's rights in the group");
                true
            }
        }
    }

    /// The game of `reply` has no topic (`why`, when known): the group is told why (the
    /// service says what), and the board returned is posted in the group.
    async fn without_topic(
        &self,
        reply: &Reply,
        chat: ChatId,
        why: Option<ThreadRefusal>,
    ) -> Result<Reply, DeliveryError> {
        let notice = self
            .service
            .thread_refused(reply, why)
            .await
            .map_err(internal_error)?;
        if let Some(notice) = notice {
            let target = Target {
                chat,
                thread: None,
                reply_to: None,
            };
            if let Err(error) = self.post(&notice, target).await {
                tracing::warn!(?error, "cannot say why the game has no topic");
            }
        }
        let mut board = reply.clone();
        board.open_thread = None;
        Ok(board)
    }

    /// Closes the forum topic `thread` of `chat` (its game ended); one closed already is
    /// left so.
    async fn close_topic(&self, chat: ChatId, thread: ThreadId) -> Result<(), DeliveryError> {
        match self.client.close_forum_topic(chat, thread).await {
            Ok(_) => Ok(()),
            Err(RequestError::Api(error)) if error.to_string().contains("TOPIC_NOT_MODIFIED") => {
                Ok(())
            }
            Err(error) => Err(delivery_error(classify(error))),
        }
    }
}

impl Deliver for Telegram {
    async fn deliver(&self, row: &OutboxRow) -> Result<Delivered, DeliveryError> {
        let mut reply = tabula_service::dispatch::render(&self.service, row).await?;
        // The row's chat, or where the row's game is played now (its topic).
        let Some((chat, thread)) = parse_chat_key(&reply.address.chat) else {
            return Err(DeliveryError::Drop {
                reason: format!("not a Telegram chat id: {}", reply.address.chat),
            });
        };
        if !reply.strip.is_empty() {
            // A strip whose process died before making it: edits, nothing posted.
            self.strip(reply.game, chat, &reply.strip).await;
            return Ok(Delivered::default());
        }
        if let Some(message) = &reply.rebutton {
            // A board's buttons as they are now (its page link came or went): an edit.
            return self.rebutton(chat, message, &reply).await;
        }
        if reply.close_thread {
            if let Some(thread) = thread {
                self.close_topic(chat, thread).await?;
            }
            return Ok(Delivered::default());
        }
        let mut target = Target {
            chat,
            thread,
            reply_to: None,
        };
        if reply.open_thread.is_some() {
            reply = self.open_topic(&reply, chat).await?;
            if let Some((_, topic)) = parse_chat_key(&reply.address.chat) {
                target.thread = topic;
            }
        }
        match self.post(&reply, target).await {
            Ok(posted) => {
                self.after_post(&reply, chat, posted).await;
                Ok(Delivered {
                    message_id: posted.map(|id| id.0.to_string()),
                })
            }
            Err(SendError::Migrated(to)) => {
                self.migrated(chat, to).await;
                Err(delivery_error(SendError::Migrated(to)))
            }
            Err(other) => Err(delivery_error(other)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A refusal for good is the chat gone, whatever wording teloxide knows it by; a passing
    /// one is tried again.
    #[test]
    fn refusals_for_good_are_told_from_passing_ones() {
        let api = |error: teloxide::ApiError| classify(RequestError::Api(error));
        for gone in [
            teloxide::ApiError::Unknown(
                "Forbidden: bot can't initiate conversation with a user".into(),
            ),
            teloxide::ApiError::CantInitiateConversation,
            teloxide::ApiError::BotBlocked,
            teloxide::ApiError::BotKicked,
            teloxide::ApiError::ChatNotFound,
        ] {
            assert!(matches!(api(gone.clone()), SendError::Gone(_)), "{gone:?}");
        }
        assert!(matches!(
            api(teloxide::ApiError::Unknown("Bad Gateway".into())),
            SendError::Retry { .. }
        ));
    }
}
