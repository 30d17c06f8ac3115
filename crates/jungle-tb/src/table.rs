//! A table in memory: the value code of every index of one material.

use jungle_rules::{BySide, Position, Rules};

use crate::value::{self, Code, INVALID};
use crate::{Indexer, Material, Metric, Probe};

/// All values of one canonical material under one rule set.
#[derive(Clone, Debug)]
pub struct Table {
    indexer: Indexer,
    codes: Vec<Code>,
    metric: Metric,
}

/// Counts over a table's positions (both sides to move).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableStats {
    /// Valid positions stored (a position and its mirror image count once).
    pub positions: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// The same counts split by the side to move (a symmetric material stores Blue to move only), which says
    /// how the material goes for each side.
    pub by_side_to_move: BySide<WdlCounts>,
    /// The longest win in plies and the index of a position with it.
    pub longest_win: Option<(u32, u64)>,
}

/// Wins, draws and losses of the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WdlCounts {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Table {
    /// A table from its codes, which must be one per index of the indexer.
    pub(crate) fn from_codes(indexer: Indexer, codes: Vec<Code>, metric: Metric) -> Table {
        debug_assert_eq!(codes.len() as u64, indexer.size());
        Table {
            indexer,
            codes,
            metric,
        }
    }

    /// What the stored distances count.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    pub fn material(&self) -> Material {
        self.indexer.material()
    }

    pub fn indexer(&self) -> &Indexer {
        &self.indexer
    }

    pub fn codes(&self) -> &[Code] {
        &self.codes
    }

    /// The stored code of a position of this material (or its colour swap).
    pub fn code_of(&self, pos: &Position) -> Option<Code> {
        let code = self.codes[self.indexer.index_of(pos)? as usize];
        (code != INVALID).then_some(code)
    }

    pub fn probe(&self, pos: &Position) -> Option<Probe> {
        self.code_of(pos).map(value::decode)
    }

    /// Bytes held in memory.
    pub fn memory_bytes(&self) -> u64 {
        self.codes.len() as u64 * 2
    }

    pub fn stats(&self) -> TableStats {
        let mut s = TableStats::default();
        for (i, &code) in self.codes.iter().enumerate() {
            if code == INVALID {
                continue;
            }
            s.positions += 1;
            let side = &mut s.by_side_to_move[self.indexer.side_to_move_at(i as u64)];
            if value::is_win(code) {
                s.wins += 1;
                side.wins += 1;
                let n = value::plies(code);
                if s.longest_win.is_none_or(|(m, _)| n > m) {
                    s.longest_win = Some((n, i as u64));
                }
            } else if value::is_loss(code) {
                s.losses += 1;
                side.losses += 1;
            } else {
                s.draws += 1;
                side.draws += 1;
            }
        }
        s
    }
}

/// The code of a finished position (den entered, last piece captured, no legal move), from the side to move's
/// point of view, or `None` if the game goes on.
pub fn terminal_code(pos: &Position, rules: &Rules) -> Option<Code> {
    pos.outcome(rules).map(|o| {
        if o.winner == Some(pos.side_to_move()) {
            value::win_code(0)
        } else {
            value::loss_code(0)
        }
    })
}
