//! The collection file: one puzzle per line as JSON (JSON Lines), ids unique.

use std::collections::HashSet;

use crate::{Line, Puzzle, PuzzleError};

/// The longest line a collection file may have.
pub const MAX_LINE_BYTES: usize = 8 * 1024;

/// A collection line that is not a valid puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CollectionError {
    #[error("line {line}: {reason}")]
    Syntax { line: usize, reason: String },
    #[error("line {line}: puzzle \"{id}\": {error}")]
    Puzzle {
        line: usize,
        id: String,
        error: PuzzleError,
    },
    #[error("line {line}: the id \"{id}\" is used twice")]
    DuplicateId { line: usize, id: String },
}

/// Reads a collection, checking every puzzle's structure and line ([`Puzzle::line`]); blank lines are skipped.
///
/// # Errors
/// The first bad line.
pub fn read_collection(text: &str) -> Result<Vec<(Puzzle, Line)>, CollectionError> {
    let mut out = Vec::new();
    let mut ids = HashSet::new();
    for (i, text) in text.lines().enumerate() {
        let line = i + 1;
        if text.trim().is_empty() {
            continue;
        }
        if text.len() > MAX_LINE_BYTES {
            return Err(CollectionError::Syntax {
                line,
                reason: format!("{} bytes, more than {MAX_LINE_BYTES}", text.len()),
            });
        }
        let puzzle: Puzzle = serde_json::from_str(text).map_err(|e| CollectionError::Syntax {
            line,
            reason: e.to_string(),
        })?;
        let replayed = puzzle.line().map_err(|error| CollectionError::Puzzle {
            line,
            id: puzzle.id.clone(),
            error,
        })?;
        if !ids.insert(puzzle.id.clone()) {
            return Err(CollectionError::DuplicateId {
                line,
                id: puzzle.id,
            });
        }
        out.push((puzzle, replayed));
    }
    Ok(out)
}

/// A collection's text: each puzzle as one JSON line.
pub fn write_collection(puzzles: &[Puzzle]) -> String {
    let mut out = String::new();
    for p in puzzles {
        out.push_str(&serde_json::to_string(p).expect("a puzzle serialises"));
        out.push('\n');
    }
    out
}
