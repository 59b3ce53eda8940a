//! The end-to-end tests, in one binary: the fakes of Telegram and Discord checked against the
//! platforms' published specifications and their real client libraries, and the real `tabula`
//! binary played through them (polling, webhooks, the gateway and HTTP interactions; SQLite, and
//! PostgreSQL when `TABULA_TEST_POSTGRES_URL` is set).

mod telegram_common;

mod busy_group;
mod crash;
mod discord_fake;
mod discord_games;
mod discord_gateway_fake;
mod discord_platform;
mod instances;
mod linked;
mod operations;
mod pages;
mod telegram_fake;
mod telegram_fake_updates;
mod telegram_games;
mod telegram_platform;
mod telegram_postgres;
