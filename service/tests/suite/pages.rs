//! Games' web pages (issue 41), through the service: a board carries the link to its game's
//! page exactly when the bot has a public address and the community has pages on; the token
//! is the game's, the same on every board, and names the game; `/config pages=off` takes the
//! link off the next boards and the page away.

use crate::common;

use common::table::{T0, Table, scripted_dice, start};
use tabula_service::service::{Clock, Place, Reply, Service};
use tabula_service::store::{DatabaseUrl, Store};

const PUBLIC: &str = "https://bot.example.org";

fn table(store: &Store, public: Option<&str>) -> Table {
    let clock = Clock::manual(T0);
    let mut service = Service::new(store.clone(), scripted_dice(39))
        .with_pictures(false)
        .with_cooldown(None)
        .with_clock(clock.clone());
    if let Some(public) = public {
        service = service.with_public_url(public);
    }
    Table::with_service(service, clock)
}

/// The page links of a reply.
fn page_links(reply: &Reply) -> Vec<String> {
    reply
        .goto
        .iter()
        .filter_map(|goto| match &goto.to {
            Place::Web { url } => Some(url.clone()),
            _ => None,
        })
        .collect()
}

/// Plays the first legal move of whoever is to move in `game`: the board after it.
async fn one_move(table: &Table, game: tabula_service::store::GameNo) -> Reply {
    let (state, actor) = table.state(game).await;
    let actor = actor.expect("someone to move");
    let line = state.legal_lines()[0].clone();
    let reply = table.cmd(&actor, &format!("/move #{game} {line}")).await;
    assert!(reply.is_done(), "{:?}", reply.kind);
    reply
}

async fn links_follow_the_address_and_the_setting(url: DatabaseUrl) {
    let store = common::connect(&url).await;
    // Without a public address: no link.
    let plain = table(&store, None);
    let game = start(&plain, "alice", "bob", "konane").await;
    assert!(page_links(&one_move(&plain, game).await).is_empty());

    let table = table(&store, Some(&format!("{PUBLIC}/")));
    let board = one_move(&table, game).await;
    let links = page_links(&board);
    assert_eq!(links.len(), 1, "one link on the board: {links:?}");
    let token = links[0]
        .strip_prefix(&format!("{PUBLIC}/g/"))
        .expect("the public address, then /g/<token>")
        .to_string();
    assert_eq!(token.len(), 32, "128 bits in hex: {token}");
    assert!(token.bytes().all(|b| b.is_ascii_hexdigit()));
    assert!(!token.contains(&game.to_string()) || token.len() == 32);
    assert_eq!(
        table.service.game_of_page(&token).await.ok().flatten(),
        Some(game)
    );
    // The same token on the next board; another game has another.
    assert_eq!(page_links(&one_move(&table, game).await), links);
    let other = start(&table, "carol", "dave", "konane").await;
    let other_links = page_links(&one_move(&table, other).await);
    assert_eq!(other_links.len(), 1);
    assert_ne!(other_links, links);
    // A token that does not exist, or is not one, names no game.
    for wrong in [
        &"0".repeat(32),
        "abc",
        &token.to_uppercase(),
        &format!("{token}0"),
    ] {
        assert_eq!(
            table.service.game_of_page(wrong).await.ok().flatten(),
            None,
            "{wrong}"
        );
    }
    // Pages off: no link on the next board, and no page.
    let reply = table.cmd("mod", "/config pages=off").await;
    assert!(reply.is_done(), "{:?}", reply.kind);
    assert!(page_links(&one_move(&table, game).await).is_empty());
    assert_eq!(
        table.service.game_of_page(&token).await.ok().flatten(),
        None
    );
    let refused = table.cmd("mod", "/config pages=maybe").await;
    assert!(!refused.is_done());
    // On again: the same page as before.
    assert!(table.cmd("mod", "/config pages=on").await.is_done());
    assert_eq!(page_links(&one_move(&table, game).await), links);
    store.close().await;
}

/// Records `reply` as posted as message `id`.
async fn posted(table: &Table, reply: &Reply, id: &str) {
    table
        .service
        .board_posted(reply, id)
        .await
        .expect("recorded");
}

/// A moderator's `/config` change, posted (its announcement marked sent, so that what the chat
/// is told after it may go).
async fn configure(table: &Table, change: &str) {
    let reply = table.cmd("mod", &format!("/config {change}")).await;
    assert!(reply.is_done(), "{:?}", reply.kind);
    assert!(reply.announced.is_some(), "announced with the change");
    table.service.reply_sent(&reply, Some("600")).await;
}

/// `/config pages=off` edits the live boards already posted: each keeps its move buttons and
/// loses its link, told by an announcement written with the change; `pages=on` brings the link
/// back the same way. A board that is no longer the newest is not edited.
async fn live_boards_follow_the_setting(url: DatabaseUrl) {
    let store = common::connect(&url).await;
    let clock = Clock::manual(T0);
    let table = Table::with_service(
        Service::new(store.clone(), scripted_dice(40))
            .with_pictures(false)
            .with_cooldown(None)
            .with_clock(clock.clone())
            .with_announcements("process-a/replies", std::time::Duration::from_secs(10))
            .with_public_url(PUBLIC),
        clock.clone(),
    );
    // The challenge and the first board, posted.
    let challenge = table.cmd("alice", "/play konane @bob").await;
    posted(&table, &challenge, "400").await;
    let accepted = table.cmd("bob", "/accept").await;
    posted(&table, &accepted, "499").await;
    let game = accepted.game.expect("a game");
    let first = one_move(&table, game).await;
    assert_eq!(page_links(&first).len(), 1);
    posted(&table, &first, "500").await;
    let second = one_move(&table, game).await;
    posted(&table, &second, "501").await;
    let links = page_links(&second);
    // Nothing to edit while the setting stays.
    configure(&table, "stake=0").await;
    assert!(table.tick().await.is_empty());

    configure(&table, "pages=off").await;
    let edits = table.tick().await;
    assert_eq!(edits.len(), 1, "the live board only: {edits:?}");
    let edit = &edits[0];
    assert_eq!(edit.rebutton.as_deref(), Some("501"));
    assert_eq!(edit.game, Some(game));
    assert!(
        edit.spans.is_empty() && edit.picture.is_none(),
        "nothing posted"
    );
    assert!(page_links(edit).is_empty(), "no link: {edit:?}");
    assert_eq!(edit.buttons, second.buttons, "the moves stay");
    assert!(table.tick().await.is_empty(), "edited once");

    configure(&table, "pages=on").await;
    let edits = table.tick().await;
    assert_eq!(edits.len(), 1, "{edits:?}");
    assert_eq!(edits[0].rebutton.as_deref(), Some("501"));
    assert_eq!(page_links(&edits[0]), links, "the same page again");
    assert_eq!(edits[0].buttons, second.buttons);

    // A board posted while an edit waited: the edited one is no longer the live board, and
    // its adapter takes the buttons it put back off again.
    assert_eq!(
        table.service.is_live_board(game, "501").await.ok(),
        Some(true)
    );
    let third = one_move(&table, game).await;
    posted(&table, &third, "502").await;
    assert_eq!(
        table.service.is_live_board(game, "501").await.ok(),
        Some(false)
    );
    assert_eq!(
        table.service.is_live_board(game, "502").await.ok(),
        Some(true)
    );

    store.close().await;
}

on_both_databases! {
    boards_link_to_their_games_page_exactly_when_pages_are_on => links_follow_the_address_and_the_setting;
    turning_pages_off_or_on_edits_the_live_boards => live_boards_follow_the_setting;
}
