//! Reading the `key=value` fields of position strings and options, shared by all games.

use crate::error::{Expected, PositionError, PositionProblem, SetupError};

/// The fields of a position string, checked for unknown and repeated keys.
#[derive(Debug)]
pub struct Fields<'a> {
    pairs: Vec<(&'a str, &'a str)>,
}

impl<'a> Fields<'a> {
    /// Splits `text` into `key=value` fields; every key must be one of `keys`, at most once.
    ///
    /// # Errors
    /// A field without `=`, an unknown key, or a key given twice.
    pub fn parse(text: &'a str, keys: &[&str]) -> Result<Self, PositionError> {
        let mut pairs: Vec<(&str, &str)> = Vec::new();
        for field in text.split_whitespace() {
            let Some((key, value)) = field.split_once('=') else {
                return Err(PositionError::new(field, PositionProblem::ExpectedKeyValue));
            };
            if !keys.contains(&key) {
                return Err(PositionError::new(
                    key,
                    PositionProblem::UnknownKey {
                        keys: keys.iter().map(ToString::to_string).collect(),
                    },
                ));
            }
            if pairs.iter().any(|(k, _)| *k == key) {
                return Err(PositionError::new(key, PositionProblem::KeyGivenTwice));
            }
            pairs.push((key, value));
        }
        Ok(Self { pairs })
    }

    /// The value of `key`, if given.
    pub fn get(&self, key: &str) -> Option<&'a str> {
        self.pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    /// The value of a required key.
    ///
    /// # Errors
    /// The key is missing.
    pub fn require(&self, key: &str) -> Result<&'a str, PositionError> {
        self.get(key)
            .ok_or_else(|| PositionError::new(key, PositionProblem::Missing))
    }

    /// The comma-separated items of `key`; none when the key is missing or empty.
    pub fn list(&self, key: &str) -> impl Iterator<Item = &'a str> + use<'a> {
        self.get(key)
            .unwrap_or("")
            .split(',')
            .filter(|item| !item.is_empty())
    }
}

/// Reads a whole-number option value within `range`.
///
/// # Errors
/// Not a number, or outside the range.
pub fn number_option(
    key: &str,
    value: &str,
    range: std::ops::RangeInclusive<u32>,
) -> Result<u32, SetupError> {
    value
        .parse::<u32>()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| SetupError::BadOptionValue {
            key: key.into(),
            value: value.into(),
            expected: Expected::Range {
                min: *range.start(),
                max: *range.end(),
            },
        })
}

/// Reads an option value that must be one of `choices`, returning its index.
///
/// # Errors
/// Not one of the choices.
pub fn choice_option(key: &str, value: &str, choices: &[&str]) -> Result<usize, SetupError> {
    choices
        .iter()
        .position(|c| *c == value)
        .ok_or_else(|| SetupError::BadOptionValue {
            key: key.into(),
            value: value.into(),
            expected: Expected::OneOf(choices.iter().map(ToString::to_string).collect()),
        })
}

/// Joins non-empty `key=value` fields with spaces; a field whose value is empty is left out.
pub fn join_fields<'a>(fields: impl IntoIterator<Item = (&'a str, String)>) -> String {
    let mut out = String::new();
    for (key, value) in fields {
        if value.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(key);
        out.push('=');
        out.push_str(&value);
    }
    out
}
