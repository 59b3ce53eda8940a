//! Kolowis Awithlaknannai (Zuni "fighting serpents"), as in `shared/rules/kolowis.md`.
//!
//! The board has 49 points in three rows, `A1`–`A16`, `B1`–`B17` and `C1`–`C16`, joined by 110
//! lines (section 2). White (South) starts on `C1`–`C16` and `B2`–`B8`, Black (North) on
//! `A1`–`A16` and `B10`–`B16` (section 3); White moves first (section 4). A turn is one step along
//! a line to an empty neighbour (rules 1, 2) or one capture sequence (rule 1): a jump in a straight
//! line over an enemy piece to the empty point beyond, along one of the 146 capture triples, the
//! enemy piece being removed at once (rule 3, decision K7); the same piece may jump again, in any
//! direction (rule 4), and may stop after any jump, so every prefix of a sequence is its own move
//! (rule 5). Capturing is compulsory for the side as a whole (rule 6). The curved end links at
//! `B1` and `B17` carry steps but never jumps (decision K3). A player with no legal move loses
//! (rule 7, section 6.1). The house rule `stall` (default 50, 0 switches it off; rule 8, section
//! 6.2, decision K11) ends the game after `stall` plies without a capture or at the third
//! occurrence of a placement with the same side to move; the side with more pieces then wins,
//! equal counts draw.
//!
//! Points are bits of a `u64`: `Ai` is bit `i − 1`, `Bj` bit `15 + j`, `Ci` bit `32 + i`, so the
//! bit order is also the order of the position string's lists. Every line and every capture
//! triple is then a shift by 1, 16 or 17 (triples by twice that) under a mask of the points it may
//! start from, and the neighbour and jump tables are computed at compile time. The positions
//! since the last capture are kept for the exact repetition check (at most `stall` of them).

use std::fmt::{self, Display, Write as _};
use std::str::FromStr;

use crate::any::GameId;
use crate::error::{
    CellContents, Colour, Expected, Holding, IllegalReason, MoveError, NoMoveReason, NotYours,
    NotationError, NotationProblem, PositionError, PositionProblem, SetupError,
};
use crate::game::{Game, NoRoll, Outcome, Seat, Status, Team};
use crate::text::{Fields, join_fields, number_option};

/// White (South) moves first and is seat 0.
const WHITE: Seat = Seat(0);
/// Black (North) is seat 1.
const BLACK: Seat = Seat(1);

/// The number of points.
const POINTS: u8 = 49;
/// Every point of the board.
const ALL: u64 = (1 << POINTS) - 1;
/// At most this many jumps fit in a [`Move`] (2 bits each). A legal sequence has at most 29: an
/// outer piece can only jump `B2`–`B16` and the 14 outer points of the other parity, a middle
/// piece only 8 points of the middle row (section 7, "Why the Turkish-strike clause ...").
const MAX_JUMPS: u8 = 32;
/// The default of the option `stall`.
const DEFAULT_STALL: u32 = 50;

/// The bit index of `Ai`, `Bj` or `Ci` (row 0, 1, 2; number from 1).
const fn index(row: u8, number: u8) -> u8 {
    match row {
        0 => number - 1,
        1 => 15 + number,
        _ => 32 + number,
    }
}

/// The row (0 = A, 1 = B, 2 = C) and number of a bit index.
const fn row_and_number(p: u8) -> (u8, u8) {
    if p < 16 {
        (0, p + 1)
    } else if p < 33 {
        (1, p - 15)
    } else {
        (2, p - 32)
    }
}

/// The points `first`..=`last` of one row, as a set.
const fn span(row: u8, first: u8, last: u8) -> u64 {
    let mut set = 0;
    let mut n = first;
    while n <= last {
        set |= 1 << index(row, n);
        n += 1;
    }
    set
}

/// The set of points `p` such that `p + d` is in `set`.
const fn back(set: u64, d: i8) -> u64 {
    if d > 0 {
        set >> d as u32
    } else {
        set << (-d) as u32
    }
}

/// Lines (section 2) as (index step, points a step in that direction may start from).
const STEP_DIRS: [(i8, u64); 6] = [
    // Along the rows.
    (1, span(0, 1, 15) | span(1, 1, 16) | span(2, 1, 15)),
    (-1, span(0, 2, 16) | span(1, 2, 17) | span(2, 2, 16)),
    // Ai–Bi, and Bj–Cj−1 (including the curve B17–C16).
    (16, span(0, 1, 16) | span(1, 2, 17)),
    // Ai–Bi+1, and Bj–Cj (including the curve B1–C1).
    (17, span(0, 1, 16) | span(1, 1, 16)),
    // Bj–Aj (including the curve B1–A1), and Ci–Bi+1.
    (-16, span(1, 1, 16) | span(2, 1, 16)),
    // Bj–Aj−1 (including the curve B17–A16), and Ci–Bi.
    (-17, span(1, 2, 17) | span(2, 1, 16)),
];

/// Capture triples (section 2) as (index step to the point jumped over, points a jump in that
/// direction may start from); the landing point is two steps away. The curves are not here.
const JUMP_DIRS: [(i8, u64); 6] = [
    (1, span(0, 1, 14) | span(1, 1, 15) | span(2, 1, 14)),
    (-1, span(0, 3, 16) | span(1, 3, 17) | span(2, 3, 16)),
    // Aj−1 over Bj to Cj.
    (17, span(0, 1, 15)),
    // Aj over Bj to Cj−1.
    (16, span(0, 2, 16)),
    // Cj over Bj to Aj−1.
    (-17, span(2, 2, 16)),
    // Cj−1 over Bj to Aj.
    (-16, span(2, 1, 15)),
];

/// The neighbours of each point along a line.
const NEIGHBOURS: [u64; POINTS as usize] = {
    let mut table = [0; POINTS as usize];
    let mut p = 0;
    while p < POINTS {
        let mut k = 0;
        while k < STEP_DIRS.len() {
            let (d, from) = STEP_DIRS[k];
            if from >> p & 1 == 1 {
                table[p as usize] |= 1 << (p as i8 + d) as u32;
            }
            k += 1;
        }
        p += 1;
    }
    table
};

/// The capture triples from one point: (over, landing) pairs, indexed by a 2-bit slot.
#[derive(Clone, Copy)]
struct Jumps {
    count: u8,
    triples: [(u8, u8); 4],
}

/// The capture triples from each point.
const JUMPS: [Jumps; POINTS as usize] = {
    let mut table = [Jumps {
        count: 0,
        triples: [(0, 0); 4],
    }; POINTS as usize];
    let mut p = 0;
    while p < POINTS {
        let mut k = 0;
        while k < JUMP_DIRS.len() {
            let (d, from) = JUMP_DIRS[k];
            if from >> p & 1 == 1 {
                let entry = &mut table[p as usize];
                entry.triples[entry.count as usize] =
                    ((p as i8 + d) as u8, (p as i8 + 2 * d) as u8);
                entry.count += 1;
            }
            k += 1;
        }
        p += 1;
    }
    table
};

impl Jumps {
    fn iter(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        self.triples[..usize::from(self.count)].iter().copied()
    }

    /// The slot of the triple from this point that lands on `to`.
    fn slot_to(&self, to: u8) -> Option<u8> {
        self.iter().position(|(_, r)| r == to).map(|s| s as u8)
    }
}

fn bit(p: u8) -> u64 {
    1 << p
}

/// The points of a set, lowest first.
fn points(mut set: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let p = set.trailing_zeros() as u8;
        set &= set - 1;
        Some(p)
    })
}

/// The pieces of `own` that can jump an `enemy` piece to an empty point.
fn jumpers(own: u64, enemy: u64, empty: u64) -> u64 {
    JUMP_DIRS.iter().fold(0, |acc, &(d, from)| {
        acc | own & from & back(enemy, d) & back(empty, 2 * d)
    })
}

/// Whether `own` can step to an empty point.
fn can_step(own: u64, empty: u64) -> bool {
    STEP_DIRS
        .iter()
        .any(|&(d, from)| own & from & back(empty, d) != 0)
}

/// A point of the board: `A1`–`A16`, `B1`–`B17`, `C1`–`C16`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u8);

impl Point {
    /// The point in `row` (`'A'`, `'B'` or `'C'`) with `number` (from 1), if there is one.
    pub fn new(row: char, number: u8) -> Option<Point> {
        let (r, last) = match row {
            'A' => (0, 16),
            'B' => (1, 17),
            'C' => (2, 16),
            _ => return None,
        };
        (1..=last)
            .contains(&number)
            .then(|| Point(index(r, number)))
    }

    /// Every point, in the order of the position string (by row, then by number).
    pub fn all() -> impl Iterator<Item = Point> {
        (0..POINTS).map(Point)
    }

    /// The row letter: `'A'` (North's home row, top), `'B'` (middle) or `'C'` (South's).
    pub fn row(self) -> char {
        char::from(b'A' + row_and_number(self.0).0)
    }

    /// The number within the row, from 1.
    pub fn number(self) -> u8 {
        row_and_number(self.0).1
    }

    /// The points joined to this one by a line (section 2), in order.
    pub fn neighbours(self) -> impl Iterator<Item = Point> {
        points(NEIGHBOURS[usize::from(self.0)]).map(Point)
    }

    /// Reads a point name; `any_case` also accepts a lower-case row letter.
    fn read(text: &str, any_case: bool) -> Option<Point> {
        let mut chars = text.chars();
        let mut row = chars.next()?;
        if any_case {
            row = row.to_ascii_uppercase();
        }
        let digits = chars.as_str();
        if digits.is_empty()
            || digits.len() > 2
            || digits.starts_with('0')
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        Point::new(row, digits.parse().ok()?)
    }
}

impl Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.row(), self.number())
    }
}

impl FromStr for Point {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Point::read(s, false).ok_or_else(|| NotationError::new(s, NotationProblem::KolowisPoint))
    }
}

/// A Kolowis move: a step (`C8-B9`) or a capture sequence (`C2xC4xC6`), in canonical notation
/// (section 8). Plain data, so events that carry it need no heap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    /// Where the piece ends: the step's target or the last landing point.
    to: u8,
    /// 0 for a step, else the number of jumps.
    jumps: u8,
    /// The slot in [`JUMPS`] of each jump, 2 bits each, the first jump lowest; 0 for a step.
    slots: u64,
}

impl Move {
    fn step(from: u8, to: u8) -> Self {
        Move {
            from,
            to,
            jumps: 0,
            slots: 0,
        }
    }

    /// The jumps as (over, landing) points.
    fn triples(self) -> impl Iterator<Item = (u8, u8)> {
        let mut at = self.from;
        (0..self.jumps).map(move |k| {
            let slot = (self.slots >> (2 * k)) & 3;
            let triple = JUMPS[usize::from(at)].triples[slot as usize];
            at = triple.1;
            triple
        })
    }

    /// The point the piece starts from.
    pub fn from(&self) -> Point {
        Point(self.from)
    }

    /// The point the piece ends on.
    pub fn to(&self) -> Point {
        Point(self.to)
    }

    /// Whether this is a capture sequence (not a step).
    pub fn is_capture(&self) -> bool {
        self.jumps > 0
    }

    /// The landing points of a capture sequence, in order (empty for a step).
    pub fn landings(&self) -> impl Iterator<Item = Point> {
        self.triples().map(|(_, to)| Point(to))
    }

    /// The points of the pieces a capture sequence takes, in order (empty for a step).
    pub fn captured(&self) -> impl Iterator<Item = Point> {
        self.triples().map(|(over, _)| Point(over))
    }
}

impl Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.from())?;
        if self.is_capture() {
            for landing in self.landings() {
                write!(f, "x{landing}")?;
            }
            Ok(())
        } else {
            write!(f, "-{}", self.to())
        }
    }
}

impl FromStr for Move {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = |why: NotationProblem| NotationError::new(s, why);
        let point = |name: &str| {
            Point::read(name, false)
                .map(|p| p.0)
                .ok_or_else(|| bad(NotationProblem::KolowisPoints))
        };
        if let Some((a, b)) = s.split_once('-') {
            let (from, to) = (point(a)?, point(b)?);
            if NEIGHBOURS[usize::from(from)] & bit(to) == 0 {
                return Err(bad(NotationProblem::KolowisStepOffLine));
            }
            return Ok(Move::step(from, to));
        }
        let mut parts = s.split('x');
        let from = point(parts.next().unwrap_or_default())?;
        let mut mv = Move {
            from,
            to: from,
            jumps: 0,
            slots: 0,
        };
        for part in parts {
            let landing = point(part)?;
            let slot = JUMPS[usize::from(mv.to)]
                .slot_to(landing)
                .ok_or_else(|| bad(NotationProblem::KolowisJumpOffLine))?;
            if mv.jumps == MAX_JUMPS {
                return Err(bad(NotationProblem::KolowisTooManyJumps));
            }
            mv.slots |= u64::from(slot) << (2 * mv.jumps);
            mv.jumps += 1;
            mv.to = landing;
        }
        if mv.jumps == 0 {
            return Err(bad(NotationProblem::KolowisMove));
        }
        Ok(mv)
    }
}

/// Why a stalled game ended (section 6.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stall {
    /// `stall` plies in a row were played without a capture.
    Quiet(u32),
    /// The same placement with the same side to move occurred for the third time.
    Repetition,
}

/// What a Kolowis move did. Plain data (no heap), so playouts stay fast.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// A piece stepped.
    Stepped {
        /// Who moved.
        seat: Seat,
        /// The step.
        mv: Move,
    },
    /// A piece made a capture sequence, taking the pieces of [`Move::captured`].
    Captured {
        /// Who captured.
        seat: Seat,
        /// The sequence.
        mv: Move,
    },
    /// The seat to move has no legal move and has lost (rule 7).
    NoMove {
        /// The seat that lost.
        loser: Seat,
    },
    /// The game stalled and was decided on piece count (rule 8).
    Stalled {
        /// Why it stalled.
        why: Stall,
        /// The result.
        outcome: Outcome,
        /// White's pieces on the board.
        white: u8,
        /// Black's pieces on the board.
        black: u8,
    },
}

impl Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Event::Stepped { seat, mv } => write!(f, "{} moved {mv}", seat_name(seat)),
            Event::Captured { seat, mv } => {
                write!(f, "{} captured {mv}, taking ", seat_name(seat))?;
                for (i, p) in mv.captured().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{p}")?;
                }
                Ok(())
            }
            Event::NoMove { loser } => write!(
                f,
                "{} has no legal move: {} wins",
                seat_name(loser),
                seat_name(other(loser))
            ),
            Event::Stalled {
                why,
                outcome,
                white,
                black,
            } => {
                match why {
                    Stall::Quiet(plies) => write!(f, "{plies} plies without a capture")?,
                    Stall::Repetition => f.write_str("the same position occurred a third time")?,
                }
                match outcome {
                    Outcome::Draw => write!(f, ": a draw, {white} pieces each"),
                    Outcome::Winner(team) => {
                        let (most, fewest) = (white.max(black), white.min(black));
                        let winner = seat_name(Seat(team.0));
                        write!(f, ": {winner} wins with {most} pieces against {fewest}")
                    }
                }
            }
        }
    }
}

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

/// The options of Kolowis (section 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Options {
    stall: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            stall: DEFAULT_STALL,
        }
    }
}

impl Options {
    /// Options with the stall limit `stall` (0 switches the house rule off).
    pub fn with_stall(stall: u32) -> Self {
        Options { stall }
    }

    /// The stall limit: plies without a capture that end the game; 0 when the house rule is off.
    pub fn stall(&self) -> u32 {
        self.stall
    }
}

/// Where the game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Phase {
    /// The seat to move picks a step or a capture sequence.
    Play,
    /// The seat to move has no legal move and has lost.
    NoMove,
    /// The game stalled and was decided on piece count.
    Stalled { why: Stall, outcome: Outcome },
}

/// A Kolowis position, with the positions since the last capture for the repetition rule.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Kolowis {
    options: Options,
    /// Pieces of each seat: White, Black.
    pieces: [u64; 2],
    turn: Seat,
    /// Plies since the last capture.
    quiet: u32,
    phase: Phase,
    /// The placements since the last capture (or since the start or the given position), the
    /// current one last; sides to move alternate, so entries of equal parity from the end have
    /// the same side to move. Empty when the stall rule is off.
    history: Vec<[u64; 2]>,
}

impl Clone for Kolowis {
    /// Keeps the history's capacity, so that a cloned state does not allocate while it plays.
    fn clone(&self) -> Self {
        let mut history = Vec::with_capacity(self.history.capacity());
        history.extend_from_slice(&self.history);
        Kolowis {
            options: self.options,
            pieces: self.pieces,
            turn: self.turn,
            quiet: self.quiet,
            phase: self.phase,
            history,
        }
    }
}

impl Kolowis {
    /// The start placement (section 3): White, Black.
    const START: [u64; 2] = [
        span(2, 1, 16) | span(1, 2, 8),
        span(0, 1, 16) | span(1, 10, 16),
    ];

    /// A state in play with these pieces; [`Kolowis::settle`] decides its phase.
    fn with_pieces(options: &Options, pieces: [u64; 2], turn: Seat, quiet: u32) -> Self {
        let mut history = Vec::new();
        if options.stall > 0 {
            // Room for every position up to the ply limit, within reason.
            history.reserve(options.stall.min(256) as usize + 1);
            history.push(pieces);
        }
        let mut game = Kolowis {
            options: *options,
            pieces,
            turn,
            quiet,
            phase: Phase::Play,
            history,
        };
        game.settle();
        game
    }

    /// The piece on a point, if any.
    pub fn piece_at(&self, point: Point) -> Option<Seat> {
        [WHITE, BLACK]
            .into_iter()
            .find(|s| self.pieces[usize::from(s.0)] & bit(point.0) != 0)
    }

    /// The points of a seat's pieces, in order.
    pub fn pieces(&self, seat: Seat) -> impl Iterator<Item = Point> {
        points(self.pieces[usize::from(seat.0 & 1)]).map(Point)
    }

    /// Why the game stalled, if it ended by the stall rule (a game ended by repetition cannot
    /// be told from its position string alone, which holds no history).
    pub fn stall_ending(&self) -> Option<Stall> {
        match self.phase {
            Phase::Stalled { why, .. } => Some(why),
            _ => None,
        }
    }

    /// Plies since the last capture (the `quiet` counter of the position string).
    pub fn quiet(&self) -> u32 {
        self.quiet
    }

    fn own_enemy_empty(&self) -> (u64, u64, u64) {
        let me = usize::from(self.turn.0);
        let (own, enemy) = (self.pieces[me], self.pieces[1 - me]);
        (own, enemy, ALL & !(own | enemy))
    }

    /// Decides the phase after a move or on reading a position, in the order of section 6.
    fn settle(&mut self) {
        let (own, enemy, empty) = self.own_enemy_empty();
        self.phase = if !can_step(own, empty) && jumpers(own, enemy, empty) == 0 {
            Phase::NoMove
        } else if self.options.stall == 0 {
            Phase::Play
        } else if self.quiet >= self.options.stall {
            self.stalled(Stall::Quiet(self.quiet))
        } else if self.repeated() {
            self.stalled(Stall::Repetition)
        } else {
            Phase::Play
        };
    }

    /// Whether the current placement (the last of the history) occurs for the third time with
    /// the same side to move.
    fn repeated(&self) -> bool {
        let current = self.pieces;
        self.history
            .iter()
            .rev()
            .step_by(2)
            .filter(|p| **p == current)
            .nth(2)
            .is_some()
    }

    fn counts(&self) -> (u8, u8) {
        (
            self.pieces[0].count_ones() as u8,
            self.pieces[1].count_ones() as u8,
        )
    }

    fn stalled(&self, why: Stall) -> Phase {
        let (white, black) = self.counts();
        let outcome = match white.cmp(&black) {
            std::cmp::Ordering::Greater => Outcome::Winner(Team(WHITE.0)),
            std::cmp::Ordering::Less => Outcome::Winner(Team(BLACK.0)),
            std::cmp::Ordering::Equal => Outcome::Draw,
        };
        Phase::Stalled { why, outcome }
    }

    /// Appends every capture sequence of the piece from `from`, now on `at` after `jumps`
    /// jumps (`slots` so far), with `enemy` and `empty` as the board now is.
    fn chains(
        out: &mut Vec<Move>,
        from: u8,
        at: u8,
        jumps: u8,
        slots: u64,
        enemy: u64,
        empty: u64,
    ) {
        if jumps == MAX_JUMPS {
            return;
        }
        for (slot, (over, to)) in JUMPS[usize::from(at)].iter().enumerate() {
            if enemy & bit(over) != 0 && empty & bit(to) != 0 {
                let slots = slots | (slot as u64) << (2 * jumps);
                out.push(Move {
                    from,
                    to,
                    jumps: jumps + 1,
                    slots,
                });
                Self::chains(
                    out,
                    from,
                    to,
                    jumps + 1,
                    slots,
                    enemy & !bit(over),
                    empty | bit(over),
                );
            }
        }
    }

    fn parse_points(fields: &Fields<'_>, key: &str) -> Result<u64, PositionError> {
        let mut set = 0;
        for name in fields.list(key) {
            let p = Point::read(name, true)
                .ok_or_else(|| PositionError::new(name, PositionProblem::NotAPoint))?;
            if set & bit(p.0) != 0 {
                return Err(PositionError::new(name, PositionProblem::PointListedTwice));
            }
            set |= bit(p.0);
        }
        Ok(set)
    }

    fn point_list(set: u64) -> String {
        let mut out = String::new();
        for p in points(set) {
            if !out.is_empty() {
                out.push(',');
            }
            let _ = write!(out, "{}", Point(p));
        }
        out
    }

    fn symbol(&self, p: u8) -> char {
        match self.piece_at(Point(p)) {
            Some(WHITE) => 'w',
            Some(_) => 'b',
            None => '.',
        }
    }

    fn describe(&self, p: u8) -> CellContents {
        let holds = match self.piece_at(Point(p)) {
            Some(s) => Holding::Piece(colour(s)),
            None => Holding::Empty,
        };
        CellContents::new(Point(p), holds)
    }

    /// The legal moves as canonical text, for error messages.
    fn move_list(moves: &[Move]) -> Vec<String> {
        moves.iter().map(ToString::to_string).collect()
    }

    /// Checks typed points `path` (at least two) move by move against the board and says what
    /// is wrong; the result is a move of this position's shape (legal unless something the
    /// checks miss).
    fn check_path(&self, path: &[u8], input: &str) -> Result<Move, MoveError> {
        let illegal = |reason: IllegalReason| MoveError::Illegal {
            input: input.to_string(),
            reason: Box::new(reason),
        };
        let (own, mut enemy, empty) = self.own_enemy_empty();
        let from = path[0];
        if let [_, to] = *path
            && NEIGHBOURS[usize::from(from)] & bit(to) != 0
        {
            if empty & bit(to) == 0 {
                return Err(illegal(IllegalReason::TargetOccupied {
                    what: self.describe(to),
                }));
            }
            if jumpers(own, enemy, empty) != 0 {
                return Err(illegal(IllegalReason::MustCapture {
                    captures: Self::move_list(&self.moves()),
                }));
            }
            return Ok(Move::step(from, to));
        }
        let mut empty = empty | bit(from);
        let mut mv = Move {
            from,
            to: from,
            jumps: 0,
            slots: 0,
        };
        for &next in &path[1..] {
            let at = mv.to;
            let (name_at, name_next) = (Point(at), Point(next));
            let jump = format!("{name_at}x{name_next}");
            if at == next {
                return Err(illegal(IllegalReason::MustMove {
                    cell: name_at.to_string(),
                }));
            }
            let jumps = JUMPS[usize::from(at)];
            if let Some(slot) = jumps.slot_to(next) {
                let over = jumps.triples[usize::from(slot)].0;
                if enemy & bit(over) == 0 {
                    let reason = if own & bit(over) != 0 {
                        IllegalReason::JumpsOwnPiece {
                            jump: Some(jump),
                            what: self.describe(over),
                        }
                    } else if self.pieces[1 - usize::from(self.turn.0)] & bit(over) != 0 {
                        IllegalReason::AlreadyCaptured {
                            jump,
                            point: Point(over).to_string(),
                        }
                    } else {
                        IllegalReason::NothingToJump {
                            jump: Some(jump),
                            cell: Point(over).to_string(),
                        }
                    };
                    return Err(illegal(reason));
                }
                if empty & bit(next) == 0 {
                    return Err(illegal(IllegalReason::LandingOccupied {
                        jump: Some(jump),
                        what: self.describe(next),
                    }));
                }
                if mv.jumps == MAX_JUMPS {
                    return Err(illegal(IllegalReason::TooManyJumps));
                }
                enemy &= !bit(over);
                empty |= bit(over);
                mv.slots |= u64::from(slot) << (2 * mv.jumps);
                mv.jumps += 1;
                mv.to = next;
            } else if NEIGHBOURS[usize::from(at)] & bit(next) != 0 {
                return Err(illegal(IllegalReason::StepInCapture {
                    step: format!("{name_at}-{name_next}"),
                }));
            } else if let Some(bend) =
                points(NEIGHBOURS[usize::from(at)] & NEIGHBOURS[usize::from(next)]).next()
            {
                return Err(illegal(IllegalReason::NotStraight {
                    from: name_at.to_string(),
                    to: name_next.to_string(),
                    bend: Point(bend).to_string(),
                }));
            } else {
                return Err(illegal(IllegalReason::NotJoined {
                    from: name_at.to_string(),
                    to: name_next.to_string(),
                }));
            }
        }
        Ok(mv)
    }
}

/// Reads typed points: a letter and a number each, separated by `-`, `x`, `:`, spaces, or
/// nothing (section 8).
fn typed_points(input: &str) -> Result<Vec<u8>, MoveError> {
    let unreadable = || MoveError::Unreadable {
        input: input.to_string(),
        game: GameId::Kolowis,
    };
    let mut out = Vec::new();
    let mut chars = input.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if matches!(c, '-' | 'x' | 'X' | ':') || c.is_whitespace() {
            chars.next();
            continue;
        }
        if !c.is_ascii_alphabetic() {
            return Err(unreadable());
        }
        chars.next();
        let mut end = start + 1;
        while let Some(&(i, d)) = chars.peek() {
            if !d.is_ascii_digit() {
                break;
            }
            end = i + 1;
            chars.next();
        }
        let name = &input[start..end];
        if end == start + 1 {
            return Err(unreadable());
        }
        match Point::read(name, true) {
            Some(p) => out.push(p.0),
            None => return Err(MoveError::NoSuchCell(name.to_string())),
        }
    }
    if out.is_empty() {
        return Err(unreadable());
    }
    Ok(out)
}

impl Game for Kolowis {
    type Move = Move;
    type Roll = NoRoll;
    type Event = Event;
    type Options = Options;

    const ID: &'static str = "kolowis";
    const NAME: &'static str = "Kolowis Awithlaknannai";
    const SEATS: &'static [&'static str] = &["white", "black"];
    const TEAMS: &'static [&'static str] = &["white", "black"];

    fn set_option(options: &mut Options, key: &str, value: &str) -> Result<(), SetupError> {
        match key {
            "stall" => {
                options.stall = number_option(key, value, 0..=u32::MAX)?;
                Ok(())
            }
            _ => Err(SetupError::UnknownOption {
                game: Self::ID,
                key: key.into(),
                allowed: "stall",
            }),
        }
    }

    fn option_pairs(options: &Options) -> Vec<(&'static str, String)> {
        vec![("stall", options.stall.to_string())]
    }

    fn new(options: &Options) -> Self {
        Self::with_pieces(options, Self::START, WHITE, 0)
    }

    fn from_position(options: &Options, text: &str) -> Result<Self, PositionError> {
        let fields = Fields::parse(text, &["turn", "white", "black", "quiet"])?;
        let turn = match fields.require("turn")? {
            "white" => WHITE,
            "black" => BLACK,
            other => {
                return Err(PositionError::new(
                    format!("turn={other}"),
                    PositionProblem::MustBe {
                        key: "turn",
                        choices: &["white", "black"],
                    },
                ));
            }
        };
        let white = Self::parse_points(&fields, "white")?;
        let black = Self::parse_points(&fields, "black")?;
        if let Some(p) = points(white & black).next() {
            return Err(PositionError::new(
                Point(p).to_string(),
                PositionProblem::PointUnderBoth,
            ));
        }
        let quiet = match fields.get("quiet") {
            None => 0,
            Some(value) => value
                .parse::<u32>()
                .ok()
                .filter(|_| value.bytes().all(|b| b.is_ascii_digit()))
                .ok_or_else(|| {
                    PositionError::new(
                        format!("quiet={value}"),
                        PositionProblem::Expected(Expected::Range {
                            min: 0,
                            max: u32::MAX,
                        }),
                    )
                })?,
        };
        Ok(Self::with_pieces(options, [white, black], turn, quiet))
    }

    fn position(&self) -> String {
        let quiet = if self.quiet == 0 {
            String::new()
        } else {
            self.quiet.to_string()
        };
        join_fields([
            ("turn", Self::SEATS[usize::from(self.turn.0)].to_string()),
            ("white", Self::point_list(self.pieces[0])),
            ("black", Self::point_list(self.pieces[1])),
            ("quiet", quiet),
        ])
    }

    fn drawing(&self) -> String {
        let mut out = String::with_capacity(512);
        let row = |out: &mut String, label: &str, r: u8, n: u8| {
            out.push_str(label);
            for i in 1..=n {
                if i > 1 {
                    out.push_str("---");
                }
                out.push(self.symbol(index(r, i)));
            }
            out.push('\n');
        };
        out.push_str("  ");
        for i in 1..=16 {
            let _ = write!(out, "{i:>4}");
        }
        out.push('\n');
        row(&mut out, "A    ", 0, 16);
        out.push_str("   ");
        out.push_str(&" / \\".repeat(16));
        out.push('\n');
        row(&mut out, "B  ", 1, 17);
        out.push_str("   ");
        out.push_str(&" \\ /".repeat(16));
        out.push('\n');
        row(&mut out, "C    ", 2, 16);
        for j in 1..=17 {
            let _ = write!(out, "{j:>4}");
        }
        out.push('\n');
        if self.options.stall > 0 && self.quiet != 0 {
            let _ = writeln!(out, "quiet {} of {}", self.quiet, self.options.stall);
        }
        out
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn status(&self) -> Status {
        match self.phase {
            Phase::Play => Status::Decision(self.turn),
            Phase::NoMove => Status::Done(Outcome::Winner(Team(other(self.turn).0))),
            Phase::Stalled { outcome, .. } => Status::Done(outcome),
        }
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.phase != Phase::Play {
            return;
        }
        let (own, enemy, empty) = self.own_enemy_empty();
        let capturers = jumpers(own, enemy, empty);
        if capturers != 0 {
            for from in points(capturers) {
                Self::chains(out, from, from, 0, 0, enemy, empty | bit(from));
            }
        } else {
            for from in points(own) {
                for to in points(NEIGHBOURS[usize::from(from)] & empty) {
                    out.push(Move::step(from, to));
                }
            }
        }
    }

    fn chance_outcomes(&self, _out: &mut Vec<(NoRoll, u32)>) {}

    fn apply_move_unchecked(&mut self, mv: &Move, events: &mut Vec<Event>) {
        let seat = self.turn;
        let me = usize::from(seat.0);
        self.pieces[me] &= !bit(mv.from);
        self.pieces[me] |= bit(mv.to);
        if mv.is_capture() {
            for (over, _) in mv.triples() {
                self.pieces[1 - me] &= !bit(over);
            }
            self.quiet = 0;
            self.history.clear();
            events.push(Event::Captured { seat, mv: *mv });
        } else {
            self.quiet = self.quiet.saturating_add(1);
            events.push(Event::Stepped { seat, mv: *mv });
        }
        if self.options.stall > 0 {
            self.history.push(self.pieces);
        }
        self.turn = other(seat);
        self.settle();
        match self.phase {
            Phase::Play => {}
            Phase::NoMove => events.push(Event::NoMove { loser: self.turn }),
            Phase::Stalled { why, outcome } => {
                let (white, black) = self.counts();
                events.push(Event::Stalled {
                    why,
                    outcome,
                    white,
                    black,
                });
            }
        }
    }

    fn apply_roll_unchecked(&mut self, roll: &NoRoll, _events: &mut Vec<Event>) {
        match *roll {}
    }

    fn interpret(&self, text: &str) -> Result<Move, MoveError> {
        let input = text.trim();
        if let Status::Done(_) = self.status() {
            return Err(MoveError::NoMoveNow(NoMoveReason::GameOver));
        }
        let path = typed_points(input)?;
        let from = path[0];
        let (own, ..) = self.own_enemy_empty();
        if own & bit(from) == 0 {
            return Err(MoveError::NotYourPiece {
                cell: Point(from).to_string(),
                why: NotYours::ToMove {
                    contents: self.describe(from),
                    mover: colour(self.turn),
                },
            });
        }
        let moves = self.moves();
        if let [_] = path[..] {
            let candidates: Vec<String> = moves
                .iter()
                .filter(|m| m.from == from)
                .map(ToString::to_string)
                .collect();
            if candidates.is_empty() {
                let reason = if moves.first().is_some_and(Move::is_capture) {
                    IllegalReason::MustCapture {
                        captures: Self::move_list(&moves),
                    }
                } else {
                    IllegalReason::PieceCannotMove {
                        what: self.describe(from),
                    }
                };
                return Err(MoveError::Illegal {
                    input: input.to_string(),
                    reason: Box::new(reason),
                });
            }
            // A lone point is an abbreviation: accepted when that piece has one legal move.
            if let [only] = &candidates[..]
                && let Some(mv) = moves.iter().find(|m| &m.to_string() == only)
            {
                return Ok(*mv);
            }
            return Err(MoveError::Ambiguous {
                input: input.to_string(),
                candidates,
            });
        }
        let mv = self.check_path(&path, input)?;
        if moves.contains(&mv) {
            Ok(mv)
        } else {
            Err(MoveError::Illegal {
                input: input.to_string(),
                reason: Box::new(IllegalReason::NotLegalHere {
                    legal: Self::move_list(&moves),
                }),
            })
        }
    }
}
