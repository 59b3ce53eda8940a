//! What a reply said, as data: the catalogue's messages its text was said from
//! ([`Reply::said`]) and their arguments. Tests assert these instead of the English wording;
//! each helper panics with the reply's text and the ids it said when what it looks for is
//! not there.

use tabula_service::l10n::{Arg, Msg, Span, duration_msg};
use tabula_service::service::Reply;
use tabula_service::store::GameNo;

/// A message and every message inside it (its arguments, and its span arguments' messages),
/// outer first.
pub fn within(msg: &Msg) -> Vec<&Msg> {
    fn walk<'a>(msg: &'a Msg, found: &mut Vec<&'a Msg>) {
        found.push(msg);
        for (_, arg) in &msg.args {
            match arg {
                Arg::Msg(inner) => walk(inner, found),
                Arg::Span(span) => {
                    if let Span::Msg(inner) = span.as_ref() {
                        walk(inner, found);
                    }
                }
                _ => {}
            }
        }
    }
    let mut found = Vec::new();
    walk(msg, &mut found);
    found
}

/// Every message a reply said, the nested ones too, outer first.
fn all_messages(reply: &Reply) -> Vec<&Msg> {
    reply.said.iter().flat_map(within).collect()
}

/// Every message id a reply said, the nested ones too, outer first.
pub fn said_ids(reply: &Reply) -> Vec<&'static str> {
    all_messages(reply).iter().map(|msg| msg.id).collect()
}

/// Every message `id` a reply said, at any depth, in order.
pub fn said_all<'a>(reply: &'a Reply, id: &str) -> Vec<&'a Msg> {
    all_messages(reply)
        .into_iter()
        .filter(|msg| msg.id == id)
        .collect()
}

/// The message `id` the reply said (at any depth); panics when it did not say it.
pub fn said<'a>(reply: &'a Reply, id: &str) -> &'a Msg {
    match reply.says(id) {
        Some(msg) => msg,
        None => panic!(
            "the reply does not say {id}: it says {:?}: {}",
            said_ids(reply),
            reply.plain_text()
        ),
    }
}

/// The argument `name` of a message; panics when it has none.
pub fn arg<'a>(msg: &'a Msg, name: &str) -> &'a Arg {
    match msg.arg(name) {
        Some(arg) => arg,
        None => panic!("{} has no argument {name}: {msg:?}", msg.id),
    }
}

/// The number argument `name` of a message.
pub fn num(msg: &Msg, name: &str) -> i64 {
    match arg(msg, name) {
        Arg::Num(n) => *n,
        other => panic!("{}'s {name} is not a number: {other:?}", msg.id),
    }
}

/// The text argument `name` of a message (said as it is: a name, a setting, a move).
pub fn text_arg<'a>(msg: &'a Msg, name: &str) -> &'a str {
    match arg(msg, name) {
        Arg::Text(text) => text,
        other => panic!("{}'s {name} is not text: {other:?}", msg.id),
    }
}

/// The message argument `name` of a message.
pub fn sub<'a>(msg: &'a Msg, name: &str) -> &'a Msg {
    match arg(msg, name) {
        Arg::Msg(inner) => inner,
        Arg::Span(span) => match span.as_ref() {
            Span::Msg(inner) => inner,
            other => panic!("{}'s {name} is not a message: {other:?}", msg.id),
        },
        other => panic!("{}'s {name} is not a message: {other:?}", msg.id),
    }
}

/// The amount of coins of argument `name` (a `coins` message).
pub fn coins(msg: &Msg, name: &str) -> i64 {
    let amount = sub(msg, name);
    assert_eq!(amount.id, "coins", "{}'s {name}: {amount:?}", msg.id);
    num(amount, "n")
}

/// The moment argument `name` of a message (milliseconds since 1970, UTC).
pub fn moment(msg: &Msg, name: &str) -> i64 {
    match arg(msg, name) {
        Arg::Moment(millis) => *millis,
        other => panic!("{}'s {name} is not a moment: {other:?}", msg.id),
    }
}

/// Whether argument `name` is the length of time `millis`, as the service says lengths (to
/// the minute).
pub fn is_duration(msg: &Msg, name: &str, millis: i64) -> bool {
    *sub(msg, name) == duration_msg(millis)
}

/// The game argument `name` of a message: a game span (`#3`), or the game written as text.
pub fn game_no(msg: &Msg, name: &str) -> GameNo {
    let written = match arg(msg, name) {
        Arg::Span(span) => match span.as_ref() {
            Span::Game(game) => return *game,
            other => format!("{other:?}"),
        },
        Arg::Text(text) => text.clone(),
        other => format!("{other:?}"),
    };
    match written.strip_prefix('#').and_then(|n| n.parse().ok()) {
        Some(n) => GameNo(n),
        None => panic!("{}'s {name} is not a game: {written}", msg.id),
    }
}

/// The people argument `name` of a message names: the platform ids of its mentions, and the
/// names of the computer's seats (shown strong), in order.
pub fn people(msg: &Msg, name: &str) -> Vec<String> {
    fn walk(arg: &Arg, people: &mut Vec<String>) {
        match arg {
            Arg::Span(span) => match span.as_ref() {
                Span::Mention(person) => people.push(person.id.clone()),
                Span::Strong(name) => people.push(name.clone()),
                Span::Msg(inner) => inner.args.iter().for_each(|(_, a)| walk(a, people)),
                _ => {}
            },
            Arg::Msg(inner) => inner.args.iter().for_each(|(_, a)| walk(a, people)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    walk(arg(msg, name), &mut found);
    found
}
