//! `/link` and `/unlink` (issue 38): one person on Telegram and Discord. A code made on one
//! platform, shown only to its person, links the two identities when typed on the other within
//! ten minutes, once; linked, `/mygames` and the daily digest list the games of both platforms
//! and `/notify` settings are one; `/unlink` parts them. On SQLite and PostgreSQL.

use crate::common;
use crate::notify::{listed_privately, pings, play, to_move};

use common::connect;
use common::said::{game_no, said, text_arg};
use common::table::{HOUR, Lcg, Table, start, text};
use tabula_service::service::{Audience, Place, Reply, UserError};
use tabula_service::store::{DatabaseUrl, GameNo, Platform, Store};

on_both_databases! {
    a_code_from_one_platform_links_the_other_once_and_unlink_parts_them => linking;
    linked_people_get_one_digest_and_pings_on_each_platform => linked_notices;
}

const MINUTE: i64 = 60 * 1000;

/// A Telegram group and a Discord channel, one clock.
fn tables(store: &Store, seed: u64) -> (Table, Table) {
    let mut telegram = Table::new(store.clone(), seed);
    telegram.platform = Platform::Telegram;
    telegram.chat = ("-1001234", "Board Games Night");
    let mut discord = Table::with_clock(store.clone(), seed + 1, telegram.clock.clone());
    discord.platform = Platform::Discord;
    discord.chat = ("555", "games");
    (telegram, discord)
}

/// The code a `link-code` answer gives.
fn code_of(reply: &Reply) -> String {
    assert!(reply.is_done(), "{}", text(reply));
    assert_eq!(
        reply.audience,
        Audience::Actor,
        "only its person sees a code"
    );
    text_arg(said(reply, "link-code"), "code").to_string()
}

/// The games a `/mygames` answer lists, and the platforms of its links.
fn inbox(reply: &Reply) -> (Vec<GameNo>, Vec<Platform>) {
    assert!(reply.is_done(), "{}", text(reply));
    let games = reply
        .said
        .iter()
        .filter(|msg| msg.id == "mygames-line")
        .map(|msg| game_no(msg, "game"))
        .collect();
    let platforms = reply
        .goto
        .iter()
        .filter_map(|goto| match &goto.to {
            Place::Message { platform, .. } => Some(*platform),
            Place::PrivateChat | Place::Thread { .. } | Place::Web { .. } => None,
        })
        .collect();
    (games, platforms)
}

async fn linking(url: DatabaseUrl) {
    let store = connect(&url).await;
    let (telegram, discord) = tables(&store, 30);
    // A game on each platform, each with a posted board.
    let on_telegram = start(&telegram, "alice", "bob", "konane time=1d").await;
    let on_discord = start(&discord, "alice", "carol", "koan time=2d").await;
    for (table, game, message) in [(&telegram, on_telegram, "71"), (&discord, on_discord, "72")] {
        let board = table.cmd("alice", &format!("/board #{game}")).await;
        table
            .service
            .board_posted(&board, message)
            .await
            .expect("recorded");
    }
    assert_eq!(
        inbox(&discord.cmd("alice", "/mygames").await).0,
        [on_discord]
    );

    // Not linked yet.
    let none = discord.cmd("alice", "/unlink").await;
    assert!(
        matches!(none.refusal(), Some(UserError::NotLinked)),
        "{:?}",
        none.kind
    );
    // In a Telegram group, where everyone would see it, no code is given.
    let mut in_group = telegram.command("alice", "/link");
    in_group.group = true;
    let refused = telegram.send(&in_group).await;
    assert!(
        matches!(refused.refusal(), Some(UserError::LinkInPrivate)),
        "{:?}",
        refused.kind
    );
    // Privately (outside a group) it is.
    let first = code_of(&telegram.cmd("alice", "/link").await);
    // Nor is a code taken, or an unlink answered, where everyone would see it.
    for typed in [format!("/link {first}"), "/unlink".to_string()] {
        let mut in_group = telegram.command("alice", &typed);
        in_group.group = true;
        let refused = telegram.send(&in_group).await;
        assert!(
            matches!(refused.refusal(), Some(UserError::LinkInPrivate)),
            "{typed}: {:?}",
            refused.kind
        );
    }
    assert_eq!(first.len(), 6);
    // Bad codes are refused with what to do, and change nothing.
    for bad in ["/link 12", "/link ABCDE0", "/link toolongcode"] {
        let refused = discord.cmd("alice", bad).await;
        assert!(
            matches!(refused.refusal(), Some(UserError::BadLinkCode(_))),
            "{bad}: {:?}",
            refused.kind
        );
    }
    // Typed on the platform that made it.
    let same = telegram
        .cmd("alice", &format!("/link {}", first.to_lowercase()))
        .await;
    assert!(
        matches!(same.refusal(), Some(UserError::LinkSamePlatform("Discord"))),
        "{:?}",
        same.kind
    );
    // Ten minutes later it has lapsed.
    telegram.clock.advance(10 * MINUTE + 1);
    let lapsed = discord.cmd("alice", &format!("/link {first}")).await;
    assert!(
        matches!(lapsed.refusal(), Some(UserError::LinkCodeUnknown)),
        "{:?}",
        lapsed.kind
    );
    assert_eq!(
        inbox(&discord.cmd("alice", "/mygames").await).0,
        [on_discord]
    );

    // A new code (the old one is gone), typed on Discord within its time: linked.
    let code = code_of(&telegram.cmd("alice", "/link").await);
    assert_ne!(code, first);
    let linked = discord.cmd("alice", &format!("/link {code}")).await;
    assert!(linked.is_done(), "{}", text(&linked));
    assert_eq!(linked.audience, Audience::Actor);
    let done = said(&linked, "link-done");
    assert_eq!(text_arg(done, "platform"), "Telegram");
    assert_eq!(text_arg(done, "name"), "@alice");
    // Used once: nobody else can use it.
    let again = discord.cmd("dave", &format!("/link {code}")).await;
    assert!(
        matches!(again.refusal(), Some(UserError::LinkCodeUnknown)),
        "{:?}",
        again.kind
    );
    // Linked already, on either side.
    for table in [&telegram, &discord] {
        let already = table.cmd("alice", "/link").await;
        assert!(
            matches!(already.refusal(), Some(UserError::AlreadyLinked { .. })),
            "{:?}",
            already.kind
        );
    }

    // `/mygames` on either platform lists the games of both, linking each on its platform.
    for table in [&telegram, &discord] {
        let (mut games, mut platforms) = inbox(&table.cmd("alice", "/mygames").await);
        games.sort_unstable();
        platforms.sort_by_key(|p| p.as_str());
        assert_eq!(games, [on_telegram, on_discord]);
        assert_eq!(platforms, [Platform::Discord, Platform::Telegram]);
    }
    // Bob and Carol see their own only.
    assert_eq!(
        inbox(&telegram.cmd("bob", "/mygames").await).0,
        [on_telegram]
    );

    // One person's settings: changed on Telegram, they hold on Discord.
    let set = telegram.cmd("alice", "/notify lastcall on").await;
    assert!(set.says("notify-saved").is_some(), "{}", text(&set));
    let shown = discord.cmd("alice", "/notify").await;
    assert_eq!(
        common::said::sub(said(&shown, "notify-shown"), "lastcall").id,
        "notify-on"
    );

    // `/unlink` parts them: each platform's games only again, the settings kept.
    let parted = discord.cmd("alice", "/unlink").await;
    assert!(parted.is_done(), "{}", text(&parted));
    assert_eq!(
        text_arg(said(&parted, "unlink-done"), "platform"),
        "Telegram"
    );
    assert_eq!(
        inbox(&discord.cmd("alice", "/mygames").await).0,
        [on_discord]
    );
    assert_eq!(
        inbox(&telegram.cmd("alice", "/mygames").await).0,
        [on_telegram]
    );
    let again = telegram.cmd("alice", "/unlink").await;
    assert!(
        matches!(again.refusal(), Some(UserError::NotLinked)),
        "{:?}",
        again.kind
    );
    let shown = discord.cmd("alice", "/notify").await;
    assert_eq!(
        common::said::sub(said(&shown, "notify-shown"), "lastcall").id,
        "notify-on"
    );
    // Unlinked, the code of someone else can link again.
    let code = code_of(&discord.cmd("alice", "/link").await);
    let relinked = telegram.cmd("alice", &format!("/link {code}")).await;
    assert_eq!(
        text_arg(said(&relinked, "link-done"), "platform"),
        "Discord"
    );
    store.close().await;
}

async fn linked_notices(url: DatabaseUrl) {
    let store = connect(&url).await;
    let (telegram, discord) = tables(&store, 40);
    let mut lcg = Lcg(41);
    // Bob links his accounts, then chooses the digest at 13:00 UTC on Discord (T0 is 12:00).
    let code = code_of(&telegram.cmd("bob", "/link").await);
    assert!(discord.cmd("bob", &format!("/link {code}")).await.is_done());
    let set = discord.cmd("bob", "/notify digest 13:00 UTC").await;
    assert!(set.says("notify-digest").is_some(), "{}", text(&set));
    // A game waiting for him on each platform.
    let mut games = Vec::new();
    for (table, opponent) in [(&telegram, "alice"), (&discord, "carol")] {
        let game = start(table, "bob", opponent, "konane time=1d").await;
        if to_move(table, game).await != "bob" {
            play(table, game, &mut lcg).await;
        }
        games.push(game);
    }
    telegram.clock.advance(HOUR + MINUTE);
    // One digest, in the private chat of the identity that claimed it, listing both.
    let replies = telegram.tick().await;
    let digests: Vec<&Reply> = replies
        .iter()
        .filter(|reply| reply.says("digest-heading").is_some())
        .collect();
    assert_eq!(digests.len(), 1, "one digest for one person");
    let to = digests[0].address.chat.clone();
    let mut listed = listed_privately(&replies, "digest-heading", &to);
    listed.sort_unstable();
    assert_eq!(listed, games);
    assert!(telegram.tick().await.is_empty(), "once a day");

    // `/notify private` on Telegram: a turn on Discord pings him in Discord's private chat.
    let set = telegram.cmd("bob", "/notify private").await;
    assert!(set.says("notify-saved").is_some(), "{}", text(&set));
    let game = games[1];
    play(&discord, game, &mut lcg).await;
    assert_ne!(to_move(&discord, game).await, "bob");
    telegram.clock.advance(2 * MINUTE);
    play(&discord, game, &mut lcg).await;
    assert_eq!(to_move(&discord, game).await, "bob");
    let replies = telegram.tick().await;
    let pinged: Vec<(Platform, String, GameNo)> = replies
        .iter()
        .filter(|reply| reply.says("ping-your-move").is_some())
        .map(|reply| {
            (
                reply.address.platform,
                reply.address.chat.clone(),
                game_no(said(reply, "ping-your-move"), "game"),
            )
        })
        .collect();
    // Each game pings him on its own platform (the Telegram game, waiting since before he
    // chose private pings over the digest, is pinged too).
    assert!(
        pinged.contains(&(Platform::Discord, "private-bob".to_string(), game)),
        "{pinged:?}"
    );
    assert!(
        pinged
            .iter()
            .all(|(platform, _, g)| (*platform == Platform::Discord) == (*g == game)),
        "{pinged:?}"
    );
    assert_eq!(pings(&replies).len(), pinged.len());
    store.close().await;
}
