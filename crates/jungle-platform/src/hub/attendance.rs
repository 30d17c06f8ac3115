//! A node's word to the others about who is connected here to each room. Every event a room publishes says
//! it; the others believe it for `presence::REMOTE_TTL` (90 s), so a room with a player connected here that
//! has said nothing for a while says it again. The repeats are spread over [`ANNOUNCE_EVERY`]: each run
//! ([`ANNOUNCE_TICK`], from the server) takes one slice of the rooms, chosen by the room's id, so a node
//! holding 50,000 rooms hands the broker about 1,700 repeats a second at most rather than 50,000 at once,
//! and rooms that spoke lately (a move, someone arriving) repeat nothing. A repeat may be dropped when the
//! broker is slow ([`crate::cluster::Outbox::repeat`]); changes never are.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::Hub;

/// How often each room with a player here is visited (its word repeated if it said nothing lately).
pub const ANNOUNCE_EVERY: Duration = Duration::from_secs(30);

/// How often [`Hub::announce_attendance`] is to be run: one slice of the rooms each time.
pub const ANNOUNCE_TICK: Duration = Duration::from_secs(1);

/// The slices the rooms are shared into: one visited per tick, each once per [`ANNOUNCE_EVERY`].
const SLICES: u64 = ANNOUNCE_EVERY.as_secs() / ANNOUNCE_TICK.as_secs();

/// A room that published anything within this says nothing more on its visit. Half the period: the word
/// is then never older than 45 s when repeated, so one lost repeat still leaves the others' word standing
/// (90 s).
const QUIET_FOR: Duration = Duration::from_secs(ANNOUNCE_EVERY.as_secs() / 2);

/// The slice of a room: a hash of its id (FNV-1a), the same on every run.
fn slice_of(id: &str) -> u64 {
    let hash = id.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    });
    hash % SLICES
}

impl Hub {
    /// Repeats, for the next slice of the rooms, who is connected here to those with a player connected
    /// and nothing said lately. Run every [`ANNOUNCE_TICK`]; nothing on a single server.
    pub fn announce_attendance(&self) {
        self.announce_attendance_at(Instant::now());
    }

    /// [`Hub::announce_attendance`] as of `now`; how many rooms repeated their word.
    fn announce_attendance_at(&self, now: Instant) -> usize {
        if self.outbox.get().is_none() {
            return 0;
        }
        let slice = self.announcements.fetch_add(1, Ordering::Relaxed) % SLICES;
        self.rooms
            .with_ids(|id| slice_of(id) == slice)
            .iter()
            .filter(|room| room.repeat_attendance(now, QUIET_FOR))
            .count()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::sync::Arc;

    use jungle_rules::Side;

    use super::*;
    use crate::cluster::event::{Change, GameEvent};
    use crate::cluster::outbox::{Line, Outbox};
    use crate::engine::EnginePool;
    use crate::hub::NewGame;
    use crate::room::Room;
    use crate::store::Store;

    /// A clustered hub (its events go to the returned line) with `games` friend games, each with its creator
    /// connected; the events of their arrival already taken from the line.
    fn hub_with_players(games: usize) -> (Arc<Hub>, Line, Vec<Arc<Room>>) {
        let hub = Hub::new(Store::in_memory().unwrap(), EnginePool::new(1));
        let (outbox, mut line) = Outbox::new("here");
        hub.publish_to(outbox);
        let request = NewGame {
            opponent: "friend".into(),
            ..NewGame::default()
        };
        let rooms: Vec<Arc<Room>> = (0..games)
            .map(|_| {
                let (room, side, _) = hub.create(&request, None).unwrap();
                room.arrive(Some(side));
                room
            })
            .collect();
        while line.try_next().is_some() {}
        (hub, line, rooms)
    }

    /// Runs one period of announcements at `now`: how many rooms repeated their word on each run, and the
    /// events published.
    fn one_period(hub: &Hub, line: &mut Line, now: Instant) -> (Vec<usize>, Vec<GameEvent>) {
        let per_run = (0..SLICES)
            .map(|_| hub.announce_attendance_at(now))
            .collect();
        let mut published = Vec::new();
        while let Some(event) = line.try_next() {
            published.push(event);
        }
        (per_run, published)
    }

    #[tokio::test]
    async fn the_repeats_are_spread_over_the_period_and_each_room_repeats_once() {
        let (hub, mut line, rooms) = hub_with_players(600);
        let (per_run, published) = one_period(&hub, &mut line, Instant::now() + QUIET_FOR);
        let mut times_each: HashMap<&str, usize> = HashMap::new();
        for event in &published {
            assert_eq!(event.change, Change::Attendance);
            assert_eq!(event.attendance.blue + event.attendance.red, 1);
            *times_each.entry(event.game.as_str()).or_default() += 1;
        }
        assert_eq!(
            times_each.len(),
            rooms.len(),
            "every room repeated its word"
        );
        assert!(times_each.values().all(|&n| n == 1));
        // 20 a run on average; all 600 in one run is what the burst was.
        let busiest = per_run.iter().max().copied().unwrap_or(0);
        assert!(
            busiest <= 60,
            "one run repeated {busiest} rooms: {per_run:?}"
        );
    }

    #[tokio::test]
    async fn only_rooms_with_a_player_that_said_nothing_lately_repeat() {
        let (hub, mut line, rooms) = hub_with_players(90);
        let now = Instant::now();
        // Every room just said who is there (its player arrived): nothing to repeat.
        let (_, published) = one_period(&hub, &mut line, now);
        assert!(published.is_empty(), "{} repeats", published.len());
        // Later, when every room's word is old: all repeat it but the room whose player left.
        rooms[0].leave(Some(Side::Blue));
        rooms[0].leave(Some(Side::Red));
        while line.try_next().is_some() {}
        let (_, published) = one_period(&hub, &mut line, now + 2 * QUIET_FOR);
        let spoke: Vec<&str> = published.iter().map(|e| e.game.as_str()).collect();
        assert!(!spoke.contains(&rooms[0].id.as_str()), "{spoke:?}");
        assert_eq!(spoke.len(), rooms.len() - 1);
    }

    #[tokio::test]
    async fn a_room_answers_a_node_it_never_heard_from_with_who_is_here() {
        let (hub, mut line, rooms) = hub_with_players(1);
        let room = &rooms[0];
        let newcomer = GameEvent {
            node: "there".into(),
            game: room.id.clone(),
            change: Change::Attendance,
            attendance: Default::default(),
        };
        room.catch_up(&hub.store, &newcomer).unwrap();
        let answer = line.try_next().expect("an answer to the newcomer");
        assert_eq!(
            (answer.game.as_str(), answer.change),
            (room.id.as_str(), Change::Attendance)
        );
        assert_eq!(answer.attendance.blue + answer.attendance.red, 1);
        // Once is enough: the node knows now.
        room.catch_up(&hub.store, &newcomer).unwrap();
        assert!(line.try_next().is_none());
    }
}
