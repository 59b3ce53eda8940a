//! The Tabula bot as a library: what the `tabula` binary and the tests share. The chat
//! platforms' adapters (Telegram, Discord, and the terminal's `tabula local`) and the wiring of
//! `tabula run`; everything else is the platform-free `tabula-service`, re-exported here under
//! its own module names.

pub mod adapters;
pub mod local;
pub mod ops;
pub mod run;
pub mod web;

pub use tabula_service::{commands, dispatch, export, l10n, service, store};
