//! The probing API as the engine uses it: open a directory made by `build`, probe positions, pick moves.

use std::path::PathBuf;

use jungle_rules::{Position, Rules};
use jungle_tb::{BuildOptions, Material, Probe, Tablebases, TbError, Wdl, build};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jungle-tb-probe-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn build_dir(name: &str, keys: &[&str], rules: &Rules) -> PathBuf {
    let out = scratch(name);
    let options = BuildOptions {
        with_smaller_materials: true,
        out: out.clone(),
        materials: keys.iter().map(|k| k.parse().unwrap()).collect(),
        memory_limit: 1 << 30,
        threads: 1,
        dtz: false,
    };
    let reports = build(rules, &options, &|_| {}).unwrap();
    assert!(reports.iter().all(|r| !r.kept));
    out
}

#[test]
fn best_moves_win_in_exactly_the_stored_number_of_plies() {
    let rules = Rules::default();
    let dir = build_dir("play", &["LR-e"], &rules);
    let tables = Tablebases::open(&dir, &rules).unwrap();
    assert_eq!(tables.max_pieces(), 3);
    let table = tables.table("LR-e".parse().unwrap()).unwrap();
    let mut played = 0;
    for idx in (0..table.indexer().size()).step_by(211) {
        let Some(start) = table.indexer().position_at(idx) else {
            continue;
        };
        let value = tables.probe(&start).unwrap();
        assert_eq!(Some(value), table.probe(&start));
        let Some(n) = value.plies else {
            // A draw: the best move keeps the draw.
            if let Some((m, v)) = tables.best_move(&start) {
                assert_eq!(v, Probe::DRAW);
                assert_eq!(tables.probe(&start.after(m)), Some(Probe::DRAW));
            }
            continue;
        };
        // Both sides play the table's best move: the game ends after exactly n plies, won by the side that
        // was winning.
        let winner = match value.wdl {
            Wdl::Win => start.side_to_move(),
            _ => !start.side_to_move(),
        };
        let mut pos = start;
        for ply in 0..n {
            let (m, v) = tables.best_move(&pos).unwrap();
            let expected = tables.probe(&pos).unwrap();
            assert_eq!(v, expected, "{pos}");
            assert_eq!(
                expected.plies,
                Some(n - ply),
                "{start} after {ply} plies: {pos}"
            );
            pos = pos.after(m);
        }
        let outcome = pos.outcome(&rules).expect("the game is over");
        assert_eq!(outcome.winner, Some(winner), "{start}");
        played += 1;
    }
    assert!(played > 100);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn probing_covers_both_colours_and_refuses_what_it_cannot_answer() {
    let rules = Rules::default();
    let dir = build_dir("cover", &["L-r"], &rules);
    let tables = Tablebases::open(&dir, &rules).unwrap();
    let blue_lion = Position::from_fen("7/3L3/7/7/7/7/7/7/r6 w", &rules).unwrap();
    assert_eq!(tables.probe(&blue_lion), Some(Probe::win(1)));
    // The same position with colours swapped is answered by the same table.
    assert_eq!(tables.probe(&blue_lion.swap_colours()), Some(Probe::win(1)));
    assert_eq!(
        tables.best_move(&blue_lion).map(|(m, _)| m.to_string()),
        Some("d8d9".to_string())
    );
    // More pieces than the tables hold, or a material that is absent: no answer.
    let three = Position::from_fen("7/3L3/7/7/7/7/7/7/r5e w", &rules).unwrap();
    assert_eq!(tables.probe(&three), None);
    let other = Position::from_fen("7/3E3/7/7/7/7/7/7/r6 w", &rules).unwrap();
    assert_eq!(tables.probe(&other), None);
    assert!(matches!(
        tables.load("E-r".parse::<Material>().unwrap()),
        Err(TbError::MissingTable { .. })
    ));
    // The draw options never change a table: a game with other draw rules uses the same tables.
    let other_draws: Rules = "repetition-draw=0,quiet-ply-limit=50".parse().unwrap();
    let same = Tablebases::open(&dir, &other_draws).unwrap();
    assert_eq!(same.probe(&blue_lion), Some(Probe::win(1)));
    // Tables made under other rules are refused when opened.
    let modern: Rules = "modern".parse().unwrap();
    let e = Tablebases::open(&dir, &modern).unwrap_err();
    assert!(matches!(e, TbError::RulesMismatch { .. }), "{e}");
    assert!(e.to_string().contains("\"lion-tiger=equal\""), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tablebases_can_be_shared_between_search_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<Tablebases>();
}

#[test]
fn open_dir_takes_the_rules_from_the_tables() {
    let rules: Rules = "modern,dog-swims=true".parse().unwrap();
    let dir = build_dir("open-dir", &["LR-e"], &rules);
    let tables = Tablebases::open_dir(&dir).unwrap();
    assert_eq!(
        tables.rules().to_string(),
        "lion-tiger=equal,dog-swims=true"
    );
    assert_eq!(tables.materials().len(), 3, "LR-e and its sub-tables");

    let empty = scratch("open-dir-empty");
    std::fs::create_dir_all(&empty).unwrap();
    let e = Tablebases::open_dir(&empty).unwrap_err();
    assert!(matches!(e, TbError::NoTables { .. }), "{e}");
    assert!(e.to_string().contains("no tables (*.jtb)"), "{e}");
    let e = Tablebases::open_dir(&dir.join("nowhere")).unwrap_err();
    assert!(matches!(e, TbError::NotADirectory { .. }), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&empty).unwrap();
}
