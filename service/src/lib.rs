//! The Tabula bot without its chat platforms: what a request does, what the bot says, what it
//! stores and what it sends on its own. No Telegram, Discord or HTTP type appears here; the
//! adapters of `tabula-bot` translate to and from this crate's [`service::Request`] and
//! [`service::Reply`].
//!
//! Layers, each using only those below it (the test `layers` checks every `crate::` path):
//!
//! ```text
//! dispatch            the outbox dispatcher: sends what the service renders
//! service             the façade and its concerns; the contract (requests, replies, refusals)
//! commands   export   the commands (names, options, parser, help); game records and dice
//! l10n       store    the message vocabulary (Lang, Msg, Span, Person); the database
//! time       ratings  the clock and calendar arithmetic; Glicko-2 ratings as lichess keeps them
//! values     metrics  ids, moments, closed sets; the process's counters for Prometheus
//! ```

pub mod commands;
pub mod dispatch;
pub mod export;
pub mod l10n;
pub mod metrics;
pub mod ratings;
pub mod service;
pub mod store;
pub mod time;
pub mod values;
