//! The words drawn on board pictures, said from the catalogue (`pictures.ftl`): render names
//! each phrase it draws as a [`Word`], and [`PictureWords`] says it in the chat's language.
//! The header's account of the last action is the events told as in the chat.

use tabula_core::{AnyApplied, GameId};
use tabula_render::labels::{Labels, Word};

use super::{events, seat_label, seat_msg, team_label};
use crate::l10n::{Lang, Msg};
use crate::store::GameRecord;

/// The picture words of one language.
#[derive(Debug, Clone)]
pub struct PictureWords {
    lang: Lang,
    /// Who holds each seat, by seat (see [`PictureWords::with_players`]).
    players: Vec<Option<String>>,
}

impl PictureWords {
    /// The words in `lang`.
    pub fn new(lang: Lang) -> PictureWords {
        PictureWords {
            lang,
            players: Vec::new(),
        }
    }

    /// These words with the names of who holds the seats of `record` (the computer's in this
    /// language), for the pictures that carry them.
    pub(crate) fn with_players(mut self, record: &GameRecord) -> PictureWords {
        for holder in &record.seats {
            let seat = usize::from(holder.seat);
            if self.players.len() <= seat {
                self.players.resize(seat + 1, None);
            }
            self.players[seat] = Some(self.say(super::narration::name_msg(&holder.user)));
        }
        self
    }

    /// These words with each player's rating beside their name, when `tags` has it:
    /// "Bob (1620?)".
    pub(crate) fn with_ratings(
        mut self,
        record: &GameRecord,
        tags: &super::narration::RatingTags,
    ) -> PictureWords {
        for holder in &record.seats {
            if let (Some(Some(name)), Some(tag)) = (
                self.players.get_mut(usize::from(holder.seat)),
                tags.get(&holder.user.id),
            ) {
                *name = format!("{name} ({tag})");
            }
        }
        self
    }

    fn say(&self, msg: Msg) -> String {
        msg.to_text(self.lang)
    }
}

/// The two-seat games' colour as a Fluent selector (`white`, `black`).
fn side(game: GameId, seat: u8) -> &'static str {
    if seat_label(game, seat) == "White" {
        "white"
    } else {
        "black"
    }
}

impl Labels for PictureWords {
    fn word(&self, word: Word<'_>) -> String {
        use Word as W;
        let seat = |game: GameId, seat: u8| seat_msg(seat_label(game, seat));
        let two =
            |id: &'static str, seat_no: u8| Msg::new(id).msg("seat", seat(GameId::CoanKi, seat_no));
        let pachisi = |id: &'static str, seat_no: u8| {
            Msg::new(id).msg("seat", seat(GameId::Pachisi, seat_no))
        };
        let count = |id: &'static str, n: usize| Msg::new(id).count("count", n);
        let msg = match word {
            W::Seat { game, seat: s } => seat(game, s),
            W::ToMove { game, seat: s } => Msg::new("picture-to-move").msg("seat", seat(game, s)),
            W::Wins {
                game: GameId::Pachisi,
                seat: team,
            } => Msg::new("picture-team-wins")
                .msg("team", seat_msg(team_label(GameId::Pachisi, team & 1))),
            W::Wins { game, seat: s } => Msg::new("picture-wins").msg("seat", seat(game, s)),
            W::GameOver => Msg::new("picture-game-over"),
            W::Draw => Msg::new("picture-draw"),
            W::ToRemoveStone { seat: s } => {
                Msg::new("picture-to-remove-stone").msg("seat", seat(GameId::Konane, s))
            }
            W::WinsOnPieces { seat: s } => {
                Msg::new("picture-wins-on-pieces").msg("seat", seat(GameId::Kolowis, s))
            }
            W::QuietPlies { plies } => Msg::new("picture-quiet-plies").num("plies", plies),
            W::Repetition => Msg::new("picture-repetition"),
            W::CannotMove { seat: s } => {
                Msg::new("picture-cannot-move").msg("seat", seat(GameId::Kolowis, s))
            }
            W::Quiet { quiet, stall } => Msg::new("picture-quiet")
                .num("quiet", quiet)
                .num("stall", stall),
            W::KoanHint => Msg::new("picture-koan-hint"),
            W::KoanGoal { seat: s } => {
                Msg::new("picture-koan-goal").text("side", side(GameId::Koan, s))
            }
            W::RollOff { again } => {
                Msg::new("picture-roll-off").text("again", if again { "yes" } else { "no" })
            }
            W::ToRemovePiece { seat: s } => two("picture-to-remove-piece", s),
            W::ToPlay { seat: s, throw } => two("picture-to-play", s).text("throw", throw),
            W::ToThrow { seat: s } => two("picture-to-throw", s),
            W::RollOffHint => Msg::new("picture-roll-off-hint"),
            W::RemoveHint { seat: s } => {
                two("picture-remove-hint", s).text("side", side(GameId::CoanKi, s))
            }
            W::PlaysDouble { throw, die } => Msg::new("picture-plays-double")
                .text("throw", throw)
                .num("die", die)
                .num("twice", 2 * i64::from(die)),
            W::PlaysTwo { throw, lo, hi } => Msg::new(if hi == lo + 1 {
                "picture-plays-next"
            } else {
                "picture-plays-two"
            })
            .text("throw", throw)
            .num("lo", lo)
            .num("hi", hi)
            .num("sum", i64::from(lo) + i64::from(hi))
            .num("less", i64::from(lo) + i64::from(hi) - 1),
            W::Home { count: n } => count("picture-home", n),
            W::Out { count: n } => count("picture-out", n),
            W::ThrowsAgain { seat: s } => pachisi("picture-throws-again", s),
            W::ThrowsCowries { seat: s } => pachisi("picture-throws-cowries", s),
            W::ToThrowOrSkip { seat: s } => pachisi("picture-to-throw-or-skip", s),
            W::ChoseToThrow { seat: s } => pachisi("picture-chose-to-throw", s),
            W::PanelRow(row) => Msg::new(match row {
                0 => "picture-panel-waiting",
                1 => "picture-panel-board",
                2 => "picture-panel-home",
                _ => "picture-panel-progress",
            }),
            W::HomeBoundLegend => Msg::new("picture-legend"),
            W::FirstEntry => Msg::new("picture-first-entry"),
            W::WinnerTag => Msg::new("picture-tag-winner"),
            W::ThrowingTag => Msg::new("picture-tag-throwing"),
            W::ToThrowTag => Msg::new("picture-tag-to-throw"),
            W::ToMoveTag => Msg::new("picture-tag-to-move"),
            W::Thrown => Msg::new("picture-thrown"),
            W::ToUse => Msg::new("picture-to-use"),
            W::Used => Msg::new("picture-used"),
            W::Lost => Msg::new("picture-lost"),
            W::GivenUp => Msg::new("picture-given-up"),
            W::NoValuesYet => Msg::new("picture-no-values-yet"),
            W::NoValuesThrownYet => Msg::new("picture-no-values-thrown-yet"),
        };
        self.say(msg)
    }

    /// The events of the last action as the chat tells them, each after its seat's name.
    fn narrate(&self, last: &AnyApplied) -> Option<String> {
        let game = match last {
            AnyApplied::Konane(_) => GameId::Konane,
            AnyApplied::Koan(_) => GameId::Koan,
            AnyApplied::Kolowis(_) => GameId::Kolowis,
            AnyApplied::CoanKi(_) => GameId::CoanKi,
            AnyApplied::Pachisi(_) => GameId::Pachisi,
        };
        let told: Vec<Msg> = events::events(last)
            .into_iter()
            .filter_map(|told| {
                let clause = told.clause?;
                Some(match told.seat {
                    Some(seat) => Msg::new("picture-event")
                        .msg("seat", seat_msg(seat_label(game, seat)))
                        .msg("clause", clause),
                    None => clause,
                })
            })
            .collect();
        if told.is_empty() {
            // A plain throw: the title and the dice drawn say it.
            return Some(String::new());
        }
        Some(self.say(Msg::list(told, "picture-events", "picture-events")))
    }

    fn player(&self, seat: u8) -> Option<String> {
        self.players.get(usize::from(seat)).cloned().flatten()
    }

    fn key(&self) -> &str {
        self.lang.code()
    }
}

#[cfg(test)]
mod tests {
    use tabula_render::labels::English;

    use super::*;

    /// The catalogue's English is render's own, phrase for phrase.
    #[test]
    fn the_catalogues_english_is_renders() {
        let mut words = vec![
            Word::GameOver,
            Word::Draw,
            Word::Repetition,
            Word::KoanHint,
            Word::RollOffHint,
            Word::HomeBoundLegend,
            Word::FirstEntry,
            Word::WinnerTag,
            Word::ThrowingTag,
            Word::ToThrowTag,
            Word::ToMoveTag,
            Word::Thrown,
            Word::ToUse,
            Word::Used,
            Word::Lost,
            Word::GivenUp,
            Word::NoValuesYet,
            Word::NoValuesThrownYet,
            Word::QuietPlies { plies: 40 },
            Word::Quiet {
                quiet: 35,
                stall: 40,
            },
            Word::RollOff { again: false },
            Word::RollOff { again: true },
            Word::PlaysDouble {
                throw: "3-3",
                die: 3,
            },
            Word::PlaysTwo {
                throw: "2-3",
                lo: 2,
                hi: 3,
            },
            Word::PlaysTwo {
                throw: "2-5",
                lo: 2,
                hi: 5,
            },
            Word::Home { count: 2 },
            Word::Out { count: 1 },
        ];
        for row in 0..4 {
            words.push(Word::PanelRow(row));
        }
        for game in GameId::ALL.iter().copied() {
            for seat in 0..game.seats().len() as u8 {
                words.push(Word::Seat { game, seat });
                words.push(Word::ToMove { game, seat });
                words.push(Word::Wins { game, seat });
            }
        }
        for seat in 0..2 {
            words.extend([
                Word::ToRemoveStone { seat },
                Word::WinsOnPieces { seat },
                Word::CannotMove { seat },
                Word::KoanGoal { seat },
                Word::ToRemovePiece { seat },
                Word::ToPlay { seat, throw: "2-6" },
                Word::ToThrow { seat },
                Word::RemoveHint { seat },
            ]);
        }
        for seat in 0..4 {
            words.extend([
                Word::ThrowsAgain { seat },
                Word::ThrowsCowries { seat },
                Word::ToThrowOrSkip { seat },
                Word::ChoseToThrow { seat },
            ]);
        }
        let catalogue = PictureWords::new(Lang::ENGLISH);
        for word in words {
            assert_eq!(catalogue.word(word), English.word(word), "{word:?}");
        }
    }
}
