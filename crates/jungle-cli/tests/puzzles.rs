//! `jungle puzzles` as a user runs it: make tablebase puzzles, verify them (and refuse a tampered one), and bad
//! input (exit code 2, one line on stderr).

mod common;

use common::{bad, jungle, ok, text};

#[test]
fn tablebase_puzzles_are_made_and_verified_and_a_tampered_one_fails() {
    let dir = std::env::temp_dir().join(format!("jungle-puzzles-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    ok(&["tb", "generate", "--material", "ER-l", "--out", d]);
    let made = ok(&[
        "puzzles",
        "tablebase",
        "--tb",
        d,
        "--material",
        "ER-l",
        "--per-material",
        "5",
    ]);
    assert_eq!(made.lines().count(), 5, "{made}");
    let file = dir.join("puzzles.jsonl");
    std::fs::write(&file, &made).unwrap();
    let f = file.to_str().unwrap();
    let checked = ok(&["puzzles", "verify", f, "--tb", d]);
    let summary = checked.lines().last().unwrap();
    assert!(
        summary.starts_with("5 puzzles: 5 verified by the tables, 0 by search, 0 failed"),
        "{checked}"
    );

    // A puzzle claiming another distance than the tables': exit 1 and the puzzle named.
    let first: serde_json::Value = serde_json::from_str(made.lines().next().unwrap()).unwrap();
    let id = first["id"].as_str().unwrap().to_string();
    let mut tampered = first.clone();
    tampered["verified"]["plies"] = serde_json::json!(99);
    std::fs::write(&file, format!("{tampered}\n")).unwrap();
    let out = jungle(&["puzzles", "verify", f, "--tb", d]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains(&format!("{id} FAILED")),
        "{}",
        text(&out.stdout)
    );

    // A line that is not a puzzle is bad input, with its line number.
    std::fs::write(&file, "{\"id\": 3}\n").unwrap();
    assert!(bad(&["puzzles", "verify", f]).contains("line 1"));
    assert!(bad(&["puzzles", "verify", "/nonexistent/puzzles.jsonl"]).contains("nonexistent"));
    assert!(bad(&["puzzles", "tablebase", "--tb", d, "--material", "XX-y"]).contains("XX-y"));
    let _ = std::fs::remove_dir_all(&dir);
}
