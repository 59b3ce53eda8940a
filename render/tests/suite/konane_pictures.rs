//! Konane pictures: snapshots of key positions and one PNG golden.

use crate::common;

#[test]
fn konane_start_marks_the_four_removable_stones() {
    common::snapshot("konane-start", "konane", &[], None, "");
}

#[test]
fn konane_white_removal_marks_the_hole_and_candidates() {
    common::snapshot("konane-opening-white", "konane", &[], None, "e4");
}

#[test]
fn konane_first_jump_on_6x6() {
    common::snapshot(
        "konane-first-jump",
        "konane",
        &["size=6"],
        None,
        "c4 c5 a4-c4",
    );
    common::golden(
        "konane-first-jump",
        "konane",
        &["size=6"],
        None,
        "c4 c5 a4-c4",
    );
}

#[test]
fn konane_double_jump_that_wins() {
    let at = "size=8 turn=white black=c4,d3,d5,d7,e4,g4 white=d4";
    common::snapshot(
        "konane-double-jump-win",
        "konane",
        &[],
        Some(at),
        "d4-d6-d8",
    );
}

#[test]
fn konane_12x12_labels_reach_l_and_12() {
    common::snapshot("konane-12", "konane", &["size=12"], None, "f7 f8");
}
