//! Rating-history charts: a player's rating after each rated game, as a line with a dot per game
//! over a shaded band of rating ± deviation, on the board pictures' paper and in their font.
//!
//! The x axis is time (ISO dates, `2026-12-01`, computed here from the moments: no clock, no
//! language); when every game fell on one day, the games are spaced evenly instead. The y axis
//! has four to six round ticks chosen to fit the ratings.

use crate::RenderError;
use crate::layout::{self, FROM, INK, MUTED, PAPER};
use crate::raster;
use crate::scene::{Anchor, Color, Item, Point, Scene, Stroke, shape};

/// One point of the history: after a rated game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChartPoint {
    /// When the game ended, in milliseconds since the Unix epoch (UTC).
    pub at_millis: i64,
    /// The rating after the game.
    pub rating: f64,
    /// The rating deviation after the game.
    pub deviation: f64,
}

/// The words on the chart, already in the reader's language (the caller localises).
#[derive(Debug, Clone)]
pub struct ChartLabels {
    /// The title, e.g. "Alice · Konane".
    pub title: String,
    /// The line below it, e.g. "1620? · 12 rated games".
    pub subtitle: String,
    /// How a moment (Unix milliseconds) is written under the time axis: a date.
    pub date: fn(i64) -> String,
}

const WIDTH: f32 = 800.0;
const HEIGHT: f32 = 450.0;
/// The plot area.
const LEFT: f32 = 76.0;
const RIGHT: f32 = 704.0;
const TOP: f32 = 116.0;
const BOTTOM: f32 = 400.0;
/// The narrowest rating range shown, so that equal ratings still make a chart.
const MIN_SPAN: f64 = 100.0;
/// The most of a deviation the range stretches for (a wider band is cut off at the edges).
const BAND_CAP: f64 = 100.0;
/// Ratings and deviations are held to this size, so that the arithmetic stays exact enough.
const LIMIT: f64 = 1e7;
const DAY: i64 = 86_400_000;
/// The faint grid lines.
const GRID: Stroke = Stroke {
    color: MUTED.alpha(48),
    width: 1.0,
};
/// The x axis (the lowest grid line) and its date ticks.
const TICK: Stroke = Stroke {
    color: MUTED.alpha(110),
    width: 1.0,
};
const BAND: Color = FROM.alpha(52);
/// Dots are drawn at each game while games are at least this far apart on average.
const DOT_SPACING: f32 = 9.0;

/// The PNG picture (800×450) of a rating history, in time order (stable for equal moments).
/// Points with a rating that is not a finite number are left out (a NaN deviation counts as
/// 0); with no point left, the picture has only the title and subtitle.
///
/// # Errors
/// Internal failures only (see [`RenderError`]).
pub fn rating_chart(points: &[ChartPoint], labels: &ChartLabels) -> Result<Vec<u8>, RenderError> {
    raster::encode_png(&raster::rasterise(&scene(points, labels))?)
}

/// The chart's scene: everything is in the pieces layer (the board layer, cached per key, is
/// the bare paper).
fn scene(points: &[ChartPoint], labels: &ChartLabels) -> Scene {
    let mut scene = Scene::new(WIDTH as u32, HEIGHT as u32, PAPER, "chart".to_string());
    let items = &mut scene.pieces;
    items.push(Item::Text {
        at: (28.0, 32.0),
        anchor: Anchor::Left,
        size: 30.0,
        color: INK,
        text: layout::fit_width(&labels.title, 30.0, WIDTH - 56.0),
    });
    layout::subtitle_lines(items, &labels.subtitle, WIDTH - 56.0);

    let mut points: Vec<ChartPoint> = (points.iter())
        .filter(|p| p.rating.is_finite())
        .map(|p| ChartPoint {
            rating: p.rating.clamp(-LIMIT, LIMIT),
            deviation: if p.deviation.is_nan() {
                0.0
            } else {
                p.deviation.clamp(0.0, LIMIT)
            },
            ..*p
        })
        .collect();
    points.sort_by_key(|p| p.at_millis);
    let (Some(first), Some(last)) = (points.first().copied(), points.last().copied()) else {
        return scene;
    };
    let n = points.len();

    // The y axis: round ticks covering the ratings and (some of) their bands.
    let reach = |p: &ChartPoint| p.deviation.min(BAND_CAP);
    let lo = (points.iter())
        .map(|p| p.rating - reach(p))
        .fold(f64::MAX, f64::min);
    let hi = (points.iter())
        .map(|p| p.rating + reach(p))
        .fold(f64::MIN, f64::max);
    let ticks = ticks(lo, hi);
    let (bottom_value, top_value) = (ticks[0], ticks[ticks.len() - 1]);
    let span = (top_value - bottom_value).max(1.0);
    let y_of = |v: f64| BOTTOM - ((v - bottom_value) / span) as f32 * (BOTTOM - TOP);
    for (i, &tick) in ticks.iter().enumerate() {
        let y = y_of(tick).round() + 0.5;
        let stroke = if i == 0 { TICK } else { GRID };
        items.push(shape::polyline(&[(LEFT, y), (RIGHT, y)], stroke));
        items.push(muted(
            (LEFT - 10.0, y),
            Anchor::Right,
            17.0,
            format!("{tick:.0}"),
        ));
    }

    // The x axis: by time, or by game (evenly) when all were on one day.
    let (t0, t1) = (first.at_millis, last.at_millis);
    let date_y = BOTTOM + 26.0;
    let xs: Vec<f32> = if t0.div_euclid(DAY) == t1.div_euclid(DAY) {
        let middle = (LEFT + RIGHT) / 2.0;
        items.push(muted(
            (middle, date_y),
            Anchor::Centre,
            16.0,
            (labels.date)(t0),
        ));
        let step = (RIGHT - LEFT) / (n.max(2) - 1) as f32;
        let centred = |i: usize| i as f32 - (n - 1) as f32 / 2.0;
        (0..n).map(|i| middle + step * centred(i)).collect()
    } else {
        let (t0, t1) = (t0 as f64, t1 as f64);
        let mut shown = String::new();
        for i in 0..5 {
            let date = (labels.date)((t0 + (t1 - t0) * f64::from(i) / 4.0) as i64);
            if date == shown {
                continue;
            }
            let x = LEFT + (RIGHT - LEFT) * i as f32 / 4.0;
            let anchor = [
                Anchor::Left,
                Anchor::Centre,
                Anchor::Centre,
                Anchor::Centre,
                Anchor::Right,
            ];
            items.push(shape::polyline(&[(x, BOTTOM), (x, BOTTOM + 6.0)], TICK));
            items.push(muted((x, date_y), anchor[i as usize], 16.0, date.clone()));
            shown = date;
        }
        let x_of = |t: i64| LEFT + ((t as f64 - t0) / (t1 - t0)) as f32 * (RIGHT - LEFT);
        points.iter().map(|p| x_of(p.at_millis)).collect()
    };

    // The band of rating ± deviation, cut off at the plot's edges (a single game gets a short
    // bar of it).
    let mut band: Vec<(f32, ChartPoint)> = xs.iter().copied().zip(points.iter().copied()).collect();
    if n == 1 {
        band = vec![(xs[0] - 12.0, first), (xs[0] + 12.0, first)];
    }
    let edge = |sign: f64| -> Vec<Point> {
        let edge: Vec<Point> = (band.iter())
            .map(|(x, p)| (*x, y_of(p.rating + sign * p.deviation)))
            .collect();
        clipped(&edge, TOP, BOTTOM)
    };
    let mut outline = edge(1.0);
    outline.extend(edge(-1.0).into_iter().rev());
    items.push(shape::polygon(&outline, Some(BAND), None));

    // The line, a dot per game while they fit, and the last rating beside the last dot.
    let line: Vec<Point> = (xs.iter().zip(&points))
        .map(|(x, p)| (*x, y_of(p.rating)))
        .collect();
    let width = if n > 100 { 2.0 } else { 2.5 };
    if n > 1 {
        items.push(shape::polyline(&line, Stroke { color: FROM, width }));
    }
    if (RIGHT - LEFT) / n as f32 >= DOT_SPACING {
        for &p in &line[..n - 1] {
            items.push(shape::circle(p, 3.5, Some(FROM), None));
        }
    }
    let end = line[n - 1];
    let ring = Stroke {
        color: PAPER,
        width: 1.5,
    };
    items.push(shape::circle(end, 5.5, Some(FROM), Some(ring)));
    items.push(Item::Text {
        at: (end.0 + 12.0, end.1),
        anchor: Anchor::Left,
        size: 20.0,
        color: INK,
        text: format!("{:.0}", last.rating),
    });
    scene
}

/// A label of the axes.
fn muted(at: Point, anchor: Anchor, size: f32, text: String) -> Item {
    let color = MUTED;
    Item::Text {
        at,
        anchor,
        size,
        color,
        text,
    }
}

/// Four to six round ticks (multiples of 1, 2, 2.5 or 5 times a power of ten), the first at or
/// below `lo` and the last at or above `hi`. A range narrower than [`MIN_SPAN`] is widened
/// around its middle.
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let (mut lo, mut hi) = (lo.min(hi), hi.max(lo));
    if hi - lo < MIN_SPAN {
        let middle = (lo + hi) / 2.0;
        (lo, hi) = (middle - MIN_SPAN / 2.0, middle + MIN_SPAN / 2.0);
    }
    let base = 10f64.powf(((hi - lo) / 6.0).log10().floor());
    for m in [1.0, 2.0, 2.5, 5.0, 10.0, 20.0] {
        let step = base * m;
        let (first, last) = ((lo / step).floor(), (hi / step).ceil());
        if last - first <= 5.0 {
            let count = (last - first) as usize + 1;
            return (0..count).map(|i| (first + i as f64) * step).collect();
        }
    }
    vec![lo, hi]
}

/// The line through `points` held between `top` and `bottom`: points beyond are moved onto the
/// edge, and where the line crosses an edge the crossing is added, so the shape is cut exactly.
fn clipped(points: &[Point], top: f32, bottom: f32) -> Vec<Point> {
    let mut out = Vec::with_capacity(points.len() + 8);
    for (i, &(x, y)) in points.iter().enumerate() {
        if i > 0 {
            let (px, py) = points[i - 1];
            let edges = if py < y { [top, bottom] } else { [bottom, top] };
            for edge in edges {
                if (py - edge) * (y - edge) < 0.0 {
                    let t = (edge - py) / (y - py);
                    out.push((px + t * (x - px), edge));
                }
            }
        }
        out.push((x, y.clamp(top, bottom)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels() -> ChartLabels {
        ChartLabels {
            title: "Alice · Konane".into(),
            subtitle: "1620? · 12 rated games".into(),
            // The day's number: the caller writes dates as its readers do.
            date: |millis| format!("d{}", millis.div_euclid(DAY)),
        }
    }

    /// `n` games a day apart from 2026-01-01, rating `f(i)`.
    fn series(n: usize, f: impl Fn(usize) -> f64) -> Vec<ChartPoint> {
        (0..n)
            .map(|i| ChartPoint {
                at_millis: 1_767_225_600_000 + i as i64 * DAY,
                rating: f(i),
                deviation: 350.0 / (1.0 + i as f64).sqrt(),
            })
            .collect()
    }

    fn decode(png: &[u8]) -> image::RgbImage {
        let image = image::load_from_memory(png).expect("decode").to_rgb8();
        assert_eq!(image.dimensions(), (800, 450));
        image
    }

    #[test]
    fn charts_of_any_length_decode_at_their_size() {
        let noisy = |i: usize| 1500.0 + ((i * 7919) % 211) as f64 - 100.0 + i as f64;
        for n in [0, 1, 2, 3, 300] {
            let png = rating_chart(&series(n, noisy), &labels()).expect("render");
            decode(&png);
            assert!(png.len() < 100_000, "{n} points: {} bytes", png.len());
        }
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        let at = |t: i64, rating: f64, deviation: f64| ChartPoint {
            at_millis: t,
            rating,
            deviation,
        };
        let cases = [
            vec![at(0, 1500.0, 0.0), at(0, 1500.0, 0.0)],
            vec![at(5, 1500.0, 50.0); 40],
            vec![
                at(i64::MIN, 1500.0, 1.0),
                at(i64::MAX, 1700.0, f64::INFINITY),
            ],
            vec![
                at(1, f64::NAN, 1.0),
                at(2, f64::INFINITY, 1.0),
                at(3, 1e300, f64::NAN),
            ],
            vec![at(1, f64::NAN, 1.0)],
            vec![at(1, -1e12, -5.0), at(DAY * 3, 1e12, 1e9)],
        ];
        for points in cases {
            decode(&rating_chart(&points, &labels()).expect("render"));
        }
    }

    /// The mean row of the line colour's pixels in columns `xs`.
    fn line_row(image: &image::RgbImage, xs: std::ops::Range<u32>) -> f64 {
        let near = |p: &image::Rgb<u8>| {
            let [r, g, b] = p.0;
            r < 40 && (95..150).contains(&g) && (150..215).contains(&b)
        };
        let rows: Vec<u32> = xs
            .flat_map(|x| (0..450).map(move |y| (x, y)))
            .filter(|&(x, y)| near(image.get_pixel(x, y)))
            .map(|(_, y)| y)
            .collect();
        assert!(!rows.is_empty(), "no line pixels");
        rows.iter().map(|&y| f64::from(y)).sum::<f64>() / rows.len() as f64
    }

    #[test]
    fn a_rising_series_ends_higher_than_it_starts() {
        let image = decode(
            &rating_chart(&series(20, |i| 1400.0 + 15.0 * i as f64), &labels()).expect("render"),
        );
        let (left, right) = (line_row(&image, 76..267), line_row(&image, 533..705));
        assert!(right + 50.0 < left, "left {left}, right {right}");
        // And a falling one the other way round.
        let image = decode(
            &rating_chart(&series(20, |i| 1700.0 - 15.0 * i as f64), &labels()).expect("render"),
        );
        assert!(line_row(&image, 533..705) > line_row(&image, 76..267) + 50.0);
    }

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        let mut lo = -300.0;
        while lo < 3000.0 {
            for width in [
                0.0, 1.0, 30.0, 99.0, 100.0, 180.0, 333.0, 700.0, 1234.0, 5000.0,
            ] {
                let t = ticks(lo, lo + width);
                assert!((4..=6).contains(&t.len()), "{lo}+{width}: {t:?}");
                assert!(
                    t[0] <= lo && t[t.len() - 1] >= lo + width,
                    "{lo}+{width}: {t:?}"
                );
                let step = t[1] - t[0];
                let m = step / 10f64.powf(step.log10().floor());
                assert!(
                    [1.0, 2.0, 2.5, 5.0].iter().any(|r| (m - r).abs() < 1e-9),
                    "{t:?}"
                );
                assert!(
                    t.iter()
                        .all(|v| (v / step - (v / step).round()).abs() < 1e-9),
                    "{t:?}"
                );
            }
            lo += 37.0;
        }
        assert_eq!(
            ticks(1500.0, 1500.0),
            [1450.0, 1475.0, 1500.0, 1525.0, 1550.0]
        );
    }

    #[test]
    fn one_day_spaces_games_evenly_and_shows_the_date_once() {
        let points: Vec<ChartPoint> = series(3, |i| 1500.0 + i as f64)
            .into_iter()
            .enumerate()
            .map(|(i, p)| ChartPoint {
                at_millis: 1_796_083_200_000 + i as i64,
                ..p
            })
            .collect();
        let scene = scene(&points, &labels()).to_string();
        assert_eq!(scene.matches("\"d20788\"").count(), 1, "{scene}");
        assert!(scene.contains("\"1502\" at 716,"), "{scene}");
    }
}
