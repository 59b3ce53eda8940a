//! Standings tables of round-robin seasons, on the board pictures' paper and in their font: a
//! title and subtitle as on the rating charts, a header row with a rule under it, and the rows
//! with alternate shading, the highlighted ones (e.g. the leader) on a soft accent background.
//!
//! The first column is a narrow rank, the second a name (cut with "…" beyond 260 px); the
//! others are numbers, right-aligned together and centred under their header.

use crate::RenderError;
use crate::layout::{self, FROM, INK, MUTED, PAPER};
use crate::raster;
use crate::scene::{Anchor, Color, Item, Point, Scene, Stroke, shape};

/// A table to draw: words already in the reader's language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableWords {
    /// The title, e.g. "Konane · Spring season".
    pub title: String,
    /// The line below it, e.g. "Round 4 of 7".
    pub subtitle: String,
    /// The columns' headings: rank, name, then the numbers.
    pub header: Vec<String>,
}

/// One row: its cells, as many as the header; `highlight` marks it (e.g. the leader).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableRow {
    /// The cells, left to right (missing ones are blank, extra ones are ignored).
    pub cells: Vec<String>,
    /// Whether the row stands out.
    pub highlight: bool,
}

/// The narrowest picture; wider ones are [`WIDTH_STEP`] wider, up to [`MAX_WIDTH`] (few sizes,
/// since the raster step keeps a blank page per size).
const MIN_WIDTH: f32 = 800.0;
const WIDTH_STEP: f32 = 200.0;
const MAX_WIDTH: f32 = 1200.0;
/// Space left and right of the table.
const MARGIN: f32 = 28.0;
/// Space between columns.
const GAP: f32 = 20.0;
/// The most rows drawn; further rows are dropped.
pub const MAX_ROWS: usize = 32;
/// The header band's top, its height, and each row's height.
const HEAD_TOP: f32 = 100.0;
const HEAD_HEIGHT: f32 = 40.0;
const ROW: f32 = 36.0;
const BOTTOM_SPACE: f32 = 20.0;
/// Text sizes of the header and the cells.
const HEAD_SIZE: f32 = 17.0;
const CELL_SIZE: f32 = 20.0;
/// Column widths: the rank's most, the name's least and most, a number column's least and most.
const RANK_MAX: f32 = 80.0;
const NAME_MIN: f32 = 120.0;
const NAME_MAX: f32 = 260.0;
const NUMBER_MIN: f32 = 36.0;
const NUMBER_MAX: f32 = 160.0;
/// Texts are cut to this many characters before being fitted (a cell never shows more).
const CHARS_MAX: usize = 120;
/// Row backgrounds: every other row, and highlighted rows.
const SHADE: Color = MUTED.alpha(22);
const ACCENT: Color = FROM.alpha(46);
const RULE: Stroke = Stroke {
    color: MUTED.alpha(140),
    width: 1.5,
};

/// The PNG picture of a standings table: about 800 px wide (up to 1200 when the columns need
/// it), as tall as its rows need (at most [`MAX_ROWS`] are drawn).
///
/// # Errors
/// Internal failures only (see [`RenderError`]).
pub fn standings_table(words: &TableWords, rows: &[TableRow]) -> Result<Vec<u8>, RenderError> {
    raster::encode_png(&raster::rasterise(&scene(words, rows)?)?)
}

/// A column: its left edge, width, and whether it holds numbers.
struct Column {
    left: f32,
    width: f32,
    numeric: bool,
}

/// The table's scene: everything is in the pieces layer (the board layer is the bare paper).
fn scene(words: &TableWords, rows: &[TableRow]) -> Result<Scene, RenderError> {
    let rows = &rows[..rows.len().min(MAX_ROWS)];
    let n = words.header.len();

    // Each column's texts, cut to its most width, and the widths of the cut texts.
    let most = |c: usize| [RANK_MAX, NAME_MAX, NUMBER_MAX][c.min(2)];
    let (mut heads, mut widths) = (Vec::with_capacity(n), Vec::with_capacity(n));
    let mut cells: Vec<Vec<String>> = vec![Vec::with_capacity(n); rows.len()];
    for (c, head) in words.header.iter().enumerate() {
        let head = cut(head, HEAD_SIZE, most(c))?;
        let mut width = raster::text_width(&head, HEAD_SIZE)?;
        heads.push(head);
        for (row, texts) in rows.iter().zip(&mut cells) {
            let text = row.cells.get(c).map_or("", String::as_str);
            let text = cut(text, CELL_SIZE, most(c))?;
            width = width.max(raster::text_width(&text, CELL_SIZE)?);
            texts.push(text);
        }
        widths.push(width.ceil().max([0.0, NAME_MIN, NUMBER_MIN][c.min(2)]));
    }

    // The picture's width: the columns', rounded up to a step; number columns share what is
    // left over, or are narrowed (and their texts cut again) when they do not fit.
    let natural = 2.0 * MARGIN + widths.iter().sum::<f32>() + GAP * n.saturating_sub(1) as f32;
    let width = (MIN_WIDTH + ((natural - MIN_WIDTH) / WIDTH_STEP).ceil() * WIDTH_STEP)
        .clamp(MIN_WIDTH, MAX_WIDTH);
    let numbers = n.saturating_sub(2);
    if natural > width && numbers > 0 {
        let fixed = 2.0 * MARGIN + widths.iter().take(2).sum::<f32>() + GAP * (n - 1) as f32;
        let share = ((width - fixed) / numbers as f32).floor().max(NUMBER_MIN);
        for c in 2..n {
            if widths[c] > share {
                widths[c] = share;
                heads[c] = cut(&heads[c], HEAD_SIZE, share)?;
                for row in &mut cells {
                    row[c] = cut(&row[c], CELL_SIZE, share)?;
                }
            }
        }
    } else if natural < width {
        let spread = (width - natural) / numbers.max(1) as f32;
        for w in widths.iter_mut().skip(if numbers > 0 { 2 } else { 1 }) {
            *w += spread;
        }
    }
    let mut columns = Vec::with_capacity(n);
    let mut left = MARGIN;
    for (c, &w) in widths.iter().enumerate() {
        if left + w > width - MARGIN + 0.5 {
            break; // Too many columns: the ones beyond the edge are left out.
        }
        columns.push(Column {
            left,
            width: w,
            numeric: c != 1,
        });
        left += w + GAP;
    }

    let top = HEAD_TOP + HEAD_HEIGHT;
    let height = (top + 4.0 + ROW * rows.len() as f32 + BOTTOM_SPACE).ceil();
    let mut scene = Scene::new(width as u32, height as u32, PAPER, "table".to_string());
    let items = &mut scene.pieces;
    let title = cut(&words.title, 30.0, width - 2.0 * MARGIN)?;
    items.push(text((MARGIN, 32.0), Anchor::Left, 30.0, INK, title));
    layout::subtitle_lines(items, &words.subtitle, width - 2.0 * MARGIN);

    // The header and the rule under it.
    let head_y = HEAD_TOP + HEAD_HEIGHT / 2.0;
    for (column, head) in columns.iter().zip(&heads) {
        let (x, anchor) = match column.numeric {
            true => (column.left + column.width / 2.0, Anchor::Centre),
            false => (column.left, Anchor::Left),
        };
        items.push(text((x, head_y), anchor, HEAD_SIZE, MUTED, head.clone()));
    }
    let rule_y = top.round() + 0.75;
    items.push(shape::polyline(
        &[(MARGIN - 12.0, rule_y), (width - MARGIN + 12.0, rule_y)],
        RULE,
    ));

    // Each number column's right edge: its widest cell's, centred in the column.
    let rights: Vec<f32> = (columns.iter().enumerate())
        .map(|(c, column)| {
            let widest = (cells.iter())
                .map(|row| raster::text_width(&row[c], CELL_SIZE))
                .try_fold(0f32, |m, w| w.map(|w| m.max(w)))?;
            Ok(column.left + (column.width + widest) / 2.0)
        })
        .collect::<Result<_, RenderError>>()?;

    // The rows: their backgrounds, then their cells.
    for (r, (row, texts)) in rows.iter().zip(&cells).enumerate() {
        let y = top + 4.0 + ROW * r as f32;
        let fill = (row.highlight)
            .then_some(ACCENT)
            .or((r % 2 == 1).then_some(SHADE));
        if let Some(fill) = fill {
            let (x, w) = (MARGIN - 12.0, width - 2.0 * MARGIN + 24.0);
            items.push(shape::rounded_rect(x, y, w, ROW, 6.0, Some(fill), None));
        }
        for ((c, column), t) in columns.iter().enumerate().zip(texts) {
            let (x, anchor) = match column.numeric {
                true => (rights[c], Anchor::Right),
                false => (column.left, Anchor::Left),
            };
            items.push(text((x, y + ROW / 2.0), anchor, CELL_SIZE, INK, t.clone()));
        }
    }
    Ok(scene)
}

/// A text item.
fn text(at: Point, anchor: Anchor, size: f32, color: Color, text: String) -> Item {
    Item::Text {
        at,
        anchor,
        size,
        color,
        text,
    }
}

/// `text` on one line, shortened with "…" to at most `max` pixels wide at `size` (a very long
/// text is first cut to [`CHARS_MAX`] characters, so the fitting stays quick).
fn cut(text: &str, size: f32, max: f32) -> Result<String, RenderError> {
    let text = text.trim();
    if raster::text_width(text, size)? <= max {
        return Ok(text.to_string());
    }
    let mut short: String = text.chars().take(CHARS_MAX).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    Ok(layout::fit_width(&short, size, max))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(header: &[&str]) -> TableWords {
        TableWords {
            title: "Konane · Spring season".into(),
            subtitle: "Round 4 of 7 · 6 players".into(),
            header: header.iter().map(|h| h.to_string()).collect(),
        }
    }

    fn header() -> TableWords {
        words(&["#", "Player", "Played", "Won", "Lost", "Points"])
    }

    fn row(cells: &[&str], highlight: bool) -> TableRow {
        TableRow {
            cells: cells.iter().map(|c| c.to_string()).collect(),
            highlight,
        }
    }

    /// `n` plain rows.
    fn rows(n: usize) -> Vec<TableRow> {
        (0..n)
            .map(|i| {
                let (rank, won) = ((i + 1).to_string(), (n - i).to_string());
                row(
                    &[&rank, &format!("Player {rank}"), "7", &won, "1", &won],
                    false,
                )
            })
            .collect()
    }

    fn decode(png: &[u8]) -> image::RgbImage {
        image::load_from_memory(png).expect("decode").to_rgb8()
    }

    fn draw(words: &TableWords, rows: &[TableRow]) -> image::RgbImage {
        decode(&standings_table(words, rows).expect("render"))
    }

    #[test]
    fn the_table_grows_with_its_rows_up_to_the_cap() {
        let mut heights = Vec::new();
        for n in [0, 1, 2, 10, 32, 40] {
            let image = draw(&header(), &rows(n));
            assert_eq!(image.width(), 800, "{n} rows");
            heights.push(image.height());
        }
        let grows = heights.windows(2).take(4).all(|h| h[0] < h[1]);
        assert!(grows, "{heights:?}");
        assert_eq!(heights[1] + 9 * ROW as u32, heights[3]);
        assert_eq!(heights[4], heights[5], "{heights:?}");
    }

    #[test]
    fn long_names_are_cut() {
        let long = "Ж".repeat(200);
        let names = [
            long.as_str(),
            "Борис 🎲🏆😀 the unbeatable champion of every season",
            "é",
        ];
        let table: Vec<TableRow> = names
            .iter()
            .map(|name| row(&["1", name, "3", "2", "1", "6"], false))
            .collect();
        let scene = scene(&header(), &table).expect("scene");
        assert_eq!(scene.width, 800);
        let texts: Vec<&String> = (scene.pieces.iter())
            .filter_map(|item| match item {
                Item::Text { text, size, .. } if *size == CELL_SIZE => Some(text),
                _ => None,
            })
            .collect();
        for name in &names[..2] {
            let shown = texts
                .iter()
                .find(|t| name.starts_with(t.trim_end_matches('…')));
            let shown = shown.expect("the name is drawn");
            assert!(shown.ends_with('…'), "{shown}");
            assert!(raster::text_width(shown, CELL_SIZE).unwrap() <= NAME_MAX);
        }
        assert!(texts.iter().any(|t| *t == "é"));
        draw(&header(), &table);
    }

    #[test]
    fn mismatched_cells_and_odd_headers_do_not_panic() {
        let table = vec![
            row(&[], false),
            row(&["1"], true),
            row(&["2", "Ann", "3", "4", "5", "6", "7", "8", "9"], false),
        ];
        draw(&header(), &table);
        draw(&words(&[]), &table);
        draw(&words(&["#"]), &table);
        draw(&words(&["#", "Player"]), &table);
        let many: Vec<String> = (0..60).map(|i| format!("Column {i}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let image = draw(&words(&many), &[row(&many, true)]);
        assert_eq!(image.width(), 1200);
        draw(&words(&["#", "", &"W".repeat(500)]), &rows(3));
    }

    #[test]
    fn wide_columns_widen_the_picture() {
        let head = "#,Player,Games played,Wins,Draws,Losses,Points,Tie-break,Sonneborn–Berger";
        let wide = draw(&words(&head.split(',').collect::<Vec<_>>()), &rows(3));
        assert!((1000..=1200).contains(&wide.width()), "{}", wide.width());
    }

    #[test]
    fn highlighted_rows_stand_out() {
        let mut table = rows(4);
        table[2].highlight = true;
        let image = draw(&header(), &table);
        // A pixel left of the rank, in the middle of row `r`.
        let margin = |r: usize| {
            let y = HEAD_TOP + HEAD_HEIGHT + 4.0 + ROW * (r as f32 + 0.5);
            *image.get_pixel(MARGIN as u32 - 8, y as u32)
        };
        let paper = image::Rgb([PAPER.0, PAPER.1, PAPER.2]);
        assert_eq!(margin(0), paper);
        assert_ne!(margin(1), paper, "every other row is shaded");
        assert_ne!(margin(2), margin(0));
        assert_ne!(margin(2), margin(1));
        // Highlighting a shaded row too.
        table[3].highlight = true;
        let image2 = draw(&header(), &table);
        let y = (HEAD_TOP + HEAD_HEIGHT + 4.0 + ROW * 3.5) as u32;
        assert_eq!(*image2.get_pixel(MARGIN as u32 - 8, y), margin(2));
    }
}
