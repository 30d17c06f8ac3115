//! Determinized search: every root move of the view is played in each sampled world (attacks resolved by that
//! world's animals) and the position after it searched by the open-game engine; a move's value is its average
//! over the worlds. Depth grows one ply at a time over the same worlds while the budget lasts.

use std::time::{Duration, Instant};

use jungle_rules::{Game, Move, Position, Rules};
use jungle_search::{Engine, Limits, Score};

use crate::moves;

/// A search score as one number from the point of view of the side to move (mates near ±30,000, as the engine
/// keeps them inside, so the skill levels' choice treats them alike).
pub fn score_value(score: Score) -> i32 {
    const MATE: i32 = 30_000;
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => MATE - n,
        Score::Mate(n) => -MATE - n,
    }
}

/// How much work one choice may take. With neither limit set, the level's depth alone bounds it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Wall-clock time for the whole choice.
    pub time: Option<Duration>,
    /// Engine nodes for the whole choice, over every world: the same work whatever else the machine runs, so
    /// matches limited this way are reproducible.
    pub nodes: Option<u64>,
}

impl Budget {
    pub fn time(time: Duration) -> Budget {
        Budget {
            time: Some(time),
            nodes: None,
        }
    }

    pub fn nodes(nodes: u64) -> Budget {
        Budget {
            time: None,
            nodes: Some(nodes),
        }
    }
}

/// What is left of a [`Budget`] while a choice runs: the deadline and the nodes not yet spent.
#[derive(Clone, Copy, Debug)]
pub struct Allowance {
    deadline: Option<Instant>,
    nodes_left: Option<u64>,
    spent: u64,
}

impl Allowance {
    pub fn new(budget: Budget, start: Instant) -> Allowance {
        Allowance {
            deadline: budget.time.map(|t| start + t),
            nodes_left: budget.nodes,
            spent: 0,
        }
    }

    /// Whether nothing is left.
    pub fn is_spent(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d) || self.nodes_left == Some(0)
    }

    /// The limits of a search `depth` plies deep within what is left; `None` when nothing is. With `finish`, the
    /// search goes `depth` deep whatever is left (what it costs is still spent).
    fn limits(&self, depth: u32, finish: bool) -> Option<Limits> {
        if finish {
            return Some(Limits {
                depth: Some(depth),
                ..Limits::default()
            });
        }
        let movetime = match self.deadline {
            Some(deadline) => Some(deadline.checked_duration_since(Instant::now())?),
            None => None,
        };
        if self.nodes_left == Some(0) {
            return None;
        }
        Some(Limits {
            depth: Some(depth),
            movetime,
            nodes: self.nodes_left,
            ..Limits::default()
        })
    }

    /// The engine's limits for the next of `shares` searches that share what is left equally, at most `depth`
    /// deep (which alone bounds them when the budget sets no limit). Recomputed before each search, so one
    /// that overran its share (a loaded machine answers late) shortens the others instead of the choice.
    pub fn share(&self, shares: usize, depth: u32) -> Limits {
        let shares = shares.max(1);
        let limited = self.deadline.is_some() || self.nodes_left.is_some();
        Limits {
            depth: (!limited).then_some(depth),
            movetime: self
                .deadline
                .map(|d| d.saturating_duration_since(Instant::now()) / shares as u32),
            nodes: self.nodes_left.map(|n| (n / shares as u64).max(1)),
            ..Limits::default()
        }
    }

    /// The engine nodes searched so far.
    pub fn spent(&self) -> u64 {
        self.spent
    }

    pub fn spend(&mut self, nodes: u64) {
        self.spent += nodes;
        if let Some(left) = &mut self.nodes_left {
            *left = left.saturating_sub(nodes);
        }
    }
}

/// The value of each root move in one world at `depth` plies after it, from the mover's point of view; `None`
/// if the allowance ran out before every move was searched to that depth. With `finish`, every move is searched
/// to `depth` however little is left (the first depth of a choice, so that a move is always chosen by search).
pub fn score_world(
    engine: &mut Engine,
    rules: &Rules,
    world: &Position,
    root: &[Move],
    depth: u32,
    allowance: &mut Allowance,
    finish: bool,
) -> Option<Vec<i32>> {
    let mut values = Vec::with_capacity(root.len());
    for &m in root {
        let (child, _) = moves::resolve(world, rules, m);
        let game = Game::from_position(rules.clone(), child);
        let value = match game.outcome() {
            Some(outcome) => match outcome.winner {
                None => 0,
                Some(winner) if winner == world.side_to_move() => score_value(Score::Mate(1)),
                Some(_) => -score_value(Score::Mate(1)),
            },
            None => {
                let limits = allowance.limits(depth, finish)?;
                engine.set_game(&game);
                let result = engine.go(&limits, &mut |_| {});
                allowance.spend(result.nodes);
                if !finish && result.depth < depth && allowance.is_spent() {
                    return None;
                }
                -score_value(result.score)
            }
        };
        values.push(value);
    }
    Some(values)
}
