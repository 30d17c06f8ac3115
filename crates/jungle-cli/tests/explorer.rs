//! `jungle explorer collect` as the project runs it to make the opening explorer's self-play collection: the
//! same games whatever `--jobs`, a text the collection reader accepts, and bad input refused.

mod common;

use common::{bad, ok};

use jungle_platform::selfplay_openings::collection;

#[test]
fn collected_games_read_back_and_do_not_depend_on_the_jobs() {
    let args = [
        "explorer", "collect", "--games", "4", "--nodes", "300", "--seed", "7",
    ];
    let one = ok(&args);
    let two = ok(&[&args[..], &["--jobs", "2"]].concat());
    assert_eq!(one, two);
    let read = collection::read(&one).unwrap();
    assert!(read.rules.is_standard());
    assert_eq!(read.games.len(), 4);
    assert!(
        one.lines().nth(2).unwrap().ends_with("games 1 to 4"),
        "{one}"
    );
    // Continuing a run with later numbers plays other games than its start.
    let later = ok(&[
        "explorer", "collect", "--games", "1", "--first", "5", "--nodes", "300", "--seed", "7",
    ]);
    let later = collection::read(&later).unwrap();
    assert!(read.games.iter().all(|g| g.moves != later.games[0].moves));
}

#[test]
fn other_rules_are_named_in_the_collection() {
    let out = ok(&[
        "explorer", "collect", "--games", "1", "--nodes", "200", "--rules", "modern",
    ]);
    let read = collection::read(&out).unwrap();
    assert_eq!(read.rules, "modern".parse::<jungle_rules::Rules>().unwrap());
}

#[test]
fn bad_arguments_are_refused_in_one_line() {
    assert!(bad(&["explorer", "collect", "--games", "0"]).contains("at least 1"));
    assert!(bad(&["explorer", "collect", "--games", "1", "--jobs", "0"]).contains("at least 1"));
    assert!(
        bad(&["explorer", "collect", "--games", "1", "--rules", "nonsense"]).contains("--rules")
    );
}
