//! `tabula rules legal|show`: the command-line contract of `shared/rules/README.md`.
//!
//! Output goes to stdout only on success; any bad input prints one line on stderr naming the
//! offending token and exits with status 2.

use std::io::Write;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use tabula_core::{AnyApplied, AnyGame, GameId, SetupError};

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
    /// Draw the board as a PNG picture, with the last of --moves highlighted.
    Render {
        #[command(flatten)]
        setup: Setup,
        /// Where to write the picture.
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: std::path::PathBuf,
    },
}

/// Where to start and what to play.
#[derive(Debug, Args)]
struct Setup {
    /// The game: konane, koan, kolowis, coan-ki or pachisi.
    game: String,
    /// A game option as key=value (repeatable), e.g. size=10.
    #[arg(long = "option", value_name = "K=V", allow_hyphen_values = true)]
    options: Vec<String>,
    /// Start from this position string instead of the initial position.
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
    /// Space-separated actions to apply first; rolls are written roll:<outcome>.
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    moves: String,
}

impl Setup {
    /// The game after the moves, and the last action applied.
    fn game(&self) -> Result<(AnyGame, Option<AnyApplied>), SetupError> {
        // Game names are case-insensitive everywhere (`Konane` as in `/play Konane`).
        let id: GameId = self.game.to_lowercase().parse()?;
        let options: Vec<&str> = self.options.iter().map(String::as_str).collect();
        let mut game = AnyGame::start(id, &options, self.position.as_deref())?;
        let last = game.apply_actions(&self.moves)?;
        Ok((game, last))
    }
}

/// Runs `tabula rules`.
pub fn run(args: &RulesArgs) -> ExitCode {
    let setup = match &args.command {
        RulesCommand::Legal(s) | RulesCommand::Show(s) | RulesCommand::Render { setup: s, .. } => s,
    };
    let (game, last) = match setup.game() {
        Ok(found) => found,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    };
    let text: String = match &args.command {
        RulesCommand::Legal(_) => game
            .legal_lines()
            .iter()
            .map(|line| format!("{line}\n"))
            .collect(),
        RulesCommand::Show(_) => game.show_text(),
        RulesCommand::Render { output, .. } => {
            let png = match tabula_render::render(&game, last.as_ref()) {
                Ok(png) => png,
                Err(error) => {
                    eprintln!("error: cannot draw the board: {error}");
                    return ExitCode::FAILURE;
                }
            };
            if let Err(error) = std::fs::write(output, &png) {
                eprintln!("error: cannot write {}: {error}", output.display());
                return ExitCode::FAILURE;
            }
            format!("wrote {} ({} bytes)\n", output.display(), png.len())
        }
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
