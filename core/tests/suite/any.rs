//! The dispatch over the five games (`GameId`, `AnyGame`, `AnyApplied`), which the bot and
//! `tabula rules` go through: each answer must be the game's own. A mutation run found no core
//! test reading most of it (names, seats, legal lines, chance outcomes, show text, narration).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tabula_core::{AnyGame, Game, GameId, SetupError, Status, script, with_game_type};

#[test]
fn game_ids_names_and_seats() {
    let expected = [
        ("konane", "Konane", &["black", "white"][..]),
        ("koan", "Koan", &["white", "black"][..]),
        ("kolowis", "Kolowis Awithlaknannai", &["white", "black"][..]),
        ("coan-ki", "Coan Ki", &["white", "black"][..]),
        ("pachisi", "Pachisi", &["S", "E", "N", "W"][..]),
    ];
    assert_eq!(GameId::ALL.len(), expected.len());
    for (&id, (text, name, seats)) in GameId::ALL.iter().zip(expected) {
        assert_eq!(id.as_str(), text);
        assert_eq!(id.to_string(), text);
        assert_eq!(id.name(), name);
        assert_eq!(id.seats(), seats);
        assert_eq!(text.parse::<GameId>().expect("known id"), id);
        with_game_type!(id, G => {
            assert_eq!(id.name(), G::NAME);
            assert_eq!(id.seats(), G::SEATS);
        });
    }
    assert!(matches!(
        "Konane".parse::<GameId>(),
        Err(SetupError::UnknownGame(text)) if text == "Konane"
    ));
}

/// Plays one whole game through `AnyGame` and the same actions through the game itself, and
/// compares every answer on the way: legal lines, chance outcomes, position, show text, status
/// and its line, and each applied action's notation and narration.
fn follow<G: Game>(id: GameId, seed: u64) -> (usize, usize)
where
    AnyGame: From<G>,
{
    let mut any = AnyGame::start(id, &[], None).expect("start");
    assert_eq!(any.id(), id);
    let mut game: G = script::setup(&G::Options::default(), None, "").expect("setup");
    let (mut rolls, mut moves) = (0, 0);
    let mut rng = SmallRng::seed_from_u64(seed);
    for _ in 0..2_000 {
        assert_eq!(any, AnyGame::from(game.clone()));
        assert_eq!(any.legal_lines(), script::legal_lines(&game));
        assert_eq!(any.position(), game.position());
        assert_eq!(any.show_text(), script::show_text(&game));
        assert_eq!(any.status(), game.status());
        assert_eq!(any.status_line(), game.status_line());
        let outcomes: Vec<(String, u32)> = game
            .outcomes()
            .iter()
            .map(|(roll, weight)| (format!("roll:{roll}"), *weight))
            .collect();
        assert_eq!(any.chance_outcomes(), outcomes);
        let text = match game.status() {
            Status::Done(_) => break,
            Status::Chance => {
                rolls += 1;
                outcomes[rng.random_range(0..outcomes.len())].0.clone()
            }
            Status::Decision(_) => {
                moves += 1;
                let legal = game.moves();
                legal[rng.random_range(0..legal.len())].to_string()
            }
        };
        let applied = any.apply_text(&text).expect("a listed action");
        let (action, events) = game.apply_text(&text).expect("a listed action");
        assert_eq!(applied.notation(), action.to_string());
        let narration: Vec<String> = events.iter().map(ToString::to_string).collect();
        assert_eq!(applied.narration(), narration);
    }
    (moves, rolls)
}

#[test]
fn any_game_answers_as_each_game() {
    for seed in 1..4 {
        let (moves, _) = follow::<tabula_core::konane::Konane>(GameId::Konane, seed);
        assert!(moves > 0);
        let (moves, _) = follow::<tabula_core::koan::Koan>(GameId::Koan, seed);
        assert!(moves > 0);
        let (moves, _) = follow::<tabula_core::kolowis::Kolowis>(GameId::Kolowis, seed);
        assert!(moves > 0);
        let (moves, rolls) = follow::<tabula_core::coan_ki::CoanKi>(GameId::CoanKi, seed);
        assert!(moves > 0 && rolls > 0, "{moves} moves, {rolls} rolls");
        let (moves, rolls) = follow::<tabula_core::pachisi::Pachisi>(GameId::Pachisi, seed);
        assert!(moves > 0 && rolls > 0, "{moves} moves, {rolls} rolls");
    }
}

#[test]
fn narration_is_not_empty_where_something_happened() {
    // Konane's first move removes a stone: one event, said in words.
    let mut any = AnyGame::start(GameId::Konane, &[], None).expect("start");
    let first = any.legal_lines()[0].clone();
    let applied = any.apply_text(&first).expect("opening removal");
    assert_eq!(applied.notation(), first);
    let narration = applied.narration();
    assert_eq!(narration.len(), 1, "{narration:?}");
    assert!(!narration[0].is_empty());
}

#[test]
fn apply_actions_returns_the_last_applied_or_the_failing_index() {
    let mut any = AnyGame::start(GameId::Konane, &[], None).expect("start");
    assert_eq!(any.apply_actions("  ").expect("nothing to apply"), None);
    let first = any.legal_lines()[0].clone();
    let mut copy = any.clone();
    let last = any.apply_actions(&first).expect("one action");
    let direct = copy.apply_text(&first).expect("one action");
    assert_eq!(last, Some(direct));
    assert_eq!(any, copy);
    let second = any.legal_lines()[0].clone();
    let before = any.clone();
    match any.apply_actions(&format!("{second} Z99")) {
        Err(SetupError::Action { index, token, .. }) => {
            assert_eq!((index, token.as_str()), (1, "Z99"));
        }
        other => panic!("expected the second action to fail: {other:?}"),
    }
    // The action before the failing one stays applied.
    assert_ne!(any, before);
    assert!(matches!(
        AnyGame::setup(GameId::Konane, &[], None, "Z99"),
        Err(SetupError::Action { index: 0, .. })
    ));
}
