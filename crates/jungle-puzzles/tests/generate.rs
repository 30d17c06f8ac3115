//! Generation and verification against real tables, built here for a few small materials (a second or two).

use std::path::PathBuf;

use jungle_puzzles::tablebase::{
    Choice, Refusal, Search, only_winning_move, puzzles_of_material, tablebase_line,
};
use jungle_puzzles::{Verdict, VerifyError, read_collection, themes_of, verify, write_collection};
use jungle_rules::{Position, Rules};
use jungle_tb::{BuildOptions, Material, Tablebases, build};

/// Tables of `keys` (and what their captures lead to) in a fresh directory.
fn tables(name: &str, keys: &[&str]) -> (Tablebases, PathBuf) {
    let dir = std::env::temp_dir().join(format!("jungle-puzzles-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let options = BuildOptions {
        with_smaller_materials: true,
        out: dir.clone(),
        materials: keys
            .iter()
            .map(|k| k.parse::<Material>().unwrap())
            .collect(),
        memory_limit: 1 << 30,
        threads: 2,
        dtz: false,
    };
    build(&Rules::default(), &options, &|_| {}).unwrap();
    (Tablebases::open_dir(&dir).unwrap(), dir)
}

fn search(wanted: usize) -> Search {
    Search {
        min_plies: 5,
        max_plies: 15,
        min_choices: 3,
        min_solver_moves: 2,
        require_theme: true,
        wanted,
        samples: 200_000,
        seed: 7,
    }
}

#[test]
fn a_position_with_two_winning_moves_is_refused() {
    let (tb, dir) = tables("two-wins", &["L-r"]);
    let rules = Rules::default();
    // Blue's Lion d8 next to the Red den: entering wins at once, and most other Lion moves still win.
    let pos = Position::from_fen("7/3L3/7/7/7/7/7/7/r6 w", &rules).unwrap();
    assert!(matches!(only_winning_move(&tb, &pos), Choice::Several(n) if n > 1));
    assert!(matches!(
        tablebase_line(&tb, &rules, &pos),
        Err(Refusal::SeveralWins(_))
    ));
    // Red to move cannot stop the Lion: no win for the side to move.
    let lost = Position::from_fen("7/3L3/7/7/7/7/7/7/r6 b", &rules).unwrap();
    assert_eq!(only_winning_move(&tb, &lost), Choice::NoWin);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn generated_puzzles_have_one_winning_move_and_verify_by_the_tables() {
    let (tb, dir) = tables("generate", &["ER-l"]);
    let material: Material = "ER-l".parse().unwrap();
    let puzzles = puzzles_of_material(&tb, material, &search(8), "tb-er-l");
    assert!(puzzles.len() >= 4, "{} puzzles", puzzles.len());
    for p in &puzzles {
        let line = p.line().unwrap();
        assert!(!p.themes.is_empty());
        assert_eq!(p.themes, themes_of(&line));
        // The first move is the only winning one.
        assert!(
            matches!(only_winning_move(&tb, line.start()), Choice::Only(m, _) if m == line.moves[0])
        );
        assert!(
            matches!(verify(p, Some(&tb), 1000), Ok(Verdict::Tables { .. })),
            "{p:?}"
        );
    }
    // The collection file reads back as written.
    let text = write_collection(&puzzles);
    let read: Vec<_> = read_collection(&text)
        .unwrap()
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    assert_eq!(read, puzzles);

    // Another first move (legal, but not the only winning one) fails the check.
    let mut wrong = puzzles[0].clone();
    let line = wrong.line().unwrap();
    let other = line
        .start()
        .legal_moves(&line.rules)
        .as_slice()
        .iter()
        .find(|&&m| m != line.moves[0])
        .copied()
        .unwrap();
    wrong.solution = vec![other.to_string()];
    wrong.themes = themes_of(&wrong_line(&wrong));
    assert!(matches!(
        verify(&wrong, Some(&tb), 1000),
        Err(VerifyError::Tables { ply: 1, .. })
    ));
    let _ = std::fs::remove_dir_all(dir);
}

/// The line of a puzzle whose stored themes may be stale (to restore them after an edit).
fn wrong_line(p: &jungle_puzzles::Puzzle) -> jungle_puzzles::Line {
    let mut q = p.clone();
    q.themes.clear();
    match q.line() {
        Ok(line) => line,
        Err(jungle_puzzles::PuzzleError::Themes { derived, .. }) => {
            q.themes = derived;
            q.line().unwrap()
        }
        Err(e) => panic!("{e}"),
    }
}
