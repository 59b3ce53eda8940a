//! The `tabula` binary: the command line of the Tabula bot.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use tabula_bot::local::Session;
use tabula_bot::service::{Clock, Dice, Service};
use tabula_bot::store::{DatabaseUrl, Store};

mod logs;
mod operate;
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
    /// Run the bot on the chat platforms whose credentials are set (Telegram), until SIGTERM
    /// or Ctrl-C. Every setting is also an environment variable, read from `.env` too.
    Run(Box<tabula_bot::run::RunArgs>),
    /// Check a game's record (from /export): every action legal, the seed against the
    /// commitment, every roll the one the seed gives. Exit 0 when it verifies, 1 when it does
    /// not (the first line that fails), 2 when the file cannot be read.
    Verify {
        /// The record file.
        file: PathBuf,
    },
    /// Apply the database's pending migrations and say which (the database of `tabula run`:
    /// DATABASE_URL, .env, or the SQLite default). With --check, only list the pending ones
    /// and exit 1 when there are any.
    Migrate(operate::MigrateArgs),
    /// Write a consistent copy of the SQLite database to FILE while the bot runs (SQLite's
    /// VACUUM INTO), and check it; for PostgreSQL, run pg_dump when it is installed, or say
    /// how to.
    Backup(operate::BackupArgs),
    /// The languages of the message catalogue and what each lacks against English (messages
    /// missing or stale, variables that differ, files that cannot be read). Exit 0 when every
    /// language (or the one named) is complete, 1 when one lacks something.
    Locales {
        /// Check only this language (its folder's name, e.g. ru).
        code: Option<String>,
    },
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
    /// The language of the session: en, ru or bg (every folder of the message catalogue).
    #[arg(long = "language", value_name = "CODE", value_parser = parse_language)]
    language: Option<tabula_bot::l10n::Lang>,
}

/// A language of the message catalogue, for `--language`.
fn parse_language(code: &str) -> Result<tabula_bot::l10n::Lang, String> {
    tabula_bot::l10n::Lang::parse(code).ok_or_else(|| {
        let known: Vec<&str> = tabula_bot::l10n::Lang::all()
            .map(|lang| lang.code())
            .collect();
        format!(
            "no language `{code}`; the languages are {}",
            known.join(", ")
        )
    })
}

fn main() -> ExitCode {
    // Settings: real environment variables win over `.env` (see `.env.example`).
    let dotenv = dotenvy::dotenv();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return usage_error(&error),
    };
    // `tabula run` says at start what it runs; the other commands only warn.
    let settings = match &cli.command {
        Command::Run(args) => logs::Settings {
            default: "info",
            filter: args.log.clone(),
            json: args.log_format.as_deref() == Some("json"),
            secrets: logs::secrets(&[
                args.telegram_bot_token.as_deref(),
                args.discord_bot_token.as_deref(),
                args.telegram_webhook_secret.as_deref(),
                Some(args.database.as_str()),
            ]),
        },
        _ => logs::Settings {
            default: "warn",
            filter: std::env::var("TABULA_LOG").ok(),
            json: std::env::var("TABULA_LOG_FORMAT").is_ok_and(|f| f == "json"),
            secrets: logs::secrets(&[std::env::var("DATABASE_URL").ok().as_deref()]),
        },
    };
    let json = settings.json;
    logs::init(settings);
    if let Err(error) = dotenv
        && !error.not_found()
    {
        tracing::warn!("ignoring .env: {error}");
    }
    match cli.command {
        Command::Rules(args) => rules_cli::run(&args),
        Command::Run(args) => run(&args, json),
        Command::Migrate(args) => operate::migrate(&args),
        Command::Backup(args) => operate::backup(&args),
        Command::Verify { file } => verify(&file),
        Command::Locales { code } => locales(code.as_deref()),
        Command::Local(args) => match local(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("tabula local: {error:#}");
                ExitCode::FAILURE
            }
        },
    }
}

/// `tabula verify <file>`: the summary on stdout and 0, or the failing line on stderr and 1
/// (2 when the file cannot be read or parsed).
fn verify(file: &std::path::Path) -> ExitCode {
    use tabula_bot::export::{Record, verify};
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("tabula verify: cannot read {}: {error}", file.display());
            return ExitCode::from(2);
        }
    };
    let record = match Record::parse(&text) {
        Ok(record) => record,
        Err(error) => {
            eprintln!("tabula verify: {}: {error}", file.display());
            return ExitCode::from(2);
        }
    };
    match verify(&record) {
        Ok(verified) => {
            println!("{}", verified.summary());
            ExitCode::SUCCESS
        }
        Err(failure) => {
            eprintln!(
                "tabula verify: {}: does not verify: {failure}",
                file.display()
            );
            ExitCode::FAILURE
        }
    }
}

/// A command line that cannot be parsed. `tabula rules` keeps the rules contract: one line on
/// stderr, exit status 2; help and version go to stdout as usual.
fn usage_error(error: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) || std::env::args().nth(1).as_deref() != Some("rules")
    {
        let _ = error.print();
        return ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2));
    }
    let rendered = error.render().to_string();
    let line = rendered
        .lines()
        .find(|line| !line.trim().is_empty())
        .unwrap_or("error: bad arguments");
    eprintln!("{}", line.trim());
    ExitCode::from(2)
}

fn local(args: &LocalArgs) -> anyhow::Result<()> {
    // `DATABASE_URL=` (set but empty) means the default, like an unset one.
    let url: DatabaseUrl = if args.database.trim().is_empty() {
        DatabaseUrl::default()
    } else {
        args.database
            .parse()
            .context("bad --database / DATABASE_URL")?
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        let store = Store::connect(&url)
            .await
            .with_context(|| format!("cannot open the {} database", url.scheme()))?;
        // The session's clock is the system's, moved forward by `/wait`.
        let service = Service::new(store.clone(), Dice::Os).with_clock(Clock::offset());
        if std::io::stdin().is_terminal() {
            eprintln!(
                "tabula local: {} database, {}; type `alice: /help` to start \
                 (`<user>: <command>`, `<user>: #<button>`, `/wait 36h` moves the clock).",
                url.backend()
                    .map_or("unknown".to_string(), |b| b.to_string()),
                args.images.as_deref().map_or_else(
                    || "pictures not saved (--images DIR saves them)".to_string(),
                    |dir| format!("pictures in {}", dir.display())
                )
            );
        }
        let mut session = Session::new(&service, args.images.as_deref())
            .with_moderators(args.moderators.clone())
            .with_language(args.language);
        let stdin = std::io::stdin();
        let mut stdout = std::io::stdout();
        let result = session.run(stdin.lock(), &mut stdout).await;
        store.close().await;
        result.context("terminal session failed")
    })
}

/// `tabula run`: exit 0 after a shutdown by signal, 2 for a missing or wrong setting, 1 when
/// the bot cannot start or go on.
fn run(args: &tabula_bot::run::RunArgs, json: bool) -> ExitCode {
    // In JSON mode every line is the logger's; otherwise the last word is a plain line.
    let say = |message: &str| {
        if json {
            tracing::error!("tabula run: {message}");
        } else {
            eprintln!("tabula run: {message}");
        }
    };
    use tabula_bot::run::RunError;
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            say(&format!("cannot start the async runtime: {error}"));
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(tabula_bot::run::run(args));
    // Tasks still waiting (a private reply's deletion) are not waited for.
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(RunError::Settings(message)) => {
            say(&message);
            ExitCode::from(2)
        }
        Err(RunError::Failed(message)) => {
            say(&message);
            ExitCode::FAILURE
        }
    }
}

/// `tabula locales [code]`: each language with what it lacks against English.
fn locales(code: Option<&str>) -> ExitCode {
    use tabula_bot::l10n::{Lang, check};
    let langs: Vec<Lang> = match code {
        None => Lang::all().collect(),
        Some(code) => match Lang::all().find(|lang| lang.code() == code) {
            Some(lang) => vec![lang],
            None => {
                let known: Vec<&str> = Lang::all().map(Lang::code).collect();
                eprintln!(
                    "error: no language `{code}` in service/locales; the languages are {}",
                    known.join(", ")
                );
                return ExitCode::from(2);
            }
        },
    };
    let mut complete = true;
    for lang in langs {
        let lacks = check(lang);
        if lacks.is_empty() {
            println!("{lang}: complete");
        } else {
            complete = false;
            println!("{lang}: {} to do", lacks.len());
            for lack in lacks {
                println!("  {lack}");
            }
        }
    }
    if complete {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
