//! The rooms of one kind of game a node holds in memory: found by id, shared by every connection to the
//! game, and dropped when idle (they are read again from the store when asked for). In a cluster, the
//! broker is told each game that enters or leaves (the node hears only the events of the games it holds).

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use super::{Kind, Room};
use crate::cluster::Interest;

#[derive(Debug)]
pub struct Rooms<K: Kind> {
    map: Mutex<HashMap<String, Arc<Room<K>>>>,
    /// Told of every room that enters or leaves, once the node joined a cluster.
    interest: OnceLock<Interest>,
}

impl<K: Kind> Default for Rooms<K> {
    fn default() -> Self {
        Rooms {
            map: Mutex::new(HashMap::new()),
            interest: OnceLock::new(),
        }
    }
}

impl<K: Kind> Rooms<K> {
    fn map(&self) -> MutexGuard<'_, HashMap<String, Arc<Room<K>>>> {
        self.map.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Tells `interest` of the rooms held now and of every room that enters or leaves from now on (a
    /// second call is ignored). Entries and departures are told while the map is held, so they reach it in
    /// the order they happened.
    pub fn report_to(&self, interest: Interest) {
        let map = self.map();
        for id in map.keys() {
            interest.hold(id);
        }
        let _ = self.interest.set(interest);
    }

    fn entered(&self, id: &str) {
        if let Some(interest) = self.interest.get() {
            interest.hold(id);
        }
    }

    fn left(&self, id: &str) {
        if let Some(interest) = self.interest.get() {
            interest.release(id);
        }
    }

    /// The room of a game held here, without reading the store.
    pub fn held(&self, id: &str) -> Option<Arc<Room<K>>> {
        self.map().get(id).cloned()
    }

    /// The room of a game held here, marked as used now. It is marked while the map is held, so
    /// [`Rooms::forget_unwatched`] never drops a room it has just handed out.
    pub fn used(&self, id: &str) -> Option<Arc<Room<K>>> {
        let map = self.map();
        let room = map.get(id)?;
        room.touch();
        Some(room.clone())
    }

    /// Keeps a room just made (a new game).
    pub fn insert(&self, room: Arc<Room<K>>) {
        let mut map = self.map();
        let id = room.id.clone();
        if map.insert(id.clone(), room).is_none() {
            self.entered(&id);
        }
    }

    /// Keeps a room just read from the store, unless another load of the same game got in first: the room
    /// held afterwards, which everyone shares.
    pub fn first_in(&self, loaded: Arc<Room<K>>) -> Arc<Room<K>> {
        match self.map().entry(loaded.id.clone()) {
            Entry::Occupied(held) => held.get().clone(),
            Entry::Vacant(free) => {
                self.entered(&loaded.id);
                free.insert(loaded).clone()
            }
        }
    }

    /// Forgets a game's room whatever its state (a game found damaged): the connections watching it keep
    /// their last state and are refused on their next action.
    pub fn remove(&self, id: &str) {
        let mut map = self.map();
        if map.remove(id).is_some() {
            self.left(id);
        }
    }

    /// Every room held.
    pub fn all(&self) -> Vec<Arc<Room<K>>> {
        self.map().values().cloned().collect()
    }

    /// The rooms held whose id `matches` (the map is held only while the ids are looked at).
    pub fn with_ids(&self, matches: impl Fn(&str) -> bool) -> Vec<Arc<Room<K>>> {
        self.map()
            .iter()
            .filter(|(id, _)| matches(id))
            .map(|(_, room)| room.clone())
            .collect()
    }

    /// How many rooms are held.
    pub fn len(&self) -> usize {
        self.map().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many held rooms `matches`.
    pub fn count(&self, matches: impl Fn(&Room<K>) -> bool) -> usize {
        self.map().values().filter(|room| matches(room)).count()
    }

    /// The rooms held and their estimated bytes.
    pub fn held_bytes(&self) -> (usize, usize) {
        let map = self.map();
        (map.len(), map.values().map(|r| r.approx_bytes()).sum())
    }

    /// Forgets a room nobody uses.
    pub fn evict_if_idle(&self, room: &Room<K>) {
        let mut map = self.map();
        if room.is_idle() && map.remove(&room.id).is_some() {
            self.left(&room.id);
        }
    }

    /// Forgets `room` if nobody watches it and it was not used within `quiet`, in play or not: whether it
    /// was forgotten. For a game another node plays (that node holds it and its timers; the sweep decides
    /// a game no node holds). Checked while the map is held (see [`Rooms::used`]).
    pub fn forget_unwatched(&self, room: &Room<K>, quiet: Duration) -> bool {
        let mut map = self.map();
        let forget = room.watchers() == 0
            && room.last_used().elapsed() >= quiet
            && map
                .get(&room.id)
                .is_some_and(|held| std::ptr::eq(held.as_ref(), room));
        if forget {
            map.remove(&room.id);
            self.left(&room.id);
        }
        forget
    }

    /// Drops idle rooms: those unused for `idle_after`, then the least recently used ones while the rooms'
    /// estimated memory is over `budget` bytes (`shed`: every idle room).
    pub fn tidy(&self, idle_after: Duration, budget: usize, shed: bool) {
        let now = Instant::now();
        let mut map = self.map();
        let mut total = 0;
        let mut idle = Vec::new();
        for (id, room) in map.iter() {
            let bytes = room.approx_bytes();
            total += bytes;
            if room.is_idle() {
                idle.push((room.last_used(), id.clone(), bytes));
            }
        }
        idle.sort();
        let before = map.len();
        for (last_used, id, bytes) in idle {
            let stale = now.saturating_duration_since(last_used) >= idle_after;
            if shed || stale || total > budget {
                map.remove(&id);
                self.left(&id);
                total -= bytes;
            }
        }
        let dropped = before - map.len();
        if dropped > 0 {
            tracing::debug!(
                dropped,
                held = map.len(),
                bytes = total,
                "idle rooms left memory"
            );
        }
    }
}
