//! Pachisi pictures: snapshots of key positions, one per kind of highlight, and one PNG golden
//! of a busy board.

use crate::common;

/// A mid-game position with stacks, partners sharing a square, outbound and home-bound pieces
/// of one seat on one square, and finished pieces.
const BUSY: &str = "turn=S phase=allocate throws=3,10 S=0,12,12,40 E=5,30,58,79 \
                    N=0,46,70,84 W=20,20,33,84 entered=S,E,N,W";

#[test]
fn pachisi_grace_shows_the_cowries_and_throws_again() {
    common::snapshot(
        "pachisi-grace-throws-again",
        "pachisi",
        &[],
        None,
        "throw roll:10",
    );
}

#[test]
fn pachisi_entry_path_from_the_charkoni_with_values_left() {
    common::snapshot(
        "pachisi-enter-values-left",
        "pachisi",
        &[],
        None,
        "throw roll:10 roll:6 roll:3 enter+10",
    );
}

#[test]
fn pachisi_capture_sends_the_piece_back() {
    common::snapshot(
        "pachisi-capture",
        "pachisi",
        &[],
        Some(
            "turn=S phase=allocate throws=2 S=0,0,0,14 E=0,0,0,67 N=0,0,0,0 W=0,0,0,0 entered=S,E",
        ),
        "k6+2",
    );
}

#[test]
fn pachisi_group_move_on_a_busy_board() {
    common::snapshot(
        "pachisi-busy-group-move",
        "pachisi",
        &[],
        Some(BUSY),
        "k4x2+10",
    );
    common::golden(
        "pachisi-busy-group-move",
        "pachisi",
        &[],
        Some(BUSY),
        "k4x2+10",
    );
}

#[test]
fn pachisi_values_that_cannot_be_used_are_lost() {
    common::snapshot(
        "pachisi-values-lost",
        "pachisi",
        &[],
        Some(
            "turn=S phase=throw throws=6,10,25 S=80,84,84,84 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0 entered=S",
        ),
        "roll:5",
    );
}

#[test]
fn pachisi_team_win_after_the_last_piece_finishes() {
    common::snapshot(
        "pachisi-team-win",
        "pachisi",
        &[],
        Some(
            "turn=S phase=allocate throws=2,10 S=82,84,84,84 E=0,0,0,0 N=84,84,84,84 W=0,0,0,0 entered=S,N",
        ),
        "j7+2",
    );
}

/// Words in English, with who holds each seat (as the bot's catalogue gives them).
struct Named;

impl tabula_render::labels::Labels for Named {
    fn word(&self, word: tabula_render::labels::Word<'_>) -> String {
        tabula_render::labels::English.word(word)
    }

    fn player(&self, seat: u8) -> Option<String> {
        [
            "Alice",
            "Bob",
            "Dana Kowalczyk-Montgomery of the Long Names",
            "Computer",
        ]
        .get(usize::from(seat))
        .map(|name| (*name).to_string())
    }
}

#[test]
fn pachisi_panels_carry_the_players_names() {
    // Issue 37, item 5: each seat's panel names who holds it, a long name shortened to fit.
    let (game, last) = common::position("pachisi", &[], Some(BUSY), "");
    let named = tabula_render::scene_in(&game, last.as_ref(), &Named).to_string();
    let plain = tabula_render::scene(&game, last.as_ref()).to_string();
    for name in ["\"Alice\"", "\"Bob\"", "\"Computer\""] {
        assert!(named.contains(name), "{name} in:\n{named}");
        assert!(!plain.contains(name));
    }
    assert!(named.contains("\"Dana Kowalczyk"), "{named}");
    assert!(!named.contains("Long Names"), "shortened: {named}");
}
