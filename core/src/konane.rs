//! Konane (Hawaiian checkers), as in `shared/rules/konane.md`.
//!
//! A square board (option `size` 6, 8, 10 or 12, default 8) starts full of stones in a
//! checkerboard pattern (`a1` White, rule N2). Black removes one of his stones from the central
//! 2×2 block or a corner (rule 1), White one of his stones next to the hole (rule 2); from then on
//! every turn is a jump over an adjacent enemy stone into the empty cell beyond, continuing in the
//! same direction as far as the player likes (rules 3–6). Each stopping point is its own move.
//! The player who cannot jump loses (rule 7); there are no draws.
//!
//! The board is a 192-bit set with 16 bits per rank, so the padding files beyond the board are
//! always empty and jumps never wrap round an edge.

use std::fmt::{self, Display};
use std::str::FromStr;

use crate::any::GameId;
use crate::error::{
    CellContents, Colour, Holding, IllegalReason, MoveError, NoMoveReason, NotYours, NotationError,
    NotationProblem, PositionError, PositionProblem, SetupError,
};
use crate::game::{Game, NoRoll, Outcome, Seat, Status, Team};
use crate::text::{Fields, choice_option, join_fields};

/// Bits per rank of the board set.
const STRIDE: i16 = 16;
/// Black moves first and is seat 0.
const BLACK: Seat = Seat(0);
/// White is seat 1.
const WHITE: Seat = Seat(1);

/// A set of cells: bit `rank * 16 + file`, both from 0.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
struct Bits([u64; 3]);

impl fmt::Debug for Bits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.iter().map(|c| CellName(c).to_string()))
            .finish()
    }
}

impl Bits {
    fn has(self, cell: i16) -> bool {
        (0..192).contains(&cell) && self.0[(cell / 64) as usize] >> (cell % 64) & 1 == 1
    }
    fn set(&mut self, cell: i16) {
        self.0[(cell / 64) as usize] |= 1 << (cell % 64);
    }
    fn clear(&mut self, cell: i16) {
        self.0[(cell / 64) as usize] &= !(1 << (cell % 64));
    }
    fn and(self, o: Bits) -> Bits {
        Bits([self.0[0] & o.0[0], self.0[1] & o.0[1], self.0[2] & o.0[2]])
    }
    fn or(self, o: Bits) -> Bits {
        Bits([self.0[0] | o.0[0], self.0[1] | o.0[1], self.0[2] | o.0[2]])
    }
    fn without(self, o: Bits) -> Bits {
        Bits([
            self.0[0] & !o.0[0],
            self.0[1] & !o.0[1],
            self.0[2] & !o.0[2],
        ])
    }
    fn is_empty(self) -> bool {
        self.0 == [0; 3]
    }
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    /// The set of cells `c` such that `c + step` is in `self` (`step` in 1..64 or -63..0).
    fn toward(self, step: i16) -> Bits {
        let [a, b, c] = self.0;
        if step > 0 {
            let n = step as u32;
            Bits([a >> n | b << (64 - n), b >> n | c << (64 - n), c >> n])
        } else {
            let n = (-step) as u32;
            Bits([a << n, b << n | a >> (64 - n), c << n | b >> (64 - n)])
        }
    }
    fn iter(self) -> impl Iterator<Item = i16> {
        (0..3).flat_map(move |w| {
            let mut word = self.0[w];
            std::iter::from_fn(move || {
                if word == 0 {
                    return None;
                }
                let bit = word.trailing_zeros() as i16;
                word &= word - 1;
                Some(w as i16 * 64 + bit)
            })
        })
    }
}

/// The four jump directions as index steps: east, west, north, south.
const DIRS: [i16; 4] = [1, -1, STRIDE, -STRIDE];

fn cell(file: i16, rank: i16) -> i16 {
    rank * STRIDE + file
}
fn file_of(c: i16) -> i16 {
    c % STRIDE
}
fn rank_of(c: i16) -> i16 {
    c / STRIDE
}

/// Displays a cell index as `e4`.
#[derive(Debug)]
struct CellName(i16);

impl Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = char::from(b'a' + file_of(self.0) as u8);
        write!(f, "{file}{}", rank_of(self.0) + 1)
    }
}

/// Reads a cell name (`e4`, case-insensitive) into a cell index, without checking the board
/// size beyond the largest board (files `a`–`l`, ranks 1–12). `None` if it is not a cell name
/// at all; `Some(Err)` if it looks like one but lies outside the largest board.
fn read_cell(text: &str) -> Option<Result<i16, ()>> {
    let mut chars = text.chars();
    let letter = chars.next()?.to_ascii_lowercase();
    let digits = chars.as_str();
    if !letter.is_ascii_lowercase()
        || digits.is_empty()
        || digits.len() > 3
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let rank: i16 = digits.parse().ok()?;
    let file = (letter as u8 - b'a') as i16;
    if file >= 12 || !(1..=12).contains(&rank) || digits.starts_with('0') {
        return Some(Err(()));
    }
    Some(Ok(cell(file, rank - 1)))
}

/// The options of Konane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Options {
    /// The board size, when set explicitly (the default is 8).
    size: Option<u8>,
}

impl Options {
    /// Options with the given board size.
    ///
    /// # Errors
    /// A size other than 6, 8, 10 or 12.
    pub fn with_size(size: u8) -> Result<Self, SetupError> {
        let mut options = Self::default();
        Konane::set_option(&mut options, "size", &size.to_string())?;
        Ok(options)
    }

    /// The board size.
    pub fn size(&self) -> u8 {
        self.size.unwrap_or(8)
    }
}

/// A Konane move in canonical notation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// An opening removal: `e4`.
    Remove(u8),
    /// A jump chain from a cell in one direction: `d4-f4-h4`.
    Jump {
        /// The starting cell.
        from: u8,
        /// Index into the east, west, north, south directions.
        dir: u8,
        /// The number of jumps, at least 1.
        jumps: u8,
    },
}

impl Move {
    fn landings(self) -> impl Iterator<Item = i16> {
        let (from, step, jumps) = match self {
            Move::Remove(_) => (0, 0, 0),
            Move::Jump { from, dir, jumps } => (i16::from(from), DIRS[usize::from(dir)], jumps),
        };
        (1..=i16::from(jumps)).map(move |k| from + 2 * k * step)
    }

    /// The cells the move touches, as (file, rank) from 0: the removed cell, or the start and
    /// every landing cell of a jump.
    pub fn path(&self) -> Vec<(u8, u8)> {
        let (Move::Remove(c) | Move::Jump { from: c, .. }) = *self;
        std::iter::once(i16::from(c))
            .chain(self.landings())
            .map(|c| (file_of(c) as u8, rank_of(c) as u8))
            .collect()
    }

    /// The cells of the stones a jump captures, as (file, rank) from 0.
    pub fn captured(&self) -> Vec<(u8, u8)> {
        let step = match *self {
            Move::Remove(_) => 0,
            Move::Jump { dir, .. } => DIRS[usize::from(dir)],
        };
        self.landings()
            .map(|c| ((file_of(c - step)) as u8, rank_of(c - step) as u8))
            .collect()
    }

    /// The starting cell of a jump or the removed cell, as text.
    pub fn from_cell(&self) -> String {
        match *self {
            Move::Remove(c) | Move::Jump { from: c, .. } => CellName(i16::from(c)).to_string(),
        }
    }

    /// The cells of the stones a jump captures, as text (empty for a removal).
    pub fn captured_cells(&self) -> Vec<String> {
        let step = match *self {
            Move::Remove(_) => 0,
            Move::Jump { dir, .. } => DIRS[usize::from(dir)],
        };
        self.landings()
            .map(|c| CellName(c - step).to_string())
            .collect()
    }

    /// The landing cells of a jump, as text (empty for a removal).
    pub fn landing_cells(&self) -> Vec<String> {
        self.landings().map(|c| CellName(c).to_string()).collect()
    }
}

impl Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Remove(c) => write!(f, "{}", CellName(i16::from(c))),
            Move::Jump { from, .. } => {
                write!(f, "{}", CellName(i16::from(from)))?;
                for landing in self.landings() {
                    write!(f, "-{}", CellName(landing))?;
                }
                Ok(())
            }
        }
    }
}

impl FromStr for Move {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || NotationError::new(s, NotationProblem::KonaneMove);
        let mut cells = Vec::new();
        for part in s.split('-') {
            match read_cell(part) {
                Some(Ok(c)) if CellName(c).to_string() == part => cells.push(c),
                _ => return Err(bad()),
            }
        }
        if let [only] = cells[..] {
            return Ok(Move::Remove(only as u8));
        }
        let step = (cells[1] - cells[0]) / 2;
        let dir = DIRS.iter().position(|d| *d == step).ok_or_else(bad)?;
        if cells.windows(2).any(|w| w[1] - w[0] != 2 * step)
            || cells.iter().any(|c| file_of(*c) >= 12)
        {
            return Err(bad());
        }
        Ok(Move::Jump {
            from: cells[0] as u8,
            dir: dir as u8,
            jumps: (cells.len() - 1) as u8,
        })
    }
}

/// What a Konane action did. Events are plain data (no heap), so playouts stay fast.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// A stone was removed in the opening.
    Removed {
        /// Who removed it.
        seat: Seat,
        /// The removal.
        mv: Move,
    },
    /// A stone jumped and captured the stones it jumped over ([`Move::captured_cells`]).
    Jumped {
        /// Who jumped.
        seat: Seat,
        /// The jump.
        mv: Move,
    },
    /// The seat to move cannot jump and has lost.
    NoJump {
        /// The seat that lost.
        loser: Seat,
    },
}

impl Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Removed { seat, mv } => write!(f, "{} removed {mv}", seat_name(*seat)),
            Event::Jumped { seat, mv } => write!(
                f,
                "{} jumped {mv}, capturing {}",
                seat_name(*seat),
                mv.captured_cells().join(", ")
            ),
            Event::NoJump { loser } => write!(
                f,
                "{} cannot jump: {} wins",
                seat_name(*loser),
                seat_name(other(*loser))
            ),
        }
    }
}

fn seat_name(seat: Seat) -> &'static str {
    if seat == BLACK { "Black" } else { "White" }
}

fn colour(seat: Seat) -> Colour {
    if seat == BLACK {
        Colour::Black
    } else {
        Colour::White
    }
}

fn other(seat: Seat) -> Seat {
    Seat(1 - seat.0)
}

/// Where the game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Phase {
    /// Black removes a stone (opening turn 1).
    RemoveBlack,
    /// White removes a stone next to the hole (opening turn 2).
    RemoveWhite { hole: i16 },
    /// The seat to move must jump.
    Jump,
    /// The seat to move has no jump and has lost.
    Lost,
}

/// A Konane position.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Konane {
    options: Options,
    /// Stones of each seat: Black, White.
    stones: [Bits; 2],
    /// All cells of the board.
    board: Bits,
    turn: Seat,
    phase: Phase,
}

impl Konane {
    fn size(&self) -> i16 {
        i16::from(self.options.size())
    }

    fn cells_of(size: i16) -> impl Iterator<Item = i16> {
        (0..size).flat_map(move |r| (0..size).map(move |f| cell(f, r)))
    }

    fn is_black_cell(c: i16) -> bool {
        (file_of(c) + rank_of(c)) % 2 == 1
    }

    /// The start board: every cell holds a stone of its own colour.
    fn start_stones(size: i16) -> [Bits; 2] {
        let mut stones = [Bits::default(); 2];
        for c in Self::cells_of(size) {
            stones[usize::from(!Self::is_black_cell(c))].set(c);
        }
        stones
    }

    /// Black's four removable cells (rule 1): the Black cells of the central 2×2 block and the
    /// two Black corners.
    fn black_removals(size: i16) -> [i16; 4] {
        let lo = size / 2 - 1;
        let hi = size / 2;
        let mut centre = [cell(lo, lo), cell(lo, hi), cell(hi, lo), cell(hi, hi)]
            .into_iter()
            .filter(|c| Self::is_black_cell(*c));
        let (Some(c1), Some(c2)) = (centre.next(), centre.next()) else {
            unreachable!("an even board has two Black cells in its central block")
        };
        [cell(0, size - 1), c1, c2, cell(size - 1, 0)]
    }

    fn empty(&self) -> Bits {
        self.board.without(self.stones[0].or(self.stones[1]))
    }

    fn neighbours(&self, c: i16) -> impl Iterator<Item = i16> + '_ {
        DIRS.iter()
            .map(move |d| c + d)
            .filter(move |n| self.board.has(*n) && (file_of(*n) - file_of(c)).abs() <= 1)
    }

    /// The cells from which the seat can make at least one jump in direction `step`, given
    /// the empty cells.
    fn jumpers(&self, seat: Seat, step: i16, empty: Bits) -> Bits {
        let own = self.stones[usize::from(seat.0)];
        let enemy = self.stones[usize::from(other(seat).0)];
        own.and(enemy.toward(step)).and(empty.toward(2 * step))
    }

    fn can_jump(&self, seat: Seat) -> bool {
        let empty = self.empty();
        DIRS.iter()
            .any(|d| !self.jumpers(seat, *d, empty).is_empty())
    }

    /// Sets the phase after a jump or White's removal: the seat to move jumps or has lost.
    fn settle(&mut self) {
        self.phase = if self.can_jump(self.turn) {
            Phase::Jump
        } else {
            Phase::Lost
        };
    }

    fn parse_cells(&self, fields: &Fields<'_>, key: &str) -> Result<Bits, PositionError> {
        let mut set = Bits::default();
        for name in fields.list(key) {
            let c = match read_cell(name) {
                Some(Ok(c)) if self.board.has(c) && CellName(c).to_string() == name => c,
                _ => {
                    return Err(PositionError::new(
                        name,
                        PositionProblem::NotOnBoard {
                            size: self.board_size(),
                        },
                    ));
                }
            };
            if set.has(c) {
                return Err(PositionError::new(name, PositionProblem::CellListedTwice));
            }
            set.set(c);
        }
        Ok(set)
    }

    fn cell_list(&self, set: Bits) -> String {
        let mut cells: Vec<i16> = set.iter().collect();
        cells.sort_by_key(|c| (file_of(*c), rank_of(*c)));
        cells
            .iter()
            .map(|c| CellName(*c).to_string())
            .collect::<Vec<_>>()
            .join(",")
    }

    fn stone_at(&self, c: i16) -> Option<Seat> {
        (0..2u8)
            .map(Seat)
            .find(|s| self.stones[usize::from(s.0)].has(c))
    }

    /// Reads a cell typed by a person, checking it against this board.
    fn typed_cell(&self, text: &str, whole: &str) -> Result<i16, MoveError> {
        match read_cell(text) {
            Some(Ok(c)) if self.board.has(c) => Ok(c),
            Some(_) => Err(MoveError::NoSuchCell(text.to_string())),
            None => Err(unreadable(whole)),
        }
    }

    fn describe(&self, c: i16) -> CellContents {
        let holds = match self.stone_at(c) {
            Some(s) => Holding::Stone(colour(s)),
            None => Holding::Empty,
        };
        CellContents::new(CellName(c), holds)
    }

    fn interpret_removal(&self, c: i16, input: &str) -> Result<Move, MoveError> {
        let mv = Move::Remove(c as u8);
        if self.moves().contains(&mv) {
            return Ok(mv);
        }
        if self.stone_at(c) != Some(self.turn) {
            return Err(MoveError::NotYourPiece {
                cell: CellName(c).to_string(),
                why: NotYours::RemovesOwnStone {
                    contents: self.describe(c),
                    mover: colour(self.turn),
                },
            });
        }
        let choices: Vec<String> = self.moves().iter().map(ToString::to_string).collect();
        let hole = match self.phase {
            Phase::RemoveWhite { hole } => Some(CellName(hole).to_string()),
            _ => None,
        };
        Err(MoveError::Illegal {
            input: input.to_string(),
            reason: Box::new(IllegalReason::NotRemovable { hole, choices }),
        })
    }

    fn interpret_jump(&self, cells: &[i16], input: &str) -> Result<Move, MoveError> {
        let from = cells[0];
        if self.stone_at(from) != Some(self.turn) {
            return Err(MoveError::NotYourPiece {
                cell: CellName(from).to_string(),
                why: NotYours::Holds(self.describe(from)),
            });
        }
        let illegal = |reason: IllegalReason| MoveError::Illegal {
            input: input.to_string(),
            reason: Box::new(reason),
        };
        let mut step = 0;
        for pair in cells.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let delta = b - a;
            let this = if rank_of(a) == rank_of(b) {
                delta.signum()
            } else if file_of(a) == file_of(b) {
                delta.signum() * STRIDE
            } else {
                return Err(illegal(IllegalReason::NotInLine {
                    from: CellName(a).to_string(),
                    to: CellName(b).to_string(),
                }));
            };
            if delta == 0 {
                return Err(illegal(IllegalReason::MustMove {
                    cell: CellName(a).to_string(),
                }));
            }
            if step != 0 && this != step {
                return Err(illegal(IllegalReason::ChainTurns));
            }
            step = this;
        }
        // Expand a chain given by its start and end only.
        let mut landings: Vec<i16> = cells[1..].to_vec();
        if let [end] = landings[..] {
            let distance = (end - from) / step;
            if distance % 2 != 0 {
                return Err(illegal(IllegalReason::OddDistance));
            }
            landings = (1..=distance / 2).map(|k| from + 2 * k * step).collect();
        }
        let mut at = from;
        for landing in &landings {
            if landing - at != 2 * step {
                return Err(illegal(IllegalReason::NotOneJump {
                    from: CellName(at).to_string(),
                    to: CellName(*landing).to_string(),
                }));
            }
            let over = at + step;
            match self.stone_at(over) {
                Some(s) if s == self.turn => {
                    return Err(illegal(IllegalReason::JumpsOwnPiece {
                        jump: None,
                        what: self.describe(over),
                    }));
                }
                None => {
                    return Err(illegal(IllegalReason::NothingToJump {
                        jump: None,
                        cell: CellName(over).to_string(),
                    }));
                }
                Some(_) => {}
            }
            if *landing != from && self.stone_at(*landing).is_some() {
                return Err(illegal(IllegalReason::LandingOccupied {
                    jump: None,
                    what: self.describe(*landing),
                }));
            }
            at = *landing;
        }
        let dir = DIRS.iter().position(|d| *d == step).unwrap_or(0) as u8;
        Ok(Move::Jump {
            from: from as u8,
            dir,
            jumps: landings.len() as u8,
        })
    }
}

fn unreadable(input: &str) -> MoveError {
    MoveError::Unreadable {
        input: input.to_string(),
        game: GameId::Konane,
    }
}

impl Konane {
    /// The board size (6, 8, 10 or 12).
    pub fn board_size(&self) -> u8 {
        self.options.size()
    }

    /// The stone on a cell, by file and rank from 0 (`a1` is `(0, 0)`).
    pub fn stone(&self, file: u8, rank: u8) -> Option<Seat> {
        if file >= self.board_size() || rank >= self.board_size() {
            return None;
        }
        self.stone_at(cell(i16::from(file), i16::from(rank)))
    }

    /// Whether the game is in the opening (a removal is due).
    pub fn in_opening(&self) -> bool {
        matches!(self.phase, Phase::RemoveBlack | Phase::RemoveWhite { .. })
    }
}

impl Game for Konane {
    type Move = Move;
    type Roll = NoRoll;
    type Event = Event;
    type Options = Options;

    const ID: &'static str = "konane";
    const NAME: &'static str = "Konane";
    const SEATS: &'static [&'static str] = &["black", "white"];
    const TEAMS: &'static [&'static str] = &["black", "white"];

    fn set_option(options: &mut Options, key: &str, value: &str) -> Result<(), SetupError> {
        match key {
            "size" => {
                let sizes = ["6", "8", "10", "12"];
                let i = choice_option(key, value, &sizes)?;
                options.size = Some(6 + 2 * i as u8);
                Ok(())
            }
            _ => Err(SetupError::UnknownOption {
                game: Self::ID,
                key: key.into(),
                allowed: "size",
            }),
        }
    }

    fn option_pairs(options: &Options) -> Vec<(&'static str, String)> {
        vec![("size", options.size().to_string())]
    }

    fn new(options: &Options) -> Self {
        let size = i16::from(options.size());
        let mut board = Bits::default();
        for c in Self::cells_of(size) {
            board.set(c);
        }
        Konane {
            // Stored normalised, so that equal games compare equal however the size was given.
            options: Options {
                size: Some(options.size()),
            },
            stones: Self::start_stones(size),
            board,
            turn: BLACK,
            phase: Phase::RemoveBlack,
        }
    }

    fn from_position(options: &Options, text: &str) -> Result<Self, PositionError> {
        let fields = Fields::parse(text, &["size", "turn", "black", "white"])?;
        let mut options = *options;
        if let Some(size) = fields.get("size") {
            let mut given = Options::default();
            Self::set_option(&mut given, "size", size).map_err(|_| {
                PositionError::new(
                    size,
                    PositionProblem::MustBe {
                        key: "size",
                        choices: &["6", "8", "10", "12"],
                    },
                )
            })?;
            if options.size.is_some_and(|s| Some(s) != given.size) {
                return Err(PositionError::new(
                    format!("size={size}"),
                    PositionProblem::SizeDisagrees {
                        option: options.size(),
                    },
                ));
            }
            options = given;
        }
        let mut game = Self::new(&options);
        let turn = fields.require("turn")?;
        game.turn = match turn {
            "black" => BLACK,
            "white" => WHITE,
            _ => {
                return Err(PositionError::new(
                    turn,
                    PositionProblem::MustBe {
                        key: "turn",
                        choices: &["black", "white"],
                    },
                ));
            }
        };
        let black = game.parse_cells(&fields, "black")?;
        let white = game.parse_cells(&fields, "white")?;
        if let Some(c) = black.and(white).iter().next() {
            return Err(PositionError::new(
                CellName(c).to_string(),
                PositionProblem::UnderBothColours,
            ));
        }
        game.stones = [black, white];
        let size = game.size();
        let start = Self::start_stones(size);
        let holes = game.empty().count();
        game.phase = match holes {
            0 if game.stones == start && game.turn == BLACK => Phase::RemoveBlack,
            1 if game.turn == WHITE => {
                let hole = game.empty().iter().next().unwrap_or(0);
                let mut expected = start;
                expected[0].clear(hole);
                if game.stones != expected || !Self::black_removals(size).contains(&hole) {
                    return Err(PositionError::new(
                        text.trim(),
                        PositionProblem::KonaneOneHole,
                    ));
                }
                Phase::RemoveWhite { hole }
            }
            0 | 1 => {
                return Err(PositionError::new(
                    text.trim(),
                    PositionProblem::KonaneNoHole,
                ));
            }
            _ => Phase::Jump,
        };
        if game.phase == Phase::Jump {
            game.settle();
        }
        Ok(game)
    }

    fn position(&self) -> String {
        join_fields([
            ("size", self.size().to_string()),
            ("turn", Self::SEATS[usize::from(self.turn.0)].to_string()),
            ("black", self.cell_list(self.stones[0])),
            ("white", self.cell_list(self.stones[1])),
        ])
    }

    fn drawing(&self) -> String {
        let n = self.size();
        let letters: String = (0..n)
            .map(|f| format!(" {}", char::from(b'a' + f as u8)))
            .collect();
        let mut out = format!("   {letters}\n");
        for r in (0..n).rev() {
            out.push_str(&format!("{:>2} ", r + 1));
            for f in 0..n {
                let c = cell(f, r);
                let ch = match self.stone_at(c) {
                    Some(BLACK) => 'B',
                    Some(_) => 'W',
                    None => '.',
                };
                out.push(' ');
                out.push(ch);
            }
            out.push_str(&format!("  {}\n", r + 1));
        }
        out.push_str(&format!("   {letters}\n"));
        out
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn status(&self) -> Status {
        match self.phase {
            Phase::Lost => Status::Done(Outcome::Winner(Team(other(self.turn).0))),
            _ => Status::Decision(self.turn),
        }
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        match self.phase {
            Phase::RemoveBlack => out.extend(
                Self::black_removals(self.size())
                    .into_iter()
                    .filter(|c| self.stones[0].has(*c))
                    .map(|c| Move::Remove(c as u8)),
            ),
            Phase::RemoveWhite { hole } => out.extend(
                self.neighbours(hole)
                    .filter(|c| self.stones[1].has(*c))
                    .map(|c| Move::Remove(c as u8)),
            ),
            Phase::Jump => {
                let enemy = self.stones[usize::from(other(self.turn).0)];
                let empty = self.empty();
                for (dir, step) in DIRS.iter().enumerate() {
                    for from in self.jumpers(self.turn, *step, empty).iter() {
                        let mut jumps = 1u8;
                        out.push(Move::Jump {
                            from: from as u8,
                            dir: dir as u8,
                            jumps,
                        });
                        let mut at = from + 2 * step;
                        while enemy.has(at + step) && empty.has(at + 2 * step) {
                            jumps += 1;
                            at += 2 * step;
                            out.push(Move::Jump {
                                from: from as u8,
                                dir: dir as u8,
                                jumps,
                            });
                        }
                    }
                }
            }
            Phase::Lost => {}
        }
    }

    fn chance_outcomes(&self, _out: &mut Vec<(NoRoll, u32)>) {}

    fn apply_move_unchecked(&mut self, mv: &Move, events: &mut Vec<Event>) {
        let seat = self.turn;
        let me = usize::from(seat.0);
        match *mv {
            Move::Remove(c) => {
                let c = i16::from(c);
                self.stones[me].clear(c);
                events.push(Event::Removed { seat, mv: *mv });
                self.turn = other(seat);
                if matches!(self.phase, Phase::RemoveBlack) {
                    self.phase = Phase::RemoveWhite { hole: c };
                } else {
                    self.settle();
                }
            }
            Move::Jump { from, dir, jumps } => {
                let step = DIRS[usize::from(dir)];
                let mut at = i16::from(from);
                self.stones[me].clear(at);
                for _ in 0..jumps {
                    self.stones[1 - me].clear(at + step);
                    at += 2 * step;
                }
                self.stones[me].set(at);
                events.push(Event::Jumped { seat, mv: *mv });
                self.turn = other(seat);
                self.settle();
            }
        }
        if self.phase == Phase::Lost {
            events.push(Event::NoJump { loser: self.turn });
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
        let lower = input.to_ascii_lowercase();
        let (removal, body) = match lower.strip_prefix("remove") {
            Some(rest) => (true, rest.trim()),
            None => (false, lower.as_str()),
        };
        if body.is_empty() {
            return Err(unreadable(input));
        }
        let cells = body
            .split('-')
            .map(|part| self.typed_cell(part.trim(), input))
            .collect::<Result<Vec<_>, _>>()?;
        match (self.phase, &cells[..]) {
            (Phase::RemoveBlack | Phase::RemoveWhite { .. }, [c]) => {
                self.interpret_removal(*c, input)
            }
            (Phase::RemoveBlack | Phase::RemoveWhite { .. }, _) => Err(MoveError::Illegal {
                input: input.to_string(),
                reason: Box::new(IllegalReason::MustRemoveInOpening),
            }),
            _ if removal => Err(MoveError::Illegal {
                input: input.to_string(),
                reason: Box::new(IllegalReason::RemovalsAreOver),
            }),
            (_, [_]) => Err(MoveError::Illegal {
                input: input.to_string(),
                reason: Box::new(IllegalReason::MustJump),
            }),
            _ => {
                let mv = self.interpret_jump(&cells, input)?;
                if self.moves().contains(&mv) {
                    Ok(mv)
                } else {
                    Err(MoveError::Illegal {
                        input: input.to_string(),
                        reason: Box::new(IllegalReason::NotLegalHere { legal: Vec::new() }),
                    })
                }
            }
        }
    }
}
