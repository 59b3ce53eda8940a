//! Time, at the bottom of the crate with the values: the clock the service reads (the system's, or one that tests move by hand),
//! and how moments and durations are written and read in messages (`2026-11-28 14:05 UTC`,
//! `2 days 3 hours`, `3d`, `12h`).

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use crate::values::{DAY_MILLIS, HOUR_MILLIS, MINUTE_MILLIS, Timestamp};

/// Where the service reads the time: deadlines, reminders, vacations and challenge expiry are
/// decided against it.
#[derive(Debug, Clone, Default)]
pub enum Clock {
    /// The system clock.
    #[default]
    System,
    /// A clock that stands still until moved (tests); shared by its clones.
    Manual(Arc<AtomicI64>),
    /// The system clock plus an offset that only grows (`tabula local`'s `/wait`); shared by
    /// its clones.
    Offset(Arc<AtomicI64>),
}

impl Clock {
    /// A manual clock showing `start`.
    pub fn manual(start: Timestamp) -> Clock {
        Clock::Manual(Arc::new(AtomicI64::new(start.0)))
    }

    /// The system clock, to be moved forward by [`Clock::advance`].
    pub fn offset() -> Clock {
        Clock::Offset(Arc::new(AtomicI64::new(0)))
    }

    /// The time now.
    pub fn now(&self) -> Timestamp {
        match self {
            Clock::System => Timestamp::now(),
            Clock::Manual(millis) => Timestamp(millis.load(Ordering::SeqCst)),
            Clock::Offset(offset) => Timestamp::now().plus_millis(offset.load(Ordering::SeqCst)),
        }
    }

    /// Moves a manual or offset clock on by `millis` (the system clock cannot be moved).
    pub fn advance(&self, millis: i64) {
        if let Clock::Manual(moved) | Clock::Offset(moved) = self {
            moved.fetch_add(millis, Ordering::SeqCst);
        }
    }
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian (H. Hinnant's
/// `civil_from_days`).
pub fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// (year, month, day) to days since 1970-01-01 (H. Hinnant's `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year.rem_euclid(400);
    let mp = if month > 2 { month - 3 } else { month + 9 };
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// A moment's UTC date and the milliseconds since its midnight.
fn civil(at: Timestamp) -> (i64, i64, i64, i64) {
    let (year, month, day) = civil_from_days(at.0.div_euclid(DAY_MILLIS));
    (year, month, day, at.0.rem_euclid(DAY_MILLIS))
}

/// A moment as people read it: `2026-11-28 14:05 UTC`.
pub fn moment(at: Timestamp) -> String {
    let (year, month, day, rest) = civil(at);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        rest / HOUR_MILLIS,
        (rest % HOUR_MILLIS) / MINUTE_MILLIS
    )
}

/// A moment in RFC 3339, UTC, to the second: `2026-11-28T14:05:09Z`.
pub fn rfc3339(at: Timestamp) -> String {
    let (year, month, day, rest) = civil(at);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / HOUR_MILLIS,
        (rest % HOUR_MILLIS) / MINUTE_MILLIS,
        (rest % MINUTE_MILLIS) / 1000
    )
}

/// The calendar month (UTC) of a moment: its first millisecond and the next month's.
pub fn month_of(at: Timestamp) -> (Timestamp, Timestamp) {
    let (year, month, _) = civil_from_days(at.0.div_euclid(DAY_MILLIS));
    let (next_year, next_month) = if month == 12 {
        (year + 1, 1)
    } else {
        (year, month + 1)
    };
    (
        Timestamp(days_from_civil(year, month, 1) * DAY_MILLIS),
        Timestamp(days_from_civil(next_year, next_month, 1) * DAY_MILLIS),
    )
}

fn plural(n: i64, unit: &str) -> String {
    if n == 1 {
        format!("1 {unit}")
    } else {
        format!("{n} {unit}s")
    }
}

/// A length of time as people read it, to the minute: `2 days 3 hours`, `5 minutes`,
/// `less than a minute`.
pub fn duration(millis: i64) -> String {
    let minutes = millis.max(0) / MINUTE_MILLIS;
    let (days, hours, minutes) = (minutes / (24 * 60), minutes / 60 % 24, minutes % 60);
    let mut parts = Vec::new();
    if days > 0 {
        parts.push(plural(days, "day"));
    }
    if hours > 0 {
        parts.push(plural(hours, "hour"));
    }
    if minutes > 0 && days == 0 {
        parts.push(plural(minutes, "minute"));
    }
    if parts.is_empty() {
        "less than a minute".to_string()
    } else {
        parts.join(" ")
    }
}

/// A length of time as typed: a number and a unit, `d` (days), `h` (hours) or `m` (minutes),
/// several in a row (`1d12h`); a bare number is days. `None` when it cannot be read.
pub fn parse_duration(text: &str) -> Option<i64> {
    let text = text.trim().to_lowercase();
    if text.is_empty() {
        return None;
    }
    if let Ok(days) = text.parse::<i64>() {
        return days.checked_mul(DAY_MILLIS).filter(|millis| *millis > 0);
    }
    let mut total: i64 = 0;
    let mut number = String::new();
    for c in text.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let unit = match c {
            'd' => DAY_MILLIS,
            'h' => HOUR_MILLIS,
            'm' => MINUTE_MILLIS,
            _ => return None,
        };
        let n: i64 = number.parse().ok()?;
        total = total.checked_add(n.checked_mul(unit)?)?;
        number.clear();
    }
    if !number.is_empty() || total <= 0 {
        return None;
    }
    Some(total)
}

/// A length of time as it is typed back (`3d`, `1d12h`, `90m`): what [`parse_duration`] reads.
pub fn duration_code(millis: i64) -> String {
    let minutes = millis.max(0) / MINUTE_MILLIS;
    let (days, hours, minutes) = (minutes / (24 * 60), minutes / 60 % 24, minutes % 60);
    let mut out = String::new();
    for (n, unit) in [(days, 'd'), (hours, 'h'), (minutes, 'm')] {
        if n > 0 {
            out.push_str(&format!("{n}{unit}"));
        }
    }
    if out.is_empty() { "0m".into() } else { out }
}

#[cfg(test)]
mod tests {

    #[test]
    fn rfc3339_is_utc_to_the_second() {
        // 2027-01-10 12:00:00 UTC.
        assert_eq!(
            super::rfc3339(Timestamp(1_799_582_400_000)),
            "2027-01-10T12:00:00Z"
        );
        assert_eq!(
            super::rfc3339(Timestamp(1_799_582_400_000 + 61_999)),
            "2027-01-10T12:01:01Z"
        );
        assert_eq!(super::rfc3339(Timestamp(0)), "1970-01-01T00:00:00Z");
    }

    use super::*;

    #[test]
    fn moments_are_written_in_utc() {
        assert_eq!(moment(Timestamp(0)), "1970-01-01 00:00 UTC");
        // 2026-11-25 01:19:00 UTC
        assert_eq!(moment(Timestamp(1_795_569_540_000)), "2026-11-25 01:19 UTC");
        assert_eq!(moment(Timestamp(951_782_400_000)), "2000-02-29 00:00 UTC");
    }

    #[test]
    fn months_have_their_bounds() {
        let (start, end) = month_of(Timestamp(1_795_569_540_000));
        assert_eq!(moment(start), "2026-11-01 00:00 UTC");
        assert_eq!(moment(end), "2026-12-01 00:00 UTC");
        let (start, end) = month_of(Timestamp(days_from_civil(2026, 12, 31) * DAY_MILLIS));
        assert_eq!(moment(start), "2026-12-01 00:00 UTC");
        assert_eq!(moment(end), "2027-01-01 00:00 UTC");
        for days in [-1000, 0, 59, 10_957, 20_000] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
    }

    #[test]
    fn durations_read_and_write() {
        assert_eq!(parse_duration("3d"), Some(3 * DAY_MILLIS));
        assert_eq!(parse_duration("2"), Some(2 * DAY_MILLIS));
        assert_eq!(parse_duration("1d12h"), Some(DAY_MILLIS + 12 * HOUR_MILLIS));
        assert_eq!(parse_duration("90m"), Some(90 * MINUTE_MILLIS));
        for bad in [
            "",
            "d",
            "3x",
            "-1d",
            "0",
            "0h",
            "3d2",
            "99999999999999999999d",
        ] {
            assert_eq!(parse_duration(bad), None, "{bad}");
        }
        assert_eq!(
            duration(DAY_MILLIS + 3 * HOUR_MILLIS + 5 * MINUTE_MILLIS),
            "1 day 3 hours"
        );
        assert_eq!(
            duration(2 * HOUR_MILLIS + MINUTE_MILLIS),
            "2 hours 1 minute"
        );
        assert_eq!(duration(30_000), "less than a minute");
        for millis in [DAY_MILLIS, 36 * HOUR_MILLIS, 90 * MINUTE_MILLIS] {
            assert_eq!(parse_duration(&duration_code(millis)), Some(millis));
        }
    }
}
