//! The record file of `/export`: header lines `[Key "value"]` (inside the quotes, `\"` and `\\`
//! stand for a quote and a backslash), a blank line, then one action per line in canonical
//! notation, rolls written `roll:<outcome>`: the list `tabula rules --moves` accepts.
//!
//! Headers written by the bot, in this order: `Game` (the game's identifier), `Id` (its number
//! in the chat), `Options` (`K=V` separated by spaces), `Position` (only for a game that did
//! not start from the initial position), `Seats` (`seat name` pairs separated by `; `),
//! `Started` (RFC 3339, UTC), `Result` (`winner <team>`, with `(resigned)` or `(time)` when the
//! game ended so; `draw`; `aborted`; `*` while it runs), and for a game with chance `Dice`
//! (`committed`, or `not verifiable` for a game from before committed dice), `Commitment`,
//! `Salt`, `SaltSource` (`platform` or `none`), and once the game is over `Seed`.

use std::fmt;

/// A game's record: its headers and its actions.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Record {
    /// The headers, in order: key, value, and the line (from 1) they were read from (0 for
    /// a record built in memory).
    pub headers: Vec<(String, String, usize)>,
    /// The actions, in order, with the line (from 1) each was read from.
    pub actions: Vec<(String, usize)>,
}

/// Why a record file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {why}")]
pub struct ParseError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub why: String,
}

impl Record {
    /// Adds a header.
    pub fn header(&mut self, key: &str, value: impl Into<String>) {
        self.headers.push((key.to_string(), value.into(), 0));
    }

    /// The value of the first header named `key`, with its line.
    pub fn get(&self, key: &str) -> Option<(&str, usize)> {
        self.headers
            .iter()
            .find(|(k, _, _)| k == key)
            .map(|(_, value, line)| (value.as_str(), *line))
    }

    /// Reads a record file.
    ///
    /// # Errors
    /// The first line that is neither a header (before the actions), a blank line, nor one
    /// action.
    pub fn parse(text: &str) -> Result<Record, ParseError> {
        let mut record = Record::default();
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let trimmed = raw.trim();
            if trimmed.is_empty() {
                continue;
            }
            if trimmed.starts_with('[') {
                if !record.actions.is_empty() {
                    return Err(ParseError {
                        line,
                        why: "a header after the actions (headers come first)".into(),
                    });
                }
                let (key, value) = header_line(trimmed).map_err(|why| ParseError { line, why })?;
                record.headers.push((key, value, line));
            } else if trimmed.split_whitespace().nth(1).is_some() {
                return Err(ParseError {
                    line,
                    why: format!(
                        "`{}` is more than one action (write one action per line)",
                        crate::l10n::quote(trimmed)
                    ),
                });
            } else {
                record.actions.push((trimmed.to_string(), line));
            }
        }
        if record.headers.is_empty() && record.actions.is_empty() {
            return Err(ParseError {
                line: 1,
                why: "the file is empty".into(),
            });
        }
        Ok(record)
    }
}

/// One header line: `[Key "value"]`.
fn header_line(line: &str) -> Result<(String, String), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .ok_or("a header is written [Key \"value\"]")?;
    let (key, quoted) = inner
        .split_once(' ')
        .ok_or("a header is written [Key \"value\"]")?;
    if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(format!(
            "`{}` is not a header name (letters and digits)",
            crate::l10n::quote(key)
        ));
    }
    let body = quoted
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .ok_or("the value of a header is in double quotes")?;
    let mut value = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(escaped @ ('"' | '\\')) => value.push(escaped),
                _ => return Err("inside a value, a backslash is followed by \" or \\".into()),
            },
            '"' => return Err("inside a value, a quote is written \\\"".into()),
            other => value.push(other),
        }
    }
    Ok((key.to_string(), value))
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (key, value, _) in &self.headers {
            let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
            // A value keeps to its line.
            let escaped: String = escaped
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect();
            writeln!(f, "[{key} \"{escaped}\"]")?;
        }
        writeln!(f)?;
        for (action, _) in &self.actions {
            writeln!(f, "{action}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_what_was_written() {
        let mut record = Record::default();
        record.header("Game", "coan-ki");
        record.header("Seats", "white Al \"the quick\" \\o/; black Bo");
        record.actions.push(("roll:5-6".into(), 0));
        record.actions.push(("a1-b2".into(), 0));
        let text = record.to_string();
        assert!(text.contains(r#"[Seats "white Al \"the quick\" \\o/; black Bo"]"#));
        let read = Record::parse(&text).expect("reads");
        assert_eq!(read.get("Game"), Some(("coan-ki", 1)));
        assert_eq!(
            read.get("Seats").map(|(v, _)| v),
            Some("white Al \"the quick\" \\o/; black Bo")
        );
        let actions: Vec<_> = read.actions.iter().map(|(a, l)| (a.as_str(), *l)).collect();
        assert_eq!(actions, vec![("roll:5-6", 4), ("a1-b2", 5)]);
    }

    #[test]
    fn malformed_lines_are_named() {
        for (text, line) in [
            ("[Game coan-ki]\n", 1),
            ("[Game \"a\"b\"]\n", 1),
            ("[Game \"a\\x\"]\n", 1),
            ("[Ga-me \"x\"]\n", 1),
            ("[Game \"x\"]\n\nroll:1 roll:2\n", 3),
            ("[Game \"x\"]\nroll:1\n[Id \"2\"]\n", 3),
            ("\n\n", 1),
        ] {
            let error = Record::parse(text).expect_err(text);
            assert_eq!(error.line, line, "{text:?}: {error}");
        }
    }
}
