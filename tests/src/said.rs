//! Which message of the catalogue a text the bot posted says, so that the end-to-end tests name
//! message ids, not sentences: a message's English pattern (`service/locales/en/*.ftl`) is cut
//! at its placeables (`{ $person }`, selections, references), and a text says the message when
//! the pieces between them appear in it, in order. Rewording a message in the catalogue then
//! changes no test; a text that says another message does not match.

use std::collections::HashMap;
use std::sync::OnceLock;

/// The English catalogue, read once: each message's literal pieces, in order.
fn catalogue() -> &'static HashMap<String, Vec<String>> {
    static CATALOGUE: OnceLock<HashMap<String, Vec<String>>> = OnceLock::new();
    CATALOGUE.get_or_init(|| {
        raw_catalogue()
            .iter()
            .map(|(id, pattern)| (id.clone(), pieces(pattern)))
            .collect()
    })
}

/// The English catalogue's files, read once.
fn ftl_files() -> &'static [String] {
    static FILES: OnceLock<Vec<String>> = OnceLock::new();
    FILES.get_or_init(|| {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../service/locales/en");
        let mut paths: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|error| panic!("cannot read the catalogue {dir}: {error}"))
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| path.extension().is_some_and(|e| e == "ftl"))
            .collect();
        paths.sort();
        paths
            .iter()
            .map(|path| {
                std::fs::read_to_string(path)
                    .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()))
            })
            .collect()
    })
}

/// The messages of one Fluent file: id and pattern (continuation lines joined; attributes and
/// comments left out).
fn patterns(text: &str) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in text.lines() {
        // A selection's closing brace may stand at the start of a line.
        let continued = line.starts_with(' ') || line.starts_with('\t') || line.starts_with('}');
        if continued && !line.trim_start().starts_with('.') {
            if let Some((_, pattern)) = current.as_mut() {
                pattern.push('\n');
                pattern.push_str(line.trim());
            }
            continue;
        }
        if continued {
            // An attribute ends the value.
            found.extend(current.take());
            continue;
        }
        found.extend(current.take());
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if let Some((id, value)) = line.split_once('=') {
            let id = id.trim();
            if !id.is_empty()
                && id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                current = Some((id.to_string(), value.trim().to_string()));
            }
        }
    }
    found.extend(current);
    found
}

/// `text` with each run of white space made one space, and none at either end.
fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The literal pieces of a pattern, between its placeables (each `{ … }`, nested braces and
/// all), each line's white space squeezed; empty pieces left out.
fn pieces(pattern: &str) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut depth = 0usize;
    let mut literal = String::new();
    let cut = |literal: &mut String, pieces: &mut Vec<String>| {
        for line in literal.split('\n') {
            let line = squeeze(line);
            if !line.is_empty() {
                pieces.push(line);
            }
        }
        literal.clear();
    };
    for c in pattern.chars() {
        match c {
            '{' => {
                if depth == 0 {
                    cut(&mut literal, &mut pieces);
                }
                depth += 1;
            }
            '}' => depth = depth.saturating_sub(1),
            // A catalogue's backticks mark code, which platforms show without them.
            '`' => {}
            c if depth == 0 => literal.push(c),
            _ => {}
        }
    }
    cut(&mut literal, &mut pieces);
    pieces
}

/// Whether `text` says catalogue message `id` (in English): its literal pieces appear in it in
/// order, white space squeezed. Markdown escapes (`\_`) are ignored. Panics on an id the catalogue lacks, so that a
/// test cannot pass by naming a message that does not exist.
#[must_use]
pub fn says(text: &str, id: &str) -> bool {
    let Some(pieces) = catalogue().get(id) else {
        panic!("no message `{id}` in the English catalogue");
    };
    in_order(text, pieces, id)
}

/// Whether `text` says catalogue message `id` with the variant `variant` of its selection
/// (`board-turn` with `thinking`: "… is thinking."): as [`says`], the variant's words included.
#[must_use]
pub fn says_variant(text: &str, id: &str, variant: &str) -> bool {
    let pattern = raw_catalogue()
        .get(id)
        .unwrap_or_else(|| panic!("no message `{id}` in the English catalogue"));
    let key = format!("[{variant}]");
    let Some(at) = pattern.find(&key) else {
        panic!("message `{id}` has no variant `{variant}`");
    };
    // The selection around the variant: from its `{` to the matching `}`.
    let open = pattern[..at].rfind('{').expect("a selection");
    let mut depth = 0usize;
    let mut close = pattern.len();
    for (offset, c) in pattern[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    close = open + offset;
                    break;
                }
            }
            _ => {}
        }
    }
    let words = pattern[at + key.len()..].lines().next().unwrap_or_default();
    let after = pattern.get(close + 1..).unwrap_or_default();
    let chosen = format!("{}{}{}", &pattern[..open], words, after);
    in_order(text, &pieces(&chosen), id)
}

/// The raw English patterns, by id.
fn raw_catalogue() -> &'static HashMap<String, String> {
    static RAW: OnceLock<HashMap<String, String>> = OnceLock::new();
    RAW.get_or_init(|| ftl_files().iter().flat_map(|text| patterns(text)).collect())
}

/// Whether `pieces` appear in `text` in order.
fn in_order(text: &str, pieces: &[String], id: &str) -> bool {
    assert!(
        !pieces.is_empty(),
        "message `{id}` has no words of its own to look for"
    );
    let text = squeeze(&text.replace(['\\', '`'], ""));
    let mut rest = text.as_str();
    for piece in pieces {
        match rest.find(piece.as_str()) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::{pieces, says, says_variant};

    #[test]
    fn a_pattern_is_cut_at_its_placeables_selections_included() {
        assert_eq!(
            pieces("Game { $game } ({ $name }) is over: { $n ->\n[one] a\n*[other] b\n}, so"),
            ["Game", "(", ") is over:", ", so"]
        );
    }

    #[test]
    fn a_text_says_a_message_when_its_pieces_come_in_order() {
        let over = "Game #3 (Koan) is over: White wins.";
        assert!(says(over, "result"));
        assert!(!says(over, "challenge-expired"));
        assert!(!says("is over: Game #3 (Koan)", "result"), "out of order");
    }

    #[test]
    fn a_variant_s_words_are_looked_for_too() {
        let thinking = "Game #2 (Koan): Computer (White) is thinking.";
        assert!(says_variant(thinking, "board-turn", "thinking"));
        assert!(!says_variant(thinking, "board-turn", "move"));
        assert!(says(thinking, "board-turn"));
    }

    #[test]
    #[should_panic(expected = "no message")]
    fn an_unknown_id_is_an_error() {
        let _ = says("anything", "no-such-message");
    }
}
