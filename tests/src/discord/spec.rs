//! Discord's OpenAPI description (`tests/specs/discord-openapi.json`): route matching and a small
//! JSON-Schema checker for the subset the document uses.

use std::collections::HashMap;

use serde_json::Value;

/// The OpenAPI document and its routes.
#[derive(Debug)]
pub struct Spec {
    doc: Value,
    routes: Vec<RouteDef>,
}

#[derive(Debug)]
struct RouteDef {
    template: String,
    segments: Vec<Seg>,
}

#[derive(Debug)]
enum Seg {
    Lit(String),
    Param(String),
}

/// A route of the document matched by a request path.
#[derive(Debug, Clone)]
pub struct Matched {
    /// The document's path template (`/channels/{channel_id}/messages`).
    pub template: String,
    /// The path parameters.
    pub params: HashMap<String, String>,
}

const MAX_DEPTH: usize = 64;

impl Spec {
    /// Loads the document from `tests/specs/discord-openapi.json`.
    ///
    /// # Panics
    ///
    /// If the embedded document is not JSON (it is checked in).
    #[must_use]
    pub fn load() -> Self {
        let doc: Value = serde_json::from_str(include_str!("../../specs/discord-openapi.json"))
            .expect("the Discord OpenAPI document is JSON");
        let routes = doc["paths"]
            .as_object()
            .map(|paths| {
                paths
                    .keys()
                    .map(|template| RouteDef {
                        template: template.clone(),
                        segments: template
                            .trim_start_matches('/')
                            .split('/')
                            .map(|s| {
                                if s.starts_with('{') && s.ends_with('}') {
                                    Seg::Param(s[1..s.len() - 1].to_owned())
                                } else {
                                    Seg::Lit(s.to_owned())
                                }
                            })
                            .collect(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        Spec { doc, routes }
    }

    /// The route a path (after `/api/v10`) belongs to; literal segments win over parameters
    /// (`/messages/@original` over `/messages/{message_id}`).
    #[must_use]
    pub fn match_path(&self, path: &str) -> Option<Matched> {
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        let mut best: Option<(usize, Matched)> = None;
        for route in &self.routes {
            if route.segments.len() != parts.len() {
                continue;
            }
            let mut literals = 0;
            let mut params = HashMap::new();
            let ok = route
                .segments
                .iter()
                .zip(&parts)
                .all(|(seg, part)| match seg {
                    Seg::Lit(l) => {
                        literals += 1;
                        l == part
                    }
                    Seg::Param(p) => {
                        params.insert(p.clone(), (*part).to_owned());
                        !part.is_empty()
                    }
                });
            if ok && best.as_ref().is_none_or(|(l, _)| literals > *l) {
                best = Some((
                    literals,
                    Matched {
                        template: route.template.clone(),
                        params,
                    },
                ));
            }
        }
        best.map(|(_, m)| m)
    }

    /// The operation object of `method` (lower case) on `template`.
    #[must_use]
    pub fn operation(&self, template: &str, method: &str) -> Option<&Value> {
        self.doc["paths"][template]
            .get(method)
            .filter(|v| v.is_object())
    }

    /// The JSON request body schema of an operation, if it takes a body.
    #[must_use]
    pub fn request_schema<'a>(&self, op: &'a Value) -> Option<&'a Value> {
        op.get("requestBody")?
            .get("content")?
            .get("application/json")?
            .get("schema")
    }

    /// Whether the operation's request body is required.
    #[must_use]
    pub fn body_required(op: &Value) -> bool {
        op["requestBody"]["required"].as_bool().unwrap_or(false)
    }

    /// The JSON schema of a success answer (`200` or `201`).
    #[must_use]
    pub fn response_schema<'a>(&self, op: &'a Value, status: u16) -> Option<&'a Value> {
        op.get("responses")?
            .get(status.to_string())?
            .get("content")?
            .get("application/json")?
            .get("schema")
    }

    /// A named schema of `components/schemas`.
    #[must_use]
    pub fn schema(&self, name: &str) -> Option<&Value> {
        self.doc["components"]["schemas"].get(name)
    }

    /// Checks `value` against `schema`; the errors as `path: problem`.
    ///
    /// # Errors
    ///
    /// Every problem found (at most a few per union branch).
    pub fn check(&self, schema: &Value, value: &Value) -> Result<(), Vec<String>> {
        let mut errors = Vec::new();
        self.check_at(schema, value, "$", 0, &mut errors);
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    fn resolve<'a>(&'a self, schema: &'a Value) -> &'a Value {
        let mut s = schema;
        for _ in 0..8 {
            match s.get("$ref").and_then(Value::as_str) {
                Some(r) => {
                    let name = r.trim_start_matches("#/components/schemas/");
                    match self.schema(name) {
                        Some(next) => s = next,
                        None => return s,
                    }
                }
                None => return s,
            }
        }
        s
    }

    #[allow(clippy::too_many_lines)]
    fn check_at(
        &self,
        schema: &Value,
        value: &Value,
        at: &str,
        depth: usize,
        errors: &mut Vec<String>,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let schema = self.resolve(schema);
        let Some(s) = schema.as_object() else {
            return;
        };
        if let Some(all) = s.get("allOf").and_then(Value::as_array) {
            for sub in all {
                self.check_at(sub, value, at, depth + 1, errors);
            }
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(branches) = s.get(key).and_then(Value::as_array) {
                let mut best: Option<Vec<String>> = None;
                let mut matched = false;
                for sub in branches {
                    let mut e = Vec::new();
                    self.check_at(sub, value, at, depth + 1, &mut e);
                    if e.is_empty() {
                        matched = true;
                        break;
                    }
                    if best.as_ref().is_none_or(|b| e.len() < b.len()) {
                        best = Some(e);
                    }
                }
                if !matched {
                    errors.push(format!(
                        "{at}: matches none of the {} allowed shapes",
                        branches.len()
                    ));
                    errors.extend(best.unwrap_or_default().into_iter().take(4));
                }
            }
        }
        let format = s.get("format").and_then(Value::as_str).unwrap_or("");
        if let Some(ty) = s.get("type") {
            let types: Vec<&str> = match ty {
                Value::String(t) => vec![t.as_str()],
                Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            // Bitfields (permissions) are documented as integers and sent as strings of digits.
            let big = s
                .get("maximum")
                .and_then(Value::as_f64)
                .is_some_and(|m| m > 4_294_967_295.0);
            let format = if big { "int64" } else { format };
            if !types.is_empty() && !types.iter().any(|t| type_ok(t, format, value)) {
                errors.push(format!(
                    "{at}: expected {}, got {}",
                    types.join(" or "),
                    short(value)
                ));
                return;
            }
        }
        if let Some(c) = s.get("const")
            && !same(c, value)
        {
            errors.push(format!("{at}: must be {c}, got {}", short(value)));
        }
        if let Some(e) = s.get("enum").and_then(Value::as_array)
            && !e.iter().any(|c| same(c, value))
        {
            errors.push(format!(
                "{at}: {} is not one of {}",
                short(value),
                short(&Value::Array(e.clone()))
            ));
        }
        match value {
            Value::String(text) => {
                let n = text.chars().count();
                if let Some(min) = s.get("minLength").and_then(Value::as_u64)
                    && (n as u64) < min
                {
                    errors.push(format!("{at}: shorter than {min} characters"));
                }
                if let Some(max) = s.get("maxLength").and_then(Value::as_u64)
                    && (n as u64) > max
                {
                    errors.push(format!("{at}: longer than {max} characters ({n})"));
                }
                if (format == "snowflake" || format == "int64")
                    && !(text == "0"
                        || (!text.is_empty()
                            && !text.starts_with('0')
                            && text.bytes().all(|b| b.is_ascii_digit())
                            && text.parse::<u64>().is_ok())
                        || (format == "int64" && text.parse::<i64>().is_ok()))
                {
                    errors.push(format!("{at}: {text:?} is not a {format}"));
                }
            }
            Value::Number(num) => {
                let x = num.as_f64().unwrap_or(0.0);
                if let Some(min) = s.get("minimum").and_then(Value::as_f64)
                    && x < min
                {
                    errors.push(format!("{at}: {num} is below the minimum {min}"));
                }
                if let Some(max) = s.get("maximum").and_then(Value::as_f64)
                    && x > max
                {
                    errors.push(format!("{at}: {num} is above the maximum {max}"));
                }
            }
            Value::Array(items) => {
                if let Some(min) = s.get("minItems").and_then(Value::as_u64)
                    && (items.len() as u64) < min
                {
                    errors.push(format!("{at}: fewer than {min} items"));
                }
                if let Some(max) = s.get("maxItems").and_then(Value::as_u64)
                    && (items.len() as u64) > max
                {
                    errors.push(format!("{at}: more than {max} items ({})", items.len()));
                }
                if s.get("uniqueItems").and_then(Value::as_bool) == Some(true) {
                    for (i, a) in items.iter().enumerate() {
                        if items[..i].contains(a) {
                            errors.push(format!("{at}[{i}]: repeats an earlier item"));
                        }
                    }
                }
                if let Some(item_schema) = s.get("items") {
                    for (i, item) in items.iter().enumerate() {
                        self.check_at(item_schema, item, &format!("{at}[{i}]"), depth + 1, errors);
                    }
                }
            }
            Value::Object(map) => {
                if let Some(req) = s.get("required").and_then(Value::as_array) {
                    for r in req.iter().filter_map(Value::as_str) {
                        if !map.contains_key(r) {
                            errors.push(format!("{at}: the required field {r:?} is missing"));
                        }
                    }
                }
                if let Some(min) = s.get("minProperties").and_then(Value::as_u64)
                    && (map.len() as u64) < min
                {
                    errors.push(format!("{at}: fewer than {min} fields"));
                }
                if let Some(max) = s.get("maxProperties").and_then(Value::as_u64)
                    && (map.len() as u64) > max
                {
                    errors.push(format!("{at}: more than {max} fields"));
                }
                let props = s.get("properties").and_then(Value::as_object);
                for (k, v) in map {
                    let sub_at = format!("{at}.{k}");
                    if let Some(p) = props.and_then(|p| p.get(k)) {
                        self.check_at(p, v, &sub_at, depth + 1, errors);
                    } else {
                        match s.get("additionalProperties") {
                            Some(Value::Bool(false)) => {
                                errors.push(format!("{sub_at}: unknown field"));
                            }
                            Some(extra @ Value::Object(_)) => {
                                self.check_at(extra, v, &sub_at, depth + 1, errors);
                            }
                            _ => {}
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

fn type_ok(ty: &str, format: &str, v: &Value) -> bool {
    match ty {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "string" => v.is_string() || (format == "snowflake" && v.is_u64()),
        "integer" => {
            v.is_i64()
                || v.is_u64()
                || v.as_f64().is_some_and(|x| x.fract() == 0.0)
                || (format == "int64" && v.as_str().is_some_and(|t| t.parse::<i64>().is_ok()))
        }
        "number" => v.is_number(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        _ => true,
    }
}

/// Equality where `1` and `1.0` are the same number.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

/// A value shortened for an error message.
pub(crate) fn short(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 60 {
        let cut: String = text.chars().take(57).collect();
        format!("{cut}...")
    } else {
        text
    }
}
