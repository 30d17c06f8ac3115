//! Tournament pairing and scoring (docs/tournaments.md): Swiss events paired by a simplified Dutch system,
//! their tie-breaks, and lichess-style arenas. Pure functions over plain values — no clock, no store, no
//! randomness — so the same input always gives the same pairing on every node, and tests can state exact
//! pairings.

pub mod arena;
pub mod crosstable;
mod matching;
pub mod score;
pub mod swiss;
pub mod tiebreaks;

pub use crosstable::{Crosstable, Game, Outcome, Round};
pub use score::Score;

/// A player's identity within a tournament (an account id).
pub type PlayerId = u64;
