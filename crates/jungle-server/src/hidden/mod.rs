//! Hidden Jungle on the web (docs/hidden.md, "Web"): games against the AI and between friends, each seat sent
//! only its own view, spectators the public view until the end.
//!
//! - [`wire`]: the messages both ways and the state each audience is sent, built from a view.
//! - [`room`]: one game's room — the true game, which never leaves it, and its three audiences' states.
//! - `engine`: the AI's turns, on the engine pool's threads.
//! - [`http`], [`ws`]: the routes and the websocket loop.
//!
//! Games are stored (`store::hidden`) as they are played and read again when asked for, so they survive a
//! restart; a room leaves memory when nobody is connected to it.

mod engine;
pub mod http;
pub mod room;
pub mod wire;
pub mod ws;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};

use jungle_hidden::ai::HiddenAi;
use jungle_rules::{Rules, Side};

use crate::hub::{Hub, HubError, MAX_TEXT, chosen_side, is_game_id, new_game_id, new_token};
use crate::side_name;
use crate::store::{HiddenRecord, now_ms};
use room::{HiddenMode, HiddenRoom, RoomState};
use wire::NewHiddenGame;

/// The hidden games held in memory.
#[derive(Debug, Default)]
pub struct HiddenRooms {
    rooms: Mutex<HashMap<String, Arc<HiddenRoom>>>,
}

impl HiddenRooms {
    fn rooms(&self) -> MutexGuard<'_, HashMap<String, Arc<HiddenRoom>>> {
        self.rooms.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The room of a game held here, without reading the store.
    pub fn held(&self, id: &str) -> Option<Arc<HiddenRoom>> {
        self.rooms().get(id).cloned()
    }

    /// How many rooms are held.
    pub fn len(&self) -> usize {
        self.rooms().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Drops the rooms nobody uses (they are read again from the store when asked for).
    pub fn tidy(&self) {
        self.rooms().retain(|_, room| !room.is_idle());
    }

    /// Drops a room if nobody uses it.
    pub fn evict_if_idle(&self, room: &HiddenRoom) {
        let mut rooms = self.rooms();
        if room.is_idle() {
            rooms.remove(&room.id);
        }
    }

    /// Unfinished engine games created from `client` and held here.
    fn engine_games_of(&self, client: IpAddr) -> usize {
        self.rooms()
            .values()
            .filter(|room| room.owner == Some(client))
            .filter(|room| {
                let state = room.lock();
                matches!(state.mode, HiddenMode::Engine { .. }) && !state.is_over()
            })
            .count()
    }
}

impl Hub {
    /// A hidden game's room: held here, or read from the store (and its AI started if it is the AI's move);
    /// `None` when there is no such game.
    ///
    /// # Errors
    /// When the store cannot be read, or the game no longer replays ([`HubError::Damaged`]).
    pub fn hidden_room(self: &Arc<Self>, id: &str) -> Result<Option<Arc<HiddenRoom>>, HubError> {
        if !is_game_id(id) {
            return Ok(None);
        }
        if let Some(room) = self.hidden.held(id) {
            return Ok(Some(room));
        }
        let Some(record) = self.store.hidden_game(id)? else {
            return Ok(None);
        };
        let moves = self.store.hidden_moves(id)?;
        let state = RoomState::from_record(&record, &moves)?;
        let loaded = Arc::new(HiddenRoom::new(id.to_string(), state, None, self.outbox()));
        // Two loads may race: the first one in wins, so everyone shares one room.
        let room = self
            .hidden
            .rooms()
            .entry(id.to_string())
            .or_insert(loaded)
            .clone();
        self.after_hidden_change(&room);
        Ok(Some(room))
    }

    /// Creates a hidden game; returns its room, the creator's seat and the seat's token. Against the AI, the
    /// AI's setup is chosen and stored now.
    ///
    /// # Errors
    /// [`HubError::BadRequest`] naming the bad field; [`HubError::TooMany`] / [`HubError::Busy`] as for open
    /// engine games; a failed database write.
    pub fn create_hidden(
        self: &Arc<Self>,
        req: &NewHiddenGame,
        client: Option<IpAddr>,
    ) -> Result<(Arc<HiddenRoom>, Side, String), HubError> {
        let bad = |message: String| HubError::BadRequest(message);
        let rules_text = req.rules.as_deref().unwrap_or("").trim();
        if rules_text.len() > MAX_TEXT {
            return Err(bad("rules: option string too long".into()));
        }
        let rules: Rules = rules_text.parse().map_err(|e| bad(format!("rules: {e}")))?;
        let side = chosen_side(req.side.as_deref())?;
        let mode = match req.mode.as_str() {
            "engine" => {
                let level = req.level.unwrap_or(3);
                if !(1..=8).contains(&level) {
                    return Err(bad(format!("level {level} should be 1 to 8")));
                }
                HiddenMode::Engine { level, side: !side }
            }
            "friend" if req.level.is_some() => {
                return Err(bad("level: only games against the engine have one".into()));
            }
            "friend" => HiddenMode::Friend,
            other => return Err(bad(format!("mode \"{other}\" should be engine or friend"))),
        };
        if let HiddenMode::Engine { .. } = mode {
            if let Some(client) = client {
                let limit = self.limits.engine_games_per_client;
                if self.hidden.engine_games_of(client) >= limit {
                    return Err(HubError::TooMany(format!(
                        "you have {limit} unfinished hidden games against the engine: finish or resign one first"
                    )));
                }
            }
            self.engine_has_room()?;
        }
        let token = new_token();
        let mut tokens = jungle_rules::BySide::new(None, None);
        tokens[side] = Some(token.clone());
        let mut setups = jungle_rules::BySide::new(None, None);
        let (engine_level, engine_side) = match mode {
            HiddenMode::Engine { level, side } => {
                let ai = HiddenAi::new(level, rand::random());
                setups[side] = Some(ai.choose_setup(&rules, side).to_string());
                (Some(level), Some(side_name(side).to_string()))
            }
            HiddenMode::Friend => (None, None),
        };
        let record = HiddenRecord {
            id: new_game_id(),
            created_at: now_ms(),
            mode: mode.name().to_string(),
            rules: rules.to_string(),
            engine_level,
            engine_side,
            blue_token: tokens.blue,
            red_token: tokens.red,
            blue_setup: setups.blue,
            red_setup: setups.red,
            result: None,
            winner: None,
            termination: None,
        };
        self.store.insert_hidden_game(&record)?;
        let state = RoomState::from_record(&record, &[])?;
        let room = Arc::new(HiddenRoom::new(
            record.id.clone(),
            state,
            client,
            self.outbox(),
        ));
        self.hidden.rooms().insert(record.id, room.clone());
        Ok((room, side, token))
    }

    /// Another node changed a hidden game: the room here, if there is one, reads it again.
    pub fn apply_hidden_event(self: &Arc<Self>, id: &str) {
        let Some(room) = self.hidden.held(id) else {
            return;
        };
        match room.reload(&self.store) {
            Ok(()) => self.after_hidden_change(&room),
            Err(e) => {
                tracing::error!(game = %room.id, error = %e, "could not read a hidden game again")
            }
        }
    }
}
