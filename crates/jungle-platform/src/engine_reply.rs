//! The engine's reply in a room: claim the job (in a cluster, one node at a time), search, store the move —
//! and keep at it until the move is stored or the game moved on, so that an engine game always gets its
//! reply, exactly once, whatever happened to the database or the nodes meanwhile.
//!
//! Exactly once: the database stores one move per ply (its unique key), so two nodes that both searched
//! still store one reply. The job row (`engine_jobs`, a lease per game) keeps the searching itself to one
//! node: a node that cannot claim it waits for the holder's lease to end (the holder died) unless the move
//! arrives first. Eventually: a database call that failed because the database is unavailable (PostgreSQL
//! restarting, a connection that broke) is tried again with a growing pause instead of being given up, and a
//! found move is kept and stored again rather than searched again.

use std::sync::Arc;
use std::time::Duration;

use jungle_rules::Game;

use crate::clock::Clock;
use crate::engine_queue::Requester;
use crate::hub::Hub;
use crate::room::{ActionError, Room};
use crate::store::{EngineJob, StoreError, now_ms};

/// The first pause before a failed database call is tried again; it doubles up to [`RETRY_MOST`].
const RETRY_FIRST: Duration = Duration::from_millis(200);

/// The longest pause between tries: a database back from a restart is used within this.
const RETRY_MOST: Duration = Duration::from_secs(2);

/// The pauses between tries of a failed database call: 0.2 s, 0.4 s, … up to 2 s.
struct Backoff(Duration);

impl Backoff {
    fn new() -> Backoff {
        Backoff(RETRY_FIRST)
    }

    async fn pause(&mut self) {
        tokio::time::sleep(self.0).await;
        self.0 = (self.0 * 2).min(RETRY_MOST);
    }
}

/// What a claim of the engine's job came to.
enum Claim {
    /// This node searches.
    Ours,
    /// Nothing to search: the room changed meanwhile (it is where it should be).
    Stale,
    /// The move was already stored by another node: the room was read again; `true` if that changed it.
    Played(bool),
}

impl Hub {
    /// Works out and plays the engine's move in `room`, asked when the room was at `generation` (spawned by
    /// [`Hub::after_change`] with the room marked as thinking).
    pub(crate) async fn reply_as_engine(
        self: Arc<Self>,
        room: Arc<Room>,
        generation: u64,
        level: u8,
        game: Game,
        clock: Option<Clock>,
    ) {
        let ply = game.moves().len() as u32;
        match self.claim_engine_job(&room, generation, ply).await {
            Claim::Ours => {}
            Claim::Stale => {
                room.engine_stood_down();
                return;
            }
            Claim::Played(changed) => {
                room.engine_stood_down();
                if changed {
                    self.after_change(&room);
                }
                return;
            }
        }
        let movetime = crate::engine::movetime(level, clock.as_ref(), game.side_to_move());
        let requester = Requester::of_game(&room.id, room.owner);
        let found = self
            .engine
            .best_move(&requester, game, level, movetime)
            .await;
        match found {
            Some((m, started)) => {
                let mut backoff = Backoff::new();
                loop {
                    match room.play_engine_move(&self.store, generation, m, started) {
                        // Played, or another node played first (the room was read again).
                        Ok(()) | Err(ActionError::OutOfDate) => break,
                        // Not stored (the database is away): the position has not changed, so the same
                        // move is stored again later (the room stays thinking meanwhile).
                        Err(ActionError::Store(e @ StoreError::Unavailable(_))) => {
                            tracing::warn!(game = %room.id, error = %e, "the engine's move was not stored yet: trying again");
                            backoff.pause().await;
                        }
                        Err(e) => {
                            tracing::error!(game = %room.id, error = %e, "the engine's move was not played");
                            room.engine_gave_up();
                            break;
                        }
                    }
                }
            }
            None => room.engine_gave_up(),
        }
        self.release_engine_job(&room);
        self.after_change(&room);
    }

    /// Whether this node works out the engine's move at `ply` of a room (asked at `generation`): always on a
    /// single server; in a cluster, once the database gave this node the job. A node that was not given it
    /// waits for the holder's lease to run out (its node died: the job is taken over), unless the move
    /// arrives first.
    async fn claim_engine_job(&self, room: &Room, generation: u64, ply: u32) -> Claim {
        let Some(cluster) = self.cluster() else {
            return Claim::Ours;
        };
        let lease_ms = i64::try_from(cluster.engine_lease.as_millis()).unwrap_or(i64::MAX);
        let mut backoff = Backoff::new();
        loop {
            let now = now_ms();
            let lease_until = now.saturating_add(lease_ms);
            match self
                .store
                .claim_engine_job(&room.id, ply, &cluster.node, now, lease_until)
            {
                Ok(EngineJob::Ours) => return Claim::Ours,
                Ok(EngineJob::Done) => match room.refresh(&self.store) {
                    Ok(changed) => return Claim::Played(changed),
                    Err(e) => {
                        tracing::warn!(game = %room.id, error = %e, "could not read the engine's move: trying again");
                        backoff.pause().await;
                    }
                },
                Ok(EngineJob::HeldUntil(until)) => {
                    // A little after the lease ends, so it surely has.
                    let wait_ms = until.saturating_sub(now).clamp(0, lease_ms);
                    tokio::time::sleep(Duration::from_millis(wait_ms.unsigned_abs() + 5)).await;
                }
                Err(e) => {
                    tracing::warn!(game = %room.id, error = %e, "could not claim the engine's job: trying again");
                    backoff.pause().await;
                }
            }
            if room.lock().generation != generation {
                return Claim::Stale;
            }
        }
    }

    /// This node is done with a room's engine job (in a cluster).
    fn release_engine_job(&self, room: &Room) {
        if let Some(cluster) = self.cluster()
            && let Err(e) = self.store.release_engine_job(&room.id, &cluster.node)
        {
            // Harmless: the lease runs out by itself.
            tracing::warn!(game = %room.id, error = %e, "could not release the engine's job");
        }
    }
}
