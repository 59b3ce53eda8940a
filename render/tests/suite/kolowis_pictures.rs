//! Kolowis Awithlaknannai pictures: snapshots of key positions and one PNG golden
//! (`shared/rules/kolowis.md`, section 11).

use crate::common;

/// A busy middle game (seeded playout, captures preferred) whose last move is Black's double
/// capture `A10xA12xC13`: a row jump, then a diagonal jump.
const BUSY: &str = "B8-B9 B10xB8 B7xB9 A6-B7 C7xA6 B11-B10 B9xB11 B12xB10 C1-B1 A2xC1 \
                    A6-B7 A12-B12 C13xA12 A1-A2 C10-B11 A11xC10 C12xA11 C10xC12 A12-B13 \
                    A10xA12xC13";

#[test]
fn kolowis_start_shows_every_line_and_label() {
    common::snapshot("kolowis-start", "kolowis", &[], None, "");
}

#[test]
fn kolowis_step_along_the_end_curve_follows_the_curve() {
    common::snapshot("kolowis-curve-step", "kolowis", &[], None, "C1-B1");
}

#[test]
fn kolowis_capture_sequence_marks_start_path_landings_and_captures() {
    common::snapshot("kolowis-double-capture", "kolowis", &[], None, BUSY);
    common::golden("kolowis-double-capture", "kolowis", &[], None, BUSY);
}

#[test]
fn kolowis_quiet_counter_shows_near_the_stall_limit() {
    let at = "turn=black white=C1,C2,C5 black=A3,A16 quiet=41";
    common::snapshot("kolowis-quiet-warning", "kolowis", &[], Some(at), "A3-B4");
}

#[test]
fn kolowis_stalled_game_is_won_on_pieces() {
    let at = "turn=white white=C1,C2 black=A16 quiet=49";
    common::snapshot("kolowis-stall-win", "kolowis", &[], Some(at), "C1-B1");
}

#[test]
fn kolowis_blocked_side_loses() {
    let at = "turn=black white=B1 black=A2,B2,B3,C1";
    common::snapshot("kolowis-blocked-loses", "kolowis", &[], Some(at), "A2-A1");
}
