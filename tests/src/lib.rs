//! End-to-end tests of Tabula and local fakes of the chat platforms.
//!
//! - [`telegram`]: a fake Telegram Bot API server, checked against the Bot API specification.
//! - [`bot_process`]: the real `tabula` binary started as a user would, stopped and killed.

pub mod bot_process;
pub mod telegram;
pub mod telegram_table;
