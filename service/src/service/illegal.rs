//! The rules engine's refusals of a typed move, said from the catalogue (`illegal.ftl`).
//!
//! `tabula-core` gives typed errors ([`ActionError`], [`MoveError`], [`IllegalReason`]); their
//! `Display` is the engine's English. Here each refusal whose fields are data (cells, moves,
//! numbers, throws) becomes a message, said in English exactly as the engine says it (a test
//! compares them) and in every other language from its catalogue. A few reasons carry
//! English the engine composed itself (what stands on a cell, why a piece is not yours): those
//! are still said in the engine's English, inside the translated refusal.

use std::sync::LazyLock;

use tabula_core::{ActionError, AnyGame, GameId, IllegalReason, MoveError, SetupError};

use crate::l10n::Msg;

/// The engine's hint for an unreadable move, by game: the hint tells the game, whose
/// notation the catalogue then explains in the reader's language.
static HINTS: LazyLock<Vec<(String, GameId)>> = LazyLock::new(|| {
    GameId::ALL
        .iter()
        .filter_map(|&id| {
            // The first position where a move is read (after Coan Ki's roll-off, say).
            let mut game = AnyGame::start(id, &[], None).ok()?;
            for _ in 0..16 {
                if let Err(ActionError::Move(MoveError::Unreadable { hint, .. })) =
                    game.clone().apply_text("?")
                {
                    return Some((hint, id));
                }
                let first = game.legal_lines().into_iter().next()?;
                let action = first.split(' ').next().unwrap_or_default().to_string();
                game.apply_text(&action).ok()?;
            }
            None
        })
        .collect()
});

fn hint_msg(hint: &str) -> Option<Msg> {
    let (_, id) = HINTS.iter().find(|(known, _)| known == hint)?;
    Some(Msg::new(match id {
        GameId::Konane => "move-hint-konane",
        GameId::Koan => "move-hint-koan",
        GameId::Kolowis => "move-hint-kolowis",
        GameId::CoanKi => "move-hint-coan-ki",
        GameId::Pachisi => "move-hint-pachisi",
    }))
}

/// A refusal of a game's options (`/play konane size=7`) as a message, or `None` when it is
/// not one the catalogue says in the engine's very English.
pub(super) fn setup_error_msg(error: &SetupError) -> Option<Msg> {
    let msg = match error {
        SetupError::UnknownGame(name) => Msg::new("setup-unknown-game").text("name", name),
        SetupError::UnknownOption { game, key, allowed } => {
            // The game as it is typed (`coan-ki`).
            Msg::new("setup-unknown-option")
                .text("key", key)
                .text("game", *game)
                .text("allowed", *allowed)
                .text("any", if allowed.is_empty() { "no" } else { "yes" })
        }
        SetupError::BadOptionValue { key, value, why } => {
            if let Some(range) = why.strip_prefix("expected a whole number from ") {
                let (min, max) = range.split_once(" to ")?;
                // The bounds as the engine writes them (no grouping: `4294967295`).
                Msg::new("setup-bad-number")
                    .text("min", min)
                    .text("max", max)
            } else {
                let choices = why.strip_prefix("expected one of ")?;
                Msg::new("setup-bad-choice").text("choices", choices)
            }
            .text("key", key)
            .text("value", value)
        }
        SetupError::MalformedOption(option) => Msg::new("setup-malformed").text("option", option),
        SetupError::Position(_) | SetupError::Action { .. } => return None,
    };
    (msg.to_text(crate::l10n::Lang::ENGLISH) == error.to_string()).then_some(msg)
}

/// A refusal of the engine as a message, or `None` when it carries the engine's own English
/// (then said as it is).
pub(super) fn action_error_msg(error: &ActionError) -> Option<Msg> {
    match error {
        ActionError::GameOver => Some(Msg::new("action-game-over")),
        ActionError::RollExpected => Some(Msg::new("action-roll-expected")),
        ActionError::ImpossibleRoll { roll, possible } => Some(
            Msg::new("action-impossible-roll")
                .text("roll", roll)
                .text("possible", possible),
        ),
        ActionError::Move(error) => move_error_msg(error),
        ActionError::MoveExpected { .. } | ActionError::Notation(_) => None,
    }
}

fn move_error_msg(error: &MoveError) -> Option<Msg> {
    match error {
        MoveError::Unreadable { input, hint } => Some(
            Msg::new("move-unreadable")
                .text("input", input)
                .msg("hint", hint_msg(hint)?),
        ),
        MoveError::NoSuchCell(cell) => Some(Msg::new("move-no-such-cell").text("cell", cell)),
        MoveError::Illegal { input, reason } => Some(
            Msg::new("move-illegal")
                .text("input", input)
                .msg("reason", reason_msg(reason)?),
        ),
        MoveError::Ambiguous { input, candidates } => Some(
            Msg::new("move-ambiguous").text("input", input).msg(
                "candidates",
                Msg::list(
                    candidates
                        .iter()
                        .map(|c| Msg::new("verbatim").text("text", c))
                        .collect(),
                    "clauses-or",
                    "clauses-or",
                ),
            ),
        ),
        MoveError::NotYourPiece { cell, why } => Some(
            Msg::new("move-not-your-piece")
                .text("cell", cell)
                .msg("why", describe_msg(why)?),
        ),
        MoveError::NoMoveNow(_) => None,
    }
}

/// A Coan Ki throw with what it allows, as the engine describes it (`1-3 moves one piece 4,
/// or one piece 1 and another 3`), as a message: `None` when the description is not one the
/// catalogue says in the same English.
fn throw_msg(described: &str) -> Option<Msg> {
    let throw = described.split(' ').next()?;
    let (a, b) = throw.split_once('-')?;
    let (a, b): (i64, i64) = (a.parse().ok()?, b.parse().ok()?);
    let (lo, hi) = (a.min(b), a.max(b));
    let msg = if (lo, hi) == (1, 1) {
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
    .text("throw", throw);
    (msg.to_text(crate::l10n::Lang::ENGLISH) == described).then_some(msg)
}

/// What stands on a cell, as the engine describes it (`d4 holds a White stone`, `k2 holds 2
/// pieces of S`), as a message: `None` when the description is not one the catalogue says in
/// the same English.
fn describe_msg(what: &str) -> Option<Msg> {
    let (cell, rest) = what.split_once(' ')?;
    let colour = |side: &str| matches!(side, "White" | "Black");
    let shape = |shape: &str| matches!(shape, "octagonal" | "square");
    let msg = if rest == "is empty" {
        Msg::new("describe-empty")
    } else if let Some(side) = rest
        .strip_prefix("holds only finished ")
        .and_then(|x| x.strip_suffix(" pieces, which never move again"))
        .filter(|side| colour(side))
    {
        Msg::new("describe-finished").text("side", side)
    } else if let Some(side) = rest
        .strip_prefix("holds only ")
        .and_then(|x| x.strip_suffix(" pieces"))
        .filter(|side| colour(side))
    {
        Msg::new("describe-only").text("side", side)
    } else if let Some(form) = rest
        .strip_prefix("holds your own ")
        .and_then(|x| x.strip_suffix(" piece"))
        .filter(|form| shape(form))
    {
        Msg::new("describe-own-shape").text("shape", form)
    } else if let Some(x) = rest.strip_prefix("holds a ") {
        if let Some(side) = x.strip_suffix(" stone").filter(|side| colour(side)) {
            Msg::new("describe-stone").text("side", side)
        } else {
            let side = x.strip_suffix(" piece").filter(|side| colour(side))?;
            Msg::new("describe-piece").text("side", side)
        }
    } else if let Some((side, form)) = rest
        .strip_prefix("holds ")
        .and_then(|x| x.strip_suffix(" piece"))
        .and_then(|x| x.split_once("'s "))
        .filter(|(side, form)| colour(side) && shape(form))
    {
        Msg::new("describe-their-shape")
            .text("side", side)
            .text("shape", form)
    } else {
        // Pachisi: `k2 holds 2 pieces of S and 1 piece of E`.
        let groups = rest
            .strip_prefix("holds ")?
            .split(" and ")
            .map(|group| {
                let (count, seat) = group.split_once(" piece")?;
                let seat = seat.rsplit(' ').next()?;
                Some(
                    Msg::new("describe-group")
                        .num("count", count.parse::<i64>().ok()?)
                        .text("seat", seat),
                )
            })
            .collect::<Option<Vec<Msg>>>()?;
        Msg::new("describe-groups").msg("groups", Msg::list(groups, "clauses-and", "clauses-and"))
    }
    .text("cell", cell);
    (msg.to_text(crate::l10n::Lang::ENGLISH) == what).then_some(msg)
}

/// Pachisi's seats by letter, `E and W`, as a message.
fn seat_letters(letters: &str) -> Msg {
    Msg::list(
        letters
            .split(" and ")
            .map(|letter| Msg::new("seat-letter").text("seat", letter))
            .collect(),
        "clauses-and",
        "clauses-and",
    )
}

/// `a4: ` before a reason about one jump of a chain, or nothing.
fn jump(jump: Option<&String>) -> Msg {
    match jump {
        Some(jump) => Msg::new("reason-jump").text("jump", jump),
        None => Msg::new("verbatim").text("text", ""),
    }
}

/// A seat's colour as the engine names it (`White`), for the selectors of the catalogue.
fn side(seat: &str) -> &'static str {
    if seat.eq_ignore_ascii_case("white") {
        "White"
    } else {
        "Black"
    }
}

fn reason_msg(reason: &IllegalReason) -> Option<Msg> {
    use IllegalReason as R;
    let m = Msg::new;
    Some(match reason {
        R::NotLegalHere { legal } => m("reason-not-legal-here")
            .text("listed", if legal.is_empty() { "no" } else { "yes" })
            .text("legal", legal.join(", ")),
        R::MustMove { cell } => m("reason-must-move").text("cell", cell),
        R::MustCapture { captures } => {
            m("reason-must-capture").text("captures", captures.join(", "))
        }
        R::NothingToJump { jump: j, cell } => m("reason-nothing-to-jump")
            .msg("jump", jump(j.as_ref()))
            .text("cell", cell),
        R::AlreadyCaptured { jump, point } => m("reason-already-captured")
            .text("jump", jump)
            .text("point", point),
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
        R::Sideways { from, to } => m("reason-sideways").text("from", from).text("to", to),
        R::SquareToSquare { from, to } => m("reason-square-to-square")
            .text("from", from)
            .text("to", to),
        R::NotOneForward { from, to, targets } => m("reason-not-one-forward")
            .text("from", from)
            .text("to", to)
            .text("targets", targets),
        R::RemoveOnlyAfterDoubleOne => m("reason-remove-only-after-double-one"),
        R::TooManyParts { throw } => m("reason-too-many-parts").msg("throw", throw_msg(throw)?),
        R::SamePieceTwice { cell, seat } => m("reason-same-piece-twice")
            .text("cell", cell)
            .text("side", side(seat)),
        R::NoPlayFrom { cells, throw } => m("reason-no-play-from")
            .msg(
                "cells",
                Msg::list(
                    cells
                        .iter()
                        .map(|c| Msg::new("verbatim").text("text", c))
                        .collect(),
                    "clauses-and",
                    "clauses-and",
                ),
            )
            .msg("throw", throw_msg(throw)?),
        R::ExceedsTheThrow { throw } => {
            m("reason-exceeds-the-throw").msg("throw", throw_msg(throw)?)
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
            .text("side", side(seat))
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
            .text("side", side(owner)),
        R::NotALegalPlay { throw } => m("reason-not-a-legal-play").msg("throw", throw_msg(throw)?),
        R::NoPass { throw } => match throw {
            Some(throw) => m("reason-no-pass-throw").msg("throw", throw_msg(throw)?),
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
        R::NoneWaiting => m("reason-none-waiting"),
        R::NoPieces => m("reason-no-pieces"),
        R::NotThatMany { have, square } => m("reason-not-that-many")
            .num("have", *have)
            .text("square", square),
        R::ValueNotThrown { value, left } => m("reason-value-not-thrown")
            .text("value", value)
            .text("left", left),
        R::NoValuesLeft => m("reason-no-values-left"),
        R::NoValueFits { reasons } => {
            let parts = reasons
                .iter()
                .map(|(value, reason)| {
                    Some(
                        m("reason-with-value")
                            .text("value", value)
                            .msg("reason", reason_msg(reason)?),
                    )
                })
                .collect::<Option<Vec<Msg>>>()?;
            Msg::list(parts, "reasons-semicolon", "reasons-semicolon")
        }
        R::AlreadyThrown => m("reason-already-thrown"),
        R::SkipOnlyBeforeThrowing => m("reason-skip-only-before-throwing"),
        R::NothingToGiveUp => m("reason-nothing-to-give-up"),
        R::ThrowFirst => m("reason-throw-first"),
        R::PieceCannotMove { what } => {
            m("reason-piece-cannot-move").msg("what", describe_msg(what)?)
        }
        R::TargetOccupied { what } => m("reason-target-occupied").msg("what", describe_msg(what)?),
        R::JumpsOwnPiece { jump: j, what } => m("reason-jumps-own-piece")
            .msg("jump", jump(j.as_ref()))
            .msg("what", describe_msg(what)?),
        R::LandingOccupied { jump: j, what } => m("reason-landing-occupied")
            .msg("jump", jump(j.as_ref()))
            .msg("what", describe_msg(what)?),
        R::OntoOwnPiece { what } => m("reason-onto-own-piece").msg("what", describe_msg(what)?),
        R::NothingCanReach { cell, what } => m("reason-nothing-can-reach")
            .text("cell", cell)
            .msg("what", describe_msg(what)?),
        R::Backwards { from, to, seat, .. } => m("reason-backwards")
            .text("from", from)
            .text("to", to)
            .text("side", *seat),
        R::WrongCaptureCell {
            what,
            to,
            kind,
            piece,
            ..
        } => m("reason-wrong-capture-cell")
            .msg("what", describe_msg(what)?)
            .text("to", to)
            .text(
                "cell-shape",
                if kind.ends_with("octagon") {
                    "octagon"
                } else {
                    "square"
                },
            )
            .text(
                "shape",
                if piece.ends_with("octagonal") {
                    "octagonal"
                } else {
                    "square"
                },
            ),
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
    })
}

/// What the store refused because of what people did (mostly races: two presses of one
/// button, a challenge settled meanwhile), as a message; `None` unless it says the store's
/// very English.
pub(super) fn conflict_msg(conflict: &crate::store::Conflict) -> Option<Msg> {
    use crate::store::Conflict as C;
    let msg = match conflict {
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
    };
    (msg.to_text(crate::l10n::Lang::ENGLISH) == conflict.to_string()).then_some(msg)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::l10n::Lang;

    /// Words of Latin letters a Russian or Bulgarian refusal may hold: what people type.
    const TYPED: &[&str] = &["throw", "skip", "done", "enter", "remove", "roll"];

    fn english_words(text: &str) -> Vec<String> {
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
            .filter(|word| word.len() >= 3 && !TYPED.contains(word))
            .map(str::to_string)
            .collect()
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
        let (ru, bg) = (Lang::parse("ru").unwrap(), Lang::parse("bg").unwrap());
        for conflict in all {
            let msg = conflict_msg(&conflict).unwrap_or_else(|| panic!("{conflict}"));
            for lang in [ru, bg] {
                let text = msg.to_text(lang);
                assert_eq!(english_words(&text), Vec::<String>::new(), "{text}");
            }
        }
    }

    /// Bad game options: refused in the engine's English in English, without English words in
    /// Russian and Bulgarian; each kind of option refusal is met.
    #[test]
    fn option_refusals_are_translated() {
        let (ru, bg) = (Lang::parse("ru").unwrap(), Lang::parse("bg").unwrap());
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
                let Some(msg) = setup_error_msg(&error) else {
                    continue;
                };
                assert_eq!(msg.to_text(Lang::ENGLISH), error.to_string());
                for lang in [ru, bg] {
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

    /// Bad inputs of every kind at many positions of every game: every refusal the catalogue
    /// says is said in English exactly as the engine says it, and in Russian and Bulgarian with
    /// no English word.
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
            "throw",
            "skip",
            "done",
            "pass",
            "c9x2+4",
            "x1+30",
        ];
        let (ru, bg) = (Lang::parse("ru").unwrap(), Lang::parse("bg").unwrap());
        let mut said = BTreeSet::new();
        // Refusals that tell what stands on a cell, said from the catalogue too.
        let mut described = 0;
        for (i, &id) in GameId::ALL.iter().enumerate() {
            for _round in 0..3 {
                let mut game = AnyGame::start(id, &[], None).expect("start");
                for ply in 0..(60 + 40 * i) {
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
                        if let Some(msg) = action_error_msg(&error) {
                            assert_eq!(msg.to_text(Lang::ENGLISH), error.to_string());
                            let english = msg.to_text(Lang::ENGLISH);
                            if english.contains(" holds ") || english.contains(" is empty") {
                                described += 1;
                            }
                            for lang in [ru, bg] {
                                let text = msg.to_text(lang);
                                assert_eq!(english_words(&text), Vec::<String>::new(), "{text}");
                            }
                            said.insert(
                                msg.to_text(Lang::ENGLISH)
                                    .split(':')
                                    .next()
                                    .unwrap_or_default()
                                    .to_string(),
                            );
                        }
                    }
                    let action = lines[next(lines.len())]
                        .split(' ')
                        .next()
                        .unwrap_or_default()
                        .to_string();
                    game.apply_text(&action).expect("legal");
                    let _ = ply;
                }
            }
        }
        // Many kinds of refusal were met and said from the catalogue.
        assert!(said.len() >= 25, "{} kinds: {said:#?}", said.len());
        assert!(
            described >= 10,
            "{described} refusals told what stands on a cell"
        );
    }
}
