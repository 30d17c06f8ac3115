//! A protocol session: reads command lines, drives an [`Engine`], writes replies. Searches, `perft` and
//! `bench` run on their own thread (a "job"), so `isready`, `stop` and `position` are answered while it works;
//! every other line is answered at once too, with `info string` and the reason when it cannot be obeyed.
//! Nothing a GUI sends can make the session panic, lose its position or hold unbounded memory.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use std::ops::ControlFlow;

use jungle_rules::{Game, Position, Rules};
use jungle_search::{Clock, Engine, EngineOptions, Limits, StopHandle};

use crate::command::{Command, GoParams, ParseCommandError, StartPosition};
use crate::input::{Line, MAX_LINE_BYTES, read_line};
use crate::perft::perft_until_stopped;
use crate::response::{OptionKind, OptionSpec, Response};

/// The name announced by `id name`.
pub const ENGINE_NAME: &str = concat!("Jungle ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the Jungle developers";
/// The deepest `perft` the session runs (use `jungle perft` for more).
pub const MAX_PERFT_DEPTH: u32 = 9;
/// The longest `info string` written: messages quote what the client sent, which may be long.
pub const MAX_INFO_STRING_CHARS: usize = 300;

/// Output shared between the session and its search thread.
type Shared<W> = Arc<Mutex<W>>;

fn send<W: Write>(out: &Shared<W>, response: &Response) -> io::Result<()> {
    // A panicked writer cannot happen (nothing panics while holding it), but recover the data regardless.
    let mut w = out
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    writeln!(w, "{response}")?;
    w.flush()
}

/// A protocol session over any input and output.
#[derive(Debug)]
pub struct Session<R, W> {
    input: R,
    out: Shared<W>,
    /// The engine while idle; `None` while a job thread holds it.
    engine: Option<Engine>,
    job: Option<JoinHandle<Engine>>,
    /// True from `go` (`perft`, `bench`) until the job thread is about to write its last line. The thread's
    /// handle is not yet finished when the GUI reads `bestmove` and answers with the next `go`, so
    /// `is_finished` alone would drop that `go` (a match runner then waits forever).
    busy: Arc<AtomicBool>,
    /// Stops a search.
    stop: StopHandle,
    /// Stops a `perft` or `bench` between its parts.
    cancel: Arc<AtomicBool>,
    rules: Rules,
    game: Game,
    /// Options as set by the GUI, applied to the engine before the next search.
    options: EngineOptions,
    clear_pending: bool,
    /// Whether the running job (if any) ends by itself; one that does not is stopped at the end of the input.
    job_bounded: bool,
}

impl<R: BufRead, W: Write + Send + 'static> Session<R, W> {
    pub fn new(input: R, output: W) -> Session<R, W> {
        Session::with_engine(Engine::new(EngineOptions::default()), input, output)
    }

    pub fn with_engine(engine: Engine, input: R, output: W) -> Session<R, W> {
        let rules = Rules::default();
        Session {
            input,
            out: Arc::new(Mutex::new(output)),
            stop: engine.stop_handle(),
            options: engine.options().clone(),
            engine: Some(engine),
            job: None,
            busy: Arc::new(AtomicBool::new(false)),
            cancel: Arc::new(AtomicBool::new(false)),
            game: Game::new(rules.clone()),
            rules,
            clear_pending: false,
            job_bounded: true,
        }
    }

    /// Runs until `quit` or the end of the input, then returns the output. After `quit` a running job is
    /// stopped; at the end of the input a bounded one is allowed to finish (so `echo "go depth 8" | jungle
    /// uci` prints its move) and one without a bound (`go infinite`, a bare `go`) is stopped. Either way its
    /// last line (`bestmove`) is written. A line longer than [`MAX_LINE_BYTES`] is skipped with an
    /// `info string`.
    ///
    /// # Errors
    /// Only errors reading the input or writing the output.
    pub fn run(mut self) -> io::Result<W> {
        let mut quit = false;
        while let Some(line) = read_line(&mut self.input, MAX_LINE_BYTES)? {
            match line {
                Line::Text(line) => {
                    if !self.handle_line(&line)? {
                        quit = true;
                        break;
                    }
                }
                Line::TooLong(bytes) => self.info_string(format!(
                    "line of {bytes} bytes ignored (at most {MAX_LINE_BYTES})"
                ))?,
            }
        }
        if quit || !self.job_bounded {
            self.stop_job();
        }
        self.take_engine();
        drop(self.engine.take());
        let out = Arc::try_unwrap(self.out)
            .map_err(|_| io::Error::other("search thread still holds the output"))?;
        Ok(out
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner))
    }

    fn say(&self, response: &Response) -> io::Result<()> {
        send(&self.out, response)
    }

    /// Writes `info string` and the message, cut to [`MAX_INFO_STRING_CHARS`].
    fn info_string(&self, text: impl Into<String>) -> io::Result<()> {
        let mut text = text.into();
        if let Some((cut, _)) = text.char_indices().nth(MAX_INFO_STRING_CHARS) {
            text.truncate(cut);
            text.push('…');
        }
        self.say(&Response::InfoString(text))
    }

    fn is_busy(&self) -> bool {
        self.job.is_some() && self.busy.load(Ordering::SeqCst)
    }

    fn stop_job(&self) {
        self.stop.stop();
        self.cancel.store(true, Ordering::SeqCst);
    }

    /// The engine, waiting for a finished (or stopping) job thread to hand it back.
    fn take_engine(&mut self) -> &mut Engine {
        if let Some(handle) = self.job.take() {
            match handle.join() {
                Ok(engine) => self.engine = Some(engine),
                // The search thread panicked (a bug): start afresh rather than stop answering.
                Err(_) => self.engine = Some(Engine::new(self.options.clone())),
            }
        }
        let engine = self
            .engine
            .get_or_insert_with(|| Engine::new(EngineOptions::default()));
        if engine.options() != &self.options {
            engine.set_options(self.options.clone());
        }
        if std::mem::take(&mut self.clear_pending) {
            engine.clear();
        }
        engine
    }

    /// Handles one line; `false` after `quit`.
    ///
    /// # Errors
    /// Only output errors.
    pub fn handle_line(&mut self, line: &str) -> io::Result<bool> {
        let command = match line.parse::<Command>() {
            Ok(c) => c,
            Err(ParseCommandError::Empty) => return Ok(true),
            Err(e) => {
                self.info_string(e.to_string())?;
                return Ok(true);
            }
        };
        match command {
            Command::Uci => self.uci()?,
            Command::Debug(_) => {}
            Command::IsReady => self.say(&Response::ReadyOk)?,
            Command::UciNewGame => {
                self.clear_pending = true;
                self.game = Game::new(self.rules.clone());
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref())?,
            Command::Position { start, moves } => self.position(start, &moves)?,
            Command::Go(params) => self.go(&params)?,
            Command::Stop | Command::PonderHit => {
                if self.is_busy() {
                    self.stop_job();
                }
            }
            Command::Quit => return Ok(false),
            Command::Display => self.display()?,
            Command::Eval => self.eval()?,
            Command::Perft(depth) => self.perft(depth)?,
            Command::Bench(depth) => self.bench(depth)?,
        }
        Ok(true)
    }

    fn uci(&self) -> io::Result<()> {
        self.say(&Response::IdName(ENGINE_NAME.to_string()))?;
        self.say(&Response::IdAuthor(ENGINE_AUTHOR.to_string()))?;
        for spec in option_specs() {
            self.say(&Response::Option(spec))?;
        }
        self.say(&Response::UciOk)
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> io::Result<()> {
        let value = value.unwrap_or("").trim();
        let spin = |min: i64, max: i64| -> Result<i64, String> {
            match value.parse::<i64>() {
                Ok(v) if (min..=max).contains(&v) => Ok(v),
                _ => Err(format!(
                    "option \"{name}\" needs a whole number from {min} to {max}, not \"{value}\""
                )),
            }
        };
        let result = match name.to_ascii_lowercase().as_str() {
            "hash" => spin(1, EngineOptions::MAX_HASH_MB as i64).and_then(|v| {
                let limit = jungle_search::max_hash_mb();
                if v as usize > limit {
                    return Err(format!(
                        "Hash {v} MiB refused: more than half the memory available (at most {limit} MiB now); Hash stays {}",
                        self.options.hash_mb
                    ));
                }
                self.options.hash_mb = v as usize;
                Ok(())
            }),
            "threads" => spin(1, EngineOptions::MAX_THREADS as i64)
                .map(|v| self.options.threads = v as usize),
            "multipv" => spin(1, EngineOptions::MAX_MULTIPV as i64)
                .map(|v| self.options.multipv = v as usize),
            "skill level" => spin(
                i64::from(jungle_search::skill::MIN_LEVEL),
                i64::from(jungle_search::skill::MAX_LEVEL),
            )
            .map(|v| self.options.skill_level = v as u8),
            "move overhead" => spin(0, EngineOptions::MAX_MOVE_OVERHEAD_MS as i64)
                .map(|v| self.options.move_overhead_ms = v as u64),
            "clear hash" => {
                self.clear_pending = true;
                Ok(())
            }
            "tablebasepath" => self.set_tablebase_path(value),
            "use nnue" => match value.to_ascii_lowercase().as_str() {
                on @ ("true" | "false") => {
                    self.options.use_nnue = on == "true";
                    self.report_network_error()
                }
                _ => Err(format!(
                    "option \"{name}\" is true or false, not \"{value}\""
                )),
            },
            "evalfile" => {
                self.options.eval_file = if value.is_empty() || value == "<empty>" {
                    None
                } else {
                    Some(std::path::PathBuf::from(value))
                };
                self.report_network_error()
            }
            "uci_variant" if value.eq_ignore_ascii_case("jungle") => Ok(()),
            "uci_variant" => Err(format!(
                "variant \"{value}\" is not supported (only jungle)"
            )),
            "rules" => match value.parse::<Rules>() {
                Ok(rules) => {
                    self.game = Game::new(rules.clone());
                    self.rules = rules;
                    Ok(())
                }
                Err(e) => Err(e.to_string()),
            },
            _ => Err(format!(
                "unknown option \"{name}\" (options: Hash, Threads, MultiPV, Skill Level, Move Overhead, Clear Hash, Rules, TablebasePath, Use NNUE, EvalFile, UCI_Variant)"
            )),
        };
        match result {
            Ok(()) => Ok(()),
            Err(message) => self.info_string(message),
        }
    }

    /// `TablebasePath`: a directory of `jungle tb generate` tables (empty or `<empty>`: none). Tables that cannot
    /// be used (no such directory, made under other rules) are reported, and the engine plays without them.
    fn set_tablebase_path(&mut self, value: &str) -> Result<(), String> {
        self.options.tablebase_path = if value.is_empty() || value == "<empty>" {
            None
        } else {
            Some(std::path::PathBuf::from(value))
        };
        if self.is_busy() {
            // Checked when the next search starts.
            return Ok(());
        }
        let game = self.game.clone();
        let engine = self.take_engine();
        engine.set_game(&game);
        engine.take_tablebase_error().map_or(Ok(()), Err)
    }

    /// After `Use NNUE` or `EvalFile`: a net file that cannot be read is reported (the engine then evaluates
    /// by hand). While a search runs, the next search applies the options and reports.
    fn report_network_error(&mut self) -> Result<(), String> {
        if self.is_busy() {
            return Ok(());
        }
        self.take_engine().take_network_error().map_or(Ok(()), Err)
    }

    /// Sets the game; on any error the previous game stays and the reason is reported.
    fn position(&mut self, start: StartPosition, moves: &[jungle_rules::Move]) -> io::Result<()> {
        let start_pos = match &start {
            StartPosition::StartPos => Position::start(&self.rules),
            StartPosition::Fen(fen) => match Position::from_fen(fen, &self.rules) {
                Ok(pos) => pos,
                Err(e) => return self.info_string(format!("position unchanged: {e}")),
            },
        };
        let mut game = Game::from_position(self.rules.clone(), start_pos);
        for (i, &m) in moves.iter().enumerate() {
            if let Err(e) = game.play(m) {
                return self.info_string(format!("position unchanged: move {} ({m}): {e}", i + 1));
            }
        }
        self.game = game;
        Ok(())
    }

    fn go(&mut self, params: &GoParams) -> io::Result<()> {
        if self.is_busy() {
            return self.info_string("go ignored: a search is already running (send stop first)");
        }
        let limits = limits(params);
        let game = self.game.clone();
        self.take_engine().set_game(&game);
        let bounded = limits.is_bounded();
        self.start_job(bounded, move |engine, out, _| {
            let result = engine.go(&limits, &mut |info| {
                let _ = send(out, &Response::Info(info.into()));
            });
            Response::BestMove {
                best: result.best_move,
                ponder: result.ponder,
            }
        })
    }

    /// Runs `job` on its own thread with the engine (notices of the engine reported first). `job` gets the
    /// engine, the output and the flag `stop` sets; the response it returns is written after the session is
    /// marked idle, so a GUI that answers it at once is obeyed.
    fn start_job<F>(&mut self, bounded: bool, job: F) -> io::Result<()>
    where
        F: FnOnce(&mut Engine, &Shared<W>, &AtomicBool) -> Response + Send + 'static,
    {
        self.take_engine();
        let Some(mut engine) = self.engine.take() else {
            unreachable!("take_engine leaves an engine");
        };
        for notice in [
            engine.take_hash_notice(),
            engine.take_tablebase_error(),
            engine.take_network_error(),
        ]
        .into_iter()
        .flatten()
        {
            self.info_string(notice)?;
        }
        self.job_bounded = bounded;
        self.stop.clear();
        self.cancel.store(false, Ordering::SeqCst);
        let out = Arc::clone(&self.out);
        let busy = Arc::clone(&self.busy);
        let cancel = Arc::clone(&self.cancel);
        busy.store(true, Ordering::SeqCst);
        self.job = Some(std::thread::spawn(move || {
            let last = job(&mut engine, &out, &cancel);
            busy.store(false, Ordering::SeqCst);
            let _ = send(&out, &last);
            engine
        }));
        Ok(())
    }

    fn display(&self) -> io::Result<()> {
        self.say(&Response::Text(draw(&self.game, &self.rules)))
    }

    /// `eval`: the engine's static evaluation (the learned net's when it is in use for these rules; the
    /// hand-written one while a search runs).
    fn eval(&mut self) -> io::Result<()> {
        let score = if self.is_busy() {
            jungle_search::Evaluator::new(&self.rules).evaluate(self.game.position())
        } else {
            let game = self.game.clone();
            let engine = self.take_engine();
            engine.set_game(&game);
            engine.evaluate()
        };
        let side = self.game.side_to_move();
        self.say(&Response::Text(format!(
            "Evaluation: {score} (centipawns, {side} to move's view)"
        )))
    }

    /// `perft N` on the job thread: one line per root move, then `nodes N` (or, after `stop`, an
    /// `info string` saying so).
    fn perft(&mut self, depth: u32) -> io::Result<()> {
        // A depth that is never allowed is refused as such, busy or not (the answer does not depend on timing).
        if depth > MAX_PERFT_DEPTH {
            return self.info_string(format!("perft depth {depth} is too deep for the protocol (at most {MAX_PERFT_DEPTH}; use `jungle perft`)"));
        }
        if self.is_busy() {
            return self.info_string("perft ignored: a search is running");
        }
        if depth == 0 {
            return self.say(&Response::Text("nodes 1".to_string()));
        }
        let pos = *self.game.position();
        let rules = self.rules.clone();
        self.start_job(true, move |_, out, cancel| {
            let mut moves = pos.legal_moves(&rules).to_vec();
            moves.sort_by_key(ToString::to_string);
            let mut total = 0;
            for (done, m) in moves.iter().enumerate() {
                let Some(n) = perft_until_stopped(&pos.after(*m), &rules, depth - 1, cancel) else {
                    return Response::InfoString(format!(
                        "perft stopped after {done} of {} root moves",
                        moves.len()
                    ));
                };
                total += n;
                let _ = send(out, &Response::Text(format!("{m} {n}")));
            }
            Response::Text(format!("nodes {total}"))
        })
    }

    /// `bench [depth]` on the job thread with the session's `Threads` and `Hash` (1 and 16 give the signature):
    /// one line per position, then the totals, `Nodes searched: N` and `Nodes/second: M` last.
    fn bench(&mut self, depth: Option<u32>) -> io::Result<()> {
        if self.is_busy() {
            return self.info_string("bench ignored: a search is running");
        }
        let depth = depth.unwrap_or(jungle_search::BENCH_DEPTH).clamp(1, 64);
        self.start_job(true, move |engine, out, cancel| {
            let count = jungle_search::bench_positions().len();
            let report = jungle_search::bench(engine, depth, |i, position, nodes| {
                let rules = if position.rules.is_empty() {
                    "standard"
                } else {
                    position.rules
                };
                let _ = send(
                    out,
                    &Response::Text(format!(
                        "position {:>2}/{count} {rules:<10} {nodes:>12} nodes  {} ({})",
                        i + 1,
                        position.fen,
                        position.what
                    )),
                );
                if cancel.load(Ordering::SeqCst) {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            if report.positions < count {
                let _ = send(
                    out,
                    &Response::InfoString(format!(
                        "bench stopped after {} of {count} positions",
                        report.positions
                    )),
                );
            }
            let _ = send(
                out,
                &Response::Text(format!("Total time (ms) : {}", report.elapsed.as_millis())),
            );
            let _ = send(
                out,
                &Response::Text(format!("Nodes searched: {}", report.nodes)),
            );
            Response::Text(format!("Nodes/second: {}", report.nodes_per_second()))
        })
    }
}

/// The search limits of a `go` command.
pub fn limits(params: &GoParams) -> Limits {
    let clock = if params.wtime.is_some() || params.btime.is_some() {
        let zero = std::time::Duration::ZERO;
        Some(Clock {
            time: jungle_rules::BySide::new(
                params.wtime.unwrap_or(zero),
                params.btime.unwrap_or(zero),
            ),
            increment: jungle_rules::BySide::new(
                params.winc.unwrap_or(zero),
                params.binc.unwrap_or(zero),
            ),
            moves_to_go: params.movestogo,
        })
    } else {
        None
    };
    Limits {
        depth: params.depth,
        nodes: params.nodes,
        movetime: params.movetime,
        clock,
        // Pondering is searched as an infinite search: `ponderhit` and `stop` both end it.
        infinite: params.infinite || params.ponder,
    }
}

/// The options announced after `uci`.
pub fn option_specs() -> Vec<OptionSpec> {
    let d = EngineOptions::default();
    let spin = |name: &str, default: i64, min: i64, max: i64| OptionSpec {
        name: name.to_string(),
        kind: OptionKind::Spin { default, min, max },
    };
    vec![
        spin(
            "Hash",
            d.hash_mb as i64,
            1,
            EngineOptions::MAX_HASH_MB as i64,
        ),
        spin(
            "Threads",
            d.threads as i64,
            1,
            EngineOptions::MAX_THREADS as i64,
        ),
        spin(
            "MultiPV",
            d.multipv as i64,
            1,
            EngineOptions::MAX_MULTIPV as i64,
        ),
        spin(
            "Skill Level",
            i64::from(d.skill_level),
            i64::from(jungle_search::skill::MIN_LEVEL),
            i64::from(jungle_search::skill::MAX_LEVEL),
        ),
        spin(
            "Move Overhead",
            d.move_overhead_ms as i64,
            0,
            EngineOptions::MAX_MOVE_OVERHEAD_MS as i64,
        ),
        OptionSpec {
            name: "Clear Hash".to_string(),
            kind: OptionKind::Button,
        },
        OptionSpec {
            name: "Rules".to_string(),
            kind: OptionKind::Str {
                default: String::new(),
            },
        },
        OptionSpec {
            name: "TablebasePath".to_string(),
            kind: OptionKind::Str {
                default: String::new(),
            },
        },
        OptionSpec {
            name: "Use NNUE".to_string(),
            kind: OptionKind::Check {
                default: d.use_nnue,
            },
        },
        OptionSpec {
            name: "EvalFile".to_string(),
            kind: OptionKind::Str {
                default: String::new(),
            },
        },
        OptionSpec {
            name: "UCI_Variant".to_string(),
            kind: OptionKind::Combo {
                default: "jungle".to_string(),
                vars: vec!["jungle".to_string()],
            },
        },
    ]
}

/// The board for `d` (rank 9 on top, plain), then the FEN, the rules and the side to move or the result.
fn draw(game: &Game, rules: &Rules) -> String {
    let pos = game.position();
    let mut out = jungle_rules::Diagram::new(pos, rules).to_string();
    out.push_str(&format!("Fen: {pos}\nRules: {rules}\n"));
    match game.outcome() {
        Some(o) => out.push_str(&format!("Game over: {o}")),
        None => out.push_str(&format!("{} to move", pos.side_to_move())),
    }
    out
}
