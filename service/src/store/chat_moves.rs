//! A chat that changes its platform id: Telegram's group → supergroup migration, where the
//! group's id (and so the id of each of its topics, stored as chats `"<chat id>:<thread id>"`)
//! is replaced by the supergroup's. The statements and, in [`chat_move_operations`], the code
//! that runs them, expanded once per backend as in `sql.rs`.
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
    "UPDATE games SET board_message_id = NULL WHERE chat_id = $1";

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

/// The chat-move operation of a backend store type `$store` (see `sql::store_operations`).
macro_rules! chat_move_operations {
    ($store:ident) => {
        impl $store {
            /// Runs `statements`, in order, each with `$1` = `from` and `$2` = `into`.
            async fn run_pair(
                tx: &mut sqlx::Transaction<'static, Db>,
                statements: &[&'static str],
                from: i64,
                into: i64,
                operation: &'static str,
            ) -> Result<(), StoreError> {
                for statement in statements {
                    sqlx::query(*statement)
                        .bind(from)
                        .bind(into)
                        .execute(&mut **tx)
                        .await
                        .map_err(db(operation))?;
                }
                Ok(())
            }

            pub(super) async fn move_chat(
                &self,
                platform: Platform,
                old: &str,
                new: &str,
            ) -> Result<super::MovedChat, StoreError> {
                const OPERATION: &str = "move_chat";
                let mut moved = super::MovedChat::default();
                if old.is_empty() || new.is_empty() || old == new {
                    return Ok(moved);
                }
                let now = Timestamp::now();
                let mut tx = self.begin_write(OPERATION).await?;
                let chats: Vec<(i64, String)> = sqlx::query_as(chat_moves::MOVING_CHATS)
                    .bind(platform.as_str())
                    .bind(old)
                    .fetch_all(&mut *tx)
                    .await
                    .map_err(db(OPERATION))?;
                for (id, from) in chats {
                    let to = format!("{new}{}", from.get(old.len()..).unwrap_or_default());
                    sqlx::query(chat_moves::FORGET_BOARDS)
                        .bind(id)
                        .execute(&mut *tx)
                        .await
                        .map_err(db(OPERATION))?;
                    let twin: Option<i64> = sqlx::query_scalar(chat_moves::CHAT_ID)
                        .bind(platform.as_str())
                        .bind(&to)
                        .fetch_optional(&mut *tx)
                        .await
                        .map_err(db(OPERATION))?;
                    match twin {
                        Some(twin) => {
                            Self::run_pair(&mut tx, &chat_moves::ABSORB_CHAT, id, twin, OPERATION)
                                .await?;
                            moved.chats.push(ChatId(twin));
                            moved.merged_chats += 1;
                        }
                        None => {
                            sqlx::query(chat_moves::RENAME_CHAT)
                                .bind(id)
                                .bind(&to)
                                .bind(now.0)
                                .execute(&mut *tx)
                                .await
                                .map_err(db(OPERATION))?;
                            moved.chats.push(ChatId(id));
                        }
                    }
                }
                let community = |id: &str| {
                    sqlx::query_scalar::<_, i64>(chat_moves::COMMUNITY_ID)
                        .bind(platform.as_str())
                        .bind(id.to_string())
                };
                let from: Option<i64> = community(old)
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(db(OPERATION))?;
                let twin: Option<i64> = community(new)
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(db(OPERATION))?;
                match (from, twin) {
                    (Some(from), Some(twin)) => {
                        let accounts: Vec<(i64, i64)> = sqlx::query_as(chat_moves::TWIN_ACCOUNTS)
                            .bind(from)
                            .bind(twin)
                            .fetch_all(&mut *tx)
                            .await
                            .map_err(db(OPERATION))?;
                        for (account, into) in accounts {
                            Self::run_pair(
                                &mut tx,
                                &chat_moves::ABSORB_ACCOUNT,
                                account,
                                into,
                                OPERATION,
                            )
                            .await?;
                        }
                        Self::run_pair(
                            &mut tx,
                            &chat_moves::ABSORB_COMMUNITY,
                            from,
                            twin,
                            OPERATION,
                        )
                        .await?;
                        moved.community = Some(CommunityId(twin));
                        moved.merged_community = true;
                    }
                    (Some(from), None) => {
                        sqlx::query(chat_moves::RENAME_COMMUNITY)
                            .bind(from)
                            .bind(new)
                            .bind(now.0)
                            .execute(&mut *tx)
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
    };
}

pub(super) use chat_move_operations;
