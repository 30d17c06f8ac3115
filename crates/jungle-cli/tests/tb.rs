//! `jungle tb` as a user runs it: generate (resumable), probe, stats, verify, and bad input (exit code 2, one
//! line on stderr).

mod common;

use common::{bad, ok};
use std::path::{Path, PathBuf};

use jungle_rules::{Position, Rules};

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jungle-tb-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn generate_two_piece(dir: &Path, rules: &str) -> String {
    ok(&[
        "tb",
        "generate",
        "--pieces",
        "2",
        "--rules",
        rules,
        "--out",
        dir.to_str().unwrap(),
    ])
}

#[test]
fn generate_probe_stats_verify_and_resume() {
    let dir = scratch("main");
    let d = dir.to_str().unwrap();
    let out = generate_two_piece(&dir, "");
    let total = out.lines().last().unwrap();
    assert!(
        total.starts_with("total 36 materials, 85058 positions"),
        "{out}"
    );
    let files = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(files, 36);

    // The Blue Lion next to Red's den wins at once; with Red to move, the Rat cannot stop it.
    let probe = ok(&["tb", "probe", "--dir", d, "--fen", "7/3L3/7/7/7/7/7/7/r6 w"]);
    let lines: Vec<&str> = probe.lines().collect();
    assert_eq!(lines[0], "wdl win");
    assert_eq!(lines[1], "plies 1");
    assert_eq!(lines[2], "d8d9 win 1");
    let rules = Rules::default();
    let pos = Position::from_fen("7/3L3/7/7/7/7/7/7/r6 w", &rules).unwrap();
    assert_eq!(lines.len() - 2, pos.legal_moves(&rules).len());
    let probe = ok(&["tb", "probe", "--dir", d, "--fen", "7/3L3/7/7/7/7/7/7/r6 b"]);
    assert!(probe.starts_with("wdl loss\nplies 2\n"), "{probe}");
    assert!(
        probe.lines().skip(2).all(|l| l.ends_with("loss 2")),
        "{probe}"
    );

    // A finished game needs no table; a draw has no distance.
    let probe = ok(&["tb", "probe", "--dir", d, "--fen", "3L3/7/7/7/7/7/7/7/r6 b"]);
    assert_eq!(probe, "wdl loss\nplies 0\n");

    let stats = ok(&["tb", "stats", d]);
    assert!(stats.starts_with("rules standard\n"), "{stats}");
    assert!(stats.contains("\nL-r positions "), "{stats}");
    // The counts by side to move add up to the totals; a symmetric material stores Blue to move only.
    for line in stats.lines().filter(|l| l.contains(" positions ")) {
        let words: Vec<&str> = line.split(' ').collect();
        let field = |name: &str| words[words.iter().position(|w| *w == name).unwrap() + 1];
        let counts = |name: &str| -> Vec<u64> {
            field(name).split('/').map(|n| n.parse().unwrap()).collect()
        };
        let (blue, red) = (counts("blue-to-move"), counts("red-to-move"));
        for (i, total) in ["wins", "draws", "losses"].into_iter().enumerate() {
            assert_eq!(
                blue[i] + red[i],
                field(total).parse::<u64>().unwrap(),
                "{line}"
            );
        }
        let (blue_animals, red_animals) = words[0].split_once('-').unwrap();
        let symmetric = blue_animals.to_lowercase() == red_animals;
        assert_eq!(red.iter().sum::<u64>() == 0, symmetric, "{line}");
    }
    assert!(
        stats.ends_with("total 36 materials 85058 positions\n"),
        "{stats}"
    );

    let verify = ok(&["tb", "verify", d]);
    assert!(verify.ends_with("verified 36 tables\n"), "{verify}");

    // Resume: intact files are kept; a damaged one is made again.
    let damaged = dir.join("L-r.jtb");
    let bytes = std::fs::read(&damaged).unwrap();
    std::fs::write(&damaged, &bytes[..bytes.len() / 2]).unwrap();
    let again = generate_two_piece(&dir, "");
    assert_eq!(again.matches("kept existing file").count(), 35, "{again}");
    assert_eq!(std::fs::read(&damaged).unwrap(), bytes);

    // The draw options do not change a table.
    let probe = ok(&[
        "tb",
        "probe",
        "--dir",
        d,
        "--rules",
        "quiet-ply-limit=100",
        "--fen",
        "7/3L3/7/7/7/7/7/7/r6 w",
    ]);
    assert!(probe.starts_with("wdl win\nplies 1\n"), "{probe}");

    // Tables made under other rules are refused, by probe and by generate into the same directory.
    let e = bad(&[
        "tb",
        "probe",
        "--dir",
        d,
        "--rules",
        "modern",
        "--fen",
        "7/3L3/7/7/7/7/7/7/r6 w",
    ]);
    assert!(
        e.contains("rules \"standard\"") && e.contains("lion-tiger=equal"),
        "{e}"
    );
    let e = bad(&[
        "tb", "generate", "--pieces", "2", "--rules", "modern", "--out", d,
    ]);
    assert!(e.contains("not under the requested rules"), "{e}");

    // Positions the tables do not cover.
    let e = bad(&[
        "tb",
        "probe",
        "--dir",
        d,
        "--fen",
        "7/3L3/7/7/7/7/7/7/r5e w",
    ]);
    assert!(e.contains("no table for material ER-l"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn probe_values_every_move_for_three_pieces() {
    let dir = scratch("three");
    let d = dir.to_str().unwrap();
    let out = ok(&["tb", "generate", "--material", "LR-e", "--out", d]);
    assert!(out.contains("LR-e positions"), "{out}");
    let fen = "4e2/7/7/7/7/7/7/1R5/L6 w";
    let probe = ok(&["tb", "probe", "--dir", d, "--fen", fen]);
    let lines: Vec<&str> = probe.lines().collect();
    let (wdl, plies) = (lines[0], lines[1]);
    // The first move listed is the best, and carries the position's own value.
    let best: Vec<&str> = lines[2].split(' ').collect();
    assert_eq!(format!("wdl {}", best[1]), wdl);
    assert_eq!(format!("plies {}", best[2]), plies);
    let verify = ok(&["tb", "verify", d]);
    assert!(verify.contains("LR-e ok"), "{verify}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_refused_with_one_line() {
    let dir = scratch("bad");
    let d = dir.to_str().unwrap();
    // `jungle tb generate ARGS --out DIR`, refused: its stderr line.
    let generate = |args: &[&str]| bad(&[&["tb", "generate"], args, &["--out", d]].concat());
    assert!(generate(&["--material", "LX-r"]).contains("'X'"));
    assert!(generate(&["--material", "LR"]).contains("'-'"));
    assert!(generate(&[]).contains("--pieces"));
    assert!(generate(&["--pieces", "2", "--material", "LR-e"]).contains("more than --pieces 2"));
    assert!(generate(&["--pieces", "2", "--rules", "tiger-swims=true"]).contains("tiger-swims"));
    assert!(generate(&["--pieces", "9"]).contains("9"));
    assert!(
        generate(&["--material", "CR-e", "--rules", "animal-checkers"]).contains("not in play")
    );
    // A material over the memory limit is refused before any work, and nothing is written.
    assert!(generate(&["--pieces", "2", "--memory-mb", "0"]).contains("over the limit of 0 MB"));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    bad(&[
        "tb",
        "probe",
        "--dir",
        "/nonexistent/tables",
        "--fen",
        "7/3L3/7/7/7/7/7/7/r6 w",
    ]);
    bad(&["tb", "stats", "/nonexistent/tables"]);
    bad(&["tb", "verify", "/nonexistent/tables"]);
    std::fs::create_dir_all(&dir).unwrap();
    assert!(bad(&["tb", "stats", d]).contains("no tables"));
    bad(&["tb", "probe", "--dir", d, "--fen", "not a fen"]);
    std::fs::write(dir.join("R-r.jtb"), b"garbage").unwrap();
    assert!(bad(&["tb", "stats", d]).contains("not a Jungle tablebase"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--dtz` adds the tables of distances to the next capture: `probe` prints `dtz N`, `verify` checks them too.
#[test]
fn generate_with_dtz_probe_and_verify() {
    let dir = scratch("dtz");
    let d = dir.to_str().unwrap();
    let out = ok(&["tb", "generate", "--material", "LR-e", "--dtz", "--out", d]);
    assert!(out.contains("\nLR-e dtz positions "), "{out}");
    assert!(out.contains("longest win before a capture"), "{out}");
    assert!(
        out.lines().last().unwrap().starts_with("total 3 materials"),
        "{out}"
    );
    assert!(dir.join("LR-e.jtz").exists() && dir.join("LR-e.jtb").exists());
    // Red's Elephant on b3 may take Blue's Lion on a3 and still win, in 7 plies: the distance to the capture
    // is 1 (the quickest win goes round it).
    let probe = ok(&["tb", "probe", "--dir", d, "--fen", "7/7/7/7/7/7/Le5/7/6R b"]);
    let lines: Vec<&str> = probe.lines().collect();
    assert_eq!(lines[..3], ["wdl win", "plies 7", "dtz 1"], "{probe}");
    let verify = ok(&["tb", "verify", d]);
    assert!(verify.contains("LR-e dtz ok"), "{verify}");
    assert!(verify.ends_with("verified 6 tables\n"), "{verify}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// What a distributed run does: `plan` gives the materials with what each needs, `generate --only` makes one
/// material from the sub-tables on disk, `verify --material` checks it alone; the files equal a whole run's.
#[test]
fn plan_then_one_material_at_a_time() {
    let (whole, pieces) = (scratch("whole"), scratch("pieces"));
    let p = pieces.to_str().unwrap();
    let plan = ok(&["tb", "plan", "--material", "LR-e"]);
    let mut seen: Vec<&str> = Vec::new();
    for line in plan.lines() {
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!((words[1], words[3]), ("indices", "needs"), "{line}");
        assert!(words[2].parse::<u64>().unwrap() > 0, "{line}");
        // Each material comes after the ones it needs.
        let needs = &words[4..];
        assert!(
            needs == ["-"] || needs.iter().all(|n| seen.contains(n)),
            "{plan}"
        );
        seen.push(words[0]);
    }
    assert_eq!(seen, ["E-l", "E-r", "LR-e"], "{plan}");
    assert!(
        plan.ends_with("LR-e indices 179800 needs E-r E-l\n"),
        "{plan}"
    );

    // Alone, a material needs its sub-tables in the directory.
    let e = bad(&["tb", "generate", "--only", "--material", "LR-e", "--out", p]);
    assert!(e.contains("LR-e needs the table of E-"), "{e}");
    assert!(!pieces.join("LR-e.jtb").exists());
    for key in &seen {
        let out = ok(&["tb", "generate", "--only", "--material", key, "--out", p]);
        assert!(out.contains(&format!("{key} positions")), "{out}");
        assert!(
            out.lines().last().unwrap().starts_with("total 1 materials"),
            "{out}"
        );
    }
    let verify = ok(&["tb", "verify", p, "--material", "e-lr"]);
    assert_eq!(verify, "LR-e ok 147336 positions\nverified 1 tables\n");
    let e = bad(&["tb", "verify", p, "--material", "TC-w"]);
    assert!(e.contains("no table for material TC-w"), "{e}");

    ok(&[
        "tb",
        "generate",
        "--material",
        "LR-e",
        "--out",
        whole.to_str().unwrap(),
    ]);
    for key in &seen {
        let name = format!("{key}.jtb");
        assert!(
            std::fs::read(whole.join(&name)).unwrap() == std::fs::read(pieces.join(&name)).unwrap(),
            "{name} differs"
        );
    }
    assert!(bad(&["tb", "plan"]).contains("--pieces"));
    assert!(bad(&["tb", "plan", "--material", "LX-r"]).contains("'X'"));
    std::fs::remove_dir_all(&whole).ok();
    std::fs::remove_dir_all(&pieces).ok();
}
