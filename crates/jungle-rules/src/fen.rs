//! FEN text for positions (docs/rules.md §7): ranks 9 to 1, side `w` (Blue) or `b` (Red), then optionally
//! the quiet-ply count and the move number; chess-style `- -` placeholders after the side are ignored.
//!
//! ```
//! use jungle_rules::{Position, Rules};
//! let rules = Rules::default();
//! let pos = Position::from_fen("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w", &rules).unwrap();
//! assert_eq!(pos, Position::start(&rules));
//! assert_eq!(pos.to_string(), "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1");
//! ```

use crate::position::{PositionError, Setup};
use std::fmt;

use crate::{BoardKind, Piece, Position, Rules, Side, Square};

/// The start position of the Jungle board.
pub const START_FEN: &str = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1";
/// The start position of Animal Checkers: the Rat, Dog, Tiger and Elephant on their usual squares.
pub const ANIMAL_CHECKERS_START_FEN: &str = "6t/1d5/r5e/7/7/7/E5R/5D1/T6 w 0 1";

/// FEN text that is not a valid position; the message says where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseFenError {
    #[error("fen: empty")]
    Empty,
    #[error("fen: {found} ranks (need 9, separated by '/')")]
    RankCount { found: usize },
    #[error("fen: rank {rank} has {files} files (need 7)")]
    RankWidth { rank: u8, files: usize },
    #[error(
        "fen: rank {rank}: '{ch}' is not a piece letter (RCWDPTLE, lowercase for Red) or a digit 1-7"
    )]
    BadChar { rank: u8, ch: char },
    #[error("fen: missing the side to move (w or b)")]
    MissingSide,
    #[error("fen: side to move \"{text}\" should be w (Blue) or b (Red)")]
    BadSide { text: String },
    #[error("fen: {field} \"{text}\" is not a number")]
    BadCounter { field: &'static str, text: String },
    #[error("fen: unexpected \"{text}\" after the move number")]
    TrailingText { text: String },
    #[error("fen: {0}")]
    Invalid(#[from] PositionError),
}

/// Reads FEN text into an unvalidated [`Setup`].
///
/// # Errors
/// [`ParseFenError`] for text that is not FEN.
pub fn parse_setup(text: &str) -> Result<Setup, ParseFenError> {
    let mut fields = text.split_whitespace();
    let board_text = fields.next().ok_or(ParseFenError::Empty)?;
    let ranks: Vec<&str> = board_text.split('/').collect();
    if ranks.len() != 9 {
        return Err(ParseFenError::RankCount { found: ranks.len() });
    }
    let mut setup = Setup::default();
    for (row, rank_text) in ranks.iter().enumerate() {
        let rank = 8 - row as u8;
        let mut file = 0usize;
        for ch in rank_text.chars() {
            if let Some(run) = ch.to_digit(10).filter(|d| (1..=7).contains(d)) {
                file += run as usize;
            } else if let Some(piece) = Piece::from_fen_char(ch) {
                if let Some(sq) = Square::from_coords(file as u8, rank) {
                    setup.board[sq.index()] = Some(piece);
                }
                file += 1;
            } else {
                return Err(ParseFenError::BadChar { rank: rank + 1, ch });
            }
        }
        if file != 7 {
            return Err(ParseFenError::RankWidth {
                rank: rank + 1,
                files: file,
            });
        }
    }
    let side_text = fields.next().ok_or(ParseFenError::MissingSide)?;
    let mut side_chars = side_text.chars();
    setup.side_to_move = match (
        side_chars.next().and_then(Side::from_fen_char),
        side_chars.next(),
    ) {
        (Some(side), None) => side,
        _ => {
            return Err(ParseFenError::BadSide {
                text: side_text.to_string(),
            });
        }
    };
    let mut rest: Vec<&str> = fields.collect();
    let placeholders = rest.iter().take(2).take_while(|f| **f == "-").count();
    rest.drain(..placeholders);
    let counter = |field: &'static str, text: &str| {
        text.parse::<u32>()
            .ok()
            .filter(|_| text.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| ParseFenError::BadCounter {
                field,
                text: text.to_string(),
            })
    };
    if let Some(text) = rest.first() {
        setup.quiet_plies = counter("quiet-ply count", text)?;
    }
    if let Some(text) = rest.get(1) {
        setup.move_number = counter("move number", text)?;
    }
    if let Some(text) = rest.get(2) {
        return Err(ParseFenError::TrailingText {
            text: text.to_string(),
        });
    }
    Ok(setup)
}

/// Writes a position as FEN, counters included.
pub fn to_fen(pos: &Position) -> String {
    let mut out = String::with_capacity(48);
    for rank in (0..9u8).rev() {
        let mut empty = 0;
        for file in 0..7u8 {
            let sq = Square::from_coords(file, rank).expect("on board");
            match pos.piece_at(sq) {
                Some(piece) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(piece.fen_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(pos.side_to_move().fen_char());
    out.push_str(&format!(" {} {}", pos.quiet_plies(), pos.move_number()));
    out
}

impl Position {
    /// The start position of the rules' board.
    pub fn start(rules: &Rules) -> Position {
        let fen = match rules.options().board {
            BoardKind::Jungle => START_FEN,
            BoardKind::AnimalCheckers => ANIMAL_CHECKERS_START_FEN,
        };
        Position::from_fen(fen, rules).expect("the start positions are valid")
    }

    /// Reads and validates a FEN under the rules.
    ///
    /// # Errors
    /// [`ParseFenError`] saying what is wrong and where.
    pub fn from_fen(text: &str, rules: &Rules) -> Result<Position, ParseFenError> {
        let setup = parse_setup(text)?;
        Ok(Position::from_setup(&setup, rules)?)
    }
}

/// The FEN of the position.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&to_fen(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> ParseFenError {
        Position::from_fen(text, &Rules::default()).unwrap_err()
    }

    #[test]
    fn accepts_placeholders_and_optional_counters() {
        let rules = Rules::default();
        let a = Position::from_fen(
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w - - 3 7",
            &rules,
        )
        .unwrap();
        assert_eq!((a.quiet_plies(), a.move_number()), (3, 7));
        let b =
            Position::from_fen("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 5", &rules).unwrap();
        assert_eq!(
            (b.side_to_move(), b.quiet_plies(), b.move_number()),
            (Side::Red, 5, 1)
        );
    }

    #[test]
    fn errors_say_where_the_text_is_wrong() {
        assert_eq!(err(""), ParseFenError::Empty);
        assert_eq!(err("7/7 w"), ParseFenError::RankCount { found: 2 });
        assert_eq!(
            err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R1/1C3D1/T5L w"),
            ParseFenError::RankWidth { rank: 3, files: 8 }
        );
        assert_eq!(
            err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5X w"),
            ParseFenError::BadChar { rank: 1, ch: 'X' }
        );
        assert_eq!(
            err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L"),
            ParseFenError::MissingSide
        );
        assert_eq!(
            err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r").to_string(),
            "fen: side to move \"r\" should be w (Blue) or b (Red)"
        );
        assert!(matches!(
            err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w x"),
            ParseFenError::BadCounter { .. }
        ));
        assert!(matches!(
            err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1 9"),
            ParseFenError::TrailingText { .. }
        ));
        assert!(matches!(
            err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 0"),
            ParseFenError::Invalid(PositionError::MoveNumberZero)
        ));
        // Counters near u32::MAX would wrap as the game goes on, into a FEN that no longer parses.
        assert!(matches!(
            err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 4294967295"),
            ParseFenError::Invalid(PositionError::CounterTooLarge {
                field: "move number",
                ..
            })
        ));
        assert!(matches!(
            err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 4294967295 1"),
            ParseFenError::Invalid(PositionError::CounterTooLarge {
                field: "quiet-ply count",
                ..
            })
        ));
        // The largest accepted number still counts up after Red's move, far from wrapping.
        let max = crate::position::MAX_COUNTER;
        let largest = format!("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 {max}");
        let rules = Rules::default();
        let start = Position::from_fen(&largest, &rules).unwrap();
        let mut game = crate::Game::from_position(rules, start);
        let m = game.legal_moves()[0];
        game.play(m).unwrap();
        assert_eq!(game.position().move_number(), max + 1);
        assert!(matches!(
            err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5E w"),
            ParseFenError::Invalid(PositionError::Duplicate { .. })
        ));
        assert!(matches!(
            err("6t/7/7/7/7/1L5/7/7/7 w"),
            ParseFenError::Invalid(PositionError::InWater { .. })
        ));
        assert!(matches!(
            err("6t/7/7/7/7/7/7/7/3L3 w"),
            ParseFenError::Invalid(PositionError::InOwnDen { .. })
        ));
        assert!(matches!(
            err("7/7/7/7/7/7/7/7/7 w"),
            ParseFenError::Invalid(PositionError::Empty)
        ));
        assert!(matches!(
            err("3l3/7/7/7/7/7/7/7/3L3 b"),
            ParseFenError::Invalid(PositionError::InOwnDen { .. })
        ));
        assert!(matches!(
            err("3L3/7/7/7/7/7/7/7/3l3 b"),
            ParseFenError::Invalid(PositionError::BothDensEntered)
        ));
    }

    #[test]
    fn validation_depends_on_the_rules() {
        let dog_in_water = "6t/7/7/7/7/1D5/7/7/7 w";
        assert!(Position::from_fen(dog_in_water, &Rules::default()).is_err());
        assert!(Position::from_fen(dog_in_water, &"dog-swims=true".parse().unwrap()).is_ok());
        let lion_checkers = "6t/7/7/7/7/7/7/7/L6 w";
        assert!(Position::from_fen(lion_checkers, &"animal-checkers".parse().unwrap()).is_err());
        let lion_on_trap = "6t/7/7/7/7/7/7/7/2L4 w";
        assert!(Position::from_fen(lion_on_trap, &Rules::default()).is_ok());
        assert!(Position::from_fen(lion_on_trap, &"trap-max-rank=4".parse().unwrap()).is_err());
    }
}
