//! Message text as Telegram handles it: the HTML parse mode (tags and character references to
//! plain text plus entities), the entities Telegram finds by itself (`/commands`, `@mentions`),
//! and lengths. Offsets and lengths are in UTF-16 code units, as in the Bot API.

use serde_json::{Value, json};

/// One entity of a message text or caption.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entity {
    /// The Bot API entity type (`bold`, `text_link`, `bot_command`, ...).
    pub kind: String,
    /// Offset in UTF-16 code units.
    pub offset: usize,
    /// Length in UTF-16 code units.
    pub length: usize,
    /// For `text_link`.
    pub url: Option<String>,
    /// For `text_mention`: the mentioned user (a `User` object).
    pub user: Option<Value>,
    /// For `pre`.
    pub language: Option<String>,
    /// For `custom_emoji`.
    pub custom_emoji_id: Option<String>,
}

impl Entity {
    /// An entity with only a type and a range.
    #[must_use]
    pub fn new(kind: &str, offset: usize, length: usize) -> Self {
        Self {
            kind: kind.to_owned(),
            offset,
            length,
            url: None,
            user: None,
            language: None,
            custom_emoji_id: None,
        }
    }

    /// The `MessageEntity` object.
    #[must_use]
    pub fn to_json(&self) -> Value {
        let mut v = json!({"type": self.kind, "offset": self.offset, "length": self.length});
        if let Some(url) = &self.url {
            v["url"] = json!(url);
        }
        if let Some(user) = &self.user {
            v["user"] = user.clone();
        }
        if let Some(language) = &self.language {
            v["language"] = json!(language);
        }
        if let Some(id) = &self.custom_emoji_id {
            v["custom_emoji_id"] = json!(id);
        }
        v
    }

    /// Reads a `MessageEntity` object sent by the bot (already checked against the spec).
    #[must_use]
    pub fn from_json(v: &Value) -> Self {
        let text = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
        let number = |k: &str| {
            v.get(k)
                .and_then(Value::as_u64)
                .and_then(|n| usize::try_from(n).ok())
                .unwrap_or(0)
        };
        Self {
            kind: text("type").unwrap_or_default(),
            offset: number("offset"),
            length: number("length"),
            url: text("url"),
            user: v.get("user").cloned(),
            language: text("language"),
            custom_emoji_id: text("custom_emoji_id"),
        }
    }

    /// The text this entity covers in `text`.
    #[must_use]
    pub fn slice(&self, text: &str) -> String {
        let units: Vec<u16> = text.encode_utf16().collect();
        let end = (self.offset + self.length).min(units.len());
        String::from_utf16_lossy(units.get(self.offset.min(end)..end).unwrap_or_default())
    }
}

/// The length of `text` in UTF-16 code units.
#[must_use]
pub fn utf16_len(text: &str) -> usize {
    text.encode_utf16().count()
}

/// The length Telegram's limits count (Unicode characters).
#[must_use]
pub fn char_len(text: &str) -> usize {
    text.chars().count()
}

struct Open {
    tag: String,
    start: usize,
    byte: usize,
    href: Option<String>,
    class: Option<String>,
    expandable: bool,
    emoji_id: Option<String>,
    language: Option<String>,
}

/// Parses `source` in the HTML parse mode. `user` resolves a `tg://user?id=N` link to a known
/// user (a `User` object); an unknown one stays a `text_link`.
///
/// # Errors
///
/// Telegram's description after `Bad Request: can't parse entities: `.
pub fn parse_html(
    source: &str,
    user: &dyn Fn(i64) -> Option<Value>,
) -> Result<(String, Vec<Entity>), String> {
    let mut text = String::new();
    let mut units = 0usize;
    let mut stack: Vec<Open> = Vec::new();
    let mut entities = Vec::new();
    let mut i = 0;
    while i < source.len() {
        let rest = &source[i..];
        let Some(c) = rest.chars().next() else { break };
        if c == '&' {
            let (decoded, used) = decode_reference(rest)
                .ok_or_else(|| format!("Unsupported HTML entity at byte offset {i}"))?;
            text.push(decoded);
            units += decoded.len_utf16();
            i += used;
        } else if c == '<' {
            let close = rest
                .find('>')
                .ok_or_else(|| format!("Unclosed start tag at byte offset {i}"))?;
            let inner = &rest[1..close];
            if let Some(name) = inner.strip_prefix('/') {
                let name = name.trim().to_ascii_lowercase();
                let Some(open) = stack.pop() else {
                    return Err(format!("Unexpected end tag at byte offset {i}"));
                };
                if !name.is_empty() && name != open.tag {
                    return Err(format!(
                        "Unmatched end tag at byte offset {i}, expected \"</{}>\", found \"</{name}>\"",
                        open.tag
                    ));
                }
                close_tag(open, units, &mut stack, &mut entities, user);
            } else {
                stack.push(open_tag(inner, i)?.started_at(units));
            }
            i += close + 1;
        } else {
            // A bare '>' is accepted, as Telegram does (the documentation asks for &gt;).
            text.push(c);
            units += c.len_utf16();
            i += c.len_utf8();
        }
    }
    if let Some(open) = stack.pop() {
        return Err(format!(
            "Can't find end tag corresponding to start tag \"{}\" at byte offset {}",
            open.tag, open.byte
        ));
    }
    sort_entities(&mut entities);
    Ok((text, entities))
}

fn open_tag(inner: &str, byte: usize) -> Result<Open, String> {
    let name_end = inner
        .find(|c: char| c.is_whitespace())
        .unwrap_or(inner.len());
    let tag = inner[..name_end].to_ascii_lowercase();
    const ALLOWED: [&str; 16] = [
        "b",
        "strong",
        "i",
        "em",
        "u",
        "ins",
        "s",
        "strike",
        "del",
        "span",
        "tg-spoiler",
        "a",
        "code",
        "pre",
        "blockquote",
        "tg-emoji",
    ];
    if !ALLOWED.contains(&tag.as_str()) {
        return Err(format!(
            "Unsupported start tag \"{tag}\" at byte offset {byte}"
        ));
    }
    let mut open = Open {
        tag,
        start: 0,
        byte,
        href: None,
        class: None,
        expandable: false,
        emoji_id: None,
        language: None,
    };
    for (name, value) in attributes(&inner[name_end..], byte)? {
        match name.as_str() {
            "href" => open.href = Some(value),
            "class" => open.class = Some(value),
            "expandable" => open.expandable = true,
            "emoji-id" => open.emoji_id = Some(value),
            _ => {}
        }
    }
    if open.tag == "span" && open.class.as_deref() != Some("tg-spoiler") {
        return Err(format!(
            "Tag \"span\" must have class \"tg-spoiler\" at byte offset {byte}"
        ));
    }
    if open.tag == "tg-emoji" && open.emoji_id.is_none() {
        return Err(format!(
            "Custom emoji must have an emoji-id at byte offset {byte}"
        ));
    }
    Ok(open)
}

/// Attributes of a start tag: `name="v"`, `name='v'`, `name=v` or a bare `name`.
fn attributes(mut s: &str, byte: usize) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    loop {
        s = s.trim_start();
        if s.is_empty() || s == "/" {
            return Ok(out);
        }
        let name_end = s
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .unwrap_or(s.len());
        if name_end == 0 {
            return Err(format!("Expected an attribute name at byte offset {byte}"));
        }
        let name = s[..name_end].to_ascii_lowercase();
        s = s[name_end..].trim_start();
        let Some(after_eq) = s.strip_prefix('=') else {
            out.push((name, String::new()));
            continue;
        };
        let after_eq = after_eq.trim_start();
        let (raw, rest) = match after_eq.chars().next() {
            Some(q @ ('"' | '\'')) => {
                let body = &after_eq[1..];
                let end = body
                    .find(q)
                    .ok_or_else(|| format!("Unclosed attribute value at byte offset {byte}"))?;
                (&body[..end], &body[end + 1..])
            }
            _ => {
                let end = after_eq.find(char::is_whitespace).unwrap_or(after_eq.len());
                (&after_eq[..end], &after_eq[end..])
            }
        };
        out.push((name, decode_text(raw, byte)?));
        s = rest;
    }
}

fn decode_text(raw: &str, byte: usize) -> Result<String, String> {
    let mut out = String::new();
    let mut i = 0;
    while let Some(c) = raw[i..].chars().next() {
        if c == '&' {
            let (d, used) = decode_reference(&raw[i..])
                .ok_or_else(|| format!("Unsupported HTML entity at byte offset {byte}"))?;
            out.push(d);
            i += used;
        } else {
            out.push(c);
            i += c.len_utf8();
        }
    }
    Ok(out)
}

/// `&lt;` `&gt;` `&amp;` `&quot;` and numeric references; anything else is refused.
fn decode_reference(s: &str) -> Option<(char, usize)> {
    let end = s.find(';')?;
    let body = &s[1..end];
    let c = match body {
        "lt" => '<',
        "gt" => '>',
        "amp" => '&',
        "quot" => '"',
        _ => {
            let num = body.strip_prefix('#')?;
            let code = match num.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => num.parse().ok()?,
            };
            char::from_u32(code)?
        }
    };
    Some((c, end + 1))
}

fn close_tag(
    open: Open,
    units: usize,
    stack: &mut [Open],
    entities: &mut Vec<Entity>,
    user: &dyn Fn(i64) -> Option<Value>,
) {
    if open.tag == "code"
        && let Some(parent) = stack.last_mut().filter(|p| p.tag == "pre")
    {
        if let Some(lang) = open
            .class
            .as_deref()
            .and_then(|c| c.strip_prefix("language-"))
        {
            parent.language = Some(lang.to_owned());
        }
        return;
    }
    let length = units - open.start;
    if length == 0 {
        return;
    }
    let kind = match open.tag.as_str() {
        "b" | "strong" => "bold",
        "i" | "em" => "italic",
        "u" | "ins" => "underline",
        "s" | "strike" | "del" => "strikethrough",
        "span" | "tg-spoiler" => "spoiler",
        "code" => "code",
        "pre" => "pre",
        "blockquote" if open.expandable => "expandable_blockquote",
        "blockquote" => "blockquote",
        "tg-emoji" => "custom_emoji",
        _ => "text_link",
    };
    let mut entity = Entity::new(kind, open.start, length);
    match kind {
        "text_link" => {
            let Some(href) = open.href.filter(|h| !h.is_empty()) else {
                return;
            };
            let mentioned = href
                .strip_prefix("tg://user?id=")
                .and_then(|id| id.parse::<i64>().ok())
                .and_then(user);
            if let Some(u) = mentioned {
                entity.kind = "text_mention".to_owned();
                entity.user = Some(u);
            } else {
                entity.url = Some(href);
            }
        }
        "pre" => entity.language = open.language,
        "custom_emoji" => entity.custom_emoji_id = open.emoji_id,
        _ => {}
    }
    entities.push(entity);
}

impl Open {
    fn started_at(mut self, units: usize) -> Self {
        self.start = units;
        self
    }
}

/// Sorts entities as Telegram returns them: by offset, longer first.
pub fn sort_entities(entities: &mut [Entity]) {
    entities.sort_by_key(|e| (e.offset, std::cmp::Reverse(e.length)));
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The entities Telegram finds in plain text by itself: `bot_command` (`/cmd` or `/cmd@bot`,
/// anywhere a word starts) and `mention` (`@username`, 5 to 32 of `[A-Za-z0-9_]`).
#[must_use]
pub fn detect_entities(text: &str) -> Vec<Entity> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = Vec::new();
    let mut unit_at = Vec::with_capacity(chars.len() + 1);
    let mut u = 0;
    for &(_, c) in &chars {
        unit_at.push(u);
        u += c.len_utf16();
    }
    unit_at.push(u);
    let ascii_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let run = |from: usize| {
        chars[from..]
            .iter()
            .take_while(|(_, c)| ascii_word(*c))
            .count()
    };
    let mut k = 0;
    while k < chars.len() {
        let c = chars[k].1;
        let starts_word =
            k == 0 || !(is_word(chars[k - 1].1) || matches!(chars[k - 1].1, '/' | '@'));
        if c == '/' && starts_word {
            let name = run(k + 1);
            if (1..=64).contains(&name) {
                let mut end = k + 1 + name;
                if chars.get(end).map(|p| p.1) == Some('@') {
                    let user = run(end + 1);
                    if (3..=32).contains(&user) {
                        end += 1 + user;
                    }
                }
                if chars.get(end).is_none_or(|p| !is_word(p.1) && p.1 != '/') {
                    out.push(Entity::new(
                        "bot_command",
                        unit_at[k],
                        unit_at[end] - unit_at[k],
                    ));
                    k = end;
                    continue;
                }
            }
        } else if c == '@' && starts_word {
            let name = run(k + 1);
            let end = k + 1 + name;
            if (5..=32).contains(&name) && chars.get(end).is_none_or(|p| !is_word(p.1)) {
                out.push(Entity::new(
                    "mention",
                    unit_at[k],
                    unit_at[end] - unit_at[k],
                ));
                k = end;
                continue;
            }
        }
        k += 1;
    }
    out
}

/// Adds the entities Telegram detects by itself to `entities` (bot messages too), except where
/// they would overlap an entity that hides them (code, pre, links, mentions).
pub fn add_detected(text: &str, entities: &mut Vec<Entity>) {
    const HIDING: [&str; 6] = [
        "code",
        "pre",
        "text_link",
        "text_mention",
        "custom_emoji",
        "url",
    ];
    for found in detect_entities(text) {
        let overlaps = entities.iter().any(|e| {
            HIDING.contains(&e.kind.as_str())
                && e.offset < found.offset + found.length
                && found.offset < e.offset + e.length
        });
        let same = entities
            .iter()
            .any(|e| e.kind == found.kind && e.offset == found.offset);
        if !overlaps && !same {
            entities.push(found);
        }
    }
    sort_entities(entities);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_user(_: i64) -> Option<Value> {
        None
    }

    #[test]
    fn nested_tags_give_utf16_offsets() {
        let (text, e) = parse_html("😀 <b>a <i>b</i></b> &lt;&#65;&gt;", &no_user).unwrap();
        assert_eq!(text, "😀 a b <A>");
        assert_eq!(
            e,
            vec![Entity::new("bold", 3, 3), Entity::new("italic", 5, 1)]
        );
    }

    #[test]
    fn pre_with_code_class_is_one_pre_entity() {
        let (_, e) = parse_html(
            "<pre><code class=\"language-rust\">x</code></pre>",
            &no_user,
        )
        .unwrap();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].language.as_deref(), Some("rust"));
    }

    #[test]
    fn refusals() {
        for bad in [
            "<foo>x</foo>",
            "a < b",
            "a & b",
            "<b>x",
            "<b>x</i>",
            "x</b>",
            "&nbsp;",
        ] {
            assert!(parse_html(bad, &no_user).is_err(), "{bad}");
        }
    }

    #[test]
    fn detection() {
        let e = detect_entities("/play@tabula_test_bot konane @bob_smith @bob x/y");
        let kinds: Vec<_> = e
            .iter()
            .map(|e| (e.kind.as_str(), e.offset, e.length))
            .collect();
        assert_eq!(kinds, vec![("bot_command", 0, 21), ("mention", 29, 10)]);
    }
}
