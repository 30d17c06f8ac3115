//! The multi-process mode end to end, kept small: two client processes, four games, three moves each.

use std::collections::BTreeMap;
use std::time::Duration;

use super::*;

#[test]
fn two_client_processes_play_against_an_in_process_server() {
    let options = Options {
        games: 4,
        window: Duration::from_secs(60),
        pace: Duration::from_millis(5),
        ramp: Duration::ZERO,
        targets: Vec::new(),
        processes: 2,
        moves_per_slot: Some(3),
        watch_pids: Vec::new(),
    };
    // The client processes are this test binary running only `client_process` below.
    let launcher = Launcher {
        program: std::env::current_exe().unwrap(),
        args: [
            "tests::client_process",
            "--exact",
            "--ignored",
            "--nocapture",
            "--quiet",
            "--test-threads=1",
        ]
        .map(String::from)
        .to_vec(),
    };
    let outcome = run(&options, &launcher).expect("the run starts");
    let report = &outcome.report;
    assert_eq!(report.failures, BTreeMap::new());
    assert_eq!(report.processes, 2);
    assert_eq!(report.games_started, 4);
    assert_eq!(report.moves_total, 4 * 3);
    assert_eq!(
        report.moves,
        4 * 3,
        "with no ramp every move is in the window"
    );
    assert_eq!(report.opponent_latency_us.len(), 12);
    assert_eq!(report.mover_latency_us.len(), 12);
    let printed = summary(&options, &outcome);
    assert!(printed.contains("2 client processes"), "{printed}");
    assert!(printed.contains("failures: 0"), "{printed}");
}

#[test]
#[ignore = "a client process of two_client_processes_play_against_an_in_process_server, which runs it"]
fn client_process() {
    match processes::play_share_from_environment() {
        Ok(true) => {}
        Ok(false) => eprintln!("not started as a client process: nothing to play"),
        Err(e) => panic!("{e}"),
    }
}
