//! What callers write through the [`Store`] and what it gives back: users and chats, challenges
//! and their invitees, games with their seats, actions and clocks, settings, wallets, the ledger,
//! vacations and outbox rows.

use tabula_core::{AnyGame, GameId};

use super::{
    AccountId, AccountKind, ChallengeNo, ChallengeStatus, ChatId, CommunityId, DAY_MILLIS, GameNo,
    GameStatus, LedgerKind, OutboxId, OutboxKind, Platform, StakedGames, StoreError, Timestamp,
    UserId,
};

/// A message for [`Store::enqueue_outbox`].
#[derive(Debug, Clone)]
pub struct NewOutbox<'a> {
    /// The platform of the chat.
    pub platform: Platform,
    /// The chat it goes to.
    pub chat: ChatId,
    /// The game it concerns, if any.
    pub game: Option<GameNo>,
    /// What it is.
    pub kind: OutboxKind,
    /// What to say, as JSON the caller writes and its renderer reads; the store keeps it as is.
    pub payload: &'a str,
    /// When it is written; it may be sent from then on.
    pub now: Timestamp,
    /// The process that delivers it itself (the owner of a lease) and until when, or `None`:
    /// any dispatcher may claim it now. A holder that dies loses it when the lease ends.
    pub held: Option<(&'a str, Timestamp)>,
}

/// A row of the outbox, as claimed by a dispatcher or read by [`Store::outbox_rows`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxRow {
    /// Its id; rows of one chat are sent in id order.
    pub id: OutboxId,
    /// The platform of the chat.
    pub platform: Platform,
    /// The chat it goes to.
    pub chat: ChatId,
    /// The platform's id of the chat.
    pub platform_chat_id: String,
    /// The game it concerns, if any.
    pub game: Option<GameNo>,
    /// What it is.
    pub kind: OutboxKind,
    /// The caller's JSON.
    pub payload: String,
    /// When it was written.
    pub created_at: Timestamp,
    /// When it may next be tried.
    pub next_attempt_at: Timestamp,
    /// How many times it was claimed (this claim included).
    pub attempts: i64,
    /// The dispatcher holding it.
    pub lease_owner: Option<String>,
    /// Until when that dispatcher holds it; past that, another may claim it.
    pub lease_until: Option<Timestamp>,
    /// When it was sent.
    pub sent_at: Option<Timestamp>,
    /// The platform's id of the sent message.
    pub message_id: Option<String>,
    /// When it was given up (it no longer applied, or the chat is gone).
    pub dropped_at: Option<Timestamp>,
    /// Why the last attempt failed, or why it was dropped.
    pub last_error: Option<String>,
}

/// What the moderators of a community chose. A community without saved settings has the
/// [`Default`] ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// The games that may be started, in [`GameId::ALL`] order.
    pub enabled_games: Vec<GameId>,
    /// The stake of a challenge that names none.
    pub default_stake: i64,
    /// The largest stake allowed.
    pub max_stake: i64,
    /// What a new wallet starts with.
    pub starting_grant: i64,
    /// The time per move of a challenge that names none, in milliseconds.
    pub default_move_millis: i64,
    /// The longest time per move allowed, in milliseconds.
    pub max_move_millis: i64,
    /// Whether players are reminded when half their time has passed.
    pub reminders: bool,
    /// Who may start staked games.
    pub staked_games: StakedGames,
    /// Vacation days each person may take per calendar month (UTC).
    pub vacation_days: i64,
    /// The community's language (a locale code of the message catalogue); `None`: English.
    pub language: Option<String>,
    /// How long an open challenge waits for people to accept, in milliseconds.
    pub open_wait_millis: i64,
    /// Whether the bot may tell people privately that it is their move (`/notify private`);
    /// moderators turn it off with `/config pings=off`.
    pub private_pings: bool,
    /// Whether each new game started in a channel gets a thread (Discord) or forum topic
    /// (Telegram) of its own (`/config threads=on`).
    pub threads: bool,
    /// How many rated games of a game a person must have finished in the last
    /// [`Settings::leaderboard_months`] to be on its rating leaderboard.
    pub leaderboard_games: i64,
    /// How many months back those games count.
    pub leaderboard_months: i64,
    /// Whether games have web pages linked from their boards (`/config pages=`; issue 41),
    /// when the bot has a public address.
    pub pages: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            enabled_games: GameId::ALL.to_vec(),
            default_stake: 0,
            max_stake: 1000,
            starting_grant: 1000,
            default_move_millis: 3 * DAY_MILLIS,
            max_move_millis: 14 * DAY_MILLIS,
            reminders: true,
            staked_games: StakedGames::Everyone,
            vacation_days: 5,
            language: None,
            open_wait_millis: DAY_MILLIS,
            private_pings: true,
            threads: false,
            leaderboard_games: 5,
            leaderboard_months: 6,
            pages: true,
        }
    }
}

/// A person's wallet in a community.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wallet {
    /// The account.
    pub account: AccountId,
    /// Whose it is.
    pub user: UserId,
    /// What it holds; below zero after fines it could not pay.
    pub balance: i64,
    /// What it has staked in games still being played.
    pub in_play: i64,
}

/// An account and its balance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// Its id.
    pub id: AccountId,
    /// Its community.
    pub community: CommunityId,
    /// What it is.
    pub kind: AccountKind,
    /// The owner of a wallet.
    pub user: Option<UserId>,
    /// The game of a pot.
    pub game: Option<GameNo>,
    /// What it holds.
    pub balance: i64,
}

/// One row of the ledger: an amount moved from one account to another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerEntry {
    /// Its number, in the order of writing.
    pub id: i64,
    /// The community.
    pub community: CommunityId,
    /// Why.
    pub kind: LedgerKind,
    /// The account the money left.
    pub from: AccountId,
    /// The account the money reached.
    pub to: AccountId,
    /// How much, above zero.
    pub amount: i64,
    /// The game it belongs to.
    pub game: Option<GameNo>,
    /// Who caused it (a moderator, a player), if anyone.
    pub actor: Option<UserId>,
    /// In words.
    pub reason: String,
    /// When.
    pub at: Timestamp,
}

/// How a game's pot is settled when the game ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Payout {
    /// Shared evenly by the winners (a team: both partners); the first gets what does not
    /// divide.
    Winners(Vec<UserId>),
    /// Every stake goes back to whoever paid it (a draw, a game abandoned or aborted).
    Refund,
}

/// A fine paid at once from one player's wallet to another's (Coan Ki's double one). The
/// payer's balance may go below zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fine {
    /// Who pays.
    pub payer: UserId,
    /// Who is paid.
    pub payee: UserId,
    /// How much, above zero.
    pub amount: i64,
}

/// A turn whose clock starts: the person to move and the moment. If the person is on
/// vacation then, the clock starts when the vacation ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnStart {
    /// Who is to move.
    pub user: UserId,
    /// When the turn began.
    pub at: Timestamp,
}

/// The clock of the turn being played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnClock {
    /// Whose clock runs.
    pub user: UserId,
    /// When it started running (after any vacation).
    pub started_at: Timestamp,
    /// When the player is reminded: half the time.
    pub remind_at: Timestamp,
    /// When the time runs out.
    pub deadline_at: Timestamp,
    /// When the reminder was sent.
    pub reminded_at: Option<Timestamp>,
    /// When the bot said the time had run out.
    pub timeout_announced_at: Option<Timestamp>,
}

/// How an active game ends outside of [`Store::append_actions`], with its settlement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ending<'a> {
    /// Finished (with a result) or aborted.
    pub end: GameEnd,
    /// The result, or why it was aborted.
    pub result: &'a str,
    /// What happens to the pot.
    pub payout: Payout,
    /// Who ended it (a player, a moderator).
    pub actor: Option<UserId>,
    /// Only if the game's `seq` is still this (a claim on time is for one turn).
    pub expected_seq: Option<u32>,
    /// Only if the game's clock ran out at or before this moment (a claim on time).
    pub deadline_passed: Option<Timestamp>,
    /// The moment its ratings are worked out at, by the caller's clock (see
    /// [`Append::rated_at`]); `None`: the store's.
    pub rated_at: Option<Timestamp>,
}

impl<'a> Ending<'a> {
    /// A win by `winners` outside of play (a resignation, a claim on time): they take the pot.
    pub fn win(result: &'a str, winners: Vec<UserId>, actor: UserId) -> Ending<'a> {
        Ending {
            end: GameEnd::Finished,
            result,
            payout: Payout::Winners(winners),
            actor: Some(actor),
            expected_seq: None,
            deadline_passed: None,
            rated_at: None,
        }
    }

    /// A stop without a result: the stakes go back.
    pub fn abort(reason: &'a str, actor: UserId) -> Ending<'a> {
        Ending {
            end: GameEnd::Aborted,
            result: reason,
            payout: Payout::Refund,
            actor: Some(actor),
            expected_seq: None,
            deadline_passed: None,
            rated_at: None,
        }
    }
}

/// A vacation: while it runs, the person's clocks stand still.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Vacation {
    /// When it starts (now, or the end of the vacation already running).
    pub starts_at: Timestamp,
    /// When it ends.
    pub ends_at: Timestamp,
    /// How many days.
    pub days: i64,
}

/// Vacation days asked for by [`Store::take_vacation`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewVacation {
    /// The community.
    pub community: CommunityId,
    /// Who.
    pub user: UserId,
    /// How many days.
    pub days: i64,
    /// When they are asked for.
    pub now: Timestamp,
    /// The calendar month whose days are counted: its first moment and the next month's.
    pub month: (Timestamp, Timestamp),
    /// Vacation days allowed per month.
    pub quota: i64,
}

/// What the scheduler looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Due {
    /// Half the time of a turn has passed: remind the player once.
    Reminder,
    /// The time of a turn has run out: say so once.
    Timeout,
    /// A tenth of the time of a turn is left, and its player asked for a last call
    /// (`/notify lastcall on`): call them once.
    LastCall,
}

/// How a pending challenge is settled by a person (expiry is [`Store::expire_challenges`];
/// acceptance that starts a game is [`NewGame::accepting`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settlement {
    /// Taken, without starting a game in the same transaction.
    Accept,
    /// Refused by an invited user.
    Decline,
    /// Withdrawn by the challenger.
    Cancel,
}

impl Settlement {
    pub(super) fn status(self) -> ChallengeStatus {
        match self {
            Settlement::Accept => ChallengeStatus::Accepted,
            Settlement::Decline => ChallengeStatus::Declined,
            Settlement::Cancel => ChallengeStatus::Cancelled,
        }
    }
}

/// How an active game ends outside of [`Store::append_actions`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameEnd {
    /// It has a result (a resignation, an agreed result).
    Finished,
    /// It stops without one.
    Aborted,
}

impl GameEnd {
    pub(super) fn status(self) -> GameStatus {
        match self {
            GameEnd::Finished => GameStatus::Finished,
            GameEnd::Aborted => GameStatus::Aborted,
        }
    }
}

/// A user of one platform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    /// The store's id.
    pub id: UserId,
    /// The platform.
    pub platform: Platform,
    /// The platform's id of the user.
    pub platform_user_id: String,
    /// The name last seen (updated on every request).
    pub display_name: String,
    /// When the user was first seen.
    pub created_at: Timestamp,
    /// When the user was last seen, to within [`SEEN_REFRESH_MILLIS`], or renamed.
    pub updated_at: Timestamp,
    /// The platform's username, without `@`, where the platform has one and it was given
    /// ([`Store::upsert_user_with_username`]).
    pub username: Option<String>,
}

/// A chat (channel, group, conversation) of one platform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chat {
    /// The store's id.
    pub id: ChatId,
    /// The platform.
    pub platform: Platform,
    /// The platform's id of the chat.
    pub platform_chat_id: String,
    /// The title last seen.
    pub title: String,
    /// When the chat was first seen.
    pub created_at: Timestamp,
    /// When the chat was last seen, to within [`SEEN_REFRESH_MILLIS`], or renamed.
    pub updated_at: Timestamp,
    /// The community it belongs to.
    pub community: CommunityId,
    /// The platform's id of the community (the chat's own id when it stands alone).
    pub platform_community_id: String,
    /// The community's name.
    pub community_title: String,
    /// Since when the platform says the bot cannot write there (removed, blocked): the outbox
    /// holds the chat's messages until someone writes in it again ([`Store::upsert_chat`]).
    pub inactive_at: Option<Timestamp>,
}

/// What [`Store::move_chat`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MovedChat {
    /// The chats now under the new id (the chat and its topics), in the order of the old ones.
    pub chats: Vec<ChatId>,
    /// How many of them were already known under the new id and absorbed an old one.
    pub merged_chats: usize,
    /// The community now under the new id, if one was known under the old id.
    pub community: Option<CommunityId>,
    /// Whether that community was already known under the new id and absorbed the old one.
    pub merged_community: bool,
}

/// A challenge to be written by [`Store::create_challenge`].
#[derive(Debug, Clone)]
pub struct NewChallenge<'a> {
    /// The chat it is posted in.
    pub chat: ChatId,
    /// The game to play.
    pub game: GameId,
    /// The game's options, `key=value` separated by spaces.
    pub options: &'a str,
    /// Who challenges.
    pub challenger: UserId,
    /// Who is invited, in order; empty for an open challenge anyone in the chat may take.
    pub invited: &'a [UserId],
    /// When it expires.
    pub expires_at: Timestamp,
    /// What each person stakes (0: a friendly game).
    pub stake: i64,
    /// The time per move, in milliseconds.
    pub move_millis: i64,
    /// The computer's level when the computer takes the seats nobody takes (Pachisi).
    pub computer: Option<u8>,
    /// The secret seed of a game with chance (64 hex digits), whose commitment the challenge
    /// shows ([`crate::export`]); `None`: its rolls are drawn, not derived.
    pub dice_seed: Option<String>,
    /// Whether its game is rated (`rated=no`: a casual game). A game with the computer is
    /// never rated, whatever this says.
    pub rated: bool,
}

/// A stored challenge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    /// Its number.
    pub id: ChallengeNo,
    /// The chat it was posted in.
    pub chat: ChatId,
    /// The game to play.
    pub game: GameId,
    /// The game's options, `key=value` separated by spaces.
    pub options: String,
    /// Who challenges.
    pub challenger: UserId,
    /// The invitees known as users, in order (an invitee known only by a username is not
    /// here until [`Store::bind_invitee_username`] binds it); see [`Challenge::invitees`].
    pub invited: Vec<UserId>,
    /// Every invitee, in order, with when each accepted; empty for an open challenge.
    pub invitees: Vec<ChallengeInvitee>,
    /// Who joined an open challenge, in the order they joined ([`Store::join_open_challenge`]);
    /// always empty for a challenge with invitees.
    pub joined: Vec<UserId>,
    /// Where it stands.
    pub status: ChallengeStatus,
    /// When it was made.
    pub created_at: Timestamp,
    /// When it expires.
    pub expires_at: Timestamp,
    /// Who accepted, declined or cancelled it.
    pub settled_by: Option<UserId>,
    /// When it left `Pending`.
    pub settled_at: Option<Timestamp>,
    /// The game started from it.
    pub started_game: Option<GameNo>,
    /// What each person stakes (0: a friendly game).
    pub stake: i64,
    /// The time per move, in milliseconds.
    pub move_millis: i64,
    /// The computer's level when the computer takes the seats nobody takes (Pachisi).
    pub computer: Option<u8>,
    /// The secret seed of a game with chance (64 hex digits); see [`NewChallenge::dice_seed`].
    pub dice_seed: Option<String>,
    /// Whether its game is rated; see [`NewChallenge::rated`].
    pub rated: bool,
}

impl Challenge {
    /// Whether anyone in the chat may accept it.
    pub fn is_open(&self) -> bool {
        self.invitees.is_empty()
    }

    /// The usernames of the invitees not yet bound to a user, in order.
    pub fn unbound_usernames(&self) -> Vec<&str> {
        self.invitees
            .iter()
            .filter_map(|invitee| match &invitee.invitee {
                Invitee::Username(name) => Some(name.as_str()),
                Invitee::User(_) => None,
            })
            .collect()
    }
}

/// Who a challenge invites: a known user, or a `@username` typed by the challenger for whom no
/// user is known yet (the first user of that name to claim it takes the seat, see
/// [`Store::bind_invitee_username`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Invitee {
    /// A known user.
    User(UserId),
    /// A platform username, without `@`; compared without regard to (ASCII) case.
    Username(String),
}

/// One invitee of a stored challenge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeInvitee {
    /// Who.
    pub invitee: Invitee,
    /// When they accepted; `None`: not yet (always `None` for a username not yet bound).
    pub accepted_at: Option<Timestamp>,
}

/// What [`Store::accept_and_create_game`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Accepted {
    /// The acceptance is recorded; others have still to accept, so no game was created.
    Waiting(Invitation),
    /// The acceptance (if the challenge had invitees) and the game were written in one
    /// transaction: the game has started.
    Started(GameRecord),
}

/// Accepting a challenge in the same transaction that creates its game.
#[derive(Debug, Clone, Copy)]
pub struct Acceptance {
    /// The challenge, which must still be pending and not expired.
    pub challenge: ChallengeNo,
    /// Who accepts.
    pub by: UserId,
    /// The time against which expiry is checked.
    pub now: Timestamp,
    /// The computer's user, when it holds the seats nobody took (Pachisi): its seats are not
    /// among the challenge's players.
    pub computer: Option<UserId>,
}

/// What [`Store::join_open_challenge`] recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Joined {
    /// The challenge, still pending, with who has joined it.
    pub challenge: Challenge,
    /// Whether this call recorded the join (false: the user had joined before).
    pub newly: bool,
}

/// What [`Store::accept_invitation`] recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invitation {
    /// The challenge, still pending.
    pub challenge: Challenge,
    /// Whether this call recorded the acceptance (false: the user had accepted before).
    pub newly: bool,
    /// The invitees known as users who have not accepted yet, in order; empty (and
    /// [`Invitation::waiting_usernames`] empty): the game may start.
    pub waiting: Vec<UserId>,
    /// The invitees known only by a username (never bound, so never accepted), in order.
    pub waiting_usernames: Vec<String>,
}

impl Invitation {
    /// Whether nobody is left to accept.
    pub fn complete(&self) -> bool {
        self.waiting.is_empty() && self.waiting_usernames.is_empty()
    }
}

/// A game to be written by [`Store::create_game`].
#[derive(Debug, Clone)]
pub struct NewGame<'a> {
    /// The chat it is played in.
    pub chat: ChatId,
    /// The game.
    pub game: GameId,
    /// The game's options, `key=value` separated by spaces.
    pub options: &'a str,
    /// A start position other than the game's initial one.
    pub start_position: Option<&'a str>,
    /// Who holds each seat, by seat index. A user may hold several seats.
    pub seats: &'a [UserId],
    /// The challenge it starts from, accepted atomically with the creation.
    pub accepting: Option<Acceptance>,
    /// The community it belongs to (its wallets and settings).
    pub community: CommunityId,
    /// What each person seated stakes, moved from their wallets into the game's pot in the
    /// same transaction (0: a friendly game).
    pub stake: i64,
    /// The time per move, in milliseconds.
    pub move_millis: i64,
    /// The first turn, when someone is to move at once.
    pub turn: Option<TurnStart>,
    /// Its committed dice, for a game with chance.
    pub dice: Option<GameDice>,
}

/// The committed dice of a game with chance ([`crate::export`]): every roll is derived from
/// the seed and the salt `<game number>:<nonce>` (`none` without a nonce).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameDice {
    /// The secret seed, 64 hex digits; told when the game ends.
    pub seed: String,
    /// The platform's id of the action that started the game, when the bot cannot predict it
    /// (a Telegram callback query id, a Discord interaction id).
    pub nonce: Option<String>,
}

impl GameDice {
    /// The salt of game `game`'s rolls.
    pub fn salt(&self, game: GameNo) -> String {
        format!("{}:{}", game, self.nonce.as_deref().unwrap_or("none"))
    }
}

/// A seat of a game and the user holding it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatHolder {
    /// The seat index (the order of [`GameId::seats`]).
    pub seat: u8,
    /// Who holds it: a person, or the computer (a user of [`Platform::Computer`]).
    pub user: User,
}

/// A position saved beside the log, so that long games need not be replayed from the start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// The position after action `seq`, in the game's canonical position notation.
    pub position: String,
    /// How many actions the position includes.
    pub seq: u32,
}

/// A stored game without its actions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// Its number.
    pub id: GameNo,
    /// The chat it is played in.
    pub chat: ChatId,
    /// The challenge it started from.
    pub challenge: Option<ChallengeNo>,
    /// The game.
    pub game: GameId,
    /// The game's options, `key=value` separated by spaces.
    pub options: String,
    /// A start position other than the game's initial one.
    pub start_position: Option<String>,
    /// Where it stands.
    pub status: GameStatus,
    /// The result, once finished (or why it was aborted).
    pub result: Option<String>,
    /// The number of actions in its log.
    pub seq: u32,
    /// The latest snapshot, if one was saved.
    pub snapshot: Option<Snapshot>,
    /// The seats, by seat index.
    pub seats: Vec<SeatHolder>,
    /// When it was created.
    pub created_at: Timestamp,
    /// When it last changed.
    pub updated_at: Timestamp,
    /// The community it belongs to.
    pub community: CommunityId,
    /// What each person staked (0: a friendly game).
    pub stake: i64,
    /// The time per move, in milliseconds.
    pub move_millis: i64,
    /// The clock of the turn being played, if one runs.
    pub clock: Option<TurnClock>,
    /// When its pot was settled (paid out or refunded), once it ended.
    pub settled_at: Option<Timestamp>,
    /// Its committed dice: `None` for a game without chance, or one started before committed
    /// dice (its rolls were drawn and cannot be checked).
    pub dice: Option<GameDice>,
    /// Whether it is to be rated: its challenge's choice (`rated=no`: casual). Games with the
    /// computer, aborted games and games that end before each side moved are not rated
    /// whatever this says.
    pub rated: bool,
}

impl GameRecord {
    /// The options as a list of `key=value` items, as [`AnyGame::start`] takes them.
    pub fn option_list(&self) -> Vec<&str> {
        self.options.split_whitespace().collect()
    }

    /// Whether `user` holds any seat.
    pub fn is_seated(&self, user: UserId) -> bool {
        self.seats.iter().any(|holder| holder.user.id == user)
    }
}

/// One entry of a game's action log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionRecord {
    /// Its position in the log, from 1.
    pub seq: u32,
    /// The action in canonical notation.
    pub action: String,
    /// Who played it; `None` for actions of the service (rolls).
    pub actor: Option<UserId>,
    /// When it was stored.
    pub at: Timestamp,
}

/// Which actions [`Store::load_game`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum History {
    /// Every action from the first.
    Full,
    /// The actions after the latest snapshot (every action when there is none).
    SinceSnapshot,
}

/// A game with (part of) its action log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedGame {
    /// The game.
    pub record: GameRecord,
    /// The snapshot the actions continue from; `None` when they start at the beginning.
    pub from_snapshot: Option<Snapshot>,
    /// The actions in order: all of them, or those after `from_snapshot`.
    pub actions: Vec<ActionRecord>,
}

impl LoadedGame {
    /// Rebuilds the current position: the start (or snapshot) position, then the actions.
    ///
    /// # Errors
    /// [`StoreError::Corrupt`] when the stored options, position or actions do not replay.
    pub fn replay(&self) -> Result<AnyGame, StoreError> {
        let record = &self.record;
        let position = match &self.from_snapshot {
            Some(snapshot) => Some(snapshot.position.as_str()),
            None => record.start_position.as_deref(),
        };
        let mut state = AnyGame::start(record.game, &record.option_list(), position)
            .map_err(|error| StoreError::Corrupt(format!("game {}: {error}", record.id)))?;
        for action in &self.actions {
            state.apply_text(&action.action).map_err(|error| {
                StoreError::Corrupt(format!(
                    "game {} action {} {:?}: {error}",
                    record.id, action.seq, action.action
                ))
            })?;
        }
        Ok(state)
    }
}

/// The platform's identity of one incoming request (an update id, an interaction id), so that
/// a re-delivered request is applied once.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RequestKey {
    /// The platform that delivered it.
    pub platform: Platform,
    /// Its id, unique per platform.
    pub key: String,
}

/// One action to append.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewAction {
    /// The action in canonical notation.
    pub action: String,
    /// Who played it; `None` for actions of the service (rolls).
    pub actor: Option<UserId>,
}

/// What [`Store::append_actions`] writes, all or nothing.
#[derive(Debug, Clone, Default)]
pub struct Append<'a> {
    /// The game's `seq` the caller replayed; the append is refused if it has changed.
    pub expected_seq: u32,
    /// The actions, numbered `expected_seq + 1` onwards.
    pub actions: &'a [NewAction],
    /// The request that produced them; refused as [`Conflict::Duplicate`] if seen before.
    pub request: Option<&'a RequestKey>,
    /// The result, when these actions end the game (it becomes `Finished`).
    pub finish: Option<&'a str>,
    /// The position after the last action, to be kept as the game's snapshot.
    pub snapshot: Option<&'a str>,
    /// The turn that starts after these actions; `None` stops the clock.
    pub turn: Option<TurnStart>,
    /// Fines paid with these actions.
    pub fines: &'a [Fine],
    /// With [`Append::finish`]: what happens to the pot.
    pub payout: Option<&'a Payout>,
    /// With [`Append::finish`]: the moment its ratings are worked out at (the deviations
    /// grown with the time away until then), by the caller's clock; `None`: the store's.
    pub rated_at: Option<Timestamp>,
}

/// What [`Store::append_actions`] wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Appended {
    /// The game's new `seq`.
    pub seq: u32,
    /// The clock of the turn that started ([`Append::turn`]), as stored (a vacation may
    /// start it later); `None` when none runs.
    pub clock: Option<TurnClock>,
    /// The outbox row written with the change ([`Announce`]), if any.
    pub announced: Option<OutboxId>,
    /// When it was stored (the game's `updated_at`).
    pub at: Timestamp,
}

/// A moderator's grant or take ([`Store::adjust_wallet`]).
#[derive(Debug, Clone, Copy)]
pub struct Adjustment<'a> {
    /// The community whose coins they are.
    pub community: CommunityId,
    /// Whose wallet.
    pub user: UserId,
    /// Above zero a grant from the bank, below zero a take to it.
    pub amount: i64,
    /// The moderator.
    pub actor: UserId,
    /// Why, as the ledger keeps it.
    pub reason: &'a str,
}

/// The announcement of a change to a game, written to the outbox in the change's own
/// transaction (kind `board`, for the game's chat), so that the change reaches the chat even
/// if the process dies right after the commit: the row is delivered by the dispatcher, or by
/// the process that made the change, which holds it for a while ([`NewOutbox::held`]) and
/// marks it sent when it posts the board itself ([`crate::store::PostedBoard::announcement`]).
/// An older board of the game still waiting is superseded.
#[derive(Debug, Clone, Copy)]
pub struct Announce<'a> {
    /// What to announce, as JSON its renderer reads.
    pub payload: &'a str,
    /// Who posts it itself, and until when nobody else may ([`NewOutbox::held`]).
    pub held: Option<(&'a str, Timestamp)>,
}
