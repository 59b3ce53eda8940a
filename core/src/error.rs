//! Errors of the rules engine. Every one of them is about what a user or a script wrote; the
//! engine has no internal failures.
//!
//! The errors are data: they carry what the user typed (`input`, `token`), canonical notation
//! (cells such as `C4`, moves, throws) and typed facts (what stands on a cell, whose turn it
//! is, which values an option allows), never sentences. `Display` writes the engine's English
//! from that data, for logs and the `tabula rules` command line; an application that speaks
//! other languages matches the variants and says them itself.

use std::fmt::{self, Display};

use thiserror::Error;

use crate::any::GameId;
use crate::coan_ki::Throw;
use crate::koan::Shape;

/// A side of the two-sided games (Konane, Koan, Kolowis, Coan Ki), as refusals name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Colour {
    /// White.
    White,
    /// Black.
    Black,
}

impl Colour {
    /// The side's seat as written in commands and position strings (`white`).
    pub fn seat_id(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Black => "black",
        }
    }
}

impl Display for Colour {
    /// `White` or `Black`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Colour::White => "White",
            Colour::Black => "Black",
        })
    }
}

/// A seat of Pachisi, by its point of the compass. `Display` writes its letter (`S`), as the
/// notation does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Compass {
    /// South, `S` (seat 0).
    South,
    /// East, `E` (seat 1).
    East,
    /// North, `N` (seat 2).
    North,
    /// West, `W` (seat 3).
    West,
}

impl Compass {
    /// The four seats in seat order: S, E, N, W.
    pub const ALL: [Compass; 4] = [Compass::South, Compass::East, Compass::North, Compass::West];

    /// The seat's letter: `S`, `E`, `N` or `W`.
    pub fn letter(self) -> &'static str {
        match self {
            Compass::South => "S",
            Compass::East => "E",
            Compass::North => "N",
            Compass::West => "W",
        }
    }

    /// The seat of index `seat` (taken modulo 4).
    pub(crate) fn of(seat: usize) -> Compass {
        Compass::ALL[seat & 3]
    }
}

impl Display for Compass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.letter())
    }
}

/// What stands on a cell, point or square, as a refusal tells it: `C9 holds a White piece`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CellContents {
    /// The cell, as written (`C9`, `d4`, `k2`).
    pub cell: String,
    /// What stands there.
    pub holds: Holding,
}

impl CellContents {
    /// What stands on `cell`.
    pub fn new(cell: impl Display, holds: Holding) -> Self {
        Self {
            cell: cell.to_string(),
            holds,
        }
    }
}

impl Display for CellContents {
    /// `d4 is empty`, `d4 holds a White stone`, `k2 holds 2 pieces of S and 1 piece of E`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cell = &self.cell;
        match &self.holds {
            Holding::Empty => write!(f, "{cell} is empty"),
            Holding::Stone(side) => write!(f, "{cell} holds a {side} stone"),
            Holding::Piece(side) => write!(f, "{cell} holds a {side} piece"),
            Holding::OwnShaped(shape) => {
                write!(f, "{cell} holds your own {} piece", shape_name(*shape))
            }
            Holding::Shaped(side, shape) => {
                write!(f, "{cell} holds {side}'s {} piece", shape_name(*shape))
            }
            Holding::Only(side) => write!(f, "{cell} holds only {side} pieces"),
            Holding::OnlyFinished(side) => write!(
                f,
                "{cell} holds only finished {side} pieces, which never move again"
            ),
            Holding::Seats(groups) if groups.is_empty() => write!(f, "{cell} is empty"),
            Holding::Seats(groups) => {
                write!(f, "{cell} holds ")?;
                for (i, (seat, count)) in groups.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" and ")?;
                    }
                    write!(f, "{count} {} of {seat}", plural(*count, "piece", "pieces"))?;
                }
                Ok(())
            }
        }
    }
}

/// What stands on a cell, in the terms of the game it is in.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Holding {
    /// Nothing: `is empty`.
    Empty,
    /// Konane: a stone of a side, `holds a White stone`.
    Stone(Colour),
    /// Kolowis: a piece of a side, `holds a White piece`.
    Piece(Colour),
    /// Koan: a piece of the side to move, of its shape: `holds your own square piece`.
    OwnShaped(Shape),
    /// Koan: a piece of the other side, of its shape: `holds Black's octagonal piece`.
    Shaped(Colour, Shape),
    /// Coan Ki: pieces of that side only (the opponent's, travelling or finished), seen by the
    /// side to act: `holds only Black pieces`.
    Only(Colour),
    /// Coan Ki: finished pieces of the side to act only: `holds only finished White pieces,
    /// which never move again`.
    OnlyFinished(Colour),
    /// Pachisi: the pieces of each seat there, in seat order, every count at least 1 (none
    /// means empty): `holds 2 pieces of S and 1 piece of E`.
    Seats(Vec<(Compass, u8)>),
}

fn shape_name(shape: Shape) -> &'static str {
    match shape {
        Shape::Octagonal => "octagonal",
        Shape::Square => "square",
    }
}

/// Text that is not in a game's canonical notation.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("cannot read `{token}`: {why}")]
pub struct NotationError {
    /// The text that could not be read.
    pub token: String,
    /// What was expected.
    pub why: NotationProblem,
}

impl NotationError {
    /// A notation error for `token`.
    pub fn new(token: &str, why: NotationProblem) -> Self {
        Self {
            token: token.to_string(),
            why,
        }
    }
}

/// What is wrong with text in a game's canonical notation (moves and rolls as storage and
/// scripts write them): mostly which notation was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotationProblem {
    /// A roll in a game without dice.
    NoDice,
    /// Konane: not a cell or a jump.
    KonaneMove,
    /// Koan: not one of the 61 cells.
    KoanCell,
    /// Koan: not a move or a capture.
    KoanMove,
    /// Koan: two cells that are not one space apart forwards for either side.
    KoanNotForward {
        /// The first cell.
        from: String,
        /// The second cell.
        to: String,
    },
    /// Kolowis: not a point.
    KolowisPoint,
    /// Kolowis: a move whose points are not points in upper case.
    KolowisPoints,
    /// Kolowis: a step between points not joined by a line.
    KolowisStepOffLine,
    /// Kolowis: a landing point that is not one straight jump from the one before.
    KolowisJumpOffLine,
    /// Kolowis: more jumps than a capture sequence can have.
    KolowisTooManyJumps,
    /// Kolowis: a single point, neither a step nor a capture.
    KolowisMove,
    /// Coan Ki: not a roll-off or a throw.
    CoanKiRoll,
    /// Coan Ki: not a play or a removal.
    CoanKiMove,
    /// Readable, but not written the one canonical way.
    NotCanonical {
        /// How it is written.
        canonical: String,
    },
    /// Pachisi: not a square of the cross.
    PachisiSquare,
    /// Pachisi: not a cowrie value.
    PachisiRoll,
    /// Pachisi: not an action.
    PachisiMove,
}

impl Display for NotationProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use NotationProblem as P;
        match self {
            P::NoDice => f.write_str("this game has no dice"),
            P::KonaneMove => f.write_str("expected a cell like `e4` or a jump like `d4-f4-h4`"),
            P::KoanCell => f.write_str(KOAN_CELLS),
            P::KoanMove => f.write_str("expected a move like `G11-G9` or a capture like `G11xG9`"),
            P::KoanNotForward { from, to } => {
                write!(
                    f,
                    "{to} is not one space forwards from {from} for either side"
                )
            }
            P::KolowisPoint => f.write_str("expected a point A1–A16, B1–B17 or C1–C16"),
            P::KolowisPoints => f.write_str(
                "expected points A1–A16, B1–B17, C1–C16 in upper case, like `C8-B9` or \
                 `C2xC4xC6`",
            ),
            P::KolowisStepOffLine => f.write_str("a step `-` joins two points on one line"),
            P::KolowisJumpOffLine => {
                f.write_str("each point after `x` must be one straight jump from the one before")
            }
            P::KolowisTooManyJumps => f.write_str("too many jumps"),
            P::KolowisMove => {
                f.write_str("expected a step like `C8-B9` or a capture like `C2xC4xC6`")
            }
            P::CoanKiRoll => f.write_str(
                "expected a roll-off like `4v6` (White's die first) or a throw like `5-6`, dice \
                 from 1 to 6",
            ),
            P::CoanKiMove => f.write_str(
                "expected a play like `c1+7` or `a1+5&b1+11` (steps 1 to 12), or `remove:e1`",
            ),
            P::NotCanonical { canonical } => {
                write!(f, "not in canonical form (write `{canonical}`)")
            }
            P::PachisiSquare => f.write_str("not a square of the cross"),
            P::PachisiRoll => f.write_str("a throw is 2, 3, 4, 5, 6, 10 or 25"),
            P::PachisiMove => f.write_str(
                "expected throw, skip, done, enter+<v> or <square>[h][x<k>]+<v>, like k2+3",
            ),
        }
    }
}

/// Koan's cells, said when a name is not one of them.
const KOAN_CELLS: &str = "not a cell: octagons are A C E G I K on rows 1 3 5 7 9 11, squares B D \
                          F H J on rows 2 4 6 8 10";

/// Why typed input is not a legal move here.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text does not look like a move of this game at all.
    #[error("cannot read `{input}` as a move: {}", move_hint(*.game))]
    Unreadable {
        /// What was typed.
        input: String,
        /// The game, whose way of writing moves `Display` explains.
        game: GameId,
    },
    /// A cell name that is not on the board.
    #[error("`{0}` is not a cell of this board")]
    NoSuchCell(String),
    /// The named cell holds no piece of the player to move.
    #[error("{cell} is not yours: {why}")]
    NotYourPiece {
        /// The cell named.
        cell: String,
        /// What stands there instead.
        why: NotYours,
    },
    /// Readable, but not legal in this position.
    #[error("`{input}` is not legal: {reason}")]
    Illegal {
        /// What was typed.
        input: String,
        /// Why it is not legal (boxed: the reasons carry cell names and descriptions, and the
        /// error stays small for the common `Ok` path).
        reason: Box<IllegalReason>,
    },
    /// Several legal moves fit.
    #[error("`{input}` is ambiguous: did you mean {}?", candidates.join(" or "))]
    Ambiguous {
        /// What was typed.
        input: String,
        /// The legal moves it could mean, in canonical notation.
        candidates: Vec<String>,
    },
    /// No move can be made: the game is over or a roll is due.
    #[error("no move can be made now: {0}")]
    NoMoveNow(NoMoveReason),
}

/// How moves of `game` are written, for [`MoveError::Unreadable`].
fn move_hint(game: GameId) -> &'static str {
    match game {
        GameId::Konane => {
            "write a jump as from-to, like `d4-f4` or `d4-f4-h4`, or a removal as a cell, like `e4`"
        }
        GameId::Koan => "write a move as from-to, like `G11-G9`, or a capture like `C3xB4`",
        GameId::Kolowis => {
            "write a step like `C8-B9` or a capture sequence with every landing point, like \
             `C2xC4xC6`"
        }
        GameId::CoanKi => {
            "write a play as <cell>+<steps>, one or two parts joined by & or a space, like \
             `c1+7` or `a1+5&b1+11`; after 1-1 write `remove:e1`"
        }
        GameId::Pachisi => {
            "write throw, skip, done, enter+<value> or <square>+<value>, like enter+6, k2+3, \
             c9x2+4 (a group of two) or j6h+2 (the home-bound piece)"
        }
    }
}

/// Why the cell named for a move holds no piece of the player to move: what stands there, and
/// the rule that makes it not theirs when the game says one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotYours {
    /// What stands there (Konane's jumps, Coan Ki's plays): `c4 is empty`.
    Holds(CellContents),
    /// What stands there, and who is to move (Koan, Kolowis): `B9 is empty; White is to move`.
    ToMove {
        /// What stands there.
        contents: CellContents,
        /// The side to move.
        mover: Colour,
    },
    /// Konane's opening removals: `d4 holds a White stone; Black removes one of his own stones`.
    RemovesOwnStone {
        /// What stands there.
        contents: CellContents,
        /// The side to remove.
        mover: Colour,
    },
    /// Coan Ki after a double one: `c1 is empty; White removes one of his own travelling
    /// pieces`.
    RemovesOwnTravelling {
        /// What stands there.
        contents: CellContents,
        /// The side to remove.
        mover: Colour,
    },
    /// Pachisi: `no piece of yours stands there; k2 is empty`.
    NoPieceThere(CellContents),
    /// Pachisi, a home-bound piece named with `h`: `no home-bound piece of yours stands there
    /// (h names them); k2 holds 1 piece of S`.
    NoHomeBoundThere(CellContents),
}

impl NotYours {
    /// What stands on the cell.
    pub fn contents(&self) -> &CellContents {
        match self {
            NotYours::Holds(contents)
            | NotYours::ToMove { contents, .. }
            | NotYours::RemovesOwnStone { contents, .. }
            | NotYours::RemovesOwnTravelling { contents, .. }
            | NotYours::NoPieceThere(contents)
            | NotYours::NoHomeBoundThere(contents) => contents,
        }
    }
}

impl Display for NotYours {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotYours::Holds(contents) => write!(f, "{contents}"),
            NotYours::ToMove { contents, mover } => write!(f, "{contents}; {mover} is to move"),
            NotYours::RemovesOwnStone { contents, mover } => {
                write!(f, "{contents}; {mover} removes one of his own stones")
            }
            NotYours::RemovesOwnTravelling { contents, mover } => write!(
                f,
                "{contents}; {mover} removes one of his own travelling pieces"
            ),
            NotYours::NoPieceThere(contents) => {
                write!(f, "no piece of yours stands there; {contents}")
            }
            NotYours::NoHomeBoundThere(contents) => write!(
                f,
                "no home-bound piece of yours stands there (h names them); {contents}"
            ),
        }
    }
}

/// Why no move can be made now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoMoveReason {
    /// The game is over: `the game is over`.
    GameOver,
    /// Koan: the game is over, with its result as the status line writes it: `the game is
    /// over (winner white)`.
    GameOverWinner {
        /// The winning team, as [`crate::Game::TEAMS`] names it (`white`).
        team: &'static str,
    },
    /// Pachisi: the game is over, with the winning team: `the game is over: SN won`.
    TeamWon {
        /// The winning team, as [`crate::Game::TEAMS`] names it (`SN`, `EW`).
        team: &'static str,
    },
    /// Coan Ki: a roll is due: `the dice must be thrown first`.
    DiceFirst,
    /// Pachisi: the cowries are being thrown: `the cowries are being thrown: a roll is due`.
    CowriesBeingThrown,
}

impl Display for NoMoveReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoMoveReason::GameOver => f.write_str("the game is over"),
            NoMoveReason::GameOverWinner { team } => {
                write!(f, "the game is over (winner {team})")
            }
            NoMoveReason::TeamWon { team } => write!(f, "the game is over: {team} won"),
            NoMoveReason::DiceFirst => f.write_str("the dice must be thrown first"),
            NoMoveReason::CowriesBeingThrown => {
                f.write_str("the cowries are being thrown: a roll is due")
            }
        }
    }
}

/// Why a readable move is not legal here: one variant per reason the five games give, with the
/// data its message needs. `Display` writes the sentence the user sees; tests match the variant.
///
/// Cells, points and squares are carried in their written form (`C4`, `e1`, `j6`); `what`
/// fields tell what stands on a cell as [`CellContents`] (written `C9 holds a White piece`);
/// `throw` fields are a Coan Ki [`Throw`], written with the plays it allows; sides are a
/// [`Colour`] or Pachisi [`Compass`] seats.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IllegalReason {
    // ---- Any game ----
    /// Well formed, but not one of the legal moves (listed when the game lists them).
    #[error("not a legal move here{}", listed(.legal))]
    NotLegalHere {
        /// The legal moves, in canonical notation; empty when not listed.
        legal: Vec<String>,
    },
    /// A move that does not leave its cell.
    #[error("a move must leave {cell}")]
    MustMove {
        /// The cell.
        cell: String,
    },
    /// The piece named has no legal move.
    #[error("{what}, but it has no legal move")]
    PieceCannotMove {
        /// The cell and its piece.
        what: CellContents,
    },
    /// A capture is available, and capturing is compulsory (Kolowis rule 4).
    #[error("a capture is available and must be made: {}", .captures.join(", "))]
    MustCapture {
        /// The legal capture sequences.
        captures: Vec<String>,
    },
    /// A step onto an occupied point.
    #[error("the target is occupied: {what}")]
    TargetOccupied {
        /// The target and its piece.
        what: CellContents,
    },
    /// A jump over a piece of the mover's own side.
    #[error("{}a piece never jumps its own side: {what}", prefix(.jump))]
    JumpsOwnPiece {
        /// The jump (`C2xC4`), in a capture sequence.
        jump: Option<String>,
        /// The jumped cell and its piece.
        what: CellContents,
    },
    /// A jump over an empty cell.
    #[error("{}nothing to jump over: {cell} is empty", prefix(.jump))]
    NothingToJump {
        /// The jump, in a capture sequence.
        jump: Option<String>,
        /// The jumped cell.
        cell: String,
    },
    /// A jump over a piece already captured earlier in the same sequence.
    #[error("{jump}: {point} was already taken earlier in this move")]
    AlreadyCaptured {
        /// The jump.
        jump: String,
        /// The jumped point.
        point: String,
    },
    /// A jump onto an occupied cell.
    #[error("{}the landing point is occupied: {what}", prefix(.jump))]
    LandingOccupied {
        /// The jump, in a capture sequence.
        jump: Option<String>,
        /// The landing cell and its piece.
        what: CellContents,
    },

    // ---- Kolowis ----
    /// More jumps than any capture sequence can have.
    #[error("too many jumps")]
    TooManyJumps,
    /// A step inside a capture sequence.
    #[error("{step} is a step, and a capture sequence is made of jumps only")]
    StepInCapture {
        /// The step (`C2-C3`).
        step: String,
    },
    /// Two points two lines apart whose lines bend: no jump between them.
    #[error(
        "{from} and {to} are not joined by a line, and a jump between them is not along a \
         straight line ({from}, {bend} and {to} are not on one straight line)"
    )]
    NotStraight {
        /// Where the piece is.
        from: String,
        /// Where it was to go.
        to: String,
        /// The point between them.
        bend: String,
    },
    /// Two points neither joined by a line nor one jump apart.
    #[error(
        "{from} and {to} are not joined by a line, and {to} is not one jump from {from} (write \
         every landing point of a capture sequence)"
    )]
    NotJoined {
        /// Where the piece is.
        from: String,
        /// Where it was to go.
        to: String,
    },

    // ---- Konane ----
    /// An opening removal of a stone the rule does not allow (Konane rule 2).
    #[error("not a removable cell: {} ({})", removal_rule(.hole), .choices.join(", "))]
    NotRemovable {
        /// The hole White's removal must be next to; `None` for Black's first removal.
        hole: Option<String>,
        /// The removable cells.
        choices: Vec<String>,
    },
    /// Two cells not on one row or column.
    #[error("{from} and {to} are not on one row or column")]
    NotInLine {
        /// One cell.
        from: String,
        /// The other.
        to: String,
    },
    /// A chain of jumps that turns.
    #[error("a chain may not turn: every jump goes the same way")]
    ChainTurns,
    /// A chain given by its ends, an odd number of cells apart.
    #[error("a jump moves a stone exactly two cells")]
    OddDistance,
    /// One jump of a chain that is not two cells long.
    #[error("{from} to {to} is not one jump: a jump moves a stone exactly two cells")]
    NotOneJump {
        /// Where the jump starts.
        from: String,
        /// Where it was to land.
        to: String,
    },
    /// Anything but a removal in the opening.
    #[error("in the opening a turn removes one stone: name its cell, like `e4`")]
    MustRemoveInOpening,
    /// A removal after the opening.
    #[error("removals are over: every turn is now a jump, like `d4-f4`")]
    RemovalsAreOver,
    /// A single cell after the opening.
    #[error("every turn is now a jump: write it from-to, like `d4-f4`")]
    MustJump,

    // ---- Koan ----
    /// A move backwards (Koan rule 1).
    #[error(
        "{from} to {to} goes backwards: {seat} moves {} the board, towards {}",
        koan_way(*.seat), koan_towards(*.seat)
    )]
    Backwards {
        /// Where the piece is.
        from: String,
        /// Where it was to go.
        to: String,
        /// The side to move: White moves up the board towards row 11, Black down towards row 1.
        seat: Colour,
    },
    /// A move sideways.
    #[error("{from} to {to} goes sideways: pieces only move forwards")]
    Sideways {
        /// Where the piece is.
        from: String,
        /// Where it was to go.
        to: String,
    },
    /// A move from a square to a square.
    #[error(
        "{from} and {to} are both squares: from a square a piece moves only diagonally forwards \
         to an octagon"
    )]
    SquareToSquare {
        /// Where the piece is.
        from: String,
        /// Where it was to go.
        to: String,
    },
    /// Forwards, but not one space.
    #[error("{to} is not one space forwards from {from} (its forward targets: {targets})")]
    NotOneForward {
        /// Where the piece is.
        from: String,
        /// Where it was to go.
        to: String,
        /// The cells it could go to.
        targets: String,
    },
    /// A move onto a piece of the mover's own colour.
    #[error("{what}: a piece never moves onto its own colour")]
    OntoOwnPiece {
        /// The target and its piece.
        what: CellContents,
    },
    /// A capture on the wrong kind of cell for the piece (Koan rule 2): an octagonal piece
    /// captures only on octagons, a square piece only on squares, and the target is of the
    /// other kind.
    #[error(
        "{what}, but {to} is {}: {} piece captures only on {}",
        match .shape { Shape::Octagonal => "a square", Shape::Square => "an octagon" },
        match .shape { Shape::Octagonal => "an octagonal", Shape::Square => "a square" },
        match .shape { Shape::Octagonal => "octagons", Shape::Square => "squares" }
    )]
    WrongCaptureCell {
        /// The target and its piece.
        what: CellContents,
        /// The target.
        to: String,
        /// The shape of the moving piece.
        shape: Shape,
    },
    /// No piece of the mover can reach the cell named.
    #[error("no piece of yours can move to {cell} ({what})")]
    NothingCanReach {
        /// The cell.
        cell: String,
        /// What stands there.
        what: CellContents,
    },

    // ---- Coan Ki ----
    /// A removal without a double one (Coan Ki rule 8).
    #[error("a piece is removed only after a double one (1-1)")]
    RemoveOnlyAfterDoubleOne,
    /// More than two parts in a play.
    #[error("a play moves one or two pieces: {}", .throw.describe())]
    TooManyParts {
        /// The throw, written with its plays.
        throw: Throw,
    },
    /// Both parts of a play on the same single piece (Coan Ki decision C6).
    #[error(
        "the same piece is used twice: {cell} holds one {seat} piece, and a play of two parts \
         moves two different pieces"
    )]
    SamePieceTwice {
        /// The cell.
        cell: String,
        /// The side to move.
        seat: Colour,
    },
    /// No play of the throw moves the pieces named.
    #[error("no legal play moves from {}: {}", .cells.join(" and "), .throw.describe())]
    NoPlayFrom {
        /// The cells named.
        cells: Vec<String>,
        /// The throw, written with its plays.
        throw: Throw,
    },
    /// Steps that are not one of the throw's options (Coan Ki rule 4).
    #[error("does not fit the throw: {}", .throw.describe())]
    ExceedsTheThrow {
        /// The throw, written with its plays.
        throw: Throw,
    },
    /// A piece would go beyond the home cells (Coan Ki rule 2, `finish=zone`).
    #[error(
        "{cell}+{steps} overshoots the home cells: a {seat} piece on {cell} comes home with \
         {exact} steps (on {first}) or {} (on {second}) and may not go beyond",
        .exact + 1
    )]
    OvershootsHome {
        /// The piece's cell.
        cell: String,
        /// The steps typed.
        steps: usize,
        /// The side to move.
        seat: Colour,
        /// The steps to the first home cell.
        exact: usize,
        /// The first home cell.
        first: String,
        /// The second home cell.
        second: String,
    },
    /// A block on the way (Coan Ki rule 6).
    #[error(
        "{cell}+{steps} would land on or pass {block}, where {count} {owner} pieces form a block"
    )]
    PathBlocked {
        /// The piece's cell.
        cell: String,
        /// The steps typed.
        steps: usize,
        /// The blocking cell.
        block: String,
        /// The number of pieces there.
        count: u32,
        /// Their side.
        owner: Colour,
    },
    /// Nothing wrong found part by part, but no legal play is this.
    #[error("not a legal play here: {}", .throw.describe())]
    NotALegalPlay {
        /// The throw, written with its plays.
        throw: Throw,
    },
    /// `pass`, which Coan Ki does not have.
    #[error(
        "there is no pass move: {}",
        .throw.as_ref().map_or_else(
            || "after 1-1 remove one of your travelling pieces, like `remove:e1`".to_string(),
            |t| format!("a throw that can be used must be played ({})", t.describe())
        )
    )]
    NoPass {
        /// The throw to play, written with its plays; `None` after a double one.
        throw: Option<Throw>,
    },
    /// A move after a double one, when a piece must be removed.
    #[error("after 1-1 no piece moves: remove one of your travelling pieces, like `remove:e1`")]
    MustRemove,

    // ---- Pachisi ----
    /// A Charkoni named as a square.
    #[error("{cell} is the Charkoni, not a square: a piece leaves it with enter+<value>")]
    CharkoniIsNotASquare {
        /// The name typed.
        cell: String,
    },
    /// A number that no throw of the cowries gives.
    #[error("{value} is not a cowrie value: throws are 2, 3, 4, 5, 6, 10 and 25")]
    NotACowrieValue {
        /// The number typed.
        value: String,
    },
    /// Entering without a grace after the seat's first piece (Pachisi rule 5.4).
    #[error(
        "entering needs 6, 10 or 25 (only a seat's first piece may enter with any value), not \
         {value}"
    )]
    EnterNeedsGrace {
        /// The value.
        value: u8,
    },
    /// From the last square, only a grace finishes.
    #[error(
        "{value} overshoots: from {cell} (pos 83) a piece finishes only with a grace (6, 10 or 25)"
    )]
    FinishNeedsGrace {
        /// The value.
        value: u8,
        /// The square.
        cell: String,
    },
    /// A value that goes beyond home.
    #[error(
        "{value} overshoots: from {cell} (pos {pos}) home is {away} steps away and must be \
         reached exactly"
    )]
    MustFinishExactly {
        /// The value.
        value: u8,
        /// The square.
        cell: String,
        /// Its position on the seat's track.
        pos: u8,
        /// The steps to home.
        away: u8,
    },
    /// A castle held by the opponents.
    #[error("{square} is a castle held by the opponents ({}): closed to you", seats(.who))]
    CastleClosed {
        /// The castle.
        square: String,
        /// Whose pieces stand there: the seat after the mover's first (written `E and W`).
        who: Vec<Compass>,
    },
    /// Too few pieces arriving to capture the opponents there.
    #[error(
        "{square} holds {opposing} opposing {} ({}); {arriving} arriving {} cannot capture \
         them (at least {opposing} needed)",
        plural(*.opposing, "piece", "pieces"),
        seats(.who),
        plural(*.arriving, "piece", "pieces")
    )]
    TooFewToCapture {
        /// The square.
        square: String,
        /// The opposing pieces there.
        opposing: u8,
        /// Whose they are: the seat after the mover's first (written `E and W`).
        who: Vec<Compass>,
        /// The pieces that would arrive.
        arriving: u8,
    },
    /// `enter` with no piece in the Charkoni.
    #[error("none of your pieces waits in the Charkoni to enter")]
    NoneWaiting,
    /// `x0`.
    #[error("a move takes at least one piece")]
    NoPieces,
    /// More pieces than stand there.
    #[error(
        "not that many pieces there: only {have} of your {} {} on {square} at this point of the \
         track",
        plural(*.have, "piece", "pieces"),
        plural(*.have, "stands", "stand")
    )]
    NotThatMany {
        /// The pieces there.
        have: u8,
        /// The square.
        square: String,
    },
    /// A value not among the values left.
    #[error("{value} was not thrown or is used up (values left: {})", values_left(.left))]
    ValueNotThrown {
        /// The value.
        value: String,
        /// The values left, ascending, each as often as thrown (written `6, 10`, or `none`).
        left: Vec<u8>,
    },
    /// No values left to use.
    #[error("no values are left")]
    NoValuesLeft,
    /// No value left can be used on that piece: the reason for each.
    #[error("{}", .reasons.iter().map(|(v, r)| format!("with {v}: {r}")).collect::<Vec<_>>().join("; "))]
    NoValueFits {
        /// Each value left and why it cannot be used.
        reasons: Vec<(String, IllegalReason)>,
    },
    /// `throw` after throwing.
    #[error("you have thrown already: use your values, or done to give them up")]
    AlreadyThrown,
    /// `skip` after throwing.
    #[error(
        "skip declines to throw and is only possible before throwing; done gives up the \
         remaining values"
    )]
    SkipOnlyBeforeThrowing,
    /// `done` before throwing.
    #[error("nothing to give up yet: throw or skip")]
    NothingToGiveUp,
    /// A piece move before throwing.
    #[error("throw the cowries first: the turn starts with throw (or skip)")]
    ThrowFirst,
}

fn listed(legal: &[String]) -> String {
    if legal.is_empty() {
        String::new()
    } else {
        format!(" (legal: {})", legal.join(", "))
    }
}

fn prefix(jump: &Option<String>) -> String {
    jump.as_ref().map_or_else(String::new, |j| format!("{j}: "))
}

fn removal_rule(hole: &Option<String>) -> String {
    match hole {
        Some(hole) => format!("White removes a stone orthogonally next to the hole at {hole}"),
        None => "Black removes a stone from the centre or a corner".to_string(),
    }
}

fn plural(n: u8, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

fn koan_way(seat: Colour) -> &'static str {
    match seat {
        Colour::White => "up",
        Colour::Black => "down",
    }
}

fn koan_towards(seat: Colour) -> &'static str {
    match seat {
        Colour::White => "row 11",
        Colour::Black => "row 1",
    }
}

/// Pachisi seats as `E and W`.
fn seats(who: &[Compass]) -> String {
    who.iter()
        .map(|seat| seat.letter())
        .collect::<Vec<_>>()
        .join(" and ")
}

/// Pachisi values as `6, 10`, or `none`.
fn values_left(left: &[u8]) -> String {
    if left.is_empty() {
        "none".to_string()
    } else {
        left.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// `a, b or c`.
fn or_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [only] => (*only).to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// Why an action could not be applied. The state is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ActionError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// A chance outcome is due, not a move.
    #[error("a roll is due, not a move")]
    RollExpected,
    /// A move by the seat is due, not a roll.
    #[error("{seat} must move now; this is not a roll")]
    MoveExpected {
        /// The seat to act.
        seat: &'static str,
    },
    /// Not one of the listed chance outcomes.
    #[error("roll:{roll} is not a possible outcome here (possible: {possible})")]
    ImpossibleRoll {
        /// The outcome given.
        roll: String,
        /// The possible outcomes.
        possible: String,
    },
    /// The text is not an action in this game's notation.
    #[error(transparent)]
    Notation(NotationError),
    /// The move is not legal here.
    #[error(transparent)]
    Move(MoveError),
}

/// A position string that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("position: `{token}`: {why}")]
pub struct PositionError {
    /// The offending token (a field, a key or a cell).
    pub token: String,
    /// What is wrong with it.
    pub why: PositionProblem,
}

impl PositionError {
    /// A position error about `token`.
    pub fn new(token: impl Into<String>, why: PositionProblem) -> Self {
        Self {
            token: token.into(),
            why,
        }
    }
}

/// What is wrong with a token of a position string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionProblem {
    // ---- Any game ----
    /// A field without `=`.
    ExpectedKeyValue,
    /// A key the game's position strings do not have.
    UnknownKey {
        /// The keys they have.
        keys: Vec<String>,
    },
    /// A key given twice.
    KeyGivenTwice,
    /// A required key left out.
    Missing,
    /// A value that is not one of the few a key takes: `turn must be black or white`.
    MustBe {
        /// The key.
        key: &'static str,
        /// The values it takes.
        choices: &'static [&'static str],
    },
    /// A value outside what a key takes.
    Expected(Expected),
    /// A cell named twice (Konane, Koan).
    CellListedTwice,

    // ---- Konane ----
    /// A cell outside the board.
    NotOnBoard {
        /// The board's size.
        size: u8,
    },
    /// A `size` that disagrees with the option.
    SizeDisagrees {
        /// The option's size.
        option: u8,
    },
    /// A cell under both colours.
    UnderBothColours,
    /// One empty cell, but not a position of White's opening removal.
    KonaneOneHole,
    /// No empty cell, but not the start.
    KonaneNoHole,

    // ---- Koan ----
    /// Not one of the 61 cells.
    KoanCell,
    /// Pieces of both sides on their far rows.
    BothOnFarRows,

    // ---- Kolowis ----
    /// Not a point.
    NotAPoint,
    /// A point named twice.
    PointListedTwice,
    /// A point under both sides.
    PointUnderBoth,

    // ---- Coan Ki ----
    /// An item not written `<cell>x<count>`.
    ExpectedCellCount,
    /// A name that is not a cell.
    NotACoanKiCell {
        /// The name.
        name: String,
    },
    /// A count of pieces out of 1 to 16.
    CountRange,
    /// A cell given twice in one list.
    ListedTwice {
        /// The cell.
        cell: String,
    },
    /// More than the 16 pieces of a side.
    TooManyPieces(Colour),
    /// Finished pieces off the side's start cells.
    FinishedOffStart {
        /// The side.
        seat: Colour,
        /// Its first start cell.
        first: String,
        /// Its second start cell.
        second: String,
    },
    /// `dice` that are not two dice.
    DiceMustBe,
    /// Neither side has a travelling piece.
    NoTravellingPieces,
    /// Dice given with `turn=rolloff`.
    DiceAtRollOff,
    /// A roll-off after a side has won.
    WonBeforeRollOff(Colour),
    /// Dice after a side has won.
    WonWithDice(Colour),
    /// A throw the side to play cannot use.
    NoPlayForThrow {
        /// The side to play.
        seat: Colour,
        /// The throw.
        throw: Throw,
    },

    // ---- Pachisi ----
    /// Not a track position of a seat.
    NotATrackPosition(Compass),
    /// Not four track positions.
    FourPieces,
    /// Pieces of both teams on one square.
    BothTeamsOnSquare,
    /// Not a cowrie value.
    NotACowrieValue,
    /// More throws of one value than can be counted.
    TooManyThrows,
    /// Values in phase `decide`.
    ValuesBeforeThrowing,
    /// A value of 2 to 5 in phase `throw`.
    NotAGraceWhileThrowing,
    /// Two values of 2 to 5 in one turn.
    TwoNonGraces,
    /// Phase `allocate` without values.
    NothingToAllocate,
    /// Not a seat letter.
    NotASeat,
    /// A seat twice in `entered`.
    SeatListedTwice,
    /// A seat with a piece out of the Charkoni missing from `entered`.
    MustBeEntered(Compass),
    /// The seat to move has finished.
    SeatFinished(Compass),
    /// Both teams have finished.
    BothTeamsHome,
}

impl Display for PositionProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PositionProblem as P;
        match self {
            P::ExpectedKeyValue => f.write_str("expected key=value"),
            P::UnknownKey { keys } => write!(f, "unknown key (keys: {})", keys.join(", ")),
            P::KeyGivenTwice => f.write_str("key given twice"),
            P::Missing => f.write_str("missing (it is required)"),
            P::MustBe { key, choices } => write!(f, "{key} must be {}", or_list(choices)),
            P::Expected(expected) => write!(f, "{expected}"),
            P::CellListedTwice => f.write_str("cell listed twice"),
            P::NotOnBoard { size } => write!(f, "not a cell of the {size}×{size} board"),
            P::SizeDisagrees { option } => write!(f, "disagrees with the option size={option}"),
            P::UnderBothColours => f.write_str("cell listed under both colours"),
            P::KonaneOneHole => f.write_str(
                "a board with one empty cell must be the start board without one of Black's \
                 removable stones, White to remove",
            ),
            P::KonaneNoHole => f.write_str(
                "a board with fewer than two empty cells must be one of the two opening positions",
            ),
            P::KoanCell => f.write_str(KOAN_CELLS),
            P::BothOnFarRows => {
                f.write_str("White on row 11 and Black on row 1 would mean both have won")
            }
            P::NotAPoint => f.write_str("not a point (A1–A16, B1–B17, C1–C16)"),
            P::PointListedTwice => f.write_str("point listed twice"),
            P::PointUnderBoth => f.write_str("point listed under both white and black"),
            P::ExpectedCellCount => f.write_str("expected <cell>x<count>, like a1x8"),
            P::NotACoanKiCell { name } => write!(f, "`{name}` is not a cell (a1 to h2)"),
            P::CountRange => f.write_str("the count must be a whole number from 1 to 16"),
            P::ListedTwice { cell } => write!(f, "{cell} is listed twice"),
            P::TooManyPieces(seat) => write!(
                f,
                "{seat} has more than 16 pieces in {key} and {key}-home together",
                key = seat.seat_id()
            ),
            P::FinishedOffStart {
                seat,
                first,
                second,
            } => write!(
                f,
                "finished {seat} pieces stand only on their start cells {first} and {second}"
            ),
            P::DiceMustBe => f.write_str("dice must be two dice from 1 to 6, like 5-6"),
            P::NoTravellingPieces => f.write_str(
                "neither player has a travelling piece; a game ends when the first has none",
            ),
            P::DiceAtRollOff => {
                f.write_str("no dice with turn=rolloff: the roll-off is a chance node")
            }
            P::WonBeforeRollOff(seat) => write!(
                f,
                "{seat} has no travelling pieces and has won; the roll-off is only at the start"
            ),
            P::WonWithDice(seat) => write!(
                f,
                "{seat} has no travelling pieces and has won: no throw awaits its play"
            ),
            P::NoPlayForThrow { seat, throw } => write!(
                f,
                "{seat} has no play for {throw}: such a throw is lost at once"
            ),
            P::NotATrackPosition(seat) => write!(
                f,
                "not a track position of {seat}: positions run from 0 to 84"
            ),
            P::FourPieces => {
                f.write_str("a seat has exactly four pieces: give four track positions")
            }
            P::BothTeamsOnSquare => f.write_str(
                "holds pieces of both teams: a piece landing there captures or may not land",
            ),
            P::NotACowrieValue => f.write_str("not a cowrie value: 2, 3, 4, 5, 6, 10 or 25"),
            P::TooManyThrows => f.write_str("too many throws of this value"),
            P::ValuesBeforeThrowing => {
                f.write_str("no values wait in phase decide (the seat has not thrown yet)")
            }
            P::NotAGraceWhileThrowing => f.write_str(
                "in phase throw only graces (6, 10, 25) have been thrown: a 2, 3, 4 or 5 ends \
                 the throwing",
            ),
            P::TwoNonGraces => {
                f.write_str("a turn has at most one value from 2 to 5: it ends the throwing")
            }
            P::NothingToAllocate => f.write_str("phase allocate needs at least one value to use"),
            P::NotASeat => f.write_str("not a seat: S, E, N or W"),
            P::SeatListedTwice => f.write_str("seat listed twice in entered"),
            P::MustBeEntered(seat) => write!(
                f,
                "{seat} has a piece out of the Charkoni, so it must be listed in entered"
            ),
            P::SeatFinished(seat) => write!(
                f,
                "all of {seat}'s pieces are finished: a finished seat takes no turns"
            ),
            P::BothTeamsHome => f.write_str(
                "both teams have all their pieces home: the game ends when the first does",
            ),
        }
    }
}

/// What an option or a position field takes, when a value is not that.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    /// A whole number from `min` to `max`: `expected a whole number from 1 to 1000`.
    Range {
        /// The smallest.
        min: u32,
        /// The largest.
        max: u32,
    },
    /// One of a few values: `expected one of zone, overshoot`.
    OneOf(Vec<String>),
}

impl Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Range { min, max } => {
                write!(f, "expected a whole number from {min} to {max}")
            }
            Expected::OneOf(choices) => write!(f, "expected one of {}", choices.join(", ")),
        }
    }
}

/// Why a game could not be set up from options, a position and a list of actions.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    /// An unknown game identifier.
    #[error("unknown game `{0}` (games: konane, koan, kolowis, coan-ki, pachisi)")]
    UnknownGame(String),
    /// An option the game does not have.
    #[error("unknown option `{key}` for {game}{}", if allowed.is_empty() { " (it has no options)".to_string() } else { format!(" (options: {allowed})") })]
    UnknownOption {
        /// The game.
        game: &'static str,
        /// The key given.
        key: String,
        /// The game's options.
        allowed: &'static str,
    },
    /// A value the option does not allow.
    #[error("option `{key}={value}`: {expected}")]
    BadOptionValue {
        /// The option.
        key: String,
        /// The value given.
        value: String,
        /// What is allowed.
        expected: Expected,
    },
    /// An option written without `=`.
    #[error("option `{0}`: write options as key=value")]
    MalformedOption(String),
    /// The position string is malformed.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// An action of the list cannot be applied.
    #[error("action {index} `{token}`: {error}")]
    Action {
        /// The index of the action in the list, from 0.
        index: usize,
        /// The action as written.
        token: String,
        /// Why it cannot be applied.
        error: ActionError,
    },
}
