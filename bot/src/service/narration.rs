//! Narration: how the board, results, money and buttons are told in a reply.

use super::*;

impl Service {
    /// The board: picture, whose turn (or the result), and buttons for the legal moves.
    pub(super) async fn board_reply(
        &self,
        loaded: &Loaded,
        mut spans: Vec<Span>,
    ) -> Outcome2<Reply> {
        let record = &loaded.record;
        let id = record.game;
        spans.push(Span::Text(format!("Game #{} ({}): ", record.id, id.name())));
        let mut buttons = Vec::new();
        let mut notify = Vec::new();
        if record.status == GameStatus::Active {
            match loaded.state.status() {
                Status::Decision(seat) => {
                    if let Some(user) = holder(record, seat) {
                        spans.push(mention(user));
                        notify.push(user.platform_user_id.clone());
                    }
                    spans.push(Span::Text(format!(" ({}) to move.", seat_name(id, seat.0))));
                    spans.extend(self.clock_spans(record));
                    buttons = move_buttons(record, &loaded.state.legal_lines());
                }
                Status::Chance => spans.push(Span::Text("rolling.".into())),
                Status::Done(outcome) => spans.extend(result_spans(record, outcome)),
            }
        } else if let Status::Done(outcome) = loaded.state.status() {
            spans.extend(result_spans(record, outcome));
        } else {
            spans.push(Span::Text(format!(
                "over: {}.",
                record.result.as_deref().unwrap_or("no result")
            )));
        }
        let picture = if self.pictures {
            let state = loaded.state.clone();
            let last = loaded.last.clone();
            let png =
                tokio::task::spawn_blocking(move || tabula_render::render(&state, last.as_ref()))
                    .await
                    .map_err(ServiceError::from)?
                    .map_err(ServiceError::from)?;
            Some(png)
        } else {
            None
        };
        Ok(Reply {
            placement: Placement::NewBoard,
            game: Some(record.id),
            // The adapter takes the buttons off the game's previous board.
            previous_board: record.board_message_id.clone(),
            spans,
            notify,
            picture,
            buttons,
            ..Reply::default()
        })
    }
}

pub(super) fn result_spans(record: &GameRecord, outcome: Outcome) -> Vec<Span> {
    match outcome {
        Outcome::Draw => vec![Span::Text("the game is over: a draw.".into())],
        Outcome::Winner(team) => {
            let mut spans = vec![Span::Text(format!(
                "the game is over: {} wins (",
                team_name(record.game, team.0)
            ))];
            let mut seen = Vec::new();
            for holder in &record.seats {
                if team_of(record.game, holder.seat) == team.0 && !seen.contains(&holder.user.id) {
                    if !seen.is_empty() {
                        spans.push(Span::Text(", ".into()));
                    }
                    seen.push(holder.user.id);
                    spans.push(mention(&holder.user));
                }
            }
            spans.push(Span::Text(").".into()));
            spans
        }
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

pub(super) fn button(label: &str, data: String) -> Button {
    Button {
        label: label.to_string(),
        data,
    }
}

pub(super) fn mention(user: &User) -> Span {
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

/// "@alice takes the pot of 100." (or the partners share it), for a staked game.
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
        " {verb} the pot of {} coins.",
        pot_of(record)
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
        record.stake
    ))]
}

/// What money moved with some actions: fines, and the pot when the game ended.
pub(super) fn money_spans(record: &GameRecord, consequences: &Consequences) -> Vec<Span> {
    let mut spans = Vec::new();
    for fine in &consequences.fines {
        let (Some(payer), Some(payee)) = (seated(record, fine.payer), seated(record, fine.payee))
        else {
            continue;
        };
        spans.push(Span::Text(" ".into()));
        spans.push(mention(payer));
        spans.push(Span::Text(" pays ".into()));
        spans.push(mention(payee));
        spans.push(Span::Text(format!(
            " a fine of {} coins (10% of the stake).",
            fine.amount
        )));
    }
    match &consequences.payout {
        Some(Payout::Winners(winners)) => spans.extend(pot_spans(record, winners)),
        Some(Payout::Refund) => spans.extend(refund_spans(record)),
        None => {}
    }
    spans
}
