//! The operations of [`Store`], each a thin call to the backend it holds, in files by
//! concern. Every one of them is run by both backends; see the parent module for how.

#[cfg(doc)]
use crate::store::Store;

mod challenges;
mod games;
mod outbox;
mod people;
