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
