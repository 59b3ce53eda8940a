//! Narration: how the board, results, money and buttons are told in a reply.
//!
//! One voice (issue 14): every event is told once, in one sentence that names the person and
//! their seat once ("@bob (Black) jumped d3-d5, capturing d4."); every ending is told by one
//! result sentence ("Game #1 (Konane) is over: @alice (White) wins."); seats and teams are
//! capitalised, numbers of coins agree with their noun.

use tabula_core::{GameId, Outcome, Seat, Status};

use super::{
    Button, Consequences, Handled, Loaded, MAX_BUTTONS, PictureWords, Placement, Played, Reply,
    Service, ServiceError, coins_msg, game_msg, holder, is_computer, players, seat_label, seat_msg,
    seated, team_label, team_named, team_users,
};
use crate::l10n::{Lang, Msg, Person, Span, duration_msg};
use crate::store::{ChatId, Fine, GameNo, GameRecord, GameStatus, User, UserId};

impl Service {
    /// The board: picture, whose turn (or the result), and buttons for the legal moves (or,
    /// under a result, for the replay, the record and a rematch).
    pub(super) async fn board_reply(&self, loaded: &Loaded, spans: Vec<Span>) -> Handled<Reply> {
        let record = &loaded.record;
        let parts = self.board_parts(loaded, spans).await?;
        let picture = self.picture(loaded, parts.title).await?;
        // The game's web page, linked from its board (issue 41).
        let goto = self.page_button(record).await?.into_iter().collect();
        Ok(Reply {
            goto,
            placement: Placement::NewBoard,
            game: Some(record.id),
            // The adapter reports it, and takes the buttons off the older boards.
            board_seq: Some(record.seq),
            spans: parts.spans,
            notify: parts.notify,
            picture,
            buttons: parts.buttons,
            ..Reply::default()
        })
    }

    /// What a board says after `spans` (whose turn, the clocks, or the result), its buttons,
    /// who it notifies and its picture's title; the board's web page says the same.
    pub(super) async fn board_parts(
        &self,
        loaded: &Loaded,
        mut spans: Vec<Span>,
    ) -> Handled<BoardParts> {
        let record = &loaded.record;
        let id = record.game;
        let mut buttons = Vec::new();
        let mut notify = Vec::new();
        // The picture's title, when the state alone does not show the result (a game ended
        // by resignation, time or abort).
        let mut title = None;
        match (record.status, loaded.state.status()) {
            (_, Status::Done(outcome)) => {
                let verdict = match outcome {
                    Outcome::Winner(team) => Verdict::Winner(team.0),
                    Outcome::Draw => Verdict::Draw,
                };
                spans.extend(ending_spans(record, verdict, None, loaded.moves()));
                spans.extend(self.rating_change_spans(record).await?);
                buttons = ending_buttons(record);
                notify = people_to_notify(record);
            }
            (GameStatus::Active, Status::Decision(seat)) => {
                let computer = holder(record, seat).is_some_and(is_computer);
                let player = match holder(record, seat) {
                    Some(user) => {
                        // Mentioned (notified) unless they are told privately instead
                        // (`/notify private`, where private pings reach them).
                        if !computer && !self.told_privately_only(user, record).await? {
                            notify.push(user.platform_user_id.clone());
                        }
                        mention(user)
                    }
                    None => Span::Msg(Msg::new("someone")),
                };
                let lines = loaded.state.legal_lines();
                let task = if computer {
                    // Its move comes from the computer worker, through the outbox.
                    self.wake_computer();
                    "thinking"
                } else if !lines.is_empty() && lines.iter().all(|l| l.starts_with("remove:")) {
                    // Coan Ki's double one (rule 5.8): the buttons are removals.
                    "remove"
                } else {
                    "move"
                };
                spans.push(Span::Msg(
                    game_line("board-turn", record)
                        .span("player", player)
                        .msg("seat", seat_msg(seat_label(id, seat.0)))
                        .text("task", task),
                ));
                if !computer {
                    spans.extend(self.clock_spans(record));
                }
                if !computer {
                    buttons = move_buttons(record, &lines);
                }
            }
            (GameStatus::Active, Status::Chance) => {
                spans.push(Span::Msg(game_line("board-rolling", record)));
            }
            (_, _) => {
                let (verdict, cause, caption) = stored_verdict(record);
                spans.extend(ending_spans(record, verdict, cause, loaded.moves()));
                spans.extend(self.rating_change_spans(record).await?);
                buttons = ending_buttons(record);
                notify = people_to_notify(record);
                title = Some(caption);
            }
        }
        Ok(BoardParts {
            spans,
            buttons,
            notify,
            title,
        })
    }
}

/// What [`Service::board_parts`] makes of a board.
pub(super) struct BoardParts {
    pub(super) spans: Vec<Span>,
    pub(super) buttons: Vec<Vec<Button>>,
    pub(super) notify: Vec<String>,
    pub(super) title: Option<Msg>,
}

impl Service {
    /// The board's picture (when pictures are on), its header titled `title` when given.
    pub(super) async fn picture(
        &self,
        loaded: &Loaded,
        title: Option<Msg>,
    ) -> Handled<Option<Vec<u8>>> {
        if !self.pictures {
            return Ok(None);
        }
        let state = loaded.state.clone();
        let recent = loaded.recent.clone();
        let lang = self.chat_lang(loaded.record.chat).await?;
        let tags = self.game_rating_tags(&loaded.record).await?;
        let words = PictureWords::new(lang)
            .with_players(&loaded.record)
            .with_ratings(&loaded.record, &tags);
        let title = title.map(|title| title.to_text(lang));
        let png = tokio::task::spawn_blocking(move || {
            tabula_render::render_in(&state, &recent, title.as_deref(), &words)
        })
        .await
        .map_err(ServiceError::from)?
        .map_err(ServiceError::from)?;
        Ok(Some(png))
    }

    /// The language of what `chat` sees: as its last request was answered, or else the
    /// community's.
    pub(super) async fn chat_lang(&self, chat: ChatId) -> Handled<Lang> {
        if let Some(lang) = self
            .chat_langs
            .lock()
            .ok()
            .and_then(|langs| langs.get(&chat).copied())
        {
            return Ok(lang);
        }
        let language = match self.store.chat(chat).await? {
            Some(chat) => self.store.settings(chat.community).await?.language,
            None => None,
        };
        Ok(Lang::choose(language.as_deref(), None, None))
    }

    /// The final board of a game just ended outside of play (a resignation, a claim on time,
    /// an agreed draw): `record` as ended, its result said with `verdict` and `cause`, the
    /// rating changes after it, the picture titled with the result, the buttons under a
    /// result; announced by `announced` when the service writes announcements.
    pub(super) async fn ended_board(
        &self,
        loaded: Loaded,
        record: &GameRecord,
        verdict: Verdict,
        cause: Msg,
        announced: Option<crate::store::OutboxId>,
    ) -> Handled<Reply> {
        let mut spans = ending_spans(record, verdict, Some(cause), loaded.moves());
        spans.extend(self.rating_change_spans(record).await?);
        // The picture's header tells the result, not whose turn it was.
        let picture = self.ended_picture(loaded, record).await?;
        Ok(Reply {
            game: Some(record.id),
            spans,
            picture,
            ..Reply::default()
        }
        .into_final_board(record, announced))
    }

    /// The picture of a game just ended by resignation, time or abort (`record`, as ended):
    /// its header tells the result.
    pub(super) async fn ended_picture(
        &self,
        loaded: Loaded,
        record: &GameRecord,
    ) -> Handled<Option<Vec<u8>>> {
        let (_, _, title) = stored_verdict(record);
        let loaded = Loaded {
            record: record.clone(),
            ..loaded
        };
        self.picture(&loaded, Some(title)).await
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Verdict {
    /// A team won.
    Winner(u8),
    /// Nobody won.
    Draw,
    /// Stopped without a result.
    Aborted,
}

/// A message about a game that starts with its number and name (`$game`, `$name`).
pub(super) fn game_line(id: &'static str, record: &GameRecord) -> Msg {
    Msg::new(id)
        .text("game", format!("#{}", record.id))
        .msg("name", game_msg(record.game))
}

/// The one result sentence of every ending: "Game #1 (Konane) is over: " then the `cause`
/// ("@bob (Black) resigned, so ") and the verdict ("@alice (White) wins."), and the dice
/// seed, now revealed.
pub(super) fn result_sentence(
    record: &GameRecord,
    verdict: Verdict,
    cause: Option<Msg>,
) -> Vec<Span> {
    let mut spans = vec![verdict_sentence(record, verdict, cause)];
    spans.extend(seed_spans(record));
    spans
}

/// How a game that just ended is announced (issue 37, item 7): the result sentence, then who
/// played it, each side with its people mentioned, and for how long ("@alice (White) against
/// @bob (Black): 42 moves in 3 days."), what became of the stakes (each stake and who takes the
/// pot, or the stakes returned), and the dice seed. `moves` is how many actions the players
/// made (the log without its rolls); the length runs from the game's start to its last change.
pub(super) fn ending_spans(
    record: &GameRecord,
    verdict: Verdict,
    cause: Option<Msg>,
    moves: u64,
) -> Vec<Span> {
    let mut spans = vec![verdict_sentence(record, verdict, cause)];
    spans.push(Span::Text(" ".into()));
    spans.push(Span::Msg(
        Msg::new("result-played")
            .msg("sides", sides_msg(record))
            .num("moves", i64::try_from(moves).unwrap_or(i64::MAX))
            .msg(
                "length",
                duration_msg(record.updated_at.0.saturating_sub(record.created_at.0)),
            ),
    ));
    spans.extend(match verdict {
        Verdict::Winner(team) => pot_spans(record, &team_users(record, team)),
        Verdict::Draw | Verdict::Aborted => refund_spans(record),
    });
    spans.extend(seed_spans(record));
    spans
}

/// A game's sides, each team's people mentioned with its seats: "@alice (White) against @bob
/// (Black)", "@bob and @dana (South and North) against @carol and Computer (East and West)".
pub(super) fn sides_msg(record: &GameRecord) -> Msg {
    sides_msg_rated(record, &RatingTags::new())
}

/// People's ratings in one game as shown beside their names (`1620?`), by person: see
/// [`Service::rating_tags`].
pub(super) type RatingTags = std::collections::HashMap<UserId, String>;

/// [`sides_msg`], each person's rating beside their name when `tags` has it: "@bob (1620?)".
pub(super) fn sides_msg_rated(record: &GameRecord, tags: &RatingTags) -> Msg {
    let sides = (0..2u8)
        .map(|team| {
            Msg::new("result-side")
                .msg(
                    "people",
                    people_msg_rated(record, &team_users(record, team), tags),
                )
                .msg("team", seat_msg(team_label(record.game, team)))
        })
        .collect();
    Msg::list(sides, "result-against", "result-against")
}

/// The buttons under a game's result: its replay, its record, and a rematch (the same
/// challenge to the same people, made by whoever presses it).
pub(super) fn ending_buttons(record: &GameRecord) -> Vec<Vec<Button>> {
    result_buttons(record.id, RESULT_BUTTONS)
}

/// The buttons under a result, as bits of the mask their data carries once some were used.
pub(super) const REPLAY_BUTTON: i64 = 1;
/// See [`REPLAY_BUTTON`].
pub(super) const RECORD_BUTTON: i64 = 2;
/// See [`REPLAY_BUTTON`].
pub(super) const REMATCH_BUTTON: i64 = 4;
/// All of them, as under a result.
pub(super) const RESULT_BUTTONS: i64 = REPLAY_BUTTON | RECORD_BUTTON | REMATCH_BUTTON;

/// The buttons of `mask` under a result of `game` (or under the file a press of one posted:
/// `v<game>.<mask>`, the mask telling which buttons the message carries).
pub(super) fn result_buttons(game: GameNo, mask: i64) -> Vec<Vec<Button>> {
    let data = |kind: char| {
        if mask == RESULT_BUTTONS {
            format!("{kind}{game}")
        } else {
            format!("{kind}{game}.{mask}")
        }
    };
    let row: Vec<Button> = [
        (REPLAY_BUTTON, "button-replay", 'v'),
        (RECORD_BUTTON, "button-record", 'e'),
        (REMATCH_BUTTON, "button-rematch", 'n'),
    ]
    .into_iter()
    .filter(|(bit, _, _)| mask & bit != 0)
    .map(|(_, label, kind)| said_button(Msg::new(label), data(kind)))
    .collect();
    if row.is_empty() {
        Vec::new()
    } else {
        vec![row]
    }
}

/// The platform ids of a game's people (not the computer): those its result notifies.
pub(super) fn people_to_notify(record: &GameRecord) -> Vec<String> {
    players(record)
        .into_iter()
        .filter(|user| !is_computer(user))
        .map(|user| user.platform_user_id.clone())
        .collect()
}

/// "Game #1 (Konane) is over: " then the `cause` and the verdict.
fn verdict_sentence(record: &GameRecord, verdict: Verdict, cause: Option<Msg>) -> Span {
    let verdict = match verdict {
        Verdict::Winner(team) => {
            let winners = team_users(record, team);
            Msg::new("verdict-winner")
                .msg("people", people_msg(record, &winners))
                .msg("team", seat_msg(team_label(record.game, team)))
                .count("count", winners.len())
        }
        Verdict::Draw => Msg::new("verdict-draw"),
        Verdict::Aborted => Msg::new("verdict-aborted"),
    };
    let sentence = match cause {
        Some(cause) => game_line("result-because", record).msg("cause", cause),
        None => game_line("result", record),
    };
    Span::Msg(sentence.msg("verdict", verdict))
}

/// The dice seed of a game that ended, now revealed, when its dice were committed.
fn seed_spans(record: &GameRecord) -> Vec<Span> {
    let Some(dice) = &record.dice else {
        return Vec::new();
    };
    vec![
        Span::Text(" ".into()),
        Span::Msg(
            Msg::new("result-seed")
                .span("seed", Span::Code(dice.seed.clone()))
                .text("game", format!("#{}", record.id)),
        ),
    ]
}

/// What a losing side did that ended the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Did {
    /// Gave up.
    Resigned,
    /// Let the clock run out.
    RanOutOfTime,
}

/// "@bob (Black) resigned": the people of a team, their team, and what they did.
pub(super) fn team_cause(record: &GameRecord, team: u8, did: Did) -> Msg {
    let people = team_users(record, team);
    Msg::new(match did {
        Did::Resigned => "cause-resigned",
        Did::RanOutOfTime => "cause-time",
    })
    .msg("people", people_msg(record, &people))
    .msg("team", seat_msg(team_label(record.game, team)))
    .count("count", people.len())
}

/// Mentions of people of a game, joined by "and".
pub(super) fn people_msg(record: &GameRecord, users: &[UserId]) -> Msg {
    people_msg_rated(record, users, &RatingTags::new())
}

/// [`people_msg`], with each person's rating when `tags` has it.
fn people_msg_rated(record: &GameRecord, users: &[UserId], tags: &RatingTags) -> Msg {
    let person = |user: &UserId| match seated(record, *user) {
        Some(user) => rated_person(user, tags),
        None => Msg::new("someone"),
    };
    Msg::list(
        users.iter().map(person).collect(),
        "people-and",
        "people-and",
    )
}

/// The result sentence of a game that ended, from its stored result.
pub(super) fn stored_result(record: &GameRecord) -> Vec<Span> {
    let (verdict, cause, _) = stored_verdict(record);
    result_sentence(record, verdict, cause)
}

/// The verdict of a game that ended without its state showing it (resignation, time, abort),
/// read from its stored result, with the cause and the picture's title.
pub(super) fn stored_verdict(record: &GameRecord) -> (Verdict, Option<Msg>, Msg) {
    let id = record.game;
    let result = record.result.as_deref().unwrap_or("");
    if let Some(rest) = result.strip_prefix("winner ") {
        let (name, why) = rest.split_once(' ').unwrap_or((rest, ""));
        if let Some(team) = team_named(id, name) {
            let losers = (0..2u8).find(|&t| t != team).unwrap_or(team);
            let label = team_label(id, team);
            let of_team = label.contains(" and ");
            let caption = |one: &'static str, teams: &'static str| {
                Msg::new(if of_team { teams } else { one })
                    .msg("winners", seat_msg(label))
                    .msg("losers", seat_msg(team_label(id, losers)))
            };
            return match why {
                "(resigned)" => (
                    Verdict::Winner(team),
                    Some(team_cause(record, losers, Did::Resigned)),
                    caption("picture-resigned", "picture-resigned-team"),
                ),
                "(time)" => (
                    Verdict::Winner(team),
                    Some(team_cause(record, losers, Did::RanOutOfTime)),
                    caption("picture-won-on-time", "picture-won-on-time-team"),
                ),
                _ => (
                    Verdict::Winner(team),
                    None,
                    caption("picture-won", "picture-won-team"),
                ),
            };
        }
    }
    if result == "draw" {
        return (Verdict::Draw, None, Msg::new("picture-drawn"));
    }
    if result == super::draws::AGREED_DRAW {
        return (
            Verdict::Draw,
            Some(Msg::new("cause-agreed")),
            Msg::new("picture-drawn-agreed"),
        );
    }
    let cause =
        (!result.is_empty()).then(|| Msg::new("cause-stored").text("result", brief(result)));
    (Verdict::Aborted, cause, Msg::new("picture-aborted"))
}

/// At most 80 characters of a stored text (an abort's reason), with an ellipsis.
pub(super) fn brief(text: &str) -> String {
    brief_to(text, 80)
}

/// At most `max` characters of a text, with an ellipsis when cut.
pub(super) fn brief_to(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
        cut.push('…');
        cut
    }
}

/// "1 coin", "2 coins".
pub(super) fn coins(n: i64) -> String {
    if n == 1 || n == -1 {
        format!("{n} coin")
    } else {
        format!("{n} coins")
    }
}

/// What was played, one sentence per seat that acted: "@bob (Black) jumped d3-d5, capturing
/// d4.", and for Coan Ki's dice "@alice (White) rolled a 6 and a 1." Each event is a clause of
/// the catalogue (`events`); clauses of the same seat in a row make one sentence; what ends the
/// game is left to the result sentence; a fine (known once stored: `consequences`) is told with
/// the double one that caused it.
pub(super) fn played_spans(
    record: &GameRecord,
    played: &Played,
    consequences: Option<&Consequences>,
) -> Vec<Span> {
    let id = record.game;
    let mut sentences: Vec<(Option<u8>, Vec<Msg>)> = Vec::new();
    let mut fines: Vec<&Fine> = consequences
        .map(|c| c.fines.iter().collect())
        .unwrap_or_default();
    for step in &played.steps {
        let mut clauses: Vec<(Option<u8>, Msg)> = Vec::new();
        let roll = step.notation.strip_prefix("roll:");
        let mut dice = None;
        if let (Some(throw), GameId::CoanKi) = (roll, id)
            && let Some((a, b)) = throw.split_once('-')
        {
            dice = Some(throw);
            let roller = step
                .told
                .iter()
                .find_map(|told| told.seat)
                .or(step.seat.map(|seat| seat.0));
            let (a, b): (i64, i64) = (a.parse().unwrap_or(0), b.parse().unwrap_or(0));
            let mut clause = match (a, b) {
                (1, 1) => Msg::new("rolled-double-one"),
                _ if a == b => Msg::new("rolled-double").num("die", a),
                _ => Msg::new("rolled").num("first", a).num("second", b),
            };
            if (a, b) == (1, 1) {
                let payer = roller.and_then(|seat| holder(record, Seat(seat)));
                if let Some(at) = fines
                    .iter()
                    .position(|fine| payer.is_some_and(|p| p.id == fine.payer))
                {
                    let fine = fines.remove(at);
                    if let Some(payee) = seated(record, fine.payee) {
                        clause = Msg::new("rolled-double-one-fined")
                            .span("payee", mention(payee))
                            .msg("fine", coins_msg(fine.amount));
                    }
                }
            }
            clauses.push((roller, clause));
        }
        for told in &step.told {
            let Some(clause) = &told.clause else {
                continue;
            };
            // A throw just told is "them".
            let clause = match (&told.lost_throw, dice) {
                (Some(lost), Some(dice)) if lost == dice => {
                    Msg::new("coan-ki-throw-lost").msg("throw", Msg::new("dice-them"))
                }
                _ => clause.clone(),
            };
            clauses.push((told.seat, clause));
        }
        if clauses.is_empty() && roll.is_none() && step.notation != "throw" {
            clauses.push((
                step.seat.map(|seat| seat.0),
                Msg::new("played").text("move", step.notation.clone()),
            ));
        }
        for (seat, clause) in clauses {
            match sentences.last_mut() {
                Some((last, list)) if seat.is_some() && *last == seat => list.push(clause),
                _ => sentences.push((seat, vec![clause])),
            }
        }
    }
    let mut spans = Vec::new();
    for (seat, clauses) in sentences {
        if !spans.is_empty() {
            spans.push(Span::Text(" ".into()));
        }
        let clauses = Msg::list(clauses, "list-comma", "clauses-and");
        let sentence = match seat {
            Some(seat) => {
                let said = Msg::new("sentence-seat")
                    .msg("seat", seat_msg(seat_label(id, seat)))
                    .msg("clauses", clauses);
                match holder(record, Seat(seat)) {
                    Some(user) => said.span("player", mention(user)),
                    None => said.text("player", ""),
                }
            }
            None => Msg::new("sentence").msg("clauses", clauses),
        };
        spans.push(Span::Msg(sentence));
    }
    for fine in fines {
        // A fine not told with its roll (none is expected).
        if let (Some(payer), Some(payee)) = (seated(record, fine.payer), seated(record, fine.payee))
        {
            spans.push(Span::Text(" ".into()));
            spans.push(Span::Msg(
                Msg::new("fine-paid")
                    .span("payer", mention(payer))
                    .span("payee", mention(payee))
                    .msg("fine", coins_msg(fine.amount)),
            ));
        }
    }
    spans
}

/// Buttons for the legal moves: one per move when few, else one per piece (two steps).
pub(super) fn move_buttons(record: &GameRecord, lines: &[String]) -> Vec<Vec<Button>> {
    let (game, seq) = (record.id, record.seq);
    if lines.len() <= MAX_BUTTONS {
        let buttons = lines
            .iter()
            .enumerate()
            .map(|(i, line)| move_button(record.game, line, format!("m{game}.{seq}.{i}")))
            .collect();
        return rows(buttons);
    }
    let buttons = piece_groups(lines)
        .into_iter()
        .enumerate()
        .take(MAX_BUTTONS * 2)
        .map(|(i, (piece, members))| {
            if let [only] = members.as_slice() {
                move_button(record.game, &lines[*only], format!("m{game}.{seq}.{only}"))
            } else {
                button(&format!("{piece}…"), format!("p{game}.{seq}.{i}"))
            }
        })
        .collect();
    rows(buttons)
}

/// The button of a legal move: Konane's, Koan's and Kolowis' in their notation (what their
/// boards show); Coan Ki's and Pachisi's in words ([`move_msg`]).
pub(super) fn move_button(game: GameId, line: &str, data: String) -> Button {
    match game {
        GameId::CoanKi | GameId::Pachisi => said_button(move_msg(game, line), data),
        _ => button(line, data),
    }
}

/// A move as a player reads it (issue 37, item 5): Coan Ki's and Pachisi's notation in words
/// of the chat's language ("h2 → 4 and 9", "Throw the cowries"); the other games' moves, and
/// anything not read, as written.
pub(super) fn move_msg(game: GameId, line: &str) -> Msg {
    let words = match game {
        GameId::CoanKi => coan_ki_words(line),
        GameId::Pachisi => pachisi_words(line),
        _ => None,
    };
    words.unwrap_or_else(|| verbatim(line))
}

fn verbatim(text: &str) -> Msg {
    Msg::new("verbatim").text("text", text.to_string())
}

/// "h2 → 4": a piece moved by a number of steps.
fn piece_moved(from: Msg, steps: &str) -> Msg {
    Msg::new("move-piece")
        .msg("from", from)
        .text("steps", steps.to_string())
}

/// Coan Ki's `h2+4`, `h2+4&h2+9`, `h2+4&c3+9`, `remove:h2`, `pass` in words.
fn coan_ki_words(line: &str) -> Option<Msg> {
    if line == "pass" {
        return Some(Msg::new("move-pass"));
    }
    if let Some(cell) = line.strip_prefix("remove:") {
        return Some(Msg::new("move-remove").text("cell", cell.to_string()));
    }
    Some(match line.split_once('&') {
        None => {
            let (from, steps) = line.split_once('+')?;
            piece_moved(verbatim(from), steps)
        }
        Some((first, second)) => {
            let (from, steps) = first.split_once('+')?;
            let (other, more) = second.split_once('+')?;
            if from == other {
                Msg::new("move-same-piece")
                    .text("from", from.to_string())
                    .text("first", steps.to_string())
                    .text("second", more.to_string())
            } else {
                Msg::new("move-two-pieces")
                    .msg("first", piece_moved(verbatim(from), steps))
                    .msg("second", piece_moved(verbatim(other), more))
            }
        }
    })
}

/// Pachisi's `throw`, `skip`, `done`, `enter+10`, `a1+6`, `a1x2+6`, `a1h+6` in words.
fn pachisi_words(line: &str) -> Option<Msg> {
    match line {
        "throw" => return Some(Msg::new("move-throw")),
        "skip" => return Some(Msg::new("move-skip")),
        "done" => return Some(Msg::new("move-done")),
        _ => {}
    }
    if let Some(value) = line.strip_prefix("enter+") {
        return Some(Msg::new("move-enter").text("value", value.to_string()));
    }
    let (square, value) = line.split_once('+')?;
    let (square, count) = match square.split_once('x') {
        Some((square, count)) => (square, Some(count.parse::<i64>().ok()?)),
        None => (square, None),
    };
    // Squares end with their number: a trailing `h` marks pieces on their way home.
    let from = match square.strip_suffix('h') {
        Some(square) => Msg::new("move-homeward").text("square", square.to_string()),
        None => verbatim(square),
    };
    Some(match count {
        Some(count) => Msg::new("move-group")
            .num("count", count)
            .msg("from", from)
            .text("steps", value.to_string()),
        None => piece_moved(from, value),
    })
}

/// The legal moves grouped by the piece they start from (the text before the first
/// separator), in first-seen order.
pub(super) fn piece_groups(lines: &[String]) -> Vec<(String, Vec<usize>)> {
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let piece = line
            .char_indices()
            .skip(1)
            .find(|(_, c)| matches!(c, '-' | 'x' | '+' | '&'))
            .map_or(line.as_str(), |(at, _)| &line[..at])
            .to_string();
        match groups.iter_mut().find(|(p, _)| *p == piece) {
            Some((_, members)) => members.push(i),
            None => groups.push((piece, vec![i])),
        }
    }
    groups
}

pub(super) fn rows(buttons: Vec<Button>) -> Vec<Vec<Button>> {
    buttons.chunks(4).map(<[Button]>::to_vec).collect()
}

/// A button labelled with notation (a move, a cell), the same in every language.
pub(super) fn button(label: &str, data: String) -> Button {
    Button {
        label: label.to_string(),
        data,
        label_msg: None,
    }
}

/// A button labelled with a message of the catalogue (`button-accept`), said in the reply's
/// language.
pub(super) fn said_button(msg: Msg, data: String) -> Button {
    Button {
        label: msg.to_text(crate::l10n::Lang::ENGLISH),
        data,
        label_msg: Some(msg),
    }
}

pub(super) fn mention(user: &User) -> Span {
    if is_computer(user) {
        // Not a person of any platform: its name in the chat's language, never a mention.
        return Span::Msg(Msg::new("computer-name"));
    }
    Span::Mention(Person {
        id: user.platform_user_id.clone(),
        name: user.display_name.clone(),
        username: user.username.clone(),
    })
}

/// People mentioned, joined by commas: "@bob, @carol" (those an offer or a season calls).
pub(super) fn mentions_msg<'a>(people: impl IntoIterator<Item = &'a User>) -> Msg {
    super::challenges::list_msg(
        people
            .into_iter()
            .map(|user| Msg::new("person").span("person", mention(user)))
            .collect(),
    )
}

/// A person, mentioned, with their rating beside the name when `tags` has it: "@bob (1620?)".
pub(super) fn rated_person(user: &User, tags: &RatingTags) -> Msg {
    match tags.get(&user.id) {
        Some(tag) => Msg::new("person-rated")
            .span("person", mention(user))
            .text("rating", tag.clone()),
        None => Msg::new("person").span("person", mention(user)),
    }
}

/// How a player is named where nobody is notified: their name, or the computer's in the
/// chat's language (its level is said where the game begins).
pub(super) fn name_msg(user: &User) -> Msg {
    if is_computer(user) {
        Msg::new("computer-name")
    } else {
        Msg::new("verbatim").text("text", user.display_name.clone())
    }
}

/// A reply of these spans.
pub(super) fn spans_reply(spans: Vec<Span>) -> Reply {
    Reply {
        spans,
        ..Reply::default()
    }
}

/// The pot of a staked game: the stake of each person.
pub(super) fn pot_of(record: &GameRecord) -> i64 {
    record
        .stake
        .saturating_mul(i64::try_from(players(record).len()).unwrap_or(0))
}

/// "@alice takes the pot of 100 coins." (or the partners share it), for a staked game.
pub(super) fn pot_spans(record: &GameRecord, winners: &[UserId]) -> Vec<Span> {
    if record.stake == 0 || winners.is_empty() {
        return Vec::new();
    }
    vec![
        Span::Text(" ".into()),
        Span::Msg(
            Msg::new("pot-taken")
                .msg("stake", coins_msg(record.stake))
                .msg("people", people_msg(record, winners))
                .count("count", winners.len())
                .msg("pot", coins_msg(pot_of(record)))
                .msg(
                    "share",
                    coins_msg(pot_of(record) / i64::try_from(winners.len()).unwrap_or(1)),
                ),
        ),
    ]
}

/// "The stakes (50 each) are returned.", for a staked game.
pub(super) fn refund_spans(record: &GameRecord) -> Vec<Span> {
    if record.stake == 0 {
        return Vec::new();
    }
    vec![
        Span::Text(" ".into()),
        Span::Msg(Msg::new("stakes-returned").msg("stake", coins_msg(record.stake))),
    ]
}
