//! One puzzle: a position, the line that solves it, where it came from and how it was checked — and the
//! replay of that line under the rules, which every reader of a collection goes through.

use jungle_rules::{Move, Position, Rules, Side};
use serde::{Deserialize, Serialize};

use crate::Theme;
use crate::themes::themes_of;

/// The longest puzzle id accepted.
pub const MAX_ID_LEN: usize = 40;
/// The longest solution line accepted (solver's moves and replies together).
pub const MAX_SOLUTION_PLIES: usize = 31;

/// A puzzle as the collection file stores it (one JSON object per line).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Puzzle {
    /// Lower-case letters, digits and `-`; unique in a collection.
    pub id: String,
    /// The position, side to move = the solver.
    pub fen: String,
    /// The rule option string (`standard` for every puzzle made so far).
    pub rules: String,
    /// The solver, `blue` or `red` (the side to move in `fen`).
    pub side: String,
    /// The solver's moves and the defender's replies, alternating, starting and ending with the solver's.
    pub solution: Vec<String>,
    /// Derived from the solution's moves ([`themes_of`]); a stored list that differs is refused.
    pub themes: Vec<Theme>,
    pub source: Source,
    pub verified: Verification,
}

/// Where a puzzle was found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Source {
    /// A position of a tablebase material (key such as `LR-e`).
    Tablebase { material: String },
    /// A position of an engine self-play game: the run's seed, the game's number in the run, the ply, and
    /// the nodes per move the game was played with.
    Game {
        seed: u64,
        game: u32,
        ply: u32,
        nodes: u64,
    },
}

/// How the generator checked a puzzle (what `jungle puzzles verify` checks again).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Verification {
    /// By the tables: at every solver's turn exactly one move keeps the win, each reply delays the loss the
    /// longest, and the solver wins in `plies` plies from the puzzle's position.
    Tablebase { plies: u32 },
    /// By a MultiPV search of `nodes` nodes at every solver's turn: the solution's move is the best; the first
    /// is decisive ([`crate::decisive`]), each later one the only move keeping the advantage
    /// ([`crate::judge::only_move`]). The scores are those of the first move.
    Search {
        nodes: u64,
        best: Eval,
        second: Eval,
    },
}

/// A search score, as stored: centipawns or a forced result in plies, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Eval {
    Cp(i32),
    WinIn(i32),
    LossIn(i32),
}

impl From<jungle_search::Score> for Eval {
    fn from(score: jungle_search::Score) -> Eval {
        match score {
            jungle_search::Score::Cp(cp) => Eval::Cp(cp),
            jungle_search::Score::Mate(n) if n > 0 => Eval::WinIn(n),
            jungle_search::Score::Mate(n) => Eval::LossIn(-n),
        }
    }
}

/// Why a puzzle is not a valid one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    #[error(
        "id \"{id}\": ids are 1 to {MAX_ID_LEN} lower-case letters, digits and '-'",
        id = .0.chars().take(MAX_ID_LEN + 1).collect::<String>()
    )]
    BadId(String),
    #[error("rules: {0}")]
    Rules(String),
    #[error("fen: {0}")]
    Fen(String),
    #[error("side \"{0}\": the solver is \"blue\" or \"red\", the side to move")]
    Side(String),
    #[error(
        "the solution has {0} moves: it needs the solver's moves and the replies, odd, 1 to {MAX_SOLUTION_PLIES}"
    )]
    SolutionLength(usize),
    #[error("solution move {ply}: {reason}")]
    Move { ply: usize, reason: String },
    #[error("the game is over after solution move {0}, but the line goes on")]
    OverTooSoon(usize),
    #[error("the solution ends in a position lost for the solver")]
    SolverLost,
    #[error("themes {stored:?} are not the ones the solution shows: {derived:?}")]
    Themes {
        stored: Vec<Theme>,
        derived: Vec<Theme>,
    },
}

/// A puzzle replayed under its rules: every position of the line, the first before any move.
#[derive(Clone, Debug)]
pub struct Line {
    pub rules: Rules,
    pub solver: Side,
    pub moves: Vec<Move>,
    /// `moves.len() + 1` positions.
    pub positions: Vec<Position>,
}

impl Line {
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }
}

/// `blue` / `red`.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::Blue => "blue",
        Side::Red => "red",
    }
}

/// Whether `id` is a well-formed puzzle id.
pub fn is_puzzle_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID_LEN
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

impl Puzzle {
    /// A puzzle of `line` with its themes derived from it.
    pub fn new(id: String, line: &Line, source: Source, verified: Verification) -> Puzzle {
        Puzzle {
            id,
            fen: jungle_rules::fen::to_fen(line.start()),
            rules: line.rules.to_string(),
            side: side_name(line.solver).to_string(),
            solution: line.moves.iter().map(Move::to_string).collect(),
            themes: themes_of(line),
            source,
            verified,
        }
    }

    /// Checks the puzzle's structure and replays its solution: a good id, rules and FEN, the solver to move,
    /// an odd number of legal moves that do not run past the end of the game nor end in the solver's loss,
    /// and the themes the moves show.
    ///
    /// # Errors
    /// The first thing wrong, as a [`PuzzleError`].
    pub fn line(&self) -> Result<Line, PuzzleError> {
        if !is_puzzle_id(&self.id) {
            return Err(PuzzleError::BadId(self.id.clone()));
        }
        let rules: Rules = self
            .rules
            .parse()
            .map_err(|e: jungle_rules::RulesError| PuzzleError::Rules(e.to_string()))?;
        let start =
            Position::from_fen(&self.fen, &rules).map_err(|e| PuzzleError::Fen(e.to_string()))?;
        let solver = match self.side.as_str() {
            "blue" => Side::Blue,
            "red" => Side::Red,
            _ => return Err(PuzzleError::Side(self.side.clone())),
        };
        if start.side_to_move() != solver {
            return Err(PuzzleError::Side(self.side.clone()));
        }
        let n = self.solution.len();
        if n.is_multiple_of(2) || n > MAX_SOLUTION_PLIES {
            return Err(PuzzleError::SolutionLength(n));
        }
        let mut positions = vec![start];
        let mut moves = Vec::with_capacity(n);
        for (ply, text) in self.solution.iter().enumerate() {
            let pos = *positions.last().expect("at least the start");
            if pos.outcome(&rules).is_some() {
                return Err(PuzzleError::OverTooSoon(ply));
            }
            let m = pos
                .parse_move(&rules, text)
                .map_err(|e| PuzzleError::Move {
                    ply: ply + 1,
                    reason: e.to_string(),
                })?;
            moves.push(m);
            positions.push(pos.after(m));
        }
        let end = positions.last().expect("at least the start");
        if end
            .outcome(&rules)
            .is_some_and(|o| o.winner != Some(solver))
        {
            return Err(PuzzleError::SolverLost);
        }
        let line = Line {
            rules,
            solver,
            moves,
            positions,
        };
        let derived = themes_of(&line);
        if derived != self.themes {
            return Err(PuzzleError::Themes {
                stored: self.themes.clone(),
                derived,
            });
        }
        Ok(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzle(fen: &str, solution: &[&str]) -> Puzzle {
        Puzzle {
            id: "t-1".into(),
            fen: fen.into(),
            rules: "standard".into(),
            side: "blue".into(),
            solution: solution.iter().map(|s| s.to_string()).collect(),
            themes: vec![Theme::DenRace],
            source: Source::Tablebase {
                material: "L-r".into(),
            },
            verified: Verification::Tablebase { plies: 1 },
        }
    }

    #[test]
    fn a_line_replays_and_bad_ones_say_what_is_wrong() {
        let good = puzzle("7/3L3/7/7/7/7/7/7/r6 w", &["d8d9"]);
        let line = good.line().unwrap();
        assert_eq!(line.moves.len(), 1);
        assert_eq!(line.solver, Side::Blue);

        let mut p = good.clone();
        p.id = "Bad Id".into();
        assert!(matches!(p.line(), Err(PuzzleError::BadId(_))));
        let mut p = good.clone();
        p.side = "red".into();
        assert!(matches!(p.line(), Err(PuzzleError::Side(_))));
        let mut p = good.clone();
        p.solution = vec!["d8d9".into(), "a1a2".into()];
        assert!(matches!(p.line(), Err(PuzzleError::SolutionLength(2))));
        let mut p = good.clone();
        p.solution = vec!["d8d6".into()];
        assert!(matches!(p.line(), Err(PuzzleError::Move { ply: 1, .. })));
        let mut p = good.clone();
        p.solution = vec!["d8d9".into(), "a1a2".into(), "d9d8".into()];
        assert!(matches!(p.line(), Err(PuzzleError::OverTooSoon(1))));
        let mut p = good.clone();
        p.themes = vec![Theme::Capture];
        assert!(matches!(p.line(), Err(PuzzleError::Themes { .. })));
        let mut p = good;
        p.fen = "nonsense".into();
        assert!(matches!(p.line(), Err(PuzzleError::Fen(_))));
    }

    #[test]
    fn puzzles_round_trip_through_json() {
        let p = puzzle("7/3L3/7/7/7/7/7/7/r6 w", &["d8d9"]);
        let text = serde_json::to_string(&p).unwrap();
        assert!(text.contains(r#""source":{"kind":"tablebase","material":"L-r"}"#));
        assert_eq!(serde_json::from_str::<Puzzle>(&text).unwrap(), p);
        let eval = serde_json::to_string(&Eval::WinIn(5)).unwrap();
        assert_eq!(eval, r#"{"win-in":5}"#);
    }
}
