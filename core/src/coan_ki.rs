//! Coan Ki (Tsun K'i, the bottle game), as in `shared/rules/coan-ki.md`.
//!
//! Two players each send 16 pieces once round a loop of 16 cells (a 2×8 grid, section 2),
//! anticlockwise, from their two start cells back to them (White `a1`/`b1`, Black `h2`/`g2`,
//! section 3). A roll-off of one die each decides who starts; the winner plays the two roll-off
//! dice as his first throw (section 4.1, decision C12). Each throw of two dice is one play
//! (rule 5.4): a double n-n moves one piece n or two pieces 2n each; a consecutive throw moves
//! two different pieces lo and s, or s − 1 and s; any other throw moves one piece s, or two
//! different pieces a and b. Every part must be legal (rule 5.5): with `finish=zone` (default) a
//! piece finishes by landing exactly on one of its start cells after going round (t + k ≤ 17),
//! with `finish=overshoot` any move reaching t = 16 finishes (rule 5.2). A throw that cannot be
//! used whole is lost and the engine passes the turn itself (rules 5.6, C17). A double one moves
//! nothing: the roller pays his opponent a fine (an [`Event::Penalty`]) and removes one of his
//! travelling pieces (rule 5.8). No captures (rule 5.9), except that with `block8=on` eight
//! travelling pieces on a cell other than the four start cells block the opponent (rule 5.11).
//! A player with no travelling pieces left wins at once (rule 5.10); there are no draws.
//!
//! A side is stored as its count of travelling pieces per track position (the cell of a
//! travelling piece fixes its track position) and its counts of finished pieces on its two
//! start cells, with an occupancy bit set per side, so move generation and play allocate
//! nothing.

use std::fmt::{self, Display};
use std::str::FromStr;

use crate::any::GameId;
use crate::error::{
    CellContents, Colour, Holding, IllegalReason, MoveError, NoMoveReason, NotYours, NotationError,
    NotationProblem, PositionError, PositionProblem, SetupError,
};
use crate::game::{Game, Outcome, Seat, Status, Team};
use crate::text::{Fields, choice_option, join_fields};

/// White is seat 0.
const WHITE: Seat = Seat(0);
/// Black is seat 1.
const BLACK: Seat = Seat(1);
/// Pieces per player at the start (rule 3).
const PIECES: u32 = 16;
/// Travelling pieces on one cell that make a block with `block8=on` (rule 5.11).
const BLOCK: u8 = 8;

fn seat_name(seat: Seat) -> &'static str {
    if seat == WHITE { "White" } else { "Black" }
}

fn colour(seat: Seat) -> Colour {
    if seat == WHITE {
        Colour::White
    } else {
        Colour::Black
    }
}

fn other(seat: Seat) -> Seat {
    Seat(1 - seat.0)
}

/// Strips `prefix` from `text`, ignoring ASCII case.
fn strip_prefix_ci<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &text[prefix.len()..])
}

/// A cell of the board, numbered along the loop of section 2: 0 = `a1` … 7 = `h1`, 8 = `h2` …
/// 15 = `a2`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cell({self})")
    }
}

impl Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.file()), self.rank())
    }
}

/// The cells in canonical order (section 8): by file letter, then rank.
const SORTED_CELLS: [Cell; 16] = {
    let mut cells = [Cell(0); 16];
    let mut file = 0;
    while file < 8 {
        cells[2 * file] = Cell(file as u8);
        cells[2 * file + 1] = Cell(15 - file as u8);
        file += 1;
    }
    cells
};

impl Cell {
    /// Every cell in canonical order (`a1`, `a2`, `b1`, … `h2`).
    pub const ALL: [Cell; 16] = SORTED_CELLS;

    /// The cell from its file (0 = `a` … 7 = `h`) and rank (1 or 2).
    pub fn new(file: u8, rank: u8) -> Option<Cell> {
        match (file, rank) {
            (0..=7, 1) => Some(Cell(file)),
            (0..=7, 2) => Some(Cell(15 - file)),
            _ => None,
        }
    }

    /// The position on the loop: 0 = `a1` … 15 = `a2`.
    pub fn loop_index(self) -> u8 {
        self.0
    }

    /// The file, 0 (`a`) to 7 (`h`).
    pub fn file(self) -> u8 {
        if self.0 < 8 { self.0 } else { 15 - self.0 }
    }

    /// The rank: 1 (White's ends) or 2 (Black's ends).
    pub fn rank(self) -> u8 {
        if self.0 < 8 { 1 } else { 2 }
    }

    /// The cell a piece of `seat` stands on at track position `t` (taken modulo 16).
    fn of(seat: Seat, t: usize) -> Cell {
        Cell(((t + 8 * usize::from(seat.0)) & 15) as u8)
    }

    /// The track position of a travelling piece of `seat` on this cell.
    fn track(self, seat: Seat) -> usize {
        (usize::from(self.0) + 8 * usize::from(seat.0)) & 15
    }

    /// One of the four start cells (`a1`, `b1`, `g2`, `h2`), never a block (rule 5.11).
    fn is_start(self) -> bool {
        matches!(self.0, 0 | 1 | 8 | 9)
    }

    /// Reads a cell name, ignoring case. `None` if the text does not look like a cell at all
    /// (a letter followed by digits); `Some(Err)` if it does but names no cell of the board.
    fn read(text: &str) -> Option<Result<Cell, ()>> {
        let mut chars = text.chars();
        let letter = chars.next()?.to_ascii_lowercase();
        let digits = chars.as_str();
        if !letter.is_ascii_lowercase()
            || digits.is_empty()
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let file = letter as u8 - b'a';
        let rank = match digits {
            "1" => 1,
            "2" => 2,
            _ => return Some(Err(())),
        };
        Some(Cell::new(file, rank).ok_or(()))
    }

    /// Reads a cell name in canonical (lower-case) form only.
    fn read_exact(text: &str) -> Option<Cell> {
        match Cell::read(text) {
            Some(Ok(c)) if c.to_string() == text => Some(c),
            _ => None,
        }
    }
}

/// A throw of two dice, smaller die first (`5-6`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Throw {
    lo: u8,
    hi: u8,
}

/// The class of a throw (rule 5.3), with the parts of its plays (rule 5.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// 1-1: no play, a removal (rule 5.8).
    DoubleOne,
    /// n-n: one piece n, or two pieces 2n each.
    Double(u8),
    /// lo, lo + 1: two pieces lo and s, or s − 1 and s.
    Consecutive(u8),
    /// a, b: one piece a + b, or two pieces a and b.
    Other(u8, u8),
}

impl Throw {
    /// The throw of two dice in either order; `None` unless both are from 1 to 6.
    pub fn new(a: u8, b: u8) -> Option<Throw> {
        ((1..=6).contains(&a) && (1..=6).contains(&b)).then(|| Throw {
            lo: a.min(b),
            hi: a.max(b),
        })
    }

    /// The smaller die.
    pub fn lo(self) -> u8 {
        self.lo
    }

    /// The larger die.
    pub fn hi(self) -> u8 {
        self.hi
    }

    /// The sum of the dice.
    pub fn total(self) -> u8 {
        self.lo + self.hi
    }

    fn class(self) -> Class {
        match (self.lo, self.hi) {
            (1, 1) => Class::DoubleOne,
            (lo, hi) if lo == hi => Class::Double(lo),
            (lo, hi) if hi == lo + 1 => Class::Consecutive(lo),
            (lo, hi) => Class::Other(lo, hi),
        }
    }

    /// The step counts of each play of this throw, as sorted multisets (rule 5.4).
    fn options(self) -> [Option<(u8, Option<u8>)>; 2] {
        let s = self.total();
        match self.class() {
            Class::DoubleOne => [None, None],
            Class::Double(n) => [Some((n, None)), Some((2 * n, Some(2 * n)))],
            Class::Consecutive(lo) => [Some((lo, Some(s))), Some((s - 1, Some(s)))],
            Class::Other(a, b) => [Some((s, None)), Some((a, Some(b)))],
        }
    }

    /// The plays of this throw in words, for error messages.
    pub(crate) fn describe(self) -> String {
        let s = self.total();
        match self.class() {
            Class::DoubleOne => format!("{self} moves no piece: remove one of yours"),
            Class::Double(n) => format!(
                "{self} moves one piece {n}, or two different pieces {} each",
                2 * n
            ),
            Class::Consecutive(lo) => format!(
                "{self} moves one piece {lo} and another {s}, or one piece {} and another {s}",
                s - 1
            ),
            Class::Other(a, b) => {
                format!("{self} moves one piece {s}, or one piece {a} and another {b}")
            }
        }
    }

    /// Reads `<d>-<d>` in either order.
    fn read(text: &str) -> Option<Throw> {
        match text.as_bytes() {
            [a, b'-', b] if a.is_ascii_digit() && b.is_ascii_digit() => {
                Throw::new(a - b'0', b - b'0')
            }
            _ => None,
        }
    }
}

impl Display for Throw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.lo, self.hi)
    }
}

/// A chance outcome: the roll-off (`4v6`) or a throw of both dice (`5-6`), section 8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Roll {
    /// The roll-off: one die each (section 4.1).
    RollOff {
        /// White's die.
        white: u8,
        /// Black's die.
        black: u8,
    },
    /// A normal throw of both dice.
    Throw(Throw),
}

impl Display for Roll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Roll::RollOff { white, black } => write!(f, "{white}v{black}"),
            Roll::Throw(t) => write!(f, "{t}"),
        }
    }
}

impl FromStr for Roll {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || NotationError::new(s, NotationProblem::CoanKiRoll);
        match s.as_bytes() {
            [w @ b'1'..=b'6', b'v', b @ b'1'..=b'6'] => Ok(Roll::RollOff {
                white: w - b'0',
                black: b - b'0',
            }),
            _ => Throw::read(s).map(Roll::Throw).ok_or_else(bad),
        }
    }
}

/// The 36 roll-off outcomes, White's die first, each of weight 1.
const ROLL_OFFS: [(Roll, u32); 36] = {
    let mut out = [(Roll::RollOff { white: 1, black: 1 }, 1); 36];
    let mut i = 0;
    while i < 36 {
        out[i].0 = Roll::RollOff {
            white: (i / 6) as u8 + 1,
            black: (i % 6) as u8 + 1,
        };
        i += 1;
    }
    out
};

/// The 21 throws, smaller die first: weight 1 for a double, 2 otherwise (total 36).
const THROWS: [(Roll, u32); 21] = {
    let mut out = [(Roll::Throw(Throw { lo: 1, hi: 1 }), 1); 21];
    let mut i = 0;
    let mut lo = 1;
    while lo <= 6 {
        let mut hi = lo;
        while hi <= 6 {
            out[i] = (Roll::Throw(Throw { lo, hi }), if lo == hi { 1 } else { 2 });
            i += 1;
            hi += 1;
        }
        lo += 1;
    }
    out
};

/// How a piece finishes (option `finish`, rule 5.2 and decision C4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Finish {
    /// Only by landing exactly on one of the two start cells after going round (t + k ≤ 17).
    #[default]
    Zone,
    /// Any move that reaches or passes the first start cell finishes.
    Overshoot,
}

/// The options of Coan Ki (section 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Options {
    /// How pieces finish (`finish=zone|overshoot`, default `zone`).
    pub finish: Finish,
    /// Whether eight travelling pieces on a cell other than a start cell block the opponent
    /// (`block8=on|off`, default `off`, rule 5.11).
    pub block8: bool,
}

/// One part of a play: a travelling piece moves `steps` from the cell `from`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Part {
    /// The cell the piece moves from.
    pub from: Cell,
    /// The number of steps.
    pub steps: u8,
}

impl Part {
    /// The canonical order of parts: by cell (file, then rank), then by steps.
    fn key(self) -> (u8, u8, u8) {
        (self.from.file(), self.from.rank(), self.steps)
    }
}

impl Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}+{}", self.from, self.steps)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Kind {
    /// A play moving one piece.
    One(Part),
    /// A play moving two different pieces, parts in canonical order.
    Two(Part, Part),
    /// The removal of a travelling piece after a double one.
    Remove(Cell),
}

/// A Coan Ki move in canonical notation (section 8): a play of one or two parts
/// (`c1+7`, `a1+5&b1+11`), or a removal after a double one (`remove:e1`).
///
/// Plays that move the same cells by the same amounts are the same move (rule 5.5): the parts
/// are kept in canonical order.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(Kind);

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

impl Move {
    /// A play moving one piece.
    pub fn one(part: Part) -> Move {
        Move(Kind::One(part))
    }

    /// A play moving two different pieces, in either order.
    pub fn two(a: Part, b: Part) -> Move {
        if b.key() < a.key() {
            Move(Kind::Two(b, a))
        } else {
            Move(Kind::Two(a, b))
        }
    }

    /// The removal of the travelling piece on `cell` after a double one.
    pub fn remove(cell: Cell) -> Move {
        Move(Kind::Remove(cell))
    }

    /// The parts of a play in canonical order (none for a removal).
    pub fn parts(&self) -> impl Iterator<Item = Part> + use<> {
        let (a, b) = match self.0 {
            Kind::One(a) => (Some(a), None),
            Kind::Two(a, b) => (Some(a), Some(b)),
            Kind::Remove(_) => (None, None),
        };
        a.into_iter().chain(b)
    }

    /// The cell of the removed piece, for a removal.
    pub fn removed(&self) -> Option<Cell> {
        match self.0 {
            Kind::Remove(c) => Some(c),
            _ => None,
        }
    }
}

impl Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Kind::One(a) => write!(f, "{a}"),
            Kind::Two(a, b) => write!(f, "{a}&{b}"),
            Kind::Remove(c) => write!(f, "remove:{c}"),
        }
    }
}

impl FromStr for Move {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || NotationError::new(s, NotationProblem::CoanKiMove);
        let mv = if let Some(cell) = s.strip_prefix("remove:") {
            Move::remove(Cell::read_exact(cell).ok_or_else(bad)?)
        } else {
            let part = |text: &str| -> Result<Part, NotationError> {
                let (cell, steps) = text.split_once('+').ok_or_else(bad)?;
                let from = Cell::read_exact(cell).ok_or_else(bad)?;
                if steps.is_empty() || steps.len() > 2 || !steps.bytes().all(|b| b.is_ascii_digit())
                {
                    return Err(bad());
                }
                let steps: u8 = steps.parse().map_err(|_| bad())?;
                if !(1..=12).contains(&steps) {
                    return Err(bad());
                }
                Ok(Part { from, steps })
            };
            match s.split_once('&') {
                None => Move::one(part(s)?),
                Some((a, b)) => Move::two(part(a)?, part(b)?),
            }
        };
        let canonical = mv.to_string();
        if canonical != s {
            return Err(NotationError::new(
                s,
                NotationProblem::NotCanonical { canonical },
            ));
        }
        Ok(mv)
    }
}

/// What a Coan Ki action did, for narration and highlighting. Plain data: no heap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// Both roll-off dice were equal: the roll-off is repeated (section 4.1).
    RollOffTie {
        /// The die both threw.
        die: u8,
    },
    /// The higher roll-off die starts and plays both dice as his first throw (section 4.1).
    RollOffWon {
        /// Who starts.
        seat: Seat,
        /// White's die.
        white: u8,
        /// Black's die.
        black: u8,
    },
    /// One piece of a play moved (one event per part).
    Moved {
        /// Whose piece.
        seat: Seat,
        /// The cell it left.
        from: Cell,
        /// The steps it went.
        steps: u8,
        /// The cell it reached.
        to: Cell,
        /// Whether it came home and was turned over.
        finished: bool,
    },
    /// A double one: `payer` pays `payee` a fine of 10% of the stake (rule 5.8).
    Penalty {
        /// The roller.
        payer: Seat,
        /// His opponent.
        payee: Seat,
    },
    /// A travelling piece was removed after a double one (rule 5.8).
    Removed {
        /// Whose piece.
        seat: Seat,
        /// Its cell.
        cell: Cell,
    },
    /// No play fits the throw: it is lost and the turn passes (rule 5.6).
    ThrowLost {
        /// The roller.
        seat: Seat,
        /// The throw.
        throw: Throw,
    },
    /// The seat has no travelling pieces left and wins (rule 5.10).
    Won {
        /// The winner.
        seat: Seat,
    },
}

impl Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Event::RollOffTie { die } => {
                write!(f, "both threw {die} in the roll-off: it is thrown again")
            }
            Event::RollOffWon { seat, white, black } => {
                let (mine, theirs) = if seat == WHITE {
                    (white, black)
                } else {
                    (black, white)
                };
                write!(
                    f,
                    "{} threw {mine} against {}'s {theirs} in the roll-off and starts with {}-{}",
                    seat_name(seat),
                    seat_name(other(seat)),
                    theirs,
                    mine
                )
            }
            Event::Moved {
                seat,
                from,
                steps,
                to,
                finished,
            } => {
                let who = seat_name(seat);
                if finished {
                    write!(
                        f,
                        "{who} moved a piece {steps} from {from} home to {to}, where it is turned over"
                    )
                } else {
                    write!(f, "{who} moved a piece {steps} from {from} to {to}")
                }
            }
            Event::Penalty { payer, payee } => write!(
                f,
                "{} threw 1-1 and pays {} a fine of 10% of the stake",
                seat_name(payer),
                seat_name(payee)
            ),
            Event::Removed { seat, cell } => write!(
                f,
                "{} took his piece on {cell} out of the game",
                seat_name(seat)
            ),
            Event::ThrowLost { seat, throw } => write!(
                f,
                "{} cannot use {throw}: the throw is lost",
                seat_name(seat)
            ),
            Event::Won { seat } => write!(
                f,
                "{} has no travelling pieces left and wins",
                seat_name(seat)
            ),
        }
    }
}

/// Where the game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Phase {
    /// The roll-off chance node at the start (`turn=rolloff`).
    RollOff,
    /// The seat to act must roll both dice.
    Roll,
    /// The seat to act must play this throw (never 1-1, and at least one play exists).
    Play(Throw),
    /// The seat to act threw 1-1 and must remove a travelling piece.
    Remove,
    /// The seat has no travelling pieces and has won.
    Won(Seat),
}

/// A Coan Ki position.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CoanKi {
    options: Options,
    /// Travelling pieces per seat (White, Black) and track position 0..16.
    track: [[u8; 16]; 2],
    /// Finished pieces per seat on its first (t = 16) and second (t = 17) start cell.
    home: [[u8; 2]; 2],
    /// Bit t set when the seat has a travelling piece at track position t (cached).
    occupied: [u16; 2],
    /// The number of travelling pieces per seat (cached).
    travelling: [u8; 2],
    /// The seat to act; White during the roll-off; after a win, the winner's opponent.
    turn: Seat,
    phase: Phase,
}

/// Iterates the set bits of a 16-bit mask.
fn bits(mut mask: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let t = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        Some(t)
    })
}

/// The track positions t + 1 ..= min(t + k, 15) a move of k steps from t passes or lands on.
fn path(t: usize, k: usize) -> u16 {
    let end = t.saturating_add(k).min(15);
    if end <= t {
        0
    } else {
        ((1u32 << (end + 1)) - (1u32 << (t + 1))) as u16
    }
}

impl CoanKi {
    fn me(&self) -> usize {
        usize::from(self.turn.0)
    }

    /// The track positions from which a move of `k` steps is allowed by the finishing rule.
    fn limit(&self, k: usize) -> u16 {
        match self.options.finish {
            Finish::Overshoot => u16::MAX,
            // t + k ≤ 17.
            Finish::Zone if k <= 2 => u16::MAX,
            Finish::Zone if k <= 17 => ((1u32 << (18 - k)) - 1) as u16,
            Finish::Zone => 0,
        }
    }

    /// The opponent's blocks, as track positions of the seat to act (rule 5.11).
    fn blocks(&self) -> u16 {
        if !self.options.block8 {
            return 0;
        }
        let me = self.turn;
        let them = other(me);
        let mut mask = 0;
        for u in bits(self.occupied[usize::from(them.0)]) {
            let cell = Cell::of(them, u);
            if self.track[usize::from(them.0)][u] >= BLOCK && !cell.is_start() {
                mask |= 1 << cell.track(me);
            }
        }
        mask
    }

    /// The track positions of the pieces of the seat to act that may move `k` steps.
    fn movers(&self, k: u8, blocks: u16) -> u16 {
        let k = usize::from(k);
        let mut mask = self.occupied[self.me()] & self.limit(k);
        if blocks != 0 {
            for t in bits(mask) {
                if path(t, k) & blocks != 0 {
                    mask &= !(1 << t);
                }
            }
        }
        mask
    }

    /// Calls `f` with every legal play of `throw` for the seat to act, each once, until `f`
    /// returns `true`. Returns whether it stopped early.
    fn each_play<F: FnMut(Move) -> bool>(&self, throw: Throw, mut f: F) -> bool {
        let blocks = self.blocks();
        match throw.class() {
            Class::DoubleOne => false,
            Class::Double(n) => self.ones(n, blocks, &mut f) || self.pairs(2 * n, blocks, &mut f),
            Class::Consecutive(lo) => {
                let s = 2 * lo + 1;
                self.twos(lo, s, blocks, &mut f) || self.twos(s - 1, s, blocks, &mut f)
            }
            Class::Other(a, b) => {
                self.ones(a + b, blocks, &mut f) || self.twos(a, b, blocks, &mut f)
            }
        }
    }

    fn part(&self, t: usize, steps: u8) -> Part {
        Part {
            from: Cell::of(self.turn, t),
            steps,
        }
    }

    /// Plays moving one piece `k` steps.
    fn ones<F: FnMut(Move) -> bool>(&self, k: u8, blocks: u16, f: &mut F) -> bool {
        bits(self.movers(k, blocks)).any(|t| f(Move::one(self.part(t, k))))
    }

    /// Plays moving two different pieces, one `x` steps and the other `y` (x ≠ y).
    fn twos<F: FnMut(Move) -> bool>(&self, x: u8, y: u8, blocks: u16, f: &mut F) -> bool {
        let track = &self.track[self.me()];
        let ys = self.movers(y, blocks);
        bits(self.movers(x, blocks)).any(|t1| {
            bits(ys).any(|t2| {
                (t1 != t2 || track[t1] >= 2) && f(Move::two(self.part(t1, x), self.part(t2, y)))
            })
        })
    }

    /// Plays moving two different pieces `k` steps each.
    fn pairs<F: FnMut(Move) -> bool>(&self, k: u8, blocks: u16, f: &mut F) -> bool {
        let track = &self.track[self.me()];
        let both = self.movers(k, blocks);
        bits(both).any(|t1| {
            bits(both >> t1).any(|d| {
                (d != 0 || track[t1] >= 2) && f(Move::two(self.part(t1, k), self.part(t1 + d, k)))
            })
        })
    }

    fn has_play(&self, throw: Throw) -> bool {
        self.each_play(throw, |_| true)
    }

    /// Moves one travelling piece of `seat` from track position `t` by `k` steps.
    fn advance(&mut self, seat: Seat, t: usize, k: usize) -> (Cell, bool) {
        let me = usize::from(seat.0);
        let count = &mut self.track[me][t];
        *count = count.saturating_sub(1);
        if *count == 0 {
            self.occupied[me] &= !(1 << t);
        }
        let dest = t + k;
        if dest < 16 {
            self.track[me][dest] += 1;
            self.occupied[me] |= 1 << dest;
            return (Cell::of(seat, dest), false);
        }
        let second = match self.options.finish {
            Finish::Zone => dest >= 17,
            Finish::Overshoot => dest > 16,
        };
        self.home[me][usize::from(second)] += 1;
        self.travelling[me] = self.travelling[me].saturating_sub(1);
        (Cell::of(seat, 16 + usize::from(second)), true)
    }

    /// Starts the play of a throw by the seat to act: a penalty and a removal on 1-1, the throw
    /// lost when no play fits it, else a decision (section 4.2).
    fn begin_throw(&mut self, throw: Throw, events: &mut Vec<Event>) {
        if throw.class() == Class::DoubleOne {
            events.push(Event::Penalty {
                payer: self.turn,
                payee: other(self.turn),
            });
            self.phase = Phase::Remove;
        } else if self.has_play(throw) {
            self.phase = Phase::Play(throw);
        } else {
            events.push(Event::ThrowLost {
                seat: self.turn,
                throw,
            });
            self.turn = other(self.turn);
            self.phase = Phase::Roll;
        }
    }

    /// After a play or a removal: the mover wins if he has no travelling pieces left
    /// (rule 5.10); the turn passes either way (section 6).
    fn end_turn(&mut self, events: &mut Vec<Event>) {
        let mover = self.turn;
        self.turn = other(mover);
        if self.travelling[usize::from(mover.0)] == 0 {
            events.push(Event::Won { seat: mover });
            self.phase = Phase::Won(mover);
        } else {
            self.phase = Phase::Roll;
        }
    }

    /// Travelling pieces of `seat` on `cell`.
    pub fn travelling_at(&self, seat: Seat, cell: Cell) -> u8 {
        self.track[usize::from(seat.0 & 1)][cell.track(seat)]
    }

    /// Finished pieces of `seat` on `cell` (only its two start cells hold any).
    pub fn finished_at(&self, seat: Seat, cell: Cell) -> u8 {
        let me = usize::from(seat.0 & 1);
        match cell.track(seat) {
            0 => self.home[me][0],
            1 => self.home[me][1],
            _ => 0,
        }
    }

    /// The throw awaiting its play, or `1-1` awaiting the removal.
    pub fn throw(&self) -> Option<Throw> {
        match self.phase {
            Phase::Play(t) => Some(t),
            Phase::Remove => Some(Throw { lo: 1, hi: 1 }),
            _ => None,
        }
    }

    /// The seat to act: the one who throws next at a chance node, or who must play the throw
    /// or remove a piece after 1-1. `None` during the roll-off (both throw) and once the game
    /// is over.
    pub fn seat_to_act(&self) -> Option<Seat> {
        match self.phase {
            Phase::Roll | Phase::Play(_) | Phase::Remove => Some(self.turn),
            Phase::RollOff | Phase::Won(_) => None,
        }
    }

    /// Whether the game stands at the roll-off chance node of the start (section 4.1).
    pub fn in_rolloff(&self) -> bool {
        self.phase == Phase::RollOff
    }

    /// Whether `cell` is a block for `seat`'s pieces (only with `block8=on`, rule 5.11).
    pub fn is_block_for(&self, seat: Seat, cell: Cell) -> bool {
        self.options.block8
            && !cell.is_start()
            && self.travelling_at(other(Seat(seat.0 & 1)), cell) >= BLOCK
    }

    fn set_count(&mut self, seat: Seat, t: usize, count: u8) {
        let me = usize::from(seat.0);
        self.travelling[me] = self.travelling[me] - self.track[me][t] + count;
        self.track[me][t] = count;
        if count == 0 {
            self.occupied[me] &= !(1 << t);
        } else {
            self.occupied[me] |= 1 << t;
        }
    }

    /// Reads a list `<cell>x<count>,…` of travelling (`home` false) or finished pieces,
    /// adding them to the seat's `total`, which may not exceed 16.
    fn parse_list(
        &mut self,
        fields: &Fields<'_>,
        key: &str,
        seat: Seat,
        home: bool,
        total: &mut u32,
    ) -> Result<(), PositionError> {
        let me = usize::from(seat.0);
        let mut seen = 0u16;
        for item in fields.list(key) {
            let Some((name, count)) = item.split_once('x') else {
                return Err(PositionError::new(item, PositionProblem::ExpectedCellCount));
            };
            let Some(cell) = Cell::read_exact(name) else {
                return Err(PositionError::new(
                    item,
                    PositionProblem::NotACoanKiCell {
                        name: name.to_string(),
                    },
                ));
            };
            let count = Some(count)
                .filter(|c| !c.is_empty() && c.len() <= 2 && c.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|c| c.parse::<u8>().ok())
                .filter(|c| (1..=16).contains(c))
                .ok_or_else(|| PositionError::new(item, PositionProblem::CountRange))?;
            if seen & 1 << cell.0 != 0 {
                return Err(PositionError::new(
                    item,
                    PositionProblem::ListedTwice {
                        cell: cell.to_string(),
                    },
                ));
            }
            seen |= 1 << cell.0;
            *total += u32::from(count);
            if *total > PIECES {
                return Err(PositionError::new(
                    item,
                    PositionProblem::TooManyPieces(colour(seat)),
                ));
            }
            let t = cell.track(seat);
            if home {
                if t > 1 {
                    return Err(PositionError::new(
                        item,
                        PositionProblem::FinishedOffStart {
                            seat: colour(seat),
                            first: Cell::of(seat, 0).to_string(),
                            second: Cell::of(seat, 1).to_string(),
                        },
                    ));
                }
                self.home[me][t] = count;
            } else {
                self.set_count(seat, t, count);
            }
        }
        Ok(())
    }

    /// A list of counts per cell, in canonical cell order.
    fn list(&self, count: impl Fn(Cell) -> u8) -> String {
        let mut out = String::new();
        for cell in SORTED_CELLS {
            let n = count(cell);
            if n > 0 {
                if !out.is_empty() {
                    out.push(',');
                }
                out.push_str(&format!("{cell}x{n}"));
            }
        }
        out
    }

    /// What stands on a cell, from the point of view of the seat to act.
    fn describe(&self, cell: Cell) -> CellContents {
        let me = self.turn;
        let mine = self.finished_at(me, cell);
        let theirs = self.travelling_at(other(me), cell) + self.finished_at(other(me), cell);
        let holds = match (mine, theirs) {
            (0, 0) => Holding::Empty,
            (0, _) => Holding::Only(colour(other(me))),
            _ => Holding::OnlyFinished(colour(me)),
        };
        CellContents::new(cell, holds)
    }

    /// The cell of a typed part must hold a travelling piece of the seat to act.
    fn check_mine(&self, cell: Cell, removal: bool) -> Result<(), MoveError> {
        if self.travelling_at(self.turn, cell) > 0 {
            return Ok(());
        }
        let contents = self.describe(cell);
        let why = if removal {
            NotYours::RemovesOwnTravelling {
                contents,
                mover: colour(self.turn),
            }
        } else {
            NotYours::Holds(contents)
        };
        Err(MoveError::NotYourPiece {
            cell: cell.to_string(),
            why,
        })
    }

    fn interpret_removal(&self, rest: &str, input: &str) -> Result<Move, MoveError> {
        let cell = match Cell::read(rest.trim()) {
            Some(Ok(c)) => c,
            Some(Err(())) => return Err(MoveError::NoSuchCell(rest.trim().to_string())),
            None => return Err(unreadable(input)),
        };
        if self.phase != Phase::Remove {
            return Err(MoveError::Illegal {
                input: input.to_string(),
                reason: Box::new(IllegalReason::RemoveOnlyAfterDoubleOne),
            });
        }
        self.check_mine(cell, true)?;
        Ok(Move::remove(cell))
    }

    fn interpret_play(&self, throw: Throw, input: &str) -> Result<Move, MoveError> {
        let mut parts: Vec<(Cell, Option<u32>)> = Vec::new();
        for text in input
            .split(|c: char| c == '&' || c == ',' || c.is_whitespace())
            .filter(|p| !p.is_empty())
        {
            let (name, steps) = match text.split_once('+') {
                Some((name, steps)) => (name, Some(steps)),
                None => (text, None),
            };
            let cell = match Cell::read(name) {
                Some(Ok(c)) => c,
                Some(Err(())) => return Err(MoveError::NoSuchCell(name.to_string())),
                None => return Err(unreadable(input)),
            };
            let steps = match steps {
                None => None,
                Some(s) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => {
                    Some(s.parse::<u32>().unwrap_or(u32::MAX))
                }
                Some(_) => return Err(unreadable(input)),
            };
            parts.push((cell, steps));
        }
        if parts.is_empty() {
            return Err(unreadable(input));
        }
        for (cell, _) in &parts {
            self.check_mine(*cell, false)?;
        }
        let illegal = |reason: IllegalReason| MoveError::Illegal {
            input: input.to_string(),
            reason: Box::new(reason),
        };
        if parts.len() > 2 {
            return Err(illegal(IllegalReason::TooManyParts { throw }));
        }
        if let [(a, _), (b, _)] = parts[..] {
            let count = self.travelling_at(self.turn, a);
            if a == b && count < 2 {
                return Err(illegal(IllegalReason::SamePieceTwice {
                    cell: a.to_string(),
                    seat: colour(self.turn),
                }));
            }
        }
        let fits = |part: Part, typed: (Cell, Option<u32>)| {
            part.from == typed.0 && typed.1.is_none_or(|s| s == u32::from(part.steps))
        };
        let mut candidates = Vec::new();
        self.each_play(throw, |mv| {
            let matched = match (mv.0, &parts[..]) {
                (Kind::One(a), [p]) => fits(a, *p),
                (Kind::Two(a, b), [p, q]) => {
                    (fits(a, *p) && fits(b, *q)) || (fits(a, *q) && fits(b, *p))
                }
                _ => false,
            };
            if matched {
                candidates.push(mv);
            }
            false
        });
        match candidates[..] {
            [mv] => return Ok(mv),
            [_, _, ..] => {
                return Err(MoveError::Ambiguous {
                    input: input.to_string(),
                    candidates: candidates.iter().map(ToString::to_string).collect(),
                });
            }
            [] => {}
        }
        // No legal play matches: say why.
        let steps: Option<Vec<u32>> = parts.iter().map(|(_, s)| *s).collect();
        let Some(mut steps) = steps else {
            return Err(illegal(IllegalReason::NoPlayFrom {
                cells: parts.iter().map(|(c, _)| c.to_string()).collect(),
                throw,
            }));
        };
        steps.sort_unstable();
        let fit = throw.options().iter().flatten().any(|(x, y)| match y {
            None => steps[..] == [u32::from(*x)],
            Some(y) => steps[..] == [u32::from(*x), u32::from(*y)],
        });
        if !fit {
            return Err(illegal(IllegalReason::ExceedsTheThrow { throw }));
        }
        let blocks = self.blocks();
        for (cell, k) in &parts {
            let t = cell.track(self.turn);
            let k = k.unwrap_or(0) as usize;
            if self.limit(k) & 1 << t == 0 {
                return Err(illegal(IllegalReason::OvershootsHome {
                    cell: cell.to_string(),
                    steps: k,
                    seat: colour(self.turn),
                    exact: 16 - t,
                    first: Cell::of(self.turn, 16).to_string(),
                    second: Cell::of(self.turn, 17).to_string(),
                }));
            }
            if let Some(b) = bits(path(t, k) & blocks).next() {
                let block = Cell::of(self.turn, b);
                return Err(illegal(IllegalReason::PathBlocked {
                    cell: cell.to_string(),
                    steps: k,
                    block: block.to_string(),
                    count: u32::from(self.travelling_at(other(self.turn), block)),
                    owner: colour(other(self.turn)),
                }));
            }
        }
        Err(illegal(IllegalReason::NotALegalPlay { throw }))
    }
}

fn unreadable(input: &str) -> MoveError {
    MoveError::Unreadable {
        input: input.to_string(),
        game: GameId::CoanKi,
    }
}

impl Game for CoanKi {
    type Move = Move;
    type Roll = Roll;
    type Event = Event;
    type Options = Options;

    const ID: &'static str = "coan-ki";
    const NAME: &'static str = "Coan Ki";
    const SEATS: &'static [&'static str] = &["white", "black"];
    const TEAMS: &'static [&'static str] = &["white", "black"];

    fn set_option(options: &mut Options, key: &str, value: &str) -> Result<(), SetupError> {
        match key {
            "finish" => {
                options.finish = match choice_option(key, value, &["zone", "overshoot"])? {
                    0 => Finish::Zone,
                    _ => Finish::Overshoot,
                };
                Ok(())
            }
            "block8" => {
                options.block8 = choice_option(key, value, &["off", "on"])? == 1;
                Ok(())
            }
            _ => Err(SetupError::UnknownOption {
                game: Self::ID,
                key: key.into(),
                allowed: "finish, block8",
            }),
        }
    }

    fn option_pairs(options: &Options) -> Vec<(&'static str, String)> {
        let finish = match options.finish {
            Finish::Zone => "zone",
            Finish::Overshoot => "overshoot",
        };
        let block8 = if options.block8 { "on" } else { "off" };
        vec![("finish", finish.into()), ("block8", block8.into())]
    }

    fn new(options: &Options) -> Self {
        let mut track = [[0; 16]; 2];
        for side in &mut track {
            side[0] = 8;
            side[1] = 8;
        }
        CoanKi {
            options: *options,
            track,
            home: [[0; 2]; 2],
            occupied: [0b11; 2],
            travelling: [16; 2],
            turn: WHITE,
            phase: Phase::RollOff,
        }
    }

    fn from_position(options: &Options, text: &str) -> Result<Self, PositionError> {
        let fields = Fields::parse(
            text,
            &["turn", "dice", "white", "white-home", "black", "black-home"],
        )?;
        let mut game = CoanKi {
            options: *options,
            track: [[0; 16]; 2],
            home: [[0; 2]; 2],
            occupied: [0; 2],
            travelling: [0; 2],
            turn: WHITE,
            phase: Phase::Roll,
        };
        for (seat, key) in [(WHITE, "white"), (BLACK, "black")] {
            let mut total = 0;
            game.parse_list(&fields, key, seat, false, &mut total)?;
            game.parse_list(&fields, &format!("{key}-home"), seat, true, &mut total)?;
        }
        let turn = fields.require("turn")?;
        let dice = match fields.get("dice") {
            None => None,
            Some(d) => Some(Throw::read(d).ok_or_else(|| {
                PositionError::new(format!("dice={d}"), PositionProblem::DiceMustBe)
            })?),
        };
        let dice_token = || format!("dice={}", fields.get("dice").unwrap_or_default());
        let winner = match game.travelling {
            [0, 0] => {
                return Err(PositionError::new(
                    text.trim(),
                    PositionProblem::NoTravellingPieces,
                ));
            }
            [0, _] => Some(WHITE),
            [_, 0] => Some(BLACK),
            _ => None,
        };
        game.turn = match turn {
            "white" => WHITE,
            "black" => BLACK,
            "rolloff" => {
                if dice.is_some() {
                    return Err(PositionError::new(
                        dice_token(),
                        PositionProblem::DiceAtRollOff,
                    ));
                }
                if let Some(w) = winner {
                    return Err(PositionError::new(
                        "turn=rolloff",
                        PositionProblem::WonBeforeRollOff(colour(w)),
                    ));
                }
                game.phase = Phase::RollOff;
                return Ok(game);
            }
            _ => {
                return Err(PositionError::new(
                    turn,
                    PositionProblem::MustBe {
                        key: "turn",
                        choices: &["white", "black", "rolloff"],
                    },
                ));
            }
        };
        game.phase = match (winner, dice) {
            (Some(w), Some(_)) => {
                return Err(PositionError::new(
                    dice_token(),
                    PositionProblem::WonWithDice(colour(w)),
                ));
            }
            (Some(w), None) => Phase::Won(w),
            (None, None) => Phase::Roll,
            (None, Some(t)) if t.class() == Class::DoubleOne => Phase::Remove,
            (None, Some(t)) => {
                if !game.has_play(t) {
                    return Err(PositionError::new(
                        dice_token(),
                        PositionProblem::NoPlayForThrow {
                            seat: colour(game.turn),
                            throw: t,
                        },
                    ));
                }
                Phase::Play(t)
            }
        };
        Ok(game)
    }

    fn position(&self) -> String {
        let turn = match self.phase {
            Phase::RollOff => "rolloff",
            _ => Self::SEATS[self.me()],
        };
        let dice = self.throw().map(|t| t.to_string()).unwrap_or_default();
        join_fields([
            ("turn", turn.to_string()),
            ("dice", dice),
            ("white", self.list(|c| self.travelling_at(WHITE, c))),
            ("white-home", self.list(|c| self.finished_at(WHITE, c))),
            ("black", self.list(|c| self.travelling_at(BLACK, c))),
            ("black-home", self.list(|c| self.finished_at(BLACK, c))),
        ])
    }

    fn drawing(&self) -> String {
        // Each letter stands over the centre of its 9-character cell (columns 8, 18, ...).
        let letters: String = (0..8u8)
            .map(|f| {
                let width = if f == 0 { 9 } else { 10 };
                format!("{:>width$}", char::from(b'a' + f))
            })
            .collect();
        let border = format!("   +{}", "---------+".repeat(8));
        let mut out = format!("{letters}\n{border}\n");
        for rank in [2, 1] {
            out.push_str(&format!(" {rank} |"));
            for file in 0..8 {
                let Some(cell) = Cell::new(file, rank) else {
                    continue;
                };
                let tokens = [
                    ('W', self.travelling_at(WHITE, cell)),
                    ('w', self.finished_at(WHITE, cell)),
                    ('B', self.travelling_at(BLACK, cell)),
                    ('b', self.finished_at(BLACK, cell)),
                ];
                let tokens: Vec<String> = tokens
                    .iter()
                    .filter(|(_, n)| *n > 0)
                    .map(|(c, n)| format!("{c}{n}"))
                    .collect();
                let mut text = tokens.join(" ");
                if text.len() > 9 {
                    text = tokens.concat();
                }
                let left = (10 - text.len()) / 2;
                let right = 9 - text.len() - left;
                out.push_str(&format!("{}{text}{}|", " ".repeat(left), " ".repeat(right)));
            }
            out.push('\n');
            out.push_str(&border);
            out.push('\n');
        }
        out.push_str(&letters);
        out.push('\n');
        if let Some(t) = self.throw() {
            out.push_str(&format!("dice {t}\n"));
        }
        out
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn status(&self) -> Status {
        match self.phase {
            Phase::RollOff | Phase::Roll => Status::Chance,
            Phase::Play(_) | Phase::Remove => Status::Decision(self.turn),
            Phase::Won(seat) => Status::Done(Outcome::Winner(Team(seat.0))),
        }
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        match self.phase {
            Phase::Play(throw) => {
                self.each_play(throw, |mv| {
                    out.push(mv);
                    false
                });
            }
            Phase::Remove => out.extend(
                bits(self.occupied[self.me()]).map(|t| Move::remove(Cell::of(self.turn, t))),
            ),
            Phase::RollOff | Phase::Roll | Phase::Won(_) => {}
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(Roll, u32)>) {
        match self.phase {
            Phase::RollOff => out.extend_from_slice(&ROLL_OFFS),
            Phase::Roll => out.extend_from_slice(&THROWS),
            Phase::Play(_) | Phase::Remove | Phase::Won(_) => {}
        }
    }

    fn apply_move_unchecked(&mut self, mv: &Move, events: &mut Vec<Event>) {
        let seat = self.turn;
        match mv.0 {
            Kind::Remove(cell) => {
                let t = cell.track(seat);
                let count = self.track[self.me()][t];
                self.set_count(seat, t, count.saturating_sub(1));
                events.push(Event::Removed { seat, cell });
            }
            Kind::One(_) | Kind::Two(..) => {
                for part in mv.parts() {
                    let (to, finished) =
                        self.advance(seat, part.from.track(seat), usize::from(part.steps));
                    events.push(Event::Moved {
                        seat,
                        from: part.from,
                        steps: part.steps,
                        to,
                        finished,
                    });
                }
            }
        }
        self.end_turn(events);
    }

    fn apply_roll_unchecked(&mut self, roll: &Roll, events: &mut Vec<Event>) {
        match (self.phase, *roll) {
            (Phase::RollOff, Roll::RollOff { white, black }) => {
                let Some(throw) = Throw::new(white, black) else {
                    return;
                };
                if white == black {
                    events.push(Event::RollOffTie { die: white });
                    return;
                }
                let seat = if white > black { WHITE } else { BLACK };
                events.push(Event::RollOffWon { seat, white, black });
                self.turn = seat;
                self.begin_throw(throw, events);
            }
            (Phase::Roll, Roll::Throw(throw)) => self.begin_throw(throw, events),
            _ => {}
        }
    }

    fn interpret(&self, text: &str) -> Result<Move, MoveError> {
        let input = text.trim();
        let throw = match self.phase {
            Phase::Won(_) => return Err(MoveError::NoMoveNow(NoMoveReason::GameOver)),
            Phase::RollOff | Phase::Roll => {
                return Err(MoveError::NoMoveNow(NoMoveReason::DiceFirst));
            }
            Phase::Play(t) => Some(t),
            Phase::Remove => None,
        };
        if input.eq_ignore_ascii_case("pass") {
            return Err(MoveError::Illegal {
                input: input.to_string(),
                reason: Box::new(IllegalReason::NoPass { throw }),
            });
        }
        if let Some(rest) = strip_prefix_ci(input, "remove") {
            let rest = rest.trim_start_matches(|c: char| c == ':' || c.is_whitespace());
            return self.interpret_removal(rest, input);
        }
        match throw {
            Some(t) => self.interpret_play(t, input),
            None => match Cell::read(input) {
                // A bare cell after 1-1 names the piece to remove.
                Some(_) => self.interpret_removal(input, input),
                None => Err(MoveError::Illegal {
                    input: input.to_string(),
                    reason: Box::new(IllegalReason::MustRemove),
                }),
            },
        }
    }
}
