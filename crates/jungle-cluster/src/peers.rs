//! Which other nodes are alive. Each node says so on one subject every [`HEARTBEAT_EVERY`], and takes a node
//! it has not heard for [`SILENT_AFTER`] for gone — with it, its word about who is connected there (see the
//! platform's presence). One message a node every few seconds replaces repeating, room by room, who is
//! connected where (docs/deployment.md, "Presence").
//!
//! A node is known by its name and its *incarnation*, a number drawn at each start: a node restarted under
//! the same name (`--node-id`) has lost every connection it had, and what its former self said no longer
//! holds.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// The subject every node's heartbeat goes to (and every node listens to).
pub const SUBJECT: &str = "jungle.nodes";

/// How often a node says it is alive.
pub const HEARTBEAT_EVERY: Duration = Duration::from_secs(2);

/// A node not heard for this long is taken for gone: five heartbeats in a row missed, so a broker's brief
/// stall or a busy node is not mistaken for a death.
pub const SILENT_AFTER: Duration = Duration::from_secs(10);

/// A node silent for this long is forgotten (a heartbeat from it later is a new node's).
const FORGET_AFTER: Duration = Duration::from_secs(600);

/// A heartbeat larger than this is not read (a real one is under 100 bytes).
const MAX_HEARTBEAT_BYTES: usize = 512;

/// A node's word that it is alive.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Heartbeat {
    pub node: String,
    pub incarnation: u64,
}

impl Heartbeat {
    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// Reads a heartbeat; `None` for anything else.
    pub fn parse(payload: &[u8]) -> Option<Heartbeat> {
        if payload.len() > MAX_HEARTBEAT_BYTES {
            return None;
        }
        serde_json::from_slice(payload).ok()
    }
}

/// A change in what this node knows of another's life.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PeerNews {
    /// Nothing was heard from this incarnation of the node since `since` (it died, was cut off, or was
    /// restarted as another incarnation): its word about its connections no longer holds, from then.
    Silent {
        node: String,
        incarnation: u64,
        since: Instant,
    },
    /// The node is heard (again): what it said before holds again (a node that was only cut off kept its
    /// connections).
    Back { node: String, incarnation: u64 },
}

/// What one node has heard of the others.
#[derive(Debug, Default)]
pub struct Peers {
    known: HashMap<String, Peer>,
}

#[derive(Debug)]
struct Peer {
    incarnation: u64,
    last_heard: Instant,
    silent: bool,
}

impl Peers {
    /// A heartbeat of `node` (incarnation `incarnation`) arrived at `now`: what that changes.
    pub fn heard(&mut self, node: &str, incarnation: u64, now: Instant) -> Vec<PeerNews> {
        let heard = Peer {
            incarnation,
            last_heard: now,
            silent: false,
        };
        let before = self.known.insert(node.to_string(), heard);
        let mut news = Vec::new();
        // Restarted: its former self is gone since it was last heard (unless already said).
        if let Some(former) = before
            .as_ref()
            .filter(|b| b.incarnation != incarnation && !b.silent)
        {
            news.push(PeerNews::Silent {
                node: node.to_string(),
                incarnation: former.incarnation,
                since: former.last_heard,
            });
        }
        // Back unless it was heard alive just before: what it said holds again (also for a node unknown or
        // forgotten after a long silence).
        if !before.is_some_and(|b| b.incarnation == incarnation && !b.silent) {
            news.push(PeerNews::Back {
                node: node.to_string(),
                incarnation,
            });
        }
        news
    }

    /// The nodes that went silent by `now` (each said once), and those silent so long they are forgotten.
    pub fn check(&mut self, now: Instant) -> Vec<PeerNews> {
        self.known.retain(|_, peer| {
            now.saturating_duration_since(peer.last_heard) < SILENT_AFTER + FORGET_AFTER
        });
        self.known
            .iter_mut()
            .filter(|(_, peer)| {
                !peer.silent && now.saturating_duration_since(peer.last_heard) >= SILENT_AFTER
            })
            .map(|(node, peer)| {
                peer.silent = true;
                PeerNews::Silent {
                    node: node.clone(),
                    incarnation: peer.incarnation,
                    since: peer.last_heard,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn silent(node: &str, incarnation: u64, since: Instant) -> PeerNews {
        PeerNews::Silent {
            node: node.into(),
            incarnation,
            since,
        }
    }

    fn back(node: &str, incarnation: u64) -> PeerNews {
        PeerNews::Back {
            node: node.into(),
            incarnation,
        }
    }

    #[test]
    fn a_node_not_heard_for_a_while_is_silent_once_and_back_when_heard_again() {
        let t0 = Instant::now();
        let mut peers = Peers::default();
        assert_eq!(peers.heard("b", 7, t0), [back("b", 7)]);
        let t1 = t0 + HEARTBEAT_EVERY;
        assert!(
            peers.heard("b", 7, t1).is_empty(),
            "a heartbeat like any other"
        );
        assert!(
            peers
                .check(t1 + SILENT_AFTER - Duration::from_millis(1))
                .is_empty()
        );
        let late = t1 + SILENT_AFTER;
        assert_eq!(peers.check(late), [silent("b", 7, t1)]);
        assert!(peers.check(late + HEARTBEAT_EVERY).is_empty(), "said once");
        let t2 = late + 3 * HEARTBEAT_EVERY;
        assert_eq!(
            peers.heard("b", 7, t2),
            [back("b", 7)],
            "it was only cut off"
        );
        assert!(peers.check(t2 + HEARTBEAT_EVERY).is_empty());
    }

    #[test]
    fn a_node_restarted_under_its_name_silences_its_former_self() {
        let t0 = Instant::now();
        let mut peers = Peers::default();
        peers.heard("b", 7, t0);
        let t1 = t0 + Duration::from_secs(3);
        assert_eq!(peers.heard("b", 8, t1), [silent("b", 7, t0), back("b", 8)]);
        // Once its former self was taken for silent, the restart says nothing more of it.
        let late = t1 + SILENT_AFTER;
        assert_eq!(peers.check(late), [silent("b", 8, t1)]);
        assert_eq!(peers.heard("b", 9, late), [back("b", 9)]);
    }

    #[test]
    fn a_node_silent_for_long_is_forgotten_and_a_heartbeat_is_read_back() {
        let t0 = Instant::now();
        let mut peers = Peers::default();
        peers.heard("b", 7, t0);
        assert_eq!(peers.check(t0 + SILENT_AFTER).len(), 1);
        assert!(peers.check(t0 + SILENT_AFTER + FORGET_AFTER).is_empty());
        assert!(peers.known.is_empty());
        let beat = Heartbeat {
            node: "b".into(),
            incarnation: 7,
        };
        assert_eq!(Heartbeat::parse(&beat.to_bytes()), Some(beat));
        assert_eq!(Heartbeat::parse(b"{}"), None);
        assert_eq!(Heartbeat::parse(&[b' '; MAX_HEARTBEAT_BYTES + 1]), None);
    }
}
