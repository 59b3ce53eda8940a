//! A chat whose platform id changes (Telegram's group → supergroup migration), through the
//! service: after `Service::chat_moved`, requests from the new id find the chat's games,
//! challenges and wallets, on SQLite and PostgreSQL.

use crate::common;

use common::connect;
use common::table::{Table, start, text};
use tabula_service::store::{DatabaseUrl, Platform};

on_both_databases! {
    a_moved_chat_keeps_its_games_challenges_and_wallets => moved_chat;
}

async fn moved_chat(url: DatabaseUrl) {
    let store = connect(&url).await;
    let mut table = Table::new(store.clone(), 3);
    table.chat = ("-7", "Group");
    let game = start(&table, "alice", "bob", "konane stake=10").await;
    let reply = table.cmd("carol", "/play koan @dave").await;
    assert!(reply.is_done(), "{}", text(&reply));
    let (old_chat, community) = table.chat_ids().await;
    let wallet = table.wallet("alice").await;

    let moved = table
        .service
        .chat_moved(Platform::Local, "-7", "-1007")
        .await
        .expect("move");
    assert_eq!(moved.chats, [old_chat]);
    assert_eq!(moved.community, Some(community));

    table.chat = ("-1007", "Group");
    assert_eq!(table.chat_ids().await, (old_chat, community));
    let reply = table.cmd("alice", "/board").await;
    assert_eq!(reply.game, Some(game), "{}", text(&reply));
    assert_eq!(reply.address.chat, "-1007");
    let reply = table.cmd("dave", "/accept").await;
    assert!(reply.is_done() && reply.game.is_some(), "{}", text(&reply));
    assert_eq!(table.wallet("alice").await, wallet);
    table.assert_money_adds_up().await;
    store.close().await;
}
