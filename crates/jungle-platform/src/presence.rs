//! Who is in a room: how many connections hold each seat, how many watch, and since when a player has had no
//! connection (so that the opponent may claim the game after a while). With several server nodes, the other
//! nodes' connections to the room count too: each node tells the others its own counts (see `cluster`), and
//! a node's word holds for [`REMOTE_TTL`] unless it is repeated, so a node that died stops vouching for its
//! players.

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

/// What another node said, and until when each seat counts as connected there (when it said a seat is
/// empty: the moment it said so).
#[derive(Clone, Debug)]
struct Remote {
    said: Headcount,
    seated_until: BySide<Instant>,
}

/// How long another node's word that a player is connected holds without being repeated (nodes repeat it
/// at most 45 s after they last said anything, well within this: `Hub::announce_attendance`).
pub const REMOTE_TTL: Duration = Duration::from_secs(90);

/// The most nodes whose word a room keeps (the oldest is forgotten first).
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

    /// Node `node` said at `now` that it has `said` connections to the room. Whether that is news to the
    /// room's watchers: the node said other counts before, said nothing yet, or its word that a player is
    /// there had run out — not when it only repeats itself (as every node does every 30 s).
    pub fn heard(&mut self, node: &str, said: Headcount, now: Instant) -> bool {
        let news = match self.remote.get(node) {
            None => true,
            Some(before) => {
                before.said != said
                    || (said.blue > 0 && before.seated_until.blue <= now)
                    || (said.red > 0 && before.seated_until.red <= now)
            }
        };
        let previous = self.remote.get(node).map(|r| r.seated_until);
        let until = |count: usize, before: Option<Instant>| {
            if count > 0 {
                now + REMOTE_TTL
            } else {
                // Empty from now on (a seat it vouched for until later is gone now).
                before.map_or(now, |b| b.min(now))
            }
        };
        let seated_until = BySide::new(
            until(said.blue, previous.map(|p| p.blue)),
            until(said.red, previous.map(|p| p.red)),
        );
        if !self.remote.contains_key(node) && self.remote.len() >= MAX_REMOTE_NODES {
            let oldest = self
                .remote
                .iter()
                .min_by_key(|(_, r)| r.seated_until.blue.max(r.seated_until.red))
                .map(|(name, _)| name.clone());
            if let Some(oldest) = oldest {
                self.remote.remove(&oldest);
            }
        }
        self.remote
            .insert(node.to_string(), Remote { said, seated_until });
        news
    }

    /// Whether node `node` said anything of its connections to this room (and is still remembered).
    pub fn has_heard(&self, node: &str) -> bool {
        self.remote.contains_key(node)
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
                .map(|r| r.said.spectators)
                .sum::<usize>()
    }

    /// How long the player in `side` has had no connection at `now`, on any node; `None` while connected.
    pub fn gone_for(&self, side: Side, now: Instant) -> Option<Duration> {
        let local = (*self.gone_since.get(side))?;
        let remote = self
            .remote
            .values()
            .map(|r| *r.seated_until.get(side))
            .max();
        let since = match remote {
            Some(until) if until > now => return None,
            Some(until) => local.max(until),
            None => local,
        };
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

    #[test]
    fn a_node_repeating_itself_is_no_news_until_its_word_ran_out() {
        let t0 = Instant::now();
        let mut presence = Presence::new(t0);
        let blue_there = Headcount {
            blue: 1,
            red: 0,
            spectators: 0,
        };
        assert!(presence.heard("b", blue_there, t0), "a node heard first");
        let t1 = t0 + Duration::from_secs(30);
        assert!(
            !presence.heard("b", blue_there, t1),
            "the same counts again"
        );
        let watcher_too = Headcount {
            spectators: 1,
            ..blue_there
        };
        assert!(presence.heard("b", watcher_too, t1), "other counts");
        assert!(presence.heard("c", blue_there, t1), "another node");
        let late = t1 + REMOTE_TTL + Duration::from_secs(1);
        assert!(presence.gone_for(Side::Blue, late).is_some());
        assert!(
            presence.heard("b", watcher_too, late),
            "its word had run out: blue is back"
        );
        assert_eq!(presence.gone_for(Side::Blue, late), None);
    }

    #[test]
    fn another_nodes_players_count_until_it_says_they_left_or_stops_saying_anything() {
        let t0 = Instant::now();
        let mut presence = Presence::new(t0);
        let there = Headcount {
            blue: 1,
            red: 0,
            spectators: 2,
        };
        presence.heard("b", there, t0);
        assert_eq!(presence.spectators(), 2);
        assert_eq!(
            presence.gone_for(Side::Blue, t0 + Duration::from_secs(10)),
            None
        );
        // Red was never there: gone since the room was loaded.
        assert_eq!(
            presence.gone_for(Side::Red, t0 + Duration::from_secs(10)),
            Some(Duration::from_secs(10))
        );
        // Blue left node b at t1.
        let t1 = t0 + Duration::from_secs(20);
        presence.heard("b", Headcount::default(), t1);
        assert_eq!(presence.spectators(), 0);
        assert_eq!(
            presence.gone_for(Side::Blue, t1 + Duration::from_secs(5)),
            Some(Duration::from_secs(5))
        );
        // A node that says nothing more (it died) stops vouching after the TTL.
        let t2 = t1 + Duration::from_secs(100);
        presence.heard("c", there, t2);
        assert_eq!(
            presence.gone_for(Side::Blue, t2 + REMOTE_TTL - Duration::from_secs(1)),
            None
        );
        assert_eq!(
            presence.gone_for(Side::Blue, t2 + REMOTE_TTL + Duration::from_secs(3)),
            Some(Duration::from_secs(3))
        );
        // A local connection counts whatever the others say.
        presence.arrive(Some(Side::Red));
        presence.heard("b", Headcount::default(), t2);
        assert_eq!(presence.gone_for(Side::Red, t2), None);
    }
}
