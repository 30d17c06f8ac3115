//! Client processes: this program started again, each playing a [`Share`] and printing its [`Report`].

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Instant;

use crate::report::Report;
use crate::share::{self, Share};

/// The environment variable that carries a client process's share (as JSON); its presence makes the process
/// a client process.
pub const SHARE_VARIABLE: &str = "JUNGLE_LOAD_SHARE";

/// The line a client process prints its report on (as JSON), among whatever else it prints.
const REPORT_PREFIX: &str = "jungle-load-report ";

/// How to start a client process: a program and the arguments that make it play the share in
/// [`SHARE_VARIABLE`].
#[derive(Clone, Debug)]
pub struct Launcher {
    pub program: PathBuf,
    pub args: Vec<String>,
}

impl Launcher {
    /// This example's own executable.
    pub fn this_program() -> std::io::Result<Launcher> {
        Ok(Launcher {
            program: std::env::current_exe()?,
            args: Vec::new(),
        })
    }
}

/// When this process is a client process: plays the share, prints the report and answers `true`.
pub fn play_share_from_environment() -> Result<bool, String> {
    let Ok(json) = std::env::var(SHARE_VARIABLE) else {
        return Ok(false);
    };
    let share: Share = serde_json::from_str(&json).map_err(|e| format!("{SHARE_VARIABLE}: {e}"))?;
    crate::open_files::raise(share.count * 2)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(share.threads)
        .enable_all()
        .build()
        .map_err(|e| format!("client runtime: {e}"))?;
    let report = runtime.block_on(share::play(&share));
    let json = serde_json::to_string(&report).map_err(|e| format!("report: {e}"))?;
    println!("{REPORT_PREFIX}{json}");
    runtime.shutdown_background();
    Ok(true)
}

/// Starts one client process per share and merges their reports. A process not done by `deadline` is killed
/// (as is every process when this future is dropped); one that fails is counted as a failure of its own kind.
pub async fn play(shares: &[Share], launcher: &Launcher, deadline: Instant) -> Report {
    let mut report = Report::default();
    let mut children = Vec::new();
    for share in shares {
        let json = serde_json::to_string(share).expect("a share serialises");
        let child = tokio::process::Command::new(&launcher.program)
            .args(&launcher.args)
            .env(SHARE_VARIABLE, json)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn();
        match child {
            Ok(child) => children.push(child),
            Err(e) => report.fail_named(format!("client process could not start: {e}")),
        }
    }
    for child in children {
        let output = tokio::time::timeout_at(deadline.into(), child.wait_with_output()).await;
        let Ok(Ok(output)) = output else {
            report.fail_named("client process did not finish in time (killed)".to_string());
            continue;
        };
        let stdout = String::from_utf8_lossy(&output.stdout);
        let reported = stdout
            .lines()
            .find_map(|line| line.strip_prefix(REPORT_PREFIX))
            .and_then(|json| serde_json::from_str::<Report>(json).ok());
        match reported {
            Some(child_report) => report.merge(child_report),
            None => report.fail_named(format!(
                "client process ended ({}) without a report",
                output.status
            )),
        }
    }
    report
}
