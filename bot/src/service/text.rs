//! The service's fixed texts (rule summaries) and the text listings of a game.

use tabula_core::{AnyGame, GameId, Status};

use crate::store::{ActionRecord, GameRecord};

use super::Reply;
use super::narration::{Verdict, result_sentence, stored_result};

/// The first words to someone who starts the bot (Telegram's `/start`).
pub const GREETING: &str = "Hello! I referee five traditional board games: Konane, Koan, \
Kolowis Awithlaknannai, Coan Ki and Pachisi. Add me to a group and challenge a friend there \
with /play konane @friend (or /play pachisi to gather up to four players), or try a game here. \
/rules konane tells how a game is played.";

/// A short summary of a game's rules.
pub fn rules(id: GameId) -> &'static str {
    match id {
        GameId::Konane => {
            "Konane (2 players): the board starts full. Black, then White, removes one own stone; \
             after that every turn is a capture: jump orthogonally over an enemy stone into the \
             empty cell beyond, and keep jumping in the same line if you like. Who cannot capture \
             loses. Moves: `d4-f4`, `d4-f4-h4`; removals: `e4`. Option: size=<n>."
        }
        GameId::Koan => {
            "Koan (2 players): octagonal and square pieces move forward one space at a time; a \
             piece captures by moving onto an enemy piece of its own shape's cell. First to reach \
             the far row wins; who cannot move loses. Moves: `G11-G9`, captures `G11xG9`."
        }
        GameId::Kolowis => {
            "Kolowis Awithlaknannai (2 players): three rows of points joined by lines. Step to a \
             neighbouring empty point, or capture by jumping over an enemy piece; captures are \
             compulsory and may be chained and broken off. Who cannot move loses. Moves: \
             `C8-B9`, captures `C2xC4xC6`."
        }
        GameId::CoanKi => {
            "Coan Ki (2 players): a race of 16 pieces round a loop of 16 cells, driven by two \
             dice that the bot rolls. A throw is used whole or lost; a double one costs a \
             penalty. First to bring every piece home wins. Moves: `a1+5&b1+11`."
        }
        GameId::Pachisi => {
            "Pachisi (2 or 4 players, teams SN and EW): four pieces each leave the Charkoni, go \
             round the cross and come back. Six cowries (rolled by the bot) give 2-6, 10 or 25; \
             10, 6 and 25 earn another throw. Capture by landing on an enemy outside the castle \
             squares. The first team home wins. Moves: `throw`, `skip`, `enter+10`, `<square>+<v>`."
        }
    }
}

/// The answer to `/moves`.
pub fn moves(record: &GameRecord, state: &AnyGame) -> String {
    if record.status != crate::store::GameStatus::Active
        && !matches!(state.status(), Status::Done(_))
    {
        return plain(stored_result(record));
    }
    match state.status() {
        Status::Decision(_) => {
            let lines = state.legal_lines();
            format!(
                "Game #{}: {} legal moves: {}",
                record.id,
                lines.len(),
                lines.join(" ")
            )
        }
        Status::Chance => format!("Game #{}: dice are being rolled.", record.id),
        Status::Done(outcome) => {
            let verdict = match outcome {
                tabula_core::Outcome::Winner(team) => Verdict::Winner(team.0),
                tabula_core::Outcome::Draw => Verdict::Draw,
            };
            plain(result_sentence(record, verdict, None))
        }
    }
}

/// How many characters of actions one `/history` page shows at most (within
/// [`super::limits::MAX_TEXT`], with room for its heading and pointer).
pub const HISTORY_PAGE: usize = 1_400;

/// One page of the answer to `/history`: the latest actions before `before` (all of them:
/// `None`), rolls included, as many as fit in [`HISTORY_PAGE`] characters, and the result
/// of a finished game on its last page. With the text, the number of the first action shown
/// when earlier ones were left out (the next page is the one before it).
pub fn history(
    record: &GameRecord,
    actions: &[ActionRecord],
    before: Option<u32>,
) -> (String, Option<u32>) {
    if actions.is_empty() {
        return (
            format!(
                "Game #{} ({}): no moves yet.",
                record.id,
                record.game.name()
            ),
            None,
        );
    }
    let shown: Vec<&ActionRecord> = actions
        .iter()
        .filter(|action| before.is_none_or(|before| action.seq < before))
        .collect();
    let mut lines: Vec<String> = Vec::new();
    let mut used = 0;
    let mut first = None;
    for action in shown.iter().rev() {
        let who = action
            .actor
            .and_then(|actor| record.seats.iter().find(|h| h.user.id == actor))
            .map_or("dice", |h| h.user.display_name.as_str());
        let line = format!("\n{}. {} ({who})", action.seq, action.action);
        let len = line.chars().count();
        if used + len > HISTORY_PAGE && !lines.is_empty() {
            break;
        }
        used += len;
        lines.push(line);
        first = Some(action.seq);
    }
    lines.reverse();
    let earlier = first.filter(|first| *first > 1);
    let mut out = format!("Game #{} ({}):", record.id, record.game.name());
    if let Some(first) = earlier {
        out.push_str(&format!(
            " moves {first} to {} (the Earlier button shows those before {first}; /export #{} \
             sends the whole record as a file).",
            shown.last().map_or(first, |last| last.seq),
            record.id
        ));
    }
    for line in lines {
        out.push_str(&line);
    }
    if before.is_none() && record.result.is_some() {
        out.push_str(&format!("\nResult: {}", plain(stored_result(record))));
    }
    (out, earlier)
}

/// Spans as plain text (`@name` for a mention).
fn plain(spans: Vec<super::Span>) -> String {
    Reply {
        spans,
        ..Reply::default()
    }
    .plain_text()
}
