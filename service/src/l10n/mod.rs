//! The message catalogue: every sentence the bot says, in every language it speaks.
//!
//! Messages live in Fluent files, one folder per locale (`service/locales/<code>/*.ftl`), found by
//! `build.rs` and built into the binary: adding a language is adding a folder, with no code
//! naming it. The service builds a [`Msg`] (a message id and its arguments) where it used to
//! build English text, and each reply is rendered in one language at the end of a request
//! ([`spans`]): the person's own when only they see it, the community's when the chat does
//! (see `service::routing`).
//!
//! - Plurals follow each language's CLDR rules (Fluent's selectors over a number).
//! - Numbers are written by ICU4X's decimal formatter for the locale, plugged into each
//!   bundle with `FluentBundle::set_formatter`, so a number stays a number for plural
//!   selection and is still written `1,000` in English and `1 000` in Russian.
//! - Arguments may be other messages (a seat's name inside a sentence) or spans (a mention, a
//!   game reference, a command shown as code): a span argument goes through Fluent as a
//!   private-use marker and comes out as the span, so a translation may put it anywhere.
//! - A message missing from a locale falls back to English (and is reported by [`check`]).

mod check;
mod numbers;
mod vocabulary;

pub use check::{Lack, check};
pub use vocabulary::{Person, QUOTE_CHARS, Span, duration_msg, game_msg, quote};

use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use unic_langid::LanguageIdentifier;

include!(concat!(env!("OUT_DIR"), "/locales.rs"));

/// A language the bot speaks: the code of one of its locale folders (`en`, `ru`, `bg`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Lang(&'static str);

impl Lang {
    /// English: the default, and the fallback for a message a locale lacks.
    pub const ENGLISH: Lang = Lang("en");

    /// The locale's code, as its folder is named.
    pub fn code(self) -> &'static str {
        self.0
    }

    /// Every language of the catalogue, in the order of their codes.
    pub fn all() -> impl Iterator<Item = Lang> {
        LOCALE_FILES.iter().map(|(code, _)| Lang(code))
    }

    /// The language of a locale tag as platforms send it (`ru`, `ru-RU`, `pt_BR`, `en-GB`):
    /// its primary language subtag, when the catalogue has that language.
    pub fn parse(tag: &str) -> Option<Lang> {
        let primary = tag.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        Lang::all().find(|lang| lang.0 == primary)
    }

    /// The language of a reply: the person's own choice, else the platform's locale for the
    /// person, else the community's default, else English. Tags the catalogue does not speak
    /// are passed over.
    pub fn choose(own: Option<&str>, platform: Option<&str>, community: Option<&str>) -> Lang {
        [own, platform, community]
            .into_iter()
            .flatten()
            .find_map(Lang::parse)
            .unwrap_or(Lang::ENGLISH)
    }
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

/// A message to be said: its id in the catalogue and its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Msg {
    /// The message's id (`not-your-turn`).
    pub id: &'static str,
    /// Its arguments, by name.
    pub args: Vec<(&'static str, Arg)>,
}

/// An argument of a [`Msg`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    /// A number: written by the locale, and selecting plural forms.
    Num(i64),
    /// Text said as it is (a name, a move, a list of numbers).
    Text(String),
    /// Another message, said in the same language.
    Msg(Msg),
    /// A span (a mention, a game, code), placed where the translation puts it.
    Span(Box<Span>),
    /// A moment (milliseconds since 1970, UTC), written as the locale writes a date and time.
    Moment(i64),
}

impl Msg {
    /// A message without arguments yet.
    pub fn new(id: &'static str) -> Msg {
        Msg {
            id,
            args: Vec::new(),
        }
    }

    /// With a number argument.
    #[must_use]
    pub fn num(mut self, name: &'static str, value: impl Into<i64>) -> Msg {
        self.args.push((name, Arg::Num(value.into())));
        self
    }

    /// With a count argument (a length, a number of things).
    #[must_use]
    pub fn count(self, name: &'static str, value: usize) -> Msg {
        self.num(name, i64::try_from(value).unwrap_or(i64::MAX))
    }

    /// With a text argument, said as it is.
    #[must_use]
    pub fn text(mut self, name: &'static str, value: impl Into<String>) -> Msg {
        self.args.push((name, Arg::Text(value.into())));
        self
    }

    /// With a moment as an argument (milliseconds since 1970, UTC).
    #[must_use]
    pub fn moment(mut self, name: &'static str, millis: i64) -> Msg {
        self.args.push((name, Arg::Moment(millis)));
        self
    }

    /// With another message as an argument.
    #[must_use]
    pub fn msg(mut self, name: &'static str, value: Msg) -> Msg {
        self.args.push((name, Arg::Msg(value)));
        self
    }

    /// With a span as an argument.
    #[must_use]
    pub fn span(mut self, name: &'static str, value: Span) -> Msg {
        self.args.push((name, Arg::Span(Box::new(value))));
        self
    }

    /// Items said as one list: each joined to the rest by the message `pair` (its `$first` and
    /// `$rest`), the last two by `last` (`a, b and c` with `list-comma` and `clauses-and`);
    /// `someone` when there are none.
    pub fn list(items: Vec<Msg>, pair: &'static str, last: &'static str) -> Msg {
        let mut items = items.into_iter().rev();
        let Some(mut list) = items.next() else {
            return Msg::new("someone");
        };
        for (i, item) in items.enumerate() {
            list = Msg::new(if i == 0 { last } else { pair })
                .msg("first", item)
                .msg("rest", list);
        }
        list
    }

    /// This message or one inside it (an argument, or a span argument's message) with id
    /// `id`, the outer first.
    pub fn find(&self, id: &str) -> Option<&Msg> {
        if self.id == id {
            return Some(self);
        }
        self.args.iter().find_map(|(_, arg)| match arg {
            Arg::Msg(inner) => inner.find(id),
            Arg::Span(span) => match span.as_ref() {
                Span::Msg(inner) => inner.find(id),
                _ => None,
            },
            _ => None,
        })
    }

    /// Argument `name`, if it has one.
    pub fn arg(&self, name: &str) -> Option<&Arg> {
        self.args
            .iter()
            .find(|(key, _)| *key == name)
            .map(|(_, arg)| arg)
    }

    /// The message as plain text in `lang` (spans as [`Span::plain`] writes them).
    pub fn to_text(&self, lang: Lang) -> String {
        text(lang, self)
    }
}

/// One locale's messages.
struct Locale {
    code: &'static str,
    bundle: FluentBundle<FluentResource>,
    /// ICU4X's formatters of the locale beyond numbers (moments), made once.
    formats: intl_memoizer::concurrent::IntlLangMemoizer,
    /// What could not be read in its files (reported by [`check`]).
    problems: Vec<String>,
}

static CATALOGUE: LazyLock<Vec<Locale>> = LazyLock::new(|| {
    LOCALE_FILES
        .iter()
        .map(|(code, files)| load(code, files))
        .collect()
});

fn load(code: &'static str, files: &[(&str, &str)]) -> Locale {
    let id: LanguageIdentifier = code.parse().unwrap_or_default();
    let mut bundle = FluentBundle::new_concurrent(vec![id.clone()]);
    bundle.set_use_isolating(false);
    bundle.set_formatter(Some(numbers::format));
    let mut problems = Vec::new();
    for (name, source) in files {
        // A `code span` of the catalogue is said as code (each platform shows it its way),
        // never as backticks: each backtick becomes the code mark, which `split` reads.
        let resource = match FluentResource::try_new(source.replace('`', &CODE_MARK.to_string())) {
            Ok(resource) => resource,
            Err((resource, errors)) => {
                for error in errors {
                    problems.push(format!("{code}/{name}: cannot read: {error:?}"));
                }
                resource
            }
        };
        if let Err(errors) = bundle.add_resource(resource) {
            for error in errors {
                problems.push(format!("{code}/{name}: {error}"));
            }
        }
    }
    Locale {
        code,
        bundle,
        formats: intl_memoizer::concurrent::IntlLangMemoizer::new(id),
        problems,
    }
}

fn locale(lang: Lang) -> Option<&'static Locale> {
    CATALOGUE.iter().find(|locale| locale.code == lang.0)
}

/// The first private-use character of the markers that carry span arguments through Fluent.
const MARKER: u32 = 0xF_0000;

/// Opens and closes a code span of the catalogue's own text (a backtick in its files).
const CODE_MARK: char = '\u{F8FE}';

/// A message rendered as spans in `lang`: its text, with each span argument where the
/// translation placed it. A message the locale lacks is said in English; one English lacks
/// too is shown as its id (and logged: the catalogue tests make sure it does not happen).
pub fn spans(lang: Lang, msg: &Msg) -> Vec<Span> {
    let mut placed = Vec::new();
    let mut errors = Vec::new();
    let text = marked(lang, msg, &mut placed, &mut errors);
    if !errors.is_empty() {
        tracing::error!(id = msg.id, %lang, ?errors, "message said with errors");
    }
    split(&text, &placed)
}

/// A message as plain text in `lang`, or what went wrong saying it (a missing message or
/// variable, a Fluent error), for the catalogue's own checks.
pub fn try_text(lang: Lang, msg: &Msg) -> Result<String, Vec<String>> {
    let mut placed = Vec::new();
    let mut errors = Vec::new();
    let text = marked(lang, msg, &mut placed, &mut errors);
    if errors.is_empty() {
        Ok(split(&text, &placed).iter().map(Span::plain).collect())
    } else {
        Err(errors)
    }
}

/// Text with markers, back to spans; what the catalogue marks as code (between two
/// [`CODE_MARK`]s) becomes a code span.
fn split(text: &str, placed: &[Span]) -> Vec<Span> {
    let mut out: Vec<Span> = Vec::new();
    let mut run = String::new();
    let mut code = false;
    let flush = |run: &mut String, out: &mut Vec<Span>, code: bool| {
        if !run.is_empty() {
            let text = std::mem::take(run);
            out.push(if code {
                Span::Code(text)
            } else {
                Span::Text(text)
            });
        }
    };
    for c in text.chars() {
        if c == CODE_MARK {
            flush(&mut run, &mut out, code);
            code = !code;
            continue;
        }
        let index = (c as u32).checked_sub(MARKER).map(|i| i as usize);
        match index.and_then(|i| placed.get(i)) {
            Some(span) => {
                flush(&mut run, &mut out, code);
                out.push(span.clone());
            }
            None => run.push(c),
        }
    }
    flush(&mut run, &mut out, code);
    out
}

/// A message as plain text in `lang`.
pub fn text(lang: Lang, msg: &Msg) -> String {
    spans(lang, msg).iter().map(Span::plain).collect()
}

/// The message's text with span arguments (its own and its nested messages') replaced by
/// markers indexing `placed`.
fn marked(lang: Lang, msg: &Msg, placed: &mut Vec<Span>, problems: &mut Vec<String>) -> String {
    let mut args = FluentArgs::new();
    for (name, arg) in &msg.args {
        let value: FluentValue<'static> = match arg {
            Arg::Num(n) => FluentValue::from(*n),
            // Said as it is: a code mark in it (typed by someone) is no code.
            Arg::Text(text) => FluentValue::from(text.replace(CODE_MARK, "")),
            Arg::Msg(inner) => FluentValue::from(marked(lang, inner, placed, problems)),
            Arg::Moment(millis) => FluentValue::from(
                locale(lang)
                    .or_else(|| locale(Lang::ENGLISH))
                    .and_then(|locale| numbers::moment(&locale.formats, *millis))
                    .unwrap_or_else(|| millis.to_string()),
            ),
            Arg::Span(span) => match &**span {
                // A message placed as a span (the computer's name where a mention goes) is
                // said in the same language.
                Span::Msg(inner) => FluentValue::from(marked(lang, inner, placed, problems)),
                span => {
                    let index = u32::try_from(placed.len()).unwrap_or(0);
                    placed.push(span.clone());
                    let marker = char::from_u32(MARKER + index).unwrap_or('\u{FFFD}');
                    FluentValue::from(marker.to_string())
                }
            },
        };
        args.set(*name, value);
    }
    for candidate in [lang, Lang::ENGLISH] {
        let Some(locale) = locale(candidate) else {
            continue;
        };
        let Some(pattern) = locale
            .bundle
            .get_message(msg.id)
            .and_then(|message| message.value())
        else {
            problems.push(format!("{}: no message in {candidate}", msg.id));
            continue;
        };
        let mut errors = Vec::new();
        let text = locale
            .bundle
            .format_pattern(pattern, Some(&args), &mut errors);
        problems.extend(
            errors
                .iter()
                .map(|error| format!("{} in {candidate}: {error}", msg.id)),
        );
        return text.into_owned();
    }
    msg.id.to_string()
}

/// Whether the catalogue has a message in `lang` (not falling back to English).
pub fn has(lang: Lang, id: &str) -> bool {
    locale(lang).is_some_and(|locale| locale.bundle.has_message(id))
}

#[cfg(test)]
mod tests;
