//! A game's room, whatever the game: the machinery every kind of game shares — its seats' tokens, the state
//! behind one lock, the connections watching it and the messages they are sent after each change (made once
//! per change, for all of them), the node's word to the other nodes of a cluster, and its place in memory.
//! What is particular to a game (its rules, its actions, what each audience may see) is its [`Kind`]: the
//! open game ([`open`]) or Hidden Jungle ([`hidden`]).

pub mod hidden;
pub mod open;
mod rooms;
pub mod stored;

use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use jungle_rules::{BySide, Outcome, Side};
use tokio::sync::broadcast;

use crate::cluster::Outbox;
use crate::cluster::event::{Change, Headcount};
use crate::store::{Store, StoreError};

pub use hidden::{Hidden, HiddenRoom};
pub use open::{ABORTED, ActionError, Mode, OPENING_PLIES, Open, Rematch, RoomState};
pub use rooms::Rooms;

/// Why a stored game could not be read into a room.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("game {id} is damaged and cannot be opened: {reason}")]
    Damaged { id: String, reason: String },
    #[error("game {0} is gone")]
    Gone(String),
}

/// A kind of game a room can hold.
pub trait Kind: Sized + Send + Sync + std::fmt::Debug + 'static {
    /// Everything the room holds behind its lock.
    type State: Send + std::fmt::Debug;

    /// The messages each audience is sent about `state` now.
    fn frames(id: &str, state: &Self::State) -> Frames;

    /// Whether the state needs nothing of the room while nobody watches: its game cannot change until
    /// someone asks again (over, or never played here) and no engine works on it.
    fn at_rest(state: &Self::State) -> bool;

    /// The token that holds each seat, if taken.
    fn tokens(state: &Self::State) -> &BySide<Option<String>>;

    /// This node's connections to the room, as the other nodes are told.
    fn attendance(state: &Self::State) -> Headcount;

    /// An estimate of the memory the state holds beyond the room itself.
    fn approx_bytes(state: &Self::State) -> usize;

    /// Reads the state of game `id` again from the store (another node or request changed it first),
    /// keeping what only memory holds.
    ///
    /// # Errors
    /// When the store cannot be read or the game no longer replays.
    fn reread(store: &Store, id: &str, state: &mut Self::State) -> Result<(), LoadError>;

    /// The store's method that writes this kind's endings (see [`EndingWriter`]).
    const STORE_ENDING: EndingWriter;
}

/// A store method that writes game `id`'s ending (result, winner, termination) as decided after its first
/// `plies` moves: whether this call decided it (of several nodes or requests at once exactly one does; none
/// once a move after `plies` is stored).
pub type EndingWriter = fn(&Store, &str, u32, &str, Option<&str>, &str) -> Result<bool, StoreError>;

/// A game's ending as stored: its result (`1-0`, `0-1`, `1/2-1/2`, `*`), the winner's side and the
/// termination.
#[derive(Clone, Copy, Debug)]
pub struct Ending<'a> {
    pub result: &'a str,
    pub winner: Option<&'a str>,
    pub termination: &'a str,
}

impl Ending<'static> {
    /// The ending an outcome of the rules is stored as.
    pub fn of(outcome: Outcome) -> Ending<'static> {
        Ending {
            result: outcome.result_str(),
            winner: outcome.winner.map(crate::side_name),
            termination: outcome.termination.as_str(),
        }
    }
}

/// The messages of one moment: one for everyone, or one per audience (each seat and the spectators) when
/// they may not all know the same.
#[derive(Debug)]
pub enum Frames {
    Everyone(Arc<str>),
    PerSeat {
        blue: Arc<str>,
        red: Arc<str>,
        spectators: Arc<str>,
    },
}

impl Frames {
    /// The message of `seat`'s audience (`None`: the spectators').
    pub fn of(&self, seat: Option<Side>) -> Arc<str> {
        match self {
            Frames::Everyone(text) => text.clone(),
            Frames::PerSeat { blue, red, .. } if seat == Some(Side::Blue) => blue.clone(),
            Frames::PerSeat { red, .. } if seat == Some(Side::Red) => red.clone(),
            Frames::PerSeat { spectators, .. } => spectators.clone(),
        }
    }
}

/// The memory a room holds beyond its state: the channel, the map entry, the locks.
const ROOM_BASE_BYTES: usize = 4096;

/// Messages a slow connection may fall behind by; past that it is sent the newest state instead.
const BACKLOG: usize = 16;

/// One game in memory (the open game unless said otherwise: `Room` is `Room<Open>`).
#[derive(Debug)]
pub struct Room<K: Kind = Open> {
    pub id: String,
    state: Mutex<K::State>,
    updates: broadcast::Sender<Arc<Frames>>,
    /// When the room was last asked for (the least recently used idle rooms leave memory first).
    last_used: Mutex<Instant>,
    /// The address that created the game (engine games per client are limited); unknown after a reload.
    pub owner: Option<IpAddr>,
    /// Where the room's changes are published to the other nodes (a cluster); `None` on a single server.
    outbox: Option<Outbox>,
    /// Held while something is made for the room outside its state's lock (a rematch), so that two
    /// requests at once make it once. Taken before the state's lock, never while holding it.
    making: Mutex<()>,
}

impl<K: Kind> Room<K> {
    pub fn new(id: String, state: K::State, owner: Option<IpAddr>, outbox: Option<Outbox>) -> Self {
        let (updates, _) = broadcast::channel(BACKLOG);
        Room {
            id,
            state: Mutex::new(state),
            updates,
            last_used: Mutex::new(Instant::now()),
            owner,
            outbox,
            making: Mutex::new(()),
        }
    }

    pub fn lock(&self) -> MutexGuard<'_, K::State> {
        // Every change to the state is made after the fallible steps, so a poisoned lock still holds a
        // consistent room.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// See [`Room::making`](Room#structfield.making).
    pub fn making_lock(&self) -> MutexGuard<'_, ()> {
        self.making.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Marks the room as used now.
    pub fn touch(&self) {
        *self.last_used.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }

    pub fn last_used(&self) -> Instant {
        *self.last_used.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// An estimate of the memory the room holds.
    pub fn approx_bytes(&self) -> usize {
        ROOM_BASE_BYTES + K::approx_bytes(&self.lock())
    }

    /// How many connections watch the room.
    pub fn watchers(&self) -> usize {
        self.updates.receiver_count()
    }

    /// Whether the room may leave memory (it is read again from the store when asked for): its state is at
    /// rest and nobody watches.
    pub fn is_idle(&self) -> bool {
        K::at_rest(&self.lock()) && self.watchers() == 0
    }

    /// The seat a token holds in this room, if any.
    pub fn seat_of(&self, token: Option<&str>) -> Option<Side> {
        let token = token?;
        let state = self.lock();
        Side::ALL
            .into_iter()
            .find(|&side| K::tokens(&state)[side].as_deref() == Some(token))
    }

    /// The messages of the room as it is now.
    pub fn frames(&self) -> Arc<Frames> {
        Arc::new(K::frames(&self.id, &self.lock()))
    }

    /// The room's messages for `seat`'s audience from now on, for one connection.
    pub fn updates_for(&self, seat: Option<Side>) -> Updates<'_, K> {
        Updates {
            room: self,
            receiver: self.updates.subscribe(),
            seat,
        }
    }

    /// Sends every connection its state (called with the lock held, so the messages keep the changes'
    /// order).
    pub(crate) fn show(&self, state: &K::State) {
        let _ = self.updates.send(Arc::new(K::frames(&self.id, state)));
    }

    /// Sends every connection its state after a change made outside the room's own actions.
    pub fn notify(&self) {
        let state = self.lock();
        self.show(&state);
    }

    /// Sends every connection one message beside the states (news such as a declined draw).
    pub(crate) fn tell_everyone(&self, text: String) {
        let _ = self.updates.send(Arc::new(Frames::Everyone(text.into())));
    }

    /// Tells the other nodes of a change (called with the lock held, so events leave in the order of the
    /// changes). Nothing without a cluster.
    pub(crate) fn publish(&self, state: &K::State, change: Change) {
        let Some(outbox) = &self.outbox else {
            return;
        };
        outbox.send(outbox.event(&self.id, change, K::attendance(state)));
    }

    /// Reads the room again from the store and shows it: another node or request changed it first.
    ///
    /// # Errors
    /// When the store cannot be read (the room is unchanged) or the game no longer replays.
    pub(crate) fn catch_up_locked(
        &self,
        store: &Store,
        state: &mut K::State,
    ) -> Result<(), LoadError> {
        K::reread(store, &self.id, state).map_err(|e| e.unreadable_as_damage(&self.id))?;
        self.show(state);
        Ok(())
    }

    /// Stores the game's ending after `plies` moves; `false` when another node or request decided it first
    /// (or stored a move after `plies`): the room was then read again from the store and shown.
    ///
    /// # Errors
    /// When the store cannot be read or written.
    pub(crate) fn store_ending(
        &self,
        store: &Store,
        state: &mut K::State,
        plies: u32,
        ending: Ending,
    ) -> Result<bool, LoadError> {
        let Ending {
            result,
            winner,
            termination,
        } = ending;
        if (K::STORE_ENDING)(store, &self.id, plies, result, winner, termination)? {
            return Ok(true);
        }
        self.catch_up_locked(store, state)?;
        Ok(false)
    }

    /// Tells the other nodes of a change made outside the room's own actions (a seat taken, a rematch).
    pub fn publish_now(&self, change: Change) {
        let state = self.lock();
        self.publish(&state, change);
    }
}

/// A room's messages for one connection's audience, in order.
#[derive(Debug)]
pub struct Updates<'a, K: Kind> {
    room: &'a Room<K>,
    receiver: broadcast::Receiver<Arc<Frames>>,
    seat: Option<Side>,
}

impl<K: Kind> Updates<'_, K> {
    /// The next message, once there is one; `None` once the room is gone. Cancel-safe: a call dropped before
    /// it answers loses no message.
    pub async fn next(&mut self) -> Option<Arc<str>> {
        match self.receiver.recv().await {
            Ok(frames) => Some(frames.of(self.seat)),
            // A slow connection missed some: the newest state says everything.
            Err(broadcast::error::RecvError::Lagged(_)) => Some(self.room.frames().of(self.seat)),
            Err(broadcast::error::RecvError::Closed) => None,
        }
    }
}
