//! Openings: Jungle has one start position, so without openings every game between two deterministic
//! engines would be the same. Openings come from EPD/FEN files, from PGN files (the start and the first
//! plies of each game), or from the built-in generator of random legal plies filtered by a balance check.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use jungle_rules::{Game, Position, Rules};
use rand::Rng;

use crate::game::Opening;

/// The format of an openings file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningFormat {
    /// One FEN per line (EPD: extra fields and `;` opcodes after the position are ignored).
    Epd,
    /// Games: each one's start position and first `plies` moves.
    Pgn,
}

impl FromStr for OpeningFormat {
    type Err = OpeningsError;
    fn from_str(s: &str) -> Result<Self, OpeningsError> {
        match s {
            "epd" | "fen" => Ok(OpeningFormat::Epd),
            "pgn" => Ok(OpeningFormat::Pgn),
            _ => Err(OpeningsError::Format(s.to_string())),
        }
    }
}

/// Openings that cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    #[error("openings: unknown format \"{0}\" (valid: epd, pgn)")]
    Format(String),
    #[error("openings: cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("openings: {path} line {line}: {message}")]
    Epd {
        path: PathBuf,
        line: usize,
        message: String,
    },
    #[error("openings: {path}: {source}")]
    Pgn {
        path: PathBuf,
        source: jungle_rules::pgn::ParsePgnError,
    },
    #[error("openings: {path} has no playable opening")]
    Empty { path: PathBuf },
    #[error("openings: no balanced opening of {plies} plies within {margin} cp was found")]
    NoneGenerated { plies: usize, margin: i32 },
}

/// Reads an openings file. With `max_plies`, PGN games are cut to their first plies. Positions that are
/// already decided under `rules` are skipped.
///
/// # Errors
/// [`OpeningsError`] naming the file and, for EPD, the line.
pub fn load(
    path: &Path,
    format: OpeningFormat,
    rules: &Rules,
    max_plies: Option<usize>,
) -> Result<Vec<Opening>, OpeningsError> {
    let text = std::fs::read_to_string(path).map_err(|source| OpeningsError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let openings = match format {
        OpeningFormat::Epd => {
            parse_epd(&text, rules).map_err(|(line, message)| OpeningsError::Epd {
                path: path.to_path_buf(),
                line,
                message,
            })?
        }
        OpeningFormat::Pgn => {
            parse_pgn(&text, rules, max_plies).map_err(|source| OpeningsError::Pgn {
                path: path.to_path_buf(),
                source,
            })?
        }
    };
    if openings.is_empty() {
        return Err(OpeningsError::Empty {
            path: path.to_path_buf(),
        });
    }
    Ok(openings)
}

/// EPD/FEN lines; blank lines and `#` comments are skipped. Errors carry the 1-based line number.
pub fn parse_epd(text: &str, rules: &Rules) -> Result<Vec<Opening>, (usize, String)> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split(';').next().unwrap_or("").trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let tokens: Vec<&str> = line.split_whitespace().collect();
        // A full FEN first; then EPD's four fields (placement, side, two placeholders); then two.
        let candidates = [tokens.len(), 4.min(tokens.len()), 2.min(tokens.len())];
        let mut first_error = None;
        let mut found = None;
        for n in candidates {
            match Position::from_fen(&tokens[..n].join(" "), rules) {
                Ok(pos) => {
                    found = Some(pos);
                    break;
                }
                Err(e) => {
                    first_error.get_or_insert(e.to_string());
                }
            }
        }
        let Some(start) = found else {
            return Err((i + 1, first_error.unwrap_or_default()));
        };
        if start.outcome(rules).is_none() {
            openings.push(Opening {
                start,
                moves: Vec::new(),
            });
        }
    }
    Ok(openings)
}

/// PGN games, each cut to `max_plies` (all moves without it). The match rules apply, not the files' tags:
/// a game that is not legal under them is an error.
pub fn parse_pgn(
    text: &str,
    rules: &Rules,
    max_plies: Option<usize>,
) -> Result<Vec<Opening>, jungle_rules::pgn::ParsePgnError> {
    let games = jungle_rules::pgn::read_games(text)?;
    let mut openings = Vec::new();
    for record in games {
        let source = &record.game;
        let mut game = Game::from_position(rules.clone(), *source.start_position());
        let mut moves = Vec::new();
        for &m in source.moves().iter().take(max_plies.unwrap_or(usize::MAX)) {
            // Stop at the end of the game: an opening must leave something to play.
            if game.play(m).is_err() || game.is_over() {
                break;
            }
            moves.push(m);
        }
        if game.is_over() {
            continue;
        }
        openings.push(Opening {
            start: *source.start_position(),
            moves,
        });
    }
    Ok(openings)
}

/// Generates `count` distinct openings of `plies` random legal plies from the rules' start position,
/// keeping only those `balanced` accepts (e.g. a shallow search says neither side is lost). Gives up after
/// `50 · count` tries, returning what it found.
pub fn generate(
    rules: &Rules,
    count: usize,
    plies: usize,
    rng: &mut impl Rng,
    balanced: &mut dyn FnMut(&Game) -> bool,
) -> Vec<Opening> {
    let mut seen = HashSet::new();
    let mut openings = Vec::new();
    let mut tries = 0;
    while openings.len() < count && tries < 50 * count.max(1) {
        tries += 1;
        let mut game = Game::new(rules.clone());
        for _ in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            game.play(m).expect("generated moves are legal");
        }
        if game.is_over() || game.moves().len() < plies {
            continue;
        }
        if !seen.insert(*game.position()) || !balanced(&game) {
            continue;
        }
        openings.push(Opening {
            start: *game.start_position(),
            moves: game.moves().to_vec(),
        });
    }
    openings
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use super::*;

    #[test]
    fn epd_lines_accept_fen_and_epd_shapes() {
        let rules = Rules::default();
        let text = "# a comment\n\
                    l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1\n\
                    \n\
                    l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b - - id \"x\";\n\
                    l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w\n";
        let openings = parse_epd(text, &rules).unwrap();
        assert_eq!(openings.len(), 3);
        assert_eq!(openings[0].start, Position::start(&rules));
        assert_eq!(openings[1].start.side_to_move(), jungle_rules::Side::Red);
    }

    #[test]
    fn bad_epd_lines_are_reported_with_their_number() {
        let rules = Rules::default();
        let (line, message) = parse_epd(
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w\nnot a fen\n",
            &rules,
        )
        .unwrap_err();
        assert_eq!(line, 2);
        assert!(!message.is_empty());
    }

    #[test]
    fn pgn_openings_are_cut_to_their_plies() {
        let rules = Rules::default();
        let text = "[Event \"?\"]\n\n1. a3a4 g7g6 2. a4a5 g6g5 *\n\n[Event \"?\"]\n\n1. g3g4 *\n";
        let openings = parse_pgn(text, &rules, Some(3)).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[0].moves.len(), 3);
        assert_eq!(openings[1].moves.len(), 1);
        assert!(parse_pgn("1. a3a9 *", &rules, None).is_err());
    }

    #[test]
    fn generated_openings_are_distinct_legal_and_filtered() {
        let rules = Rules::default();
        let mut rng = StdRng::seed_from_u64(7);
        let mut asked = 0;
        let openings = generate(&rules, 20, 6, &mut rng, &mut |_| {
            asked += 1;
            asked % 2 == 0
        });
        assert_eq!(openings.len(), 20);
        assert!(asked >= 40);
        let mut finals = HashSet::new();
        for o in &openings {
            let mut game = Game::from_position(rules.clone(), o.start);
            for &m in &o.moves {
                game.play(m).unwrap();
            }
            assert_eq!(o.moves.len(), 6);
            assert!(!game.is_over());
            assert!(finals.insert(*game.position()));
        }
    }
}
