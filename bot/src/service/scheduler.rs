//! The scheduler: [`Service::tick`] expires challenges, reminds players at half time and says
//! whose time has run out; [`spawn_scheduler`] runs it in a running bot.

use super::time::{duration, moment};
use super::*;
use crate::store::{Due, GameStatus};

/// How many due games the scheduler claims at a time.
const BATCH: i64 = 100;

/// Runs [`Service::tick`] every `period` and sends each reply it makes to `replies` (the
/// adapter posts them), until the receiving end is dropped. An internal failure is logged and
/// the next tick tries again: every deadline is in the database, so a restart loses nothing.
pub fn spawn_scheduler(
    service: std::sync::Arc<Service>,
    period: std::time::Duration,
    replies: tokio::sync::mpsc::Sender<Reply>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut interval = tokio::time::interval(period);
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            interval.tick().await;
            match service.tick().await {
                Ok(due) => {
                    for reply in due {
                        if replies.send(reply).await.is_err() {
                            return;
                        }
                    }
                }
                Err(error) => {
                    tracing::error!(error = %super::error_chain(&error), "scheduler tick failed");
                }
            }
            if replies.is_closed() {
                return;
            }
        }
    })
}

impl Service {
    /// The scheduler's work, to be called now and then (the bot does every 30 seconds):
    /// expires challenges, reminds players whose half time has passed, says whose time has run
    /// out. Every reply is addressed to its chat. Each reminder and announcement is claimed in
    /// the database first, so it is made once even with several bot instances running; one
    /// whose message is lost (a crash between the claim and the send) is not repeated.
    ///
    /// # Errors
    /// Internal failures (the database).
    pub async fn tick(&self) -> Result<Vec<Reply>, ServiceError> {
        let now = self.clock.now();
        let mut replies = Vec::new();
        for challenge in self.store.expire_challenges(now).await? {
            let Some(chat) = self.store.chat(challenge.chat).await? else {
                continue;
            };
            let mut spans = vec![Span::Text(format!(
                "Challenge #{} ({}) by ",
                challenge.id,
                challenge.game.name()
            ))];
            match self.store.user(challenge.challenger).await? {
                Some(user) => spans.push(mention(&user)),
                None => spans.push(Span::Text("someone".into())),
            }
            spans.push(Span::Text(
                " has expired: nobody took it in time. /play makes a new one.".into(),
            ));
            replies.push(Reply {
                address: Address {
                    platform: chat.platform,
                    chat: chat.platform_chat_id,
                    thread: None,
                },
                spans,
                ..Reply::default()
            });
        }
        for due in [Due::Reminder, Due::Timeout] {
            loop {
                let games = self.store.claim_due(due, now, BATCH).await?;
                for game in &games {
                    if let Some(reply) = self.due_reply(due, *game, now).await? {
                        replies.push(reply);
                    }
                }
                if i64::try_from(games.len()).unwrap_or(0) < BATCH {
                    break;
                }
            }
        }
        Ok(replies)
    }

    /// The reminder or time-out message of a claimed game, if it still applies.
    async fn due_reply(
        &self,
        due: Due,
        game: GameNo,
        now: Timestamp,
    ) -> Result<Option<Reply>, ServiceError> {
        let Some(record) = self.store.game(game).await? else {
            return Ok(None);
        };
        let Some(clock) = record.clock.filter(|_| record.status == GameStatus::Active) else {
            return Ok(None);
        };
        let (Some(user), Some(chat)) = (
            seated(&record, clock.user),
            self.store.chat(record.chat).await?,
        ) else {
            return Ok(None);
        };
        let mut spans = vec![mention(user)];
        // A reminder notifies the player to move; a time-out, those who may claim the win.
        let mut notified = vec![user.platform_user_id.clone()];
        match due {
            Due::Reminder => {
                if clock.deadline_at <= now
                    || !self.store.settings(record.community).await?.reminders
                {
                    return Ok(None);
                }
                spans.push(Span::Text(format!(
                    ", a reminder: it is your turn in game #{} ({}). {} left, until {}.",
                    record.id,
                    record.game.name(),
                    duration(clock.deadline_at.0 - now.0),
                    moment(clock.deadline_at)
                )));
            }
            Due::Timeout => {
                spans.push(Span::Text(format!(
                    " has run out of time in game #{} ({}) at {}. ",
                    record.id,
                    record.game.name(),
                    moment(clock.deadline_at)
                )));
                let opponents: Vec<_> = players(&record)
                    .into_iter()
                    .filter(|other| other.id != user.id)
                    .collect();
                notified = opponents
                    .iter()
                    .map(|other| other.platform_user_id.clone())
                    .collect();
                for (i, opponent) in opponents.iter().enumerate() {
                    if i > 0 {
                        spans.push(Span::Text(" or ".into()));
                    }
                    spans.push(mention(opponent));
                }
                spans.push(Span::Text(format!(
                    " may /claim #{} to win; a move made before that still counts.",
                    record.id
                )));
            }
        }
        Ok(Some(Reply {
            address: Address {
                platform: chat.platform,
                chat: chat.platform_chat_id,
                thread: None,
            },
            game: Some(record.id),
            notify: notified,
            spans,
            buttons: vec![vec![button(
                &format!("Board #{}", record.id),
                format!("b{}", record.id),
            )]],
            ..Reply::default()
        }))
    }
}
