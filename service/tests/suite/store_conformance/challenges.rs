//! Challenges: their lifecycle, committed dice, invitees and open challenges, keyed changes
//! applied once, usernames bound to the first matching person, and racing acceptances.

use super::fixtures::*;

pub async fn challenge_lifecycle(store: &Store) {
    let (room, [ann, bob, cy]) = chat_with(store, "room", ["ann", "bob", "cy"]).await;
    let now = Timestamp::now();
    let (repeated, nobody, only_bob) = ([bob.id, cy.id, bob.id], [], [bob.id]);
    let new = |invited| NewChallenge {
        chat: room.id,
        game: GameId::Pachisi,
        options: "finish=overshoot",
        challenger: ann.id,
        invited,
        expires_at: now.plus_millis(10 * MINUTE),
        stake: 0,
        move_millis: DAY,
        computer: None,
        dice_seed: None,
        rated: true,
    };

    let invited = store
        .create_challenge(&new(&repeated))
        .await
        .expect("create");
    assert_eq!(invited.status, ChallengeStatus::Pending);
    assert_eq!(invited.invited, vec![bob.id, cy.id], "repeats dropped");
    assert_eq!(invited.game, GameId::Pachisi);
    assert_eq!(invited.options, "finish=overshoot");
    assert_eq!(invited.challenger, ann.id);
    assert!(!invited.is_open());
    assert_eq!(invited.started_game, None);
    assert_eq!(
        store.challenge(invited.id).await.expect("get"),
        Some(invited.clone())
    );

    let open = store.create_challenge(&new(&nobody)).await.expect("create");
    assert!(open.is_open());
    let pending = store.pending_challenges(room.id).await.expect("list");
    assert_eq!(pending, vec![invited.clone(), open.clone()]);

    let declined = store
        .settle_challenge(invited.id, Settlement::Decline, bob.id, now)
        .await
        .expect("decline");
    assert_eq!(declined.status, ChallengeStatus::Declined);
    assert_eq!(declined.settled_by, Some(bob.id));
    assert_eq!(declined.settled_at, Some(now));
    assert_eq!(
        conflict(
            store
                .settle_challenge(invited.id, Settlement::Accept, cy.id, now)
                .await
        ),
        Conflict::ChallengeSettled {
            challenge: invited.id,
            status: ChallengeStatus::Declined
        }
    );

    let cancelled = store
        .settle_challenge(open.id, Settlement::Cancel, ann.id, now)
        .await
        .expect("cancel");
    assert_eq!(cancelled.status, ChallengeStatus::Cancelled);
    assert_eq!(
        store.pending_challenges(room.id).await.expect("list"),
        vec![]
    );

    // Expiry: refused once its time has come, then marked by `expire_challenges`.
    let short = store
        .create_challenge(&NewChallenge {
            expires_at: now.plus_millis(MINUTE),
            stake: 0,
            move_millis: DAY,
            computer: None,
            ..new(&only_bob)
        })
        .await
        .expect("create");
    let later = now.plus_millis(MINUTE);
    assert_eq!(
        conflict(
            store
                .settle_challenge(short.id, Settlement::Accept, bob.id, later)
                .await
        ),
        Conflict::ChallengeExpired(short.id)
    );
    assert_eq!(store.expire_challenges(now).await.expect("expire"), vec![]);
    let expired = store.expire_challenges(later).await.expect("expire");
    assert_eq!(expired.len(), 1);
    assert_eq!(expired[0].id, short.id);
    assert_eq!(expired[0].status, ChallengeStatus::Expired);
    assert_eq!(
        conflict(
            store
                .settle_challenge(short.id, Settlement::Cancel, ann.id, now)
                .await
        ),
        Conflict::ChallengeSettled {
            challenge: short.id,
            status: ChallengeStatus::Expired
        }
    );

    let missing = tabula_service::store::ChallengeNo(short.id.0 + 1000);
    assert_eq!(store.challenge(missing).await.expect("get"), None);
    assert_eq!(
        conflict(
            store
                .settle_challenge(missing, Settlement::Accept, bob.id, now)
                .await
        ),
        Conflict::NoSuchChallenge(missing)
    );

    // The computer's level, when it takes the seats nobody takes, is kept.
    assert_eq!(invited.computer, None);
    let with_computer = store
        .create_challenge(&NewChallenge {
            computer: Some(3),
            ..new(&only_bob)
        })
        .await
        .expect("create");
    assert_eq!(with_computer.computer, Some(3));
    assert_eq!(
        store.challenge(with_computer.id).await.expect("get"),
        Some(with_computer)
    );
}

pub async fn committed_dice_are_kept(store: &Store) {
    let (room, [ann, bob]) = chat_with(store, "dice", ["ann", "bob"]).await;
    let now = Timestamp::now();
    let seed = "00ff".repeat(16);
    let challenge = store
        .create_challenge(&NewChallenge {
            chat: room.id,
            game: GameId::CoanKi,
            options: "",
            challenger: ann.id,
            invited: &[bob.id],
            expires_at: now.plus_millis(MINUTE),
            stake: 0,
            move_millis: DAY,
            computer: None,
            dice_seed: Some(seed.clone()),
            rated: true,
        })
        .await
        .expect("create");
    assert_eq!(challenge.dice_seed.as_deref(), Some(seed.as_str()));
    assert_eq!(
        store.challenge(challenge.id).await.expect("get"),
        Some(challenge.clone())
    );
    let dice = tabula_service::store::GameDice {
        seed: seed.clone(),
        nonce: Some("callback-8841".into()),
    };
    let game = store
        .create_game(&NewGame {
            chat: room.id,
            game: GameId::CoanKi,
            options: "",
            start_position: None,
            seats: &[ann.id, bob.id],
            accepting: Some(Acceptance {
                challenge: challenge.id,
                by: bob.id,
                now,
                computer: None,
            }),
            community: room.community,
            stake: 0,
            move_millis: DAY,
            turn: None,
            dice: Some(dice.clone()),
        })
        .await
        .expect("create game");
    assert_eq!(game.dice, Some(dice.clone()));
    assert_eq!(load(store, game.id).await.record.dice, Some(dice));
    // No nonce: the salt says `none`.
    let unsalted = tabula_service::store::GameDice { seed, nonce: None };
    let alone = store
        .create_game(&NewGame {
            chat: room.id,
            game: GameId::Pachisi,
            options: "",
            start_position: None,
            seats: &[ann.id, bob.id, ann.id, bob.id],
            accepting: None,
            community: room.community,
            stake: 0,
            move_millis: DAY,
            turn: None,
            dice: Some(unsalted.clone()),
        })
        .await
        .expect("create game");
    let loaded = load(store, alone.id).await.record;
    assert_eq!(loaded.dice, Some(unsalted.clone()));
    assert_eq!(unsalted.salt(alone.id), format!("{}:none", alone.id));
}

pub async fn concurrent_accepts_exactly_one_wins(store: &Store) {
    const RACERS: usize = 8;
    let room = chat(store, "room").await;
    let ann = user(store, "ann").await;
    let mut racers = Vec::new();
    for index in 0..RACERS {
        racers.push(user(store, &format!("racer{index}")).await);
    }
    let now = Timestamp::now();
    let challenge = |store: Store| async move {
        store
            .create_challenge(&NewChallenge {
                chat: room.id,
                game: GameId::Konane,
                options: "",
                challenger: ann.id,
                invited: &[],
                expires_at: now.plus_millis(MINUTE),
                stake: 0,
                move_millis: DAY,
                computer: None,
                dice_seed: None,
                rated: true,
            })
            .await
            .expect("create")
    };

    // Racing `create_game` calls that accept the same open challenge.
    let open = challenge(store.clone()).await;
    let tasks: Vec<_> = racers
        .iter()
        .map(|racer| {
            let (store, by) = (store.clone(), racer.id);
            tokio::spawn(async move {
                store
                    .create_game(&NewGame {
                        chat: room.id,
                        game: GameId::Konane,
                        options: "",
                        start_position: None,
                        seats: &[ann.id, by],
                        accepting: Some(Acceptance {
                            challenge: open.id,
                            by,
                            now,
                            computer: None,
                        }),
                        community: room.community,
                        stake: 0,
                        move_millis: DAY,
                        turn: None,
                        dice: None,
                    })
                    .await
            })
        })
        .collect();
    let mut games = Vec::new();
    for task in tasks {
        match task.await.expect("task") {
            Ok(game) => games.push(game),
            Err(StoreError::Conflict(Conflict::ChallengeSettled { challenge, status })) => {
                assert_eq!((challenge, status), (open.id, ChallengeStatus::Accepted));
            }
            Err(other) => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(games.len(), 1, "exactly one accept wins");
    let game = &games[0];
    let settled = store
        .challenge(open.id)
        .await
        .expect("get")
        .expect("exists");
    assert_eq!(settled.status, ChallengeStatus::Accepted);
    assert_eq!(settled.started_game, Some(game.id));
    assert_eq!(settled.settled_by, Some(game.seats[1].user.id));
    assert_eq!(game.challenge, Some(open.id));
    let active = store.active_games_in_chat(room.id).await.expect("list");
    assert_eq!(active, vec![game.clone()], "no game from a losing accept");

    // Racing settlements of another challenge: one accept, the rest refused.
    let other = challenge(store.clone()).await;
    let tasks: Vec<_> = racers
        .iter()
        .enumerate()
        .map(|(index, racer)| {
            let (store, by) = (store.clone(), racer.id);
            let settlement = if index % 2 == 0 {
                Settlement::Accept
            } else {
                Settlement::Decline
            };
            tokio::spawn(async move { store.settle_challenge(other.id, settlement, by, now).await })
        })
        .collect();
    let mut winners = 0;
    for task in tasks {
        match task.await.expect("task") {
            Ok(_) => winners += 1,
            Err(StoreError::Conflict(Conflict::ChallengeSettled { .. })) => {}
            Err(other) => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(winners, 1, "exactly one settlement wins");
}

/// An open challenge gathers joiners in order, each once, up to its room; listed with
/// the chat's pending challenges; a challenge with invitees takes no joiners, nor an
/// expired one; its game then seats the challenger and the joiners.
pub async fn open_challenges_gather_joiners(store: &Store) {
    let (room, [ann, bob, cy, dee]) = chat_with(store, "room", ["ann", "bob", "cy", "dee"]).await;
    let now = Timestamp::now();
    let open = store
        .create_challenge(&NewChallenge {
            chat: room.id,
            game: GameId::Pachisi,
            options: "",
            challenger: ann.id,
            invited: &[],
            expires_at: now.plus_millis(MINUTE),
            stake: 0,
            move_millis: DAY,
            computer: None,
            dice_seed: None,
            rated: true,
        })
        .await
        .expect("create");
    assert!(open.joined.is_empty());
    let first = store
        .join_open_challenge(open.id, cy.id, now, 2, None)
        .await
        .expect("join");
    assert!(first.newly);
    assert_eq!(first.challenge.joined, vec![cy.id]);
    let again = store
        .join_open_challenge(open.id, cy.id, now.plus_millis(1), 2, None)
        .await
        .expect("join again");
    assert!(!again.newly);
    let second = store
        .join_open_challenge(open.id, bob.id, now.plus_millis(2), 2, None)
        .await
        .expect("join");
    assert_eq!(second.challenge.joined, vec![cy.id, bob.id]);
    // Full: the next one must start the game instead.
    assert_eq!(
        conflict(
            store
                .join_open_challenge(open.id, dee.id, now.plus_millis(3), 2, None)
                .await
        ),
        Conflict::PlayersChanged(open.id)
    );
    let pending = store.pending_challenges(room.id).await.expect("pending");
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].joined, vec![cy.id, bob.id]);
    assert_eq!(
        store
            .challenge(open.id)
            .await
            .expect("read")
            .map(|c| c.joined),
        Some(vec![cy.id, bob.id])
    );

    // A game whose seats leave out a joiner is refused; with them all, it starts.
    let mut new = NewGame {
        chat: room.id,
        game: GameId::Pachisi,
        options: "",
        start_position: None,
        seats: &[ann.id, dee.id, ann.id, dee.id],
        accepting: Some(Acceptance {
            challenge: open.id,
            by: dee.id,
            now,
            computer: None,
        }),
        community: room.community,
        stake: 0,
        move_millis: DAY,
        turn: None,
        dice: None,
    };
    assert_eq!(
        conflict(store.accept_and_create_game(&new, None).await),
        Conflict::PlayersChanged(open.id)
    );
    let everyone = [ann.id, cy.id, bob.id, dee.id];
    new.seats = &everyone;
    assert!(matches!(
        store.accept_and_create_game(&new, None).await,
        Ok(Accepted::Started(_))
    ));

    // A challenge with invitees takes no joiners; an expired one neither.
    let named = store
        .create_challenge(&NewChallenge {
            chat: room.id,
            game: GameId::Konane,
            options: "",
            challenger: ann.id,
            invited: &[bob.id],
            expires_at: now.plus_millis(MINUTE),
            stake: 0,
            move_millis: DAY,
            computer: None,
            dice_seed: None,
            rated: true,
        })
        .await
        .expect("create");
    assert_eq!(
        conflict(
            store
                .join_open_challenge(named.id, cy.id, now, 2, None)
                .await
        ),
        Conflict::NotInvited(named.id)
    );
    let late = now.plus_millis(2 * MINUTE);
    assert_eq!(
        conflict(
            store
                .join_open_challenge(named.id, cy.id, late, 2, None)
                .await
        ),
        Conflict::ChallengeExpired(named.id)
    );
}

pub async fn invitees_accept_one_by_one(store: &Store) {
    let (room, [ann, bob, cy, dee, eve]) =
        chat_with(store, "room", ["ann", "bob", "cy", "dee", "eve"]).await;
    let now = Timestamp::now();
    let challenge = store
        .create_challenge(&NewChallenge {
            chat: room.id,
            game: GameId::Pachisi,
            options: "",
            challenger: ann.id,
            invited: &[bob.id, cy.id, dee.id],
            expires_at: now.plus_millis(MINUTE),
            stake: 0,
            move_millis: DAY,
            computer: None,
            dice_seed: None,
            rated: true,
        })
        .await
        .expect("create");
    let first = store
        .accept_invitation(challenge.id, cy.id, now, None)
        .await
        .expect("accept");
    assert!(first.newly);
    assert_eq!(first.waiting, vec![bob.id, dee.id]);
    assert_eq!(first.challenge.status, ChallengeStatus::Pending);
    let again = store
        .accept_invitation(challenge.id, cy.id, now, None)
        .await
        .expect("accept again");
    assert!(!again.newly);
    assert_eq!(again.waiting, vec![bob.id, dee.id]);
    assert_eq!(
        conflict(
            store
                .accept_invitation(challenge.id, eve.id, now, None)
                .await
        ),
        Conflict::NotInvited(challenge.id)
    );
    let key = RequestKey {
        platform: Platform::Local,
        key: "accept-bob".to_string(),
    };
    let second = store
        .accept_invitation(challenge.id, bob.id, now, Some(&key))
        .await
        .expect("accept");
    assert_eq!(second.waiting, vec![dee.id]);
    assert_eq!(
        conflict(
            store
                .accept_invitation(challenge.id, dee.id, now, Some(&key))
                .await
        ),
        Conflict::Duplicate
    );
    let last = store
        .accept_invitation(challenge.id, dee.id, now, None)
        .await
        .expect("accept");
    assert!(last.waiting.is_empty());
    // A settled challenge takes no more acceptances.
    store
        .settle_challenge(challenge.id, Settlement::Decline, dee.id, now)
        .await
        .expect("decline");
    assert!(matches!(
        conflict(
            store
                .accept_invitation(challenge.id, bob.id, now, None)
                .await
        ),
        Conflict::ChallengeSettled { .. }
    ));
    // Concurrent acceptances: none lost, exactly one sees nobody waiting.
    let racers = [bob.id, cy.id, dee.id];
    for _ in 0..4 {
        let challenge = store
            .create_challenge(&NewChallenge {
                chat: room.id,
                game: GameId::Pachisi,
                options: "",
                challenger: ann.id,
                invited: &racers,
                expires_at: now.plus_millis(MINUTE),
                stake: 0,
                move_millis: DAY,
                computer: None,
                dice_seed: None,
                rated: true,
            })
            .await
            .expect("create");
        let tasks: Vec<_> = racers
            .iter()
            .map(|&by| {
                let store = store.clone();
                tokio::spawn(
                    async move { store.accept_invitation(challenge.id, by, now, None).await },
                )
            })
            .collect();
        let mut last = 0;
        for task in tasks {
            let invitation = task.await.expect("task").expect("accept");
            assert!(invitation.newly);
            if invitation.waiting.is_empty() {
                last += 1;
            }
        }
        assert_eq!(last, 1);
    }
}

pub async fn keyed_challenge_changes_are_applied_once(store: &Store) {
    let (room, [ann, bob]) = chat_with(store, "room", ["ann", "bob"]).await;
    let now = Timestamp::now();
    let key = |key: &str| RequestKey {
        platform: Platform::Telegram,
        key: key.to_string(),
    };
    let new = NewChallenge {
        chat: room.id,
        game: GameId::Konane,
        options: "",
        challenger: ann.id,
        invited: &[bob.id],
        expires_at: now.plus_millis(MINUTE),
        stake: 0,
        move_millis: DAY,
        computer: None,
        dice_seed: None,
        rated: true,
    };
    let play = key("play");
    let challenge = store
        .create_challenge_once(&new, &play)
        .await
        .expect("create");
    assert!(store.request_handled(&play).await.expect("handled"));
    assert_eq!(
        conflict(store.create_challenge_once(&new, &play).await),
        Conflict::Duplicate
    );
    assert_eq!(
        store
            .pending_challenges(room.id)
            .await
            .expect("pending")
            .len(),
        1
    );
    let accept = key("accept");
    let game = NewGame {
        chat: room.id,
        game: GameId::Konane,
        options: "",
        start_position: None,
        seats: &[ann.id, bob.id],
        accepting: Some(Acceptance {
            challenge: challenge.id,
            by: bob.id,
            now,
            computer: None,
        }),
        community: room.community,
        stake: 0,
        move_millis: DAY,
        turn: None,
        dice: None,
    };
    let record = store
        .create_game_once(&game, &accept)
        .await
        .expect("create game");
    assert_eq!(
        conflict(store.create_game_once(&game, &accept).await),
        Conflict::Duplicate
    );
    // A refused change leaves its key unrecorded.
    let refused = key("refused");
    assert!(matches!(
        conflict(store.create_game_once(&game, &refused).await),
        Conflict::ChallengeSettled { .. }
    ));
    assert!(!store.request_handled(&refused).await.expect("handled"));
    let resign = key("resign");
    store
        .end_game_once(
            record.id,
            &ending(GameEnd::Finished, "winner White (resigned)"),
            &resign,
        )
        .await
        .expect("end");
    assert_eq!(
        conflict(
            store
                .end_game_once(record.id, &ending(GameEnd::Aborted, "again"), &resign)
                .await
        ),
        Conflict::Duplicate
    );
    let other = store
        .create_challenge_once(&new, &key("play2"))
        .await
        .expect("create");
    let decline = key("decline");
    store
        .settle_challenge_once(other.id, Settlement::Decline, bob.id, now, &decline)
        .await
        .expect("decline");
    assert_eq!(
        conflict(
            store
                .settle_challenge_once(other.id, Settlement::Decline, bob.id, now, &decline)
                .await
        ),
        Conflict::Duplicate
    );
}

pub async fn username_invitee_binds_to_the_first_matching_user(store: &Store) {
    let room = chat(store, "room").await;
    let ann = user(store, "ann").await;
    let bob = store
        .upsert_user_with_username(Platform::Local, "bob", "Bob", Some("@Bob_B"))
        .await
        .expect("bob");
    assert_eq!(bob.username.as_deref(), Some("Bob_B"));
    assert_eq!(
        store
            .user_by_username(Platform::Local, "@bob_b")
            .await
            .expect("find")
            .map(|user| user.id),
        Some(bob.id)
    );
    assert_eq!(
        store
            .user_by_username(Platform::Telegram, "bob_b")
            .await
            .expect("find"),
        None
    );
    // The old upsert keeps the username.
    let same = store
        .upsert_user(Platform::Local, "bob", "Bob")
        .await
        .expect("bob");
    assert_eq!(same.username.as_deref(), Some("Bob_B"));

    let now = Timestamp::now();
    let challenge = store
        .create_challenge_with_invitees(
            &NewChallenge {
                chat: room.id,
                game: GameId::Pachisi,
                options: "",
                challenger: ann.id,
                invited: &[bob.id],
                expires_at: now.plus_millis(MINUTE),
                stake: 0,
                move_millis: DAY,
                computer: None,
                dice_seed: None,
                rated: true,
            },
            &[
                Invitee::Username("@Cy".to_string()),
                Invitee::User(bob.id),
                Invitee::Username("cy".to_string()),
                Invitee::Username("dee".to_string()),
            ],
            None,
        )
        .await
        .expect("create");
    assert_eq!(
        challenge
            .invitees
            .iter()
            .map(|invitee| invitee.invitee.clone())
            .collect::<Vec<_>>(),
        vec![
            Invitee::User(bob.id),
            Invitee::Username("Cy".to_string()),
            Invitee::Username("dee".to_string()),
        ],
        "repeats dropped, the first spelling kept"
    );
    assert_eq!(challenge.invited, vec![bob.id]);
    assert!(!challenge.is_open());
    assert_eq!(challenge.unbound_usernames(), vec!["Cy", "dee"]);
    let waiting = store
        .accept_invitation(challenge.id, bob.id, now, None)
        .await
        .expect("accept");
    assert_eq!(waiting.waiting, vec![]);
    assert_eq!(
        waiting.waiting_usernames,
        vec!["Cy".to_string(), "dee".to_string()]
    );
    assert!(!waiting.complete());

    let cy = store
        .upsert_user_with_username(Platform::Local, "cy", "Cy", Some("cY"))
        .await
        .expect("cy");
    let impostor = store
        .upsert_user_with_username(Platform::Local, "imp", "Imp", Some("imp"))
        .await
        .expect("imp");
    // Not invited, or the wrong name: nothing.
    assert!(
        !store
            .bind_invitee_username(challenge.id, "eve", impostor.id)
            .await
            .expect("bind")
    );
    assert_eq!(
        conflict(
            store
                .accept_invitation(challenge.id, cy.id, now, None)
                .await
        ),
        Conflict::NotInvited(challenge.id)
    );
    // Racing for the seat: exactly one wins.
    let racers: Vec<_> = [cy.id, impostor.id]
        .into_iter()
        .map(|user| {
            let store = store.clone();
            tokio::spawn(async move {
                store
                    .bind_invitee_username(challenge.id, "CY", user)
                    .await
                    .expect("bind")
            })
        })
        .collect();
    let mut won = Vec::new();
    for (user, racer) in [cy.id, impostor.id].into_iter().zip(racers) {
        if racer.await.expect("task") {
            won.push(user);
        }
    }
    assert_eq!(won.len(), 1, "one seat, one winner: {won:?}");
    let winner = won[0];
    let loser = if winner == cy.id { impostor.id } else { cy.id };
    assert!(
        !store
            .bind_invitee_username(challenge.id, "cy", loser)
            .await
            .expect("bind")
    );
    let bound = store
        .challenge(challenge.id)
        .await
        .expect("get")
        .expect("exists");
    assert_eq!(bound.invited, vec![bob.id, winner]);
    assert_eq!(bound.unbound_usernames(), vec!["dee"]);
    // A bound user holds no second seat; a repeat by the one known by that name is fine.
    assert!(
        !store
            .bind_invitee_username(challenge.id, "dee", winner)
            .await
            .expect("bind")
    );
    if winner == cy.id {
        assert!(
            store
                .bind_invitee_username(challenge.id, "@cy", cy.id)
                .await
                .expect("again")
        );
    }
    let accepted = store
        .accept_invitation(challenge.id, winner, now, None)
        .await
        .expect("accept");
    assert_eq!(accepted.waiting_usernames, vec!["dee".to_string()]);

    // A username moves with its owner: the first holder loses it.
    let moved = store
        .upsert_user_with_username(Platform::Local, "bob2", "Bob Two", Some("bob_b"))
        .await
        .expect("bob2");
    assert_eq!(
        store
            .user_by_username(Platform::Local, "BOB_B")
            .await
            .expect("find")
            .map(|user| user.id),
        Some(moved.id)
    );
    assert_eq!(
        store
            .user(bob.id)
            .await
            .expect("get")
            .expect("bob")
            .username,
        None
    );
}

pub async fn accepting_and_creating_the_game_is_atomic(store: &Store) {
    let (room, [ann, bob, cy, dee]) = chat_with(store, "room", ["ann", "bob", "cy", "dee"]).await;
    let community = room.community;
    open_wallets(store, community, [ann.id, bob.id, cy.id]).await;
    let now = Timestamp::now();
    let challenge = store
        .create_challenge(&NewChallenge {
            chat: room.id,
            game: GameId::Pachisi,
            options: "",
            challenger: ann.id,
            invited: &[bob.id, cy.id, dee.id],
            expires_at: now.plus_millis(MINUTE),
            stake: 100,
            move_millis: DAY,
            computer: None,
            dice_seed: None,
            rated: true,
        })
        .await
        .expect("create");
    let seats = [ann.id, bob.id, cy.id, dee.id];
    let game_by = |by: UserId| NewGame {
        accepting: Some(Acceptance {
            challenge: challenge.id,
            by,
            now,
            computer: None,
        }),
        ..pachisi(&room, &seats, 100)
    };
    let Accepted::Waiting(first) = store
        .accept_and_create_game(&game_by(bob.id), None)
        .await
        .expect("accept")
    else {
        panic!("two are still to accept");
    };
    assert!(first.newly);
    assert_eq!(first.waiting, vec![cy.id, dee.id]);
    let Accepted::Waiting(second) = store
        .accept_and_create_game(&game_by(dee.id), None)
        .await
        .expect("accept")
    else {
        panic!("one is still to accept");
    };
    assert_eq!(second.waiting, vec![cy.id]);
    // Dee has no wallet: the last acceptance cannot start the game, and is not recorded.
    let key = RequestKey {
        platform: Platform::Local,
        key: "cy-accepts".to_string(),
    };
    assert!(matches!(
        conflict(store.accept_and_create_game(&game_by(cy.id), Some(&key)).await),
        Conflict::InsufficientFunds { user, .. } if user == dee.id
    ));
    let after = store
        .challenge(challenge.id)
        .await
        .expect("get")
        .expect("exists");
    assert_eq!(after.status, ChallengeStatus::Pending);
    assert_eq!(after.started_game, None);
    let accepted: Vec<_> = after
        .invitees
        .iter()
        .map(|invitee| invitee.accepted_at.is_some())
        .collect();
    assert_eq!(
        accepted,
        vec![true, false, true],
        "cy's acceptance was not kept"
    );
    assert!(
        !store.request_handled(&key).await.expect("handled"),
        "nor its request"
    );
    assert!(
        store
            .active_games_in_chat(room.id)
            .await
            .expect("games")
            .is_empty()
    );
    for person in [&ann, &bob, &cy] {
        assert_eq!(balance(store, community, person.id).await, 1000);
    }
    // Still open to a cancel...
    // ...or, once dee can pay, to the last acceptance, which starts the game.
    store.open_wallet(community, dee.id).await.expect("open");
    let Accepted::Started(game) = store
        .accept_and_create_game(&game_by(cy.id), Some(&key))
        .await
        .expect("accept")
    else {
        panic!("nobody is left to accept");
    };
    assert_eq!(game.challenge, Some(challenge.id));
    assert_eq!(game.stake, 100);
    let after = store
        .challenge(challenge.id)
        .await
        .expect("get")
        .expect("exists");
    assert_eq!(after.status, ChallengeStatus::Accepted);
    assert_eq!(after.started_game, Some(game.id));
    assert!(
        after
            .invitees
            .iter()
            .all(|invitee| invitee.accepted_at.is_some())
    );
    assert_eq!(
        conflict(
            store
                .accept_and_create_game(&game_by(cy.id), Some(&key))
                .await
        ),
        Conflict::Duplicate
    );
    assert!(matches!(
        conflict(store.accept_and_create_game(&game_by(bob.id), None).await),
        Conflict::ChallengeSettled { .. }
    ));

    // An open challenge: one step, as create_game.
    let open = store
        .create_challenge(&NewChallenge {
            chat: room.id,
            game: GameId::Konane,
            options: "size=6",
            challenger: ann.id,
            invited: &[],
            expires_at: now.plus_millis(MINUTE),
            stake: 0,
            move_millis: DAY,
            computer: None,
            dice_seed: None,
            rated: true,
        })
        .await
        .expect("create");
    let (wrong, right) = ([ann.id, cy.id], [ann.id, bob.id]);
    let bob_accepts = |seats| NewGame {
        accepting: Some(Acceptance {
            challenge: open.id,
            by: bob.id,
            now,
            computer: None,
        }),
        ..game_in(&room, seats)
    };
    // Seats that are not the challenge's players (here: not who accepts) start nothing.
    assert_eq!(
        conflict(
            store
                .accept_and_create_game(&bob_accepts(&wrong), None)
                .await
        ),
        Conflict::PlayersChanged(open.id)
    );
    let Accepted::Started(konane) = store
        .accept_and_create_game(&bob_accepts(&right), None)
        .await
        .expect("accept")
    else {
        panic!("an open challenge starts at once");
    };
    assert_eq!(konane.challenge, Some(open.id));
}
