//! `tabula run`: the long-running bot. It starts every chat platform whose credentials are
//! set, the outbox dispatcher and the scheduler, on one store and one [`Service`], and one HTTP
//! listener for webhooks when a platform needs it. SIGTERM or Ctrl-C stops it: receivers stop
//! taking updates, the updates in hand are finished, the dispatcher finishes the rows it
//! holds, the pool closes; then it returns. Nothing lives only in memory: what was not
//! finished is delivered again by the platform or the outbox.

use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::adapters::Secret;
use crate::adapters::discord::{self, Discord, DiscordSettings, Gateway};
use crate::adapters::telegram::{self, Mode, Receiver, Telegram, TelegramSettings};
use crate::ops::{Health, Link};
use tabula_service::dispatch::{DispatchSettings, Dispatcher};
use tabula_service::service::{Dice, Service};
use tabula_service::store::{DatabaseUrl, MigrateOnStart, Platform, Store};

/// The settings of `tabula run`, each also an environment variable (read from `.env` too).
#[derive(Debug, Clone, clap::Args)]
pub struct RunArgs {
    /// The database: a SQLite file (sqlite://tabula.db, the default) or a PostgreSQL URL.
    #[arg(long = "database", env = "DATABASE_URL", default_value = DatabaseUrl::DEFAULT, hide_env_values = true)]
    pub database: String,
    /// Telegram: the bot token from @BotFather. Telegram is started when it is set.
    #[arg(long, env = "TELEGRAM_BOT_TOKEN", hide_env_values = true)]
    pub telegram_bot_token: Option<String>,
    /// Telegram: the Bot API's base URL, for a local Bot API server (default: Telegram's).
    #[arg(long, env = "TELEGRAM_API_URL")]
    pub telegram_api_url: Option<String>,
    /// Telegram: the public HTTPS URL of the webhook (behind a TLS reverse proxy that forwards
    /// to TABULA_LISTEN). Unset: long polling.
    #[arg(long, env = "TELEGRAM_WEBHOOK_URL")]
    pub telegram_webhook_url: Option<String>,
    /// Telegram: the webhook's secret token (1-256 of A-Z a-z 0-9 _ -), required with
    /// TELEGRAM_WEBHOOK_URL; requests without it are answered 401.
    #[arg(long, env = "TELEGRAM_WEBHOOK_SECRET", hide_env_values = true)]
    pub telegram_webhook_secret: Option<String>,
    /// Telegram: messages per second in one chat (Telegram's limit: about 1).
    #[arg(long, env = "TELEGRAM_CHAT_MESSAGES_PER_SECOND", default_value_t = 1)]
    pub telegram_chat_messages_per_second: u32,
    /// Telegram: messages per minute in one group (Telegram's limit: 20).
    #[arg(long, env = "TELEGRAM_GROUP_MESSAGES_PER_MINUTE", default_value_t = 20)]
    pub telegram_group_messages_per_minute: u32,
    /// Telegram: messages per second in all chats together (Telegram's limit: 30).
    #[arg(long, env = "TELEGRAM_MESSAGES_PER_SECOND", default_value_t = 30)]
    pub telegram_messages_per_second: u32,
    /// Discord: the bot token (Developer Portal, Bot). Discord is started when it and
    /// DISCORD_APPLICATION_ID are set.
    #[arg(long, env = "DISCORD_BOT_TOKEN", hide_env_values = true)]
    pub discord_bot_token: Option<String>,
    /// Discord: the application's id (Developer Portal, General Information).
    #[arg(long, env = "DISCORD_APPLICATION_ID")]
    pub discord_application_id: Option<String>,
    /// Discord: the application's public key (General Information). When set, interactions
    /// arrive at the HTTP endpoint TABULA_LISTEN + /discord/interactions instead of the
    /// gateway.
    #[arg(long, env = "DISCORD_PUBLIC_KEY")]
    pub discord_public_key: Option<String>,
    /// Discord: the API's base URL in place of https://discord.com (for tests; serenity's rate
    /// limiter is then off).
    #[arg(long, env = "DISCORD_API_URL")]
    pub discord_api_url: Option<String>,
    /// Discord: register the commands in this server only (instant; for development).
    /// Unset: globally.
    #[arg(long, env = "DISCORD_GUILD_ID")]
    pub discord_guild_id: Option<String>,
    /// Discord: the gateway shards this process runs, `FIRST-LAST` or one number (for
    /// example 0-1), with DISCORD_SHARD_COUNT; other processes run the others. Unset: every
    /// shard, as many as Discord recommends.
    #[arg(long, env = "DISCORD_SHARDS")]
    pub discord_shards: Option<String>,
    /// Discord: how many gateway shards the bot has in all, with DISCORD_SHARDS.
    #[arg(long, env = "DISCORD_SHARD_COUNT")]
    pub discord_shard_count: Option<String>,
    /// Where the HTTP listener listens (host:port): /healthz, /readyz and /metrics in every
    /// mode, the Telegram webhook and the Discord interactions endpoint when used. Default
    /// 0.0.0.0:8080; when it is not set and only health and metrics need it, a port already
    /// in use is a warning, not a failure.
    #[arg(long, env = "TABULA_LISTEN")]
    pub listen: Option<String>,
    /// The bot's public address (for example https://bot.example.org, or
    /// http://127.0.0.1:8080 to try it locally): every game gets a web page at this address
    /// followed by /g/<token>, served on TABULA_LISTEN and linked from its boards. Unset: no
    /// pages and no links.
    #[arg(long, env = "TABULA_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Migrations at start: `auto` applies the pending ones (the default); `manual` refuses
    /// to start while any is pending (run `tabula migrate`).
    #[arg(long, env = "TABULA_MIGRATE", default_value = "auto", value_parser = ["auto", "manual"])]
    pub migrate: String,
    /// The log's level filter: error, warn, info (the default), debug or trace, or
    /// directives such as `info,tabula_service=debug`.
    #[arg(long = "log", env = "TABULA_LOG")]
    pub log: Option<String>,
    /// The log's format: `text` (the default, for people) or `json` (one object per line).
    #[arg(long = "log-format", env = "TABULA_LOG_FORMAT", value_parser = ["text", "json"])]
    pub log_format: Option<String>,
    /// How often the scheduler looks for reminders, time-outs and expired challenges, in
    /// seconds.
    #[arg(long, env = "TABULA_SCHEDULER_SECONDS", default_value_t = 30)]
    pub scheduler_seconds: u64,
    /// The longest any challenge waits for an answer before it expires, in seconds. Unset: a
    /// challenge naming people waits as long as its time per move (a day at least), an open
    /// one as long as the community's `open_wait` (moderators set it with /config; a day
    /// unless they do).
    #[arg(long, env = "TABULA_CHALLENGE_SECONDS")]
    pub challenge_seconds: Option<u64>,
    /// How long an outbox message taken for delivery is held before another process (or this
    /// one after a crash) may deliver it, in seconds.
    #[arg(long, env = "TABULA_OUTBOX_LEASE_SECONDS", default_value_t = 60)]
    pub outbox_lease_seconds: u64,
}

/// Why `tabula run` could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A setting is missing or wrong: exit status 2.
    #[error("{0}")]
    Settings(String),
    /// Something failed while starting or running.
    #[error("{0}")]
    Failed(String),
}

/// The settings, checked.
#[derive(Debug)]
struct Checked {
    database: DatabaseUrl,
    telegram: Option<TelegramSettings>,
    discord: Option<DiscordSettings>,
    listen: Option<String>,
    migrate: MigrateOnStart,
    shards: Option<discord::Shards>,
    public_url: Option<url::Url>,
    scheduler: Duration,
    challenge_ttl: Option<Duration>,
    lease: Duration,
}

/// An optional setting: unset and empty are the same.
fn given(value: Option<&String>) -> Option<&str> {
    value.map(|v| v.trim()).filter(|v| !v.is_empty())
}

fn check(args: &RunArgs) -> Result<Checked, RunError> {
    let database = match given(Some(&args.database)) {
        None => DatabaseUrl::default(),
        Some(url) => url.parse().map_err(|error| {
            RunError::Settings(format!(
                "DATABASE_URL: {error} (sqlite://FILE or postgres://...)"
            ))
        })?,
    };
    let telegram = match given(args.telegram_bot_token.as_ref()) {
        None => None,
        Some(token) => Some(telegram_settings(args, token)?),
    };
    let discord = discord_settings(args)?;
    let shards = shards(args)?;
    if shards.is_some() && discord.as_ref().is_none_or(|d| d.public_key.is_some()) {
        return Err(RunError::Settings(
            "DISCORD_SHARDS is for Discord's gateway: set DISCORD_BOT_TOKEN and \
             DISCORD_APPLICATION_ID, without DISCORD_PUBLIC_KEY"
                .into(),
        ));
    }
    if telegram.is_none() && discord.is_none() {
        return Err(RunError::Settings(
            "no chat platform is configured: set TELEGRAM_BOT_TOKEN (a Telegram bot token from \
             @BotFather), or DISCORD_BOT_TOKEN and DISCORD_APPLICATION_ID (from Discord's \
             Developer Portal), in the environment or in .env; see `tabula run --help` and \
             .env.example"
                .into(),
        ));
    }
    for (name, value) in [
        ("TABULA_SCHEDULER_SECONDS", args.scheduler_seconds),
        (
            "TABULA_CHALLENGE_SECONDS",
            args.challenge_seconds.unwrap_or(1),
        ),
        ("TABULA_OUTBOX_LEASE_SECONDS", args.outbox_lease_seconds),
    ] {
        if value == 0 {
            return Err(RunError::Settings(format!("{name} must be at least 1")));
        }
    }
    Ok(Checked {
        database,
        telegram,
        discord,
        listen: given(args.listen.as_ref()).map(str::to_string),
        migrate: if args.migrate == "manual" {
            MigrateOnStart::Manual
        } else {
            MigrateOnStart::Apply
        },
        shards,
        public_url: public_url(args)?,
        scheduler: Duration::from_secs(args.scheduler_seconds),
        challenge_ttl: args.challenge_seconds.map(Duration::from_secs),
        lease: Duration::from_secs(args.outbox_lease_seconds),
    })
}

/// `TABULA_PUBLIC_URL`: an http or https address without query or fragment.
fn public_url(args: &RunArgs) -> Result<Option<url::Url>, RunError> {
    let Some(value) = given(args.public_url.as_ref()) else {
        return Ok(None);
    };
    let wrong = |why: &str| {
        RunError::Settings(format!(
            "TABULA_PUBLIC_URL: {why}: {value} (the bot's public address, such as \
             https://bot.example.org or http://127.0.0.1:8080)"
        ))
    };
    let url = url::Url::parse(value).map_err(|error| wrong(&error.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") || !url.has_host() {
        return Err(wrong("not an http or https address"));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(wrong("an address without ? or #"));
    }
    Ok(Some(url))
}

/// `DISCORD_SHARDS` and `DISCORD_SHARD_COUNT`, both or neither.
fn shards(args: &RunArgs) -> Result<Option<discord::Shards>, RunError> {
    let wrong = |what: &str| {
        RunError::Settings(format!(
            "{what}: DISCORD_SHARDS is FIRST-LAST or one number (for example 0-1), below \
             DISCORD_SHARD_COUNT, the number of shards in all (for example 4)"
        ))
    };
    let range = given(args.discord_shards.as_ref());
    let count = given(args.discord_shard_count.as_ref());
    let (range, count) = match (range, count) {
        (None, None) => return Ok(None),
        (Some(_), None) => {
            return Err(wrong("DISCORD_SHARD_COUNT is required with DISCORD_SHARDS"));
        }
        (None, Some(_)) => {
            return Err(wrong("DISCORD_SHARDS is required with DISCORD_SHARD_COUNT"));
        }
        (Some(range), Some(count)) => (range, count),
    };
    let number = |text: &str| text.trim().parse::<u32>().ok();
    let count = number(count).filter(|count| *count >= 1).ok_or_else(|| {
        wrong(&format!(
            "DISCORD_SHARD_COUNT={count} is not a number of shards"
        ))
    })?;
    let (first, last) = match range.split_once('-') {
        Some((first, last)) => (number(first), number(last)),
        None => (number(range), number(range)),
    };
    match (first, last) {
        (Some(first), Some(last)) if first <= last && last < count => Ok(Some(discord::Shards {
            range: first..last + 1,
            count,
        })),
        _ => Err(wrong(&format!(
            "DISCORD_SHARDS={range} with DISCORD_SHARD_COUNT={count}"
        ))),
    }
}

fn telegram_settings(args: &RunArgs, token: &str) -> Result<TelegramSettings, RunError> {
    let url = |name: &str, value: &str| {
        url::Url::parse(value)
            .map_err(|error| RunError::Settings(format!("{name}: not a URL ({error}): {value}")))
    };
    let api_url = given(args.telegram_api_url.as_ref())
        .map(|value| url("TELEGRAM_API_URL", value))
        .transpose()?;
    let mode = match given(args.telegram_webhook_url.as_ref()) {
        None => Mode::Polling,
        Some(value) => {
            let webhook = url("TELEGRAM_WEBHOOK_URL", value)?;
            let Some(secret) = given(args.telegram_webhook_secret.as_ref()) else {
                return Err(RunError::Settings(
                    "TELEGRAM_WEBHOOK_SECRET is required with TELEGRAM_WEBHOOK_URL (1-256 of \
                     A-Z a-z 0-9 _ -): Telegram sends it with every update, and requests \
                     without it are refused"
                        .into(),
                ));
            };
            if secret.len() > 256
                || !secret
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
            {
                return Err(RunError::Settings(
                    "TELEGRAM_WEBHOOK_SECRET must be 1-256 of A-Z a-z 0-9 _ -".into(),
                ));
            }
            Mode::Webhook {
                url: webhook,
                secret: Secret::new(secret),
            }
        }
    };
    let limits = telegram::Limits {
        messages_per_sec_chat: args.telegram_chat_messages_per_second.max(1),
        messages_per_min_chat: args.telegram_group_messages_per_minute.max(1),
        messages_per_min_channel_or_supergroup: args.telegram_group_messages_per_minute.max(1),
        messages_per_sec_overall: args.telegram_messages_per_second.max(1),
    };
    Ok(TelegramSettings {
        token: Secret::new(token),
        api_url,
        mode,
        limits,
    })
}

fn discord_settings(args: &RunArgs) -> Result<Option<DiscordSettings>, RunError> {
    let token = given(args.discord_bot_token.as_ref());
    let application = given(args.discord_application_id.as_ref());
    let (token, application) = match (token, application) {
        (None, None) => {
            if given(args.discord_public_key.as_ref()).is_some() {
                return Err(RunError::Settings(
                    "DISCORD_PUBLIC_KEY is set but DISCORD_BOT_TOKEN and DISCORD_APPLICATION_ID \
                     are not: set both (Developer Portal: Bot, and General Information)"
                        .into(),
                ));
            }
            return Ok(None);
        }
        (Some(_), None) => {
            return Err(RunError::Settings(
                "DISCORD_APPLICATION_ID is required with DISCORD_BOT_TOKEN (the application's id, \
                 on the Developer Portal's General Information page)"
                    .into(),
            ));
        }
        (None, Some(_)) => {
            return Err(RunError::Settings(
                "DISCORD_BOT_TOKEN is required with DISCORD_APPLICATION_ID (the Developer Portal's \
                 Bot page: Reset Token)"
                    .into(),
            ));
        }
        (Some(token), Some(application)) => (token, application),
    };
    let snowflake = |name: &str, value: &str| {
        value
            .parse::<u64>()
            .ok()
            .filter(|id| *id > 0)
            .ok_or_else(|| {
                RunError::Settings(format!("{name} must be a Discord id (digits): {value}"))
            })
    };
    let application_id = snowflake("DISCORD_APPLICATION_ID", application)?;
    let guild_id = given(args.discord_guild_id.as_ref())
        .map(|value| snowflake("DISCORD_GUILD_ID", value))
        .transpose()?;
    let public_key = given(args.discord_public_key.as_ref()).map(str::to_string);
    if let Some(key) = &public_key
        && (key.len() != 64 || !key.bytes().all(|b| b.is_ascii_hexdigit()))
    {
        return Err(RunError::Settings(
            "DISCORD_PUBLIC_KEY must be the application's public key: 64 hex digits (Developer \
             Portal, General Information)"
                .into(),
        ));
    }
    let api_url = given(args.discord_api_url.as_ref())
        .map(|value| {
            url::Url::parse(value)
                .map(|_| value.to_string())
                .map_err(|error| {
                    RunError::Settings(format!("DISCORD_API_URL: not a URL ({error}): {value}"))
                })
        })
        .transpose()?;
    Ok(Some(DiscordSettings {
        token: Secret::new(token),
        application_id,
        public_key,
        api_url,
        guild_id,
    }))
}

/// The database, described without secrets: backend, and host and database or file.
pub fn describe(url: &DatabaseUrl) -> String {
    let raw = url.expose_secret();
    let rest = raw.split_once("://").map_or(raw, |(_, rest)| rest);
    let rest = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
    let rest = rest.split('?').next().unwrap_or(rest);
    match url.backend() {
        Ok(backend) => format!("{backend} {rest}"),
        Err(_) => "an unknown database".into(),
    }
}

/// The outbox's pace per Telegram chat from the limits: one message per 1/(per second) and
/// per 60/(per minute) seconds, whichever is slower.
fn telegram_pace(limits: &telegram::Limits) -> Duration {
    let per_second = Duration::from_secs(1) / limits.messages_per_sec_chat.max(1);
    let per_minute = Duration::from_secs(60) / limits.messages_per_min_chat.max(1);
    per_second.max(per_minute)
}

/// Runs the bot until SIGTERM or Ctrl-C.
///
/// # Errors
/// [`RunError::Settings`] for missing or wrong settings (before anything starts);
/// [`RunError::Failed`] when the database or a platform cannot be reached at start, or a
/// receiver cannot go on (another process polls with the same Telegram token).
pub async fn run(args: &RunArgs) -> Result<(), RunError> {
    let checked = check(args)?;
    let shutdown = CancellationToken::new();
    spawn_signal_handler(shutdown.clone());
    let store = Store::connect_with(&checked.database, checked.migrate)
        .await
        .map_err(|error| {
            RunError::Failed(format!(
                "cannot open the database ({}): {}",
                describe(&checked.database),
                tabula_service::service::error_chain(&error)
            ))
        })?;
    // Every change a request makes is announced through the outbox, held by this process
    // while it posts the reply itself; a process that dies leaves it to any dispatcher within
    // the hold (issue 36).
    let hold = ANNOUNCEMENT_HOLD.min(checked.lease);
    let mut service = Service::new(store.clone(), Dice::Os);
    if let Some(ttl) = checked.challenge_ttl {
        service = service.with_challenge_ttl(ttl);
    }
    if let Some(url) = &checked.public_url {
        service = service.with_public_url(url.as_str());
    }
    let service = Arc::new(service.with_announcements(
        format!("{}/replies", tabula_service::dispatch::random_owner()),
        hold,
    ));
    // In the background: the platforms connect meanwhile.
    tokio::spawn(warm_up_pictures());
    let health = Health::new(store.clone());
    let result = run_platforms(&checked, &service, &health, &shutdown).await;
    shutdown.cancel();
    store.close().await;
    result
}

/// How long this process holds the announcement of a change it answers itself before any
/// dispatcher may deliver it (renewed while it posts): after a crash, the change reaches the
/// chat within this long (or the outbox lease, when shorter).
const ANNOUNCEMENT_HOLD: Duration = Duration::from_secs(10);

/// Draws the start position of every game once as the bot starts, so that the first boards
/// after a start come from the renderer's caches (the font, its glyphs, each board's static
/// picture at its default size) instead of every game of a burst drawing them at the same time.
async fn warm_up_pictures() {
    let drawn = tokio::task::spawn_blocking(|| {
        tabula_core::GameId::ALL
            .iter()
            .filter_map(|id| tabula_core::AnyGame::start(*id, &[], None).ok())
            .filter(|state| tabula_render::render(state, None).is_ok())
            .count()
    })
    .await
    .unwrap_or(0);
    tracing::debug!(drawn, "board pictures warmed up");
}

/// What `tabula run` wires together before it starts: each configured platform's adapter and
/// receiver, the dispatcher's deliverers and pacing, and the routes of the one HTTP listener.
struct Wiring {
    dispatch: DispatchSettings,
    deliverers: tabula_service::dispatch::DispatcherBuilder,
    router: axum::Router,
    routes: usize,
    /// How each platform is reached, for the start-up log line.
    platforms: Vec<String>,
    /// Telegram's receiver (long polling, or the webhook's route and its shutdown).
    receivers: Vec<Receiver>,
    /// Discord over the gateway, or over HTTP interactions (whose route is in the router).
    discord: Option<(Arc<Discord>, DiscordMode)>,
    /// What `/readyz` checks.
    health: Arc<Health>,
    /// The gateway's link, when Discord uses it.
    gateway_link: Option<Link>,
}

/// How Discord reaches the bot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DiscordMode {
    Gateway,
    Interactions,
}

impl Wiring {
    fn new(checked: &Checked, health: &Arc<Health>) -> Wiring {
        Wiring {
            dispatch: DispatchSettings {
                lease: checked.lease,
                ..DispatchSettings::default()
            },
            deliverers: Dispatcher::builder(),
            router: axum::Router::new(),
            routes: 0,
            platforms: Vec::new(),
            receivers: Vec::new(),
            discord: None,
            health: Arc::clone(health),
            gateway_link: None,
        }
    }

    /// Connects to Telegram, registers the bot (commands, webhook) and adds its receiver, route
    /// and deliverer.
    async fn add_telegram(
        &mut self,
        settings: &TelegramSettings,
        service: &Arc<Service>,
        shutdown: &CancellationToken,
    ) -> Result<(), RunError> {
        let telegram = Telegram::connect(settings, Arc::clone(service))
            .await
            .map(Arc::new)
            .map_err(|error| RunError::Failed(error.to_string()))?;
        let receiver = Receiver::new(
            Arc::clone(&telegram),
            settings.mode.clone(),
            shutdown.clone(),
        );
        receiver
            .register()
            .await
            .map_err(|error| RunError::Failed(error.to_string()))?;
        self.health.add(receiver.link());
        if let Some((path, route)) = receiver.webhook_route() {
            self.add_route(&path, route);
            self.platforms.push(format!(
                "Telegram @{} (webhook {path})",
                telegram.username()
            ));
        } else {
            self.platforms
                .push(format!("Telegram @{} (long polling)", telegram.username()));
        }
        self.dispatch
            .pace
            .insert(Platform::Telegram, telegram_pace(&settings.limits));
        self.deliverers =
            std::mem::take(&mut self.deliverers).deliver(Platform::Telegram, Arc::clone(&telegram));
        self.receivers.push(receiver);
        Ok(())
    }

    /// Connects to Discord and adds its interactions route (or notes that it uses the gateway)
    /// and its deliverer.
    async fn add_discord(
        &mut self,
        settings: &DiscordSettings,
        shards: Option<&discord::Shards>,
        service: &Arc<Service>,
        shutdown: &CancellationToken,
    ) -> Result<(), RunError> {
        let discord = Discord::connect(settings, Arc::clone(service))
            .await
            .map(Arc::new)
            .map_err(|error| RunError::Failed(error.to_string()))?;
        let mode =
            if let Some(route) = discord::endpoint_route(Arc::clone(&discord), shutdown.clone()) {
                self.add_route(discord::ENDPOINT_PATH, route);
                self.health.add(&Link::configured("discord"));
                self.platforms.push(format!(
                    "Discord {} (interactions endpoint {})",
                    discord.username(),
                    discord::ENDPOINT_PATH
                ));
                DiscordMode::Interactions
            } else {
                let link = Link::shards("discord", shards.map(|shards| shards.range.clone()));
                self.health.add(&link);
                self.gateway_link = Some(link);
                self.platforms.push(match shards {
                    Some(shards) => format!(
                        "Discord {} (gateway, shards {}-{} of {})",
                        discord.username(),
                        shards.range.start,
                        shards.range.end - 1,
                        shards.count
                    ),
                    None => format!("Discord {} (gateway)", discord.username()),
                });
                DiscordMode::Gateway
            };
        // Discord allows about 5 messages per 5 seconds in a channel.
        self.dispatch
            .pace
            .insert(Platform::Discord, Duration::from_secs(1));
        self.deliverers =
            std::mem::take(&mut self.deliverers).deliver(Platform::Discord, Arc::clone(&discord));
        self.discord = Some((discord, mode));
        Ok(())
    }

    fn add_route(&mut self, path: &str, route: axum::routing::MethodRouter) {
        self.router = std::mem::take(&mut self.router).route(path, route);
        self.routes += 1;
    }

    /// The listener on `TABULA_LISTEN`, in every mode (health and metrics). When it is not
    /// set and no platform needs a route, a default address already in use is a warning.
    async fn listen(&self, checked: &Checked) -> Result<Option<tokio::net::TcpListener>, RunError> {
        let address = checked.listen.as_deref().unwrap_or(DEFAULT_LISTEN);
        match tokio::net::TcpListener::bind(address).await {
            Ok(listener) => Ok(Some(listener)),
            Err(error) if checked.listen.is_none() && self.routes == 0 => {
                tracing::warn!(
                    %error,
                    "cannot listen on {address}: /healthz, /readyz and /metrics are not served; \
                     set TABULA_LISTEN to a free host:port"
                );
                Ok(None)
            }
            Err(error) => Err(RunError::Failed(format!(
                "cannot listen on TABULA_LISTEN={address}: {error}"
            ))),
        }
    }
}

async fn run_platforms(
    checked: &Checked,
    service: &Arc<Service>,
    health: &Arc<Health>,
    shutdown: &CancellationToken,
) -> Result<(), RunError> {
    let mut wiring = Wiring::new(checked, health);
    if let Some(settings) = &checked.telegram {
        wiring.add_telegram(settings, service, shutdown).await?;
    }
    if let Some(settings) = &checked.discord {
        wiring
            .add_discord(settings, checked.shards.as_ref(), service, shutdown)
            .await?;
    }
    let listener = wiring.listen(checked).await?;
    tracing::info!(
        "tabula run: {}; database {}{}",
        wiring.platforms.join(", "),
        describe(&checked.database),
        listener
            .as_ref()
            .and_then(|l| l.local_addr().ok())
            .map_or(String::new(), |addr| format!("; listening on {addr}"))
    );
    // The listener outlives the other tasks: from the shutdown's start `/readyz` says 503
    // while it still answers, until the updates in hand are finished.
    let stop_listening = CancellationToken::new();
    let served = listener.map(|listener| {
        let mut router = std::mem::take(&mut wiring.router).merge(crate::ops::routes(health));
        if service.has_pages() {
            router = router.merge(crate::web::routes(Arc::clone(service), shutdown.clone()));
        }
        let stop = stop_listening.clone();
        tokio::spawn(async move {
            axum::serve(listener, router)
                .with_graceful_shutdown(stop.cancelled_owned())
                .await
        })
    });
    {
        let health = Arc::clone(health);
        let shutdown = shutdown.clone();
        tokio::spawn(async move {
            shutdown.cancelled().await;
            health.stopping();
        });
    }
    let tasks = spawn_tasks(wiring, checked, service, shutdown);
    let result = join_tasks(tasks, shutdown).await;
    stop_listening.cancel();
    if let Some(served) = served {
        match tokio::time::timeout(Duration::from_secs(5), served).await {
            Ok(Ok(Err(error))) if result.is_ok() => {
                return Err(RunError::Failed(format!(
                    "the HTTP listener failed: {error}"
                )));
            }
            _ => {}
        }
    }
    result
}

/// `TABULA_LISTEN`'s default.
const DEFAULT_LISTEN: &str = "0.0.0.0:8080";

/// How often Telegram is asked whether it answers, in webhook mode.
const PROBE_PERIOD: Duration = Duration::from_secs(10);

/// The long-lived tasks of `tabula run`: the dispatcher, the scheduler, the computer, the HTTP
/// listener, and each platform's receiver. A receiver that cannot go on stops the whole bot.
fn spawn_tasks(
    wiring: Wiring,
    checked: &Checked,
    service: &Arc<Service>,
    shutdown: &CancellationToken,
) -> tokio::task::JoinSet<Result<(), RunError>> {
    let Wiring {
        dispatch,
        deliverers,
        receivers,
        discord,
        gateway_link,
        ..
    } = wiring;
    let dispatcher = deliverers.settings(dispatch).build(service.store().clone());
    let mut tasks = tokio::task::JoinSet::new();
    {
        let shutdown = shutdown.clone();
        tasks.spawn(async move {
            dispatcher.run(shutdown.cancelled()).await;
            Ok(())
        });
    }
    {
        let shutdown = shutdown.clone();
        let service = Arc::clone(service);
        let period = checked.scheduler;
        tasks.spawn(async move {
            schedule(&service, period, &shutdown).await;
            Ok(())
        });
    }
    {
        let shutdown = shutdown.clone();
        let service = Arc::clone(service);
        let period = checked.scheduler;
        tasks.spawn(async move {
            play_computer(&service, period, &shutdown).await;
            Ok(())
        });
    }
    match discord {
        Some((discord, DiscordMode::Gateway)) => {
            let shutdown = shutdown.clone();
            let shards = checked.shards.clone();
            let link = gateway_link.unwrap_or_else(|| Link::shards("discord", None));
            tasks.spawn(async move {
                let result = Gateway::run(discord, shards, link, shutdown.clone())
                    .await
                    .map_err(|error| RunError::Failed(error.to_string()));
                // A gateway that cannot go on stops the whole bot.
                shutdown.cancel();
                result
            });
        }
        Some((discord, DiscordMode::Interactions)) => {
            let shutdown = shutdown.clone();
            tasks.spawn(async move {
                shutdown.cancelled().await;
                discord.finish().await;
                Ok(())
            });
        }
        None => {}
    }
    for receiver in receivers {
        let shutdown = shutdown.clone();
        tasks.spawn(async move {
            let result = if receiver.webhook_route().is_some() {
                // Telegram is asked now and then whether it answers (`/readyz`).
                let mut probe = tokio::time::interval(PROBE_PERIOD);
                probe.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                loop {
                    tokio::select! {
                        () = shutdown.cancelled() => break,
                        () = async {
                            probe.tick().await;
                            receiver.probe(PROBE_PERIOD).await;
                        } => {}
                    }
                }
                receiver.finish().await;
                Ok(())
            } else {
                receiver
                    .poll()
                    .await
                    .map_err(|error| RunError::Failed(error.to_string()))
            };
            // One receiver that cannot go on stops the whole bot.
            shutdown.cancel();
            result
        });
    }
    tasks
}

/// Waits for every task; the first failure cancels the others and is the result.
async fn join_tasks(
    mut tasks: tokio::task::JoinSet<Result<(), RunError>>,
    shutdown: &CancellationToken,
) -> Result<(), RunError> {
    let mut result = Ok(());
    while let Some(done) = tasks.join_next().await {
        let outcome =
            done.unwrap_or_else(|error| Err(RunError::Failed(format!("a task failed: {error}"))));
        if let Err(error) = outcome {
            shutdown.cancel();
            if result.is_ok() {
                result = Err(error);
            }
        }
    }
    result
}

/// The scheduler: every `period`, reminders, time-outs and expiries are claimed and written to
/// the outbox (which the dispatcher delivers); private pings too, and also as soon as a board
/// shows a person to move.
async fn schedule(service: &Service, period: Duration, shutdown: &CancellationToken) {
    let mut interval = tokio::time::interval(period);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = shutdown.cancelled() => return,
            _ = interval.tick() => {}
            // A person is to move somewhere: their private ping goes out within seconds.
            () = service.pings_woken() => {
                if let Err(error) = service.claim_pings().await {
                    tracing::error!(error = %tabula_service::service::error_chain(&error), "cannot claim private pings; trying again at the next tick");
                }
                // A game that ended in its own thread: the channel is told, the thread closed.
                if let Err(error) = service.claim_thread_endings().await {
                    tracing::error!(error = %tabula_service::service::error_chain(&error), "cannot claim the ends of games' threads; trying again at the next tick");
                }
                continue;
            }
        }
        if let Err(error) = service.schedule().await {
            tracing::error!(error = %tabula_service::service::error_chain(&error), "scheduler failed; trying again at the next tick");
        }
    }
}

/// The computer worker: plays the computer's moves when a board shows it to move, and every
/// `period` in case one was left (a restart while it was thinking, another instance's board).
/// Stopping drops a move being thought about: nothing of it was written, and the next start
/// thinks again.
async fn play_computer(service: &Service, period: Duration, shutdown: &CancellationToken) {
    loop {
        tokio::select! {
            () = shutdown.cancelled() => return,
            result = service.computer_moves() => {
                if let Err(error) = result {
                    tracing::error!(error = %tabula_service::service::error_chain(&error), "the computer failed; trying again later");
                }
            }
        }
        tokio::select! {
            () = shutdown.cancelled() => return,
            () = service.computer_woken() => {}
            () = tokio::time::sleep(period) => {}
        }
    }
}

/// Cancels `shutdown` on SIGTERM or Ctrl-C.
fn spawn_signal_handler(shutdown: CancellationToken) {
    tokio::spawn(async move {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            match signal(SignalKind::terminate()) {
                Ok(mut term) => {
                    tokio::select! {
                        _ = term.recv() => {}
                        _ = tokio::signal::ctrl_c() => {}
                    }
                }
                Err(_) => {
                    let _ = tokio::signal::ctrl_c().await;
                }
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
        tracing::info!("stopping: finishing the updates in hand");
        shutdown.cancel();
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn database_is_described_without_its_password() {
        let url = DatabaseUrl::new("postgres://bot:s3cret@db.example:5432/tabula?sslmode=require");
        let text = describe(&url);
        assert!(!text.contains("s3cret"), "{text}");
        assert!(text.ends_with("db.example:5432/tabula"), "{text}");
    }

    fn args(pairs: &[(&str, &str)]) -> RunArgs {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            run: RunArgs,
        }
        let mut argv = vec!["tabula".to_string()];
        for (flag, value) in pairs {
            argv.push(format!("--{flag}={value}"));
        }
        Cli::try_parse_from(argv).expect("the arguments parse").run
    }

    #[test]
    fn shard_ranges_are_read_and_bad_ones_refused() {
        let read = |range: &str, count: &str| {
            shards(&args(&[
                ("discord-shards", range),
                ("discord-shard-count", count),
            ]))
        };
        assert_eq!(
            read("0-1", "4").ok().flatten(),
            Some(discord::Shards {
                range: 0..2,
                count: 4
            })
        );
        assert_eq!(read("3", "4").ok().flatten().map(|s| s.range), Some(3..4));
        for (range, count) in [
            ("2-1", "4"),
            ("0-4", "4"),
            ("x", "4"),
            ("0", "0"),
            ("0", "y"),
        ] {
            assert!(
                matches!(read(range, count), Err(RunError::Settings(_))),
                "{range} of {count}"
            );
        }
        assert!(matches!(
            shards(&args(&[("discord-shards", "0-1")])),
            Err(RunError::Settings(_))
        ));
        assert!(matches!(shards(&args(&[])), Ok(None)));
    }

    #[test]
    fn the_public_address_is_an_http_address_without_query() {
        let read = |value: &str| public_url(&args(&[("public-url", value)]));
        assert!(read("https://bot.example.org").is_ok_and(|url| url.is_some()));
        assert!(read("http://127.0.0.1:8080/tabula/").is_ok_and(|url| url.is_some()));
        for wrong in [
            "ftp://bot.example.org",
            "not a url",
            "https://x.org/?a=1",
            "https://x.org/#f",
        ] {
            assert!(matches!(read(wrong), Err(RunError::Settings(_))), "{wrong}");
        }
        assert!(matches!(public_url(&args(&[])), Ok(None)));
    }

    #[test]
    fn the_outbox_paces_telegram_by_the_slower_limit() {
        assert_eq!(
            telegram_pace(&telegram::documented_limits()),
            Duration::from_secs(3)
        );
    }
}
