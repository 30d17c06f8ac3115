//! The committed collection (`crates/jungle-platform/puzzles/puzzles.jsonl`): every puzzle's structure and line,
//! and a sample checked again — tablebase puzzles against tables built here, a game puzzle by its search.

use std::collections::HashSet;

use jungle_puzzles::selfplay::SelfPlay;
use jungle_puzzles::{Source, Verdict, read_collection, verify};
use jungle_rules::Rules;
use jungle_tb::{BuildOptions, Material, Tablebases, build};

const COLLECTION: &str = include_str!("../../jungle-platform/puzzles/puzzles.jsonl");

#[test]
fn every_puzzle_reads_and_a_sample_verifies() {
    let puzzles = read_collection(COLLECTION).expect("the committed collection reads");
    assert!(puzzles.len() >= 300, "{} puzzles", puzzles.len());
    let material_of = |p: &jungle_puzzles::Puzzle| match &p.source {
        Source::Tablebase { material } => Some(material.parse::<Material>().unwrap()),
        Source::Game { .. } => None,
    };
    // Three-piece tablebase puzzles (their tables build in a moment), spread over the file.
    let small: Vec<_> = puzzles
        .iter()
        .filter(|(p, _)| material_of(p).is_some_and(|m| m.piece_count() == 3))
        .step_by(97)
        .take(3)
        .collect();
    assert_eq!(small.len(), 3);
    let dir = std::env::temp_dir().join(format!("jungle-puzzles-sample-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let options = BuildOptions {
        with_smaller_materials: true,
        out: dir.clone(),
        materials: small.iter().filter_map(|(p, _)| material_of(p)).collect(),
        memory_limit: 1 << 30,
        threads: 2,
        dtz: false,
    };
    build(&Rules::default(), &options, &|_| {}).unwrap();
    let tables = Tablebases::open_dir(&dir).unwrap();
    for (p, _) in &small {
        assert!(
            matches!(verify(p, Some(&tables), 0), Ok(Verdict::Tables { .. })),
            "{}: {:?}",
            p.id,
            verify(p, Some(&tables), 0)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    // One game puzzle, by the search its verification names.
    let (game, _) = puzzles
        .iter()
        .find(|(p, _)| material_of(p).is_none())
        .expect("a game puzzle");
    assert!(
        matches!(verify(game, None, 0), Ok(Verdict::Search { .. })),
        "{}: {:?}",
        game.id,
        verify(game, None, 0)
    );
}

/// Runs of other seeds and node budgets number their games from 1 too: a game puzzle's id names its run
/// ([`SelfPlay::id_prefix`]), game and ply, and no position is in the collection twice (runs of one seed share
/// their random openings, and tablebase samples may meet a game's ending).
#[test]
fn game_ids_name_their_run_and_no_position_repeats() {
    let puzzles = read_collection(COLLECTION).expect("the committed collection reads");
    let mut positions = HashSet::new();
    for (p, _) in &puzzles {
        if let Source::Game {
            seed,
            game,
            ply,
            nodes,
        } = p.source
        {
            let run = SelfPlay {
                seed,
                nodes,
                ..SelfPlay::default()
            };
            assert_eq!(p.id, format!("{}-{game}-{ply}", run.id_prefix()));
        }
        // The placement and the side to move: the move counters do not make another puzzle.
        let position: Vec<&str> = p.fen.split(' ').take(2).collect();
        assert!(
            positions.insert(position.join(" ")),
            "{}: a position already in the collection",
            p.id
        );
    }
}
