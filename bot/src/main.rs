//! The `tabula` binary: the command line of the Tabula bot.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Rules(args) => rules_cli::run(&args),
    }
}
