//! `jungle play --hidden` on the full screen: the player arranges their animals (or takes a random setup),
//! then plays the AI. The app is the referee — it holds the true game — but shows and hands out only views:
//! the screen reads [`HiddenApp::view`] (the player's), the AI thread gets its own. Keys ([`HiddenApp::handle_key`])
//! and time ([`HiddenApp::tick`]) drive it, so tests drive it the same way.

use std::path::PathBuf;
use std::time::Duration;

use jungle_hidden::ai::{Budget, HiddenAi};
use jungle_hidden::record::Record;
use jungle_hidden::{Arrangement, Effect, HiddenGame, PublicMove, View};
use jungle_rules::{Bitboard, BySide, Move, Outcome, Rules, Side, Square, Termination};
use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::app::{Status, StatusKind};

mod ai_seat;
mod keys;

use ai_seat::AiSeat;

/// How a hidden game on the screen is set up.
#[derive(Clone, Debug)]
pub struct HiddenConfig {
    pub rules: Rules,
    pub human: Side,
    /// The AI's skill level, 1–8.
    pub level: u8,
    /// The AI's time per move; zero: the level's depth alone bounds it (for tests).
    pub movetime: Duration,
    /// Plain letters instead of Chinese characters.
    pub ascii: bool,
    /// Where `s` writes the record.
    pub save_path: PathBuf,
    /// The player's setup given in advance (`--setup`): the setup screen is skipped.
    pub setup: Option<Arrangement>,
    /// Seeds the random setups (the player's `x` and the AI's own choice).
    pub seed: u64,
}

/// What the screen is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The player arranges their animals: pick one, pick another to swap them.
    Setup,
    /// The game (also once it is over).
    Play,
}

/// A yes/no question waiting for its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HiddenPrompt {
    Resign,
    /// Quitting a game that is still going (it is saved as it stands).
    Quit,
}

impl HiddenPrompt {
    pub const fn question(self) -> &'static str {
        match self {
            HiddenPrompt::Resign => "Resign this game? y: resign, any other key: keep playing",
            HiddenPrompt::Quit => {
                "Leave the game? It is saved as it stands. y: save and quit, any other key: keep playing"
            }
        }
    }
}

/// The state of a hidden game on the screen.
#[derive(Debug)]
pub struct HiddenApp {
    config: HiddenConfig,
    phase: Phase,
    /// The player's setup (edited on the setup screen).
    setup: Arrangement,
    /// The true game, from the start of play: never drawn, only its views.
    game: Option<HiddenGame>,
    /// The player's view of the game (or of the setup being arranged).
    view: View,
    ai: AiSeat,
    rng: StdRng,
    cursor: Square,
    /// The picked piece: on the setup screen, the first of two to swap; in play, the piece to move.
    selected: Option<Square>,
    typed: String,
    status: Status,
    prompt: Option<HiddenPrompt>,
    flipped: bool,
    quit: bool,
    /// A move or an ending since the last save.
    dirty: bool,
}

impl HiddenApp {
    pub fn new(config: HiddenConfig) -> HiddenApp {
        let mut rng = StdRng::seed_from_u64(config.seed);
        let (phase, setup) = match &config.setup {
            Some(setup) => (Phase::Play, setup.clone()),
            None => (
                Phase::Setup,
                Arrangement::random(&config.rules, config.human, &mut rng),
            ),
        };
        let ai = HiddenAi::new(config.level, rand::Rng::random(&mut rng));
        let view = setup_view(&config.rules, &setup);
        let mut app = HiddenApp {
            cursor: jungle_rules::terrain::DENS[config.human],
            flipped: config.human == Side::Red,
            phase: Phase::Setup,
            setup,
            game: None,
            view,
            ai: AiSeat::new(ai),
            rng,
            selected: None,
            typed: String::new(),
            status: Status {
                text: String::new(),
                kind: StatusKind::Info,
            },
            prompt: None,
            quit: false,
            dirty: false,
            config,
        };
        if phase == Phase::Play {
            app.begin();
        } else {
            app.info(
                "arrange your animals: Enter on one, then on another swaps them; x: random; g: start the game"
                    .into(),
            );
        }
        app
    }

    // ----- what the screen reads -----

    pub fn config(&self) -> &HiddenConfig {
        &self.config
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The player's view: all the screen ever shows of the game.
    pub fn view(&self) -> &View {
        &self.view
    }
    /// The player's setup.
    pub fn setup(&self) -> &Arrangement {
        &self.setup
    }
    pub fn cursor(&self) -> Square {
        self.cursor
    }
    pub fn selected(&self) -> Option<Square> {
        self.selected
    }
    pub fn typed(&self) -> &str {
        &self.typed
    }
    pub fn status(&self) -> &Status {
        &self.status
    }
    pub fn prompt(&self) -> Option<HiddenPrompt> {
        self.prompt
    }
    pub fn is_flipped(&self) -> bool {
        self.flipped
    }
    pub fn should_quit(&self) -> bool {
        self.quit
    }
    pub fn is_dirty(&self) -> bool {
        self.dirty
    }
    /// Whether the AI is choosing its move.
    pub fn is_thinking(&self) -> bool {
        self.ai.is_thinking()
    }
    pub fn outcome(&self) -> Option<Outcome> {
        self.view.outcome()
    }
    pub fn last_move(&self) -> Option<&PublicMove> {
        self.view.history().last()
    }

    /// The squares the picked piece may move to (in play), or the other start squares it may swap with (on the
    /// setup screen).
    pub fn targets(&self) -> Bitboard {
        let Some(from) = self.selected else {
            return Bitboard::EMPTY;
        };
        match self.phase {
            Phase::Setup => self
                .setup
                .placement()
                .iter()
                .map(|&(sq, _)| sq)
                .filter(|&sq| sq != from)
                .collect(),
            Phase::Play => self
                .view
                .legal_moves()
                .iter()
                .filter(|m| m.from == from)
                .map(|m| m.to)
                .collect(),
        }
    }

    /// Both setups, once the game is over (never before).
    pub fn setups_after_end(&self) -> Option<&BySide<Arrangement>> {
        self.game.as_ref()?.arrangements_after_end()
    }

    /// The name of a side's player, as shown and recorded.
    pub fn player_name(&self, side: Side) -> String {
        if side == self.config.human {
            "You".into()
        } else {
            format!("Hidden AI (level {})", self.config.level)
        }
    }

    /// The record as the player may hold it: their own setup, the public moves, the AI's setup once the game
    /// is over. `None` before the game starts.
    pub fn record(&self) -> Option<Record> {
        let game = self.game.as_ref()?;
        // PGN's player tags, as in open games: White is Blue, Black is Red.
        let tags = vec![
            ("White".to_string(), self.player_name(Side::Blue)),
            ("Black".to_string(), self.player_name(Side::Red)),
        ];
        Some(Record::of(game, Some(self.config.human), &tags))
    }

    // ----- commands -----

    /// Swaps the animals on two of the player's start squares.
    ///
    /// # Errors
    /// Not on the setup screen, a square that is not one of the player's start squares, or a swap the
    /// placement rules refuse (the library's reason).
    pub fn swap(&mut self, a: Square, b: Square) -> Result<(), String> {
        if self.phase != Phase::Setup {
            return Err("the game has begun: setups can no longer change".into());
        }
        let squares: Vec<Square> = self.setup.placement().iter().map(|&(sq, _)| sq).collect();
        let index = |sq: Square| {
            squares
                .iter()
                .position(|&s| s == sq)
                .ok_or_else(|| format!("{sq} is not one of your start squares"))
        };
        let (i, j) = (index(a)?, index(b)?);
        let mut animals = self.setup.animals();
        animals.swap(i, j);
        self.setup = Arrangement::new(&self.config.rules, self.config.human, &animals)
            .map_err(|e| e.to_string())?;
        self.view = setup_view(&self.config.rules, &self.setup);
        self.info(format!(
            "swapped {a} and {b}: your setup is {}; g starts the game",
            self.setup
        ));
        Ok(())
    }

    /// A new random setup for the player (setup screen only).
    pub fn randomize(&mut self) {
        if self.phase != Phase::Setup {
            self.error("the game has begun: setups can no longer change".into());
            return;
        }
        self.setup = Arrangement::random(&self.config.rules, self.config.human, &mut self.rng);
        self.view = setup_view(&self.config.rules, &self.setup);
        self.selected = None;
        self.info(format!("random setup {}; g starts the game", self.setup));
    }

    /// Ends the setup: the AI chooses its own setup and the game starts.
    pub fn begin(&mut self) {
        if self.phase == Phase::Play && self.game.is_some() {
            return;
        }
        let ai_setup = HiddenAi::new(self.config.level, rand::Rng::random(&mut self.rng))
            .choose_setup(&self.config.rules, !self.config.human);
        let (blue, red) = match self.config.human {
            Side::Blue => (self.setup.clone(), ai_setup),
            Side::Red => (ai_setup, self.setup.clone()),
        };
        let game = HiddenGame::new(self.config.rules.clone(), blue, red)
            .expect("each setup was checked for its own side");
        self.view = game.view(Some(self.config.human));
        self.game = Some(game);
        self.phase = Phase::Play;
        self.selected = None;
        self.typed.clear();
        self.info(format!(
            "the game begins with your setup {}; enemy pieces show as ? until revealed",
            self.setup
        ));
        self.update();
    }

    /// Plays move text (`a3a4`) for the player.
    ///
    /// # Errors
    /// Not the player's turn, text that is not a move, or an illegal move (the library's reason).
    pub fn play_text(&mut self, text: &str) -> Result<Move, String> {
        let m: Move = text
            .parse()
            .map_err(|e: jungle_rules::ParseMoveError| e.to_string())?;
        self.play_human(m)?;
        Ok(m)
    }

    fn play_human(&mut self, m: Move) -> Result<(), String> {
        self.check_can_move()?;
        self.play(m)
    }

    /// Plays a move of the side to move in the true game and shows what the player may see of it.
    fn play(&mut self, m: Move) -> Result<(), String> {
        let human = self.config.human;
        let game = self.game.as_mut().ok_or("the game has not begun")?;
        let public = game.play(m).map_err(|e| e.to_string())?;
        self.view = game.view(Some(human));
        self.selected = None;
        self.typed.clear();
        self.dirty = true;
        let mut text = describe(&public, human);
        match self.view.outcome() {
            Some(outcome) => text.push_str(&format!(" — {outcome}")),
            None if self.view.side_to_move() == human => text.push_str(" — your move"),
            None => {}
        }
        self.info(text);
        Ok(())
    }

    /// The player gives up.
    ///
    /// # Errors
    /// The game has not begun or is over.
    pub fn resign(&mut self) -> Result<(), String> {
        let human = self.config.human;
        let game = self.game.as_mut().ok_or("the game has not begun")?;
        if let Some(outcome) = game.outcome() {
            return Err(format!("the game is already over ({outcome})"));
        }
        game.declare(Outcome::win(!human, Termination::Resignation));
        self.view = game.view(Some(human));
        self.dirty = true;
        self.info(format!("you resigned: {} wins", !human));
        Ok(())
    }

    /// Writes the record to the configured path.
    ///
    /// # Errors
    /// The game has not begun, or the file could not be written (the message names it).
    pub fn save(&mut self) -> Result<PathBuf, String> {
        let record = self
            .record()
            .ok_or("nothing to save: the game has not begun")?;
        let path = self.config.save_path.clone();
        std::fs::write(&path, record.to_pgn())
            .map_err(|e| format!("cannot save to {}: {e}", path.display()))?;
        self.dirty = false;
        self.info(format!("saved the game to {}", path.display()));
        Ok(path)
    }

    pub fn flip(&mut self) {
        self.flipped = !self.flipped;
        let bottom = if self.flipped { Side::Red } else { Side::Blue };
        self.info(format!("board turned: {bottom} at the bottom"));
    }

    // ----- time and the AI -----

    /// Takes in the AI's move when it is ready, and starts it when it is to move.
    pub fn update(&mut self) {
        if let Some(answer) = self.ai.poll() {
            self.apply_ai_answer(answer);
        }
        self.start_ai_if_its_turn();
    }

    /// Time passed (the game has no clocks): the AI's answer is taken in.
    pub fn tick(&mut self, _elapsed: Duration) {
        self.update();
    }

    /// Waits up to `timeout` for the AI's move and plays it; false if none came.
    pub fn wait_for_ai(&mut self, timeout: Duration) -> bool {
        self.start_ai_if_its_turn();
        match self.ai.wait(timeout) {
            Some(answer) => {
                self.apply_ai_answer(answer);
                self.start_ai_if_its_turn();
                true
            }
            None => false,
        }
    }

    fn apply_ai_answer(&mut self, answer: Option<Move>) {
        let over = self.game.as_ref().is_none_or(HiddenGame::is_over);
        match answer {
            // The player resigned while the AI was thinking.
            Some(_) if over => {}
            Some(m) => {
                if let Err(e) = self.play(m) {
                    self.error(format!("the AI's move {m} was refused: {e}"));
                }
            }
            None => self.info("the AI found no move".into()),
        }
    }

    fn start_ai_if_its_turn(&mut self) {
        let Some(game) = &self.game else {
            return;
        };
        let ai_side = !self.config.human;
        if game.is_over() || game.side_to_move() != ai_side || self.ai.is_thinking() {
            return;
        }
        let budget = if self.config.movetime.is_zero() {
            Budget::default()
        } else {
            Budget::time(self.config.movetime)
        };
        // The AI gets its own view, built from its own setup and the public moves.
        self.ai.start(game.view(Some(ai_side)), budget);
    }

    pub(crate) fn check_can_move(&self) -> Result<(), String> {
        let Some(game) = &self.game else {
            return Err("the game has not begun: g starts it".into());
        };
        if let Some(outcome) = game.outcome() {
            return Err(format!("the game is over ({outcome}): q quits"));
        }
        if game.side_to_move() != self.config.human {
            return Err("wait: the AI is thinking".into());
        }
        Ok(())
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

/// The view of the setup screen: the player's animals on their start squares, the enemy's pieces face down.
fn setup_view(rules: &Rules, setup: &Arrangement) -> View {
    View::start(rules, Some(setup.side()), Some(setup)).expect("the viewer's own setup")
}

/// A public move in words, as the player reads it: whose piece, what it was if known, what it did.
pub fn describe(public: &PublicMove, human: Side) -> String {
    let whose = if public.side == human {
        "Your".to_string()
    } else {
        format!("{}'s", public.side)
    };
    let piece = match public.mover {
        Some(animal) => format!("{whose} {animal}"),
        None => format!("{whose} piece"),
    };
    let m = public.mv;
    match public.effect {
        Effect::Quiet => format!("{piece} {m}"),
        Effect::Captured(defender) => format!("{piece} {m} attacks and takes the {defender}"),
        Effect::Repelled(defender) => {
            format!("{piece} {m} attacks the {defender} and is taken")
        }
    }
}
