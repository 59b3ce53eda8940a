//! `/export`: a game's record as a file ([`crate::export::file`]), which `tabula verify`
//! checks; `/replay`: the game as an animated GIF ([`tabula_render::replay`]).

use tabula_core::{AnyGame, GameId};

use super::{
    Attachment, Ctx, FileKind, Handled, PictureWords, Reply, Service, ServiceError, UserError,
    has_chance, seat_label, seat_msg, seat_name,
};
use crate::export::{Record, commitment_of_hex};
use crate::l10n::{Msg, Span, game_msg};
use crate::store::{ActionRecord, GameNo, GameRecord, GameStatus, History};
use crate::time::rfc3339;

impl Service {
    /// `/export [#game]`: the record of `game` as a text file, posted to the chat, with a
    /// `Takebacks` header when moves were taken back. A running game's record leaves its seed
    /// out.
    pub(super) async fn export(&self, ctx: &Ctx, game: GameNo) -> Handled<Reply> {
        let full = self.whole_log(ctx, game).await?;
        let record = &full.record;
        let text = self.record_text(&full).await?;
        let check = if record.dice.is_some() {
            if record.status == GameStatus::Active {
                "export-seed-later"
            } else {
                "export-verify"
            }
        } else if has_chance(record.game) {
            "export-unchecked"
        } else {
            "export-no-dice"
        };
        let spans = vec![Span::Msg(
            Msg::new("export-record")
                .text("game", format!("#{}", record.id))
                .msg("name", game_msg(record.game))
                .count("actions", full.actions.len())
                .msg("check", Msg::new(check)),
        )];
        Ok(Reply {
            game: Some(record.id),
            spans,
            file: Some(Attachment {
                name: format!("tabula-game-{}.txt", record.id),
                bytes: text.into_bytes(),
                kind: FileKind::Document,
            }),
            ..Reply::default()
        })
    }

    /// `/export`'s file of a game loaded with its whole log.
    pub(super) async fn record_text(&self, full: &crate::store::LoadedGame) -> Handled<String> {
        let record = &full.record;
        let game = record.id;
        let mut file = record_of(record, &full.actions);
        // The takebacks the players agreed: what was undone, after how many actions, by whom.
        let takebacks = self.store.takebacks(game).await?;
        if !takebacks.is_empty() {
            let name = |user| {
                super::seated(record, user).map_or_else(String::new, |u| u.display_name.clone())
            };
            let told: Vec<String> = takebacks
                .iter()
                .map(|taken| {
                    format!(
                        "{}: {} by {}, accepted by {}",
                        taken.seq,
                        taken.undone,
                        name(taken.by),
                        name(taken.accepted_by)
                    )
                })
                .collect();
            file.header("Takebacks", told.join("; "));
        }
        Ok(file.to_string())
    }
}

impl Service {
    /// Game `game` of this chat with its whole log (a game of another chat is "no such
    /// game").
    pub(super) async fn whole_log(
        &self,
        ctx: &Ctx,
        game: GameNo,
    ) -> Handled<crate::store::LoadedGame> {
        let full = self.store.load_game(game, History::Full).await?;
        full.filter(|full| full.record.chat == ctx.chat.id)
            .ok_or_else(|| UserError::NoSuchGame(game).into())
    }
}

/// Each seat (named by `name`) and who holds it, separated by `separator`.
fn seat_list(record: &GameRecord, name: fn(GameId, u8) -> &'static str, separator: &str) -> String {
    let seats: Vec<String> = record
        .seats
        .iter()
        .map(|holder| {
            format!(
                "{} {}",
                name(record.game, holder.seat),
                holder.user.display_name
            )
        })
        .collect();
    seats.join(separator)
}

/// The largest replay posted, in bytes: Discord takes files of up to 10 MiB from a bot in any
/// server (Telegram's `sendAnimation`, 50 MB).
pub const MAX_REPLAY_BYTES: usize = 10 * 1024 * 1024;

impl Service {
    /// `/replay [#game]`: the game from its start to where it stands, as an animated GIF
    /// posted to the chat.
    /// Replay or Record pressed under a result (`kind` `v` or `e`; `mask` the buttons that
    /// message carries): the file, posted for the chat, takes the buttons not yet used with it
    /// and the pressed message loses its own, so that the ending's buttons move down to the
    /// newest message and each is pressed once (issue 37, item 7).
    pub(super) async fn under_result(
        &self,
        ctx: &Ctx,
        kind: char,
        game: GameNo,
        mask: i64,
    ) -> Handled<Reply> {
        use super::narration::{RECORD_BUTTON, REPLAY_BUTTON, result_buttons};
        let (mut reply, used) = if kind == 'v' {
            (self.replay(ctx, game).await?, REPLAY_BUTTON)
        } else {
            (self.export(ctx, game).await?, RECORD_BUTTON)
        };
        if ctx.pressed.is_some() && reply.audience == super::Audience::Chat {
            reply.buttons = result_buttons(game, mask & !used);
            reply.pressed.clone_from(&ctx.pressed);
        }
        Ok(reply)
    }

    pub(super) async fn replay(&self, ctx: &Ctx, game: GameNo) -> Handled<Reply> {
        let full = self.whole_log(ctx, game).await?;
        let record = full.record.clone();
        let replay = replay_gif(full, ctx.chat_lang).await?;
        if replay.bytes.len() > MAX_REPLAY_BYTES {
            return Err(UserError::ReplayTooLarge {
                game,
                megabytes: replay.bytes.len().div_ceil(1024 * 1024),
                limit: MAX_REPLAY_BYTES / (1024 * 1024),
            }
            .into());
        }
        let moves = replay.frames - 1;
        let spans = vec![Span::Msg(
            Msg::new("replay-posted")
                .text("game", format!("#{}", record.id))
                .msg("name", game_msg(record.game))
                .count("actions", moves),
        )];
        Ok(Reply {
            game: Some(record.id),
            spans,
            file: Some(Attachment {
                name: format!("tabula-game-{}.gif", record.id),
                bytes: replay.bytes,
                kind: FileKind::Animation,
            }),
            ..Reply::default()
        })
    }
}

/// The replay of a game loaded with its whole log, said in `lang`: an animated GIF.
pub(super) async fn replay_gif(
    full: crate::store::LoadedGame,
    lang: crate::l10n::Lang,
) -> Handled<tabula_render::replay::Replay> {
    let record = full.record;
    let game = record.id;
    let start = AnyGame::start(
        record.game,
        &record.option_list(),
        record.start_position.as_deref(),
    )
    .map_err(|e| ServiceError::Corrupt(format!("game {game}: {e}")))?;
    let actions: Vec<String> = full.actions.into_iter().map(|a| a.action).collect();
    // Every frame's header: the game, and who held which seat.
    let title = Msg::new("replay-title")
        .text("game", format!("#{}", record.id))
        .msg("name", game_msg(record.game))
        .to_text(lang);
    let seats: Vec<Msg> = record
        .seats
        .iter()
        .map(|holder| {
            Msg::new("seat-held")
                .msg("seat", seat_msg(seat_label(record.game, holder.seat)))
                .msg("person", super::narration::name_msg(&holder.user))
        })
        .collect();
    let subtitle = Msg::list(seats, "list-comma", "list-comma").to_text(lang);
    // The last frame of a game that ended says how (issue 37, item 8).
    let ending = (record.status != GameStatus::Active)
        .then(|| super::narration::stored_verdict(&record).2.to_text(lang));
    let words = PictureWords::new(lang).with_players(&record);
    tokio::task::spawn_blocking(move || {
        let refs: Vec<&str> = actions.iter().map(String::as_str).collect();
        let steps = tabula_render::replay::steps(&start, &refs).map_err(|(i, e)| {
            ServiceError::Corrupt(format!("game {game} action {}: {e}", i + 1))
        })?;
        tabula_render::replay::animate_ending_in(
            &steps,
            tabula_render::replay::Format::Gif,
            (&title, &subtitle),
            ending.as_deref(),
            &words,
            |_, _| {},
        )
        .map_err(ServiceError::from)
    })
    .await
    .map_err(ServiceError::from)?
    .map_err(Into::into)
}

/// The record of a game and its actions (the whole log), as `/export` writes it.
pub fn record_of(record: &GameRecord, actions: &[ActionRecord]) -> Record {
    let id = record.game;
    let mut out = Record::default();
    out.header("Game", id.as_str());
    out.header("Id", record.id.to_string());
    out.header("Options", record.options.clone());
    if let Some(position) = &record.start_position {
        out.header("Position", position.clone());
    }
    out.header("Seats", seat_list(record, seat_name, "; "));
    out.header("Started", rfc3339(record.created_at));
    let result = match record.status {
        GameStatus::Active => "*".to_string(),
        GameStatus::Finished => record.result.clone().unwrap_or_else(|| "*".into()),
        GameStatus::Aborted => "aborted".to_string(),
    };
    out.header("Result", result);
    match &record.dice {
        Some(dice) => {
            out.header("Dice", "committed");
            out.header("Commitment", commitment_of_hex(&dice.seed));
            out.header("Salt", dice.salt(record.id));
            out.header(
                "SaltSource",
                if dice.nonce.is_some() {
                    "platform"
                } else {
                    "none"
                },
            );
            if record.status != GameStatus::Active {
                out.header("Seed", dice.seed.clone());
            }
        }
        None if has_chance(id) => {
            out.header("Dice", "not verifiable (rolled before committed dice)");
        }
        None => {}
    }
    out.actions = actions
        .iter()
        .map(|action| (action.action.clone(), 0))
        .collect();
    out
}
