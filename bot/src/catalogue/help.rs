//! `/help` and `/help <command>`, and each command's usage line, generated from the table.

use tabula_core::GameId;

use super::*;

/// How an option is typed, for the usage line.
fn placeholder(option: &OptionSpec) -> String {
    let inner = match (option.form, option.kind) {
        (TextForm::Word { key, .. }, Kind::Integer { min, max }) => {
            format!("{} [{key}=<{min}-{max}>]", option.name)
        }
        (TextForm::Word { key, .. }, _) => format!("{} [{key}=<n>]", option.name),
        (TextForm::Keyed, Kind::Duration) => format!("{}=<3d|12h>", option.name),
        (TextForm::Keyed, Kind::Integer { .. }) => format!("{}=<coins>", option.name),
        (TextForm::Keyed, _) => format!("{}=<value>", option.name),
        (TextForm::Positional, Kind::GameNumber) => format!("#{}", option.name),
        (TextForm::Positional, Kind::User) => "@user".to_string(),
        (TextForm::Positional, Kind::Options) => "option=value …".to_string(),
        (TextForm::Positional, Kind::Settings) => "key=value …".to_string(),
        (TextForm::Positional, Kind::Text) => format!("{}…", option.name),
        (TextForm::Positional, _) => option.name.to_string(),
    };
    let angled = matches!(
        (option.form, option.kind),
        (
            TextForm::Positional,
            Kind::Game | Kind::Move | Kind::Integer { .. }
        )
    );
    match (option.required, angled) {
        (true, true) => format!("<{inner}>"),
        (true, false) => inner,
        (false, _) => format!("[{inner}]"),
    }
}

/// The usage line of a command, in typed order: `#n` first, several people as one `@user …`.
pub(super) fn usage(spec: &CommandSpec) -> String {
    let mut parts = vec![format!("/{}", spec.name)];
    let ordered = spec
        .options
        .iter()
        .filter(|o| o.kind == Kind::GameNumber)
        .chain(spec.options.iter().filter(|o| o.kind != Kind::GameNumber));
    let users = spec.options.iter().filter(|o| o.kind == Kind::User).count();
    let mut users_shown = false;
    for option in ordered {
        if option.kind == Kind::User && users > 1 {
            if !users_shown {
                parts.push("[@user …]".to_string());
                users_shown = true;
            }
            continue;
        }
        parts.push(placeholder(option));
    }
    parts.join(" ")
}

fn access_note(access: Access) -> &'static str {
    match access {
        Access::Anyone => "",
        Access::Moderators => " (moderators)",
        Access::Partly => " (some uses: moderators)",
    }
}

/// The answer to `/help`: one line per command (moderators' commands last, each marked), the
/// games, and how to learn more. It fits one Discord message.
pub fn help() -> String {
    let mut lines = vec!["Tabula: traditional board games. Commands:".to_string()];
    let line = |spec: &CommandSpec| {
        let aliases: String = spec.aliases.iter().map(|a| format!(", /{a}")).collect();
        format!(
            "/{}{aliases}: {}{}",
            spec.name,
            lowercase_first(spec.description),
            access_note(spec.access)
        )
    };
    lines.extend(
        COMMANDS
            .iter()
            .filter(|s| s.access != Access::Moderators)
            .map(line),
    );
    lines.extend(
        COMMANDS
            .iter()
            .filter(|s| s.access == Access::Moderators)
            .map(line),
    );
    let games: Vec<&str> = GameId::ALL.iter().map(|g| g.as_str()).collect();
    lines.push(format!(
        "Games: {}. Dice are rolled for you. /help <command> explains one, e.g. /help play.",
        games.join(", ")
    ));
    lines.join("\n")
}

/// The answer to `/help <name>`: usage line, what it does, an example; `None` for no such
/// command. Aliases are understood (`balance`), with or without `/`.
pub fn help_for(name: &str) -> Option<String> {
    let name = name.trim().trim_start_matches('/').to_ascii_lowercase();
    let spec = find(&name)?;
    let mut text = format!("{}\n{}", spec.usage(), spec.summary);
    match spec.access {
        Access::Anyone => {}
        Access::Moderators => text.push_str("\nFor moderators only."),
        Access::Partly => text.push_str("\nSome uses are for moderators only."),
    }
    if !spec.aliases.is_empty() {
        let aliases: Vec<String> = spec.aliases.iter().map(|a| format!("/{a}")).collect();
        text.push_str(&format!("\nAlso: {}.", aliases.join(", ")));
    }
    text.push_str(&format!("\nExample: {}", spec.example));
    Some(text)
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}
