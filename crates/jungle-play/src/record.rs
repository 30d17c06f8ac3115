//! Game records: a minimal PGN writer and reader for the game's own use (RULES.md "Game record").
//! The tags written are the seven standard ones, `Variant`, `FEN` (from a non-start position), `Rules`
//! (non-default rules) and `Termination`; the reader accepts those and ignores the others.

use jungle_rules::fen::to_fen;
use jungle_rules::{Game, GameError, Outcome, ParseFenError, Position, Rules, RulesError};

/// The players' names for the `White` (Blue) and `Black` (Red) tags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Players {
    pub blue: String,
    pub red: String,
}

/// The PGN of a game; `date` is `YYYY.MM.DD`. An unfinished game has the result `*`.
pub fn write_pgn(game: &Game, players: &Players, date: &str) -> String {
    let result = game.outcome().map_or("*", Outcome::result_str);
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        out.push_str(&format!("[{name} \"{value}\"]\n"));
    };
    tag("Event", "Casual game");
    tag("Site", "jungle play");
    tag("Date", date);
    tag("Round", "-");
    tag("White", &players.blue);
    tag("Black", &players.red);
    tag("Result", result);
    tag("Variant", "Jungle");
    let start = game.start_position();
    if *start != Position::start(game.rules()) {
        tag("FEN", &to_fen(start));
    }
    if !game.rules().is_standard() {
        tag("Rules", &game.rules().to_string());
    }
    if let Some(outcome) = game.outcome() {
        tag("Termination", outcome.termination.as_str());
    }
    out.push('\n');

    let mut tokens = Vec::new();
    let first_number = start.move_number();
    let red_first = start.side_to_move() == jungle_rules::Side::Red;
    for (i, m) in game.moves().iter().enumerate() {
        let ply = i + usize::from(red_first);
        let number = first_number as usize + ply / 2;
        if ply % 2 == 0 {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.to_string());
    }
    tokens.push(result.to_string());
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// A PGN text that cannot be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadPgnError {
    #[error("pgn: malformed tag line \"{0}\"")]
    Tag(String),
    #[error("pgn: Rules tag: {0}")]
    Rules(#[from] RulesError),
    #[error("pgn: FEN tag: {0}")]
    Fen(#[from] ParseFenError),
    #[error("pgn: move {number} \"{text}\": {error}")]
    Move {
        number: usize,
        text: String,
        error: GameError,
    },
    #[error("pgn: unterminated comment")]
    Comment,
}

/// Replays the first game of a PGN text: its rules, start position and moves. A result token, move numbers,
/// `{comments}` and `;` line comments are skipped; the result itself is not trusted (the moves decide).
///
/// # Errors
/// [`ReadPgnError`] naming the bad tag or the first move that cannot be played.
pub fn read_pgn(text: &str) -> Result<Game, ReadPgnError> {
    let mut rules_text = String::new();
    let mut fen = None;
    let mut movetext = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') && movetext.trim().is_empty() {
            let (name, value) =
                parse_tag(trimmed).ok_or_else(|| ReadPgnError::Tag(trimmed.into()))?;
            match name.as_str() {
                "Rules" => rules_text = value,
                "FEN" => fen = Some(value),
                _ => {}
            }
        } else if !trimmed.starts_with(';') {
            movetext.push_str(trimmed.split(';').next().unwrap_or(""));
            movetext.push(' ');
        }
    }
    let rules: Rules = rules_text.parse()?;
    let start = match fen {
        Some(fen) => Position::from_fen(&fen, &rules)?,
        None => Position::start(&rules),
    };
    let mut game = Game::from_position(rules, start);
    let mut rest = movetext.as_str();
    let mut number = 0;
    while let Some(open) = rest.find('{') {
        let close = rest[open..].find('}').ok_or(ReadPgnError::Comment)? + open;
        number = play_tokens(&mut game, &rest[..open], number)?;
        rest = &rest[close + 1..];
    }
    play_tokens(&mut game, rest, number)?;
    Ok(game)
}

fn play_tokens(game: &mut Game, text: &str, mut number: usize) -> Result<usize, ReadPgnError> {
    for token in text.split_whitespace() {
        if matches!(token, "*" | "1-0" | "0-1" | "1/2-1/2") {
            continue;
        }
        // "12." or "12..." alone, or glued to the move: "12.c3c4".
        let token = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if token.is_empty() {
            continue;
        }
        number += 1;
        game.play_text(token).map_err(|error| ReadPgnError::Move {
            number,
            text: token.to_string(),
            error,
        })?;
    }
    Ok(number)
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, value) = inner.split_once(char::is_whitespace)?;
    let value = value.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((
        name.to_string(),
        value.replace("\\\"", "\"").replace("\\\\", "\\"),
    ))
}

/// Today's date as PGN wants it (`YYYY.MM.DD`, UTC).
pub fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn players() -> Players {
        Players {
            blue: "Ann".into(),
            red: "Bo".into(),
        }
    }

    #[test]
    fn a_game_round_trips_through_pgn() {
        let mut game = Game::new("modern".parse().unwrap());
        for m in ["a3a4", "g7g6", "a4a5", "g6g5"] {
            game.play_text(m).unwrap();
        }
        let pgn = write_pgn(&game, &players(), "2026.01.02");
        assert!(
            pgn.contains("[White \"Ann\"]\n[Black \"Bo\"]\n[Result \"*\"]\n"),
            "{pgn}"
        );
        assert!(pgn.contains("[Rules \"lion-tiger=equal\"]"), "{pgn}");
        assert!(pgn.ends_with("\n1. a3a4 g7g6 2. a4a5 g6g5 *\n"), "{pgn}");
        let back = read_pgn(&pgn).unwrap();
        assert_eq!(back.moves(), game.moves());
        assert_eq!(back.rules(), game.rules());
    }

    #[test]
    fn a_game_from_a_red_to_move_position_numbers_its_moves() {
        let rules = Rules::default();
        let start =
            Position::from_fen("l5t/1d3c1/r1p1w1e/7/7/E6/2W1P1R/1C3D1/T5L b 0 1", &rules).unwrap();
        let mut game = Game::from_position(rules, start);
        game.play_text("a7a6").unwrap();
        game.play_text("a4a5").unwrap();
        let pgn = write_pgn(&game, &players(), "2026.01.02");
        assert!(
            pgn.contains("[FEN \"l5t/1d3c1/r1p1w1e/7/7/E6/2W1P1R/1C3D1/T5L b 0 1\"]"),
            "{pgn}"
        );
        assert!(pgn.contains("1... a7a6 2. a4a5 *"), "{pgn}");
        assert_eq!(read_pgn(&pgn).unwrap().moves(), game.moves());
    }

    #[test]
    fn bad_records_name_the_problem() {
        let err = read_pgn("[Rules \"tiger-swims=true\"]\n\n1. a3a4 *").unwrap_err();
        assert!(err.to_string().contains("tiger-swims"), "{err}");
        let err = read_pgn("1. a3a4 a7a6 2. a4a6 *").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("pgn: move 3 \"a4a6\": illegal move a4a6"),
            "{err}"
        );
        let err = read_pgn("[Event \"x\"\n1. a3a4").unwrap_err();
        assert!(matches!(err, ReadPgnError::Tag(_)));
        assert_eq!(read_pgn("1. a3a4 {hmm").unwrap_err(), ReadPgnError::Comment);
        let game = read_pgn("1. a3a4 {good} a7a6 ; fine\n2.a4a5 1-0").unwrap();
        assert_eq!(game.moves().len(), 3);
    }

    #[test]
    fn dates_follow_the_calendar() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(20_454), (2026, 1, 1));
    }
}
