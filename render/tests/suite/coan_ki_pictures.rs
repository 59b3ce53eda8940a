//! Coan Ki pictures: snapshots of key positions (every kind of highlight) and one PNG golden.

use crate::common;

/// A busy mid-game position (section 9's example), Black to roll.
const MID: &str = "turn=black white=a1x5,c2x2,e1x3,h2x1 white-home=a1x2,b1x1 \
                   black=a1x1,c1x2,f2x4,g2x5 black-home=h2x2";

#[test]
fn coan_ki_start_is_the_rolloff_with_the_loop_arrows() {
    common::snapshot("coan-ki-start", "coan-ki", &[], None, "");
}

#[test]
fn coan_ki_rolloff_shows_both_dice_and_who_starts() {
    common::snapshot(
        "coan-ki-rolloff-black-starts",
        "coan-ki",
        &[],
        None,
        "roll:3v3 roll:4v6",
    );
}

#[test]
fn coan_ki_two_part_play_draws_both_paths_along_the_loop() {
    common::snapshot(
        "coan-ki-play-two-parts",
        "coan-ki",
        &[],
        Some(MID),
        "roll:5-6 f2+11&g2+5",
    );
    common::golden(
        "coan-ki-play-two-parts",
        "coan-ki",
        &[],
        Some(MID),
        "roll:5-6 f2+11&g2+5",
    );
}

#[test]
fn coan_ki_block8_marks_the_block_and_the_lost_throw() {
    common::snapshot(
        "coan-ki-block-throw-lost",
        "coan-ki",
        &["block8=on"],
        Some("turn=white white=a1x8,b1x8 black=d1x8,h2x8"),
        "roll:5-6",
    );
}

#[test]
fn coan_ki_double_one_removal_crosses_out_the_piece() {
    common::snapshot(
        "coan-ki-removal-after-double-one",
        "coan-ki",
        &[],
        Some("turn=white white=a1x7,b1x8,e1x1 black=g2x8,h2x8"),
        "roll:1-1 remove:e1",
    );
}

#[test]
fn coan_ki_last_piece_home_wins() {
    common::snapshot(
        "coan-ki-win-last-piece-home",
        "coan-ki",
        &[],
        Some("turn=white white=b2x1 white-home=a1x8,b1x7 black=g2x8,h2x8"),
        "roll:2-2 b2+2",
    );
}

#[test]
fn coan_ki_shows_the_opponents_play_under_the_next_throw() {
    // Issue 37, item 8: Black plays f2+11&g2+5, then White's throw begins White's turn at once.
    // The board shown to White draws Black's play (its paths, the cells left and reached) with
    // White's new dice, as Konane's and Koan's boards show the opponent's last move.
    use tabula_core::{AnyApplied, AnyGame, GameId};
    use tabula_render::layout::{FROM, PATH};
    let mut game = AnyGame::start(GameId::CoanKi, &[], Some(MID)).expect("start");
    let mut applied: Vec<AnyApplied> = Vec::new();
    for action in ["roll:5-6", "f2+11&g2+5", "roll:2-3"] {
        applied.push(game.apply_text(action).expect("legal"));
    }
    let after =
        tabula_render::scene_after_in(&game, &applied[1..], &tabula_render::labels::English)
            .to_string();
    let throw_only = tabula_render::scene(&game, applied.last()).to_string();
    // The play's own highlight, drawn on the board before the throw.
    let (played, play) = common::position("coan-ki", &[], Some(MID), "roll:5-6 f2+11&g2+5");
    let play_scene = tabula_render::scene(&played, play.as_ref()).to_string();
    let marks = |scene: &str| -> Vec<String> {
        scene
            .lines()
            .filter(|line| line.contains(&PATH.to_string()) || line.contains(&FROM.to_string()))
            .map(str::to_string)
            .collect()
    };
    let highlight = marks(&play_scene);
    assert!(highlight.len() >= 4, "{play_scene}");
    assert!(marks(&throw_only).is_empty(), "a throw alone marks no path");
    let shown = marks(&after);
    for line in &highlight {
        assert!(
            shown.contains(line),
            "{line} of the play is missing after the throw"
        );
    }
    assert!(
        after.contains("\"f2+11&g2+5\""),
        "the subtitle tells the play:\n{after}"
    );
    assert!(after.contains("White to play"), "White's turn:\n{after}");
}
