//! `/language`: the language the bot speaks to a person (what only they see), chosen by
//! them; without a choice, their platform's locale and then the community's decide.

use super::{Audience, Ctx, Handled, Reply, Service, UserError, config};
use crate::l10n::{Lang, Msg, Span};

/// Words that forget a person's choice.
const AUTO: [&str; 3] = ["auto", "none", "default"];

impl Service {
    /// `/language [code|auto]`: shows the person's language and how it was chosen, sets it,
    /// or forgets the choice. The answer is private and in the language now in force.
    pub(super) async fn language(&self, ctx: &Ctx, value: Option<&str>) -> Handled<Reply> {
        let value = value.map(str::trim).filter(|value| !value.is_empty());
        let (msg, lang) = match value {
            None => (Msg::new("language-shown"), ctx.lang),
            Some(word) if AUTO.iter().any(|auto| word.eq_ignore_ascii_case(auto)) => {
                self.not_repeated(ctx).await?;
                self.store
                    .set_user_language(ctx.user.id, None, Some(&ctx.key))
                    .await?;
                let lang = Lang::choose(
                    None,
                    ctx.locale.as_deref(),
                    ctx.community_language.as_deref(),
                );
                (Msg::new("language-auto"), lang)
            }
            Some(word) => {
                let lang = Lang::parse(word).ok_or_else(|| UserError::UnknownLanguage {
                    given: crate::l10n::quote(word),
                    known: config::language_list(),
                })?;
                self.not_repeated(ctx).await?;
                self.store
                    .set_user_language(ctx.user.id, Some(lang.code()), Some(&ctx.key))
                    .await?;
                (Msg::new("language-set"), lang)
            }
        };
        let mut reply = Reply {
            audience: Audience::Actor,
            spans: vec![Span::Msg(
                msg.msg("name", Msg::new("language-name"))
                    .text("code", lang.code())
                    .text("known", config::language_list()),
            )],
            ..Reply::default()
        };
        // Said now, in the language in force after the change.
        reply.localize(lang);
        Ok(reply)
    }
}
