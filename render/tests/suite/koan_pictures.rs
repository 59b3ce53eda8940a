//! Koan pictures: snapshots of key positions, one for each kind of highlight, and one PNG golden
//! of a busy mid-game capture.

use crate::common;

/// A busy middle game: Black to move with many pieces still on the board.
const BUSY: &str = "turn=black white-oct=C5,E5,G7,K3 white-sq=D6,F4,H6,J2 black-oct=C7,E9,I11,K9 \
                    black-sq=E7,F8,H8,J10";

#[test]
fn koan_start_shows_the_tiling_goals_and_all_pieces() {
    common::snapshot("koan-start", "koan", &[], None, "");
}

#[test]
fn koan_plain_move_marks_from_cell_arrow_and_landing() {
    common::snapshot("koan-plain-move", "koan", &[], None, "B2-C3");
}

#[test]
fn koan_square_piece_captures_on_a_square_with_a_badge() {
    common::snapshot("koan-square-capture", "koan", &[], Some(BUSY), "E7xD6");
    common::golden("koan-square-capture", "koan", &[], Some(BUSY), "E7xD6");
}

#[test]
fn koan_octagonal_piece_captures_straight_ahead() {
    common::snapshot("koan-octagon-capture", "koan", &[], Some(BUSY), "C7xC5");
}

#[test]
fn koan_capture_onto_the_far_row_wins_and_outlines_the_goal() {
    common::snapshot(
        "koan-far-row-win",
        "koan",
        &[],
        Some("turn=white white-oct=B10 black-oct=C11,K11 black-sq=A11"),
        "B10xA11",
    );
}

#[test]
fn koan_blocked_opponent_loses() {
    common::snapshot(
        "koan-no-move",
        "koan",
        &[],
        Some("turn=white white-oct=A3,E1 white-sq=D2 black-sq=B4"),
        "D2-C3",
    );
}
