//! The web platform's domain: games and their rooms (open and Hidden Jungle), seats, clocks, draw, takeback
//! and abort rules, the engine's turns, the lobby, accounts, ratings, puzzles and analysis — what happens, not
//! how it is reached. No HTTP here (that is `jungle-server`), no SQL (that is `jungle-store`, reached through
//! its `Store`), no broker (that is `jungle-cluster`, reached through its outbox and the [`cluster::Member`]
//! the hub is).

pub mod accounts;
pub mod analysis;
pub mod clock;
pub mod connections;
pub mod correspondence;
pub mod engine;
pub mod engine_queue;
mod engine_reply;
pub mod hub;
pub mod lessons;
pub mod limits;
pub mod lobby;
pub mod logging;
pub mod presence;
pub mod protocol;
pub mod puzzles;
pub mod rate;
pub mod ratings;
pub mod room;
pub mod seats;
pub mod selfplay_openings;
pub mod tournament_play;
pub mod tournaments;
pub mod unattended;

pub use jungle_cluster as cluster;
pub use jungle_store as store;

pub use cluster::{ClusterConfig, ClusterError};
pub use engine::EnginePool;
pub use engine_queue::Requester;
pub use hub::{Hub, HubError, NewGame};
pub use limits::Limits;
pub use store::{Store, StoreError, side_from_name, side_name};

/// The engine threads to use by default: all cores but one, at least one.
pub fn default_engine_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get().saturating_sub(1).max(1))
        .unwrap_or(1)
}
