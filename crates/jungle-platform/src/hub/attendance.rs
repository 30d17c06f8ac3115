//! Who is connected where, across nodes. A room tells the other nodes who is connected here with every
//! event it publishes (a player arriving or leaving is one), and asks them who is connected at theirs when
//! this node takes it ([`crate::room::Room::join_others`]): their word holds until they say otherwise. Whether a node is
//! still there to vouch for its players is known once per node, not per room: its heartbeats
//! (`cluster::peers`) — when they stop, every room held here hears that its word no longer holds.

use super::Hub;
use crate::cluster::PeerNews;

impl Hub {
    /// Another node went silent or is heard again: every room held here hears of it.
    pub(crate) fn hear_of_peer(&self, news: &PeerNews) {
        for room in self.rooms.all() {
            room.hear_of_peer(news);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Instant;

    use futures_util::FutureExt;
    use jungle_rules::Side;

    use super::*;
    use crate::cluster::event::{Change, GameEvent, Headcount};
    use crate::cluster::outbox::{Line, Outbox};
    use crate::engine::EnginePool;
    use crate::hub::NewGame;
    use crate::room::Room;
    use crate::store::Store;

    /// A clustered hub (its events go to the returned line) with a friend game whose creator is connected
    /// and has played: the events so far already taken from the line.
    fn hub_with_a_player() -> (Arc<Hub>, Line, Arc<Room>, Side) {
        let hub = Hub::new(Store::in_memory().unwrap(), EnginePool::new(1));
        let (outbox, mut line) = Outbox::new("here", 1);
        hub.publish_to(outbox);
        let request = NewGame {
            opponent: "friend".into(),
            ..NewGame::default()
        };
        let (room, side, _) = hub.create(&request, None).unwrap();
        room.arrive(Some(side));
        while line.try_next().is_some() {}
        (hub, line, room, side)
    }

    /// An event of node `there` about `room`.
    fn from_there(room: &Room, change: Change, attendance: Headcount) -> GameEvent {
        GameEvent {
            node: "there".into(),
            incarnation: 9,
            game: room.id.clone(),
            change,
            attendance,
        }
    }

    #[tokio::test]
    async fn a_room_answers_a_node_that_joins_it_with_who_is_here_every_time() {
        let (hub, mut line, room, _) = hub_with_a_player();
        for _ in 0..2 {
            let joined = from_there(&room, Change::Joined, Headcount::default());
            room.catch_up(&hub.store, &joined).unwrap();
            let answer = line.try_next().expect("an answer to the node that joined");
            assert_eq!(
                (answer.game.as_str(), answer.change),
                (room.id.as_str(), Change::Attendance)
            );
            assert_eq!(answer.attendance.blue + answer.attendance.red, 1);
            assert!(line.try_next().is_none());
        }
        // Its other events are not answered: it knows who is here.
        let said = from_there(&room, Change::Attendance, Headcount::default());
        room.catch_up(&hub.store, &said).unwrap();
        assert!(line.try_next().is_none());
    }

    #[tokio::test]
    async fn a_player_on_a_node_that_went_silent_counts_as_gone_from_its_last_heartbeat() {
        let (hub, _line, room, creator) = hub_with_a_player();
        let opponent = creator.opponent();
        let there = Headcount {
            blue: usize::from(opponent == Side::Blue),
            red: usize::from(opponent == Side::Red),
            spectators: 0,
        };
        room.catch_up(&hub.store, &from_there(&room, Change::Attendance, there))
            .unwrap();
        let now = Instant::now();
        assert_eq!(room.lock().presence.gone_for(opponent, now), None);
        let mut updates = room.updates_for(None);
        let last_heard = now;
        hub.hear_of_peer(&PeerNews::Silent {
            node: "there".into(),
            incarnation: 9,
            since: last_heard,
        });
        assert!(room.lock().presence.gone_for(opponent, now).is_some());
        let told = updates.next().now_or_never().flatten();
        assert!(told.is_some(), "the room's watchers were told");
        hub.hear_of_peer(&PeerNews::Back {
            node: "there".into(),
            incarnation: 9,
        });
        assert_eq!(room.lock().presence.gone_for(opponent, now), None);
    }
}
