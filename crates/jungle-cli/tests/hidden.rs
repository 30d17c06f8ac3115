//! `jungle play --hidden` and `jungle uci --hidden`: Hidden Jungle against the engine, in lines and by protocol.

mod common;

use common::{bad, jungle_with_input, text};

#[test]
fn a_hidden_game_in_lines_shows_unknown_pieces_and_saves_the_setups_at_the_end() {
    let save = std::env::temp_dir().join(format!("jungle-hidden-{}.pgn", std::process::id()));
    let out = jungle_with_input(
        &[
            "play",
            "--hidden",
            "--setup",
            "TLCDEWPR",
            "--level",
            "1",
            "--movetime",
            "20",
            "--save",
            save.to_str().unwrap(),
        ],
        "a3a4\nd5d6\nresign\n",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let before_end = &stdout[..stdout.find("game over").expect("the game ends")];
    assert!(
        before_end.contains("x . # @ # . x"),
        "Red's back rank is unknown: {before_end}"
    );
    assert!(
        before_end.contains("error: there is no piece on d5"),
        "{before_end}"
    );
    assert!(
        stdout.contains("game over: Red wins (resignation)"),
        "{stdout}"
    );
    let record = std::fs::read_to_string(&save).unwrap();
    assert!(
        record.contains("[BlueSetup \"TLCDEWPR\"]") && record.contains("[RedSetup"),
        "{record}"
    );
    let _ = std::fs::remove_file(&save);
}

#[test]
fn bad_hidden_arguments_are_refused() {
    bad(&["play", "--hidden", "--setup", "TLCDEWPX"]);
    bad(&["play", "--hidden", "--setup", "TLCDEWP"]);
    bad(&["play", "--hidden", "--mode", "watch"]);
    bad(&["play", "--setup", "TLCDEWPR"]);
}

#[test]
fn the_hidden_protocol_answers_on_standard_output() {
    let out = jungle_with_input(
        &["uci", "--hidden"],
        "uci\nhidden setup blue\nhidden position blue setup TLCDEWPR\ngo movetime 20\nquit\n",
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("uciok") && stdout.contains("setup ") && stdout.contains("bestmove "),
        "{stdout}"
    );
}
