//! People, chats and communities: upserts, languages, a community's settings shared by its
//! chats, and a chat moved (a Telegram group migrated) with its topics, games and money.

use super::fixtures::*;

pub async fn users_and_chats_are_upserted(store: &Store) {
    let ann = store
        .upsert_user(Platform::Discord, "1001", "Ann")
        .await
        .expect("insert");
    assert_eq!(ann.platform, Platform::Discord);
    assert_eq!(ann.platform_user_id, "1001");
    assert_eq!(ann.display_name, "Ann");
    let renamed = store
        .upsert_user(Platform::Discord, "1001", "Ann B.")
        .await
        .expect("update");
    assert_eq!(renamed.id, ann.id);
    assert_eq!(renamed.display_name, "Ann B.");
    assert_eq!(renamed.created_at, ann.created_at);
    assert!(renamed.updated_at >= ann.updated_at);
    let other_platform = store
        .upsert_user(Platform::Telegram, "1001", "Ann")
        .await
        .expect("insert");
    assert_ne!(other_platform.id, ann.id);
    assert_eq!(store.user(ann.id).await.expect("get"), Some(renamed));
    assert_eq!(
        store
            .user(tabula_service::store::UserId(ann.id.0 + 1000))
            .await
            .expect("get"),
        None
    );

    let room = store
        .upsert_chat(Platform::Telegram, "-100", "Games", None)
        .await
        .expect("insert");
    let renamed = store
        .upsert_chat(Platform::Telegram, "-100", "Board games", None)
        .await
        .expect("update");
    assert_eq!(renamed.id, room.id);
    assert_eq!(renamed.title, "Board games");
    let other = store
        .upsert_chat(Platform::Discord, "-100", "Games", None)
        .await
        .expect("insert");
    assert_ne!(other.id, room.id);
}

/// Committed dice (issue 19): a challenge's seed, and the seed and nonce of the game started
/// from it, read back as written.
/// A person's own language and the community's default: none until chosen, each kept
/// apart, replaced, forgotten; a repeated request changes nothing.
pub async fn languages_are_kept(store: &Store) {
    let room = chat(store, "languages").await;
    let other = chat(store, "elsewhere").await;
    let [ann, bob] = people(store, ["ann", "bob"]).await;
    let languages = |user: User, community| async move {
        store
            .languages(user.id, community)
            .await
            .expect("languages")
    };
    assert_eq!(languages(ann.clone(), room.community).await, (None, None));
    store
        .set_user_language(ann.id, Some("ru"), None)
        .await
        .expect("set");
    let key = RequestKey {
        platform: Platform::Local,
        key: "language-1".to_string(),
    };
    store
        .set_user_language(ann.id, Some("bg"), Some(&key))
        .await
        .expect("replace");
    assert_eq!(
        conflict(
            store
                .set_user_language(ann.id, Some("en"), Some(&key))
                .await
        ),
        Conflict::Duplicate
    );
    let settings = Settings {
        language: Some("ru".to_string()),
        ..Settings::default()
    };
    store
        .save_settings(room.community, &settings, bob.id, None)
        .await
        .expect("save");
    assert_eq!(
        languages(ann.clone(), room.community).await,
        (Some("bg".to_string()), Some("ru".to_string()))
    );
    assert_eq!(languages(bob.clone(), other.community).await, (None, None));
    assert_eq!(
        languages(bob.clone(), room.community).await,
        (None, Some("ru".to_string()))
    );
    store
        .set_user_language(ann.id, None, None)
        .await
        .expect("forget");
    assert_eq!(
        languages(ann, other.community).await,
        (None, None),
        "forgotten"
    );
}

pub async fn chats_of_a_community_share_it_and_its_settings(store: &Store) {
    let guild = Some(("g1", "Guild"));
    let general = store
        .upsert_chat(Platform::Discord, "c1", "general", guild)
        .await
        .expect("upsert");
    let games = store
        .upsert_chat(Platform::Discord, "c2", "games", guild)
        .await
        .expect("upsert");
    assert_ne!(games.id, general.id);
    assert_eq!(games.community, general.community);
    for chat in [&general, &games] {
        assert_eq!(chat.platform_community_id, "g1");
        assert_eq!(chat.community_title, "Guild");
    }
    let other_guild = store
        .upsert_chat(Platform::Discord, "c3", "lobby", Some(("g2", "Other")))
        .await
        .expect("upsert");
    assert_ne!(other_guild.community, general.community);
    // A chat outside any community is its own, named after it.
    let alone = store
        .upsert_chat(Platform::Discord, "dm", "Direct", None)
        .await
        .expect("upsert");
    assert_eq!(alone.platform_community_id, "dm");
    assert_eq!(alone.community_title, "Direct");
    assert!(![general.community, other_guild.community].contains(&alone.community));
    // Communities, like chats, are per platform.
    let telegram = store
        .upsert_chat(Platform::Telegram, "g1", "Group", None)
        .await
        .expect("upsert");
    assert!(
        ![general.community, other_guild.community, alone.community].contains(&telegram.community)
    );

    // Renaming a community (seen through any of its chats) renames it for all of them.
    let renamed = store
        .upsert_chat(
            Platform::Discord,
            "c1",
            "general",
            Some(("g1", "Guild of Games")),
        )
        .await
        .expect("upsert");
    assert_eq!(renamed.id, general.id);
    assert_eq!(renamed.community, general.community);
    assert_eq!(renamed.title, "general");
    assert_eq!(renamed.community_title, "Guild of Games");
    let games_now = store.chat(games.id).await.expect("get").expect("exists");
    assert_eq!(games_now.community_title, "Guild of Games");
    assert_eq!(games_now.community, general.community);
    let alone_renamed = store
        .upsert_chat(Platform::Discord, "dm", "Direct talk", None)
        .await
        .expect("upsert");
    assert_eq!(alone_renamed.community, alone.community);
    assert_eq!(alone_renamed.community_title, "Direct talk");

    // Settings: the defaults until saved, then exactly what was saved, for that
    // community only.
    let moderator = user(store, "mod").await;
    let settings = |community| async move { store.settings(community).await.expect("settings") };
    assert_eq!(settings(general.community).await, Settings::default());
    let custom = Settings {
        enabled_games: vec![GameId::Konane, GameId::Pachisi],
        default_stake: 10,
        max_stake: 50,
        starting_grant: 200,
        default_move_millis: DAY,
        max_move_millis: 2 * DAY,
        reminders: false,
        staked_games: StakedGames::Moderators,
        vacation_days: 3,
        language: Some("bg".to_string()),
        open_wait_millis: 2 * HOUR,
        private_pings: false,
        threads: true,
        leaderboard_games: 3,
        leaderboard_months: 12,
        pages: false,
    };
    store
        .save_settings(general.community, &custom, moderator.id, None)
        .await
        .expect("save");
    assert_eq!(settings(general.community).await, custom);
    assert_eq!(settings(games.community).await, custom, "same community");
    for community in [other_guild.community, alone.community, telegram.community] {
        assert_eq!(settings(community).await, Settings::default());
    }
    // Saving again replaces every field; another community's save changes nothing here.
    let changed = Settings {
        enabled_games: vec![GameId::CoanKi],
        default_stake: 0,
        max_stake: 7,
        starting_grant: 0,
        default_move_millis: HOUR,
        max_move_millis: HOUR,
        reminders: true,
        staked_games: StakedGames::Everyone,
        vacation_days: 0,
        language: None,
        open_wait_millis: 3 * DAY,
        private_pings: true,
        threads: false,
        leaderboard_games: 0,
        leaderboard_months: 1,
        pages: true,
    };
    let key = RequestKey {
        platform: Platform::Discord,
        key: "config-1".to_string(),
    };
    store
        .save_settings(general.community, &changed, moderator.id, Some(&key))
        .await
        .expect("save");
    assert_eq!(settings(general.community).await, changed);
    assert_eq!(
        conflict(
            store
                .save_settings(general.community, &custom, moderator.id, Some(&key))
                .await
        ),
        Conflict::Duplicate
    );
    assert_eq!(
        settings(general.community).await,
        changed,
        "duplicate not applied"
    );
    store
        .save_settings(other_guild.community, &custom, moderator.id, None)
        .await
        .expect("save");
    assert_eq!(settings(other_guild.community).await, custom);
    assert_eq!(settings(general.community).await, changed);
}

/// A Telegram chat (`community`: the group of a topic; `None`: the chat stands alone).
async fn telegram_chat(store: &Store, id: &str, community: Option<(&str, &str)>) -> Chat {
    store
        .upsert_chat(Platform::Telegram, id, id, community)
        .await
        .expect("upsert chat")
}

async fn chat_by_id(store: &Store, id: ChatId) -> Option<Chat> {
    store.chat(id).await.expect("chat")
}

/// A pending challenge in `chat` by `challenger`, inviting `invited`.
async fn challenge_in(
    store: &Store,
    chat: &Chat,
    challenger: UserId,
    invited: UserId,
) -> ChallengeNo {
    store
        .create_challenge(&NewChallenge {
            chat: chat.id,
            game: GameId::Konane,
            options: "size=6",
            challenger,
            invited: &[invited],
            expires_at: Timestamp::now().plus_millis(DAY),
            stake: 0,
            move_millis: DAY,
            computer: None,
            dice_seed: None,
            rated: true,
        })
        .await
        .expect("challenge")
        .id
}

/// Telegram's group → supergroup migration onto fresh ids: the group `-5` and its topic
/// `-5:7` take the ids `-1005` and `-1005:7` (`-55` is another chat and stays), the group's
/// community takes `-1005`, and everything stays where it was: games (their board ids
/// forgotten), challenges, outbox rows, settings, wallets and the ledger.
pub async fn a_moved_chat_takes_its_topics_games_and_money_along(store: &Store) {
    let group = telegram_chat(store, "-5", None).await;
    let topic = telegram_chat(store, "-5:7", Some(("-5", "-5"))).await;
    let other = telegram_chat(store, "-55", None).await;
    assert_eq!(topic.community, group.community);
    let community = group.community;
    let [ann, bob] = people(store, ["ann", "bob"]).await;
    let settings = Settings {
        max_stake: 500,
        ..Settings::default()
    };
    store
        .save_settings(community, &settings, ann.id, None)
        .await
        .expect("settings");
    open_wallets(store, community, [ann.id, bob.id]).await;
    let game = create(
        store,
        &NewGame {
            stake: 100,
            ..game_in(&group, &[ann.id, bob.id])
        },
    )
    .await;
    post_board(store, game.id, "41").await;
    let row = enqueue(
        store,
        &new_outbox(
            &group,
            Some(game.id),
            OutboxKind::Text,
            "{}",
            Timestamp::now(),
        ),
    )
    .await;
    let challenge = challenge_in(store, &topic, bob.id, ann.id).await;
    let ledger_before = store.ledger(community).await.expect("ledger").len();

    let moved = store
        .move_chat(Platform::Telegram, "-5", "-1005")
        .await
        .expect("move");
    assert_eq!(
        moved,
        MovedChat {
            chats: vec![group.id, topic.id],
            merged_chats: 0,
            community: Some(community),
            merged_community: false,
        }
    );
    let ids = |chat: Option<Chat>| chat.map(|chat| (chat.platform_chat_id, chat.community));
    assert_eq!(
        ids(chat_by_id(store, group.id).await),
        Some(("-1005".to_string(), community))
    );
    assert_eq!(
        ids(chat_by_id(store, topic.id).await),
        Some(("-1005:7".to_string(), community))
    );
    assert_eq!(
        ids(chat_by_id(store, other.id).await),
        Some(("-55".to_string(), other.community)),
        "a chat whose id only begins the same stays"
    );
    let again = telegram_chat(store, "-1005", None).await;
    assert_eq!((again.id, again.community), (group.id, community));
    assert_eq!(again.platform_community_id, "-1005");
    let again = telegram_chat(store, "-1005:7", Some(("-1005", "-1005"))).await;
    assert_eq!(again.id, topic.id);

    let after = record(store, game.id).await;
    assert_eq!((after.chat, after.community), (group.id, community));
    assert_eq!(
        store.messages_with_buttons(game.id).await.expect("boards"),
        Vec::<String>::new(),
        "the old group's board is forgotten"
    );
    let rows = store.outbox_rows(group.id).await.expect("outbox");
    assert_eq!(rows.len(), 1);
    assert_eq!(
        (rows[0].id, rows[0].platform_chat_id.as_str()),
        (row, "-1005")
    );
    let pending: Vec<ChallengeNo> = store
        .pending_challenges(topic.id)
        .await
        .expect("pending")
        .iter()
        .map(|challenge| challenge.id)
        .collect();
    assert_eq!(pending, [challenge]);
    assert_eq!(store.settings(community).await.expect("settings"), settings);
    assert_eq!(
        balances(store, community, &[ann.id, bob.id]).await,
        [900, 900]
    );
    assert_eq!(pot(store, community, game.id).await.balance, 200);
    assert_eq!(
        store.ledger(community).await.expect("ledger").len(),
        ledger_before
    );
    assert_books_balance(store, community).await;

    // Done once: a repeated move finds nothing under the old id.
    let repeated = store
        .move_chat(Platform::Telegram, "-5", "-1005")
        .await
        .expect("move again");
    assert_eq!(repeated, MovedChat::default());
    assert_eq!(
        store
            .move_chat(Platform::Telegram, "-1005", "-1005")
            .await
            .expect("move to itself"),
        MovedChat::default()
    );
}

/// The migration is processed after someone wrote in the supergroup: the rows under the new
/// ids stay and take in the old ones. The old group's game and challenge, its topic's
/// challenge and its outbox row move into the new chats; wallets of one person in both
/// communities add up, the two banks become one, the books balance and no coin is lost;
/// the settings changed last are kept.
pub async fn a_chat_moved_onto_rows_already_there_keeps_every_game_and_coin(store: &Store) {
    let old_group = telegram_chat(store, "-6", None).await;
    let old_topic = telegram_chat(store, "-6:7", Some(("-6", "-6"))).await;
    let lone_topic = telegram_chat(store, "-6:9", Some(("-6", "-6"))).await;
    let old = old_group.community;
    let [ann, bob, cy] = people(store, ["ann", "bob", "cy"]).await;
    store
        .save_settings(
            old,
            &Settings {
                max_stake: 500,
                ..Settings::default()
            },
            ann.id,
            None,
        )
        .await
        .expect("settings");
    open_wallets(store, old, [ann.id, bob.id]).await;
    let old_game = create(
        store,
        &NewGame {
            stake: 100,
            ..game_in(&old_group, &[ann.id, bob.id])
        },
    )
    .await;
    store
        .adjust_wallet(old, bob.id, -50, ann.id, "a fee", None)
        .await
        .expect("take");
    let old_row = enqueue(
        store,
        &new_outbox(
            &old_group,
            Some(old_game.id),
            OutboxKind::Text,
            "{}",
            Timestamp::now(),
        ),
    )
    .await;
    let topic_challenge = challenge_in(store, &old_topic, bob.id, ann.id).await;
    let group_challenge = challenge_in(store, &old_group, ann.id, bob.id).await;

    // Meanwhile, in the supergroup.
    let new_group = telegram_chat(store, "-1006", None).await;
    let new_topic = telegram_chat(store, "-1006:7", Some(("-1006", "-1006"))).await;
    let new = new_group.community;
    assert_ne!(new, old);
    let new_settings = Settings {
        max_stake: 700,
        ..Settings::default()
    };
    store
        .save_settings(new, &new_settings, cy.id, None)
        .await
        .expect("settings");
    open_wallets(store, new, [ann.id, cy.id]).await;
    let new_game = create(store, &game_in(&new_group, &[ann.id, cy.id])).await;
    post_board(store, new_game.id, "7").await;
    let new_row = enqueue(
        store,
        &new_outbox(
            &new_group,
            Some(new_game.id),
            OutboxKind::Text,
            "{}",
            Timestamp::now(),
        ),
    )
    .await;
    let ledger_rows = store.ledger(old).await.expect("ledger").len()
        + store.ledger(new).await.expect("ledger").len();

    let moved = store
        .move_chat(Platform::Telegram, "-6", "-1006")
        .await
        .expect("move");
    assert_eq!(
        moved,
        MovedChat {
            chats: vec![new_group.id, new_topic.id, lone_topic.id],
            merged_chats: 2,
            community: Some(new),
            merged_community: true,
        }
    );
    assert_eq!(chat_by_id(store, old_group.id).await, None);
    assert_eq!(chat_by_id(store, old_topic.id).await, None);
    let lone = chat_by_id(store, lone_topic.id).await.expect("kept");
    assert_eq!(
        (lone.platform_chat_id.as_str(), lone.community),
        ("-1006:9", new)
    );
    assert_eq!(
        chat_by_id(store, new_group.id)
            .await
            .map(|chat| chat.community),
        Some(new)
    );

    let games: Vec<(GameNo, CommunityId)> = store
        .active_games_in_chat(new_group.id)
        .await
        .expect("games")
        .iter()
        .map(|game| (game.id, game.community))
        .collect();
    assert_eq!(games, [(old_game.id, new), (new_game.id, new)]);
    assert_eq!(
        store
            .messages_with_buttons(old_game.id)
            .await
            .expect("boards"),
        Vec::<String>::new()
    );
    assert_eq!(
        store
            .messages_with_buttons(new_game.id)
            .await
            .expect("boards"),
        ["7"],
        "the supergroup's own board stays"
    );
    let rows: Vec<OutboxId> = store
        .outbox_rows(new_group.id)
        .await
        .expect("outbox")
        .iter()
        .map(|row| row.id)
        .collect();
    assert_eq!(rows, [old_row, new_row]);
    let pending = |chat: ChatId| async move {
        store
            .pending_challenges(chat)
            .await
            .expect("pending")
            .iter()
            .map(|challenge| challenge.id)
            .collect::<Vec<_>>()
    };
    assert_eq!(pending(new_group.id).await, [group_challenge]);
    assert_eq!(pending(new_topic.id).await, [topic_challenge]);

    // Money: every coin is still there, in the one community.
    assert!(store.accounts(old).await.expect("accounts").is_empty());
    assert!(store.ledger(old).await.expect("ledger").is_empty());
    assert_eq!(
        balances(store, new, &[ann.id, bob.id, cy.id]).await,
        [900 + 1000, 900 - 50, 1000]
    );
    assert_eq!(pot(store, new, old_game.id).await.balance, 200);
    assert_eq!(store.ledger(new).await.expect("ledger").len(), ledger_rows);
    assert_books_balance(store, new).await;
    assert_eq!(store.settings(new).await.expect("settings"), new_settings);
    let wallet = store
        .wallet(new, ann.id)
        .await
        .expect("wallet")
        .expect("one");
    assert_eq!(wallet.in_play, 100);
}
