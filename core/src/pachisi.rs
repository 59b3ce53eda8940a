//! Pachisi, as in `shared/rules/pachisi.md`.
//!
//! Four seats `S`, `E`, `N`, `W` in two partnerships, `SN` and `EW` (section 1). The board is the
//! cross of 96 squares round the Charkoni, with 12 castles (section 2, decision D1). Every piece
//! walks its own 84-step track (D2): out of the Charkoni down its own middle column (pos 1–7), to
//! its own end square (pos 8), once anticlockwise round the outside (pos 9–75), back to the end
//! square (pos 76, now home-bound) and up the middle column (pos 77–83) into the Charkoni (pos 84,
//! finished). Turns go clockwise `S` → `W` → `N` → `E`, skipping finished seats (section 4, D3, D4,
//! D13, rule 12).
//!
//! A turn is `decide` (`throw` or `skip`, rule 2), `throw` (a chance node: six fair cowries give
//! 25, 10, 2, 3, 4, 5, 6 with weights 1, 6, 15, 20, 15, 6, 1 of 64, and the graces 6, 10, 25
//! throw again, rules 1 and 3, D5, D6), and `allocate`: each value thrown is used whole on one
//! action (rule 4) — entering a piece to pos v (rule 5, D7, D8: the first piece a seat ever enters
//! may use any value, later ones only a grace), or moving one piece or a group of k ≥ 2 own pieces
//! at one pos (rule 6, D10). Landing (rule 7): overshooting pos 84 is illegal, pos 84 finishes
//! exactly (rule 10) or from pos 83 with any grace (rule 11, D12); opposing pieces on the target
//! square are all captured when at least as many pieces arrive, unless the square is a castle,
//! which is then closed (rules 7 and 8, D11); passing is always allowed (rule 9). `done` gives up
//! the remaining values (D9); values that no action can use are lost by the engine itself, which
//! passes the turn (D16). The team with all eight pieces home wins at once (rule 13); there are no
//! options and no draws.
//!
//! A position keeps each seat's four track positions sorted in a small array; precomputed tables
//! give the square of every (seat, pos) and the pos of every (seat, square), so move generation
//! and application never allocate.

use std::fmt::{self, Display};
use std::ops::ControlFlow;
use std::str::FromStr;

use crate::any::GameId;
use crate::error::{
    CellContents, Compass, Holding, IllegalReason, MoveError, NoMoveReason, NotYours,
    NotationError, NotationProblem, PositionError, PositionProblem, SetupError,
};
use crate::game::{Game, Outcome, Seat, Status, Team};
use crate::text::{Fields, join_fields};

/// The seat letters, indexed by seat (= the track rotation).
const SEAT_NAMES: [&str; 4] = ["S", "E", "N", "W"];
/// The seat letters as characters, for the drawing.
const SEAT_CHARS: [char; 4] = ['S', 'E', 'N', 'W'];
/// The team names, indexed by team.
const TEAM_NAMES: [&str; 2] = ["SN", "EW"];
/// Track position of a finished piece.
const HOME: u8 = 84;
/// The first home-bound track position (the own end square, reached again).
const HOME_BOUND: u8 = 76;
/// The track position one step short of home.
const SHORT: u8 = 83;
/// The square index standing for the Charkoni in the track table.
const CH: u8 = 96;
/// No square (a grid name that is not a square).
const NONE: u8 = 255;
/// The number of squares.
const SQUARES: usize = 96;
/// Side of the drawing grid.
const GRID_SIDE: usize = 19;

/// The cowrie values in ascending order; a value's index here is its *kind*.
const VALUES: [u8; 7] = [2, 3, 4, 5, 6, 10, 25];
/// The weight (of 64) of each kind (rule 1).
const WEIGHTS: [u32; 7] = [15, 20, 15, 6, 1, 6, 1];
/// The kinds in the order of the chance outcomes: 0 to 6 mouths up (25, 10, 2, 3, 4, 5, 6).
const OUTCOME_KINDS: [u8; 7] = [6, 5, 0, 1, 2, 3, 4];
/// Kinds from this one up are graces (6, 10, 25).
const FIRST_GRACE: u8 = 4;

/// South's castles as track positions; every seat's castles sit at the same positions.
const CASTLE_POS: [u8; 13] = [8, 12, 21, 25, 29, 38, 42, 46, 55, 59, 63, 72, 76];

/// South's track: the grid coordinates (file index, rank − 1) of `pos` (section 2). Pos 0 and
/// 84 give the centre of the Charkoni.
const fn south_xy(p: u8) -> (u8, u8) {
    match p {
        1..=7 => (9, 8 - p),
        8 | 76 => (9, 0),
        9..=16 => (10, p - 9),
        17..=24 => (11 + p - 17, 8),
        25 => (18, 9),
        26..=33 => (18 - (p - 26), 10),
        34..=41 => (10, 11 + p - 34),
        42 => (9, 18),
        43..=50 => (8, 18 - (p - 43)),
        51..=58 => (7 - (p - 51), 10),
        59 => (0, 9),
        60..=67 => (p - 60, 8),
        68..=75 => (8, 7 - (p - 68)),
        77..=83 => (9, p - 76),
        _ => (9, 9),
    }
}

/// Turns South's coordinates about the centre by 90° anticlockwise `r` times (section 2).
const fn rotate(r: usize, x: u8, y: u8) -> (u8, u8) {
    match r {
        0 => (x, y),
        1 => (18 - y, x),
        2 => (18 - x, 18 - y),
        _ => (y, 18 - x),
    }
}

const fn in_charkoni(x: usize, y: usize) -> bool {
    x >= 8 && x <= 10 && y >= 8 && y <= 10
}

const fn in_cross(x: usize, y: usize) -> bool {
    (x >= 8 && x <= 10) || (y >= 8 && y <= 10)
}

/// Grid cell (rank − 1) · 19 + file → square index, [`CH`] or [`NONE`].
const GRID: [u8; GRID_SIDE * GRID_SIDE] = {
    let mut grid = [NONE; GRID_SIDE * GRID_SIDE];
    let mut n = 0u8;
    let mut y = 0;
    while y < GRID_SIDE {
        let mut x = 0;
        while x < GRID_SIDE {
            if in_charkoni(x, y) {
                grid[y * GRID_SIDE + x] = CH;
            } else if in_cross(x, y) {
                grid[y * GRID_SIDE + x] = n;
                n += 1;
            }
            x += 1;
        }
        y += 1;
    }
    assert!(n as usize == SQUARES);
    grid
};

/// Square index → (file index, rank − 1).
const SQUARE_XY: [(u8, u8); SQUARES] = {
    let mut xy = [(0, 0); SQUARES];
    let mut i = 0;
    while i < GRID.len() {
        let s = GRID[i];
        if (s as usize) < SQUARES {
            xy[s as usize] = ((i % GRID_SIDE) as u8, (i / GRID_SIDE) as u8);
        }
        i += 1;
    }
    xy
};

/// (seat, pos) → square index, or [`CH`] for pos 0 and 84.
const TRACK: [[u8; 85]; 4] = {
    let mut track = [[CH; 85]; 4];
    let mut r = 0;
    while r < 4 {
        let mut p = 1u8;
        while p < HOME {
            let (sx, sy) = south_xy(p);
            let (x, y) = rotate(r, sx, sy);
            track[r][p as usize] = GRID[y as usize * GRID_SIDE + x as usize];
            p += 1;
        }
        r += 1;
    }
    track
};

/// (seat, square) → the outbound pos (1–75) of that square on the seat's track, 0 if none.
const OUT_POS: [[u8; SQUARES]; 4] = {
    let mut table = [[0; SQUARES]; 4];
    let mut r = 0;
    while r < 4 {
        let mut p = 1u8;
        while p < HOME_BOUND {
            table[r][TRACK[r][p as usize] as usize] = p;
            p += 1;
        }
        r += 1;
    }
    table
};

/// (seat, square) → the home-bound pos (76–83) of that square on the seat's track, 0 if none.
const HOME_POS: [[u8; SQUARES]; 4] = {
    let mut table = [[0; SQUARES]; 4];
    let mut r = 0;
    while r < 4 {
        let mut p = HOME_BOUND;
        while p < HOME {
            table[r][TRACK[r][p as usize] as usize] = p;
            p += 1;
        }
        r += 1;
    }
    table
};

/// Square index → castle (the Charkoni entry [`CH`] is not one).
const CASTLE: [bool; SQUARES + 1] = {
    let mut castle = [false; SQUARES + 1];
    let mut i = 0;
    while i < CASTLE_POS.len() {
        castle[TRACK[0][CASTLE_POS[i] as usize] as usize] = true;
        i += 1;
    }
    castle
};

/// Sorts four track positions ascending.
#[inline]
fn sort4(a: &mut [u8; 4]) {
    let mut swap = |i: usize, j: usize| {
        if a[i] > a[j] {
            a.swap(i, j);
        }
    };
    swap(0, 1);
    swap(2, 3);
    swap(0, 2);
    swap(1, 3);
    swap(1, 2);
}

fn seat_name(seat: Seat) -> &'static str {
    SEAT_NAMES[usize::from(seat.0 & 3)]
}

fn team_name(team: Team) -> &'static str {
    TEAM_NAMES[usize::from(team.0 & 1)]
}

fn plural(n: u8, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

/// A square of the cross (section 2): `a10`, `j6`, `p11`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at a file (0 = `a`) and rank (1 to 19), if that grid name is a square.
    pub fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file >= 19 || !(1..=19).contains(&rank) {
            return None;
        }
        let s = GRID[usize::from(rank - 1) * GRID_SIDE + usize::from(file)];
        (usize::from(s) < SQUARES).then_some(Square(s))
    }

    /// The square where `seat`'s piece at track position `pos` stands; `None` for pos 0 and 84
    /// (the Charkoni) and for positions beyond 84.
    pub fn of(seat: Seat, pos: u8) -> Option<Square> {
        let s = *TRACK.get(usize::from(seat.0))?.get(usize::from(pos))?;
        (usize::from(s) < SQUARES).then_some(Square(s))
    }

    /// The file index, 0 for `a` to 18 for `s`.
    pub fn file(self) -> u8 {
        SQUARE_XY[usize::from(self.0)].0
    }

    /// The rank, 1 to 19.
    pub fn rank(self) -> u8 {
        SQUARE_XY[usize::from(self.0)].1 + 1
    }

    /// Whether the square is one of the twelve castles.
    pub fn is_castle(self) -> bool {
        CASTLE[usize::from(self.0)]
    }

    /// Every square, in rank-then-file order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.file()), self.rank())
    }
}

/// What a typed cell name turned out to be.
enum CellName {
    /// A square.
    Square(Square),
    /// A grid name of the Charkoni (`j10`) or `ch`.
    Charkoni,
    /// A grid name (or something like one) that is not on the board.
    Missing,
}

/// Reads a lower-case cell name: a letter and digits.
fn read_cell(text: &str) -> CellName {
    let bytes = text.as_bytes();
    let (Some(&letter), Some(digits)) = (bytes.first(), text.get(1..)) else {
        return CellName::Missing;
    };
    if text == "ch" {
        return CellName::Charkoni;
    }
    if !letter.is_ascii_lowercase()
        || digits.is_empty()
        || digits.len() > 2
        || digits.starts_with('0')
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return CellName::Missing;
    }
    let rank = digits.bytes().fold(0u8, |n, b| n * 10 + (b - b'0'));
    let file = letter - b'a';
    if file >= 19 || !(1..=19).contains(&rank) {
        return CellName::Missing;
    }
    match GRID[usize::from(rank - 1) * GRID_SIDE + usize::from(file)] {
        CH => CellName::Charkoni,
        NONE => CellName::Missing,
        s => CellName::Square(Square(s)),
    }
}

impl FromStr for Square {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match read_cell(s) {
            CellName::Square(square) if square.to_string() == s => Ok(square),
            _ => Err(NotationError::new(s, NotationProblem::PachisiSquare)),
        }
    }
}

/// One throw of the six cowries (rule 1): 25, 10, 2, 3, 4, 5 or 6. Written `roll:<value>`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Roll(u8);

impl Roll {
    /// Every outcome in the order of the chance list (0 to 6 mouths up).
    pub const ALL: [Roll; 7] = [
        Roll(OUTCOME_KINDS[0]),
        Roll(OUTCOME_KINDS[1]),
        Roll(OUTCOME_KINDS[2]),
        Roll(OUTCOME_KINDS[3]),
        Roll(OUTCOME_KINDS[4]),
        Roll(OUTCOME_KINDS[5]),
        Roll(OUTCOME_KINDS[6]),
    ];

    /// The throw with this value, if it is a cowrie value.
    pub fn from_value(value: u32) -> Option<Roll> {
        VALUES
            .iter()
            .position(|v| u32::from(*v) == value)
            .map(|kind| Roll(kind as u8))
    }

    /// The value: the number of squares it moves.
    pub fn value(self) -> u8 {
        VALUES[usize::from(self.0)]
    }

    /// The weight of this outcome, of 64.
    pub fn weight(self) -> u32 {
        WEIGHTS[usize::from(self.0)]
    }

    /// Whether this is a grace (6, 10 or 25): it throws again, enters a piece and finishes a
    /// piece from pos 83.
    pub fn is_grace(self) -> bool {
        self.0 >= FIRST_GRACE
    }

    fn kind(self) -> usize {
        usize::from(self.0)
    }
}

impl fmt::Debug for Roll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Roll({})", self.value())
    }
}

impl Display for Roll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.value())
    }
}

impl FromStr for Roll {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        VALUES
            .iter()
            .position(|v| v.to_string() == s)
            .map(|kind| Roll(kind as u8))
            .ok_or_else(|| NotationError::new(s, NotationProblem::PachisiRoll))
    }
}

/// The values thrown in a turn and not yet used: a multiset of cowrie values.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Throws {
    /// How many of each kind (value order 2, 3, 4, 5, 6, 10, 25).
    counts: [u8; 7],
}

impl Throws {
    /// Whether no value is left.
    pub fn is_empty(self) -> bool {
        self.counts == [0; 7]
    }

    /// How many times `roll` is among the values.
    pub fn count(self, roll: Roll) -> u8 {
        self.counts[roll.kind()]
    }

    /// The values in ascending order, each as often as it was thrown.
    pub fn iter(self) -> impl Iterator<Item = Roll> {
        (0..7u8).flat_map(move |kind| {
            std::iter::repeat_n(Roll(kind), usize::from(self.counts[usize::from(kind)]))
        })
    }

    /// The distinct values in ascending order.
    pub fn distinct(self) -> impl Iterator<Item = Roll> {
        (0..7u8)
            .filter(move |kind| self.counts[usize::from(*kind)] > 0)
            .map(Roll)
    }

    fn add(&mut self, roll: Roll) {
        let n = &mut self.counts[roll.kind()];
        // 255 graces in a row have probability 8^-255; saturating keeps the state consistent.
        *n = n.saturating_add(1);
    }

    fn take(&mut self, roll: Roll) {
        let n = &mut self.counts[roll.kind()];
        *n = n.saturating_sub(1);
    }

    fn joined(self, separator: &str) -> String {
        self.iter()
            .map(|r| r.to_string())
            .collect::<Vec<_>>()
            .join(separator)
    }
}

impl fmt::Debug for Throws {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.iter().map(Roll::value))
            .finish()
    }
}

impl Display for Throws {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.joined(", "))
    }
}

/// A Pachisi move in canonical notation (section 8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// `throw`: start throwing the cowries (phase `decide`).
    Throw,
    /// `skip`: decline to throw; the turn passes (phase `decide`).
    Skip,
    /// `done`: give up the remaining values; the turn passes (phase `allocate`).
    Done,
    /// `enter+<v>`: enter a piece from the Charkoni to pos v.
    Enter {
        /// The value used.
        value: Roll,
    },
    /// `<square>[h][x<k>]+<v>`: move one piece, or a group of `count` pieces, on `square`.
    Advance {
        /// Where the pieces stand.
        square: Square,
        /// Whether the home-bound pieces are meant (written `h`, only where the seat also has
        /// outbound pieces on the square).
        home: bool,
        /// How many pieces move together, 1 to 4 (written `x<k>` from 2 on).
        count: u8,
        /// The value used.
        value: Roll,
    },
}

impl Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Throw => f.write_str("throw"),
            Move::Skip => f.write_str("skip"),
            Move::Done => f.write_str("done"),
            Move::Enter { value } => write!(f, "enter+{value}"),
            Move::Advance {
                square,
                home,
                count,
                value,
            } => {
                write!(f, "{square}")?;
                if home {
                    f.write_str("h")?;
                }
                if count >= 2 {
                    write!(f, "x{count}")?;
                }
                write!(f, "+{value}")
            }
        }
    }
}

impl FromStr for Move {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || NotationError::new(s, NotationProblem::PachisiMove);
        let mv = match s {
            "throw" => Move::Throw,
            "skip" => Move::Skip,
            "done" => Move::Done,
            _ => match read_typed(s, s) {
                Ok(Typed {
                    piece: Piece::Enter,
                    value: Some(value),
                }) => Move::Enter { value },
                Ok(Typed {
                    piece:
                        Piece::On {
                            square,
                            home,
                            count: count @ 1..=4,
                        },
                    value: Some(value),
                }) => Move::Advance {
                    square,
                    home,
                    count: count as u8,
                    value,
                },
                _ => return Err(bad()),
            },
        };
        if mv.to_string() == s {
            Ok(mv)
        } else {
            Err(bad())
        }
    }
}

/// What the typed text names to move.
enum Piece {
    /// A piece from the Charkoni.
    Enter,
    /// Pieces on a square.
    On {
        square: Square,
        /// `h` was given.
        home: bool,
        /// The number given with `x`, 1 without (saturating).
        count: u32,
    },
}

/// A typed piece action: what moves, and the value if given.
struct Typed {
    piece: Piece,
    value: Option<Roll>,
}

fn unreadable(input: &str) -> MoveError {
    MoveError::Unreadable {
        input: input.to_string(),
        game: GameId::Pachisi,
    }
}

/// Reads a lower-cased piece action leniently: `enter+6`, `enter 6`, `k2+3`, `k2 3`, `c9x2 4`,
/// `j6h+2`; the value may be left out. `input` is the original text (same byte positions) for
/// error messages.
fn read_typed(lower: &str, input: &str) -> Result<Typed, MoveError> {
    let b = lower.as_bytes();
    let mut i;
    let piece = if lower.starts_with("enter") {
        i = 5;
        Piece::Enter
    } else {
        let letters = b.iter().take_while(|c| c.is_ascii_lowercase()).count();
        let digits = b[letters..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        i = letters + digits;
        let (cell, typed_cell) = (&lower[..i], &input[..i]);
        let square = match read_cell(cell) {
            CellName::Square(square) => square,
            CellName::Charkoni => {
                return Err(MoveError::Illegal {
                    input: input.to_string(),
                    reason: Box::new(IllegalReason::CharkoniIsNotASquare {
                        cell: typed_cell.to_string(),
                    }),
                });
            }
            CellName::Missing if letters == 1 && digits > 0 => {
                return Err(MoveError::NoSuchCell(typed_cell.to_string()));
            }
            CellName::Missing => return Err(unreadable(input)),
        };
        let skip_spaces = |i: &mut usize| {
            while *i < b.len() && b[*i] == b' ' {
                *i += 1;
            }
        };
        skip_spaces(&mut i);
        let home = b.get(i) == Some(&b'h');
        if home {
            i += 1;
            skip_spaces(&mut i);
        }
        let mut count = 1u32;
        if b.get(i) == Some(&b'x') {
            i += 1;
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            if start == i {
                return Err(unreadable(input));
            }
            count = lower[start..i].bytes().fold(0u32, |n, d| {
                n.saturating_mul(10).saturating_add(u32::from(d - b'0'))
            });
        }
        Piece::On {
            square,
            home,
            count,
        }
    };
    while i < b.len() && (b[i] == b'+' || b[i].is_ascii_whitespace()) {
        i += 1;
    }
    let start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    if i < b.len() {
        return Err(unreadable(input));
    }
    let value = if start == i {
        None
    } else {
        let digits = &lower[start..i];
        let number = digits.bytes().fold(0u32, |n, d| {
            n.saturating_mul(10).saturating_add(u32::from(d - b'0'))
        });
        match Roll::from_value(number) {
            Some(roll) => Some(roll),
            None => {
                return Err(MoveError::Illegal {
                    input: input.to_string(),
                    reason: Box::new(IllegalReason::NotACowrieValue {
                        value: input[start..i].to_string(),
                    }),
                });
            }
        }
    };
    Ok(Typed { piece, value })
}

/// What a Pachisi action did. Events are plain data (no heap), so playouts stay fast; their
/// `Display` narrates them in English.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// The seat declined to throw (`skip`).
    Skipped {
        /// Who skipped.
        seat: Seat,
    },
    /// The seat threw the cowries; a grace throws again.
    Thrown {
        /// Who threw.
        seat: Seat,
        /// The value.
        roll: Roll,
    },
    /// A piece entered from the Charkoni.
    Entered {
        /// Whose piece.
        seat: Seat,
        /// The value used.
        roll: Roll,
        /// The track position reached.
        to: u8,
    },
    /// One piece or a group moved along the track (to 84: finished).
    Moved {
        /// Whose pieces.
        seat: Seat,
        /// The track position left.
        from: u8,
        /// The track position reached.
        to: u8,
        /// How many pieces moved.
        count: u8,
        /// The value used.
        roll: Roll,
    },
    /// Opposing pieces were captured and sent back to their Charkoni.
    Captured {
        /// Who captured.
        seat: Seat,
        /// Whose pieces were captured.
        victim: Seat,
        /// How many of the victim's pieces.
        count: u8,
        /// Where.
        square: Square,
    },
    /// All four of the seat's pieces are home; it takes no more turns.
    SeatFinished {
        /// The seat.
        seat: Seat,
    },
    /// No action could use these values: they are lost and the turn passes.
    ValuesLost {
        /// Whose values.
        seat: Seat,
        /// The values lost.
        values: Throws,
    },
    /// The seat gave up these values (`done`); the turn passes.
    GaveUp {
        /// Who gave up.
        seat: Seat,
        /// The values given up.
        values: Throws,
    },
    /// The team brought all eight pieces home and won.
    Won {
        /// The winners.
        team: Team,
    },
}

/// The name of a track position for narration: `ch`, `home` or the square.
struct PosName(Seat, u8);

/// Where a seat's piece at track position `pos` stands, as the narration writes it: its square
/// (`j6`), `ch` (the Charkoni before entering) or `home`.
pub fn position_name(seat: Seat, pos: u8) -> String {
    PosName(seat, pos).to_string()
}

/// Whether a move from track position `from` to `to` finishes the piece (into the Charkoni).
pub fn finishes(to: u8) -> bool {
    to == HOME
}

/// Whether a move from `from` to `to` makes the piece home-bound (it has gone round).
pub fn becomes_home_bound(from: u8, to: u8) -> bool {
    from < HOME_BOUND && to >= HOME_BOUND && to != HOME
}

impl Display for PosName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.1, Square::of(self.0, self.1)) {
            (HOME, _) => f.write_str("home"),
            (_, Some(square)) => write!(f, "{square}"),
            _ => f.write_str("ch"),
        }
    }
}

impl Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Event::Skipped { seat } => write!(f, "{} declines to throw", seat_name(seat)),
            Event::Thrown { seat, roll } if roll.is_grace() => {
                write!(
                    f,
                    "{} throws {roll}, a grace: throws again",
                    seat_name(seat)
                )
            }
            Event::Thrown { seat, roll } => write!(f, "{} throws {roll}", seat_name(seat)),
            Event::Entered { seat, roll, to } => write!(
                f,
                "{} enters a piece with {roll} to {}",
                seat_name(seat),
                PosName(seat, to)
            ),
            Event::Moved {
                seat,
                from,
                to,
                count,
                roll,
            } => {
                write!(f, "{} moves ", seat_name(seat))?;
                if count > 1 {
                    write!(f, "{count} pieces from ")?;
                }
                write!(f, "{}", PosName(seat, from))?;
                if to == HOME {
                    write!(f, " into the Charkoni with {roll}: finished")
                } else {
                    write!(f, " to {} with {roll}", PosName(seat, to))?;
                    if from < HOME_BOUND && to >= HOME_BOUND {
                        f.write_str(", now home-bound")?;
                    }
                    Ok(())
                }
            }
            Event::Captured {
                seat,
                victim,
                count,
                square,
            } => write!(
                f,
                "{} captures {count} {} of {} on {square}: back to the Charkoni",
                seat_name(seat),
                plural(count, "piece", "pieces"),
                seat_name(victim)
            ),
            Event::SeatFinished { seat } => {
                write!(f, "{} has brought all four pieces home", seat_name(seat))
            }
            Event::ValuesLost { seat, values } => write!(
                f,
                "{} cannot use {values}: lost, the turn passes",
                seat_name(seat)
            ),
            Event::GaveUp { seat, values } => {
                write!(f, "{} gives up {values}", seat_name(seat))
            }
            Event::Won { team } => write!(f, "{} win: all eight pieces are home", team_name(team)),
        }
    }
}

/// The options of Pachisi: there are none (section 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Options;

/// Where the turn stands (section 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Phase {
    /// The seat chooses `throw` or `skip`.
    Decide,
    /// The seat throws the cowries (a chance node); `throws` holds the graces so far.
    Throw,
    /// The seat uses the values in `throws`.
    Allocate,
    /// The team has won; the turn has passed on as usual.
    Won(Team),
}

/// Where a group of pieces arriving on a target would stand (rule 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Landing {
    /// Beyond pos 84.
    Overshoot,
    /// Pos 84: finished.
    Home,
    /// A square with `opposing` pieces of the other team (0: free).
    On { square: u8, opposing: u8 },
}

/// A Pachisi position.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Pachisi {
    /// Each seat's four track positions, sorted ascending (S, E, N, W).
    pos: [[u8; 4]; 4],
    /// The values thrown this turn and not yet used (empty in `decide` and when won).
    throws: Throws,
    /// The seat to act (after the winning action: the next seat, as the turn passes).
    turn: u8,
    /// Bit per seat: has entered a piece (used the first-entry privilege).
    entered: u8,
    phase: Phase,
}

impl Pachisi {
    /// The four track positions of `seat`, ascending (0 in the Charkoni, 84 finished).
    pub fn positions(&self, seat: Seat) -> [u8; 4] {
        self.pos[usize::from(seat.0 & 3)]
    }

    /// The values thrown this turn and not yet used.
    pub fn throws(&self) -> Throws {
        self.throws
    }

    /// Whether `seat` has entered a piece (so later entries need a grace, rule 5).
    pub fn has_entered(&self, seat: Seat) -> bool {
        self.entered >> (seat.0 & 3) & 1 == 1
    }

    /// The seat whose turn it is, in every phase: the seat deciding, throwing (at a chance
    /// node, where [`Game::status`] names no seat) or using its values. After the winning
    /// action it is the next seat, as the turn passes as usual (section 6).
    pub fn turn(&self) -> Seat {
        Seat(self.turn)
    }

    fn finished(&self, seat: usize) -> bool {
        self.pos[seat][0] == HOME
    }

    fn team_home(&self, team: usize) -> bool {
        self.finished(team) && self.finished(team + 2)
    }

    /// How many of `seat`'s pieces stand at `pos`.
    fn count_at(&self, seat: usize, pos: u8) -> u8 {
        self.pos[seat].iter().map(|p| u8::from(*p == pos)).sum()
    }

    /// The number of pieces of the team opposing `seat` on square `sq`.
    #[inline]
    fn opposing_on(&self, seat: usize, sq: u8) -> u8 {
        let mut d = 0;
        for o in [(seat + 1) & 3, (seat + 3) & 3] {
            let track = &TRACK[o];
            for p in self.pos[o] {
                d += u8::from(track[usize::from(p)] == sq);
            }
        }
        d
    }

    /// The target pos of pieces at `from` moved with `roll` (rules 7, 10 and 11); may exceed 84.
    #[inline]
    fn target(from: u8, roll: Roll) -> u8 {
        if from == SHORT && roll.is_grace() {
            HOME
        } else {
            from + roll.value()
        }
    }

    /// Where `seat`'s pieces at `from` land with `roll` (from 0: entering).
    #[inline]
    fn landing(&self, seat: usize, from: u8, roll: Roll) -> Landing {
        match Self::target(from, roll) {
            HOME => Landing::Home,
            t if t > HOME => Landing::Overshoot,
            t => {
                let square = TRACK[seat][usize::from(t)];
                Landing::On {
                    square,
                    opposing: self.opposing_on(seat, square),
                }
            }
        }
    }

    /// Whether `k` arriving pieces may land (rule 7).
    #[inline]
    fn may_land(landing: Landing, k: u8) -> bool {
        match landing {
            Landing::Overshoot => false,
            Landing::Home => true,
            Landing::On { square, opposing } => {
                opposing == 0 || (!CASTLE[usize::from(square)] && k >= opposing)
            }
        }
    }

    /// Visits every legal piece action of the seat to act (phase `allocate`), without `done`.
    #[inline]
    fn piece_actions(&self, mut visit: impl FnMut(Move) -> ControlFlow<()>) -> ControlFlow<()> {
        let s = usize::from(self.turn);
        let ps = self.pos[s];
        let may_enter_any = self.entered >> s & 1 == 0;
        for kind in 0..7u8 {
            if self.throws.counts[usize::from(kind)] == 0 {
                continue;
            }
            let roll = Roll(kind);
            if ps[0] == 0
                && (may_enter_any || roll.is_grace())
                && Self::may_land(self.landing(s, 0, roll), 1)
            {
                visit(Move::Enter { value: roll })?;
            }
            let mut i = 0;
            while i < 4 {
                let p = ps[i];
                let mut j = i + 1;
                while j < 4 && ps[j] == p {
                    j += 1;
                }
                if p != 0 && p != HOME {
                    let landing = self.landing(s, p, roll);
                    if landing != Landing::Overshoot {
                        let square = Square(TRACK[s][usize::from(p)]);
                        let home = p >= HOME_BOUND && ps.contains(&(HOME - p));
                        for k in 1..=(j - i) as u8 {
                            if Self::may_land(landing, k) {
                                visit(Move::Advance {
                                    square,
                                    home,
                                    count: k,
                                    value: roll,
                                })?;
                            }
                        }
                    }
                }
                i = j;
            }
        }
        ControlFlow::Continue(())
    }

    /// Whether any remaining value has a legal use.
    fn any_usable(&self) -> bool {
        self.piece_actions(|_| ControlFlow::Break(())).is_break()
    }

    /// The track position of the seat's pieces a move names on `square`, if it has any there.
    fn resolve(&self, seat: usize, square: Square, home: bool) -> Option<u8> {
        let sq = usize::from(square.0);
        let out = OUT_POS[seat][sq];
        let back = HOME_POS[seat][sq];
        let has = |p: u8| p != 0 && self.pos[seat].contains(&p);
        if home {
            has(back).then_some(back)
        } else if has(out) {
            Some(out)
        } else {
            has(back).then_some(back)
        }
    }

    /// Passes the turn clockwise to the next seat that has not finished.
    fn pass_turn(&mut self) {
        self.throws = Throws::default();
        let mut next = usize::from(self.turn);
        for _ in 0..4 {
            next = (next + 3) & 3;
            if !self.finished(next) {
                break;
            }
        }
        self.turn = next as u8;
        if !matches!(self.phase, Phase::Won(_)) {
            self.phase = Phase::Decide;
        }
    }

    /// In phase `allocate`: passes the turn when no value is left or none can be used (D16).
    fn settle(&mut self, events: &mut Vec<Event>) {
        if self.throws.is_empty() {
            self.pass_turn();
        } else if !self.any_usable() {
            events.push(Event::ValuesLost {
                seat: Seat(self.turn),
                values: self.throws,
            });
            self.pass_turn();
        }
    }

    /// Moves `k` of `seat`'s pieces from `from` to `target`, capturing what stands there.
    fn advance(&mut self, seat: usize, from: u8, k: u8, target: u8, events: &mut Vec<Event>) {
        let mut left = k;
        for p in &mut self.pos[seat] {
            if left > 0 && *p == from {
                *p = target;
                left -= 1;
            }
        }
        sort4(&mut self.pos[seat]);
        let sq = TRACK[seat][usize::from(target)];
        if usize::from(sq) < SQUARES {
            for o in [(seat + 1) & 3, (seat + 3) & 3] {
                let mut count = 0;
                for i in 0..4 {
                    let p = self.pos[o][i];
                    if TRACK[o][usize::from(p)] == sq {
                        self.pos[o][i] = 0;
                        count += 1;
                    }
                }
                if count > 0 {
                    sort4(&mut self.pos[o]);
                    events.push(Event::Captured {
                        seat: Seat(seat as u8),
                        victim: Seat(o as u8),
                        count,
                        square: Square(sq),
                    });
                }
            }
        }
    }

    /// Describes what stands on a square, for error messages.
    fn describe(&self, sq: Square) -> CellContents {
        let mut groups = Vec::new();
        for (seat, (pos, track)) in Compass::ALL.iter().zip(self.pos.iter().zip(&TRACK)) {
            let n: u8 = pos
                .iter()
                .map(|p| u8::from(track[usize::from(*p)] == sq.0))
                .sum();
            if n > 0 {
                groups.push((*seat, n));
            }
        }
        let holds = if groups.is_empty() {
            Holding::Empty
        } else {
            Holding::Seats(groups)
        };
        CellContents::new(sq, holds)
    }

    /// The seats of the team opposing `seat` that have pieces on `sq`: the next seat after
    /// `seat` first, then the one before it.
    fn opposing_seats(&self, seat: usize, sq: u8) -> Vec<Compass> {
        [(seat + 1) & 3, (seat + 3) & 3]
            .into_iter()
            .filter(|o| {
                self.pos[*o]
                    .iter()
                    .any(|p| TRACK[*o][usize::from(*p)] == sq)
            })
            .map(Compass::of)
            .collect()
    }

    /// The move that uses `roll` on `k` of the seat's pieces at `from` (0: entering), or why it
    /// is illegal.
    fn explain(&self, from: u8, k: u8, roll: Roll) -> Result<Move, IllegalReason> {
        let s = usize::from(self.turn);
        let v = roll.value();
        if from == 0 && self.has_entered(Seat(self.turn)) && !roll.is_grace() {
            return Err(IllegalReason::EnterNeedsGrace { value: v });
        }
        let landing = self.landing(s, from, roll);
        match landing {
            Landing::Overshoot if from == SHORT => {
                return Err(IllegalReason::FinishNeedsGrace {
                    value: v,
                    cell: PosName(Seat(self.turn), from).to_string(),
                });
            }
            Landing::Overshoot => {
                return Err(IllegalReason::MustFinishExactly {
                    value: v,
                    cell: PosName(Seat(self.turn), from).to_string(),
                    pos: from,
                    away: HOME - from,
                });
            }
            Landing::On { square, opposing } if !Self::may_land(landing, k) => {
                let sq = Square(square);
                let who = self.opposing_seats(s, square);
                return Err(if CASTLE[usize::from(square)] {
                    IllegalReason::CastleClosed {
                        square: sq.to_string(),
                        who,
                    }
                } else {
                    IllegalReason::TooFewToCapture {
                        square: sq.to_string(),
                        opposing,
                        who,
                        arriving: k,
                    }
                });
            }
            _ => {}
        }
        if from == 0 {
            return Ok(Move::Enter { value: roll });
        }
        let home = from >= HOME_BOUND && self.pos[s].contains(&(HOME - from));
        Ok(Move::Advance {
            square: Square(TRACK[s][usize::from(from)]),
            home,
            count: k,
            value: roll,
        })
    }

    /// Reads a typed piece action in phase `allocate`, explaining what is wrong.
    fn interpret_piece(&self, typed: &Typed, input: &str) -> Result<Move, MoveError> {
        let s = usize::from(self.turn);
        let illegal = |reason: IllegalReason| MoveError::Illegal {
            input: input.to_string(),
            reason: Box::new(reason),
        };
        let (from, k) = match typed.piece {
            Piece::Enter => {
                if self.pos[s][0] != 0 {
                    return Err(illegal(IllegalReason::NoneWaiting));
                }
                (0, 1)
            }
            Piece::On {
                square,
                home,
                count,
            } => {
                let sq = usize::from(square.0);
                let outbound = OUT_POS[s][sq];
                let back = HOME_POS[s][sq];
                let n_out = if outbound == 0 {
                    0
                } else {
                    self.count_at(s, outbound)
                };
                let n_back = if back == 0 { 0 } else { self.count_at(s, back) };
                let (from, n) = if home {
                    if n_back == 0 {
                        return Err(MoveError::NotYourPiece {
                            cell: square.to_string(),
                            why: NotYours::NoHomeBoundThere(self.describe(square)),
                        });
                    }
                    (back, n_back)
                } else if n_out > 0 {
                    (outbound, n_out)
                } else if n_back > 0 {
                    (back, n_back)
                } else {
                    return Err(MoveError::NotYourPiece {
                        cell: square.to_string(),
                        why: NotYours::NoPieceThere(self.describe(square)),
                    });
                };
                if count == 0 {
                    return Err(illegal(IllegalReason::NoPieces));
                }
                if count > u32::from(n) {
                    return Err(illegal(IllegalReason::NotThatMany {
                        have: n,
                        square: square.to_string(),
                    }));
                }
                (from, count as u8)
            }
        };
        let left: Vec<u8> = self.throws.iter().map(Roll::value).collect();
        match typed.value {
            Some(roll) if self.throws.count(roll) == 0 => {
                Err(illegal(IllegalReason::ValueNotThrown {
                    value: roll.to_string(),
                    left,
                }))
            }
            Some(roll) => self.explain(from, k, roll).map_err(illegal),
            None => {
                let mut found = Vec::new();
                let mut reasons = Vec::new();
                for roll in self.throws.distinct() {
                    match self.explain(from, k, roll) {
                        Ok(mv) => found.push(mv),
                        Err(why) => reasons.push((roll.to_string(), why)),
                    }
                }
                match found[..] {
                    [mv] => Ok(mv),
                    [] if reasons.is_empty() => Err(illegal(IllegalReason::NoValuesLeft)),
                    [] => Err(illegal(IllegalReason::NoValueFits { reasons })),
                    _ => Err(MoveError::Ambiguous {
                        input: input.to_string(),
                        candidates: found.iter().map(ToString::to_string).collect(),
                    }),
                }
            }
        }
    }

    /// Reads one seat's field of a position string: four track positions 0–84.
    fn parse_seat(fields: &Fields<'_>, seat: usize) -> Result<[u8; 4], PositionError> {
        let key = SEAT_NAMES[seat];
        let value = fields.require(key)?;
        let mut ps = [0u8; 4];
        let mut n = 0;
        for item in value.split(',') {
            let p = Some(item)
                .filter(|t| !t.is_empty() && t.len() <= 2 && t.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|t| t.parse::<u8>().ok())
                .filter(|p| *p <= HOME)
                .ok_or_else(|| {
                    // An empty item would make an empty token: name the whole field then.
                    let token = if item.is_empty() {
                        format!("{key}={value}")
                    } else {
                        item.to_string()
                    };
                    PositionError::new(token, PositionProblem::NotATrackPosition(Compass::of(seat)))
                })?;
            if n == 4 {
                return Err(PositionError::new(
                    format!("{key}={value}"),
                    PositionProblem::FourPieces,
                ));
            }
            ps[n] = p;
            n += 1;
        }
        if n != 4 {
            return Err(PositionError::new(
                format!("{key}={value}"),
                PositionProblem::FourPieces,
            ));
        }
        sort4(&mut ps);
        Ok(ps)
    }

    /// Checks that no square holds pieces of both teams (D10).
    fn check_squares(&self) -> Result<(), PositionError> {
        let mut teams = [0u8; SQUARES + 1];
        for s in 0..4 {
            for p in self.pos[s] {
                teams[usize::from(TRACK[s][usize::from(p)])] |= 1 << (s & 1);
            }
        }
        match (0..SQUARES).find(|sq| teams[*sq] == 3) {
            Some(sq) => Err(PositionError::new(
                Square(sq as u8).to_string(),
                PositionProblem::BothTeamsOnSquare,
            )),
            None => Ok(()),
        }
    }
}

impl Game for Pachisi {
    type Move = Move;
    type Roll = Roll;
    type Event = Event;
    type Options = Options;

    const ID: &'static str = "pachisi";
    const NAME: &'static str = "Pachisi";
    const SEATS: &'static [&'static str] = &SEAT_NAMES;
    const TEAMS: &'static [&'static str] = &TEAM_NAMES;

    /// `S` and `N` are team `SN` (0), `E` and `W` team `EW` (1).
    fn team_of(seat: Seat) -> Team {
        Team(seat.0 & 1)
    }

    fn set_option(_options: &mut Options, key: &str, _value: &str) -> Result<(), SetupError> {
        Err(SetupError::UnknownOption {
            game: Self::ID,
            key: key.into(),
            allowed: "",
        })
    }

    fn option_pairs(_options: &Options) -> Vec<(&'static str, String)> {
        Vec::new()
    }

    fn new(_options: &Options) -> Self {
        Pachisi {
            pos: [[0; 4]; 4],
            throws: Throws::default(),
            turn: 0,
            entered: 0,
            phase: Phase::Decide,
        }
    }

    fn from_position(_options: &Options, text: &str) -> Result<Self, PositionError> {
        let fields = Fields::parse(
            text,
            &["turn", "phase", "throws", "S", "E", "N", "W", "entered"],
        )?;
        let turn_text = fields.require("turn")?;
        let turn = SEAT_NAMES
            .iter()
            .position(|n| *n == turn_text)
            .ok_or_else(|| {
                PositionError::new(
                    turn_text,
                    PositionProblem::MustBe {
                        key: "turn",
                        choices: &SEAT_NAMES,
                    },
                )
            })?;
        let phase_text = fields.require("phase")?;
        let phase = match phase_text {
            "decide" => Phase::Decide,
            "throw" => Phase::Throw,
            "allocate" => Phase::Allocate,
            _ => {
                return Err(PositionError::new(
                    phase_text,
                    PositionProblem::MustBe {
                        key: "phase",
                        choices: &["decide", "throw", "allocate"],
                    },
                ));
            }
        };
        let mut throws = Throws::default();
        for item in fields.list("throws") {
            let roll: Roll = item
                .parse()
                .map_err(|_| PositionError::new(item, PositionProblem::NotACowrieValue))?;
            if throws.count(roll) == u8::MAX {
                return Err(PositionError::new(item, PositionProblem::TooManyThrows));
            }
            match phase {
                Phase::Decide => {
                    return Err(PositionError::new(
                        format!("throws={}", fields.get("throws").unwrap_or_default()),
                        PositionProblem::ValuesBeforeThrowing,
                    ));
                }
                Phase::Throw if !roll.is_grace() => {
                    return Err(PositionError::new(
                        item,
                        PositionProblem::NotAGraceWhileThrowing,
                    ));
                }
                Phase::Allocate if !roll.is_grace() && throws.iter().any(|r| !r.is_grace()) => {
                    return Err(PositionError::new(item, PositionProblem::TwoNonGraces));
                }
                _ => {}
            }
            throws.add(roll);
        }
        if phase == Phase::Allocate && throws.is_empty() {
            return Err(PositionError::new(
                "throws",
                PositionProblem::NothingToAllocate,
            ));
        }
        let mut game = Pachisi {
            pos: [[0; 4]; 4],
            throws,
            turn: turn as u8,
            entered: 0,
            phase,
        };
        for seat in 0..4 {
            game.pos[seat] = Self::parse_seat(&fields, seat)?;
        }
        for item in fields.list("entered") {
            let seat = SEAT_NAMES
                .iter()
                .position(|n| *n == item)
                .ok_or_else(|| PositionError::new(item, PositionProblem::NotASeat))?;
            if game.entered >> seat & 1 == 1 {
                return Err(PositionError::new(item, PositionProblem::SeatListedTwice));
            }
            game.entered |= 1 << seat;
        }
        for (seat, name) in SEAT_NAMES.iter().enumerate() {
            if game.pos[seat][3] > 0 && game.entered >> seat & 1 == 0 {
                return Err(PositionError::new(
                    format!("{name}={}", fields.get(name).unwrap_or_default()),
                    PositionProblem::MustBeEntered(Compass::of(seat)),
                ));
            }
        }
        game.check_squares()?;
        let won: Vec<usize> = (0..2).filter(|t| game.team_home(*t)).collect();
        match won[..] {
            [] if game.finished(turn) => Err(PositionError::new(
                format!("turn={turn_text}"),
                PositionProblem::SeatFinished(Compass::of(turn)),
            )),
            [] => Ok(game),
            [team] => {
                game.phase = Phase::Won(Team(team as u8));
                game.throws = Throws::default();
                Ok(game)
            }
            _ => Err(PositionError::new(
                text.trim(),
                PositionProblem::BothTeamsHome,
            )),
        }
    }

    fn position(&self) -> String {
        let phase = match self.phase {
            Phase::Decide | Phase::Won(_) => "decide",
            Phase::Throw => "throw",
            Phase::Allocate => "allocate",
        };
        let list = |ps: [u8; 4]| {
            ps.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(",")
        };
        let entered = (0..4)
            .filter(|s| self.entered >> s & 1 == 1)
            .map(|s| SEAT_NAMES[s])
            .collect::<Vec<_>>()
            .join(",");
        join_fields([
            ("turn", SEAT_NAMES[usize::from(self.turn)].to_string()),
            ("phase", phase.to_string()),
            ("throws", self.throws.joined(",")),
            ("S", list(self.pos[0])),
            ("E", list(self.pos[1])),
            ("N", list(self.pos[2])),
            ("W", list(self.pos[3])),
            ("entered", entered),
        ])
    }

    fn drawing(&self) -> String {
        let mut count = [0u8; SQUARES + 1];
        let mut letter = [' '; SQUARES + 1];
        for s in 0..4 {
            for p in self.pos[s] {
                let sq = usize::from(TRACK[s][usize::from(p)]);
                count[sq] += 1;
                letter[sq] = if p >= HOME_BOUND {
                    SEAT_CHARS[s].to_ascii_lowercase()
                } else {
                    SEAT_CHARS[s]
                };
            }
        }
        let letters: String = (0..GRID_SIDE as u8)
            .map(|f| format!(" {}", char::from(b'a' + f)))
            .collect();
        let mut out = format!("   {letters}\n");
        for y in (0..GRID_SIDE).rev() {
            out.push_str(&format!("{:>2} ", y + 1));
            for x in 0..GRID_SIDE {
                let ch = match GRID[y * GRID_SIDE + x] {
                    NONE => ' ',
                    CH => '#',
                    sq => match count[usize::from(sq)] {
                        0 if CASTLE[usize::from(sq)] => 'x',
                        0 => '.',
                        1 => letter[usize::from(sq)],
                        n => char::from(b'0' + n.min(9)),
                    },
                };
                out.push(' ');
                out.push(ch);
            }
            out.push_str(&format!("  {}\n", y + 1));
        }
        out.push_str(&format!("   {letters}\n"));
        for (s, name) in SEAT_NAMES.iter().enumerate() {
            let pieces: Vec<String> = self.pos[s]
                .iter()
                .map(|p| format!("{p} {}", PosName(Seat(s as u8), *p)))
                .collect();
            out.push_str(&format!("{name}: {}\n", pieces.join(", ")));
        }
        if !self.throws.is_empty() {
            out.push_str(&format!("throws {}\n", self.throws.joined(" ")));
        }
        out
    }

    fn options(&self) -> &Options {
        &Options
    }

    fn status(&self) -> Status {
        match self.phase {
            Phase::Decide | Phase::Allocate => Status::Decision(Seat(self.turn)),
            Phase::Throw => Status::Chance,
            Phase::Won(team) => Status::Done(Outcome::Winner(team)),
        }
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        match self.phase {
            Phase::Decide => out.extend([Move::Throw, Move::Skip]),
            Phase::Allocate => {
                let _ = self.piece_actions(|mv| {
                    out.push(mv);
                    ControlFlow::Continue(())
                });
                out.push(Move::Done);
            }
            Phase::Throw | Phase::Won(_) => {}
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(Roll, u32)>) {
        if self.phase == Phase::Throw {
            out.extend(Roll::ALL.iter().map(|r| (*r, r.weight())));
        }
    }

    fn apply_move_unchecked(&mut self, mv: &Move, events: &mut Vec<Event>) {
        let s = usize::from(self.turn);
        let seat = Seat(self.turn);
        let (roll, from, k) = match *mv {
            Move::Throw => {
                self.phase = Phase::Throw;
                return;
            }
            Move::Skip => {
                events.push(Event::Skipped { seat });
                self.pass_turn();
                return;
            }
            Move::Done => {
                if !self.throws.is_empty() {
                    events.push(Event::GaveUp {
                        seat,
                        values: self.throws,
                    });
                }
                self.pass_turn();
                return;
            }
            Move::Enter { value } => (value, 0, 1),
            Move::Advance {
                square,
                home,
                count,
                value,
            } => match self.resolve(s, square, home) {
                Some(from) => (value, from, count),
                None => return,
            },
        };
        self.throws.take(roll);
        let target = Self::target(from, roll);
        if from == 0 {
            self.entered |= 1 << s;
            events.push(Event::Entered {
                seat,
                roll,
                to: target,
            });
        } else {
            events.push(Event::Moved {
                seat,
                from,
                to: target,
                count: k,
                roll,
            });
        }
        self.advance(s, from, k, target, events);
        if target == HOME && self.finished(s) {
            events.push(Event::SeatFinished { seat });
            let team = s & 1;
            if self.team_home(team) {
                self.phase = Phase::Won(Team(team as u8));
                events.push(Event::Won {
                    team: Team(team as u8),
                });
                self.pass_turn();
                return;
            }
        }
        self.settle(events);
    }

    fn apply_roll_unchecked(&mut self, roll: &Roll, events: &mut Vec<Event>) {
        let seat = Seat(self.turn);
        self.throws.add(*roll);
        events.push(Event::Thrown { seat, roll: *roll });
        if !roll.is_grace() {
            self.phase = Phase::Allocate;
            self.settle(events);
        }
    }

    fn interpret(&self, text: &str) -> Result<Move, MoveError> {
        let input = text.trim();
        match self.phase {
            Phase::Won(team) => {
                return Err(MoveError::NoMoveNow(NoMoveReason::TeamWon {
                    team: team_name(team),
                }));
            }
            Phase::Throw => {
                return Err(MoveError::NoMoveNow(NoMoveReason::CowriesBeingThrown));
            }
            Phase::Decide | Phase::Allocate => {}
        }
        let lower = input.to_ascii_lowercase();
        let illegal = |reason: IllegalReason| MoveError::Illegal {
            input: input.to_string(),
            reason: Box::new(reason),
        };
        let deciding = self.phase == Phase::Decide;
        match lower.as_str() {
            "throw" if deciding => return Ok(Move::Throw),
            "skip" if deciding => return Ok(Move::Skip),
            "done" if !deciding => return Ok(Move::Done),
            "throw" => {
                return Err(illegal(IllegalReason::AlreadyThrown));
            }
            "skip" => {
                return Err(illegal(IllegalReason::SkipOnlyBeforeThrowing));
            }
            "done" => {
                return Err(illegal(IllegalReason::NothingToGiveUp));
            }
            "" => return Err(unreadable(input)),
            _ => {}
        }
        let typed = read_typed(&lower, input)?;
        if deciding {
            return Err(illegal(IllegalReason::ThrowFirst));
        }
        self.interpret_piece(&typed, input)
    }
}
