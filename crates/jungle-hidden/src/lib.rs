#![doc = include_str!("../README.md")]

pub mod ai;
mod arrangement;
mod game;
pub mod moves;
pub mod record;
pub mod twins;
mod view;

pub use arrangement::{Arrangement, ArrangementError};
pub use game::{HiddenGame, HiddenMoveError};
pub use moves::{Effect, PublicMove, PublicMoveText};
pub use view::{Seen, View, ViewError};
