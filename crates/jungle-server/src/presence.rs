//! Who is in a room: how many connections hold each seat, how many watch, and since when a player has had no
//! connection (so that the opponent may claim the game after a while).

use std::time::{Duration, Instant};

use jungle_rules::{BySide, Side};

#[derive(Clone, Debug)]
pub struct Presence {
    seated: BySide<usize>,
    spectators: usize,
    /// When each seat's last connection closed; a seat nobody has connected to since the room was loaded
    /// counts as gone since then.
    gone_since: BySide<Option<Instant>>,
}

impl Presence {
    /// Nobody connected yet, as of `now`.
    pub fn new(now: Instant) -> Presence {
        Presence {
            seated: BySide::new(0, 0),
            spectators: 0,
            gone_since: BySide::new(Some(now), Some(now)),
        }
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

    /// How many connections watch without a seat.
    pub fn spectators(&self) -> usize {
        self.spectators
    }

    /// How long the player in `side` has had no connection at `now`; `None` while connected.
    pub fn gone_for(&self, side: Side, now: Instant) -> Option<Duration> {
        self.gone_since
            .get(side)
            .map(|since| now.saturating_duration_since(since))
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
}
