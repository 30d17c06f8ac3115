//! The Hidden Jungle extension of the protocol (`jungle uci --hidden`, docs/hidden.md): the engine is told its own
//! side, its own setup and the public moves — never the other side's animals — and answers with a move.
//!
//! ```text
//! hidden setup SIDE [rules OPTS]                   -> setup LETTERS      (the engine's arrangement)
//! hidden position SIDE setup LETTERS [rules OPTS] [moves PUBLIC...]      (its view; no answer unless wrong)
//! go movetime MS | go nodes N | go wtime MS btime MS [winc MS] [binc MS] | go  -> bestmove MOVE
//! ```
//! `uci`, `isready`, `ucinewgame`, `setoption name Skill Level value N` and `quit` are as in the open protocol;
//! `setoption name Seed value N` makes the engine's setups and moves reproducible (without it, or after
//! `value random`, they are drawn from the operating system's randomness, so no two runs repeat).
//! Public moves are written as [`PublicMove`](jungle_hidden::PublicMove) text (`a3a4`, `g3g4=R`, `c3c4=LxC`,
//! `c3c4=C/L`). A line that cannot be obeyed is answered with `info string error: …` and changes nothing.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use jungle_hidden::ai::{Budget, HiddenAi};
use jungle_hidden::{Arrangement, PublicMoveText, View};
use jungle_rules::{Rules, Side};
use rand::Rng;

use crate::command::{Command, GoParams};
use crate::input::{Line, MAX_LINE_BYTES, read_line};
use crate::session::{ENGINE_AUTHOR, ENGINE_NAME};

/// The time a `go` without limits may take.
const DEFAULT_MOVETIME: Duration = Duration::from_secs(1);
/// Moves assumed left in the game when a clock is given.
const MOVES_TO_PLAN: u32 = 30;

/// The `hidden position` line that tells an engine `view` (its own side's view: its setup and the public moves).
///
/// # Panics
/// If `view` is a spectator's, or does not know its own setup (a view built from an arrangement always does).
pub fn position_line(view: &View, setup: &Arrangement) -> String {
    let side = view.viewer().expect("an engine plays a side");
    let mut line = format!(
        "hidden position {} setup {setup}",
        side.name().to_ascii_lowercase()
    );
    if !view.rules().is_standard() {
        line.push_str(&format!(" rules {}", view.rules()));
    }
    if !view.history().is_empty() {
        line.push_str(" moves");
        for public in view.history() {
            line.push_str(&format!(" {public}"));
        }
    }
    line
}

/// A hidden-game engine session: reads lines, answers them, searches with the [`HiddenAi`].
#[derive(Debug)]
pub struct HiddenSession<R, W> {
    input: R,
    output: W,
    level: u8,
    /// `setoption name Seed`: the seed the games' AIs are derived from; `None`: each AI is seeded by the
    /// operating system.
    seed: Option<u64>,
    games: u64,
    view: Option<View>,
    /// The AI of the current game, kept from `go` to `go` so the world it guessed last move carries over (and
    /// the engine keeps its tables); a new game or a new level starts a new one.
    ai: Option<HiddenAi>,
}

impl<R: BufRead, W: Write> HiddenSession<R, W> {
    pub fn new(input: R, output: W) -> HiddenSession<R, W> {
        HiddenSession {
            input,
            output,
            level: 8,
            seed: None,
            games: 0,
            view: None,
            ai: None,
        }
    }

    /// Runs until `quit` or the end of input, returning the output.
    ///
    /// # Errors
    /// Only when reading or writing fails.
    pub fn run(mut self) -> io::Result<W> {
        while let Some(line) = read_line(&mut self.input, MAX_LINE_BYTES)? {
            match line {
                Line::Text(text) => {
                    if !self.handle_line(text.trim())? {
                        break;
                    }
                }
                Line::TooLong(length) => self.error(&format!(
                    "line of {length} bytes, longer than {MAX_LINE_BYTES}"
                ))?,
            }
        }
        Ok(self.output)
    }

    fn say(&mut self, text: &str) -> io::Result<()> {
        writeln!(self.output, "{text}")?;
        self.output.flush()
    }

    fn error(&mut self, message: &str) -> io::Result<()> {
        self.say(&format!("info string error: {message}"))
    }

    /// Answers one line; `false` after `quit`.
    ///
    /// # Errors
    /// Only when writing fails.
    pub fn handle_line(&mut self, line: &str) -> io::Result<bool> {
        if line.is_empty() {
            return Ok(true);
        }
        if let Some(rest) = line.strip_prefix("hidden ") {
            let result = match rest.split_whitespace().next() {
                Some("setup") => self.setup(rest),
                Some("position") => self.position(rest),
                _ => Err("hidden: expected setup or position".to_string()),
            };
            if let Err(message) = result {
                self.error(&message)?;
            }
            return Ok(true);
        }
        match line.parse::<Command>() {
            Ok(Command::Uci) => {
                self.say(&format!("id name {ENGINE_NAME} (hidden)"))?;
                self.say(&format!("id author {ENGINE_AUTHOR}"))?;
                self.say("option name Skill Level type spin default 8 min 1 max 8")?;
                self.say("option name Seed type string default random")?;
                self.say("uciok")?;
            }
            Ok(Command::IsReady) => self.say("readyok")?,
            Ok(Command::UciNewGame) => {
                self.games += 1;
                self.view = None;
                self.ai = None;
            }
            Ok(Command::SetOption { name, value }) if name.eq_ignore_ascii_case("Skill Level") => {
                match value.as_deref().map(str::parse::<u8>) {
                    Some(Ok(level)) if (1..=8).contains(&level) => {
                        self.level = level;
                        self.ai = None;
                    }
                    _ => self.error("Skill Level takes a number from 1 to 8")?,
                }
            }
            Ok(Command::SetOption { name, value }) if name.eq_ignore_ascii_case("Seed") => {
                match value.as_deref().map(|v| (v, v.parse::<u64>())) {
                    Some((_, Ok(seed))) => {
                        self.seed = Some(seed);
                        self.ai = None;
                    }
                    Some(("random", _)) => {
                        self.seed = None;
                        self.ai = None;
                    }
                    _ => self.error(&format!(
                        "Seed takes a number from 0 to {} or \"random\"",
                        u64::MAX
                    ))?,
                }
            }
            Ok(Command::SetOption { name, .. }) => self.error(&format!(
                "unknown option \"{name}\" (options: Skill Level, Seed)"
            ))?,
            Ok(Command::Go(params)) => self.go(&params)?,
            Ok(Command::Quit) => return Ok(false),
            Ok(Command::Stop | Command::PonderHit | Command::Debug(_)) => {}
            Ok(_) => self.error(&format!(
                "\"{}\" is an open-game command; this engine plays Hidden Jungle",
                line.split_whitespace().next().unwrap_or_default()
            ))?,
            Err(e) => self.error(&e.to_string())?,
        }
        Ok(true)
    }

    /// The AI of the current game, made when first needed: seeded from `Seed` and the game's number when a seed
    /// was given (the same session replays the same games), else by the operating system.
    fn ai(&mut self) -> &mut HiddenAi {
        let (level, seed, game) = (self.level, self.seed, self.games);
        self.ai.get_or_insert_with(|| {
            let seed = seed.map_or_else(|| rand::rng().random(), |seed| game_seed(seed, game));
            HiddenAi::new(level, seed)
        })
    }

    fn setup(&mut self, rest: &str) -> Result<(), String> {
        let mut tokens = rest.split_whitespace().skip(1);
        let side = parse_side(tokens.next())?;
        let rules = match (tokens.next(), tokens.next()) {
            (None, _) => Rules::default(),
            (Some("rules"), Some(text)) => text.parse().map_err(|e| format!("rules: {e}"))?,
            _ => return Err("hidden setup SIDE [rules OPTS]".to_string()),
        };
        let setup = self.ai().choose_setup(&rules, side);
        self.say(&format!("setup {setup}"))
            .map_err(|e| e.to_string())
    }

    fn position(&mut self, rest: &str) -> Result<(), String> {
        let mut tokens = rest.split_whitespace().skip(1).peekable();
        let side = parse_side(tokens.next())?;
        let mut setup_text = None;
        let mut rules = Rules::default();
        while let Some(&word) = tokens.peek() {
            match word {
                "setup" => {
                    tokens.next();
                    setup_text = Some(tokens.next().ok_or("setup: missing the letters")?);
                }
                "rules" => {
                    tokens.next();
                    let text = tokens.next().ok_or("rules: missing the options")?;
                    rules = text.parse().map_err(|e| format!("rules: {e}"))?;
                }
                "moves" => {
                    tokens.next();
                    break;
                }
                other => return Err(format!("hidden position: unexpected \"{other}\"")),
            }
        }
        let setup_text =
            setup_text.ok_or("hidden position: missing setup LETTERS (the engine's own setup)")?;
        let setup =
            Arrangement::parse(&rules, side, setup_text).map_err(|e| format!("setup: {e}"))?;
        let mut view = View::start(&rules, Some(side), Some(&setup)).map_err(|e| e.to_string())?;
        let mut mover = Side::Blue;
        for (i, token) in tokens.enumerate() {
            let text: PublicMoveText = token.parse().map_err(|e| format!("move {}: {e}", i + 1))?;
            view.apply(&text.by(mover))
                .map_err(|e| format!("move {}: {e}", i + 1))?;
            mover = !mover;
        }
        self.view = Some(view);
        Ok(())
    }

    fn go(&mut self, params: &GoParams) -> io::Result<()> {
        let Some(view) = self.view.clone() else {
            return self.error("go: no hidden position set");
        };
        if view.viewer() != Some(view.side_to_move()) {
            return self.error("go: it is not this engine's move in the position set");
        }
        let budget = move_budget(params, view.side_to_move());
        let ai = self.ai();
        match ai.choose_within(&view, budget) {
            Some(m) => {
                let report = ai.report().clone();
                self.say(&format!(
                    "info depth {} nodes {} string worlds {} world-searches {}",
                    report.depth, report.nodes, report.worlds, report.world_searches
                ))?;
                self.say(&format!("bestmove {m}"))
            }
            None => self.say("bestmove (none)"),
        }
    }
}

/// The seed of the AI of game number `game` (counted by `ucinewgame` from 0) of a session given `Seed` `seed`:
/// different for every game. Seed 0 plays as sessions did before the option existed.
pub fn game_seed(seed: u64, game: u64) -> u64 {
    (seed ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15)) ^ 0x1d
}

fn parse_side(token: Option<&str>) -> Result<Side, String> {
    match token.map(str::to_ascii_lowercase).as_deref() {
        Some("blue") => Ok(Side::Blue),
        Some("red") => Ok(Side::Red),
        Some(other) => Err(format!("side \"{other}\" should be blue or red")),
        None => Err("missing the side (blue or red)".to_string()),
    }
}

/// The budget of one move: `nodes` (engine nodes over all the worlds searched) and a time — `movetime`, else a
/// share of the side's clock, else [`DEFAULT_MOVETIME`] unless `nodes` alone bounds the search.
fn move_budget(params: &GoParams, side: Side) -> Budget {
    let clock_given = params.wtime.is_some() || params.btime.is_some();
    let time = match (params.movetime, clock_given, params.nodes) {
        (Some(movetime), _, _) => Some(movetime),
        (None, true, _) => Some(clock_share(params, side)),
        (None, false, Some(_)) => None,
        (None, false, None) => Some(DEFAULT_MOVETIME),
    };
    Budget {
        time,
        nodes: params.nodes,
    }
}

/// The time for one move out of the side's clock; [`DEFAULT_MOVETIME`] if that side's clock was not given.
fn clock_share(params: &GoParams, side: Side) -> Duration {
    let (time, inc) = match side {
        Side::Blue => (params.wtime, params.winc),
        Side::Red => (params.btime, params.binc),
    };
    match time {
        Some(time) => {
            let inc = inc.unwrap_or_default();
            (time / MOVES_TO_PLAN + inc * 3 / 4).min(time / 2)
        }
        None => DEFAULT_MOVETIME,
    }
}
