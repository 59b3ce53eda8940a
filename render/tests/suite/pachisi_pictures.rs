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
