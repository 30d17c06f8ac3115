//! Who is in a room: how many connections hold each seat, how many watch, and since when a player has had no
//! connection (so that the opponent may claim the game after a while). With several server nodes, the other
//! nodes' connections to the room count too: each node tells the others its own counts when they change
//! (see `cluster`), and a node's word holds until it says otherwise or goes silent (`cluster::peers`: a node
//! that died stops vouching for its players).

use std::collections::HashMap;
use std::time::{Duration, Instant};

pub use jungle_cluster::event::Headcount;
use jungle_rules::{BySide, Side};

#[derive(Clone, Debug)]
pub struct Presence {
    seated: BySide<usize>,
    spectators: usize,
    /// When each seat's last connection closed; a seat nobody has connected to since the room was loaded
    /// counts as gone since then.
    gone_since: BySide<Option<Instant>>,
    /// What the other nodes said of their connections to this room, by node.
    remote: HashMap<String, Remote>,
}

/// What another node said, in which of its starts, and whether it still vouches for it.
#[derive(Clone, Debug)]
struct Remote {
    incarnation: u64,
    said: Headcount,
    /// The node went silent (its word holds no more until it is heard again).
    silent: bool,
    /// When the node last stopped vouching for each seat (it said the seat was empty, or went silent).
    stopped: BySide<Option<Instant>>,
}

impl Remote {
    /// Whether the node vouches now that `side`'s player is connected there.
    fn vouches(&self, side: Side) -> bool {
        !self.silent && seated(&self.said, side) > 0
    }
}

fn seated(counts: &Headcount, side: Side) -> usize {
    match side {
        Side::Blue => counts.blue,
        Side::Red => counts.red,
    }
}

/// The most nodes whose word a room keeps (a silent or empty one is forgotten first).
const MAX_REMOTE_NODES: usize = 64;

impl Presence {
    /// Nobody connected yet, as of `now`.
    pub fn new(now: Instant) -> Presence {
        Presence {
            seated: BySide::new(0, 0),
            spectators: 0,
            gone_since: BySide::new(Some(now), Some(now)),
            remote: HashMap::new(),
        }
    }

    /// This node's own connections, as told to the other nodes.
    pub fn local(&self) -> Headcount {
        Headcount {
            blue: self.seated.blue,
            red: self.seated.red,
            spectators: self.spectators,
        }
    }

    /// Node `node` (in its start `incarnation`) said at `now` that it has `said` connections to the room.
    /// Whether that is news to the room's watchers: the node said other counts before, said nothing yet, or
    /// had gone silent.
    pub fn heard(&mut self, node: &str, incarnation: u64, said: Headcount, now: Instant) -> bool {
        let before = self.remote.get(node);
        let news =
            before.is_none_or(|b| b.said != said || b.silent || b.incarnation != incarnation);
        // A seat it vouched for stops now if it says the seat is empty, or speaks as a new start (which
        // lost every connection of the former).
        let stop = |side| match before {
            Some(b)
                if b.vouches(side)
                    && (b.incarnation != incarnation || seated(&said, side) == 0) =>
            {
                Some(now)
            }
            Some(b) => b.stopped[side],
            None => None,
        };
        let stopped = BySide::new(stop(Side::Blue), stop(Side::Red));
        let heard = Remote {
            incarnation,
            said,
            silent: false,
            stopped,
        };
        // Updated in place for a node already heard (every event of the game, so no new key each time).
        if let Some(known) = self.remote.get_mut(node) {
            *known = heard;
            return news;
        }
        if self.remote.len() >= MAX_REMOTE_NODES {
            let least_use = self
                .remote
                .iter()
                .min_by_key(|(_, r)| (!r.silent, r.said != Headcount::default()))
                .map(|(name, _)| name.clone());
            if let Some(name) = least_use {
                self.remote.remove(&name);
            }
        }
        self.remote.insert(node.to_string(), heard);
        news
    }

    /// Node `node`'s start `incarnation` was last heard at `since` and is silent now: its word stops
    /// holding from then. Whether that is news to the room's watchers.
    pub fn node_silent(&mut self, node: &str, incarnation: u64, since: Instant) -> bool {
        let Some(remote) = self
            .remote
            .get_mut(node)
            .filter(|r| r.incarnation == incarnation && !r.silent)
        else {
            return false;
        };
        for side in Side::ALL {
            if remote.vouches(side) {
                remote.stopped[side] = Some(since);
            }
        }
        remote.silent = true;
        remote.said != Headcount::default()
    }

    /// Node `node`'s start `incarnation` is heard again: its word holds again. Whether that is news.
    pub fn node_back(&mut self, node: &str, incarnation: u64) -> bool {
        let Some(remote) = self
            .remote
            .get_mut(node)
            .filter(|r| r.incarnation == incarnation && r.silent)
        else {
            return false;
        };
        remote.silent = false;
        remote.said != Headcount::default()
    }

    /// A connection opened, for `seat` or (`None`) to watch.
    pub fn arrive(&mut self, seat: Option<Side>) {
        match seat {
            Some(side) => {
                self.seated[side] += 1;
                self.gone_since[side] = None;
            }
            None => self.spectators += 1,
        }
    }

    /// A connection closed at `now`.
    pub fn leave(&mut self, seat: Option<Side>, now: Instant) {
        match seat {
            Some(side) => {
                self.seated[side] = self.seated[side].saturating_sub(1);
                if self.seated[side] == 0 {
                    self.gone_since[side] = Some(now);
                }
            }
            None => self.spectators = self.spectators.saturating_sub(1),
        }
    }

    /// How many connections watch without a seat, on every node.
    pub fn spectators(&self) -> usize {
        self.spectators
            + self
                .remote
                .values()
                .filter(|r| !r.silent)
                .map(|r| r.said.spectators)
                .sum::<usize>()
    }

    /// How long the player in `side` has had no connection at `now`, on any node; `None` while connected.
    pub fn gone_for(&self, side: Side, now: Instant) -> Option<Duration> {
        let local = (*self.gone_since.get(side))?;
        if self.remote.values().any(|r| r.vouches(side)) {
            return None;
        }
        let since = self
            .remote
            .values()
            .filter_map(|r| *r.stopped.get(side))
            .fold(local, Instant::max);
        Some(now.saturating_duration_since(since))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_is_gone_from_its_last_connection_closing() {
        let t0 = Instant::now();
        let mut presence = Presence::new(t0);
        assert_eq!(
            presence.gone_for(Side::Blue, t0 + Duration::from_secs(5)),
            Some(Duration::from_secs(5))
        );
        presence.arrive(Some(Side::Blue));
        presence.arrive(Some(Side::Blue));
        presence.arrive(None);
        assert_eq!(presence.spectators(), 1);
        presence.leave(Some(Side::Blue), t0);
        assert_eq!(
            presence.gone_for(Side::Blue, t0),
            None,
            "one tab is still open"
        );
        let t1 = t0 + Duration::from_secs(10);
        presence.leave(Some(Side::Blue), t1);
        assert_eq!(
            presence.gone_for(Side::Blue, t1 + Duration::from_secs(30)),
            Some(Duration::from_secs(30))
        );
        presence.leave(None, t1);
        presence.leave(None, t1);
        assert_eq!(presence.spectators(), 0);
    }

    const BLUE_THERE: Headcount = Headcount {
        blue: 1,
        red: 0,
        spectators: 0,
    };

    #[test]
    fn a_node_saying_the_same_again_is_no_news_unless_it_was_silent_or_restarted() {
        let t0 = Instant::now();
        let mut presence = Presence::new(t0);
        assert!(presence.heard("b", 1, BLUE_THERE, t0), "a node heard first");
        let t1 = t0 + Duration::from_secs(30);
        assert!(
            !presence.heard("b", 1, BLUE_THERE, t1),
            "the same counts again"
        );
        let watcher_too = Headcount {
            spectators: 1,
            ..BLUE_THERE
        };
        assert!(presence.heard("b", 1, watcher_too, t1), "other counts");
        assert!(presence.heard("c", 1, BLUE_THERE, t1), "another node");
        assert!(presence.node_silent("b", 1, t1));
        assert!(presence.heard("b", 1, watcher_too, t1), "heard again");
        assert!(presence.heard("b", 2, watcher_too, t1), "restarted");
    }

    #[test]
    fn another_nodes_players_count_until_it_says_they_left_or_goes_silent() {
        let t0 = Instant::now();
        let mut presence = Presence::new(t0);
        let there = Headcount {
            blue: 1,
            red: 0,
            spectators: 2,
        };
        presence.heard("b", 1, there, t0);
        assert_eq!(presence.spectators(), 2);
        // However long it says nothing more, while it is alive.
        let hour = Duration::from_secs(3600);
        assert_eq!(presence.gone_for(Side::Blue, t0 + hour), None);
        // Red was never there: gone since the room was loaded.
        assert_eq!(
            presence.gone_for(Side::Red, t0 + Duration::from_secs(10)),
            Some(Duration::from_secs(10))
        );
        // Blue left node b at t1.
        let t1 = t0 + Duration::from_secs(20);
        assert!(presence.heard("b", 1, Headcount::default(), t1));
        assert_eq!(presence.spectators(), 0);
        assert_eq!(
            presence.gone_for(Side::Blue, t1 + Duration::from_secs(5)),
            Some(Duration::from_secs(5))
        );
        // Node c vouches for blue, then goes silent (last heard at t3): blue is gone since then.
        let t2 = t1 + Duration::from_secs(100);
        presence.heard("c", 7, there, t2);
        assert_eq!(presence.gone_for(Side::Blue, t2 + hour), None);
        let t3 = t2 + Duration::from_secs(50);
        assert!(presence.node_silent("c", 7, t3));
        assert!(!presence.node_silent("c", 7, t3), "said once");
        assert_eq!(presence.spectators(), 0);
        assert_eq!(
            presence.gone_for(Side::Blue, t3 + Duration::from_secs(3)),
            Some(Duration::from_secs(3))
        );
        // Heard again (it was only cut off): blue is there again.
        assert!(presence.node_back("c", 7));
        assert_eq!(presence.gone_for(Side::Blue, t3 + hour), None);
        assert_eq!(presence.spectators(), 2);
        // A local connection counts whatever the others say.
        presence.arrive(Some(Side::Red));
        presence.heard("b", 1, Headcount::default(), t3);
        assert_eq!(presence.gone_for(Side::Red, t3), None);
    }

    #[test]
    fn what_a_former_start_of_a_node_said_does_not_hold_for_the_next() {
        let t0 = Instant::now();
        let mut presence = Presence::new(t0);
        presence.heard("b", 1, BLUE_THERE, t0);
        let t1 = t0 + Duration::from_secs(5);
        // Node b restarted as incarnation 2; news of its former self going silent comes late.
        assert!(!presence.node_back("b", 2), "nothing of incarnation 2 yet");
        presence.heard("b", 2, Headcount::default(), t1);
        assert!(!presence.node_silent("b", 1, t0), "already replaced");
        assert!(presence.gone_for(Side::Blue, t1).is_some());
        // Only incarnation 2's silence matters now.
        presence.heard("b", 2, BLUE_THERE, t1);
        assert!(!presence.node_silent("b", 1, t1));
        assert_eq!(presence.gone_for(Side::Blue, t1), None);
        assert!(presence.node_silent("b", 2, t1));
        assert!(presence.gone_for(Side::Blue, t1).is_some());
    }
}
