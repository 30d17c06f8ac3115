//! `jungle play` in line mode (standard input is a pipe, not a terminal): scripted games.

mod common;

use std::path::PathBuf;
use std::process::Output;

fn jungle_play(args: &[&str], script: &str) -> Output {
    common::jungle_with_input(&[&["play"], args].concat(), script)
}

fn temp_file(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("jungle-play-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// Blue's Leopard walks up the d-file into Red's den while Red's Lion steps back and forth.
const DEN_RUN: &str = "e3d3 a9a8 d3d4 a8a9 d4d5 a9a8 d5d6 a8a9 d6d7 a9a8 d7d8 a8a9 d8d9";

#[test]
fn a_scripted_two_player_game_reaches_the_den_and_is_saved() {
    let pgn_path = temp_file("den.pgn");
    let mut script: String = DEN_RUN.split(' ').map(|m| format!("{m}\n")).collect();
    script.push_str(&format!("save {}\nquit\n", pgn_path.display()));
    let out = jungle_play(&["--mode", "two-players"], &script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("*** BLUE WINS: Blue entered Red's den (1-0) ***"),
        "{stdout}"
    );
    assert!(
        stdout.contains("7. Blue Leopard d8d9 — Blue wins (den entered)"),
        "{stdout}"
    );
    // The final board shows the Leopard in the den, the last move in brackets.
    assert!(stdout.contains(" 9  l  .  # [P] #  .  t  9"), "{stdout}");
    assert!(stdout.contains("game over> "), "{stdout}");

    let pgn = std::fs::read_to_string(&pgn_path).expect("the game was saved");
    assert!(
        pgn.contains("[White \"Blue player\"]\n[Black \"Red player\"]\n[Result \"1-0\"]\n"),
        "{pgn}"
    );
    assert!(pgn.contains("[Variant \"Jungle\"]"), "{pgn}");
    assert!(pgn.contains("[Termination \"den entered\"]"), "{pgn}");
    assert!(
        !pgn.contains("[FEN"),
        "a game from the start has no FEN tag: {pgn}"
    );
    assert!(
        pgn.contains("1. e3d3 a9a8 2. d3d4 a8a9 3. d4d5 a9a8 4. d5d6 a8a9 5. d6d7 a9a8 6. d7d8 a8a9\n7. d8d9 1-0\n")
            || pgn.contains("1. e3d3 a9a8 2. d3d4 a8a9 3. d4d5 a9a8 4. d5d6 a8a9 5. d6d7 a9a8 6. d7d8 a8a9 7. d8d9\n1-0\n"),
        "{pgn}"
    );

    // The saved game loads back, over, with its banner.
    let out = jungle_play(
        &[
            "--mode",
            "two-players",
            "--load",
            pgn_path.to_str().unwrap(),
        ],
        "moves\nquit\n",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("*** BLUE WINS: Blue entered Red's den (1-0) ***"),
        "{stdout}"
    );
    assert!(
        stdout.contains("legal moves: \n") || stdout.contains("legal moves: \r\n"),
        "{stdout}"
    );
    let _ = std::fs::remove_file(&pgn_path);
}

#[test]
fn illegal_moves_and_commands_are_answered_line_by_line() {
    let script = "a1a3\nc3c4\nhello\na3a4\nundo\nundo\ng1g2\nresign\nquit\n";
    let out = jungle_play(&["--mode", "two-players", "--rules", "modern"], script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("rules lion-tiger=equal"), "{stdout}");
    assert!(
        stdout.contains("error: illegal move a1a3: the Blue Tiger on a1 cannot reach a3"),
        "{stdout}"
    );
    assert!(
        stdout.contains("error: illegal move c3c4: the Blue Wolf may not enter water"),
        "{stdout}"
    );
    assert!(
        stdout.contains("error: move \"hello\" should be two squares like a3a4"),
        "{stdout}"
    );
    assert!(stdout.contains("took back a3a4; Blue to move"), "{stdout}");
    assert!(stdout.contains("error: nothing to undo"), "{stdout}");
    assert!(
        stdout.contains("*** BLUE WINS: Red resigned (1-0) ***"),
        "{stdout}"
    );
    assert!(
        stdout.contains("the game is not saved"),
        "quitting offers to save: {stdout}"
    );
}

#[test]
fn the_engine_replies_in_line_mode() {
    let out = jungle_play(
        &["--level", "1", "--movetime", "50", "--side", "blue"],
        "a3a4\nquit\nquit\n",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("You vs jungle engine (level 1)"),
        "{stdout}"
    );
    let reply = stdout
        .lines()
        .find(|l| l.starts_with("1... Red "))
        .unwrap_or_else(|| panic!("the engine's reply is reported: {stdout}"));
    assert!(reply.ends_with("Blue to move"), "{reply}");
    assert!(
        stdout.contains("engine Red: depth "),
        "the engine's depth and score: {stdout}"
    );
}

#[test]
fn bad_options_are_refused_with_exit_code_2() {
    for (args, message) in [
        (vec!["--mode", "chess"], "unknown mode \"chess\""),
        (vec!["--side", "green"], "unknown side \"green\""),
        (vec!["--level", "9"], "skill level 9 is out of range"),
        (vec!["--tc", "5+x"], "time control \"5+x\""),
        (
            vec!["--rules", "tiger-swims=true"],
            "unknown rule option \"tiger-swims\"",
        ),
        (
            vec!["--load", "/nonexistent/game.pgn"],
            "cannot read /nonexistent/game.pgn",
        ),
    ] {
        let out = jungle_play(&args, "");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

#[test]
fn watching_the_engine_finish_a_won_position() {
    // Blue's Lion stands next to Red's den: at full strength the engine steps in.
    let out = jungle_play(
        &[
            "--mode",
            "watch",
            "--level",
            "8",
            "--movetime",
            "50",
            "--fen",
            "6t/3L3/7/7/7/7/7/7/6l w 0 1",
        ],
        "quit\n",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("jungle engine (level 8) vs jungle engine (level 8)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("1. Blue Lion d8d9 — Blue wins (den entered)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("*** BLUE WINS: Blue entered Red's den (1-0) ***"),
        "{stdout}"
    );
}

#[test]
fn garbage_lines_get_answers_not_crashes() {
    let long = "x".repeat(10_000);
    let script = format!(
        "\n   \nzzzz\na1\nä€ß\n{long}\nsave /nonexistent/dir/game.pgn\nsave\nflip\nboard\nhint\nundo\nnew\nmoves\npgn\nhelp\nquit\n"
    );
    let out = jungle_play(
        &[
            "--mode",
            "two-players",
            "--movetime",
            "20",
            "--save",
            "/nonexistent/x.pgn",
        ],
        &script,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("error: move \"zzzz\": origin square \"zz\" is not on the board"),
        "{stdout}"
    );
    assert!(
        stdout.contains("error: line too long (10000 characters)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("error: cannot save to /nonexistent/dir/game.pgn"),
        "{stdout}"
    );
    assert!(
        stdout.contains("error: cannot save to /nonexistent/x.pgn"),
        "{stdout}"
    );
    assert!(
        stdout.contains("    g  f  e  d  c  b  a\n 1  L  .  #  *  #  .  T  1"),
        "the flipped board: {stdout}"
    );
    assert!(stdout.contains("hint: "), "{stdout}");
    assert!(stdout.contains("legal moves: a1b1 a1a2"), "{stdout}");
    assert!(
        stdout.contains("[Variant \"Jungle\"]"),
        "the pgn command prints the record: {stdout}"
    );
    assert!(stdout.contains("commands: board, moves"), "{stdout}");
}
