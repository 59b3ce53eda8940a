//! The words drawn on a picture. Render knows no message catalogue: it names each phrase it
//! draws as a [`Word`] and asks a [`Labels`] to say it. [`English`] says them as render always
//! has; the bot passes its own, said from its catalogue in the chat's language.

use tabula_core::{AnyApplied, GameId, Outcome, Seat, Status};

/// A phrase drawn on a picture. Seats are numbered as the rules number them (`Seat.0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Word<'a> {
    /// A seat's name (Pachisi's panels: `South`).
    Seat {
        /// The game.
        game: GameId,
        /// The seat.
        seat: u8,
    },
    /// The title: `Black to move`.
    ToMove {
        /// The game.
        game: GameId,
        /// The seat to move.
        seat: u8,
    },
    /// The title: `Black wins` (in Pachisi a team: `South and North win`, `seat` 0 or 1).
    Wins {
        /// The game.
        game: GameId,
        /// The winning seat (team).
        seat: u8,
    },
    /// The title of a game over without a winner shown.
    GameOver,
    /// The title of a drawn game (Kolowis).
    Draw,
    /// Konane's title in the opening: `Black to remove a stone`.
    ToRemoveStone {
        /// The seat.
        seat: u8,
    },
    /// Kolowis: the title of a game decided on pieces after a stall: `White wins on pieces`.
    WinsOnPieces {
        /// The winning seat.
        seat: u8,
    },
    /// Kolowis: why it ended, `40 plies without a capture`.
    QuietPlies {
        /// The plies.
        plies: u32,
    },
    /// Kolowis: why it ended, the third repetition.
    Repetition,
    /// Kolowis: why it ended, `Black cannot move`.
    CannotMove {
        /// The seat that cannot move.
        seat: u8,
    },
    /// Kolowis: the stall counter, `quiet 35 of 40`.
    Quiet {
        /// Plies without a capture so far.
        quiet: u32,
        /// The limit.
        stall: u32,
    },
    /// Koan: the subtitle before the first move.
    KoanHint,
    /// Koan: the goal band of a seat, `White's goal: row 11`.
    KoanGoal {
        /// The seat.
        seat: u8,
    },
    /// Coan Ki: the title of the roll-off (`again` after a tie).
    RollOff {
        /// After a tie.
        again: bool,
    },
    /// Coan Ki: `White to remove a piece` (after 1-1).
    ToRemovePiece {
        /// The seat.
        seat: u8,
    },
    /// Coan Ki: `White to play 3-5`.
    ToPlay {
        /// The seat.
        seat: u8,
        /// The throw, as written (`3-5`).
        throw: &'a str,
    },
    /// Coan Ki: `White to throw`.
    ToThrow {
        /// The seat.
        seat: u8,
    },
    /// Coan Ki: how the roll-off works.
    RollOffHint,
    /// Coan Ki: what 1-1 asks of a seat.
    RemoveHint {
        /// The seat.
        seat: u8,
    },
    /// Coan Ki: what a double allows (`3-3: one piece 3, or two pieces 6 each`).
    PlaysDouble {
        /// The throw, as written.
        throw: &'a str,
        /// One die.
        die: u8,
    },
    /// Coan Ki: what a throw of two different dice allows: one piece `lo` and another `hi`,
    /// or one piece the sum.
    PlaysTwo {
        /// The throw, as written.
        throw: &'a str,
        /// The lower die.
        lo: u8,
        /// The higher die.
        hi: u8,
    },
    /// Coan Ki: a seat's pieces home, `2 home`.
    Home {
        /// How many.
        count: usize,
    },
    /// Coan Ki: a seat's pieces taken out, `1 out`.
    Out {
        /// How many.
        count: usize,
    },
    /// Pachisi's title: `South throws again`.
    ThrowsAgain {
        /// The seat.
        seat: u8,
    },
    /// Pachisi's title: `South throws the cowries`.
    ThrowsCowries {
        /// The seat.
        seat: u8,
    },
    /// Pachisi's title: `South to throw or skip`.
    ToThrowOrSkip {
        /// The seat.
        seat: u8,
    },
    /// Pachisi's subtitle: `South chose to throw`.
    ChoseToThrow {
        /// The seat.
        seat: u8,
    },
    /// Pachisi: a row of a seat's panel (0 waiting, 1 on the board, 2 home, 3 progress).
    PanelRow(usize),
    /// Pachisi: the legend after the laid pieces.
    HomeBoundLegend,
    /// Pachisi: before a seat's first entry.
    FirstEntry,
    /// Pachisi: the tag of the winners' panels.
    WinnerTag,
    /// Pachisi: the tag of the panel of the seat throwing.
    ThrowingTag,
    /// Pachisi: the tag of the panel of the seat to throw.
    ToThrowTag,
    /// Pachisi: the tag of the panel of the seat to move.
    ToMoveTag,
    /// Pachisi: the values just thrown.
    Thrown,
    /// Pachisi: the values to use.
    ToUse,
    /// Pachisi: a value used.
    Used,
    /// Pachisi: values lost.
    Lost,
    /// Pachisi: values given up.
    GivenUp,
    /// Pachisi: before the first throw of a turn.
    NoValuesYet,
    /// Pachisi: no values thrown yet this turn.
    NoValuesThrownYet,
}

/// Says the words of a picture.
pub trait Labels: Sync {
    /// The phrase.
    fn word(&self, word: Word<'_>) -> String;

    /// What the last action did, for the header's subtitle; `None` leaves render's own English
    /// account.
    fn narrate(&self, _last: &AnyApplied) -> Option<String> {
        None
    }

    /// The name of whoever holds `seat` (a person, or the computer in the picture's language),
    /// for the pictures that carry players' names (Pachisi's panels); `None` when not known.
    fn player(&self, _seat: u8) -> Option<String> {
        None
    }

    /// A short key of the language, part of the cache key of static boards that carry words
    /// (English: empty).
    fn key(&self) -> &str {
        ""
    }
}

/// The title of a two-seat game's header: whose turn it is, or who won, with the seat of the
/// icon before it (`fallback` when nobody is to move or won).
pub(crate) fn turn_title(
    labels: &dyn Labels,
    game: GameId,
    status: Status,
    fallback: Seat,
) -> (String, Seat) {
    match status {
        Status::Decision(seat) => (labels.word(Word::ToMove { game, seat: seat.0 }), seat),
        Status::Done(Outcome::Winner(team)) => {
            (labels.word(Word::Wins { game, seat: team.0 }), Seat(team.0))
        }
        Status::Done(Outcome::Draw) | Status::Chance => (labels.word(Word::GameOver), fallback),
    }
}

/// Render's own English.
#[derive(Debug, Clone, Copy, Default)]
pub struct English;

/// A seat's English name in a game.
pub fn seat_name(game: GameId, seat: u8) -> &'static str {
    match game {
        GameId::Konane => ["Black", "White"][usize::from(seat.min(1))],
        GameId::Koan | GameId::Kolowis | GameId::CoanKi => {
            ["White", "Black"][usize::from(seat.min(1))]
        }
        GameId::Pachisi => ["South", "East", "North", "West"][usize::from(seat & 3)],
    }
}

impl Labels for English {
    fn word(&self, word: Word<'_>) -> String {
        use Word as W;
        let konane = |seat| seat_name(GameId::Konane, seat);
        let white_black = |seat| seat_name(GameId::Koan, seat);
        let pachisi = |seat| seat_name(GameId::Pachisi, seat);
        match word {
            W::Seat { game, seat } => seat_name(game, seat).to_string(),
            W::ToMove { game, seat } => format!("{} to move", seat_name(game, seat)),
            W::Wins {
                game: GameId::Pachisi,
                seat,
            } => {
                if seat & 1 == 0 {
                    "South and North win".to_string()
                } else {
                    "East and West win".to_string()
                }
            }
            W::Wins { game, seat } => format!("{} wins", seat_name(game, seat)),
            W::GameOver => "Game over".to_string(),
            W::Draw => "Draw".to_string(),
            W::ToRemoveStone { seat } => format!("{} to remove a stone", konane(seat)),
            W::WinsOnPieces { seat } => format!("{} wins on pieces", white_black(seat)),
            W::QuietPlies { plies } => format!("{plies} plies without a capture"),
            W::Repetition => "the position occurred a third time".to_string(),
            W::CannotMove { seat } => format!("{} cannot move", white_black(seat)),
            W::Quiet { quiet, stall } => format!("quiet {quiet} of {stall}"),
            W::KoanHint => "White moves up, Black down: first to the far row wins".to_string(),
            W::KoanGoal { seat } => {
                if seat == 0 {
                    "White's goal: row 11".to_string()
                } else {
                    "Black's goal: row 1".to_string()
                }
            }
            W::RollOff { again } => {
                if again {
                    "Roll-off again".to_string()
                } else {
                    "Roll-off".to_string()
                }
            }
            W::ToRemovePiece { seat } => format!("{} to remove a piece", white_black(seat)),
            W::ToPlay { seat, throw } => format!("{} to play {throw}", white_black(seat)),
            W::ToThrow { seat } => format!("{} to throw", white_black(seat)),
            W::RollOffHint => "Each throws one die: the higher starts and plays both".to_string(),
            W::RemoveHint { seat } => format!(
                "1-1 moves nothing: take one travelling {} piece out",
                white_black(seat)
            ),
            W::PlaysDouble { throw, die } => {
                format!("{throw}: one piece {die}, or two pieces {} each", 2 * die)
            }
            W::PlaysTwo { throw, lo, hi } if hi == lo + 1 => {
                let sum = lo + hi;
                format!(
                    "{throw}: one piece {lo} and another {sum}, or one {} and another {sum}",
                    sum - 1
                )
            }
            W::PlaysTwo { throw, lo, hi } => format!(
                "{throw}: one piece {}, or one piece {lo} and another {hi}",
                lo + hi
            ),
            W::Home { count } => format!("{count} home"),
            W::Out { count } => format!("{count} out"),
            W::ThrowsAgain { seat } => format!("{} throws again", pachisi(seat)),
            W::ThrowsCowries { seat } => format!("{} throws the cowries", pachisi(seat)),
            W::ToThrowOrSkip { seat } => format!("{} to throw or skip", pachisi(seat)),
            W::ChoseToThrow { seat } => format!("{} chose to throw", pachisi(seat)),
            W::PanelRow(row) => {
                ["in the Charkoni", "on the board", "home", "progress"][row.min(3)].to_string()
            }
            W::HomeBoundLegend => "home-bound or home".to_string(),
            W::FirstEntry => "first entry: any value".to_string(),
            W::WinnerTag => "winner".to_string(),
            W::ThrowingTag => "throwing".to_string(),
            W::ToThrowTag => "to throw".to_string(),
            W::ToMoveTag => "to move".to_string(),
            W::Thrown => "thrown".to_string(),
            W::ToUse => "to use".to_string(),
            W::Used => "used".to_string(),
            W::Lost => "lost".to_string(),
            W::GivenUp => "given up".to_string(),
            W::NoValuesYet => "no values yet".to_string(),
            W::NoValuesThrownYet => "no values thrown yet".to_string(),
        }
    }
}
