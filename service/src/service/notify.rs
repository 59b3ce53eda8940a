//! `/notify`: how a person is reminded that it is their move (issue 38). Each setting is the
//! person's own, the same in every chat: the reminder at half time (on unless turned off) and a
//! last call when a tenth of the time is left (off unless turned on). `/notify` alone shows
//! them with a button to switch each; `/notify lastcall on` and the like set one.

use super::narration::said_button;
use super::{Ctx, Handled, Placement, Reply, Service, UserError};
use crate::l10n::{Msg, Span};
use crate::store::{NotifySettings, UserId};

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

/// What `/notify <text>` asks to change: a setting and its new value.
fn parse(text: &str) -> Result<(Switch, bool), UserError> {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    match words.as_slice() {
        [setting, value] => match (Switch::parse(setting), parse_on_off(value)) {
            (Some(switch), Some(on)) => Ok((switch, on)),
            _ => Err(UserError::UnknownNotify(crate::l10n::quote(text.trim()))),
        },
        _ => Err(UserError::UnknownNotify(crate::l10n::quote(text.trim()))),
    }
}

impl Service {
    /// `/notify [setting on|off]`: shows the person's settings, or changes one and shows
    /// them. Private to the person, with a button to switch each.
    pub(super) async fn notify(&self, ctx: &Ctx, text: Option<&str>) -> Handled<Reply> {
        let text = text.map(str::trim).filter(|text| !text.is_empty());
        let mut settings = self.store.notify_settings(ctx.user.id).await?;
        let changed = match text {
            None => None,
            Some(text) => {
                let (switch, on) = parse(text)?;
                self.not_repeated(ctx).await?;
                switch.set(&mut settings, on);
                self.store
                    .set_notify_settings(ctx.user.id, settings, Some(&ctx.key), ctx.now)
                    .await?;
                Some(switch)
            }
        };
        Ok(panel(ctx.user.id, settings, changed))
    }

    /// A button of the `/notify` panel (`o<user>.<code>`): only its person may press it; the
    /// panel is edited to show the change, and a toast says it.
    pub(super) async fn notify_pressed(&self, ctx: &Ctx, owner: i64, code: i64) -> Handled<Reply> {
        let (switch, on) = Switch::of_code(code).ok_or(UserError::BadButton)?;
        if owner != ctx.user.id.0 {
            return Err(UserError::NotYourSettings.into());
        }
        let mut settings = self.store.notify_settings(ctx.user.id).await?;
        if switch.get(settings) != on {
            self.not_repeated(ctx).await?;
            switch.set(&mut settings, on);
            self.store
                .set_notify_settings(ctx.user.id, settings, Some(&ctx.key), ctx.now)
                .await?;
        }
        let mut reply = panel(ctx.user.id, settings, Some(switch));
        reply.toast = vec![Span::Msg(changed_msg(switch, on))];
        reply.placement = Placement::UpdatePressed;
        Ok(reply)
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

/// The person's settings, each on a line, with a button that switches each (its data names
/// the person: `o<user>.<code>`). `changed`: a setting was just changed (said first).
fn panel(user: UserId, settings: NotifySettings, changed: Option<Switch>) -> Reply {
    let mut spans = Vec::new();
    if changed.is_some() {
        spans.push(Span::Msg(Msg::new("notify-saved")));
        spans.push(Span::Text(" ".into()));
    }
    spans.push(Span::Msg(
        Msg::new("notify-shown")
            .msg("halftime", on_off(settings.halftime))
            .msg("lastcall", on_off(settings.lastcall)),
    ));
    let button = |switch: Switch| {
        let on = !switch.get(settings);
        let label = match (switch, on) {
            (Switch::Halftime, true) => "notify-button-halftime-on",
            (Switch::Halftime, false) => "notify-button-halftime-off",
            (Switch::LastCall, true) => "notify-button-lastcall-on",
            (Switch::LastCall, false) => "notify-button-lastcall-off",
        };
        said_button(Msg::new(label), format!("o{}.{}", user.0, switch.code(on)))
    };
    Reply {
        spans,
        buttons: vec![
            vec![button(Switch::Halftime)],
            vec![button(Switch::LastCall)],
        ],
        ..Reply::default()
    }
    .to_actor()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_settings_are_read() {
        assert_eq!(parse("lastcall on").ok(), Some((Switch::LastCall, true)));
        assert_eq!(parse("Last-Call OFF").ok(), Some((Switch::LastCall, false)));
        assert_eq!(parse("halftime off").ok(), Some((Switch::Halftime, false)));
        assert_eq!(
            parse(" reminder  yes ").ok(),
            Some((Switch::Halftime, true))
        );
        for bad in [
            "lastcall",
            "on",
            "lastcall maybe",
            "quiet on",
            "lastcall on now",
        ] {
            assert!(
                matches!(parse(bad), Err(UserError::UnknownNotify(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn every_button_code_is_read_back() {
        for switch in [Switch::Halftime, Switch::LastCall] {
            for on in [true, false] {
                assert_eq!(Switch::of_code(switch.code(on)), Some((switch, on)));
            }
        }
        assert_eq!(Switch::of_code(0), None);
        assert_eq!(Switch::of_code(5), None);
    }
}
