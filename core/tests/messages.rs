//! The English the engine writes for a refusal (what `tabula rules` prints, and what the bot
//! checks before it says a refusal from its catalogue): the shared pieces of those sentences.
//! A mutation run found no test reading them.

use tabula_core::IllegalReason as R;

#[test]
fn legal_moves_are_listed_when_known() {
    let listed = R::NotLegalHere {
        legal: vec!["C8-B9".into(), "B2-B1".into()],
    };
    assert_eq!(
        listed.to_string(),
        "not a legal move here (legal: C8-B9, B2-B1)"
    );
    let unlisted = R::NotLegalHere { legal: Vec::new() };
    assert_eq!(unlisted.to_string(), "not a legal move here");
}

#[test]
fn a_jump_inside_a_sequence_is_named_first() {
    let named = R::LandingOccupied {
        jump: Some("C2xC4".into()),
        what: "C4 holds a Black piece".into(),
    };
    assert_eq!(
        named.to_string(),
        "C2xC4: the landing point is occupied: C4 holds a Black piece"
    );
    let alone = R::LandingOccupied {
        jump: None,
        what: "C4 holds a Black piece".into(),
    };
    assert_eq!(
        alone.to_string(),
        "the landing point is occupied: C4 holds a Black piece"
    );
}

#[test]
fn konane_removals_say_the_rule() {
    let white = R::NotRemovable {
        hole: Some("d4".into()),
        choices: vec!["d5".into(), "e4".into()],
    };
    assert_eq!(
        white.to_string(),
        "not a removable cell: White removes a stone orthogonally next to the hole at d4 (d5, e4)"
    );
    let black = R::NotRemovable {
        hole: None,
        choices: vec!["a1".into(), "d4".into()],
    };
    assert_eq!(
        black.to_string(),
        "not a removable cell: Black removes a stone from the centre or a corner (a1, d4)"
    );
}
