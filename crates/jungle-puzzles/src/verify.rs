//! Checking a puzzle again: its line replays, and every solver's move is the only winning one — by the tables
//! when they cover the position, else by the search the puzzle's verification names.

use jungle_tb::{Tablebases, Wdl};

use crate::judge::judge;
use crate::tablebase::{Choice, longest_resistance, only_winning_move, winning_at_once};
use crate::{Line, Puzzle, PuzzleError, Verification};

/// How a puzzle was found good.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// By the tables, with the solver's distance to the win.
    Tables { plies: u32 },
    /// By searches of this many nodes.
    Search { nodes: u64 },
}

/// Why a puzzle failed its check.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    #[error(transparent)]
    Invalid(#[from] PuzzleError),
    #[error("solution move {ply}: {reason}")]
    Tables { ply: usize, reason: String },
    #[error("solution move {ply}: {reason}")]
    Search { ply: usize, reason: String },
    #[error("{0}")]
    Other(String),
}

/// Verifies a puzzle: by `tables` when they cover its position, else by search (the nodes its verification
/// names, or `default_nodes` for a tablebase puzzle out of the tables' range).
///
/// # Errors
/// The first thing that does not hold, as a [`VerifyError`].
pub fn verify(
    puzzle: &Puzzle,
    tables: Option<&Tablebases>,
    default_nodes: u64,
) -> Result<Verdict, VerifyError> {
    let line = puzzle.line()?;
    if let Some(tables) = tables
        && tables.rules() == &line.rules
        && tables.probe(line.start()).is_some()
    {
        return verify_by_tables(puzzle, &line, tables);
    }
    let nodes = match puzzle.verified {
        Verification::Search { nodes, .. } => nodes,
        Verification::Tablebase { .. } => default_nodes,
    };
    verify_by_search(&line, nodes)
}

fn verify_by_tables(
    puzzle: &Puzzle,
    line: &Line,
    tables: &Tablebases,
) -> Result<Verdict, VerifyError> {
    let fail = |ply: usize, reason: String| VerifyError::Tables { ply, reason };
    let plies = match tables.probe(line.start()) {
        Some(p) if p.wdl == Wdl::Win => p.plies.unwrap_or(0),
        Some(p) => return Err(fail(0, format!("the solver does not win: {p}"))),
        None => return Err(fail(0, "not in the tables".into())),
    };
    let from_tables = matches!(puzzle.verified, Verification::Tablebase { .. });
    for (i, (&m, pos)) in line.moves.iter().zip(&line.positions).enumerate() {
        if pos.side_to_move() == line.solver {
            match only_winning_move(tables, pos) {
                Choice::Only(only, _) if only == m => {}
                Choice::Only(only, _) => {
                    return Err(fail(
                        i + 1,
                        format!("{m} loses the win; only {only} keeps it"),
                    ));
                }
                Choice::Several(_) if i > 0 && winning_at_once(pos, &line.rules) == Some(m) => {}
                Choice::Several(n) => {
                    return Err(fail(i + 1, format!("{n} moves keep the win, not one")));
                }
                Choice::NoWin => return Err(fail(i + 1, "the solver no longer wins".into())),
                Choice::NotCovered => return Err(fail(i + 1, "not in the tables".into())),
            }
        } else if from_tables {
            match longest_resistance(tables, pos) {
                Some((best, p)) if best == m || tables_value(tables, pos, m) == Some(p) => {}
                Some((best, p)) => {
                    return Err(fail(
                        i + 1,
                        format!("{m} is not the longest resistance ({best}, {p})"),
                    ));
                }
                None => return Err(fail(i + 1, "the defender is not lost".into())),
            }
        }
    }
    if from_tables && puzzle.verified != (Verification::Tablebase { plies }) {
        return Err(fail(
            0,
            format!(
                "the tables say a win in {plies} plies, the puzzle {:?}",
                puzzle.verified
            ),
        ));
    }
    Ok(Verdict::Tables { plies })
}

/// The value of one move by the tables, for the mover.
fn tables_value(
    tables: &Tablebases,
    pos: &jungle_rules::Position,
    m: jungle_rules::Move,
) -> Option<jungle_tb::Probe> {
    tables
        .probe_moves(pos)?
        .into_iter()
        .find(|(mv, _)| *mv == m)
        .map(|(_, p)| p)
}

fn verify_by_search(line: &Line, nodes: u64) -> Result<Verdict, VerifyError> {
    for (i, (&m, pos)) in line.moves.iter().zip(&line.positions).enumerate() {
        if pos.side_to_move() != line.solver {
            continue;
        }
        let fail = |reason: String| VerifyError::Search { ply: i + 1, reason };
        let j = judge(pos, &line.rules, nodes)
            .ok_or_else(|| fail("the search found no lines".into()))?;
        if j.best != m {
            return Err(fail(format!(
                "the search prefers {} ({}) to {m}",
                j.best, j.best_score
            )));
        }
        let first = i == 0;
        if (first && !j.is_decisive()) || (!first && !j.is_only_move()) {
            let second = j.second_score.map_or("none".to_string(), |s| s.to_string());
            return Err(fail(format!(
                "not decisive: best {} {}, second {second}",
                j.best, j.best_score
            )));
        }
    }
    Ok(Verdict::Search { nodes })
}
