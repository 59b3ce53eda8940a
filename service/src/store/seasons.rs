//! Round-robin seasons (issue 39): a moderator opens one in a chat for a two-player game
//! ([`Store::open_season`]); people join it ([`Store::join_season`]) until it begins
//! ([`Store::begin_season`]: every pair's game created in one transaction with the season
//! marked running); it is over when its games are, or its days have passed, claimed once by
//! the scheduler ([`Store::claim_ended_seasons`]) with its announcement in the same
//! transaction.

use tabula_core::GameId;

use super::executor::{query, query_as, query_scalar};
use super::games::create_game_in;
use super::rows::parse_game_id;
use super::{
    Announce, ChatId, CommunityId, GameNo, NewGame, OutboxId, Store, StoreError, Timestamp, UserId,
    db,
};

/// Where a season stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeasonStatus {
    /// People join it.
    Open,
    /// Its games are played.
    Running,
    /// Over.
    Over,
}

impl SeasonStatus {
    fn parse(text: &str) -> Result<SeasonStatus, StoreError> {
        match text {
            "open" => Ok(SeasonStatus::Open),
            "running" => Ok(SeasonStatus::Running),
            "over" => Ok(SeasonStatus::Over),
            other => Err(StoreError::Corrupt(format!("season status {other}"))),
        }
    }
}

/// The running seasons over at `$1` (every game over, or their days passed), at most `$2`.
const DUE_SEASONS: &str = "\
SELECT s.id FROM seasons s WHERE s.status = 'running' AND (s.ends_at <= $1
   OR NOT EXISTS (SELECT 1 FROM season_games sg JOIN games g ON g.id = sg.game_id
                  WHERE sg.season_id = s.id AND g.status = 'active'))
ORDER BY s.id LIMIT $2";

/// A season.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Season {
    /// Its number.
    pub id: i64,
    /// The chat it is played in.
    pub chat: ChatId,
    /// Its community.
    pub community: CommunityId,
    /// The game.
    pub game: GameId,
    /// How many people it seats.
    pub size: i64,
    /// How many days it runs once begun.
    pub days: i64,
    /// The time per move of its games.
    pub move_millis: i64,
    /// Where it stands.
    pub status: SeasonStatus,
    /// The moderator who opened it.
    pub created_by: UserId,
    /// When it began.
    pub started_at: Option<Timestamp>,
    /// When its days end.
    pub ends_at: Option<Timestamp>,
    /// Who joined, in the order they did.
    pub players: Vec<UserId>,
    /// Its games, once begun.
    pub games: Vec<GameNo>,
}

/// A new season to open.
#[derive(Debug, Clone, Copy)]
pub struct NewSeason {
    /// The chat.
    pub chat: ChatId,
    /// Its community.
    pub community: CommunityId,
    /// The game.
    pub game: GameId,
    /// How many people it seats.
    pub size: i64,
    /// How many days it runs.
    pub days: i64,
    /// The time per move of its games.
    pub move_millis: i64,
    /// The moderator.
    pub by: UserId,
    /// Now.
    pub now: Timestamp,
}

/// Season `$1`.
const SEASON: &str = "SELECT id, chat_id, community_id, game, size, days, move_millis, status, \
     created_by, started_at, ends_at FROM seasons WHERE id = $1";

type SeasonRow = (
    i64,
    i64,
    i64,
    String,
    i64,
    i64,
    i64,
    String,
    i64,
    Option<i64>,
    Option<i64>,
);

impl Store {
    /// Opens a season in `new.chat`, unless one is open or running there: then that one.
    ///
    /// # Errors
    /// A database failure.
    pub async fn open_season(&self, new: &NewSeason) -> Result<(Season, bool), StoreError> {
        const OPERATION: &str = "open_season";
        let mut tx = self.begin_write(OPERATION).await?;
        let existing: Option<i64> = query_scalar(
            "SELECT id FROM seasons WHERE chat_id = $1 AND status <> 'over' ORDER BY id LIMIT 1",
        )
        .bind(new.chat.0)
        .fetch_optional(&mut tx)
        .await
        .map_err(db(OPERATION))?;
        if let Some(id) = existing {
            tx.commit().await.map_err(db(OPERATION))?;
            return Ok((self.existing_season(id).await?, false));
        }
        let id: i64 = query_scalar(
            "INSERT INTO seasons (chat_id, community_id, game, size, days, move_millis, status, \
             created_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, 'open', $7, $8) RETURNING id",
        )
        .bind(new.chat.0)
        .bind(new.community.0)
        .bind(new.game.as_str())
        .bind(new.size)
        .bind(new.days)
        .bind(new.move_millis)
        .bind(new.by.0)
        .bind(new.now.0)
        .fetch_one(&mut tx)
        .await
        .map_err(db(OPERATION))?;
        tx.commit().await.map_err(db(OPERATION))?;
        Ok((self.existing_season(id).await?, true))
    }

    /// The newest season of `chat` (open, running, or the last one over).
    ///
    /// # Errors
    /// A database failure.
    pub async fn season_of_chat(&self, chat: ChatId) -> Result<Option<Season>, StoreError> {
        let id: Option<i64> = query_scalar(
            "SELECT id FROM seasons WHERE chat_id = $1 \
             ORDER BY CASE WHEN status = 'over' THEN 1 ELSE 0 END, id DESC LIMIT 1",
        )
        .bind(chat.0)
        .fetch_optional(self)
        .await
        .map_err(db("season_of_chat"))?;
        match id {
            Some(id) => Ok(Some(self.existing_season(id).await?)),
            None => Ok(None),
        }
    }

    /// Season `id`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn season(&self, id: i64) -> Result<Option<Season>, StoreError> {
        const OPERATION: &str = "season";
        let mut tx = self.begin_read(OPERATION).await?;
        let row: Option<SeasonRow> = query_as(SEASON)
            .bind(id)
            .fetch_optional(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        let Some(row) = row else {
            return Ok(None);
        };
        let players: Vec<i64> = query_scalar(
            "SELECT user_id FROM season_players WHERE season_id = $1 ORDER BY joined_at, user_id",
        )
        .bind(id)
        .fetch_all(&mut tx)
        .await
        .map_err(db(OPERATION))?;
        let games: Vec<i64> =
            query_scalar("SELECT game_id FROM season_games WHERE season_id = $1 ORDER BY game_id")
                .bind(id)
                .fetch_all(&mut tx)
                .await
                .map_err(db(OPERATION))?;
        tx.commit().await.map_err(db(OPERATION))?;
        let (id, chat, community, game, size, days, move_millis, status, by, started, ends) = row;
        Ok(Some(Season {
            id,
            chat: ChatId(chat),
            community: CommunityId(community),
            game: parse_game_id(&game)?,
            size,
            days,
            move_millis,
            status: SeasonStatus::parse(&status)?,
            created_by: UserId(by),
            started_at: started.map(Timestamp),
            ends_at: ends.map(Timestamp),
            players: players.into_iter().map(UserId).collect(),
            games: games.into_iter().map(GameNo).collect(),
        }))
    }

    async fn existing_season(&self, id: i64) -> Result<Season, StoreError> {
        self.season(id)
            .await?
            .ok_or_else(|| StoreError::Corrupt(format!("season {id} vanished")))
    }

    /// `user` joins season `id` if it is open and not full: whether they were added (false:
    /// already in it). The season as it is after.
    ///
    /// # Errors
    /// A database failure; [`StoreError::Corrupt`] for a season that does not exist.
    pub async fn join_season(
        &self,
        id: i64,
        user: UserId,
        now: Timestamp,
    ) -> Result<(Season, bool), StoreError> {
        const OPERATION: &str = "join_season";
        let mut tx = self.begin_write(OPERATION).await?;
        if tx.is_postgres() {
            query("SELECT id FROM seasons WHERE id = $1 FOR UPDATE")
                .bind(id)
                .execute(&mut tx)
                .await
                .map_err(db(OPERATION))?;
        }
        let added = query(
            "INSERT INTO season_players (season_id, user_id, joined_at) \
             SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM seasons s WHERE s.id = $1 \
               AND s.status = 'open' \
               AND (SELECT COUNT(*) FROM season_players p WHERE p.season_id = $1) < s.size) \
             ON CONFLICT (season_id, user_id) DO NOTHING",
        )
        .bind(id)
        .bind(user.0)
        .bind(now.0)
        .execute(&mut tx)
        .await
        .map_err(db(OPERATION))?
        .rows_affected();
        tx.commit().await.map_err(db(OPERATION))?;
        Ok((self.existing_season(id).await?, added > 0))
    }

    /// Begins open season `id`: marks it running until `ends_at` and creates `games` (every
    /// pair's, seats drawn by the caller), recording them as the season's, in one
    /// transaction. `None` when it was no longer open (begun by another press).
    ///
    /// # Errors
    /// A database failure; then nothing is written.
    pub async fn begin_season(
        &self,
        id: i64,
        games: &[NewGame<'_>],
        now: Timestamp,
        ends_at: Timestamp,
        announce: Option<(ChatId, &Announce<'_>)>,
    ) -> Result<Option<(Vec<GameNo>, Option<OutboxId>)>, StoreError> {
        const OPERATION: &str = "begin_season";
        let mut tx = self.begin_write(OPERATION).await?;
        let begun = query(
            "UPDATE seasons SET status = 'running', started_at = $2, ends_at = $3 \
             WHERE id = $1 AND status = 'open'",
        )
        .bind(id)
        .bind(now.0)
        .bind(ends_at.0)
        .execute(&mut tx)
        .await
        .map_err(db(OPERATION))?
        .rows_affected();
        if begun == 0 {
            return Ok(None);
        }
        let mut created = Vec::with_capacity(games.len());
        for new in games {
            let game = create_game_in(&mut tx, new, now, OPERATION).await?;
            query("INSERT INTO season_games (season_id, game_id) VALUES ($1, $2)")
                .bind(id)
                .bind(game.0)
                .execute(&mut tx)
                .await
                .map_err(db(OPERATION))?;
            created.push(game);
        }
        let announced = super::outbox::announce_if_any(&mut tx, announce, now, OPERATION).await?;
        tx.commit().await.map_err(db(OPERATION))?;
        Ok(Some((created, announced)))
    }

    /// Claims, once, the running seasons that are over at `now` (every game over, or their
    /// days passed), at most `limit`, writing each one's announcement (`{"season_over": id}`)
    /// to its chat in the same transaction. Their numbers.
    ///
    /// # Errors
    /// A database failure.
    pub async fn claim_ended_seasons(
        &self,
        now: Timestamp,
        limit: i64,
    ) -> Result<Vec<i64>, StoreError> {
        const OPERATION: &str = "claim_ended_seasons";
        // Most ticks find nothing: looked for without taking the write lock first.
        let due: Vec<i64> = query_scalar(DUE_SEASONS)
            .bind(now.0)
            .bind(limit)
            .fetch_all(self)
            .await
            .map_err(db(OPERATION))?;
        if due.is_empty() {
            return Ok(Vec::new());
        }
        let mut tx = self.begin_write(OPERATION).await?;
        let mut claimed = Vec::with_capacity(due.len());
        for id in due {
            let row: Option<(i64, String)> = query_as(
                "UPDATE seasons SET status = 'over' WHERE id = $1 AND status = 'running' \
                 RETURNING chat_id, (SELECT platform FROM chats WHERE chats.id = seasons.chat_id)",
            )
            .bind(id)
            .fetch_optional(&mut tx)
            .await
            .map_err(db(OPERATION))?;
            if let Some((chat, platform)) = row {
                let payload = serde_json::json!({ "season_over": id }).to_string();
                super::notify::announce_to(
                    &mut tx, &platform, chat, None, &payload, now, OPERATION,
                )
                .await?;
                claimed.push(id);
            }
        }
        tx.commit().await.map_err(db(OPERATION))?;
        Ok(claimed)
    }
}
