//! Game records in PGN (RULES.md, Notation): the seven standard tags, `Variant`, `FEN` when the game does not
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

use std::fmt;
use std::str::FromStr;

use crate::{
    Game, GameError, IllegalMoveError, Move, Outcome, ParseFenError, ParseMoveError,
    ParseTerminationError, Position, Rules, RulesError, Side, Termination,
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
/// carries everything else (players, event, date, …).
#[derive(Clone, Debug)]
pub struct PgnGame {
    tags: Vec<(String, String)>,
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
            game,
        }
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
    writeln!(f, "[{name} \"{escaped}\"]")
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

        let mut line = String::new();
        let mut push = |f: &mut fmt::Formatter<'_>, token: &str| -> fmt::Result {
            if !line.is_empty() && line.len() + 1 + token.len() >= LINE_WIDTH {
                writeln!(f, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(token);
            Ok(())
        };
        for (i, m) in game.moves().iter().enumerate() {
            let before = &game.positions()[i];
            match before.side_to_move() {
                Side::Blue => push(f, &format!("{}. {m}", before.move_number()))?,
                Side::Red if i == 0 => push(f, &format!("{}... {m}", before.move_number()))?,
                Side::Red => push(f, &m.to_string())?,
            }
        }
        push(f, self.result())?;
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

/// Reads every game of a PGN text (none for empty text).
///
/// # Errors
/// The first [`ParsePgnError`] met; no game is returned then.
pub fn read_games(text: &str) -> Result<Vec<PgnGame>, ParsePgnError> {
    // Files saved by some editors start with a byte-order mark.
    let mut cursor = Cursor::new(text.strip_prefix('\u{feff}').unwrap_or(text));
    let mut games = Vec::new();
    loop {
        let number = games.len() + 1;
        cursor
            .skip_trivia()
            .map_err(|(at, kind)| at.error(number, kind))?;
        if cursor.peek().is_none() {
            return Ok(games);
        }
        games.push(read_game(&mut cursor).map_err(|(at, kind)| at.error(number, kind))?);
    }
}

/// Reads exactly one game.
impl FromStr for PgnGame {
    type Err = ParsePgnError;

    fn from_str(text: &str) -> Result<PgnGame, ParsePgnError> {
        let mut games = read_games(text)?;
        if games.len() != 1 {
            let kind = PgnErrorKind::GameCount(games.len());
            return Err(At { line: 1, column: 1 }.error(games.len().max(1), kind));
        }
        Ok(games.remove(0))
    }
}

/// A place in the text.
#[derive(Clone, Copy, Debug)]
struct At {
    line: usize,
    column: usize,
}

impl At {
    fn error(self, game: usize, kind: PgnErrorKind) -> ParsePgnError {
        ParsePgnError {
            game,
            line: self.line,
            column: self.column,
            kind,
        }
    }
}

type Failure = (At, PgnErrorKind);

/// A character cursor that knows its line and column.
struct Cursor<'a> {
    rest: std::str::Chars<'a>,
    at: At,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Cursor<'a> {
        Cursor {
            rest: text.chars(),
            at: At { line: 1, column: 1 },
        }
    }

    fn peek(&self) -> Option<char> {
        self.rest.clone().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.rest.next()?;
        if c == '\n' {
            self.at.line += 1;
            self.at.column = 1;
        } else {
            self.at.column += 1;
        }
        Some(c)
    }

    /// Skips white space and comments: `{…}`, `;` to the end of the line, and `%` escape lines.
    fn skip_trivia(&mut self) -> Result<(), Failure> {
        while let Some(c) = self.peek() {
            match c {
                c if c.is_whitespace() => {
                    self.bump();
                }
                '{' => {
                    let start = self.at;
                    loop {
                        match self.bump() {
                            Some('}') => break,
                            Some(_) => {}
                            None => return Err((start, PgnErrorKind::Unterminated("comment"))),
                        }
                    }
                }
                ';' => self.skip_line(),
                '%' if self.at.column == 1 => self.skip_line(),
                _ => return Ok(()),
            }
        }
        Ok(())
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.bump() {
            if c == '\n' {
                break;
            }
        }
    }

    /// A run of characters up to white space or a PGN delimiter.
    fn symbol(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek() {
            if c.is_whitespace() || "{}()[];$\"".contains(c) {
                break;
            }
            s.push(c);
            self.bump();
        }
        s
    }

    /// `[Name "value"]`, the cursor on `[`.
    fn tag(&mut self) -> Result<(String, String, At), Failure> {
        let start = self.at;
        self.bump();
        self.skip_spaces();
        let name_at = self.at;
        let mut name = String::new();
        while let Some(c) = self
            .peek()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        {
            name.push(c);
            self.bump();
        }
        if !is_tag_name(&name) {
            let found = self
                .peek()
                .map_or("the end".to_string(), |c| format!("'{c}'"));
            return Err((
                name_at,
                PgnErrorKind::BadTag(format!("expected a tag name, found {found}")),
            ));
        }
        self.skip_spaces();
        if self.peek() != Some('"') {
            return Err((
                self.at,
                PgnErrorKind::BadTag(format!("tag {name} needs a quoted value")),
            ));
        }
        let value_at = self.at;
        self.bump();
        let mut value = String::new();
        loop {
            match self.bump() {
                Some('"') => break,
                Some('\\') => match self.bump() {
                    Some(c) if c != '\n' => value.push(c),
                    _ => return Err((value_at, PgnErrorKind::Unterminated("tag value"))),
                },
                Some('\n') | None => {
                    return Err((value_at, PgnErrorKind::Unterminated("tag value")));
                }
                Some(c) => value.push(c),
            }
        }
        self.skip_spaces();
        if self.bump() != Some(']') {
            return Err((
                start,
                PgnErrorKind::BadTag(format!("tag {name} is not closed with ']'")),
            ));
        }
        Ok((name, value, value_at))
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
    }

    /// Skips a variation `( … )`, nested ones and comments included; the cursor on `(`.
    fn skip_variation(&mut self) -> Result<(), Failure> {
        let start = self.at;
        let mut depth = 0usize;
        loop {
            self.skip_trivia()?;
            match self.bump() {
                Some('(') => depth += 1,
                Some(')') => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                Some(_) => {}
                None => return Err((start, PgnErrorKind::Unterminated("variation"))),
            }
        }
    }
}

fn parse_result(text: &str) -> Option<Option<Side>> {
    match text {
        "1-0" => Some(Some(Side::Blue)),
        "0-1" => Some(Some(Side::Red)),
        "1/2-1/2" => Some(None),
        _ => None,
    }
}

/// The tags a game is built from, with where their values stand.
#[derive(Default)]
struct Header {
    tags: Vec<(String, String)>,
    derived: Vec<(String, String, At)>,
}

impl Header {
    fn derived(&self, name: &str) -> Option<(&str, At)> {
        self.derived
            .iter()
            .rev()
            .find(|(n, _, _)| n == name)
            .map(|(_, v, at)| (v.as_str(), *at))
    }

    /// The game the Variant, Rules and FEN tags set up.
    fn start(&self) -> Result<Game, Failure> {
        if let Some((variant, at)) = self.derived("Variant")
            && !variant.eq_ignore_ascii_case("jungle")
        {
            return Err((at, PgnErrorKind::Variant(variant.to_string())));
        }
        let rules: Rules = match self.derived("Rules") {
            Some((text, at)) => text.parse().map_err(|e| (at, PgnErrorKind::Rules(e)))?,
            None => Rules::default(),
        };
        Ok(match self.derived("FEN") {
            Some((fen, at)) => {
                let start = Position::from_fen(fen, &rules).map_err(|e| (at, e.into()))?;
                Game::from_position(rules, start)
            }
            None => Game::new(rules),
        })
    }
}

fn read_game(cursor: &mut Cursor<'_>) -> Result<PgnGame, Failure> {
    // Step 1. The tag pairs.
    let mut header = Header::default();
    loop {
        cursor.skip_trivia()?;
        if cursor.peek() != Some('[') {
            break;
        }
        let (name, value, at) = cursor.tag()?;
        if DERIVED_TAGS.contains(&name.as_str()) {
            header.derived.push((name, value, at));
        } else {
            match header.tags.iter_mut().find(|(n, _)| *n == name) {
                Some(slot) => slot.1 = value,
                None => header.tags.push((name, value)),
            }
        }
    }
    let mut game = header.start()?;

    // Step 2. The moves, up to a result, the next game's tags, or the end of the text.
    let mut stated: Option<(String, At)> = None;
    loop {
        cursor.skip_trivia()?;
        let at = cursor.at;
        let Some(c) = cursor.peek() else { break };
        match c {
            '[' => break,
            '(' => cursor.skip_variation()?,
            '$' => {
                cursor.bump();
                let digits = cursor.symbol();
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return Err((at, PgnErrorKind::Unexpected(format!("${digits}"))));
                }
            }
            ')' | ']' | '}' | '"' => {
                return Err((at, PgnErrorKind::Unexpected(c.to_string())));
            }
            _ => {
                let token = cursor.symbol();
                if token == "*" || parse_result(&token).is_some() {
                    stated = Some((token, at));
                    break;
                }
                play_token(&mut game, &token, at)?;
            }
        }
    }

    // Step 3. The result: the moves' outcome, or an ending declared off the board.
    let tag_result = header.derived("Result");
    if let Some((text, at)) = tag_result
        && text != "*"
        && parse_result(text).is_none()
    {
        return Err((at, PgnErrorKind::BadResult(text.to_string())));
    }
    let stated = match (stated, tag_result) {
        (Some((token, at)), Some((tag, _))) if tag != token => {
            return Err((
                at,
                PgnErrorKind::ResultMismatch {
                    stated: format!("Result tag {tag}"),
                    actual: token,
                },
            ));
        }
        (Some((token, at)), _) => Some((token, at)),
        (None, Some((tag, at))) => Some((tag.to_string(), at)),
        (None, None) => None,
    };
    if let Some((result, at)) = stated
        && result != "*"
    {
        let winner = parse_result(&result).expect("checked above");
        let termination = match header.derived("Termination") {
            Some((text, at)) if !matches!(text, "normal" | "unterminated") => {
                Some(text.parse::<Termination>().map_err(|e| (at, e.into()))?)
            }
            _ => None,
        };
        match game.outcome() {
            Some(outcome) => {
                if outcome.winner != winner || termination.is_some_and(|t| t != outcome.termination)
                {
                    return Err((
                        at,
                        PgnErrorKind::ResultMismatch {
                            stated: match termination {
                                Some(t) => format!("{result} ({t})"),
                                None => result,
                            },
                            actual: format!("{} ({outcome})", outcome.result_str()),
                        },
                    ));
                }
            }
            None => {
                // As in chess records, a result with no reason is a resignation, or an agreed draw.
                let termination = termination.unwrap_or(match winner {
                    Some(_) => Termination::Resignation,
                    None => Termination::DrawAgreed,
                });
                game.declare(Outcome {
                    winner,
                    termination,
                });
            }
        }
    }
    Ok(PgnGame {
        tags: header.tags,
        game,
    })
}

/// A movetext symbol: a move number (`12.`, `12...`), a move (`a3a4`, with `!`/`?` marks), or both (`1.a3a4`).
fn play_token(game: &mut Game, token: &str, at: At) -> Result<(), Failure> {
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    let dots = token[digits..].bytes().take_while(|b| *b == b'.').count();
    if digits > 0 && dots == 0 {
        return Err((at, PgnErrorKind::Unexpected(token.to_string())));
    }
    let text = token[digits + dots..].trim_end_matches(['!', '?']);
    if text.is_empty() {
        if digits == 0 {
            return Err((at, PgnErrorKind::Unexpected(token.to_string())));
        }
        return Ok(());
    }
    let at = At {
        line: at.line,
        column: at.column + digits + dots,
    };
    let mv: Move = text.parse().map_err(|e| (at, PgnErrorKind::BadMove(e)))?;
    let before = game.position();
    let number = match before.side_to_move() {
        Side::Blue => format!("{}.", before.move_number()),
        Side::Red => format!("{}...", before.move_number()),
    };
    game.play(mv).map_err(|e| {
        let kind = match e {
            GameError::Over(outcome) => PgnErrorKind::AfterEnd {
                number,
                mv,
                outcome,
            },
            GameError::Illegal(source) => PgnErrorKind::IllegalMove { number, mv, source },
            GameError::Parse(e) => PgnErrorKind::BadMove(e),
        };
        (at, kind)
    })
}
