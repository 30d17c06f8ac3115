//! The `jungle` binary's rules commands as a user runs them: `perft`, `moves`, `rules`, `show`, and bad input
//! everywhere (exit code 2, exactly one line on stderr, never a panic).

mod common;

use common::{bad, jungle, ok, text};

use jungle_rules::rules::OPTIONS;
use jungle_rules::{Position, Preset, Rules};

const START: &str = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1";

fn last_line(output: &str) -> &str {
    output.lines().last().unwrap_or("")
}

#[test]
fn perft_ends_with_the_node_count() {
    let out = jungle(&["perft", "3"]);
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), "nodes 12240\n");
    // Time and speed go to stderr, keeping stdout for the figures.
    assert!(
        text(&out.stderr).contains("nodes/s"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(last_line(&ok(&["perft", "0"])), "nodes 1");
    assert_eq!(
        last_line(&ok(&["perft", "--threads", "2", "4"])),
        "nodes 260100"
    );
}

#[test]
fn perft_divide_lists_every_root_move_and_sums_to_the_total() {
    let out = ok(&["perft", "--divide", "2"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 25, "{out}");
    assert_eq!(lines[24], "nodes 576");
    let mut moves = Vec::new();
    let mut sum = 0u64;
    for line in &lines[..24] {
        let (m, n) = line.split_once(' ').expect("MOVE COUNT");
        moves.push(m.to_string());
        sum += n.parse::<u64>().unwrap();
    }
    assert_eq!(sum, 576);
    let listed: Vec<String> = ok(&["moves"]).lines().map(str::to_string).collect();
    assert_eq!(
        moves, listed,
        "divide lists the legal moves in sorted order"
    );
}

#[test]
fn perft_follows_rules_and_fen() {
    // Independent figures (the project's shared perft table).
    assert_eq!(
        last_line(&ok(&["perft", "--rules", "dog-swims=true", "3"])),
        "nodes 12264"
    );
    assert_eq!(
        last_line(&ok(&["perft", "--rules", "trap-max-rank=4", "4"])),
        "nodes 255025"
    );
    assert_eq!(
        last_line(&ok(&["perft", "--rules", "animal-checkers", "4"])),
        "nodes 17956"
    );
    // The Lion on d5 jumps both ways by default, not at all horizontally under the option.
    let fen = "e6/7/7/7/3L3/7/7/7/7 w";
    assert_eq!(last_line(&ok(&["perft", "--fen", fen, "1"])), "nodes 4");
    let args = [
        "perft",
        "--fen",
        fen,
        "--rules",
        "lion-jumps-horizontally=false",
        "--divide",
        "1",
    ];
    assert_eq!(ok(&args), "d5d4 1\nd5d6 1\nnodes 2\n");
    // The FEN's start position under explicit standard rules is the default start.
    assert_eq!(
        last_line(&ok(&["perft", "--fen", START, "--rules", "standard", "2"])),
        "nodes 576"
    );
}

#[test]
fn moves_are_listed_sorted_one_per_line() {
    let out = ok(&["moves"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 24);
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted);
    assert!(lines.contains(&"a3a4") && lines.contains(&"g1g2"));
    // Red to move in the start position.
    let red = ok(&[
        "moves",
        "--fen",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b",
    ]);
    assert!(
        red.lines().all(|m| m.ends_with(|c: char| c >= '6')),
        "{red}"
    );
    // The leiden preset lets the land Rat take the Rat in the water.
    let fen = "7/7/7/7/7/Rr5/7/7/7 w";
    assert_eq!(ok(&["moves", "--fen", fen]), "a4a3\na4a5\n");
    assert_eq!(
        ok(&["moves", "--fen", fen, "--rules", "leiden"]),
        "a4a3\na4a5\na4b4\n"
    );
    // A finished game has no moves.
    assert_eq!(ok(&["moves", "--fen", "3W3/2c4/7/7/7/7/7/7/7 b"]), "");
}

#[test]
fn rules_lists_every_option_with_default_and_values_and_every_preset() {
    let out = ok(&["rules"]);
    for option in OPTIONS {
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(option.name))
            .unwrap_or_else(|| panic!("option {} not listed:\n{out}", option.name));
        assert!(line.contains(option.default), "{line}");
        for value in option.values {
            assert!(line.contains(value), "{line} lacks {value}");
        }
    }
    for preset in Preset::ALL {
        assert!(
            out.lines()
                .any(|l| l.split_whitespace().next() == Some(preset.name())),
            "preset {preset} not listed"
        );
    }
}

#[test]
fn rules_check_prints_the_canonical_string() {
    assert_eq!(
        ok(&["rules", "check", "modern,dog-swims=true"]),
        "lion-tiger=equal,dog-swims=true\n"
    );
    assert_eq!(ok(&["rules", "check", "standard"]), "standard\n");
    assert_eq!(
        ok(&["rules", "check", "mistboard"]),
        format!("{}\n", Rules::preset(Preset::Mistboard))
    );
    assert_eq!(
        ok(&["rules", "check", "dog-swims=true,wolf-over-dog=true"]),
        "wolf-over-dog=true,dog-swims=true\n",
        "canonical order is the order of docs/rules.md"
    );
}

#[test]
fn rules_check_names_the_bad_option() {
    let e = bad(&["rules", "check", "tiger-swims=true"]);
    assert!(e.contains("tiger-swims") && e.contains("lion-tiger"), "{e}");
    let e = bad(&["rules", "check", "lion-tiger=huge"]);
    assert!(
        e.contains("lion-tiger") && e.contains("tiger-over-lion"),
        "{e}"
    );
    let e = bad(&["rules", "check", "trap-max-rank=9"]);
    assert!(e.contains("trap-max-rank"), "{e}");
    let e = bad(&["rules", "check", "dog-swims"]);
    assert!(e.contains("dog-swims"), "{e}");
    let e = bad(&["rules", "check", "dog-swims=true,modern"]);
    assert!(e.contains("modern"), "{e}");
}

#[test]
fn show_draws_the_board_the_side_to_move_and_the_fen() {
    let out = ok(&["show", "--plain"]);
    let expected = [
        "    a  b  c  d  e  f  g",
        " 9  l  .  #  *  #  .  t  9",
        " 8  .  d  .  #  .  c  .  8",
        " 7  r  .  p  .  w  .  e  7",
        " 6  .  ~  ~  .  ~  ~  .  6",
        " 5  .  ~  ~  .  ~  ~  .  5",
        " 4  .  ~  ~  .  ~  ~  .  4",
        " 3  E  .  W  .  P  .  R  3",
        " 2  .  C  .  #  .  D  .  2",
        " 1  T  .  #  *  #  .  L  1",
        "    a  b  c  d  e  f  g",
        "Blue to move",
        &format!("fen: {START}"),
        "rules: standard",
    ];
    assert_eq!(out.lines().collect::<Vec<_>>(), expected, "{out}");
    assert!(out.contains(&format!("fen: {START}")), "{out}");
    assert!(out.contains("Blue to move"), "{out}");
    assert!(out.contains("rules: standard"), "{out}");
    // Nine ranks with the pieces of the start position: rank 9 holds the Red Lion and Tiger.
    let rank9 = out
        .lines()
        .find(|l| l.trim_start().starts_with("9 "))
        .expect("rank 9");
    assert!(rank9.contains('l') && rank9.contains('t'), "{rank9}");
    assert!(out.contains('~'), "water is drawn");
    let fen = "3W3/2c4/7/7/7/7/7/7/7 b";
    let out = ok(&["show", "--plain", "--fen", fen]);
    assert!(out.contains("game over") && out.contains("Blue"), "{out}");
    let checkers = ok(&["show", "--plain", "--rules", "animal-checkers"]);
    assert!(
        !checkers.contains('~'),
        "Animal Checkers has no water:\n{checkers}"
    );
    let start = Position::start(&"animal-checkers".parse().unwrap());
    assert!(checkers.contains(&format!("fen: {start}")), "{checkers}");
}

#[test]
fn malformed_fen_is_bad_input_for_every_command() {
    for command in [&["perft", "1"][..], &["moves"], &["show"]] {
        for (fen, says) in [
            ("7/7 w", "ranks"),
            ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5X w", "'X'"),
            (
                "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r",
                "side to move",
            ),
            ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R1/1C3D1/T5L w", "rank 3"),
            ("6t/7/7/7/7/1D5/7/7/7 w", "water"),
            ("", "empty"),
            ("象5t/7/7/7/7/7/7/7/7 w", "'象'"),
            (
                "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 99999999999999999999 1",
                "quiet-ply",
            ),
            (
                "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 0",
                "move number",
            ),
            ("3W3/7/7/7/7/7/7/7/3w3 w", "den"),
        ] {
            let mut args: Vec<&str> = command.to_vec();
            args.extend(["--fen", fen]);
            let e = bad(&args);
            assert!(e.contains(says), "jungle {args:?}: {e}");
        }
    }
}

#[test]
fn unknown_rule_options_are_bad_input_for_every_command() {
    for command in [&["perft", "1"][..], &["moves"], &["show"]] {
        let mut args: Vec<&str> = command.to_vec();
        args.extend(["--rules", "modern,tiger-swims=true"]);
        let e = bad(&args);
        assert!(e.contains("tiger-swims"), "{e}");
        let mut args: Vec<&str> = command.to_vec();
        args.extend(["--rules", "board=hex"]);
        let e = bad(&args);
        assert!(e.contains("board") && e.contains("animal-checkers"), "{e}");
    }
    // A FEN the chosen rules forbid (a Lion in Animal Checkers).
    let e = bad(&["moves", "--rules", "animal-checkers", "--fen", START]);
    assert!(
        e.contains("Lion") || e.contains("Cat") || e.contains("not part"),
        "{e}"
    );
}

#[test]
fn bad_depths_and_arguments_are_bad_input() {
    for depth in ["x", "-1", "99", "3.5", ""] {
        bad(&["perft", depth]);
    }
    let e = bad(&["perft"]);
    assert!(e.contains("<DEPTH>"), "the missing argument is named: {e}");
    bad(&["perft", "--threads", "0", "2"]);
    for threads in ["0", "1025", "x"] {
        bad(&["serve", "--worker-threads", threads]);
    }
    bad(&["perft", "2", "3"]);
    bad(&["moves", "--no-such-flag"]);
    bad(&["no-such-command"]);
    bad(&["show", "--fen"]);
    let e = bad(&[]);
    assert!(e.contains("subcommand"), "{e}");
    let e = bad(&["rules", "check"]);
    assert!(e.contains("<RULES>"), "{e}");
}

#[test]
fn moves_agrees_with_every_rule_case_of_the_rules_library() {
    // The rules library's hand-worked cases, run through `--fen` and `--rules` as a user would.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../jungle-rules/tests/data/rules.cases");
    let data = std::fs::read_to_string(path).expect("the rule cases file");
    let (mut fen, mut rules) = (String::new(), String::new());
    let mut checked = 0;
    for line in data.lines().map(str::trim) {
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "fen" => fen = rest.to_string(),
            "rules" => rules = rest.to_string(),
            "moves" => {
                let expected: String = rest
                    .split_whitespace()
                    .filter(|m| *m != "-")
                    .map(|m| format!("{m}\n"))
                    .collect();
                let got = ok(&["moves", "--fen", &fen, "--rules", &rules]);
                assert_eq!(
                    got, expected,
                    "jungle moves --fen '{fen}' --rules '{rules}'"
                );
                checked += 1;
            }
            _ => {}
        }
    }
    assert!(checked >= 100, "only {checked} cases");
}

/// A reader that stops early (`jungle moves | head -1`) closes the pipe: the command ends quietly, no panic.
#[test]
fn closed_stdout_ends_quietly() {
    for args in [
        &["moves"][..],
        &["perft", "--divide", "3"],
        &["rules"],
        &["show", "--plain"],
    ] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_jungle"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {:?} {stderr}", out.status);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
