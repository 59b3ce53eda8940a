//! What a locale lacks, measured against English: messages it does not have, messages English
//! does not have, messages whose variables differ, and files that cannot be read. The tests
//! require an empty list for every locale; `tabula locales` prints it for a translator.

use std::collections::{BTreeMap, BTreeSet};

use fluent_syntax::ast;

use super::{CATALOGUE, LOCALE_FILES, Lang};

/// One thing a locale lacks or has wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lack {
    /// A file that cannot be read, or a message defined twice.
    Unreadable(String),
    /// A message English has and this locale does not.
    Missing(String),
    /// A message this locale has and English does not (a stale id).
    Extra(String),
    /// A message whose variables are not English's.
    Variables {
        /// The message.
        id: String,
        /// English's variables.
        english: Vec<String>,
        /// This locale's.
        here: Vec<String>,
    },
}

impl std::fmt::Display for Lack {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Lack::Unreadable(problem) => write!(f, "unreadable: {problem}"),
            Lack::Missing(id) => write!(f, "missing: {id}"),
            Lack::Extra(id) => write!(f, "not in English (remove or rename): {id}"),
            Lack::Variables { id, english, here } => write!(
                f,
                "{id}: variables {} here, English has {}",
                list(here),
                list(english)
            ),
        }
    }
}

fn list(names: &[String]) -> String {
    if names.is_empty() {
        "none".to_string()
    } else {
        names
            .iter()
            .map(|name| format!("${name}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The messages of a locale, each with the variables it uses.
pub(super) fn messages(lang: Lang) -> BTreeMap<String, BTreeSet<String>> {
    let mut out = BTreeMap::new();
    let files = LOCALE_FILES
        .iter()
        .find(|(code, _)| *code == lang.code())
        .map_or(&[][..], |(_, files)| *files);
    for (_, source) in files {
        let resource = match fluent_syntax::parser::parse(*source) {
            Ok(resource) => resource,
            Err((resource, _)) => resource,
        };
        for entry in resource.body {
            if let ast::Entry::Message(message) = entry {
                let mut variables = BTreeSet::new();
                if let Some(pattern) = &message.value {
                    pattern_variables(pattern, &mut variables);
                }
                out.insert(message.id.name.to_string(), variables);
            }
        }
    }
    out
}

fn pattern_variables(pattern: &ast::Pattern<&str>, out: &mut BTreeSet<String>) {
    for element in &pattern.elements {
        if let ast::PatternElement::Placeable { expression } = element {
            expression_variables(expression, out);
        }
    }
}

fn expression_variables(expression: &ast::Expression<&str>, out: &mut BTreeSet<String>) {
    match expression {
        ast::Expression::Select { selector, variants } => {
            inline_variables(selector, out);
            for variant in variants {
                pattern_variables(&variant.value, out);
            }
        }
        ast::Expression::Inline(inline) => inline_variables(inline, out),
    }
}

fn inline_variables(inline: &ast::InlineExpression<&str>, out: &mut BTreeSet<String>) {
    match inline {
        ast::InlineExpression::VariableReference { id } => {
            out.insert(id.name.to_string());
        }
        ast::InlineExpression::FunctionReference { arguments, .. }
        | ast::InlineExpression::TermReference {
            arguments: Some(arguments),
            ..
        } => {
            for argument in &arguments.positional {
                inline_variables(argument, out);
            }
            for argument in &arguments.named {
                inline_variables(&argument.value, out);
            }
        }
        ast::InlineExpression::Placeable { expression } => expression_variables(expression, out),
        _ => {}
    }
}

/// What `lang` lacks or has wrong, measured against English (empty: complete).
pub fn check(lang: Lang) -> Vec<Lack> {
    let mut lacks: Vec<Lack> = CATALOGUE
        .iter()
        .filter(|locale| locale.code == lang.code())
        .flat_map(|locale| locale.problems.iter().cloned().map(Lack::Unreadable))
        .collect();
    lacks.extend(compare(&messages(Lang::ENGLISH), &messages(lang)));
    lacks
}

/// What `here` lacks or has wrong against `english` (messages with their variables).
pub(super) fn compare(
    english: &BTreeMap<String, BTreeSet<String>>,
    here: &BTreeMap<String, BTreeSet<String>>,
) -> Vec<Lack> {
    let mut lacks = Vec::new();
    for (id, variables) in english {
        match here.get(id) {
            None => lacks.push(Lack::Missing(id.clone())),
            Some(own) if own != variables => lacks.push(Lack::Variables {
                id: id.clone(),
                english: variables.iter().cloned().collect(),
                here: own.iter().cloned().collect(),
            }),
            Some(_) => {}
        }
    }
    for id in here.keys() {
        if !english.contains_key(id) {
            lacks.push(Lack::Extra(id.clone()));
        }
    }
    lacks
}
