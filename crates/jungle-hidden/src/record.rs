//! Hidden-game records: PGN whose moves are [`PublicMove`] text (`a3a4`, `g3g4=R`, `c3c4=LxC`, `c3c4=C/L`), with
//! `Variant "Hidden Jungle"`, `Rules` when not standard, and the setups in `BlueSetup` / `RedSetup` tags
//! ([`Arrangement`] letters). A record for a seat carries that seat's own setup; the other setup — and both, for a
//! spectator — is written only once the game is over. Read back, a record replays into the view of either side
//! that has its setup ([`Record::view`]), or into the whole game when both setups are there ([`Record::game`]).
//! Comments in braces (`{+0.35/9 0.020s}`, as `jungle match` writes after each engine move) are kept.

use jungle_rules::pgn::tag_line;
use jungle_rules::{BySide, Outcome, Rules, RulesError, Side, Termination};

use crate::moves::ParsePublicMoveError;
use crate::{
    Arrangement, ArrangementError, HiddenGame, HiddenMoveError, PublicMove, PublicMoveText, View,
    ViewError,
};

/// The variant tag value of hidden-game records.
pub const VARIANT: &str = "Hidden Jungle";

/// A hidden-game record: tags, rules, the setups it reveals and the public moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Tags other than `Variant`, `Rules`, `Result`, `Termination` and the setups.
    pub tags: Vec<(String, String)>,
    pub rules: Rules,
    pub setups: BySide<Option<Arrangement>>,
    pub moves: Vec<PublicMove>,
    pub outcome: Option<Outcome>,
    /// Comments, each after the given number of plies (0: before the first move), in order.
    pub comments: Vec<(usize, String)>,
}

/// Why a text is not a hidden-game record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("line {0}: a tag should read [Name \"value\"]")]
    BadTag(usize),
    #[error("Variant tag should be \"{VARIANT}\", found \"{0}\"")]
    Variant(String),
    #[error("Rules tag: {0}")]
    Rules(#[from] RulesError),
    #[error("{side}Setup tag: {error}")]
    Setup { side: Side, error: ArrangementError },
    #[error("Result tag \"{0}\" should be 1-0, 0-1, 1/2-1/2 or *")]
    Result(String),
    #[error("Termination tag \"{0}\" is not a known ending")]
    Termination(String),
    #[error("move {number}: {error}")]
    MoveText {
        number: usize,
        error: ParsePublicMoveError,
    },
    #[error("move {number}: {error}")]
    Move { number: usize, error: ViewError },
    #[error("move {number}: {error}")]
    Game {
        number: usize,
        error: HiddenMoveError,
    },
    #[error("move {number}: the record says {said}, the game gives {actual}")]
    Mismatch {
        number: usize,
        said: String,
        actual: String,
    },
    #[error("the whole game needs both setups")]
    SetupsMissing,
    #[error("a comment opened with {{ is not closed")]
    OpenComment,
}

impl Record {
    /// The record of `game` as `viewer` may hold it (`None`: a spectator), with extra tags (players, event, …).
    pub fn of(game: &HiddenGame, viewer: Option<Side>, tags: &[(String, String)]) -> Record {
        let over = game.is_over();
        Record {
            tags: tags.to_vec(),
            rules: game.rules().clone(),
            setups: BySide::new(Side::Blue, Side::Red)
                .map(|side| (over || viewer == Some(side)).then(|| game.arrangement(side).clone())),
            moves: game.history().to_vec(),
            outcome: game.outcome(),
            comments: Vec::new(),
        }
    }

    /// The value of the tag `name` among [`Record::tags`].
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Adds a comment after `plies` plies (`}` in the text is written as `)`, so the comment stays one).
    pub fn add_comment(&mut self, plies: usize, text: &str) {
        self.comments.push((plies, text.replace('}', ")")));
    }

    /// The PGN text.
    pub fn to_pgn(&self) -> String {
        let mut lines = Vec::new();
        for (name, value) in &self.tags {
            lines.push(tag_line(name, value));
        }
        let result = self.outcome.map_or("*", Outcome::result_str);
        lines.push(tag_line("Result", result));
        lines.push(tag_line("Variant", VARIANT));
        if !self.rules.is_standard() {
            lines.push(tag_line("Rules", &self.rules.to_string()));
        }
        if let Some(outcome) = self.outcome {
            lines.push(tag_line("Termination", outcome.termination.as_str()));
        }
        for side in Side::ALL {
            if let Some(setup) = &self.setups[side] {
                lines.push(tag_line(&format!("{side}Setup"), &setup.to_string()));
            }
        }
        lines.push(String::new());
        let mut moves = String::new();
        let comments_after = |plies: usize, moves: &mut String| {
            for (_, text) in self.comments.iter().filter(|(at, _)| *at == plies) {
                moves.push_str(&format!("{{{text}}} "));
            }
        };
        comments_after(0, &mut moves);
        for (i, public) in self.moves.iter().enumerate() {
            if i % 2 == 0 {
                moves.push_str(&format!("{}. ", i / 2 + 1));
            }
            moves.push_str(&format!("{public} "));
            comments_after(i + 1, &mut moves);
        }
        moves.push_str(result);
        lines.push(moves);
        lines.push(String::new());
        lines.join("\n")
    }

    /// Reads a record written by [`Record::to_pgn`] (one game; `;` comments and move numbers are skipped). The
    /// moves are checked as a spectator sees them.
    ///
    /// # Errors
    /// [`RecordError`] saying what is wrong.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut tags = Vec::new();
        let mut movetext = String::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if let Some(inner) = line.strip_prefix('[') {
                tags.push(parse_tag(inner).ok_or(RecordError::BadTag(i + 1))?);
            } else if !line.starts_with(';') {
                movetext.push_str(line);
                movetext.push(' ');
            }
        }
        let tag = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
        let variant = tag("Variant").unwrap_or_default();
        if variant != VARIANT {
            return Err(RecordError::Variant(variant));
        }
        let rules: Rules = tag("Rules").map_or(Ok(Rules::default()), |r| r.parse())?;
        let mut setups = BySide::new(None, None);
        for side in Side::ALL {
            if let Some(text) = tag(&format!("{side}Setup")) {
                let setup = Arrangement::parse(&rules, side, &text)
                    .map_err(|error| RecordError::Setup { side, error })?;
                setups[side] = Some(setup);
            }
        }
        let result = tag("Result").unwrap_or_else(|| "*".to_string());
        let winner = match result.as_str() {
            "1-0" => Some(Some(Side::Blue)),
            "0-1" => Some(Some(Side::Red)),
            "1/2-1/2" => Some(None),
            "*" => None,
            other => return Err(RecordError::Result(other.to_string())),
        };
        let outcome = match winner {
            None => None,
            Some(winner) => {
                let termination = tag("Termination").unwrap_or_default();
                let termination: Termination = termination
                    .parse()
                    .map_err(|_| RecordError::Termination(termination))?;
                Some(Outcome {
                    winner,
                    termination,
                })
            }
        };
        let mut moves = Vec::new();
        let mut comments = Vec::new();
        let mut side = Side::Blue;
        let mut rest = movetext.as_str();
        while let Some(token) = next_token(&mut rest)? {
            let token = match token {
                Token::Comment(text) => {
                    comments.push((moves.len(), text.trim().to_string()));
                    continue;
                }
                Token::Word(word) => word,
            };
            if token.ends_with('.') || ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
                continue;
            }
            let number = moves.len() + 1;
            let read: PublicMoveText = token
                .parse()
                .map_err(|error| RecordError::MoveText { number, error })?;
            moves.push(read.by(side));
            side = !side;
        }
        let skip = |(n, _): &(String, String)| {
            [
                "Result",
                "Variant",
                "Rules",
                "Termination",
                "BlueSetup",
                "RedSetup",
            ]
            .contains(&n.as_str())
        };
        let record = Record {
            tags: tags.iter().filter(|t| !skip(t)).cloned().collect(),
            rules,
            setups,
            moves,
            outcome,
            comments,
        };
        record.view(None)?;
        Ok(record)
    }

    /// The game replayed into `viewer`'s view (`None`: a spectator's), with the viewer's own setup if the
    /// record has it; finished with every animal shown when the record has the outcome and both setups.
    ///
    /// # Errors
    /// [`RecordError::Move`] for a move that does not fit.
    pub fn view(&self, viewer: Option<Side>) -> Result<View, RecordError> {
        let own = viewer.and_then(|side| self.setups[side].as_ref());
        let mut view = View::start(&self.rules, viewer, own)
            .map_err(|error| RecordError::Move { number: 0, error })?;
        for (i, public) in self.moves.iter().enumerate() {
            view.apply(public).map_err(|error| RecordError::Move {
                number: i + 1,
                error,
            })?;
        }
        if let (Some(outcome), Some(blue), Some(red)) =
            (self.outcome, &self.setups.blue, &self.setups.red)
        {
            let both = BySide::new(blue.clone(), red.clone());
            view.finish(outcome, &both)
                .map_err(|error| RecordError::Move {
                    number: self.moves.len(),
                    error,
                })?;
        }
        Ok(view)
    }

    /// The whole game replayed from both setups, each move checked against the true state (its effect must be
    /// the one the record states).
    ///
    /// # Errors
    /// [`RecordError::SetupsMissing`], or the first move that the game does not play as recorded.
    pub fn game(&self) -> Result<HiddenGame, RecordError> {
        let (Some(blue), Some(red)) = (&self.setups.blue, &self.setups.red) else {
            return Err(RecordError::SetupsMissing);
        };
        let mut game =
            HiddenGame::new(self.rules.clone(), blue.clone(), red.clone()).map_err(|error| {
                RecordError::Setup {
                    side: Side::Blue,
                    error,
                }
            })?;
        for (i, public) in self.moves.iter().enumerate() {
            let number = i + 1;
            let actual = game
                .play(public.mv)
                .map_err(|error| RecordError::Game { number, error })?;
            if actual != *public {
                return Err(RecordError::Mismatch {
                    number,
                    said: public.to_string(),
                    actual: actual.to_string(),
                });
            }
        }
        if let Some(outcome) = self.outcome
            && !game.is_over()
        {
            game.declare(outcome);
        }
        Ok(game)
    }
}

/// A piece of movetext: a comment's text or a word (move, move number, result).
enum Token<'a> {
    Comment(&'a str),
    Word(&'a str),
}

/// The next token of `rest`, advancing past it; `None` at the end.
fn next_token<'a>(rest: &mut &'a str) -> Result<Option<Token<'a>>, RecordError> {
    let text = rest.trim_start();
    if let Some(inner) = text.strip_prefix('{') {
        let end = inner.find('}').ok_or(RecordError::OpenComment)?;
        *rest = &inner[end + 1..];
        return Ok(Some(Token::Comment(&inner[..end])));
    }
    if text.is_empty() {
        return Ok(None);
    }
    let end = text
        .find(|c: char| c.is_whitespace() || c == '{')
        .unwrap_or(text.len());
    *rest = &text[end..];
    Ok(Some(Token::Word(&text[..end])))
}

/// `Name "value"]` (after the opening bracket) into its name and unescaped value.
fn parse_tag(inner: &str) -> Option<(String, String)> {
    let (name, rest) = inner.split_once(' ')?;
    let quoted = rest
        .trim()
        .strip_suffix(']')?
        .trim()
        .strip_prefix('"')?
        .strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        value.push(if c == '\\' { chars.next()? } else { c });
    }
    Some((name.to_string(), value))
}
