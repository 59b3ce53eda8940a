//! A chat that changes its platform id: Telegram's group → supergroup migration, where the
//! group's id (and so the id of each of its topics, stored as chats `"<chat id>:<thread id>"`)
//! is replaced by the supergroup's: the statements and [`Store::move_chat`], which runs them.
//!
//! Everything else refers to chats and communities by the store's ids, so renaming the platform
//! ids of the chat rows and of the community moves games, challenges, settings, wallets, ledger
//! and outbox rows with them. When rows under the new ids already exist (someone wrote in the
//! supergroup before the migration was processed), the rows under the new ids survive and
//! absorb the old ones, so that a row a bot process may hold in its cache is never deleted:
//! - a chat: the old chat's games, challenges and outbox rows move to the new chat; the old
//!   chat row is deleted;
//! - the community: its chats, games, vacations, accounts and ledger rows move to the new
//!   community. Where both have a bank, or a person has a wallet in both, the two accounts
//!   become the new one: its balance is the sum, and the ledger rows of the old account name
//!   the new one (the only time ledger rows are rewritten; their amounts, kinds, times and
//!   order stay, so the books still balance and no money is lost). Of two settings, the ones
//!   changed last are kept. The old community row is deleted.
//!
//! The boards of the old chat's games were posted in the old group, so their message ids are
//! forgotten: no adapter will edit an unrelated message of the supergroup.

use super::executor::{Tx, query, query_as, query_scalar};
use super::{ChatId, CommunityId, MovedChat, Platform, Store, StoreError, Timestamp, db};

/// The chats to move: the chat `$2` of platform `$1`, and its topics (`$2:...`).
pub(super) const MOVING_CHATS: &str = "\
SELECT id, platform_chat_id FROM chats
WHERE platform = $1
  AND (platform_chat_id = $2 OR substr(platform_chat_id, 1, length($2) + 1) = $2 || ':')
ORDER BY id";

pub(super) const CHAT_ID: &str =
    "SELECT id FROM chats WHERE platform = $1 AND platform_chat_id = $2";

pub(super) const RENAME_CHAT: &str =
    "UPDATE chats SET platform_chat_id = $2, updated_at = $3 WHERE id = $1";

/// The boards of chat `$1`'s games were posted under its old id.
pub(super) const FORGET_BOARDS: &str =
    "DELETE FROM board_messages WHERE game_id IN (SELECT id FROM games WHERE chat_id = $1)";

/// Moves the rows of chat `$1` to chat `$2`, then deletes chat `$1`.
pub(super) const ABSORB_CHAT: [&str; 5] = [
    "UPDATE games SET chat_id = $2 WHERE chat_id = $1",
    "UPDATE challenges SET chat_id = $2 WHERE chat_id = $1",
    "UPDATE outbox SET chat_id = $2 WHERE chat_id = $1",
    "UPDATE chats SET inactive_at = NULL WHERE id = $2",
    "DELETE FROM chats WHERE id = $1",
];

pub(super) const COMMUNITY_ID: &str =
    "SELECT id FROM communities WHERE platform = $1 AND platform_community_id = $2";

pub(super) const RENAME_COMMUNITY: &str =
    "UPDATE communities SET platform_community_id = $2, updated_at = $3 WHERE id = $1";

/// The accounts of community `$1` that have a twin in community `$2` (the bank; a person's
/// wallet): (account of `$1`, its twin).
pub(super) const TWIN_ACCOUNTS: &str = "\
SELECT a.id, t.id FROM accounts a
JOIN accounts t ON t.community_id = $2 AND t.kind = a.kind
    AND (a.kind = 'bank' OR t.user_id = a.user_id)
WHERE a.community_id = $1 AND a.kind IN ('bank', 'wallet')
ORDER BY a.id";

/// Makes account `$1` part of its twin `$2`: its ledger rows name the twin, its balance is
/// added to the twin's, and it is deleted.
pub(super) const ABSORB_ACCOUNT: [&str; 4] = [
    "UPDATE ledger SET from_account = $2 WHERE from_account = $1",
    "UPDATE ledger SET to_account = $2 WHERE to_account = $1",
    "UPDATE accounts SET balance = balance + (SELECT balance FROM accounts WHERE id = $1)
     WHERE id = $2",
    "DELETE FROM accounts WHERE id = $1",
];

/// Moves the rows of community `$1` to community `$2` (its twin accounts already absorbed),
/// keeps the settings changed last, and deletes community `$1`.
pub(super) const ABSORB_COMMUNITY: [&str; 9] = [
    "UPDATE accounts SET community_id = $2 WHERE community_id = $1",
    "UPDATE ledger SET community_id = $2 WHERE community_id = $1",
    "UPDATE vacations SET community_id = $2 WHERE community_id = $1",
    "UPDATE games SET community_id = $2 WHERE community_id = $1",
    "UPDATE chats SET community_id = $2 WHERE community_id = $1",
    "DELETE FROM community_settings WHERE community_id = $2 AND EXISTS (
        SELECT 1 FROM community_settings o
        WHERE o.community_id = $1 AND o.updated_at > community_settings.updated_at)",
    "DELETE FROM community_settings WHERE community_id = $1 AND EXISTS (
        SELECT 1 FROM community_settings n WHERE n.community_id = $2)",
    "UPDATE community_settings SET community_id = $2 WHERE community_id = $1",
    "DELETE FROM communities WHERE id = $1",
];

impl Store {
    /// A chat's platform id changed (Telegram's group → supergroup migration): the chat whose
    /// platform id is `old`, and every chat whose platform id is `old` followed by `:` (forum
    /// topics, stored as `"<chat id>:<thread id>"`), take `new` in place of that prefix, and
    /// the community whose platform id is `old` takes `new`, in one transaction; games,
    /// challenges, settings, wallets, ledger and outbox rows follow, since they refer to
    /// chats and communities by the store's ids. Where rows under the new ids exist already
    /// (someone wrote in the supergroup before the move was processed), those rows stay and
    /// absorb the old ones: no game, challenge, outbox row or coin is lost (see the module
    /// `chat_moves` for exactly how). The old chat's games forget their board message ids. A
    /// move of an unknown id, or to the same id, changes nothing.
    ///
    /// # Errors
    /// A database failure (then nothing is moved).
    pub async fn move_chat(
        &self,
        platform: Platform,
        old: &str,
        new: &str,
    ) -> Result<MovedChat, StoreError> {
        const OPERATION: &str = "move_chat";
        let mut moved = MovedChat::default();
        if old.is_empty() || new.is_empty() || old == new {
            return Ok(moved);
        }
        let now = Timestamp::now();
        let mut tx = self.begin_write(OPERATION).await?;
        let chats: Vec<(i64, String)> = query_as(MOVING_CHATS)
            .bind(platform.as_str())
            .bind(old)
            .fetch_all(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        for (id, from) in chats {
            let to = format!("{new}{}", from.get(old.len()..).unwrap_or_default());
            query(FORGET_BOARDS)
                .bind(id)
                .execute(&mut tx)
                .await
                .map_err(db(OPERATION))?;
            let twin: Option<i64> = query_scalar(CHAT_ID)
                .bind(platform.as_str())
                .bind(&to)
                .fetch_optional(&mut tx)
                .await
                .map_err(db(OPERATION))?;
            match twin {
                Some(twin) => {
                    run_pair(&mut tx, &ABSORB_CHAT, id, twin, OPERATION).await?;
                    moved.chats.push(ChatId(twin));
                    moved.merged_chats += 1;
                }
                None => {
                    query(RENAME_CHAT)
                        .bind(id)
                        .bind(&to)
                        .bind(now.0)
                        .execute(&mut tx)
                        .await
                        .map_err(db(OPERATION))?;
                    moved.chats.push(ChatId(id));
                }
            }
        }
        let community = |id: &str| {
            query_scalar::<i64>(COMMUNITY_ID)
                .bind(platform.as_str())
                .bind(id.to_string())
        };
        let from: Option<i64> = community(old)
            .fetch_optional(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        let twin: Option<i64> = community(new)
            .fetch_optional(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        match (from, twin) {
            (Some(from), Some(twin)) => {
                let accounts: Vec<(i64, i64)> = query_as(TWIN_ACCOUNTS)
                    .bind(from)
                    .bind(twin)
                    .fetch_all(&mut tx)
                    .await
                    .map_err(db(OPERATION))?;
                for (account, into) in accounts {
                    run_pair(&mut tx, &ABSORB_ACCOUNT, account, into, OPERATION).await?;
                }
                run_pair(&mut tx, &ABSORB_COMMUNITY, from, twin, OPERATION).await?;
                moved.community = Some(CommunityId(twin));
                moved.merged_community = true;
            }
            (Some(from), None) => {
                query(RENAME_COMMUNITY)
                    .bind(from)
                    .bind(new)
                    .bind(now.0)
                    .execute(&mut tx)
                    .await
                    .map_err(db(OPERATION))?;
                moved.community = Some(CommunityId(from));
            }
            (None, _) => {}
        }
        tx.commit().await.map_err(db(OPERATION))?;
        Ok(moved)
    }
}

/// Runs `statements`, in order, each with `$1` = `from` and `$2` = `into`.
async fn run_pair(
    tx: &mut Tx,
    statements: &[&'static str],
    from: i64,
    into: i64,
    operation: &'static str,
) -> Result<(), StoreError> {
    for &statement in statements {
        query(statement)
            .bind(from)
            .bind(into)
            .execute(&mut *tx)
            .await
            .map_err(db(operation))?;
    }
    Ok(())
}
