//! Numbers as each locale writes them: ICU4X's decimal formatter, plugged into every Fluent
//! bundle (`FluentBundle::set_formatter`) and made once per locale by the bundle's memoizer.

use fixed_decimal::Decimal;
use fluent_bundle::FluentValue;
use icu_decimal::DecimalFormatter;
use intl_memoizer::Memoizable;
use intl_memoizer::concurrent::IntlLangMemoizer;
use unic_langid::LanguageIdentifier;

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
