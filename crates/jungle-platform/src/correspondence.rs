//! Correspondence games: days per move instead of a clock. The moment the side to move runs out is stored
//! with each move (a column of the game), never counted down in memory, so a server
//! that was down decides an overdue game when it comes back: at start and by a periodic sweep, through the
//! room, which writes an ending once.

use std::sync::Arc;

use crate::hub::{Hub, HubError};
use crate::room::Room;
use crate::store::now_ms;
pub use crate::store::{Correspondence, DAY_MS};

impl Hub {
    /// Makes a game just opened a correspondence game of `days` per move (a correspondence game's rematch):
    /// stored, then in its room, where the deadline replaces the wait for the first moves.
    ///
    /// # Errors
    /// When the database write fails.
    pub fn make_correspondence(&self, room: &Room, days: u32) -> Result<(), HubError> {
        let time = Correspondence::starting(days, now_ms());
        self.store.set_correspondence(&room.id, time)?;
        {
            let mut state = room.lock();
            state.correspondence = Some(time);
            state.generation += 1;
        }
        room.notify();
        Ok(())
    }
}

/// Decides every correspondence game whose side to move ran out (a time forfeit; an abort if a side never
/// made its first move). Run when the server starts and then periodically. Each game is decided in its room
/// under its lock, so a game decided once is never decided again. Returns how many games were looked at.
///
/// # Errors
/// When the database cannot be read.
pub fn sweep(hub: &Arc<Hub>) -> Result<usize, HubError> {
    let overdue = hub.store.overdue_games(now_ms())?;
    for id in &overdue {
        match hub.room(id) {
            Ok(Some(room)) => {
                if let Err(e) = room.check_flag(&hub.store) {
                    tracing::error!(game = %id, error = %e, "an overdue correspondence game was not decided");
                }
                hub.after_change(&room);
            }
            Ok(None) => {}
            Err(HubError::Damaged { id, reason }) => hub.quarantine(&id, &reason),
            Err(e) => return Err(e),
        }
    }
    Ok(overdue.len())
}
