//! The Telegram adapter: Bot API updates in, the service's replies out, through teloxide.
//!
//! - [`translate`]: an update as a [`Request`] (chat, topic, person, command or button,
//!   mentions).
//! - [`html`]: reply text as Telegram HTML, cut to Telegram's limits.
//! - `send`: a reply as Telegram messages, toasts and edits, and the outbox's [`Deliver`].
//! - `receive`: long polling and the webhook route, with updates of one chat handled in order
//!   and different chats concurrently.
//!
//! The adapter translates; it decides nothing about games. It never opens the store: what it
//! delivered it reports to the service ([`Service::board_posted`]). Telegram's own limits are
//! kept by teloxide's `Throttle` adaptor, whose figures are settings.
//!
//! [`Request`]: tabula_service::service::Request
//! [`Deliver`]: tabula_service::dispatch::Deliver

pub mod html;
mod receive;
mod send;
pub mod translate;

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use teloxide::adaptors::Throttle;
use teloxide::prelude::*;
use teloxide::types::{BotCommand, BotCommandScope, ChatId};

use tabula_service::l10n::Lang;
use tabula_service::service::Service;

pub use receive::{ReceiveError, Receiver, SECRET_HEADER, conflict_message};
pub use teloxide::adaptors::throttle::Limits;

/// How long the list of a group's administrators is trusted.
const ADMINS_TTL: Duration = Duration::from_secs(60);

pub use super::Secret;

/// How updates arrive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// Long polling with `getUpdates` (one process per bot token).
    Polling,
    /// Telegram posts updates to `url`, with `secret` in `X-Telegram-Bot-Api-Secret-Token`.
    Webhook {
        /// The public HTTPS address Telegram posts to (behind a TLS reverse proxy).
        url: url::Url,
        /// The secret Telegram sends with every update.
        secret: Secret,
    },
}

/// The Telegram settings of `tabula run`.
#[derive(Debug, Clone)]
pub struct TelegramSettings {
    /// The bot token from @BotFather.
    pub token: Secret,
    /// The Bot API base URL (a local Bot API server, or a test's fake); `None`: Telegram's.
    pub api_url: Option<url::Url>,
    /// Polling or webhook.
    pub mode: Mode,
    /// The message limits teloxide's `Throttle` keeps.
    pub limits: Limits,
}

/// The documented Telegram limits: about one message a second in a chat, 20 a minute in a
/// group, 30 a second overall (teloxide's own default for supergroups is lower).
pub fn documented_limits() -> Limits {
    Limits {
        messages_per_sec_chat: 1,
        messages_per_min_chat: 20,
        messages_per_min_channel_or_supergroup: 20,
        messages_per_sec_overall: 30,
    }
}

/// The bot client: teloxide's `Bot` behind its `Throttle` adaptor.
pub type Client = Throttle<Bot>;

/// The Telegram adapter: the client, the service and the bot's own identity.
pub struct Telegram {
    client: Client,
    service: Arc<Service>,
    username: String,
    /// The bot's own user id (its rights in a group are asked with it).
    me: UserId,
    admins: Mutex<HashMap<ChatId, (Instant, Vec<UserId>)>>,
    /// Telegram refused a button linking to a web address (a game's page at an address it
    /// does not take, such as `http://localhost:8080`): from then on messages go without them.
    web_links_refused: std::sync::atomic::AtomicBool,
}

impl fmt::Debug for Telegram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Telegram")
            .field("username", &self.username)
            .finish_non_exhaustive()
    }
}

/// Why the adapter could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The token was refused, or Telegram could not be reached.
    #[error("Telegram refused or could not be reached at start ({what}): {source}")]
    Api {
        /// What was being done.
        what: &'static str,
        /// What teloxide said.
        source: teloxide::RequestError,
    },
}

impl Telegram {
    /// Connects: checks the token with `getMe` and registers the command list with
    /// `setMyCommands`. Must run inside the tokio runtime (the throttle's
    /// worker is spawned on it).
    ///
    /// # Errors
    /// The token is refused or the API cannot be reached.
    pub async fn connect(
        settings: &TelegramSettings,
        service: Arc<Service>,
    ) -> Result<Telegram, StartError> {
        let mut bot = Bot::new(settings.token.expose());
        if let Some(url) = &settings.api_url {
            bot = bot.set_api_url(url.clone());
        }
        let client = Throttle::new_spawn(bot, settings.limits);
        let me = client.get_me().await.map_err(|source| StartError::Api {
            what: "getMe",
            source,
        })?;
        let username = me.username().to_string();
        // The English list for everyone, then each other language's for the people whose app
        // speaks it (Telegram's `language_code`: a two-letter ISO 639-1 code). By default the
        // members' list; the groups' administrators see the moderators' commands too.
        for lang in Lang::all() {
            let code = lang.code().split('-').next().unwrap_or_default();
            if lang != Lang::ENGLISH && code.len() != 2 {
                continue;
            }
            let lists = [
                (
                    tabula_service::commands::telegram_member_commands(lang),
                    None,
                ),
                (
                    tabula_service::commands::telegram_commands(lang),
                    Some(BotCommandScope::AllChatAdministrators),
                ),
            ];
            for (list, scope) in lists {
                let commands: Vec<BotCommand> = list
                    .into_iter()
                    .map(|(name, description)| BotCommand::new(name, description))
                    .collect();
                let mut request = client.set_my_commands(commands);
                if let Some(scope) = scope {
                    request = request.scope(scope);
                }
                if lang != Lang::ENGLISH {
                    request = request.language_code(code);
                }
                request.await.map_err(|source| StartError::Api {
                    what: "setMyCommands",
                    source,
                })?;
            }
        }
        Ok(Telegram {
            client,
            service,
            username,
            me: me.id,
            admins: Mutex::new(HashMap::new()),
            web_links_refused: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// The bot's username.
    pub fn username(&self) -> &str {
        &self.username
    }

    /// Whether a person administers a group (its creator or an administrator), by
    /// `getChatAdministrators`, remembered for a minute. When Telegram cannot say, no.
    async fn is_admin(&self, chat: ChatId, user: &str) -> bool {
        let Ok(user) = user.parse::<u64>().map(UserId) else {
            return false;
        };
        let cached = self.admins.lock().ok().and_then(|admins| {
            admins
                .get(&chat)
                .filter(|(at, _)| at.elapsed() < ADMINS_TTL)
                .map(|(_, ids)| ids.contains(&user))
        });
        if let Some(known) = cached {
            return known;
        }
        match self.client.get_chat_administrators(chat).await {
            Ok(members) => {
                let ids: Vec<UserId> = members.iter().map(|m| m.user.id).collect();
                let admin = ids.contains(&user);
                if let Ok(mut admins) = self.admins.lock() {
                    admins.insert(chat, (Instant::now(), ids));
                }
                admin
            }
            Err(error) => {
                tracing::warn!(%error, chat = chat.0, "cannot read the group's administrators");
                false
            }
        }
    }
}
