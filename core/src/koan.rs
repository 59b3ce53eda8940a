//! Koan (Ko-an), as in `shared/rules/koan.md`.
//!
//! A race with captures on 61 cells: 36 octagons (columns `A C E G I K`, rows `1 3 … 11`) and
//! 25 squares between them (columns `B D F H J`, rows `2 4 … 10`) (section 2). Each player has
//! six octagonal and five square pieces (section 3); White starts on rows 1–2 and moves first
//! (section 4), Black on rows 10–11. A turn moves one piece one space forwards (rule 1): from an
//! octagon to the octagon straight ahead or a square diagonally ahead, from a square to an
//! octagon diagonally ahead; the targets depend on the cell, not on the piece (section 2). A
//! piece never enters a cell of its own colour (rule 3); it captures an enemy piece by moving
//! onto it, but only when its shape matches the cell (an octagonal piece on an octagon, a square
//! piece on a square, rule 4); capturing is optional (rule 6). A piece arriving on the far row
//! wins at once (rule 7, section 6.1); a player to move without a legal move loses (rule 8,
//! section 6.2). There are no draws and no options (section 7).
//!
//! The board is a 121-bit set (`u128`, bit `row * 11 + column`), one set per owner and shape,
//! so move generation is three shifts per side and the status is cached after every move.

use std::fmt::{self, Display};
use std::str::FromStr;

use crate::any::GameId;
use crate::error::{
    CellContents, Colour, Holding, IllegalReason, MoveError, NoMoveReason, NotYours, NotationError,
    NotationProblem, PositionError, PositionProblem, SetupError,
};
use crate::game::{Game, NoRoll, Outcome, Seat, Status, Team};
use crate::text::{Fields, join_fields};

/// White moves first and is seat 0.
const WHITE: Seat = Seat(0);
/// Black is seat 1.
const BLACK: Seat = Seat(1);

/// Columns and rows of the coordinate grid.
const WIDTH: u8 = 11;

/// A set of cells: bit `row * 11 + column`, both from 0.
type Set = u128;

/// Index of the octagonal pieces in [`Koan::pieces`].
const OCT: usize = 0;
/// Index of the square pieces in [`Koan::pieces`].
const SQ: usize = 1;

/// The octagons (even column, odd row) or the squares (odd column, even row) of section 2.
const fn cells_where(octagons: bool) -> Set {
    let mut set = 0;
    let mut i = 0;
    while i < WIDTH * WIDTH {
        let (c, r) = (i % WIDTH, i / WIDTH);
        // Octagon: even column, odd row (1-based), i.e. even row index. Square: the opposite.
        let is = if octagons {
            c % 2 == 0 && r % 2 == 0
        } else {
            c % 2 == 1 && r % 2 == 1
        };
        if is {
            set |= 1 << i;
        }
        i += 1;
    }
    set
}

/// The cells in one column (0 = `A`).
const fn column_set(c: u8) -> Set {
    let mut set = 0;
    let mut r = 0;
    while r < WIDTH {
        set |= 1 << (r * WIDTH + c);
        r += 1;
    }
    set
}

/// The cells in one row (0 = row 1).
const fn row_set(r: u8) -> Set {
    let mut set = 0;
    let mut c = 0;
    while c < WIDTH {
        set |= 1 << (r * WIDTH + c);
        c += 1;
    }
    set
}

const OCTAGONS: Set = cells_where(true);
const SQUARES: Set = cells_where(false);
const CELLS: Set = OCTAGONS | SQUARES;
const COLUMN_A: Set = column_set(0);
const COLUMN_K: Set = column_set(WIDTH - 1);

/// Each seat's far row (section 6.1): row 11 for White, row 1 for Black.
const FAR_ROW: [Set; 2] = [row_set(WIDTH - 1) & CELLS, row_set(0) & CELLS];

/// One of the three forward directions of a seat: the index step and the cells it may start
/// from (straight ahead only from octagons; no diagonal off the side of the board, which would
/// otherwise wrap round to the next row).
#[derive(Debug, Clone, Copy)]
struct Step {
    delta: i8,
    from: Set,
}

/// The forward steps of each seat (section 2): straight ahead, diagonally left, diagonally
/// right.
const STEPS: [[Step; 3]; 2] = [
    [
        Step {
            delta: 2 * WIDTH as i8,
            from: OCTAGONS,
        },
        Step {
            delta: WIDTH as i8 - 1,
            from: CELLS & !COLUMN_A,
        },
        Step {
            delta: WIDTH as i8 + 1,
            from: CELLS & !COLUMN_K,
        },
    ],
    [
        Step {
            delta: -2 * WIDTH as i8,
            from: OCTAGONS,
        },
        Step {
            delta: -(WIDTH as i8) - 1,
            from: CELLS & !COLUMN_A,
        },
        Step {
            delta: -(WIDTH as i8) + 1,
            from: CELLS & !COLUMN_K,
        },
    ],
];

/// Moves every cell of `set` by `delta` indices, dropping what leaves the board.
#[inline]
fn shift(set: Set, delta: i8) -> Set {
    let moved = if delta >= 0 {
        set << delta
    } else {
        set >> delta.unsigned_abs()
    };
    moved & CELLS
}

/// The cells of a set, lowest index first.
fn bits(mut set: Set) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let i = set.trailing_zeros() as u8;
        set &= set - 1;
        Some(Cell(i))
    })
}

fn other(seat: Seat) -> Seat {
    Seat(1 - seat.0)
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

/// A cell of the board: one of the 36 octagons or 25 squares (section 2). Written `G11`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell at `column` (0 = `A` … 10 = `K`) and `row` (1 … 11), if that is a cell.
    pub fn new(column: u8, row: u8) -> Option<Cell> {
        if column >= WIDTH || !(1..=WIDTH).contains(&row) {
            return None;
        }
        let i = (row - 1) * WIDTH + column;
        (CELLS >> i & 1 == 1).then_some(Cell(i))
    }

    /// The column, 0 = `A` … 10 = `K`.
    pub fn column(self) -> u8 {
        self.0 % WIDTH
    }

    /// The row, 1 … 11.
    pub fn row(self) -> u8 {
        self.0 / WIDTH + 1
    }

    /// Whether the cell is an octagon (otherwise it is a square).
    pub fn is_octagon(self) -> bool {
        OCTAGONS >> self.0 & 1 == 1
    }

    /// Every cell of the board, row 1 first, each row from column `A`.
    pub fn all() -> impl Iterator<Item = Cell> {
        bits(CELLS)
    }

    fn bit(self) -> Set {
        1 << self.0
    }

    /// Reads a cell name in either case (`g11`, `G11`). `None` for anything that is not the
    /// name of a cell (no leading zeros, no signs).
    fn from_name(name: &str) -> Option<Cell> {
        let bytes = name.as_bytes();
        let (&letter, digits) = bytes.split_first()?;
        let column = letter.to_ascii_uppercase().checked_sub(b'A')?;
        if digits.is_empty()
            || digits.len() > 2
            || digits[0] == b'0'
            || !digits.iter().all(u8::is_ascii_digit)
        {
            return None;
        }
        let row = digits.iter().fold(0u8, |n, d| n * 10 + (d - b'0'));
        Cell::new(column, row)
    }
}

impl Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'A' + self.column()), self.row())
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Display::fmt(self, f)
    }
}

impl FromStr for Cell {
    type Err = NotationError;
    /// Reads a cell name in either case (`g11`, `G11`).
    ///
    /// # Errors
    /// The text is not the name of one of the 61 cells.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Cell::from_name(s).ok_or_else(|| NotationError::new(s, NotationProblem::KoanCell))
    }
}

/// The shape of a piece, which never changes (section 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shape {
    /// An octagonal piece: captures only on octagons.
    Octagonal,
    /// A square piece: captures only on squares.
    Square,
}

impl Shape {
    fn index(self) -> usize {
        match self {
            Shape::Octagonal => OCT,
            Shape::Square => SQ,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Shape::Octagonal => "octagonal",
            Shape::Square => "square",
        }
    }

    fn article(self) -> &'static str {
        match self {
            Shape::Octagonal => "an",
            Shape::Square => "a",
        }
    }

    /// Whether a piece of this shape may capture on `cell` (rule 4).
    fn captures_on(self, cell: Cell) -> bool {
        (self == Shape::Octagonal) == cell.is_octagon()
    }
}

/// The options of Koan: there are none (section 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Options;

/// A Koan move: one piece one space forwards, `G11-G9`, or a capture, `G11xG9` (section 8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// The cell the piece leaves.
    pub from: Cell,
    /// The cell the piece arrives on.
    pub to: Cell,
    /// Whether an enemy piece is taken on `to`.
    pub capture: bool,
}

impl Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.capture { 'x' } else { '-' };
        write!(f, "{}{sep}{}", self.from, self.to)
    }
}

impl FromStr for Move {
    type Err = NotationError;
    /// Reads the canonical notation only: upper-case cells joined by `-` or `x`, the second one
    /// space forwards from the first for White or for Black. See [`Game::interpret`] for what
    /// people type.
    ///
    /// # Errors
    /// Anything else: other case or separators, a name that is not a cell, or two cells that
    /// are not one space apart forwards.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || NotationError::new(s, NotationProblem::KoanMove);
        let (a, b) = s.split_once(['-', 'x']).ok_or_else(bad)?;
        let capture = s.as_bytes().get(a.len()) == Some(&b'x');
        let canonical = |name: &str| Cell::from_name(name).filter(|c| c.to_string() == name);
        let (Some(from), Some(to)) = (canonical(a), canonical(b)) else {
            return Err(bad());
        };
        if forward_targets(WHITE, from) & to.bit() == 0
            && forward_targets(BLACK, from) & to.bit() == 0
        {
            return Err(NotationError::new(
                s,
                NotationProblem::KoanNotForward {
                    from: from.to_string(),
                    to: to.to_string(),
                },
            ));
        }
        Ok(Move { from, to, capture })
    }
}

/// The forward targets of a piece of `seat` on `cell`, whatever stands there (section 2).
fn forward_targets(seat: Seat, cell: Cell) -> Set {
    STEPS[usize::from(seat.0)]
        .iter()
        .filter(|step| step.from & cell.bit() != 0)
        .fold(0, |set, step| set | shift(cell.bit(), step.delta))
}

/// Lists cells as `A3, B2`, in the order of the position string.
fn cell_names(set: Set, separator: &str) -> String {
    let mut names = Vec::new();
    for c in 0..WIDTH {
        for r in 1..=WIDTH {
            if let Some(cell) = Cell::new(c, r).filter(|cell| set & cell.bit() != 0) {
                names.push(cell.to_string());
            }
        }
    }
    names.join(separator)
}

/// What a Koan move did. Events are plain data (no heap), so playouts stay fast.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// A piece moved (rules 1–2), possibly capturing ([`Event::Captured`] follows then).
    Moved {
        /// Who moved.
        seat: Seat,
        /// The move.
        mv: Move,
        /// The shape of the moving piece.
        shape: Shape,
    },
    /// An enemy piece was taken (rules 4–5).
    Captured {
        /// Who captured.
        seat: Seat,
        /// Where the captured piece stood.
        cell: Cell,
        /// The shape of the captured piece.
        shape: Shape,
    },
    /// A piece reached its far row and its owner won (rule 7).
    ReachedFarRow {
        /// The winner.
        seat: Seat,
        /// The far-row cell reached.
        cell: Cell,
    },
    /// The seat to move has no legal move and has lost (rule 8).
    NoMove {
        /// The seat that lost.
        loser: Seat,
    },
}

impl Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Event::Moved { seat, mv, shape } => write!(
                f,
                "{} played {mv} with {} {} piece",
                seat_name(seat),
                shape.article(),
                shape.name()
            ),
            Event::Captured { seat, cell, shape } => write!(
                f,
                "{} captured {}'s {} piece on {cell}",
                seat_name(seat),
                seat_name(other(seat)),
                shape.name()
            ),
            Event::ReachedFarRow { seat, cell } => write!(
                f,
                "{} reached the far row at {cell}: {} wins",
                seat_name(seat),
                seat_name(seat)
            ),
            Event::NoMove { loser } => write!(
                f,
                "{} has no legal move: {} wins",
                seat_name(loser),
                seat_name(other(loser))
            ),
        }
    }
}

/// Where the game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Phase {
    /// The seat to move has at least one legal move.
    Move,
    /// A piece of `winner` stands on its far row (section 6.1).
    FarRow { winner: Seat },
    /// The seat to move has no legal move and has lost (section 6.2).
    NoMove,
}

/// A Koan position.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Koan {
    options: Options,
    /// Pieces by owner (White, Black) and shape (octagonal, square).
    pieces: [[Set; 2]; 2],
    turn: Seat,
    phase: Phase,
}

impl fmt::Debug for Koan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Koan")
            .field("position", &self.position())
            .field("phase", &self.phase)
            .finish()
    }
}

/// The position-string keys in printing order (section 9), with the owner and shape they list.
const LISTS: [(&str, usize, usize); 4] = [
    ("white-oct", 0, OCT),
    ("white-sq", 0, SQ),
    ("black-oct", 1, OCT),
    ("black-sq", 1, SQ),
];

impl Koan {
    /// The piece on `cell`: its owner and shape.
    pub fn piece_at(&self, cell: Cell) -> Option<(Seat, Shape)> {
        let bit = cell.bit();
        for (seat, sets) in self.pieces.iter().enumerate() {
            for (shape, set) in [(Shape::Octagonal, sets[OCT]), (Shape::Square, sets[SQ])] {
                if set & bit != 0 {
                    return Some((Seat(seat as u8), shape));
                }
            }
        }
        None
    }

    fn own(&self, seat: Seat) -> Set {
        let sets = self.pieces[usize::from(seat.0)];
        sets[OCT] | sets[SQ]
    }

    /// The sets move generation needs for `seat`: its octagonal and square pieces, the enemy
    /// pieces and the empty cells.
    #[inline]
    fn sides(&self, seat: Seat) -> [Set; 4] {
        let [oct, sq] = self.pieces[usize::from(seat.0)];
        let [e_oct, e_sq] = self.pieces[usize::from(other(seat).0)];
        let enemy = e_oct | e_sq;
        [oct, sq, enemy, CELLS & !(oct | sq | enemy)]
    }

    /// The destinations in one direction: plain moves and captures (rules 2–4).
    #[inline]
    fn destinations([oct, sq, enemy, empty]: [Set; 4], step: Step) -> (Set, Set) {
        let by_oct = shift(oct & step.from, step.delta);
        let by_sq = shift(sq & step.from, step.delta);
        let plain = (by_oct | by_sq) & empty;
        let captures = (by_oct & OCTAGONS | by_sq & SQUARES) & enemy;
        (plain, captures)
    }

    fn has_move(&self, seat: Seat) -> bool {
        let sides = self.sides(seat);
        STEPS[usize::from(seat.0)].iter().any(|step| {
            let (plain, captures) = Self::destinations(sides, *step);
            plain | captures != 0
        })
    }

    /// The phase of a position read from a string (section 6): a piece on its far row has
    /// won, otherwise the seat to move loses when it has no legal move.
    fn settle(&mut self) {
        self.phase = if self.own(WHITE) & FAR_ROW[0] != 0 {
            Phase::FarRow { winner: WHITE }
        } else if self.own(BLACK) & FAR_ROW[1] != 0 {
            Phase::FarRow { winner: BLACK }
        } else if self.has_move(self.turn) {
            Phase::Move
        } else {
            Phase::NoMove
        };
    }

    fn describe(&self, cell: Cell) -> CellContents {
        let holds = match self.piece_at(cell) {
            Some((seat, shape)) if seat == self.turn => Holding::OwnShaped(shape),
            Some((seat, shape)) => Holding::Shaped(colour(seat), shape),
            None => Holding::Empty,
        };
        CellContents::new(cell, holds)
    }

    /// Why `to` is not a forward target of a piece of the seat to move on `from`.
    fn not_forward(&self, from: Cell, to: Cell) -> IllegalReason {
        let seat = self.turn;
        let ahead =
            (i16::from(to.row()) - i16::from(from.row())) * if seat == WHITE { 1 } else { -1 };
        let (from_name, to_name) = (from.to_string(), to.to_string());
        if from == to {
            IllegalReason::MustMove { cell: from_name }
        } else if ahead < 0 {
            IllegalReason::Backwards {
                from: from_name,
                to: to_name,
                seat: colour(seat),
            }
        } else if ahead == 0 {
            IllegalReason::Sideways {
                from: from_name,
                to: to_name,
            }
        } else if !from.is_octagon() && !to.is_octagon() {
            IllegalReason::SquareToSquare {
                from: from_name,
                to: to_name,
            }
        } else {
            IllegalReason::NotOneForward {
                from: from_name,
                to: to_name,
                targets: cell_names(forward_targets(seat, from), ", "),
            }
        }
    }

    /// Matches a from-cell and a to-cell typed by a person against the rules.
    fn interpret_cells(&self, from: Cell, to: Cell, input: &str) -> Result<Move, MoveError> {
        let illegal = |reason: IllegalReason| MoveError::Illegal {
            input: input.to_string(),
            reason: Box::new(reason),
        };
        let shape = match self.piece_at(from) {
            Some((seat, shape)) if seat == self.turn => shape,
            _ => {
                return Err(MoveError::NotYourPiece {
                    cell: from.to_string(),
                    why: NotYours::ToMove {
                        contents: self.describe(from),
                        mover: colour(self.turn),
                    },
                });
            }
        };
        if forward_targets(self.turn, from) & to.bit() == 0 {
            return Err(illegal(self.not_forward(from, to)));
        }
        let capture = match self.piece_at(to) {
            None => false,
            Some((seat, _)) if seat == self.turn => {
                return Err(illegal(IllegalReason::OntoOwnPiece {
                    what: self.describe(to),
                }));
            }
            Some(_) if !shape.captures_on(to) => {
                return Err(illegal(IllegalReason::WrongCaptureCell {
                    what: self.describe(to),
                    to: to.to_string(),
                    shape,
                }));
            }
            Some(_) => true,
        };
        let mv = Move { from, to, capture };
        if self.moves().contains(&mv) {
            Ok(mv)
        } else {
            Err(illegal(IllegalReason::NotLegalHere { legal: Vec::new() }))
        }
    }

    /// Matches a single typed cell against the from- and to-cells of the legal moves.
    fn interpret_one_cell(&self, cell: Cell, input: &str) -> Result<Move, MoveError> {
        let fits: Vec<Move> = self
            .moves()
            .into_iter()
            .filter(|m| m.from == cell || m.to == cell)
            .collect();
        match fits[..] {
            [only] => Ok(only),
            [] => Err(MoveError::Illegal {
                input: input.to_string(),
                reason: Box::new(match self.piece_at(cell) {
                    Some((seat, _)) if seat == self.turn => IllegalReason::PieceCannotMove {
                        what: self.describe(cell),
                    },
                    _ => IllegalReason::NothingCanReach {
                        cell: cell.to_string(),
                        what: self.describe(cell),
                    },
                }),
            }),
            _ => Err(MoveError::Ambiguous {
                input: input.to_string(),
                candidates: fits.iter().map(ToString::to_string).collect(),
            }),
        }
    }
}

/// Splits what a person typed into one or two cell-like tokens: a letter and digits each, with
/// an optional separator (`-`, `x`, `:`, a space) between them.
fn typed_tokens(input: &str) -> Option<(&str, Option<&str>)> {
    /// A letter followed by digits at the start of `s`, and the rest.
    fn token(s: &str) -> Option<(&str, &str)> {
        let bytes = s.as_bytes();
        if !bytes.first()?.is_ascii_alphabetic() {
            return None;
        }
        let n = 1 + bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
        (n > 1).then(|| s.split_at(n))
    }
    let (first, rest) = token(input)?;
    let rest = rest.trim_start();
    if rest.is_empty() {
        return Some((first, None));
    }
    let rest = rest
        .strip_prefix(['-', 'x', 'X', ':', '–', '×'])
        .unwrap_or(rest)
        .trim_start();
    let (second, rest) = token(rest)?;
    rest.trim().is_empty().then_some((first, Some(second)))
}

fn typed_cell(token: &str) -> Result<Cell, MoveError> {
    Cell::from_name(token).ok_or_else(|| MoveError::NoSuchCell(token.to_string()))
}

fn unreadable(input: &str) -> MoveError {
    MoveError::Unreadable {
        input: input.to_string(),
        game: GameId::Koan,
    }
}

impl Game for Koan {
    type Move = Move;
    type Roll = NoRoll;
    type Event = Event;
    type Options = Options;

    const ID: &'static str = "koan";
    const NAME: &'static str = "Koan";
    const SEATS: &'static [&'static str] = &["white", "black"];
    const TEAMS: &'static [&'static str] = &["white", "black"];

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
        let row = |r: u8, set: Set| row_set(r - 1) & set;
        Koan {
            options: Options,
            pieces: [
                [row(1, OCTAGONS), row(2, SQUARES)],
                [row(11, OCTAGONS), row(10, SQUARES)],
            ],
            turn: WHITE,
            phase: Phase::Move,
        }
    }

    fn from_position(_options: &Options, text: &str) -> Result<Self, PositionError> {
        let keys = ["turn", LISTS[0].0, LISTS[1].0, LISTS[2].0, LISTS[3].0];
        let fields = Fields::parse(text, &keys)?;
        let turn = fields.require("turn")?;
        let turn = match turn {
            "white" => WHITE,
            "black" => BLACK,
            _ => {
                return Err(PositionError::new(
                    format!("turn={turn}"),
                    PositionProblem::MustBe {
                        key: "turn",
                        choices: &["white", "black"],
                    },
                ));
            }
        };
        let mut pieces = [[0; 2]; 2];
        let mut seen: Set = 0;
        for (key, seat, shape) in LISTS {
            for name in fields.list(key) {
                let cell = Cell::from_name(name)
                    .ok_or_else(|| PositionError::new(name, PositionProblem::KoanCell))?;
                if seen & cell.bit() != 0 {
                    return Err(PositionError::new(name, PositionProblem::CellListedTwice));
                }
                seen |= cell.bit();
                pieces[seat][shape] |= cell.bit();
            }
        }
        let white_far = (pieces[0][OCT] | pieces[0][SQ]) & FAR_ROW[0];
        let black_far = (pieces[1][OCT] | pieces[1][SQ]) & FAR_ROW[1];
        if white_far != 0 && black_far != 0 {
            return Err(PositionError::new(
                cell_names(white_far | black_far, ","),
                PositionProblem::BothOnFarRows,
            ));
        }
        let mut game = Koan {
            options: Options,
            pieces,
            turn,
            phase: Phase::Move,
        };
        game.settle();
        Ok(game)
    }

    fn position(&self) -> String {
        let mut fields = vec![("turn", Self::SEATS[usize::from(self.turn.0)].to_string())];
        for (key, seat, shape) in LISTS {
            fields.push((key, cell_names(self.pieces[seat][shape], ",")));
        }
        join_fields(fields)
    }

    fn drawing(&self) -> String {
        let letters: Vec<String> = (0..WIDTH)
            .map(|c| char::from(b'A' + c).to_string())
            .collect();
        let header = format!("     {}\n", letters.join("   "));
        let mut out = header.clone();
        for row in (1..=WIDTH).rev() {
            out.push_str(&format!("{row:>2}  "));
            for column in 0..WIDTH {
                if column > 0 {
                    out.push(' ');
                }
                let Some(cell) = Cell::new(column, row) else {
                    out.push_str("   ");
                    continue;
                };
                let letter = match self.piece_at(cell) {
                    Some((WHITE, Shape::Octagonal)) => 'W',
                    Some((WHITE, Shape::Square)) => 'w',
                    Some((_, Shape::Octagonal)) => 'B',
                    Some((_, Shape::Square)) => 'b',
                    None => ' ',
                };
                let (open, close) = if cell.is_octagon() {
                    ('(', ')')
                } else {
                    ('[', ']')
                };
                out.push(open);
                out.push(letter);
                out.push(close);
            }
            out.push_str(&format!("  {row}\n"));
        }
        out.push_str(&header);
        out
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn status(&self) -> Status {
        match self.phase {
            Phase::Move => Status::Decision(self.turn),
            Phase::FarRow { winner } => Status::Done(Outcome::Winner(Team(winner.0))),
            Phase::NoMove => Status::Done(Outcome::Winner(Team(other(self.turn).0))),
        }
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.phase != Phase::Move {
            return;
        }
        let sides = self.sides(self.turn);
        for step in STEPS[usize::from(self.turn.0)] {
            let (plain, captures) = Self::destinations(sides, step);
            let back = -step.delta;
            for (set, capture) in [(plain, false), (captures, true)] {
                for to in bits(set) {
                    out.push(Move {
                        from: Cell(to.0.wrapping_add_signed(back)),
                        to,
                        capture,
                    });
                }
            }
        }
    }

    fn chance_outcomes(&self, _out: &mut Vec<(NoRoll, u32)>) {}

    fn apply_move_unchecked(&mut self, mv: &Move, events: &mut Vec<Event>) {
        let seat = self.turn;
        let (me, them) = (usize::from(seat.0), usize::from(other(seat).0));
        let (from, to) = (mv.from.bit(), mv.to.bit());
        let shape = if self.pieces[me][OCT] & from != 0 {
            Shape::Octagonal
        } else {
            Shape::Square
        };
        let own = &mut self.pieces[me][shape.index()];
        *own = *own & !from | to;
        events.push(Event::Moved {
            seat,
            mv: *mv,
            shape,
        });
        for (taken, set) in [Shape::Octagonal, Shape::Square]
            .into_iter()
            .zip(&mut self.pieces[them])
        {
            if *set & to != 0 {
                *set &= !to;
                events.push(Event::Captured {
                    seat,
                    cell: mv.to,
                    shape: taken,
                });
            }
        }
        self.turn = other(seat);
        if FAR_ROW[me] & to != 0 {
            self.phase = Phase::FarRow { winner: seat };
            events.push(Event::ReachedFarRow { seat, cell: mv.to });
        } else if self.has_move(self.turn) {
            self.phase = Phase::Move;
        } else {
            self.phase = Phase::NoMove;
            events.push(Event::NoMove { loser: self.turn });
        }
    }

    fn apply_roll_unchecked(&mut self, roll: &NoRoll, _events: &mut Vec<Event>) {
        match *roll {}
    }

    fn interpret(&self, text: &str) -> Result<Move, MoveError> {
        let input = text.trim();
        if let Status::Done(_) = self.status() {
            let team = match self.status() {
                Status::Done(Outcome::Winner(team)) => Self::TEAMS[usize::from(team.0)],
                _ => "",
            };
            return Err(MoveError::NoMoveNow(NoMoveReason::GameOverWinner { team }));
        }
        let (first, second) = typed_tokens(input).ok_or_else(|| unreadable(input))?;
        let from = typed_cell(first)?;
        match second {
            None => self.interpret_one_cell(from, input),
            Some(second) => {
                let to = typed_cell(second)?;
                self.interpret_cells(from, to, input)
            }
        }
    }
}
