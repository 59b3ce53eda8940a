//! End-to-end tests of Tabula and local fakes of the chat platforms.
//!
//! - [`telegram`]: a fake Telegram Bot API server, checked against the Bot API specification.
//! - [`discord`]: a fake Discord (REST API checked against its OpenAPI description, the
//!   gateway, and a client that signs interactions).
//! - [`bot_process`]: the real `tabula` binary started as a user would, stopped and killed.
//! - [`table`]: people playing through the real `tabula run` against a fake, one table for both
//!   platforms; [`telegram_table`] and [`discord_table`] say how each platform differs.
//! - [`said`]: which catalogue message a posted text says, so that tests name message ids.

pub mod bot_process;
pub mod browser;
pub mod discord;
pub mod discord_table;
pub mod proxy;
pub mod said;
pub mod table;
pub mod telegram;
pub mod telegram_table;
