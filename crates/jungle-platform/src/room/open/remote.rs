//! A room when several nodes hold the same game (see `cluster`): the events this room publishes after its
//! changes, and how it catches up with the changes of the others — from the database, which every node
//! writes and which decides what happened first.

use std::time::{Duration, Instant};

use jungle_rules::{BySide, Side};

use super::{
    ActionError, Loaded, OPENING_PLIES, Open, Rematch, Room, RoomState, draw_declined, load,
    side_title, stored_outcome, takeback_declined,
};
use crate::cluster::PeerNews;
use crate::cluster::event::{Change, GameEvent, Headcount, MoveEvent, RematchEvent};
use crate::room::LoadError;
use crate::store::{GameRecord, MoveRecord, Store, TimedMove, now_ms};
use crate::{side_from_name, side_name};

impl Room<Open> {
    /// Tells the other nodes of a rematch.
    pub fn publish_rematch(&self) {
        let state = self.lock();
        if let Some(rematch) = &state.rematch {
            let change = Change::Rematch(RematchEvent {
                id: rematch.id.clone(),
                blue_token: rematch.tokens.blue.clone(),
                red_token: rematch.tokens.red.clone(),
            });
            self.publish(&state, change);
        }
    }

    /// Another node changed this game: catches up (from the database when something was stored), then tells
    /// this node's connections. Returns whether the game itself changed (so its timers and engine are set
    /// again).
    ///
    /// # Errors
    /// When the database cannot be read (the room is unchanged) or the stored game no longer replays.
    pub fn catch_up(&self, store: &Store, event: &GameEvent) -> Result<bool, LoadError> {
        let mut state = self.lock();
        let news = state.presence.heard(
            &event.node,
            event.incarnation,
            event.attendance,
            Instant::now(),
        );
        let mut changed = false;
        match &event.change {
            Change::Stored => changed = self.catch_up_from_store(store, &mut state)?,
            Change::Moved(played) => {
                changed = self.catch_up_with_move(store, &mut state, played)?
            }
            Change::DrawOffered(side) if !state.is_finished() => {
                state.draw_offer = side_from_name(side);
            }
            Change::DrawDeclined(side) => {
                if let Some(by) = side_from_name(side) {
                    state.draw_offer = None;
                    let text = format!("{} declines the draw.", side_title(by));
                    self.tell_everyone(draw_declined(by, text));
                }
            }
            Change::TakebackRequested(side) if !state.is_finished() => {
                state.takeback_request = side_from_name(side);
            }
            Change::TakebackDeclined(side) => {
                if let Some(by) = side_from_name(side) {
                    state.takeback_request = None;
                    self.tell_everyone(takeback_declined(by));
                }
            }
            Change::Rematch(rematch) => {
                state.rematch = Some(Rematch {
                    id: rematch.id.clone(),
                    tokens: BySide::new(rematch.blue_token.clone(), rematch.red_token.clone()),
                });
            }
            // A node that just took the room knows nothing of who is connected here: it is told.
            Change::Joined => {
                if state.presence.local() != Headcount::default() {
                    self.publish(&state, Change::Attendance);
                }
            }
            Change::DrawOffered(_) | Change::TakebackRequested(_) | Change::Attendance => {}
        }
        // A node saying again who is connected there changes nothing this node's connections see.
        if news || !matches!(event.change, Change::Attendance | Change::Joined) {
            self.show(&state);
        }
        Ok(changed)
    }

    /// Another node went silent or is heard again: its word about its connections here stops holding or
    /// holds again, and this node's connections are told if that changes who they see.
    pub fn hear_of_peer(&self, news: &PeerNews) {
        let mut state = self.lock();
        let changed = match news {
            PeerNews::Silent {
                node,
                incarnation,
                since,
            } => state.presence.node_silent(node, *incarnation, *since),
            PeerNews::Back { node, incarnation } => state.presence.node_back(node, *incarnation),
        };
        if changed {
            self.show(&state);
        }
    }

    /// Tells the other nodes that this node holds the room now, and asks who is connected at theirs.
    pub fn join_others(&self) {
        let state = self.lock();
        self.publish(&state, Change::Joined);
    }

    /// Catches up with whatever was stored since the room was read (a node that opened the room just as
    /// another stored a change found no room to deliver that change's event to); whether anything changed.
    ///
    /// # Errors
    /// When the database cannot be read (the room is unchanged) or the stored game no longer replays.
    pub fn refresh(&self, store: &Store) -> Result<bool, LoadError> {
        let mut state = self.lock();
        let changed = self.catch_up_from_store(store, &mut state)?;
        if changed {
            self.show(&state);
        }
        Ok(changed)
    }

    /// Reads the room again from the database, keeping what only memory holds (who is connected, a draw
    /// offer, a rematch), and tells this node's connections. For a room that may have missed events (the
    /// broker was away) or was refused a write because another node got there first.
    ///
    /// # Errors
    /// When the database cannot be read (the room is unchanged) or the stored game no longer replays.
    pub fn reload(&self, store: &Store) -> Result<(), LoadError> {
        let mut state = self.lock();
        self.catch_up_locked(store, &mut state)
    }

    /// Catches up with a move another node stored, from its event when it is this room's next ply: the
    /// common case of a game whose players are on two nodes, where the opponent's node then reads nothing
    /// back from the database. Anything else (the room missed an event or went another way, the game is
    /// over here, the move would end it or does not play) is caught up from the database.
    fn catch_up_with_move(
        &self,
        store: &Store,
        state: &mut RoomState,
        played: &MoveEvent,
    ) -> Result<bool, LoadError> {
        let moves = state.game.moves();
        if moves.get(played.ply as usize).map(ToString::to_string) == Some(played.mv.clone()) {
            // The room already has it (it was opened, or caught up, after the move was stored).
            return Ok(false);
        }
        let next = moves.len() == played.ply as usize
            && moves.last().map(ToString::to_string) == played.after
            && !state.is_finished()
            && state.correspondence.is_none();
        let record = MoveRecord {
            ply: played.ply,
            mv: played.mv.clone(),
            blue_ms: played.blue_ms,
            red_ms: played.red_ms,
        };
        let (history, draw_offer) = (state.clock_history.len(), state.draw_offer);
        if !next || !take_move(state, &record) {
            return self.catch_up_from_store(store, state);
        }
        if state.game.is_over() {
            // The mover's node wrote the ending: take it, with the result, from the database.
            state.game.undo();
            state.clock_history.truncate(history);
            state.draw_offer = draw_offer;
            return self.catch_up_from_store(store, state);
        }
        restart_clock(
            state,
            &TimedMove {
                record,
                played_at: played.played_at,
            },
        );
        state.waiting_since = Instant::now();
        state.thinking = false;
        state.generation += 1;
        Ok(true)
    }

    /// Catches up with what another node stored: the moves after this room's last one, the ending, the seats.
    /// Returns whether anything changed.
    fn catch_up_from_store(&self, store: &Store, state: &mut RoomState) -> Result<bool, LoadError> {
        let Some(record) = store.game(&self.id)? else {
            return Ok(false);
        };
        let plies = state.game.moves().len();
        // From this room's last move, to see that the stored game still goes through it (a takeback made
        // elsewhere replaces it).
        let from = plies.saturating_sub(1);
        let tail = store.moves_since(&self.id, from as u32)?;
        let ours = state.game.moves().last().map(ToString::to_string);
        let continues = match tail.first() {
            _ if plies == 0 => true,
            Some(first) => {
                first.record.ply as usize == from && Some(&first.record.mv) == ours.as_ref()
            }
            None => false,
        };
        let ended_here_only = state.is_finished() && record.result.is_none();
        if !continues || ended_here_only {
            reread(store, &self.id, state)?;
            return Ok(true);
        }
        let new = &tail[if plies == 0 { 0 } else { 1 }..];
        let mut changed = !new.is_empty();
        for played in new {
            if !take_move(state, &played.record) {
                // Not a continuation after all: start again from the stored game.
                reread(store, &self.id, state)?;
                return Ok(true);
            }
        }
        if let Some(last) = new.last() {
            restart_clock(state, last);
            state.waiting_since = Instant::now();
            if state.correspondence.is_some() {
                state.correspondence = store.correspondence(&self.id)?;
            }
        }
        changed |= take_seats(state, &record);
        changed |= take_ending(state, &record);
        if changed {
            state.thinking = false;
            state.generation += 1;
        }
        Ok(changed)
    }
}

/// Plays a move another node stored onto the room, with its clocks; whether it played (a move that does not
/// play here leaves the room unchanged).
fn take_move(state: &mut RoomState, record: &MoveRecord) -> bool {
    let mover = state.game.side_to_move();
    if state.game.play_text(&record.mv).is_err() {
        return false;
    }
    if let (Some(blue), Some(red)) = (record.blue_ms, record.red_ms) {
        state.clock_history.push(BySide::new(blue, red));
    }
    if state.draw_offer == Some(mover.opponent()) {
        state.draw_offer = None;
    }
    state.takeback_request = None;
    true
}

/// Takes the seats and names another node stored; whether any changed.
fn take_seats(state: &mut RoomState, record: &GameRecord) -> bool {
    let tokens = BySide::new(record.blue_token.clone(), record.red_token.clone());
    let names = BySide::new(record.blue_name.clone(), record.red_name.clone());
    let changed = Side::ALL
        .iter()
        .any(|&s| tokens.get(s) != state.tokens.get(s) || names.get(s) != state.names.get(s));
    if changed {
        state.tokens = tokens;
        state.names = names;
        // A seat taken: the wait for the first moves starts again, as on the node that seated the player.
        state.waiting_since = Instant::now();
    }
    changed
}

/// Takes the ending another node stored (a resignation, a flag, an agreement, an abort); whether there was a
/// new one.
fn take_ending(state: &mut RoomState, record: &GameRecord) -> bool {
    if record.result.is_none() || state.recorded_outcome.is_some() || state.aborted {
        return false;
    }
    if record.termination.as_deref() == Some(super::ABORTED) {
        state.aborted = true;
    } else if state.game.outcome().is_none()
        && let Some(outcome) = stored_outcome(record)
    {
        state.game.declare(outcome);
    }
    state.recorded_outcome = state.game.outcome();
    if let Some(clock) = state.clock.as_mut() {
        clock.stop(Instant::now());
    }
    state.draw_offer = None;
    true
}

/// Sets the clocks from the last stored move: its times, and the side to move's clock running since the
/// move was played (on whichever node).
fn restart_clock(state: &mut RoomState, last: &TimedMove) {
    let (Some(blue), Some(red)) = (last.record.blue_ms, last.record.red_ms) else {
        return;
    };
    let begun = state.game.moves().len() >= OPENING_PLIES && !state.is_finished();
    let to_move = begun.then(|| state.game.side_to_move());
    if let Some(clock) = state.clock.as_mut() {
        clock.set(
            BySide::new(Duration::from_millis(blue), Duration::from_millis(red)),
            to_move,
            instant_of(last.played_at),
        );
    }
}

/// A room loaded on a node of a cluster: the game went on elsewhere, so the running clock has been running
/// since the last move was played (`played_at`, Unix ms), not since the load (as after a restart of a single
/// server, when the time the server was down is not held against anyone).
pub fn resume_clock_at(state: &mut RoomState, played_at: Option<i64>) {
    let (Some(played_at), Some(clock)) = (played_at, state.clock.as_mut()) else {
        return;
    };
    clock.backdate(instant_of(played_at));
}

/// The instant of a Unix time in milliseconds (clamped to now: a clock a little ahead on another node
/// charges nobody in advance).
fn instant_of(unix_ms: i64) -> Instant {
    let ago = Duration::from_millis(u64::try_from(now_ms() - unix_ms).unwrap_or(0));
    Instant::now().checked_sub(ago).unwrap_or_else(Instant::now)
}

impl From<LoadError> for ActionError {
    fn from(e: LoadError) -> ActionError {
        match e {
            LoadError::Store(e) => ActionError::Store(e),
            other => ActionError::Reload(other.to_string()),
        }
    }
}

/// The side name an event writes.
pub(super) fn side_text(side: Side) -> String {
    side_name(side).to_string()
}

/// [`Kind::reread`](crate::room::Kind::reread) for the open game: the stored game, with what only memory holds
/// kept (who is connected, a draw offer, a takeback request, a rematch).
pub(super) fn reread(store: &Store, id: &str, state: &mut RoomState) -> Result<(), LoadError> {
    let Some(Loaded {
        state: mut fresh, ..
    }) = load(store, id, state.claim_after)?
    else {
        return Ok(());
    };
    resume_clock_at(&mut fresh, store.last_move_at(id)?);
    if !fresh.is_finished() {
        fresh.draw_offer = state.draw_offer;
        // A request stands while the game is where it was asked (not after a move or takeback elsewhere).
        if fresh.game.moves() == state.game.moves() {
            fresh.takeback_request = state.takeback_request;
        }
    }
    fresh.presence = state.presence.clone();
    fresh.rematch = state.rematch.take();
    fresh.generation = state.generation + 1;
    *state = fresh;
    Ok(())
}
