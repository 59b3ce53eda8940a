//! The Bot API specification (`tests/specs/telegram-bot-api.json`) and the checks made with it:
//! every request's parameters, and every object the fake returns or sends.
//!
//! Parameter values arrive in two shapes. A JSON body keeps JSON types and is checked strictly
//! (an `Integer` must be a JSON integer, a `Boolean` a JSON boolean). A multipart or urlencoded
//! body carries text only: there an `Integer` is text that parses as an integer, a `Boolean` is
//! `true` or `false`, and an object or array is JSON text, checked strictly once parsed.

use std::collections::{HashMap, HashSet};

use serde::Deserialize;
use serde_json::Value;

/// The JSON text of the specification, as copied into `tests/specs/`.
const SPEC_JSON: &str = include_str!("../../specs/telegram-bot-api.json");

/// One field of a method or a type.
#[derive(Debug, Clone, Deserialize)]
pub struct Field {
    /// The field's name.
    pub name: String,
    /// Alternative types (`Integer`, `String`, `Array of MessageEntity`, ...).
    pub types: Vec<String>,
    /// Whether it must be present.
    pub required: bool,
    /// The documentation text (used to find a union's discriminator value).
    #[serde(default)]
    pub description: String,
}

/// A method or a type of the specification.
#[derive(Debug, Clone, Deserialize)]
pub struct Entry {
    /// The name (`sendMessage`, `Message`).
    pub name: String,
    /// Fields (parameters of a method, fields of a type).
    #[serde(default)]
    pub fields: Vec<Field>,
    /// For a union type (`ChatMember`), the types it may be.
    #[serde(default)]
    pub subtypes: Vec<String>,
    /// For a method, the return types.
    #[serde(default)]
    pub returns: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct SpecFile {
    version: String,
    methods: HashMap<String, Entry>,
    types: HashMap<String, Entry>,
}

/// The loaded specification.
#[derive(Debug)]
pub struct Spec {
    /// The Bot API version the file describes (`Bot API 10.1`).
    pub version: String,
    methods: HashMap<String, Entry>,
    /// Lower-case method name to its spelling in the spec.
    method_names: HashMap<String, String>,
    types: HashMap<String, Entry>,
}

/// Where a value came from: a JSON body, or text (multipart or urlencoded).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// A JSON body, or JSON inside a text field: types are JSON types.
    Json,
    /// A multipart or urlencoded field: all values are text.
    Text,
}

impl Spec {
    /// Loads the bundled specification.
    ///
    /// # Panics
    ///
    /// If the bundled file is not valid: that is a bug of the test suite, not of a request.
    #[must_use]
    #[allow(clippy::expect_used)]
    pub fn load() -> Self {
        let file: SpecFile =
            serde_json::from_str(SPEC_JSON).expect("tests/specs/telegram-bot-api.json parses");
        let method_names = file
            .methods
            .keys()
            .map(|name| (name.to_ascii_lowercase(), name.clone()))
            .collect();
        Self {
            version: file.version,
            methods: file.methods,
            method_names,
            types: file.types,
        }
    }

    /// The method named `name` (case-insensitive, as Telegram matches them).
    #[must_use]
    pub fn method(&self, name: &str) -> Option<&Entry> {
        self.method_names
            .get(&name.to_ascii_lowercase())
            .and_then(|n| self.methods.get(n))
    }

    /// The type named `name`.
    #[must_use]
    pub fn type_entry(&self, name: &str) -> Option<&Entry> {
        self.types.get(name)
    }

    /// Checks a request's parameters against the method's fields: required ones present,
    /// no unknown one, every value of a documented type. `files` names the multipart file parts
    /// (a file part stands for an `InputFile` parameter of its name, or is the target of an
    /// `attach://name` reference).
    ///
    /// # Errors
    ///
    /// The description of the first problem, without the `Bad Request: ` prefix.
    pub fn check_params(
        &self,
        method: &Entry,
        params: &serde_json::Map<String, Value>,
        encoding: Encoding,
        files: &HashSet<String>,
    ) -> Result<(), String> {
        for field in &method.fields {
            if field.required && !params.contains_key(&field.name) && !files.contains(&field.name) {
                return Err(format!("required parameter \"{}\" is missing", field.name));
            }
        }
        for (name, value) in params {
            let Some(field) = method.fields.iter().find(|f| &f.name == name) else {
                return Err(format!(
                    "unknown parameter \"{name}\" for method {}",
                    method.name
                ));
            };
            self.check_alternatives(value, &field.types, name, encoding, files)?;
        }
        for file in files {
            if let Some(field) = method.fields.iter().find(|f| &f.name == file) {
                if !field.types.iter().any(|t| t == "InputFile") {
                    return Err(format!("parameter \"{file}\" cannot be a file"));
                }
                if params.contains_key(file) {
                    return Err(format!("parameter \"{file}\" given twice"));
                }
            }
        }
        Ok(())
    }

    /// Checks that `value` is an object of type `type_name` (used on everything the fake returns).
    ///
    /// # Errors
    ///
    /// The description of the first problem.
    pub fn check_object(&self, value: &Value, type_name: &str) -> Result<(), String> {
        self.check_alternatives(
            value,
            &[type_name.to_owned()],
            type_name,
            Encoding::Json,
            &HashSet::new(),
        )
    }

    /// Checks a method's result against its documented return types.
    ///
    /// # Errors
    ///
    /// The description of the first problem.
    pub fn check_result(&self, method: &Entry, value: &Value) -> Result<(), String> {
        self.check_alternatives(
            value,
            &method.returns,
            "result",
            Encoding::Json,
            &HashSet::new(),
        )
    }

    fn check_alternatives(
        &self,
        value: &Value,
        types: &[String],
        path: &str,
        encoding: Encoding,
        files: &HashSet<String>,
    ) -> Result<(), String> {
        let mut first_error = None;
        for ty in types {
            match self.check_type(value, ty, path, encoding, files) {
                Ok(()) => return Ok(()),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        Err(if types.len() == 1 {
            first_error.unwrap_or_default()
        } else {
            format!("field \"{path}\" must be of type {}", types.join(" or "))
        })
    }

    fn check_type(
        &self,
        value: &Value,
        ty: &str,
        path: &str,
        encoding: Encoding,
        files: &HashSet<String>,
    ) -> Result<(), String> {
        let wrong = || format!("field \"{path}\" must be of type {ty}");
        if let Some(inner) = ty.strip_prefix("Array of ") {
            let parsed;
            let value = match (encoding, value) {
                (Encoding::Text, Value::String(text)) => {
                    parsed = serde_json::from_str::<Value>(text).map_err(|_| wrong())?;
                    &parsed
                }
                _ => value,
            };
            let Value::Array(items) = value else {
                return Err(wrong());
            };
            for (i, item) in items.iter().enumerate() {
                let item_path = format!("{path}[{i}]");
                self.check_alternatives(
                    item,
                    &[inner.to_owned()],
                    &item_path,
                    Encoding::Json,
                    files,
                )?;
            }
            return Ok(());
        }
        match ty {
            "Integer" => match (encoding, value) {
                (_, Value::Number(n)) if n.is_i64() || n.is_u64() => Ok(()),
                (Encoding::Text, Value::String(s)) if s.trim().parse::<i64>().is_ok() => Ok(()),
                _ => Err(wrong()),
            },
            "Float" => match (encoding, value) {
                (_, Value::Number(_)) => Ok(()),
                (Encoding::Text, Value::String(s)) if s.trim().parse::<f64>().is_ok() => Ok(()),
                _ => Err(wrong()),
            },
            "Boolean" | "True" => match (encoding, value) {
                (_, Value::Bool(b)) if ty == "Boolean" || *b => Ok(()),
                (Encoding::Text, Value::String(s)) if s == "true" || s == "false" => Ok(()),
                _ => Err(wrong()),
            },
            "String" => match value {
                Value::String(s) => check_attach(s, files, false),
                _ => Err(wrong()),
            },
            "InputFile" => match value {
                // A file part of this name is seen in `check_params`; here only a reference.
                Value::String(s) if s.starts_with("attach://") => check_attach(s, files, true),
                _ => Err(wrong()),
            },
            _ => {
                let parsed;
                let value = match (encoding, value) {
                    (Encoding::Text, Value::String(text)) => {
                        parsed = serde_json::from_str::<Value>(text)
                            .map_err(|_| format!("can't parse field \"{path}\" as a JSON {ty}"))?;
                        &parsed
                    }
                    _ => value,
                };
                self.check_named_type(value, ty, path, files)
            }
        }
    }

    fn check_named_type(
        &self,
        value: &Value,
        ty: &str,
        path: &str,
        files: &HashSet<String>,
    ) -> Result<(), String> {
        let Some(entry) = self.types.get(ty) else {
            return Err(format!(
                "the specification has no type {ty} (field \"{path}\")"
            ));
        };
        if !entry.subtypes.is_empty() {
            return self.check_union(value, entry, path, files);
        }
        let Value::Object(map) = value else {
            return Err(format!("field \"{path}\" must be an object of type {ty}"));
        };
        for field in &entry.fields {
            if field.required && !map.contains_key(&field.name) {
                return Err(format!(
                    "field \"{path}.{}\" of type {ty} is missing",
                    field.name
                ));
            }
        }
        for (name, field_value) in map {
            let Some(field) = entry.fields.iter().find(|f| &f.name == name) else {
                return Err(format!(
                    "field \"{path}\" of type {ty} has no field \"{name}\""
                ));
            };
            let field_path = format!("{path}.{name}");
            self.check_alternatives(
                field_value,
                &field.types,
                &field_path,
                Encoding::Json,
                files,
            )?;
        }
        Ok(())
    }

    /// A union (`ChatMember`, `BotCommandScope`, `InputMedia`): the subtype is chosen by its
    /// discriminator (`status`, `type`, `source`: the first field, documented as `always "x"` or
    /// `must be x`); a union without one (`MaybeInaccessibleMessage`) takes the first subtype that
    /// fits.
    fn check_union(
        &self,
        value: &Value,
        entry: &Entry,
        path: &str,
        files: &HashSet<String>,
    ) -> Result<(), String> {
        let mut discriminated = false;
        for sub in &entry.subtypes {
            let Some(sub_entry) = self.types.get(sub) else {
                // `RichText` lists plain types (`String`, `Array of RichText`) as subtypes.
                if self
                    .check_type(value, sub, path, Encoding::Json, files)
                    .is_ok()
                {
                    return Ok(());
                }
                continue;
            };
            let Some((field, tag)) = discriminator(sub_entry) else {
                if self.check_named_type(value, sub, path, files).is_ok() {
                    return Ok(());
                }
                continue;
            };
            discriminated = true;
            if value.get(&field.name).and_then(Value::as_str) == Some(tag.as_str()) {
                return self.check_named_type(value, sub, path, files);
            }
        }
        if discriminated {
            Err(format!(
                "field \"{path}\" is not any kind of {}",
                entry.name
            ))
        } else {
            Err(format!("field \"{path}\" must be of type {}", entry.name))
        }
    }
}

/// A union member's tag: its first field's documented constant value.
fn discriminator(entry: &Entry) -> Option<(&Field, String)> {
    let field = entry.fields.first()?;
    let text = &field.description;
    if let Some(rest) = text.split("always \"").nth(1) {
        return rest.split('"').next().map(|tag| (field, tag.to_owned()));
    }
    if let Some(rest) = text.split("always “").nth(1) {
        return rest.split('”').next().map(|tag| (field, tag.to_owned()));
    }
    if let Some(rest) = text.split("must be ").nth(1) {
        let tag: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !tag.is_empty() {
            return Some((field, tag));
        }
    }
    None
}

/// An `attach://name` value must name a file part of the request.
fn check_attach(text: &str, files: &HashSet<String>, must: bool) -> Result<(), String> {
    match text.strip_prefix("attach://") {
        Some(name) if !files.contains(name) => Err(format!(
            "can't find attached file \"{name}\" in the request"
        )),
        None if must => Err("a file reference must be attach://<part>".to_owned()),
        _ => Ok(()),
    }
}
