//! A hidden game's room: the true game (or, before it, the setups handed in), its seats, and what each audience
//! is sent. The room never serialises the true game: after every change it builds three state messages —
//! Blue's, Red's and the spectators' — each from that audience's [`View`], and hands them to its connections
//! through the room (a connection picks its own audience's). Every action is checked by
//! `jungle-hidden`, written to the store, and only then shown: what a browser sees has been saved.

use std::sync::Arc;

use jungle_hidden::ai::HiddenAi;
use jungle_hidden::record::Record;
use jungle_hidden::{Arrangement, ArrangementError, HiddenGame, HiddenMoveError, View};
use jungle_rules::{BySide, Move, Outcome, ParseMoveError, Rules, Side, Termination};

use super::{Ending, EndingWriter, Frames, Kind, LoadError, Room, stored};
use crate::cluster::event::{Change, Headcount};
use crate::protocol::{EngineView, PerSide, SideName};
use crate::store::{HiddenRecord, Store, StoreError};
use wire::{Facts, HiddenState, Phase, ServerMessage};

pub mod wire;

/// Hidden Jungle: each audience (Blue, Red, the spectators) is sent only its own view.
#[derive(Debug)]
pub struct Hidden;

/// A hidden game's room.
pub type HiddenRoom = Room<Hidden>;

impl Kind for Hidden {
    type State = RoomState;

    fn frames(id: &str, state: &RoomState) -> Frames {
        state.frames(id)
    }

    fn at_rest(state: &RoomState) -> bool {
        !state.thinking
    }

    fn tokens(state: &RoomState) -> &BySide<Option<String>> {
        &state.tokens
    }

    fn attendance(_: &RoomState) -> Headcount {
        // Who watches a hidden game is not shared between nodes.
        Headcount::default()
    }

    fn reread(store: &Store, id: &str, state: &mut RoomState) -> Result<(), LoadError> {
        let record = store
            .hidden_game(id)?
            .ok_or_else(|| LoadError::Gone(id.to_string()))?;
        let moves = store.hidden_moves(id)?;
        let fresh = RoomState::from_record(&record, &moves)?;
        let (thinking, ai, generation) = (state.thinking, state.ai.take(), state.generation);
        *state = RoomState {
            thinking,
            ai,
            generation: generation + 1,
            ..fresh
        };
        Ok(())
    }

    const STORE_ENDING: EndingWriter = Store::finish_hidden;

    fn approx_bytes(state: &RoomState) -> usize {
        // The true game's positions, and each side's view of them.
        state.game().map_or(0, |game| {
            game.history().len() * 3 * size_of::<jungle_rules::Position>()
        })
    }
}

/// Who plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HiddenMode {
    /// A person against the AI, which plays `side` at `level` (1–8).
    Engine { level: u8, side: Side },
    /// Two people: the creator and whoever joins by the link first.
    Friend,
}

impl HiddenMode {
    pub fn name(self) -> &'static str {
        match self {
            HiddenMode::Engine { .. } => "engine",
            HiddenMode::Friend => "friend",
        }
    }

    fn engine_side(self) -> Option<Side> {
        match self {
            HiddenMode::Engine { side, .. } => Some(side),
            HiddenMode::Friend => None,
        }
    }
}

/// Why an action was refused. The room is unchanged after any of these. The reasons name only what the sender
/// may know (the library's reasons never name an enemy animal).
#[derive(Debug, thiserror::Error)]
pub enum HiddenError {
    #[error("you are watching this game: only its players may do that")]
    Spectator,
    #[error("it is not your turn")]
    NotYourTurn,
    #[error("the game has not started: it starts when both setups are in")]
    NotStarted,
    #[error("your setup is already in")]
    SetupDone,
    #[error("the setups are in: the game has started")]
    Started,
    #[error("send a setup (\"setup\":\"TLCDEWPR\") or \"random\":true, not both")]
    SetupShape,
    #[error("bad setup: {0}")]
    Setup(#[from] ArrangementError),
    #[error("{0}")]
    Parse(#[from] ParseMoveError),
    #[error("{0}")]
    Move(#[from] HiddenMoveError),
    #[error("the game is over: {0}")]
    Over(Outcome),
    #[error("the game was not saved, try again: {0}")]
    Store(#[from] StoreError),
    /// Another request (or server node) changed the game first: the room was read again and its state sent.
    #[error("your game was out of date (it changed elsewhere): here is where it stands now")]
    OutOfDate,
    #[error("the game could not be read again: {0}")]
    Reload(String),
}

impl From<LoadError> for HiddenError {
    fn from(e: LoadError) -> HiddenError {
        match e {
            LoadError::Store(e) => HiddenError::Store(e),
            other => HiddenError::Reload(other.to_string()),
        }
    }
}

/// Before the game: the setups handed in; then the true game.
#[derive(Debug)]
enum Stage {
    Setup(BySide<Option<Arrangement>>),
    Game(Box<HiddenGame>),
}

/// Everything a room holds behind its lock.
#[derive(Debug)]
pub struct RoomState {
    rules: Rules,
    pub mode: HiddenMode,
    tokens: BySide<Option<String>>,
    /// The account names of the players who were signed in when they took their seats.
    names: BySide<Option<String>>,
    stage: Stage,
    /// The AI is working on a move.
    pub thinking: bool,
    /// Counts changes, so a late AI reply can tell the game moved on without it.
    pub generation: u64,
    /// The ending is written to the store.
    recorded: bool,
    /// The AI of an engine game, kept between its moves (it keeps its picture of the other side); taken out
    /// while it thinks.
    ai: Option<HiddenAi>,
}

/// What the engine is asked to do: the generation it answers, its level, and its own view.
#[derive(Debug)]
pub struct EngineTurn {
    pub generation: u64,
    pub level: u8,
    pub view: View,
    pub ai: HiddenAi,
}

/// Who plays a stored hidden game, and the checks of its row that do not need the rules: when it was made,
/// the engine's seat, its ending.
fn stored_mode(record: &HiddenRecord) -> Result<HiddenMode, String> {
    let engine = stored::game_row(stored::GameRow {
        created_at: record.created_at,
        mode: &record.mode,
        engine_level: record.engine_level,
        engine_side: record.engine_side.as_deref(),
        result: record.result.as_deref(),
        winner: record.winner.as_deref(),
        termination: record.termination.as_deref(),
        finished_at: record.finished_at,
    })?;
    match (record.mode.as_str(), engine) {
        ("engine", Some((level, side))) => Ok(HiddenMode::Engine { level, side }),
        ("friend", None) => Ok(HiddenMode::Friend),
        (other, _) => Err(format!("mode \"{other}\"")),
    }
}

impl RoomState {
    /// The state of a stored game: its setups, and the game replayed from them.
    ///
    /// # Errors
    /// [`LoadError::Damaged`] when the record holds what no game could have (see `room::stored`) or no
    /// longer replays.
    pub fn from_record(
        record: &HiddenRecord,
        moves: &[(u32, String)],
    ) -> Result<RoomState, LoadError> {
        let damaged = |reason: String| stored::damaged(&record.id, reason);
        let mode = stored_mode(record).map_err(damaged)?;
        stored::plies(moves.iter().map(|(ply, _)| *ply)).map_err(damaged)?;
        let moves: Vec<&str> = moves.iter().map(|(_, mv)| mv.as_str()).collect();
        let rules: Rules = record.rules.parse().map_err(|e| damaged(format!("{e}")))?;
        let setup = |side, text: &Option<String>| {
            text.as_deref()
                .map(|t| Arrangement::parse(&rules, side, t))
                .transpose()
                .map_err(|e| damaged(format!("{side} setup: {e}")))
        };
        let setups = BySide::new(
            setup(Side::Blue, &record.blue_setup)?,
            setup(Side::Red, &record.red_setup)?,
        );
        let stage = match setups {
            BySide {
                blue: Some(blue),
                red: Some(red),
            } => {
                let mut game = HiddenGame::new(rules.clone(), blue, red)
                    .map_err(|e| damaged(format!("setups: {e}")))?;
                for (ply, text) in moves.iter().enumerate() {
                    let m: Move = text
                        .parse()
                        .map_err(|e| damaged(format!("move {}: {e}", ply + 1)))?;
                    game.play(m)
                        .map_err(|e| damaged(format!("move {}: {e}", ply + 1)))?;
                }
                if !game.is_over()
                    && let Some(outcome) = stored_outcome(record)
                {
                    game.declare(outcome);
                }
                Stage::Game(Box::new(game))
            }
            setups if moves.is_empty() => Stage::Setup(setups),
            _ => return Err(damaged("moves without both setups".into())),
        };
        Ok(RoomState {
            rules,
            mode,
            tokens: BySide::new(record.blue_token.clone(), record.red_token.clone()),
            names: BySide::new(record.blue_name.clone(), record.red_name.clone()),
            stage,
            thinking: false,
            generation: 0,
            recorded: record.result.is_some(),
            ai: None,
        })
    }

    fn game(&self) -> Option<&HiddenGame> {
        match &self.stage {
            Stage::Game(game) => Some(&**game),
            Stage::Setup(_) => None,
        }
    }

    pub fn phase(&self) -> Phase {
        match self.game() {
            None => Phase::Setup,
            Some(game) if game.is_over() => Phase::Over,
            Some(_) => Phase::Play,
        }
    }

    pub fn is_over(&self) -> bool {
        self.phase() == Phase::Over
    }

    /// The seat a token holds, if any.
    pub fn seat_of(&self, token: &str) -> Option<Side> {
        Side::ALL
            .into_iter()
            .find(|&side| self.tokens[side].as_deref() == Some(token))
    }

    /// The seat a friend could still take.
    pub fn free_seat(&self) -> Option<Side> {
        match self.mode {
            HiddenMode::Friend if !self.is_over() => {
                Side::ALL.into_iter().find(|&s| self.tokens[s].is_none())
            }
            _ => None,
        }
    }

    /// What `viewer` knows now: its view, built from its own setup and the public moves only. Before a seat
    /// has handed in its setup, its view shows the ordinary arrangement: the setup screen's starting point.
    fn view(&self, viewer: Option<Side>) -> View {
        match &self.stage {
            Stage::Game(game) => game.view(viewer),
            Stage::Setup(setups) => {
                let own = viewer.map(|side| {
                    setups[side]
                        .clone()
                        .unwrap_or_else(|| Arrangement::standard(&self.rules, side))
                });
                View::start(&self.rules, viewer, own.as_ref())
                    .expect("a side's own setup fits its view")
            }
        }
    }

    /// The viewer's own setup, once handed in.
    fn own_setup(&self, viewer: Option<Side>) -> Option<String> {
        let side = viewer?;
        match &self.stage {
            Stage::Game(game) => Some(game.arrangement(side).to_string()),
            Stage::Setup(setups) => setups[side].as_ref().map(ToString::to_string),
        }
    }

    fn player_name(&self, side: Side) -> String {
        match self.mode {
            HiddenMode::Engine {
                level,
                side: engine,
            } if engine == side => format!("Engine level {level}"),
            _ if self.tokens[side].is_none() => "Waiting for a friend…".to_string(),
            _ => self.names[side]
                .clone()
                .unwrap_or_else(|| "Anonymous".to_string()),
        }
    }

    /// The state message `viewer`'s audience is sent now.
    pub fn state(&self, id: &str, viewer: Option<Side>) -> HiddenState {
        let facts = Facts {
            id,
            mode: self.mode.name(),
            players: PerSide::from_fn(|side| self.player_name(side)),
            seats_taken: PerSide::from_fn(|side| {
                self.tokens[side].is_some() || self.mode.engine_side() == Some(side)
            }),
            engine: match self.mode {
                HiddenMode::Engine { level, side } => Some(EngineView {
                    level,
                    side: SideName(side),
                }),
                HiddenMode::Friend => None,
            },
            setup_done: PerSide::from_fn(|side| match &self.stage {
                Stage::Setup(setups) => setups[side].is_some(),
                Stage::Game(_) => true,
            }),
            thinking: self.thinking,
        };
        let setups = self.game().and_then(HiddenGame::arrangements_after_end);
        HiddenState::of(
            facts,
            self.phase(),
            &self.view(viewer),
            self.own_setup(viewer),
            setups,
        )
    }

    fn frames(&self, id: &str) -> Frames {
        let json = |viewer| -> Arc<str> {
            ServerMessage::State(&self.state(id, viewer))
                .to_json()
                .into()
        };
        Frames::PerSeat {
            blue: json(Some(Side::Blue)),
            red: json(Some(Side::Red)),
            spectators: json(None),
        }
    }

    /// The record `viewer` may hold (`None`: a spectator's): its own setup, both once the game is over.
    pub fn record(&self, viewer: Option<Side>) -> Record {
        let name = |side| match self.tokens[side] {
            None if self.mode.engine_side() != Some(side) => "?".to_string(),
            _ => self.player_name(side),
        };
        // docs/rules.md: `White` names the Blue player and `Black` the Red player.
        let tags = [
            ("Event", "Hidden Jungle game".to_string()),
            ("Site", "jungle serve".to_string()),
            ("White", name(Side::Blue)),
            ("Black", name(Side::Red)),
        ]
        .map(|(tag, value)| (tag.to_string(), value));
        match &self.stage {
            Stage::Game(game) => Record::of(game, viewer, &tags),
            Stage::Setup(setups) => Record {
                tags: tags.to_vec(),
                rules: self.rules.clone(),
                setups: BySide::new(Side::Blue, Side::Red)
                    .map(|side| setups[side].clone().filter(|_| viewer == Some(side))),
                moves: Vec::new(),
                outcome: None,
                comments: Vec::new(),
            },
        }
    }

    /// The AI's job when it is the AI's turn in a game under way and it is not already thinking.
    pub fn engine_turn(&mut self) -> Option<EngineTurn> {
        let HiddenMode::Engine { level, side } = self.mode else {
            return None;
        };
        let game = self.game()?;
        if self.thinking || game.is_over() || game.side_to_move() != side {
            return None;
        }
        let view = game.view(Some(side));
        let ai = self
            .ai
            .take()
            .unwrap_or_else(|| HiddenAi::new(level, rand::random()));
        self.thinking = true;
        Some(EngineTurn {
            generation: self.generation,
            level,
            view,
            ai,
        })
    }
}

/// The ending a stored game records beyond its moves (a resignation), if any.
fn stored_outcome(record: &HiddenRecord) -> Option<Outcome> {
    let termination = record.termination.as_deref()?.parse::<Termination>().ok()?;
    Some(Outcome {
        winner: record.winner.as_deref().and_then(crate::side_from_name),
        termination,
    })
}

impl Room<Hidden> {
    /// Tells the room's connections, and the other nodes, of a stored change.
    fn changed(&self, state: &mut RoomState) {
        state.generation += 1;
        self.show(state);
        self.publish(state, Change::Stored);
    }

    /// Gives the free seat of a friend game the token, and the name of the signed-in account taking it
    /// (none: a guest); `None` when no seat is free.
    ///
    /// # Errors
    /// When the store cannot be written.
    pub fn take_seat(
        &self,
        store: &Store,
        token: &str,
        name: Option<&str>,
    ) -> Result<Option<Side>, HiddenError> {
        let mut state = self.lock();
        let Some(side) = state.free_seat() else {
            return Ok(None);
        };
        if !store.take_hidden_seat(&self.id, side, token, name)? {
            // Taken a moment ago elsewhere.
            self.catch_up_locked(store, &mut state)?;
            return Ok(None);
        }
        state.tokens[side] = Some(token.to_string());
        state.names[side] = name.map(str::to_string);
        self.changed(&mut state);
        Ok(Some(side))
    }

    /// The player in `seat` hands in a setup (`text`, or a random one): final once stored. The game starts
    /// when both are in.
    ///
    /// # Errors
    /// [`HiddenError`]; the room is unchanged.
    pub fn submit_setup(
        &self,
        store: &Store,
        seat: Option<Side>,
        text: Option<&str>,
        random: bool,
    ) -> Result<(), HiddenError> {
        let seat = seat.ok_or(HiddenError::Spectator)?;
        let mut state = self.lock();
        let rules = state.rules.clone();
        match &state.stage {
            Stage::Setup(setups) if setups[seat].is_some() => return Err(HiddenError::SetupDone),
            Stage::Setup(_) => {}
            Stage::Game(game) => {
                return Err(match game.outcome() {
                    Some(outcome) => HiddenError::Over(outcome),
                    None => HiddenError::Started,
                });
            }
        }
        let arrangement = match (text, random) {
            (Some(text), false) => Arrangement::parse(&rules, seat, text)?,
            (None, true) => Arrangement::random(&rules, seat, &mut rand::rng()),
            _ => return Err(HiddenError::SetupShape),
        };
        let letters = arrangement.to_string();
        let next = next_stage(&rules, &state.stage, seat, arrangement)?;
        if !store.set_hidden_setup(&self.id, seat, &letters)? {
            // Handed in a moment ago elsewhere (another tab, another node).
            self.catch_up_locked(store, &mut state)?;
            return Err(HiddenError::OutOfDate);
        }
        state.stage = next;
        self.changed(&mut state);
        Ok(())
    }

    /// Plays a player's move, received by this server at `received_at_ms` (Unix ms), after every check:
    /// seat, phase, turn, legality. The store refuses it if it has grown too old by then
    /// ([`jungle_store::MOVE_MAX_AGE`]: a server that was stopped holding it).
    ///
    /// # Errors
    /// [`HiddenError`]; the room is unchanged.
    pub fn play(
        &self,
        store: &Store,
        seat: Option<Side>,
        text: &str,
        received_at_ms: i64,
    ) -> Result<(), HiddenError> {
        let seat = seat.ok_or(HiddenError::Spectator)?;
        let mut state = self.lock();
        let game = playable(&state)?;
        if seat != game.side_to_move() || state.mode.engine_side() == Some(seat) {
            return Err(HiddenError::NotYourTurn);
        }
        let m: Move = text.trim().parse()?;
        self.commit(store, &mut state, m, Some(received_at_ms))
    }

    /// Plays the AI's move if the room is still where it was asked to think (`generation`), and takes the AI
    /// back for its next move.
    ///
    /// # Errors
    /// [`HiddenError`] when the move cannot be stored.
    pub fn play_engine_move(
        &self,
        store: &Store,
        generation: u64,
        m: Option<Move>,
        ai: HiddenAi,
    ) -> Result<(), HiddenError> {
        let mut state = self.lock();
        state.thinking = false;
        state.ai = Some(ai);
        match m {
            Some(m) if state.generation == generation && !state.is_over() => {
                let played = self.commit(store, &mut state, m, None);
                if played.is_err() {
                    // Not played: at least show that the AI stopped thinking.
                    self.show(&state);
                }
                played
            }
            _ => {
                self.show(&state);
                Ok(())
            }
        }
    }

    /// The AI's job ended without a move it could play (it failed): it is no longer thinking.
    pub fn engine_gave_up(&self) {
        let mut state = self.lock();
        state.thinking = false;
        self.show(&state);
    }

    /// Plays `m` in the true game, stores it (and the ending it made), then shows it: a player's move,
    /// received at `received_at_ms`, or the AI's (`None`).
    fn commit(
        &self,
        store: &Store,
        state: &mut RoomState,
        m: Move,
        received_at_ms: Option<i64>,
    ) -> Result<(), HiddenError> {
        let Stage::Game(game) = &state.stage else {
            return Err(HiddenError::NotStarted);
        };
        let ply = game.history().len() as u32;
        // Played on a copy: the room changes only once the move is stored.
        let mut next = game.clone();
        next.play(m)?;
        let mv = m.to_string();
        let stored = match received_at_ms {
            Some(received_at_ms) => {
                store.insert_players_hidden_move(&self.id, ply, &mv, received_at_ms)
            }
            None => store.insert_hidden_move(&self.id, ply, &mv),
        };
        if let Err(e) = stored {
            if e.is_conflict() {
                // This ply was stored elsewhere first: read the game again and say so.
                self.catch_up_locked(store, state)?;
                return Err(HiddenError::OutOfDate);
            }
            return Err(e.into());
        }
        state.stage = Stage::Game(next);
        self.record_ending(store, state)?;
        self.changed(state);
        Ok(())
    }

    /// The player in `seat` resigns (once the game is under way).
    ///
    /// # Errors
    /// [`HiddenError`]; the room is unchanged.
    pub fn resign(&self, store: &Store, seat: Option<Side>) -> Result<(), HiddenError> {
        let seat = seat.ok_or(HiddenError::Spectator)?;
        let mut state = self.lock();
        let mut game = playable(&state)?.clone();
        game.declare(Outcome::win(!seat, Termination::Resignation));
        let before = std::mem::replace(&mut state.stage, Stage::Game(Box::new(game)));
        if let Err(e) = self.record_ending(store, &mut state) {
            if !matches!(e, HiddenError::OutOfDate) {
                state.stage = before;
            }
            return Err(e);
        }
        self.changed(&mut state);
        Ok(())
    }

    /// Writes the game's ending once it has one (and it is not written yet), as decided after the moves the
    /// room holds.
    fn record_ending(&self, store: &Store, state: &mut RoomState) -> Result<(), HiddenError> {
        let Some(game) = state.game() else {
            return Ok(());
        };
        let Some(outcome) = game.outcome() else {
            return Ok(());
        };
        if state.recorded {
            return Ok(());
        }
        let plies = game.history().len() as u32;
        if !self.store_ending(store, state, plies, Ending::of(outcome))? {
            // Another request or node wrote an ending first, or a move after this position (a resignation
            // at the moment the move came): the room was read again.
            return Err(HiddenError::OutOfDate);
        }
        state.recorded = true;
        Ok(())
    }

    /// Reads the game again from the store (another node or request changed it) and shows it.
    ///
    /// # Errors
    /// When the store cannot be read or the game no longer replays.
    pub fn reload(&self, store: &Store) -> Result<(), HiddenError> {
        let mut state = self.lock();
        Ok(self.catch_up_locked(store, &mut state)?)
    }
}

/// The game of a room under way.
fn playable(state: &RoomState) -> Result<&HiddenGame, HiddenError> {
    match state.game() {
        None => Err(HiddenError::NotStarted),
        Some(game) => match game.outcome() {
            Some(outcome) => Err(HiddenError::Over(outcome)),
            None => Ok(game),
        },
    }
}

/// The stage after `seat` handed in `arrangement`: still the setup, or the game once both are in.
fn next_stage(
    rules: &Rules,
    stage: &Stage,
    seat: Side,
    arrangement: Arrangement,
) -> Result<Stage, HiddenError> {
    let Stage::Setup(setups) = stage else {
        return Err(HiddenError::Started);
    };
    let mut setups = setups.clone();
    setups[seat] = Some(arrangement);
    Ok(match setups {
        BySide {
            blue: Some(blue),
            red: Some(red),
        } => Stage::Game(Box::new(HiddenGame::new(rules.clone(), blue, red)?)),
        setups => Stage::Setup(setups),
    })
}
