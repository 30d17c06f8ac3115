//! The hub: every open room, game creation and seat claims, reloading games after a restart, and the
//! background work a room needs (the engine's replies, clock timers).

mod attendance;
mod create;
mod hidden;

use create::rematch_of_record;

use std::net::IpAddr;
use std::sync::{Arc, OnceLock, Weak};
use std::time::{Duration, Instant};

use jungle_rules::Side;
use rand::Rng;
use serde::Deserialize;

use crate::clock::Clock;
use crate::cluster::event::{Change, GameEvent};
use crate::cluster::{Cluster, ClusterConfig, ClusterError, Outbox, PeerNews};
use crate::connections::Connections;
use crate::engine::EnginePool;
use crate::limits::Limits;
use crate::rate::RateLimits;
use crate::room::open::{Loaded, engine_turn, load, resume_clock_at};
use crate::room::{ActionError, Hidden, LoadError, Mode, Open, Room, Rooms};
use crate::store::{Store, StoreError};
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
    /// Where the rooms publish their changes: the cluster's outbox once joined.
    outbox: OnceLock<Outbox>,
    /// The hub itself, for the work a room opened in a cluster starts (see [`Hub::room`]).
    me: Weak<Hub>,
    /// The Hidden Jungle games held in memory (see `hidden`).
    pub hidden: Rooms<Hidden>,
    /// What is told of an open game's end (a tournament pairing its next round): set once by whoever puts
    /// the server together, so the hub knows nothing of what listens.
    game_ended: OnceLock<GameEnded>,
}

/// A listener for the end of an open game: the hub and the game's id.
pub type GameEnded = fn(&Arc<Hub>, &str);

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
            outbox: OnceLock::new(),
            hidden: Rooms::default(),
            game_ended: OnceLock::new(),
        })
    }

    /// Has `listener` told of every open game's end seen by this node from now on (more than once for a
    /// game is possible: a listener must not mind). Set once; a second call changes nothing.
    pub fn on_game_end(&self, listener: GameEnded) {
        let _ = self.game_ended.set(listener);
    }

    /// Tells the listener, if any, that the game `id` ended.
    fn game_ended(self: &Arc<Self>, id: &str) {
        if let Some(listener) = self.game_ended.get() {
            listener(self, id);
        }
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
        let outbox = cluster.outbox();
        self.rooms.report_to(cluster.interest());
        self.hidden.report_to(cluster.interest());
        self.cluster
            .set(cluster)
            .map_err(|_| ClusterError::Broker("this node already joined".into()))?;
        self.publish_to(outbox);
        Ok(())
    }

    /// Has the rooms opened from now on publish their changes to `outbox` (a cluster's; a test's own).
    pub(crate) fn publish_to(&self, outbox: Outbox) {
        let _ = self.outbox.set(outbox);
    }

    /// The cluster this node belongs to, if any.
    pub fn cluster(&self) -> Option<&Arc<Cluster>> {
        self.cluster.get()
    }

    pub(crate) fn outbox(&self) -> Option<Outbox> {
        self.outbox.get().cloned()
    }

    /// The room of a game if this node holds it (without loading it).
    pub fn held_room(&self, id: &str) -> Option<Arc<Room>> {
        self.rooms.held(id)
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
    /// A damaged game (a row that does not read, values no game could have, a record that no longer
    /// replays) is quarantined ([`Hub::quarantine`]), so the other games start.
    ///
    /// # Errors
    /// When the database cannot be read.
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
                Err(HubError::Damaged { id, reason }) => self.quarantine(&id, &reason),
                Err(e) => return Err(e),
            }
        }
        Ok(count)
    }

    /// Quarantines a damaged game: logs it with why, marks it in the store (it leaves the live lists, is
    /// not reopened at start, and is answered as damaged: `409`), and drops its room if one is held. The game
    /// is kept as it is, for whoever repairs it. A mark that cannot be written is logged; the game is still
    /// answered as damaged while its row stays unreadable.
    pub fn quarantine(&self, id: &str, reason: &str) {
        tracing::error!(game = %id, %reason, "damaged game quarantined");
        if let Err(e) = self.store.mark_damaged(id, reason) {
            tracing::error!(game = %id, error = %e, "the quarantine of a damaged game was not stored");
        }
        self.rooms.remove(id);
    }

    /// The room of a game, loading it from the store if needed; `None` if there is no such game.
    ///
    /// # Errors
    /// When the database cannot be read or the stored game does not replay.
    pub fn room(&self, id: &str) -> Result<Option<Arc<Room>>, HubError> {
        if !is_game_id(id) {
            return Ok(None);
        }
        if let Some(room) = self.rooms.used(id) {
            return Ok(Some(room));
        }
        let Some(Loaded {
            record,
            moves,
            mut state,
        }) = load(&self.store, id, self.limits.claim_after)?
        else {
            return Ok(None);
        };
        if self.cluster().is_some() {
            // The game went on elsewhere: its clock has been running since its last move.
            let last_move_at = self.store.last_move_at(id);
            resume_clock_at(
                &mut state,
                last_move_at.map_err(|e| LoadError::from((id, e)))?,
            );
        }
        if record.result.is_some() {
            // Its rematch, if a player asked for one (on any node, before this room was opened). A rematch
            // whose own row is damaged is that game's damage, not this one's: this game opens without it.
            state.rematch = match self.store.rematch_of(id) {
                Ok(made) => made.map(|made| rematch_of_record(&made)),
                Err(e) if e.is_unreadable() => {
                    tracing::warn!(game = %id, error = %e, "the rematch of a game does not read");
                    None
                }
                Err(e) => return Err(e.into()),
            };
        }
        // A game whose last move ended it but whose ending was not written yet (the process died between
        // the two writes): write it now, so it leaves the live list. (A rated game's players' ratings are read
        // to settle it: a damaged rating row makes this game one that cannot be ended, so it is damaged too.)
        if let (Some(outcome), None) = (state.game.outcome(), &record.result) {
            self.store
                .finish(
                    id,
                    moves.len() as u32,
                    outcome.result_str(),
                    outcome.winner.map(side_name),
                    outcome.termination.as_str(),
                )
                .map_err(|e| LoadError::from((id, e)))?;
            state.recorded_outcome = Some(outcome);
        }
        let loaded = Arc::new(Room::new(id.to_string(), state, None, self.outbox()));
        // Two loads may race: the first one in wins, so everyone shares one room.
        let room = self.rooms.first_in(loaded.clone());
        if Arc::ptr_eq(&room, &loaded)
            && self.cluster().is_some()
            && let Some(hub) = self.me.upgrade()
        {
            // The room's clock timers and engine start here too (a game opened on this node after its node
            // died goes on). A change another node stored while this one was reading is read once the
            // broker has this node's subscription to the game (`Member::listening`).
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
        let (engine, deadline, abort_at, generation, finished) = {
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
            (
                engine,
                deadline,
                abort_at,
                state.generation,
                state.is_finished(),
            )
        };
        if finished {
            self.game_ended(&room.id);
        }
        if let Some(abort_at) = abort_at {
            let hub = self.clone();
            let room = room.clone();
            tokio::spawn(async move {
                tokio::time::sleep_until((abort_at + Duration::from_millis(5)).into()).await;
                match room.abort_if_not_begun(&hub.store, generation, join_wait, first_move_wait) {
                    Ok(()) => {
                        if room.lock().is_finished() {
                            hub.game_ended(&room.id);
                        }
                    }
                    // Out of date: another node ended the game first (the room was read again).
                    Err(ActionError::OutOfDate) => {}
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
        // Nobody here watches the game (this node made it, say, and its players play elsewhere): rather than
        // follow it, and run its timers and engine a second time, the room leaves memory and the broker stops
        // sending its events here. Not while the engine thinks here: its reply needs the room. (A watched
        // room, the common case, is passed over before its lock or the map's is taken.)
        if room.watchers() == 0
            && !room.lock().thinking
            && self
                .rooms
                .forget_unwatched(&room, self.limits.room_unwatched)
        {
            return;
        }
        match room.catch_up(&self.store, event) {
            Ok(true) => self.after_change(&room),
            Ok(false) => {}
            Err(e) => {
                tracing::error!(game = %room.id, error = %e, "could not catch up with another node")
            }
        }
    }

    /// The broker now delivers the game's events here: a change stored before (while the room was being
    /// read, or before a new game's subscription took) is caught up with now, and the other nodes are asked
    /// who is connected at theirs.
    fn listening(self: &Arc<Self>, game: &str) {
        let Some(room) = self.held_room(game) else {
            self.apply_hidden_event(game);
            return;
        };
        match room.refresh(&self.store) {
            Ok(true) => self.after_change(&room),
            Ok(false) => {}
            Err(e) => tracing::error!(game = %room.id, error = %e, "could not read a room again"),
        }
        room.join_others();
    }

    /// Reads every room held here again from the database and asks the other nodes again who is connected
    /// there (after the broker was away: events, theirs among them, may be lost).
    fn reload_all(self: &Arc<Self>) {
        for room in self.rooms.all() {
            match room.reload(&self.store) {
                Ok(()) => self.after_change(&room),
                Err(e) => tracing::error!(game = %room.id, error = %e, "could not reload a room"),
            }
            room.join_others();
        }
    }

    fn peer_news(self: &Arc<Self>, news: &PeerNews) {
        self.hear_of_peer(news);
    }
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
