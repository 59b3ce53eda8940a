//! The chat platforms' adapters: each receives its platform's updates, translates them into
//! the service's requests, and turns the replies into the platform's messages. They decide
//! nothing about games and never open the store. `tabula local` (the terminal) is the first
//! adapter; see [`crate::local`].
//!
//! - [`telegram`]: the Telegram Bot API through teloxide (long polling or a webhook).
//! - [`discord`]: Discord through serenity (the gateway or an HTTP interactions endpoint).

pub mod discord;
pub mod telegram;

use std::fmt;

use tabula_service::store::Platform;

/// The web address of a message, whichever platform shows the link (a person linked on both
/// platforms sees the games of both in `/mygames` and the digest): Discord's message link
/// (`@me` for a channel that stands alone, a direct-message channel); on Telegram the
/// `t.me/c/<id>/<message>` link of a supergroup's message (its id without `-100`; in a forum
/// topic, the topic's message link), none for a basic group's.
pub fn message_url(
    platform: Platform,
    chat: &str,
    community: &str,
    message: &str,
) -> Option<url::Url> {
    let text = match platform {
        Platform::Discord => format!(
            "https://discord.com/channels/{}/{chat}/{message}",
            if community == chat { "@me" } else { community }
        ),
        Platform::Telegram => {
            // A topic's chat is `<chat>:<topic>`.
            let (chat, topic) = match chat.split_once(':') {
                Some((chat, topic)) => (chat, Some(topic)),
                None => (chat, None),
            };
            let channel = chat.strip_prefix("-100")?;
            match topic {
                Some(topic) => format!("https://t.me/c/{channel}/{topic}/{message}"),
                None => format!("https://t.me/c/{channel}/{message}"),
            }
        }
        Platform::Local | Platform::Computer => return None,
    };
    url::Url::parse(&text).ok()
}

/// The web address of a game's thread or forum topic: Discord's channel link; Telegram's
/// `t.me/c/<id>/<topic>` (a chat that is not a topic has none).
pub fn thread_url(platform: Platform, chat: &str, community: &str) -> Option<url::Url> {
    let text = match platform {
        Platform::Discord => format!("https://discord.com/channels/{community}/{chat}"),
        Platform::Telegram => {
            let (chat, topic) = chat.split_once(':')?;
            format!("https://t.me/c/{}/{topic}", chat.strip_prefix("-100")?)
        }
        Platform::Local | Platform::Computer => return None,
    };
    url::Url::parse(&text).ok()
}

/// The link of a [`Place`](tabula_service::service::Place) that is a message or a thread, on
/// either platform; `None` for the bot's private chat (each adapter has its own way there).
pub fn place_url(place: &tabula_service::service::Place) -> Option<url::Url> {
    use tabula_service::service::Place;
    match place {
        Place::Message {
            platform,
            chat,
            community,
            message,
        } => message_url(*platform, chat, community, message),
        Place::Thread {
            platform,
            chat,
            community,
        } => thread_url(*platform, chat, community),
        Place::Web { url } => url::Url::parse(url).ok(),
        Place::PrivateChat => None,
    }
}

/// A secret (the bot token, the webhook secret) whose `Debug` never shows it.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a secret.
    pub fn new(secret: impl Into<String>) -> Secret {
        Secret(secret.into())
    }

    /// The secret itself, for the one place that needs it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}
