//! What the conformance cases share: the crate's store types (every case module takes them
//! with `use super::fixtures::*`), and builders of the rows most cases start from (people in a
//! chat, a game, opened wallets), moves, endings and the books' checks.

pub use std::collections::{BTreeMap, HashSet};
pub use std::sync::Arc;

pub use tabula_core::{AnyGame, GameId};
pub use tabula_service::store::{
    Acceptance, Accepted, Account, AccountId, AccountKind, Append, Appended, ChallengeStatus, Chat,
    CommunityId, Conflict, DatabaseUrl, Due, Ending, Fine, GameEnd, GameNo, GameRecord, GameStatus,
    History, Invitee, LedgerEntry, LedgerKind, NewAction, NewChallenge, NewGame, NewOutbox,
    NewVacation, OutboxId, OutboxKind, OutboxRow, Payout, Platform, RequestKey, Settings,
    Settlement, StakedGames, Store, StoreError, Timestamp, TurnClock, TurnStart, User, UserId,
    Vacation,
};
pub use tabula_service::store::{ChallengeNo, ChatId, MovedChat};

pub const MINUTE: i64 = 60_000;
pub const DAY: i64 = 24 * 60 * MINUTE;

/// An ending without conditions whose pot (if any) is refunded.
pub fn ending(end: GameEnd, result: &str) -> Ending<'_> {
    Ending {
        end,
        result,
        payout: tabula_service::store::Payout::Refund,
        actor: None,
        expected_seq: None,
        deadline_passed: None,
        rated_at: None,
    }
}

pub fn conflict<T: std::fmt::Debug>(result: Result<T, StoreError>) -> Conflict {
    match result {
        Err(StoreError::Conflict(conflict)) => conflict,
        other => panic!("expected a conflict, got {other:?}"),
    }
}

pub async fn user(store: &Store, id: &str) -> User {
    store
        .upsert_user(Platform::Local, id, id)
        .await
        .expect("upsert user")
}

pub async fn chat(store: &Store, id: &str) -> Chat {
    store
        .upsert_chat(Platform::Local, id, id, None)
        .await
        .expect("upsert chat")
}

/// New people, made in the order given; each one's platform id and display name is its `id`.
pub async fn people<const N: usize>(store: &Store, ids: [&str; N]) -> [User; N] {
    let mut made = Vec::with_capacity(N);
    for id in ids {
        made.push(user(store, id).await);
    }
    made.try_into().expect("one person per id")
}

/// A new chat, then new people ([`people`]): what most cases start from. (The store keeps no
/// membership; "with" says only that the case has them both.)
pub async fn chat_with<const N: usize>(
    store: &Store,
    chat_id: &str,
    ids: [&str; N],
) -> (Chat, [User; N]) {
    let room = chat(store, chat_id).await;
    (room, people(store, ids).await)
}

/// Opens the wallets of `users` in `community`, one after another.
pub async fn open_wallets(
    store: &Store,
    community: CommunityId,
    users: impl IntoIterator<Item = UserId>,
) {
    for user in users {
        store.open_wallet(community, user).await.expect("open");
    }
}

/// A Konane game between two new users in a new chat.
pub async fn konane(store: &Store) -> (GameRecord, User, User) {
    let (chat, [ann, bob]) = chat_with(store, "table", ["ann", "bob"]).await;
    let game = store
        .create_game(&NewGame {
            chat: chat.id,
            game: GameId::Konane,
            options: "size=6",
            start_position: None,
            seats: &[ann.id, bob.id],
            accepting: None,
            community: chat.community,
            stake: 0,
            move_millis: DAY,
            turn: None,
            dice: None,
        })
        .await
        .expect("create game");
    (game, ann, bob)
}

/// Plays `count` legal moves (the first legal one each time) from `state`, returning their
/// canonical notation.
pub fn play(state: &mut AnyGame, count: usize) -> Vec<String> {
    (0..count)
        .map(|_| {
            let lines = state.legal_lines();
            let first = lines
                .first()
                .and_then(|line| line.split_whitespace().next())
                .expect("a legal move");
            state.apply_text(first).expect("legal move").notation()
        })
        .collect()
}

pub fn actions(
    notations: &[String],
    actor: Option<tabula_service::store::UserId>,
) -> Vec<NewAction> {
    notations
        .iter()
        .map(|action| NewAction {
            action: action.clone(),
            actor,
        })
        .collect()
}

pub fn start(record: &GameRecord) -> AnyGame {
    AnyGame::start(record.game, &record.option_list(), None).expect("start")
}

pub async fn load(store: &Store, game: GameNo) -> tabula_service::store::LoadedGame {
    store
        .load_game(game, History::Full)
        .await
        .expect("load")
        .expect("game exists")
}

pub fn keyed<'a>(
    expected_seq: u32,
    actions: &'a [NewAction],
    request: &'a RequestKey,
) -> Append<'a> {
    Append {
        expected_seq,
        actions,
        request: Some(request),
        ..Append::default()
    }
}

pub const HOUR: i64 = 60 * MINUTE;

/// 2027-01-15 08:00 UTC: the moment the clock and vacation cases start from.
pub const T0: Timestamp = Timestamp(1_800_000_000_000);

/// A friendly Konane game in `chat` between `seats`, a day per move, no clock running:
/// change what a case needs with `..game_in(chat, seats)`.
pub fn game_in<'a>(chat: &Chat, seats: &'a [UserId]) -> NewGame<'a> {
    NewGame {
        chat: chat.id,
        game: GameId::Konane,
        options: "size=6",
        start_position: None,
        seats,
        accepting: None,
        community: chat.community,
        stake: 0,
        move_millis: DAY,
        turn: None,
        dice: None,
    }
}

/// A four-seat Pachisi game in `chat` with `stake`.
pub fn pachisi<'a>(chat: &Chat, seats: &'a [UserId], stake: i64) -> NewGame<'a> {
    NewGame {
        game: GameId::Pachisi,
        options: "",
        stake,
        ..game_in(chat, seats)
    }
}

pub async fn create(store: &Store, game: &NewGame<'_>) -> GameRecord {
    store.create_game(game).await.expect("create game")
}

pub async fn record(store: &Store, game: GameNo) -> GameRecord {
    store.game(game).await.expect("get").expect("game exists")
}

/// A board of `game` with buttons, posted as message `id`.
pub async fn post_board(store: &Store, game: GameNo, id: &str) {
    store
        .board_posted(&tabula_service::store::PostedBoard {
            game,
            message_id: id,
            buttons: true,
            seq: 0,
            pressed: None,
            announcement: None,
            strip_hold: None,
            now: T0,
        })
        .await
        .expect("board");
}

/// Appends the next legal move of `state` by `actor`, with the rest of `append`; `state`
/// advances only when the store took the move.
pub async fn advance(
    store: &Store,
    game: GameNo,
    state: &mut AnyGame,
    actor: UserId,
    append: Append<'_>,
) -> Result<Appended, StoreError> {
    let mut next = state.clone();
    let moves = actions(&play(&mut next, 1), Some(actor));
    let appended = store
        .append_actions(
            game,
            &Append {
                actions: &moves,
                ..append
            },
        )
        .await?;
    *state = next;
    Ok(appended)
}

/// The balance of an opened wallet.
pub async fn balance(store: &Store, community: CommunityId, user: UserId) -> i64 {
    store
        .wallet(community, user)
        .await
        .expect("wallet")
        .expect("wallet opened")
        .balance
}

pub async fn balances(store: &Store, community: CommunityId, users: &[UserId]) -> Vec<i64> {
    let mut all = Vec::new();
    for user in users {
        all.push(balance(store, community, *user).await);
    }
    all
}

pub async fn bank_account(store: &Store, community: CommunityId) -> AccountId {
    let banks: Vec<AccountId> = store
        .accounts(community)
        .await
        .expect("accounts")
        .into_iter()
        .filter(|account| account.kind == AccountKind::Bank)
        .map(|account| account.id)
        .collect();
    assert_eq!(banks.len(), 1, "one bank per community");
    banks[0]
}

pub async fn pot(store: &Store, community: CommunityId, game: GameNo) -> Account {
    let pots: Vec<Account> = store
        .accounts(community)
        .await
        .expect("accounts")
        .into_iter()
        .filter(|account| account.kind == AccountKind::Pot && account.game == Some(game))
        .collect();
    assert_eq!(pots.len(), 1, "one pot for game {game}");
    pots[0].clone()
}

pub fn sorted<T: Ord>(mut items: Vec<T>) -> Vec<T> {
    items.sort();
    items
}

/// Double entry: a community's balances sum to zero, each is its ledger credits minus its
/// debits, and the bank holds minus what the wallets and pots hold.
pub async fn assert_books_balance(store: &Store, community: CommunityId) {
    let accounts = store.accounts(community).await.expect("accounts");
    let ledger = store.ledger(community).await.expect("ledger");
    let ids: HashSet<AccountId> = accounts.iter().map(|account| account.id).collect();
    for entry in &ledger {
        assert_eq!(entry.community, community, "{entry:?}");
        assert!(entry.amount > 0, "{entry:?}");
        assert!(
            ids.contains(&entry.from) && ids.contains(&entry.to),
            "{entry:?} moves money of another community"
        );
    }
    crate::common::assert_books_balance(&accounts, &ledger, "the books");
    for account in &accounts {
        assert_eq!(account.community, community);
        match account.kind {
            AccountKind::Bank => assert_eq!((account.user, account.game), (None, None)),
            AccountKind::Wallet => assert!(account.user.is_some() && account.game.is_none()),
            AccountKind::Pot => assert!(account.user.is_none() && account.game.is_some()),
        }
    }
    let bank = bank_account(store, community).await;
    let held: i64 = accounts
        .iter()
        .filter(|account| account.id != bank)
        .map(|account| account.balance)
        .sum();
    let bank_balance = accounts
        .iter()
        .find(|account| account.id == bank)
        .map(|account| account.balance);
    assert_eq!(
        bank_balance,
        Some(-held),
        "the bank is minus the money given out"
    );
}

pub fn new_outbox<'a>(
    chat: &Chat,
    game: Option<GameNo>,
    kind: OutboxKind,
    payload: &'a str,
    now: Timestamp,
) -> NewOutbox<'a> {
    NewOutbox {
        platform: chat.platform,
        chat: chat.id,
        game,
        kind,
        payload,
        now,
        held: None,
    }
}

pub async fn enqueue(store: &Store, new: &NewOutbox<'_>) -> OutboxId {
    store.enqueue_outbox(new).await.expect("enqueue")
}
