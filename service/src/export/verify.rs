//! `tabula verify`: replays a record with the rules and checks every action, the seed against
//! the commitment, and every roll against the derivation.

use tabula_core::{AnyGame, GameId, Status};

use super::committed::{Seed, commitment, derive_roll};
use super::file::Record;
use crate::l10n::quote;

/// What a record that verifies showed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// The game.
    pub game: GameId,
    /// Its number in its chat, if the record says.
    pub id: Option<String>,
    /// How many actions were replayed.
    pub actions: usize,
    /// How many rolls were checked against the seed.
    pub rolls_checked: usize,
    /// How many rolls could not be checked (the seed is not revealed yet).
    pub rolls_unchecked: usize,
    /// The result, as the record gives it.
    pub result: String,
}

impl Verified {
    /// The one-line summary `tabula verify` prints.
    pub fn summary(&self) -> String {
        let id = self
            .id
            .as_deref()
            .map(|id| format!(" #{id}"))
            .unwrap_or_default();
        let mut line = format!(
            "verified: {}{id}, {} actions legal, {} rolls checked against the seed",
            self.game, self.actions, self.rolls_checked
        );
        if self.rolls_unchecked > 0 {
            line.push_str(&format!(
                " ({} rolls not checked: the seed is revealed when the game ends)",
                self.rolls_unchecked
            ));
        }
        line.push_str(&format!(", result: {}", self.result));
        line
    }
}

/// Why a record does not verify: the first line that fails.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {why}")]
pub struct Failure {
    /// The line, from 1 (0: the record lacks a header).
    pub line: usize,
    /// Why.
    pub why: String,
}

fn fail<T>(line: usize, why: impl Into<String>) -> Result<T, Failure> {
    Err(Failure {
        line,
        why: why.into(),
    })
}

/// Checks a record: the game and its options, every action legal in turn, the seed against
/// the commitment, every roll the one the seed gives, and the result the rules reached.
///
/// # Errors
/// The first line that fails, and why.
pub fn verify(record: &Record) -> Result<Verified, Failure> {
    let (id, mut state) = starting_position(record)?;
    let dice = dice(record)?;
    let mut rolls = 0u64;
    let mut rolls_unchecked = 0;
    for (action, line) in &record.actions {
        let line = *line;
        check_turn(&state, action, line)?;
        if matches!(state.status(), Status::Chance) {
            if !check_roll(&state, &dice, rolls, action, line)? {
                rolls_unchecked += 1;
            }
            rolls += 1;
        }
        apply(&mut state, action, line)?;
    }
    // The seed gives every roll but is not the one committed to: the commitment was changed.
    if let Dice::Seed {
        mismatch: Some(mismatch),
        ..
    } = dice
    {
        return Err(mismatch.commitment);
    }
    let result = check_result(record, &state)?;
    Ok(Verified {
        game: id,
        id: record.get("Id").map(|(id, _)| id.to_string()),
        actions: record.actions.len(),
        rolls_checked: usize::try_from(rolls).unwrap_or(usize::MAX) - rolls_unchecked,
        rolls_unchecked,
        result: result.to_string(),
    })
}

/// The game the record names, set up with its options (and position, if it gives one).
fn starting_position(record: &Record) -> Result<(GameId, AnyGame), Failure> {
    let Some((game, game_line)) = record.get("Game") else {
        return fail(0, "the record has no [Game \"...\"] header");
    };
    let Ok(id) = game.parse::<GameId>() else {
        return fail(
            game_line,
            format!(
                "there is no game `{}`; the games are konane, koan, kolowis, coan-ki and pachisi",
                quote(game)
            ),
        );
    };
    let (options, options_line) = record.get("Options").unwrap_or(("", 0));
    let options: Vec<&str> = options.split_whitespace().collect();
    let position = record.get("Position");
    match AnyGame::start(id, &options, position.map(|(p, _)| p)) {
        Ok(state) => Ok((id, state)),
        Err(error) => {
            let line = match error {
                tabula_core::SetupError::Position(_) => position.map_or(0, |(_, l)| l),
                _ => options_line,
            };
            fail(line, error.to_string())
        }
    }
}

/// Refuses an action out of turn: any after the game ended, a move where a roll is due, a
/// roll where a move is.
fn check_turn(state: &AnyGame, action: &str, line: usize) -> Result<(), Failure> {
    match state.status() {
        Status::Done(_) => fail(
            line,
            format!("the game is already over ({})", state.status_line()),
        ),
        Status::Chance if !action.starts_with("roll:") => {
            fail(line, format!("`{}` where a roll is due", quote(action)))
        }
        Status::Decision(_) if action.starts_with("roll:") => fail(
            line,
            format!("a roll where a move is due ({})", state.status_line()),
        ),
        _ => Ok(()),
    }
}

/// Checks roll number `rolls` (from 0) against the seed; whether it could be checked (not
/// before the seed is revealed).
fn check_roll(
    state: &AnyGame,
    dice: &Dice,
    rolls: u64,
    action: &str,
    line: usize,
) -> Result<bool, Failure> {
    let outcomes = state.chance_outcomes();
    match dice {
        Dice::Seed {
            seed,
            salt,
            mismatch,
        } => {
            let weights: Vec<u64> = outcomes.iter().map(|(_, w)| u64::from(*w)).collect();
            let due = derive_roll(seed, salt, rolls, &weights)
                .and_then(|index| outcomes.get(index))
                .map(|(roll, _)| roll.as_str())
                .unwrap_or("?");
            if action != due {
                // A seed that does not give the rolls and does not match the commitment is
                // the line to blame.
                if let Some(mismatch) = mismatch {
                    return Err(mismatch.seed.clone());
                }
                return fail(
                    line,
                    format!(
                        "roll {rolls} (counting from 0) is `{due}` by the seed, not `{}`",
                        quote(action)
                    ),
                );
            }
            Ok(true)
        }
        Dice::Unrevealed => Ok(false),
        Dice::Uncommitted(why) => fail(line, why.clone()),
    }
}

/// Plays an action, which must be legal and written in canonical notation.
fn apply(state: &mut AnyGame, action: &str, line: usize) -> Result<(), Failure> {
    match state.apply_text(action) {
        Ok(applied) if applied.notation() == action => Ok(()),
        Ok(applied) => fail(
            line,
            format!(
                "`{}` is not in canonical notation (write `{}`)",
                quote(action),
                applied.notation()
            ),
        ),
        Err(error) => fail(
            line,
            format!("`{}` is not legal here: {error}", quote(action)),
        ),
    }
}

/// The record's result (`*` when it gives none), which must be the one the actions reached;
/// a game not over may not claim a draw or a winner.
fn check_result<'r>(record: &'r Record, state: &AnyGame) -> Result<&'r str, Failure> {
    let (result, result_line) = record.get("Result").unwrap_or(("*", 0));
    if let Status::Done(_) = state.status() {
        let reached = state.status_line();
        if result != reached {
            return fail(
                result_line,
                format!(
                    "the actions end the game with `{reached}`, not `{}`",
                    quote(result)
                ),
            );
        }
    } else if result == "draw" || (result.starts_with("winner ") && !result.ends_with(')')) {
        return fail(
            result_line,
            format!(
                "the result `{}` is not reached by the actions (the game stands at `{}`)",
                quote(result),
                state.status_line()
            ),
        );
    }
    Ok(result)
}

/// How the rolls of a record can be checked.
enum Dice {
    /// Against the revealed seed and the salt.
    Seed {
        seed: Seed,
        salt: String,
        /// When SHA-256 of the seed is not the commitment: what to say, blaming the seed
        /// (when a roll does not follow it) or the commitment (when every roll does).
        mismatch: Option<Mismatch>,
    },
    /// Not yet: the game runs and its seed is secret (the actions are still checked).
    Unrevealed,
    /// Not at all: the reason, told at the first roll.
    Uncommitted(String),
}

/// Reads and checks the dice headers: the seed against the commitment.
fn dice(record: &Record) -> Result<Dice, Failure> {
    let Some((committed, commitment_line)) = record.get("Commitment") else {
        let why = match record.get("Dice") {
            Some((dice, _)) if dice != "committed" => format!(
                "this roll cannot be checked: the record's dice are `{}` (a game started \
                 before committed dice)",
                quote(dice)
            ),
            _ => "this roll cannot be checked: the record has no [Commitment \"...\"]".into(),
        };
        return Ok(Dice::Uncommitted(why));
    };
    let Some((seed_hex, seed_line)) = record.get("Seed") else {
        return Ok(Dice::Unrevealed);
    };
    let Some(seed) = Seed::from_hex(seed_hex) else {
        return fail(seed_line, "the seed is not 64 hex digits");
    };
    let actual = commitment(&seed);
    let mismatch = (!actual.eq_ignore_ascii_case(committed)).then(|| {
        let committed = quote(committed);
        Mismatch {
            seed: Failure {
                line: seed_line,
                why: format!(
                    "SHA-256 of the seed is {actual}, not the commitment {committed} (line \
                     {commitment_line}), and the rolls do not follow it"
                ),
            },
            commitment: Failure {
                line: commitment_line,
                why: format!(
                    "the commitment {committed} is not SHA-256 of the seed (line {seed_line}), \
                     {actual}, though every roll follows the seed"
                ),
            },
        }
    });
    let Some((salt, _)) = record.get("Salt") else {
        return fail(0, "the record has a seed but no [Salt \"...\"] header");
    };
    Ok(Dice::Seed {
        seed,
        salt: salt.to_string(),
        mismatch,
    })
}

/// The two ways to tell a seed that does not match its commitment.
struct Mismatch {
    seed: Failure,
    commitment: Failure,
}
