//! `nnue gen`: training positions from self-play at a fixed node budget.
//!
//! Each game starts from a random balanced-enough opening (a few random plies, chosen by a seeded generator so
//! the same command writes the same file), then the engine plays both sides with one thread at `nodes` nodes
//! per move (node-limited, so the machine's load cannot change a game). A position is written when its score is
//! not a forced result and the move found is quiet (no capture): the net should learn what a quiet position is
//! worth, the search handles the tactics. With `--tb DIR`, positions the tables cover are labelled with the
//! tables' exact result instead. With `--eval NET` the games are played with that learned net evaluating
//! instead of the hand-written evaluation, so a net's own search can label the data of the next one.
//!
//! Line format: `RESULT SCORE FEN` with RESULT the game's result for the side to move (1, 0.5, 0) and SCORE the
//! search's score in centipawns for the side to move.
//!
//! A game depends only on the seed and its number, so a long run can be made in pieces: `--first-game N` plays
//! games `N..N + games`, and the pieces' files, concatenated in order, are the file of one run over all the
//! games (tested below).

use std::io::Write;
use std::path::PathBuf;
use std::sync::mpsc;

use jungle_rules::{Game, Position, Rules, Side};
use jungle_search::{Engine, EngineOptions, Limits, Network, Score};
use jungle_tb::{Tablebases, Wdl};

use crate::rng::Rng;

/// Score written for a table win (and its negation for a loss): what the tables know for certain.
pub const TABLE_WIN_CP: i32 = 2000;

#[derive(Clone, Debug)]
pub struct GenOptions {
    /// Number of the first game played (games `first_game..first_game + games`).
    pub first_game: usize,
    pub games: usize,
    pub nodes: u64,
    pub seed: u64,
    pub jobs: usize,
    pub rules: Rules,
    pub tablebases: Option<PathBuf>,
    /// The net the self-play engine evaluates with; `None`: the hand-written evaluation.
    pub eval_file: Option<PathBuf>,
    pub out: PathBuf,
}

/// One training position before the game's result is known.
struct Pending {
    side: Side,
    score: i32,
    /// The tables' result for the side to move (1, 0.5, 0), when they cover the position.
    exact: Option<f32>,
    fen: String,
}

/// Plays game `index` and returns its lines.
fn play_game(
    index: usize,
    options: &GenOptions,
    engine: &mut Engine,
    tables: Option<&Tablebases>,
) -> Vec<String> {
    let mut rng = Rng::new(options.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut game = Game::new(options.rules.clone());
    for _ in 0..4 + rng.below(6) {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves.as_slice()[rng.below(moves.len())];
        game.play(m).expect("a legal move");
    }
    engine.clear();
    let mut pending = Vec::new();
    while !game.is_over() && game.moves().len() < 400 {
        engine.set_game(&game);
        let result = engine.go(&Limits::nodes(options.nodes), &mut |_| {});
        let Some(m) = result.best_move else { break };
        let pos: &Position = game.position();
        if let Score::Cp(cp) = result.score
            && !pos.is_capture(m)
        {
            let exact = tables.and_then(|tb| tb.probe(pos)).map(|p| match p.wdl {
                Wdl::Win => 1.0,
                Wdl::Draw => 0.5,
                Wdl::Loss => 0.0,
            });
            let score = exact.map_or(cp, |r| ((r - 0.5) * 2.0) as i32 * TABLE_WIN_CP);
            pending.push(Pending {
                side: pos.side_to_move(),
                score,
                exact,
                fen: pos.to_string(),
            });
        }
        game.play(m).expect("the engine's move is legal");
    }
    let winner = game.outcome().and_then(|o| o.winner);
    pending
        .into_iter()
        .map(|p| {
            let result = p.exact.unwrap_or(match winner {
                Some(w) if w == p.side => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            });
            format!("{result} {} {}", p.score, p.fen)
        })
        .collect()
}

/// Runs the self-play games on `jobs` threads and writes their positions in game order.
pub fn generate(options: &GenOptions) -> Result<(), String> {
    let tables = match &options.tablebases {
        Some(dir) => Some(
            Tablebases::open(dir, &options.rules)
                .map_err(|e| format!("tablebases {}: {e}", dir.display()))?,
        ),
        None => None,
    };
    if let Some(path) = &options.eval_file {
        // Read here, so that a net the engine would not use (unreadable, or of other rules) is an error
        // rather than a run silently played with the hand-written evaluation.
        let net = Network::load(path).map_err(|e| format!("--eval {}: {e}", path.display()))?;
        if !net.serves(&options.rules) {
            return Err(format!(
                "--eval {}: a net for the rules \"{}\", not \"{}\"",
                path.display(),
                net.rules(),
                options.rules
            ));
        }
    }
    let file = std::fs::File::create(&options.out)
        .map_err(|e| format!("{}: {e}", options.out.display()))?;
    let mut out = std::io::BufWriter::new(file);
    let (send, receive) = mpsc::channel::<(usize, Vec<String>)>();
    let started = std::time::Instant::now();
    std::thread::scope(|scope| -> Result<(), String> {
        for job in 0..options.jobs {
            let send = send.clone();
            let tables = tables.as_ref();
            scope.spawn(move || {
                // Never the engine's default (the built-in net): the file must depend only on the command,
                // and the built-in net changes with the commit. So the hand-written evaluation, or the net
                // the command names.
                let mut engine = Engine::new(EngineOptions {
                    hash_mb: 8,
                    use_nnue: options.eval_file.is_some(),
                    eval_file: options.eval_file.clone(),
                    ..EngineOptions::default()
                });
                let games = options.first_game..options.first_game + options.games;
                for index in games.skip(job).step_by(options.jobs) {
                    let lines = play_game(index, options, &mut engine, tables);
                    if send.send((index, lines)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(send);
        // Games finish out of order; keep each until the ones before it are written.
        let mut waiting = std::collections::BTreeMap::new();
        let mut next = options.first_game;
        let mut written = 0usize;
        for (index, lines) in receive {
            waiting.insert(index, lines);
            while let Some(lines) = waiting.remove(&next) {
                for line in &lines {
                    writeln!(out, "{line}").map_err(|e| e.to_string())?;
                }
                written += lines.len();
                next += 1;
                if next.is_multiple_of(50) {
                    eprintln!(
                        "{} games (up to {next}), {written} positions, {:.0} s",
                        next - options.first_game,
                        started.elapsed().as_secs_f64()
                    );
                }
            }
        }
        eprintln!(
            "{} games ({}..{next}), {written} positions in {:.0} s",
            next - options.first_game,
            options.first_game,
            started.elapsed().as_secs_f64()
        );
        Ok(())
    })?;
    out.flush().map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(first_game: usize, games: usize, jobs: usize, out: PathBuf) -> String {
        run_with(first_game, games, jobs, None, out).expect("generation runs")
    }

    fn run_with(
        first_game: usize,
        games: usize,
        jobs: usize,
        eval_file: Option<PathBuf>,
        out: PathBuf,
    ) -> Result<String, String> {
        generate(&GenOptions {
            first_game,
            games,
            nodes: 300,
            seed: 3,
            jobs,
            rules: Rules::default(),
            tablebases: None,
            eval_file,
            out: out.clone(),
        })?;
        Ok(std::fs::read_to_string(out).expect("the file was written"))
    }

    #[test]
    fn pieces_of_a_run_concatenate_to_the_whole_run() {
        let dir = std::env::temp_dir().join(format!("jungle-nnue-gen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let whole = run(0, 5, 2, dir.join("whole.txt"));
        let first = run(0, 2, 1, dir.join("first.txt"));
        let rest = run(2, 3, 2, dir.join("rest.txt"));
        std::fs::remove_dir_all(&dir).ok();
        assert!(whole.lines().count() > 20, "{whole}");
        assert!(!first.is_empty() && !rest.is_empty());
        assert_eq!(first + &rest, whole);
    }

    #[test]
    fn a_named_net_plays_the_games_and_a_net_of_other_rules_is_refused() {
        let dir = std::env::temp_dir().join(format!("jungle-nnue-gen-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let nets = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../crates/jungle-search/nets");
        let hand = run(0, 3, 1, dir.join("hand.txt"));
        let net = run_with(
            0,
            3,
            1,
            Some(nets.join("standard.nnue")),
            dir.join("net.txt"),
        );
        let other = run_with(
            0,
            1,
            1,
            Some(nets.join("modern.nnue")),
            dir.join("other.txt"),
        );
        let missing = run_with(0, 1, 1, Some(dir.join("none.nnue")), dir.join("none.txt"));
        std::fs::remove_dir_all(&dir).ok();
        let net = net.expect("the standard net serves the standard rules");
        // The same games by number, other scores and moves: the net evaluated.
        assert!(net.lines().count() > 10, "{net}");
        assert_ne!(net, hand);
        assert!(other.unwrap_err().contains("modern"));
        assert!(missing.unwrap_err().starts_with("--eval "));
    }
}
