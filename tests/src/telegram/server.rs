//! The HTTP side of the fake: the axum router, reading a request (path, token, method, JSON,
//! multipart or urlencoded parameters), injected failures, the spec check, the call, the answer
//! in Telegram's shape, and the request log.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, FromRequest, Multipart, Request, State as AxumState};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};

use super::Inner;
use super::methods;
use super::spec::{Encoding, Entry};
use super::state::{Ended, Failure, RequestRecord};

/// An uploaded file part: its file name and bytes.
#[derive(Debug, Clone)]
pub struct FilePart {
    /// The part's file name.
    pub file_name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// File parts by part name.
pub type Files = HashMap<String, FilePart>;

/// A refusal in Telegram's shape.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// HTTP status and `error_code`.
    pub status: u16,
    /// `description`.
    pub description: String,
    /// `parameters` (`retry_after`, `migrate_to_chat_id`).
    pub parameters: Option<Value>,
    /// How the request log classifies it.
    pub ended: Ended,
}

impl ApiError {
    /// 400 `Bad Request: {text}`: the bot's request was wrong (a violation).
    #[must_use]
    pub fn bad(text: impl std::fmt::Display) -> Self {
        Self {
            status: 400,
            description: format!("Bad Request: {text}"),
            parameters: None,
            ended: Ended::Violation,
        }
    }

    /// A refusal due to the platform's state (not counted as a violation).
    #[must_use]
    pub fn refused(status: u16, description: String, parameters: Option<Value>) -> Self {
        Self {
            status,
            description,
            parameters,
            ended: Ended::Refused,
        }
    }

    /// A method or option the fake does not implement.
    #[must_use]
    pub fn unsupported(what: &str) -> Self {
        Self {
            status: 400,
            description: format!("Bad Request: {what} is not supported by the fake"),
            parameters: None,
            ended: Ended::Unsupported,
        }
    }

    fn body(&self) -> Value {
        let mut v =
            json!({"ok": false, "error_code": self.status, "description": self.description});
        if let Some(p) = &self.parameters {
            v["parameters"] = p.clone();
        }
        v
    }
}

/// The router serving `/bot{token}/{method}`.
pub fn router(inner: Arc<Inner>) -> Router {
    Router::new()
        .fallback(handle)
        .layer(DefaultBodyLimit::max(64 * 1024 * 1024))
        .with_state(inner)
}

fn json_response(status: u16, body: &Value) -> Response {
    let code = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (
        code,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

async fn handle(AxumState(inner): AxumState<Arc<Inner>>, req: Request) -> Response {
    let at = Instant::now();
    let path = req.uri().path().trim_start_matches('/').to_owned();
    let (token_part, method_name) = path.split_once('/').unwrap_or((path.as_str(), ""));
    let Some(token) = token_part.strip_prefix("bot") else {
        return json_response(
            404,
            &json!({"ok": false, "error_code": 404, "description": "Not Found"}),
        );
    };
    let method_name = method_name.trim_end_matches('/').to_owned();
    if token != inner.token {
        let err = ApiError {
            status: 401,
            description: "Unauthorized".to_owned(),
            parameters: None,
            ended: Ended::Violation,
        };
        inner.log(&method_name, Value::Null, at, Err(&err));
        return json_response(401, &err.body());
    }
    let Some(entry) = inner.spec.method(&method_name).cloned() else {
        let err = ApiError {
            status: 404,
            description: "Not Found".to_owned(),
            parameters: None,
            ended: Ended::Violation,
        };
        inner.log(&method_name, Value::Null, at, Err(&err));
        return json_response(404, &err.body());
    };
    // Logged as the spec spells it (teloxide sends `SendMessage`).
    let method_name = entry.name.clone();
    let (params, files, encoding) = match read_params(req).await {
        Ok(read) => read,
        Err(err) => {
            inner.log(&method_name, Value::Null, at, Err(&err));
            return json_response(err.status, &err.body());
        }
    };
    let mut logged = Value::Object(params.clone());
    for (name, part) in &files {
        logged[name] = json!({"file": part.file_name, "bytes": part.bytes.len()});
    }
    match inner.take_failure(&entry.name) {
        Some(Failure::Late(delay)) => tokio::time::sleep(delay).await,
        Some(failure) => return injected(&inner, &method_name, logged, at, failure),
        None => {}
    }
    let result = call(&inner, &entry, &params, &files, encoding).await;
    match result {
        Ok(value) => {
            if let Err(e) = inner.spec.check_result(&entry, &value) {
                inner.self_check_failure(format!("{} returned an invalid result: {e}", entry.name));
            }
            inner.log(&method_name, logged, at, Ok(()));
            json_response(200, &json!({"ok": true, "result": value}))
        }
        Err(err) => {
            inner.log(&method_name, logged, at, Err(&err));
            json_response(err.status, &err.body())
        }
    }
}

async fn call(
    inner: &Arc<Inner>,
    entry: &Entry,
    params: &Map<String, Value>,
    files: &Files,
    encoding: Encoding,
) -> Result<Value, ApiError> {
    let file_names: HashSet<String> = files.keys().cloned().collect();
    inner
        .spec
        .check_params(entry, params, encoding, &file_names)
        .map_err(ApiError::bad)?;
    let typed = normalize(entry, params, encoding);
    methods::call(inner, &entry.name, &typed, files).await
}

fn injected(inner: &Inner, method: &str, logged: Value, at: Instant, failure: Failure) -> Response {
    let err = |status: u16, description: &str, parameters: Option<Value>| ApiError {
        status,
        description: description.to_owned(),
        parameters,
        ended: Ended::Injected,
    };
    let err = match failure {
        Failure::TooManyRequests { retry_after } => err(
            429,
            &format!("Too Many Requests: retry after {retry_after}"),
            Some(json!({"retry_after": retry_after})),
        ),
        Failure::ServerError => err(500, "Internal Server Error", None),
        Failure::BadGateway => err(502, "Bad Gateway", None),
        Failure::Error {
            status,
            description,
        } => err(status, &description, None),
        Failure::Hang => {
            let e = err(0, "never answered", None);
            inner.log(method, logged, at, Err(&e));
            let stream = futures_util::stream::once(async {
                tokio::time::sleep(std::time::Duration::from_secs(3600)).await;
                Err::<Bytes, std::io::Error>(std::io::Error::other("never answered"))
            });
            return Response::new(Body::from_stream(stream));
        }
        Failure::Late(_) => unreachable!("a late answer is not refused"),
        Failure::DropConnection => {
            let e = err(0, "connection dropped", None);
            inner.log(method, logged, at, Err(&e));
            let stream = futures_util::stream::once(async {
                Err::<Bytes, std::io::Error>(std::io::Error::other("dropped by the fake"))
            });
            return Response::new(Body::from_stream(stream));
        }
    };
    inner.log(method, logged, at, Err(&err));
    json_response(err.status, &err.body())
}

/// Reads the parameters: the query string, then a JSON, multipart or urlencoded body.
async fn read_params(req: Request) -> Result<(Map<String, Value>, Files, Encoding), ApiError> {
    let mut params = Map::new();
    let mut files = Files::new();
    let mut encoding = Encoding::Text;
    if let Some(query) = req.uri().query() {
        for (k, v) in urlencoded(query) {
            params.insert(k, Value::String(v));
        }
    }
    let content_type = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase();
    if content_type.starts_with("multipart/form-data") {
        let mut multipart = Multipart::from_request(req, &())
            .await
            .map_err(|e| ApiError::bad(format!("can't parse multipart body: {e}")))?;
        loop {
            let field = multipart
                .next_field()
                .await
                .map_err(|e| ApiError::bad(format!("can't parse multipart body: {e}")))?;
            let Some(field) = field else { break };
            let name = field.name().unwrap_or_default().to_owned();
            if let Some(file_name) = field.file_name().map(str::to_owned) {
                let bytes = field
                    .bytes()
                    .await
                    .map_err(|e| ApiError::bad(format!("can't read file part: {e}")))?;
                files.insert(
                    name,
                    FilePart {
                        file_name,
                        bytes: bytes.to_vec(),
                    },
                );
            } else {
                let text = field
                    .text()
                    .await
                    .map_err(|e| ApiError::bad(format!("can't read multipart field: {e}")))?;
                params.insert(name, Value::String(text));
            }
        }
        return Ok((params, files, encoding));
    }
    let body = axum::body::to_bytes(req.into_body(), 64 * 1024 * 1024)
        .await
        .map_err(|e| ApiError::bad(format!("can't read body: {e}")))?;
    if content_type.starts_with("application/json") {
        if !body.is_empty() {
            let value: Value = serde_json::from_slice(&body)
                .map_err(|_| ApiError::bad("can't parse JSON request body"))?;
            let Value::Object(map) = value else {
                return Err(ApiError::bad("the JSON request body must be an object"));
            };
            params.extend(map);
        }
        encoding = Encoding::Json;
    } else if !body.is_empty() {
        let text = String::from_utf8_lossy(&body);
        for (k, v) in urlencoded(&text) {
            params.insert(k, Value::String(v));
        }
    }
    Ok((params, files, encoding))
}

/// `a=1&b=x%20y` to pairs.
fn urlencoded(s: &str) -> Vec<(String, String)> {
    s.split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (percent_decode(k), percent_decode(v))
        })
        .collect()
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = s
                    .get(i + 1..i + 3)
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                if let Some(b) = hex {
                    out.push(b);
                    i += 2;
                } else {
                    out.push(b'%');
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Text parameters (already checked) turned into their JSON types, so that the methods read
/// one shape: integers, booleans, floats, and JSON objects and arrays.
fn normalize(entry: &Entry, params: &Map<String, Value>, encoding: Encoding) -> Map<String, Value> {
    if encoding == Encoding::Json {
        return params.clone();
    }
    params
        .iter()
        .map(|(name, value)| {
            let Value::String(text) = value else {
                return (name.clone(), value.clone());
            };
            let types = entry
                .fields
                .iter()
                .find(|f| &f.name == name)
                .map(|f| f.types.as_slice());
            let types = types.unwrap_or_default();
            let typed = types
                .iter()
                .find_map(|ty| match ty.as_str() {
                    "Integer" => text.trim().parse::<i64>().ok().map(Value::from),
                    "Float" => text.trim().parse::<f64>().ok().map(Value::from),
                    "Boolean" => text.parse::<bool>().ok().map(Value::Bool),
                    "String" | "InputFile" => Some(value.clone()),
                    _ => serde_json::from_str::<Value>(text).ok(),
                })
                .unwrap_or_else(|| value.clone());
            (name.clone(), typed)
        })
        .collect()
}

impl Inner {
    /// Appends to the request log.
    pub(crate) fn log(
        &self,
        method: &str,
        params: Value,
        at: Instant,
        result: Result<(), &ApiError>,
    ) {
        let record = match result {
            Ok(()) => RequestRecord {
                method: method.to_owned(),
                params,
                at,
                status: 200,
                description: None,
                ended: Ended::Ok,
            },
            Err(e) => RequestRecord {
                method: method.to_owned(),
                params,
                at,
                status: e.status,
                description: Some(e.description.clone()),
                ended: e.ended,
            },
        };
        self.lock().requests.push(record);
        self.bump();
    }

    fn take_failure(&self, method: &str) -> Option<Failure> {
        let mut state = self.lock();
        state
            .failures
            .get_mut(&method.to_ascii_lowercase())
            .and_then(std::collections::VecDeque::pop_front)
    }
}
