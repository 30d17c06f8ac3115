//! The endgame tables under the quiet-ply rule.
//!
//! The tables (`KEY.jtb`) give each position's result and distance to the end of the game, ignoring the rule
//! that draws a game after so many plies without a capture. A table win in `n` plies with `q` quiet plies
//! already played is certain when `q + n` fits under the limit: the game ends first. Otherwise it depends on
//! captures on the way, which reset the count. The tables of distances to the next capture (`KEY.jtz`,
//! Syzygy's DTZ) settle it: the win holds when `q + dtz` fits (the winner forces a capture, or the end, in
//! time; the loser cannot delay it longer), and is a draw by the rule when it does not. Without those tables
//! the search decides, as it counts quiet plies itself.
//!
//! A position after the capture is again a table win that holds as long as every table's longest distance to
//! a capture is within the limit, which `jungle tb generate --dtz` reports (at most 155 plies for the tables
//! made so far, against the standard limit of 200).

use jungle_rules::{Move, Position, Rules};
use jungle_tb::{Probe, Tablebases, Wdl};

use crate::scale::{MATE, MATE_BOUND, MAX_PLY};

/// Scores of a table win that holds by the distance to the next capture lie just below the mate range, above
/// any evaluation: `TABLE_WIN - ply - dtz` (so the nearer capture is preferred).
pub(crate) const TABLE_WIN: i32 = MATE_BOUND - 1 - 4 * MAX_PLY as i32;

/// What the tables say a position is worth under the quiet-ply rule, for its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The table's value, distance to the end included, holds: a draw, or a win or loss that ends in time.
    Exact(Probe),
    /// A win (or loss) that holds under the rule by the distance to the next capture, `dtz` plies, though its
    /// end lies beyond the quiet plies left.
    Converts { wdl: Wdl, dtz: u32 },
    /// Won or lost by the tables, drawn by the rule: the capture cannot be forced in time.
    RuleDraw,
}

impl Verdict {
    /// As a search score at `ply` (mate scores for exact wins and losses, as the search's own).
    pub(crate) fn score(self, ply: usize) -> i32 {
        match self {
            Verdict::Exact(probe) => exact_score(probe, ply),
            Verdict::Converts { wdl, dtz } => {
                let win = TABLE_WIN - ply as i32 - dtz.min(MAX_PLY as u32) as i32;
                if wdl == Wdl::Win { win } else { -win }
            }
            Verdict::RuleDraw => 0,
        }
    }
}

/// The verdict on `pos`, or `None` when the tables do not cover it, or when the rule may overrule the distance
/// to the end and there is no table of distances to a capture to settle it.
pub(crate) fn verdict(tables: &Tablebases, pos: &Position, rules: &Rules) -> Option<Verdict> {
    let value = tables.probe(pos)?;
    if fits_quiet_rule(value.plies, value.wdl, pos, rules) {
        return Some(Verdict::Exact(value));
    }
    let zeroing = tables.probe_zeroing(pos)?;
    Some(if fits_quiet_rule(zeroing.plies, zeroing.wdl, pos, rules) {
        Verdict::Converts {
            wdl: zeroing.wdl,
            dtz: zeroing.plies.unwrap_or(0),
        }
    } else {
        Verdict::RuleDraw
    })
}

/// The table's best move at the root under the rule, with its score (ply 0): a win that ends in time, the
/// quickest; else a win that converts in time, the nearest capture; else a draw (a table win or loss the rule
/// draws counts as one); else the loss that converts latest, else the slowest loss. `None` when a successor's
/// verdict is unknown and could be better than the best known.
pub(crate) fn best_root_move(
    tables: &Tablebases,
    pos: &Position,
    rules: &Rules,
) -> Option<RootChoice> {
    let mut best: Option<RootChoice> = None;
    let mut unknown = false;
    for &m in pos.legal_moves(rules).as_slice() {
        let Some(score) = root_move_score(tables, pos, m, rules) else {
            unknown = true;
            continue;
        };
        if best.is_none_or(|b| score > b.score) {
            best = Some(RootChoice { best: m, score });
        }
    }
    // A win that ends in time is the best there is, whatever the unknown moves are worth.
    best.filter(|b| !unknown || b.score >= MATE_BOUND)
}

/// The tables' choice at the root and its score: moves with the same score are equally good.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RootChoice {
    pub best: Move,
    pub score: i32,
}

/// The score at the root of a move by the tables, if its successor's verdict is known.
pub(crate) fn root_move_score(
    tables: &Tablebases,
    pos: &Position,
    m: Move,
    rules: &Rules,
) -> Option<i32> {
    Some(-verdict(tables, &pos.after(m), rules)?.score(1))
}

/// Whether a win or loss in `plies` (to the end, or to the next capture) is played out before the quiet-ply
/// rule draws the game: the last of those plies ends the game or captures before the count is checked again.
/// A draw always fits.
fn fits_quiet_rule(plies: Option<u32>, wdl: Wdl, pos: &Position, rules: &Rules) -> bool {
    let limit = rules.options().quiet_ply_limit;
    match plies {
        Some(n) if limit != 0 && wdl != Wdl::Draw => {
            u64::from(pos.quiet_plies()) + u64::from(n) <= u64::from(limit)
        }
        _ => true,
    }
}

/// A table value as a search score at `ply`: a win or loss in `n` plies from here is a mate score `ply + n`
/// plies from the root (kept inside the mate range however long), a draw 0.
fn exact_score(value: Probe, ply: usize) -> i32 {
    let distance = |n: Option<u32>| {
        let n = i32::try_from(n.unwrap_or(0)).unwrap_or(i32::MAX);
        n.saturating_add(ply as i32).min(MATE - MATE_BOUND)
    };
    match value.wdl {
        Wdl::Win => MATE - distance(value.plies),
        Wdl::Loss => -MATE + distance(value.plies),
        Wdl::Draw => 0,
    }
}
