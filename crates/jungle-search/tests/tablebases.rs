//! The engine with endgame tables: from positions the tables cover it always plays a move that keeps the
//! table's best value (the quickest win, a draw if no win, the slowest loss), and reports that value as its
//! score. Tables are generated at test time (2- and 3-piece materials under two rule sets, and one 4-piece
//! material) into a scratch directory.

use std::path::{Path, PathBuf};

use jungle_rules::{Game, Position, Rules};
use jungle_search::{Engine, EngineOptions, Limits, Score};
use jungle_tb::{BuildOptions, Indexer, Material, Probe, Tablebases, Wdl, build};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jungle-search-tb-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Generates the tables of `materials` (and the smaller ones they lead to) under `rules` into `dir`.
fn generate(dir: &Path, rules: &Rules, materials: &[&str]) {
    let options = BuildOptions {
        with_smaller_materials: true,
        out: dir.to_path_buf(),
        materials: materials.iter().map(|m| m.parse().unwrap()).collect(),
        memory_limit: 1 << 30,
        threads: 2,
        dtz: true,
    };
    build(rules, &options, &|_| {}).expect("tables generate");
}

fn engine_with_tables(dir: &Path) -> Engine {
    Engine::new(EngineOptions {
        hash_mb: 1,
        tablebase_path: Some(dir.to_path_buf()),
        ..EngineOptions::default()
    })
}

/// Random positions of a material that are not yet decided (the side to move has a move).
fn random_positions(material: Material, rules: &Rules, count: usize, seed: u64) -> Vec<Position> {
    let indexer = Indexer::new(material, rules);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count * 1000 {
        tries += 1;
        let Some(pos) = indexer.position_at(rng.random_range(0..indexer.size())) else {
            continue;
        };
        let game = Game::from_position(rules.clone(), pos);
        if game.outcome().is_none() && !game.legal_moves().is_empty() {
            out.push(pos);
        }
    }
    out
}

fn expected_score(value: Probe) -> Score {
    match (value.wdl, value.plies) {
        (Wdl::Win, Some(n)) => Score::Mate(n as i32),
        (Wdl::Loss, Some(n)) => Score::Mate(-(n as i32)),
        _ => Score::Cp(0),
    }
}

/// Searches every position and checks the move against the tables; returns how many were wins, draws and
/// losses for the side to move.
fn check_best_moves(
    dir: &Path,
    rules: &Rules,
    materials: &[&str],
    per_material: usize,
) -> [usize; 3] {
    let tables = Tablebases::open(dir, rules).unwrap();
    let mut engine = engine_with_tables(dir);
    let mut counts = [0; 3];
    for (k, key) in materials.iter().enumerate() {
        let material = key.parse::<Material>().unwrap().canonical();
        for pos in random_positions(material, rules, per_material, 7 + k as u64) {
            let moves = tables.probe_moves(&pos).expect("covered by the tables");
            let best = moves[0].1;
            engine.set_game(&Game::from_position(rules.clone(), pos));
            assert!(engine.take_tablebase_error().is_none());
            let mut last_info = None;
            let result = engine.go(&Limits::depth(3), &mut |info| {
                last_info = Some(info.clone())
            });
            // The search itself (probing below the root) already finds the table's value and a best move.
            let info = last_info.expect("a completed depth");
            assert_eq!(
                info.score,
                expected_score(best),
                "{pos} ({rules}): search score"
            );
            let searched = moves
                .iter()
                .find(|(m, _)| Some(m) == info.pv.first())
                .map(|&(_, p)| p);
            assert_eq!(
                searched,
                Some(best),
                "{pos} ({rules}): searched {:?}",
                info.pv
            );
            let played = result.best_move.expect("a move");
            let value = moves
                .iter()
                .find(|(m, _)| *m == played)
                .map(|&(_, p)| p)
                .expect("a legal move");
            assert_eq!(
                value, best,
                "{pos} ({rules}): played {played} ({value}), best is {} ({best})",
                moves[0].0
            );
            assert_eq!(result.score, expected_score(best), "{pos} ({rules})");
            counts[best.wdl as usize] += 1;
        }
    }
    counts
}

#[test]
fn the_engine_plays_the_tables_best_move_under_two_rule_sets() {
    let standard = Rules::default();
    let dir = scratch("standard");
    let materials = ["E-r", "L-t", "R-e", "LR-e", "ET-l"];
    generate(&dir, &standard, &materials);
    let [losses, draws, wins] = check_best_moves(&dir, &standard, &materials, 30);
    assert!(
        losses > 0 && wins > 0,
        "losses {losses}, draws {draws}, wins {wins}"
    );

    let modern: Rules = "modern".parse().unwrap();
    let other = scratch("modern");
    let materials = ["E-r", "T-p", "LD-w"];
    generate(&other, &modern, &materials);
    let [losses, _, wins] = check_best_moves(&other, &modern, &materials, 30);
    assert!(losses > 0 && wins > 0);

    // Tables made under other rules are refused: the engine says why and plays on without them.
    let mut engine = engine_with_tables(&dir);
    let pos = Position::from_fen("7/3L3/7/7/7/7/7/7/r6 w", &modern).unwrap();
    engine.set_game(&Game::from_position(modern.clone(), pos));
    let error = engine
        .take_tablebase_error()
        .expect("rules mismatch reported");
    assert!(
        error.contains("standard") || error.contains("rules"),
        "{error}"
    );
    assert!(engine.tablebases().is_none());
    let result = engine.go(&Limits::depth(3), &mut |_| {});
    assert!(pos.is_legal(&modern, result.best_move.unwrap()));
    // Back under the rules the tables were made for, they are used again.
    engine.set_game(&Game::from_position(
        standard.clone(),
        Position::from_fen("7/3L3/7/7/7/7/7/7/r6 w", &standard).unwrap(),
    ));
    assert!(engine.take_tablebase_error().is_none());
    assert!(engine.tablebases().is_some());

    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&other);
}

#[test]
fn a_missing_directory_is_reported_and_the_engine_plays_on() {
    let dir = scratch("missing");
    let mut engine = engine_with_tables(&dir);
    let error = engine.take_tablebase_error().expect("reported");
    assert!(error.contains("jungle-search-tb"), "{error}");
    let game = Game::new(Rules::default());
    engine.set_game(&game);
    assert!(engine.take_tablebase_error().is_none(), "reported once");
    let result = engine.go(&Limits::depth(2), &mut |_| {});
    assert!(
        game.position()
            .is_legal(game.rules(), result.best_move.unwrap())
    );
}

/// The position with its quiet-ply count set to `quiet` (the FEN's third field).
fn with_quiet_plies(pos: Position, quiet: u32, rules: &Rules) -> Position {
    let fen = pos.to_string();
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    fields[2] = quiet.to_string();
    Position::from_fen(&fields.join(" "), rules).unwrap()
}

/// Issue 17 item 2: the tables count plies to the end of the game, the quiet-ply rule plies since the last
/// capture. In a two-piece ending every ply but the last is quiet, so a table win in `n` plies is a win only
/// while `n` plies fit under the limit. With one ply too few the engine must not claim (or play for) the win;
/// with exactly enough it must not let it slip.
#[test]
fn table_wins_respect_the_quiet_ply_limit() {
    let rules = Rules::default();
    let limit = rules.options().quiet_ply_limit;
    let dir = scratch("quiet");
    generate(&dir, &rules, &["E-r", "L-t"]);
    let tables = Tablebases::open(&dir, &rules).unwrap();
    let mut engine = engine_with_tables(&dir);
    let mut checked = 0;
    for (k, key) in ["E-r", "L-t"].iter().enumerate() {
        let material = key.parse::<Material>().unwrap().canonical();
        for pos in random_positions(material, &rules, 40, 31 + k as u64) {
            let value = tables.probe(&pos).expect("covered");
            let (Wdl::Win, Some(n)) = (value.wdl, value.plies) else {
                continue;
            };
            if n < 3 {
                continue;
            }
            checked += 1;
            // One ply short: no win fits (every win needs n quiet plies at least).
            let short = with_quiet_plies(pos, limit - n + 1, &rules);
            engine.set_game(&Game::from_position(rules.clone(), short));
            let result = engine.go(&Limits::depth(4), &mut |_| {});
            assert!(
                !matches!(result.score, Score::Mate(m) if m > 0),
                "{short}: a table win in {n} plies claimed with {} quiet plies left: {:?}",
                limit - short.quiet_plies(),
                result.score
            );
            // Exactly enough: played out by the engine on both sides, the win is taken in time.
            let exact = with_quiet_plies(pos, limit - n, &rules);
            let mut game = Game::from_position(rules.clone(), exact);
            let winner = exact.side_to_move();
            while game.outcome().is_none() {
                engine.set_game(&game);
                let m = engine
                    .go(&Limits::depth(2), &mut |_| {})
                    .best_move
                    .expect("a move");
                game.play(m).unwrap();
            }
            assert_eq!(
                game.outcome().unwrap().winner,
                Some(winner),
                "{exact}: the win in {n} plies slipped: {:?}",
                game.outcome()
            );
        }
    }
    assert!(checked >= 10, "only {checked} wins found");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 17 item 2, with the tables of distances to the next capture (`KEY.jtz`): a win whose end lies beyond
/// the quiet plies left but whose capture fits is still a win — the engine claims it and, playing both sides,
/// converts in time (the count restarts at the capture); with one ply too few for the capture it is a draw by
/// the rule, and the engine says so instead of playing for a "win".
#[test]
fn wins_through_a_capture_respect_the_quiet_ply_limit() {
    let rules = Rules::default();
    let limit = rules.options().quiet_ply_limit;
    let dir = scratch("zeroing");
    // Red's lone Elephant wins by taking Blue's Lion first (it cannot take the Rat); Blue's Lion takes a Tiger;
    // a real four-piece ending, Elephant and Rat against Lion and Rat, whose wins pass through one or two
    // captures.
    let keys = ["LR-e", "LR-t", "ER-lr"];
    generate(&dir, &rules, &keys);
    let tables = Tablebases::open(&dir, &rules).unwrap();
    let mut engine = engine_with_tables(&dir);
    for (k, key) in keys.iter().enumerate() {
        let mut checked = 0;
        let material = key.parse::<Material>().unwrap().canonical();
        for pos in random_positions(material, &rules, 400, 7 + k as u64) {
            let value = tables.probe(&pos).expect("covered");
            let zeroing = tables.probe_zeroing(&pos).expect("covered");
            let (Wdl::Win, Some(n), Some(z)) = (value.wdl, value.plies, zeroing.plies) else {
                continue;
            };
            // Wins that go through a capture well before the end.
            if z < 2 || n < z + 2 || checked >= 6 {
                continue;
            }
            checked += 1;
            // The capture fits, the end does not: still a win.
            let converts = with_quiet_plies(pos, limit - z, &rules);
            engine.set_game(&Game::from_position(rules.clone(), converts));
            let result = engine.go(&Limits::depth(3), &mut |_| {});
            assert!(
                matches!(result.score, Score::Cp(c) if c > 20_000)
                    || matches!(result.score, Score::Mate(m) if m > 0),
                "{converts}: a win through a capture in {z} plies (end in {n}) not claimed: {:?}",
                result.score
            );
            let winner = converts.side_to_move();
            let mut game = Game::from_position(rules.clone(), converts);
            while game.outcome().is_none() {
                engine.set_game(&game);
                let m = engine
                    .go(&Limits::depth(2), &mut |_| {})
                    .best_move
                    .expect("a move");
                game.play(m).unwrap();
            }
            assert_eq!(
                game.outcome().unwrap().winner,
                Some(winner),
                "{converts}: the win through a capture in {z} plies slipped: {:?}",
                game.outcome()
            );
            // One ply too few for the capture: a draw by the rule, for either side.
            let drawn = with_quiet_plies(pos, limit - z + 1, &rules);
            engine.set_game(&Game::from_position(rules.clone(), drawn));
            let result = engine.go(&Limits::depth(3), &mut |_| {});
            assert_eq!(
                result.score,
                Score::Cp(0),
                "{drawn}: the capture needs {z} plies, {} are left",
                limit - drawn.quiet_plies()
            );
        }
        assert!(
            checked >= 4,
            "{key}: only {checked} wins through a capture found"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
