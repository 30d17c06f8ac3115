//! The game as the screen sees it, independent of any terminal: the game, who plays each side, the cursor,
//! the selected piece and its legal targets, the typed move, the status line, prompts, clocks and the
//! board's orientation. Key events ([`App::handle_key`]) and elapsed time ([`App::tick`]) drive it; the
//! renderer only reads it.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use jungle_rules::{Bitboard, BySide, Game, Move, Outcome, Side, Square, Termination};

mod keys;

use crate::clock::Clocks;
use crate::config::{Mode, PlayConfig};
use crate::opponent::{MoveChooser, Purpose, Thinker};
use crate::record::{Players, today, write_pgn};

/// The skill level hints are computed at: the best advice available.
const HINT_LEVEL: u8 = 8;

/// Whether the status line reports something or explains a mistake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatusKind {
    Info,
    Error,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    pub text: String,
    pub kind: StatusKind,
}

/// A yes/no question waiting for its answer; other keys are held back until it is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prompt {
    /// "Resign? (y/n)"
    Resign,
    /// "Save the game before quitting? (y/n, Esc to keep playing)"
    SaveBeforeQuit,
    /// "Abandon this game and start a new one? (y/n)"
    NewGame,
}

impl Prompt {
    pub const fn question(self) -> &'static str {
        match self {
            Prompt::Resign => "Resign this game? y: resign, any other key: keep playing",
            Prompt::SaveBeforeQuit => {
                "The game is not saved. Save before quitting? y: save and quit, n: quit, Esc: keep playing"
            }
            Prompt::NewGame => {
                "Abandon this game and start a new one? y: new game, any other key: keep playing"
            }
        }
    }
}

/// The state of a terminal game.
#[derive(Debug)]
pub struct App {
    game: Game,
    config: PlayConfig,
    engine_sides: BySide<bool>,
    thinker: Thinker,
    cursor: Square,
    selected: Option<Square>,
    typed: String,
    status: Status,
    flipped: bool,
    clocks: Option<Clocks>,
    prompt: Option<Prompt>,
    hint: Option<Move>,
    paused: bool,
    show_help: bool,
    quit: bool,
    /// Something happened since the last save (a move, an undo, an ending).
    dirty: bool,
    /// The engine's word on its last move (side, depth, score).
    engine_note: Option<String>,
}

impl App {
    /// A game (possibly loaded, with moves) under a configuration, with `chooser` for engine moves and hints.
    pub fn new(game: Game, config: PlayConfig, chooser: Arc<dyn MoveChooser>) -> App {
        let engine_sides = config.engine_sides();
        let bottom = match config.mode {
            Mode::VsEngine => config.human_side,
            _ => Side::Blue,
        };
        let cursor = jungle_rules::terrain::DENS[bottom];
        let mut app = App {
            clocks: config.time_control.map(Clocks::new),
            flipped: bottom == Side::Red,
            thinker: Thinker::new(chooser),
            engine_sides,
            cursor,
            selected: None,
            typed: String::new(),
            status: Status {
                text: String::new(),
                kind: StatusKind::Info,
            },
            prompt: None,
            hint: None,
            paused: false,
            show_help: false,
            quit: false,
            dirty: false,
            engine_note: None,
            game,
            config,
        };
        app.info(app.welcome());
        app
    }

    fn welcome(&self) -> String {
        if let Some(outcome) = self.game.outcome() {
            return format!("game over: {outcome}");
        }
        match self.config.mode {
            Mode::Watch => "watching the engine play itself: p pauses".into(),
            _ => format!(
                "{} to move: arrows + Enter pick a piece and a target, or type a move like c3c4; ? for help",
                self.game.side_to_move()
            ),
        }
    }

    // ----- what the screen reads -----

    pub fn game(&self) -> &Game {
        &self.game
    }
    pub fn config(&self) -> &PlayConfig {
        &self.config
    }
    pub fn cursor(&self) -> Square {
        self.cursor
    }
    pub fn selected(&self) -> Option<Square> {
        self.selected
    }
    /// The legal targets of the selected piece.
    pub fn targets(&self) -> Bitboard {
        match self.selected {
            Some(from) => self
                .game
                .legal_moves()
                .iter()
                .filter(|m| m.from == from)
                .map(|m| m.to)
                .collect(),
            None => Bitboard::EMPTY,
        }
    }
    pub fn typed(&self) -> &str {
        &self.typed
    }
    pub fn status(&self) -> &Status {
        &self.status
    }
    pub fn is_flipped(&self) -> bool {
        self.flipped
    }
    pub fn clocks(&self) -> Option<&Clocks> {
        self.clocks.as_ref()
    }
    pub fn prompt(&self) -> Option<Prompt> {
        self.prompt
    }
    pub fn hint(&self) -> Option<Move> {
        self.hint
    }
    pub fn last_move(&self) -> Option<Move> {
        self.game.moves().last().copied()
    }
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }
    pub fn is_paused(&self) -> bool {
        self.paused
    }
    pub fn shows_help(&self) -> bool {
        self.show_help
    }
    pub fn should_quit(&self) -> bool {
        self.quit
    }
    /// What the engine said about its last move: `Red: depth 7, +0.35`.
    pub fn engine_note(&self) -> Option<&str> {
        self.engine_note.as_deref()
    }
    pub fn is_dirty(&self) -> bool {
        self.dirty
    }
    /// What the engine is computing now, if anything.
    pub fn thinking(&self) -> Option<Purpose> {
        self.thinker.pending()
    }
    /// How many answers of cancelled searches (a hint overtaken by a move, an engine move taken back) came
    /// late and were ignored.
    pub fn stale_answers(&self) -> u64 {
        self.thinker.stale_answers()
    }
    /// How far the running search has got (`depth 7, +0.35`), once it has said.
    pub fn thinking_progress(&self) -> Option<&str> {
        self.thinker.progress()
    }
    pub fn is_engine(&self, side: Side) -> bool {
        self.engine_sides[side]
    }

    /// The name of the player of a side, as shown and recorded.
    pub fn player_name(&self, side: Side) -> String {
        match (self.config.mode, self.engine_sides[side]) {
            (_, true) => format!("{} (level {})", self.thinker.name(), self.config.level),
            (Mode::VsEngine, false) => "You".into(),
            _ => format!("{side} player"),
        }
    }

    /// Whether a person should move now.
    pub fn is_human_turn(&self) -> bool {
        !self.game.is_over() && !self.engine_sides[self.game.side_to_move()]
    }

    // ----- commands (shared with the line mode) -----

    /// Plays move text for the person to move, explaining a bad or illegal move.
    ///
    /// # Errors
    /// The reason the text is not a legal move now (the rules library's message), or why no one may move.
    pub fn play_text(&mut self, text: &str) -> Result<Move, String> {
        self.check_can_move()?;
        // Either notation: `a3a4` (any case) or `Ea3-a4`.
        let m = self
            .game
            .position()
            .parse_move(self.game.rules(), text)
            .map_err(|e| e.to_string())?;
        self.play(m)?;
        Ok(m)
    }

    /// Plays a legal move for whoever is to move, runs the clocks' bookkeeping and reports it.
    fn play(&mut self, m: Move) -> Result<(), String> {
        let mover = self.game.side_to_move();
        let before = *self.game.position();
        self.game.play(m).map_err(|e| e.to_string())?;
        if self.thinker.pending() == Some(Purpose::Hint) {
            self.thinker.cancel(); // a hint for the position before this move
        }
        if let Some(clocks) = &mut self.clocks {
            clocks.moved(mover);
        }
        self.selected = None;
        self.hint = None;
        self.typed.clear();
        self.dirty = true;
        let piece = before.piece_at(m.from).expect("a legal move moves a piece");
        let dots = if mover == Side::Blue { "." } else { "..." };
        let mut text = format!("{}{dots} {piece} {m}", before.move_number());
        if let Some(victim) = before.piece_at(m.to) {
            text.push_str(&format!(" takes the {victim}"));
        }
        match self.game.outcome() {
            Some(outcome) => text.push_str(&format!(" — {outcome}")),
            None => text.push_str(&format!(" — {} to move", self.game.side_to_move())),
        }
        self.info(text);
        Ok(())
    }

    /// Takes back the last move, and in a game against the engine also the engine's reply, so that the person
    /// is to move again. A search in progress is abandoned.
    ///
    /// # Errors
    /// Nothing to undo, or a game lost on time (the clock cannot be given back).
    pub fn undo(&mut self) -> Result<(), String> {
        if self
            .game
            .outcome()
            .is_some_and(|o| o.termination == Termination::TimeForfeit)
        {
            return Err("the game was lost on time: n starts a new game".into());
        }
        if self
            .game
            .outcome()
            .is_some_and(|o| o.termination == Termination::Resignation)
        {
            // Withdraw the resignation alone: replay the game without it.
            let mut game =
                Game::from_position(self.game.rules().clone(), *self.game.start_position());
            for &m in self.game.moves() {
                game.play(m).map_err(|e| e.to_string())?;
            }
            self.game = game;
            self.dirty = true;
            self.info(format!(
                "resignation withdrawn; {} to move",
                self.game.side_to_move()
            ));
            return Ok(());
        }
        if self.game.moves().is_empty() {
            return Err("nothing to undo: no move has been played".into());
        }
        self.thinker.cancel();
        self.engine_note = None;
        let mut taken = vec![self.game.undo().expect("a move to undo")];
        if self.config.mode == Mode::VsEngine {
            while self.engine_sides[self.game.side_to_move()] && !self.game.moves().is_empty() {
                taken.push(self.game.undo().expect("a move to undo"));
            }
        }
        if self.config.mode == Mode::Watch {
            self.paused = true;
        }
        self.selected = None;
        self.hint = None;
        self.typed.clear();
        self.dirty = true;
        let list: Vec<String> = taken.iter().rev().map(Move::to_string).collect();
        self.info(format!(
            "took back {}; {} to move",
            list.join(" "),
            self.game.side_to_move()
        ));
        Ok(())
    }

    fn undo_key(&mut self) {
        if let Err(e) = self.undo() {
            self.error(e);
        }
    }

    /// Asks the engine for a suggestion for the side to move; it shows when it arrives. Refused (in the status
    /// line) when the game is over or the engine is choosing its own move.
    pub fn request_hint(&mut self) {
        if let Err(e) = self.check_can_move() {
            self.error(e);
            return;
        }
        self.thinker
            .start(&self.game, Purpose::Hint, HINT_LEVEL, self.config.movetime);
        self.info("thinking about a hint…".into());
    }

    pub fn flip(&mut self) {
        self.flipped = !self.flipped;
        let bottom = if self.flipped { Side::Red } else { Side::Blue };
        self.info(format!("board turned: {bottom} at the bottom"));
    }

    fn request_resign(&mut self) {
        match self.resigning_side() {
            Ok(_) => self.prompt = Some(Prompt::Resign),
            Err(e) => self.error(e),
        }
    }

    fn resigning_side(&self) -> Result<Side, String> {
        if let Some(outcome) = self.game.outcome() {
            return Err(format!("the game is already over ({outcome})"));
        }
        match self.config.mode {
            Mode::Watch => Err("nobody to resign for: the engine plays both sides".into()),
            Mode::VsEngine => Ok(self.config.human_side),
            Mode::TwoPlayers => Ok(self.game.side_to_move()),
        }
    }

    /// The person (in two-player mode, the side to move) gives up.
    ///
    /// # Errors
    /// The game is over already, or only the engine plays.
    pub fn resign(&mut self) -> Result<(), String> {
        let side = self.resigning_side()?;
        self.thinker.cancel();
        self.game
            .declare(Outcome::win(!side, Termination::Resignation));
        self.dirty = true;
        self.selected = None;
        self.info(format!("{side} resigned: {} wins", !side));
        Ok(())
    }

    /// Writes the game as PGN to the configured path.
    ///
    /// # Errors
    /// The file could not be written (the message names it).
    pub fn save(&mut self) -> Result<PathBuf, String> {
        let path = self.config.save_path.clone();
        self.save_to(path)
    }

    /// Writes the game as PGN to `path` (which then becomes the save path).
    ///
    /// # Errors
    /// The file could not be written (the message names it).
    pub fn save_to(&mut self, path: PathBuf) -> Result<PathBuf, String> {
        let text = self.pgn();
        std::fs::write(&path, text)
            .map_err(|e| format!("cannot save to {}: {e}", path.display()))?;
        self.config.save_path = path.clone();
        self.dirty = false;
        self.info(format!("saved the game to {}", path.display()));
        Ok(path)
    }

    /// The game as PGN, with today's date.
    pub fn pgn(&self) -> String {
        let players = Players {
            blue: self.player_name(Side::Blue),
            red: self.player_name(Side::Red),
        };
        let time_control = self.config.time_control.map(|tc| {
            let seconds = |d: Duration| d.as_secs_f64().to_string();
            format!("{}+{}", seconds(tc.base), seconds(tc.increment))
        });
        write_pgn(&self.game, &players, &today(), time_control.as_deref())
    }

    fn save_key(&mut self) {
        if let Err(e) = self.save() {
            self.error(e);
        }
    }

    fn request_quit(&mut self) {
        if self.dirty && !self.game.moves().is_empty() {
            self.prompt = Some(Prompt::SaveBeforeQuit);
        } else {
            self.quit = true;
        }
    }

    fn request_new_game(&mut self) {
        if self.game.is_over() || self.game.moves().is_empty() {
            self.new_game();
        } else {
            self.prompt = Some(Prompt::NewGame);
        }
    }

    /// Starts again from the same start position and rules, with fresh clocks.
    pub fn new_game(&mut self) {
        self.thinker.cancel();
        self.engine_note = None;
        self.game = Game::from_position(self.game.rules().clone(), *self.game.start_position());
        self.clocks = self.config.time_control.map(Clocks::new);
        self.selected = None;
        self.hint = None;
        self.typed.clear();
        self.paused = false;
        self.dirty = false;
        self.info(format!("new game: {} to move", self.game.side_to_move()));
    }

    fn toggle_pause(&mut self) {
        if self.config.mode != Mode::Watch {
            self.error("p pauses only when watching the engine play itself".into());
            return;
        }
        self.paused = !self.paused;
        self.info(
            if self.paused {
                "paused: p resumes"
            } else {
                "resumed"
            }
            .into(),
        );
    }

    // ----- time and the engine -----

    /// Lets `elapsed` pass on the clock of the side to move; a flag that falls ends the game.
    pub fn tick(&mut self, elapsed: Duration) {
        if self.game.is_over() || (self.paused && self.config.mode == Mode::Watch) {
            return;
        }
        self.run_clock(elapsed);
        self.update();
    }

    /// Runs the clock of the side to move; a falling flag ends the game. True if it fell.
    fn run_clock(&mut self, elapsed: Duration) -> bool {
        let side = self.game.side_to_move();
        let Some(clocks) = &mut self.clocks else {
            return false;
        };
        if !clocks.run(side, elapsed) {
            return false;
        }
        self.thinker.cancel();
        self.game
            .declare(Outcome::win(!side, Termination::TimeForfeit));
        self.dirty = true;
        self.selected = None;
        self.info(format!("{side}'s time ran out: {} wins", !side));
        true
    }

    /// Takes in a finished search, and starts the engine when it is to move.
    pub fn update(&mut self) {
        if let Some(answer) = self.thinker.poll() {
            self.apply_answer(answer.purpose, answer.best, answer.note);
        }
        self.start_engine_if_its_turn();
    }

    /// Waits up to `timeout` for the search in progress and applies its answer; false if none came. The
    /// engine's clock is charged with the search's time (no [`App::tick`] ran meanwhile).
    pub fn wait_for_engine(&mut self, timeout: Duration) -> bool {
        self.start_engine_if_its_turn();
        match self.thinker.wait(timeout) {
            Some(answer) => {
                if answer.purpose == Purpose::Play && self.run_clock(answer.elapsed) {
                    return true;
                }
                self.apply_answer(answer.purpose, answer.best, answer.note);
                self.start_engine_if_its_turn();
                true
            }
            None => false,
        }
    }

    fn apply_answer(&mut self, purpose: Purpose, best: Option<Move>, note: Option<String>) {
        let side = self.game.side_to_move();
        match (purpose, best) {
            (Purpose::Play, Some(m)) => {
                self.engine_note = note.map(|note| format!("{side}: {note}"));
                if let Err(e) = self.play(m) {
                    self.error(format!("the engine's move {m} was refused: {e}"));
                }
            }
            (Purpose::Hint, Some(m)) => {
                self.hint = Some(m);
                let piece = self.game.position().piece_at(m.from);
                let who = piece.map(|p| format!(" ({p})")).unwrap_or_default();
                let note = note.map(|n| format!(" — {n}")).unwrap_or_default();
                self.info(format!("hint: {m}{who}{note}"));
            }
            (_, None) => self.info("the engine found no move".into()),
        }
    }

    fn start_engine_if_its_turn(&mut self) {
        let side = self.game.side_to_move();
        let engine_to_move = !self.game.is_over() && self.engine_sides[side];
        if !engine_to_move || self.paused || self.thinker.pending() == Some(Purpose::Play) {
            return;
        }
        let movetime = match &self.clocks {
            Some(clocks) => clocks.engine_budget(side, self.config.movetime),
            None => self.config.movetime,
        };
        self.thinker
            .start(&self.game, Purpose::Play, self.config.level, movetime);
    }

    fn info(&mut self, text: String) {
        self.status = Status {
            text,
            kind: StatusKind::Info,
        };
    }

    fn error(&mut self, text: String) {
        self.status = Status {
            text,
            kind: StatusKind::Error,
        };
    }
}
