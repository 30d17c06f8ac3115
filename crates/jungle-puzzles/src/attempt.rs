//! Playing a puzzle: the moves a solver has made so far against the solution. The server keeps no state
//! between moves: each request carries the line so far, which must follow the solution up to the solver's new
//! move.

use jungle_rules::Move;

use crate::Line;

/// What the solver's latest move does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Right, and the puzzle goes on: the defender's reply.
    Reply(Move),
    /// Right, and the puzzle is solved (the solution's last move, or any move that wins the game at once).
    Solved,
    /// Wrong: the puzzle is failed.
    Failed,
}

/// A line so far that cannot be judged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AttemptError {
    #[error("send the moves so far, ending with your move: an odd number, at most {0}")]
    Length(usize),
    #[error("move {ply} \"{text}\" is not the puzzle's line so far")]
    NotTheLine { ply: usize, text: String },
    #[error("move {ply}: {reason}")]
    Illegal { ply: usize, reason: String },
}

/// Judges the solver's latest move, the last of `played` (the solver's moves and the replies so far).
///
/// # Errors
/// An even or too long list, an earlier move that is not the solution's, or an illegal last move.
pub fn judge_attempt(line: &Line, played: &[String]) -> Result<Step, AttemptError> {
    let n = played.len();
    if n.is_multiple_of(2) || n > line.moves.len() {
        return Err(AttemptError::Length(line.moves.len()));
    }
    for (ply, (text, &expected)) in played.iter().zip(&line.moves).take(n - 1).enumerate() {
        if text.parse::<Move>().ok() != Some(expected) {
            return Err(AttemptError::NotTheLine {
                ply: ply + 1,
                text: text.chars().take(12).collect(),
            });
        }
    }
    let pos = &line.positions[n - 1];
    let m = pos
        .parse_move(&line.rules, &played[n - 1])
        .map_err(|e| AttemptError::Illegal {
            ply: n,
            reason: e.to_string(),
        })?;
    if m == line.moves[n - 1] {
        return Ok(match line.moves.get(n) {
            Some(&reply) => Step::Reply(reply),
            None => Step::Solved,
        });
    }
    let wins_at_once = pos
        .after(m)
        .outcome(&line.rules)
        .is_some_and(|o| o.winner == Some(line.solver));
    Ok(if wins_at_once {
        Step::Solved
    } else {
        Step::Failed
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Puzzle, Source, Theme, Verification};

    fn line() -> Line {
        // Blue's Lion d7 and Red's Rat a1: a3-step line checked only for its structure here.
        Puzzle {
            id: "t".into(),
            fen: "7/7/3L3/7/7/7/7/7/r6 w".into(),
            rules: "standard".into(),
            side: "blue".into(),
            solution: vec!["d7d8".into(), "a1a2".into(), "d8d9".into()],
            themes: vec![Theme::DenRace],
            source: Source::Tablebase {
                material: "L-r".into(),
            },
            verified: Verification::Tablebase { plies: 3 },
        }
        .line()
        .unwrap()
    }

    fn played(moves: &[&str]) -> Vec<String> {
        moves.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_solution_is_followed_move_by_move() {
        let line = line();
        assert_eq!(
            judge_attempt(&line, &played(&["d7d8"])),
            Ok(Step::Reply("a1a2".parse().unwrap()))
        );
        assert_eq!(
            judge_attempt(&line, &played(&["d7d8", "a1a2", "d8d9"])),
            Ok(Step::Solved)
        );
        assert_eq!(judge_attempt(&line, &played(&["d7c7"])), Ok(Step::Failed));
    }

    #[test]
    fn bad_lines_get_clear_errors() {
        let line = line();
        assert_eq!(judge_attempt(&line, &[]), Err(AttemptError::Length(3)));
        assert!(matches!(
            judge_attempt(&line, &played(&["d7d8", "a1a2"])),
            Err(AttemptError::Length(3))
        ));
        assert!(matches!(
            judge_attempt(&line, &played(&["d7c7", "a1a2", "d8d9"])),
            Err(AttemptError::NotTheLine { ply: 1, .. })
        ));
        assert!(matches!(
            judge_attempt(&line, &played(&["d7d5"])),
            Err(AttemptError::Illegal { ply: 1, .. })
        ));
        assert!(matches!(
            judge_attempt(&line, &played(&["zz"])),
            Err(AttemptError::Illegal { ply: 1, .. })
        ));
    }
}
