//! Puzzles from engine self-play: games at a fixed node budget with MultiPV 2, whose critical moments (one
//! decisive move, every other clearly worse — [`crate::decisive`]) are searched again far deeper; only those
//! the deep search confirms become puzzles.

use jungle_rules::terrain::{DENS, Direction};
use jungle_rules::{Game, Move, Position, Rules};
use jungle_search::{Engine, EngineOptions, Limits, Score};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};

use crate::judge::{decisive, judge, reply};
use crate::{Eval, Line, Puzzle, Source, Verification};

/// How to play the games and check their moments.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    /// Nodes per move of the games.
    pub nodes: u64,
    /// Nodes of the deep search that confirms each solver's move.
    pub verify_nodes: u64,
    /// Random moves at the start of each game, for variety (`4..=9` by the game's seed).
    pub random_plies: std::ops::RangeInclusive<u32>,
    /// A game stops after this many plies.
    pub max_plies: u32,
    /// The most solver's moves in a line.
    pub max_solver_moves: usize,
    pub seed: u64,
}

impl Default for SelfPlay {
    fn default() -> SelfPlay {
        SelfPlay {
            nodes: 10_000,
            verify_nodes: 1_000_000,
            random_plies: 4..=9,
            max_plies: 160,
            max_solver_moves: 3,
            seed: 1,
        }
    }
}

impl SelfPlay {
    /// The prefix of this run's puzzle ids: `game` for the games of the first collection (seed 1, 10,000 nodes
    /// a move), `game-s{seed}-n{nodes}` for any other run. Every run numbers its games from 1, so without the
    /// seed and budget in the id two runs would give different puzzles one id; the first run's ids stay as they
    /// were because the daily puzzle and the ratings refer to them.
    pub fn id_prefix(&self) -> String {
        let first = SelfPlay::default();
        if self.seed == first.seed && self.nodes == first.nodes {
            "game".to_string()
        } else {
            format!("game-s{}-n{}", self.seed, self.nodes)
        }
    }
}

/// The line of a critical moment by the deep search: the solver's decisive move ([`crate::decisive`]), the
/// searched reply, and on while the solver's next move is the only one keeping the advantage
/// ([`crate::judge::only_move`]; at most `max_solver_moves`), ending on a solver's move. `None` when the first
/// move is not decisive by the deep search. Returns the first move's scores too.
pub fn search_line(
    pos: &Position,
    rules: &Rules,
    nodes: u64,
    max_solver_moves: usize,
) -> Option<(Line, Score, Score)> {
    let first = judge(pos, rules, nodes).filter(|j| j.is_decisive())?;
    let second = first.second_score?;
    let solver = pos.side_to_move();
    let mut positions = vec![*pos];
    let mut moves = vec![first.best];
    positions.push(pos.after(first.best));
    while moves.len() < 2 * max_solver_moves - 1 {
        let after = *positions.last().expect("the start");
        if after.outcome(rules).is_some() {
            break;
        }
        let Some(answer) = reply(&after, rules, nodes) else {
            break;
        };
        let next = after.after(answer);
        if next.outcome(rules).is_some() {
            break;
        }
        let Some(j) = judge(&next, rules, nodes).filter(|j| j.is_only_move()) else {
            break;
        };
        moves.extend([answer, j.best]);
        positions.extend([next, next.after(j.best)]);
    }
    let line = Line {
        rules: rules.clone(),
        solver,
        moves,
        positions,
    };
    Some((line, first.best_score, second))
}

/// Whether a moment is a puzzle at all: no forced reply to a piece at the solver's den (the only move would
/// be the capture), and the first move is not a den entry (the one-move win is no puzzle).
fn worth_a_look(pos: &Position, best: Move) -> bool {
    let me = pos.side_to_move();
    let den = DENS[me];
    let attacked = Direction::ALL.into_iter().any(|d| {
        let (df, dr) = d.delta();
        den.offset(df, dr)
            .is_some_and(|sq| pos.side(!me).contains(sq))
    });
    !attacked && best.to != DENS[!me]
}

/// Whether a line shows what it wins: a theme ([`crate::Theme`]), and a forced win or a capture — a quiet move
/// the search merely likes is no puzzle.
fn has_a_point(line: &Line, best: Score) -> bool {
    let themes = crate::themes_of(line);
    !themes.is_empty()
        && (matches!(best, Score::Mate(n) if n > 0) || themes.contains(&crate::Theme::Capture))
}

/// Plays game `number` of the run and returns its puzzles (ids `{prefix}-{number}-{ply}`), each confirmed by
/// the deep search. `on_candidate` hears of every moment the game's own search found decisive.
pub fn game_puzzles(
    options: &SelfPlay,
    number: u32,
    prefix: &str,
    on_candidate: &mut dyn FnMut(u32, bool),
) -> Vec<Puzzle> {
    let rules = Rules::default();
    let mut rng = StdRng::seed_from_u64(options.seed ^ (u64::from(number) << 20));
    let mut game = Game::new(rules.clone());
    let random = rng.random_range(options.random_plies.clone());
    for _ in 0..random {
        let legal = game.legal_moves();
        let Some(&m) = legal.as_slice().choose(&mut rng) else {
            return Vec::new();
        };
        if game.play(m).is_err() || game.is_over() {
            return Vec::new();
        }
    }
    // The game's own searches evaluate by hand, as the judge's do (`judge::fresh_engine`): the collection was
    // made so, and a seed must keep giving its games.
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        threads: 1,
        multipv: 2,
        use_nnue: false,
        ..EngineOptions::default()
    });
    let mut found = Vec::new();
    let mut quiet_until = 0;
    while !game.is_over() && (game.moves().len() as u32) < options.max_plies {
        let ply = game.moves().len() as u32;
        engine.set_game(&game);
        let mut lines: Vec<(u32, usize, Score)> = Vec::new();
        let result = engine.go(&Limits::nodes(options.nodes), &mut |info| {
            lines.push((info.depth, info.multipv, info.score));
        });
        let Some(best) = result.best_move else { break };
        let pos = *game.position();
        let depth = lines.iter().filter(|l| l.1 == 2).map(|l| l.0).max();
        let score_of = |k| {
            lines
                .iter()
                .rev()
                .find(|l| Some(l.0) == depth && l.1 == k)
                .map(|l| l.2)
        };
        let candidate = ply >= quiet_until
            && worth_a_look(&pos, best)
            && matches!((score_of(1), score_of(2)), (Some(b), s @ Some(_)) if decisive(b, s));
        if candidate {
            let line = search_line(&pos, &rules, options.verify_nodes, options.max_solver_moves)
                .filter(|(line, best, _)| {
                    worth_a_look(&pos, line.moves[0]) && has_a_point(line, *best)
                });
            on_candidate(ply, line.is_some());
            if let Some((line, best_score, second)) = line {
                quiet_until = ply + line.moves.len() as u32 + 1;
                found.push(Puzzle::new(
                    format!("{prefix}-{number}-{ply}"),
                    &line,
                    Source::Game {
                        seed: options.seed,
                        game: number,
                        ply,
                        nodes: options.nodes,
                    },
                    Verification::Search {
                        nodes: options.verify_nodes,
                        best: Eval::from(best_score),
                        second: Eval::from(second),
                    },
                ));
            }
        }
        if game.play(best).is_err() {
            break;
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_with_another_seed_or_budget_get_ids_of_their_own() {
        let first = SelfPlay::default();
        assert_eq!(first.id_prefix(), "game");
        let other_seed = SelfPlay {
            seed: 2,
            ..SelfPlay::default()
        };
        let other_budget = SelfPlay {
            nodes: 3_000,
            ..SelfPlay::default()
        };
        assert_eq!(other_seed.id_prefix(), "game-s2-n10000");
        assert_eq!(other_budget.id_prefix(), "game-s1-n3000");
        // The longest id such a run can give is still a puzzle id.
        let longest = SelfPlay {
            seed: 9_999,
            nodes: 1_000_000,
            ..SelfPlay::default()
        };
        assert!(crate::is_puzzle_id(&format!(
            "{}-{}-{}",
            longest.id_prefix(),
            u32::MAX,
            999
        )));
    }
}
