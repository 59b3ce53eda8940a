//! `tabula rules legal|show`: the command-line contract of `shared/rules/README.md`.
//!
//! Output goes to stdout only on success; any bad input prints one line on stderr naming the
//! offending token and exits with status 2.

use std::io::Write;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use tabula_core::{AnyGame, GameId, SetupError};

/// Arguments of `tabula rules`.
#[derive(Debug, Args)]
pub struct RulesArgs {
    #[command(subcommand)]
    command: RulesCommand,
}

#[derive(Debug, Subcommand)]
enum RulesCommand {
    /// Print the legal moves, one per line (at a chance node: `roll:<outcome> <weight>`).
    Legal(Setup),
    /// Print the position string, the status line and a drawing of the board.
    Show(Setup),
}

/// Where to start and what to play.
#[derive(Debug, Args)]
struct Setup {
    /// The game: konane, koan, kolowis, coan-ki or pachisi.
    game: String,
    /// A game option as key=value (repeatable), e.g. size=10.
    #[arg(long = "option", value_name = "K=V")]
    options: Vec<String>,
    /// Start from this position string instead of the initial position.
    #[arg(long)]
    position: Option<String>,
    /// Space-separated actions to apply first; rolls are written roll:<outcome>.
    #[arg(long, default_value = "")]
    moves: String,
}

impl Setup {
    fn game(&self) -> Result<AnyGame, SetupError> {
        let id: GameId = self.game.parse()?;
        let options: Vec<&str> = self.options.iter().map(String::as_str).collect();
        AnyGame::setup(id, &options, self.position.as_deref(), &self.moves)
    }
}

/// Runs `tabula rules`.
pub fn run(args: &RulesArgs) -> ExitCode {
    let (setup, legal) = match &args.command {
        RulesCommand::Legal(s) => (s, true),
        RulesCommand::Show(s) => (s, false),
    };
    let game = match setup.game() {
        Ok(game) => game,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    };
    let text = if legal {
        game.legal_lines()
            .iter()
            .map(|line| format!("{line}\n"))
            .collect()
    } else {
        game.show_text()
    };
    let mut stdout = std::io::stdout().lock();
    if stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .is_err()
    {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
