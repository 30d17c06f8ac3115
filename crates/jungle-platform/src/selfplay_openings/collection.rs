//! The text of a self-play collection: a few `#` lines (what made it), then one game a line — its result
//! (`blue`, `red` or `draw`) and its first moves as squares (`blue a3a4 g7g6 …`). Text, so a collection can be
//! read, diffed and appended to; compressed with zstd when shipped.

use jungle_rules::{Game, Move, Rules, Side};
use thiserror::Error;

/// The first line of every collection, naming the format.
pub const HEADER: &str = "# jungle self-play openings v1";

/// A collection that does not read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum CollectionError {
    #[error("the collection does not unpack: {0}")]
    Unpack(String),
    #[error("not a self-play collection (its first line is not \"{HEADER}\")")]
    NotACollection,
    #[error("line {line}: no \"# rules …\" line before the first game")]
    NoRules { line: usize },
    #[error("line {line}: rules: {reason}")]
    BadRules { line: usize, reason: String },
    #[error("line {line}: \"{word}\" is not a result (blue, red or draw)")]
    BadResult { line: usize, word: String },
    #[error("line {line}: move {ply} (\"{mv}\"): {reason}")]
    BadMove {
        line: usize,
        ply: usize,
        mv: String,
        reason: String,
    },
}

/// One game of a collection: who won (`None`: a draw) and its moves from the rules' start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CollectedGame {
    pub winner: Option<Side>,
    pub moves: Vec<Move>,
}

/// A collection read: its rules and games.
#[derive(Clone, Debug)]
pub struct Collection {
    pub rules: Rules,
    pub games: Vec<CollectedGame>,
}

fn result_word(winner: Option<Side>) -> &'static str {
    match winner {
        Some(Side::Blue) => "blue",
        Some(Side::Red) => "red",
        None => "draw",
    }
}

/// The header lines of a collection under `rules`, `comment` saying how it was made.
pub fn header(rules: &Rules, comment: &str) -> String {
    format!("{HEADER}\n# rules {rules}\n# {comment}\n")
}

/// One game's line (no newline).
pub fn game_line(game: &CollectedGame) -> String {
    let mut line = result_word(game.winner).to_string();
    for m in &game.moves {
        line.push(' ');
        line.push_str(&m.to_string());
    }
    line
}

/// Reads a collection; every game must replay legally from the rules' start.
///
/// # Errors
/// The first line that does not read, and why.
pub fn read(text: &str) -> Result<Collection, CollectionError> {
    let mut lines = text.lines().enumerate();
    if lines.next().map(|(_, l)| l.trim()) != Some(HEADER) {
        return Err(CollectionError::NotACollection);
    }
    let mut rules = None;
    let mut games = Vec::new();
    for (index, line) in lines {
        let number = index + 1;
        let line = line.trim();
        if let Some(comment) = line.strip_prefix('#') {
            if let Some(text) = comment.trim().strip_prefix("rules ") {
                let parsed =
                    text.trim()
                        .parse::<Rules>()
                        .map_err(|e| CollectionError::BadRules {
                            line: number,
                            reason: e.to_string(),
                        })?;
                rules = Some(parsed);
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let rules = rules
            .as_ref()
            .ok_or(CollectionError::NoRules { line: number })?;
        games.push(read_game(rules, number, line)?);
    }
    let rules = rules.ok_or(CollectionError::NoRules { line: 1 })?;
    Ok(Collection { rules, games })
}

fn read_game(rules: &Rules, line: usize, text: &str) -> Result<CollectedGame, CollectionError> {
    let mut words = text.split_whitespace();
    let winner = match words.next() {
        Some("blue") => Some(Side::Blue),
        Some("red") => Some(Side::Red),
        Some("draw") => None,
        other => {
            return Err(CollectionError::BadResult {
                line,
                word: other.unwrap_or("").chars().take(20).collect(),
            });
        }
    };
    let mut game = Game::new(rules.clone());
    let mut moves = Vec::new();
    for (index, word) in words.enumerate() {
        let m = game.play_text(word).map_err(|e| CollectionError::BadMove {
            line,
            ply: index + 1,
            mv: word.chars().take(20).collect(),
            reason: e.to_string(),
        })?;
        moves.push(m);
    }
    Ok(CollectedGame { winner, moves })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_games() -> String {
        let rules = Rules::default();
        let mut text = header(&rules, "two games by hand");
        text.push_str("blue a3a4 g7g6\n\n");
        text.push_str("draw\n");
        text.push_str("red a3a4 a7a6\n");
        text
    }

    #[test]
    fn a_collection_reads_back_what_was_written() {
        let collection = read(&two_games()).unwrap();
        assert!(collection.rules.is_standard());
        assert_eq!(collection.games.len(), 3);
        assert_eq!(collection.games[0].winner, Some(Side::Blue));
        assert_eq!(game_line(&collection.games[0]), "blue a3a4 g7g6");
        assert_eq!(game_line(&collection.games[1]), "draw");
        assert_eq!(game_line(&collection.games[2]), "red a3a4 a7a6");
    }

    #[test]
    fn what_does_not_read_is_named_with_its_line() {
        assert_eq!(
            read("blue a3a4").unwrap_err(),
            CollectionError::NotACollection
        );
        assert_eq!(
            read(&format!("{HEADER}\nblue a3a4\n")).unwrap_err(),
            CollectionError::NoRules { line: 2 }
        );
        assert!(matches!(
            read(&format!("{HEADER}\n# rules nonsense\n")).unwrap_err(),
            CollectionError::BadRules { line: 2, .. }
        ));
        let bad_result = two_games().replace("draw\n", "won a3a4\n");
        assert_eq!(
            read(&bad_result).unwrap_err(),
            CollectionError::BadResult {
                line: 6,
                word: "won".into()
            }
        );
        let illegal = two_games().replace("blue a3a4 g7g6", "blue a3a4 a4a5");
        assert!(matches!(
            read(&illegal).unwrap_err(),
            CollectionError::BadMove {
                line: 4,
                ply: 2,
                ..
            }
        ));
    }
}
