//! How fast the opening explorer answers with many games stored (docs/server.md, "Opening explorer").
//!
//! Fills the explorer's index of a fresh database with GAMES random legal games from the standard start (each
//! counted as a finished game would be: its first 40 plies, a random result, a rating for half of them),
//! then asks for the moves of a few positions, each many times, and prints the median and the 99th
//! percentile of the query's time. Tests never time anything; this is the measurement.
//!
//! ```text
//! cargo run --profile ci -p jungle-store --example explorer_bench -- [GAMES] [DATABASE]
//! ```
//!
//! DATABASE is a SQLite file (default: a new one under the temporary folder) or a `postgres://` URL: the games
//! are added to what its index holds, so give it an empty database.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use jungle_rules::{Game, Rules, Side};
use jungle_store::{EXPLORER_PLIES, OpeningGame, Store};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Games counted per transaction while filling.
const BATCH: usize = 2_000;
/// Queries timed per position.
const QUERIES: usize = 2_000;

/// A random legal game from the start: up to [`EXPLORER_PLIES`] moves (fewer when it ends first).
fn random_game(rng: &mut StdRng, rules: &Rules) -> OpeningGame {
    let mut game = Game::new(rules.clone());
    let mut moves = Vec::new();
    while moves.len() < EXPLORER_PLIES {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.random_range(0..legal.len())];
        game.play(m).expect("a legal move");
        moves.push(m.to_string());
    }
    let winner = match rng.random_range(0..3) {
        0 => Some(Side::Blue),
        1 => Some(Side::Red),
        _ => None,
    };
    let rating = rng.random_bool(0.5).then(|| rng.random_range(1200..2200));
    OpeningGame {
        rules: rules.clone(),
        moves,
        winner,
        rating,
    }
}

/// The median and the 99th percentile of `QUERIES` answers for a position, and how many moves it lists.
fn time_queries(store: &Store, rules: &Rules, hash: u64) -> (Duration, Duration, usize) {
    let mut times = Vec::with_capacity(QUERIES);
    let mut listed = 0;
    for _ in 0..QUERIES {
        let began = Instant::now();
        listed = store.opening_moves(rules, hash).expect("a query").len();
        times.push(began.elapsed());
    }
    times.sort_unstable();
    (times[QUERIES / 2], times[QUERIES * 99 / 100], listed)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args
        .next()
        .map(|n| n.parse().expect("GAMES is a number"))
        .unwrap_or(100_000);
    let database = args.next().map(PathBuf::from).unwrap_or_else(|| {
        let path = std::env::temp_dir().join(format!("explorer-bench-{}.db", std::process::id()));
        let _ = std::fs::remove_file(&path);
        path
    });
    let store = Store::open(&database).expect("the database opens");
    let rules = Rules::default();
    let mut rng = StdRng::seed_from_u64(32);

    let began = Instant::now();
    let mut kept = None;
    let mut filled = 0;
    while filled < games {
        let batch: Vec<OpeningGame> = (0..BATCH.min(games - filled))
            .map(|_| random_game(&mut rng, &rules))
            .collect();
        store.count_openings(&batch).expect("the games are counted");
        if kept.is_none() {
            kept = batch
                .iter()
                .find(|g| g.moves.len() == EXPLORER_PLIES)
                .cloned();
        }
        filled += batch.len();
    }
    println!(
        "{} games counted in {:.1} s ({})",
        filled,
        began.elapsed().as_secs_f64(),
        Store::describe(&database)
    );

    // The start (every game passes it), a position after 2 plies (one game in a few hundred), and one after
    // 20 and 39 plies of a counted game (that game alone).
    let line = kept.expect("a game of full length");
    let mut game = Game::new(rules.clone());
    let mut positions = vec![(0, game.position().hash())];
    for (ply, mv) in line.moves.iter().enumerate() {
        game.play_text(mv).expect("the game replays");
        if [2, 20, 39].contains(&(ply + 1)) {
            positions.push((ply + 1, game.position().hash()));
        }
    }
    for (ply, hash) in positions {
        let (median, p99, listed) = time_queries(&store, &rules, hash);
        println!(
            "after {ply:>2} plies: {listed:>2} moves listed, median {:.1} µs, p99 {:.1} µs",
            median.as_secs_f64() * 1e6,
            p99.as_secs_f64() * 1e6
        );
    }
}
