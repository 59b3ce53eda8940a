//! Reply text as Discord message content: Markdown with everything typed by people escaped,
//! within Discord's 2,000 characters. The people to notify are real mentions (`<@id>`, and
//! `allowed_mentions` names them); everyone else is shown by name, in bold, as on Telegram.

use tabula_service::service::Span;

/// The most characters of a message's content.
pub const CONTENT_LIMIT: usize = 2_000;

/// The characters Discord's Markdown gives a meaning to wherever they stand (emphasis, code,
/// spoilers, links, mentions, the escape itself): escaped with a backslash.
const SPECIAL: &[char] = &['\\', '*', '_', '~', '`', '|', '<', '[', ']'];

/// The characters that mean something at the start of a line (headings, quotes, lists).
const LINE_START: &[char] = &['#', '>', '-'];

/// Plain text with Discord's Markdown characters escaped, so that it shows as typed.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut line_start = true;
    for c in text.chars() {
        if SPECIAL.contains(&c) || (line_start && LINE_START.contains(&c)) {
            out.push('\\');
        }
        out.push(c);
        if c == '\n' {
            line_start = true;
        } else if !c.is_whitespace() {
            line_start = false;
        }
    }
    out
}

/// Text shown as inline code: nothing inside is interpreted; a backtick inside gets the
/// double-backtick form.
fn code(text: &str) -> String {
    let text = text.replace('\n', " ");
    if text.contains('`') {
        format!("`` {text} ``")
    } else {
        format!("`{text}`")
    }
}

/// The spans as message content, cut to [`CONTENT_LIMIT`] characters; the people in `notify`
/// are mentioned, others named.
pub fn content(spans: &[Span], notify: &[String]) -> String {
    let mut out = String::new();
    for span in spans {
        match span {
            Span::Text(text) => out.push_str(&escape(text)),
            Span::Strong(text) if text.trim().is_empty() => out.push_str(&escape(text)),
            Span::Strong(text) => {
                out.push_str("**");
                out.push_str(&escape(text));
                out.push_str("**");
            }
            Span::Code(text) => out.push_str(&code(text)),
            Span::Mention(person)
                if notify.contains(&person.id)
                    && !person.id.is_empty()
                    && person.id.bytes().all(|b| b.is_ascii_digit()) =>
            {
                out.push_str(&format!("<@{}>", person.id));
            }
            Span::Mention(person) => {
                out.push_str("**");
                out.push_str(&escape(&person.name));
                out.push_str("**");
            }
            Span::Game(game) => out.push_str(&format!("#{game}")),
            Span::Msg(_) => out.push_str(&escape(&span.plain())),
        }
    }
    cut(out)
}

/// At most [`CONTENT_LIMIT`] characters: a longer text keeps its beginning and ends with `…`
/// (never in the middle of an escape).
fn cut(text: String) -> String {
    if text.chars().count() <= CONTENT_LIMIT {
        return text;
    }
    let mut out: String = text.chars().take(CONTENT_LIMIT - 1).collect();
    while out.ends_with('\\') {
        out.pop();
    }
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_service::service::Person;
    use tabula_service::store::GameNo;

    #[test]
    fn typed_text_cannot_format_or_mention() {
        let spans = vec![
            Span::Mention(Person::new("123", "alice")),
            Span::Text(" vs *bob* <@456> `x` [a](b) # 1:0\n# big\n> quote".into()),
            Span::Game(GameNo(4)),
            Span::Mention(Person::new("789", "c_d")),
        ];
        let text = content(&spans, &["123".to_string()]);
        assert_eq!(
            text,
            "<@123> vs \\*bob\\* \\<@456> \\`x\\` \\[a\\](b) # 1:0\n\\# big\n\\> quote#4**c\\_d**"
        );
    }

    #[test]
    fn strong_and_code_keep_their_meaning() {
        let spans = vec![
            Span::Strong("Game over".into()),
            Span::Text(": ".into()),
            Span::Code("a1+5".into()),
            Span::Code("x`y".into()),
        ];
        assert_eq!(content(&spans, &[]), "**Game over**: `a1+5``` x`y ``");
    }

    #[test]
    fn long_text_is_cut_to_the_limit() {
        let spans = vec![Span::Text("*".repeat(1_500))];
        let text = content(&spans, &[]);
        assert!(text.chars().count() <= CONTENT_LIMIT);
        assert!(text.chars().count() >= CONTENT_LIMIT - 2);
        assert!(text.ends_with("\\*…"), "{}", &text[text.len() - 8..]);
    }
}
