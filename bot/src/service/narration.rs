//! Narration: how the board, results, money and buttons are told in a reply.
//!
//! One voice (issue 14): every event is told once, in one sentence that names the person and
//! their seat once ("@bob (Black) jumped d3-d5, capturing d4."); every ending is told by one
//! result sentence ("Game #1 (Konane) is over: @alice (White) wins."); seats and teams are
//! capitalised, numbers of coins agree with their noun.

use super::*;

impl Service {
    /// The board: picture, whose turn (or the result), and buttons for the legal moves.
    pub(super) async fn board_reply(&self, loaded: &Loaded, spans: Vec<Span>) -> Outcome2<Reply> {
        self.board_reply_then(loaded, spans, Vec::new()).await
    }

    /// The board, with `after` told after the turn or the result (the pot of a game that
    /// just ended).
    pub(super) async fn board_reply_then(
        &self,
        loaded: &Loaded,
        mut spans: Vec<Span>,
        after: Vec<Span>,
    ) -> Outcome2<Reply> {
        let record = &loaded.record;
        let id = record.game;
        let mut buttons = Vec::new();
        let mut notify = Vec::new();
        // The picture's title, when the state alone does not show the result (a game ended
        // by resignation, time or abort).
        let mut title = None;
        match (record.status, loaded.state.status()) {
            (_, Status::Done(outcome)) => {
                let verdict = match outcome {
                    Outcome::Winner(team) => Verdict::Winner(team.0),
                    Outcome::Draw => Verdict::Draw,
                };
                spans.extend(result_sentence(record, verdict, Vec::new()));
            }
            (GameStatus::Active, Status::Decision(seat)) => {
                spans.push(Span::Text(format!("Game #{} ({}): ", record.id, id.name())));
                let computer = holder(record, seat).is_some_and(is_computer);
                if let Some(user) = holder(record, seat) {
                    spans.push(mention(user));
                    if !computer {
                        notify.push(user.platform_user_id.clone());
                    }
                }
                let lines = loaded.state.legal_lines();
                let task = if computer {
                    // Its move comes from the computer worker, through the outbox.
                    self.wake_computer();
                    "is thinking"
                } else if !lines.is_empty() && lines.iter().all(|l| l.starts_with("remove:")) {
                    // Coan Ki's double one (rule 5.8): the buttons are removals.
                    "must take one of their travelling pieces out of the game (a double one)"
                } else {
                    "to move"
                };
                spans.push(Span::Text(format!(" ({}) {task}.", seat_label(id, seat.0))));
                if !computer {
                    spans.extend(self.clock_spans(record));
                }
                if !computer {
                    buttons = move_buttons(record, &lines);
                }
            }
            (GameStatus::Active, Status::Chance) => spans.push(Span::Text(format!(
                "Game #{} ({}): the dice are being rolled.",
                record.id,
                id.name()
            ))),
            (_, _) => {
                let (verdict, cause, caption) = stored_verdict(record);
                spans.extend(result_sentence(record, verdict, cause));
                title = Some(caption);
            }
        }
        spans.extend(after);
        let picture = self.picture(loaded, title).await?;
        Ok(Reply {
            placement: Placement::NewBoard,
            game: Some(record.id),
            // The adapter takes the buttons off the game's previous board.
            previous_board: scheduler::BoardMessage::with_buttons(
                record.board_message_id.as_deref(),
            ),
            spans,
            notify,
            picture,
            buttons,
            ..Reply::default()
        })
    }
}

impl Service {
    /// The board's picture (when pictures are on), its header titled `title` when given.
    pub(super) async fn picture(
        &self,
        loaded: &Loaded,
        title: Option<String>,
    ) -> Outcome2<Option<Vec<u8>>> {
        if !self.pictures {
            return Ok(None);
        }
        let state = loaded.state.clone();
        let last = loaded.last.clone();
        let png = tokio::task::spawn_blocking(move || match title {
            Some(title) => tabula_render::render_titled(&state, last.as_ref(), &title),
            None => tabula_render::render(&state, last.as_ref()),
        })
        .await
        .map_err(ServiceError::from)?
        .map_err(ServiceError::from)?;
        Ok(Some(png))
    }

    /// The picture of a game just ended by resignation, time or abort (`record`, as ended):
    /// its header tells the result.
    pub(super) async fn ended_picture(
        &self,
        loaded: Loaded,
        record: &GameRecord,
    ) -> Outcome2<Option<Vec<u8>>> {
        let (_, _, title) = stored_verdict(record);
        let loaded = Loaded {
            record: record.clone(),
            ..loaded
        };
        self.picture(&loaded, Some(title)).await
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Verdict {
    /// A team won.
    Winner(u8),
    /// Nobody won.
    Draw,
    /// Stopped without a result.
    Aborted,
}

/// The one result sentence of every ending: "Game #1 (Konane) is over: " then the `cause`
/// ("@bob (Black) resigned, so ") and the verdict ("@alice (White) wins.").
pub(super) fn result_sentence(
    record: &GameRecord,
    verdict: Verdict,
    cause: Vec<Span>,
) -> Vec<Span> {
    let mut spans = vec![Span::Text(format!(
        "Game #{} ({}) is over: ",
        record.id,
        record.game.name()
    ))];
    spans.extend(cause);
    match verdict {
        Verdict::Winner(team) => {
            let winners = team_users(record, team);
            spans.extend(people_spans(record, &winners));
            let verb = if winners.len() > 1 { "win" } else { "wins" };
            spans.push(Span::Text(format!(
                " ({}) {verb}.",
                team_label(record.game, team)
            )));
        }
        Verdict::Draw => spans.push(Span::Text("it is a draw.".into())),
        Verdict::Aborted => spans.push(Span::Text("there is no result.".into())),
    }
    if let Some(dice) = &record.dice {
        spans.push(Span::Text(" The dice seed, now revealed: ".into()));
        spans.push(Span::Code(dice.seed.clone()));
        spans.push(Span::Text(format!(
            " (/export #{} gives the record; `tabula verify` checks every roll).",
            record.id
        )));
    }
    spans
}

/// "@bob (Black) resigned, so ": the people of a team, their team, and what they did.
pub(super) fn team_cause(record: &GameRecord, team: u8, did: &str) -> Vec<Span> {
    let mut spans = people_spans(record, &team_users(record, team));
    spans.push(Span::Text(format!(
        " ({}) {did}, so ",
        team_label(record.game, team)
    )));
    spans
}

/// Mentions of people of a game, joined by "and".
fn people_spans(record: &GameRecord, users: &[UserId]) -> Vec<Span> {
    let mut spans = Vec::new();
    for (i, user) in users.iter().enumerate() {
        if i > 0 {
            spans.push(Span::Text(" and ".into()));
        }
        match seated(record, *user) {
            Some(user) => spans.push(mention(user)),
            None => spans.push(Span::Text("someone".into())),
        }
    }
    spans
}

/// The result sentence of a game that ended, from its stored result.
pub(super) fn stored_result(record: &GameRecord) -> Vec<Span> {
    let (verdict, cause, _) = stored_verdict(record);
    result_sentence(record, verdict, cause)
}

/// The verdict of a game that ended without its state showing it (resignation, time, abort),
/// read from its stored result, with the cause and the picture's title.
fn stored_verdict(record: &GameRecord) -> (Verdict, Vec<Span>, String) {
    let id = record.game;
    let result = record.result.as_deref().unwrap_or("");
    if let Some(rest) = result.strip_prefix("winner ") {
        let (name, why) = rest.split_once(' ').unwrap_or((rest, ""));
        if let Some(team) = team_named(id, name) {
            let losers = (0..2u8).find(|&t| t != team).unwrap_or(team);
            let label = team_label(id, team);
            let wins = if label.contains(" and ") {
                "win"
            } else {
                "wins"
            };
            return match why {
                "(resigned)" => (
                    Verdict::Winner(team),
                    team_cause(record, losers, "resigned"),
                    format!("{} resigned: {label} {wins}", team_label(id, losers)),
                ),
                "(time)" => (
                    Verdict::Winner(team),
                    team_cause(record, losers, "ran out of time"),
                    format!("{label} {wins} on time"),
                ),
                _ => (Verdict::Winner(team), Vec::new(), format!("{label} {wins}")),
            };
        }
    }
    if result == "draw" {
        return (Verdict::Draw, Vec::new(), "A draw".into());
    }
    let cause = if result.is_empty() {
        Vec::new()
    } else {
        vec![Span::Text(format!("it was {}, so ", brief(result)))]
    };
    (Verdict::Aborted, cause, "Aborted: no result".into())
}

/// At most 80 characters of a stored text (an abort's reason), with an ellipsis.
pub(super) fn brief(text: &str) -> String {
    brief_to(text, 80)
}

/// At most `max` characters of a text, with an ellipsis when cut.
pub(super) fn brief_to(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
        cut.push('…');
        cut
    }
}

/// "1 coin", "2 coins".
pub(super) fn coins(n: i64) -> String {
    if n == 1 || n == -1 {
        format!("{n} coin")
    } else {
        format!("{n} coins")
    }
}

/// A clause of a sentence ("jumped d3-d5, capturing d4"), as spans.
type Clause = Vec<Span>;

/// What was played, one sentence per event: "@bob (Black) jumped d3-d5, capturing d4.", and
/// for Coan Ki's dice "@alice (White) rolled a 6 and a 1." The rules' lines are told with the
/// person in place of the seat; what ends the game is left to the result sentence; a fine
/// (known once stored: `consequences`) is told with the double one that caused it.
pub(super) fn played_spans(
    record: &GameRecord,
    played: &Played,
    consequences: Option<&Consequences>,
) -> Vec<Span> {
    let id = record.game;
    let mut sentences: Vec<(Option<u8>, Vec<Clause>)> = Vec::new();
    let mut fines: Vec<&Fine> = consequences
        .map(|c| c.fines.iter().collect())
        .unwrap_or_default();
    for step in &played.steps {
        let mut clauses: Vec<(Option<u8>, Clause)> = Vec::new();
        let roll = step.notation.strip_prefix("roll:");
        let mut dice = None;
        if let (Some(throw), GameId::CoanKi) = (roll, id)
            && let Some((a, b)) = throw.split_once('-')
        {
            dice = Some(throw);
            let roller = step
                .lines
                .iter()
                .find_map(|line| split_seat(id, line).0)
                .or(step.seat.map(|seat| seat.0));
            let mut clause = vec![Span::Text(match (a, b) {
                ("1", "1") => "rolled a double one".to_string(),
                _ if a == b => format!("rolled a double {a}"),
                _ => format!("rolled a {a} and a {b}"),
            })];
            if (a, b) == ("1", "1") {
                let payer = roller.and_then(|seat| holder(record, Seat(seat)));
                if let Some(at) = fines
                    .iter()
                    .position(|fine| payer.is_some_and(|p| p.id == fine.payer))
                {
                    let fine = fines.remove(at);
                    if let Some(payee) = seated(record, fine.payee) {
                        clause.push(Span::Text(" and pays ".into()));
                        clause.push(mention(payee));
                        clause.push(Span::Text(format!(
                            " a fine of {} (10% of the stake)",
                            coins(fine.amount)
                        )));
                    }
                }
            }
            clauses.push((roller, clause));
        }
        for line in &step.lines {
            // The double one's fine is told with the roll, in coins.
            if line.contains(" threw 1-1 and pays ") {
                continue;
            }
            let Some(line) = strip_ending(id, line) else {
                continue;
            };
            let (seat, mut rest) = split_seat(id, &line);
            if let Some(dice) = dice {
                rest = rest.replace(&format!("cannot use {dice}"), "cannot use them");
            }
            clauses.push((seat, vec![Span::Text(rest)]));
        }
        if clauses.is_empty() && roll.is_none() && step.notation != "throw" {
            clauses.push((
                step.seat.map(|seat| seat.0),
                vec![Span::Text(format!("played {}", step.notation))],
            ));
        }
        for (seat, clause) in clauses {
            match sentences.last_mut() {
                Some((last, list)) if seat.is_some() && *last == seat => list.push(clause),
                _ => sentences.push((seat, vec![clause])),
            }
        }
    }
    let mut spans = Vec::new();
    for (seat, clauses) in sentences {
        if !spans.is_empty() {
            spans.push(Span::Text(" ".into()));
        }
        if let Some(seat) = seat {
            if let Some(user) = holder(record, Seat(seat)) {
                spans.push(mention(user));
                spans.push(Span::Text(format!(" ({}) ", seat_label(id, seat))));
            } else {
                spans.push(Span::Text(format!("{} ", seat_label(id, seat))));
            }
        }
        let count = clauses.len();
        for (i, clause) in clauses.into_iter().enumerate() {
            if i > 0 {
                spans.push(Span::Text(
                    if i + 1 == count { " and " } else { ", " }.into(),
                ));
            }
            let mut clause = clause;
            if seat.is_none()
                && i == 0
                && let Some(Span::Text(first)) = clause.first_mut()
            {
                *first = capitalise(first);
            }
            spans.extend(clause);
        }
        spans.push(Span::Text(".".into()));
    }
    for fine in fines {
        // A fine not told with its roll (none is expected).
        if let (Some(payer), Some(payee)) = (seated(record, fine.payer), seated(record, fine.payee))
        {
            spans.push(Span::Text(" ".into()));
            spans.push(mention(payer));
            spans.push(Span::Text(" pays ".into()));
            spans.push(mention(payee));
            spans.push(Span::Text(format!(
                " a fine of {} (10% of the stake).",
                coins(fine.amount)
            )));
        }
    }
    spans
}

/// A rules line's leading seat ("Black jumped d3-d5" → Black, "jumped d3-d5").
fn split_seat(id: GameId, line: &str) -> (Option<u8>, String) {
    if let Some((word, rest)) = line.split_once(' ')
        && let Some(seat) = seat_named(id, word)
    {
        return (Some(seat), rest.to_string());
    }
    (None, line.to_string())
}

/// A rules line without the result it announces, which the result sentence tells once
/// ("Black cannot jump: White wins" → "Black cannot jump"); `None` when the line is only the
/// result ("SN win: all eight pieces are home").
fn strip_ending(id: GameId, line: &str) -> Option<String> {
    if let Some((head, _)) = line.split_once(" win:")
        && team_named(id, head).is_some()
    {
        return None;
    }
    if let Some(head) = line.strip_suffix(" and wins") {
        return Some(head.to_string());
    }
    if let Some((head, tail)) = line.rsplit_once(": ") {
        let mut words = tail.split(' ');
        let first = words.next().unwrap_or("");
        let announces = tail.starts_with("a draw")
            || (seat_named(id, first).is_some() && words.next() == Some("wins"));
        if announces {
            return Some(head.to_string());
        }
    }
    Some(line.to_string())
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Buttons for the legal moves: one per move when few, else one per piece (two steps).
pub(super) fn move_buttons(record: &GameRecord, lines: &[String]) -> Vec<Vec<Button>> {
    let (game, seq) = (record.id, record.seq);
    if lines.len() <= MAX_BUTTONS {
        let buttons = lines
            .iter()
            .enumerate()
            .map(|(i, line)| button(line, format!("m{game}.{seq}.{i}")))
            .collect();
        return rows(buttons);
    }
    let buttons = piece_groups(lines)
        .into_iter()
        .enumerate()
        .take(MAX_BUTTONS * 2)
        .map(|(i, (piece, members))| {
            if let [only] = members.as_slice() {
                button(&lines[*only], format!("m{game}.{seq}.{only}"))
            } else {
                button(&format!("{piece}…"), format!("p{game}.{seq}.{i}"))
            }
        })
        .collect();
    rows(buttons)
}

/// The legal moves grouped by the piece they start from (the text before the first
/// separator), in first-seen order.
pub(super) fn piece_groups(lines: &[String]) -> Vec<(String, Vec<usize>)> {
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let piece = line
            .char_indices()
            .skip(1)
            .find(|(_, c)| matches!(c, '-' | 'x' | '+' | '&'))
            .map_or(line.as_str(), |(at, _)| &line[..at])
            .to_string();
        match groups.iter_mut().find(|(p, _)| *p == piece) {
            Some((_, members)) => members.push(i),
            None => groups.push((piece, vec![i])),
        }
    }
    groups
}

pub(super) fn rows(buttons: Vec<Button>) -> Vec<Vec<Button>> {
    buttons.chunks(4).map(<[Button]>::to_vec).collect()
}

/// A button labelled with notation (a move, a cell), the same in every language.
pub(super) fn button(label: &str, data: String) -> Button {
    Button {
        label: label.to_string(),
        data,
        label_msg: None,
    }
}

/// A button labelled with a word of the catalogue (`button-accept`), said in the reply's
/// language.
pub(super) fn said_button(id: &'static str, data: String) -> Button {
    let msg = crate::l10n::Msg::new(id);
    Button {
        label: msg.to_text(crate::l10n::Lang::ENGLISH),
        data,
        label_msg: Some(msg),
    }
}

pub(super) fn mention(user: &User) -> Span {
    if is_computer(user) {
        // Not a person of any platform: its name, never a mention.
        return Span::Strong(user.display_name.clone());
    }
    Span::Mention(Person {
        id: user.platform_user_id.clone(),
        name: user.display_name.clone(),
        username: user.username.clone(),
    })
}

pub(super) fn text_reply(text: String) -> Reply {
    Reply {
        spans: vec![Span::Text(text)],
        ..Reply::default()
    }
}

/// The pot of a staked game: the stake of each person.
pub(super) fn pot_of(record: &GameRecord) -> i64 {
    record
        .stake
        .saturating_mul(i64::try_from(players(record).len()).unwrap_or(0))
}

/// "@alice takes the pot of 100 coins." (or the partners share it), for a staked game.
pub(super) fn pot_spans(record: &GameRecord, winners: &[UserId]) -> Vec<Span> {
    if record.stake == 0 || winners.is_empty() {
        return Vec::new();
    }
    let mut spans = vec![Span::Text(" ".into())];
    for (i, winner) in winners.iter().enumerate() {
        if i > 0 {
            spans.push(Span::Text(" and ".into()));
        }
        match seated(record, *winner) {
            Some(user) => spans.push(mention(user)),
            None => spans.push(Span::Text(format!("user {winner}"))),
        }
    }
    let verb = if winners.len() > 1 { "share" } else { "takes" };
    spans.push(Span::Text(format!(
        " {verb} the pot of {}.",
        coins(pot_of(record))
    )));
    spans
}

/// "The stakes (50 each) are returned.", for a staked game.
pub(super) fn refund_spans(record: &GameRecord) -> Vec<Span> {
    if record.stake == 0 {
        return Vec::new();
    }
    vec![Span::Text(format!(
        " The stakes ({} each) are returned.",
        coins(record.stake)
    ))]
}

/// What happens to the pot of a game that just ended.
pub(super) fn payout_spans(record: &GameRecord, consequences: &Consequences) -> Vec<Span> {
    match &consequences.payout {
        Some(Payout::Winners(winners)) => pot_spans(record, winners),
        Some(Payout::Refund) => refund_spans(record),
        None => Vec::new(),
    }
}
