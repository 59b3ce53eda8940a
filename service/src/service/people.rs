//! People a request names: a person the platform identified is a user; a typed `@username` is
//! the user last seen with that username, or, for a challenge, a seat kept for whoever first
//! acts with it. No user row is ever made from a typed name alone.

use super::{Ctx, Handled, Mention, Service, UserError};
use crate::commands::CommandId;
use crate::store::{Challenge, Invitee, User};

/// Whom a mention names.
#[derive(Debug, Clone)]
pub(super) enum Named {
    /// A known user.
    User(User),
    /// A `@username` nobody has been seen with yet.
    Username(String),
}

impl Service {
    /// The people the request mentions, in order, resolved.
    pub(super) async fn mentioned(&self, ctx: &Ctx) -> Handled<Vec<Named>> {
        let mut named = Vec::with_capacity(ctx.mentions.len());
        for mention in &ctx.mentions {
            named.push(match mention {
                Mention::Person(person) => {
                    Named::User(self.user_of(ctx.user.platform, person).await?)
                }
                Mention::Username(username) => {
                    match self
                        .store
                        .user_by_username(ctx.user.platform, username)
                        .await?
                    {
                        Some(user) => Named::User(user),
                        None => Named::Username(username.clone()),
                    }
                }
            });
        }
        Ok(named)
    }

    /// The one person a moderator's command names, who must be known to the bot: money only
    /// moves to people who have been seen.
    pub(super) async fn known_person(&self, ctx: &Ctx, command: CommandId) -> Handled<User> {
        match self.mentioned(ctx).await?.into_iter().next() {
            Some(Named::User(user)) => Ok(user),
            Some(Named::Username(username)) => {
                Err(UserError::UnknownPerson(crate::l10n::quote(&username)).into())
            }
            None => Err(UserError::Usage(command).into()),
        }
    }

    /// Binds the actor to a seat of `challenge` kept for their username, if there is one:
    /// the challenge as it is afterwards.
    pub(super) async fn bind_seat(&self, ctx: &Ctx, challenge: Challenge) -> Handled<Challenge> {
        if challenge.invited.contains(&ctx.user.id) || !awaits(&challenge, &ctx.user) {
            return Ok(challenge);
        }
        let Some(username) = ctx.user.username.as_deref() else {
            return Ok(challenge);
        };
        if !self
            .store
            .bind_invitee_username(challenge.id, username, ctx.user.id)
            .await?
        {
            return Ok(challenge);
        }
        Ok(self
            .store
            .challenge(challenge.id)
            .await?
            .unwrap_or(challenge))
    }
}

/// Whether `challenge` keeps a seat for `user`'s username.
pub(super) fn awaits(challenge: &Challenge, user: &User) -> bool {
    user.username.as_deref().is_some_and(|username| {
        challenge
            .unbound_usernames()
            .iter()
            .any(|name| name.eq_ignore_ascii_case(username))
    })
}

/// The invitees of a challenge for the store.
pub(super) fn invitees(named: &[Named]) -> Vec<Invitee> {
    named
        .iter()
        .filter_map(|named| match named {
            Named::User(_) => None,
            Named::Username(username) => Some(Invitee::Username(username.clone())),
        })
        .collect()
}
