//! An engine as a child process speaking the protocol of `jungle uci`: start and handshake, new games,
//! searches under a deadline, and the failures that lose games (crash, stall, garbage).
//!
//! A reader thread turns the engine's stdout into a channel of lines, so every wait has a timeout and a
//! hung engine never blocks the match.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use jungle_protocol::{Command as ProtocolCommand, Response};

use crate::time_control::SearchLimits;

/// How to start an engine and what to tell it.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    /// The name in PGN and tables.
    pub name: String,
    pub command: PathBuf,
    pub args: Vec<String>,
    pub working_dir: Option<PathBuf>,
    /// `setoption name KEY value VALUE` after the handshake, in order.
    pub options: Vec<(String, String)>,
    pub limits: SearchLimits,
}

/// Why an engine could not do what was asked. Every variant loses the game in progress.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("engine {name}: cannot start {command}: {source}")]
    Spawn {
        name: String,
        command: String,
        source: std::io::Error,
    },
    #[error("engine {name} crashed or quit ({status}) while {doing}")]
    Crashed {
        name: String,
        status: String,
        doing: &'static str,
    },
    #[error("engine {name} did not answer within {waited:.1?} while {doing}")]
    Stalled {
        name: String,
        waited: Duration,
        doing: &'static str,
    },
    #[error("engine {name} answered \"{answer}\" while {doing}")]
    Refused {
        name: String,
        answer: String,
        doing: &'static str,
    },
}

/// A score as an engine reports it, from the side to move: the protocol's own type.
pub use jungle_protocol::WireScore as EngineScore;

/// What the last `info` lines of a search said.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InfoSummary {
    pub score: Option<EngineScore>,
    pub depth: Option<u32>,
}

impl InfoSummary {
    /// Folds one line into the summary: an `info` line's depth and score (read by the protocol's
    /// `Response`); other lines, malformed ones and fields that are missing leave it unchanged.
    pub fn update(&mut self, line: &str) {
        if let Ok(Response::Info(info)) = line.parse::<Response>() {
            self.depth = info.depth.or(self.depth);
            self.score = info.score.or(self.score);
        }
    }
}

/// The answer to one `go`.
#[derive(Clone, Debug)]
pub struct SearchAnswer {
    /// The text after `bestmove` (not yet checked for legality).
    pub best_move: String,
    pub elapsed: Duration,
    pub info: InfoSummary,
}

/// A transcript of every line sent to and received from the engines (`-enginelog FILE`): milliseconds since
/// the match started, the engine's name, `>` for what it was sent and `<` for what it said.
#[derive(Clone)]
pub struct EngineLog {
    file: Arc<Mutex<std::fs::File>>,
    start: Instant,
}

impl std::fmt::Debug for EngineLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("EngineLog")
    }
}

impl EngineLog {
    pub fn new(file: std::fs::File) -> EngineLog {
        EngineLog {
            file: Arc::new(Mutex::new(file)),
            start: Instant::now(),
        }
    }

    fn line(&self, name: &str, direction: char, text: &str) {
        let ms = self.start.elapsed().as_millis();
        let mut file = self
            .file
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // A transcript that cannot be written must not stop the match.
        let _ = writeln!(file, "{ms} {name} {direction} {text}");
    }
}

/// A running engine.
#[derive(Debug)]
pub struct EngineProcess {
    name: String,
    child: Child,
    stdin: ChildStdin,
    /// Lines of the engine's stdout; `None` once it closed.
    output: Receiver<Option<String>>,
    log: Option<EngineLog>,
}

impl EngineProcess {
    /// Starts the engine, runs the `uci`/`uciok` handshake, sends the options and waits for `readyok`.
    ///
    /// # Errors
    /// [`EngineError`] when it cannot be started, dies, or is silent for `timeout` at any step.
    pub fn start(
        config: &EngineConfig,
        timeout: Duration,
        log: Option<EngineLog>,
    ) -> Result<EngineProcess, EngineError> {
        let mut command = Command::new(&config.command);
        command
            .args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &config.working_dir {
            command.current_dir(dir);
        }
        let mut child = command.spawn().map_err(|source| EngineError::Spawn {
            name: config.name.clone(),
            command: config.command.display().to_string(),
            source,
        })?;
        let stdin = child.stdin.take().expect("stdin was piped");
        let stdout = child.stdout.take().expect("stdout was piped");
        let (tx, rx) = channel();
        let reader_log = log.clone();
        let reader_name = config.name.clone();
        std::thread::Builder::new()
            .name(format!("engine-{}", config.name))
            .spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if let Some(log) = &reader_log {
                        log.line(&reader_name, '<', &line);
                    }
                    if tx.send(Some(line)).is_err() {
                        return;
                    }
                }
                let _ = tx.send(None);
            })
            .map_err(|source| EngineError::Spawn {
                name: config.name.clone(),
                command: config.command.display().to_string(),
                source,
            })?;
        let mut engine = EngineProcess {
            name: config.name.clone(),
            child,
            stdin,
            output: rx,
            log,
        };
        engine.send(&ProtocolCommand::Uci.to_string(), "starting")?;
        engine.wait_for(|l| l.parse() == Ok(Response::UciOk), timeout, "starting")?;
        for (key, value) in &config.options {
            let setoption = ProtocolCommand::SetOption {
                name: key.clone(),
                value: Some(value.clone()),
            };
            engine.send(&setoption.to_string(), "starting")?;
        }
        engine.sync(timeout, "starting")?;
        Ok(engine)
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Tells the engine a new game begins and waits until it is ready.
    ///
    /// # Errors
    /// As [`EngineProcess::start`].
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send(&ProtocolCommand::UciNewGame.to_string(), "starting a game")?;
        self.sync(timeout, "starting a game")
    }

    /// Sends a `position` and a `go` line and waits up to `deadline` for `bestmove`.
    ///
    /// # Errors
    /// [`EngineError::Stalled`] past the deadline (the caller should then [`kill`](Self::kill) it),
    /// [`EngineError::Crashed`] if it dies.
    pub fn search(
        &mut self,
        position: &str,
        go: &str,
        deadline: Duration,
    ) -> Result<SearchAnswer, EngineError> {
        // Drain anything left over (late info lines) so it is not taken for this search's answer.
        while let Ok(Some(_)) = self.output.try_recv() {}
        self.send(position, "thinking")?;
        let start = Instant::now();
        self.send(go, "thinking")?;
        let mut info = InfoSummary::default();
        let line = self.wait_for(
            |l| {
                info.update(l);
                l.split_whitespace().next() == Some("bestmove")
            },
            deadline,
            "thinking",
        )?;
        let elapsed = start.elapsed();
        let best_move = match line.parse::<Response>() {
            Ok(Response::BestMove { best, .. }) => {
                best.map_or("(none)".to_string(), |m| m.to_string())
            }
            // Not a move: passed on as sent, so the game reports it as illegal.
            _ => line.split_whitespace().nth(1).unwrap_or("").to_string(),
        };
        Ok(SearchAnswer {
            best_move,
            elapsed,
            info,
        })
    }

    /// Sends `line` and waits up to `timeout` for the line that starts with the word `answer`, returned without
    /// it (`hidden setup blue` is answered `setup TLCDEWPR`).
    ///
    /// # Errors
    /// [`EngineError::Refused`] for an `info string error: …` line, else as [`EngineProcess::start`].
    pub fn ask(
        &mut self,
        line: &str,
        answer: &str,
        timeout: Duration,
        doing: &'static str,
    ) -> Result<String, EngineError> {
        while let Ok(Some(_)) = self.output.try_recv() {}
        self.send(line, doing)?;
        let got = self.wait_for(
            |l| {
                let first = l.split_whitespace().next();
                first == Some(answer) || l.starts_with("info string error")
            },
            timeout,
            doing,
        )?;
        if got.starts_with("info string error") {
            return Err(EngineError::Refused {
                name: self.name.clone(),
                answer: got,
                doing,
            });
        }
        let rest = got.trim_start().strip_prefix(answer).unwrap_or_default();
        Ok(rest.trim().to_string())
    }

    /// Asks the engine to quit, and kills it if it does not within a moment.
    pub fn quit(mut self) {
        let _ = writeln!(self.stdin, "{}", ProtocolCommand::Quit);
        let _ = self.stdin.flush();
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    /// Ends the process at once (after a stall or a crash).
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    fn send(&mut self, line: &str, doing: &'static str) -> Result<(), EngineError> {
        if let Some(log) = &self.log {
            log.line(&self.name, '>', line);
        }
        let written = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        if written.is_err() {
            return Err(self.crashed(doing));
        }
        Ok(())
    }

    fn sync(&mut self, timeout: Duration, doing: &'static str) -> Result<(), EngineError> {
        self.send(&ProtocolCommand::IsReady.to_string(), doing)?;
        self.wait_for(|l| l.parse() == Ok(Response::ReadyOk), timeout, doing)?;
        Ok(())
    }

    /// Reads lines until `done` accepts one (returned), the engine's output closes, or `timeout` passes.
    fn wait_for(
        &mut self,
        mut done: impl FnMut(&str) -> bool,
        timeout: Duration,
        doing: &'static str,
    ) -> Result<String, EngineError> {
        let until = Instant::now() + timeout;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(Some(line)) => {
                    if done(&line) {
                        return Ok(line);
                    }
                }
                Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.crashed(doing));
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(EngineError::Stalled {
                        name: self.name.clone(),
                        waited: timeout,
                        doing,
                    });
                }
            }
        }
    }

    /// The crash error, with the exit status if the process has ended (waiting a moment for it).
    fn crashed(&mut self, doing: &'static str) -> EngineError {
        let mut status = "still running, output closed".to_string();
        for _ in 0..50 {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = s.to_string();
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        EngineError::Crashed {
            name: self.name.clone(),
            status,
            doing,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_keep_the_last_depth_and_score() {
        let mut info = InfoSummary::default();
        info.update("info depth 3 seldepth 5 score cp 35 nodes 100 pv a3a4 g7g6");
        assert_eq!(info.depth, Some(3));
        assert_eq!(info.score, Some(EngineScore::Cp(35)));
        info.update("info depth 4 score mate -3 pv a3a4");
        assert_eq!(info.score, Some(EngineScore::Mate(-3)));
        info.update("info string hello score cp 9");
        info.update("info nodes 5000 nps 100");
        info.update("garbage score cp 12");
        info.update("info depth x score cp");
        assert_eq!(info.depth, Some(4));
        assert_eq!(info.score, Some(EngineScore::Mate(-3)));
    }

    #[test]
    fn scores_print_as_pgn_comments() {
        assert_eq!(EngineScore::Cp(35).pgn_text(), "+0.35");
        assert_eq!(EngineScore::Cp(-120).pgn_text(), "-1.20");
        assert_eq!(EngineScore::Cp(-5).pgn_text(), "-0.05");
        assert_eq!(EngineScore::Mate(5).pgn_text(), "+M5");
        assert_eq!(EngineScore::Mate(-2).pgn_text(), "-M2");
        assert_eq!(EngineScore::Mate(-2).as_cp(), -100_000);
    }

    #[test]
    fn a_missing_program_is_a_spawn_error() {
        let config = EngineConfig {
            name: "ghost".into(),
            command: "/nonexistent/engine".into(),
            args: vec![],
            working_dir: None,
            options: vec![],
            limits: SearchLimits::default(),
        };
        let e = EngineProcess::start(&config, Duration::from_secs(1), None).unwrap_err();
        assert!(matches!(e, EngineError::Spawn { .. }), "{e}");
        assert!(e.to_string().contains("/nonexistent/engine"));
    }
}
