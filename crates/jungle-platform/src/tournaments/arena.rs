//! Arena tournaments as lichess runs them (docs/tournaments.md §2): points per game with streaks and
//! berserk, and the pairing of whoever is free at a moment.

use super::PlayerId;

/// A game's result for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Win,
    Draw,
    Loss,
}

/// One finished arena game from one player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    pub result: GameResult,
    /// The player halved their own clock at the start for a bonus point on a win.
    pub berserk: bool,
}

/// A player's arena points: the total, what each game earned, and whether the next game counts double.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Points {
    pub total: u32,
    pub per_game: Vec<u32>,
    /// Two wins in a row or more: the next win or draw counts double.
    pub on_fire: bool,
}

/// Scores a player's games in the order played: 2 for a win, 1 for a draw, 0 for a loss; after two wins in
/// a row, each game counts double until one is not a win; a berserk win earns 1 more, never doubled.
pub fn points(games: &[Game]) -> Points {
    let mut points = Points::default();
    let mut wins_in_row = 0;
    for game in games {
        let base = match game.result {
            GameResult::Win => 2,
            GameResult::Draw => 1,
            GameResult::Loss => 0,
        };
        let bonus = u32::from(game.berserk && game.result == GameResult::Win);
        let earned = if points.on_fire { 2 * base } else { base } + bonus;
        points.per_game.push(earned);
        points.total += earned;
        wins_in_row = if game.result == GameResult::Win {
            wins_in_row + 1
        } else {
            0
        };
        points.on_fire = wins_in_row >= 2;
    }
    points
}

/// A player waiting for a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Free {
    pub id: PlayerId,
    pub points: u32,
    pub rating: u32,
    /// Whom they played last in this arena.
    pub last_opponent: Option<PlayerId>,
}

/// How many steps the search for a pairing without a rematch may take before settling for rematches.
/// Forbidden pairs are at most one per player, so a search that needs more than a few steps per player is
/// looking at a pool where rematches cannot be avoided.
const SEARCH_BUDGET: usize = 10_000;

/// Pairs the free players (docs/tournaments.md §2.2): ordered by points then rating (ties in the given order),
/// each meets the nearest one below whom they did not just play, searching further down only when the nearest
/// leaves the rest without such a pairing; with an odd number one waits, normally the lowest. Only when no
/// such pairing exists (or it is not found within the budget) do rematches happen, each player then taking the
/// nearest one below, preferring a new opponent.
pub fn pair(free: &[Free]) -> Vec<(PlayerId, PlayerId)> {
    let mut order: Vec<&Free> = free.iter().collect();
    order.sort_by(|a, b| b.points.cmp(&a.points).then(b.rating.cmp(&a.rating)));
    let rematch =
        |a: &Free, b: &Free| a.last_opponent == Some(b.id) || b.last_opponent == Some(a.id);

    let mut budget = SEARCH_BUDGET;
    let left: Vec<usize> = (0..order.len()).collect();
    let mut pairs = Vec::new();
    let found = search(
        &left,
        order.len() % 2 == 1,
        &mut budget,
        &mut pairs,
        &|a, b| !rematch(order[a], order[b]),
    );
    if !found {
        pairs.clear();
        let mut left = left;
        while left.len() >= 2 {
            let player = left[0];
            let opponent = left[1..]
                .iter()
                .copied()
                .find(|&o| !rematch(order[player], order[o]))
                .unwrap_or(left[1]);
            pairs.push((player, opponent));
            left.retain(|&r| r != player && r != opponent);
        }
    }
    pairs
        .into_iter()
        .map(|(a, b)| (order[a].id, order[b].id))
        .collect()
}

/// Pairs everyone in `left` (or all but one, when `may_wait`) with allowed opponents, nearest first;
/// false when impossible or out of budget.
fn search(
    left: &[usize],
    may_wait: bool,
    budget: &mut usize,
    pairs: &mut Vec<(usize, usize)>,
    allowed: &dyn Fn(usize, usize) -> bool,
) -> bool {
    let Some((&player, others)) = left.split_first() else {
        return true;
    };
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    for (i, &opponent) in others.iter().enumerate() {
        if !allowed(player, opponent) {
            continue;
        }
        let rest: Vec<usize> = others
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, &r)| r)
            .collect();
        pairs.push((player, opponent));
        if search(&rest, may_wait, budget, pairs, allowed) {
            return true;
        }
        pairs.pop();
    }
    may_wait && search(others, false, budget, pairs, allowed)
}
