//! The Tabula bot as a library: what the `tabula` binary and the tests share.

pub mod adapters;
pub mod catalogue;
pub mod export;
pub mod l10n;
pub mod local;
pub mod outbox;
pub mod run;
pub mod service;
pub mod store;
