//! `jungle uci` and `jungle bench` as processes: the protocol over real pipes, and the bench's last lines.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

fn jungle() -> Command {
    Command::new(env!("CARGO_BIN_EXE_jungle"))
}

/// `jungle uci` started with its input and output piped.
fn uci() -> (Child, ChildStdin, BufReader<ChildStdout>) {
    let mut child = jungle()
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("jungle runs");
    let stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    (child, stdin, stdout)
}

/// The engine's lines up to and including the first that starts with `prefix`.
fn read_until(stdout: &mut impl BufRead, prefix: &str) -> Vec<String> {
    let mut lines = Vec::new();
    loop {
        let mut line = String::new();
        assert!(
            stdout.read_line(&mut line).unwrap() > 0,
            "eof before {prefix}: {lines:?}"
        );
        let line = line.trim_end().to_string();
        let done = line.starts_with(prefix);
        lines.push(line);
        if done {
            return lines;
        }
    }
}

#[test]
fn uci_over_pipes_answers_and_moves_legally() {
    let (mut child, mut stdin, mut stdout) = uci();
    let mut read_until = |prefix: &str| read_until(&mut stdout, prefix);
    writeln!(stdin, "uci").unwrap();
    read_until("uciok");
    writeln!(stdin, "setoption name Rules value modern").unwrap();
    writeln!(stdin, "position startpos moves a3a4 g7g6 oops").unwrap();
    writeln!(stdin, "isready").unwrap();
    let lines = read_until("readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("oops")),
        "{lines:?}"
    );
    writeln!(stdin, "position startpos moves a3a4").unwrap();
    writeln!(stdin, "go movetime 50").unwrap();
    let lines = read_until("bestmove");
    let best = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    let rules: jungle_rules::Rules = "modern".parse().unwrap();
    let mut game = jungle_rules::Game::new(rules);
    game.play_text("a3a4").unwrap();
    assert!(game.play_text(&best).is_ok(), "{best} is legal for Red");
    writeln!(stdin, "quit").unwrap();
    assert!(child.wait().unwrap().success());
}

#[test]
fn net_and_tablebase_paths_to_devices_pipes_or_huge_files_are_refused_with_info_string() {
    // Issue 29.5: `EvalFile /dev/zero` read until the kernel killed the engine at 22 GB.
    let dir = std::env::temp_dir().join(format!("jungle-uci-paths-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("tables")).unwrap();
    let huge = dir.join("huge.nnue");
    // Sparse: one byte longer than any net of the format, without writing it.
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(jungle_search::nnue::network::MAX_FILE_BYTES as u64 + 1)
        .unwrap();
    // A pipe named like a table: opening it to read would wait for a writer forever.
    let fifo = dir.join("tables").join("kr.jtb");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success(),
        "mkfifo"
    );
    let (mut child, mut stdin, mut stdout) = uci();
    for (option, value, reason) in [
        ("EvalFile", "/dev/zero".into(), "not a regular file"),
        (
            "EvalFile",
            huge.display().to_string(),
            "longer than any net",
        ),
        (
            "TablebasePath",
            dir.join("tables").display().to_string(),
            "not a regular file",
        ),
    ] {
        writeln!(stdin, "setoption name {option} value {value}").unwrap();
        writeln!(stdin, "isready").unwrap();
        let lines = read_until(&mut stdout, "readyok");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string") && l.contains(reason)),
            "{option} {value}: {lines:?}"
        );
    }
    // The engine still plays, by hand and without tables.
    writeln!(stdin, "position startpos").unwrap();
    writeln!(stdin, "go movetime 50").unwrap();
    read_until(&mut stdout, "bestmove");
    writeln!(stdin, "quit").unwrap();
    assert!(child.wait().unwrap().success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_prints_nodes_searched_then_nodes_per_second() {
    let output = jungle().args(["bench", "3"]).output().expect("jungle runs");
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let n = lines.len();
    assert!(lines[n - 2].starts_with("Nodes searched: "), "{text}");
    assert!(lines[n - 1].starts_with("Nodes/second: "), "{text}");
    let nodes = |t: &str| {
        t.lines()
            .rev()
            .nth(1)
            .unwrap()
            .trim_start_matches("Nodes searched: ")
            .parse::<u64>()
            .unwrap()
    };
    // Deterministic: the same count twice.
    let again = jungle().args(["bench", "3"]).output().unwrap();
    assert_eq!(
        nodes(&text),
        nodes(&String::from_utf8(again.stdout).unwrap())
    );
}

#[test]
fn bench_rejects_a_bad_depth_with_exit_code_2() {
    let output = jungle()
        .args(["bench", "zero"])
        .output()
        .expect("jungle runs");
    assert_eq!(output.status.code(), Some(2));
}
