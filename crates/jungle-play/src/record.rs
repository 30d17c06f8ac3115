//! Game records: the game's PGN with the players and the date, through `jungle_rules::pgn`
//! (docs/rules.md §8).

use jungle_rules::Game;
use jungle_rules::pgn::{ParsePgnError, PgnGame, read_games};

/// The players' names for the `White` (Blue) and `Black` (Red) tags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Players {
    pub blue: String,
    pub red: String,
}

/// The PGN of a game; `date` is `YYYY.MM.DD`; `time_control` the PGN `TimeControl` tag (`300+3`: seconds
/// per side + increment). An unfinished game has the result `*`.
pub fn write_pgn(game: &Game, players: &Players, date: &str, time_control: Option<&str>) -> String {
    let mut record = PgnGame::new(game.clone());
    for (name, value) in [
        ("Event", "Casual game"),
        ("Site", "jungle play"),
        ("Date", date),
        ("Round", "-"),
        ("White", players.blue.as_str()),
        ("Black", players.red.as_str()),
    ] {
        record
            .set_tag(name, value)
            .expect("standard tag names are valid and not derived");
    }
    if let Some(tc) = time_control {
        record
            .set_tag("TimeControl", tc)
            .expect("a valid tag name, not derived");
    }
    record.to_string()
}

/// Replays the first game of a PGN text: its rules, start position, moves and any ending declared by
/// the record (resignation, time).
///
/// # Errors
/// [`ParsePgnError`] saying where the text is wrong, or that it holds no game.
pub fn read_pgn(text: &str) -> Result<Game, ParsePgnError> {
    match read_games(text)?.into_iter().next() {
        Some(record) => Ok(record.game),
        None => text.parse::<PgnGame>().map(|record| record.game),
    }
}

/// Today's date as PGN wants it (`YYYY.MM.DD`, UTC).
pub fn today() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    jungle_rules::pgn::date_tag(seconds as i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_rules::{Outcome, Side, Termination};

    fn players() -> Players {
        Players {
            blue: "Ann".into(),
            red: "Bo".into(),
        }
    }

    #[test]
    fn a_game_round_trips_through_pgn_with_its_players_and_ending() {
        let mut game = Game::new("modern".parse().unwrap());
        for m in ["a3a4", "g7g6", "a4a5", "g6g5"] {
            game.play_text(m).unwrap();
        }
        let pgn = write_pgn(&game, &players(), "2026.01.02", Some("300+3"));
        assert!(pgn.contains("[TimeControl \"300+3\"]"), "{pgn}");
        assert!(pgn.contains("[Date \"2026.01.02\"]"), "{pgn}");
        assert!(
            pgn.contains("[White \"Ann\"]\n[Black \"Bo\"]\n[Result \"*\"]\n"),
            "{pgn}"
        );
        assert!(pgn.contains("[Rules \"lion-tiger=equal\"]"), "{pgn}");
        assert!(pgn.contains("\n1. a3a4 g7g6 2. a4a5 g6g5 *\n"), "{pgn}");
        let back = read_pgn(&pgn).unwrap();
        assert_eq!(back.moves(), game.moves());
        assert_eq!(back.rules(), game.rules());

        game.declare(Outcome::win(Side::Red, Termination::Resignation));
        let back = read_pgn(&write_pgn(&game, &players(), "2026.01.02", None)).unwrap();
        assert_eq!(back.outcome(), game.outcome());
    }

    #[test]
    fn bad_records_name_the_problem() {
        let err = read_pgn("[Rules \"tiger-swims=true\"]\n\n1. a3a4 *").unwrap_err();
        assert!(err.to_string().contains("tiger-swims"), "{err}");
        let err = read_pgn("1. a3a4 a7a6 2. a4a6 *").unwrap_err();
        assert!(err.to_string().contains("a4a6"), "{err}");
        assert!(read_pgn("").is_err(), "no game at all");
    }
}
