//! The rules' events as messages of the catalogue: what each action did, as a clause that
//! `narration` puts after the person and their seat ("jumped d3-d5, capturing d4"). The rules
//! engine gives typed events (its `Display` is its own English, for logs and `tabula rules`);
//! here each is said in the reply's language. What ends a game is left to the result sentence.

use tabula_core::{AnyApplied, Seat};

use crate::l10n::Msg;

/// One event told: the seat that did it (none for the dice's own events), and the clause, or
/// `None` when the event only announces the result.
pub(super) struct Told {
    pub(super) seat: Option<u8>,
    pub(super) clause: Option<Msg>,
    /// A Coan Ki throw that could not be used (`cannot use them`, after the roll told).
    pub(super) lost_throw: Option<String>,
}

fn told(seat: Seat, clause: Msg) -> Told {
    Told {
        seat: Some(seat.0),
        clause: Some(clause),
        lost_throw: None,
    }
}

fn ending(seat: Option<Seat>, clause: Option<Msg>) -> Told {
    Told {
        seat: seat.map(|seat| seat.0),
        clause,
        lost_throw: None,
    }
}

/// The other seat of a two-seat game.
fn other(seat: Seat) -> Seat {
    Seat(1 - seat.0.min(1))
}

/// A seat's name in a two-seat game where seat 0 is White (Koan, Kolowis, Coan Ki) — the
/// seat labels of `super::seat_label`.
fn seat_word(id: tabula_core::GameId, seat: Seat) -> Msg {
    super::seat_msg(super::seat_label(id, seat.0))
}

/// The events of an action, told.
pub(super) fn events(applied: &AnyApplied) -> Vec<Told> {
    use tabula_core::GameId;
    match applied {
        AnyApplied::Konane((_, events)) => events
            .iter()
            .map(|event| {
                use tabula_core::konane::Event as E;
                match event {
                    E::Removed { seat, mv } => told(
                        *seat,
                        Msg::new("konane-removed").text("move", mv.to_string()),
                    ),
                    E::Jumped { seat, mv } => told(
                        *seat,
                        Msg::new("konane-jumped")
                            .text("move", mv.to_string())
                            .text("captured", mv.captured_cells().join(", ")),
                    ),
                    E::NoJump { loser } => told(*loser, Msg::new("konane-no-jump")),
                }
            })
            .collect(),
        AnyApplied::Koan((_, events)) => events
            .iter()
            .map(|event| {
                use tabula_core::koan::{Event as E, Shape};
                let shape = |shape: &Shape| match shape {
                    Shape::Octagonal => "octagonal",
                    Shape::Square => "square",
                };
                match event {
                    E::Moved { seat, mv, shape: s } => told(
                        *seat,
                        Msg::new("koan-moved")
                            .text("move", mv.to_string())
                            .text("shape", shape(s)),
                    ),
                    E::Captured {
                        seat,
                        cell,
                        shape: s,
                    } => told(
                        *seat,
                        Msg::new("koan-captured")
                            .msg("owner", seat_word(GameId::Koan, other(*seat)))
                            .text("shape", shape(s))
                            .text("cell", cell.to_string()),
                    ),
                    E::ReachedFarRow { seat, cell } => told(
                        *seat,
                        Msg::new("koan-far-row").text("cell", cell.to_string()),
                    ),
                    E::NoMove { loser } => told(*loser, Msg::new("no-legal-move")),
                }
            })
            .collect(),
        AnyApplied::Kolowis((_, events)) => events
            .iter()
            .map(|event| {
                use tabula_core::kolowis::{Event as E, Stall};
                match event {
                    E::Stepped { seat, mv } => told(
                        *seat,
                        Msg::new("kolowis-moved").text("move", mv.to_string()),
                    ),
                    E::Captured { seat, mv } => told(
                        *seat,
                        Msg::new("kolowis-captured")
                            .text("move", mv.to_string())
                            .text(
                                "captured",
                                mv.captured()
                                    .map(|point| point.to_string())
                                    .collect::<Vec<_>>()
                                    .join(", "),
                            ),
                    ),
                    E::NoMove { loser } => told(*loser, Msg::new("no-legal-move")),
                    E::Stalled { why, .. } => ending(
                        None,
                        Some(match why {
                            Stall::Quiet(plies) => {
                                Msg::new("kolowis-quiet").num("plies", i64::from(*plies))
                            }
                            Stall::Repetition => Msg::new("kolowis-repetition"),
                        }),
                    ),
                }
            })
            .collect(),
        AnyApplied::CoanKi((_, events)) => events
            .iter()
            .filter_map(|event| {
                use tabula_core::coan_ki::Event as E;
                Some(match event {
                    E::RollOffTie { die } => ending(
                        None,
                        Some(Msg::new("coan-ki-roll-off-tie").num("die", i64::from(*die))),
                    ),
                    E::RollOffWon { seat, white, black } => {
                        let (mine, theirs) = if seat.0 == 0 {
                            (*white, *black)
                        } else {
                            (*black, *white)
                        };
                        told(
                            *seat,
                            Msg::new("coan-ki-roll-off-won")
                                .num("mine", i64::from(mine))
                                .msg("other", seat_word(GameId::CoanKi, other(*seat)))
                                .num("theirs", i64::from(theirs))
                                .text("throw", format!("{theirs}-{mine}")),
                        )
                    }
                    E::Moved {
                        seat,
                        from,
                        steps,
                        to,
                        finished,
                    } => told(
                        *seat,
                        Msg::new(if *finished {
                            "coan-ki-moved-home"
                        } else {
                            "coan-ki-moved"
                        })
                        .num("steps", i64::from(*steps))
                        .text("from", from.to_string())
                        .text("to", to.to_string()),
                    ),
                    // Told with the roll, in coins.
                    E::Penalty { .. } => return None,
                    E::Removed { seat, cell } => told(
                        *seat,
                        Msg::new("coan-ki-removed").text("cell", cell.to_string()),
                    ),
                    E::ThrowLost { seat, throw } => Told {
                        lost_throw: Some(throw.to_string()),
                        ..told(
                            *seat,
                            Msg::new("coan-ki-throw-lost").msg(
                                "throw",
                                Msg::new("dice-throw").text("throw", throw.to_string()),
                            ),
                        )
                    },
                    E::Won { seat } => told(*seat, Msg::new("coan-ki-won")),
                })
            })
            .collect(),
        AnyApplied::Pachisi((_, events)) => events
            .iter()
            .map(|event| {
                use tabula_core::pachisi::{
                    Event as E, becomes_home_bound, finishes, position_name,
                };
                match event {
                    E::Skipped { seat } => told(*seat, Msg::new("pachisi-skipped")),
                    E::Thrown { seat, roll } => told(
                        *seat,
                        Msg::new(if roll.is_grace() {
                            "pachisi-thrown-grace"
                        } else {
                            "pachisi-thrown"
                        })
                        .text("roll", roll.to_string()),
                    ),
                    E::Entered { seat, roll, to } => told(
                        *seat,
                        Msg::new("pachisi-entered")
                            .text("roll", roll.to_string())
                            .text("to", position_name(*seat, *to)),
                    ),
                    E::Moved {
                        seat,
                        from,
                        to,
                        count,
                        roll,
                    } => {
                        let id = if finishes(*to) {
                            "pachisi-finished-piece"
                        } else if becomes_home_bound(*from, *to) {
                            "pachisi-moved-home-bound"
                        } else {
                            "pachisi-moved"
                        };
                        told(
                            *seat,
                            Msg::new(id)
                                .num("count", i64::from(*count))
                                .text("from", position_name(*seat, *from))
                                .text("to", position_name(*seat, *to))
                                .text("roll", roll.to_string()),
                        )
                    }
                    E::Captured {
                        seat,
                        victim,
                        count,
                        square,
                    } => told(
                        *seat,
                        Msg::new("pachisi-captured")
                            .num("count", i64::from(*count))
                            .msg(
                                "victim",
                                super::seat_msg(super::seat_label(GameId::Pachisi, victim.0)),
                            )
                            .text("square", square.to_string()),
                    ),
                    E::SeatFinished { seat } => told(*seat, Msg::new("pachisi-seat-finished")),
                    E::ValuesLost { seat, values } => told(
                        *seat,
                        Msg::new("pachisi-values-lost").text("values", values.to_string()),
                    ),
                    E::GaveUp { seat, values } => told(
                        *seat,
                        Msg::new("pachisi-gave-up").text("values", values.to_string()),
                    ),
                    E::Won { .. } => ending(None, None),
                }
            })
            .collect(),
    }
}
