//! The crate's basic values, at the bottom of its layers: moments ([`Timestamp`]), row ids, and
//! the closed sets stored as text (platforms, statuses, kinds). The store keeps them in columns;
//! every layer above names them.

use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

/// A stored text that names no value of its closed set (a database written by a newer
/// version, or edited by hand); the store reports it as corrupt.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {set} {text:?}")]
pub struct UnknownValue {
    /// The closed set (`Platform`, `GameStatus`, ...).
    pub set: &'static str,
    /// The text found.
    pub text: String,
}

/// A moment in UTC, as milliseconds since the Unix epoch (the stored form).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(pub i64);

impl Timestamp {
    /// The current time from the system clock.
    pub fn now() -> Timestamp {
        let millis = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_millis());
        Timestamp(i64::try_from(millis).unwrap_or(i64::MAX))
    }

    /// Milliseconds since the Unix epoch.
    pub fn millis(self) -> i64 {
        self.0
    }

    /// This moment plus `millis` milliseconds.
    pub fn plus_millis(self, millis: i64) -> Timestamp {
        Timestamp(self.0.saturating_add(millis))
    }
}

macro_rules! row_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub i64);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

row_id!(
    /// A user known to the store (one per platform account).
    UserId
);
row_id!(
    /// A chat known to the store (one per platform channel or group).
    ChatId
);
row_id!(
    /// A community known to the store: a Discord server, a Telegram group, or a chat that
    /// stands alone. Settings, wallets and vacations belong to a community.
    CommunityId
);
row_id!(
    /// An account of the ledger: a community's bank, a wallet, or a game's pot.
    AccountId
);
row_id!(
    /// The number of a challenge, short enough to show and type.
    ChallengeNo
);
row_id!(
    /// A row of the outbox: one message the bot sends on its own.
    OutboxId
);
row_id!(
    /// The number of a stored game, short enough to show and type (`#12`). Not to be confused
    /// with [`GameId`](tabula_core::GameId), which names the kind of game.
    GameNo
);

/// Defines a closed set of values stored as text.
macro_rules! text_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $text:literal,)* }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vdoc])* $variant,)*
        }

        impl $name {
            /// The stored form.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }

            /// The value of its stored form.
            ///
            /// # Errors
            /// A text that names no value of the set.
            pub fn parse(text: &str) -> Result<$name, UnknownValue> {
                match text {
                    $($text => Ok($name::$variant),)*
                    other => Err(UnknownValue {
                        set: stringify!($name),
                        text: other.to_string(),
                    }),
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

text_enum!(
    /// A chat platform.
    Platform {
        /// Discord.
        Discord = "discord",
        /// Telegram.
        Telegram = "telegram",
        /// The terminal front end, `tabula local`.
        Local = "local",
        /// The computer opponent (a later issue): a user row of this platform, whose id names
        /// its level (`level-2`), holds the computer's seats, so that a seat's holder is a
        /// person or the computer and never a typed name. No chat is of this platform.
        Computer = "computer",
    }
);

impl Platform {
    /// Whether a reply to the person who acted ([`crate::service::Audience::Actor`]) is seen by
    /// them alone: on Discord always (an ephemeral message), on Telegram only outside a group
    /// (where a typed command's answer is a reply everyone sees for a minute).
    pub fn actor_sees_alone(self, group: bool) -> bool {
        match self {
            Platform::Telegram => !group,
            Platform::Discord | Platform::Local | Platform::Computer => true,
        }
    }
}

text_enum!(
    /// Where a challenge stands. It leaves `Pending` once, by a compare-and-set.
    ChallengeStatus {
        /// Waiting for an answer.
        Pending = "pending",
        /// Taken: a game was started from it.
        Accepted = "accepted",
        /// Refused by an invited user.
        Declined = "declined",
        /// Withdrawn by the challenger.
        Cancelled = "cancelled",
        /// Nobody answered in time.
        Expired = "expired",
    }
);

text_enum!(
    /// Where a game stands.
    GameStatus {
        /// Being played.
        Active = "active",
        /// Played to the end (or resigned): see the result.
        Finished = "finished",
        /// Stopped without a result.
        Aborted = "aborted",
    }
);

text_enum!(
    /// What an account is.
    AccountKind {
        /// A community's bank: where grants come from and taken money goes. Its balance is
        /// minus all the money in the community's wallets and pots.
        Bank = "bank",
        /// A person's wallet in a community.
        Wallet = "wallet",
        /// A game's pot: the stakes, until the game is settled.
        Pot = "pot",
    }
);

text_enum!(
    /// Why money moved.
    LedgerKind {
        /// From the bank to a wallet: the starting grant, or a moderator's grant.
        Grant = "grant",
        /// From a wallet into a game's pot.
        Stake = "stake",
        /// From a player's wallet to the opponent's (Coan Ki's double one).
        Fine = "fine",
        /// From a pot to a winner's wallet.
        Payout = "payout",
        /// From a pot back to the wallet that staked.
        Refund = "refund",
        /// From a wallet to the bank: a moderator took money.
        Adjustment = "adjustment",
    }
);

text_enum!(
    /// Who may start staked games in a community.
    StakedGames {
        /// Everyone.
        Everyone = "everyone",
        /// Moderators only.
        Moderators = "moderators",
    }
);

text_enum!(
    /// What an outbox message is. The store does not read payloads; only `Board` rows are
    /// treated apart ([`Store::enqueue_outbox`](crate::store::Store::enqueue_outbox), [`Store::outbox_sent`](crate::store::Store::outbox_sent)).
    OutboxKind {
        /// Half a turn's time has passed (written by [`Store::claim_due_to_outbox`](crate::store::Store::claim_due_to_outbox)).
        Reminder = "reminder",
        /// A turn's time has run out (written by [`Store::claim_due_to_outbox`](crate::store::Store::claim_due_to_outbox)).
        Timeout = "timeout",
        /// A challenge expired (written by [`Store::expire_challenges_to_outbox`](crate::store::Store::expire_challenges_to_outbox)).
        Expired = "expired",
        /// A game's board: a picture with its text and buttons.
        Board = "board",
        /// Text only (also a superseded board, which keeps its payload).
        Text = "text",
        /// A challenge's post, announced with the challenge (its payload names it).
        Challenge = "challenge",
        /// The reply to another request that changed something in public (a moderator's
        /// grant or take), announced with the change; its payload says what to tell.
        Announce = "announce",
    }
);

// The time constants of the crate: every other module takes them from here.

/// A minute in milliseconds.
pub const MINUTE_MILLIS: i64 = 60 * 1000;

/// An hour in milliseconds.
pub const HOUR_MILLIS: i64 = 60 * MINUTE_MILLIS;

/// A day in milliseconds.
pub const DAY_MILLIS: i64 = 24 * HOUR_MILLIS;

/// The shortest time per move that may be asked for or set: one hour.
pub const MIN_MOVE_MILLIS: i64 = HOUR_MILLIS;

/// The longest time per move that may be asked for or set: 365 days (a community may allow
/// less).
pub const MAX_MOVE_MILLIS: i64 = 365 * DAY_MILLIS;

/// How stale a user's or chat's "last seen" may grow before a request writes it again: an
/// hour. A request from a known user or chat under an unchanged name only reads, so that a move
/// costs one write transaction (its own) and not three.
pub const SEEN_REFRESH_MILLIS: i64 = HOUR_MILLIS;
