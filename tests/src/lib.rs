//! End-to-end tests of Tabula and local fakes of the chat platforms (later issues).
