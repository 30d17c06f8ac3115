//! What a client process measured, merged over the processes, and the failures by kind.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// Why a game slot lost its game. Every kind is counted under its own name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The TCP connection for an HTTP request or a websocket could not be made.
    Connect {
        step: Step,
        error: std::io::ErrorKind,
    },
    /// The server answered an HTTP request with another status than success.
    Status { step: Step, status: u16 },
    /// The answer could not be read or lacked what it should carry (the game's id, the seat cookie).
    BadAnswer { step: Step, what: &'static str },
    /// The server refused a message on the websocket (`{"type":"error"}`).
    Refused { message: String },
    /// The websocket ended while waiting.
    Closed { waiting_for: Wait },
    /// Nothing came within [`crate::game::PATIENCE`].
    Timeout { waiting_for: Wait },
}

/// The HTTP request or websocket a failure happened on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Create,
    Join,
    Websocket,
}

/// What a player was waiting for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    /// The game's first state after connecting.
    FirstState,
    /// The mover's own move coming back as the new state.
    OwnMove,
    /// The opponent's move arriving.
    OpponentMove,
    /// Sending a move.
    Send,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Step::Create => "create game",
            Step::Join => "join game",
            Step::Websocket => "websocket handshake",
        })
    }
}

impl fmt::Display for Wait {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Wait::FirstState => "the first state",
            Wait::OwnMove => "the player's own move",
            Wait::OpponentMove => "the opponent's move",
            Wait::Send => "sending a move",
        })
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Connect { step, error } => write!(f, "{step}: cannot connect ({error})"),
            Failure::Status { step, status } => write!(f, "{step}: HTTP {status}"),
            Failure::BadAnswer { step, what } => write!(f, "{step}: answer without {what}"),
            Failure::Refused { message } => write!(f, "refused: {message}"),
            Failure::Closed { waiting_for } => {
                write!(f, "websocket closed waiting for {waiting_for}")
            }
            Failure::Timeout { waiting_for } => write!(f, "nothing came waiting for {waiting_for}"),
        }
    }
}

/// One client process's measurements, or the sum of several.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Client processes whose reports are in this one.
    pub processes: usize,
    /// Games that got both players connected, and those that ended (won, lost or drawn).
    pub games_started: u64,
    pub games_finished: u64,
    /// Moves sent in the measured window (each seen by both players), and moves sent at any time.
    pub moves: u64,
    pub moves_total: u64,
    /// Per move in the window: send → the opponent's socket has the new state, in microseconds.
    pub opponent_latency_us: Vec<u32>,
    /// Per move in the window: send → the mover's own socket has the new state.
    pub mover_latency_us: Vec<u32>,
    /// Games with both players connected, sampled at each second of the window.
    pub games_in_play: Vec<u64>,
    /// How long the window lasted: until its end, or until the last slot stopped (`--moves`).
    pub window_ms: u64,
    /// CPU time the client process spent in the window, and how long its threads were ready to run but
    /// waited for a CPU (Linux; 0 elsewhere).
    pub client_cpu_ms: u64,
    pub client_wait_ms: u64,
    /// Failures by kind ([`Failure`]'s text).
    pub failures: BTreeMap<String, u64>,
}

impl Report {
    pub fn fail(&mut self, failure: &Failure) {
        self.fail_named(failure.to_string());
    }

    pub fn fail_named(&mut self, kind: String) {
        *self.failures.entry(kind).or_default() += 1;
    }

    pub fn failure_count(&self) -> u64 {
        self.failures.values().sum()
    }

    /// Adds another process's (or slot's) report to this one.
    pub fn merge(&mut self, other: Report) {
        self.processes += other.processes;
        self.games_started += other.games_started;
        self.games_finished += other.games_finished;
        self.moves += other.moves;
        self.moves_total += other.moves_total;
        self.opponent_latency_us.extend(other.opponent_latency_us);
        self.mover_latency_us.extend(other.mover_latency_us);
        if self.games_in_play.len() < other.games_in_play.len() {
            self.games_in_play.resize(other.games_in_play.len(), 0);
        }
        for (sum, count) in self.games_in_play.iter_mut().zip(other.games_in_play) {
            *sum += count;
        }
        self.window_ms = self.window_ms.max(other.window_ms);
        self.client_cpu_ms += other.client_cpu_ms;
        self.client_wait_ms += other.client_wait_ms;
        for (kind, count) in other.failures {
            *self.failures.entry(kind).or_default() += count;
        }
    }

    pub fn moves_per_second(&self) -> f64 {
        if self.window_ms == 0 {
            return 0.0;
        }
        self.moves as f64 * 1000.0 / self.window_ms as f64
    }
}

/// p50, p90, p99 and the maximum of some latencies, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Percentiles {
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub max: f64,
}

impl Percentiles {
    pub fn of(latencies_us: &[u32]) -> Percentiles {
        let mut sorted = latencies_us.to_vec();
        sorted.sort_unstable();
        let at = |p: f64| {
            if sorted.is_empty() {
                return 0.0;
            }
            let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
            f64::from(sorted[index]) / 1000.0
        };
        Percentiles {
            p50: at(0.50),
            p90: at(0.90),
            p99: at(0.99),
            max: at(1.0),
        }
    }
}

impl fmt::Display for Percentiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            self.p50, self.p90, self.p99, self.max
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merging_adds_counts_samples_and_failures_and_aligns_the_seconds() {
        let mut a = Report {
            processes: 1,
            moves: 2,
            opponent_latency_us: vec![1, 2],
            games_in_play: vec![3, 4],
            window_ms: 1000,
            client_cpu_ms: 5,
            ..Report::default()
        };
        a.fail(&Failure::Status {
            step: Step::Create,
            status: 503,
        });
        let mut b = Report {
            processes: 1,
            moves: 1,
            opponent_latency_us: vec![3],
            games_in_play: vec![5, 6, 7],
            window_ms: 1500,
            client_cpu_ms: 7,
            ..Report::default()
        };
        b.fail(&Failure::Status {
            step: Step::Create,
            status: 503,
        });
        b.fail(&Failure::Timeout {
            waiting_for: Wait::OpponentMove,
        });
        a.merge(b);
        assert_eq!(a.processes, 2);
        assert_eq!(a.moves, 3);
        assert_eq!(a.opponent_latency_us, vec![1, 2, 3]);
        assert_eq!(a.games_in_play, vec![8, 10, 7]);
        assert_eq!(a.window_ms, 1500);
        assert_eq!(a.client_cpu_ms, 12);
        assert_eq!(a.moves_per_second(), 2.0);
        assert_eq!(a.failures["create game: HTTP 503"], 2);
        assert_eq!(
            a.failures["nothing came waiting for the opponent's move"],
            1
        );
        assert_eq!(a.failure_count(), 3);
    }

    #[test]
    fn percentiles_pick_the_nearest_rank() {
        let latencies: Vec<u32> = (1..=100).map(|ms| ms * 1000).collect();
        let p = Percentiles::of(&latencies);
        assert_eq!((p.p50, p.p90, p.p99, p.max), (51.0, 90.0, 99.0, 100.0));
        assert_eq!(Percentiles::of(&[]).max, 0.0);
    }
}
