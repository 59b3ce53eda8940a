//! The engine's English for its refusals stays word for word what it was: `tabula rules`, the
//! README's examples and the bot's English compare it. The refusals are data (see
//! `refusals.rs`); their `Display` writes the sentences.
//!
//! Bad options, bad position strings, bad rolls, bad canonical moves and many bad typed moves
//! at positions of seeded random playouts of every game are refused; each kind of sentence
//! (quoted text, cells and numbers masked) is kept with its first example, and the list is compared
//! with `english.txt`, written by the engine before its refusals became data. After a wanted
//! change of wording, `TABULA_BLESS=1 cargo test -p tabula-core --test suite -- english::`
//! writes the file anew.

use std::collections::BTreeMap;
use std::str::FromStr;

use tabula_core::{AnyGame, Game, GameId, Status, with_game_type};

/// A small deterministic generator (xorshift64), so the sample never changes.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// Typed inputs tried at every position, beside edits of the legal moves.
const TYPED: &[&str] = &[
    "?",
    "z99",
    "a1",
    "A1",
    "e4",
    "d4",
    "c4",
    "h2",
    "k2",
    "d4-f4",
    "c4-a4",
    "a1-a3",
    "a1-c1-e1",
    "d4-d6-d8",
    "G11-G9",
    "G11xG9",
    "C3xB4",
    "A1-B2",
    "C3-A3",
    "C3-C7",
    "C8-B9",
    "B9-B1",
    "C2xC4xC6",
    "C8-C8",
    "B2-B1",
    "c1+7",
    "a1+5&b1+11",
    "c1+7&c1+7",
    "a1 b1",
    "a1+2",
    "b2+8",
    "a1+5&a1+5&a1+5",
    "remove:e1",
    "remove:a1",
    "remove:h2",
    "enter",
    "enter+7",
    "enter+2",
    "enter+6",
    "k2+3",
    "k2+25",
    "k2h+2",
    "k2x0+3",
    "k2x9+3",
    "j6+2",
    "j6h+2",
    "i9+4",
    "throw",
    "skip",
    "done",
    "pass",
    "c9x2+4",
    "x1+30",
    "remove",
    "",
];

/// Text tried as a roll, after `roll:`.
const ROLLS: &[&str] = &["", "7", "5-6", "6-5", "4v6", "1-1", "2", "25", "x"];

/// Options tried for every game.
const OPTIONS: &[&str] = &[
    "size=7",
    "size=x",
    "size=12",
    "size=1000",
    "nosuch=1",
    "novalue",
    "block8=maybe",
    "finish=x",
    "stall=0",
    "stall=x",
    "stall=99999999999",
    "variant=x",
];

/// The English of every refusal met, by the kind of sentence (cells and numbers masked).
#[derive(Default)]
struct Sample {
    kinds: BTreeMap<String, Vec<String>>,
}

impl Sample {
    fn add(&mut self, what: &str, english: String) {
        let examples = self.kinds.entry(mask(&english)).or_default();
        let line = format!("{what} => {english}");
        if examples.is_empty() {
            examples.push(line);
        }
    }

    fn text(&self) -> String {
        let mut out = String::new();
        for examples in self.kinds.values() {
            for line in examples {
                out.push_str(line);
                out.push('\n');
            }
        }
        out
    }
}

/// The kind of a sentence: what is quoted in backticks and every word that holds a digit (a
/// cell, a move, a number) as `#`, and lists of them as one `#`.
fn mask(text: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let mut quoted = false;
    let flush = |word: &mut String, out: &mut String| {
        if word.chars().any(|c| c.is_ascii_digit()) {
            out.push('#');
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c == '`' {
            flush(&mut word, &mut out);
            if !quoted {
                out.push_str("`#`");
            }
            quoted = !quoted;
        } else if quoted {
        } else if c.is_alphanumeric() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    loop {
        let shorter = [
            "#, #", "#-#", "#x#", "# and #", "# or #", "#+#", "#&#", "# #",
        ]
        .iter()
        .fold(out.clone(), |text, list| text.replace(list, "#"));
        if shorter == out {
            return out;
        }
        out = shorter;
    }
}

/// The refusal of `text` read as a move by the game's interpreter (which, unlike
/// `apply_text`, also answers when the game is over or a roll is due).
fn interpret(game: &AnyGame, text: &str) -> Option<String> {
    let error = match game {
        AnyGame::Konane(g) => g.interpret(text).err(),
        AnyGame::Koan(g) => g.interpret(text).err(),
        AnyGame::Kolowis(g) => g.interpret(text).err(),
        AnyGame::CoanKi(g) => g.interpret(text).err(),
        AnyGame::Pachisi(g) => g.interpret(text).err(),
    };
    error.map(|e| e.to_string())
}

/// The refusal of `text` read as a move in the game's canonical notation.
fn canonical(id: GameId, text: &str) -> Option<String> {
    with_game_type!(id, G => <G as Game>::Move::from_str(text).err().map(|e| e.to_string()))
}

/// Edits of a word: reversed, a character dropped, doubled, re-cased, a digit changed.
fn edits(word: &str, rng: &mut Rng) -> Vec<String> {
    let chars: Vec<char> = word.chars().collect();
    let mut out = vec![
        chars.iter().rev().collect(),
        word.to_ascii_uppercase(),
        word.to_ascii_lowercase(),
        format!("{word}-a1"),
        format!("{word}{word}"),
        word.replace('+', "+1"),
        word.replace('-', "x"),
        word.replace('x', "-"),
    ];
    if !chars.is_empty() {
        let i = rng.below(chars.len());
        let mut dropped = chars.clone();
        dropped.remove(i);
        out.push(dropped.into_iter().collect());
        let mut changed = chars.clone();
        changed[i] = ['1', '9', '0', 'a', 'z', '-', 'x', 'h'][rng.below(8)];
        out.push(changed.into_iter().collect());
    }
    out
}

/// Moves from the first cell of `action` to cells near it, and other numbers after its `+`.
fn nearby(action: &str, rng: &mut Rng) -> Vec<String> {
    let letters = action.chars().take_while(char::is_ascii_alphabetic).count();
    let digits = action[letters..]
        .chars()
        .take_while(char::is_ascii_digit)
        .count();
    if letters != 1 || digits == 0 {
        return Vec::new();
    }
    let cell = &action[..1 + digits];
    let (letter, number) = (action.as_bytes()[0], action[1..1 + digits].parse::<i32>());
    let Ok(number) = number else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for _ in 0..6 {
        let to_letter = (i32::from(letter) + rng.below(5) as i32 - 2) as u8;
        let to_number = number + rng.below(9) as i32 - 4;
        if to_letter.is_ascii_alphabetic() && to_number > 0 {
            let to = format!("{}{to_number}", char::from(to_letter));
            out.push(format!("{cell}-{to}"));
            out.push(format!("{cell}x{to}"));
        }
        let value = [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 25][rng.below(12)];
        out.push(format!("{cell}+{value}"));
        out.push(format!("{cell}x2+{value}"));
        out.push(format!("{cell}h+{value}"));
    }
    out
}

/// Position strings with one field edited, to be refused.
fn bad_positions(position: &str, rng: &mut Rng) -> Vec<String> {
    let fields: Vec<&str> = position.split_whitespace().collect();
    let mut out = vec![
        format!("{position} nosuch=1"),
        format!("{position} novalue"),
        String::new(),
    ];
    for (i, field) in fields.iter().enumerate() {
        let Some((key, value)) = field.split_once('=') else {
            continue;
        };
        let with = |new: String| {
            let mut copy: Vec<String> = fields.iter().map(|f| f.to_string()).collect();
            copy[i] = new;
            copy.join(" ")
        };
        let without = {
            let mut copy: Vec<&str> = fields.clone();
            copy.remove(i);
            copy.join(" ")
        };
        out.push(without);
        out.push(format!("{position} {field}"));
        for new in edits(value, rng) {
            out.push(with(format!("{key}={new}")));
        }
        let items: Vec<&str> = value.split(',').collect();
        if let Some(first) = items.first() {
            out.push(with(format!("{key}={value},{first}")));
        }
        out.push(with(format!("{key}=x")));
        out.push(with(format!("{key}=")));
        out.push(with(format!("{key}=99")));
        out.push(with(format!("{key}=a1x99")));
        out.push(with(format!("{key}=z1x2")));
        out.push(with(format!("{key}=a1x2,a1x2")));
        out.push(with(format!("{key}=0,0,0,0,0")));
        out.push(with(format!("{key}=84,84,84,84")));
        out.push(with(format!("{key}=6,10,2,3")));
        out.push(with(format!("{key}=S,S")));
        for other in ["white", "black", "S", "E", "N", "W", "rolloff"] {
            out.push(with(format!("{key}={other}")));
        }
    }
    out
}

/// Refusals the random walk seldom meets: the game, its options, a position and the typed
/// move (none: the position is refused).
const RARE: &[(GameId, &[&str], &str, Option<&str>)] = &[
    (
        GameId::CoanKi,
        &["block8=on"],
        "turn=white dice=2-2 white=a1x8,b1x8 black=d1x8,h2x8",
        Some("b1+2"),
    ),
    (
        GameId::Pachisi,
        &[],
        "turn=S phase=allocate throws=2 S=0,0,12,12 E=0,0,65,65 N=0,0,0,0 W=0,0,0,0 entered=S,E",
        Some("k4+2"),
    ),
    (
        GameId::Konane,
        &["size=6"],
        "size=8 turn=black black=a2 white=a1",
        None,
    ),
    (
        GameId::Konane,
        &[],
        "size=8 turn=white black=a2 white=a1 white=b1",
        None,
    ),
    (
        GameId::Koan,
        &[],
        "turn=white white-oct=A11 black-oct=A1",
        None,
    ),
    (GameId::Kolowis, &[], "turn=white white=B2 black=B2", None),
    (
        GameId::Pachisi,
        &[],
        "turn=S phase=decide throws=6 S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0",
        None,
    ),
    (
        GameId::Pachisi,
        &[],
        "turn=S phase=throw throws=6,2 S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0",
        None,
    ),
    (
        GameId::Pachisi,
        &[],
        "turn=S phase=allocate throws=2,3 S=0,0,0,0 E=0,0,0,0 N=0,0,0,0 W=0,0,0,0",
        None,
    ),
    (
        GameId::Pachisi,
        &[],
        "turn=S phase=decide S=84,84,84,84 E=84,84,84,84 N=84,84,84,84 W=84,84,84,84 \
         entered=S,E,N,W",
        None,
    ),
    (
        GameId::CoanKi,
        &[],
        "turn=rolloff dice=5-6 white=a1x8,b1x8 black=g2x8,h2x8",
        None,
    ),
];

fn sample() -> Sample {
    let mut sample = Sample::default();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    if let Err(error) = "chess".parse::<GameId>() {
        sample.add("chess", error.to_string());
    }
    for (id, options, position, input) in RARE {
        match (AnyGame::start(*id, options, Some(position)), input) {
            (Err(error), None) => sample.add(&format!("{id} position"), error.to_string()),
            (Ok(mut game), Some(input)) => {
                let error = game.apply_text(input).expect_err(input);
                sample.add(&format!("{id}: {input}"), error.to_string());
            }
            (Ok(_), None) => panic!("{position} must be refused"),
            (Err(error), Some(_)) => panic!("{position}: {error}"),
        }
    }
    for &id in GameId::ALL {
        for option in OPTIONS {
            if let Err(error) = AnyGame::start(id, &[option], None) {
                sample.add(&format!("{id} option {option}"), error.to_string());
            }
        }
        for round in 0..4 {
            // The last round with other options, where the game has them.
            let options: &[&str] = match (round, id) {
                (3, GameId::Konane) => &["size=6"],
                (3, GameId::Kolowis) => &["stall=8"],
                (3, GameId::CoanKi) => &["block8=on"],
                _ => &[],
            };
            let mut game = AnyGame::start(id, options, None).expect("start");
            for ply in 0..400 {
                let what = id.to_string();
                let lines = game.legal_lines();
                let mut inputs: Vec<String> = TYPED.iter().map(|s| s.to_string()).collect();
                for line in lines.iter().take(6) {
                    let action = line.split(' ').next().unwrap_or_default();
                    inputs.extend(edits(action, &mut rng));
                    inputs.extend(nearby(action, &mut rng));
                }
                for input in &inputs {
                    if let Err(error) = game.clone().apply_text(input) {
                        sample.add(&format!("{what}: {input}"), error.to_string());
                    }
                    if let Some(english) = interpret(&game, input) {
                        sample.add(&format!("{what}: interpret {input}"), english);
                    }
                    if let Some(english) = canonical(id, input) {
                        sample.add(&format!("{id}: canonical {input}"), english);
                    }
                }
                for roll in ROLLS {
                    let text = format!("roll:{roll}");
                    if let Err(error) = game.clone().apply_text(&text) {
                        sample.add(&format!("{what}: {text}"), error.to_string());
                    }
                }
                if ply % 7 == 0 {
                    for position in bad_positions(&game.position(), &mut rng) {
                        if let Err(error) = AnyGame::start(id, &[], Some(&position)) {
                            sample.add(&format!("{id} position"), error.to_string());
                        }
                    }
                }
                let action = match game.status() {
                    Status::Done(_) => break,
                    Status::Chance => {
                        let outcomes = game.chance_outcomes();
                        outcomes[rng.below(outcomes.len())].0.clone()
                    }
                    Status::Decision(_) => lines[rng.below(lines.len())]
                        .split(' ')
                        .next()
                        .unwrap_or_default()
                        .to_string(),
                };
                game.apply_text(&action).expect("legal");
            }
            // The game over: what the interpreter says then.
            for input in ["a1", "throw", "c1+7"] {
                if let Some(english) = interpret(&game, input) {
                    sample.add(&format!("{id} over: {input}"), english);
                }
            }
        }
    }
    sample
}

#[test]
fn refusals_say_the_same_english() {
    let text = sample().text();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/english.txt");
    if std::env::var_os("TABULA_BLESS").is_some() {
        std::fs::write(&path, &text).expect("write english.txt");
        return;
    }
    let expected = std::fs::read_to_string(&path).expect("read english.txt");
    let (got, want): (Vec<&str>, Vec<&str>) = (text.lines().collect(), expected.lines().collect());
    let missing: Vec<&&str> = want.iter().filter(|l| !got.contains(l)).collect();
    let new: Vec<&&str> = got.iter().filter(|l| !want.contains(l)).collect();
    assert!(
        missing.is_empty() && new.is_empty(),
        "refusals no longer said:\n{missing:#?}\nrefusals said anew:\n{new:#?}"
    );
    // Many kinds of sentence are compared.
    assert!(want.len() >= 200, "{} lines", want.len());
}
