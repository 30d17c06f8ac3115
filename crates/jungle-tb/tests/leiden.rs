//! The outside check: under the `leiden` rules, the generated 2-piece tables agree with every row of van Rijn
//! & Vis's published 2-piece tablebase (`tests/data/leiden-2piece.csv.zst`; provenance in `tests/data/README.md`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use jungle_rules::{Animal, Piece, Position, Rules, Setup, Side, Square};
use jungle_tb::{Material, Metric, Table, Wdl, generate};

fn csv_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/leiden-2piece.csv.zst")
}

/// The published CSV, kept zstd-compressed (1.3 MB of text, 30 kB compressed).
fn read_csv(path: &Path) -> String {
    let file = std::fs::File::open(path)
        .unwrap_or_else(|e| panic!("the Leiden 2-piece tablebase {}: {e}", path.display()));
    let bytes =
        zstd::decode_all(file).unwrap_or_else(|e| panic!("decompressing {}: {e}", path.display()));
    String::from_utf8(bytes).expect("the CSV is ASCII")
}

fn piece_at(fields: &[f64], side: Side) -> (Piece, Square) {
    let animal = Animal::from_index(fields[0] as usize).expect("strength 0-7");
    let square = Square::from_coords(fields[1] as u8, fields[2] as u8).expect("file 0-6, rank 0-8");
    (Piece::new(side, animal), square)
}

#[test]
fn two_piece_tables_match_every_row_of_the_leiden_tablebase() {
    let path = csv_path();
    let text = read_csv(&path);
    let rules: Rules = "leiden".parse().unwrap();
    let mut tables: HashMap<Material, Arc<Table>> = HashMap::new();
    for material in Material::all_with(2, &rules) {
        let table = generate(material, &rules, &HashMap::new(), Metric::End, &|_| {}).unwrap();
        tables.insert(material, Arc::new(table));
    }

    let mut rows = 0;
    let mut mismatches = Vec::new();
    let mut counts = [0usize; 3];
    for line in text.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells.len(), 7, "bad row {line:?}");
        let numbers: Vec<f64> = cells[..6].iter().map(|c| c.parse().unwrap()).collect();
        let expected = match cells[6] {
            "b'w'" => Wdl::Win,
            "b'b'" => Wdl::Loss,
            "b'd'" => Wdl::Draw,
            other => panic!("unknown class {other} in {line:?}"),
        };
        let (white, white_sq) = piece_at(&numbers[..3], Side::Blue);
        let (black, black_sq) = piece_at(&numbers[3..], Side::Red);
        let mut setup = Setup::default();
        setup.board[white_sq.index()] = Some(white);
        setup.board[black_sq.index()] = Some(black);
        let pos = Position::from_setup(&setup, &rules)
            .unwrap_or_else(|e| panic!("row {line:?} is not a valid position: {e}"));
        let material = Material::of(&pos).canonical();
        let got = tables[&material].probe(&pos).expect("covered").wdl;
        counts[expected as usize] += 1;
        rows += 1;
        if got != expected && mismatches.len() < 20 {
            mismatches.push(format!("{pos}: Leiden {expected}, ours {got}"));
        }
    }
    assert_eq!(rows, 44_819, "row count of {}", path.display());
    // Loss, draw, win for White (Blue) to move, as the data's README counts them.
    assert_eq!(counts, [17_422, 4_335, 23_062]);
    assert!(
        mismatches.is_empty(),
        "{} mismatches, e.g.:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}
