//! Tournaments as players meet them (docs/server.md, "Tournaments"): created by a signed-in player, joined and
//! left, started at their start time, paired round by round (Swiss) or as players become free (arena), and
//! finished with a podium. The pairing itself is the `tournaments` library's; this module feeds it what the
//! store holds and writes back what it decides, once across nodes (`Store::create_round`).
//!
//! Nothing here is held in memory: every decision reads the tournament, its players and its games from the
//! database, so any node can take over from one that died, and a score is never lost with a node.

pub mod advance;
pub mod entry;
pub mod record;
mod round;
pub mod standings;
pub mod terms;

pub use advance::{advance, on_game_end, sweep};
pub use entry::{create, find, join, leave};
pub use standings::{Line, Standings, standings};
pub use terms::{CreateRequest, LIMITS, TournamentLimits};

use crate::hub::HubError;
use crate::store::{MarkRatedError, StoreError};

/// Why a tournament action was refused (nothing was changed).
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    #[error("{0}")]
    Bad(String),
    #[error("no tournament \"{0}\"")]
    NoTournament(String),
    #[error("{0}")]
    Refused(String),
    #[error("{0}")]
    TooMany(String),
    #[error(transparent)]
    Hub(#[from] HubError),
}

impl From<StoreError> for TournamentError {
    fn from(e: StoreError) -> TournamentError {
        TournamentError::Hub(HubError::Store(e))
    }
}

impl From<MarkRatedError> for TournamentError {
    fn from(e: MarkRatedError) -> TournamentError {
        match e {
            MarkRatedError::Store(e) => e.into(),
            refused => TournamentError::Refused(refused.to_string()),
        }
    }
}

/// At most this much of an id or name the user typed is repeated in an error.
fn clip(text: &str) -> String {
    text.chars().take(30).collect()
}

#[cfg(test)]
mod tests;
