//! The tests of `tabula-render`, in one binary: scene snapshots and PNG goldens of key positions
//! of each game (kept in `tests/snapshots` and `tests/goldens`), every position of random playouts
//! drawn, captions, replays read back, and the SVG back end against the raster back end.

mod common;

mod captions;
mod coan_ki_pictures;
mod koan_pictures;
mod kolowis_pictures;
mod konane_pictures;
mod pachisi_pictures;
mod pictures;
mod replays;
mod svg;
