//! Reading PGN: a character cursor that knows its line and column, the tag pairs, then the moves, each
//! checked in the game the tags set up.

use std::str::FromStr;

use super::{DERIVED_TAGS, ParsePgnError, PgnErrorKind, PgnGame, is_tag_name};
use crate::{Game, GameError, Notation, Outcome, Position, Rules, Side, Termination, WrittenMove};

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
    let mut notation = None;
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
                let used = play_token(&mut game, &token, at)?;
                notation = notation.or(used);
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
        comments: Vec::new(),
        notation: notation.unwrap_or_default(),
        game,
    })
}

/// A movetext symbol: a move number (`12.`, `12...`), a move in either notation (`a3a4`, `Ea3-a4`, with `!`/`?`
/// marks), or both (`1.a3a4`). Says which notation the move was written in (none for a bare move number).
fn play_token(game: &mut Game, token: &str, at: At) -> Result<Option<Notation>, Failure> {
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
        return Ok(None);
    }
    let at = At {
        line: at.line,
        column: at.column + digits + dots,
    };
    let written: WrittenMove = text.parse().map_err(|e| (at, PgnErrorKind::BadMove(e)))?;
    let before = game.position();
    let number = match before.side_to_move() {
        Side::Blue => format!("{}.", before.move_number()),
        Side::Red => format!("{}...", before.move_number()),
    };
    let notation = match written {
        WrittenMove::Coordinates(_) => Notation::Coordinates,
        WrittenMove::Animal(_) => Notation::Animal,
    };
    let mv = written.resolve(before).map_err(|source| {
        (
            at,
            PgnErrorKind::Notation {
                number: number.clone(),
                source,
            },
        )
    })?;
    game.play(mv).map(|()| Some(notation)).map_err(|e| {
        let kind = match e {
            GameError::Over(outcome) => PgnErrorKind::AfterEnd {
                number,
                mv,
                outcome,
            },
            GameError::Illegal(source) => PgnErrorKind::IllegalMove { number, mv, source },
            GameError::Parse(e) => PgnErrorKind::BadMove(e),
            GameError::Notation(source) => PgnErrorKind::Notation { number, source },
        };
        (at, kind)
    })
}
