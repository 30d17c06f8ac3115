//! Rule cases from `tests/data/*.cases`: for each position and rule string, the expected legal move list
//! (and optionally the outcome), checked against both the fast generator and the reference generator.
//! A second test proves the cases cover every value of every move-generation option: for each value there is
//! a position whose move list changes when only that option's value changes.

mod reference;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use jungle_rules::rules::OPTIONS;
use jungle_rules::{Position, Rules};

/// One expectation: a position under a rule string.
#[derive(Debug)]
struct Check {
    at: String,
    case: String,
    fen: String,
    rules: String,
    moves: Vec<String>,
    outcome: Option<String>,
}

fn read_checks() -> Vec<Check> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cases"))
        .collect();
    paths.sort();
    let mut checks = Vec::new();
    for path in paths {
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let (mut case, mut fen) = (String::new(), String::new());
        for (i, raw) in text.lines().enumerate() {
            let at = format!("{file}:{}", i + 1);
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            let rest = rest.trim();
            match key {
                "case" => {
                    case = rest.to_string();
                    fen.clear();
                }
                "fen" => fen = rest.to_string(),
                "rules" => {
                    assert!(!fen.is_empty(), "{at}: rules before fen");
                    checks.push(Check {
                        at,
                        case: case.clone(),
                        fen: fen.clone(),
                        rules: rest.to_string(),
                        moves: Vec::new(),
                        outcome: None,
                    });
                }
                "moves" => {
                    let check = checks
                        .last_mut()
                        .unwrap_or_else(|| panic!("{at}: moves before rules"));
                    if rest != "-" {
                        check.moves = rest.split_whitespace().map(str::to_string).collect();
                    }
                    let mut sorted = check.moves.clone();
                    sorted.sort();
                    sorted.dedup();
                    assert_eq!(
                        sorted, check.moves,
                        "{at}: write the list sorted, without repeats"
                    );
                }
                "outcome" => {
                    checks
                        .last_mut()
                        .unwrap_or_else(|| panic!("{at}: outcome before rules"))
                        .outcome = Some(rest.to_string());
                }
                other => panic!("{at}: unknown key {other:?}"),
            }
        }
    }
    checks
}

fn outcome_text(pos: &Position, rules: &Rules) -> String {
    match pos.outcome(rules) {
        Some(o) => format!("{} {}", o.result_str(), o.termination),
        None => "*".to_string(),
    }
}

#[test]
fn fast_and_reference_generators_give_the_expected_lists() {
    let checks = read_checks();
    assert!(checks.len() >= 100, "only {} checks", checks.len());
    let mut failures = Vec::new();
    for c in &checks {
        let rules: Rules = c.rules.parse().unwrap_or_else(|e| panic!("{}: {e}", c.at));
        let pos = Position::from_fen(&c.fen, &rules).unwrap_or_else(|e| panic!("{}: {e}", c.at));
        let mut fast: Vec<String> = pos
            .legal_moves(&rules)
            .iter()
            .map(|m| m.to_string())
            .collect();
        fast.sort();
        let slow = reference::legal_moves(&c.fen, rules.options());
        let name = format!("{} ({}, rules {})", c.case, c.at, c.rules);
        if fast != c.moves {
            failures.push(format!(
                "{name}: fast generator {fast:?}, expected {:?}",
                c.moves
            ));
        }
        if slow != c.moves {
            failures.push(format!(
                "{name}: reference generator {slow:?}, expected {:?}",
                c.moves
            ));
        }
        if let Some(want) = &c.outcome {
            let got = outcome_text(&pos, &rules);
            if &got != want {
                failures.push(format!("{name}: outcome {got:?}, expected {want:?}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The value of every option in a rule string, from its canonical form (defaults filled in).
fn option_values(rules: &Rules) -> BTreeMap<&'static str, String> {
    let canonical = rules.to_string();
    let set: BTreeMap<&str, &str> = canonical
        .split(',')
        .filter_map(|item| item.split_once('='))
        .collect();
    OPTIONS
        .iter()
        .map(|o| (o.name, set.get(o.name).unwrap_or(&o.default).to_string()))
        .collect()
}

#[test]
fn every_value_of_every_move_option_changes_some_expected_list() {
    // The draw options act on a game's history, not on move lists: tests/draw_rules.rs covers them.
    let history_only = ["repetition-draw", "quiet-ply-limit"];
    let mut wanted: BTreeSet<(String, String)> = BTreeSet::new();
    for o in OPTIONS.iter().filter(|o| !history_only.contains(&o.name)) {
        let values: Vec<String> = if o.values == ["N"] {
            (0..=8).map(|n| n.to_string()).collect() // trap-max-rank, the one numeric move option
        } else {
            o.values.iter().map(|v| v.to_string()).collect()
        };
        for v in values {
            wanted.insert((o.name.to_string(), v));
        }
    }
    let checks = read_checks();
    let mut covered = BTreeSet::new();
    for a in &checks {
        for b in &checks {
            if a.fen != b.fen || a.moves == b.moves {
                continue;
            }
            let (va, vb) = (
                option_values(&a.rules.parse().unwrap()),
                option_values(&b.rules.parse().unwrap()),
            );
            for (name, value) in &va {
                if vb[name] != *value {
                    covered.insert((name.to_string(), value.clone()));
                    covered.insert((name.to_string(), vb[name].clone()));
                }
            }
        }
    }
    let missing: Vec<_> = wanted.difference(&covered).collect();
    assert!(
        missing.is_empty(),
        "option values no case shows to matter: {missing:?}"
    );
}
