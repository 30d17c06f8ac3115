//! PGN of match games through `jungle_rules::pgn`: the roster and `Variant`/`FEN`/`Rules`/`Termination` tags of
//! docs/rules.md §8, plus `SetUp`, `TimeControl` and `PlyCount`, and a `{score/depth time}` comment after every
//! engine move (`{book}` after opening moves) and the reason the game ended before the result. Hidden games are
//! written by `jungle_hidden::record` (public moves, both setups) with the same tags and comments.

use jungle_rules::pgn::PgnGame;
use jungle_rules::{Game, Position};

use crate::game::{GameMoves, GameRecord, PlayedMove, Thinking};

/// Where and when a game was played, for the roster tags.
#[derive(Clone, Debug, Default)]
pub struct GameLabel {
    pub event: String,
    pub site: String,
    /// `YYYY.MM.DD`.
    pub date: String,
    /// `round` or `round.game`.
    pub round: String,
}

/// One game as PGN text, ending with a blank line.
///
/// # Panics
/// If a move of the record is illegal in its game (the match runner records only moves its game accepted).
pub fn write_game(record: &GameRecord, label: &GameLabel) -> String {
    let tags = [
        ("Event", label.event.as_str()),
        ("Site", &label.site),
        ("Date", &label.date),
        ("Round", &label.round),
        ("White", &record.players.blue),
        ("Black", &record.players.red),
    ];
    let tags = tags.into_iter().filter(|(_, value)| !value.is_empty());
    match &record.moves {
        GameMoves::Open { start, moves } => write_open(record, *start, moves, tags),
        GameMoves::Hidden {
            record: hidden,
            thinking,
        } => write_hidden(record, hidden, thinking, tags),
    }
}

fn write_open<'a>(
    record: &GameRecord,
    start: Position,
    moves: &[PlayedMove],
    tags: impl Iterator<Item = (&'a str, &'a str)>,
) -> String {
    let mut game = Game::from_position(record.rules.clone(), start);
    for played in moves {
        game.play(played.mv)
            .expect("a match record holds only moves its game accepted");
    }
    // A forfeit, a loss on time or an adjudication ends the game off the board; the rules' own endings are
    // already the game's (declaring is then ignored).
    game.declare(record.outcome);
    let mut pgn = PgnGame::new(game);
    for (name, value) in tags {
        pgn.set_tag(name, value).expect("a roster tag");
    }
    if *pgn.game.start_position() != Position::start(&record.rules) {
        pgn.set_tag("SetUp", "1").expect("a plain tag");
    }
    pgn.set_tag("TimeControl", &record.time_control)
        .expect("a plain tag");
    pgn.set_tag("PlyCount", &moves.len().to_string())
        .expect("a plain tag");
    for (i, played) in moves.iter().enumerate() {
        let note = played.thinking.as_ref().map_or("book".to_string(), note);
        pgn.add_comment(i + 1, &note);
    }
    pgn.add_comment(moves.len(), &record.reason);
    pgn.to_string()
}

fn write_hidden<'a>(
    record: &GameRecord,
    hidden: &jungle_hidden::record::Record,
    thinking: &[Thinking],
    tags: impl Iterator<Item = (&'a str, &'a str)>,
) -> String {
    let mut hidden = hidden.clone();
    hidden.outcome = Some(record.outcome);
    hidden.tags = tags
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect();
    let plies = hidden.moves.len();
    for (name, value) in [
        ("TimeControl", record.time_control.clone()),
        ("PlyCount", plies.to_string()),
    ] {
        hidden.tags.push((name.to_string(), value));
    }
    for (i, t) in thinking.iter().enumerate() {
        hidden.add_comment(i + 1, &note(t));
    }
    hidden.add_comment(plies, &record.reason);
    hidden.to_pgn()
}

/// `score/depth time` of an engine move (`?` for what the engine did not say).
fn note(t: &Thinking) -> String {
    let score = t.info.score.map_or("?".to_string(), |s| s.pgn_text());
    let depth = t.info.depth.map_or("?".to_string(), |d| d.to_string());
    format!("{score}/{depth} {:.3}s", t.elapsed.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use jungle_rules::{BySide, Outcome, Rules, Side, Termination, pgn};

    use super::*;
    use crate::engine::{EngineScore, InfoSummary};
    use crate::game::{PlayedMove, Thinking};

    #[test]
    fn records_carry_tags_and_comments_and_read_back() {
        let rules: Rules = "modern".parse().unwrap();
        let start = Position::start(&rules);
        let moves: Vec<PlayedMove> = ["a3a4", "g7g6", "a4a5"]
            .iter()
            .enumerate()
            .map(|(i, m)| PlayedMove {
                mv: m.parse().unwrap(),
                thinking: (i > 0).then_some(Thinking {
                    info: InfoSummary {
                        score: Some(EngineScore::Cp(-35)),
                        depth: Some(7),
                    },
                    elapsed: Duration::from_millis(1234),
                }),
            })
            .collect();
        let record = GameRecord {
            players: BySide::new("alpha".into(), "beta \"b\"".into()),
            rules: rules.clone(),
            moves: GameMoves::Open { start, moves },
            outcome: Outcome::win(Side::Blue, Termination::TimeForfeit),
            reason: "Red loses on time: beta took 1.5 s".into(),
            time_control: "10+0.1".into(),
        };
        let text = write_game(
            &record,
            &GameLabel {
                event: "test".into(),
                round: "3".into(),
                ..GameLabel::default()
            },
        );
        assert!(text.contains("[White \"alpha\"]"), "{text}");
        assert!(text.contains("[Black \"beta \\\"b\\\"\"]"), "{text}");
        assert!(text.contains("[Rules \"lion-tiger=equal\"]"), "{text}");
        assert!(text.contains("[TimeControl \"10+0.1\"]"), "{text}");
        assert!(text.contains("[Termination \"time forfeit\"]"), "{text}");
        assert!(
            text.contains("1. a3a4 {book} g7g6 {-0.35/7 1.234s} 2. a4a5"),
            "{text}"
        );
        assert!(text.contains("[PlyCount \"3\"]"), "{text}");
        assert!(!text.contains("[SetUp"), "from the start: {text}");
        assert!(
            text.trim_end()
                .ends_with("{Red loses on time: beta took 1.5 s} 1-0"),
            "{text}"
        );

        let back = pgn::read_games(&text).unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].game.moves().len(), 3);
        assert_eq!(back[0].game.rules(), &rules);
        assert_eq!(back[0].tag("White"), Some("alpha"));
    }
}
