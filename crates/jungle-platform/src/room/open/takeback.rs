//! Taking moves back. Against the engine the player's last move (with the engine's reply) is undone at once;
//! between people one player asks and the other accepts or declines (as on lichess), in casual games only: a
//! rated game's moves stand, as its result will. Either way moves are undone until it is the asker's turn
//! again, with at least one of their moves undone, and the clocks go back to the times they showed then.
//! The store decides, as for moves: a takeback accepted on one node just as a move was stored on another is
//! refused, and the room read again.

use std::time::{Duration, Instant};

use jungle_rules::{BySide, Side};

use super::remote::side_text;
use super::{ActionError, Mode, OPENING_PLIES, Open, Room, RoomState, takeback_declined};
use crate::cluster::event::Change;
use crate::store::Store;

impl Room<Open> {
    /// The player in `seat` takes back (against the engine), asks to take back, or accepts the opponent's
    /// request (between people). Not once the game is over: a result is final.
    pub fn takeback(&self, store: &Store, seat: Option<Side>) -> Result<(), ActionError> {
        let seat = seat.ok_or(ActionError::Spectator)?;
        let mut state = self.lock();
        state.check_playable()?;
        match state.mode {
            Mode::Engine { .. } => {
                if state.thinking {
                    return Err(ActionError::Takeback("the engine is thinking"));
                }
                let undo = moves_to_undo(&state, seat).ok_or(NO_MOVE)?;
                self.undo(store, &mut state, undo)
            }
            Mode::Friend if state.takeback_request == Some(seat.opponent()) => {
                let undo = moves_to_undo(&state, seat.opponent()).ok_or(NO_MOVE)?;
                self.undo(store, &mut state, undo)
            }
            Mode::Friend => {
                if state.takeback_request == Some(seat) {
                    return Err(ActionError::Takeback(
                        "you asked already: wait for your opponent's answer",
                    ));
                }
                moves_to_undo(&state, seat).ok_or(NO_MOVE)?;
                if store.rated_game(&self.id)?.is_some() {
                    return Err(ActionError::Takeback("rated games have no takebacks"));
                }
                state.takeback_request = Some(seat);
                self.show(&state);
                self.publish(&state, Change::TakebackRequested(side_text(seat)));
                Ok(())
            }
            Mode::Import => Err(ActionError::Takeback("an imported game is not played here")),
        }
    }

    /// The player in `seat` declines the opponent's takeback request; the asker is told.
    pub fn decline_takeback(&self, seat: Option<Side>) -> Result<(), ActionError> {
        let seat = seat.ok_or(ActionError::Spectator)?;
        let mut state = self.lock();
        state.check_playable()?;
        if state.takeback_request != Some(seat.opponent()) {
            return Err(ActionError::NoTakebackRequest);
        }
        state.takeback_request = None;
        self.show(&state);
        self.tell_everyone(takeback_declined(seat));
        self.publish(&state, Change::TakebackDeclined(side_text(seat)));
        Ok(())
    }

    /// Undoes the last `undo` moves, in the store first (unless a move came after them there: then the room
    /// is read again and the takeback refused), and restores the clocks to the times after the move kept last.
    fn undo(&self, store: &Store, state: &mut RoomState, undo: usize) -> Result<(), ActionError> {
        let plies = state.game.moves().len();
        let keep = plies - undo;
        if !store.take_back(&self.id, plies as u32, keep as u32)? {
            self.catch_up_locked(store, state)?;
            return Err(ActionError::OutOfDate);
        }
        for _ in 0..undo {
            state.game.undo();
        }
        state.draw_offer = None;
        state.takeback_request = None;
        state.clock_history.truncate(keep);
        let restored = match (keep, state.initial_ms) {
            (0, Some(initial)) => Some(BySide::new(initial, initial)),
            (_, Some(_)) => state.clock_history.last().copied(),
            _ => None,
        };
        let now = Instant::now();
        let to_move = (keep >= OPENING_PLIES).then(|| state.game.side_to_move());
        if let (Some(clock), Some(t)) = (state.clock.as_mut(), restored) {
            clock.set(
                BySide::new(Duration::from_millis(t.blue), Duration::from_millis(t.red)),
                to_move,
                now,
            );
        }
        state.waiting_since = now;
        self.announce(state, Change::Stored);
        Ok(())
    }
}

const NO_MOVE: ActionError = ActionError::Takeback("you have no move to take back");

/// How many moves to undo so that it is `asker`'s turn with at least one of their moves undone: their last
/// move is the last one (1), or the one before the opponent's reply (2); `None` when they have not moved.
fn moves_to_undo(state: &RoomState, asker: Side) -> Option<usize> {
    let moves = state.game.moves().len();
    let positions = state.game.positions();
    let last_is_mine = moves > 0 && positions[moves - 1].side_to_move() == asker;
    let undo = if last_is_mine { 1 } else { 2 };
    (moves >= undo && positions[moves - undo].side_to_move() == asker).then_some(undo)
}
