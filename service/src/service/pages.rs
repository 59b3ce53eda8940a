//! Games' web pages (issue 41): with a public address (`TABULA_PUBLIC_URL`) and pages on in
//! the community (`/config pages=`, on by default), every board carries a link to its game's
//! page, `<public address>/g/<token>`; the token is 128 random bits kept with the game.

use sha2::{Digest, Sha256};

use super::{Goto, Handled, Place, Service};
use crate::l10n::Msg;
use crate::store::{GameNo, GameRecord};

/// The random bytes of a page token (128 bits).
const TOKEN_BYTES: usize = 16;

/// A fresh page token: lower-case hex of [`TOKEN_BYTES`] bytes from the system's randomness.
/// `None` when the system has none to give (no page then, rather than a guessable one).
fn fresh_token() -> Option<String> {
    use rand::TryRngCore;
    let mut bytes = [0u8; TOKEN_BYTES];
    rand::rngs::OsRng.try_fill_bytes(&mut bytes).ok()?;
    Some(hex(&bytes))
}

/// Bytes as lower-case hex.
fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        let _ = write!(out, "{byte:02x}");
    }
    out
}

/// The hash a token is looked up by: SHA-256, lower-case hex.
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Whether `text` has the shape of a page token (32 lower-case hex digits).
pub fn is_token(text: &str) -> bool {
    text.len() == TOKEN_BYTES * 2 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

impl Service {
    /// Sets the bot's public address (`https://bot.example.org`): games get pages, and boards
    /// link to them.
    #[must_use]
    pub fn with_public_url(mut self, url: &str) -> Service {
        let url = url.trim().trim_end_matches('/');
        self.public_url = (!url.is_empty()).then(|| url.to_string());
        self
    }

    /// Whether games have pages at all (a public address is set).
    pub fn has_pages(&self) -> bool {
        self.public_url.is_some()
    }

    /// The address of `game`'s page, when it has one: a public address is set and its
    /// community has pages on. Makes the game's token the first time.
    pub(super) async fn page_url(&self, record: &GameRecord) -> Handled<Option<String>> {
        let Some(public) = &self.public_url else {
            return Ok(None);
        };
        if !self.store.settings(record.community).await?.pages {
            return Ok(None);
        }
        let Some(fresh) = fresh_token() else {
            tracing::error!("no system randomness for a page token: the board has no link");
            return Ok(None);
        };
        let token = self
            .store
            .page_token(record.id, &fresh, &token_hash(&fresh))
            .await?;
        Ok(token.map(|token| format!("{public}/g/{token}")))
    }

    /// The "Open the game" button of a board, when the game has a page.
    pub(super) async fn page_button(&self, record: &GameRecord) -> Handled<Option<Goto>> {
        Ok(self.page_url(record).await?.map(|url| Goto {
            label: String::new(),
            label_msg: Some(Msg::new("board-open-page")),
            to: Place::Web { url },
        }))
    }

    /// The edit of a game's live board whose page link comes or goes with its community's
    /// pages, from its announcement (`{"relink": <game>}`, written with the change of
    /// `/config pages=`): the board's buttons as they are now, with the link exactly when the
    /// game has a page. `None` when the game has no live board, or a newer board is on its way
    /// (it is made with the setting as it is).
    pub(super) async fn relink_of(
        &self,
        payload: &serde_json::Value,
    ) -> Result<Option<super::Reply>, super::ServiceError> {
        let Some(game) = payload.get("relink").and_then(serde_json::Value::as_i64) else {
            return Ok(None);
        };
        let game = GameNo(game);
        let Some((message, seq)) = self.store.live_board(game).await? else {
            return Ok(None);
        };
        let Some(full) = self.full_game(game).await? else {
            return Ok(None);
        };
        if full.record.seq != seq {
            return Ok(None);
        }
        let loaded = self.loaded(&full)?;
        let parts = self.board_parts(&loaded, Vec::new()).await?;
        let goto = self
            .page_button(&loaded.record)
            .await?
            .into_iter()
            .collect();
        Ok(Some(super::Reply {
            game: Some(game),
            rebutton: Some(message),
            buttons: parts.buttons,
            goto,
            ..super::Reply::default()
        }))
    }

    /// The game a page token names, when its page is to be shown: a public address is set,
    /// the token is one, and the game's community has pages on. Otherwise `None`, the same
    /// for a token that does not exist and a page turned off.
    ///
    /// # Errors
    /// A database failure.
    pub async fn game_of_page(&self, token: &str) -> Result<Option<GameNo>, super::ServiceError> {
        if self.public_url.is_none() || !is_token(token) {
            return Ok(None);
        }
        let Some(game) = self.store.game_by_page(&token_hash(token)).await? else {
            return Ok(None);
        };
        let Some(record) = self.store.game(game).await? else {
            return Ok(None);
        };
        if !self.store.settings(record.community).await?.pages {
            return Ok(None);
        }
        Ok(Some(game))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_128_random_bits_in_hex() {
        let tokens: Vec<String> = (0..64).filter_map(|_| fresh_token()).collect();
        assert_eq!(tokens.len(), 64);
        assert!(tokens.iter().all(|t| is_token(t)));
        let distinct: std::collections::BTreeSet<&String> = tokens.iter().collect();
        assert_eq!(distinct.len(), tokens.len());
        assert!(!is_token("1234") && !is_token(&"G".repeat(32)));
        assert_eq!(token_hash("abc").len(), 64);
        assert_ne!(token_hash(&tokens[0]), tokens[0]);
    }
}

/// `msg` with its mentions (`@name`, for the chat's notifications) said as plain names.
fn named(mut msg: crate::l10n::Msg) -> crate::l10n::Msg {
    use crate::l10n::{Arg, Span};
    for (_, arg) in &mut msg.args {
        match arg {
            Arg::Span(span) => {
                if let Span::Mention(person) = span.as_ref() {
                    *arg = Arg::Text(person.name.clone());
                }
            }
            Arg::Msg(inner) => *inner = named(inner.clone()),
            Arg::Num(_) | Arg::Text(_) | Arg::Moment(_) => {}
        }
    }
    msg
}

/// A move of a game's page: its place in the log, its notation (`tabula rules`'), and who
/// made it (none for a roll).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageMove {
    /// Its place in the log, from 1.
    pub seq: u32,
    /// The action as `tabula rules` writes it.
    pub text: String,
    /// Who made it.
    pub by: Option<String>,
}

/// What a game's page shows (issue 41), said in one language: nothing that its chat has not
/// seen (no private reply, no wallet).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageView {
    /// The game.
    pub game: GameNo,
    /// The language it is said in.
    pub lang: crate::l10n::Lang,
    /// How many actions it has.
    pub seq: u32,
    /// Its version ([`Service::page_version`]) as shown.
    pub version: String,
    /// "Game #12 (Konane)".
    pub title: String,
    /// Each seat and who holds it, with their rating when rated.
    pub players: Vec<String>,
    /// Whose turn it is and the clocks, or the result: what its board says.
    pub status: String,
    /// Whether it is being played.
    pub active: bool,
    /// The moves and rolls.
    pub moves: Vec<PageMove>,
    /// The committed dice's commitment (SHA-256 of the seed), when the game has dice.
    pub commitment: Option<String>,
    /// The seed, once the game is over.
    pub seed: Option<String>,
    /// The position in text (`tabula rules show`: notation and a text drawing).
    pub position: String,
    /// The position in words, one line per side: the board's text alternative.
    pub position_words: String,
    /// The page's own words, by catalogue id.
    pub words: Vec<(&'static str, String)>,
}

impl PageView {
    /// The page's word `id` (`page-moves`...).
    pub fn word(&self, id: &str) -> &str {
        self.words
            .iter()
            .find(|(key, _)| *key == id)
            .map_or("", |(_, text)| text.as_str())
    }
}

/// The page's own words.
const PAGE_WORDS: &[&str] = &[
    "page-players",
    "page-moves",
    "page-no-moves",
    "page-board",
    "page-position-text",
    "page-step",
    "page-live",
    "page-offline",
    "page-dice",
    "page-seed",
    "page-seed-later",
    "page-record",
    "page-replay",
];

impl Service {
    /// The language of `game`'s page: its community's when chosen, else the browser's first
    /// known language (`accept`: an `Accept-Language` header), else English.
    async fn page_lang(
        &self,
        record: &GameRecord,
        accept: Option<&str>,
    ) -> Handled<crate::l10n::Lang> {
        use crate::l10n::Lang;
        if let Some(chosen) = self.store.settings(record.community).await?.language
            && let Some(lang) = Lang::parse(&chosen)
        {
            return Ok(lang);
        }
        let browser = accept
            .into_iter()
            .flat_map(|header| header.split(','))
            .find_map(|tag| {
                let tag = tag.split(';').next().unwrap_or("").trim();
                Lang::parse(tag).or_else(|| Lang::parse(tag.split('-').next().unwrap_or("")))
            });
        Ok(browser.unwrap_or(Lang::ENGLISH))
    }

    /// What `game`'s page shows, in its community's language or else the browser's
    /// (`accept`), and its board now as a scene (the page draws it as SVG); `None` for a game
    /// that is not there. The game is loaded once for both.
    ///
    /// # Errors
    /// A database failure, or a stored game that does not replay.
    pub async fn page_now(
        &self,
        game: GameNo,
        accept: Option<&str>,
    ) -> Result<Option<(PageView, tabula_render::scene::Scene)>, super::ServiceError> {
        let Some(full) = self.full_game(game).await? else {
            return Ok(None);
        };
        let loaded = self.loaded(&full)?;
        let lang = self.page_lang(&loaded.record, accept).await?;
        let tags = self.game_rating_tags(&loaded.record).await?;
        let scene = scene_of(&loaded, lang, &tags, true);
        let view = self.view_of(&full, &loaded, lang, &tags).await?;
        Ok(Some((view, scene)))
    }

    /// What the page of the game `full` (replayed: `loaded`) shows, said in `lang`.
    async fn view_of(
        &self,
        full: &crate::store::LoadedGame,
        loaded: &super::Loaded,
        lang: crate::l10n::Lang,
        tags: &super::narration::RatingTags,
    ) -> Result<PageView, super::ServiceError> {
        use crate::l10n::{Msg, Span, game_msg};
        let record = &loaded.record;
        let parts = self.board_parts(loaded, Vec::new()).await?;
        let status: String = parts
            .spans
            .iter()
            .map(|span| match span {
                // A web page notifies nobody: names as names.
                Span::Mention(person) => person.name.clone(),
                Span::Msg(msg) => named(msg.clone()).to_text(lang),
                other => other.plain(),
            })
            .collect::<String>()
            .trim()
            .to_string();
        let players = record
            .seats
            .iter()
            .map(|holder| {
                let person = match tags.get(&holder.user.id) {
                    Some(tag) => format!("{} ({tag})", holder.user.display_name),
                    None => super::narration::name_msg(&holder.user).to_text(lang),
                };
                format!(
                    "{}: {person}",
                    super::seat_msg(super::seat_label(record.game, holder.seat)).to_text(lang)
                )
            })
            .collect();
        let name_of = |user: crate::store::UserId| {
            super::seated(record, user).map(|u| super::narration::name_msg(u).to_text(lang))
        };
        let moves = full
            .actions
            .iter()
            .map(|action| PageMove {
                seq: action.seq,
                text: action.action.clone(),
                by: action.actor.and_then(name_of),
            })
            .collect();
        let file = super::export::record_of(record, &full.actions);
        let commitment = file.get("Commitment").map(|(value, _)| value.to_string());
        let seed = if record.status == crate::store::GameStatus::Active {
            None
        } else {
            file.get("Seed").map(|(value, _)| value.to_string())
        };
        let title = Msg::new("page-title")
            .text("game", format!("#{}", record.id))
            .msg("name", game_msg(record.game))
            .to_text(lang);
        let words = PAGE_WORDS
            .iter()
            .map(|id| (*id, Msg::new(id).to_text(lang)))
            .collect();
        Ok(PageView {
            game: record.id,
            lang,
            seq: record.seq,
            version: version_of(record),
            title,
            players,
            status,
            active: record.status == crate::store::GameStatus::Active,
            moves,
            commitment,
            seed,
            position_words: position_words(
                record.game,
                loaded.state.show_text().lines().next().unwrap_or_default(),
                lang,
            ),
            position: loaded.state.show_text(),
            words,
        })
    }

    /// `game`'s picture after its first `at` actions as a scene (the page's slider); `None`
    /// for a game that is not there or an `at` past its end.
    ///
    /// # Errors
    /// A database failure, or a stored game that does not replay.
    pub async fn page_scene(
        &self,
        game: GameNo,
        at: u32,
        accept: Option<&str>,
    ) -> Result<Option<tabula_render::scene::Scene>, super::ServiceError> {
        let Some(mut full) = self.full_game(game).await? else {
            return Ok(None);
        };
        if at > full.record.seq {
            return Ok(None);
        }
        let finished = at == full.record.seq;
        full.actions
            .truncate(usize::try_from(at).unwrap_or(usize::MAX));
        let loaded = self.loaded(&full)?;
        let lang = self.page_lang(&loaded.record, accept).await?;
        let tags = self.game_rating_tags(&loaded.record).await?;
        Ok(Some(scene_of(&loaded, lang, &tags, finished)))
    }

    /// `/export`'s file of `game`, as its page links to it.
    ///
    /// # Errors
    /// A database failure.
    pub async fn page_record(&self, game: GameNo) -> Result<Option<String>, super::ServiceError> {
        let Some(full) = self.full_game(game).await? else {
            return Ok(None);
        };
        Ok(Some(self.record_text(&full).await?))
    }

    /// `/replay`'s GIF of `game`, as its page links to it once the game is over; `None` while
    /// it runs or when it is larger than `/replay` sends.
    ///
    /// # Errors
    /// A database failure, or a stored game that does not replay.
    pub async fn page_replay(
        &self,
        game: GameNo,
        accept: Option<&str>,
    ) -> Result<Option<Vec<u8>>, super::ServiceError> {
        let Some(full) = self.full_game(game).await? else {
            return Ok(None);
        };
        // Made once the game is over (its page links to it then), within `/replay`'s size.
        if full.record.status == crate::store::GameStatus::Active {
            return Ok(None);
        }
        let lang = self.page_lang(&full.record, accept).await?;
        let replay = super::export::replay_gif(full, lang).await?;
        Ok((replay.bytes.len() <= super::export::MAX_REPLAY_BYTES).then_some(replay.bytes))
    }

    /// `game` with its whole log, as every page shows it.
    async fn full_game(
        &self,
        game: GameNo,
    ) -> Result<Option<crate::store::LoadedGame>, super::ServiceError> {
        Ok(self
            .store
            .load_game(game, crate::store::History::Full)
            .await?)
    }

    /// The version of `game` now, which changes with every stored change a page shows (a
    /// move, a takeback, an ending): its actions, status and time of the last change. Cheap:
    /// the page's live stream asks it twice a second.
    ///
    /// # Errors
    /// A database failure.
    pub async fn page_version(&self, game: GameNo) -> Result<Option<String>, super::ServiceError> {
        Ok(self.store.game(game).await?.as_ref().map(version_of))
    }

    /// Whether message `message` is still `game`'s newest board showing its buttons: an
    /// adapter that edited its buttons ([`super::Reply::rebutton`]) takes them off again when
    /// a newer board came meanwhile.
    ///
    /// # Errors
    /// A database failure.
    pub async fn is_live_board(
        &self,
        game: GameNo,
        message: &str,
    ) -> Result<bool, super::ServiceError> {
        Ok(self
            .store
            .live_board(game)
            .await?
            .is_some_and(|(live, _)| live == message))
    }
}

/// The picture of `loaded` as a scene, in `lang`, its players with their ratings (`tags`);
/// `last`: it is the game's last position, whose title says how a game ended other than on the
/// board.
fn scene_of(
    loaded: &super::Loaded,
    lang: crate::l10n::Lang,
    tags: &super::narration::RatingTags,
    last: bool,
) -> tabula_render::scene::Scene {
    let words = super::PictureWords::new(lang)
        .with_players(&loaded.record)
        .with_ratings(&loaded.record, tags);
    let title = (last && loaded.record.status != crate::store::GameStatus::Active).then(|| {
        super::narration::stored_verdict(&loaded.record)
            .2
            .to_text(lang)
    });
    match &title {
        Some(title) => {
            tabula_render::scene_titled_in(&loaded.state, loaded.recent.last(), title, &words)
        }
        None => tabula_render::scene_after_in(&loaded.state, &loaded.recent, &words),
    }
}

/// The version of a game ([`Service::page_version`]): its actions, status and time of the last
/// change.
fn version_of(record: &GameRecord) -> String {
    format!(
        "{}-{}-{}",
        record.seq,
        record.status.as_str(),
        record.updated_at.0
    )
}

/// The position string `position` (its `key=value` words, `tabula rules show`'s first line) of
/// a game of `game` said in `lang`, one line per side: each side's pieces by cell (Koan's by
/// shape; Pachisi's by how far along the track). Keys that are no side's (the turn, the size,
/// the phase) are left out: the page's status says whose turn it is.
fn position_words(game: tabula_core::GameId, position: &str, lang: crate::l10n::Lang) -> String {
    use crate::l10n::Msg;
    let mut lines = Vec::new();
    for word in position.split_whitespace() {
        let Some((key, value)) = word.split_once('=') else {
            continue;
        };
        let (side, kind) = match key.split_once('-') {
            Some((side, "oct")) => (side, Some("octagonal")),
            Some((side, "sq")) => (side, Some("square")),
            // Coan Ki's pieces that have come home.
            Some((side, "home")) => (side, Some("home")),
            Some(_) => continue,
            None => (key, None),
        };
        let label = super::label(side);
        if label == "?" || key == "turn" {
            continue;
        }
        let side = super::seat_msg(label);
        let items: Vec<&str> = value.split(',').filter(|item| !item.is_empty()).collect();
        let msg = if game == tabula_core::GameId::Pachisi {
            let steps: Vec<u32> = items.iter().filter_map(|item| item.parse().ok()).collect();
            let on_track: Vec<String> = steps
                .iter()
                .filter(|&&at| at > 0 && at < 84)
                .map(u32::to_string)
                .collect();
            let count = |wanted: &dyn Fn(u32) -> bool| {
                i64::try_from(steps.iter().filter(|&&at| wanted(at)).count()).unwrap_or(0)
            };
            let track = if on_track.is_empty() {
                Msg::new("page-track-empty").to_text(lang)
            } else {
                on_track.join(", ")
            };
            Msg::new("page-side-pachisi")
                .msg("side", side)
                .num("waiting", count(&|at| at == 0))
                .num("home", count(&|at| at >= 84))
                .text("steps", track)
        } else if items.is_empty() && kind.is_none() {
            Msg::new("page-side-none").msg("side", side)
        } else {
            // A Coan Ki stack, "a1x8", as "a1 ×8".
            let cells: Vec<String> = items
                .iter()
                .map(|item| match item.split_once('x') {
                    Some((cell, count)) if count.parse::<u32>().is_ok() => {
                        format!("{cell} ×{count}")
                    }
                    _ => (*item).to_string(),
                })
                .collect();
            let cells = if cells.is_empty() {
                Msg::new("page-track-empty").to_text(lang)
            } else {
                cells.join(", ")
            };
            match kind {
                Some(kind) => Msg::new("page-side-shaped")
                    .msg("side", side)
                    .text("shape", kind)
                    .text("cells", cells),
                None => Msg::new("page-side-pieces")
                    .msg("side", side)
                    .text("cells", cells),
            }
        };
        lines.push(msg.to_text(lang));
    }
    lines.join("\n")
}

#[cfg(test)]
mod words_tests {
    use super::position_words;
    use crate::l10n::Lang;
    use tabula_core::GameId;

    #[test]
    fn the_position_is_said_side_by_side_in_the_language() {
        let konane = position_words(
            GameId::Konane,
            "size=6 turn=white black=a2,c4 white=",
            Lang::ENGLISH,
        );
        assert_eq!(konane, "Black: a2, c4\nWhite: no pieces");
        let koan = position_words(
            GameId::Koan,
            "turn=white white-oct=A1,C1 white-sq=B2 black-oct= black-sq=B10",
            Lang::ENGLISH,
        );
        assert_eq!(
            koan,
            "White, octagonal pieces: A1, C1\nWhite, square pieces: B2\n\
             Black, octagonal pieces: none\nBlack, square pieces: B10"
        );
        let coan_ki = position_words(
            GameId::CoanKi,
            "turn=black white=a1x5,c2x2 white-home=a1x2 black=g2x5 black-home=",
            Lang::ENGLISH,
        );
        assert_eq!(
            coan_ki,
            "White: a1 ×5, c2 ×2\nWhite, pieces home: a1 ×2\nBlack: g2 ×5\n\
             Black, pieces home: none"
        );
        let pachisi = position_words(
            GameId::Pachisi,
            "turn=W phase=decide S=0,6,13,84 E=0,0,0,0 N=84,84,84,84 W=0,0,0,33 entered=S,E,N,W",
            Lang::ENGLISH,
        );
        assert_eq!(
            pachisi.lines().next(),
            Some("South: 1 to enter, 1 home, on the track: 6, 13")
        );
        assert_eq!(
            pachisi.lines().nth(1),
            Some("East: 4 to enter, 0 home, on the track: none")
        );
        let russian = position_words(
            GameId::Konane,
            "black=a2 white=b1",
            Lang::parse("ru").expect("ru"),
        );
        assert!(
            !russian.contains("Black") && russian.contains("a2"),
            "{russian}"
        );
    }
}
