//! The integration tests of `tabula-service`, in one binary: the service driven through its
//! contract, the store on both databases (PostgreSQL when `TABULA_TEST_POSTGRES_URL` is set), the
//! outbox dispatcher, and the message catalogue. One module per concern; `common` holds the test
//! databases and the table of players every service test plays at.

#[macro_use]
mod common;

mod accepting;
mod boards;
mod chat_moves;
mod clocks;
mod commands;
mod computer;
mod confirm;
mod cooldown;
mod dispatcher;
mod draws;
mod economy;
mod endings;
mod envelope;
mod languages;
mod layers;
mod ledger_properties;
mod limits;
mod links;
mod notify;
mod open_challenges;
mod operations;
mod outage;
mod outbox;
mod pages;
mod people;
mod ratings;
mod records;
mod seasons;
mod service;
mod store_conformance;
mod takebacks;
mod threads;
mod voice;
mod waiting;
