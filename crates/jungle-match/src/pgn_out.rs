//! PGN of match games through `jungle_rules::pgn`: the roster and `Variant`/`FEN`/`Rules`/`Termination` tags of
//! docs/rules.md §8, plus `SetUp`, `TimeControl` and `PlyCount`, and a `{score/depth time}` comment after every
//! engine move (`{book}` after opening moves) and the reason the game ended before the result.

use jungle_rules::pgn::PgnGame;
use jungle_rules::{Game, Position};

use crate::game::GameRecord;

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
    let mut game = Game::from_position(record.rules.clone(), record.start);
    for played in &record.moves {
        game.play(played.mv)
            .expect("a match record holds only moves its game accepted");
    }
    // A forfeit, a loss on time or an adjudication ends the game off the board; the rules' own endings are
    // already the game's (declaring is then ignored).
    game.declare(record.outcome);
    let mut pgn = PgnGame::new(game);
    let tags = [
        ("Event", label.event.as_str()),
        ("Site", &label.site),
        ("Date", &label.date),
        ("Round", &label.round),
        ("White", &record.players.blue),
        ("Black", &record.players.red),
    ];
    for (name, value) in tags {
        if !value.is_empty() {
            pgn.set_tag(name, value).expect("a roster tag");
        }
    }
    if *pgn.game.start_position() != Position::start(&record.rules) {
        pgn.set_tag("SetUp", "1").expect("a plain tag");
    }
    pgn.set_tag("TimeControl", &record.time_control)
        .expect("a plain tag");
    pgn.set_tag("PlyCount", &record.moves.len().to_string())
        .expect("a plain tag");
    for (i, played) in record.moves.iter().enumerate() {
        let note = match &played.thinking {
            None => "book".to_string(),
            Some(t) => {
                let score = t.info.score.map_or("?".to_string(), |s| s.pgn_text());
                let depth = t.info.depth.map_or("?".to_string(), |d| d.to_string());
                format!("{score}/{depth} {:.3}s", t.elapsed.as_secs_f64())
            }
        };
        pgn.add_comment(i + 1, &note);
    }
    pgn.add_comment(record.moves.len(), &record.reason);
    pgn.to_string()
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
            start,
            moves,
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
