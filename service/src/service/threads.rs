//! A thread or topic per game (`/config threads=on`, issue 38): in a busy channel each game is
//! played in a thread (Discord) or forum topic (Telegram) of its own, named after the game and
//! its players; the channel gets one line when it starts, with a link to the thread, and one
//! when it ends, with its result and a link; the thread is closed then (not deleted).
//!
//! How it goes: a game started in the channel itself (not in a thread, which cannot hold
//! another) is marked `wanted`, and the person who started it is answered at once that its
//! board comes in its thread; the first board is delivered through the outbox, carrying
//! [`Reply::open_thread`]. The adapter opens the thread and reports it
//! ([`Service::thread_opened`]): the game moves to the thread's chat (so commands typed there
//! act on it without a number), and the board is posted there. A platform that refuses
//! (a missing permission) is reported with [`Service::thread_refused`]: the channel is told
//! which permission is missing, and the game is played in the channel. When the game ends,
//! the scheduler claims its ending ([`crate::store::Store::claim_thread_endings`]): the
//! channel's line, and the closing of the thread ([`Reply::close_thread`]).
//!
//! A crash between the platform opening a thread and the report leaves that thread empty:
//! the outbox opens another when it delivers the board again.

use serde_json::Value;

use super::{
    Audience, Ctx, Goto, Handled, OpenThread, Place, Placement, Reply, Service, ServiceError,
    ThreadRefusal,
};
use crate::l10n::{Lang, Msg, Span, game_msg};
use crate::store::{GameNo, GameRecord, ThreadState};

/// The most characters of a thread's name (Discord allows 100, Telegram 128).
const NAME_CHARS: usize = 100;

/// How many ended games' threads are claimed at once.
const ENDINGS_BATCH: i64 = 50;

impl Service {
    /// Whether a game that `ctx` starts now gets a thread of its own: the community wants
    /// them, the chat can hold them, the request is not from a thread already, and the
    /// announcements that deliver the board are on.
    pub(super) async fn wants_thread(&self, ctx: &Ctx) -> Handled<bool> {
        if self.announcer.is_none() || !ctx.threads || ctx.thread.is_some() {
            return Ok(false);
        }
        Ok(self.store.settings(ctx.chat.community).await?.threads)
    }

    /// `board`, the first board of a game that just started, goes to the game's own thread:
    /// the game is marked, its board is left to the outbox (released at once), and the person
    /// is answered that it comes there. `said`: what the challenge's message says now, and
    /// `message` that message (when it is known).
    pub(super) async fn start_in_thread(
        &self,
        ctx: &Ctx,
        board: &Reply,
        said: Option<Vec<Span>>,
        message: Option<String>,
    ) -> Handled<Reply> {
        let Some(game) = board.game else {
            return Ok(board.clone());
        };
        self.store.want_thread(game).await?;
        // The board's announcement, held by this process, goes to any dispatcher now.
        self.board_not_posted(board).await?;
        let coming = Span::Msg(
            Msg::new(word(ctx.chat.platform, "thread-coming", "topic-coming"))
                .text("game", format!("#{game}")),
        );
        let pressed_here = ctx.pressed.is_some() && ctx.pressed == message;
        let mut reply = Reply {
            challenge: None,
            ..Reply::default()
        };
        match said {
            // The pressed challenge says what became of it, and that the board comes there.
            Some(mut said) if pressed_here => {
                said.push(Span::Text("\n".into()));
                said.push(coming);
                reply.spans = said;
                reply.placement = Placement::UpdatePressed;
            }
            said => {
                reply.spans = vec![coming];
                if let (Some(said), Some(message)) = (said, message) {
                    reply.pressed = Some(message);
                    reply.pressed_then = said;
                    reply.pressed_is_text = true;
                }
            }
        }
        Ok(reply)
    }

    /// A board of `game` delivered through the outbox, as its thread asks: the first board
    /// delivered while the game wants its thread opens it (whichever board it is: the computer's
    /// first move may supersede the start's); a board of a game played in its thread takes no
    /// message of the channel's (pressed there) off.
    pub(super) async fn board_in_thread(
        &self,
        game: GameNo,
        mut board: Reply,
    ) -> Result<Reply, ServiceError> {
        match self.store.thread_state(game).await? {
            Some(ThreadState::Wanted) => {
                if let Some(record) = self.store.game(game).await? {
                    board.open_thread = Some(Service::open_thread_of(&record));
                }
                board.pressed = None;
            }
            Some(ThreadState::Open { .. } | ThreadState::Closed { .. }) => board.pressed = None,
            Some(ThreadState::Refused) | None => {}
        }
        Ok(board)
    }

    /// What opens the thread of `record`, which wants one: its name, "Konane #12: Alice vs
    /// Bob" in the chat's language.
    pub(super) fn open_thread_of(record: &GameRecord) -> OpenThread {
        OpenThread {
            name: String::new(),
            name_msg: Some(
                Msg::new("thread-name")
                    .text("game", format!("#{}", record.id))
                    .msg("name", game_msg(record.game))
                    .text("first", team_names(record, 0))
                    .text("second", team_names(record, 1)),
            ),
        }
    }

    /// The adapter opened the thread `reply` asked for ([`Reply::open_thread`]), the platform's
    /// chat `thread` named `title`: the game moves there. Returns the board to post, addressed
    /// to the game's thread (another one, when another process opened it first).
    ///
    /// # Errors
    /// Internal failures (the database); the adapter then delivers the row again later.
    pub async fn thread_opened(
        &self,
        reply: &Reply,
        thread: &str,
        title: &str,
    ) -> Result<Reply, ServiceError> {
        let mut board = reply.clone();
        board.open_thread = None;
        let Some(game) = reply.game else {
            return Ok(board);
        };
        let Some(record) = self.store.game(game).await? else {
            return Ok(board);
        };
        let Some(home) = self.store.chat(record.chat).await? else {
            return Ok(board);
        };
        let chat = self
            .store
            .upsert_chat(
                home.platform,
                thread,
                title,
                Some((&home.platform_community_id, &home.community_title)),
            )
            .await?;
        let moved = self
            .store
            .thread_opened(game, chat.id, self.clock.now())
            .await?;
        board.address.chat = if moved {
            thread.to_string()
        } else {
            match self.store.game(game).await? {
                Some(now) => match self.store.chat(now.chat).await? {
                    Some(chat) => chat.platform_chat_id,
                    None => home.platform_chat_id,
                },
                None => home.platform_chat_id,
            }
        };
        tracing::info!(%game, thread, moved, "thread opened");
        Ok(board)
    }

    /// The platform refused the thread `reply` asked for (`why`, when it said): the game is
    /// played in its channel. Returns what the channel is told first (which permission or
    /// setting is missing), if anything; the adapter then posts the board there, as asked
    /// without the thread.
    ///
    /// # Errors
    /// Internal failures (the database).
    pub async fn thread_refused(
        &self,
        reply: &Reply,
        why: Option<ThreadRefusal>,
    ) -> Result<Option<Reply>, ServiceError> {
        let Some(game) = reply.game else {
            return Ok(None);
        };
        let marked = self.store.thread_refused(game).await?;
        tracing::warn!(%game, ?why, "the platform refused the game's thread");
        let (Some(why), true) = (why, marked) else {
            return Ok(None);
        };
        let id = match why {
            ThreadRefusal::NotForum => "thread-refused-not-forum",
            ThreadRefusal::ManageTopics => "thread-refused-manage-topics",
            ThreadRefusal::CreateThreads => "thread-refused-create-threads",
        };
        let mut notice = Reply {
            address: reply.address.clone(),
            spans: vec![Span::Msg(Msg::new(id).text("game", format!("#{game}")))],
            ..Reply::default()
        };
        let lang = match self.store.game(game).await? {
            Some(record) => {
                let language = self.store.settings(record.community).await?.language;
                Lang::choose(language.as_deref(), None, None)
            }
            None => Lang::choose(None, None, None),
        };
        notice.localize(lang);
        super::limits::fit(&mut notice, lang);
        Ok(Some(notice))
    }

    /// Claims the ended games whose threads are open: the channel's line and the thread's
    /// closing go to the outbox. How many. The scheduler does it at every tick, and the
    /// running bot whenever a board is posted (with the pings).
    ///
    /// # Errors
    /// Internal failures (the database).
    pub async fn claim_thread_endings(&self) -> Result<usize, ServiceError> {
        let now = self.clock.now();
        let mut claimed = 0;
        loop {
            let done = self.store.claim_thread_endings(now, ENDINGS_BATCH).await?;
            claimed += done;
            if i64::try_from(done).unwrap_or(0) < ENDINGS_BATCH {
                return Ok(claimed);
            }
        }
    }

    /// An announcement about a game's thread, rendered for the outbox: the channel's line at
    /// its start (`thread_start`) or end (`thread_end`), or the closing of the thread
    /// (`close_thread`). `None` when it no longer applies.
    pub(super) async fn thread_post_of(
        &self,
        payload: &Value,
    ) -> Result<Option<Reply>, ServiceError> {
        let number = |key: &str| payload.get(key).and_then(Value::as_i64).map(GameNo);
        if number("close_thread").is_some() {
            return Ok(Some(Reply {
                close_thread: true,
                ..Reply::default()
            }));
        }
        let (game, start) = match (number("thread_start"), number("thread_end")) {
            (Some(game), _) => (game, true),
            (None, Some(game)) => (game, false),
            (None, None) => return Ok(None),
        };
        let Some(record) = self.store.game(game).await? else {
            return Ok(None);
        };
        let Some(thread) = self.store.chat(record.chat).await? else {
            return Ok(None);
        };
        if !matches!(
            self.store.thread_state(game).await?,
            Some(ThreadState::Open { .. } | ThreadState::Closed { .. })
        ) {
            return Ok(None);
        }
        let button = || {
            Msg::new(word(
                thread.platform,
                "button-open-thread",
                "button-open-topic",
            ))
        };
        let goto = if start {
            Some(Goto {
                label: String::new(),
                label_msg: Some(button()),
                to: Place::Thread {
                    platform: thread.platform,
                    chat: thread.platform_chat_id.clone(),
                    community: thread.platform_community_id.clone(),
                },
            })
        } else {
            self.board_link(&record, button()).await?
        };
        let spans = if start {
            vec![Span::Msg(
                Msg::new(word(thread.platform, "thread-started", "topic-started"))
                    .text("game", format!("#{}", record.id))
                    .msg("name", game_msg(record.game))
                    .msg("seats", super::narration::sides_msg(&record)),
            )]
        } else {
            super::narration::stored_result(&record)
        };
        Ok(Some(Reply {
            audience: Audience::Chat,
            spans,
            goto: goto.into_iter().collect(),
            ..Reply::default()
        }))
    }
}

/// The names of the people of `team` in `record` (partners joined with "&"): their display
/// names, or usernames where a name is blank.
fn team_names(record: &GameRecord, team: u8) -> String {
    super::team_users(record, team)
        .iter()
        .filter_map(|user| super::seated(record, *user))
        .map(|user| match &user.username {
            Some(username) if user.display_name.trim().is_empty() => username.clone(),
            _ => user.display_name.clone(),
        })
        .collect::<Vec<_>>()
        .join(" & ")
}

/// What a game's place of its own is called on `platform`: a forum topic on Telegram (the
/// message `topic`), a thread elsewhere (`thread`).
pub(super) fn word(
    platform: crate::store::Platform,
    thread: &'static str,
    topic: &'static str,
) -> &'static str {
    if platform == crate::store::Platform::Telegram {
        topic
    } else {
        thread
    }
}

/// `name` cut to a thread's longest name.
pub(super) fn thread_name(name: &str) -> String {
    let name = name.trim();
    if name.chars().count() <= NAME_CHARS {
        return name.to_string();
    }
    let mut cut: String = name.chars().take(NAME_CHARS - 1).collect();
    cut.push('…');
    cut
}
