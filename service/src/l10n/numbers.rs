//! Numbers and moments as each locale writes them, by ICU4X: the decimal formatter is plugged
//! into every Fluent bundle (`FluentBundle::set_formatter`); both are made once per locale by
//! the bundle's memoizer.

use fixed_decimal::Decimal;
use fluent_bundle::FluentValue;
use icu_decimal::DecimalFormatter;
use intl_memoizer::Memoizable;
use intl_memoizer::concurrent::IntlLangMemoizer;
use unic_langid::LanguageIdentifier;

use crate::values::{DAY_MILLIS, MINUTE_MILLIS};

/// ICU4X's formatter for one locale.
pub(super) struct Numbers(DecimalFormatter);

impl Memoizable for Numbers {
    type Args = ();
    type Error = ();

    fn construct(lang: LanguageIdentifier, _args: ()) -> Result<Numbers, ()> {
        let locale = icu_locale_core::Locale::try_from_str(&lang.to_string()).map_err(|_| ())?;
        DecimalFormatter::try_new((&locale).into(), Default::default())
            .map(Numbers)
            .map_err(|_| ())
    }
}

/// A Fluent value as the locale writes it: whole numbers by ICU4X (`1,000`, `1 000`); other
/// values as Fluent writes them (`None`).
pub(super) fn format(value: &FluentValue, memoizer: &IntlLangMemoizer) -> Option<String> {
    let FluentValue::Number(number) = value else {
        return None;
    };
    if number.value.fract() != 0.0 || number.value.abs() >= 9.0e15 {
        return None;
    }
    #[allow(clippy::cast_possible_truncation)]
    let whole = number.value as i64;
    memoizer
        .with_try_get::<Numbers, _, _>((), |numbers| {
            numbers.0.format(&Decimal::from(whole)).to_string()
        })
        .ok()
}

/// ICU4X's date-and-time formatter for one locale: a long date and hours and minutes, in
/// the Gregorian calendar (moments are UTC; the messages say so).
pub(super) struct Moments(
    icu_datetime::FixedCalendarDateTimeFormatter<
        icu_calendar::Gregorian,
        icu_datetime::fieldsets::YMDT,
    >,
);

impl Memoizable for Moments {
    type Args = ();
    type Error = ();

    fn construct(lang: LanguageIdentifier, _args: ()) -> Result<Moments, ()> {
        let locale = icu_locale_core::Locale::try_from_str(&lang.to_string()).map_err(|_| ())?;
        icu_datetime::FixedCalendarDateTimeFormatter::try_new(
            (&locale).into(),
            icu_datetime::fieldsets::YMD::long().with_time_hm(),
        )
        .map(Moments)
        .map_err(|_| ())
    }
}

/// A moment (milliseconds since 1970, UTC) as the locale writes a date and a time of day:
/// `January 11, 2027 at 12:00 PM`, `11 января 2027 г. в 12:00`.
pub(super) fn moment(memoizer: &IntlLangMemoizer, millis: i64) -> Option<String> {
    let (year, month, day) = crate::time::civil_from_days(millis.div_euclid(DAY_MILLIS));
    let rest = millis.rem_euclid(DAY_MILLIS) / MINUTE_MILLIS;
    let date = icu_calendar::Date::try_new_gregorian(
        i32::try_from(year).ok()?,
        u8::try_from(month).ok()?,
        u8::try_from(day).ok()?,
    )
    .ok()?;
    let time = icu_datetime::input::Time::try_new(
        u8::try_from(rest / 60).ok()?,
        u8::try_from(rest % 60).ok()?,
        0,
        0,
    )
    .ok()?;
    let at = icu_datetime::input::DateTime { date, time };
    memoizer
        .with_try_get::<Moments, _, _>((), |moments| moments.0.format(&at).to_string())
        .ok()
}
