//! The `tabula` binary: the command line of the Tabula bot.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use tabula_bot::local::Session;
use tabula_bot::service::{Dice, Service};
use tabula_bot::store::{DatabaseUrl, Store};

mod rules_cli;

/// Tabula: traditional board games in Discord and Telegram.
#[derive(Debug, Parser)]
#[command(name = "tabula", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// The rules engine without any chat platform: legal moves and positions.
    Rules(rules_cli::RulesArgs),
    /// Play in the terminal: lines `<user>: <command>` or `<user>: #<button>` on stdin.
    Local(LocalArgs),
}

/// Arguments of `tabula local`.
#[derive(Debug, clap::Args)]
struct LocalArgs {
    /// The database (sqlite://file or postgres://...).
    #[arg(long = "database", env = "DATABASE_URL", default_value = DatabaseUrl::DEFAULT, hide_env_values = true)]
    database: String,
    /// Where to write board pictures.
    #[arg(long = "images", value_name = "DIR")]
    images: Option<PathBuf>,
    /// A user who moderates the local chat (may use /config, /grant, /take, /abort); repeat
    /// for several.
    #[arg(long = "moderator", value_name = "USER")]
    moderators: Vec<String>,
}

fn main() -> ExitCode {
    // Settings: real environment variables win over `.env` (see `.env.example`).
    let dotenv = dotenvy::dotenv();
    let cli = Cli::parse();
    init_logs();
    if let Err(error) = dotenv
        && !error.not_found()
    {
        tracing::warn!("ignoring .env: {error}");
    }
    match cli.command {
        Command::Rules(args) => rules_cli::run(&args),
        Command::Local(args) => match local(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("tabula local: {error:#}");
                ExitCode::FAILURE
            }
        },
    }
}

/// Logs go to stderr, at the level of `TABULA_LOG` (`error`, `warn`, `info`, `debug`, `trace`;
/// default `warn`), so stdout stays the command's own output.
fn init_logs() {
    let level = std::env::var("TABULA_LOG")
        .ok()
        .and_then(|l| l.parse::<tracing::Level>().ok())
        .unwrap_or(tracing::Level::WARN);
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(level)
        .with_target(false)
        .init();
}

fn local(args: &LocalArgs) -> anyhow::Result<()> {
    let url: DatabaseUrl = args
        .database
        .parse()
        .context("bad --database / DATABASE_URL")?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        let store = Store::connect(&url)
            .await
            .with_context(|| format!("cannot open the {} database", url.scheme()))?;
        let service = Service::new(store.clone(), Dice::Os);
        let mut session =
            Session::new(&service, args.images.as_deref()).with_moderators(args.moderators.clone());
        let stdin = std::io::stdin();
        let mut stdout = std::io::stdout();
        let result = session.run(stdin.lock(), &mut stdout).await;
        store.close().await;
        result.context("terminal session failed")
    })
}
