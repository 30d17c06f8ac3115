//! A deployment under test: `scripts/cluster` started on free loopback ports in a fresh folder, with the
//! `jungle` binary this build made; its parts are crashed and restarted through the same script, and
//! everything it started is stopped when the [`Cluster`] is dropped (also when a test fails).

use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// How long the whole cluster may take to start (PostgreSQL's initdb on a busy machine is the slow part).
const START_PATIENCE: Duration = Duration::from_secs(120);

/// The ports the script uses from its base port: nginx, up to 8 nodes, PostgreSQL at +10, NATS at +11.
const PORTS_USED: u16 = 12;

/// What runs behind nginx.
#[derive(Clone, Copy, Debug)]
pub enum Topology {
    /// One node on a SQLite file: no PostgreSQL, no NATS.
    OneNodeOnSqlite,
    /// Three nodes on PostgreSQL and NATS.
    ThreeNodes,
}

pub struct Cluster {
    dir: PathBuf,
    /// nginx: the only address clients use.
    pub addr: SocketAddr,
    script: Child,
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/cluster")
}

/// A base port whose next [`PORTS_USED`] ports are all free now. They are taken below 32,768, where Linux's
/// own ports for outgoing connections begin (`ip_local_port_range`): a machine busy with many connections (a
/// load test) holds thousands of those.
fn free_ports() -> u16 {
    // Spread by process id, so test processes running at once rarely try the same ports; and within this
    // process each cluster starts from a run of its own (the tests run in parallel threads, and a run found
    // free is not taken until its cluster has started).
    static CLUSTERS: AtomicU32 = AtomicU32::new(0);
    let seed = std::process::id().wrapping_mul(97);
    let first = CLUSTERS.fetch_add(1, Ordering::Relaxed) * 50;
    (first..first + 200)
        .map(|attempt| {
            (10_000 + seed.wrapping_add(attempt * 2 * u32::from(PORTS_USED)) % 22_000) as u16
        })
        .find(|&base| {
            (base..base + PORTS_USED).all(|port| TcpListener::bind(("127.0.0.1", port)).is_ok())
        })
        .expect("a run of free loopback ports")
}

impl Cluster {
    pub fn start(name: &str, topology: Topology) -> Cluster {
        let dir = std::env::temp_dir().join(format!("jungle-faults-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let port = free_ports();
        let mut command = Command::new("bash");
        command
            .arg(script())
            .arg("start")
            .arg("--dir")
            .arg(&dir)
            .args(["--port", &port.to_string()]);
        match topology {
            Topology::OneNodeOnSqlite => command.arg("--sqlite"),
            Topology::ThreeNodes => command.args(["--nodes", "3"]),
        };
        let mut script = command
            .env("JUNGLE_BIN", env!("CARGO_BIN_EXE_jungle"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("scripts/cluster runs");
        let (lines, started) = mpsc::channel();
        let stdout = script.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if lines.send(line).is_err() {
                    break;
                }
            }
        });
        // Dropped (and so stopped) if the start fails from here on.
        let cluster = Cluster {
            dir,
            addr: SocketAddr::from(([127, 0, 0, 1], port)),
            script,
        };
        loop {
            let line = started
                .recv_timeout(START_PATIENCE)
                .expect("scripts/cluster prints the address once everything runs");
            if line.starts_with("jungle cluster: open http://") {
                return cluster;
            }
        }
    }

    fn run(&self, command: &str, part: &str) {
        let status = Command::new("bash")
            .arg(script())
            .args([command, part, "--dir"])
            .arg(&self.dir)
            .env("JUNGLE_BIN", env!("CARGO_BIN_EXE_jungle"))
            .stdin(Stdio::null())
            .status()
            .expect("scripts/cluster runs");
        assert!(status.success(), "scripts/cluster {command} {part} failed");
    }

    /// Crashes a part: `node1`… (SIGKILL), `nats` (SIGKILL), `postgres` (an immediate shutdown).
    pub fn kill(&self, part: &str) {
        self.run("kill", part);
    }

    /// Starts a part again, on its port and with its data.
    pub fn restart(&self, part: &str) {
        self.run("restart", part);
    }

    /// Hangs a part (`node1`…, `nats`): SIGSTOP, its connections open and unanswered.
    pub fn pause(&self, part: &str) {
        self.run("pause", part);
    }

    /// Lets a paused part run on (SIGCONT).
    pub fn resume(&self, part: &str) {
        self.run("resume", part);
    }

    /// A part's log so far.
    pub fn log(&self, part: &str) -> String {
        std::fs::read_to_string(self.dir.join("logs").join(format!("{part}.log")))
            .unwrap_or_default()
    }

    /// The node (`node1`…) that answered the request nginx gave the id `request_id` (each node logs the id of
    /// every request it answers), once its log shows it.
    pub async fn node_that_answered(&self, request_id: &str) -> String {
        for _ in 0..100 {
            if let Some(node) = (1..=3)
                .map(|n| format!("node{n}"))
                .find(|node| self.log(node).contains(request_id))
            {
                return node;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("no node logged the request {request_id}");
    }
}

/// The last lines of each part's log that a failed test shows (the folder is removed after the test).
const LOG_LINES_SHOWN: usize = 40;

impl Cluster {
    /// Prints the end of every part's log: a failed test's only trace of what the nodes did.
    fn show_logs(&self) {
        let Ok(entries) = std::fs::read_dir(self.dir.join("logs")) else {
            return;
        };
        let mut logs: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        logs.sort();
        for log in logs {
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            let tail = &lines[lines.len().saturating_sub(LOG_LINES_SHOWN)..];
            eprintln!("---- {} (last {} lines)", log.display(), tail.len());
            for line in tail {
                eprintln!("{line}");
            }
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.show_logs();
        }
        let _ = Command::new("bash")
            .arg(script())
            .args(["stop", "--dir"])
            .arg(&self.dir)
            .stdin(Stdio::null())
            .status();
        // `stop` asked the script to end (it cleans up after itself); it is killed if it does not.
        for _ in 0..100 {
            if !matches!(self.script.try_wait(), Ok(None)) {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.script.kill();
        let _ = self.script.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
