use super::*;

fn ru() -> Lang {
    Lang::parse("ru").expect("Russian is in the catalogue")
}

fn bg() -> Lang {
    Lang::parse("bg").expect("Bulgarian is in the catalogue")
}

#[test]
fn the_catalogue_speaks_english_russian_and_bulgarian() {
    let codes: Vec<&str> = Lang::all().map(Lang::code).collect();
    for code in ["bg", "en", "ru"] {
        assert!(codes.contains(&code), "{code} missing from {codes:?}");
    }
}

#[test]
fn every_locale_has_every_message_with_the_same_variables() {
    assert!(
        check::messages(Lang::ENGLISH).len() > 50,
        "English has its messages"
    );
    for lang in Lang::all() {
        let lacks = check(lang);
        assert!(
            lacks.is_empty(),
            "{lang} lacks:\n{}",
            lacks
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

#[test]
fn the_check_finds_what_a_locale_lacks() {
    // A locale made here, with one message missing, one stale and one with other variables.
    let english = check::messages(Lang::ENGLISH);
    assert!(english.contains_key("coins") && english.contains_key("not-your-turn"));
    let lacks = check::compare(
        &english,
        &[
            ("coins".to_string(), Default::default()),
            ("stale-message".to_string(), Default::default()),
        ]
        .into_iter()
        .collect(),
    );
    assert!(lacks.contains(&Lack::Missing("not-your-turn".into())));
    assert!(lacks.contains(&Lack::Extra("stale-message".into())));
    assert!(
        lacks
            .iter()
            .any(|lack| matches!(lack, Lack::Variables { id, .. } if id == "coins"))
    );
}

/// Every message of every locale, said with a sample value for each of its variables (a
/// number, so that selectors are exercised), without a Fluent error.
#[test]
fn every_message_is_said_without_errors_in_every_locale() {
    let mut said = 0;
    for lang in Lang::all() {
        for (id, variables) in check::messages(lang) {
            let id: &'static str = Box::leak(id.into_boxed_str());
            for sample in [1, 2, 5, 21] {
                let mut msg = Msg::new(id);
                for variable in &variables {
                    let name: &'static str = Box::leak(variable.clone().into_boxed_str());
                    msg = msg.num(name, sample);
                }
                let text =
                    try_text(lang, &msg).unwrap_or_else(|errors| panic!("{lang} {id}: {errors:?}"));
                assert!(!text.trim().is_empty(), "{lang} {id} says nothing");
                said += 1;
            }
        }
    }
    assert!(said > 3 * 4 * 50, "said {said}");
}

fn coins(lang: Lang, n: i64) -> String {
    try_text(lang, &Msg::new("coins").num("n", n)).expect("coins")
}

#[test]
fn coins_take_each_languages_plural_forms() {
    let cases = [1, 2, 5, 11, 21, 22, 25];
    let russian: Vec<String> = cases.iter().map(|n| coins(ru(), *n)).collect();
    assert_eq!(
        russian,
        [
            "1 монета",
            "2 монеты",
            "5 монет",
            "11 монет",
            "21 монета",
            "22 монеты",
            "25 монет"
        ]
    );
    let bulgarian: Vec<String> = cases.iter().map(|n| coins(bg(), *n)).collect();
    assert_eq!(
        bulgarian,
        [
            "1 монета",
            "2 монети",
            "5 монети",
            "11 монети",
            "21 монети",
            "22 монети",
            "25 монети"
        ]
    );
    assert_eq!(coins(Lang::ENGLISH, 1), "1 coin");
    assert_eq!(coins(Lang::ENGLISH, 21), "21 coins");
}

#[test]
fn numbers_are_written_as_each_locale_writes_them() {
    // ICU4X: English groups thousands with a comma; Russian with a no-break space; Bulgarian
    // groups only from five digits (CLDR's minimum grouping digits).
    assert_eq!(coins(Lang::ENGLISH, 1000), "1,000 coins");
    assert_eq!(coins(ru(), 1000), "1\u{a0}000 монет");
    assert_eq!(coins(bg(), 1000), "1000 монети");
    assert_eq!(coins(bg(), 25_000), "25\u{a0}000 монети");
    assert_eq!(coins(ru(), -21), "-21 монета");
}

#[test]
fn span_arguments_come_out_where_the_translation_puts_them() {
    let alice = Span::Strong("Alice".into());
    let msg = Msg::new("sorry").msg(
        "text",
        Msg::new("not-your-turn")
            .span("game", Span::Game(crate::values::GameNo(3)))
            .span("name", alice.clone())
            .msg("seat", Msg::new("seat-white")),
    );
    let english = spans(Lang::ENGLISH, &msg);
    assert_eq!(
        english,
        [
            Span::Text("Sorry: it is not your turn in game ".into()),
            Span::Game(crate::values::GameNo(3)),
            Span::Text(": ".into()),
            alice.clone(),
            Span::Text(" (White) is to move.".into()),
        ]
    );
    let russian = text(ru(), &msg);
    assert!(russian.contains("Alice (Белые)"), "{russian}");
}

#[test]
fn a_missing_message_falls_back_to_english_and_is_reported() {
    let msg = Msg::new("no-such-message-anywhere");
    assert!(try_text(ru(), &msg).is_err());
    assert_eq!(text(ru(), &msg), "no-such-message-anywhere");
}

#[test]
fn the_language_is_the_persons_then_the_platforms_then_the_communitys() {
    assert_eq!(Lang::choose(Some("bg"), Some("ru"), Some("en")), bg());
    assert_eq!(Lang::choose(None, Some("ru-RU"), Some("bg")), ru());
    assert_eq!(Lang::choose(None, Some("de"), Some("bg")), bg());
    assert_eq!(Lang::choose(None, None, None), Lang::ENGLISH);
    assert_eq!(Lang::parse("pt_BR"), None);
    assert_eq!(Lang::parse("BG"), Some(bg()));
}

#[test]
fn moments_are_written_as_each_locale_writes_them() {
    // 2027-01-11 12:05 UTC, by ICU4X: a long date and the time of day.
    let at = 1_799_669_100_000;
    let said = |lang| {
        try_text(
            lang,
            &Msg::new("clock-left")
                .msg("left", Msg::new("duration-less-than-a-minute"))
                .moment("until", at),
        )
        .expect("said")
    };
    let english = said(Lang::ENGLISH);
    assert!(english.contains("January 11, 2027 at 12:05"), "{english}");
    let russian = said(ru());
    assert!(
        russian.contains("11 января 2027") && russian.contains("в 12:05"),
        "{russian}"
    );
    let bulgarian = said(bg());
    assert!(
        bulgarian.contains("11 януари 2027") && bulgarian.contains("12:05 ч."),
        "{bulgarian}"
    );
}

#[test]
fn the_catalogue_s_backticks_are_code_and_a_typed_backtick_is_text() {
    // `unknown-command` writes the command as code: said as a code span, never as backticks;
    // a backtick typed by someone stays in what they typed.
    let msg = Msg::new("unknown-command").text("command", "/x`y");
    assert_eq!(
        spans(Lang::ENGLISH, &msg),
        [
            Span::Text("I do not know ".into()),
            Span::Code("/x`y".into()),
            Span::Text(". Send /help for the list of commands.".into()),
        ]
    );
    let russian = spans(ru(), &msg);
    assert!(russian.contains(&Span::Code("/x`y".into())), "{russian:?}");
    assert!(
        russian
            .iter()
            .all(|span| !span.plain().contains('\u{F8FE}'))
    );
}
