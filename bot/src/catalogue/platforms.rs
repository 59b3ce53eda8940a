//! The platforms' command lists, generated from the table: Discord's application commands and
//! Telegram's `setMyCommands`.

use serde_json::{Value, json};
use tabula_core::GameId;

use super::*;

/// Discord's option types.
const STRING: u8 = 3;
const INTEGER: u8 = 4;
const USER: u8 = 6;

fn discord_option(option: &OptionSpec) -> Value {
    let mut object = json!({
        "name": option.name,
        "description": option.description,
        "required": option.required,
    });
    let extra = match option.kind {
        Kind::Game => json!({
            "type": STRING,
            "choices": GameId::ALL
                .iter()
                .map(|g| json!({"name": g.name(), "value": g.as_str()}))
                .collect::<Vec<_>>(),
        }),
        Kind::User => json!({"type": USER}),
        Kind::Integer { min, max } => json!({"type": INTEGER, "min_value": min, "max_value": max}),
        Kind::GameNumber => json!({"type": INTEGER, "min_value": 1}),
        Kind::Duration => json!({"type": STRING, "max_length": 16}),
        Kind::Move => json!({"type": STRING, "autocomplete": true, "max_length": MAX_MOVE_CHARS}),
        Kind::Text => json!({"type": STRING, "max_length": MAX_TEXT_CHARS}),
        Kind::Options | Kind::Settings => json!({"type": STRING, "max_length": 200}),
        Kind::Command => json!({
            "type": STRING,
            "choices": COMMANDS
                .iter()
                .map(|c| json!({"name": c.name, "value": c.name}))
                .collect::<Vec<_>>(),
        }),
    };
    if let (Value::Object(object), Value::Object(extra)) = (&mut object, extra) {
        object.extend(extra);
    }
    object
}

/// Discord's application commands, for the bulk overwrite of
/// `PUT /applications/{application_id}/commands`: an array of CHAT_INPUT (type 1) commands.
/// Aliases are not registered. Wholly moderators' commands carry
/// `default_member_permissions: "32"` (MANAGE_GUILD), as Discord's documentation writes
/// permissions (a string); commands that are only partly for moderators are open to all and
/// checked by the service.
pub fn discord_commands() -> Value {
    Value::Array(
        COMMANDS
            .iter()
            .map(|spec| {
                let mut command = json!({
                    "type": 1,
                    "name": spec.name,
                    "description": spec.description,
                    "options": spec.options.iter().map(discord_option).collect::<Vec<_>>(),
                });
                if spec.access == Access::Moderators {
                    command["default_member_permissions"] = json!(MANAGE_GUILD.to_string());
                }
                command
            })
            .collect(),
    )
}

/// Telegram's `setMyCommands` list: `(command, description)` for every command, aliases not
/// included.
pub fn telegram_commands() -> Vec<(String, String)> {
    COMMANDS
        .iter()
        .map(|spec| (spec.name.to_string(), spec.description.to_string()))
        .collect()
}
