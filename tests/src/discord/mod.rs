//! A fake Discord for end-to-end tests: the v10 REST API checked against Discord's OpenAPI
//! description (`tests/specs/discord-openapi.json`), interactions delivered over the gateway or
//! signed and POSTed to an interactions endpoint, and the state a test observes.

pub mod gateway;
