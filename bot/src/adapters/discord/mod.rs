//! The Discord adapter: interactions in (slash commands, button presses, autocomplete), the
//! service's replies out as interaction responses and messages, through serenity.
//!
//! - [`translate`]: an interaction as a [`Request`] (channel, server, member, options).
//! - [`markdown`]: reply text as message content, escaped, within 2,000 characters.
//! - `respond`: a reply as the interaction's response (at once, or deferred and then edited
//!   or followed up), and the outbox's [`Deliver`] over REST.
//! - `receive`: the two ways interactions arrive: the gateway (serenity's client) or the HTTP
//!   interactions endpoint (`/discord/interactions`, Ed25519-verified), both into `respond`.
//!
//! Commands are registered from the command list at start with one bulk overwrite, only when
//! what Discord holds differs, in the guild `DISCORD_GUILD_ID` when set (instant) or globally.
//!
//! [`Request`]: tabula_service::service::Request
//! [`Deliver`]: tabula_service::dispatch::Deliver

pub mod markdown;
mod receive;
mod respond;
pub mod translate;

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;
use serenity::all::{ApplicationId, GuildId};
use serenity::http::{Http, HttpBuilder, LightMethod, Request as HttpRequest, Route};
use tokio_util::task::TaskTracker;

use super::Secret;
use tabula_service::service::Service;

pub use receive::{ENDPOINT_PATH, Gateway, Shards, endpoint_route};

/// The Discord settings of `tabula run`.
#[derive(Debug, Clone)]
pub struct DiscordSettings {
    /// The bot token from the Developer Portal.
    pub token: Secret,
    /// The application's id.
    pub application_id: u64,
    /// The application's public key (64 hex digits): interactions arrive at the HTTP endpoint
    /// instead of the gateway.
    pub public_key: Option<String>,
    /// The API's base URL in place of `https://discord.com` (a test's fake); `None`:
    /// Discord's, with serenity's rate limiter.
    pub api_url: Option<String>,
    /// Register the commands in this server only (instant; for development).
    pub guild_id: Option<u64>,
}

impl DiscordSettings {
    /// The API base as serenity's proxy wants it: scheme and host, without a trailing
    /// `/api/v10` or `/`.
    pub fn proxy(&self) -> Option<String> {
        let url = self.api_url.as_deref()?.trim().trim_end_matches('/');
        let url = url.strip_suffix("/api/v10").unwrap_or(url);
        let url = url.strip_suffix("/api").unwrap_or(url);
        Some(url.trim_end_matches('/').to_string())
    }

    /// A REST client: serenity's, with its rate limiter against Discord, or pointed at the
    /// configured API without it (serenity's rate limiter ignores the proxy).
    fn http(&self) -> Http {
        let mut builder = HttpBuilder::new(self.token.expose())
            .application_id(ApplicationId::new(self.application_id.max(1)));
        if let Some(proxy) = self.proxy() {
            builder = builder.proxy(proxy).ratelimiter_disabled(true);
        }
        builder.build()
    }
}

/// Why the adapter could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The token was refused, or Discord could not be reached.
    #[error("Discord refused or could not be reached at start ({what}): {source}")]
    Api {
        /// What was being done.
        what: &'static str,
        /// What serenity said.
        source: serenity::Error,
    },
    /// The public key is not 64 hex digits of a valid Ed25519 key.
    #[error(
        "DISCORD_PUBLIC_KEY is not an Ed25519 public key in hex (64 digits, from the Developer Portal's General Information page)"
    )]
    PublicKey,
}

/// How a person's direct messages are addressed in the store (`dm:<user id>`): the channel is
/// made when the bot first writes there.
pub(crate) const DM_PREFIX: &str = "dm:";

/// How long an interaction's answer may wait for the server's name the first time it is seen.
const GUILD_LOOKUP_WITHIN: Duration = Duration::from_millis(500);

/// How long before a server's name that could not be read is asked for again.
const GUILD_RETRY: Duration = Duration::from_secs(600);

/// The Discord adapter: the REST client, the service, the bot's identity, and the
/// interactions in hand (finished before shutdown).
pub struct Discord {
    http: Arc<Http>,
    service: Arc<Service>,
    settings: DiscordSettings,
    username: String,
    guild_names: Mutex<HashMap<GuildId, String>>,
    /// When each server's name was last asked for and not learned (asked again after
    /// [`GUILD_RETRY`]).
    guild_lookups: Mutex<HashMap<GuildId, Instant>>,
    tasks: TaskTracker,
    /// HTTP-endpoint mode: follow-ups wait until the endpoint's answer was sent.
    endpoint: bool,
}

impl fmt::Debug for Discord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Discord")
            .field("username", &self.username)
            .field("application_id", &self.settings.application_id)
            .finish_non_exhaustive()
    }
}

impl Discord {
    /// Connects: checks the token (`GET /users/@me`) and registers the commands when they
    /// changed.
    ///
    /// # Errors
    /// The token is refused, the API cannot be reached, or the public key is not a key.
    pub async fn connect(
        settings: &DiscordSettings,
        service: Arc<Service>,
    ) -> Result<Discord, StartError> {
        if let Some(key) = &settings.public_key {
            receive::verifier(key).ok_or(StartError::PublicKey)?;
        }
        let http = Arc::new(settings.http());
        let me = http
            .get_current_user()
            .await
            .map_err(|source| StartError::Api {
                what: "GET /users/@me",
                source,
            })?;
        let discord = Discord {
            http,
            service,
            settings: settings.clone(),
            username: me.name.clone(),
            guild_names: Mutex::new(HashMap::new()),
            guild_lookups: Mutex::new(HashMap::new()),
            tasks: TaskTracker::new(),
            endpoint: settings.public_key.is_some(),
        };
        discord.register_commands().await?;
        Ok(discord)
    }

    /// The bot's username.
    pub fn username(&self) -> &str {
        &self.username
    }

    /// Whether interactions arrive at the HTTP endpoint (else over the gateway).
    pub fn uses_endpoint(&self) -> bool {
        self.endpoint
    }

    /// Waits for the interactions in hand to be answered.
    pub async fn finish(&self) {
        self.tasks.close();
        self.tasks.wait().await;
    }

    /// The server's name: as the gateway told it (GUILD_CREATE), or else asked for once
    /// (`GET /guilds/{id}`, within [`GUILD_LOOKUP_WITHIN`], as the HTTP-interactions mode has
    /// no gateway) and remembered; `None` while Discord has not said.
    async fn guild_name(&self, guild: Option<GuildId>) -> Option<String> {
        let guild = guild?;
        if let Some(name) = self.guild_names.lock().ok()?.get(&guild).cloned() {
            return Some(name);
        }
        {
            let mut lookups = self.guild_lookups.lock().ok()?;
            if lookups
                .get(&guild)
                .is_some_and(|at| at.elapsed() < GUILD_RETRY)
            {
                return None;
            }
            lookups.insert(guild, Instant::now());
        }
        match tokio::time::timeout(GUILD_LOOKUP_WITHIN, self.http.get_guild(guild)).await {
            Ok(Ok(found)) => {
                self.remember_guild(guild, &found.name);
                Some(found.name)
            }
            Ok(Err(error)) => {
                tracing::debug!(%error, %guild, "cannot read the server's name");
                None
            }
            Err(_) => None,
        }
    }

    /// Remembers a server's name (the gateway's GUILD_CREATE, or asked for).
    fn remember_guild(&self, guild: GuildId, name: &str) {
        if let Ok(mut names) = self.guild_names.lock() {
            names.insert(guild, name.to_string());
        }
        if let Ok(mut lookups) = self.guild_lookups.lock() {
            lookups.remove(&guild);
        }
    }

    /// Registers the commands with one bulk overwrite, unless Discord already
    /// holds the same.
    async fn register_commands(&self) -> Result<(), StartError> {
        let application_id = ApplicationId::new(self.settings.application_id.max(1));
        let wanted = tabula_service::commands::discord_commands();
        let route = match self.settings.guild_id {
            Some(guild) => Route::GuildCommands {
                application_id,
                guild_id: GuildId::new(guild.max(1)),
            },
            None => Route::Commands { application_id },
        };
        let held: Value = self
            .http
            .fire(HttpRequest::new(route, LightMethod::Get))
            .await
            .map_err(|source| StartError::Api {
                what: "GET the registered commands",
                source,
            })?;
        if same_commands(&held, &wanted) {
            tracing::info!("Discord commands are up to date");
            return Ok(());
        }
        let result = match self.settings.guild_id {
            Some(guild) => {
                self.http
                    .create_guild_commands(GuildId::new(guild.max(1)), &wanted)
                    .await
            }
            None => self.http.create_global_commands(&wanted).await,
        };
        let registered = result.map_err(|source| StartError::Api {
            what: "PUT the commands (bulk overwrite)",
            source,
        })?;
        tracing::info!(
            commands = registered.len(),
            scope = if self.settings.guild_id.is_some() {
                "guild"
            } else {
                "global"
            },
            "Discord commands registered"
        );
        Ok(())
    }
}

/// Whether the commands Discord holds are the ones wanted: the same commands, each with the
/// same values for every field the command list sets (Discord adds ids, versions and defaults;
/// `false`, `null` and empty lists count as absent).
pub fn same_commands(held: &Value, wanted: &Value) -> bool {
    let (Some(held), Some(wanted)) = (held.as_array(), wanted.as_array()) else {
        return false;
    };
    held.len() == wanted.len()
        && wanted.iter().all(|command| {
            held.iter()
                .find(|h| h.get("name") == command.get("name"))
                .is_some_and(|h| same_shape(h, command))
        })
}

/// The managed fields that must not be set on Discord's side when the command list leaves them
/// out.
const MANAGED: &[&str] = &[
    "options",
    "choices",
    "required",
    "autocomplete",
    "min_value",
    "max_value",
    "min_length",
    "max_length",
    "default_member_permissions",
];

fn meaningful(value: &Value) -> bool {
    match value {
        Value::Null | Value::Bool(false) => false,
        Value::Array(items) => !items.is_empty(),
        _ => true,
    }
}

fn same_shape(held: &Value, wanted: &Value) -> bool {
    match (held, wanted) {
        (Value::Object(held), Value::Object(wanted)) => {
            let wanted_ok = wanted.iter().all(|(key, value)| match held.get(key) {
                Some(h) => same_shape(h, value),
                None => !meaningful(value),
            });
            let nothing_extra = MANAGED
                .iter()
                .all(|key| wanted.contains_key(*key) || !held.get(*key).is_some_and(meaningful));
            wanted_ok && nothing_extra
        }
        (Value::Array(held), Value::Array(wanted)) => {
            held.len() == wanted.len() && held.iter().zip(wanted).all(|(h, w)| same_shape(h, w))
        }
        (Value::Number(h), Value::Number(w)) => h.as_f64() == w.as_f64(),
        (Value::Null, w) | (w, Value::Null) => !meaningful(w),
        (Value::Bool(false), w) | (w, Value::Bool(false)) if !meaningful(w) => true,
        (h, w) => h == w,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_api_url_may_end_in_api_v10() {
        let settings = |url: &str| DiscordSettings {
            token: Secret::new("t"),
            application_id: 1,
            public_key: None,
            api_url: Some(url.into()),
            guild_id: None,
        };
        for url in [
            "http://127.0.0.1:9000",
            "http://127.0.0.1:9000/",
            "http://127.0.0.1:9000/api/v10",
            "http://127.0.0.1:9000/api/v10/",
        ] {
            assert_eq!(
                settings(url).proxy().as_deref(),
                Some("http://127.0.0.1:9000"),
                "{url}"
            );
        }
    }

    #[test]
    fn commands_as_discord_returns_them_are_the_same() {
        let wanted = tabula_service::commands::discord_commands();
        let mut held = wanted.clone();
        for (index, command) in held.as_array_mut().expect("list").iter_mut().enumerate() {
            command["id"] = json!(format!("{}", 1000 + index));
            command["application_id"] = json!("1");
            command["version"] = json!("1");
            command["nsfw"] = json!(false);
            command["dm_permission"] = json!(true);
            for option in command["options"].as_array_mut().expect("options") {
                if option["required"] == json!(false) {
                    option.as_object_mut().expect("object").remove("required");
                }
            }
        }
        held.as_array_mut().expect("list").reverse();
        assert!(same_commands(&held, &wanted));
        let mut changed = held.clone();
        changed[0]["description"] = json!("Something else");
        assert!(!same_commands(&changed, &wanted));
        let mut fewer = held.clone();
        fewer.as_array_mut().expect("list").pop();
        assert!(!same_commands(&fewer, &wanted));
        // A permission set on Discord's side for a command open to everyone differs.
        let mut extra = held;
        let open = extra
            .as_array()
            .expect("list")
            .iter()
            .position(|c| c.get("default_member_permissions").is_none())
            .expect("a command open to everyone");
        extra[open]["default_member_permissions"] = json!("8");
        assert!(!same_commands(&extra, &wanted));
        assert!(!same_commands(&json!([]), &wanted));
    }
}
