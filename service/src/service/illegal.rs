//! The rules engine's refusals, said from the catalogue (`illegal.ftl`).
//!
//! `tabula-core` gives typed errors ([`ActionError`], [`MoveError`], [`IllegalReason`],
//! [`SetupError`]) whose fields are data: cells and moves as written, numbers, sides, Coan Ki
//! throws, what stands on a cell, which values an option takes. Each refusal becomes a message
//! from those fields alone, said in English word for word as the engine's `Display` says it (a
//! test compares them over many refusals of every game) and in every other language from its
//! catalogue, with no English inside.

use tabula_core::coan_ki::Throw;
use tabula_core::{
    ActionError, CellContents, Colour, Compass, Expected, GameId, Holding, IllegalReason,
    MoveError, NoMoveReason, NotYours, NotationError, NotationProblem, PositionError,
    PositionProblem, SetupError,
};

use crate::l10n::Msg;

/// A refusal of a game's setup (`/play konane size=7`) as a message.
pub(super) fn setup_error_msg(error: &SetupError) -> Msg {
    match error {
        SetupError::UnknownGame(name) => Msg::new("setup-unknown-game").text("name", name),
        SetupError::UnknownOption { game, key, allowed } => {
            // The game as it is typed (`coan-ki`).
            Msg::new("setup-unknown-option")
                .text("key", key)
                .text("game", *game)
                .text("allowed", *allowed)
                .text("any", if allowed.is_empty() { "no" } else { "yes" })
        }
        SetupError::BadOptionValue {
            key,
            value,
            expected,
        } => match expected {
            // The bounds as the engine writes them (no grouping: `4294967295`).
            Expected::Range { min, max } => Msg::new("setup-bad-number")
                .text("min", min.to_string())
                .text("max", max.to_string()),
            Expected::OneOf(choices) => {
                Msg::new("setup-bad-choice").text("choices", choices.join(", "))
            }
        }
        .text("key", key)
        .text("value", value),
        SetupError::MalformedOption(option) => Msg::new("setup-malformed").text("option", option),
        SetupError::Position(error) => position_error_msg(error),
        SetupError::Action {
            index,
            token,
            error,
        } => Msg::new("setup-action")
            .text("index", index.to_string())
            .text("token", token)
            .msg("error", action_error_msg(error)),
    }
}

/// A refusal of the engine as a message.
pub(super) fn action_error_msg(error: &ActionError) -> Msg {
    match error {
        ActionError::GameOver => Msg::new("action-game-over"),
        ActionError::RollExpected => Msg::new("action-roll-expected"),
        ActionError::MoveExpected { seat } => Msg::new("action-move-expected").text("seat", *seat),
        ActionError::ImpossibleRoll { roll, possible } => Msg::new("action-impossible-roll")
            .text("roll", roll)
            .text("possible", possible),
        ActionError::Notation(error) => notation_error_msg(error),
        ActionError::Move(error) => move_error_msg(error),
    }
}

fn move_error_msg(error: &MoveError) -> Msg {
    match error {
        MoveError::Unreadable { input, game } => Msg::new("move-unreadable")
            .text("input", input)
            .msg("hint", hint_msg(*game)),
        MoveError::NoSuchCell(cell) => Msg::new("move-no-such-cell").text("cell", cell),
        MoveError::Illegal { input, reason } => Msg::new("move-illegal")
            .text("input", input)
            .msg("reason", reason_msg(reason)),
        MoveError::Ambiguous { input, candidates } => Msg::new("move-ambiguous")
            .text("input", input)
            .msg("candidates", verbatim_list(candidates, "clauses-or")),
        MoveError::NotYourPiece { cell, why } => Msg::new("move-not-your-piece")
            .text("cell", cell)
            .msg("why", not_yours_msg(why)),
        MoveError::NoMoveNow(reason) => {
            Msg::new("move-no-move-now").msg("reason", no_move_msg(reason))
        }
    }
}

/// How moves of a game are written, in the reader's language.
fn hint_msg(game: GameId) -> Msg {
    Msg::new(match game {
        GameId::Konane => "move-hint-konane",
        GameId::Koan => "move-hint-koan",
        GameId::Kolowis => "move-hint-kolowis",
        GameId::CoanKi => "move-hint-coan-ki",
        GameId::Pachisi => "move-hint-pachisi",
    })
}

/// Why no move can be made now.
fn no_move_msg(reason: &NoMoveReason) -> Msg {
    match reason {
        NoMoveReason::GameOver => Msg::new("no-move-game-over"),
        // The winner as the status line names it (`white`).
        NoMoveReason::GameOverWinner { team } => {
            Msg::new("no-move-game-over-winner").text("team", *team)
        }
        // Pachisi's team as the status line names it (`SN`).
        NoMoveReason::TeamWon { team } => Msg::new("no-move-team-won").text("team", *team),
        NoMoveReason::DiceFirst => Msg::new("no-move-dice-first"),
        NoMoveReason::CowriesBeingThrown => Msg::new("no-move-cowries"),
    }
}

/// Why a cell named for a move holds nothing of the mover's.
fn not_yours_msg(why: &NotYours) -> Msg {
    match why {
        NotYours::Holds(contents) => contents_msg(contents),
        NotYours::ToMove { contents, mover } => Msg::new("not-yours-to-move")
            .msg("what", contents_msg(contents))
            .text("side", side(*mover)),
        NotYours::RemovesOwnStone { contents, mover } => Msg::new("not-yours-removes-stone")
            .msg("what", contents_msg(contents))
            .text("side", side(*mover)),
        NotYours::RemovesOwnTravelling { contents, mover } => {
            Msg::new("not-yours-removes-travelling")
                .msg("what", contents_msg(contents))
                .text("side", side(*mover))
        }
        NotYours::NoPieceThere(contents) => {
            Msg::new("not-yours-no-piece").msg("what", contents_msg(contents))
        }
        NotYours::NoHomeBoundThere(contents) => {
            Msg::new("not-yours-no-home-bound").msg("what", contents_msg(contents))
        }
    }
}

/// What stands on a cell (`d4 holds a White stone`, `k2 holds 2 pieces of S`).
fn contents_msg(contents: &CellContents) -> Msg {
    match &contents.holds {
        Holding::Empty => Msg::new("describe-empty"),
        Holding::Seats(groups) if groups.is_empty() => Msg::new("describe-empty"),
        Holding::Stone(colour) => Msg::new("describe-stone").text("side", side(*colour)),
        Holding::Piece(colour) => Msg::new("describe-piece").text("side", side(*colour)),
        Holding::OwnShaped(shape) => Msg::new("describe-own-shape").text("shape", shape_of(*shape)),
        Holding::Shaped(colour, shape) => Msg::new("describe-their-shape")
            .text("side", side(*colour))
            .text("shape", shape_of(*shape)),
        Holding::Only(colour) => Msg::new("describe-only").text("side", side(*colour)),
        Holding::OnlyFinished(colour) => Msg::new("describe-finished").text("side", side(*colour)),
        Holding::Seats(groups) => {
            let groups = groups
                .iter()
                .map(|(seat, count)| {
                    Msg::new("describe-group")
                        .num("count", *count)
                        .text("seat", seat.letter())
                })
                .collect();
            Msg::new("describe-groups")
                .msg("groups", Msg::list(groups, "clauses-and", "clauses-and"))
        }
    }
    .text("cell", &contents.cell)
}

/// A side as the catalogue's selectors name it (`White`).
fn side(colour: Colour) -> &'static str {
    match colour {
        Colour::White => "White",
        Colour::Black => "Black",
    }
}

/// A Koan piece's shape as the catalogue's selectors name it (`octagonal`).
fn shape_of(shape: tabula_core::koan::Shape) -> &'static str {
    match shape {
        tabula_core::koan::Shape::Octagonal => "octagonal",
        tabula_core::koan::Shape::Square => "square",
    }
}

/// Items said as they are, joined as a list (`a, b or c`).
fn verbatim_list(items: &[String], last: &'static str) -> Msg {
    Msg::list(
        items
            .iter()
            .map(|item| Msg::new("verbatim").text("text", item))
            .collect(),
        last,
        last,
    )
}

/// Pachisi's seats by letter, `E and W`, as a message.
fn seat_letters(seats: &[Compass]) -> Msg {
    Msg::list(
        seats
            .iter()
            .map(|seat| Msg::new("seat-letter").text("seat", seat.letter()))
            .collect(),
        "clauses-and",
        "clauses-and",
    )
}

/// A Coan Ki throw with what it allows (`1-3 moves one piece 4, or one piece 1 and another 3`).
fn throw_msg(throw: Throw) -> Msg {
    let (lo, hi) = (i64::from(throw.lo()), i64::from(throw.hi()));
    if (lo, hi) == (1, 1) {
        Msg::new("throw-moves-double-one")
    } else if lo == hi {
        Msg::new("throw-moves-double")
            .num("die", lo)
            .num("twice", 2 * lo)
    } else if hi == lo + 1 {
        Msg::new("throw-moves-next")
            .num("lo", lo)
            .num("sum", lo + hi)
            .num("less", lo + hi - 1)
    } else {
        Msg::new("throw-moves-two")
            .num("lo", lo)
            .num("hi", hi)
            .num("sum", lo + hi)
    }
    .text("throw", throw.to_string())
}

/// `a4: ` before a reason about one jump of a chain, or nothing.
fn jump(jump: Option<&String>) -> Msg {
    match jump {
        Some(jump) => Msg::new("reason-jump").text("jump", jump),
        None => Msg::new("verbatim").text("text", ""),
    }
}

fn reason_msg(reason: &IllegalReason) -> Msg {
    use IllegalReason as R;
    let m = Msg::new;
    match reason {
        R::NotLegalHere { legal } => m("reason-not-legal-here")
            .text("listed", if legal.is_empty() { "no" } else { "yes" })
            .text("legal", legal.join(", ")),
        R::MustMove { cell } => m("reason-must-move").text("cell", cell),
        R::PieceCannotMove { what } => {
            m("reason-piece-cannot-move").msg("what", contents_msg(what))
        }
        R::MustCapture { captures } => {
            m("reason-must-capture").text("captures", captures.join(", "))
        }
        R::TargetOccupied { what } => m("reason-target-occupied").msg("what", contents_msg(what)),
        R::JumpsOwnPiece { jump: j, what } => m("reason-jumps-own-piece")
            .msg("jump", jump(j.as_ref()))
            .msg("what", contents_msg(what)),
        R::NothingToJump { jump: j, cell } => m("reason-nothing-to-jump")
            .msg("jump", jump(j.as_ref()))
            .text("cell", cell),
        R::AlreadyCaptured { jump, point } => m("reason-already-captured")
            .text("jump", jump)
            .text("point", point),
        R::LandingOccupied { jump: j, what } => m("reason-landing-occupied")
            .msg("jump", jump(j.as_ref()))
            .msg("what", contents_msg(what)),
        R::TooManyJumps => m("reason-too-many-jumps"),
        R::StepInCapture { step } => m("reason-step-in-capture").text("step", step),
        R::NotStraight { from, to, bend } => m("reason-not-straight")
            .text("from", from)
            .text("to", to)
            .text("bend", bend),
        R::NotJoined { from, to } => m("reason-not-joined").text("from", from).text("to", to),
        R::NotRemovable { hole, choices } => {
            let rule = match hole {
                Some(hole) => m("reason-removal-white").text("hole", hole),
                None => m("reason-removal-black"),
            };
            m("reason-not-removable")
                .msg("rule", rule)
                .text("choices", choices.join(", "))
        }
        R::NotInLine { from, to } => m("reason-not-in-line").text("from", from).text("to", to),
        R::ChainTurns => m("reason-chain-turns"),
        R::OddDistance => m("reason-odd-distance"),
        R::NotOneJump { from, to } => m("reason-not-one-jump").text("from", from).text("to", to),
        R::MustRemoveInOpening => m("reason-must-remove-in-opening"),
        R::RemovalsAreOver => m("reason-removals-are-over"),
        R::MustJump => m("reason-must-jump"),
        R::Backwards { from, to, seat } => m("reason-backwards")
            .text("from", from)
            .text("to", to)
            .text("side", side(*seat)),
        R::Sideways { from, to } => m("reason-sideways").text("from", from).text("to", to),
        R::SquareToSquare { from, to } => m("reason-square-to-square")
            .text("from", from)
            .text("to", to),
        R::NotOneForward { from, to, targets } => m("reason-not-one-forward")
            .text("from", from)
            .text("to", to)
            .text("targets", targets),
        R::OntoOwnPiece { what } => m("reason-onto-own-piece").msg("what", contents_msg(what)),
        R::WrongCaptureCell { what, to, shape } => m("reason-wrong-capture-cell")
            .msg("what", contents_msg(what))
            .text("to", to)
            // The target is of the other kind than the piece's shape.
            .text(
                "cell-shape",
                match shape {
                    tabula_core::koan::Shape::Octagonal => "square",
                    tabula_core::koan::Shape::Square => "octagon",
                },
            )
            .text("shape", shape_of(*shape)),
        R::NothingCanReach { cell, what } => m("reason-nothing-can-reach")
            .text("cell", cell)
            .msg("what", contents_msg(what)),
        R::RemoveOnlyAfterDoubleOne => m("reason-remove-only-after-double-one"),
        R::TooManyParts { throw } => m("reason-too-many-parts").msg("throw", throw_msg(*throw)),
        R::SamePieceTwice { cell, seat } => m("reason-same-piece-twice")
            .text("cell", cell)
            .text("side", side(*seat)),
        R::NoPlayFrom { cells, throw } => m("reason-no-play-from")
            .msg("cells", verbatim_list(cells, "clauses-and"))
            .msg("throw", throw_msg(*throw)),
        R::ExceedsTheThrow { throw } => {
            m("reason-exceeds-the-throw").msg("throw", throw_msg(*throw))
        }
        R::OvershootsHome {
            cell,
            steps,
            seat,
            exact,
            first,
            second,
        } => m("reason-overshoots-home")
            .text("cell", cell)
            .count("steps", *steps)
            .text("side", side(*seat))
            .count("exact", *exact)
            .count("more", exact + 1)
            .text("first", first)
            .text("second", second),
        R::PathBlocked {
            cell,
            steps,
            block,
            count,
            owner,
        } => m("reason-path-blocked")
            .text("cell", cell)
            .count("steps", *steps)
            .text("block", block)
            .num("count", *count)
            .text("side", side(*owner)),
        R::NotALegalPlay { throw } => m("reason-not-a-legal-play").msg("throw", throw_msg(*throw)),
        R::NoPass { throw } => match throw {
            Some(throw) => m("reason-no-pass-throw").msg("throw", throw_msg(*throw)),
            None => m("reason-no-pass-remove"),
        },
        R::MustRemove => m("reason-must-remove"),
        R::CharkoniIsNotASquare { cell } => m("reason-charkoni").text("cell", cell),
        R::NotACowrieValue { value } => m("reason-not-a-cowrie-value").text("value", value),
        R::EnterNeedsGrace { value } => m("reason-enter-needs-grace").num("value", *value),
        R::FinishNeedsGrace { value, cell } => m("reason-finish-needs-grace")
            .num("value", *value)
            .text("cell", cell),
        R::MustFinishExactly {
            value,
            cell,
            pos,
            away,
        } => m("reason-must-finish-exactly")
            .num("value", *value)
            .text("cell", cell)
            .num("pos", *pos)
            .num("away", *away),
        R::CastleClosed { square, who } => m("reason-castle-closed")
            .text("square", square)
            .msg("who", seat_letters(who)),
        R::TooFewToCapture {
            square,
            opposing,
            who,
            arriving,
        } => m("reason-too-few-to-capture")
            .text("square", square)
            .num("opposing", *opposing)
            .msg("who", seat_letters(who))
            .num("arriving", *arriving),
        R::NoneWaiting => m("reason-none-waiting"),
        R::NoPieces => m("reason-no-pieces"),
        R::NotThatMany { have, square } => m("reason-not-that-many")
            .num("have", *have)
            .text("square", square),
        R::ValueNotThrown { value, left } => m("reason-value-not-thrown")
            .text("value", value)
            .msg("left", values_left(left)),
        R::NoValuesLeft => m("reason-no-values-left"),
        R::NoValueFits { reasons } => {
            let parts = reasons
                .iter()
                .map(|(value, reason)| {
                    m("reason-with-value")
                        .text("value", value)
                        .msg("reason", reason_msg(reason))
                })
                .collect();
            Msg::list(parts, "reasons-semicolon", "reasons-semicolon")
        }
        R::AlreadyThrown => m("reason-already-thrown"),
        R::SkipOnlyBeforeThrowing => m("reason-skip-only-before-throwing"),
        R::NothingToGiveUp => m("reason-nothing-to-give-up"),
        R::ThrowFirst => m("reason-throw-first"),
    }
}

/// Pachisi's values left, `6, 10`, or `none` in the reader's language.
fn values_left(left: &[u8]) -> Msg {
    if left.is_empty() {
        Msg::new("values-none")
    } else {
        let values: Vec<String> = left.iter().map(ToString::to_string).collect();
        Msg::new("verbatim").text("text", values.join(", "))
    }
}

/// Text not in a game's canonical notation (a roll a script wrote, say), as a message.
fn notation_error_msg(error: &NotationError) -> Msg {
    use NotationProblem as P;
    let why = match &error.why {
        P::NoDice => Msg::new("notation-no-dice"),
        P::KonaneMove => Msg::new("notation-konane-move"),
        P::KoanCell => Msg::new("notation-koan-cell"),
        P::KoanMove => Msg::new("notation-koan-move"),
        P::KoanNotForward { from, to } => Msg::new("notation-koan-not-forward")
            .text("from", from)
            .text("to", to),
        P::KolowisPoint => Msg::new("notation-kolowis-point"),
        P::KolowisPoints => Msg::new("notation-kolowis-points"),
        P::KolowisStepOffLine => Msg::new("notation-kolowis-step-off-line"),
        P::KolowisJumpOffLine => Msg::new("notation-kolowis-jump-off-line"),
        P::KolowisTooManyJumps => Msg::new("reason-too-many-jumps"),
        P::KolowisMove => Msg::new("notation-kolowis-move"),
        P::CoanKiRoll => Msg::new("notation-coan-ki-roll"),
        P::CoanKiMove => Msg::new("notation-coan-ki-move"),
        P::NotCanonical { canonical } => {
            Msg::new("notation-not-canonical").text("canonical", canonical)
        }
        P::PachisiSquare => Msg::new("notation-pachisi-square"),
        P::PachisiRoll => Msg::new("notation-pachisi-roll"),
        P::PachisiMove => Msg::new("notation-pachisi-move"),
    };
    Msg::new("notation-error")
        .text("token", &error.token)
        .msg("why", why)
}

/// A position string that cannot be read, as a message.
fn position_error_msg(error: &PositionError) -> Msg {
    use PositionProblem as P;
    let m = Msg::new;
    let why = match &error.why {
        P::ExpectedKeyValue => m("position-expected-key-value"),
        P::UnknownKey { keys } => m("position-unknown-key").text("keys", keys.join(", ")),
        P::KeyGivenTwice => m("position-key-twice"),
        P::Missing => m("position-missing"),
        P::MustBe { key, choices } => {
            let choices = choices
                .iter()
                .map(|choice| m("verbatim").text("text", *choice))
                .collect();
            m("position-must-be")
                .text("key", *key)
                .msg("choices", Msg::list(choices, "list-comma", "clauses-or"))
        }
        P::Expected(Expected::Range { min, max }) => m("expected-number")
            .text("min", min.to_string())
            .text("max", max.to_string()),
        P::Expected(Expected::OneOf(choices)) => {
            m("expected-choice").text("choices", choices.join(", "))
        }
        P::CellListedTwice => m("position-cell-twice"),
        P::NotOnBoard { size } => m("position-not-on-board").num("size", *size),
        P::SizeDisagrees { option } => m("position-size-disagrees").num("option", *option),
        P::UnderBothColours => m("position-under-both-colours"),
        P::KonaneOneHole => m("position-konane-one-hole"),
        P::KonaneNoHole => m("position-konane-no-hole"),
        P::KoanCell => m("notation-koan-cell"),
        P::BothOnFarRows => m("position-both-on-far-rows"),
        P::NotAPoint => m("position-not-a-point"),
        P::PointListedTwice => m("position-point-twice"),
        P::PointUnderBoth => m("position-point-under-both"),
        P::ExpectedCellCount => m("position-expected-cell-count"),
        P::NotACoanKiCell { name } => m("position-not-a-coan-ki-cell").text("name", name),
        P::CountRange => m("position-count-range"),
        P::ListedTwice { cell } => m("position-listed-twice").text("cell", cell),
        P::TooManyPieces(colour) => m("position-too-many-pieces")
            .text("side", side(*colour))
            .text("key", colour.seat_id()),
        P::FinishedOffStart {
            seat,
            first,
            second,
        } => m("position-finished-off-start")
            .text("side", side(*seat))
            .text("first", first)
            .text("second", second),
        P::DiceMustBe => m("position-dice-must-be"),
        P::NoTravellingPieces => m("position-no-travelling-pieces"),
        P::DiceAtRollOff => m("position-dice-at-roll-off"),
        P::WonBeforeRollOff(colour) => {
            m("position-won-before-roll-off").text("side", side(*colour))
        }
        P::WonWithDice(colour) => m("position-won-with-dice").text("side", side(*colour)),
        P::NoPlayForThrow { seat, throw } => m("position-no-play-for-throw")
            .text("side", side(*seat))
            .text("throw", throw.to_string()),
        P::NotATrackPosition(seat) => {
            m("position-not-a-track-position").text("seat", seat.letter())
        }
        P::FourPieces => m("position-four-pieces"),
        P::BothTeamsOnSquare => m("position-both-teams-on-square"),
        P::NotACowrieValue => m("position-not-a-cowrie-value"),
        P::TooManyThrows => m("position-too-many-throws"),
        P::ValuesBeforeThrowing => m("position-values-before-throwing"),
        P::NotAGraceWhileThrowing => m("position-not-a-grace-while-throwing"),
        P::TwoNonGraces => m("position-two-non-graces"),
        P::NothingToAllocate => m("position-nothing-to-allocate"),
        P::NotASeat => m("position-not-a-seat"),
        P::SeatListedTwice => m("position-seat-twice"),
        P::MustBeEntered(seat) => m("position-must-be-entered").text("seat", seat.letter()),
        P::SeatFinished(seat) => m("position-seat-finished").text("seat", seat.letter()),
        P::BothTeamsHome => m("position-both-teams-home"),
    };
    m("setup-position")
        .text("token", &error.token)
        .msg("why", why)
}

/// What the store refused because of what people did (mostly races: two presses of one
/// button, a challenge settled meanwhile), as a message (in English the store's own words, as
/// a test checks).
pub(super) fn conflict_msg(conflict: &crate::store::Conflict) -> Msg {
    use crate::store::Conflict as C;
    match conflict {
        C::StaleSeq { current } => Msg::new("conflict-stale").text("current", current.to_string()),
        C::Duplicate => Msg::new("conflict-duplicate"),
        C::NoSuchGame(game) => Msg::new("conflict-no-such-game").text("game", game.to_string()),
        C::GameOver { game, status } => Msg::new("conflict-game-over")
            .text("game", game.to_string())
            .text("status", status.as_str()),
        C::NoSuchChallenge(no) => {
            Msg::new("conflict-no-such-challenge").text("challenge", no.to_string())
        }
        C::ChallengeSettled { challenge, status } => Msg::new("conflict-challenge-settled")
            .text("challenge", challenge.to_string())
            .text("status", status.as_str()),
        C::ChallengeExpired(no) => {
            Msg::new("conflict-challenge-expired").text("challenge", no.to_string())
        }
        C::NotInvited(no) => Msg::new("conflict-not-invited").text("challenge", no.to_string()),
        C::PlayersChanged(no) => {
            Msg::new("conflict-players-changed").text("challenge", no.to_string())
        }
        C::InsufficientFunds {
            user,
            balance,
            needed,
        } => Msg::new("conflict-insufficient-funds")
            .text("user", user.to_string())
            .text("balance", balance.to_string())
            .text("needed", needed.to_string()),
        C::NotYetDue(game) => Msg::new("conflict-not-yet-due").text("game", game.to_string()),
        C::VacationQuota { used, quota } => Msg::new("conflict-vacation-quota")
            .text("used", used.to_string())
            .num("quota", *quota),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use tabula_core::koan::Shape;
    use tabula_core::{AnyGame, Game};

    use super::*;
    use crate::l10n::{Lang, Span};

    /// Words of Latin letters a Russian or Bulgarian refusal may hold: what people type.
    const TYPED: &[&str] = &["throw", "skip", "done", "enter", "remove", "roll"];

    /// Words of Latin letters a refusal of a setup may hold besides: the games' names and
    /// the keys and values of position strings, as they are written.
    const SETUP: &[&str] = &[
        "konane", "koan", "kolowis", "coan", "pachisi", "turn", "size", "black", "white", "oct",
        "home", "dice", "quiet", "phase", "throws", "entered", "rolloff", "decide", "allocate",
    ];

    fn english_words(text: &str, allowed: &[&str]) -> Vec<String> {
        let mut in_code = false;
        let mut kept = String::new();
        for c in text.chars() {
            if c == '`' {
                in_code = !in_code;
                kept.push(' ');
            } else if !in_code {
                kept.push(c);
            }
        }
        kept.split_whitespace()
            .filter(|word| !word.contains(|c: char| c.is_ascii_digit() || "+:<".contains(c)))
            .flat_map(|word| word.split(|c: char| !c.is_ascii_alphabetic()))
            .filter(|word| word.len() >= 3 && !TYPED.contains(word) && !allowed.contains(word))
            .map(str::to_string)
            .collect()
    }

    /// The English text with its code spans between backticks, as the engine writes them.
    fn marked(msg: &Msg) -> String {
        marked_in(msg, Lang::ENGLISH)
    }

    /// The text in `lang` with its code spans between backticks.
    fn marked_in(msg: &Msg, lang: Lang) -> String {
        crate::l10n::spans(lang, msg)
            .iter()
            .map(Span::marked)
            .collect()
    }

    fn ru_bg() -> [Lang; 2] {
        [
            Lang::parse("ru").expect("Russian"),
            Lang::parse("bg").expect("Bulgarian"),
        ]
    }

    /// Said in English exactly as `english`, and in Russian and Bulgarian with no English
    /// word but `allowed` ones.
    fn assert_said(msg: &Msg, english: &str, allowed: &[&str]) {
        assert_eq!(marked(msg), english);
        for lang in ru_bg() {
            let text = marked_in(msg, lang);
            assert_eq!(
                english_words(&text, allowed),
                Vec::<String>::new(),
                "{text}"
            );
        }
    }

    /// Every refusal of the store is said from the catalogue, in its own English.
    #[test]
    fn store_refusals_are_translated() {
        use crate::store::{
            ChallengeNo, ChallengeStatus, Conflict as C, GameNo, GameStatus, UserId,
        };
        let all = [
            C::StaleSeq { current: 7 },
            C::Duplicate,
            C::NoSuchGame(GameNo(3)),
            C::GameOver {
                game: GameNo(3),
                status: GameStatus::Aborted,
            },
            C::GameOver {
                game: GameNo(3),
                status: GameStatus::Finished,
            },
            C::NoSuchChallenge(ChallengeNo(2)),
            C::ChallengeSettled {
                challenge: ChallengeNo(2),
                status: ChallengeStatus::Accepted,
            },
            C::ChallengeSettled {
                challenge: ChallengeNo(2),
                status: ChallengeStatus::Cancelled,
            },
            C::ChallengeExpired(ChallengeNo(2)),
            C::NotInvited(ChallengeNo(2)),
            C::PlayersChanged(ChallengeNo(2)),
            C::InsufficientFunds {
                user: UserId(5),
                balance: 1500,
                needed: 2000,
            },
            C::NotYetDue(GameNo(3)),
            C::VacationQuota { used: 5, quota: 5 },
        ];
        for conflict in all {
            assert_said(&conflict_msg(&conflict), &conflict.to_string(), &[]);
        }
    }

    /// Bad game options: refused in the engine's English in English, without English words in
    /// Russian and Bulgarian; each kind of option refusal is met.
    #[test]
    fn option_refusals_are_translated() {
        let mut kinds = BTreeSet::new();
        for &id in GameId::ALL {
            for option in [
                "size=7",
                "size=x",
                "size=1000",
                "nosuch=1",
                "novalue",
                "block8=maybe",
                "stall=0",
                "stall=x",
                "finish=x",
                "variant=x",
            ] {
                let Err(error) = AnyGame::start(id, &[option], None) else {
                    continue;
                };
                let msg = setup_error_msg(&error);
                assert_eq!(marked(&msg), error.to_string());
                for lang in ru_bg() {
                    let text = msg.to_text(lang);
                    assert!(
                        !text.contains("expected") && !text.contains("option"),
                        "{text}"
                    );
                }
                kinds.insert(msg.id);
            }
        }
        assert!(kinds.len() >= 4, "{kinds:?}");
    }

    /// Bad inputs of every kind at many positions of every game: every refusal is said in
    /// English exactly as the engine says it, and in Russian and Bulgarian with no English
    /// word.
    #[test]
    fn refusals_are_the_engines_english_and_translated() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n.max(1) as u64) as usize
        };
        let fixed = [
            "?",
            "z99",
            "a1",
            "e4",
            "d4-f4",
            "a1-a3",
            "a1-c1-e1",
            "G11-G9",
            "C3xB4",
            "C8-B9",
            "C2xC4xC6",
            "c1+7",
            "a1+5&b1+11",
            "c1+7&c1+7",
            "remove:e1",
            "enter+7",
            "enter+2",
            "k2+3",
            "k2+25",
            "k2h+2",
            "throw",
            "skip",
            "done",
            "pass",
            "c9x2+4",
            "x1+30",
        ];
        let mut said = BTreeSet::new();
        // Refusals that tell what stands on a cell, and why a cell is not the mover's.
        let (mut described, mut not_yours) = (0, 0);
        for (i, &id) in GameId::ALL.iter().enumerate() {
            for _round in 0..3 {
                let mut game = AnyGame::start(id, &[], None).expect("start");
                for _ply in 0..(60 + 40 * i) {
                    let lines = game.legal_lines();
                    if lines.is_empty() {
                        break;
                    }
                    let mut inputs: Vec<String> = fixed.iter().map(|s| s.to_string()).collect();
                    for line in lines.iter().take(6) {
                        let action = line.split(' ').next().unwrap_or_default();
                        inputs.push(format!("{action}-a1"));
                        inputs.push(action.chars().rev().collect());
                        inputs.push(action.replace('+', "+1"));
                        inputs.push(action.replace('-', "x"));
                    }
                    for input in inputs {
                        let Err(error) = game.clone().apply_text(&input) else {
                            continue;
                        };
                        let msg = action_error_msg(&error);
                        let english = error.to_string();
                        assert_said(&msg, &english, &[]);
                        if english.contains(" holds ") || english.contains(" is empty") {
                            described += 1;
                        }
                        if english.contains("is not yours") {
                            not_yours += 1;
                        }
                        said.insert(english.split(':').next().unwrap_or_default().to_string());
                    }
                    let action = lines[next(lines.len())]
                        .split(' ')
                        .next()
                        .unwrap_or_default()
                        .to_string();
                    game.apply_text(&action).expect("legal");
                }
            }
        }
        // Many kinds of refusal were met and said from the catalogue.
        assert!(said.len() >= 25, "{} kinds: {said:#?}", said.len());
        assert!(
            described >= 10,
            "{described} refusals told what stands on a cell"
        );
        assert!(not_yours >= 10, "{not_yours} refusals of a cell not yours");
    }

    /// Refusals set up by hand, one or more of each kind the engine has, so that every
    /// message of the catalogue for them is met: said in the engine's English, and with no
    /// English word in Russian and Bulgarian.
    #[test]
    fn every_kind_of_refusal_is_translated() {
        use IllegalReason as R;
        let throw = |a, b| Throw::new(a, b).expect("a throw");
        let at = |cell: &str, holds| CellContents::new(cell, holds);
        let own = |what| R::OntoOwnPiece { what };
        let reasons = vec![
            R::NotLegalHere {
                legal: vec!["C8-B9".into(), "B2-B1".into()],
            },
            R::NotLegalHere { legal: Vec::new() },
            R::MustMove { cell: "c8".into() },
            R::PieceCannotMove {
                what: at("C4", Holding::Piece(Colour::White)),
            },
            R::MustCapture {
                captures: vec!["B8xB10".into()],
            },
            R::TargetOccupied {
                what: at("B9", Holding::Piece(Colour::Black)),
            },
            R::JumpsOwnPiece {
                jump: Some("C2xC4".into()),
                what: at("C3", Holding::Piece(Colour::White)),
            },
            R::JumpsOwnPiece {
                jump: None,
                what: at("c4", Holding::Stone(Colour::Black)),
            },
            R::NothingToJump {
                jump: None,
                cell: "b4".into(),
            },
            R::AlreadyCaptured {
                jump: "B10xB8".into(),
                point: "B9".into(),
            },
            R::LandingOccupied {
                jump: None,
                what: at("a4", Holding::Stone(Colour::White)),
            },
            R::TooManyJumps,
            R::StepInCapture {
                step: "B2-B1".into(),
            },
            R::NotStraight {
                from: "C4".into(),
                to: "A4".into(),
                bend: "B4".into(),
            },
            R::NotJoined {
                from: "C3".into(),
                to: "C7".into(),
            },
            R::NotRemovable {
                hole: Some("a8".into()),
                choices: vec!["b8".into(), "a7".into()],
            },
            R::NotRemovable {
                hole: None,
                choices: vec!["a8".into(), "d5".into()],
            },
            R::NotInLine {
                from: "a1".into(),
                to: "b2".into(),
            },
            R::ChainTurns,
            R::OddDistance,
            R::NotOneJump {
                from: "a8".into(),
                to: "e8".into(),
            },
            R::MustRemoveInOpening,
            R::RemovalsAreOver,
            R::MustJump,
            R::Backwards {
                from: "G7".into(),
                to: "G9".into(),
                seat: Colour::Black,
            },
            R::Backwards {
                from: "E3".into(),
                to: "E1".into(),
                seat: Colour::White,
            },
            R::Sideways {
                from: "C3".into(),
                to: "A3".into(),
            },
            R::SquareToSquare {
                from: "D2".into(),
                to: "F6".into(),
            },
            R::NotOneForward {
                from: "C11".into(),
                to: "C1".into(),
                targets: "B10, C9, D10".into(),
            },
            own(at("B2", Holding::OwnShaped(Shape::Square))),
            own(at("A1", Holding::OwnShaped(Shape::Octagonal))),
            R::WrongCaptureCell {
                what: at("H6", Holding::Shaped(Colour::Black, Shape::Octagonal)),
                to: "H6".into(),
                shape: Shape::Octagonal,
            },
            R::WrongCaptureCell {
                what: at("G9", Holding::Shaped(Colour::White, Shape::Square)),
                to: "G9".into(),
                shape: Shape::Square,
            },
            R::NothingCanReach {
                cell: "D4".into(),
                what: at("D4", Holding::Empty),
            },
            R::RemoveOnlyAfterDoubleOne,
            R::TooManyParts { throw: throw(3, 4) },
            R::SamePieceTwice {
                cell: "c1".into(),
                seat: Colour::Black,
            },
            R::NoPlayFrom {
                cells: vec!["a1".into(), "b1".into()],
                throw: throw(4, 6),
            },
            R::ExceedsTheThrow { throw: throw(6, 6) },
            R::ExceedsTheThrow { throw: throw(1, 1) },
            R::OvershootsHome {
                cell: "b2".into(),
                steps: 8,
                seat: Colour::White,
                exact: 2,
                first: "a1".into(),
                second: "b1".into(),
            },
            R::PathBlocked {
                cell: "b1".into(),
                steps: 2,
                block: "d1".into(),
                count: 8,
                owner: Colour::Black,
            },
            R::NotALegalPlay { throw: throw(2, 6) },
            R::NoPass {
                throw: Some(throw(5, 6)),
            },
            R::NoPass { throw: None },
            R::MustRemove,
            R::CharkoniIsNotASquare { cell: "i9".into() },
            R::NotACowrieValue { value: "7".into() },
            R::EnterNeedsGrace { value: 2 },
            R::FinishNeedsGrace {
                value: 5,
                cell: "h10".into(),
            },
            R::MustFinishExactly {
                value: 25,
                cell: "k4".into(),
                pos: 63,
                away: 21,
            },
            R::CastleClosed {
                square: "k4".into(),
                who: vec![Compass::West, Compass::East],
            },
            R::TooFewToCapture {
                square: "k6".into(),
                opposing: 2,
                who: vec![Compass::East],
                arriving: 1,
            },
            R::NoneWaiting,
            R::NoPieces,
            R::NotThatMany {
                have: 1,
                square: "q10".into(),
            },
            R::ValueNotThrown {
                value: "6".into(),
                left: vec![2, 10, 25],
            },
            R::ValueNotThrown {
                value: "6".into(),
                left: Vec::new(),
            },
            R::NoValuesLeft,
            R::NoValueFits {
                reasons: vec![
                    ("3".into(), R::EnterNeedsGrace { value: 3 }),
                    (
                        "25".into(),
                        R::CastleClosed {
                            square: "j19".into(),
                            who: vec![Compass::North],
                        },
                    ),
                ],
            },
            R::AlreadyThrown,
            R::SkipOnlyBeforeThrowing,
            R::NothingToGiveUp,
            R::ThrowFirst,
        ];
        let contents = [
            at("d4", Holding::Empty),
            at("d4", Holding::Stone(Colour::White)),
            at("C9", Holding::Piece(Colour::Black)),
            at("B2", Holding::OwnShaped(Shape::Square)),
            at("A11", Holding::Shaped(Colour::Black, Shape::Octagonal)),
            at("h2", Holding::Only(Colour::Black)),
            at("a1", Holding::OnlyFinished(Colour::White)),
            at(
                "k2",
                Holding::Seats(vec![(Compass::South, 2), (Compass::East, 1)]),
            ),
            at("k2", Holding::Seats(Vec::new())),
        ];
        let mut moves: Vec<MoveError> = reasons
            .into_iter()
            .map(|reason| MoveError::Illegal {
                input: "x1".into(),
                reason: Box::new(reason),
            })
            .collect();
        for contents in contents {
            for why in [
                NotYours::Holds(contents.clone()),
                NotYours::ToMove {
                    contents: contents.clone(),
                    mover: Colour::White,
                },
                NotYours::RemovesOwnStone {
                    contents: contents.clone(),
                    mover: Colour::Black,
                },
                NotYours::RemovesOwnTravelling {
                    contents: contents.clone(),
                    mover: Colour::White,
                },
                NotYours::NoPieceThere(contents.clone()),
                NotYours::NoHomeBoundThere(contents.clone()),
            ] {
                moves.push(MoveError::NotYourPiece {
                    cell: contents.cell.clone(),
                    why,
                });
            }
        }
        for &game in GameId::ALL {
            moves.push(MoveError::Unreadable {
                input: "?".into(),
                game,
            });
        }
        for reason in [
            NoMoveReason::GameOver,
            NoMoveReason::GameOverWinner { team: "white" },
            NoMoveReason::GameOverWinner { team: "black" },
            NoMoveReason::TeamWon { team: "SN" },
            NoMoveReason::TeamWon { team: "EW" },
            NoMoveReason::DiceFirst,
            NoMoveReason::CowriesBeingThrown,
        ] {
            moves.push(MoveError::NoMoveNow(reason));
        }
        moves.push(MoveError::NoSuchCell("z99".into()));
        moves.push(MoveError::Ambiguous {
            input: "h2".into(),
            candidates: vec!["H2-G3".into(), "H2-I3".into()],
        });
        let mut actions: Vec<ActionError> = moves.into_iter().map(ActionError::Move).collect();
        actions.extend([
            ActionError::GameOver,
            ActionError::RollExpected,
            ActionError::ImpossibleRoll {
                roll: "5-6".into(),
                possible: "1v1, 1v2".into(),
            },
        ]);
        for seat in ["white", "black", "S", "E", "N", "W"] {
            actions.push(ActionError::MoveExpected { seat });
        }
        use NotationProblem as N;
        for why in [
            N::NoDice,
            N::KonaneMove,
            N::KoanCell,
            N::KoanMove,
            N::KoanNotForward {
                from: "C3".into(),
                to: "A3".into(),
            },
            N::KolowisPoint,
            N::KolowisPoints,
            N::KolowisStepOffLine,
            N::KolowisJumpOffLine,
            N::KolowisTooManyJumps,
            N::KolowisMove,
            N::CoanKiRoll,
            N::CoanKiMove,
            N::NotCanonical {
                canonical: "a1+5&h1+2".into(),
            },
            N::PachisiSquare,
            N::PachisiRoll,
            N::PachisiMove,
        ] {
            actions.push(ActionError::Notation(NotationError::new("?", why)));
        }
        for error in &actions {
            assert_said(&action_error_msg(error), &error.to_string(), &[]);
        }
        use PositionProblem as P;
        let problems = [
            P::ExpectedKeyValue,
            P::UnknownKey {
                keys: vec!["turn".into(), "white-oct".into()],
            },
            P::KeyGivenTwice,
            P::Missing,
            P::MustBe {
                key: "turn",
                choices: &["white", "black", "rolloff"],
            },
            P::MustBe {
                key: "size",
                choices: &["6", "8", "10", "12"],
            },
            P::Expected(Expected::Range {
                min: 0,
                max: u32::MAX,
            }),
            P::Expected(Expected::OneOf(vec!["6".into(), "8".into()])),
            P::CellListedTwice,
            P::NotOnBoard { size: 8 },
            P::SizeDisagrees { option: 6 },
            P::UnderBothColours,
            P::KonaneOneHole,
            P::KonaneNoHole,
            P::KoanCell,
            P::BothOnFarRows,
            P::NotAPoint,
            P::PointListedTwice,
            P::PointUnderBoth,
            P::ExpectedCellCount,
            P::NotACoanKiCell { name: "8".into() },
            P::CountRange,
            P::ListedTwice { cell: "a1".into() },
            P::TooManyPieces(Colour::Black),
            P::FinishedOffStart {
                seat: Colour::White,
                first: "a1".into(),
                second: "b1".into(),
            },
            P::DiceMustBe,
            P::NoTravellingPieces,
            P::DiceAtRollOff,
            P::WonBeforeRollOff(Colour::White),
            P::WonWithDice(Colour::Black),
            P::NoPlayForThrow {
                seat: Colour::Black,
                throw: throw(3, 5),
            },
            P::NotATrackPosition(Compass::East),
            P::FourPieces,
            P::BothTeamsOnSquare,
            P::NotACowrieValue,
            P::TooManyThrows,
            P::ValuesBeforeThrowing,
            P::NotAGraceWhileThrowing,
            P::TwoNonGraces,
            P::NothingToAllocate,
            P::NotASeat,
            P::SeatListedTwice,
            P::MustBeEntered(Compass::North),
            P::SeatFinished(Compass::West),
            P::BothTeamsHome,
        ];
        let mut setups: Vec<SetupError> = problems
            .into_iter()
            .map(|why| SetupError::Position(PositionError::new("x1", why)))
            .collect();
        setups.extend([
            SetupError::UnknownGame("chess".into()),
            SetupError::MalformedOption("novalue".into()),
            SetupError::Action {
                index: 3,
                token: "b4-d4".into(),
                error: ActionError::GameOver,
            },
        ]);
        for error in &setups {
            assert_said(&setup_error_msg(error), &error.to_string(), SETUP);
        }
    }

    /// Position strings and actions a script or a record file gives, refused: said from the
    /// catalogue in the engine's English.
    #[test]
    fn positions_and_rolls_are_said_from_the_catalogue() {
        let cases: &[(GameId, &str)] = &[
            (GameId::Konane, "size=8 turn=red black=a2 white=a1"),
            (GameId::Konane, "size=9 turn=black black=a2 white=a1"),
            (GameId::Koan, "turn=white white-oct=A2"),
            (GameId::Kolowis, "turn=white white=B2 quiet=x"),
            (GameId::CoanKi, "turn=white white=a1x8,b1x9 black=g2x8,h2x8"),
            (
                GameId::Pachisi,
                "turn=S phase=decide S=0,0,0,10 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0",
            ),
        ];
        for (id, position) in cases {
            let error = AnyGame::start(*id, &[], Some(position)).expect_err(position);
            assert_said(&setup_error_msg(&error), &error.to_string(), SETUP);
        }
        let error = AnyGame::setup(GameId::Konane, &[], None, "e4 e5 d4-f4")
            .expect_err("not a legal action");
        assert!(matches!(error, SetupError::Action { .. }), "{error}");
        assert_said(&setup_error_msg(&error), &error.to_string(), &[]);
        let mut game = AnyGame::start(GameId::CoanKi, &[], None).expect("start");
        let error = game.apply_text("roll:7v1").expect_err("not a roll");
        assert_said(&action_error_msg(&error), &error.to_string(), &[]);
        let error = game.apply_text("a1+5").expect_err("a roll is due");
        assert_said(&action_error_msg(&error), &error.to_string(), &[]);
        // The game's own interpreter says why no move can be made while a roll is due.
        let AnyGame::CoanKi(coan_ki) = &game else {
            panic!("Coan Ki");
        };
        let error = ActionError::Move(coan_ki.interpret("a1+5").expect_err("a roll is due"));
        assert_said(&action_error_msg(&error), &error.to_string(), &[]);
    }
}
