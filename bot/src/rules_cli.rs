//! `tabula rules legal|show|render|ai`: the command-line contract of `shared/rules/README.md`.
//!
//! Output goes to stdout only on success; any bad input prints one line on stderr naming the
//! offending token and exits with status 2. `ai` prints the computer's move (`tabula-ai`) in
//! canonical notation, and refuses a position that is not a decision the same way.

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
    /// Animate the game: one frame for the start and one per action of --moves, the last
    /// action highlighted; a GIF, or an APNG when the file name ends in .png.
    Replay {
        #[command(flatten)]
        setup: Setup,
        /// Where to write the animation.
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: std::path::PathBuf,
    },
    /// Print the computer's move in canonical notation (the position must be a decision).
    Ai {
        #[command(flatten)]
        setup: Setup,
        /// How strongly to play, 1 (a beginner) to 4 (the strongest).
        #[arg(
            long,
            default_value = "3",
            value_name = "1-4",
            allow_hyphen_values = true
        )]
        level: String,
        /// The seed of the search: the same level and seed always give the same move.
        #[arg(
            long,
            default_value = "0",
            value_name = "N",
            allow_hyphen_values = true
        )]
        seed: String,
        /// Stop searching after this many milliseconds (the move then depends on the
        /// machine's speed).
        #[arg(long = "time-ms", value_name = "N", allow_hyphen_values = true)]
        time_ms: Option<String>,
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
        RulesCommand::Legal(s)
        | RulesCommand::Show(s)
        | RulesCommand::Render { setup: s, .. }
        | RulesCommand::Replay { setup: s, .. }
        | RulesCommand::Ai { setup: s, .. } => s,
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
        RulesCommand::Replay { setup, output } => match replay(setup, output) {
            Ok(done) => done,
            Err(message) => {
                eprintln!("error: {message}");
                return ExitCode::FAILURE;
            }
        },
        RulesCommand::Ai {
            level,
            seed,
            time_ms,
            ..
        } => match computer_move(&game, level, seed, time_ms.as_deref()) {
            Ok(mv) => format!("{mv}\n"),
            Err(message) => {
                eprintln!("error: {message}");
                return ExitCode::from(2);
            }
        },
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

/// The computer's move for `tabula rules ai`, or the one-line error naming what was wrong.
fn computer_move(
    game: &AnyGame,
    level: &str,
    seed: &str,
    time_ms: Option<&str>,
) -> Result<String, String> {
    let level: tabula_ai::Level = level.parse().map_err(|e| format!("{e}"))?;
    let seed: u64 = seed
        .trim()
        .parse()
        .map_err(|_| format!("bad seed `{seed}`: expected a whole number"))?;
    let cap = match time_ms {
        None => None,
        Some(ms) => Some(std::time::Duration::from_millis(
            ms.trim()
                .parse()
                .map_err(|_| format!("bad time limit `{ms}`: expected milliseconds"))?,
        )),
    };
    tabula_ai::choose(game, level, seed, cap).map_err(|e| e.to_string())
}

/// `tabula rules replay`: the animation written to `output` (its moves already checked), with
/// progress on stderr for long games; the line to print.
fn replay(setup: &Setup, output: &std::path::Path) -> Result<String, String> {
    use tabula_render::replay::{Format, animate, steps};
    let id: GameId = setup
        .game
        .to_lowercase()
        .parse()
        .map_err(|e: SetupError| e.to_string())?;
    let options: Vec<&str> = setup.options.iter().map(String::as_str).collect();
    let start =
        AnyGame::start(id, &options, setup.position.as_deref()).map_err(|e| e.to_string())?;
    let actions: Vec<&str> = setup.moves.split_whitespace().collect();
    let steps = steps(&start, &actions).map_err(|(i, e)| format!("action {i}: {e}"))?;
    let format = if output
        .extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("png"))
    {
        Format::Apng
    } else {
        Format::Gif
    };
    let started = std::time::Instant::now();
    let mut told = 0;
    let subtitle = setup.options.join(" ");
    let replay = animate(&steps, format, (id.name(), &subtitle), |done, total| {
        // A long replay says how far it is, every tenth.
        if total >= 200 && done * 10 / total > told {
            told = done * 10 / total;
            eprintln!("frame {done} of {total}");
        }
    })
    .map_err(|e| format!("cannot draw the replay: {e}"))?;
    std::fs::write(output, &replay.bytes)
        .map_err(|e| format!("cannot write {}: {e}", output.display()))?;
    Ok(format!(
        "wrote {} ({} frames, {}x{} px, {} bytes, {:.1} ms per frame)\n",
        output.display(),
        replay.frames,
        replay.size.0,
        replay.size.1,
        replay.bytes.len(),
        started.elapsed().as_secs_f64() * 1000.0 / replay.frames as f64
    ))
}
