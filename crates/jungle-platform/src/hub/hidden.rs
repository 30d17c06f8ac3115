//! Hidden Jungle on the web (docs/hidden.md, "Web"): games against the AI and between friends, each seat sent
//! only its own view, spectators the public view until the end.
//!
//! The hub's hidden games: finding or reading a game's room, making a game, other nodes' changes, and the AI's
//! turns. One game's room (the true game, which never leaves it, and its three audiences' states) is
//! `crate::room::hidden`.
//!
//! Games are stored (`store::hidden`) as they are played and read again when asked for, so they survive a
//! restart; a room leaves memory when nobody is connected to it.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use jungle_hidden::ai::HiddenAi;
use jungle_rules::{Rules, Side};

use jungle_hidden::ai::Budget;

use super::{Hub, HubError, MAX_TEXT, chosen_side, is_game_id, new_game_id, new_token};
use crate::engine_queue::Requester;
use crate::room::LoadError;
use crate::room::hidden::wire::NewHiddenGame;
use crate::room::hidden::{EngineTurn, HiddenError, HiddenMode, HiddenRoom, RoomState};
use crate::side_name;
use crate::store::{HiddenRecord, now_ms};

/// How long to wait before asking the AI again after its move could not be stored (the database is away).
const RETRY_AFTER: Duration = Duration::from_secs(1);

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
        let read = |e| LoadError::from((id, e));
        let Some(record) = self.store.hidden_game(id).map_err(read)? else {
            return Ok(None);
        };
        let moves = self.store.hidden_moves(id).map_err(read)?;
        let state = RoomState::from_record(&record, &moves)?;
        let loaded = Arc::new(HiddenRoom::new(id.to_string(), state, None, self.outbox()));
        // Two loads may race: the first one in wins, so everyone shares one room.
        let room = self.hidden.first_in(loaded);
        self.after_hidden_change(&room);
        Ok(Some(room))
    }

    /// Creates a hidden game; returns its room, the creator's seat and the seat's token. `creator` is the
    /// name of the creator's account (none: a guest). Against the AI, the AI's setup is chosen and stored now.
    ///
    /// # Errors
    /// [`HubError::BadRequest`] naming the bad field; [`HubError::TooMany`] / [`HubError::Busy`] as for open
    /// engine games; a failed database write.
    pub fn create_hidden(
        self: &Arc<Self>,
        req: &NewHiddenGame,
        client: Option<IpAddr>,
        creator: Option<&str>,
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
                let live_engine_games = self.hidden.count(|room| {
                    let state = room.lock();
                    room.owner == Some(client)
                        && matches!(state.mode, HiddenMode::Engine { .. })
                        && !state.is_over()
                });
                if live_engine_games >= limit {
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
        let mut names = jungle_rules::BySide::new(None, None);
        names[side] = creator.map(str::to_string);
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
            blue_name: names.blue,
            red_name: names.red,
            result: None,
            winner: None,
            termination: None,
            finished_at: None,
        };
        self.store.insert_hidden_game(&record)?;
        let state = RoomState::from_record(&record, &[])?;
        let room = Arc::new(HiddenRoom::new(
            record.id.clone(),
            state,
            client,
            self.outbox(),
        ));
        self.hidden.insert(room.clone());
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

    /// Starts what a hidden room needs after a change: the AI's move when it is the AI's turn.
    pub fn after_hidden_change(self: &Arc<Self>, room: &Arc<HiddenRoom>) {
        let Some(turn) = room.lock().engine_turn() else {
            return;
        };
        let hub = self.clone();
        let room = room.clone();
        tokio::spawn(async move {
            let EngineTurn {
                generation,
                level,
                view,
                mut ai,
            } = turn;
            // The open game's time per level (untimed games): hidden games have no clock.
            let time = crate::engine::movetime(level, None, view.side_to_move());
            let requester = Requester::of_game(&room.id, room.owner);
            let found = hub
                .engine
                .run(&requester, time, move || {
                    let m = ai.choose_within(&view, Budget::time(time));
                    (m, ai)
                })
                .await;
            let retry = match found {
                Some(((m, ai), _)) => match room.play_engine_move(&hub.store, generation, m, ai) {
                    Ok(()) | Err(HiddenError::OutOfDate) => false,
                    Err(e) => {
                        tracing::error!(game = %room.id, error = %e, "the AI's move was not played");
                        true
                    }
                },
                None => {
                    // The search thread failed: the AI is made afresh for the next try.
                    room.engine_gave_up();
                    true
                }
            };
            if retry {
                tokio::time::sleep(RETRY_AFTER).await;
            }
            hub.after_hidden_change(&room);
        });
    }
}
