//! Reply text as Telegram HTML: spans escaped, mentions that notify written as Telegram
//! mentions, and text cut into pieces that fit Telegram's limits (4,096 characters for a
//! message, 1,024 for a caption, counted after the markup is parsed, in UTF-16 code units as
//! Telegram counts them).

use tabula_service::service::{Reply, Span};

/// The most characters of a message's text, after the markup is parsed.
pub const MESSAGE_LIMIT: usize = 4096;
/// The most characters of a photo's caption, after the markup is parsed.
pub const CAPTION_LIMIT: usize = 1024;
/// The most characters of a callback query's answer (a toast).
pub const TOAST_LIMIT: usize = 200;

/// Escapes text for Telegram's HTML parse mode.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// How long Telegram counts a text: UTF-16 code units.
pub fn telegram_len(text: &str) -> usize {
    text.encode_utf16().count()
}

/// One piece of text in HTML with its length as Telegram counts it once parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Piece {
    html: String,
    len: usize,
}

impl Piece {
    fn wrapped(tag: &str, text: &str) -> Piece {
        Piece {
            html: format!("<{tag}>{}</{tag}>", escape(text)),
            len: telegram_len(text),
        }
    }

    fn plain(text: &str) -> Piece {
        Piece {
            html: escape(text),
            len: telegram_len(text),
        }
    }
}

/// The pieces of a reply's text. A mention of someone in [`Reply::notify`] is written so
/// that it notifies: `@username` where they have one, else a `tg://user?id=` link (which
/// notifies where the person's privacy settings allow it); everyone else is shown by name, in
/// bold, without notifying.
fn pieces(reply: &Reply) -> Vec<Piece> {
    let mut out = Vec::new();
    for span in &reply.spans {
        match span {
            Span::Text(text) => {
                // Lines apart, so that long text is cut between lines.
                for line in text.split_inclusive('\n') {
                    out.push(Piece::plain(line));
                }
            }
            Span::Strong(text) => out.push(Piece::wrapped("b", text)),
            Span::Code(text) => out.push(Piece::wrapped("code", text)),
            Span::Mention(person) => {
                let (id, name) = (&person.id, &person.name);
                let notify = reply.notify.iter().any(|n| n == id);
                out.push(match (notify, &person.username) {
                    (true, Some(username)) => Piece::plain(&format!("@{username}")),
                    (true, None) if id.bytes().all(|b| b.is_ascii_digit()) => Piece {
                        html: format!("<a href=\"tg://user?id={id}\">{}</a>", escape(name)),
                        len: telegram_len(name),
                    },
                    _ => Piece::wrapped("b", name),
                });
            }
            Span::Game(game) => out.push(Piece::plain(&format!("#{game}"))),
            Span::Msg(_) => out.push(Piece::plain(&span.plain())),
        }
    }
    out
}

/// The reply's text as HTML, cut into chunks of at most `limit` characters each (as Telegram
/// counts them after parsing), cut between lines where it can. An empty text gives no chunk.
pub fn chunks(reply: &Reply, limit: usize) -> Vec<String> {
    chunk(pieces(reply), limit)
}

/// The text of a reply that goes with a picture: the caption (the end of the text, within
/// 1,024 characters, cut between lines) and the messages of the rest before it (each within
/// 4,096), so that the picture with its buttons comes last and its caption says what the
/// players must do now.
pub fn with_caption(reply: &Reply) -> (Vec<String>, Option<String>) {
    let mut pieces = pieces(reply);
    let mut tail = Vec::new();
    let mut len = 0;
    while let Some(last) = pieces.last() {
        if len + last.len > CAPTION_LIMIT {
            break;
        }
        len += last.len;
        tail.extend(pieces.pop());
    }
    tail.reverse();
    let caption = chunk(tail, CAPTION_LIMIT).into_iter().next();
    (chunk(pieces, MESSAGE_LIMIT), caption)
}

fn chunk(pieces: Vec<Piece>, limit: usize) -> Vec<String> {
    let mut chunks = Vec::new();
    let mut html = String::new();
    let mut len = 0;
    for piece in pieces {
        if len + piece.len > limit && len > 0 {
            chunks.push(std::mem::take(&mut html));
            len = 0;
        }
        if piece.len > limit {
            // One piece longer than a whole chunk: plain text, cut by characters.
            for part in split_plain(&piece, limit) {
                chunks.push(part);
            }
            continue;
        }
        html.push_str(&piece.html);
        len += piece.len;
    }
    if len > 0 && !html.trim().is_empty() {
        chunks.push(html);
    }
    chunks.retain(|chunk| !chunk.trim().is_empty());
    chunks
}

/// A long piece cut into parts of at most `limit` characters. Only plain text is ever this
/// long (a line of text); marked-up pieces are names and codes, which are short.
fn split_plain(piece: &Piece, limit: usize) -> Vec<String> {
    let text = unescape(&piece.html);
    let mut parts = Vec::new();
    let mut part = String::new();
    let mut len = 0;
    for c in text.chars() {
        let units = c.len_utf16();
        if len + units > limit {
            parts.push(escape(&std::mem::take(&mut part)));
            len = 0;
        }
        part.push(c);
        len += units;
    }
    if !part.is_empty() {
        parts.push(escape(&part));
    }
    parts
}

/// The inverse of [`escape`] for text that [`escape`] wrote.
fn unescape(html: &str) -> String {
    html.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// A toast: what the presser of a button sees at once ([`Reply::toast_text`]), cut to
/// Telegram's 200 characters with an ellipsis.
pub fn toast(reply: &Reply) -> String {
    let text = reply.toast_text();
    let text = text.trim();
    if telegram_len(text) <= TOAST_LIMIT {
        return text.to_string();
    }
    let mut out = String::new();
    let mut len = 0;
    for c in text.chars() {
        if len + c.len_utf16() > TOAST_LIMIT - 1 {
            break;
        }
        out.push(c);
        len += c.len_utf16();
    }
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_service::service::Person;

    fn reply(spans: Vec<Span>, notify: &[&str]) -> Reply {
        Reply {
            spans,
            notify: notify.iter().map(|s| (*s).to_string()).collect(),
            ..Reply::default()
        }
    }

    fn person(id: &str, name: &str, username: Option<&str>) -> Span {
        Span::Mention(Person {
            id: id.into(),
            name: name.into(),
            username: username.map(Into::into),
        })
    }

    #[test]
    fn escapes_user_text_and_marks_up_spans() {
        let r = reply(
            vec![
                Span::Text("a <b> & \"c\" ".into()),
                Span::Strong("x<y".into()),
                Span::Code("d3-d5".into()),
            ],
            &[],
        );
        assert_eq!(
            chunks(&r, MESSAGE_LIMIT),
            vec!["a &lt;b&gt; &amp; &quot;c&quot; <b>x&lt;y</b><code>d3-d5</code>"]
        );
    }

    #[test]
    fn only_notified_people_are_mentioned() {
        let r = reply(
            vec![
                person("11", "Alice <3", Some("alice")),
                Span::Text(" and ".into()),
                person("22", "Bob", None),
                Span::Text(" and ".into()),
                person("33", "Carol", Some("carol_c")),
            ],
            &["22", "33"],
        );
        assert_eq!(
            chunks(&r, MESSAGE_LIMIT),
            vec![
                "<b>Alice &lt;3</b> and <a href=\"tg://user?id=22\">Bob</a> and @carol_c"
                    .to_string()
            ]
        );
    }

    #[test]
    fn long_text_is_cut_between_lines_within_the_limit() {
        let line = format!("{}\n", "é".repeat(30));
        let r = reply(vec![Span::Text(line.repeat(10))], &[]);
        let parts = chunks(&r, 100);
        assert_eq!(parts.len(), 4);
        for part in &parts {
            assert!(telegram_len(&unescape(part)) <= 100, "{part}");
        }
        assert_eq!(parts.concat(), line.repeat(10));
    }

    #[test]
    fn a_line_longer_than_a_chunk_is_cut_by_characters() {
        let r = reply(vec![Span::Text(format!("{}&", "😀".repeat(60)))], &[]);
        let parts = chunks(&r, 50);
        for part in &parts {
            assert!(telegram_len(&unescape(part)) <= 50);
        }
        assert_eq!(
            parts.iter().map(|p| unescape(p)).collect::<String>(),
            format!("{}&", "😀".repeat(60))
        );
    }

    #[test]
    fn a_long_text_with_a_picture_ends_in_its_caption() {
        let line = format!("{}\n", "x".repeat(99));
        let r = reply(
            vec![Span::Text(line.repeat(30)), Span::Strong("to move.".into())],
            &[],
        );
        let (before, caption) = with_caption(&r);
        let caption = caption.expect("a caption");
        assert!(caption.ends_with("<b>to move.</b>"));
        assert!(telegram_len(&unescape(&caption)) <= CAPTION_LIMIT);
        assert_eq!(before.len(), 1);
        assert_eq!(
            format!("{}{}", before[0], caption),
            format!("{}<b>to move.</b>", line.repeat(30))
        );
        let short = reply(vec![Span::Text("Game #1.".into())], &[]);
        assert_eq!(with_caption(&short), (vec![], Some("Game #1.".into())));
    }

    #[test]
    fn toasts_fit() {
        let mut r = reply(vec![Span::Text("x".repeat(500))], &[]);
        r.audience = tabula_service::service::Audience::Actor;
        let t = toast(&r);
        assert_eq!(telegram_len(&t), TOAST_LIMIT);
        assert!(t.ends_with('…'));
        let mut short = reply(vec![Span::Text("Not your turn.".into())], &[]);
        short.audience = tabula_service::service::Audience::Actor;
        assert_eq!(toast(&short), "Not your turn.");
        // A board for everyone shows its own toast, not its text.
        let mut board = reply(vec![Span::Text("The board.".into())], &[]);
        assert_eq!(toast(&board), "");
        board.toast = vec![Span::Text("Played d6-d4.".into())];
        assert_eq!(toast(&board), "Played d6-d4.");
    }
}
