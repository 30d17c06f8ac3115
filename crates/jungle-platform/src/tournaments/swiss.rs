//! Swiss pairing by a simplified Dutch system (docs/tournaments.md §1): score groups from the top, the top
//! half of a group against its bottom half, floaters moved down, no game ever repeated, colours alternated
//! and balanced, and a bye for the lowest-ranked player who has not had one.
//!
//! Every choice is made in a fixed order of preference and kept only if the players still unpaired can all
//! be paired without a repeat (a perfect-matching test, `matching.rs`), so the search never backtracks
//! far and finds a pairing whenever one exists. The one part that can grow quickly — trying which players
//! float down out of a group that cannot be paired — is bounded ([`SEARCH_BUDGET`]); past it, the rest of the
//! round is paired by rank order, still without repeats.

use std::collections::{HashMap, HashSet};

use jungle_rules::Side;

use super::matching::Graph;
use super::{PlayerId, Score};

/// How many perfect-matching tests one round may spend before pairing the rest by rank order. Rounds of
/// random events of up to 30 players spent at most 58 (the tests' events), so the bound only bites on
/// pathological brackets.
pub const SEARCH_BUDGET: usize = 5_000;

/// A player as the pairing sees them before a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub id: PlayerId,
    pub rating: u32,
    pub score: Score,
    /// The sides played, oldest first (byes are not games and leave no colour).
    pub colours: Vec<Side>,
    /// Everyone already played, in any order.
    pub opponents: Vec<PlayerId>,
    pub had_bye: bool,
}

/// One game of the new round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub blue: PlayerId,
    pub red: PlayerId,
}

/// A round's pairing: the boards, best-placed player's board first, and the bye when the number is odd.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pairing {
    pub boards: Vec<Board>,
    pub bye: Option<PlayerId>,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    #[error("no players to pair")]
    NoPlayers,
    #[error("player {0} is entered twice")]
    DuplicatePlayer(PlayerId),
    #[error("no pairing of these {0} players avoids a repeated game")]
    Exhausted(usize),
}

/// How much a player wants a side next, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Strength {
    /// Colours are balanced: alternate from the last game.
    Mild,
    /// One side has been played this many times more often.
    Strong(u32),
    /// The last two games were on the same side: a third would break the rule.
    Absolute,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Preference {
    side: Side,
    strength: Strength,
}

/// The side a player should have next and how strongly; `None` before their first game.
fn preference(colours: &[Side]) -> Option<Preference> {
    let &last = colours.last()?;
    let blues = colours.iter().filter(|&&side| side == Side::Blue).count() as i64;
    let difference = 2 * blues - colours.len() as i64;
    let (side, strength) = if colours.len() >= 2 && colours[colours.len() - 2] == last {
        (!last, Strength::Absolute)
    } else if difference != 0 {
        let side = if difference > 0 {
            Side::Red
        } else {
            Side::Blue
        };
        (side, Strength::Strong(difference.unsigned_abs() as u32))
    } else {
        (!last, Strength::Mild)
    };
    Some(Preference { side, strength })
}

/// Who of `higher` and `lower` (ranked in that order) plays Blue on board `board` (counted from 0).
fn higher_plays_blue(higher: &[Side], lower: &[Side], board: usize) -> bool {
    let side = match (preference(higher), preference(lower)) {
        // Nobody has played yet: alternate down the boards, Blue for the higher-ranked on the first.
        (None, None) => {
            if board.is_multiple_of(2) {
                Side::Blue
            } else {
                Side::Red
            }
        }
        (Some(want), None) => want.side,
        (None, Some(want)) => !want.side,
        (Some(high), Some(low)) if high.side != low.side || high.strength >= low.strength => {
            high.side
        }
        (Some(_), Some(low)) => !low.side,
    };
    side == Side::Blue
}

/// Whether the two would both break the three-in-a-row rule whatever the colours.
fn colour_clash(a: &[Side], b: &[Side]) -> bool {
    matches!(
        (preference(a), preference(b)),
        (Some(x), Some(y)) if x.strength == Strength::Absolute && y.strength == Strength::Absolute && x.side == y.side
    )
}

/// Pairs the next round.
///
/// # Errors
/// [`PairingError::NoPlayers`] for an empty list, [`PairingError::DuplicatePlayer`] when an id appears twice,
/// and [`PairingError::Exhausted`] when every pairing would repeat a game (the event has run out of rounds).
pub fn pair(players: &[Player]) -> Result<Pairing, PairingError> {
    pair_with_budget(players, SEARCH_BUDGET)
}

/// [`pair`] with another bound on the search than [`SEARCH_BUDGET`]; with 0, everything past the choice of
/// the bye is paired by rank order.
///
/// # Errors
/// As [`pair`].
pub fn pair_with_budget(players: &[Player], budget: usize) -> Result<Pairing, PairingError> {
    if players.is_empty() {
        return Err(PairingError::NoPlayers);
    }
    let mut seen = HashSet::new();
    for player in players {
        if !seen.insert(player.id) {
            return Err(PairingError::DuplicatePlayer(player.id));
        }
    }
    // Step 1. Rank: score, then rating, then id.
    let mut ranked: Vec<&Player> = players.iter().collect();
    ranked.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then(b.rating.cmp(&a.rating))
            .then(a.id.cmp(&b.id))
    });
    let n = ranked.len();
    let rank_of: HashMap<PlayerId, usize> =
        ranked.iter().enumerate().map(|(r, p)| (p.id, r)).collect();
    let mut played = vec![vec![false; n]; n];
    for (r, player) in ranked.iter().enumerate() {
        for opponent in &player.opponents {
            if let Some(&o) = rank_of.get(opponent) {
                played[r][o] = true;
                played[o][r] = true;
            }
        }
    }

    // Step 2. Choose the bye and the colour rule. A bye goes to someone who has not had one whenever the rest
    // can then be paired; within that, pairings that keep everyone from a third game on the same side come
    // first; within that, the lowest-ranked candidate takes the bye.
    let everyone: Vec<usize> = (0..n).collect();
    let candidates: Vec<Vec<Option<usize>>> = if n.is_multiple_of(2) {
        vec![vec![None]]
    } else {
        let lowest_first = (0..n).rev();
        vec![
            lowest_first
                .clone()
                .filter(|&r| !ranked[r].had_bye)
                .map(Some)
                .collect(),
            lowest_first
                .filter(|&r| ranked[r].had_bye)
                .map(Some)
                .collect(),
        ]
    };
    for tier in &candidates {
        for strict_colours in [true, false] {
            let allowed: Vec<Vec<bool>> = (0..n)
                .map(|a| {
                    (0..n)
                        .map(|b| {
                            a != b
                                && !played[a][b]
                                && !(strict_colours
                                    && colour_clash(&ranked[a].colours, &ranked[b].colours))
                        })
                        .collect()
                })
                .collect();
            let mut search = Search {
                allowed: &allowed,
                scores: ranked.iter().map(|p| p.score).collect(),
                tests: 0,
                budget,
            };
            for &bye in tier {
                let rest: Vec<usize> = everyone
                    .iter()
                    .copied()
                    .filter(|&r| Some(r) != bye)
                    .collect();
                if !search.feasible(&rest, None) {
                    continue;
                }
                // Step 3. Pair, then seat: boards in order of their higher-ranked player.
                let mut pairs = search.pair_groups(&rest);
                pairs.sort_unstable();
                let boards = pairs
                    .iter()
                    .enumerate()
                    .map(|(board, &(high, low))| {
                        let (high, low) = (ranked[high], ranked[low]);
                        if higher_plays_blue(&high.colours, &low.colours, board) {
                            Board {
                                blue: high.id,
                                red: low.id,
                            }
                        } else {
                            Board {
                                blue: low.id,
                                red: high.id,
                            }
                        }
                    })
                    .collect();
                return Ok(Pairing {
                    boards,
                    bye: bye.map(|r| ranked[r].id),
                });
            }
        }
    }
    Err(PairingError::Exhausted(n))
}

/// A paired bracket: its pairs of ranks and the players it floats down to the next.
struct Bracket {
    pairs: Vec<(usize, usize)>,
    down: Vec<usize>,
}

/// One round's search over ranks (0 is the highest-ranked player).
struct Search<'a> {
    allowed: &'a [Vec<bool>],
    scores: Vec<Score>,
    /// Perfect-matching tests spent so far, and how many may be.
    tests: usize,
    budget: usize,
}

impl Search<'_> {
    /// Whether `players` can all be paired; with `top_half`, only each of those against one of the others.
    fn feasible(&mut self, players: &[usize], top_half: Option<&[usize]>) -> bool {
        self.tests += 1;
        // By rank, so that each of the n² pairs is looked up, not searched for.
        let mut in_top = vec![false; self.allowed.len()];
        for &r in top_half.unwrap_or_default() {
            in_top[r] = true;
        }
        Graph::new(players.len(), |i, j| {
            let (a, b) = (players[i], players[j]);
            self.allowed[a][b] && (top_half.is_none() || in_top[a] != in_top[b])
        })
        .has_perfect_matching()
    }

    /// Pairs `players` (ranks, ascending, known to be pairable) score group by score group, as `(higher,
    /// lower)` rank pairs.
    fn pair_groups(&mut self, players: &[usize]) -> Vec<(usize, usize)> {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for &r in players {
            match groups.last_mut() {
                Some(group) if self.scores[group[0]] == self.scores[r] => group.push(r),
                _ => groups.push(vec![r]),
            }
        }
        let mut pairs = Vec::new();
        let mut floaters: Vec<usize> = Vec::new();
        for g in 0..groups.len() {
            let bracket: Vec<usize> = floaters.iter().chain(&groups[g]).copied().collect();
            let below: Vec<usize> = groups[g + 1..].concat();
            match self.pair_bracket(&bracket, floaters.len(), &below) {
                Some(bracket) => {
                    pairs.extend(bracket.pairs);
                    floaters = bracket.down;
                }
                None => {
                    let rest: Vec<usize> = bracket.into_iter().chain(below).collect();
                    pairs.extend(self.pair_by_rank(&rest));
                    return pairs;
                }
            }
        }
        pairs
    }

    /// Pairs one bracket (players floated in from above first, then the group), floating down as few players
    /// as possible, the lowest-ranked first, such that the bracket's others and everyone below stay pairable.
    /// `None` when the budget runs out.
    fn pair_bracket(
        &mut self,
        bracket: &[usize],
        carried: usize,
        below: &[usize],
    ) -> Option<Bracket> {
        let n = bracket.len();
        // The last group has nobody below to float to.
        let sizes = (n % 2..=n)
            .step_by(2)
            .take_while(|&k| k == 0 || !below.is_empty());
        for k in sizes {
            let mut chosen: Vec<usize> = (0..k).collect();
            loop {
                if self.tests >= self.budget {
                    return None;
                }
                // `chosen` counts from the bottom of the bracket: 0 is its lowest-ranked player.
                let down: Vec<usize> = chosen.iter().rev().map(|&c| bracket[n - 1 - c]).collect();
                let stay: Vec<usize> = bracket
                    .iter()
                    .copied()
                    .filter(|r| !down.contains(r))
                    .collect();
                let below_and_down: Vec<usize> = {
                    let mut all: Vec<usize> = down.iter().chain(below).copied().collect();
                    all.sort_unstable();
                    all
                };
                if self.feasible(&stay, None) && self.feasible(&below_and_down, None) {
                    let still_carried = bracket[..carried]
                        .iter()
                        .filter(|r| stay.contains(r))
                        .count();
                    return Some(Bracket {
                        pairs: self.pair_bracket_players(&stay, still_carried),
                        down,
                    });
                }
                if !next_combination(&mut chosen, n) {
                    break;
                }
            }
        }
        // Only reached for the last group when it cannot be paired, which `feasible` ruled out before.
        None
    }

    /// Pairs a bracket's staying players (known pairable): first those floated in from above, each against the
    /// highest-ranked player it can meet; then the rest, the top half against the bottom half in order (1st v
    /// 1st, 2nd v 2nd, …) as far as that keeps the pairing possible, and across halves only when it cannot be
    /// done half against half.
    fn pair_bracket_players(&mut self, players: &[usize], carried: usize) -> Vec<(usize, usize)> {
        let mut left: Vec<usize> = players.to_vec();
        let mut pairs = Vec::new();
        // Step 1. Players floated in from above meet the group's highest players they can.
        for &floater in &players[..carried] {
            if !left.contains(&floater) {
                continue;
            }
            let is_floater = |r: &usize| players[..carried].contains(r);
            let residents = left.iter().copied().filter(|r| !is_floater(r));
            let floaters = left
                .iter()
                .copied()
                .filter(|&r| r != floater && is_floater(&r));
            let others: Vec<usize> = residents.chain(floaters).collect();
            let opponent = self.first_keeping_pairable(floater, &others, &left, None);
            pairs.push((floater.min(opponent), floater.max(opponent)));
            left.retain(|&r| r != floater && r != opponent);
        }
        // Step 2. Top half against bottom half.
        let top: Vec<usize> = left[..left.len() / 2].to_vec();
        let halves = self.feasible(&left, Some(&top));
        while let Some(&player) = left.first() {
            let bottom = left.iter().copied().filter(|r| !top.contains(r));
            let candidates: Vec<usize> = if halves {
                bottom.collect()
            } else {
                let top_from_below = left
                    .iter()
                    .rev()
                    .copied()
                    .filter(|&r| r != player && top.contains(&r));
                bottom
                    .filter(|&r| r != player)
                    .chain(top_from_below)
                    .collect()
            };
            let opponent =
                self.first_keeping_pairable(player, &candidates, &left, halves.then_some(&top));
            pairs.push((player, opponent));
            left.retain(|&r| r != player && r != opponent);
        }
        pairs
    }

    /// Pairs everyone in `players` (known pairable) by rank: the highest against the next one down whom it
    /// can meet while the rest stay pairable. The fallback when the budget runs out.
    fn pair_by_rank(&mut self, players: &[usize]) -> Vec<(usize, usize)> {
        let mut left: Vec<usize> = players.to_vec();
        let mut pairs = Vec::new();
        while let Some(&player) = left.first() {
            let candidates = left[1..].to_vec();
            let opponent = self.first_keeping_pairable(player, &candidates, &left, None);
            pairs.push((player, opponent));
            left.retain(|&r| r != player && r != opponent);
        }
        pairs
    }

    /// The first of `candidates` that `player` may meet such that the rest of `left` stays pairable.
    fn first_keeping_pairable(
        &mut self,
        player: usize,
        candidates: &[usize],
        left: &[usize],
        top_half: Option<&[usize]>,
    ) -> usize {
        for &candidate in candidates {
            if !self.allowed[player][candidate] {
                continue;
            }
            let rest: Vec<usize> = left
                .iter()
                .copied()
                .filter(|&r| r != player && r != candidate)
                .collect();
            if self.feasible(&rest, top_half) {
                return candidate;
            }
        }
        unreachable!("the players left were known to be pairable")
    }
}

/// Steps `chosen` (ascending indices below `n`) to the next combination of the same size in lexicographic
/// order; false after the last.
fn next_combination(chosen: &mut [usize], n: usize) -> bool {
    let k = chosen.len();
    for i in (0..k).rev() {
        if chosen[i] < n - k + i {
            chosen[i] += 1;
            for j in i + 1..k {
                chosen[j] = chosen[j - 1] + 1;
            }
            return true;
        }
    }
    false
}
