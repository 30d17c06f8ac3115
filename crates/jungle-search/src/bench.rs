//! The bench: a fixed list of positions searched to a fixed depth with one thread. Its node count is the
//! search's signature (commits that change search behaviour quote it as `Bench: N`).

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use jungle_rules::{Game, Position, Rules};

use crate::{Engine, EngineOptions, Limits};

/// The default bench depth.
pub const BENCH_DEPTH: u32 = 13;

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
    "modern", "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1", "start, modern";
    "", "7/7/2l4/7/7/7/3R3/7/2E4 w 0 1", "sparse: Rat and Elephant against Lion";
    "", "1L5/7/7/7/7/7/7/5r1/7 w 0 1", "den race: Lion against Rat";
    "", "2d4/7/7/3T3/7/7/7/3e3/7 b 0 1", "den race with defenders";
    "leiden", "7/7/7/1r5/7/1R5/7/7/2E4 w 0 1", "water rats under leiden rules";
    "", "1l4t/r2dwc1/3p2e/7/7/E6/3W1R1/T1C1PD1/6L w 12 7", "ply 12";
    "", "6t/1r1dwc1/6e/7/4R2/3p3/E2W3/2lP1D1/1T4L w 4 16", "ply 30";
    "", "5t1/2r2c1/3w2e/4R2/3d3/7/2EpWD1/2T2L1/1l5 w 0 26", "ply 50";
    "", "4c2/4t2/2L4/2r1R2/7/6e/7/2TEW2/1l5 w 0 41", "ply 80";
    "", "5t1/ld2c2/2p1w1e/r6/7/7/E1WP2R/1C2LD1/T6 w 12 7", "ply 12";
    "", "5t1/1d1c3/l3we1/3p3/7/2rP1R1/E3L2/1CTW1D1/7 w 30 16", "ply 30";
    "", "7/1d2ce1/2lwt2/3pR2/7/2rP3/CET1L2/3W3/5D1 w 50 26", "ply 50";
    "", "5c1/3w3/1d1lte1/C2p2R/7/1r1P3/1T2L2/2EW1D1/7 w 80 41", "ply 80";
    "modern", "1l4t/r1d1wc1/6e/3p3/7/6R/E1W2D1/1T2P2/1C4L w 12 7", "ply 12";
    "modern", "5t1/rl1d1c1/3w2e/4R2/7/3p3/ET1WPD1/5L1/1C5 w 30 16", "ply 30";
    "modern", "7/1rld1c1/3t3/3wR1e/T6/3p2D/3WPL1/2E4/1C5 w 50 26", "ply 50";
    "modern", "5c1/2r1L2/2lt3/3wR2/3T3/7/7/2E1P2/1C3e1 w 2 41", "ply 80";
    "modern", "l4t1/1d2c1e/2p1w2/7/1r5/7/E1W1P1R/1C3D1/2T1L2 w 12 7", "ply 12";
    "modern", "1dl4/4cte/2p1L2/7/3w3/2r2R1/E2W3/1CTP1D1/7 w 30 16", "ply 30";
    "modern", "7/1d1pc1e/2l2t1/3L3/3w3/2r1R2/E1TW3/3P3/1C3D1 w 50 26", "ply 50";
    "leiden", "6t/rld1wc1/3p2e/7/7/5R1/E2W3/T1C1PD1/6L w 12 7", "ply 12";
    "leiden", "5t1/1r2wc1/2ld2e/7/4R2/3p3/1E1W1L1/1TCP2D/7 w 30 16", "ply 30";
    "leiden", "4t2/1r1w2c/2ld3/4R2/3L3/6e/1EWP3/1T4D/2C4 w 7 26", "ply 50";
    "leiden", "l6/1d2cte/2pw3/r6/7/3P3/E1W2R1/1C2D2/T5L w 12 7", "ply 12";
    "leiden", "7/1d2c1e/l1pw3/7/2rP3/3WR2/E4t1/1CD4/T5L w 30 16", "ply 30";
    "leiden", "1d5/2p1c1e/7/3wR2/7/2rl3/1EWtL2/TCD4/7 w 10 26", "ply 50";
    "leiden", "d4c1/2p4/3e3/T2wR2/7/2rl3/1EWtL2/2D4/1C5 w 40 41", "ply 80";
    "mistboard", "6t/rdl1wc1/3p2e/7/7/7/E2W1R1/1T2PD1/1C4L w 12 7", "ply 12";
    "mistboard", "1r3t1/2d1c2/2lw2e/3p3/7/3W1R1/1ETP1D1/7/1C3L1 w 30 16", "ply 30";
    "mistboard", "2r4/1d1wc1e/3l1t1/5R1/3p3/3W3/1ETPLD1/7/2C4 w 50 26", "ply 50";
    "mistboard", "7/r1w1c1e/1T1l1t1/5R1/7/3P3/d3L1D/2E4/1C5 w 1 41", "ply 80";
    "mistboard", "1l3t1/1d2c1e/1rpw3/7/7/7/E1WP1R1/1C2D2/T4L1 w 12 7", "ply 12";
    "mistboard", "1d5/2l1c1e/2pw2t/3P3/2r4/5R1/E1TW3/1C2D2/5L1 w 30 16", "ply 30";
    "mistboard", "1d3c1/2lwL2/1Tp3t/3P3/2r3e/6R/E2W3/1C2D2/7 w 50 26", "ply 50";
    "animal-checkers", "1d3t1/7/r6/3e3/7/E6/5R1/4D2/1T5 w 12 7", "ply 12";
    "animal-checkers", "1d5/4t2/7/2re3/4R2/2E4/2T4/3D3/7 w 30 16", "ply 30";
    "animal-checkers", "2d4/7/3e3/3r3/4t2/2E2R1/3T3/4D2/7 w 50 26", "ply 50";
    "animal-checkers", "7/7/3e3/2E2d1/7/7/7/4T2/4Dt1 w 12 41", "ply 80";
    "animal-checkers", "1d3t1/7/7/1r3e1/7/1E5/7/3D2R/1T5 w 12 7", "ply 12";
    "animal-checkers", "1d5/4t2/7/3e3/3r3/1ED4/4R2/7/2T4 w 30 16", "ply 30";
    "dog-swims=true,leopard-jumps=true", "1l4t/r3wc1/3p2e/1d5/7/E6/3W2R/T1C1PD1/5L1 w 12 7", "ply 12";
    "dog-swims=true,leopard-jumps=true", "6t/rl1w1c1/6e/7/E6/2d2Dp/T2PW2/2C2LR/7 w 30 16", "ply 30";
    "dog-swims=true,leopard-jumps=true", "5t1/r2wc2/5e1/7/E6/T1d1D2/3PL1p/2l1W2/1C4R w 50 26", "ply 50";
    "dog-swims=true,leopard-jumps=true", "5t1/4c2/E2w1e1/1r2D2/T6/2d2R1/3PL2/2C1W2/1l3p1 w 80 41", "ply 80";
    "dog-swims=true,leopard-jumps=true", "l4t1/1d2c1e/4w2/r2p3/7/7/E1WP1R1/1C2D2/T4L1 w 12 7", "ply 12";
    "dog-swims=true,leopard-jumps=true", "1l3t1/1d2ce1/3L1w1/p6/2rP3/5R1/E2W3/1C2D2/T6 w 30 16", "ply 30";
    "universal-traps=true,trap-max-rank=4", "1l4t/2d2c1/r1p1w1e/7/7/7/E2WR2/1C2PD1/T5L w 12 7", "ply 12";
    "universal-traps=true,trap-max-rank=4", "1l3t1/2d1c2/2p3e/3wR2/7/2rW3/E3D1L/2C1P2/T6 w 30 16", "ply 30";
    "universal-traps=true,trap-max-rank=4", "7/1l2ct1/p2d2e/3w1R1/7/E1rW3/2TD1L1/2C3P/7 w 50 26", "ply 50";
    "universal-traps=true,trap-max-rank=4", "l6/1d2ct1/2pw2e/7/r6/5R1/E2WP2/1C3D1/1T4L w 12 7", "ply 12";
    "universal-traps=true,trap-max-rank=4", "7/l1d1c1e/1p3t1/3w1R1/7/2rW3/E2P3/2C1D2/T5L w 30 16", "ply 30";
    "universal-traps=true,trap-max-rank=4", "7/2dwc2/lp4e/3PR2/7/2r4/4t2/ETC1DL1/7 w 14 26", "ply 50";
    "universal-traps=true,trap-max-rank=4", "7/2d1c1e/1lpw3/4R2/3P3/4r2/2T1L2/7/1E3D1 w 17 41", "ply 80";
];

/// The bench positions.
pub fn bench_positions() -> &'static [BenchPosition] {
    POSITIONS
}

/// Searches every bench position to `depth` with `engine` at full strength, one line and no tablebases (its
/// thread count and table size as they are: one thread and 16 MiB give the signature), the table cleared
/// before each, calling `each(index, position, nodes)` after each search; `each` returning
/// `ControlFlow::Break` ends the bench there (a `stop`). The engine's options are restored afterwards.
///
/// # Panics
/// If a bench position is invalid (a test checks they are all valid).
pub fn bench(
    engine: &mut Engine,
    depth: u32,
    mut each: impl FnMut(usize, &BenchPosition, u64) -> ControlFlow<()>,
) -> BenchReport {
    let options = engine.options().clone();
    engine.set_options(EngineOptions {
        multipv: 1,
        skill_level: crate::skill::MAX_LEVEL,
        tablebase_path: None,
        ..options.clone()
    });
    let mut nodes = 0;
    let mut positions = 0;
    let start = Instant::now();
    for (i, bp) in POSITIONS.iter().enumerate() {
        let rules: Rules = bp.rules.parse().expect("bench rules are valid");
        let pos = Position::from_fen(bp.fen, &rules).expect("bench positions are valid");
        engine.clear();
        engine.set_game(&Game::from_position(rules, pos));
        let result = engine.go(&Limits::depth(depth), &mut |_| {});
        nodes += result.nodes;
        positions += 1;
        if each(i, bp, result.nodes).is_break() {
            break;
        }
    }
    let elapsed = start.elapsed();
    engine.clear();
    engine.set_options(options);
    BenchReport {
        positions,
        nodes,
        elapsed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_valid_varied_and_not_over() {
        assert!(POSITIONS.len() >= 30);
        let mut rule_sets = std::collections::HashSet::new();
        for bp in POSITIONS {
            let rules: Rules = bp
                .rules
                .parse()
                .unwrap_or_else(|e| panic!("{}: {e}", bp.rules));
            let pos =
                Position::from_fen(bp.fen, &rules).unwrap_or_else(|e| panic!("{}: {e}", bp.fen));
            assert!(pos.outcome(&rules).is_none(), "{}", bp.fen);
            rule_sets.insert(bp.rules);
        }
        assert!(rule_sets.len() >= 5);
    }
}
