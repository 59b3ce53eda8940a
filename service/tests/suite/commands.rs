//! The commands: every entry fits Discord's and Telegram's rules for registered
//! commands, the text parser reads each command's typed forms and refuses bad input with the
//! right error, and `/help` covers every command.

use serde_json::Value;
use tabula_core::GameId;
use tabula_service::commands::{
    self, Access, COMMANDS, CommandId, Kind, MentionToken, Parse, ParseError, ParsedCommand, help,
    help_for, parse, telegram_commands,
};
use tabula_service::l10n::{Arg, Lang, QUOTE_CHARS, quote};

use crate::common::said::{text_arg, within};

const BOT: Option<&str> = Some("TabulaBot");

fn command(text: &str) -> ParsedCommand {
    match parse(text, BOT) {
        Parse::Command(command) => command,
        other => panic!("{text}: {other:?}"),
    }
}

fn error(text: &str) -> ParseError {
    match parse(text, BOT) {
        Parse::Invalid { error, .. } => error,
        other => panic!("{text}: expected an error, got {other:?}"),
    }
}

fn user(name: &str) -> MentionToken {
    MentionToken::Username(name.to_string())
}

// ---- Discord ----

/// Discord's rule for command and option names: `^[-_\p{Ll}\p{N}]{1,32}$`.
fn discord_name(name: &str) -> bool {
    (1..=32).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c == '-' || c == '_' || c.is_lowercase() || c.is_numeric())
}

fn discord_description(text: &str) -> bool {
    (1..=100).contains(&text.chars().count())
}

#[test]
fn discord_commands_fit_discord_rules() {
    let commands = commands::discord_commands();
    let commands = commands.as_array().expect("an array");
    assert_eq!(commands.len(), COMMANDS.len());
    // The bulk overwrite takes at most 130 commands; 100 of them CHAT_INPUT.
    assert!(commands.len() <= 100);
    let mut names = Vec::new();
    for command in commands {
        let name = command["name"].as_str().expect("name");
        assert!(discord_name(name), "{name}");
        assert!(!names.contains(&name), "{name} twice");
        names.push(name);
        assert_eq!(command["type"], 1, "{name}");
        assert!(
            discord_description(command["description"].as_str().expect("description")),
            "{name}"
        );
        let options = command["options"].as_array().expect("options");
        assert!(options.len() <= 25, "{name}");
        let mut optional_seen = false;
        let mut option_names = Vec::new();
        for option in options {
            let option_name = option["name"].as_str().expect("option name");
            assert!(discord_name(option_name), "{name} {option_name}");
            assert!(!option_names.contains(&option_name), "{name} {option_name}");
            option_names.push(option_name);
            assert!(
                discord_description(option["description"].as_str().expect("description")),
                "{name} {option_name}"
            );
            let kind = option["type"].as_u64().expect("type");
            // STRING, INTEGER, BOOLEAN, USER.
            assert!([3, 4, 5, 6].contains(&kind), "{name} {option_name}");
            let required = option["required"].as_bool().expect("required");
            if required {
                assert!(
                    !optional_seen,
                    "{name}: {option_name} after an optional one"
                );
            } else {
                optional_seen = true;
            }
            if let Some(choices) = option.get("choices") {
                let choices = choices.as_array().expect("choices");
                assert!((1..=25).contains(&choices.len()), "{name} {option_name}");
                for choice in choices {
                    let label = choice["name"].as_str().expect("choice name");
                    assert!((1..=100).contains(&label.chars().count()));
                    let value = choice["value"].as_str().expect("string choice");
                    assert!((1..=100).contains(&value.chars().count()));
                }
                assert_eq!(kind, 3, "only string choices here");
                assert!(
                    option.get("autocomplete").is_none(),
                    "choices or autocomplete"
                );
            }
            if kind == 4 {
                let min = option.get("min_value").and_then(Value::as_i64);
                let max = option.get("max_value").and_then(Value::as_i64);
                let limit = 1_i64 << 53;
                for bound in [min, max].into_iter().flatten() {
                    assert!((-limit..=limit).contains(&bound), "{name} {option_name}");
                }
                if let (Some(min), Some(max)) = (min, max) {
                    assert!(min <= max, "{name} {option_name}");
                }
            }
            if kind != 3 {
                assert!(option.get("autocomplete").is_none(), "{name} {option_name}");
                assert!(option.get("max_length").is_none(), "{name} {option_name}");
            }
            if let Some(length) = option.get("max_length") {
                assert!((1..=6000).contains(&length.as_u64().expect("max_length")));
            }
        }
    }
}

#[test]
fn discord_play_has_exactly_its_options() {
    let commands = commands::discord_commands();
    let play = commands
        .as_array()
        .and_then(|all| all.iter().find(|c| c["name"] == "play"))
        .expect("play");
    let options: Vec<(&str, u64, bool)> = play["options"]
        .as_array()
        .expect("options")
        .iter()
        .map(|o| {
            (
                o["name"].as_str().expect("name"),
                o["type"].as_u64().expect("type"),
                o["required"].as_bool().expect("required"),
            )
        })
        .collect();
    assert_eq!(
        options,
        vec![
            ("game", 3, true),
            ("opponent", 6, false),
            ("opponent2", 6, false),
            ("opponent3", 6, false),
            ("computer", 4, false),
            ("options", 3, false),
            ("stake", 4, false),
            ("time", 3, false),
            ("rated", 5, false),
        ]
    );
    let game = &play["options"][0];
    let choices: Vec<(&str, &str)> = game["choices"]
        .as_array()
        .expect("choices")
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap_or(""),
                c["value"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        choices,
        vec![
            ("Konane", "konane"),
            ("Koan", "koan"),
            ("Kolowis Awithlaknannai", "kolowis"),
            ("Coan Ki", "coan-ki"),
            ("Pachisi", "pachisi"),
        ]
    );
    let computer = &play["options"][4];
    assert_eq!(computer["min_value"], 1);
    assert_eq!(computer["max_value"], 4);
    assert!(play.get("default_member_permissions").is_none());
}

#[test]
fn discord_move_autocompletes_and_takes_a_game_number() {
    let commands = commands::discord_commands();
    let moves = commands
        .as_array()
        .and_then(|all| all.iter().find(|c| c["name"] == "move"))
        .expect("move");
    let options = moves["options"].as_array().expect("options");
    assert_eq!(options.len(), 2);
    assert_eq!(options[0]["name"], "move");
    assert_eq!(options[0]["type"], 3);
    assert_eq!(options[0]["required"], false, "/move alone lists the moves");
    assert_eq!(options[0]["autocomplete"], true);
    assert_eq!(options[1]["name"], "game");
    assert_eq!(options[1]["type"], 4);
    assert_eq!(options[1]["required"], false);
}

#[test]
fn only_wholly_moderators_commands_need_manage_server() {
    let commands = commands::discord_commands();
    for command in commands.as_array().expect("array") {
        let name = command["name"].as_str().expect("name");
        let spec = commands::find(name).expect("in the list");
        match spec.access {
            Access::Moderators => assert_eq!(command["default_member_permissions"], "32"),
            Access::Anyone | Access::Partly => {
                assert!(
                    command.get("default_member_permissions").is_none(),
                    "{name}"
                );
            }
        }
    }
    for name in ["grant", "take"] {
        assert_eq!(
            commands::find(name).map(|s| s.access),
            Some(Access::Moderators)
        );
    }
    for name in ["config", "abort"] {
        assert_eq!(commands::find(name).map(|s| s.access), Some(Access::Partly));
    }
}

// ---- Telegram ----

#[test]
fn telegram_commands_fit_telegram_rules() {
    let commands = telegram_commands(Lang::ENGLISH);
    assert!((1..=100).contains(&commands.len()));
    for (name, description) in &commands {
        assert!((1..=32).contains(&name.len()), "{name}");
        assert!(
            name.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
            "{name}"
        );
        assert!((1..=256).contains(&description.chars().count()), "{name}");
    }
    let names: Vec<&str> = commands.iter().map(|(n, _)| n.as_str()).collect();
    assert!(names.contains(&"play") && names.contains(&"help"));
    assert!(
        !names.contains(&"start"),
        "start is Telegram's own greeting, not listed"
    );
    assert!(!names.contains(&"balance"), "aliases are not listed");
}

// ---- The commands ----

#[test]
fn the_commands_are_each_listed_once() {
    let expected = [
        "play",
        "accept",
        "decline",
        "cancel",
        "move",
        "board",
        "moves",
        "history",
        "export",
        "replay",
        "resign",
        "draw",
        "takeback",
        "abort",
        "claim",
        "vacation",
        "games",
        "wallet",
        "leaderboard",
        "config",
        "grant",
        "take",
        "rules",
        "help",
        "language",
        "notify",
        "mygames",
        "link",
        "unlink",
        "rating",
        "stats",
        "resetrating",
        "season",
    ];
    let names: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
    assert_eq!(names, expected);
    let mut all_names = Vec::new();
    for spec in COMMANDS {
        for name in std::iter::once(&spec.name)
            .chain(spec.aliases)
            .chain(spec.hidden_aliases)
        {
            assert!(!all_names.contains(name), "{name} twice");
            all_names.push(*name);
        }
        assert_eq!(commands::spec(spec.id).name, spec.name);
        assert!(spec.example.starts_with(&format!("/{}", spec.name)));
        assert!(!spec.summary.is_empty());
    }
    for (alias, to) in [
        ("balance", "wallet"),
        ("top", "leaderboard"),
        ("settings", "config"),
        ("start", "help"),
    ] {
        assert_eq!(commands::find(alias).map(|s| s.name), Some(to));
    }
}

#[test]
fn every_example_parses() {
    for spec in COMMANDS {
        let parsed = command(spec.example);
        assert_eq!(parsed.spec.id, spec.id, "{}", spec.example);
    }
}

// ---- Help ----

#[test]
fn help_mentions_every_command_and_fits_a_message() {
    for lang in Lang::all() {
        let text = help(true).to_text(lang);
        for spec in COMMANDS {
            assert!(
                text.lines()
                    .any(|line| line.starts_with(&format!("/{}", spec.name))),
                "{}",
                spec.name
            );
        }
        assert!(
            text.chars().count() <= 2000,
            "{}: {} characters",
            lang.code(),
            text.chars().count()
        );
    }
    let text = help(true).to_text(Lang::ENGLISH);
    for spec in COMMANDS {
        assert!(text.contains(&format!("/{}", spec.name)), "{}", spec.name);
        for alias in spec.aliases {
            assert!(text.contains(&format!("/{alias}")), "{alias}");
        }
        for hidden in spec.hidden_aliases {
            assert!(!text.contains(&format!("/{hidden}")), "{hidden}");
        }
    }
    for game in GameId::ALL {
        assert!(text.contains(game.as_str()));
    }
    assert!(
        text.chars().count() <= 2000,
        "{} characters",
        text.chars().count()
    );
    // Each command's line is marked as its access says; the moderators' commands come last.
    let help = help(true);
    let lines: Vec<_> = within(&help)
        .into_iter()
        .filter(|msg| msg.id == "help-line")
        .collect();
    assert_eq!(lines.len(), COMMANDS.len());
    let mut moderators_only = false;
    for line in lines {
        let name = text_arg(line, "name");
        let spec = COMMANDS.iter().find(|spec| spec.name == name).expect(name);
        let marked = match line.arg("access") {
            Some(Arg::Msg(access)) => Some(access.id),
            _ => None,
        };
        let expected = match spec.access {
            Access::Anyone => None,
            Access::Moderators => Some("help-line-moderators"),
            Access::Partly => Some("help-line-partly"),
        };
        assert_eq!(marked, expected, "/{name}");
        assert!(
            !moderators_only || spec.access == Access::Moderators,
            "/{name} after the moderators' commands"
        );
        moderators_only = spec.access == Access::Moderators;
    }
    let marked = |name: &str| {
        within(&help)
            .into_iter()
            .find(|msg| msg.id == "help-line" && text_arg(msg, "name") == name)
            .and_then(|line| line.arg("access").cloned())
    };
    assert_eq!(
        marked("grant"),
        Some(Arg::Msg(tabula_service::l10n::Msg::new(
            "help-line-moderators"
        )))
    );
    assert_eq!(
        marked("config"),
        Some(Arg::Msg(tabula_service::l10n::Msg::new("help-line-partly")))
    );
}

#[test]
fn help_for_each_command_gives_usage_and_example() {
    for lang in Lang::all() {
        for spec in COMMANDS {
            let text = help_for(spec.name, true).expect("help").to_text(lang);
            assert!(text.starts_with(&spec.usage(lang)), "{text}");
            assert!(text.contains(spec.example), "{text}");
            assert!(text.chars().count() <= 1000);
        }
    }
    for spec in COMMANDS {
        let text = help_for(spec.name, true)
            .expect("help")
            .to_text(Lang::ENGLISH);
        assert!(text.starts_with(&spec.usage(Lang::ENGLISH)), "{text}");
        assert!(text.contains(spec.example), "{text}");
        let help = help_for(spec.name, true).expect("help");
        let says = |id: &str| help.find(id).is_some();
        assert_eq!(
            (says("help-moderators"), says("help-partly")),
            (
                spec.access == Access::Moderators,
                spec.access == Access::Partly
            ),
            "{text}"
        );
        assert!(text.chars().count() <= 1000);
    }
    assert_eq!(help_for("/balance", true), help_for("wallet", true));
    assert!(help_for("chess", true).is_none());
    let play = help_for("play", true).expect("play").to_text(Lang::ENGLISH);
    for word in ["@user", "stake=", "time=", "computer", "option=value"] {
        assert!(play.contains(word), "{play}");
    }
    assert!(
        help_for("grant", true)
            .expect("grant")
            .find("help-moderators")
            .is_some()
    );
}

// ---- Who the text is for ----

#[test]
fn ordinary_text_and_other_bots_commands_are_not_for_us() {
    for text in [
        "hello",
        "",
        "   ",
        "1/2",
        "/",
        "/ play",
        "/usr/bin/env",
        "/help@otherbot",
        "/play@OtherBot konane",
        "/@TabulaBot",
    ] {
        assert_eq!(parse(text, BOT), Parse::NotForUs, "{text:?}");
    }
}

#[test]
fn commands_addressed_to_us_in_any_case_are_ours() {
    assert_eq!(command("/help@TabulaBot").id(), CommandId::Help);
    assert_eq!(command("/help@tabulabot").id(), CommandId::Help);
    assert_eq!(command("/wallet@TABULABOT").id(), CommandId::Wallet);
    assert_eq!(parse("/board@x", None), parse("/board", None));
}

#[test]
fn unknown_commands_addressed_to_us_are_named() {
    assert_eq!(
        parse("/chess e4", BOT),
        Parse::Unknown {
            name: "chess".into()
        }
    );
    assert_eq!(
        parse("/Chess@TabulaBot", BOT),
        Parse::Unknown {
            name: "chess".into()
        }
    );
    let long = format!("/{}", "x".repeat(5000));
    match parse(&long, BOT) {
        Parse::Unknown { name } => assert!(name.chars().count() <= QUOTE_CHARS + 1),
        other => panic!("{other:?}"),
    }
}

#[test]
fn aliases_and_start_reach_their_commands() {
    assert_eq!(command("/balance").id(), CommandId::Wallet);
    assert_eq!(command("/top").id(), CommandId::Leaderboard);
    assert_eq!(command("/settings time=2d").id(), CommandId::Config);
    let start = command("/start some-deep-link-payload");
    assert_eq!(start.id(), CommandId::Help);
    assert_eq!(start.topic, None);
}

// ---- Each command's typed forms ----

#[test]
fn play_reads_game_people_options_and_terms() {
    let parsed = command("/play konane @bob @carol size=10 stake=50 time=3d");
    assert_eq!(parsed.id(), CommandId::Play);
    assert_eq!(parsed.game, Some(GameId::Konane));
    assert_eq!(parsed.mentions, vec![user("bob"), user("carol")]);
    assert_eq!(parsed.options, vec![("size".to_string(), "10".to_string())]);
    assert_eq!(parsed.integer("stake"), Some(50));
    assert_eq!(parsed.time_millis, Some(3 * 24 * 3_600_000));
    assert_eq!(parsed.integer("computer"), None);

    let open = command("/play koan");
    assert_eq!(open.game, Some(GameId::Koan));
    assert!(open.mentions.is_empty() && open.options.is_empty());
    assert_eq!(open.integer("stake"), None);
    assert_eq!(open.time_millis, None);

    let shouted = command("/Play KONANE @bob");
    assert_eq!(shouted.game, Some(GameId::Konane));
    assert_eq!(shouted.mentions, vec![user("bob")]);

    assert_eq!(command("/play Coan-Ki").game, Some(GameId::CoanKi));
    assert_eq!(command("/play coanki").game, Some(GameId::CoanKi));
    assert_eq!(
        command("/play kolowis time=12h").time_millis,
        Some(12 * 3_600_000)
    );
    assert_eq!(command("/play pachisi STAKE=0").integer("stake"), Some(0));
}

#[test]
fn play_reads_the_computer_and_its_level() {
    let parsed = command("/play konane computer");
    assert_eq!(
        parsed.integer("computer"),
        Some(commands::DEFAULT_COMPUTER_LEVEL)
    );
    assert_eq!(
        command("/play koan computer level=4").integer("computer"),
        Some(4)
    );
    assert_eq!(
        command("/play pachisi @bob Computer level=1 stake=10").integer("computer"),
        Some(1)
    );
    assert_eq!(
        error("/play koan computer level=5"),
        ParseError::OutOfRange {
            option: "computer",
            min: 1,
            max: 4,
            value: "5".into()
        }
    );
    assert!(matches!(
        error("/play koan level=3"),
        ParseError::Unexpected { .. }
    ));
    assert!(matches!(
        error("/play koan computer computer"),
        ParseError::Repeated { .. }
    ));
    assert!(matches!(
        error("/play koan computer level=2 level=3"),
        ParseError::Repeated { .. }
    ));
}

#[test]
fn play_reads_discord_mentions() {
    let parsed = command("/play pachisi <@123> <@!456> @carol");
    assert_eq!(
        parsed.mentions,
        vec![
            MentionToken::Id("123".into()),
            MentionToken::Id("456".into()),
            user("carol"),
        ]
    );
    assert_eq!(
        command("/play koan @a.b-c_d").mentions,
        vec![user("a.b-c_d")]
    );
}

#[test]
fn challenge_answers_take_a_number() {
    for (text, id) in [
        ("/accept", CommandId::Accept),
        ("/decline", CommandId::Decline),
        ("/cancel", CommandId::Cancel),
    ] {
        let parsed = command(text);
        assert_eq!(parsed.id(), id);
        assert_eq!(parsed.game_number, None);
        let numbered = command(&format!("{text} #12"));
        assert_eq!(numbered.game_number, Some(12));
    }
}

#[test]
fn move_reads_an_optional_number_and_the_move() {
    let parsed = command("/move d4-f4");
    assert_eq!(parsed.text.as_deref(), Some("d4-f4"));
    assert_eq!(parsed.game_number, None);
    let numbered = command("/move #2 a1+5&b1+11");
    assert_eq!(numbered.game_number, Some(2));
    assert_eq!(numbered.text.as_deref(), Some("a1+5&b1+11"));
    // A move may hold spaces; it is kept as typed, for the rules to read.
    assert_eq!(
        command("/move  enter +10 ").text.as_deref(),
        Some("enter +10")
    );
}

#[test]
fn game_views_take_an_optional_number() {
    for (name, id) in [
        ("board", CommandId::Board),
        ("moves", CommandId::Moves),
        ("history", CommandId::History),
        ("resign", CommandId::Resign),
        ("claim", CommandId::Claim),
    ] {
        assert_eq!(command(&format!("/{name}")).id(), id);
        assert_eq!(command(&format!("/{name}")).game_number, None);
        assert_eq!(command(&format!("/{name} #7")).game_number, Some(7));
        assert!(matches!(
            error(&format!("/{name} #7 #8")),
            ParseError::Repeated { .. }
        ));
        assert!(matches!(
            error(&format!("/{name} now")),
            ParseError::Unexpected { .. }
        ));
    }
}

#[test]
fn abort_reads_a_number_and_a_reason() {
    let parsed = command("/abort #3 played by   mistake");
    assert_eq!(parsed.game_number, Some(3));
    assert_eq!(parsed.text.as_deref(), Some("played by   mistake"));
    let bare = command("/abort");
    assert_eq!((bare.game_number, bare.text), (None, None));
    assert_eq!(
        command("/abort wrong game").text.as_deref(),
        Some("wrong game")
    );
}

#[test]
fn vacation_reads_days() {
    assert_eq!(command("/vacation").integer("days"), None);
    assert_eq!(command("/vacation 2").integer("days"), Some(2));
    assert_eq!(
        error("/vacation 40"),
        ParseError::OutOfRange {
            option: "days",
            min: 1,
            max: 31,
            value: "40".into()
        }
    );
    assert_eq!(
        error("/vacation two"),
        ParseError::NotANumber {
            option: "days",
            value: "two".into()
        }
    );
}

#[test]
fn listings_take_nothing() {
    for (name, id) in [("games", CommandId::Games), ("wallet", CommandId::Wallet)] {
        assert_eq!(command(&format!("/{name}")).id(), id);
        assert!(matches!(
            error(&format!("/{name} please")),
            ParseError::Unexpected { .. }
        ));
    }
}

#[test]
fn leaderboard_reads_an_optional_game() {
    let richest = command("/leaderboard");
    assert_eq!(richest.id(), CommandId::Leaderboard);
    assert_eq!(richest.game, None);
    assert_eq!(command("/leaderboard Konane").game, Some(GameId::Konane));
    assert!(matches!(
        error("/leaderboard please"),
        ParseError::UnknownGame { .. }
    ));
}

#[test]
fn config_reads_settings() {
    let shown = command("/config");
    assert!(shown.settings.is_empty());
    let parsed = command("/config Time=2d max_stake=500 games=konane,koan");
    assert_eq!(
        parsed.settings,
        vec![
            ("time".to_string(), "2d".to_string()),
            ("max_stake".to_string(), "500".to_string()),
            ("games".to_string(), "konane,koan".to_string()),
        ]
    );
    assert!(matches!(
        error("/config time"),
        ParseError::NotKeyValue {
            option: "settings",
            ..
        }
    ));
    assert!(matches!(
        error("/config =5"),
        ParseError::NotKeyValue { .. }
    ));
    assert!(matches!(
        error("/config time=2d time=3d"),
        ParseError::Repeated { .. }
    ));
}

#[test]
fn grant_and_take_read_a_person_coins_and_a_reason() {
    let grant = command("/grant @bob 100 tournament prize");
    assert_eq!(grant.id(), CommandId::Grant);
    assert_eq!(grant.mentions, vec![user("bob")]);
    assert_eq!(grant.integer("coins"), Some(100));
    assert_eq!(grant.text.as_deref(), Some("tournament prize"));
    let take = command("/take <@42> 5");
    assert_eq!(take.id(), CommandId::Take);
    assert_eq!(take.mentions, vec![MentionToken::Id("42".into())]);
    assert_eq!(take.integer("coins"), Some(5));
    assert_eq!(take.text, None);
    assert_eq!(
        error("/grant @bob"),
        ParseError::Missing { option: "coins" }
    );
    assert_eq!(error("/grant"), ParseError::Missing { option: "user" });
    assert!(matches!(
        error("/grant bob 50"),
        ParseError::BadMention { .. }
    ));
    assert!(matches!(
        error("/take @bob 0"),
        ParseError::OutOfRange {
            option: "coins",
            ..
        }
    ));
}

#[test]
fn rules_reads_a_game() {
    assert_eq!(command("/rules Pachisi").game, Some(GameId::Pachisi));
    assert_eq!(error("/rules"), ParseError::Missing { option: "game" });
    assert_eq!(
        error("/rules chess"),
        ParseError::UnknownGame {
            value: "chess".into()
        }
    );
    assert!(matches!(
        error("/rules koan konane"),
        ParseError::Unexpected { .. }
    ));
}

#[test]
fn help_reads_an_optional_topic() {
    assert_eq!(command("/help").topic, None);
    assert_eq!(
        command("/help play").topic.map(|s| s.id),
        Some(CommandId::Play)
    );
    assert_eq!(
        command("/help /balance").topic.map(|s| s.id),
        Some(CommandId::Wallet)
    );
    assert_eq!(
        error("/help chess"),
        ParseError::UnknownTopic {
            value: "chess".into()
        }
    );
}

// ---- Each error kind ----

#[test]
fn missing_required_arguments_are_named() {
    assert_eq!(error("/play"), ParseError::Missing { option: "game" });
    assert_eq!(
        error("/play @bob stake=5"),
        ParseError::Missing { option: "game" }
    );
}

#[test]
fn unknown_games_are_refused() {
    assert_eq!(
        error("/play chess @bob"),
        ParseError::UnknownGame {
            value: "chess".into()
        }
    );
}

#[test]
fn repeated_options_are_refused() {
    assert_eq!(
        error("/play konane stake=50 stake=60"),
        ParseError::Repeated {
            option: "stake".into()
        }
    );
    assert_eq!(
        error("/play konane time=1d TIME=2d"),
        ParseError::Repeated {
            option: "time".into()
        }
    );
    assert_eq!(
        error("/play konane size=8 size=10"),
        ParseError::Repeated {
            option: "size".into()
        }
    );
    assert!(matches!(
        error("/play koan @bob @bob"),
        ParseError::Repeated { .. }
    ));
}

#[test]
fn malformed_mentions_are_refused() {
    for bad in [
        "@@bob",
        "@",
        "<@abc>",
        "<@&123>",
        "<@>",
        "@bob!",
        &format!("@{}", "a".repeat(33)),
    ] {
        assert!(
            matches!(
                error(&format!("/play koan {bad}")),
                ParseError::BadMention { .. }
            ),
            "{bad}"
        );
    }
    assert!(matches!(
        error("/grant @@bob 5"),
        ParseError::BadMention { .. }
    ));
}

#[test]
fn too_many_people_are_refused() {
    assert_eq!(
        error("/play pachisi @a @b @c @d"),
        ParseError::TooManyUsers { max: 3 }
    );
}

#[test]
fn numbers_out_of_bounds_or_not_numbers_are_refused() {
    assert_eq!(
        error("/play koan stake=lots"),
        ParseError::NotANumber {
            option: "stake",
            value: "lots".into()
        }
    );
    assert!(matches!(
        error("/play koan stake=-5"),
        ParseError::OutOfRange {
            option: "stake",
            ..
        }
    ));
    assert!(matches!(
        error("/play koan stake=99999999999999999999999"),
        ParseError::OutOfRange {
            option: "stake",
            ..
        }
    ));
    assert!(matches!(
        error("/play koan stake="),
        ParseError::NotANumber {
            option: "stake",
            ..
        }
    ));
}

#[test]
fn bad_durations_are_refused() {
    for bad in ["soon", "10m", "400d", "0", "3x", ""] {
        assert!(
            matches!(
                error(&format!("/play koan time={bad}")),
                ParseError::BadDuration { option: "time", .. }
            ),
            "{bad}"
        );
    }
}

#[test]
fn bad_game_numbers_are_refused() {
    for bad in ["#", "#x", "#0", "#-1", "#99999999999999999999"] {
        assert!(
            matches!(
                error(&format!("/board {bad}")),
                ParseError::BadGameNumber { .. }
            ),
            "{bad}"
        );
    }
    assert!(matches!(
        error("/move #x d4"),
        ParseError::BadGameNumber { .. }
    ));
}

#[test]
fn unexpected_arguments_are_refused() {
    assert_eq!(
        error("/play konane bob"),
        ParseError::Unexpected {
            value: "bob".into()
        }
    );
    assert!(matches!(error("/accept 3"), ParseError::Unexpected { .. }));
    assert!(matches!(error("/games #1"), ParseError::Unexpected { .. }));
}

#[test]
fn too_many_values_and_too_long_text_are_refused() {
    let options: Vec<String> = (0..20).map(|i| format!("k{i}=1")).collect();
    assert!(matches!(
        error(&format!("/play konane {}", options.join(" "))),
        ParseError::TooManyValues {
            option: "options",
            ..
        }
    ));
    assert!(matches!(
        error(&format!("/move {}", "a".repeat(500))),
        ParseError::TooLong { option: "move", .. }
    ));
    assert!(matches!(
        error(&format!("/abort #1 {}", "why ".repeat(100))),
        ParseError::TooLong {
            option: "reason",
            ..
        }
    ));
}

// ---- Quoting ----

#[test]
fn two_thousand_repeated_options_give_a_short_error() {
    let text = format!("/play konane {}", vec!["stake=50"; 2000].join(" "));
    let error = error(&text);
    assert_eq!(
        error,
        ParseError::Repeated {
            option: "stake".into()
        }
    );
    assert!(error.to_string().chars().count() < 200, "{error}");
    let text = format!("/play konane {}", vec!["size=8"; 2000].join(" "));
    assert!(short_error(&text).contains("size"));
    // One long word is quoted: 40 characters and `…`.
    for text in [
        format!("/play konane {}", "@@".repeat(2000)),
        format!("/play {}", "chess".repeat(2000)),
        format!("/config {}", "x".repeat(5000)),
        format!("/play konane stake={}", "9".repeat(5000)),
    ] {
        assert!(short_error(&text).contains('…'));
    }
}

/// The error's text, checked to be short.
fn short_error(text: &str) -> String {
    let message = error(text).to_string();
    assert!(message.chars().count() < 200, "{message}");
    message
}

#[test]
fn quote_cuts_at_forty_characters() {
    assert_eq!(quote("short"), "short");
    let long = "y".repeat(41);
    assert_eq!(quote(&long), format!("{}…", "y".repeat(40)));
    assert_eq!(quote(&"y".repeat(40)), "y".repeat(40));
}

#[test]
fn the_parser_never_panics_on_odd_input() {
    let pieces = [
        "/play",
        "/move",
        "/grant",
        "/config",
        "/abort",
        "/help",
        "#",
        "#1",
        "@",
        "@@",
        "<@",
        "<@1>",
        "=",
        "stake=",
        "time=",
        "computer",
        "level=",
        "é",
        "\u{0}",
        " ",
        "\n",
        "konane",
        "99999999999999999999",
        "-",
        "/",
        "@TabulaBot",
    ];
    for a in pieces {
        for b in pieces {
            for c in pieces {
                let _ = parse(&format!("{a}{b} {c}"), BOT);
                let _ = parse(&format!("{a} {b} {c}"), None);
            }
        }
    }
}

#[test]
fn kinds_of_options_are_typed_consistently() {
    // The parser fills each kind into its own place; every option of the commands has one.
    // A move is /move's alone, and may be left out (then the legal moves are listed).
    for spec in COMMANDS {
        for option in spec.options {
            if option.kind == Kind::Move {
                assert_eq!(spec.id, CommandId::Move, "{} {}", spec.name, option.name);
            }
        }
    }
    let alone = parse("/move #2", None);
    let Parse::Command(alone) = alone else {
        panic!("/move #2 is a command: {alone:?}");
    };
    assert_eq!((alone.game_number, alone.text), (Some(2), None));
}
