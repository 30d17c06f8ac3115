//! The hub: every open room, game creation and seat claims, reloading games after a restart, and the
//! background work a room needs (the engine's replies, clock timers).

mod hidden;

use std::net::IpAddr;
use std::sync::{Arc, OnceLock, Weak};
use std::time::{Duration, Instant};

use jungle_rules::{BySide, Game, Position, Rules, Side};
use rand::Rng;
use serde::Deserialize;

use crate::clock::Clock;
use crate::cluster::event::{Change, GameEvent};
use crate::cluster::{Cluster, ClusterConfig, ClusterError, Outbox};
use crate::connections::Connections;
use crate::engine::EnginePool;
use crate::limits::Limits;
use crate::rate::RateLimits;
use crate::room::open::{engine_turn, resume_clock_at, room_state};
use crate::room::{ActionError, Hidden, LoadError, Mode, Open, Rematch, Room, Rooms};
use crate::store::{GameRecord, MoveRecord, Store, StoreError, now_ms};
use crate::{side_from_name, side_name};

/// The longest rule option string, FEN or PGN tag value accepted from a browser.
pub const MAX_TEXT: usize = 300;

/// A request for a new game (the home page's form).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// `engine` or `friend`.
    pub opponent: String,
    /// The engine's level, 1–8 (engine games).
    #[serde(default)]
    pub level: Option<u8>,
    /// The creator's side: `blue`, `red` or `random` (the default).
    #[serde(default)]
    pub side: Option<String>,
    /// A rule option string (docs/rules.md), default the standard rules.
    #[serde(default)]
    pub rules: Option<String>,
    /// A start position, default the rules' start.
    #[serde(default)]
    pub fen: Option<String>,
    /// Minutes per side; none or 0 for an untimed game.
    #[serde(default)]
    pub minutes: Option<f64>,
    /// Seconds added per move.
    #[serde(default)]
    pub increment: Option<u32>,
}

/// Why a game could not be created or loaded.
#[derive(Debug, thiserror::Error)]
pub enum HubError {
    #[error("{0}")]
    BadRequest(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("game {id} is damaged and cannot be opened: {reason}")]
    Damaged { id: String, reason: String },
    /// A per-client limit (engine games at once).
    #[error("{0}")]
    TooMany(String),
    /// The server is at a limit of its own (the engine's queue): try again later.
    #[error("{0}")]
    Busy(String),
}

impl From<LoadError> for HubError {
    fn from(e: LoadError) -> HubError {
        match e {
            LoadError::Store(e) => HubError::Store(e),
            LoadError::Damaged { id, reason } => HubError::Damaged { id, reason },
            LoadError::Gone(id) => HubError::Damaged {
                id,
                reason: "the game is gone".into(),
            },
        }
    }
}

fn bad(message: impl Into<String>) -> HubError {
    HubError::BadRequest(message.into())
}

#[derive(Debug)]
pub struct Hub {
    pub store: Store,
    rooms: Rooms<Open>,
    pub engine: EnginePool,
    pub limits: Limits,
    pub connections: Arc<Connections>,
    pub rates: RateLimits,
    /// The origin browsers use to reach the server (`https://jungle.example`), when configured: websockets
    /// from pages of any other origin are refused.
    pub public_origin: Option<String>,
    /// The other nodes on the same database, once this one joined them (none: a single server).
    cluster: OnceLock<Arc<Cluster>>,
    /// The hub itself, for the work a room opened in a cluster starts (see [`Hub::room`]).
    me: Weak<Hub>,
    /// The Hidden Jungle games held in memory (see `hidden`).
    pub hidden: Rooms<Hidden>,
}

/// A fresh secret: 128 random bits from the thread's cryptographic generator, as hex.
pub fn new_token() -> String {
    let bits: u128 = rand::rng().random();
    format!("{bits:032x}")
}

pub(crate) fn new_game_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut rng = rand::rng();
    (0..8)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// The creator's side of a new game: `blue`, `red`, or `random` (the default), drawn now.
///
/// # Errors
/// [`HubError::BadRequest`] for any other text.
pub(crate) fn chosen_side(text: Option<&str>) -> Result<Side, HubError> {
    match text.unwrap_or("random") {
        "random" => Ok(if rand::rng().random::<bool>() {
            Side::Blue
        } else {
            Side::Red
        }),
        other => side_from_name(other)
            .ok_or_else(|| bad(format!("side \"{other}\" should be blue, red or random"))),
    }
}

/// Whether text could be a game id (so a hostile path never reaches the database).
pub fn is_game_id(text: &str) -> bool {
    (1..=16).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_alphanumeric())
}

impl Hub {
    /// A hub with the default limits and no configured public origin.
    pub fn new(store: Store, engine: EnginePool) -> Arc<Hub> {
        Hub::with_limits(store, engine, Limits::default(), None)
    }

    pub fn with_limits(
        store: Store,
        engine: EnginePool,
        limits: Limits,
        public_origin: Option<String>,
    ) -> Arc<Hub> {
        Arc::new_cyclic(|me| Hub {
            me: me.clone(),
            store,
            rooms: Rooms::default(),
            engine,
            connections: Connections::new(limits.connections, limits.connections_per_client),
            rates: RateLimits::new(&limits),
            limits,
            public_origin,
            cluster: OnceLock::new(),
            hidden: Rooms::default(),
        })
    }

    /// Joins the other nodes through the broker: from now on the rooms publish their changes and catch up
    /// with theirs. Called once, before the hub serves anyone.
    ///
    /// # Errors
    /// When the broker cannot be reached, or the hub already joined.
    pub async fn join_cluster(
        self: &Arc<Self>,
        config: &ClusterConfig,
    ) -> Result<(), ClusterError> {
        let cluster = crate::cluster::join(self, config).await?;
        self.cluster
            .set(cluster)
            .map_err(|_| ClusterError::Broker("this node already joined".into()))
    }

    /// The cluster this node belongs to, if any.
    pub fn cluster(&self) -> Option<&Arc<Cluster>> {
        self.cluster.get()
    }

    pub(crate) fn outbox(&self) -> Option<Outbox> {
        self.cluster().map(|c| c.outbox())
    }

    /// The room of a game if this node holds it (without loading it).
    pub fn held_room(&self, id: &str) -> Option<Arc<Room>> {
        self.rooms.held(id)
    }

    /// Repeats to the other nodes who is connected here to each room with a player connected (another node's
    /// word that a player is connected holds only for `presence::REMOTE_TTL`, so a node that died stops
    /// vouching for its players). Run every `SWEEP_EVERY`; nothing on a single server.
    pub fn announce_attendance(&self) {
        if self.cluster().is_none() {
            return;
        }
        for room in self.rooms.all() {
            let seated = {
                let local = room.lock().presence.local();
                local.blue + local.red > 0
            };
            if seated {
                room.publish_now(Change::Attendance);
            }
        }
    }

    /// Reads every room held here again from the database (after the broker was away: events may be lost).
    pub fn reload_rooms(self: &Arc<Self>) {
        for room in self.rooms.all() {
            match room.reload(&self.store) {
                Ok(()) => self.after_change(&room),
                Err(e) => tracing::error!(game = %room.id, error = %e, "could not reload a room"),
            }
        }
    }

    /// How many rooms are in memory, and their estimated bytes.
    pub fn rooms_held(&self) -> (usize, usize) {
        self.rooms.held_bytes()
    }

    /// Drops idle rooms from memory: those unused for longer than the idle limit, then the least recently
    /// used ones while the rooms' estimated memory is over its budget (`shed`: every idle room). Idle hidden
    /// rooms leave at once.
    pub fn tidy(&self, shed: bool) {
        let budget = usize::try_from(self.limits.rooms_memory_mib.saturating_mul(1 << 20))
            .unwrap_or(usize::MAX);
        self.rooms.tidy(self.limits.room_idle, budget, shed);
        self.hidden.tidy(self.limits.room_idle, budget, true);
    }

    /// Live engine games created from `client`.
    fn engine_games_of(&self, client: IpAddr) -> usize {
        self.rooms
            .count(|room| room.owner == Some(client) && room.is_live_engine_game())
    }

    /// Reopens every unfinished game after a start, and restarts its engine and clock. Returns how many.
    ///
    /// # Errors
    /// When the database cannot be read.
    /// A damaged game (its record no longer replays) is quarantined: logged, marked in the store and left
    /// out, so the other games start.
    pub fn resume(self: &Arc<Self>) -> Result<usize, HubError> {
        let ids = self.store.unfinished_ids()?;
        let mut count = 0;
        for id in ids {
            match self.room(&id) {
                Ok(Some(room)) => {
                    self.after_change(&room);
                    count += 1;
                }
                Ok(None) => {}
                Err(HubError::Damaged { id, reason }) => {
                    tracing::error!(game = %id, %reason, "damaged game quarantined");
                    self.store.mark_damaged(&id, &reason)?;
                }
                Err(e) => return Err(e),
            }
        }
        Ok(count)
    }

    /// Creates a game; returns its room, the creator's seat and the seat's secret token.
    ///
    /// # Errors
    /// [`HubError::BadRequest`] naming the bad field.
    /// `client` is the creator's address (engine games per client are limited).
    pub fn create(
        self: &Arc<Self>,
        req: &NewGame,
        client: Option<IpAddr>,
    ) -> Result<(Arc<Room>, Side, String), HubError> {
        let rules_text = req.rules.as_deref().unwrap_or("").trim();
        if rules_text.len() > MAX_TEXT {
            return Err(bad("rules: option string too long"));
        }
        let rules: Rules = rules_text.parse().map_err(|e| bad(format!("rules: {e}")))?;
        let start = match req.fen.as_deref().map(str::trim).filter(|f| !f.is_empty()) {
            Some(fen) if fen.len() > MAX_TEXT => return Err(bad("fen: too long")),
            Some(fen) => Position::from_fen(fen, &rules).map_err(|e| bad(format!("fen: {e}")))?,
            None => Position::start(&rules),
        };
        let side = chosen_side(req.side.as_deref())?;
        let mode = match req.opponent.as_str() {
            "engine" => {
                let level = req.level.unwrap_or(3);
                if !(1..=8).contains(&level) {
                    return Err(bad(format!("level {level} should be 1 to 8")));
                }
                Mode::Engine {
                    level,
                    side: side.opponent(),
                }
            }
            "friend" => Mode::Friend,
            other => {
                return Err(bad(format!(
                    "opponent \"{other}\" should be engine or friend"
                )));
            }
        };
        let minutes = req.minutes.unwrap_or(0.0);
        let min_minutes = self.limits.min_clock.as_secs_f64() / 60.0;
        if !(minutes == 0.0 || (min_minutes..=180.0).contains(&minutes)) {
            return Err(bad(format!(
                "minutes {minutes} should be 0 (untimed) or {min_minutes} to 180"
            )));
        }
        if matches!(mode, Mode::Engine { .. }) {
            self.check_engine_capacity(client)?;
        }
        let increment = req.increment.unwrap_or(0);
        if increment > 60 {
            return Err(bad(format!(
                "increment {increment} should be 0 to 60 seconds"
            )));
        }
        let initial_ms = (minutes > 0.0).then(|| (minutes * 60_000.0).round() as u64);
        let token = new_token();
        let mut tokens = BySide::new(None, None);
        if side == Side::Blue {
            tokens.blue = Some(token.clone());
        } else {
            tokens.red = Some(token.clone());
        }
        let (engine_level, engine_side) = match mode {
            Mode::Engine { level, side } => (Some(level), Some(side_name(side).to_string())),
            _ => (None, None),
        };
        let room = self.open(
            GameRecord {
                id: new_game_id(),
                created_at: now_ms(),
                mode: mode.name().to_string(),
                rules: rules.to_string(),
                start_fen: jungle_rules::fen::to_fen(&start),
                engine_level,
                engine_side,
                blue_token: tokens.blue.clone(),
                red_token: tokens.red.clone(),
                blue_name: None,
                red_name: None,
                clock_initial_ms: initial_ms,
                clock_increment_ms: initial_ms.map(|_| u64::from(increment) * 1000),
                result: None,
                winner: None,
                termination: None,
            },
            client,
        )?;
        Ok((room, side, token))
    }

    /// Stores a new game and opens its room.
    fn open(
        self: &Arc<Self>,
        record: GameRecord,
        client: Option<IpAddr>,
    ) -> Result<Arc<Room>, HubError> {
        self.store.insert_game(&record)?;
        self.open_stored(record, client)
    }

    /// Opens the room of a new game just stored.
    fn open_stored(
        self: &Arc<Self>,
        record: GameRecord,
        client: Option<IpAddr>,
    ) -> Result<Arc<Room>, HubError> {
        let room = Arc::new(Room::new(
            record.id.clone(),
            room_state(&record, &[], self.limits.claim_after)?,
            client,
            self.outbox(),
        ));
        self.rooms.insert(room.clone());
        self.after_change(&room);
        Ok(room)
    }

    /// A rematch of a finished game for the player in `seat`: the same rules, start and clock, with the
    /// colours swapped. The first player to ask creates it, with a seat kept for the other player (who gets
    /// it by asking too); a game has one rematch, whichever nodes the players ask on (the database keeps
    /// one rematch per game). Returns the new game's id, the player's seat in it and its token.
    ///
    /// # Errors
    /// [`HubError::BadRequest`] while the game goes on or for an imported game; engine capacity as for a new
    /// game.
    pub fn rematch(
        self: &Arc<Self>,
        room: &Room,
        seat: Side,
        client: Option<IpAddr>,
    ) -> Result<(String, Side, String), HubError> {
        // One rematch at a time per room: two players asking at once get the same game.
        let _creating = room.making_lock();
        let (finished, mode, existing) = {
            let state = room.lock();
            (state.is_finished(), state.mode, state.rematch.clone())
        };
        let new_seat = seat.opponent();
        let reserved = |rematch: &Rematch| rematch.tokens.get(new_seat).clone();
        let answer = |rematch: Rematch| {
            let token =
                reserved(&rematch).ok_or_else(|| bad("this seat has no place in the rematch"))?;
            Ok((rematch.id, new_seat, token))
        };
        if let Some(rematch) = existing {
            return answer(rematch);
        }
        if !finished || mode == Mode::Import {
            return Err(bad("a rematch is for a game played here and over"));
        }
        // Made on another node, whose event has not come here (yet).
        if let Some(made) = self.store.rematch_of(&room.id)? {
            return answer(remember_rematch(room, &made));
        }
        if matches!(mode, Mode::Engine { .. }) {
            self.check_engine_capacity(client)?;
        }
        let old = self
            .store
            .game(&room.id)?
            .ok_or_else(|| bad("the game is gone"))?;
        // Each person's seat is kept for them, on the other side.
        let tokens = BySide::new(
            old.red_token.as_ref().map(|_| new_token()),
            old.blue_token.as_ref().map(|_| new_token()),
        );
        let flipped = |side: &Option<String>| {
            side.as_deref()
                .and_then(side_from_name)
                .map(|s| side_name(s.opponent()).to_string())
        };
        let record = GameRecord {
            id: new_game_id(),
            created_at: now_ms(),
            engine_side: flipped(&old.engine_side),
            blue_token: tokens.blue.clone(),
            red_token: tokens.red.clone(),
            blue_name: old.red_name.clone(),
            red_name: old.blue_name.clone(),
            result: None,
            winner: None,
            termination: None,
            ..old
        };
        let of = room.id.clone();
        let new = match self.store.insert_rematch(&record, &of)? {
            None => self.open_stored(record, client)?,
            // Another node stored one first, a moment ago.
            Some(made) => return answer(remember_rematch(room, &made)),
        };
        // A correspondence game's rematch is one too, with the same days per move.
        let days = room.lock().correspondence.map(|c| c.days_per_move);
        if let Some(days) = days {
            self.make_correspondence(&new, days)?;
        }
        let rematch = Rematch {
            id: new.id.clone(),
            tokens,
        };
        {
            let mut state = room.lock();
            state.rematch = Some(rematch.clone());
            state.generation += 1;
        }
        // Tell the other player.
        room.notify();
        room.publish_rematch();
        answer(rematch)
    }

    /// Refuses a new engine game when `client` has as many as allowed, or the engine's line is full.
    fn check_engine_capacity(&self, client: Option<IpAddr>) -> Result<(), HubError> {
        if let Some(client) = client {
            let limit = self.limits.engine_games_per_client;
            if self.engine_games_of(client) >= limit {
                return Err(HubError::TooMany(format!(
                    "you have {limit} unfinished games against the engine: finish or resign one first"
                )));
            }
        }
        self.engine_has_room()
    }

    /// Refuses new engine work (a game, an analysis) while the engine's line is full.
    pub fn engine_has_room(&self) -> Result<(), HubError> {
        if self.engine.waiting() >= self.limits.engine_queue {
            return Err(HubError::Busy(
                "the engine is busy: try again in a minute".to_string(),
            ));
        }
        Ok(())
    }

    /// Stores a finished game from elsewhere (PGN import) and returns its id.
    ///
    /// # Errors
    /// When the database write fails.
    pub fn import(&self, game: &Game, names: BySide<Option<String>>) -> Result<String, HubError> {
        let outcome = game.outcome();
        let record = GameRecord {
            id: new_game_id(),
            created_at: now_ms(),
            mode: "import".to_string(),
            rules: game.rules().to_string(),
            start_fen: jungle_rules::fen::to_fen(game.start_position()),
            engine_level: None,
            engine_side: None,
            blue_token: None,
            red_token: None,
            blue_name: names.blue,
            red_name: names.red,
            clock_initial_ms: None,
            clock_increment_ms: None,
            result: None,
            winner: None,
            termination: None,
        };
        self.store.insert_game(&record)?;
        let moves: Vec<MoveRecord> = game
            .moves()
            .iter()
            .enumerate()
            .map(|(ply, m)| MoveRecord {
                ply: ply as u32,
                mv: m.to_string(),
                blue_ms: None,
                red_ms: None,
            })
            .collect();
        self.store.insert_moves(&record.id, &moves)?;
        let (result, winner, termination) = match outcome {
            Some(o) => (
                o.result_str(),
                o.winner.map(side_name),
                o.termination.as_str(),
            ),
            None => ("*", None, "unterminated"),
        };
        self.store
            .finish(&record.id, moves.len() as u32, result, winner, termination)?;
        Ok(record.id)
    }

    /// The room of a game, loading it from the store if needed; `None` if there is no such game.
    ///
    /// # Errors
    /// When the database cannot be read or the stored game does not replay.
    pub fn room(&self, id: &str) -> Result<Option<Arc<Room>>, HubError> {
        if !is_game_id(id) {
            return Ok(None);
        }
        if let Some(room) = self.rooms.held(id) {
            room.touch();
            return Ok(Some(room));
        }
        let Some(record) = self.store.game(id)? else {
            return Ok(None);
        };
        let moves = self.store.moves(id)?;
        let mut state = room_state(&record, &moves, self.limits.claim_after)?;
        state.correspondence = self.store.correspondence(id)?;
        if self.cluster().is_some() {
            // The game went on elsewhere: its clock has been running since its last move.
            resume_clock_at(&mut state, self.store.last_move_at(id)?);
        }
        if record.result.is_some() {
            // Its rematch, if a player asked for one (on any node, before this room was opened).
            state.rematch = self
                .store
                .rematch_of(id)?
                .map(|made| rematch_of_record(&made));
        }
        // A game whose last move ended it but whose ending was not written yet (the process died between
        // the two writes): write it now, so it leaves the live list.
        if let (Some(outcome), None) = (state.game.outcome(), &record.result) {
            self.store.finish(
                id,
                moves.len() as u32,
                outcome.result_str(),
                outcome.winner.map(side_name),
                outcome.termination.as_str(),
            )?;
            state.recorded_outcome = Some(outcome);
        }
        let loaded = Arc::new(Room::new(id.to_string(), state, None, self.outbox()));
        // Two loads may race: the first one in wins, so everyone shares one room.
        let room = self.rooms.first_in(loaded.clone());
        if Arc::ptr_eq(&room, &loaded)
            && self.cluster().is_some()
            && let Some(hub) = self.me.upgrade()
        {
            // Another node's change stored while this one was reading found no room here to catch up: catch
            // up now. Then the room's clock timers and engine start here too (a game opened on this node
            // after its node died goes on).
            room.refresh(&self.store)?;
            hub.after_change(&room);
        }
        // Only finished games can leave memory, so only their loads need a tidy-up (not a restart's).
        if room.is_idle() {
            self.tidy(false);
        }
        Ok(Some(room))
    }

    /// Forgets a finished room nobody is watching (it is reloaded from the store if asked for again), so
    /// memory holds only what is in play. (A takeback needs a connection, so an idle room has no game in play.)
    pub fn evict_if_idle(&self, room: &Room) {
        self.rooms.evict_if_idle(room);
    }

    /// Gives a visitor who asked for it the free seat of a friend game, if there is one: `(seat, token)`.
    ///
    /// # Errors
    /// When the database write fails (the seat stays free).
    pub fn claim_seat(&self, room: &Room) -> Result<Option<(Side, String)>, HubError> {
        let mut state = room.lock();
        if state.mode != Mode::Friend || state.is_finished() {
            return Ok(None);
        }
        let Some(side) = Side::ALL
            .into_iter()
            .find(|&s| state.tokens.get(s).is_none())
        else {
            return Ok(None);
        };
        let token = new_token();
        if !self.store.take_seat(&room.id, side_name(side), &token)? {
            // Someone took it on another node first.
            drop(state);
            room.reload(&self.store)?;
            return Ok(None);
        }
        if side == Side::Blue {
            state.tokens.blue = Some(token.clone());
        } else {
            state.tokens.red = Some(token.clone());
        }
        // The wait for the first moves starts now.
        state.waiting_since = Instant::now();
        state.generation += 1;
        drop(state);
        // Tell the creator that the friend arrived.
        room.notify();
        room.publish_now(Change::Stored);
        Ok(Some((side, token)))
    }

    /// Starts what a room needs after any change: the engine's reply when it is the engine's turn, a timer
    /// for the running clock, and one that aborts a game that does not begin.
    pub fn after_change(self: &Arc<Self>, room: &Arc<Room>) {
        let (join_wait, first_move_wait) = (self.limits.join_wait, self.limits.first_move_wait);
        let (engine, deadline, abort_at, generation) = {
            let mut state = room.lock();
            let engine = engine_turn(&state).map(|(generation, level)| {
                state.thinking = true;
                (generation, level, state.game.clone(), state.clock.clone())
            });
            let deadline = if state.is_finished() {
                None
            } else {
                state.clock.as_ref().and_then(Clock::deadline)
            };
            let abort_at = state.abort_deadline(join_wait, first_move_wait);
            (engine, deadline, abort_at, state.generation)
        };
        if let Some(abort_at) = abort_at {
            let hub = self.clone();
            let room = room.clone();
            tokio::spawn(async move {
                tokio::time::sleep_until((abort_at + Duration::from_millis(5)).into()).await;
                match room.abort_if_not_begun(&hub.store, generation, join_wait, first_move_wait) {
                    // Out of date: another node ended the game first (the room was read again).
                    Ok(()) | Err(ActionError::OutOfDate) => {}
                    Err(e) => {
                        tracing::error!(game = %room.id, error = %e, "an abort was not saved")
                    }
                }
            });
        }
        if let Some((generation, level, game, clock)) = engine {
            room.notify();
            tokio::spawn(self.clone().reply_as_engine(
                room.clone(),
                generation,
                level,
                game,
                clock,
            ));
        }
        if let Some(deadline) = deadline {
            let hub = self.clone();
            let room = room.clone();
            tokio::spawn(async move {
                // A little after the deadline, so the clock has surely run out when checked.
                tokio::time::sleep_until((deadline + Duration::from_millis(5)).into()).await;
                let still_there = room.lock().generation == generation;
                if still_there {
                    match room.check_flag(&hub.store) {
                        Ok(()) => hub.after_change(&room),
                        Err(e) => {
                            tracing::error!(game = %room.id, error = %e, "a flag fall was not saved");
                        }
                    }
                }
            });
        }
    }
}

/// A node of a cluster: the other nodes' changes reach the rooms held here.
impl crate::cluster::Member for Hub {
    /// Another node changed a game: the room here, if this node holds one, catches up.
    fn apply_event(self: &Arc<Self>, event: &GameEvent) {
        let Some(room) = self.held_room(&event.game) else {
            // Not an open game held here: maybe a hidden one (it reads itself again from the database).
            self.apply_hidden_event(&event.game);
            return;
        };
        match room.catch_up(&self.store, event) {
            Ok(true) => self.after_change(&room),
            Ok(false) => {}
            Err(e) => {
                tracing::error!(game = %room.id, error = %e, "could not catch up with another node")
            }
        }
    }

    fn reload_all(self: &Arc<Self>) {
        self.reload_rooms();
    }
}

/// The rematch a stored game is: its id and the seats kept for the players.
fn rematch_of_record(made: &GameRecord) -> Rematch {
    Rematch {
        id: made.id.clone(),
        tokens: BySide::new(made.blue_token.clone(), made.red_token.clone()),
    }
}

/// Keeps in `room` the rematch `made` (stored by another node) and shows it to the room's connections.
fn remember_rematch(room: &Room, made: &GameRecord) -> Rematch {
    let rematch = rematch_of_record(made);
    {
        let mut state = room.lock();
        state.rematch = Some(rematch.clone());
        state.generation += 1;
    }
    room.notify();
    rematch
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logging::{CapturedLog, LogFormat, subscriber};

    /// A hub on a database file, and a second connection to the file for breaking it underneath.
    fn hub_on_file(name: &str) -> (Arc<Hub>, rusqlite::Connection, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("jungle-hub-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.db");
        let hub = Hub::new(Store::open(&path).unwrap(), EnginePool::new(1));
        let side_door = rusqlite::Connection::open(&path).unwrap();
        (hub, side_door, dir)
    }

    /// Every write of a move fails from now on, as on a full disk.
    fn refuse_moves(conn: &rusqlite::Connection) {
        conn.execute_batch(
            "CREATE TRIGGER full_disk BEFORE INSERT ON moves BEGIN SELECT RAISE(ABORT, 'disk full'); END;",
        )
        .unwrap();
    }

    async fn wait_for(log: &CapturedLog, text: &str) {
        for _ in 0..6000 {
            if log.text().contains(text) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("never logged \"{text}\": {}", log.text());
    }

    #[tokio::test]
    async fn an_engine_move_that_cannot_be_saved_is_logged() {
        let log = CapturedLog::default();
        let _guard =
            tracing::subscriber::set_default(subscriber(LogFormat::Json, log.clone(), false));
        let (hub, side_door, dir) = hub_on_file("engine-store");
        let request = NewGame {
            opponent: "engine".into(),
            level: Some(1),
            side: Some("red".into()),
            ..NewGame::default()
        };
        // The engine (Blue) moves first; its move cannot be written.
        let (room, _, _) = hub.create(&request, None).unwrap();
        refuse_moves(&side_door);
        wait_for(&log, "the engine's move was not played").await;
        assert!(log.text().contains(&room.id) && log.text().contains("disk full"));
        assert!(room.lock().game.moves().is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
