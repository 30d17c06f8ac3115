//! An opponent that is another program speaking `jungle uci --hidden` (docs/hidden.md): `hidden_match --opponent
//! current --engine PATH` plays the AI of another commit, built there, as the `jungle` binary at PATH.
//!
//! Each game starts with `setoption name Seed`, `ucinewgame` and `hidden setup`; each move sends the engine its
//! own `hidden position` line (its setup and the public moves, as a referee does) and `go`. The engine is told
//! nothing else, so it plays as it would under `jungle match -hidden`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use jungle_hidden::ai::Budget;
use jungle_hidden::{Arrangement, View};
use jungle_rules::{Move, Rules, Side};

/// A running `jungle uci --hidden` process.
pub struct ExternalEngine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl ExternalEngine {
    /// Starts `program uci --hidden` and waits for its `uciok`.
    pub fn start(program: &str) -> Result<ExternalEngine, String> {
        let mut child = Command::new(program)
            .args(["uci", "--hidden"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{program}: {e}"))?;
        let input = child.stdin.take().ok_or("no engine input")?;
        let output = BufReader::new(child.stdout.take().ok_or("no engine output")?);
        let mut engine = ExternalEngine {
            child,
            input,
            output,
        };
        engine.send("uci")?;
        engine.answer("uciok")?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("engine: {e}"))
    }

    /// The rest of the first line that starts with the word `first`; an error line or the end of the output
    /// is an error.
    fn answer(&mut self, first: &str) -> Result<String, String> {
        let mut line = String::new();
        loop {
            line.clear();
            let read = self
                .output
                .read_line(&mut line)
                .map_err(|e| format!("engine: {e}"))?;
            if read == 0 {
                return Err(format!("engine quit before \"{first}\""));
            }
            if line.starts_with("info string error") {
                return Err(format!("engine: {}", line.trim()));
            }
            let mut words = line.trim().splitn(2, ' ');
            if words.next() == Some(first) {
                return Ok(words.next().unwrap_or_default().to_string());
            }
        }
    }

    /// Starts a new game whose choices the engine draws from `seed`.
    pub fn new_game(&mut self, seed: u64) -> Result<(), String> {
        self.send(&format!("setoption name Seed value {seed}"))?;
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.answer("readyok").map(|_| ())
    }

    /// The engine's setup for `side`.
    pub fn setup(&mut self, rules: &Rules, side: Side) -> Result<Arrangement, String> {
        let mut line = format!("hidden setup {}", side.name().to_ascii_lowercase());
        if !rules.is_standard() {
            line += &format!(" rules {rules}");
        }
        self.send(&line)?;
        let letters = self.answer("setup")?;
        Arrangement::parse(rules, side, &letters).map_err(|e| format!("engine setup: {e}"))
    }

    /// The engine's move in `view` (its own side's), `setup` being its setup, within `budget`.
    pub fn choose(
        &mut self,
        view: &View,
        setup: &Arrangement,
        budget: Budget,
    ) -> Result<Move, String> {
        let side = view.viewer().ok_or("the engine plays a side")?;
        let mut line = format!(
            "hidden position {} setup {setup}",
            side.name().to_ascii_lowercase()
        );
        if !view.rules().is_standard() {
            line += &format!(" rules {}", view.rules());
        }
        if !view.history().is_empty() {
            line += " moves";
            for public in view.history() {
                line += &format!(" {public}");
            }
        }
        self.send(&line)?;
        let mut go = "go".to_string();
        if let Some(nodes) = budget.nodes {
            go += &format!(" nodes {nodes}");
        }
        if let Some(time) = budget.time {
            go += &format!(" movetime {}", time.as_millis());
        }
        self.send(&go)?;
        let best = self.answer("bestmove")?;
        best.parse()
            .map_err(|e| format!("engine bestmove \"{best}\": {e}"))
    }
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        // An engine that does not take its leave is stopped: it is this program's child.
        if self.send("quit").is_err() || self.child.wait().is_err() {
            let _ = self.child.kill();
        }
    }
}
