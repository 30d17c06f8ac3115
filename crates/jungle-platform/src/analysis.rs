//! The engine's analysis for people, without the transport: a position searched slice after slice through the
//! engine's fair line ([`ANALYSIS_SLICE`]), so an analysis takes turns with games and never holds an engine
//! thread for long; and the evaluation of every position of a game with its mistakes marked ([`graph`]).

use std::sync::Arc;
use std::time::Duration;

use jungle_rules::{Game, Move, Notation, Position, Rules, Side};
use jungle_search::{Engine, EngineOptions, Limits, Score, SearchInfo};
use serde::Serialize;

use crate::engine::EnginePool;
use crate::engine_queue::Requester;
use crate::hub::MAX_TEXT;

/// One engine job of an analysis.
pub const ANALYSIS_SLICE: Duration = Duration::from_millis(1000);
/// How long one position is analysed at most; the last line then stays on the page.
pub const ANALYSIS_LIMIT: Duration = Duration::from_secs(20);
/// The transposition table of each running analysis (it lives as long as the position is analysed).
pub const ANALYSIS_HASH_MB: usize = 8;
/// What the server sends on the analysis socket besides errors and pongs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Report {
    Info(Info),
    /// The position's time is used up: the last report stands.
    Done {
        fen: String,
    },
}

impl Report {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("reports are plain data")
    }
}

/// The engine's view of the analysed position after a completed depth, from Blue's point of view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Info {
    /// The position analysed (as sent back by the server: canonical FEN), so a page can drop stale reports.
    pub fen: String,
    pub depth: u32,
    /// Centipawns (a Cat is about 200), positive when Blue is better; `None` with a forced result or when the
    /// game is over.
    pub score_cp: Option<i32>,
    /// Plies to a forced win: positive Blue wins, negative Red wins.
    pub mate_plies: Option<i32>,
    pub nodes: u64,
    /// The best move and the principal variation in coordinates (`a3a4`), and the line in animal notation.
    pub best: Option<String>,
    pub pv: Vec<String>,
    pub line: Vec<String>,
}

/// A score for the side to move turned to Blue's point of view: `(centipawns, mate plies)`.
pub fn blue_view(score: Score, side_to_move: Side) -> (Option<i32>, Option<i32>) {
    let sign = if side_to_move == Side::Blue { 1 } else { -1 };
    match score {
        Score::Cp(cp) => (Some(sign * cp), None),
        Score::Mate(n) => (None, Some(sign * n)),
    }
}

/// The moves of a line from `position`, in animal notation.
fn animal_line(position: &Position, pv: &[Move]) -> Vec<String> {
    let mut position = *position;
    pv.iter()
        .map(|&m| {
            let text = Notation::Animal.write(&position, m);
            position = position.after(m);
            text
        })
        .collect()
}

/// Reads the position a page asks about.
///
/// # Errors
/// A message naming what is wrong with the rules or the FEN.
pub fn read_position(fen: &str, rules: &str) -> Result<Game, String> {
    if fen.len() > MAX_TEXT || rules.len() > MAX_TEXT {
        return Err(format!(
            "the FEN and the rules are at most {MAX_TEXT} characters each"
        ));
    }
    let rules: Rules = rules.trim().parse().map_err(|e| format!("rules: {e}"))?;
    let position = Position::from_fen(fen.trim(), &rules).map_err(|e| format!("position: {e}"))?;
    Ok(Game::from_position(rules, position))
}

/// Searches `game`'s position slice after slice (keeping the engine's table, so each slice goes deeper than
/// the last) until [`ANALYSIS_LIMIT`], reporting every depth at least as deep as any reported before, then
/// `done`.
pub async fn analyse_continuously(
    pool: EnginePool,
    requester: Requester,
    engine: Engine,
    game: Game,
    report: impl Fn(String) + Send + Sync + Clone + 'static,
) {
    let position = *game.position();
    let fen = jungle_rules::fen::to_fen(&position);
    let done = Report::Done { fen: fen.clone() }.to_json();
    if game.is_over() || game.legal_moves().is_empty() {
        report(
            Report::Info(Info {
                fen,
                depth: 0,
                score_cp: None,
                mate_plies: None,
                nodes: 0,
                best: None,
                pv: Vec::new(),
                line: Vec::new(),
            })
            .to_json(),
        );
        report(done);
        return;
    }
    let mut engine = Some(engine);
    let deepest = Arc::new(std::sync::atomic::AtomicU32::new(0));
    let mut spent = Duration::ZERO;
    while spent < ANALYSIS_LIMIT {
        let Some(mut searching) = engine.take() else {
            return;
        };
        let slice = ANALYSIS_SLICE.min(ANALYSIS_LIMIT - spent);
        let (report, deepest, fen) = (report.clone(), deepest.clone(), fen.clone());
        let Some((back, started)) = pool
            .run(&requester, slice, move || {
                searching.go(&Limits::movetime(slice), &mut |info: &SearchInfo| {
                    if info.depth < deepest.load(std::sync::atomic::Ordering::Relaxed) {
                        return;
                    }
                    deepest.store(info.depth, std::sync::atomic::Ordering::Relaxed);
                    let (score_cp, mate_plies) = blue_view(info.score, position.side_to_move());
                    let text = Report::Info(Info {
                        fen: fen.clone(),
                        depth: info.depth,
                        score_cp,
                        mate_plies,
                        nodes: info.nodes,
                        best: info.pv.first().map(Move::to_string),
                        pv: info.pv.iter().map(Move::to_string).collect(),
                        line: animal_line(&position, &info.pv),
                    })
                    .to_json();
                    report(text);
                });
                searching
            })
            .await
        else {
            return;
        };
        spent += started.elapsed().max(slice / 4);
        engine = Some(back);
    }
    report(done);
}

/// How many nodes the engine searches on each position of a game for its evaluation graph: small enough for
/// a long game to take seconds, large enough to see what a move loses.
pub const GRAPH_NODES: u64 = 20_000;
/// The positions of one graph engine job.
const GRAPH_SLICE_POSITIONS: usize = 40;
/// The most positions a graph covers (the start and the first moves of a longer game).
pub const GRAPH_MAX_POSITIONS: usize = 1000;
/// A drop of at least this much (centipawns, for the side that moved) marks a move a mistake…
pub const MISTAKE_CP: i32 = 100;
/// …and at least this much a blunder.
pub const BLUNDER_CP: i32 = 300;
/// Scores are clamped to ± this in the graph and for mistakes: a won position that stays won is no mistake,
/// and a forced win counts as this much.
pub const GRAPH_CLAMP_CP: i32 = 1000;

/// One position of the graph, from Blue's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Point {
    pub score_cp: Option<i32>,
    pub mate_plies: Option<i32>,
    /// The score clamped to ±[`GRAPH_CLAMP_CP`] (forced wins at the clamp); `None` when the game is over.
    pub value: Option<i32>,
}

/// A move that lost at least [`MISTAKE_CP`] for its mover.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mistake {
    /// The move's index (0 for the first move): it leads from position `ply` to `ply + 1`.
    pub ply: usize,
    pub side: &'static str,
    pub mv: String,
    /// Centipawns lost, for the mover.
    pub drop: i32,
    /// `"mistake"` or `"blunder"`.
    pub kind: &'static str,
}

/// The evaluation graph of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Graph {
    pub nodes_per_position: u64,
    pub mistake_cp: i32,
    pub blunder_cp: i32,
    /// One point per position evaluated, from the start.
    pub points: Vec<Point>,
    pub mistakes: Vec<Mistake>,
}

/// The value of a score for the graph: clamped, forced wins at the clamp.
fn clamped(point: &Point) -> Option<i32> {
    match (point.score_cp, point.mate_plies) {
        (Some(cp), _) => Some(cp.clamp(-GRAPH_CLAMP_CP, GRAPH_CLAMP_CP)),
        (None, Some(n)) if n > 0 => Some(GRAPH_CLAMP_CP),
        (None, Some(_)) => Some(-GRAPH_CLAMP_CP),
        (None, None) => None,
    }
}

/// The moves that lost at least [`MISTAKE_CP`] for their mover. A move that ends the game is judged by the
/// result: a win is worth the clamp, a draw 0.
pub fn find_mistakes(game: &Game, points: &[Point]) -> Vec<Mistake> {
    let mut mistakes = Vec::new();
    let positions = game.positions();
    for (ply, &m) in game.moves().iter().enumerate() {
        let (Some(before), Some(after)) = (points.get(ply), points.get(ply + 1)) else {
            break;
        };
        let mover = positions[ply].side_to_move();
        let after_value = after.value.or_else(|| {
            // The game ended with this move: the board's result.
            positions[ply + 1]
                .outcome(game.rules())
                .map(|o| match o.winner {
                    Some(Side::Blue) => GRAPH_CLAMP_CP,
                    Some(Side::Red) => -GRAPH_CLAMP_CP,
                    None => 0,
                })
        });
        let (Some(before), Some(after)) = (before.value, after_value) else {
            continue;
        };
        let sign = if mover == Side::Blue { 1 } else { -1 };
        let drop = sign * (before - after);
        if drop >= MISTAKE_CP {
            mistakes.push(Mistake {
                ply,
                side: crate::side_name(mover),
                mv: Notation::Animal.write(&positions[ply], m),
                drop,
                kind: if drop >= BLUNDER_CP {
                    "blunder"
                } else {
                    "mistake"
                },
            });
        }
    }
    mistakes
}

/// Evaluates every position of `game` (up to [`GRAPH_MAX_POSITIONS`]) at [`GRAPH_NODES`] nodes, in slices
/// through the engine's line, and marks the mistakes. `None` when the engine is gone (shutting down).
pub async fn graph(pool: &EnginePool, requester: &Requester, game: &Game) -> Option<Graph> {
    // Rebuilt from the moves alone: the engine judges the board, not a resignation or a flag.
    let mut replay = Game::from_position(game.rules().clone(), *game.start_position());
    for &m in game.moves() {
        if replay.play(m).is_err() {
            break;
        }
    }
    let total = (replay.moves().len() + 1).min(GRAPH_MAX_POSITIONS);
    let mut engine = Engine::new(EngineOptions {
        hash_mb: ANALYSIS_HASH_MB,
        ..EngineOptions::default()
    });
    let mut points = Vec::with_capacity(total);
    let estimate = Duration::from_millis(GRAPH_SLICE_POSITIONS as u64 * 10);
    while points.len() < total {
        let from = points.len();
        let to = (from + GRAPH_SLICE_POSITIONS).min(total);
        let job = replay.clone();
        let (slice, back) = pool
            .run(requester, estimate, move || {
                let slice: Vec<Point> = (from..to)
                    .map(|i| evaluate_ply(&mut engine, &job, i))
                    .collect();
                (slice, engine)
            })
            .await?
            .0;
        points.extend(slice);
        engine = back;
    }
    let mistakes = find_mistakes(&replay, &points);
    Some(Graph {
        nodes_per_position: GRAPH_NODES,
        mistake_cp: MISTAKE_CP,
        blunder_cp: BLUNDER_CP,
        points,
        mistakes,
    })
}

/// The engine's score of position `ply` of `game` at [`GRAPH_NODES`] nodes, with the game's history (so
/// repetitions count).
fn evaluate_ply(engine: &mut Engine, game: &Game, ply: usize) -> Point {
    let mut prefix = Game::from_position(game.rules().clone(), *game.start_position());
    for &m in &game.moves()[..ply] {
        let _ = prefix.play(m);
    }
    if prefix.is_over() {
        return Point {
            score_cp: None,
            mate_plies: None,
            value: None,
        };
    }
    engine.set_game(&prefix);
    let result = engine.go(&Limits::nodes(GRAPH_NODES), &mut |_| {});
    let (score_cp, mate_plies) = blue_view(result.score, prefix.side_to_move());
    let mut point = Point {
        score_cp,
        mate_plies,
        value: None,
    };
    point.value = clamped(&point);
    point
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(cp: i32) -> Point {
        let mut p = Point {
            score_cp: Some(cp),
            mate_plies: None,
            value: None,
        };
        p.value = clamped(&p);
        p
    }

    #[test]
    fn a_drop_for_the_mover_is_a_mistake_whichever_side_moved() {
        let mut game = Game::new(Rules::default());
        for m in ["a3a4", "a7a6", "g3g4"] {
            game.play_text(m).unwrap();
        }
        // Blue's first move loses 150 (mistake), Red's reply loses 400 for Red (blunder: Blue's score rises),
        // Blue's second move changes nothing.
        let points = [point(0), point(-150), point(250), point(260)];
        let mistakes = find_mistakes(&game, &points);
        assert_eq!(
            mistakes,
            vec![
                Mistake {
                    ply: 0,
                    side: "blue",
                    mv: "Ea3-a4".into(),
                    drop: 150,
                    kind: "mistake"
                },
                Mistake {
                    ply: 1,
                    side: "red",
                    mv: "Ra7-a6".into(),
                    drop: 400,
                    kind: "blunder"
                },
            ]
        );
        // Inside a won position nothing is a mistake: scores are clamped.
        let won = [point(5000), point(2000), point(3000), point(1500)];
        assert!(find_mistakes(&game, &won).is_empty());
        // A forced win counts as the clamp.
        let mate = Point {
            score_cp: None,
            mate_plies: Some(-7),
            value: None,
        };
        assert_eq!(clamped(&mate), Some(-GRAPH_CLAMP_CP));
    }

    #[test]
    fn positions_are_read_with_errors_that_say_what_is_wrong() {
        assert!(read_position(jungle_rules::START_FEN, "standard").is_ok());
        assert!(
            read_position(jungle_rules::START_FEN, "nonsense=1")
                .unwrap_err()
                .starts_with("rules:")
        );
        assert!(
            read_position("7/7/7 w", "standard")
                .unwrap_err()
                .starts_with("position:")
        );
    }

    #[test]
    fn lines_are_written_with_their_animals() {
        let position = Position::start(&Rules::default());
        let pv = [
            Move::new(jungle_rules::Square::A3, jungle_rules::Square::A4),
            Move::new(jungle_rules::Square::A7, jungle_rules::Square::A6),
        ];
        assert_eq!(animal_line(&position, &pv), ["Ea3-a4", "Ra7-a6"]);
    }
}
