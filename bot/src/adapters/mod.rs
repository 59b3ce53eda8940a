//! The chat platforms' adapters: each receives its platform's updates, translates them into
//! the service's requests, and turns the replies into the platform's messages. They decide
//! nothing about games and never open the store. `tabula local` (the terminal) is the first
//! adapter; see [`crate::local`].

pub mod telegram;
