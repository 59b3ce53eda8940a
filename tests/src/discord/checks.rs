//! Discord's rules beyond the OpenAPI schemas: message limits, components, allowed mentions,
//! autocomplete choices and command definitions. Each refusal is Discord's `Invalid Form Body`
//! (code 50035) with the field path in `errors`, or its specific code.

use std::collections::HashSet;
use std::sync::LazyLock;

use serde_json::{Map, Value, json};

use super::state::Ended;

/// A refusal in Discord's shape.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// HTTP status.
    pub status: u16,
    /// Discord's JSON error code.
    pub code: u64,
    /// Discord's message.
    pub message: String,
    /// The `errors` object of form errors.
    pub errors: Option<Value>,
    /// How the refusal is logged.
    pub ended: Ended,
}

impl ApiError {
    /// A refusal caused by the bot's request.
    #[must_use]
    pub fn violation(status: u16, code: u64, message: &str) -> Self {
        ApiError {
            status,
            code,
            message: message.to_owned(),
            errors: None,
            ended: Ended::Violation,
        }
    }

    /// A refusal caused by the platform's state.
    #[must_use]
    pub fn refused(status: u16, code: u64, message: &str) -> Self {
        ApiError {
            ended: Ended::Refused,
            ..ApiError::violation(status, code, message)
        }
    }

    /// The JSON body.
    #[must_use]
    pub fn body(&self) -> Value {
        let mut v = json!({"code": self.code, "message": self.message});
        if let Some(e) = &self.errors {
            v["errors"] = e.clone();
        }
        v
    }
}

/// One form error at a dotted path (`components.0.components.1.custom_id`).
#[derive(Debug, Clone)]
pub struct FormError {
    pub path: String,
    pub code: &'static str,
    pub message: String,
}

fn fe(path: impl Into<String>, code: &'static str, message: impl Into<String>) -> FormError {
    FormError {
        path: path.into(),
        code,
        message: message.into(),
    }
}

/// `Invalid Form Body` with the errors nested as Discord nests them.
#[must_use]
pub fn invalid_form(errors: &[FormError]) -> ApiError {
    let mut root = Value::Object(Map::new());
    for e in errors {
        let mut node = &mut root;
        for part in e.path.split('.').filter(|p| !p.is_empty()) {
            if !node.is_object() {
                *node = Value::Object(Map::new());
            }
            node = node
                .as_object_mut()
                .map(|m| m.entry(part.to_owned()).or_insert_with(|| json!({})))
                .unwrap_or_else(|| unreachable!());
        }
        if !node.is_object() {
            *node = json!({});
        }
        let list = node
            .as_object_mut()
            .map(|m| m.entry("_errors").or_insert_with(|| json!([])))
            .unwrap_or_else(|| unreachable!());
        if let Some(a) = list.as_array_mut() {
            a.push(json!({"code": e.code, "message": e.message}));
        }
    }
    ApiError {
        status: 400,
        code: 50035,
        message: "Invalid Form Body".into(),
        errors: Some(root),
        ended: Ended::Violation,
    }
}

fn len(v: &Value) -> usize {
    v.as_str().map_or(0, |s| s.chars().count())
}

/// The message fields of a create, edit or interaction response (`data`).
pub fn check_message_fields(data: &Value) -> Vec<FormError> {
    let mut errs = Vec::new();
    if len(&data["content"]) > 2000 {
        errs.push(fe(
            "content",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 2000 or fewer in length.",
        ));
    }
    if let Some(embeds) = data["embeds"].as_array() {
        if embeds.len() > 10 {
            errs.push(fe(
                "embeds",
                "BASE_TYPE_MAX_LENGTH",
                "Must be 10 or fewer in length.",
            ));
        }
        let total: usize = embeds.iter().map(embed_len).sum();
        if total > 6000 {
            errs.push(fe(
                "embeds",
                "MAX_EMBED_SIZE_EXCEEDED",
                "Embed size exceeds maximum size of 6000",
            ));
        }
        for (i, e) in embeds.iter().enumerate() {
            for (field, max) in [("title", 256), ("description", 4096)] {
                if len(&e[field]) > max {
                    errs.push(fe(
                        format!("embeds.{i}.{field}"),
                        "BASE_TYPE_MAX_LENGTH",
                        format!("Must be {max} or fewer in length."),
                    ));
                }
            }
            if e["fields"].as_array().is_some_and(|f| f.len() > 25) {
                errs.push(fe(
                    format!("embeds.{i}.fields"),
                    "BASE_TYPE_MAX_LENGTH",
                    "Must be 25 or fewer in length.",
                ));
            }
        }
    }
    errs.extend(check_components(&data["components"]));
    errs.extend(check_allowed_mentions(&data["allowed_mentions"]));
    errs
}

fn embed_len(e: &Value) -> usize {
    let mut n = len(&e["title"]) + len(&e["description"]);
    n += len(&e["footer"]["text"]) + len(&e["author"]["name"]);
    for f in e["fields"].as_array().into_iter().flatten() {
        n += len(&f["name"]) + len(&f["value"]);
    }
    n
}

/// Action rows of buttons.
pub fn check_components(components: &Value) -> Vec<FormError> {
    let mut errs = Vec::new();
    let Some(rows) = components.as_array() else {
        return errs;
    };
    if rows.len() > 5 {
        errs.push(fe(
            "components",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 5 or fewer in length.",
        ));
    }
    let mut ids = HashSet::new();
    for (r, row) in rows.iter().enumerate() {
        if row["type"] != 1 {
            continue;
        }
        let items = row["components"].as_array().map_or(&[][..], Vec::as_slice);
        if items.is_empty() || items.len() > 5 {
            errs.push(fe(
                format!("components.{r}.components"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 5 in length.",
            ));
        }
        for (b, item) in items.iter().enumerate() {
            let at = format!("components.{r}.components.{b}");
            if item["type"] != 2 {
                continue;
            }
            if len(&item["label"]) > 80 {
                errs.push(fe(
                    format!("{at}.label"),
                    "BASE_TYPE_MAX_LENGTH",
                    "Must be 80 or fewer in length.",
                ));
            }
            let style = item["style"].as_u64().unwrap_or(0);
            let custom_id = item["custom_id"].as_str();
            let url = item["url"].as_str();
            match style {
                1..=4 => {
                    if url.is_some() {
                        errs.push(fe(
                            format!("{at}.url"),
                            "BUTTON_COMPONENT_URL_NOT_ALLOWED",
                            "A non-link button cannot have a url",
                        ));
                    }
                    match custom_id {
                        None => errs.push(fe(
                            format!("{at}.custom_id"),
                            "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED",
                            "A custom id is required",
                        )),
                        Some(id) if id.is_empty() || id.chars().count() > 100 => errs.push(fe(
                            format!("{at}.custom_id"),
                            "BASE_TYPE_BAD_LENGTH",
                            "Must be between 1 and 100 in length.",
                        )),
                        Some(id) => {
                            if !ids.insert(id.to_owned()) {
                                errs.push(fe(
                                    format!("{at}.custom_id"),
                                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                                    "Component custom id cannot be duplicated",
                                ));
                            }
                        }
                    }
                }
                5 => {
                    if url.is_none() {
                        errs.push(fe(
                            format!("{at}.url"),
                            "BUTTON_COMPONENT_URL_REQUIRED",
                            "A url is required",
                        ));
                    }
                    if custom_id.is_some() {
                        errs.push(fe(
                            format!("{at}.custom_id"),
                            "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                            "A link button cannot have a custom id",
                        ));
                    }
                }
                _ => {}
            }
            if item["label"].is_null() && item["emoji"].is_null() {
                errs.push(fe(
                    format!("{at}.label"),
                    "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                    "A label or an emoji is required",
                ));
            }
        }
    }
    errs
}

/// `parse` and `users` / `roles` must not conflict; at most 100 users.
pub fn check_allowed_mentions(am: &Value) -> Vec<FormError> {
    let mut errs = Vec::new();
    if !am.is_object() {
        return errs;
    }
    let parse: Vec<&str> = am["parse"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    for (kind, field) in [("users", "users"), ("roles", "roles")] {
        let listed = am[field].as_array().is_some_and(|a| !a.is_empty());
        if parse.contains(&kind) && listed {
            errs.push(fe(
                "allowed_mentions",
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                format!("parse:[\"{kind}\"] and {field}: [ids...] are mutually exclusive."),
            ));
        }
        if am[field].as_array().is_some_and(|a| a.len() > 100) {
            errs.push(fe(
                format!("allowed_mentions.{field}"),
                "BASE_TYPE_MAX_LENGTH",
                "Must be 100 or fewer in length.",
            ));
        }
    }
    errs
}

/// `attachment://name` in embeds must name an attachment of the message.
pub fn check_attachment_refs(embeds: &[Value], filenames: &[String]) -> Vec<FormError> {
    let mut errs = Vec::new();
    for (i, e) in embeds.iter().enumerate() {
        for key in ["image", "thumbnail"] {
            if let Some(name) = e[key]["url"]
                .as_str()
                .and_then(|u| u.strip_prefix("attachment://"))
                && !filenames.iter().any(|f| f == name)
            {
                errs.push(fe(
                    format!("embeds.{i}.{key}.url"),
                    "ATTACHMENT_NOT_FOUND",
                    format!("attachment://{name} names no attachment of the message"),
                ));
            }
        }
    }
    errs
}

/// An autocomplete answer's choices.
pub fn check_choices(choices: &Value) -> Vec<FormError> {
    let mut errs = Vec::new();
    let Some(list) = choices.as_array() else {
        return vec![fe(
            "data.choices",
            "BASE_TYPE_REQUIRED",
            "This field is required",
        )];
    };
    if list.len() > 25 {
        errs.push(fe(
            "data.choices",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 25 or fewer in length.",
        ));
    }
    for (i, c) in list.iter().enumerate() {
        let n = len(&c["name"]);
        if n == 0 || n > 100 {
            errs.push(fe(
                format!("data.choices.{i}.name"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            ));
        }
        if c["value"].is_string() && len(&c["value"]) > 100 {
            errs.push(fe(
                format!("data.choices.{i}.value"),
                "BASE_TYPE_MAX_LENGTH",
                "Must be 100 or fewer in length.",
            ));
        }
    }
    errs
}

fn name_ok(name: &str, chat_input: bool) -> bool {
    let n = name.chars().count();
    (1..=32).contains(&n)
        && (!chat_input
            || name
                .chars()
                .all(|c| (c == '-' || c == '_' || c.is_alphanumeric()) && !c.is_uppercase()))
}

/// Discord's locales: the `AvailableLocalesEnum` of its OpenAPI description.
static LOCALES: LazyLock<Vec<String>> = LazyLock::new(|| {
    super::spec::Spec::load()
        .schema("AvailableLocalesEnum")
        .and_then(|schema| schema["oneOf"].as_array())
        .map(|values| {
            values
                .iter()
                .filter_map(|v| v["const"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
});

/// A `name_localizations` or `description_localizations` map: its keys must be Discord's
/// locales (the schema allows any key; Discord refuses others) and its values `1..=max`
/// characters (command and option names also follow the name rules).
fn check_localizations(
    map: &Value,
    at: &str,
    max: usize,
    name_rules: bool,
    errs: &mut Vec<FormError>,
) {
    let Some(map) = map.as_object() else {
        return;
    };
    for (locale, text) in map {
        if !LOCALES.contains(locale) {
            errs.push(fe(
                format!("{at}.{locale}"),
                "BASE_TYPE_CHOICES",
                format!("Value must be one of {:?}.", *LOCALES),
            ));
            continue;
        }
        let n = len(text);
        if name_rules && !name_ok(text.as_str().unwrap_or_default(), true) {
            errs.push(fe(
                format!("{at}.{locale}"),
                "APPLICATION_COMMAND_INVALID_NAME",
                "Command name is invalid",
            ));
        } else if !(1..=max).contains(&n) {
            errs.push(fe(
                format!("{at}.{locale}"),
                "BASE_TYPE_BAD_LENGTH",
                format!("Must be between 1 and {max} in length."),
            ));
        }
    }
}

/// A bulk overwrite's command list.
pub fn check_commands(list: &[Value]) -> Vec<FormError> {
    let mut errs = Vec::new();
    if list.len() > 100 {
        errs.push(fe(
            "",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 100 or fewer in length.",
        ));
    }
    let mut names = HashSet::new();
    for (i, c) in list.iter().enumerate() {
        let ty = c["type"].as_u64().unwrap_or(1);
        let name = c["name"].as_str().unwrap_or_default();
        if !name_ok(name, ty == 1) {
            errs.push(fe(
                format!("{i}.name"),
                "APPLICATION_COMMAND_INVALID_NAME",
                "Command name is invalid",
            ));
        }
        if !names.insert((ty, name.to_owned())) {
            errs.push(fe(
                format!("{i}.name"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                format!("Application command names must be unique: {name}"),
            ));
        }
        if ty == 1 {
            let d = len(&c["description"]);
            if !(1..=100).contains(&d) {
                errs.push(fe(
                    format!("{i}.description"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 100 in length.",
                ));
            }
        }
        check_localizations(
            &c["name_localizations"],
            &format!("{i}.name_localizations"),
            32,
            ty == 1,
            &mut errs,
        );
        check_localizations(
            &c["description_localizations"],
            &format!("{i}.description_localizations"),
            100,
            false,
            &mut errs,
        );
        check_options(&c["options"], &format!("{i}.options"), &mut errs);
    }
    errs
}

fn check_options(options: &Value, at: &str, errs: &mut Vec<FormError>) {
    let Some(list) = options.as_array() else {
        return;
    };
    if list.len() > 25 {
        errs.push(fe(
            at,
            "BASE_TYPE_MAX_LENGTH",
            "Must be 25 or fewer in length.",
        ));
    }
    let mut names = HashSet::new();
    let mut seen_optional = false;
    for (j, o) in list.iter().enumerate() {
        let oat = format!("{at}.{j}");
        let name = o["name"].as_str().unwrap_or_default();
        if !name_ok(name, true) {
            errs.push(fe(
                format!("{oat}.name"),
                "APPLICATION_COMMAND_INVALID_NAME",
                "Command name is invalid",
            ));
        }
        if !names.insert(name.to_owned()) {
            errs.push(fe(
                format!("{oat}.name"),
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                "Option names must be unique",
            ));
        }
        let d = len(&o["description"]);
        if !(1..=100).contains(&d) {
            errs.push(fe(
                format!("{oat}.description"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            ));
        }
        check_localizations(
            &o["name_localizations"],
            &format!("{oat}.name_localizations"),
            32,
            true,
            errs,
        );
        check_localizations(
            &o["description_localizations"],
            &format!("{oat}.description_localizations"),
            100,
            false,
            errs,
        );
        for (k, choice) in o["choices"].as_array().into_iter().flatten().enumerate() {
            check_localizations(
                &choice["name_localizations"],
                &format!("{oat}.choices.{k}.name_localizations"),
                100,
                false,
                errs,
            );
        }
        let required = o["required"].as_bool().unwrap_or(false);
        if required && seen_optional {
            errs.push(fe(
                format!("{oat}.required"),
                "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                "Required options must be placed before non-required options",
            ));
        }
        if !required {
            seen_optional = true;
        }
        if o["choices"].as_array().is_some_and(|c| c.len() > 25) {
            errs.push(fe(
                format!("{oat}.choices"),
                "BASE_TYPE_MAX_LENGTH",
                "Must be 25 or fewer in length.",
            ));
        }
        if let (Some(min), Some(max)) = (o["min_value"].as_f64(), o["max_value"].as_f64())
            && min > max
        {
            errs.push(fe(
                format!("{oat}.min_value"),
                "APPLICATION_COMMAND_OPTION_MIN_MAX_INVALID",
                "min_value must be less than or equal to max_value",
            ));
        }
        if o["autocomplete"].as_bool() == Some(true)
            && o["choices"].as_array().is_some_and(|c| !c.is_empty())
        {
            errs.push(fe(
                format!("{oat}.autocomplete"),
                "APPLICATION_COMMAND_AUTOCOMPLETE_CHOICES_INVALID",
                "Autocomplete cannot be set with choices",
            ));
        }
        let ty = o["type"].as_u64().unwrap_or(0);
        if ty == 1 || ty == 2 {
            check_options(&o["options"], &format!("{oat}.options"), errs);
        }
    }
}
