//! Perft cases from `tests/data/*.perft`: a `rules` line starts a case, an optional `fen` line sets the
//! position, each `perft DEPTH NODES` line is checked. A new case needs no new code.

use std::path::Path;

use jungle_rules::{Position, Rules, perft};

struct Case {
    file: String,
    line: usize,
    rules: String,
    fen: Option<String>,
    checks: Vec<(u32, u64)>,
}

fn read_cases(path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap();
    let file = path.file_name().unwrap().to_string_lossy().to_string();
    let mut cases: Vec<Case> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "rules" => cases.push(Case {
                file: file.clone(),
                line: i + 1,
                rules: rest.to_string(),
                fen: None,
                checks: vec![],
            }),
            "fen" => cases.last_mut().expect("fen before rules").fen = Some(rest.to_string()),
            "perft" => {
                let (d, n) = rest.split_once(' ').expect("perft DEPTH NODES");
                cases
                    .last_mut()
                    .expect("perft before rules")
                    .checks
                    .push((d.parse().unwrap(), n.trim().parse().unwrap()));
            }
            other => panic!("{file}:{}: unknown key {other}", i + 1),
        }
    }
    cases
}

#[test]
fn perft_files_agree() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "perft") {
            for case in read_cases(&path) {
                let rules: Rules = case.rules.parse().unwrap();
                let pos = match &case.fen {
                    Some(fen) => Position::from_fen(fen, &rules).unwrap(),
                    None => Position::start(&rules),
                };
                for (depth, want) in &case.checks {
                    let got = perft(&pos, &rules, *depth);
                    assert_eq!(
                        got, *want,
                        "{}:{} rules {} depth {depth}",
                        case.file, case.line, case.rules
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 45, "only {checked} perft figures checked");
}
