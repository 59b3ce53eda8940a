//! End-to-end tests of Tabula and local fakes of the chat platforms.
//!
//! - [`telegram`]: a fake Telegram Bot API server, checked against the Bot API specification.

pub mod telegram;
