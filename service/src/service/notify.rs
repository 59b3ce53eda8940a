//! `/notify`: how a person is told that it is their move (issue 38). Each setting is the
//! person's own, the same in every chat: where (`chat`: the board's mention, as always;
//! `private`: a private message instead; `both`), the reminder at half time (on unless turned
//! off) and a last call when a tenth of the time is left (off unless turned on). `/notify`
//! alone shows them with a button to change each; `/notify private`, `/notify lastcall on` and
//! the like set one.

use super::narration::said_button;
use super::{Ctx, Handled, Placement, Reply, Service, UserError};
use crate::l10n::{Lang, Msg, Span};
use crate::store::{GameNo, NotifyPlace, NotifySettings, Quiet, Timestamp, UserId};

/// The panel's button that ends quiet hours (`o<user>.8`).
const QUIET_OFF: i64 = 8;

/// The panel's button that chooses the daily digest (`o<user>.9`).
const DIGEST: i64 = 9;

/// The digest's time when the person names none: 09:00.
const DIGEST_DEFAULT: u16 = 9 * 60;

/// The most pings claimed in one transaction.
const PING_BATCH: i64 = 100;

/// A setting of `/notify` that can be switched, as typed and on its button.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Switch {
    /// The reminder at half time.
    Halftime,
    /// The last call, when a tenth of the time is left.
    LastCall,
}

impl Switch {
    /// The setting a typed word names (`halftime`, `lastcall`, and the forms people type).
    fn parse(word: &str) -> Option<Switch> {
        match word {
            "halftime" | "half-time" | "half" | "reminder" | "reminders" => Some(Switch::Halftime),
            "lastcall" | "last-call" | "last" => Some(Switch::LastCall),
            _ => None,
        }
    }

    /// Its button's number: `o<user>.<number>` sets it to `on`.
    fn code(self, on: bool) -> i64 {
        match (self, on) {
            (Switch::Halftime, true) => 1,
            (Switch::Halftime, false) => 2,
            (Switch::LastCall, true) => 3,
            (Switch::LastCall, false) => 4,
        }
    }

    /// The setting and value of a button's number.
    fn of_code(code: i64) -> Option<(Switch, bool)> {
        Some(match code {
            1 => (Switch::Halftime, true),
            2 => (Switch::Halftime, false),
            3 => (Switch::LastCall, true),
            4 => (Switch::LastCall, false),
            _ => return None,
        })
    }

    fn set(self, settings: &mut NotifySettings, on: bool) {
        match self {
            Switch::Halftime => settings.halftime = on,
            Switch::LastCall => settings.lastcall = on,
        }
    }

    fn get(self, settings: NotifySettings) -> bool {
        match self {
            Switch::Halftime => settings.halftime,
            Switch::LastCall => settings.lastcall,
        }
    }
}

/// `on` or `off` as typed (`yes`/`no` and `1`/`0` too).
fn parse_on_off(word: &str) -> Option<bool> {
    match word {
        "on" | "yes" | "1" | "true" => Some(true),
        "off" | "no" | "0" | "false" => Some(false),
        _ => None,
    }
}

/// A change `/notify` makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Change {
    /// A reminder on or off.
    Switch(Switch, bool),
    /// Where the person is told.
    Place(NotifyPlace),
}

impl Change {
    /// Its button's number (`o<user>.<number>`).
    fn code(self) -> i64 {
        match self {
            Change::Switch(switch, on) => switch.code(on),
            Change::Place(NotifyPlace::Chat) => 5,
            Change::Place(NotifyPlace::Private) => 6,
            Change::Place(NotifyPlace::Both) => 7,
            Change::Place(NotifyPlace::Digest) => DIGEST,
        }
    }

    /// The change of a button's number.
    fn of_code(code: i64) -> Option<Change> {
        match code {
            5 => Some(Change::Place(NotifyPlace::Chat)),
            6 => Some(Change::Place(NotifyPlace::Private)),
            7 => Some(Change::Place(NotifyPlace::Both)),
            DIGEST => Some(Change::Place(NotifyPlace::Digest)),
            _ => Switch::of_code(code).map(|(switch, on)| Change::Switch(switch, on)),
        }
    }

    /// Applies it: whether it changed anything.
    fn apply(self, settings: &mut NotifySettings) -> bool {
        let before = *settings;
        match self {
            Change::Switch(switch, on) => switch.set(settings, on),
            Change::Place(place) => settings.place = place,
        }
        *settings != before
    }

    /// What a toast says of it.
    fn said(self) -> Msg {
        match self {
            Change::Switch(switch, on) => changed_msg(switch, on),
            Change::Place(place) => Msg::new("notify-place").msg("place", place_msg(place)),
        }
    }
}

/// Whether `hours` hold at `at`: the local time in their zone is from their start (included)
/// to their end (not included); hours that end before they start run past midnight. An
/// unknown zone holds no hours.
fn quiet_at(hours: &Quiet, at: Timestamp) -> bool {
    let (Ok(zone), Ok(moment)) = (
        jiff::tz::TimeZone::get(&hours.zone),
        jiff::Timestamp::from_millisecond(at.0),
    ) else {
        return false;
    };
    let local = moment.to_zoned(zone);
    let minute =
        u16::try_from(i32::from(local.hour()) * 60 + i32::from(local.minute())).unwrap_or(0);
    if hours.start <= hours.end {
        hours.start <= minute && minute < hours.end
    } else {
        minute >= hours.start || minute < hours.end
    }
}

/// When `hours`, holding at `at`, end: the first whole minute after `at` when they do not
/// hold (within two days; `None` for hours that never end).
fn quiet_until(hours: &Quiet, at: Timestamp) -> Option<Timestamp> {
    let minute = 60_000;
    let start = at.0 - at.0.rem_euclid(minute);
    (1..=2 * 24 * 60)
        .map(|n| Timestamp(start + n * minute))
        .find(|moment| !quiet_at(hours, *moment))
}

/// When what is said privately to a person with `hours` at `now` may go: `None` at once
/// (their hours do not hold), else when they end.
pub(super) fn held_until(hours: &Quiet, now: Timestamp) -> Option<Timestamp> {
    if quiet_at(hours, now) {
        quiet_until(hours, now)
    } else {
        None
    }
}

/// A line saying a turn of `record` waits for the reader (`id`: `ping-your-move`,
/// `ping-line`): which game, in which chat, the time left and the deadline.
fn turn_line(
    id: &'static str,
    record: &crate::store::GameRecord,
    chat: &str,
    deadline: Timestamp,
    now: Timestamp,
) -> Msg {
    Msg::new(id)
        .text("game", format!("#{}", record.id))
        .msg("name", crate::l10n::game_msg(record.game))
        .text("chat", chat)
        .msg("left", crate::l10n::duration_msg(deadline.0 - now.0))
        .moment("until", deadline.0)
}

/// The label of a link to a game: "#12 Konane".
pub(super) fn game_button(record: &crate::store::GameRecord) -> Msg {
    Msg::new("mygames-button")
        .text("game", format!("#{}", record.id))
        .msg("name", crate::l10n::game_msg(record.game))
}

/// `HH:MM` as minutes after midnight.
fn parse_clock(text: &str) -> Option<u16> {
    let (hours, minutes) = text.split_once(':')?;
    let (hours, minutes): (u16, u16) = (hours.parse().ok()?, minutes.parse().ok()?);
    (hours < 24 && minutes < 60 && minutes.to_string().len() <= 2 && text.len() <= 5)
        .then_some(hours * 60 + minutes)
}

/// `22:00-08:00 Europe/Sofia` (the zone may be left out: `default_zone`, else UTC): quiet
/// hours, or what is wrong with them.
fn parse_quiet(words: &[&str], default_zone: Option<&str>) -> Result<Quiet, UserError> {
    let bad = || UserError::BadQuiet;
    let (span, zone) = match words {
        [span] => (*span, default_zone.unwrap_or("UTC")),
        [span, zone] => (*span, *zone),
        _ => return Err(bad()),
    };
    let (start, end) = span.split_once('-').ok_or_else(bad)?;
    let (Some(start), Some(end)) = (parse_clock(start), parse_clock(end)) else {
        return Err(bad());
    };
    if start == end {
        return Err(bad());
    }
    Ok(Quiet {
        start,
        end,
        zone: known_zone(zone)?,
    })
}

/// A time zone's own spelling (`Europe/Sofia`), however it was typed, if it is known.
fn known_zone(zone: &str) -> Result<String, UserError> {
    jiff::tz::TimeZone::get(zone)
        .ok()
        .and_then(|tz| tz.iana_name().map(str::to_owned))
        .ok_or_else(|| UserError::UnknownZone(crate::l10n::quote(zone)))
}

/// `08:00 Europe/Sofia` (the zone may be left out: `default_zone`, else UTC): the digest's
/// time and zone.
fn parse_digest(words: &[&str], default_zone: Option<&str>) -> Result<(u16, String), UserError> {
    let (at, zone) = match words {
        [at] => (*at, default_zone.unwrap_or("UTC")),
        [at, zone] => (*at, *zone),
        _ => return Err(UserError::BadDigest),
    };
    let minute = parse_clock(at).ok_or(UserError::BadDigest)?;
    Ok((minute, known_zone(zone)?))
}

/// The local day (`2027-01-11`) whose digest is due at `at` for a digest at `minute` in
/// `zone`: today's once its time has come, else none.
fn digest_due(minute: u16, zone: &str, at: Timestamp) -> Option<String> {
    let zone = jiff::tz::TimeZone::get(zone).ok()?;
    let local = jiff::Timestamp::from_millisecond(at.0).ok()?.to_zoned(zone);
    let now = i32::from(local.hour()) * 60 + i32::from(local.minute());
    (now >= i32::from(minute)).then(|| local.date().to_string())
}

/// `HH:MM`.
fn clock_text(minutes: u16) -> String {
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

/// What `/notify <text>` asks to change.
fn parse(text: &str) -> Result<Change, UserError> {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let unknown = || UserError::UnknownNotify(crate::l10n::quote(text.trim()));
    match words.as_slice() {
        ["chat" | "group" | "here"] => Ok(Change::Place(NotifyPlace::Chat)),
        ["private" | "privately" | "dm" | "pm"] => Ok(Change::Place(NotifyPlace::Private)),
        ["both"] => Ok(Change::Place(NotifyPlace::Both)),
        ["digest"] => Ok(Change::Place(NotifyPlace::Digest)),
        [setting, value] => match (Switch::parse(setting), parse_on_off(value)) {
            (Some(switch), Some(on)) => Ok(Change::Switch(switch, on)),
            _ => Err(unknown()),
        },
        _ => Err(unknown()),
    }
}

fn place_msg(place: NotifyPlace) -> Msg {
    Msg::new(match place {
        NotifyPlace::Chat => "notify-place-chat",
        NotifyPlace::Private => "notify-place-private",
        NotifyPlace::Both => "notify-place-both",
        NotifyPlace::Digest => "notify-place-digest",
    })
}

impl Service {
    /// `/notify [change]`: shows the person's settings, or changes one and shows them.
    /// Private to the person, with a button to change each.
    pub(super) async fn notify(&self, ctx: &Ctx, text: Option<&str>) -> Handled<Reply> {
        let text = text.map(str::trim).filter(|text| !text.is_empty());
        let words: Vec<&str> = text
            .map(|t| t.split_whitespace().collect())
            .unwrap_or_default();
        let settings = match (text, words.first()) {
            (None, _) => self.store.notify_settings(ctx.user.id).await?,
            (Some(_), Some(first)) if first.eq_ignore_ascii_case("quiet") => {
                let quiet = match &words[1..] {
                    [off] if off.eq_ignore_ascii_case("off") => None,
                    rest => {
                        let before = self.store.notify_quiet(ctx.user.id).await?;
                        Some(parse_quiet(rest, before.as_ref().map(|q| q.zone.as_str()))?)
                    }
                };
                self.not_repeated(ctx).await?;
                self.store
                    .set_notify_quiet(ctx.user.id, quiet.as_ref(), Some(&ctx.key), ctx.now)
                    .await?;
                self.store.notify_settings(ctx.user.id).await?
            }
            (Some(_), Some(first)) if first.eq_ignore_ascii_case("digest") && words.len() > 1 => {
                let before = self.store.notify_quiet(ctx.user.id).await?;
                let (minute, zone) =
                    parse_digest(&words[1..], before.as_ref().map(|q| q.zone.as_str()))?;
                self.not_repeated(ctx).await?;
                let settings = self
                    .change_notify(ctx, Change::Place(NotifyPlace::Digest))
                    .await?;
                self.store
                    .set_notify_digest(ctx.user.id, minute, &zone, ctx.now)
                    .await?;
                settings
            }
            (Some(text), _) => {
                let change = parse(text)?;
                self.not_repeated(ctx).await?;
                self.change_notify(ctx, change).await?
            }
        };
        let quiet = self.store.notify_quiet(ctx.user.id).await?;
        let digest = self.store.notify_digest(ctx.user.id).await?;
        Ok(panel(
            ctx.user.id,
            settings,
            quiet.as_ref(),
            digest.as_ref(),
            text.is_some(),
        ))
    }

    /// A button of the `/notify` panel (`o<user>.<code>`): only its person may press it; the
    /// panel is edited to show the change, and a toast says it.
    pub(super) async fn notify_pressed(&self, ctx: &Ctx, owner: i64, code: i64) -> Handled<Reply> {
        let change = match code {
            QUIET_OFF => None,
            _ => Some(Change::of_code(code).ok_or(UserError::BadButton)?),
        };
        if owner != ctx.user.id.0 {
            return Err(UserError::NotYourSettings.into());
        }
        self.not_repeated(ctx).await?;
        let (settings, said) = match change {
            Some(change) => (self.change_notify(ctx, change).await?, change.said()),
            None => {
                self.store
                    .set_notify_quiet(ctx.user.id, None, Some(&ctx.key), ctx.now)
                    .await?;
                (
                    self.store.notify_settings(ctx.user.id).await?,
                    Msg::new("notify-quiet-none"),
                )
            }
        };
        let quiet = self.store.notify_quiet(ctx.user.id).await?;
        let digest = self.store.notify_digest(ctx.user.id).await?;
        let mut reply = panel(ctx.user.id, settings, quiet.as_ref(), digest.as_ref(), true);
        reply.toast = vec![Span::Msg(said)];
        reply.placement = Placement::UpdatePressed;
        Ok(reply)
    }

    /// Whether `user`, to move in `record`, is told privately instead of by the board's
    /// mention: they asked for private pings only, the game's community allows them, and no
    /// private message to them was refused.
    pub(super) async fn told_privately_only(
        &self,
        user: &crate::store::User,
        record: &crate::store::GameRecord,
    ) -> Result<bool, crate::service::ServiceError> {
        let own = self.store.notify_settings(user.id).await?;
        if own.place.in_chat() || own.unreachable {
            return Ok(false);
        }
        Ok(self.store.settings(record.community).await?.private_pings)
    }

    /// Claims the turns due a private ping and writes each ping to the outbox (in the
    /// same transaction: see [`crate::store::Store::claim_pings_to_outbox`]): how many. The
    /// scheduler does it at every tick, and the running bot whenever [`Service::pings_woken`].
    ///
    /// # Errors
    /// Internal failures (the database).
    pub async fn claim_pings(&self) -> Result<usize, crate::service::ServiceError> {
        let mut written = 0;
        let now = self.clock.now();
        loop {
            let games = self.store.claim_pings_to_outbox(now, PING_BATCH).await?;
            written += games.len();
            if i64::try_from(games.len()).unwrap_or(0) < PING_BATCH {
                break;
            }
        }
        // Those with quiet hours: claimed when their hours do not hold, several at once in
        // one message.
        let quiet = |hours: &Quiet| quiet_at(hours, now);
        written += self
            .store
            .claim_quiet_pings_to_outbox(now, PING_BATCH, &quiet)
            .await?
            .len();
        Ok(written)
    }

    /// Claims the daily digests whose time has come and writes each to the outbox: how many.
    /// The scheduler does it at every tick (a digest depends on the clock, not on boards).
    ///
    /// # Errors
    /// Internal failures (the database).
    pub(super) async fn claim_digests(&self) -> Result<usize, crate::service::ServiceError> {
        let now = self.clock.now();
        let due = |minute: u16, zone: &str| digest_due(minute, zone, now);
        Ok(self
            .store
            .claim_digests_to_outbox(now, PING_BATCH, &due)
            .await?)
    }

    /// Waits until a turn may be due a private ping (a board was posted, so the ping can link
    /// to it), or returns at once if one was since the last wait: the running bot claims pings
    /// then.
    pub async fn pings_woken(&self) {
        self.ping_wake.notified().await;
    }

    /// Wakes the ping claimer: a person is to move somewhere.
    pub(super) fn wake_pings(&self) {
        self.ping_wake.notify_one();
    }

    /// The private ping of outbox `row` (payload `{"ping": user, "game": g, "seq": s}`): the
    /// board as it stands with what happened since the person's own last move, under one line
    /// saying which game, in which chat, and how long is left, in the person's language, with
    /// a button to the game's newest board; no buttons to play (the game is played in its
    /// chat). `None` when it no longer applies (the turn moved on). A person who is looking
    /// (they acted in the game within the last minute) is not pinged: the store counts that
    /// turn's ping as sent when it starts.
    pub(super) async fn ping_of(
        &self,
        row: &crate::store::OutboxRow,
        payload: &serde_json::Value,
    ) -> Result<Option<Reply>, crate::service::ServiceError> {
        use crate::store::{GameStatus, History};
        let number = |key: &str| payload.get(key).and_then(serde_json::Value::as_i64);
        if let (Some(user), Some(games)) = (
            number("ping"),
            payload.get("games").and_then(serde_json::Value::as_array),
        ) {
            let games: Vec<(i64, i64)> = games
                .iter()
                .filter_map(|pair| Some((pair.get(0)?.as_i64()?, pair.get(1)?.as_i64()?)))
                .collect();
            return self
                .pings_of(row, &[UserId(user)], &games, "ping-several")
                .await;
        }
        let (Some(user), Some(game), Some(seq)) = (number("ping"), number("game"), number("seq"))
        else {
            return Ok(None);
        };
        let user = UserId(user);
        let Some(stored) = self.store.load_game(GameNo(game), History::Full).await? else {
            return Ok(None);
        };
        let record = &stored.record;
        let Some(clock) = record.clock.filter(|_| record.status == GameStatus::Active) else {
            return Ok(None);
        };
        let now = self.clock.now();
        if clock.user != user || i64::from(record.seq) != seq || clock.deadline_at <= now {
            return Ok(None);
        }
        let Some(chat) = self.store.chat(record.chat).await? else {
            return Ok(None);
        };
        let lang = self.private_lang(user, record).await?;
        let link = self
            .board_link(record, Msg::new("button-open-game"))
            .await?;
        // What happened since the person's own last action.
        let from = stored
            .actions
            .iter()
            .rposition(|action| action.actor == Some(user))
            .map_or(0, |at| at + 1);
        let line = turn_line(
            "ping-your-move",
            record,
            &chat.title,
            clock.deadline_at,
            now,
        );
        let header = vec![Span::Msg(line), Span::Text("\n".into())];
        let board = self.replayed_board(stored, from, header).await?;
        let mut reply = Reply {
            address: super::Address {
                platform: row.platform,
                chat: row.platform_chat_id.clone(),
                thread: None,
            },
            spans: board.spans,
            picture: board.picture,
            goto: link.into_iter().collect(),
            ..Reply::default()
        };
        reply.localize(lang);
        super::limits::fit(&mut reply, lang);
        Ok(Some(reply))
    }

    /// Several private pings in one message under `heading` (what came due during the
    /// person's quiet hours, or the daily digest): a line per game still waiting for them (which game, in which chat, the time
    /// left), each with a link to its board; `None` when none still waits.
    async fn pings_of(
        &self,
        row: &crate::store::OutboxRow,
        users: &[UserId],
        games: &[(i64, i64)],
        heading: &'static str,
    ) -> Result<Option<Reply>, crate::service::ServiceError> {
        let now = self.clock.now();
        let mut lines = Vec::new();
        let mut links = Vec::new();
        let mut lang = None;
        for &(game, seq) in games {
            let Some(record) = self.store.game(GameNo(game)).await? else {
                continue;
            };
            let Some(clock) = record
                .clock
                .filter(|clock| users.contains(&clock.user) && clock.deadline_at > now)
            else {
                continue;
            };
            if i64::from(record.seq) != seq {
                continue;
            }
            let Some(chat) = self.store.chat(record.chat).await? else {
                continue;
            };
            if lang.is_none() {
                lang = Some(self.private_lang(users[0], &record).await?);
            }
            lines.push(Span::Text("\n".into()));
            lines.push(Span::Msg(turn_line(
                "ping-line",
                &record,
                &chat.title,
                clock.deadline_at,
                now,
            )));
            links.extend(self.board_link(&record, game_button(&record)).await?);
        }
        let Some(lang) = lang else {
            return Ok(None);
        };
        let count = lines.len() / 2;
        let mut spans = vec![Span::Msg(
            Msg::new(heading).num("count", i64::try_from(count).unwrap_or(i64::MAX)),
        )];
        spans.extend(lines);
        let mut reply = Reply {
            address: super::Address {
                platform: row.platform,
                chat: row.platform_chat_id.clone(),
                thread: None,
            },
            spans,
            goto: links,
            ..Reply::default()
        };
        reply.localize(lang);
        super::limits::fit(&mut reply, lang);
        Ok(Some(reply))
    }

    /// A link button to the newest board of `record` in its chat (`label`), if one was posted.
    pub(super) async fn board_link(
        &self,
        record: &crate::store::GameRecord,
        label: Msg,
    ) -> Result<Option<super::Goto>, crate::service::ServiceError> {
        let (Some(chat), Some((message, _))) = (
            self.store.chat(record.chat).await?,
            self.store.board_seqs(record.id).await?.into_iter().next(),
        ) else {
            return Ok(None);
        };
        Ok(Some(super::Goto {
            label: String::new(),
            label_msg: Some(label),
            to: super::Place::Message {
                platform: chat.platform,
                chat: chat.platform_chat_id,
                community: chat.platform_community_id,
                message,
            },
        }))
    }

    /// The language `user` reads privately about a game of `record`'s community: their own
    /// choice, else the community's.
    async fn private_lang(
        &self,
        user: UserId,
        record: &crate::store::GameRecord,
    ) -> Result<Lang, crate::service::ServiceError> {
        let community = self.store.settings(record.community).await?.language;
        let (own, _) = self.store.languages(user, record.community).await?;
        Ok(Lang::choose(own.as_deref(), None, community.as_deref()))
    }

    /// The daily digest of outbox `row` (payload `{"digest": user}`): every game waiting for
    /// the person's move, the nearest deadline first, each with its chat, the time left and a
    /// link to its board; `None` when none waits any more.
    pub(super) async fn digest_of(
        &self,
        row: &crate::store::OutboxRow,
        user: UserId,
    ) -> Result<Option<Reply>, crate::service::ServiceError> {
        // Linked identities share one digest, of the games of both platforms.
        let users: Vec<UserId> = std::iter::once(user)
            .chain(self.store.linked(user).await?)
            .collect();
        let mut games: Vec<(i64, i64, i64)> = Vec::new();
        for who in &users {
            games.extend(
                self.store
                    .active_games_of_user(*who, None)
                    .await?
                    .into_iter()
                    .filter_map(|record| {
                        let clock = record.clock.filter(|clock| clock.user == *who)?;
                        Some((clock.deadline_at.0, record.id.0, i64::from(record.seq)))
                    }),
            );
        }
        games.sort_unstable();
        let pairs: Vec<(i64, i64)> = games.iter().map(|(_, id, seq)| (*id, *seq)).collect();
        self.pings_of(row, &users, &pairs, "digest-heading").await
    }

    /// A reminder of `record` as its player reads it privately (they are told privately
    /// only): in their language, its buttons (which act in the game's chat) replaced by a link
    /// to the game's newest board.
    pub(super) async fn said_privately(
        &self,
        row: &crate::store::OutboxRow,
        record: &crate::store::GameRecord,
        mut reply: Reply,
    ) -> Result<Option<Reply>, crate::service::ServiceError> {
        let Some(clock) = record.clock else {
            return Ok(None);
        };
        let lang = self.private_lang(clock.user, record).await?;
        reply.buttons.clear();
        reply.address = super::Address {
            platform: row.platform,
            chat: row.platform_chat_id.clone(),
            thread: None,
        };
        reply.goto = self
            .board_link(record, Msg::new("button-open-game"))
            .await?
            .into_iter()
            .collect();
        // Said away from the game's chat: which chat it is in comes first.
        if let Some(chat) = self.store.chat(record.chat).await? {
            reply.spans.insert(
                0,
                Span::Msg(Msg::new("said-in-chat").text("chat", chat.title)),
            );
        }
        // Not a board of the game: nothing of the game's chat is recorded for it.
        reply.game = None;
        reply.question = false;
        reply.localize(lang);
        super::limits::fit(&mut reply, lang);
        Ok(Some(reply))
    }

    /// The hint after a private ping was refused for good (payload `{"unreachable": user,
    /// "game": g}`), in the game's chat: the person is mentioned and told how to let the bot
    /// write to them, with a button that opens the private chat (Telegram).
    pub(super) async fn unreachable_hint(
        &self,
        payload: &serde_json::Value,
    ) -> Result<Option<Reply>, crate::service::ServiceError> {
        let Some(user) = payload
            .get("unreachable")
            .and_then(serde_json::Value::as_i64)
        else {
            return Ok(None);
        };
        let Some(person) = self.store.user(UserId(user)).await? else {
            return Ok(None);
        };
        Ok(Some(Reply {
            game: payload
                .get("game")
                .and_then(serde_json::Value::as_i64)
                .map(GameNo),
            spans: vec![Span::Msg(
                Msg::new("ping-unreachable").span("person", super::mention(&person)),
            )],
            notify: vec![person.platform_user_id.clone()],
            goto: vec![super::Goto {
                label: String::new(),
                label_msg: Some(Msg::new("button-private-chat")),
                to: super::Place::PrivateChat,
            }],
            ..Reply::default()
        }))
    }

    /// Makes `change` to the person's settings (nothing when it changes nothing) and returns
    /// them. Private pings need a private chat, which a terminal has not.
    async fn change_notify(&self, ctx: &Ctx, change: Change) -> Handled<NotifySettings> {
        let mut settings = self.store.notify_settings(ctx.user.id).await?;
        let before = settings;
        if !change.apply(&mut settings) {
            return Ok(settings);
        }
        let private_chat = match (&ctx.private_chat, settings.place.private()) {
            (_, false) => None,
            (None, true) => return Err(UserError::NoPrivateChat.into()),
            (Some(address), true) => Some(
                self.store
                    .upsert_chat(ctx.chat.platform, address, &ctx.user.display_name, None)
                    .await?
                    .id,
            ),
        };
        self.store
            .set_notify_settings(ctx.user.id, settings, private_chat, Some(&ctx.key), ctx.now)
            .await?;
        // A digest chosen without a time comes at 09:00, in the person's quiet hours' zone or
        // UTC, until they say otherwise.
        if settings.place == NotifyPlace::Digest
            && self.store.notify_digest(ctx.user.id).await?.is_none()
        {
            let zone = self
                .store
                .notify_quiet(ctx.user.id)
                .await?
                .map_or_else(|| "UTC".to_string(), |quiet| quiet.zone);
            self.store
                .set_notify_digest(ctx.user.id, DIGEST_DEFAULT, &zone, ctx.now)
                .await?;
        }
        if settings.place.private() && !before.place.private() {
            settings.unreachable = false;
        }
        Ok(settings)
    }
}

/// "Half-time reminder: on." and the like.
fn changed_msg(switch: Switch, on: bool) -> Msg {
    let id = match switch {
        Switch::Halftime => "notify-halftime",
        Switch::LastCall => "notify-lastcall",
    };
    Msg::new(id).msg("state", on_off(on))
}

fn on_off(on: bool) -> Msg {
    Msg::new(if on { "notify-on" } else { "notify-off" })
}

/// The person's settings, with a button that changes each (its data names the person:
/// `o<user>.<code>`): the two other places on a row, then a row per reminder. `changed`: a
/// setting was just changed (said first).
fn panel(
    user: UserId,
    settings: NotifySettings,
    quiet: Option<&Quiet>,
    digest: Option<&(u16, String)>,
    changed: bool,
) -> Reply {
    let mut spans = Vec::new();
    if changed {
        spans.push(Span::Msg(Msg::new("notify-saved")));
        spans.push(Span::Text(" ".into()));
    }
    spans.push(Span::Msg(
        Msg::new("notify-shown")
            .msg("place", place_msg(settings.place))
            .msg("halftime", on_off(settings.halftime))
            .msg("lastcall", on_off(settings.lastcall)),
    ));
    if let (NotifyPlace::Digest, Some((minute, zone))) = (settings.place, digest) {
        spans.push(Span::Text(" ".into()));
        spans.push(Span::Msg(
            Msg::new("notify-digest")
                .text("at", clock_text(*minute))
                .text("zone", zone.clone()),
        ));
    }
    spans.push(Span::Text(" ".into()));
    spans.push(Span::Msg(match quiet {
        Some(quiet) => Msg::new("notify-quiet")
            .text("from", clock_text(quiet.start))
            .text("to", clock_text(quiet.end))
            .text("zone", quiet.zone.clone()),
        None => Msg::new("notify-quiet-none"),
    }));
    if settings.place.private() && settings.unreachable {
        spans.push(Span::Text(" ".into()));
        spans.push(Span::Msg(Msg::new("notify-unreachable")));
    }
    let button = |change: Change, label: &'static str| {
        said_button(Msg::new(label), format!("o{}.{}", user.0, change.code()))
    };
    let places = [
        (NotifyPlace::Chat, "notify-button-chat"),
        (NotifyPlace::Private, "notify-button-private"),
        (NotifyPlace::Both, "notify-button-both"),
        (NotifyPlace::Digest, "notify-button-digest"),
    ]
    .into_iter()
    .filter(|(place, _)| *place != settings.place)
    .map(|(place, label)| button(Change::Place(place), label))
    .collect();
    let switch = |switch: Switch| {
        let on = !switch.get(settings);
        let label = match (switch, on) {
            (Switch::Halftime, true) => "notify-button-halftime-on",
            (Switch::Halftime, false) => "notify-button-halftime-off",
            (Switch::LastCall, true) => "notify-button-lastcall-on",
            (Switch::LastCall, false) => "notify-button-lastcall-off",
        };
        button(Change::Switch(switch, on), label)
    };
    let mut buttons = vec![
        places,
        vec![switch(Switch::Halftime)],
        vec![switch(Switch::LastCall)],
    ];
    if quiet.is_some() {
        buttons.push(vec![said_button(
            Msg::new("notify-button-quiet-off"),
            format!("o{}.{QUIET_OFF}", user.0),
        )]);
    }
    Reply {
        spans,
        buttons,
        ..Reply::default()
    }
    .to_actor()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_settings_are_read() {
        let switch = |switch, on| Some(Change::Switch(switch, on));
        assert_eq!(parse("lastcall on").ok(), switch(Switch::LastCall, true));
        assert_eq!(parse("Last-Call OFF").ok(), switch(Switch::LastCall, false));
        assert_eq!(parse("halftime off").ok(), switch(Switch::Halftime, false));
        assert_eq!(
            parse(" reminder  yes ").ok(),
            switch(Switch::Halftime, true)
        );
        let place = |place| Some(Change::Place(place));
        assert_eq!(parse("Private").ok(), place(NotifyPlace::Private));
        assert_eq!(parse("both").ok(), place(NotifyPlace::Both));
        assert_eq!(parse("chat").ok(), place(NotifyPlace::Chat));
        for bad in [
            "lastcall",
            "on",
            "lastcall maybe",
            "quiet on",
            "lastcall on now",
            "private on",
        ] {
            assert!(
                matches!(parse(bad), Err(UserError::UnknownNotify(_))),
                "{bad}"
            );
        }
    }

    /// Quiet hours follow the zone's clock across its change to summer time: Sofia moves
    /// from UTC+2 to UTC+3 at 01:00 UTC on 28 March 2027.
    #[test]
    fn quiet_hours_follow_the_zone_across_a_change_of_time() {
        let hours = parse_quiet(&["22:00-08:00", "europe/sofia"], None).expect("quiet hours");
        assert_eq!(hours.zone, "Europe/Sofia", "the zone's own spelling");
        let at = |text: &str| {
            let moment: jiff::Timestamp = text.parse().expect("a moment");
            Timestamp(moment.as_millisecond())
        };
        // Winter: 05:30 UTC is 07:30 in Sofia (quiet); 06:30 UTC is 08:30 (not).
        assert!(quiet_at(&hours, at("2027-03-27T05:30:00Z")));
        assert!(!quiet_at(&hours, at("2027-03-27T06:30:00Z")));
        // 19:30 UTC is 21:30 (not); 20:30 UTC is 22:30 (quiet).
        assert!(!quiet_at(&hours, at("2027-03-27T19:30:00Z")));
        assert!(quiet_at(&hours, at("2027-03-27T20:30:00Z")));
        // Summer: 05:30 UTC is 08:30 in Sofia now (not quiet); 04:30 UTC is 07:30 (quiet).
        assert!(!quiet_at(&hours, at("2027-03-28T05:30:00Z")));
        assert!(quiet_at(&hours, at("2027-03-28T04:30:00Z")));
        // Hours within one day, and UTC.
        let day = parse_quiet(&["13:00-14:00"], Some("UTC")).expect("quiet hours");
        assert!(quiet_at(&day, at("2027-01-11T13:59:00Z")));
        assert!(!quiet_at(&day, at("2027-01-11T14:00:00Z")));
        // What cannot be read.
        for bad in [
            &["22-08"][..],
            &["22:00"],
            &["25:00-08:00"],
            &["22:00-08:60"],
            &["22:00-22:00"],
            &["22:00-08:00", "UTC", "more"],
        ] {
            assert!(
                matches!(parse_quiet(bad, None), Err(UserError::BadQuiet)),
                "{bad:?}"
            );
        }
        assert!(matches!(
            parse_quiet(&["22:00-08:00", "Mars/Olympus"], None),
            Err(UserError::UnknownZone(_))
        ));
    }

    /// The digest is due from its local time on, once a local day: Sofia's 08:00 is 06:00
    /// UTC in winter and 05:00 UTC in summer.
    #[test]
    fn the_digest_is_due_from_its_local_time() {
        let at = |text: &str| {
            let moment: jiff::Timestamp = text.parse().expect("a moment");
            Timestamp(moment.as_millisecond())
        };
        let (minute, zone) = parse_digest(&["08:00", "Europe/Sofia"], None).expect("a digest");
        assert_eq!(digest_due(minute, &zone, at("2027-03-27T05:59:00Z")), None);
        assert_eq!(
            digest_due(minute, &zone, at("2027-03-27T06:00:00Z")).as_deref(),
            Some("2027-03-27")
        );
        assert_eq!(
            digest_due(minute, &zone, at("2027-03-28T05:00:00Z")).as_deref(),
            Some("2027-03-28")
        );
        // Just after local midnight it is a new day, whose digest is not due yet.
        assert_eq!(digest_due(minute, &zone, at("2027-03-28T21:30:00Z")), None);
        assert_eq!(
            parse_digest(&["09:30"], None).map(|d| d.1).ok().as_deref(),
            Some("UTC")
        );
        for bad in [&["9"][..], &["24:00"], &["08:00", "UTC", "x"], &[]] {
            assert!(
                matches!(parse_digest(bad, None), Err(UserError::BadDigest)),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn every_button_code_is_read_back() {
        for switch in [Switch::Halftime, Switch::LastCall] {
            for on in [true, false] {
                let change = Change::Switch(switch, on);
                assert_eq!(Change::of_code(change.code()), Some(change));
            }
        }
        for place in [
            NotifyPlace::Chat,
            NotifyPlace::Private,
            NotifyPlace::Both,
            NotifyPlace::Digest,
        ] {
            let change = Change::Place(place);
            assert_eq!(Change::of_code(change.code()), Some(change));
        }
        assert_eq!(Change::of_code(0), None);
        assert_eq!(
            Change::of_code(QUIET_OFF),
            None,
            "handled before the changes"
        );
        assert_eq!(Change::of_code(10), None);
    }
}
