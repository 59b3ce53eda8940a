//! The SVG back end draws what the raster back end draws: positions of every game written as SVG,
//! drawn by resvg and compared pixel by pixel with the raster back end's picture; a moved piece
//! is told apart; scene text is escaped; the documents stay small and parse.

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;
use tabula_core::{AnyApplied, AnyGame, GameId};
use tabula_render::raster;
use tabula_render::scene::{Anchor, Color, Item, Scene, shape};

use crate::common::games;

/// Positions of a game: the start, then after each of `steps` actions played at random
/// (seeded; chance nodes resolved by one of their outcomes), each with the action that led to
/// it. Fewer when the game ends first.
fn positions(id: GameId, seed: u64, steps: &[usize]) -> Vec<(AnyGame, Option<AnyApplied>)> {
    let limit = steps.iter().copied().max().unwrap_or(0);
    let actions = games::random_actions(id, &[], seed.wrapping_mul(0x9e37_79b9_7f4a_7c15), limit);
    let mut game = AnyGame::start(id, &[], None).expect("start");
    let mut out = vec![(game.clone(), None)];
    for (done, action) in actions.iter().enumerate() {
        let applied = game.apply_text(action).expect("legal action");
        if steps.contains(&(done + 1)) {
            out.push((game.clone(), Some(applied)));
        }
    }
    out
}

/// The SVG document drawn by resvg.
fn draw_svg(svg: &str) -> Pixmap {
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default()).expect("the SVG parses");
    let size = tree.size().to_int_size();
    let mut pixmap = Pixmap::new(size.width(), size.height()).expect("pixmap");
    resvg::render(&tree, Transform::identity(), &mut pixmap.as_mut());
    pixmap
}

/// How far two pictures of the same size are apart.
#[derive(Debug, Clone, Copy)]
struct Difference {
    /// The mean absolute difference per colour channel.
    mean: f64,
    /// The fraction of pixels with a channel more than [`FAR`] apart.
    far: f64,
    /// The most pixels more than [`FAR`] apart in one [`TILE`]×[`TILE`] square.
    densest: usize,
}

/// A channel difference that counts as a different pixel (anti-aliased edges of the two
/// rasterisers are within it but for a few pixels).
const FAR: u8 = 48;
/// The side of the squares in which differing pixels are counted: a moved or changed piece
/// makes a dense patch of them, anti-aliasing differences are scattered along edges.
const TILE: usize = 12;

fn difference(a: &[u8], b: &[u8], width: usize) -> Difference {
    assert_eq!(a.len(), b.len(), "sizes");
    let pixels = a.len() / 4;
    let height = pixels / width;
    let mut sum = 0u64;
    let mut far = 0usize;
    let (tiles_x, tiles_y) = (width.div_ceil(TILE), height.div_ceil(TILE));
    let mut tiles = vec![0usize; tiles_x * tiles_y];
    for (i, (p, q)) in a.chunks_exact(4).zip(b.chunks_exact(4)).enumerate() {
        let mut is_far = false;
        for k in 0..3 {
            let d = p[k].abs_diff(q[k]);
            sum += u64::from(d);
            is_far |= d > FAR;
        }
        if is_far {
            far += 1;
            let (x, y) = (i % width, i / width);
            tiles[(y / TILE) * tiles_x + x / TILE] += 1;
        }
    }
    Difference {
        mean: sum as f64 / (pixels * 3) as f64,
        far: far as f64 / pixels as f64,
        densest: tiles.into_iter().max().unwrap_or(0),
    }
}

/// The tolerance: what the two rasterisers' anti-aliasing differences stay well within (measured
/// on every game: a mean below 0.35, a pixel or two more than [`FAR`] apart, never two in one
/// square; see the output of `svg_draws_the_same_scene_as_the_raster_back_end`). A piece moved or
/// recoloured, or a text moved by a few pixels, exceeds it (`a_moved_piece_exceeds_the_tolerance`,
/// `moved_text_exceeds_the_tolerance`), and so does text a pixel too low or a group half a pixel
/// off.
fn within_tolerance(d: Difference) -> bool {
    d.mean < 1.0 && d.far < 0.001 && d.densest <= TILE * TILE / 6
}

/// The raster back end's picture of `scene` against resvg's drawing of its SVG.
fn compare(scene: &Scene, svg_of: &Scene) -> Difference {
    let raster = raster::rasterise(scene).expect("rasterise");
    let svg = tabula_render::svg(svg_of).expect("svg");
    let drawn = draw_svg(&svg);
    assert_eq!(
        (drawn.width(), drawn.height()),
        (raster.width(), raster.height()),
        "size"
    );
    difference(raster.data(), drawn.data(), raster.width() as usize)
}

#[test]
fn svg_draws_the_same_scene_as_the_raster_back_end() {
    let mut failures = Vec::new();
    for &id in GameId::ALL {
        let mut worst: Option<Difference> = None;
        let mut count = 0;
        let mut largest = 0;
        for seed in 1..=2 {
            for (game, last) in positions(id, seed, &[1, 2, 5, 12, 30, 80]) {
                let scene = tabula_render::scene(&game, last.as_ref());
                let d = compare(&scene, &scene);
                count += 1;
                largest = largest.max(tabula_render::svg(&scene).expect("svg").len());
                if !within_tolerance(d) {
                    failures.push(format!("{id} (seed {seed}, {last:?}): {d:?}"));
                }
                worst = Some(match worst {
                    None => d,
                    Some(w) => Difference {
                        mean: w.mean.max(d.mean),
                        far: w.far.max(d.far),
                        densest: w.densest.max(d.densest),
                    },
                });
            }
        }
        let w = worst.expect("positions");
        println!(
            "{id}: {count} positions; worst mean difference {:.3} per channel, {:.3}% of pixels \
             more than {FAR} apart, at most {} such pixels in a {TILE}x{TILE} square; largest \
             SVG {largest} bytes",
            w.mean,
            w.far * 100.0,
            w.densest
        );
        assert!(largest < 60 * 1024, "{id}: an SVG of {largest} bytes");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_moved_piece_exceeds_the_tolerance() {
    for &id in GameId::ALL {
        let (game, last) = positions(id, 3, &[4]).pop().expect("position");
        let scene = tabula_render::scene(&game, last.as_ref());
        assert!(within_tolerance(compare(&scene, &scene)), "{id}: unaltered");
        // The largest piece moved by its own size.
        let (index, radius) = scene
            .pieces
            .iter()
            .enumerate()
            .filter_map(|(i, item)| match item {
                Item::Group { radius, .. } => Some((i, *radius)),
                _ => None,
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .expect("a piece");
        let mut moved = scene.clone();
        moved.pieces[index] = moved.pieces[index].clone().translated(2.0 * radius, 0.0);
        let d = compare(&scene, &moved);
        println!("{id}: a piece moved by {}px: {d:?}", 2.0 * radius);
        assert!(!within_tolerance(d), "{id}: moved piece not seen: {d:?}");
        // A piece's colour changed.
        let mut recoloured = scene.clone();
        if let Item::Group { items, .. } = &mut recoloured.pieces[index] {
            for item in items {
                if let Item::Path { fill: Some(c), .. } = item {
                    *c = Color(255 - c.0, 255 - c.1, 255 - c.2, c.3);
                }
            }
        }
        let d = compare(&scene, &recoloured);
        println!("{id}: a piece recoloured: {d:?}");
        assert!(
            !within_tolerance(d),
            "{id}: recoloured piece not seen: {d:?}"
        );
    }
}

#[test]
fn moved_text_exceeds_the_tolerance() {
    let (game, last) = positions(GameId::Konane, 1, &[1]).pop().expect("position");
    let scene = tabula_render::scene(&game, last.as_ref());
    let mut moved = scene.clone();
    let text = moved
        .pieces
        .iter_mut()
        .find(|item| matches!(item, Item::Text { .. }))
        .expect("a text");
    *text = text.clone().translated(0.0, 4.0);
    let d = compare(&scene, &moved);
    println!("a text moved by 4px: {d:?}");
    assert!(!within_tolerance(d), "moved text not seen: {d:?}");
}

const HOSTILE: &str = "<script>alert(\"x\")</script> & 'y'";

#[test]
fn scene_text_is_escaped() {
    let mut scene = Scene::new(
        200,
        100,
        Color::hex(0xffffff),
        format!("{HOSTILE}|svg-escape"),
    );
    scene.board.push(shape::rect(
        10.0,
        10.0,
        180.0,
        80.0,
        Some(Color::hex(0xeeeeee)),
        None,
    ));
    scene.pieces.push(Item::Text {
        at: (100.0, 30.0),
        anchor: Anchor::Centre,
        size: 12.0,
        color: Color::hex(0x000000),
        text: HOSTILE.to_string(),
    });
    scene.pieces.push(Item::Group {
        at: (50.0, 70.0),
        radius: 12.0,
        items: vec![Item::Text {
            at: (0.0, 0.0),
            anchor: Anchor::Left,
            size: 10.0,
            color: Color::hex(0x202020).alpha(128),
            text: HOSTILE.to_string(),
        }],
    });
    let svg = tabula_render::svg(&scene).expect("svg");
    assert!(!svg.contains("<script"), "raw <script in {svg}");
    assert!(!svg.contains("alert(\""), "raw quote in {svg}");
    assert!(!svg.contains("'y'"), "raw apostrophe in {svg}");
    let escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &apos;y&apos;";
    assert!(
        svg.matches(escaped).count() >= 2,
        "escaped text missing in {svg}"
    );
    // It parses as XML, and the text is there as it was for readers: as each text's label and
    // in the document's title.
    let doc = usvg::roxmltree::Document::parse(&svg).expect("XML");
    let labels: Vec<&str> = doc
        .descendants()
        .filter_map(|n| n.attribute("aria-label"))
        .collect();
    assert_eq!(labels, [HOSTILE, HOSTILE]);
    let title = doc
        .descendants()
        .find(|n| n.has_tag_name("title"))
        .and_then(|n| n.text());
    assert_eq!(title, Some(HOSTILE));
    assert!(!doc.descendants().any(|n| n.has_tag_name("script")));
    let tree = usvg::Tree::from_str(&svg, &usvg::Options::default()).expect("parses");
    assert_eq!(tree.size().width(), 200.0);
    // The group's text reaches beyond its sprite's square: cut off there, as in the raster
    // back end's picture.
    assert_eq!(svg.matches("clip-path=\"url(#").count(), 1, "{svg}");
    // Drawn like the raster back end draws it too.
    let d = compare(&scene, &scene);
    assert!(within_tolerance(d), "{d:?}");
}

#[test]
fn svg_of_each_start_position_is_small_and_self_contained() {
    for &id in GameId::ALL {
        let game = AnyGame::start(id, &[], None).expect("start");
        let svg = tabula_render::svg(&tabula_render::scene(&game, None)).expect("svg");
        let png = tabula_render::render(&game, None).expect("png");
        println!(
            "{id}: SVG {} bytes ({:.1} KB), PNG {} bytes",
            svg.len(),
            svg.len() as f64 / 1024.0,
            png.len()
        );
        assert!(svg.len() < 60 * 1024, "{id}: {} bytes", svg.len());
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 "));
        assert!(svg.contains(" role=\"img\""));
        assert_eq!(svg.matches("<g class=\"board\">").count(), 1, "{id}");
        assert_eq!(svg.matches("<g class=\"pieces\">").count(), 1, "{id}");
        for banned in [
            "<image",
            "<script",
            "<text",
            "<style",
            "<foreignObject",
            "xlink:href",
            "http://www.w3.org/1999",
        ] {
            assert!(!svg.contains(banned), "{id}: {banned}");
        }
        // Every reference is to an element of the document.
        for reference in svg.split("href=\"").skip(1) {
            assert!(reference.starts_with('#'), "{id}: {reference}");
        }
        for reference in svg.split("url(").skip(1) {
            assert!(reference.starts_with('#'), "{id}: {reference}");
        }
        usvg::Tree::from_str(&svg, &usvg::Options::default()).expect("parses");
    }
}
