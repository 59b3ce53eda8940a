//! Money: wallets and their grant, stakes in one pot, a pot settled once, fines and debts,
//! racing stakes and endings; after each, the books balance.

use super::fixtures::*;

async fn wallet_account(store: &Store, community: CommunityId, user: UserId) -> AccountId {
    store
        .wallet(community, user)
        .await
        .expect("wallet")
        .expect("wallet opened")
        .account
}

/// A ledger row without its id, time and community: (kind, from, to, amount, game).
type Move = (LedgerKind, AccountId, AccountId, i64, Option<GameNo>);

fn movement(entry: &LedgerEntry) -> Move {
    (entry.kind, entry.from, entry.to, entry.amount, entry.game)
}

/// The rows of a game's ledger, in writing order.
async fn game_moves(store: &Store, community: CommunityId, game: GameNo) -> Vec<Move> {
    store
        .ledger(community)
        .await
        .expect("ledger")
        .iter()
        .filter(|entry| entry.game == Some(game))
        .map(movement)
        .collect()
}

/// Moves in the order of their accounts, for comparing rows whose order does not matter.
fn by_accounts(mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort_by_key(|&(_, from, to, amount, game)| (from, to, amount, game));
    moves
}

pub async fn wallets_open_with_one_grant_and_the_books_balance(store: &Store) {
    let (room, [ann, bob, cy, moderator]) =
        chat_with(store, "room", ["ann", "bob", "cy", "mod"]).await;
    let community = room.community;
    let ledger = || async { store.ledger(community).await.expect("ledger") };
    assert_eq!(store.wallet(community, ann.id).await.expect("wallet"), None);
    assert_eq!(ledger().await, vec![]);

    // The starting grant, once.
    let opened = store.open_wallet(community, ann.id).await.expect("open");
    assert_eq!(
        (opened.user, opened.balance, opened.in_play),
        (ann.id, 1000, 0)
    );
    let bank = bank_account(store, community).await;
    let grant = ledger().await;
    assert_eq!(
        grant.iter().map(movement).collect::<Vec<_>>(),
        vec![(LedgerKind::Grant, bank, opened.account, 1000, None)]
    );
    assert_eq!(
        store.open_wallet(community, ann.id).await.expect("open"),
        opened
    );
    assert_eq!(ledger().await, grant, "no second grant");

    // A new starting grant applies to wallets opened later only.
    store
        .save_settings(
            community,
            &Settings {
                starting_grant: 250,
                ..Settings::default()
            },
            moderator.id,
            None,
        )
        .await
        .expect("save");
    let bobs = store.open_wallet(community, bob.id).await.expect("open");
    assert_eq!(bobs.balance, 250);
    assert_eq!(balance(store, community, ann.id).await, 1000);

    // A moderator's grant and take, with who and why.
    let granted = store
        .adjust_wallet(community, ann.id, 50, moderator.id, "won the cup", None)
        .await
        .expect("grant");
    assert_eq!(granted.balance, 1050);
    let last = ledger().await.pop().expect("a row");
    assert_eq!(
        movement(&last),
        (LedgerKind::Grant, bank, opened.account, 50, None)
    );
    assert_eq!(
        (last.actor, last.reason.as_str()),
        (Some(moderator.id), "won the cup")
    );
    let taken = store
        .adjust_wallet(community, ann.id, -300, moderator.id, "spam", None)
        .await
        .expect("take");
    assert_eq!(taken.balance, 750);
    let last = ledger().await.pop().expect("a row");
    assert_eq!(
        movement(&last),
        (LedgerKind::Adjustment, opened.account, bank, 300, None)
    );
    assert_eq!(
        (last.actor, last.reason.as_str()),
        (Some(moderator.id), "spam")
    );

    // A take above the balance is refused and changes nothing; taking all of it is not.
    let (rows, accounts) = (
        ledger().await,
        store.accounts(community).await.expect("accounts"),
    );
    assert_eq!(
        conflict(
            store
                .adjust_wallet(community, bob.id, -251, moderator.id, "too much", None)
                .await
        ),
        Conflict::InsufficientFunds {
            user: bob.id,
            balance: 250,
            needed: 251
        }
    );
    assert_eq!(ledger().await, rows);
    assert_eq!(store.accounts(community).await.expect("accounts"), accounts);
    let emptied = store
        .adjust_wallet(community, bob.id, -250, moderator.id, "all of it", None)
        .await
        .expect("take");
    assert_eq!(emptied.balance, 0);

    // A keyed adjustment is applied once.
    let key = RequestKey {
        platform: Platform::Discord,
        key: "grant-7".to_string(),
    };
    let gift = store
        .adjust_wallet(community, bob.id, 20, moderator.id, "gift", Some(&key))
        .await
        .expect("grant");
    assert_eq!(gift.balance, 20);
    let rows = ledger().await;
    assert_eq!(
        conflict(
            store
                .adjust_wallet(community, bob.id, 20, moderator.id, "gift", Some(&key))
                .await
        ),
        Conflict::Duplicate
    );
    assert_eq!(ledger().await, rows);
    assert_eq!(balance(store, community, bob.id).await, 20);

    // A grant to someone without a wallet opens it (with the starting grant) first.
    let cys = store
        .adjust_wallet(community, cy.id, 100, moderator.id, "welcome", None)
        .await
        .expect("grant");
    assert_eq!(cys.balance, 350);
    let cy_rows: Vec<Move> = ledger()
        .await
        .iter()
        .filter(|entry| entry.to == cys.account)
        .map(movement)
        .collect();
    assert_eq!(
        cy_rows,
        vec![
            (LedgerKind::Grant, bank, cys.account, 250, None),
            (LedgerKind::Grant, bank, cys.account, 100, None),
        ]
    );

    let board: Vec<(UserId, i64)> = store
        .leaderboard(community, 10)
        .await
        .expect("leaderboard")
        .into_iter()
        .map(|(user, balance)| (user.id, balance))
        .collect();
    assert_eq!(board, vec![(ann.id, 750), (cy.id, 350), (bob.id, 20)]);
    assert_eq!(
        store
            .leaderboard(community, 2)
            .await
            .expect("leaderboard")
            .len(),
        2
    );

    // With no starting grant a wallet opens empty, and the books get no row for it.
    store
        .save_settings(
            community,
            &Settings {
                starting_grant: 0,
                ..Settings::default()
            },
            moderator.id,
            None,
        )
        .await
        .expect("save");
    let rows = ledger().await;
    let dee = user(store, "dee").await;
    let dees = store.open_wallet(community, dee.id).await.expect("open");
    assert_eq!((dees.balance, dees.in_play), (0, 0));
    assert_eq!(ledger().await, rows);

    // Another community has its own wallets and books.
    let elsewhere = chat(store, "elsewhere").await;
    let rows = ledger().await;
    let away = store
        .open_wallet(elsewhere.community, ann.id)
        .await
        .expect("open");
    assert_eq!(away.balance, 1000);
    assert_ne!(away.account, opened.account);
    assert_eq!(balance(store, community, ann.id).await, 750);
    assert_eq!(ledger().await, rows);

    assert_books_balance(store, community).await;
    assert_books_balance(store, elsewhere.community).await;
    let bank_balance = store
        .accounts(community)
        .await
        .expect("accounts")
        .iter()
        .find(|account| account.id == bank)
        .map(|account| account.balance);
    assert_eq!(bank_balance, Some(-(750 + 350 + 20)));
}

pub async fn stakes_go_into_one_pot_or_nothing_is_written(store: &Store) {
    let (room, [ann, bob, cy, dee]) = chat_with(store, "room", ["ann", "bob", "cy", "dee"]).await;
    let community = room.community;
    open_wallets(store, community, [ann.id, bob.id, cy.id]).await;
    store
        .adjust_wallet(community, cy.id, -950, ann.id, "leave 50", None)
        .await
        .expect("take");
    let (ann_wallet, bob_wallet, cy_wallet) = (
        wallet_account(store, community, ann.id).await,
        wallet_account(store, community, bob.id).await,
        wallet_account(store, community, cy.id).await,
    );

    let konane = create(
        store,
        &NewGame {
            stake: 100,
            ..game_in(&room, &[ann.id, bob.id])
        },
    )
    .await;
    assert_eq!(konane.stake, 100);
    let pot_of_konane = pot(store, community, konane.id).await;
    assert_eq!(pot_of_konane.balance, 200);
    assert_eq!(
        by_accounts(game_moves(store, community, konane.id).await),
        by_accounts(vec![
            (
                LedgerKind::Stake,
                ann_wallet,
                pot_of_konane.id,
                100,
                Some(konane.id)
            ),
            (
                LedgerKind::Stake,
                bob_wallet,
                pot_of_konane.id,
                100,
                Some(konane.id)
            ),
        ])
    );
    for person in [&ann, &bob] {
        let wallet = store
            .wallet(community, person.id)
            .await
            .expect("wallet")
            .expect("opened");
        assert_eq!((wallet.balance, wallet.in_play), (900, 100));
    }

    // One player cannot pay: no game, no pot, nobody's money moves, and the challenge
    // stays pending.
    let now = Timestamp::now();
    let challenge = store
        .create_challenge(&NewChallenge {
            chat: room.id,
            game: GameId::Konane,
            options: "size=6",
            challenger: ann.id,
            invited: &[cy.id],
            expires_at: now.plus_millis(10 * MINUTE),
            stake: 100,
            move_millis: DAY,
            computer: None,
            dice_seed: None,
            rated: true,
        })
        .await
        .expect("challenge");
    let ann_and_cy = [ann.id, cy.id];
    let accepting = NewGame {
        stake: 100,
        accepting: Some(Acceptance {
            challenge: challenge.id,
            by: cy.id,
            now,
            computer: None,
        }),
        ..game_in(&room, &ann_and_cy)
    };
    let rows = store.ledger(community).await.expect("ledger");
    let accounts = store.accounts(community).await.expect("accounts");
    assert_eq!(
        conflict(store.create_game(&accepting).await),
        Conflict::InsufficientFunds {
            user: cy.id,
            balance: 50,
            needed: 100
        }
    );
    assert_eq!(store.ledger(community).await.expect("ledger"), rows);
    assert_eq!(store.accounts(community).await.expect("accounts"), accounts);
    assert_eq!(balance(store, community, ann.id).await, 900);
    let still = store
        .challenge(challenge.id)
        .await
        .expect("get")
        .expect("exists");
    assert_eq!(still.status, ChallengeStatus::Pending);
    assert_eq!(still.started_game, None);
    assert_eq!(
        store.active_games_in_chat(room.id).await.expect("list"),
        vec![konane.clone()]
    );
    // Nor can someone without a wallet.
    assert_eq!(
        conflict(
            store
                .create_game(&NewGame {
                    stake: 100,
                    ..game_in(&room, &[ann.id, dee.id])
                })
                .await
        ),
        Conflict::InsufficientFunds {
            user: dee.id,
            balance: 0,
            needed: 100
        }
    );
    assert_eq!(store.wallet(community, dee.id).await.expect("wallet"), None);
    assert_eq!(store.accounts(community).await.expect("accounts"), accounts);
    assert_eq!(store.ledger(community).await.expect("ledger"), rows);

    // Once cy holds exactly the stake, the same challenge can be accepted.
    store
        .adjust_wallet(community, cy.id, 50, ann.id, "top up", None)
        .await
        .expect("grant");
    let accepted = create(store, &accepting).await;
    assert_eq!(balance(store, community, cy.id).await, 0);
    assert_eq!(pot(store, community, accepted.id).await.balance, 200);
    let settled = store
        .challenge(challenge.id)
        .await
        .expect("get")
        .expect("exists");
    assert_eq!(settled.status, ChallengeStatus::Accepted);
    assert_eq!(settled.started_game, Some(accepted.id));
    assert!(game_moves(store, community, accepted.id).await.contains(&(
        LedgerKind::Stake,
        cy_wallet,
        pot(store, community, accepted.id).await.id,
        100,
        Some(accepted.id)
    )));

    // Two persons holding two seats each stake once each.
    let four_seats = create(
        store,
        &pachisi(&room, &[ann.id, bob.id, ann.id, bob.id], 10),
    )
    .await;
    let pot_of_pachisi = pot(store, community, four_seats.id).await;
    assert_eq!(pot_of_pachisi.balance, 20);
    assert_eq!(
        by_accounts(game_moves(store, community, four_seats.id).await),
        by_accounts(vec![
            (
                LedgerKind::Stake,
                ann_wallet,
                pot_of_pachisi.id,
                10,
                Some(four_seats.id)
            ),
            (
                LedgerKind::Stake,
                bob_wallet,
                pot_of_pachisi.id,
                10,
                Some(four_seats.id)
            ),
        ])
    );
    let anns = store
        .wallet(community, ann.id)
        .await
        .expect("wallet")
        .expect("opened");
    assert_eq!((anns.balance, anns.in_play), (790, 210));
    assert_books_balance(store, community).await;
}

pub async fn a_pot_is_settled_exactly_once(store: &Store) {
    let (room, [ann, bob, cy, dee]) = chat_with(store, "room", ["ann", "bob", "cy", "dee"]).await;
    let community = room.community;
    let everyone = [ann.id, bob.id, cy.id, dee.id];
    open_wallets(store, community, everyone).await;
    let ann_wallet = wallet_account(store, community, ann.id).await;
    let bob_wallet = wallet_account(store, community, bob.id).await;
    let cy_wallet = wallet_account(store, community, cy.id).await;

    // Won by the append that finishes the game.
    let won = create(
        store,
        &NewGame {
            stake: 100,
            ..game_in(&room, &[ann.id, bob.id])
        },
    )
    .await;
    let winner = Payout::Winners(vec![ann.id]);
    advance(
        store,
        won.id,
        &mut start(&won),
        ann.id,
        Append {
            finish: Some("ann wins"),
            payout: Some(&winner),
            ..Append::default()
        },
    )
    .await
    .expect("finishing move");
    let finished = record(store, won.id).await;
    assert_eq!(finished.status, GameStatus::Finished);
    assert!(finished.settled_at.is_some());
    let won_pot = pot(store, community, won.id).await;
    assert_eq!(won_pot.balance, 0);
    assert_eq!(
        balances(store, community, &[ann.id, bob.id]).await,
        vec![1100, 900]
    );
    let payout = LedgerKind::Payout;
    assert_eq!(
        game_moves(store, community, won.id).await[2..],
        [(payout, won_pot.id, ann_wallet, 200, Some(won.id))]
    );
    for person in [ann.id, bob.id] {
        let wallet = store
            .wallet(community, person)
            .await
            .expect("wallet")
            .expect("opened");
        assert_eq!(wallet.in_play, 0);
    }
    // Ending it again is refused and pays nothing.
    let rows = store.ledger(community).await.expect("ledger");
    assert_eq!(
        conflict(
            store
                .end_game(
                    won.id,
                    &Ending {
                        payout: Payout::Winners(vec![bob.id]),
                        ..ending(GameEnd::Finished, "bob resigned")
                    }
                )
                .await
        ),
        Conflict::GameOver {
            game: won.id,
            status: GameStatus::Finished
        }
    );
    assert_eq!(store.ledger(community).await.expect("ledger"), rows);
    assert_eq!(record(store, won.id).await, finished);

    // Aborted: every stake goes back.
    let aborted = create(
        store,
        &NewGame {
            stake: 50,
            ..game_in(&room, &[ann.id, bob.id])
        },
    )
    .await;
    assert_eq!(
        balances(store, community, &[ann.id, bob.id]).await,
        vec![1050, 850]
    );
    let ended = store
        .end_game(aborted.id, &ending(GameEnd::Aborted, "abandoned"))
        .await
        .expect("abort");
    assert_eq!(ended.status, GameStatus::Aborted);
    assert!(ended.settled_at.is_some());
    let aborted_pot = pot(store, community, aborted.id).await;
    assert_eq!(aborted_pot.balance, 0);
    assert_eq!(
        balances(store, community, &[ann.id, bob.id]).await,
        vec![1100, 900]
    );
    let refund = LedgerKind::Refund;
    assert_eq!(
        by_accounts(game_moves(store, community, aborted.id).await[2..].to_vec()),
        by_accounts(vec![
            (refund, aborted_pot.id, ann_wallet, 50, Some(aborted.id)),
            (refund, aborted_pot.id, bob_wallet, 50, Some(aborted.id)),
        ])
    );

    // A resignation under a request key: settled once however often it is delivered.
    let resigned = create(
        store,
        &NewGame {
            stake: 100,
            ..game_in(&room, &[ann.id, bob.id])
        },
    )
    .await;
    let key = RequestKey {
        platform: Platform::Telegram,
        key: "resign-9".to_string(),
    };
    let bob_wins = Ending {
        payout: Payout::Winners(vec![bob.id]),
        actor: Some(ann.id),
        ..ending(GameEnd::Finished, "ann resigned")
    };
    store
        .end_game_once(resigned.id, &bob_wins, &key)
        .await
        .expect("resign");
    assert_eq!(
        balances(store, community, &[ann.id, bob.id]).await,
        vec![1000, 1000]
    );
    let resigned_pot = pot(store, community, resigned.id).await;
    let rows = store.ledger(community).await.expect("ledger");
    let paid = rows.last().expect("a row");
    assert_eq!(
        movement(paid),
        (payout, resigned_pot.id, bob_wallet, 200, Some(resigned.id))
    );
    assert_eq!(paid.actor, Some(ann.id));
    assert_eq!(
        conflict(store.end_game_once(resigned.id, &bob_wins, &key).await),
        Conflict::Duplicate
    );
    let again = RequestKey {
        platform: Platform::Telegram,
        key: "resign-10".to_string(),
    };
    assert_eq!(
        conflict(store.end_game_once(resigned.id, &bob_wins, &again).await),
        Conflict::GameOver {
            game: resigned.id,
            status: GameStatus::Finished
        }
    );
    assert_eq!(store.ledger(community).await.expect("ledger"), rows);

    // A team of two shares a pot of four stakes evenly.
    let team = create(store, &pachisi(&room, &everyone, 10)).await;
    assert_eq!(pot(store, community, team.id).await.balance, 40);
    store
        .end_game(
            team.id,
            &Ending {
                payout: Payout::Winners(vec![ann.id, cy.id]),
                ..ending(GameEnd::Finished, "ann and cy win")
            },
        )
        .await
        .expect("end");
    let team_pot = pot(store, community, team.id).await;
    assert_eq!(
        by_accounts(game_moves(store, community, team.id).await[4..].to_vec()),
        by_accounts(vec![
            (payout, team_pot.id, ann_wallet, 20, Some(team.id)),
            (payout, team_pot.id, cy_wallet, 20, Some(team.id)),
        ])
    );

    // Three persons' stakes of 5 shared by two winners: the first named gets the odd one.
    let odd = create(store, &pachisi(&room, &[ann.id, bob.id, cy.id, bob.id], 5)).await;
    assert_eq!(pot(store, community, odd.id).await.balance, 15);
    store
        .end_game(
            odd.id,
            &Ending {
                payout: Payout::Winners(vec![cy.id, ann.id]),
                ..ending(GameEnd::Finished, "cy and ann win")
            },
        )
        .await
        .expect("end");
    let odd_pot = pot(store, community, odd.id).await;
    assert_eq!(
        game_moves(store, community, odd.id).await[3..],
        [
            (payout, odd_pot.id, cy_wallet, 8, Some(odd.id)),
            (payout, odd_pot.id, ann_wallet, 7, Some(odd.id)),
        ]
    );

    // Winners named as nobody (which the service never asks for): the stakes go back
    // rather than staying in the pot.
    let nobody = create(
        store,
        &NewGame {
            stake: 30,
            ..game_in(&room, &[ann.id, bob.id])
        },
    )
    .await;
    store
        .end_game(
            nobody.id,
            &Ending {
                payout: Payout::Winners(Vec::new()),
                ..ending(GameEnd::Finished, "nobody won")
            },
        )
        .await
        .expect("end");
    let nobody_pot = pot(store, community, nobody.id).await;
    assert_eq!(
        by_accounts(game_moves(store, community, nobody.id).await[2..].to_vec()),
        by_accounts(vec![
            (refund, nobody_pot.id, ann_wallet, 30, Some(nobody.id)),
            (refund, nobody_pot.id, bob_wallet, 30, Some(nobody.id)),
        ])
    );

    let pots: Vec<i64> = store
        .accounts(community)
        .await
        .expect("accounts")
        .iter()
        .filter(|account| account.kind == AccountKind::Pot)
        .map(|account| account.balance)
        .collect();
    assert_eq!(pots, vec![0; 6], "every pot emptied");
    assert_eq!(
        balances(store, community, &everyone).await,
        vec![1012, 985, 1013, 990]
    );
    assert_books_balance(store, community).await;
}

pub async fn fines_move_with_their_actions_and_may_leave_a_debt(store: &Store) {
    let (game, ann, bob) = konane(store).await;
    let community = game.community;
    open_wallets(store, community, [ann.id, bob.id]).await;
    store
        .adjust_wallet(community, bob.id, -970, ann.id, "leave 30", None)
        .await
        .expect("take");
    let (ann_wallet, bob_wallet) = (
        wallet_account(store, community, ann.id).await,
        wallet_account(store, community, bob.id).await,
    );
    let mut state = start(&game);
    let bob_pays = [Fine {
        payer: bob.id,
        payee: ann.id,
        amount: 50,
    }];
    let fined = advance(
        store,
        game.id,
        &mut state,
        bob.id,
        Append {
            fines: &bob_pays,
            ..Append::default()
        },
    )
    .await
    .expect("append");
    assert_eq!(fined.seq, 1);
    assert_eq!(
        balances(store, community, &[ann.id, bob.id]).await,
        vec![1050, -20],
        "the payer may go below zero"
    );
    let rows = store.ledger(community).await.expect("ledger");
    let fine = rows.last().expect("a row");
    assert_eq!(
        movement(fine),
        (LedgerKind::Fine, bob_wallet, ann_wallet, 50, Some(game.id))
    );
    assert_eq!(fine.actor, Some(bob.id));

    // A refused append pays no fine.
    let before = load(store, game.id).await;
    let ann_pays = [Fine {
        payer: ann.id,
        payee: bob.id,
        amount: 5,
    }];
    assert_eq!(
        conflict(
            advance(
                store,
                game.id,
                &mut state,
                ann.id,
                Append {
                    expected_seq: 0,
                    fines: &ann_pays,
                    ..Append::default()
                },
            )
            .await
        ),
        Conflict::StaleSeq { current: 1 }
    );
    assert_eq!(store.ledger(community).await.expect("ledger"), rows);
    assert_eq!(load(store, game.id).await, before);

    // A re-delivered one neither.
    let key = RequestKey {
        platform: Platform::Discord,
        key: "double-one".to_string(),
    };
    advance(
        store,
        game.id,
        &mut state,
        ann.id,
        Append {
            expected_seq: 1,
            request: Some(&key),
            fines: &ann_pays,
            ..Append::default()
        },
    )
    .await
    .expect("append");
    assert_eq!(
        balances(store, community, &[ann.id, bob.id]).await,
        vec![1045, -15]
    );
    let rows = store.ledger(community).await.expect("ledger");
    assert_eq!(
        conflict(
            advance(
                store,
                game.id,
                &mut state,
                ann.id,
                Append {
                    expected_seq: 2,
                    request: Some(&key),
                    fines: &ann_pays,
                    ..Append::default()
                },
            )
            .await
        ),
        Conflict::Duplicate
    );
    // Nor one on a game that is over.
    store
        .end_game(game.id, &ending(GameEnd::Aborted, "stopped"))
        .await
        .expect("end");
    assert_eq!(
        conflict(
            advance(
                store,
                game.id,
                &mut state,
                ann.id,
                Append {
                    expected_seq: 2,
                    fines: &ann_pays,
                    ..Append::default()
                },
            )
            .await
        ),
        Conflict::GameOver {
            game: game.id,
            status: GameStatus::Aborted
        }
    );
    assert_eq!(store.ledger(community).await.expect("ledger"), rows);
    assert_eq!(
        balances(store, community, &[ann.id, bob.id]).await,
        vec![1045, -15]
    );
    assert_books_balance(store, community).await;
}

pub async fn concurrent_stakes_never_spend_the_same_money(store: &Store) {
    const RACERS: usize = 8;
    let room = chat(store, "room").await;
    let community = room.community;
    let ann = user(store, "ann").await;
    let mut opponents = Vec::new();
    for index in 0..RACERS {
        let opponent = user(store, &format!("opponent{index}")).await;
        store
            .open_wallet(community, opponent.id)
            .await
            .expect("open");
        opponents.push(opponent.id);
    }
    store.open_wallet(community, ann.id).await.expect("open");
    store
        .adjust_wallet(community, ann.id, -750, opponents[0], "leave 250", None)
        .await
        .expect("take");

    // Ann's 250 pays for two stakes of 100, whoever gets there first.
    let tasks: Vec<_> = opponents
        .iter()
        .map(|&opponent| {
            let (store, room) = (store.clone(), room.clone());
            tokio::spawn(async move {
                let seats = [ann.id, opponent];
                store
                    .create_game(&NewGame {
                        stake: 100,
                        ..game_in(&room, &seats)
                    })
                    .await
            })
        })
        .collect();
    let mut started = Vec::new();
    for task in tasks {
        match task.await.expect("task") {
            Ok(game) => started.push(game.id),
            Err(StoreError::Conflict(refused)) => assert_eq!(
                refused,
                Conflict::InsufficientFunds {
                    user: ann.id,
                    balance: 50,
                    needed: 100
                }
            ),
            Err(other) => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(started.len(), 2, "exactly two stakes paid");
    let anns = store
        .wallet(community, ann.id)
        .await
        .expect("wallet")
        .expect("opened");
    assert_eq!((anns.balance, anns.in_play), (50, 200));
    let active = store.active_games_in_chat(room.id).await.expect("list");
    assert_eq!(
        sorted(active.iter().map(|game| game.id).collect()),
        sorted(started)
    );
    let pots = store
        .accounts(community)
        .await
        .expect("accounts")
        .iter()
        .filter(|account| account.kind == AccountKind::Pot)
        .count();
    assert_eq!(pots, 2, "no pot left behind by a refused game");

    // Wallets opened at once get one starting grant.
    let cy = user(store, "cy").await;
    let tasks: Vec<_> = (0..RACERS)
        .map(|_| {
            let store = store.clone();
            tokio::spawn(async move { store.open_wallet(community, cy.id).await })
        })
        .collect();
    let mut wallets = HashSet::new();
    for task in tasks {
        let wallet = task.await.expect("task").expect("open");
        assert_eq!(wallet.balance, 1000);
        wallets.insert(wallet.account);
    }
    assert_eq!(wallets.len(), 1);
    let grants = store
        .ledger(community)
        .await
        .expect("ledger")
        .iter()
        .filter(|entry| wallets.contains(&entry.to))
        .count();
    assert_eq!(grants, 1);
    assert_books_balance(store, community).await;
}

pub async fn racing_endings_settle_the_pot_once(store: &Store) {
    const RACERS: usize = 8;
    let (room, [ann, bob]) = chat_with(store, "room", ["ann", "bob"]).await;
    let community = room.community;
    open_wallets(store, community, [ann.id, bob.id]).await;
    let seats = [ann.id, bob.id];
    for round in 0..3 {
        let game = create(
            store,
            &NewGame {
                stake: 100,
                ..game_in(&room, &seats)
            },
        )
        .await;
        // With both stakes in the pot.
        let before = balances(store, community, &seats).await;
        // Resignations for either side and, in each round, a finishing move, all at once.
        let mut tasks: Vec<_> = (0..RACERS)
            .map(|index| {
                let store = store.clone();
                let winner = seats[index % 2];
                tokio::spawn(async move {
                    let ending = Ending {
                        payout: Payout::Winners(vec![winner]),
                        ..ending(GameEnd::Finished, "resigned")
                    };
                    store.end_game(game.id, &ending).await.map(|_| winner)
                })
            })
            .collect();
        let mut state = start(&game);
        let finishing = actions(&play(&mut state, 1), Some(ann.id));
        tasks.push({
            let store = store.clone();
            tokio::spawn(async move {
                let payout = Payout::Winners(vec![ann.id]);
                let append = Append {
                    actions: &finishing,
                    finish: Some("ann wins"),
                    payout: Some(&payout),
                    ..Append::default()
                };
                store.append_actions(game.id, &append).await.map(|_| ann.id)
            })
        });
        let mut winners = Vec::new();
        for task in tasks {
            match task.await.expect("task") {
                Ok(winner) => winners.push(winner),
                Err(StoreError::Conflict(Conflict::GameOver { game: over, status })) => {
                    assert_eq!((over, status), (game.id, GameStatus::Finished));
                }
                Err(other) => panic!("round {round}: unexpected {other:?}"),
            }
        }
        assert_eq!(winners.len(), 1, "round {round}: exactly one ending wins");
        let pot_of_game = pot(store, community, game.id).await;
        assert_eq!(pot_of_game.balance, 0);
        let winner_wallet = wallet_account(store, community, winners[0]).await;
        assert_eq!(
            game_moves(store, community, game.id).await[2..],
            [(
                LedgerKind::Payout,
                pot_of_game.id,
                winner_wallet,
                200,
                Some(game.id)
            )]
        );
        let after = balances(store, community, &seats).await;
        let expected: Vec<i64> = seats
            .iter()
            .zip(&before)
            .map(|(person, balance)| {
                if *person == winners[0] {
                    balance + 200
                } else {
                    *balance
                }
            })
            .collect();
        assert_eq!(after, expected, "round {round}");
    }
    assert_books_balance(store, community).await;
}

/// The money of a game moves in its own community: its stakes, its fines and its pot are
/// paid from and to the players' wallets there, and their wallets in another community do not
/// move.
pub async fn money_moves_in_the_community_of_its_game(store: &Store) {
    let (home, [ann, bob]) = chat_with(store, "home", ["ann", "bob"]).await;
    open_wallets(store, home.community, [ann.id, bob.id]).await;
    let away = chat(store, "away").await;
    assert_ne!(home.community, away.community, "two communities");
    open_wallets(store, away.community, [ann.id, bob.id]).await;
    let game = create(
        store,
        &NewGame {
            stake: 100,
            ..game_in(&away, &[ann.id, bob.id])
        },
    )
    .await;
    let mut state = start(&game);
    let bob_pays = [Fine {
        payer: bob.id,
        payee: ann.id,
        amount: 50,
    }];
    advance(
        store,
        game.id,
        &mut state,
        ann.id,
        Append {
            fines: &bob_pays,
            ..Append::default()
        },
    )
    .await
    .expect("a move with a fine");
    let winner = Payout::Winners(vec![ann.id]);
    advance(
        store,
        game.id,
        &mut state,
        bob.id,
        Append {
            expected_seq: 1,
            finish: Some("ann wins"),
            payout: Some(&winner),
            ..Append::default()
        },
    )
    .await
    .expect("the finishing move");
    assert_eq!(
        balances(store, away.community, &[ann.id, bob.id]).await,
        vec![1000 - 100 + 50 + 200, 1000 - 100 - 50],
        "stakes, the fine and the pot, where the game is played"
    );
    assert_eq!(
        balances(store, home.community, &[ann.id, bob.id]).await,
        vec![1000, 1000],
        "nothing moves at home"
    );
    assert_books_balance(store, away.community).await;
    assert_books_balance(store, home.community).await;
}
