//! Load benchmark (not a test): many concurrent PvP games over websockets, from this process or from client
//! processes it starts, against a server in this process or running servers (`--target`).
//!
//! `cargo run --release -p jungle-server --example load -- [--games 500] [--seconds 30] [--pace-ms 500]
//! [--ramp-secs R] [--target URL[,URL...]] [--processes N] [--moves N] [--watch-pids PID[,PID...]]`
//!
//! Each game slot creates a friend game over HTTP, takes both seats, connects both players' websockets and
//! plays random legal moves, each player waiting about `pace` before moving (like a quick human); when a game
//! ends the slot starts another. The slots begin spread over the ramp; the window after it is measured: games
//! in play each second, moves per second, and each move's latency from sending it to the new state arriving
//! on the opponent's socket (checked, saved, and — when the players are on different nodes — carried by the
//! broker) and on the mover's. Every failure is counted under its kind. docs/server.md ("Load benchmark")
//! has the numbers, docs/deployment.md ("Load and capacity") the multi-node ones.
//!
//! With `--processes N` this program starts itself N times as client processes (the share of games each
//! plays comes in an environment variable), each connecting from its own loopback address, and merges their
//! reports: one process may hold only as many sockets as its open-files limit allows.

mod connection;
mod game;
mod open_files;
mod options;
mod processes;
mod report;
mod server;
mod share;
mod target;
mod watch;

#[cfg(test)]
mod tests;

use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime};

use options::{Options, USAGE};
use processes::Launcher;
use report::{Percentiles, Report};
use server::InProcessServer;
use target::Target;
use watch::{Spent, Watch};

/// How long client processes are given to start before the first slot begins.
const CLIENT_STARTUP: Duration = Duration::from_secs(1);

fn main() -> ExitCode {
    match processes::play_share_from_environment() {
        Ok(true) => return ExitCode::SUCCESS,
        Ok(false) => {}
        Err(e) => {
            eprintln!("load (client process): {e}");
            return ExitCode::FAILURE;
        }
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let options = match Options::parse(&args) {
        Ok(options) => options,
        Err(e) => {
            eprintln!("load: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let outcome = Launcher::this_program()
        .map_err(|e| format!("cannot find this program to start client processes: {e}"))
        .and_then(|launcher| run(&options, &launcher));
    match outcome {
        Ok(outcome) => {
            print!("{}", summary(&options, &outcome));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("load: {e}");
            ExitCode::FAILURE
        }
    }
}

/// What a run measured, and against what.
#[derive(Debug)]
struct Outcome {
    report: Report,
    targets: Vec<Target>,
    in_process_server: bool,
    open_files: u64,
    /// The watched servers' use over the window (`--watch-pids`).
    spent: Option<Result<Spent, String>>,
}

/// Starts the server when there is no target, plays every share (here or in client processes) and merges
/// the reports.
fn run(options: &Options, launcher: &Launcher) -> Result<Outcome, String> {
    let in_process_server = options.targets.is_empty();
    let in_process_clients = options.processes == 0;
    // Each game is two websockets on each side of the connection.
    let sockets =
        2 * options.games * (usize::from(in_process_server) + usize::from(in_process_clients));
    let open_files = open_files::raise(sockets)?;
    let server = in_process_server.then(InProcessServer::start).transpose()?;
    let targets = match &server {
        Some(server) => vec![server.target.clone()],
        None => options.targets.clone(),
    };
    let runtime = if in_process_clients {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
    } else {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
    }
    .map_err(|e| format!("client runtime: {e}"))?;
    let delay = if in_process_clients {
        Duration::ZERO
    } else {
        CLIENT_STARTUP
    };
    let (start, started_at) = (Instant::now() + delay, SystemTime::now() + delay);
    let shares = share::split(options, &targets, started_at);
    let window_start = start + options.ramp;
    let end = window_start + options.window;
    // The last move may begin at the end and wait its patience on each socket.
    let deadline = end + options.pace.mul_f64(1.5) + game::PATIENCE * 2 + Duration::from_secs(10);
    let (report, spent) = runtime.block_on(async {
        let watch = (!options.watch_pids.is_empty())
            .then(|| Watch::start(options.watch_pids.clone(), window_start, end));
        let report = if in_process_clients {
            share::play(&shares[0]).await
        } else {
            processes::play(&shares, launcher, deadline).await
        };
        (report, watch.and_then(Watch::finish))
    });
    runtime.shutdown_background();
    drop(server);
    Ok(Outcome {
        report,
        targets,
        in_process_server,
        open_files,
        spent,
    })
}

/// The run's numbers, as printed.
fn summary(options: &Options, outcome: &Outcome) -> String {
    use std::fmt::Write;
    let report = &outcome.report;
    let mut text = String::new();
    let servers = if outcome.in_process_server {
        format!(
            "a server in this process at {}",
            outcome.targets[0].authority
        )
    } else {
        let names: Vec<&str> = outcome
            .targets
            .iter()
            .map(|t| t.authority.as_str())
            .collect();
        names.join(", ")
    };
    let clients = match options.processes {
        0 => "clients in this process".to_string(),
        n => format!("{n} client processes"),
    };
    let _ = writeln!(
        text,
        "load: {} concurrent PvP games on {servers}, {clients}, each player moving after ~{} ms; ramp {} s, \
         window {} s",
        options.games,
        options.pace.as_millis(),
        options.ramp.as_secs_f64(),
        options.window.as_secs_f64()
    );
    let _ = writeln!(
        text,
        "open files: this process may hold {}",
        outcome.open_files
    );
    let in_play = &report.games_in_play;
    match (in_play.iter().min(), in_play.iter().max()) {
        (Some(min), Some(max)) => {
            let _ = writeln!(
                text,
                "games in play in the window (both players connected, each second): min {min}, max {max}"
            );
        }
        _ => {
            let _ = writeln!(
                text,
                "games in play in the window: not sampled (the run stopped first)"
            );
        }
    }
    let _ = writeln!(
        text,
        "games started: {}, finished: {}",
        report.games_started, report.games_finished
    );
    let _ = writeln!(
        text,
        "moves in the window: {} in {:.1} s = {:.0} moves/s ({} in all)",
        report.moves,
        report.window_ms as f64 / 1000.0,
        report.moves_per_second(),
        report.moves_total
    );
    let _ = writeln!(
        text,
        "move latency, send -> the opponent has it ({} samples): {}",
        report.opponent_latency_us.len(),
        Percentiles::of(&report.opponent_latency_us)
    );
    let _ = writeln!(
        text,
        "move latency, send -> the mover has it: {}",
        Percentiles::of(&report.mover_latency_us)
    );
    let _ = writeln!(text, "failures: {}", report.failure_count());
    for (kind, count) in &report.failures {
        let _ = writeln!(text, "  {count} x {kind}");
    }
    if options.processes > 0 {
        let _ = writeln!(
            text,
            "client processes: {:.1} s CPU in the window, {:.3} ms a move; waited {:.1} s for a CPU",
            report.client_cpu_ms as f64 / 1000.0,
            report.client_cpu_ms as f64 / report.moves.max(1) as f64,
            report.client_wait_ms as f64 / 1000.0
        );
    }
    match &outcome.spent {
        None => {}
        Some(Err(e)) => {
            let _ = writeln!(text, "watched servers: {e}");
        }
        Some(Ok(spent)) => {
            let per_move = spent.cpu.as_secs_f64() * 1000.0 / report.moves.max(1) as f64;
            let games = in_play.last().copied().unwrap_or(0).max(1);
            let waited = match spent.waiting {
                Some(waiting) => format!("; waited {:.1} s for a CPU", waiting.as_secs_f64()),
                None => String::new(),
            };
            let _ = writeln!(
                text,
                "watched servers: {:.1} s CPU in {:.1} s ({:.2} cores), {per_move:.3} ms CPU a move; {} MiB \
                 resident at the end = {:.0} KiB a game in play{waited}",
                spent.cpu.as_secs_f64(),
                spent.wall.as_secs_f64(),
                spent.cpu.as_secs_f64() / spent.wall.as_secs_f64().max(0.001),
                spent.resident_kib / 1024,
                spent.resident_kib as f64 / games as f64
            );
        }
    }
    text
}
