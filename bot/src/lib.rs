//! The Tabula bot as a library: what the `tabula` binary and the tests share.

pub mod store;
