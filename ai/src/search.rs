//! Monte Carlo tree search (UCT) over any [`Game`], generic through [`Knowledge`].
//!
//! - Every result is scored per team: a node keeps the visits and the summed score of team 0
//!   (a win 1, a draw ½, a loss 0), and the seat to act at a decision reads it for its own team.
//!   So a seat acting several times in a row, and Pachisi's partners, need nothing special.
//! - At a chance node the search draws an outcome by its exact integer weight and follows (or
//!   grows) that outcome's child: the tree holds each outcome's own subtree.
//! - Positions are keyed by their hash: a position reached by different orders of moves is one
//!   node (a transposition), its statistics shared. A descent that comes back to a node already
//!   on its path stops there and plays out.
//! - New moves are tried in the order of [`Knowledge::rank`] (ties in random order), then UCB1
//!   chooses among the children. A leaf is scored by one playout of the default policy
//!   ([`Knowledge::playout_move`]), cut at [`Knowledge::PLAYOUT_LIMIT`] actions.
//! - The move played is the root's most visited, or (level 1) one drawn in proportion to the
//!   visits.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use tabula_core::{Action, Game, Outcome, Status};

use crate::knowledge::Knowledge;
use crate::rng::{self, Rng};

/// What one search does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// Iterations of the tree search (one descent and one playout each).
    pub iterations: u32,
    /// Nodes the exact solver may visit before the tree search (0: no solver).
    pub solver_nodes: u64,
    /// Draw the move in proportion to the root visits instead of taking the most visited.
    pub proportional: bool,
}

/// The exploration constant of UCB1 for scores in [0, 1].
const EXPLORATION: f64 = 0.7;
/// No descent goes deeper than this (a safety net against long cycles).
const MAX_DEPTH: usize = 400;
/// No child yet.
const NONE: u32 = u32::MAX;

#[derive(Debug)]
struct Edge<G: Game> {
    action: Action<G::Move, G::Roll>,
    weight: u32,
    child: u32,
}

#[derive(Debug)]
struct Node<G: Game> {
    visits: u32,
    /// Summed score of team 0.
    score: f64,
    status: Status,
    /// Empty until the node is expanded (then empty only at the end of the game).
    edges: Vec<Edge<G>>,
    expanded: bool,
    /// Sum of the edges' weights at a chance node.
    total_weight: u32,
}

/// The tree of one search.
struct Tree<G: Game> {
    nodes: Vec<Node<G>>,
    table: HashMap<u64, u32>,
}

/// The score of team 0 at the end of a game.
fn final_score(outcome: Outcome) -> f64 {
    match outcome {
        Outcome::Winner(team) if team.0 == 0 => 1.0,
        Outcome::Winner(_) => 0.0,
        Outcome::Draw => 0.5,
    }
}

/// Plays the default policy from `state` to the end (or the playout limit) and returns the
/// score of team 0 and the number of actions played.
pub fn playout<G: Knowledge>(
    state: &mut G,
    rng: &mut Rng,
    moves: &mut Vec<G::Move>,
) -> (f64, usize) {
    let mut outcomes = Vec::new();
    let mut events = Vec::new();
    let mut pick = |n: u32| rng.below(n);
    for played in 0..G::PLAYOUT_LIMIT {
        events.clear();
        match state.status() {
            Status::Done(outcome) => return (final_score(outcome), played),
            Status::Decision(_) => {
                moves.clear();
                state.legal_moves(moves);
                let i = state.playout_move(moves, &mut pick);
                state.apply_move_unchecked(&moves[i], &mut events);
            }
            Status::Chance => {
                outcomes.clear();
                state.chance_outcomes(&mut outcomes);
                let i = by_weight(&outcomes, &mut pick);
                state.apply_roll_unchecked(&outcomes[i].0, &mut events);
            }
        }
    }
    let score = match state.status() {
        Status::Done(outcome) => final_score(outcome),
        _ => state.estimate(),
    };
    (score, G::PLAYOUT_LIMIT)
}

/// An index drawn by the exact weights.
fn by_weight<R>(outcomes: &[(R, u32)], pick: &mut impl FnMut(u32) -> u32) -> usize {
    let total: u32 = outcomes.iter().map(|(_, w)| w).sum();
    let mut r = pick(total.max(1));
    for (i, (_, weight)) in outcomes.iter().enumerate() {
        if r < *weight {
            return i;
        }
        r -= weight;
    }
    outcomes.len() - 1
}

impl<G: Knowledge> Tree<G> {
    fn new_node(&mut self, state: &G, key: u64) -> u32 {
        let index = self.nodes.len() as u32;
        self.nodes.push(Node {
            visits: 0,
            score: 0.0,
            status: state.status(),
            edges: Vec::new(),
            expanded: false,
            total_weight: 0,
        });
        self.table.insert(key, index);
        index
    }

    fn expand(&mut self, node: u32, state: &G, rng: &mut Rng) {
        let mut edges: Vec<(u32, u64, Edge<G>)> = Vec::new();
        match state.status() {
            Status::Decision(_) => {
                for mv in state.moves() {
                    edges.push((
                        state.rank(&mv),
                        rng.next_u64(),
                        Edge {
                            action: Action::Move(mv),
                            weight: 1,
                            child: NONE,
                        },
                    ));
                }
                // Higher rank first, ties in random order.
                edges.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            }
            Status::Chance => {
                for (roll, weight) in state.outcomes() {
                    edges.push((
                        0,
                        0,
                        Edge {
                            action: Action::Roll(roll),
                            weight,
                            child: NONE,
                        },
                    ));
                }
            }
            Status::Done(_) => {}
        }
        let n = &mut self.nodes[node as usize];
        n.total_weight = edges.iter().map(|e| e.2.weight).sum();
        n.edges = edges.into_iter().map(|e| e.2).collect();
        n.expanded = true;
    }

    /// The edge to follow from a decision node: an untried one first, else UCB1.
    fn select_decision(&self, node: u32, team: u8) -> usize {
        let n = &self.nodes[node as usize];
        if let Some(i) = n.edges.iter().position(|e| e.child == NONE) {
            return i;
        }
        let log_n = f64::from(n.visits.max(1)).ln();
        let mut best = 0;
        let mut best_value = f64::NEG_INFINITY;
        for (i, e) in n.edges.iter().enumerate() {
            let c = &self.nodes[e.child as usize];
            let visits = f64::from(c.visits.max(1));
            let mean = c.score / visits;
            let mine = if team == 0 { mean } else { 1.0 - mean };
            let value = mine + EXPLORATION * (log_n / visits).sqrt();
            if value > best_value {
                best_value = value;
                best = i;
            }
        }
        best
    }

    fn select_chance(&self, node: u32, rng: &mut Rng) -> usize {
        let n = &self.nodes[node as usize];
        let mut r = rng.below(n.total_weight.max(1));
        for (i, e) in n.edges.iter().enumerate() {
            if r < e.weight {
                return i;
            }
            r -= e.weight;
        }
        n.edges.len() - 1
    }

    /// One descent, expansion, playout and update. Returns nothing; the tree is updated.
    fn iterate(&mut self, root: &G, rng: &mut Rng, path: &mut Vec<u32>, moves: &mut Vec<G::Move>) {
        let mut state = root.clone();
        let mut events = Vec::new();
        path.clear();
        path.push(0);
        let mut node = 0u32;
        let score = loop {
            let status = self.nodes[node as usize].status;
            let team = match status {
                Status::Done(outcome) => break final_score(outcome),
                Status::Decision(seat) => Some(G::team_of(seat).0),
                Status::Chance => None,
            };
            if !self.nodes[node as usize].expanded {
                self.expand(node, &state, rng);
            }
            let edge = match team {
                Some(team) => self.select_decision(node, team),
                None => self.select_chance(node, rng),
            };
            let (action, child) = {
                let e = &self.nodes[node as usize].edges[edge];
                (e.action.clone(), e.child)
            };
            events.clear();
            match &action {
                Action::Move(m) => state.apply_move_unchecked(m, &mut events),
                Action::Roll(r) => state.apply_roll_unchecked(r, &mut events),
            }
            if child != NONE {
                node = child;
            } else {
                let key = rng::key(&state);
                let existing = self.table.get(&key).copied();
                let next = match existing {
                    Some(found) => found,
                    None => self.new_node(&state, key),
                };
                self.nodes[node as usize].edges[edge].child = next;
                node = next;
                if existing.is_none() {
                    path.push(node);
                    break playout(&mut state, rng, moves).0;
                }
            }
            if path.contains(&node) || path.len() >= MAX_DEPTH {
                // A cycle (or a very long line): score this state by a playout.
                break playout(&mut state, rng, moves).0;
            }
            path.push(node);
        };
        for &n in path.iter() {
            let n = &mut self.nodes[n as usize];
            n.visits += 1;
            n.score += score;
        }
    }
}

/// Searches `game` and returns the chosen move (`None` when `game` is not a decision).
pub fn search<G: Knowledge>(
    game: &G,
    settings: &Settings,
    seed: u64,
    cap: Option<Duration>,
) -> Option<G::Move> {
    let began = Instant::now();
    let mut rng = Rng::new(seed);
    let mut tree = Tree::<G> {
        nodes: Vec::with_capacity(settings.iterations as usize + 1),
        table: HashMap::with_capacity(settings.iterations as usize + 1),
    };
    tree.new_node(game, rng::key(game));
    tree.expand(0, game, &mut rng);
    let mut path = Vec::new();
    let mut moves = Vec::new();
    for i in 0..settings.iterations.max(1) {
        if i > 0
            && i % 16 == 0
            && let Some(cap) = cap
            && began.elapsed() >= cap
        {
            break;
        }
        tree.iterate(game, &mut rng, &mut path, &mut moves);
    }
    let root = &tree.nodes[0];
    let choices: Vec<(&G::Move, u32)> = root
        .edges
        .iter()
        .filter_map(|e| match &e.action {
            Action::Move(m) => Some((
                m,
                if e.child == NONE {
                    0
                } else {
                    tree.nodes[e.child as usize].visits
                },
            )),
            Action::Roll(_) => None,
        })
        .collect();
    let mut chosen = 0;
    if settings.proportional {
        let total: u64 = choices.iter().map(|(_, v)| u64::from(*v)).sum();
        if total > 0 {
            let mut r = rng.next_u64() % total;
            for (i, (_, v)) in choices.iter().enumerate() {
                if r < u64::from(*v) {
                    chosen = i;
                    break;
                }
                r -= u64::from(*v);
            }
        }
    } else {
        // The most visited; ties go to the earlier edge (higher rank).
        for (i, (_, v)) in choices.iter().enumerate() {
            if *v > choices[chosen].1 {
                chosen = i;
            }
        }
    }
    choices.get(chosen).map(|(m, _)| (*m).clone())
}
