//! Animated replays (issue 19): a whole game of each of the five becomes a GIF with one frame
//! for the start and one per action, which a GIF decoder reads back; the frames, laid one over
//! the other as a viewer does, end on the picture of the last position; an APNG has the same
//! frames.

use tabula_core::{AnyGame, GameId};
use tabula_render::replay::{Format, animate, animate_ending_in, steps};

use crate::common::games;

/// A whole game played at random (seeded), as its actions.
fn whole_game(id: GameId, seed: u64) -> Vec<String> {
    let actions = games::random_actions(id, &[], seed, 20_000);
    assert!(actions.len() < 20_000, "{id}: no end in 20,000 actions");
    actions
}

/// The frames of a GIF as a viewer shows them: each frame's rectangle drawn over the picture
/// so far (transparent pixels keep what was there). Returns the frame count and the final
/// picture as RGB.
fn composite(gif: &[u8]) -> (usize, usize, usize, Vec<[u8; 3]>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(gif).expect("a GIF");
    let (width, height) = (usize::from(decoder.width()), usize::from(decoder.height()));
    let palette = decoder.global_palette().expect("a global palette").to_vec();
    let mut picture = vec![[0u8; 3]; width * height];
    let mut frames = 0;
    while let Some(frame) = decoder.read_next_frame().expect("a frame") {
        frames += 1;
        let (left, top) = (usize::from(frame.left), usize::from(frame.top));
        let (w, h) = (usize::from(frame.width), usize::from(frame.height));
        assert!(
            left + w <= width && top + h <= height,
            "frame {frames} out of bounds"
        );
        if frames == 1 {
            assert_eq!((w, h), (width, height), "the first frame is whole");
            assert_eq!(frame.transparent, None);
        }
        for y in 0..h {
            for x in 0..w {
                let index = frame.buffer[y * w + x];
                if Some(index) == frame.transparent {
                    continue;
                }
                let i = usize::from(index) * 3;
                picture[(top + y) * width + left + x] =
                    [palette[i], palette[i + 1], palette[i + 2]];
            }
        }
    }
    (frames, width, height, picture)
}

fn check_game(id: GameId, seed: u64) {
    let actions = whole_game(id, seed);
    let refs: Vec<&str> = actions.iter().map(String::as_str).collect();
    let start = AnyGame::start(id, &[], None).expect("start");
    let steps = steps(&start, &refs).expect("the actions replay");
    assert_eq!(steps.len(), actions.len() + 1);
    let mut reported = 0;
    let header = (id.name(), "Alice against Bob");
    let replay = animate(&steps, Format::Gif, header, |done, total| {
        assert_eq!(done, reported + 1);
        assert_eq!(total, steps.len());
        reported = done;
    })
    .expect("a replay");
    assert_eq!(reported, steps.len());
    assert_eq!(replay.frames, actions.len() + 1, "{id}");
    let (frames, width, height, picture) = composite(&replay.bytes);
    assert_eq!(
        frames,
        actions.len() + 1,
        "{id}: one frame per action, and the start"
    );
    assert_eq!((width as u32, height as u32), replay.size);
    // The last picture shown is the last position, up to the palette's rounding.
    let (state, last) = steps.last().expect("steps");
    let pixmap = tabula_render::raster::rasterise(&tabula_render::scene_with_header(
        state,
        last.as_ref(),
        header.0,
        header.1,
    ))
    .expect("drawn");
    let mut far = 0;
    let mut total_error = 0u64;
    for (shown, drawn) in picture.iter().zip(pixmap.data().chunks_exact(4)) {
        let error: u32 = (0..3)
            .map(|c| u32::from(shown[c].abs_diff(drawn[c])))
            .max()
            .unwrap_or(0);
        total_error += u64::from(error);
        if error > 48 {
            far += 1;
        }
    }
    let pixels = picture.len();
    assert!(
        far * 1000 < pixels,
        "{id}: {far} of {pixels} pixels of the last frame are far from the last position"
    );
    assert!(
        total_error < 6 * pixels as u64,
        "{id}: mean error {} per pixel",
        total_error as f64 / pixels as f64
    );

    // The same frames as an APNG.
    let apng = animate(&steps, Format::Apng, header, |_, _| {}).expect("an APNG");
    let decoder = png::Decoder::new(std::io::Cursor::new(apng.bytes));
    let mut reader = decoder.read_info().expect("a PNG");
    let control = *reader.info().animation_control().expect("animated");
    assert_eq!(control.num_frames as usize, actions.len() + 1, "{id}");
    let mut buffer = vec![0; reader.output_buffer_size().expect("a size")];
    let mut read = 0;
    while read < control.num_frames {
        reader.next_frame(&mut buffer).expect("an APNG frame");
        read += 1;
    }
}

#[test]
fn a_whole_konane_game_replays() {
    check_game(GameId::Konane, 1);
}

#[test]
fn a_whole_koan_game_replays() {
    check_game(GameId::Koan, 2);
}

#[test]
fn a_whole_kolowis_game_replays() {
    check_game(GameId::Kolowis, 3);
}

#[test]
fn a_whole_coan_ki_game_replays() {
    check_game(GameId::CoanKi, 4);
}

#[test]
fn a_whole_pachisi_game_replays() {
    check_game(GameId::Pachisi, 5);
}

#[test]
fn an_empty_list_of_steps_is_refused() {
    assert!(animate(&[], Format::Gif, ("", ""), |_, _| {}).is_err());
}

/// How many pixels of a shown `picture` are far (in any channel, by more than 48) from the
/// drawing of `scene`.
fn far_from(picture: &[[u8; 3]], scene: &tabula_render::scene::Scene) -> usize {
    let pixmap = tabula_render::raster::rasterise(scene).expect("drawn");
    picture
        .iter()
        .zip(pixmap.data().chunks_exact(4))
        .filter(|(shown, drawn)| (0..3).any(|c| shown[c].abs_diff(drawn[c]) > 48))
        .count()
}

#[test]
fn the_last_frame_of_a_finished_game_says_how_it_ended() {
    // Issue 37, item 8: a resignation leaves no trace on the board, so the last frame's title
    // says it; every frame before keeps the game's own title.
    let id = GameId::Konane;
    let actions = games::random_actions(id, &[], 7, 6);
    let refs: Vec<&str> = actions.iter().map(String::as_str).collect();
    let start = AnyGame::start(id, &[], None).expect("start");
    let steps = steps(&start, &refs).expect("the actions replay");
    let (title, subtitle) = ("Game #3 (Konane)", "White Alice, Black Bob");
    let ending = "Black resigned: White wins";
    let replay = animate_ending_in(
        &steps,
        Format::Gif,
        (title, subtitle),
        Some(ending),
        &tabula_render::labels::English,
        |_, _| {},
    )
    .expect("a replay");
    assert_eq!(replay.frames, steps.len());
    let (_, _, _, picture) = composite(&replay.bytes);
    let (state, last) = steps.last().expect("steps");
    let ended = tabula_render::scene_with_header(state, last.as_ref(), ending, subtitle);
    let titled = tabula_render::scene_with_header(state, last.as_ref(), title, subtitle);
    let pixels = picture.len();
    assert!(
        far_from(&picture, &ended) * 1000 < pixels,
        "the last frame shows the ending"
    );
    assert!(
        far_from(&picture, &titled) > 100,
        "the last frame's title is not the game's own"
    );
    // Without an ending, the last frame keeps the title (a game still running).
    let running = animate(&steps, Format::Gif, (title, subtitle), |_, _| {}).expect("a replay");
    let (_, _, _, picture) = composite(&running.bytes);
    assert!(far_from(&picture, &titled) * 1000 < pixels);
}
