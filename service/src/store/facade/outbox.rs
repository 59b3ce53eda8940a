//! The [`Store`]'s operations for the scheduler and the outbox: claiming due reminders and
//! time-outs, expiring challenges, and writing, claiming and settling outbox rows.

use crate::store::*;

impl Store {}
