//! `/mygames`: one inbox of a person's games in every chat of their platform, and of the other
//! platform when they linked their identities there (`/link`) (issue 38), most
//! useful in a private chat with the bot: the games where it is their move first, the soonest
//! deadline first, then the others; a link button per game to its board, in its chat, where
//! the person acts. Pages of [`PAGE`] games, with a button to the next.

use super::narration::said_button;
use super::{Ctx, Handled, Reply, Service, UserError, game_msg, team_of, team_users};
use crate::l10n::{Msg, Span, duration_msg};
use crate::store::{GameRecord, UserId};

/// Games per page.
const PAGE: usize = 8;

impl Service {
    /// `/mygames` (and its Next button, `y<page>`): page `page` of the person's games.
    pub(super) async fn my_games(&self, ctx: &Ctx, page: usize) -> Handled<Reply> {
        // The person's identities: theirs here, and the one linked to it on the other platform.
        let users: Vec<UserId> = std::iter::once(ctx.user.id)
            .chain(self.store.linked(ctx.user.id).await?)
            .collect();
        let mut games = Vec::new();
        for user in &users {
            games.extend(self.store.active_games_of_user(*user, None).await?);
        }
        if games.is_empty() {
            return Err(UserError::NoGamesAnywhere.into());
        }
        let mine = |user: UserId| users.contains(&user);
        // Their move first, then the others; each by deadline (none last), then number.
        games.sort_by_key(|record| {
            let clock = record.clock.as_ref();
            (
                clock.is_none_or(|clock| !mine(clock.user)),
                clock.map_or(i64::MAX, |clock| clock.deadline_at.0),
                record.id.0,
            )
        });
        let pages = games.len().div_ceil(PAGE);
        let page = page.min(pages - 1);
        let now = ctx.now;
        let mine_to_move = games
            .iter()
            .filter(|record| record.clock.is_some_and(|clock| mine(clock.user)))
            .count();
        let mut spans = vec![Span::Msg(
            Msg::new("mygames-heading")
                .num("count", i64::try_from(games.len()).unwrap_or(i64::MAX))
                .num("mine", i64::try_from(mine_to_move).unwrap_or(i64::MAX)),
        )];
        let mut links = Vec::new();
        for record in games.iter().skip(page * PAGE).take(PAGE) {
            let chat = self.store.chat(record.chat).await?;
            let chat_title = chat
                .as_ref()
                .map_or_else(String::new, |chat| chat.title.clone());
            let turn = match record.clock {
                Some(clock) if mine(clock.user) => Msg::new("mygames-your-move")
                    .msg("left", duration_msg((clock.deadline_at.0 - now.0).max(0))),
                Some(clock) => Msg::new("mygames-their-move")
                    .msg(
                        "who",
                        super::seated(record, clock.user).map_or_else(
                            || Msg::new("someone"),
                            |user| {
                                Msg::new("person").msg("person", super::narration::name_msg(user))
                            },
                        ),
                    )
                    .msg("left", duration_msg((clock.deadline_at.0 - now.0).max(0))),
                None => Msg::new("games-rolling"),
            };
            spans.push(Span::Text("\n".into()));
            spans.push(Span::Msg(
                Msg::new("mygames-line")
                    .text("game", format!("#{}", record.id))
                    .msg("name", game_msg(record.game))
                    .text("chat", chat_title)
                    .msg("against", against(record, &users))
                    .msg("turn", turn),
            ));
            links.extend(
                self.board_link(record, super::notify::game_button(record))
                    .await?,
            );
        }
        if pages > 1 {
            spans.push(Span::Text("\n".into()));
            spans.push(Span::Msg(
                Msg::new("mygames-page")
                    .num("page", i64::try_from(page + 1).unwrap_or(i64::MAX))
                    .num("pages", i64::try_from(pages).unwrap_or(i64::MAX)),
            ));
        }
        let mut buttons = Vec::new();
        if pages > 1 {
            let next = (page + 1) % pages;
            buttons.push(vec![said_button(
                Msg::new(if next == 0 {
                    "button-first-page"
                } else {
                    "button-next-page"
                }),
                format!("y{next}"),
            )]);
        }
        Ok(Reply {
            spans,
            buttons,
            goto: links,
            ..Reply::default()
        }
        .to_actor())
    }
}

/// The other people of `record` as the person of `users` (their identities) sees them: "Bob",
/// or "Bob and Dana, with Alice".
fn against(record: &GameRecord, users: &[UserId]) -> Msg {
    let names = |users: Vec<UserId>| -> Msg {
        let names = users
            .iter()
            .filter_map(|other| super::seated(record, *other))
            .map(|other| Msg::new("person").msg("person", super::narration::name_msg(other)))
            .collect();
        Msg::list(names, "people-and", "people-and")
    };
    let Some((user, team)) = record
        .seats
        .iter()
        .find(|holder| users.contains(&holder.user.id))
        .map(|holder| (holder.user.id, team_of(record.game, holder.seat)))
    else {
        return Msg::new("someone");
    };
    let partners: Vec<UserId> = team_users(record, team)
        .into_iter()
        .filter(|other| *other != user)
        .collect();
    let others = names(team_users(record, 1 - team));
    if partners.is_empty() {
        Msg::new("mygames-against").msg("others", others)
    } else {
        Msg::new("mygames-against-with")
            .msg("others", others)
            .msg("partners", names(partners))
    }
}
