//! Rows shared by both backends: the column lists of `sql` decode into these, and the helpers
//! that turn them into records or say why an update matched no row.

use tabula_core::GameId;

use super::{
    AccountId, ActionRecord, Challenge, ChallengeInvitee, ChallengeNo, ChallengeStatus, Chat,
    ChatId, CommunityId, Conflict, Ending, GameDice, GameNo, GameRecord, GameStatus, Invitee,
    LedgerEntry, LedgerKind, OutboxId, OutboxKind, OutboxRow, Platform, SeatHolder, Snapshot,
    StoreError, Timestamp, TurnClock, User, UserId,
};

#[derive(Debug, sqlx::FromRow)]
pub(super) struct UserRow {
    pub(super) id: i64,
    pub(super) platform: String,
    pub(super) platform_user_id: String,
    pub(super) display_name: String,
    pub(super) created_at: i64,
    pub(super) updated_at: i64,
    pub(super) username: Option<String>,
}

impl TryFrom<UserRow> for User {
    type Error = StoreError;
    fn try_from(row: UserRow) -> Result<User, StoreError> {
        Ok(User {
            id: UserId(row.id),
            platform: Platform::parse(&row.platform)?,
            platform_user_id: row.platform_user_id,
            display_name: row.display_name,
            created_at: Timestamp(row.created_at),
            updated_at: Timestamp(row.updated_at),
            username: row.username,
        })
    }
}

#[derive(Debug, sqlx::FromRow)]
pub(super) struct ChatRow {
    pub(super) id: i64,
    pub(super) platform: String,
    pub(super) platform_chat_id: String,
    pub(super) title: String,
    pub(super) created_at: i64,
    pub(super) updated_at: i64,
    pub(super) community_id: i64,
    pub(super) platform_community_id: String,
    pub(super) community_title: String,
    pub(super) inactive_at: Option<i64>,
}

impl TryFrom<ChatRow> for Chat {
    type Error = StoreError;
    fn try_from(row: ChatRow) -> Result<Chat, StoreError> {
        Ok(Chat {
            id: ChatId(row.id),
            platform: Platform::parse(&row.platform)?,
            platform_chat_id: row.platform_chat_id,
            title: row.title,
            created_at: Timestamp(row.created_at),
            updated_at: Timestamp(row.updated_at),
            community: CommunityId(row.community_id),
            platform_community_id: row.platform_community_id,
            community_title: row.community_title,
            inactive_at: row.inactive_at.map(Timestamp),
        })
    }
}

#[derive(Debug, sqlx::FromRow)]
pub(super) struct ChallengeRow {
    pub(super) id: i64,
    pub(super) chat_id: i64,
    pub(super) game: String,
    pub(super) options: String,
    pub(super) challenger_id: i64,
    pub(super) status: String,
    pub(super) created_at: i64,
    pub(super) expires_at: i64,
    pub(super) settled_by: Option<i64>,
    pub(super) settled_at: Option<i64>,
    pub(super) game_id: Option<i64>,
    pub(super) stake: i64,
    pub(super) move_millis: i64,
    pub(super) computer_level: Option<i64>,
    pub(super) dice_seed: Option<String>,
    pub(super) rated: i64,
}

impl ChallengeRow {
    pub(super) fn into_challenge(
        self,
        invitees: Vec<InviteeRow>,
        joined: Vec<UserId>,
    ) -> Result<Challenge, StoreError> {
        let invitees = invitees
            .into_iter()
            .map(InviteeRow::into_invitee)
            .collect::<Result<Vec<_>, _>>()?;
        let invited = invitees
            .iter()
            .filter_map(|invitee| match invitee.invitee {
                Invitee::User(user) => Some(user),
                Invitee::Username(_) => None,
            })
            .collect();
        Ok(Challenge {
            id: ChallengeNo(self.id),
            chat: ChatId(self.chat_id),
            game: parse_game_id(&self.game)?,
            options: self.options,
            challenger: UserId(self.challenger_id),
            invited,
            invitees,
            joined,
            status: ChallengeStatus::parse(&self.status)?,
            created_at: Timestamp(self.created_at),
            expires_at: Timestamp(self.expires_at),
            settled_by: self.settled_by.map(UserId),
            settled_at: self.settled_at.map(Timestamp),
            started_game: self.game_id.map(GameNo),
            stake: self.stake,
            move_millis: self.move_millis,
            computer: self
                .computer_level
                .map(|level| {
                    u8::try_from(level).map_err(|_| {
                        StoreError::Corrupt(format!(
                            "challenge {}: computer level {level}",
                            self.id
                        ))
                    })
                })
                .transpose()?,
            dice_seed: self.dice_seed,
            rated: self.rated != 0,
        })
    }
}

/// One invitee of a challenge (`challenge_id` for lists over several challenges).
#[derive(Debug, sqlx::FromRow)]
pub(super) struct InviteeRow {
    pub(super) challenge_id: i64,
    pub(super) user_id: Option<i64>,
    pub(super) username: Option<String>,
    pub(super) accepted_at: Option<i64>,
}

impl InviteeRow {
    pub(super) fn into_invitee(self) -> Result<ChallengeInvitee, StoreError> {
        let invitee = match (self.user_id, self.username) {
            (Some(user), _) => Invitee::User(UserId(user)),
            (None, Some(name)) => Invitee::Username(name),
            (None, None) => {
                return Err(StoreError::Corrupt(format!(
                    "challenge {} has an invitee without user or username",
                    self.challenge_id
                )));
            }
        };
        Ok(ChallengeInvitee {
            invitee,
            accepted_at: self.accepted_at.map(Timestamp),
        })
    }
}

#[derive(Debug, sqlx::FromRow)]
pub(super) struct GameRow {
    pub(super) id: i64,
    pub(super) chat_id: i64,
    pub(super) challenge_id: Option<i64>,
    pub(super) game: String,
    pub(super) options: String,
    pub(super) start_position: Option<String>,
    pub(super) status: String,
    pub(super) result: Option<String>,
    pub(super) seq: i64,
    pub(super) snapshot_position: Option<String>,
    pub(super) snapshot_seq: Option<i64>,
    pub(super) created_at: i64,
    pub(super) updated_at: i64,
    pub(super) community_id: Option<i64>,
    pub(super) stake: i64,
    pub(super) move_millis: i64,
    pub(super) turn_user_id: Option<i64>,
    pub(super) turn_started_at: Option<i64>,
    pub(super) remind_at: Option<i64>,
    pub(super) deadline_at: Option<i64>,
    pub(super) reminded_at: Option<i64>,
    pub(super) timeout_announced_at: Option<i64>,
    pub(super) settled_at: Option<i64>,
    pub(super) dice_seed: Option<String>,
    pub(super) dice_nonce: Option<String>,
    pub(super) rated: i64,
}

impl GameRow {
    pub(super) fn into_record(self, seats: Vec<SeatHolder>) -> Result<GameRecord, StoreError> {
        let snapshot = match (self.snapshot_position, self.snapshot_seq) {
            (Some(position), Some(seq)) => Some(Snapshot {
                position,
                seq: to_seq(seq)?,
            }),
            _ => None,
        };
        Ok(GameRecord {
            id: GameNo(self.id),
            chat: ChatId(self.chat_id),
            challenge: self.challenge_id.map(ChallengeNo),
            game: parse_game_id(&self.game)?,
            options: self.options,
            start_position: self.start_position,
            status: GameStatus::parse(&self.status)?,
            result: self.result,
            seq: to_seq(self.seq)?,
            snapshot,
            seats,
            created_at: Timestamp(self.created_at),
            updated_at: Timestamp(self.updated_at),
            community: CommunityId(self.community_id.ok_or_else(|| {
                StoreError::Corrupt(format!("game {} has no community", self.id))
            })?),
            stake: self.stake,
            move_millis: self.move_millis,
            clock: match (
                self.turn_user_id,
                self.turn_started_at,
                self.remind_at,
                self.deadline_at,
            ) {
                (Some(user), Some(started_at), Some(remind_at), Some(deadline_at)) => {
                    Some(TurnClock {
                        user: UserId(user),
                        started_at: Timestamp(started_at),
                        remind_at: Timestamp(remind_at),
                        deadline_at: Timestamp(deadline_at),
                        reminded_at: self.reminded_at.map(Timestamp),
                        timeout_announced_at: self.timeout_announced_at.map(Timestamp),
                    })
                }
                _ => None,
            },
            settled_at: self.settled_at.map(Timestamp),
            dice: self.dice_seed.map(|seed| GameDice {
                seed,
                nonce: self.dice_nonce,
            }),
            rated: self.rated != 0,
        })
    }
}

#[derive(Debug, sqlx::FromRow)]
pub(super) struct SeatRow {
    pub(super) game_id: i64,
    pub(super) seat: i64,
    #[sqlx(flatten)]
    pub(super) user: UserRow,
}

impl SeatRow {
    pub(super) fn into_holder(self) -> Result<SeatHolder, StoreError> {
        Ok(SeatHolder {
            seat: u8::try_from(self.seat)
                .map_err(|_| StoreError::Corrupt(format!("seat index {}", self.seat)))?,
            user: User::try_from(self.user)?,
        })
    }
}

#[derive(Debug, sqlx::FromRow)]
pub(super) struct OutboxDbRow {
    pub(super) id: i64,
    pub(super) platform: String,
    pub(super) chat_id: i64,
    pub(super) platform_chat_id: String,
    pub(super) game_id: Option<i64>,
    pub(super) kind: String,
    pub(super) payload: String,
    pub(super) created_at: i64,
    pub(super) next_attempt_at: i64,
    pub(super) attempts: i64,
    pub(super) lease_owner: Option<String>,
    pub(super) lease_until: Option<i64>,
    pub(super) sent_at: Option<i64>,
    pub(super) message_id: Option<String>,
    pub(super) dropped_at: Option<i64>,
    pub(super) last_error: Option<String>,
}

impl TryFrom<OutboxDbRow> for OutboxRow {
    type Error = StoreError;
    fn try_from(row: OutboxDbRow) -> Result<OutboxRow, StoreError> {
        Ok(OutboxRow {
            id: OutboxId(row.id),
            platform: Platform::parse(&row.platform)?,
            chat: ChatId(row.chat_id),
            platform_chat_id: row.platform_chat_id,
            game: row.game_id.map(GameNo),
            kind: OutboxKind::parse(&row.kind)?,
            payload: row.payload,
            created_at: Timestamp(row.created_at),
            next_attempt_at: Timestamp(row.next_attempt_at),
            attempts: row.attempts,
            lease_owner: row.lease_owner,
            lease_until: row.lease_until.map(Timestamp),
            sent_at: row.sent_at.map(Timestamp),
            message_id: row.message_id,
            dropped_at: row.dropped_at.map(Timestamp),
            last_error: row.last_error,
        })
    }
}

#[derive(Debug, sqlx::FromRow)]
pub(super) struct LeaderRow {
    #[sqlx(flatten)]
    pub(super) user: UserRow,
    pub(super) balance: i64,
}

#[derive(Debug, sqlx::FromRow)]
pub(super) struct LedgerRow {
    pub(super) id: i64,
    pub(super) community_id: i64,
    pub(super) kind: String,
    pub(super) from_account: i64,
    pub(super) to_account: i64,
    pub(super) amount: i64,
    pub(super) game_id: Option<i64>,
    pub(super) actor_id: Option<i64>,
    pub(super) reason: String,
    pub(super) created_at: i64,
}

impl TryFrom<LedgerRow> for LedgerEntry {
    type Error = StoreError;
    fn try_from(row: LedgerRow) -> Result<LedgerEntry, StoreError> {
        Ok(LedgerEntry {
            id: row.id,
            community: CommunityId(row.community_id),
            kind: LedgerKind::parse(&row.kind)?,
            from: AccountId(row.from_account),
            to: AccountId(row.to_account),
            amount: row.amount,
            game: row.game_id.map(GameNo),
            actor: row.actor_id.map(UserId),
            reason: row.reason,
            at: Timestamp(row.created_at),
        })
    }
}

#[derive(Debug, sqlx::FromRow)]
pub(super) struct ActionRow {
    pub(super) seq: i64,
    pub(super) action: String,
    pub(super) actor_id: Option<i64>,
    pub(super) created_at: i64,
}

impl TryFrom<ActionRow> for ActionRecord {
    type Error = StoreError;
    fn try_from(row: ActionRow) -> Result<ActionRecord, StoreError> {
        Ok(ActionRecord {
            seq: to_seq(row.seq)?,
            action: row.action,
            actor: row.actor_id.map(UserId),
            at: Timestamp(row.created_at),
        })
    }
}

/// The clock columns a game update returns.
#[derive(Debug, sqlx::FromRow)]
pub(super) struct ClockRow {
    pub(super) turn_user_id: Option<i64>,
    pub(super) turn_started_at: Option<i64>,
    pub(super) remind_at: Option<i64>,
    pub(super) deadline_at: Option<i64>,
}

impl ClockRow {
    pub(super) fn into_clock(self) -> Option<TurnClock> {
        Some(TurnClock {
            user: UserId(self.turn_user_id?),
            started_at: Timestamp(self.turn_started_at?),
            remind_at: Timestamp(self.remind_at?),
            deadline_at: Timestamp(self.deadline_at?),
            reminded_at: None,
            timeout_announced_at: None,
        })
    }
}

/// The state of a game row that an update did not match, to say why.
#[derive(Debug, sqlx::FromRow)]
pub(super) struct GameStateRow {
    pub(super) status: String,
    pub(super) seq: i64,
}

/// The state of a challenge row that an update did not match, to say why.
#[derive(Debug, sqlx::FromRow)]
pub(super) struct ChallengeStateRow {
    pub(super) status: String,
    pub(super) expires_at: i64,
}

pub(super) fn parse_game_id(text: &str) -> Result<GameId, StoreError> {
    text.parse()
        .map_err(|_| StoreError::Corrupt(format!("unknown game {text:?}")))
}

pub(super) fn to_seq(value: i64) -> Result<u32, StoreError> {
    u32::try_from(value).map_err(|_| StoreError::Corrupt(format!("sequence number {value}")))
}

/// Groups seat rows (ordered by game, then seat) into records of the given game rows.
pub(super) fn assemble_games(
    games: Vec<GameRow>,
    seats: Vec<SeatRow>,
) -> Result<Vec<GameRecord>, StoreError> {
    let mut by_game: std::collections::HashMap<i64, Vec<SeatHolder>> =
        std::collections::HashMap::new();
    for row in seats {
        let game = row.game_id;
        by_game.entry(game).or_default().push(row.into_holder()?);
    }
    games
        .into_iter()
        .map(|row| {
            let seats = by_game.remove(&row.id).unwrap_or_default();
            row.into_record(seats)
        })
        .collect()
}

/// Why a game update matched no row.
pub(super) fn game_refusal(
    game: GameNo,
    state: Option<GameStateRow>,
) -> Result<Conflict, StoreError> {
    let Some(state) = state else {
        return Ok(Conflict::NoSuchGame(game));
    };
    let status = GameStatus::parse(&state.status)?;
    if status == GameStatus::Active {
        Ok(Conflict::StaleSeq {
            current: to_seq(state.seq)?,
        })
    } else {
        Ok(Conflict::GameOver { game, status })
    }
}

/// Why [`Store::end_game`] matched no row.
pub(super) fn end_refusal(
    game: GameNo,
    ending: &Ending<'_>,
    state: Option<GameStateRow>,
) -> Result<Conflict, StoreError> {
    let Some(row) = state else {
        return Ok(Conflict::NoSuchGame(game));
    };
    let status = GameStatus::parse(&row.status)?;
    let seq = to_seq(row.seq)?;
    if status != GameStatus::Active {
        Ok(Conflict::GameOver { game, status })
    } else if ending.expected_seq.is_some_and(|expected| expected != seq) {
        Ok(Conflict::StaleSeq { current: seq })
    } else {
        Ok(Conflict::NotYetDue(game))
    }
}

/// Why a challenge update matched no row.
pub(super) fn challenge_refusal(
    challenge: ChallengeNo,
    state: Option<ChallengeStateRow>,
    now: Timestamp,
) -> Result<Conflict, StoreError> {
    let Some(state) = state else {
        return Ok(Conflict::NoSuchChallenge(challenge));
    };
    let status = ChallengeStatus::parse(&state.status)?;
    if status == ChallengeStatus::Pending && state.expires_at <= now.0 {
        Ok(Conflict::ChallengeExpired(challenge))
    } else {
        Ok(Conflict::ChallengeSettled { challenge, status })
    }
}

/// A username as stored: without a leading `@` and surrounding spaces.
pub(super) fn clean_username(name: &str) -> &str {
    let name = name.trim();
    name.strip_prefix('@').unwrap_or(name)
}

/// The invitees `users` then `more`, without repeats (the same user; the same username in any
/// ASCII case; an empty username), in first-seen order.
pub(super) fn distinct_invitees(users: &[UserId], more: &[Invitee]) -> Vec<Invitee> {
    let mut seen: Vec<Invitee> = Vec::with_capacity(users.len() + more.len());
    let all = users
        .iter()
        .map(|user| Invitee::User(*user))
        .chain(more.iter().cloned());
    for invitee in all {
        let invitee = match invitee {
            Invitee::Username(name) => {
                let name = clean_username(&name);
                if name.is_empty() {
                    continue;
                }
                Invitee::Username(name.to_string())
            }
            user => user,
        };
        let repeat = seen.iter().any(|other| match (other, &invitee) {
            (Invitee::User(a), Invitee::User(b)) => a == b,
            (Invitee::Username(a), Invitee::Username(b)) => a.eq_ignore_ascii_case(b),
            _ => false,
        });
        if !repeat {
            seen.push(invitee);
        }
    }
    seen
}

/// The users without repeats, in first-seen order.
pub(super) fn distinct(users: &[UserId]) -> Vec<UserId> {
    let mut seen = Vec::with_capacity(users.len());
    for user in users {
        if !seen.contains(user) {
            seen.push(*user);
        }
    }
    seen
}

pub(super) fn seq_to_i64(seq: u32) -> i64 {
    i64::from(seq)
}
