//! The integration tests of `tabula-bot`, in one binary: the `tabula` command line as a person
//! meets it (`tabula local`, `tabula rules`, `tabula verify`, `tabula locales`), and the
//! README's examples run as written.

// The test databases of the service's suite, shared rather than copied.
#[macro_use]
#[path = "../../../service/tests/suite/common/mod.rs"]
mod common;

mod first_minutes;
mod local;
mod operations;
mod readme_examples;
mod rules_cli;
