//! Errors of the rules engine. Every one of them is about what a user or a script wrote; the
//! engine has no internal failures. Messages name the offending token and say why.

use thiserror::Error;

/// Text that is not in a game's canonical notation.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("cannot read `{token}`: {why}")]
pub struct NotationError {
    /// The text that could not be read.
    pub token: String,
    /// What was expected.
    pub why: String,
}

impl NotationError {
    /// A notation error for `token`.
    pub fn new(token: &str, why: impl Into<String>) -> Self {
        Self {
            token: token.to_string(),
            why: why.into(),
        }
    }
}

/// Why typed input is not a legal move here.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text does not look like a move of this game at all.
    #[error("cannot read `{input}` as a move: {hint}")]
    Unreadable {
        /// What was typed.
        input: String,
        /// How moves are written in this game.
        hint: String,
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
        why: String,
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
    NoMoveNow(String),
}

/// Why a readable move is not legal here: one variant per reason the five games give, with the
/// data its message needs. `Display` writes the sentence the user sees; tests match the variant.
///
/// Cells, points and squares are carried in their written form (`C4`, `e1`, `j6`); `what`
/// fields describe what stands on a cell (`C9 holds a white piece`); `throw` fields describe a
/// Coan Ki throw and its plays.
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
        what: String,
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
        what: String,
    },
    /// A jump over a piece of the mover's own side.
    #[error("{}a piece never jumps its own side: {what}", prefix(.jump))]
    JumpsOwnPiece {
        /// The jump (`C2xC4`), in a capture sequence.
        jump: Option<String>,
        /// The jumped cell and its piece.
        what: String,
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
        what: String,
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
    #[error("{from} to {to} goes backwards: {seat} moves {way} the board, towards {towards}")]
    Backwards {
        /// Where the piece is.
        from: String,
        /// Where it was to go.
        to: String,
        /// The side to move.
        seat: &'static str,
        /// `up` or `down`.
        way: &'static str,
        /// The row it moves towards.
        towards: &'static str,
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
        what: String,
    },
    /// A capture on the wrong kind of cell for the piece (Koan rule 2).
    #[error("{what}, but {to} is {kind}: {piece} piece captures only on {on}")]
    WrongCaptureCell {
        /// The target and its piece.
        what: String,
        /// The target.
        to: String,
        /// `an octagon` or `a square`.
        kind: &'static str,
        /// `an octagonal` or `a square`.
        piece: String,
        /// `octagons` or `squares`.
        on: &'static str,
    },
    /// No piece of the mover can reach the cell named.
    #[error("no piece of yours can move to {cell} ({what})")]
    NothingCanReach {
        /// The cell.
        cell: String,
        /// What stands there.
        what: String,
    },

    // ---- Coan Ki ----
    /// A removal without a double one (Coan Ki rule 8).
    #[error("a piece is removed only after a double one (1-1)")]
    RemoveOnlyAfterDoubleOne,
    /// More than two parts in a play.
    #[error("a play moves one or two pieces: {throw}")]
    TooManyParts {
        /// The throw and its plays.
        throw: String,
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
        seat: &'static str,
    },
    /// No play of the throw moves the pieces named.
    #[error("no legal play moves from {}: {throw}", .cells.join(" and "))]
    NoPlayFrom {
        /// The cells named.
        cells: Vec<String>,
        /// The throw and its plays.
        throw: String,
    },
    /// Steps that are not one of the throw's options (Coan Ki rule 4).
    #[error("does not fit the throw: {throw}")]
    ExceedsTheThrow {
        /// The throw and its plays.
        throw: String,
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
        seat: &'static str,
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
        owner: &'static str,
    },
    /// Nothing wrong found part by part, but no legal play is this.
    #[error("not a legal play here: {throw}")]
    NotALegalPlay {
        /// The throw and its plays.
        throw: String,
    },
    /// `pass`, which Coan Ki does not have.
    #[error(
        "there is no pass move: {}",
        .throw.as_ref().map_or_else(
            || "after 1-1 remove one of your travelling pieces, like `remove:e1`".to_string(),
            |t| format!("a throw that can be used must be played ({t})")
        )
    )]
    NoPass {
        /// The throw to play; `None` after a double one.
        throw: Option<String>,
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
    #[error("{square} is a castle held by the opponents ({who}): closed to you")]
    CastleClosed {
        /// The castle.
        square: String,
        /// Whose pieces stand there.
        who: String,
    },
    /// Too few pieces arriving to capture the opponents there.
    #[error(
        "{square} holds {opposing} opposing {} ({who}); {arriving} arriving {} cannot capture \
         them (at least {opposing} needed)",
        plural(*.opposing, "piece", "pieces"),
        plural(*.arriving, "piece", "pieces")
    )]
    TooFewToCapture {
        /// The square.
        square: String,
        /// The opposing pieces there.
        opposing: u8,
        /// Whose they are.
        who: String,
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
    #[error("{value} was not thrown or is used up (values left: {left})")]
    ValueNotThrown {
        /// The value.
        value: String,
        /// The values left.
        left: String,
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
    pub why: String,
}

impl PositionError {
    /// A position error about `token`.
    pub fn new(token: impl Into<String>, why: impl Into<String>) -> Self {
        Self {
            token: token.into(),
            why: why.into(),
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
    #[error("option `{key}={value}`: {why}")]
    BadOptionValue {
        /// The option.
        key: String,
        /// The value given.
        value: String,
        /// What is allowed.
        why: String,
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
