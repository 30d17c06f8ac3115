//! Game records in PGN (docs/rules.md §8): the seven standard tags, `Variant`, `FEN` when the game does not
//! start from the start position of its board, `Rules` when the rules are not the standard ones, and
//! `Termination` when the game is over; moves in move notation with chess move numbers (`1...` when Red
//! moves first).
//!
//! Reading takes one or many games; comments (`{…}`, `; …`, `%` lines), NAGs (`$n`), move-quality marks
//! (`!`, `?`) and variations (`( … )`) are skipped, and every move is checked under the game's `Rules` and
//! `FEN` tags. Errors say where (game, line, column) and what.
//!
//! ```
//! use jungle_rules::{Game, Rules, pgn::PgnGame};
//! let mut game = Game::new(Rules::default());
//! game.play_text("a3a4").unwrap();
//! let mut record = PgnGame::new(game);
//! record.set_tag("White", "Ann").unwrap();
//! let text = record.to_string();
//! assert!(text.contains("[White \"Ann\"]") && text.contains("1. a3a4 *"));
//! let back: PgnGame = text.parse().unwrap();
//! assert_eq!(back.tag("White"), Some("Ann"));
//! assert_eq!(back.game.moves(), record.game.moves());
//! ```

mod read;

use std::fmt;

pub use read::read_games;

use crate::{
    Game, IllegalMoveError, Move, Notation, NotationError, Outcome, ParseFenError, ParseMoveError,
    ParseTerminationError, Position, RulesError, Side,
};

/// The tags a [`PgnGame`] derives from its [`Game`] when written; they are never stored in its tag list.
pub const DERIVED_TAGS: [&str; 5] = ["Result", "Variant", "FEN", "Rules", "Termination"];

/// The standard tags written first, in this order (with `Result` after them), `?` when unknown.
const ROSTER: [(&str, &str); 6] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
];

/// Movetext lines are wrapped before this width, as PGN export format asks.
const LINE_WIDTH: usize = 80;

/// A game with its record's tags. The game carries the rules, start position, moves and result; the tag list
/// carries everything else (players, event, date, …), and the comments are written among the moves.
#[derive(Clone, Debug)]
pub struct PgnGame {
    tags: Vec<(String, String)>,
    /// Each comment with the number of moves before it, in the order they were added.
    comments: Vec<(usize, String)>,
    /// How the moves are written; reading accepts either notation and keeps the one the first move used.
    pub notation: Notation,
    pub game: Game,
}

/// A tag name PGN cannot hold (`set_tag`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TagError {
    #[error("tag name \"{0}\" should be letters, digits and underscores, starting with a letter")]
    BadName(String),
    #[error("tag \"{0}\" is written from the game itself (its rules, start position or result)")]
    Derived(String),
}

impl PgnGame {
    /// A record of `game` with no tags yet (written with `?` for the standard ones).
    pub fn new(game: Game) -> PgnGame {
        PgnGame {
            tags: Vec::new(),
            comments: Vec::new(),
            notation: Notation::Coordinates,
            game,
        }
    }

    /// Adds a comment to be written after the first `after_moves` moves (0: before the first move; past the
    /// last move: before the result), after any comment already there. A `}` in the text, which would end the
    /// comment early, is written as `)`, and line breaks as spaces. Reading skips comments.
    pub fn add_comment(&mut self, after_moves: usize, text: &str) {
        let text = text
            .chars()
            .map(|c| match c {
                '}' => ')',
                c if c.is_control() => ' ',
                c => c,
            })
            .collect();
        self.comments.push((after_moves, text));
    }

    /// The comments with the number of moves before each, in the order they were added.
    pub fn comments(&self) -> &[(usize, String)] {
        &self.comments
    }

    /// The tags other than the [`DERIVED_TAGS`], in the order they were read or set.
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// The value of a stored tag (not a derived one: ask [`PgnGame::game`] for those).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing an earlier value.
    ///
    /// # Errors
    /// [`TagError`] for a name PGN cannot hold or one of the [`DERIVED_TAGS`].
    pub fn set_tag(&mut self, name: &str, value: &str) -> Result<(), TagError> {
        if !is_tag_name(name) {
            return Err(TagError::BadName(name.to_string()));
        }
        if DERIVED_TAGS.contains(&name) {
            return Err(TagError::Derived(name.to_string()));
        }
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
        Ok(())
    }

    /// Removes a tag, returning its value.
    pub fn remove_tag(&mut self, name: &str) -> Option<String> {
        let i = self.tags.iter().position(|(n, _)| n == name)?;
        Some(self.tags.remove(i).1)
    }

    /// The result text: `1-0` (Blue won), `0-1` (Red won), `1/2-1/2`, or `*` while the game goes on.
    pub fn result(&self) -> &'static str {
        self.game.outcome().map_or("*", Outcome::result_str)
    }
}

fn is_tag_name(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn write_tag(f: &mut fmt::Formatter<'_>, name: &str, value: &str) -> fmt::Result {
    writeln!(f, "{}", tag_line(name, value))
}

/// A tag pair as PGN writes it, `[Name "value"]` with `\` and `"` escaped and control characters made spaces
/// (for other records built on this format: Hidden Jungle's).
pub fn tag_line(name: &str, value: &str) -> String {
    let mut escaped = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                escaped.push('\\');
                escaped.push(c);
            }
            // A tag is one line: control characters (newlines) become spaces.
            c if c.is_control() => escaped.push(' '),
            c => escaped.push(c),
        }
    }
    format!("[{name} \"{escaped}\"]")
}

/// Writes the record in PGN export format, ending with a blank line (so records can be concatenated).
impl fmt::Display for PgnGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let game = &self.game;
        for (name, default) in ROSTER {
            write_tag(f, name, self.tag(name).unwrap_or(default))?;
        }
        write_tag(f, "Result", self.result())?;
        write_tag(f, "Variant", "Jungle")?;
        let rules = game.rules();
        if *game.start_position() != Position::start(rules) {
            write_tag(f, "FEN", &game.start_position().to_string())?;
        }
        if !rules.is_standard() {
            write_tag(f, "Rules", &rules.to_string())?;
        }
        if let Some(outcome) = game.outcome() {
            write_tag(f, "Termination", outcome.termination.as_str())?;
        }
        for (name, value) in &self.tags {
            if !ROSTER.iter().any(|(n, _)| n == name) {
                write_tag(f, name, value)?;
            }
        }
        writeln!(f)?;

        // The movetext as tokens (a numbered move stays one token), then wrapped into lines.
        let moves = game.moves();
        let comments_after = |played: usize| {
            let last = played == moves.len();
            self.comments
                .iter()
                .filter(move |(after, _)| *after == played || (last && *after > played))
                .map(|(_, text)| format!("{{{text}}}"))
        };
        let mut tokens: Vec<String> = comments_after(0).collect();
        for (i, m) in moves.iter().enumerate() {
            let before = &game.positions()[i];
            let m = self.notation.write(before, *m);
            tokens.push(match before.side_to_move() {
                Side::Blue => format!("{}. {m}", before.move_number()),
                Side::Red if i == 0 => format!("{}... {m}", before.move_number()),
                Side::Red => m.to_string(),
            });
            tokens.extend(comments_after(i + 1));
        }
        tokens.push(self.result().to_string());
        let mut line = String::new();
        for token in &tokens {
            if !line.is_empty() && line.len() + 1 + token.len() >= LINE_WIDTH {
                writeln!(f, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(token);
        }
        writeln!(f, "{line}")?;
        writeln!(f)
    }
}

/// PGN text that is not a valid Jungle game record: where, and what.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("pgn: game {game}, line {line}, column {column}: {kind}")]
pub struct ParsePgnError {
    /// The game's number in the text, from 1.
    pub game: usize,
    /// Line and column (in characters), from 1.
    pub line: usize,
    pub column: usize,
    pub kind: PgnErrorKind,
}

/// What is wrong in PGN text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PgnErrorKind {
    #[error("bad tag: {0}")]
    BadTag(String),
    #[error("unterminated {0}")]
    Unterminated(&'static str),
    #[error("unexpected \"{0}\" in the moves")]
    Unexpected(String),
    #[error("bad move text: {0}")]
    BadMove(#[from] ParseMoveError),
    #[error("move {number} {mv}: {source}")]
    IllegalMove {
        number: String,
        mv: Move,
        source: IllegalMoveError,
    },
    #[error("move {number} {source}")]
    Notation {
        number: String,
        source: NotationError,
    },
    #[error("move {number} {mv} comes after the end of the game ({outcome})")]
    AfterEnd {
        number: String,
        mv: Move,
        outcome: Outcome,
    },
    #[error("Rules tag: {0}")]
    Rules(#[from] RulesError),
    #[error("FEN tag: {0}")]
    Fen(#[from] ParseFenError),
    #[error("Variant tag \"{0}\" is not Jungle")]
    Variant(String),
    #[error("Result tag \"{0}\" should be 1-0, 0-1, 1/2-1/2 or *")]
    BadResult(String),
    #[error("Termination tag: {0}")]
    Termination(#[from] ParseTerminationError),
    #[error("the record says {stated} but the moves give {actual}")]
    ResultMismatch { stated: String, actual: String },
    #[error("expected one game, found {0}")]
    GameCount(usize),
}

/// The PGN `Date` tag value (`YYYY.MM.DD`, UTC) of a Unix time in seconds. Pure: the caller reads the clock.
pub fn date_tag(unix_seconds: i64) -> String {
    // Civil-from-days for the proleptic Gregorian calendar (after Howard Hinnant's algorithm): shift the epoch to
    // 0000-03-01 so leap days fall at the end of a year, then split into 400-year eras.
    let z = unix_seconds.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod date_tests {
    use super::date_tag;

    #[test]
    fn date_tags_are_civil_dates() {
        assert_eq!(date_tag(0), "1970.01.01");
        assert_eq!(date_tag(951_782_400), "2000.02.29");
        assert_eq!(date_tag(19_782 * 86_400), "2024.02.29");
        assert_eq!(date_tag(1_796_000_000), "2026.11.30");
        assert_eq!(date_tag(-1), "1969.12.31");
    }
}
