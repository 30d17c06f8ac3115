//! PGN of match games: the tags of docs/rules.md plus `Rules` (always, `standard` for the default rules),
//! `TimeControl`, `Termination`, and a `{score/depth time}` comment after every engine move (`{book}` after
//! opening moves). `jungle_rules::pgn` reads these records back (comments are skipped there).

use std::fmt::Write as _;

use jungle_rules::{Position, Side};

use crate::game::GameRecord;

/// Movetext lines are wrapped before this width, as PGN export format asks.
const LINE_WIDTH: usize = 80;

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

fn tag(out: &mut String, name: &str, value: &str) {
    let value: String = value
        .chars()
        .flat_map(|c| match c {
            '\\' | '"' => vec!['\\', c],
            c if c.is_control() => vec![' '],
            c => vec![c],
        })
        .collect();
    let _ = writeln!(out, "[{name} \"{value}\"]");
}

/// Comment text cannot contain `}`.
fn comment(text: &str) -> String {
    format!("{{{}}}", text.replace('}', ")"))
}

/// One game as PGN text, ending with a blank line.
pub fn write_game(record: &GameRecord, label: &GameLabel) -> String {
    let mut out = String::new();
    let or_unknown = |s: &str| {
        if s.is_empty() {
            "?".to_string()
        } else {
            s.to_string()
        }
    };
    tag(&mut out, "Event", &or_unknown(&label.event));
    tag(&mut out, "Site", &or_unknown(&label.site));
    tag(&mut out, "Date", &or_unknown(&label.date));
    tag(&mut out, "Round", &or_unknown(&label.round));
    tag(&mut out, "White", &record.players.blue);
    tag(&mut out, "Black", &record.players.red);
    let result = record.outcome.result_str();
    tag(&mut out, "Result", result);
    tag(&mut out, "Variant", "Jungle");
    if record.start != Position::start(&record.rules) {
        tag(&mut out, "FEN", &jungle_rules::fen::to_fen(&record.start));
        tag(&mut out, "SetUp", "1");
    }
    tag(&mut out, "Rules", &record.rules.to_string());
    tag(&mut out, "TimeControl", &record.time_control);
    tag(&mut out, "Termination", record.outcome.termination.as_str());
    tag(&mut out, "PlyCount", &record.moves.len().to_string());
    out.push('\n');

    let mut line = String::new();
    let mut push = |out: &mut String, token: &str| {
        if !line.is_empty() && line.len() + 1 + token.len() >= LINE_WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(token);
    };
    let mut position = record.start;
    for (i, played) in record.moves.iter().enumerate() {
        let number = position.move_number();
        match position.side_to_move() {
            Side::Blue => push(&mut out, &format!("{number}.")),
            Side::Red if i == 0 => push(&mut out, &format!("{number}...")),
            Side::Red => {}
        }
        push(&mut out, &played.mv.to_string());
        let note = match &played.thinking {
            None => "book".to_string(),
            Some(t) => {
                let score = t.info.score.map_or("?".to_string(), |s| s.pgn_text());
                let depth = t.info.depth.map_or("?".to_string(), |d| d.to_string());
                format!("{score}/{depth} {:.3}s", t.elapsed.as_secs_f64())
            }
        };
        let text = comment(&note);
        push(&mut out, &text);
        position = position.after(played.mv);
    }
    push(&mut out, &comment(&record.reason));
    push(&mut out, result);
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use jungle_rules::{BySide, Outcome, Rules, Termination, pgn};

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
        assert!(text.trim_end().ends_with("1-0"), "{text}");

        let back = pgn::read_games(&text).unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].game.moves().len(), 3);
        assert_eq!(back[0].game.rules(), &rules);
        assert_eq!(back[0].tag("White"), Some("alpha"));
    }
}
