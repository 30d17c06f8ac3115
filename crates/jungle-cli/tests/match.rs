//! `jungle match` end to end: real engine processes (the built-in engine and deliberately broken scripts),
//! the PGN they leave, and the table printed at the end. Limits are tiny so each match takes seconds.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use jungle_hidden::HiddenGame;
use jungle_rules::Side;
use jungle_rules::pgn::read_games;

fn jungle() -> &'static str {
    env!("CARGO_BIN_EXE_jungle")
}

fn broken(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/broken-engines")
        .join(name)
        .display()
        .to_string()
}

fn temp_pgn(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("jungle-match-{}-{name}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

fn run_match(args: &[&str]) -> Output {
    let out = Command::new(jungle())
        .arg("match")
        .args(args)
        .output()
        .expect("jungle runs");
    assert!(
        out.status.success(),
        "jungle match {args:?} failed: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    out
}

/// `(wins, losses, draws)` of the `Rank …` table row of `name`.
fn table_row(stdout: &str, name: &str) -> (u64, u64, u64) {
    let row = stdout
        .lines()
        .skip_while(|l| !l.starts_with("Rank"))
        .find(|l| l.split_whitespace().nth(1) == Some(name))
        .unwrap_or_else(|| panic!("no table row for {name} in\n{stdout}"));
    let cols: Vec<&str> = row.split_whitespace().collect();
    let n = cols.len();
    (
        cols[n - 4].parse().unwrap(),
        cols[n - 3].parse().unwrap(),
        cols[n - 2].parse().unwrap(),
    )
}

/// Per player: (wins, losses, draws) counted from the PGN's White/Black/Result tags.
fn tally(games: &[jungle_rules::pgn::PgnGame]) -> HashMap<String, (u64, u64, u64)> {
    let mut tally: HashMap<String, (u64, u64, u64)> = HashMap::new();
    for g in games {
        let white = g.tag("White").unwrap().to_string();
        let black = g.tag("Black").unwrap().to_string();
        let result = g.tag("Result").unwrap_or(g.result()).to_string();
        let (w, b) = match result.as_str() {
            "1-0" => ((1, 0, 0), (0, 1, 0)),
            "0-1" => ((0, 1, 0), (1, 0, 0)),
            "1/2-1/2" => ((0, 0, 1), (0, 0, 1)),
            other => panic!("unfinished result {other}"),
        };
        for (name, (a, l, d)) in [(white, w), (black, b)] {
            let e = tally.entry(name).or_default();
            e.0 += a;
            e.1 += l;
            e.2 += d;
        }
    }
    tally
}

#[test]
fn a_match_of_two_built_in_engines_leaves_legal_pgn_that_agrees_with_the_table() {
    let pgn = temp_pgn("builtin");
    let out = run_match(&[
        "-engine",
        "name=deep",
        "depth=3",
        "-engine",
        "name=shallow",
        "depth=1",
        "-each",
        "option.Hash=4",
        "-rules",
        "modern",
        "-games",
        "2",
        "-rounds",
        "3",
        "-repeat",
        "-concurrency",
        "2",
        "-openings",
        "plies=4",
        "depth=2",
        "-maxmoves",
        "80",
        "-resign",
        "movecount=4",
        "score=1500",
        "-draw",
        "movenumber=30",
        "movecount=6",
        "score=2",
        "-srand",
        "11",
        "-stalltimeout",
        "20",
        "-pgnout",
        pgn.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let text = std::fs::read_to_string(&pgn).expect("PGN written");
    let _ = std::fs::remove_file(&pgn);

    // Every game replays legally under its Rules tag (the reader checks every move).
    let games = read_games(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(games.len(), 6, "{stdout}");
    for g in &games {
        // Rules and Termination are read into the game itself.
        assert_eq!(g.game.rules(), &"modern".parse().unwrap());
        assert!(g.game.outcome().is_some(), "{text}");
        assert_eq!(g.tag("TimeControl"), Some("-"));
        assert!(!g.game.moves().is_empty());
    }
    assert_eq!(text.matches("[Rules \"lion-tiger=equal\"]").count(), 6);
    assert_eq!(text.matches("[Termination \"").count(), 6);
    // Engine moves carry {score/depth time}; opening moves {book}.
    assert!(text.contains("{book}"));
    assert!(text.contains("/3 "), "no depth-3 comment in\n{text}");

    // The table agrees with the PGN results, and the head-to-head line with both.
    let from_pgn = tally(&games);
    for name in ["deep", "shallow"] {
        assert_eq!(table_row(&stdout, name), from_pgn[name], "{name}\n{stdout}");
    }
    let (w, l, d) = from_pgn["deep"];
    assert!(
        stdout.contains(&format!("Score of deep vs shallow: {w} - {l} - {d}")),
        "{stdout}"
    );
    assert!(
        stdout.contains("Game pairs [LL LD WL+DD WD WW]"),
        "{stdout}"
    );
    // Healthy engines never forfeit.
    assert!(!stdout.contains("Forfeits:"), "{stdout}");
}

#[test]
fn broken_engines_lose_their_games_with_the_reason_and_the_match_goes_on() {
    let pgn = temp_pgn("broken");
    let log = temp_pgn("broken-log");
    let crash = broken("crash.sh");
    let hang = broken("hang.sh");
    let illegal = broken("illegal.sh");
    let out = run_match(&[
        "-tournament",
        "gauntlet",
        "-engine",
        "name=good",
        "depth=1",
        "-engine",
        &format!("cmd={crash}"),
        "name=crasher",
        "st=0.2",
        "-engine",
        &format!("cmd={hang}"),
        "name=hanger",
        "st=0.2",
        "timemargin=50",
        "-engine",
        &format!("cmd={illegal}"),
        "name=cheater",
        "st=0.2",
        // Without a clock or move time, silence is a stall (after -stalltimeout), not a loss on time.
        "-engine",
        &format!("cmd={hang}"),
        "name=staller",
        "depth=1",
        "-stalltimeout",
        "1.5",
        "-games",
        "2",
        "-openings",
        "plies=2",
        "depth=1",
        "-srand",
        "3",
        "-pgnout",
        pgn.to_str().unwrap(),
        "-enginelog",
        log.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let text = std::fs::read_to_string(&pgn).expect("PGN written");
    let _ = std::fs::remove_file(&pgn);
    let games = read_games(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(games.len(), 8, "{stdout}");

    // The good engine wins all eight; each broken one loses both its games, for its own reason.
    assert_eq!(table_row(&stdout, "good"), (8, 0, 0), "{stdout}");
    let expect = [
        ("crasher", "abandoned", "crashed"),
        ("hanger", "time forfeit", "loses on time"),
        ("cheater", "illegal move", "illegal move \"a1a9\""),
        ("staller", "abandoned", "did not answer within 1.5s"),
    ];
    for (name, termination, reason) in expect {
        assert_eq!(table_row(&stdout, name), (0, 2, 0), "{stdout}");
        let theirs: Vec<_> = games
            .iter()
            .filter(|g| g.tag("White") == Some(name) || g.tag("Black") == Some(name))
            .collect();
        assert_eq!(theirs.len(), 2);
        for g in theirs {
            let outcome = g.game.outcome().expect("finished");
            assert_eq!(outcome.termination.as_str(), termination, "{name}");
        }
        // Both games carry the reason, so the engine was restarted for the second one.
        let listed = stdout
            .lines()
            .filter(|l| l.starts_with("  game ") && l.contains(name) && l.contains(reason))
            .count();
        assert_eq!(listed, 2, "{name}: {reason}\n{stdout}");
        assert!(text.contains(reason), "{reason} not in PGN\n{text}");
    }

    // The engine log has both directions of the conversation.
    let transcript = std::fs::read_to_string(&log).expect("engine log written");
    let _ = std::fs::remove_file(&log);
    for needle in [
        "crasher > go movetime 200",
        "cheater < bestmove a1a9",
        "good < uciok",
        "hanger > uci",
    ] {
        assert!(transcript.contains(needle), "{needle} not in\n{transcript}");
    }
}

#[test]
fn sprt_reports_its_bounds_and_log_likelihood_ratio() {
    let out = run_match(&[
        "-engine",
        "name=a",
        "depth=2",
        "-engine",
        "name=b",
        "depth=1",
        "-rounds",
        "2",
        "-openings",
        "plies=4",
        "depth=1",
        "-ratinginterval",
        "2",
        "-srand",
        "5",
        "-sprt",
        "elo0=0",
        "elo1=10",
        "alpha=0.05",
        "beta=0.05",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("bounds -2.94 and 2.94"), "{stdout}");
    assert!(stdout.contains("SPRT: llr"), "{stdout}");
    assert!(stdout.contains("SPRT result:"), "{stdout}");
    assert!(stdout.contains("Score of a vs b:"), "{stdout}");
}

#[test]
fn bad_match_arguments_exit_2_with_one_line() {
    for args in [
        vec!["-engine", "-engine"],
        vec!["-engine", "depth=1", "-engine", "depth=1", "-games", "x"],
        vec![
            "-engine",
            "cmd=/nonexistent/engine",
            "depth=1",
            "-engine",
            "depth=1",
        ],
        vec![
            "-engine",
            "depth=1",
            "-engine",
            "depth=1",
            "-openings",
            "file=/nonexistent.epd",
        ],
    ] {
        let out = Command::new(jungle())
            .arg("match")
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.trim().lines().count(), 1, "{args:?}: {stderr}");
    }
}

#[test]
fn openings_from_epd_and_pgn_files_start_the_games() {
    let dir = std::env::temp_dir();
    let epd = dir.join(format!("jungle-match-{}.epd", std::process::id()));
    let book = dir.join(format!("jungle-match-{}-book.pgn", std::process::id()));
    // The start position after a3a4, Red to move.
    let fen = "l5t/1d3c1/r1p1w1e/7/7/E6/2W1P1R/1C3D1/T5L b 1 1";
    std::fs::write(&epd, format!("# one opening\n{fen}\n")).unwrap();
    std::fs::write(&book, "[Event \"book\"]\n\n1. g3g4 a7a6 2. g4g5 *\n").unwrap();

    for (file, format, expect) in [(&epd, "epd", "epd"), (&book, "pgn", "pgn")] {
        let pgn = temp_pgn(expect);
        let out = run_match(&[
            "-engine",
            "name=a",
            "depth=1",
            "-engine",
            "name=b",
            "depth=1",
            "-games",
            "2",
            "-repeat",
            "-maxmoves",
            "30",
            "-openings",
            &format!("file={}", file.display()),
            &format!("format={format}"),
            "plies=2",
            "-pgnout",
            pgn.to_str().unwrap(),
        ]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let text = std::fs::read_to_string(&pgn).expect("PGN written");
        let _ = std::fs::remove_file(&pgn);
        let games = read_games(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(games.len(), 2, "{stdout}");
        for g in &games {
            if expect == "epd" {
                // Games from a set-up position say so, and the engines were given it as a FEN.
                assert!(text.contains(&format!("[FEN \"{fen}\"]")), "{text}");
                assert_eq!(
                    g.game.start_position().side_to_move(),
                    jungle_rules::Side::Red
                );
                assert!(text.contains("1... "), "{text}");
            } else {
                // Two book plies from the start (the file's third is cut by plies=2).
                let moves: Vec<String> = g.game.moves().iter().map(|m| m.to_string()).collect();
                assert_eq!(&moves[..2], ["g3g4", "a7a6"]);
                assert!(text.contains("1. g3g4 {book} a7a6 {book} 2. "), "{text}");
                assert!(!text.contains("g4g5 {book}"), "{text}");
            }
        }
    }
    let _ = std::fs::remove_file(&epd);
    let _ = std::fs::remove_file(&book);
}

/// The hidden games of a `-pgnout` file, in the order they were written.
fn hidden_records(text: &str) -> Vec<jungle_hidden::record::Record> {
    text.split("[Event ")
        .filter(|chunk| !chunk.trim().is_empty())
        .map(|chunk| {
            let game = format!("[Event {chunk}");
            jungle_hidden::record::Record::parse(&game).unwrap_or_else(|e| panic!("{e}\n{game}"))
        })
        .collect()
}

#[test]
fn a_hidden_match_sends_each_engine_only_its_own_view_and_records_both_setups() {
    let pgn = temp_pgn("hidden");
    let log = temp_pgn("hidden-log");
    let out = run_match(&[
        "-hidden",
        "-engine",
        "name=strong",
        "-engine",
        "name=weak",
        "option.Skill Level=2",
        "-each",
        "st=0.02",
        "timemargin=2000",
        "-rules",
        "modern",
        "-games",
        "2",
        "-maxmoves",
        "40",
        "-pgnout",
        pgn.to_str().unwrap(),
        "-enginelog",
        log.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let text = std::fs::read_to_string(&pgn).expect("PGN written");
    let transcript = std::fs::read_to_string(&log).expect("engine log written");
    let _ = std::fs::remove_file(&pgn);
    let _ = std::fs::remove_file(&log);
    assert!(!stdout.contains("Forfeits:"), "{stdout}");

    // Every record has both setups, and its moves replay in the true game with the effects it states.
    let records = hidden_records(&text);
    assert_eq!(records.len(), 2, "{text}");
    let mut expected: HashMap<String, Vec<String>> = HashMap::new();
    for record in &records {
        assert_eq!(record.rules, "modern".parse().unwrap());
        assert!(record.outcome.is_some());
        let finished = record.game().unwrap_or_else(|e| panic!("{e}\n{text}"));
        let setups = [
            finished.arrangement(Side::Blue).clone(),
            finished.arrangement(Side::Red).clone(),
        ];
        let names = [record.tag("White").unwrap(), record.tag("Black").unwrap()];
        // The lines each engine should have been sent: its own view before each of its moves.
        let mut game =
            HiddenGame::new(record.rules.clone(), setups[0].clone(), setups[1].clone()).unwrap();
        for public in &record.moves {
            let side = game.side_to_move();
            let i = usize::from(side == Side::Red);
            expected
                .entry(names[i].to_string())
                .or_default()
                .push(jungle_protocol::position_line(
                    &game.view(Some(side)),
                    &setups[i],
                ));
            game.play(public.mv).unwrap();
        }
    }

    // What each engine was sent is exactly that: its own setup and the public moves, never the other setup.
    let mut sent: HashMap<String, Vec<String>> = HashMap::new();
    for line in transcript.lines() {
        let Some((head, body)) = line.split_once(" > ") else {
            continue;
        };
        let name = head.split_whitespace().nth(1).unwrap().to_string();
        if body.starts_with("hidden position") {
            sent.entry(name).or_default().push(body.to_string());
        } else {
            assert!(
                [
                    "uci",
                    "isready",
                    "ucinewgame",
                    "quit",
                    "setoption name Skill Level value 2"
                ]
                .contains(&body)
                    || body.starts_with("go movetime")
                    || body.starts_with("hidden setup"),
                "unexpected line to {name}: {body}"
            );
        }
    }
    assert_eq!(sent, expected, "{transcript}");
    for record in &records {
        let game = record.game().unwrap();
        let (blue, red) = (
            game.arrangement(Side::Blue).to_string(),
            game.arrangement(Side::Red).to_string(),
        );
        for line in &sent[record.tag("White").unwrap()] {
            assert!(!line.contains(&format!("setup {red}")), "{line}");
        }
        for line in &sent[record.tag("Black").unwrap()] {
            assert!(!line.contains(&format!("setup {blue}")), "{line}");
        }
    }
}

#[test]
fn a_hidden_engine_with_a_bad_setup_forfeits() {
    let pgn = temp_pgn("hidden-bad");
    let bad = broken("bad-setup.sh");
    let out = run_match(&[
        "-hidden",
        "-engine",
        &format!("cmd={bad}"),
        "name=bad",
        "-engine",
        "name=good",
        "-each",
        "st=0.02",
        "-games",
        "2",
        "-pgnout",
        pgn.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let text = std::fs::read_to_string(&pgn).expect("PGN written");
    let _ = std::fs::remove_file(&pgn);
    assert_eq!(table_row(&stdout, "good"), (2, 0, 0), "{stdout}");
    assert!(stdout.contains("chose the setup \"LLCDEWPR\""), "{stdout}");
    let records = hidden_records(&text);
    assert_eq!(records.len(), 2);
    assert!(
        records
            .iter()
            .all(|r| r.setups.blue.is_none() && r.moves.is_empty())
    );
}
