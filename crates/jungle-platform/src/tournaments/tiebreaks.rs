//! Swiss tie-breaks and the standings order (docs/tournaments.md §1.7): score, then Buchholz, then
//! Sonneborn-Berger, then rating, then id. Only finished games count; a bye has no opponent, so it adds its
//! points to the score but nothing to either tie-break.

use std::cmp::Reverse;

use super::{Crosstable, PlayerId, Score};

/// Buchholz: the sum of the current scores of everyone the player has finished a game against.
pub fn buchholz(table: &Crosstable, player: PlayerId) -> Score {
    table
        .encounters(player)
        .filter(|e| e.scored.is_some())
        .map(|e| table.score(e.opponent))
        .fold(Score::ZERO, |sum, score| sum + score)
}

/// Sonneborn-Berger in quarter points: the scores of the opponents the player beat, plus half the scores of
/// those they drew with (`12` is 3 points). Quarters keep it exact, since scores themselves are in halves.
pub fn sonneborn_berger(table: &Crosstable, player: PlayerId) -> u32 {
    table
        .encounters(player)
        .filter_map(|e| {
            e.scored
                .map(|scored| scored.half_points() * table.score(e.opponent).half_points())
        })
        .sum()
}

/// One line of the standings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    pub id: PlayerId,
    pub rating: u32,
    pub score: Score,
    pub buchholz: Score,
    /// In quarter points, see [`sonneborn_berger`].
    pub sonneborn_berger: u32,
}

/// The standings of the `(id, rating)` entrants, first place first.
pub fn standings(table: &Crosstable, entrants: &[(PlayerId, u32)]) -> Vec<Standing> {
    let mut lines: Vec<Standing> = entrants
        .iter()
        .map(|&(id, rating)| Standing {
            id,
            rating,
            score: table.score(id),
            buchholz: buchholz(table, id),
            sonneborn_berger: sonneborn_berger(table, id),
        })
        .collect();
    lines.sort_by_key(|s| {
        (
            Reverse(s.score),
            Reverse(s.buchholz),
            Reverse(s.sonneborn_berger),
            Reverse(s.rating),
            s.id,
        )
    });
    lines
}
