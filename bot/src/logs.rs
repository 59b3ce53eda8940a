//! The logger of the `tabula` binary: standard error, at the level filter of `TABULA_LOG`
//! (`error` … `trace`, or directives such as `info,tabula_service=debug`), as text for people
//! or, with `TABULA_LOG_FORMAT=json`, one JSON object per line (timestamp, level, message,
//! the event's fields, and the current span's: platform, chat, game, request key). Every line
//! passes through [`Scrubbed`], which replaces the tokens, the webhook secret and the
//! database's password with `[redacted]` whatever a library logs, at any level.

use std::io::Write;
use std::sync::Arc;

use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::MakeWriter;

/// How the logger is set up.
#[derive(Debug)]
pub struct Settings {
    /// The filter when `filter` is unset or cannot be read.
    pub default: &'static str,
    /// `TABULA_LOG`.
    pub filter: Option<String>,
    /// `TABULA_LOG_FORMAT=json`.
    pub json: bool,
    /// The texts never to write.
    pub secrets: Vec<String>,
}

/// The shortest secret scrubbed: shorter ones would blank ordinary words (a real token or
/// secret is far longer).
const SHORTEST_SECRET: usize = 6;

/// The secrets among `values`: each as given and as it appears in a URL, and a database URL's
/// password.
pub fn secrets(values: &[Option<&str>]) -> Vec<String> {
    let mut secrets = Vec::new();
    for value in values.iter().flatten() {
        let value = value.trim();
        if let Ok(url) = url::Url::parse(value)
            && url.has_host()
        {
            // A database URL: only its password is secret.
            if let Some(password) = url.password() {
                secrets.push(password.to_string());
                if let Ok(decoded) = urlencoding_decode(password) {
                    secrets.push(decoded);
                }
            }
            continue;
        }
        secrets.push(value.to_string());
        secrets.push(value.replace(':', "%3A"));
    }
    secrets.retain(|s| s.len() >= SHORTEST_SECRET);
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    secrets.dedup();
    secrets
}

/// Percent-decodes a URL's password.
fn urlencoding_decode(text: &str) -> Result<String, std::string::FromUtf8Error> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = text.get(i + 1..i + 3)
            && let Ok(byte) = u8::from_str_radix(hex, 16)
        {
            out.push(byte);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out)
}

/// Starts the logger.
pub fn init(settings: Settings) {
    let filter = settings
        .filter
        .as_deref()
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .and_then(|f| EnvFilter::try_new(f).ok())
        .unwrap_or_else(|| EnvFilter::new(settings.default));
    let writer = Scrubbed {
        secrets: Arc::new(settings.secrets),
    };
    let builder = tracing_subscriber::fmt()
        .with_writer(writer)
        .with_env_filter(filter);
    if settings.json {
        // Each object names its source (`target`): a library's events (sqlx's statements)
        // have their own fields in place of a message.
        builder
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .with_span_list(false)
            .init();
    } else {
        builder.with_target(false).init();
    }
}

/// Standard error, with every secret replaced.
#[derive(Debug, Clone)]
struct Scrubbed {
    secrets: Arc<Vec<String>>,
}

impl<'a> MakeWriter<'a> for Scrubbed {
    type Writer = Scrubbed;

    fn make_writer(&'a self) -> Scrubbed {
        self.clone()
    }
}

impl Write for Scrubbed {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // The logger writes each line whole.
        let mut text = String::from_utf8_lossy(buf).into_owned();
        for secret in self.secrets.iter() {
            if text.contains(secret.as_str()) {
                text = text.replace(secret.as_str(), "[redacted]");
            }
        }
        std::io::stderr().lock().write_all(text.as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_secrets_and_passwords_are_scrubbed() {
        let secrets = secrets(&[
            Some("123456:ABC-token"),
            Some("postgres://bot:pa%24%24word@db/tabula"),
            Some("sqlite://tabula.db"),
            Some("short"),
            None,
        ]);
        assert!(secrets.contains(&"123456:ABC-token".to_string()));
        assert!(secrets.contains(&"123456%3AABC-token".to_string()));
        assert!(secrets.contains(&"pa$$word".to_string()));
        assert!(
            !secrets
                .iter()
                .any(|s| s.contains("tabula.db") || s == "short")
        );
    }
}
