//! The harness the `jungle` command's test files share: run the built binary, expect success or a refusal.

#![allow(dead_code)] // each test binary uses its own subset

use std::process::{Command, Output};

pub fn jungle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jungle"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the jungle binary runs")
}

/// Runs `jungle ARGS` with `script` on its standard input (a pipe, so interactive commands use line mode).
pub fn jungle_with_input(args: &[&str], script: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_jungle"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the jungle binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("utf-8 output")
}

/// Runs a command that must succeed; returns its standard output.
pub fn ok(args: &[&str]) -> String {
    let out = jungle(args);
    assert!(
        out.status.success(),
        "jungle {args:?} failed ({:?}): {}",
        out.status.code(),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// Runs a command that must be refused as bad input; returns its one stderr line.
pub fn bad(args: &[&str]) -> String {
    let out = jungle(args);
    let stderr = text(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(2),
        "jungle {args:?}: exit {:?}, stderr {stderr:?}",
        out.status.code()
    );
    assert!(
        !stderr.contains("panicked"),
        "jungle {args:?} panicked: {stderr}"
    );
    assert_eq!(
        stderr.lines().count(),
        1,
        "jungle {args:?}: stderr should be one line: {stderr:?}"
    );
    assert!(
        stderr.ends_with('\n') && stderr.trim().len() > 10,
        "{stderr:?}"
    );
    assert!(
        text(&out.stdout).is_empty(),
        "jungle {args:?} wrote to stdout"
    );
    stderr
}
