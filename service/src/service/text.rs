//! The service's fixed texts (rule summaries) and the text listings of a game.

use tabula_core::{AnyGame, GameId, Status};

use crate::store::{ActionRecord, GameRecord};

use super::Span;
use super::narration::{Verdict, result_sentence, stored_result};
use crate::l10n::Msg;

/// The first words to someone who starts the bot (Telegram's `/start`): in a private chat,
/// how to bring it into a group; in a group (`group`), how to play there.
pub fn greeting(group: bool) -> Msg {
    Msg::new(if group { "greeting-group" } else { "greeting" })
}

/// A short summary of a game's rules.
pub fn rules(id: GameId) -> Msg {
    Msg::new(match id {
        GameId::Konane => "rules-konane",
        GameId::Koan => "rules-koan",
        GameId::Kolowis => "rules-kolowis",
        GameId::CoanKi => "rules-coan-ki",
        GameId::Pachisi => "rules-pachisi",
    })
}

/// The answer to `/moves`.
pub fn moves(record: &GameRecord, state: &AnyGame) -> Vec<Span> {
    if record.status != crate::store::GameStatus::Active
        && !matches!(state.status(), Status::Done(_))
    {
        return stored_result(record);
    }
    let game = format!("#{}", record.id);
    match state.status() {
        Status::Decision(_) => {
            let lines = state.legal_lines();
            vec![Span::Msg(
                Msg::new("moves-legal")
                    .text("game", game)
                    .count("count", lines.len())
                    .text("moves", lines.join(" ")),
            )]
        }
        Status::Chance => vec![Span::Msg(Msg::new("moves-rolling").text("game", game))],
        Status::Done(outcome) => {
            let verdict = match outcome {
                tabula_core::Outcome::Winner(team) => Verdict::Winner(team.0),
                tabula_core::Outcome::Draw => Verdict::Draw,
            };
            result_sentence(record, verdict, None)
        }
    }
}

/// An action as `/history` says it: a roll in words ("rolled a 3 and a 4", a roll-off, a
/// throw of the cowries), a move in the game's notation.
fn action_said(action: &str) -> Span {
    let Some(roll) = action.strip_prefix("roll:") else {
        return Span::Text(action.to_string());
    };
    let pair = |separator: char| {
        let (a, b) = roll.split_once(separator)?;
        Some((a.parse::<i64>().ok()?, b.parse::<i64>().ok()?))
    };
    let msg = if let Some((a, b)) = pair('-') {
        if a == b {
            Msg::new("rolled-double").num("die", a)
        } else {
            Msg::new("rolled").num("first", a).num("second", b)
        }
    } else if let Some((a, b)) = pair('v') {
        Msg::new("history-roll-off")
            .num("first", a)
            .num("second", b)
    } else {
        Msg::new("history-thrown").text("roll", roll.to_string())
    };
    Span::Msg(msg)
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
) -> (Vec<Span>, Option<u32>) {
    let heading = |id| {
        Msg::new(id)
            .text("game", format!("#{}", record.id))
            .msg("name", super::game_msg(record.game))
    };
    if actions.is_empty() {
        return (vec![Span::Msg(heading("history-empty"))], None);
    }
    let shown: Vec<&ActionRecord> = actions
        .iter()
        .filter(|action| before.is_none_or(|before| action.seq < before))
        .collect();
    let mut lines: Vec<Vec<Span>> = Vec::new();
    let mut used = 0;
    let mut first = None;
    for action in shown.iter().rev() {
        let who = action
            .actor
            .and_then(|actor| record.seats.iter().find(|h| h.user.id == actor))
            .map_or_else(
                || Span::Msg(Msg::new("history-dice")),
                |h| Span::Msg(super::narration::name_msg(&h.user)),
            );
        let line = vec![
            Span::Text(format!("\n{}. ", action.seq)),
            action_said(&action.action),
            Span::Text(" (".into()),
            who,
            Span::Text(")".into()),
        ];
        let len = super::measure(&line);
        if used + len > HISTORY_PAGE && !lines.is_empty() {
            break;
        }
        used += len;
        lines.push(line);
        first = Some(action.seq);
    }
    lines.reverse();
    let earlier = first.filter(|first| *first > 1);
    let mut out = vec![Span::Msg(heading("history-heading"))];
    if let Some(first) = earlier {
        out.push(Span::Msg(
            Msg::new("history-earlier")
                .num("first", first)
                .num("last", shown.last().map_or(first, |last| last.seq))
                .text("game", format!("#{}", record.id)),
        ));
    }
    out.extend(lines.into_iter().flatten());
    if before.is_none() && record.result.is_some() {
        out.push(Span::Text("\n".into()));
        out.push(Span::Msg(Msg::new("history-result")));
        out.push(Span::Text(" ".into()));
        out.extend(stored_result(record));
    }
    (out, earlier)
}
