//! The search's verdict on a position: is there one move that wins (or wins material decisively) while every
//! other move is clearly worse? A MultiPV 2 search of a fixed number of nodes, one thread, a fresh engine each
//! time, so the same position always gets the same verdict.

use jungle_rules::{Game, Move, Position, Rules};
use jungle_search::{Engine, EngineOptions, Limits, Score};

/// The best move must score at least this much (a forced win always does).
pub const WIN_CP: i32 = 350;
/// The second best move may score at most this much and must not be a forced win.
pub const SECOND_MAX_CP: i32 = 150;
/// The second best must be at least this much below the best.
pub const MARGIN_CP: i32 = 300;

/// The two best moves' scores by a search, for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    pub best: Move,
    pub best_score: Score,
    /// `None` when the best move is the only legal one.
    pub second_score: Option<Score>,
    /// The depth both lines were completed at.
    pub depth: u32,
}

impl Judgement {
    /// Whether the best move is the puzzle's kind of first move: see [`decisive`].
    pub fn is_decisive(&self) -> bool {
        decisive(self.best_score, self.second_score)
    }

    /// Whether the best move is the only one that keeps the advantage: see [`only_move`].
    pub fn is_only_move(&self) -> bool {
        only_move(self.best_score, self.second_score)
    }
}

/// The rule the search puzzles follow: the best move is a forced win or at least [`WIN_CP`]; the second best
/// is no forced win, at most [`SECOND_MAX_CP`] and at least [`MARGIN_CP`] below the best (a forced win is
/// above every centipawn score). An only move counts when the best is winning.
pub fn decisive(best: Score, second: Option<Score>) -> bool {
    let winning = match best {
        Score::Mate(n) => n > 0,
        Score::Cp(cp) => cp >= WIN_CP,
    };
    let clearly_worse = match (best, second) {
        (_, None) => true,
        (_, Some(Score::Mate(n))) => n <= 0,
        (Score::Mate(_), Some(Score::Cp(s))) => s <= SECOND_MAX_CP,
        (Score::Cp(b), Some(Score::Cp(s))) => s <= SECOND_MAX_CP && s <= b - MARGIN_CP,
    };
    winning && clearly_worse
}

/// The rule for the solver's later moves, once the first has won the advantage: the best move is a forced win
/// or at least [`WIN_CP`], and the second best is no forced win and at least [`MARGIN_CP`] below it (below
/// a forced win any centipawn score is).
pub fn only_move(best: Score, second: Option<Score>) -> bool {
    let winning = match best {
        Score::Mate(n) => n > 0,
        Score::Cp(cp) => cp >= WIN_CP,
    };
    let clearly_worse = match (best, second) {
        (_, None) => true,
        (_, Some(Score::Mate(n))) => n <= 0,
        (Score::Mate(_), Some(Score::Cp(_))) => true,
        (Score::Cp(b), Some(Score::Cp(s))) => s <= b - MARGIN_CP,
    };
    winning && clearly_worse
}

/// Searches `pos` (no game history: the puzzle starts from its FEN) with MultiPV 2 for `nodes` nodes. `None`
/// when the game is over or no depth completed both lines.
pub fn judge(pos: &Position, rules: &Rules, nodes: u64) -> Option<Judgement> {
    let legal = pos.legal_moves(rules);
    if legal.is_empty() || pos.is_decided(rules) {
        return None;
    }
    let mut engine = fresh_engine(2);
    engine.set_game(&Game::from_position(rules.clone(), *pos));
    // The deepest depth at which every wanted line was reported.
    let wanted = legal.len().min(2);
    let mut lines: Vec<(u32, usize, Score, Move)> = Vec::new();
    engine.go(&Limits::nodes(nodes), &mut |info| {
        if let Some(&m) = info.pv.first() {
            lines.push((info.depth, info.multipv, info.score, m));
        }
    });
    let depth = lines.iter().filter(|l| l.1 == wanted).map(|l| l.0).max()?;
    let at = |k: usize| lines.iter().rev().find(|l| l.0 == depth && l.1 == k);
    let first = at(1)?;
    Some(Judgement {
        best: first.3,
        best_score: first.2,
        second_score: if wanted == 2 { Some(at(2)?.2) } else { None },
        depth,
    })
}

/// The defender's reply: the best move by a search of `nodes` nodes (one line).
pub fn reply(pos: &Position, rules: &Rules, nodes: u64) -> Option<Move> {
    let mut engine = fresh_engine(1);
    engine.set_game(&Game::from_position(rules.clone(), *pos));
    engine.go(&Limits::nodes(nodes), &mut |_| {}).best_move
}

/// A search of the puzzles' making and verifying: with the hand-written evaluation, not the engine's default
/// learned net, because the collection (docs/puzzles.md) was made with it and `verify` must repeat the very
/// searches that made it.
fn fresh_engine(multipv: usize) -> Engine {
    Engine::new(EngineOptions {
        hash_mb: 16,
        threads: 1,
        multipv,
        use_nnue: false,
        ..EngineOptions::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisive_needs_a_winning_best_and_a_clearly_worse_second() {
        assert!(decisive(Score::Mate(5), Some(Score::Cp(100))));
        assert!(decisive(Score::Cp(700), Some(Score::Cp(0))));
        assert!(decisive(Score::Mate(3), None));
        assert!(!decisive(Score::Cp(200), None), "not winning");
        assert!(!decisive(Score::Mate(5), Some(Score::Mate(9))), "two wins");
        assert!(
            !decisive(Score::Cp(700), Some(Score::Cp(300))),
            "second too good"
        );
        assert!(
            !decisive(Score::Cp(400), Some(Score::Cp(150))),
            "margin too small"
        );
        assert!(decisive(Score::Cp(450), Some(Score::Mate(-4))));
    }

    #[test]
    fn later_moves_need_only_the_margin() {
        assert!(only_move(Score::Cp(900), Some(Score::Cp(500))));
        assert!(!only_move(Score::Cp(900), Some(Score::Cp(700))));
        assert!(only_move(Score::Mate(7), Some(Score::Cp(800))));
        assert!(!only_move(Score::Mate(7), Some(Score::Mate(9))));
        assert!(
            !only_move(Score::Cp(300), Some(Score::Cp(-500))),
            "not winning"
        );
    }

    #[test]
    fn a_search_finds_the_only_den_entry() {
        let rules = Rules::default();
        // Blue's Lion next to the Red den, the Red Rat far away: entering wins, nothing else does as quickly
        // but the Lion stays next to the den after most moves, so the second best is also a win.
        let pos = Position::from_fen("7/3L3/7/7/7/7/7/7/r6 w", &rules).unwrap();
        let j = judge(&pos, &rules, 20_000).unwrap();
        assert_eq!(j.best.to_string(), "d8d9");
        assert_eq!(j.best_score, Score::Mate(1));
        assert!(!j.is_decisive(), "{j:?}: every Lion move still wins");
    }
}
