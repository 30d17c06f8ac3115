//! Shared by the property tests: the option sets of docs/rules.md and random reachable positions.
#![allow(dead_code)] // each test binary uses a different part

use jungle_rules::{Move, Position, Rules, terrain::DENS};
use proptest::prelude::*;

/// Every option set of docs/rules.md: each preset, and each non-default value of each option (the default values
/// are the `standard` set), plus a few combinations where options meet (swimming Dogs leaving the water,
/// traps and Elephants, jumpers).
pub const OPTION_SETS: &[&str] = &[
    "standard",
    "modern",
    "leiden",
    "mistboard",
    "animal-checkers",
    "elephant-captures-rat=false",
    "elephant-captures-rat=trapped",
    "lion-tiger=equal",
    "lion-tiger=tiger-over-lion",
    "wolf-over-dog=true",
    "leopard-jumps=true",
    "lion-jumps-horizontally=false",
    "universal-traps=true",
    "trap-max-rank=0",
    "trap-max-rank=1",
    "trap-max-rank=2",
    "trap-max-rank=3",
    "trap-max-rank=4",
    "trap-max-rank=5",
    "trap-max-rank=6",
    "trap-max-rank=7",
    "dog-swims=true",
    "rat-from-water=none",
    "rat-from-water=all",
    "land-rat-captures-water-rat=true",
    "capture-all-wins=false",
    "repetition-draw=0",
    "repetition-draw=2",
    "quiet-ply-limit=0",
    "quiet-ply-limit=1",
    "dog-swims=true,rat-from-water=all,land-rat-captures-water-rat=true",
    "dog-swims=true,rat-from-water=none,wolf-over-dog=true",
    "universal-traps=true,elephant-captures-rat=trapped,trap-max-rank=5",
    "leopard-jumps=true,lion-jumps-horizontally=false,lion-tiger=tiger-over-lion",
    "animal-checkers,capture-all-wins=false,elephant-captures-rat=false",
];

pub fn rules(text: &str) -> Rules {
    text.parse()
        .unwrap_or_else(|e| panic!("option set {text}: {e}"))
}

/// Whether a legal move enters the enemy den (which ends the game).
fn enters_den(pos: &Position, m: Move) -> bool {
    m.to == DENS[!pos.side_to_move()]
}

/// The positions of a random playout from the start position of the rules: the start, then one per ply.
///
/// Each `choice` picks one move. With probability `capture_bias`% a capture is preferred when there is one,
/// so the board thins out; den entries are mostly avoided so that games run long. A playout ends early at a
/// position with no moves.
pub fn playout(rules: &Rules, choices: &[u32], capture_bias: u32) -> Vec<Position> {
    let mut pos = Position::start(rules);
    let mut seen = vec![pos];
    for &choice in choices {
        let moves = pos.legal_moves(rules);
        if moves.is_empty() {
            break;
        }
        let captures: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| pos.is_capture(*m))
            .collect();
        let calm: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| !enters_den(&pos, *m))
            .collect();
        let pool: &[Move] = if choice % 100 < capture_bias && !captures.is_empty() {
            &captures
        } else if choice % 16 != 0 && !calm.is_empty() {
            &calm
        } else {
            &moves
        };
        let m = pool[(choice / 100) as usize % pool.len()];
        pos.play_unchecked(m);
        seen.push(pos);
    }
    seen
}

/// A playout's inputs: up to `max_plies` choices and a capture bias.
pub fn playout_input(max_plies: usize) -> impl Strategy<Value = (Vec<u32>, u32)> {
    (
        prop::collection::vec(any::<u32>(), 0..max_plies),
        40u32..=100,
    )
}

/// The fast generator's moves as sorted text.
pub fn fast_moves(pos: &Position, rules: &Rules) -> Vec<String> {
    let mut moves: Vec<String> = pos
        .legal_moves(rules)
        .iter()
        .map(ToString::to_string)
        .collect();
    moves.sort();
    moves
}

/// A proptest runner with `cases` cases that writes no regression files (failures print the position).
pub fn runner(cases: u32) -> proptest::test_runner::TestRunner {
    proptest::test_runner::TestRunner::new(ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    })
}
