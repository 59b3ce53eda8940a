//! Shared by the fake Telegram's self-tests: a started fake with a teloxide bot pointed at it,
//! raw requests, and the checks every test ends with.

#![allow(dead_code)]

use std::time::Duration;

use serde_json::{Value, json};
use tabula_tests::telegram::{FakeTelegram, RateLimits};
use teloxide::Bot;

pub const TOKEN: &str = "123456:TEST-token_abc";
pub const WAIT: Duration = Duration::from_secs(5);

/// A 1x1 PNG.
pub const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 0,
    1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89, 0, 0, 0, 0x0d, 0x49, 0x44, 0x41, 0x54,
    0x78, 0x9c, 0x63, 0, 1, 0, 0, 5, 0, 1, 0x0d, 0x0a, 0x2d, 0xb4, 0, 0, 0, 0, 0x49, 0x45, 0x4e,
    0x44, 0xae, 0x42, 0x60, 0x82,
];

pub async fn start() -> (FakeTelegram, Bot) {
    let fake = FakeTelegram::start(TOKEN).await.expect("the fake starts");
    let url = reqwest::Url::parse(&fake.api_url()).expect("the fake's URL parses");
    let bot = Bot::new(TOKEN).set_api_url(url);
    fake.set_rate_limits(RateLimits::unlimited());
    (fake, bot)
}

/// A raw JSON request; returns the status and the body.
pub async fn raw(fake: &FakeTelegram, method: &str, body: Value) -> (u16, Value) {
    let url = format!("{}bot{}/{method}", fake.api_url(), fake.token());
    let response = reqwest::Client::new()
        .post(url)
        .json(&body)
        .send()
        .await
        .expect("the fake answers");
    (
        response.status().as_u16(),
        response.json().await.expect("the fake answers JSON"),
    )
}

pub fn assert_refused(answer: &(u16, Value), status: u16, description_start: &str) {
    assert_eq!(answer.0, status, "{answer:?}");
    assert_eq!(answer.1["ok"], json!(false), "{answer:?}");
    assert_eq!(answer.1["error_code"], json!(status), "{answer:?}");
    let description = answer.1["description"].as_str().unwrap_or("");
    assert!(
        description.starts_with(description_start),
        "{description:?} vs {description_start:?}"
    );
}

pub fn assert_clean(fake: &FakeTelegram) {
    assert_eq!(fake.self_check_failures(), Vec::<String>::new());
    for update in fake.pending_updates() {
        fake.check_against_spec(&update, "Update")
            .expect("every pending update fits the spec");
    }
}
