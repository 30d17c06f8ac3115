//! Making games: a new game from the home page's request, its room opened; a rematch of a finished game; a
//! finished game imported from PGN.

use std::net::IpAddr;
use std::sync::Arc;

use jungle_rules::{BySide, Game, Position, Rules, Side};

use super::{Hub, HubError, MAX_TEXT, NewGame, bad, chosen_side, new_game_id, new_token};
use crate::room::open::room_state;
use crate::room::{Mode, Rematch, Room};
use crate::store::{GameRecord, MoveRecord, now_ms};
use crate::{side_from_name, side_name};

impl Hub {
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
                finished_at: None,
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
            finished_at: None,
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
            finished_at: None,
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
}

/// The rematch a stored game is: its id and the seats kept for the players.
pub(super) fn rematch_of_record(made: &GameRecord) -> Rematch {
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
