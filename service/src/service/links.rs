//! One person on both platforms (issue 38): `/link` gives a one-time code ([`CODE_LEN`]
//! characters, valid [`CODE_MINUTES`] minutes) where only the person sees it; `/link <code>`
//! typed on the other platform joins the two identities; `/unlink` parts them. Linked, the
//! person's `/mygames` and daily digest list the games of both platforms, and their `/notify`
//! settings are one (each platform's games ping them in that platform's private chat, where
//! the link opens the game). Wallets stay per server or group; nothing else changes.

use super::{Ctx, Handled, Reply, Service, UserError, spans_reply};
use crate::l10n::{Msg, Span};
use crate::store::{ChatId, LinkClaim, Platform, Timestamp, UserId};

/// The characters of a code: capitals and digits that cannot be mistaken for one another (no
/// `0`/`O`, `1`/`I`/`L`).
const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/// How long a code is.
pub const CODE_LEN: usize = 6;

/// How many minutes a code lasts.
pub const CODE_MINUTES: i64 = 10;

impl Service {
    /// `/link` (a new code, or who the person is linked with) and `/link <code>`.
    pub(super) async fn link(&self, ctx: &Ctx, text: Option<&str>) -> Handled<Reply> {
        let Some(other) = other_platform(ctx.chat.platform) else {
            return Err(UserError::LinkNotHere.into());
        };
        // Codes and the names of linked accounts are said where only the person sees them.
        if !ctx.chat.platform.actor_sees_alone(ctx.group) {
            return Err(UserError::LinkInPrivate.into());
        }
        let code = text.map(str::trim).filter(|text| !text.is_empty());
        if let Some(partner) = self.store.linked(ctx.user.id).await? {
            let (name, platform) = self.identity(partner).await?;
            return Err(UserError::AlreadyLinked { name, platform }.into());
        }
        match code {
            None => self.new_code(ctx, other).await,
            Some(given) => {
                let code = read_code(given)?;
                self.not_repeated(ctx).await?;
                let private_chat = self.own_private_chat(ctx).await?;
                let claim = self
                    .store
                    .link_with_code(
                        ctx.user.id,
                        ctx.chat.platform.as_str(),
                        &code,
                        private_chat,
                        Some(&ctx.key),
                        ctx.now,
                    )
                    .await?;
                match claim {
                    LinkClaim::Linked(partner) => {
                        let (name, platform) = self.identity(partner).await?;
                        Ok(spans_reply(vec![Span::Msg(
                            Msg::new("link-done")
                                .text("name", name)
                                .text("platform", platform),
                        )])
                        .to_actor())
                    }
                    LinkClaim::Unknown => Err(UserError::LinkCodeUnknown.into()),
                    LinkClaim::SamePlatform => Err(UserError::LinkSamePlatform(other).into()),
                    LinkClaim::AlreadyLinked(partner) => {
                        let (name, platform) = self.identity(partner).await?;
                        Err(UserError::AlreadyLinked { name, platform }.into())
                    }
                    LinkClaim::TheyAreLinked => Err(UserError::LinkTheyAreLinked.into()),
                }
            }
        }
    }

    /// `/unlink`: parts the person's identities.
    pub(super) async fn unlink(&self, ctx: &Ctx) -> Handled<Reply> {
        if !ctx.chat.platform.actor_sees_alone(ctx.group) {
            return Err(UserError::LinkInPrivate.into());
        }
        if self.store.linked(ctx.user.id).await?.is_none() {
            return Err(UserError::NotLinked.into());
        }
        self.not_repeated(ctx).await?;
        let Some(partner) = self
            .store
            .unlink(ctx.user.id, Some(&ctx.key), ctx.now)
            .await?
        else {
            return Err(UserError::NotLinked.into());
        };
        let (name, platform) = self.identity(partner).await?;
        Ok(spans_reply(vec![Span::Msg(
            Msg::new("unlink-done")
                .text("name", name)
                .text("platform", platform),
        )])
        .to_actor())
    }

    /// A new code for the person, shown where only they see it.
    async fn new_code(&self, ctx: &Ctx, other: &'static str) -> Handled<Reply> {
        self.not_repeated(ctx).await?;
        let code = fresh_code();
        let private_chat = self.own_private_chat(ctx).await?;
        self.store
            .new_link_code(
                ctx.user.id,
                &code,
                private_chat,
                Timestamp(ctx.now.0 + CODE_MINUTES * 60_000),
                Some(&ctx.key),
                ctx.now,
            )
            .await?;
        Ok(spans_reply(vec![Span::Msg(
            Msg::new("link-code")
                .text("code", code)
                .text("platform", other)
                .num("minutes", CODE_MINUTES),
        )])
        .to_actor())
    }

    /// The person's private chat with the bot, as a chat of the store (made on first sight).
    async fn own_private_chat(&self, ctx: &Ctx) -> Handled<Option<ChatId>> {
        let Some(address) = &ctx.private_chat else {
            return Ok(None);
        };
        Ok(Some(
            self.store
                .upsert_chat(ctx.chat.platform, address, &ctx.user.display_name, None)
                .await?
                .id,
        ))
    }

    /// The name and platform (as written) of identity `user`.
    async fn identity(&self, user: UserId) -> Handled<(String, String)> {
        let user = self.store.user(user).await?.ok_or(UserError::NotLinked)?;
        let platform = platform_name(user.platform);
        let name = match &user.username {
            Some(username) if user.platform == Platform::Telegram => format!("@{username}"),
            _ => user.display_name.clone(),
        };
        Ok((name, platform.to_string()))
    }
}

/// The name of the platform an identity of `platform` links to: `None` where linking has no
/// sense (a terminal).
fn other_platform(platform: Platform) -> Option<&'static str> {
    match platform {
        Platform::Discord => Some(platform_name(Platform::Telegram)),
        Platform::Telegram => Some(platform_name(Platform::Discord)),
        Platform::Local | Platform::Computer => None,
    }
}

/// A platform's proper name, the same in every language.
fn platform_name(platform: Platform) -> &'static str {
    match platform {
        Platform::Discord => "Discord",
        Platform::Telegram => "Telegram",
        Platform::Local | Platform::Computer => "",
    }
}

/// A code as typed: its letters in capitals, without spaces or dashes; refused unless it has
/// [`CODE_LEN`] characters of [`ALPHABET`].
fn read_code(given: &str) -> Result<String, UserError> {
    let code: String = given
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .flat_map(char::to_uppercase)
        .collect();
    if code.chars().count() == CODE_LEN && code.bytes().all(|b| ALPHABET.contains(&b)) {
        Ok(code)
    } else {
        Err(UserError::BadLinkCode(crate::l10n::quote(given)))
    }
}

/// A random code.
fn fresh_code() -> String {
    use rand::TryRngCore;
    let mut bytes = [0u8; CODE_LEN];
    // The system's randomness; should it fail, the time's (a code lives ten minutes).
    if rand::rngs::OsRng.try_fill_bytes(&mut bytes).is_err() {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        for (i, byte) in bytes.iter_mut().enumerate() {
            *byte = u8::try_from((nanos >> (i * 5)) & 0xff).unwrap_or(0);
        }
    }
    bytes
        .iter()
        .map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_read_leniently_and_checked() {
        assert_eq!(read_code(" abc-def ").ok().as_deref(), Some("ABCDEF"));
        assert!(read_code("ABCDE").is_err());
        assert!(read_code("ABCDE0").is_err(), "0 is not in the alphabet");
        assert!(read_code("ABCDEFG").is_err());
        let code = fresh_code();
        assert_eq!(read_code(&code).ok(), Some(code));
    }
}
