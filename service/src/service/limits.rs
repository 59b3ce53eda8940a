//! What a chat platform accepts in one message, enforced in one place: every reply leaves the
//! service through [`fit`] ([`Service::handle`] and [`Service::render_outbox`], which
//! [`Service::take_outbox`] and [`Service::tick`] use), so no concern has to count.
//!
//! The figures are the smaller of Discord's and Telegram's:
//! - text: Discord's 2,000 characters. The service keeps a reply's text within
//!   [`MAX_TEXT`] as it measures it ([`measure`]: a mention counts as long as Discord's
//!   `<@id>` form, bold and code their markup), leaving the adapters room for escapes. Telegram
//!   (4,096, captions 1,024) splits a caption off itself.
//! - buttons: Discord's 25, in at most 5 rows of 5 (Telegram allows more). Rows within those
//!   bounds are kept as built; otherwise the buttons are laid out again 5 to a row, and those
//!   past the 25th are dropped with a note in the text (moves can still be typed).
//! - a button's label: Discord's 80 characters; its data: Telegram's 64 bytes (a button
//!   whose data is longer could never be sent, so it is dropped and logged).
//!
//! A text that is still too long is cut at a line break where one is near, with a note.
//! Listings that can grow without end page themselves before this (`/history` shows the
//! latest actions and a button for earlier ones), so the cut is a last resort.

use super::{Button, Reply, routing};
use crate::l10n::Span;

/// The most characters of a reply's text, as [`measure`] counts them.
pub const MAX_TEXT: usize = 1_800;
/// The most buttons in a row.
pub const MAX_ROW: usize = 5;
/// The most rows of buttons.
pub const MAX_ROWS: usize = 5;
/// The most characters of a button's label.
pub const MAX_LABEL: usize = 80;
/// The most bytes of a button's data.
pub const MAX_DATA: usize = 64;

/// The longest a mention may be written by an adapter (Discord's `<@` + 20 digits + `>`).
const MENTION_WIDTH: usize = 24;

/// The length of a span as an adapter may write it.
fn span_len(span: &Span) -> usize {
    match span {
        Span::Text(text) => text.chars().count(),
        Span::Strong(text) => text.chars().count() + 4,
        Span::Code(text) => text.chars().count() + 2,
        Span::Mention(person) => (person.name.chars().count() + 1).max(MENTION_WIDTH),
        Span::Game(game) => game.to_string().len() + 1,
        Span::Msg(msg) => msg.to_text(crate::l10n::Lang::ENGLISH).chars().count(),
    }
}

/// The length of a reply's text as an adapter may write it: characters, with a mention as
/// long as Discord's form of it and bold and code with their markup.
pub fn measure(spans: &[Span]) -> usize {
    spans.iter().map(span_len).sum()
}

/// Makes `reply` fit every platform: buttons first (a cut adds a note), then the text.
pub(super) fn fit(reply: &mut Reply, lang: crate::l10n::Lang) {
    fit_buttons(reply, lang);
    fit_text(&mut reply.spans, MAX_TEXT);
}

fn fit_buttons(reply: &mut Reply, lang: crate::l10n::Lang) {
    let mut changed = false;
    for row in &mut reply.buttons {
        row.retain(|button| {
            let fits = button.data.len() <= MAX_DATA;
            if !fits {
                tracing::warn!(data = %button.data, "a button's data is too long to send");
            }
            fits
        });
        for button in row.iter_mut() {
            if button.label.chars().count() > MAX_LABEL {
                button.label = routing::cap(&button.label, MAX_LABEL - 1);
            }
        }
    }
    if reply.buttons.iter().any(Vec::is_empty) {
        reply.buttons.retain(|row| !row.is_empty());
        changed = true;
    }
    let fits = reply.buttons.len() <= MAX_ROWS && reply.buttons.iter().all(|r| r.len() <= MAX_ROW);
    if fits && !changed {
        return;
    }
    let mut all: Vec<Button> = std::mem::take(&mut reply.buttons).concat();
    let most = MAX_ROWS * MAX_ROW;
    if all.len() > most {
        let cut = all.len() - most;
        all.truncate(most);
        let note = crate::l10n::Msg::new("more-buttons").count("count", cut);
        reply
            .spans
            .push(Span::Text(format!("\n{}", note.to_text(lang))));
        reply.said.push(note);
    }
    reply.buttons = all.chunks(MAX_ROW).map(<[Button]>::to_vec).collect();
}

/// Cuts `spans` to `max` as [`measure`] counts, with a note that says so. The beginning and
/// the end are kept and the middle is cut: the end says what happened last and who is to act
/// (a Coan Ki double one, with its fine, is always the last roll told).
fn fit_text(spans: &mut Vec<Span>, max: usize) {
    if measure(spans) <= max {
        return;
    }
    const NOTE: &str = " … (cut: too long for one chat message) … ";
    let budget = max.saturating_sub(NOTE.chars().count());
    let head_budget = budget / 3;
    let mut tail_budget = budget - head_budget;
    let all = std::mem::take(spans);
    let mut head = Vec::new();
    let mut used = 0;
    let mut cut_at = all.len();
    for (index, span) in all.iter().enumerate() {
        let len = span_len(span);
        if used + len <= head_budget {
            used += len;
            head.push(span.clone());
            continue;
        }
        if let Span::Text(text) = span {
            let part = Span::Text(cut_text(text, head_budget - used));
            used += span_len(&part);
            head.push(part);
        }
        cut_at = index;
        break;
    }
    tail_budget += head_budget - used.min(head_budget);
    let mut tail = Vec::new();
    let mut used = 0;
    for span in all[cut_at..].iter().rev() {
        let len = span_len(span);
        if used + len <= tail_budget {
            used += len;
            tail.push(span.clone());
            continue;
        }
        if let Span::Text(text) = span {
            tail.push(Span::Text(last_chars(text, tail_budget - used)));
        }
        break;
    }
    tail.reverse();
    head.push(Span::Text(NOTE.into()));
    head.extend(tail);
    *spans = head;
}

/// The last `room` characters of `text`.
fn last_chars(text: &str, room: usize) -> String {
    let count = text.chars().count();
    text.chars().skip(count.saturating_sub(room)).collect()
}

/// The first `room` characters of `text`, ending at a line break when one is in the second
/// half of them.
fn cut_text(text: &str, room: usize) -> String {
    let end = text
        .char_indices()
        .nth(room)
        .map_or(text.len(), |(at, _)| at);
    let head = &text[..end];
    match head.rfind('\n') {
        Some(at) if head[..at].chars().count() >= room / 2 => head[..at].to_string(),
        _ => head.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::button;

    fn buttons(count: usize, per_row: usize) -> Vec<Vec<Button>> {
        let all: Vec<Button> = (0..count)
            .map(|i| button(&format!("b{i}"), format!("m1.1.{i}")))
            .collect();
        all.chunks(per_row).map(<[Button]>::to_vec).collect()
    }

    #[test]
    fn rows_within_bounds_are_kept_as_built() {
        let mut reply = Reply {
            buttons: buttons(20, 4),
            ..Reply::default()
        };
        fit(&mut reply, crate::l10n::Lang::ENGLISH);
        assert_eq!(reply.buttons, buttons(20, 4));
    }

    #[test]
    fn forty_buttons_become_twenty_five_in_five_rows_with_a_note() {
        let mut reply = Reply {
            buttons: buttons(40, 4),
            ..Reply::default()
        };
        fit(&mut reply, crate::l10n::Lang::ENGLISH);
        assert_eq!(reply.buttons.len(), 5);
        assert!(reply.buttons.iter().all(|row| row.len() == 5));
        assert!(reply.plain_text().contains("15 more"));
    }

    #[test]
    fn long_text_keeps_its_beginning_and_its_end_with_a_note() {
        let line = "x".repeat(99);
        let mut spans = vec![
            Span::Text(vec![line; 100].join("\n")),
            Span::Strong("@bob to move.".into()),
        ];
        fit_text(&mut spans, MAX_TEXT);
        assert!(measure(&spans) <= MAX_TEXT);
        let Some(Span::Text(first)) = spans.first() else {
            panic!("{spans:?}");
        };
        assert!(first.ends_with('x'), "cut at a line break");
        assert!(
            spans
                .iter()
                .any(|s| matches!(s, Span::Text(t) if t.contains("cut")))
        );
        assert_eq!(spans.last(), Some(&Span::Strong("@bob to move.".into())));
    }

    #[test]
    fn long_labels_and_data_are_dealt_with() {
        let mut reply = Reply {
            buttons: vec![vec![
                button(&"l".repeat(200), "a1".into()),
                button("ok", "d".repeat(65)),
            ]],
            ..Reply::default()
        };
        fit(&mut reply, crate::l10n::Lang::ENGLISH);
        assert_eq!(reply.buttons.len(), 1);
        assert_eq!(reply.buttons[0].len(), 1);
        assert!(reply.buttons[0][0].label.chars().count() <= MAX_LABEL);
    }
}
