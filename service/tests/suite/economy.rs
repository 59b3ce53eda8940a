//! Stakes, fines and payouts, the moderators' settings, and who may do what (issue 6), through
//! the service, on SQLite and PostgreSQL.

use crate::common;

use common::connect;
use common::said::{coins, game_no, people, said, said_all, sub, text_arg};
use common::table::{Lcg, Table, challenge_no, start, text};
use tabula_core::{GameId, Status};
use tabula_service::service::{
    Audience, Input, Kind, ModeratorAction, Reply, SettingError, UserError,
};
use tabula_service::store::{
    DatabaseUrl, GameNo, GameStatus, LedgerKind, LoadedGame, Platform, Settings, StakedGames, Store,
};

on_both_databases! {
    staked_coan_ki_pays_fines_at_once_and_the_pot_to_the_winner => staked_coan_ki;
    a_player_who_cannot_pay_does_not_start_the_game => cannot_pay;
    the_winning_team_shares_the_pot => team_pot;
    moderators_set_up_their_community => settings;
    only_moderators_change_settings_and_money => permissions;
    aborted_games_refund_and_games_settle_once => aborts;
    a_staked_draw_returns_the_stakes => staked_draw;
    a_friendly_coan_ki_game_has_no_fines => friendly_coan_ki;
    a_fine_that_leaves_the_payer_above_zero_says_nothing_of_debt => fines_above_zero;
}

type Check = fn(&UserError) -> bool;

/// Asserts that a reply refuses as `check` says.
fn refused(reply: &Reply, check: Check) {
    assert!(
        reply.refusal().is_some_and(check),
        "{:?}: {}",
        reply.kind,
        text(reply)
    );
}

/// A game with every action it holds.
async fn full_game(store: &Store, game: GameNo) -> LoadedGame {
    match store
        .load_game(game, tabula_service::store::History::Full)
        .await
    {
        Ok(Some(loaded)) => loaded,
        other => panic!("{other:?}"),
    }
}

/// Plays random moves until the game ends; returns every reply.
async fn play_out(table: &Table, game: GameNo, seed: u64) -> Vec<Reply> {
    let mut lcg = Lcg(seed);
    let mut replies = Vec::new();
    for _ in 0..5000 {
        match table.random_move(game, &mut lcg).await {
            Some((_, reply)) => replies.push(reply),
            None => return replies,
        }
    }
    panic!("game {game} did not end in 5000 moves");
}

/// Coan Ki for 50 each, with bob left with 5 coins more than his stake: every double one costs
/// the roller 5 coins at once, paid to the opponent; a fine that leaves someone at or below zero
/// (bob's first leaves him at exactly zero) says so; the winner takes the pot of 100; someone
/// in debt cannot start a staked game.
async fn staked_coan_ki(url: DatabaseUrl) {
    let store = connect(&url).await;
    // Dice chosen so that bob pays the first fine, and three in all, and loses.
    let table = Table::new(store.clone(), 2);
    // Before anyone has a wallet, the leaderboard says so, and how to open one.
    let reply = table.cmd("alice", "/leaderboard").await;
    assert!(reply.is_done(), "{}", text(&reply));
    said(&reply, "leaderboard-empty");
    assert_eq!(table.balance("alice").await, 1000);
    assert_eq!(table.balance("bob").await, 1000);
    let reply = table.cmd("mod", "/take @bob 945 test").await;
    let taken = said(&reply, "coins-taken");
    assert_eq!(
        (people(taken, "person"), coins(taken, "amount")),
        (vec!["bob".to_string()], 945)
    );
    assert_eq!(coins(taken, "balance"), 55, "bob now has 55 coins");
    let game = start(&table, "alice", "bob", "coan-ki stake=50").await;
    assert_eq!(table.balance("alice").await, 950);
    assert_eq!(table.balance("bob").await, 5);
    let replies = play_out(&table, game, 5).await;

    // Who paid fines, read from the log: a double one is followed by the roller's removal.
    let loaded = full_game(&store, game).await;
    let name_of = |id| {
        loaded
            .record
            .seats
            .iter()
            .find(|h| h.user.id == id)
            .map(|h| h.user.platform_user_id.clone())
    };
    let mut paid = std::collections::HashMap::<String, i64>::new();
    let mut payers = Vec::new();
    for pair in loaded.actions.windows(2) {
        if pair[0].action == "roll:1-1" {
            let roller = pair[1]
                .actor
                .and_then(name_of)
                .expect("a removal by the roller");
            *paid.entry(roller.clone()).or_default() += 5;
            payers.push(roller);
        }
    }
    assert_eq!(
        payers,
        ["bob", "bob", "bob"],
        "the dice of this test make bob pay three fines"
    );
    assert_eq!(
        debt_notes(&replies).len(),
        payers.len(),
        "one fine announced per double one"
    );
    assert!(
        replies
            .iter()
            .flat_map(|r| said_all(r, "in-debt-now"))
            .any(|debt| people(debt, "person") == ["bob"] && coins(debt, "balance") == 0),
        "bob's first fine leaves him at zero, which counts as in debt, and the reply says so"
    );
    // Bob's fines leave him at 0, -5 and -10: each announcement says he is in debt.
    assert_eq!(debt_notes(&replies), [true, true, true], "{replies:#?}");

    let record = table.record(game).await;
    assert_eq!(record.status, GameStatus::Finished);
    assert!(record.settled_at.is_some());
    let (state, _) = table.state(game).await;
    let Status::Done(tabula_core::Outcome::Winner(team)) = state.status() else {
        panic!("{}", state.status_line());
    };
    let winner = record
        .seats
        .iter()
        .find(|h| h.seat == team.0)
        .map(|h| h.user.platform_user_id.clone())
        .expect("a winner");
    let (alice_paid, bob_paid) = (
        paid.get("alice").copied().unwrap_or(0),
        paid.get("bob").copied().unwrap_or(0),
    );
    let pot = |name: &str| if winner == name { 100 } else { 0 };
    let alice = table.balance("alice").await;
    let bob = table.balance("bob").await;
    assert_eq!(alice, 950 - alice_paid + bob_paid + pot("alice"));
    assert_eq!(bob, 5 - bob_paid + alice_paid + pot("bob"));
    let last = replies.last().expect("the game was played");
    let pot = said(last, "pot-taken");
    assert_eq!(
        (people(pot, "people"), coins(pot, "pot")),
        (vec![winner.clone()], 100),
        "the winner takes the pot of 100 coins"
    );

    let ledger = table.ledger().await;
    let fines: Vec<_> = ledger
        .iter()
        .filter(|e| e.kind == LedgerKind::Fine)
        .collect();
    assert_eq!(fines.len(), payers.len());
    assert!(fines.iter().all(|e| e.amount == 5 && e.game == Some(game)));
    let payouts: Vec<_> = ledger
        .iter()
        .filter(|e| e.kind == LedgerKind::Payout)
        .collect();
    assert_eq!(payouts.len(), 1);
    assert_eq!(payouts[0].amount, 100);
    table.assert_money_adds_up().await;
    // The leaderboard lists both players now.
    let board = text(&table.cmd("alice", "/leaderboard").await);
    assert!(board.contains("ALICE") && board.contains("BOB"), "{board}");

    // Whoever is at or below zero now cannot start or accept a staked game.
    let (poor, rich) = if bob <= 0 {
        ("bob", "alice")
    } else {
        ("alice", "bob")
    };
    assert_eq!((poor, table.balance(poor).await), ("bob", -10));
    let reply = table
        .cmd(poor, &format!("/play konane @{rich} stake=10"))
        .await;
    refused(&reply, |e| matches!(e, UserError::InDebt { balance: -10 }));
    let reply = table.cmd(poor, &format!("/play konane @{rich}")).await;
    assert!(reply.is_done(), "a friendly game: {}", text(&reply));
    store.close().await;
}

/// The fines of 5 coins a reply announces (with the roll, or on their own).
fn fines_of_5(reply: &Reply) -> usize {
    ["rolled-double-one-fined", "fine-paid"]
        .iter()
        .flat_map(|id| said_all(reply, id))
        .filter(|fine| coins(fine, "fine") == 5)
        .count()
}

/// For each reply announcing a fine of 5 coins, whether it says that the payer is now in debt.
fn debt_notes(replies: &[Reply]) -> Vec<bool> {
    replies
        .iter()
        .filter(|r| fines_of_5(r) > 0)
        .map(|r| r.says("in-debt-now").is_some())
        .collect()
}

/// The dice and moves of the staked test, with bob keeping his 1000 coins: his three fines leave
/// him at 945, 940 and 935, so each is announced without a word about debt.
async fn fines_above_zero(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 2);
    let game = start(&table, "alice", "bob", "coan-ki stake=50").await;
    assert_eq!(table.balance("bob").await, 950);
    let replies = play_out(&table, game, 5).await;
    assert_eq!(debt_notes(&replies), [false, false, false], "{replies:#?}");
    let fined = table
        .ledger()
        .await
        .iter()
        .filter(|e| e.kind == LedgerKind::Fine)
        .count();
    assert_eq!(fined, 3, "the same three fines as the staked test");
    table.assert_money_adds_up().await;
    store.close().await;
}

/// Coan Ki without a stake, with the dice of the staked test: double ones are thrown, but a
/// fine is a tenth of the stake, so nobody pays anything and no money moves.
async fn friendly_coan_ki(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 2);
    let before = (table.balance("alice").await, table.balance("bob").await);
    let game = start(&table, "alice", "bob", "coan-ki").await;
    let replies = play_out(&table, game, 5).await;
    let loaded = full_game(&store, game).await;
    assert!(
        loaded.actions.iter().any(|a| a.action == "roll:1-1"),
        "the test reaches a double one"
    );
    assert_eq!(table.record(game).await.status, GameStatus::Finished);
    assert!(
        !replies.iter().any(|r| {
            r.says("rolled-double-one-fined").is_some() || r.says("fine-paid").is_some()
        }),
        "no fine is announced"
    );
    assert_eq!(
        (table.balance("alice").await, table.balance("bob").await),
        before
    );
    assert!(table.ledger().await.iter().all(|e| e.game != Some(game)));
    store.close().await;
}

/// A stake that one player cannot pay: the game does not start, nobody's money moves, and
/// the challenge stays open until the money is there.
async fn cannot_pay(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 4);
    table.balance("alice").await;
    table.cmd("mod", "/take @bob 960").await;
    assert_eq!(table.balance("bob").await, 40);
    let reply = table.cmd("alice", "/play konane @bob stake=50").await;
    assert_eq!(
        coins(said(&reply, "terms"), "coins"),
        50,
        "the challenge's terms: stake 50 coins each: {}",
        text(&reply)
    );
    let challenge = challenge_no(&reply);
    let reply = table.cmd("bob", "/accept").await;
    assert!(
        matches!(
            reply.refusal(),
            Some(UserError::CannotAfford { name, balance: 40, stake: 50, challenge: no })
                if name == "BOB" && no.0 == challenge
        ),
        "{:?}",
        reply.kind
    );
    assert_eq!(table.balance("alice").await, 1000);
    assert_eq!(table.balance("bob").await, 40);
    let chat = match store
        .upsert_chat(Platform::Local, "chat1", "Test chat", None)
        .await
    {
        Ok(chat) => chat,
        Err(error) => panic!("{error}"),
    };
    assert!(
        store
            .active_games_in_chat(chat.id)
            .await
            .is_ok_and(|games| games.is_empty())
    );
    assert_eq!(
        store
            .pending_challenges(chat.id)
            .await
            .map(|c| c.len())
            .ok(),
        Some(1)
    );

    // Bad stakes are refused when the challenge is made.
    let cases: [(&str, Check); 5] = [
        ("/play konane @alice stake=50", |e| {
            matches!(
                e,
                UserError::TooPoor {
                    balance: 40,
                    stake: 50
                }
            )
        }),
        ("/play konane @alice stake=5000", |e| {
            matches!(e, UserError::BadStake { max: 1000 })
        }),
        ("/play konane @alice stake=-5", |e| {
            matches!(e, UserError::BadArguments { .. })
        }),
        ("/play konane @alice stake=lots", |e| {
            matches!(e, UserError::BadArguments { .. })
        }),
        ("/play coan-ki @alice stake=15", |e| {
            matches!(e, UserError::CoanKiStake)
        }),
    ];
    for (command, check) in cases {
        let reply = table.cmd("bob", command).await;
        assert!(
            reply.refusal().is_some_and(check),
            "{command}: {:?}",
            reply.kind
        );
    }
    assert_eq!(table.pending_challenges().await, 1, "no new challenge");

    // With the money there, the same challenge starts.
    table.cmd("mod", "/grant @bob 10").await;
    let reply = table.cmd("bob", &format!("/accept #{challenge}")).await;
    assert!(reply.is_done() && reply.game.is_some(), "{}", text(&reply));
    assert_eq!(table.balance("alice").await, 950);
    assert_eq!(table.balance("bob").await, 0);
    let reply = table.cmd("bob", "/play koan @alice stake=10").await;
    refused(&reply, |e| matches!(e, UserError::InDebt { balance: 0 }));
    let reply = table.cmd("bob", "/wallet").await;
    let wallet = said(&reply, "wallet");
    assert_eq!(
        (
            people(wallet, "person"),
            coins(wallet, "balance"),
            text_arg(wallet, "community"),
            coins(wallet, "in-play"),
        ),
        (vec!["bob".to_string()], 0, "Test chat", 50),
        "bob has 0 coins here, and 50 staked in games being played"
    );
    said(&reply, "wallet-in-debt");
    assert_eq!(
        reply.audience,
        Audience::Actor,
        "a balance is told to its owner only"
    );
    table.assert_money_adds_up().await;
    store.close().await;
}

/// Four-person Pachisi for 100 each: the partners of the winning team take 200 each; two
/// players holding a team each: the winner takes 200.
async fn team_pot(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 6);
    let reply = table
        .cmd("alice", "/play pachisi @bob @carol @dave stake=100")
        .await;
    let challenge = challenge_no(&reply);
    for name in ["bob", "carol"] {
        let reply = table.cmd(name, &format!("/accept #{challenge}")).await;
        assert!(reply.is_done() && reply.game.is_none(), "{}", text(&reply));
    }
    let reply = table.cmd("dave", &format!("/accept #{challenge}")).await;
    let Some(game) = reply.game.filter(|_| reply.is_done()) else {
        panic!("the game should start: {}", text(&reply));
    };
    for name in ["alice", "bob", "carol", "dave"] {
        assert_eq!(table.balance(name).await, 900, "{name}");
    }
    let record = table.record(game).await;
    let team_of = |name: &str| {
        record
            .seats
            .iter()
            .find(|h| h.user.platform_user_id == name)
            .map(|h| h.seat % 2)
            .expect("seated")
    };
    // alice proposes to resign for her team; her partner confirms (she cannot, nor can an
    // opponent).
    let partner = ["bob", "carol", "dave"]
        .into_iter()
        .find(|name| team_of(name) == team_of("alice"))
        .expect("a partner");
    let opponent = ["bob", "carol", "dave"]
        .into_iter()
        .find(|name| team_of(name) != team_of("alice"))
        .expect("an opponent");
    let asked = table.cmd("alice", &format!("/resign #{game}")).await;
    assert!(
        asked.question && asked.says("resign-proposal").is_some(),
        "{}",
        text(&asked)
    );
    assert_eq!(asked.notify, [partner], "the partner is called");
    let confirm = asked.buttons[0][0].data.clone();
    for (name, refusal) in [
        ("alice", "partner-confirms"),
        (opponent, "question-not-yours"),
    ] {
        let refused = table.press(name, &confirm).await;
        assert!(
            refused.says(refusal).is_some(),
            "{name}: {}",
            text(&refused)
        );
    }
    assert!(table.active_games().await.iter().any(|g| g.id == game));
    let reply = table.press(partner, &confirm).await;
    let pot = said(&reply, "pot-taken");
    assert_eq!(
        (people(pot, "people").len(), coins(pot, "pot")),
        (2, 400),
        "the other team's two share the pot of 400 coins"
    );
    assert!(
        people(pot, "people")
            .iter()
            .all(|name| team_of(name.as_str()) != team_of("alice")),
        "{:?}",
        people(pot, "people")
    );
    for name in ["alice", "bob", "carol", "dave"] {
        let expected = if team_of(name) == team_of("alice") {
            900
        } else {
            1100
        };
        assert_eq!(table.balance(name).await, expected, "{name}");
    }
    let payouts = table
        .ledger()
        .await
        .into_iter()
        .filter(|e| e.kind == LedgerKind::Payout)
        .map(|e| e.amount)
        .collect::<Vec<_>>();
    assert_eq!(payouts, [200, 200]);

    // Two players, one team each.
    let game = start(&table, "carol", "dave", "pachisi stake=100").await;
    let (carol, dave) = (table.balance("carol").await, table.balance("dave").await);
    let reply = table.confirmed("dave", &format!("/resign #{game}")).await;
    let pot = said(&reply, "pot-taken");
    assert_eq!(
        (people(pot, "people"), coins(pot, "pot")),
        (vec!["carol".to_string()], 200),
        "carol takes the pot of 200 coins"
    );
    assert_eq!(table.balance("carol").await, carol + 200);
    assert_eq!(table.balance("dave").await, dave);
    table.assert_money_adds_up().await;
    store.close().await;
}

/// A moderator changes the settings in one command; what they say applies at once; bad
/// values are refused with the reason and change nothing; another community keeps its own.
async fn settings(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 7);
    let reply = table
        .cmd(
            "mod",
            "/config games=konane,koan stake=20 max_stake=100 grant=500 time=2d max_time=5d \
             reminders=off staked_games=moderators vacation=2 language=BG open_wait=6h pings=off \
             leaderboard_games=3 leaderboard_months=12 pages=off",
        )
        .await;
    assert!(reply.is_done(), "{}", text(&reply));
    let expected = Settings {
        enabled_games: vec![GameId::Konane, GameId::Koan],
        default_stake: 20,
        max_stake: 100,
        starting_grant: 500,
        default_move_millis: 2 * common::table::DAY,
        max_move_millis: 5 * common::table::DAY,
        reminders: false,
        staked_games: StakedGames::Moderators,
        vacation_days: 2,
        language: Some("bg".to_string()),
        open_wait_millis: 6 * 3_600_000,
        private_pings: false,
        threads: false,
        leaderboard_games: 3,
        leaderboard_months: 12,
        pages: false,
    };
    let community = table.community().await;
    assert_eq!(store.settings(community).await.ok(), Some(expected.clone()));
    let shown = text(&table.cmd("carol", "/config").await);
    for line in [
        "games=konane,koan",
        "stake=20",
        "max_stake=100",
        "grant=500",
        "time=2d",
        "max_time=5d",
        "reminders=off",
        "staked_games=moderators",
        "vacation=2",
        "open_wait=6h",
        "pings=off",
        "leaderboard_games=3",
        "leaderboard_months=12",
    ] {
        assert!(shown.contains(line), "{line} in {shown}");
    }

    assert_eq!(table.balance("carol").await, 500, "the new starting grant");
    let cases: [(&str, &str, Check); 17] = [
        ("alice", "/play kolowis @bob", |e| {
            matches!(
                e,
                UserError::GameDisabled {
                    game: GameId::Kolowis,
                    ..
                }
            )
        }),
        ("alice", "/play konane @bob", |e| {
            matches!(e, UserError::StakedByModerators)
        }),
        (
            "alice",
            "/play konane @bob time=6d",
            |e| matches!(e, UserError::BadTime { max } if *max == 5 * common::table::DAY),
        ),
        ("alice", "/play konane @bob time=30m", |e| {
            matches!(e, UserError::BadArguments { .. })
        }),
        // One variant for every bad setting, with the setting's own reason.
        ("mod", "/config stake=200", |e| {
            matches!(
                e,
                UserError::BadSetting(SettingError::StakeAboveMax { stake: 200, .. })
            )
        }),
        ("mod", "/config time=10d", |e| {
            matches!(
                e,
                UserError::BadSetting(SettingError::TimeAboveMax { time, .. }) if time == "10d"
            )
        }),
        ("mod", "/config bogus=1", |e| {
            matches!(
                e,
                UserError::BadSetting(SettingError::UnknownKey { key, .. }) if key == "bogus"
            )
        }),
        ("mod", "/config games=", |e| {
            matches!(e, UserError::BadArguments { .. })
        }),
        (
            "mod",
            "/config games=chess",
            |e| matches!(e, UserError::UnknownGame(name) if name == "chess"),
        ),
        ("mod", "/config reminders=maybe", |e| {
            matches!(
                e,
                UserError::BadSetting(SettingError::Reminders(value)) if value == "maybe"
            )
        }),
        ("mod", "/config time=30m", |e| {
            matches!(
                e,
                UserError::BadSetting(SettingError::Time { key: "time", .. })
            )
        }),
        ("mod", "/config vacation=40", |e| {
            matches!(
                e,
                UserError::BadSetting(SettingError::Vacation { value, .. }) if value == "40"
            )
        }),
        ("mod", "/config grant", |e| {
            matches!(e, UserError::BadArguments { .. })
        }),
        ("mod", "/config stake=5 bogus=1", |e| {
            matches!(e, UserError::BadSetting(SettingError::UnknownKey { .. }))
        }),
        ("mod", "/config language=klingon", |e| {
            matches!(e, UserError::BadSetting(SettingError::Language { .. }))
        }),
        ("mod", "/config leaderboard_months=0", |e| {
            matches!(
                e,
                UserError::BadSetting(SettingError::Count {
                    key: "leaderboard_months",
                    min: 1,
                    ..
                })
            )
        }),
        ("mod", "/config leaderboard_games=many", |e| {
            matches!(
                e,
                UserError::BadSetting(SettingError::Count {
                    key: "leaderboard_games",
                    ..
                })
            )
        }),
    ];
    for (user, command, check) in cases {
        let reply = table.cmd(user, command).await;
        assert!(
            reply.refusal().is_some_and(check),
            "{command}: {:?}",
            reply.kind
        );
    }
    assert_eq!(store.settings(community).await.ok(), Some(expected));

    let reply = table.cmd("alice", "/play konane @bob stake=0").await;
    assert!(reply.is_done(), "{}", text(&reply));
    let reply = table.cmd("mod", "/play koan @bob").await;
    assert!(reply.is_done(), "{}", text(&reply));
    let chat = table.chat_ids().await.0;
    let mut terms: Vec<(i64, i64)> = match store.pending_challenges(chat).await {
        Ok(challenges) => challenges
            .iter()
            .map(|c| (c.stake, c.move_millis))
            .collect(),
        Err(error) => panic!("{error}"),
    };
    terms.sort_unstable();
    assert_eq!(
        terms,
        [(0, 2 * common::table::DAY), (20, 2 * common::table::DAY)],
        "a friendly game, and the default stake for a moderator, both at the default time"
    );

    // A chat of another Discord server has its own settings.
    let mut elsewhere = table.command("mod", "/config");
    elsewhere.chat = ("chat2".into(), "Other chat".into());
    elsewhere.community = Some(("guild2".into(), "Other server".into()));
    let shown = table.send(&elsewhere).await;
    assert_eq!(
        text_arg(said(&shown, "settings-heading"), "community"),
        "Other server"
    );
    let settings: Vec<&str> = said_all(&shown, "setting-line")
        .into_iter()
        .map(|line| text_arg(line, "setting"))
        .collect();
    assert!(
        settings.contains(&"games=konane,koan,kolowis,coan-ki,pachisi")
            && settings.contains(&"grant=1000"),
        "the defaults, not this community's: {settings:?}"
    );
    store.close().await;
}

/// Members who are not moderators cannot change settings, grant, take or abort others' games;
/// players cannot act for others; a moderator's repeated grant is applied once.
async fn permissions(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 8);
    let community = table.community().await;
    let game = start(&table, "alice", "bob", "konane stake=10").await;
    let before = table.ledger().await;
    let abort = format!("/abort #{game}");
    let claim = format!("/claim #{game}");
    let resign = format!("/resign #{game}");
    let cases: [(&str, &str, Check); 7] = [
        ("alice", "/config time=1d", |e| {
            matches!(e, UserError::NotModerator(ModeratorAction::ChangeSettings))
        }),
        ("alice", "/config vacation=0", |e| {
            matches!(e, UserError::NotModerator(ModeratorAction::ChangeSettings))
        }),
        ("alice", "/grant @alice 100", |e| {
            matches!(e, UserError::NotModerator(ModeratorAction::Grant))
        }),
        ("alice", "/take @bob 100", |e| {
            matches!(e, UserError::NotModerator(ModeratorAction::Take))
        }),
        ("carol", &abort, |e| {
            matches!(e, UserError::NotModerator(ModeratorAction::AbortOthers))
        }),
        ("carol", &claim, |e| matches!(e, UserError::NotAPlayer(_))),
        ("carol", &resign, |e| matches!(e, UserError::NotAPlayer(_))),
    ];
    for (user, command, check) in cases {
        let reply = table.cmd(user, command).await;
        assert!(
            reply.refusal().is_some_and(check),
            "{command}: {:?}",
            reply.kind
        );
    }
    let mut lcg = Lcg(1);
    let (mover, _) = table.random_move(game, &mut lcg).await.expect("a move");
    let (_, waiting) = table.state(game).await;
    let waiting = waiting.expect("someone to move");
    let reply = table.confirmed(&mover, &format!("/abort #{game}")).await;
    refused(&reply, |e| matches!(e, UserError::AlreadyMoved(_)));
    let reply = table.cmd(&mover, &format!("/claim #{game}")).await;
    refused(&reply, |e| matches!(e, UserError::TooEarly { .. }));
    let reply = table.cmd(&waiting, &format!("/claim #{game}")).await;
    refused(&reply, |e| matches!(e, UserError::OwnTurn(_)));
    assert_eq!(
        store.settings(community).await.ok(),
        Some(Settings::default())
    );
    assert_eq!(table.ledger().await, before, "no money moved");
    assert_eq!(table.record(game).await.status, GameStatus::Active);

    // A moderator's grant, delivered twice, is applied once.
    let grant = table.request("mod", Input::Command("/grant @carol 70 prize".into()));
    let first = table.send(&grant).await;
    let granted = said(&first, "coins-granted");
    assert_eq!(
        (
            people(granted, "moderator"),
            coins(granted, "amount"),
            people(granted, "person"),
            text_arg(granted, "reason"),
            coins(granted, "balance"),
        ),
        (
            vec!["mod".into()],
            70,
            vec!["carol".into()],
            " (prize)",
            1070
        ),
        "the moderator granted 70 coins to carol (prize), who now has 1,070 coins"
    );
    let again = table.send(&grant).await;
    assert_eq!(again.kind, Kind::AlreadyHandled, "{}", text(&again));
    assert_eq!(table.balance("carol").await, 1070);
    let grants = table
        .ledger()
        .await
        .into_iter()
        .filter(|e| e.kind == LedgerKind::Grant && e.reason == "prize")
        .count();
    assert_eq!(grants, 1);
    let cases: [(&str, Check); 5] = [
        ("/grant @carol", |e| {
            matches!(e, UserError::BadArguments { .. })
        }),
        ("/grant carol 5", |e| {
            matches!(e, UserError::BadArguments { .. })
        }),
        ("/grant @carol 0", |e| {
            matches!(e, UserError::BadArguments { .. })
        }),
        ("/take @carol 99999999999", |e| {
            matches!(e, UserError::BadArguments { .. })
        }),
        (
            "/take @carol 2000",
            |e| matches!(e, UserError::TakeTooMuch { name, balance: 1070 } if name == "CAROL"),
        ),
    ];
    for (command, check) in cases {
        let reply = table.cmd("mod", command).await;
        assert!(
            reply.refusal().is_some_and(check),
            "{command}: {:?}",
            reply.kind
        );
    }
    assert_eq!(table.balance("carol").await, 1070);
    let reply = table
        .confirmed("mod", &format!("/abort #{game} fell asleep"))
        .await;
    let result = said(&reply, "result-because");
    assert_eq!(
        (game_no(result, "game"), sub(result, "verdict").id),
        (game, "verdict-aborted")
    );
    let cause = sub(result, "cause");
    assert_eq!(
        (cause.id, people(cause, "person"), text_arg(cause, "reason")),
        (
            "cause-aborted-because",
            vec!["mod".to_string()],
            "fell asleep"
        ),
        "the moderator aborted it (fell asleep), so there is no result"
    );
    assert_eq!(coins(said(&reply, "stakes-returned"), "stake"), 10);
    assert_eq!(table.balance("alice").await, 1000);
    assert_eq!(table.balance("bob").await, 1000);
    table.assert_money_adds_up().await;
    store.close().await;
}

/// Abort before the first move (a player) and after it (a moderator) refund; a game already
/// over cannot be aborted, and its pot is paid once.
async fn aborts(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 9);
    let first = start(&table, "alice", "bob", "konane stake=100").await;
    let reply = table.confirmed("bob", &format!("/abort #{first}")).await;
    assert_eq!(coins(said(&reply, "stakes-returned"), "stake"), 100);
    assert_eq!(table.record(first).await.status, GameStatus::Aborted);
    assert!(table.record(first).await.settled_at.is_some());
    assert_eq!(table.balance("alice").await, 1000);
    assert_eq!(table.balance("bob").await, 1000);

    let second = start(&table, "alice", "bob", "koan stake=100").await;
    let mut lcg = Lcg(2);
    table.random_move(second, &mut lcg).await;
    let reply = table.confirmed("mod", &format!("/abort #{second}")).await;
    assert_eq!(coins(said(&reply, "stakes-returned"), "stake"), 100);
    assert_eq!(table.balance("alice").await, 1000);
    assert_eq!(table.balance("bob").await, 1000);

    let third = start(&table, "alice", "bob", "kolowis stake=100").await;
    table.random_move(third, &mut lcg).await;
    let reply = table.confirmed("alice", &format!("/resign #{third}")).await;
    let pot = said(&reply, "pot-taken");
    assert_eq!(
        (people(pot, "people"), coins(pot, "pot")),
        (vec!["bob".to_string()], 200),
        "bob takes the pot of 200 coins"
    );
    let reply = table.confirmed("mod", &format!("/abort #{third}")).await;
    refused(&reply, |e| matches!(e, UserError::GameOver(_)));
    let reply = table.confirmed("bob", &format!("/resign #{third}")).await;
    refused(&reply, |e| matches!(e, UserError::GameOver(_)));
    assert_eq!(table.balance("alice").await, 900);
    assert_eq!(table.balance("bob").await, 1100);
    let settlements = table
        .ledger()
        .await
        .into_iter()
        .filter(|e| {
            e.game == Some(third) && matches!(e.kind, LedgerKind::Payout | LedgerKind::Refund)
        })
        .count();
    assert_eq!(settlements, 1);
    table.assert_money_adds_up().await;
    store.close().await;
}

/// Kolowis's third repetition of the start position, in eight plies (`shared/rules/kolowis.md`,
/// K-STALL): a draw.
const KOLOWIS_REPETITION: [&str; 8] = [
    "B2-B1", "B16-B17", "B1-B2", "B17-B16", "B2-B1", "B16-B17", "B1-B2", "B17-B16",
];

/// A staked game played to a draw through the service: the pot goes back, each player's stake
/// to its owner, as refund rows of the game; nobody gains or loses.
async fn staked_draw(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 12);
    table.cmd("mod", "/take @bob 300").await;
    let before = (table.balance("alice").await, table.balance("bob").await);
    assert_eq!(before, (1000, 700));
    let game = start(&table, "alice", "bob", "kolowis stake=50").await;
    assert_eq!(
        (table.balance("alice").await, table.balance("bob").await),
        (950, 650)
    );
    let mut last = None;
    for ply in KOLOWIS_REPETITION {
        let (_, actor) = table.state(game).await;
        let Some(actor) = actor else {
            panic!("game {game} ended before {ply}");
        };
        let reply = table.cmd(&actor, &format!("/move #{game} {ply}")).await;
        assert!(
            reply.is_done() && reply.game == Some(game),
            "{ply}: {:?}: {}",
            reply.kind,
            text(&reply)
        );
        last = Some(reply);
    }
    let (state, _) = table.state(game).await;
    assert_eq!(
        state.status(),
        Status::Done(tabula_core::Outcome::Draw),
        "{}",
        state.status_line()
    );
    let record = table.record(game).await;
    assert_eq!(record.status, GameStatus::Finished);
    assert!(record.settled_at.is_some());
    let Some(last) = last else {
        panic!("no move made");
    };
    assert!(
        last.all_buttons().all(|b| !b.data.starts_with(['m', 'p'])),
        "nobody is to move after a draw: {last:?}"
    );
    assert_eq!(last.notify.len(), 2, "the result notifies both players");
    assert_eq!(
        (table.balance("alice").await, table.balance("bob").await),
        before,
        "a draw returns the stakes"
    );
    let (alice, bob) = (table.wallet("alice").await, table.wallet("bob").await);
    assert_eq!((alice.in_play, bob.in_play), (0, 0));
    let ledger = table.ledger().await;
    let mut settled: Vec<_> = ledger
        .iter()
        .filter(|e| e.game == Some(game) && e.kind != LedgerKind::Stake)
        .map(|e| (e.kind, e.to, e.amount))
        .collect();
    settled.sort_by_key(|(_, to, _)| *to);
    let mut expected = vec![
        (LedgerKind::Refund, alice.account, 50),
        (LedgerKind::Refund, bob.account, 50),
    ];
    expected.sort_by_key(|(_, to, _)| *to);
    assert_eq!(settled, expected, "the settlement of the draw");
    table.assert_money_adds_up().await;
    store.close().await;
}
