//! The moderators' settings of a community (`/config`), and the terms of a challenge that they
//! bound: which games may be played, the stake, and the time per move.

use tabula_core::GameId;

use crate::commands::MAX_COINS;
use crate::store::{ChatId, GameRecord, Settings, StakedGames, User, UserId};
use crate::values::{MAX_MOVE_MILLIS, MIN_MOVE_MILLIS};

use super::{
    Audience, Ctx, Handled, ModeratorAction, Reply, Service, ServiceError, SettingError, Span,
    UserError, parse_amount,
};
use crate::commands;
use crate::l10n::duration_msg;
use crate::l10n::{Lang, Msg};
use crate::time::{duration, duration_code, parse_duration};

/// The most vacation days per month that may be set.
const MAX_VACATION_DAYS: i64 = 31;

/// What a game is played for, and how fast.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Terms {
    /// What each person stakes (0: a friendly game).
    pub(super) stake: i64,
    /// The time per move, in milliseconds.
    pub(super) move_millis: i64,
}

impl Terms {
    /// The terms of a stored game.
    pub(super) fn of(record: &GameRecord) -> Terms {
        Terms {
            stake: record.stake,
            move_millis: record.move_millis,
        }
    }

    /// `stake 50 coins each, 3 days per move` or `friendly, 3 days per move`.
    pub(super) fn describe(self) -> Msg {
        self.said("terms")
    }

    /// `Stake 50 coins each, in the pot until the game ends; 3 days per move` (a sentence
    /// without its full stop).
    pub(super) fn describe_sentence(self) -> Msg {
        self.said("terms-sentence")
    }

    fn said(self, id: &'static str) -> Msg {
        Msg::new(id)
            .num("stake", self.stake)
            .msg("coins", super::coins_msg(self.stake))
            .msg("time", duration_msg(self.move_millis))
    }
}

/// A setting's key, what it means, and how it is typed.
const KEYS: &[(&str, &str)] = &[
    ("games", "config-games"),
    ("stake", "config-stake"),
    ("max_stake", "config-max-stake"),
    ("grant", "config-grant"),
    ("time", "config-time"),
    ("max_time", "config-max-time"),
    ("reminders", "config-reminders"),
    ("pings", "config-pings"),
    ("threads", "config-threads"),
    ("pages", "config-pages"),
    ("staked_games", "config-staked-games"),
    ("vacation", "config-vacation"),
    ("language", "config-language"),
    ("open_wait", "config-open-wait"),
    ("leaderboard_games", "config-leaderboard-games"),
    ("leaderboard_months", "config-leaderboard-months"),
];

/// The languages of the catalogue, as `/config language=` and `/language` take them.
pub(super) fn language_list() -> String {
    Lang::all()
        .map(|lang| lang.code())
        .collect::<Vec<_>>()
        .join(", ")
}

impl Service {
    /// The terms of a new challenge: the stake and time asked for (or the community's
    /// defaults), checked against the settings and the challenger's wallet.
    pub(super) async fn terms(
        &self,
        ctx: &Ctx,
        id: GameId,
        stake: Option<i64>,
        move_millis: Option<i64>,
    ) -> Handled<Terms> {
        let settings = self.store.settings(ctx.chat.community).await?;
        if !settings.enabled_games.contains(&id) {
            return Err(UserError::GameDisabled {
                game: id,
                enabled: enabled_list(&settings),
            }
            .into());
        }
        let stake = match stake {
            None => settings.default_stake,
            Some(stake) if stake != 0 && settings.max_stake == 0 => {
                return Err(UserError::StakesOff.into());
            }
            Some(stake) => Some(stake)
                .filter(|stake| (0..=settings.max_stake).contains(stake))
                .ok_or(UserError::BadStake {
                    max: settings.max_stake,
                })?,
        };
        let move_millis = match move_millis {
            None => settings.default_move_millis,
            Some(millis) => Some(millis)
                .filter(|millis| (MIN_MOVE_MILLIS..=settings.max_move_millis).contains(millis))
                .ok_or(UserError::BadTime {
                    max: settings.max_move_millis,
                })?,
        };
        if stake > 0 {
            if settings.staked_games == StakedGames::Moderators && !ctx.moderator {
                return Err(UserError::StakedByModerators.into());
            }
            if id == GameId::CoanKi && stake % 10 != 0 {
                return Err(UserError::CoanKiStake.into());
            }
            let wallet = self
                .store
                .open_wallet(ctx.chat.community, ctx.user.id)
                .await?;
            if wallet.balance <= 0 {
                return Err(UserError::InDebt {
                    balance: wallet.balance,
                }
                .into());
            }
            if wallet.balance < stake {
                return Err(UserError::TooPoor {
                    balance: wallet.balance,
                    stake,
                }
                .into());
            }
        }
        Ok(Terms { stake, move_millis })
    }

    /// `/config`: the settings (anyone may look); `/config key=value ...` changes them
    /// (moderators), all or none. `changes` are the catalogue's `key=value` pairs, keys in
    /// lower case.
    pub(super) async fn config(&self, ctx: &Ctx, changes: &[(String, String)]) -> Handled<Reply> {
        let mut settings = self.store.settings(ctx.chat.community).await?;
        if changes.is_empty() {
            return Ok(Reply {
                audience: Audience::Actor,
                spans: vec![Span::Msg(show(&ctx.chat.community_title, &settings))],
                ..Reply::default()
            });
        }
        if !ctx.moderator {
            return Err(UserError::NotModerator(ModeratorAction::ChangeSettings).into());
        }
        self.not_repeated(ctx).await?;
        let pages_were = settings.pages;
        let mut changed = Vec::new();
        for (key, value) in changes {
            set(&mut settings, key, value)?;
            changed.push(key.clone());
        }
        // A thread or topic per game needs a chat that can hold them.
        if settings.threads && changed.iter().any(|key| key == "threads") && !ctx.threads {
            return Err(UserError::BadSetting(SettingError::ThreadsHere).into());
        }
        if settings.default_stake > settings.max_stake {
            return Err(UserError::BadSetting(SettingError::StakeAboveMax {
                stake: settings.default_stake,
                max: settings.max_stake,
            })
            .into());
        }
        if settings.default_move_millis > settings.max_move_millis {
            return Err(UserError::BadSetting(SettingError::TimeAboveMax {
                time: duration_code(settings.default_move_millis),
                default: duration(settings.default_move_millis),
                longest: duration(settings.max_move_millis),
            })
            .into());
        }
        let keys = changed.join(", ");
        // Announced with the change (see `announce.rs`): told again, with the settings as
        // they are then, if this process dies before the reply is posted.
        let payload = serde_json::json!({"configured": ctx.user.id.0, "keys": keys});
        let announced = match self.pending_payload(payload, None) {
            Some(pending) => Some(
                self.store
                    .save_settings_announced(
                        ctx.chat.community,
                        &settings,
                        ctx.user.id,
                        &ctx.key,
                        (ctx.chat.id, &pending.as_announce()),
                        // The live boards' page links come or go (issue 41).
                        self.has_pages() && settings.pages != pages_were,
                    )
                    .await?,
            ),
            None => {
                self.store
                    .save_settings(ctx.chat.community, &settings, ctx.user.id, Some(&ctx.key))
                    .await?;
                None
            }
        };
        let mut reply = settings_changed(&ctx.user, &keys, &ctx.chat.community_title, &settings);
        reply.announced = announced;
        if changed.iter().any(|key| key == "language") {
            // Said in the language just chosen, as everything the chat sees from now on.
            let lang = crate::l10n::Lang::choose(settings.language.as_deref(), None, None);
            if let Ok(mut langs) = self.chat_langs.lock() {
                langs.insert(ctx.chat.id, lang);
            }
            reply.localize(lang);
        }
        Ok(reply)
    }

    /// The reply to a change of the settings whose process died before posting it, from its
    /// announcement's payload (`configured`: who, `keys`), with the settings as they are now.
    pub(super) async fn settings_post_of(
        &self,
        chat: ChatId,
        payload: &serde_json::Value,
    ) -> Result<Option<Reply>, ServiceError> {
        let Some(by) = payload
            .get("configured")
            .and_then(serde_json::Value::as_i64)
        else {
            return Ok(None);
        };
        let keys = payload
            .get("keys")
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default();
        let (Some(chat), Some(moderator)) = (
            self.store.chat(chat).await?,
            self.store.user(UserId(by)).await?,
        ) else {
            return Ok(None);
        };
        let settings = self.store.settings(chat.community).await?;
        Ok(Some(settings_changed(
            &moderator,
            keys,
            &chat.community_title,
            &settings,
        )))
    }
}

/// "@mod changed stake, time", and the settings as they are.
fn settings_changed(by: &User, keys: &str, community: &str, settings: &Settings) -> Reply {
    Reply {
        spans: vec![
            Span::Msg(
                Msg::new("settings-changed")
                    .span("person", super::mention(by))
                    .text("keys", keys),
            ),
            Span::Text("\n".into()),
            Span::Msg(show(community, settings)),
        ],
        ..Reply::default()
    }
}

fn enabled_list(settings: &Settings) -> String {
    if settings.enabled_games.is_empty() {
        "none".to_string()
    } else {
        settings
            .enabled_games
            .iter()
            .map(|game| game.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn key_list() -> String {
    KEYS.iter()
        .map(|(key, _)| *key)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The settings as `/config` shows them: one `key=value` per line, with what it means.
fn show(community: &str, settings: &Settings) -> Msg {
    let value = |key: &str| match key {
        "games" => enabled_list(settings).replace(", ", ","),
        "stake" => settings.default_stake.to_string(),
        "max_stake" => settings.max_stake.to_string(),
        "grant" => settings.starting_grant.to_string(),
        "time" => duration_code(settings.default_move_millis),
        "max_time" => duration_code(settings.max_move_millis),
        "open_wait" => duration_code(settings.open_wait_millis),
        "reminders" => if settings.reminders { "on" } else { "off" }.to_string(),
        "pings" => if settings.private_pings { "on" } else { "off" }.to_string(),
        "threads" => if settings.threads { "on" } else { "off" }.to_string(),
        "pages" => if settings.pages { "on" } else { "off" }.to_string(),
        "staked_games" => settings.staked_games.as_str().to_string(),
        "vacation" => settings.vacation_days.to_string(),
        "leaderboard_games" => settings.leaderboard_games.to_string(),
        "leaderboard_months" => settings.leaderboard_months.to_string(),
        "language" => settings
            .language
            .clone()
            .unwrap_or_else(|| "none".to_string()),
        _ => String::new(),
    };
    let mut lines = vec![Msg::new("settings-heading").text("community", community)];
    for (key, meaning) in KEYS {
        lines.push(
            Msg::new("setting-line")
                .text("setting", format!("{key}={}", value(key)))
                .msg(
                    "meaning",
                    Msg::new(meaning).msg("languages", crate::commands::languages_msg()),
                ),
        );
    }
    lines.push(Msg::new("settings-footer"));
    Msg::list(lines, "lines", "lines")
}

/// The most rated games `leaderboard_games` may ask for.
const MAX_LEADERBOARD_GAMES: i64 = 1000;

/// The most months `leaderboard_months` may look back.
const MAX_LEADERBOARD_MONTHS: i64 = 120;

/// Applies one `key=value` to the settings.
fn set(settings: &mut Settings, key: &str, value: &str) -> Result<(), UserError> {
    let bad = |error: SettingError| UserError::BadSetting(error);
    let quoted = || crate::l10n::quote(value);
    let money = |key: &'static str| {
        parse_amount(value, 0, MAX_COINS).ok_or_else(|| {
            bad(SettingError::Money {
                key,
                value: quoted(),
                max: MAX_COINS,
            })
        })
    };
    let time = |key: &'static str| {
        parse_duration(value)
            .filter(|millis| (MIN_MOVE_MILLIS..=MAX_MOVE_MILLIS).contains(millis))
            .ok_or_else(|| {
                bad(SettingError::Time {
                    key,
                    value: quoted(),
                })
            })
    };
    match key {
        "games" => {
            settings.enabled_games = if value.eq_ignore_ascii_case("all") {
                GameId::ALL.to_vec()
            } else {
                let mut games = Vec::new();
                for name in value.split(',').filter(|name| !name.is_empty()) {
                    let game = commands::parse_game(name)
                        .map_err(|_| UserError::UnknownGame(name.to_string()))?;
                    if !games.contains(&game) {
                        games.push(game);
                    }
                }
                if games.is_empty() {
                    return Err(bad(SettingError::NoGames));
                }
                GameId::ALL
                    .iter()
                    .copied()
                    .filter(|game| games.contains(game))
                    .collect()
            };
        }
        "stake" => settings.default_stake = money("stake")?,
        "max_stake" => settings.max_stake = money("max_stake")?,
        "grant" => settings.starting_grant = money("grant")?,
        "time" => settings.default_move_millis = time("time")?,
        "max_time" => settings.max_move_millis = time("max_time")?,
        "open_wait" => settings.open_wait_millis = time("open_wait")?,
        "language" => {
            settings.language = if ["none", "default", "off"]
                .iter()
                .any(|word| value.eq_ignore_ascii_case(word))
            {
                None
            } else {
                Some(
                    Lang::parse(value)
                        .ok_or_else(|| {
                            bad(SettingError::Language {
                                value: quoted(),
                                known: language_list(),
                            })
                        })?
                        .code()
                        .to_string(),
                )
            };
        }
        "reminders" => {
            settings.reminders = match value.to_lowercase().as_str() {
                "on" | "yes" | "true" => true,
                "off" | "no" | "false" => false,
                _ => return Err(bad(SettingError::Reminders(quoted()))),
            };
        }
        "pings" => {
            settings.private_pings = match value.to_lowercase().as_str() {
                "on" | "yes" | "true" => true,
                "off" | "no" | "false" => false,
                _ => return Err(bad(SettingError::Pings(quoted()))),
            };
        }
        "threads" => {
            settings.threads = match value.to_lowercase().as_str() {
                "on" | "yes" | "true" => true,
                "off" | "no" | "false" => false,
                _ => return Err(bad(SettingError::Threads(quoted()))),
            };
        }
        "pages" => {
            settings.pages = match value.to_lowercase().as_str() {
                "on" | "yes" | "true" => true,
                "off" | "no" | "false" => false,
                _ => return Err(bad(SettingError::Pages(quoted()))),
            };
        }
        "staked_games" | "staked_by" => {
            settings.staked_games = match value.to_lowercase().as_str() {
                "everyone" | "all" => StakedGames::Everyone,
                "moderators" | "mods" => StakedGames::Moderators,
                _ => return Err(bad(SettingError::StakedGames(quoted()))),
            };
        }
        "vacation" => {
            settings.vacation_days =
                parse_amount(value, 0, MAX_VACATION_DAYS).ok_or_else(|| {
                    bad(SettingError::Vacation {
                        value: quoted(),
                        max: MAX_VACATION_DAYS,
                    })
                })?;
        }
        "leaderboard_games" => {
            settings.leaderboard_games =
                parse_amount(value, 0, MAX_LEADERBOARD_GAMES).ok_or_else(|| {
                    bad(SettingError::Count {
                        key: "leaderboard_games",
                        value: quoted(),
                        min: 0,
                        max: MAX_LEADERBOARD_GAMES,
                    })
                })?;
        }
        "leaderboard_months" => {
            settings.leaderboard_months = parse_amount(value, 1, MAX_LEADERBOARD_MONTHS)
                .ok_or_else(|| {
                    bad(SettingError::Count {
                        key: "leaderboard_months",
                        value: quoted(),
                        min: 1,
                        max: MAX_LEADERBOARD_MONTHS,
                    })
                })?;
        }
        other => {
            return Err(bad(SettingError::UnknownKey {
                key: crate::l10n::quote(other),
                keys: key_list(),
            }));
        }
    }
    Ok(())
}
