//! The bench: a fixed list of positions searched to a fixed depth with one thread. Its node count is the
//! search's signature (commits that change search behaviour quote it as `Bench: N`).

use std::time::{Duration, Instant};

use jungle_rules::{Game, Position, Rules};

use crate::{Engine, EngineOptions, Limits};

/// The default bench depth.
pub const BENCH_DEPTH: u32 = 11;

/// A bench position: a rule option string and a FEN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchPosition {
    pub rules: &'static str,
    pub fen: &'static str,
    pub what: &'static str,
}

/// The bench's totals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchReport {
    pub positions: usize,
    pub nodes: u64,
    pub elapsed: Duration,
}

impl BenchReport {
    pub fn nodes_per_second(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

macro_rules! positions {
    ($($rules:literal, $fen:literal, $what:literal;)*) => {
        &[$(BenchPosition { rules: $rules, fen: $fen, what: $what },)*]
    };
}

static POSITIONS: &[BenchPosition] = positions![
    "", "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1", "start";
];

/// The bench positions.
pub fn bench_positions() -> &'static [BenchPosition] {
    POSITIONS
}

/// Searches every bench position to `depth` with the given options (one thread for the signature), the table
/// cleared before each, calling `each(index, position, nodes)` after each search.
///
/// # Panics
/// If a bench position is invalid (a test checks they are all valid).
pub fn bench(
    depth: u32,
    options: &EngineOptions,
    mut each: impl FnMut(usize, &BenchPosition, u64),
) -> BenchReport {
    let mut engine = Engine::new(options.clone());
    let mut nodes = 0;
    let start = Instant::now();
    for (i, bp) in POSITIONS.iter().enumerate() {
        let rules: Rules = bp.rules.parse().expect("bench rules are valid");
        let pos = Position::from_fen(bp.fen, &rules).expect("bench positions are valid");
        engine.clear();
        engine.set_game(&Game::from_position(rules, pos));
        let result = engine.go(&Limits::depth(depth), &mut |_| {});
        nodes += result.nodes;
        each(i, bp, result.nodes);
    }
    BenchReport {
        positions: POSITIONS.len(),
        nodes,
        elapsed: start.elapsed(),
    }
}
