//! What one node tells the others about a game it changed: a small message on the game's subject. A node
//! that holds the game reads what changed from the database (so a missed or late event costs nothing but a
//! delay), except a move its room is ready for, which the event carries; and takes from the event what
//! lives only in memory — a draw offer or a takeback request or their refusal, the rematch, the sender's
//! connections to the room.

use serde::{Deserialize, Serialize};

/// The subjects of game events: `jungle.game.ID`.
pub const SUBJECT_PREFIX: &str = "jungle.game.";

/// An event larger than this is not read (a real one is a few hundred bytes).
pub const MAX_EVENT_BYTES: usize = 4096;

/// A change a node made to a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameEvent {
    /// The node that made it (the broker does not deliver it back there).
    pub node: String,
    /// That node's current start (see [`crate::peers`]).
    pub incarnation: u64,
    pub game: String,
    pub change: Change,
    /// The sender's own connections to the room (every event says it).
    pub attendance: Headcount,
}

/// What changed. Sides are written `blue`, `red`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    /// A move, an ending, a takeback, a seat taken: catch up from the database.
    Stored,
    /// A move was stored that did not end the game: a node whose room is at the ply before it plays it from
    /// the event instead of reading it back (any other room catches up from the database).
    Moved(MoveEvent),
    /// The player in this seat offered a draw.
    DrawOffered(String),
    /// The player in this seat declined the draw offer: the offerer is told.
    DrawDeclined(String),
    /// The player in this seat asked to take moves back.
    TakebackRequested(String),
    /// The player in this seat declined the opponent's takeback request: the asker is told.
    TakebackDeclined(String),
    /// A player asked for the rematch of the finished game.
    Rematch(RematchEvent),
    /// Only who is connected changed (or a node answers [`Change::Joined`]).
    Attendance,
    /// The node now holds the game's room, and asks the others who is connected at theirs: a node that
    /// has anyone there answers with [`Change::Attendance`].
    Joined,
}

/// A stored move as the event carries it: what the `moves` row holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveEvent {
    pub ply: u32,
    pub mv: String,
    /// The move before it (none at ply 0): a room whose last move differs went another way (a takeback
    /// whose event it missed) and reads the game again.
    pub after: Option<String>,
    pub blue_ms: Option<u64>,
    pub red_ms: Option<u64>,
    /// When the move was played (Unix ms): the opponent's clock runs from then.
    pub played_at: i64,
}

/// A rematch as the event carries it: the new game and the seat tokens kept for its players.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RematchEvent {
    pub id: String,
    pub blue_token: Option<String>,
    pub red_token: Option<String>,
}

/// One node's connections to a room: how many hold each seat, how many watch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Headcount {
    pub blue: usize,
    pub red: usize,
    pub spectators: usize,
}

impl GameEvent {
    /// The subject the event is published on.
    pub fn subject(&self) -> String {
        format!("{SUBJECT_PREFIX}{}", self.game)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// Reads an event.
    ///
    /// # Errors
    /// When the payload is too large or not an event.
    pub fn parse(payload: &[u8]) -> Result<GameEvent, String> {
        if payload.len() > MAX_EVENT_BYTES {
            return Err(format!("an event of {} bytes is too large", payload.len()));
        }
        serde_json::from_slice(payload).map_err(|e| format!("not a game event: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_reads_back_and_bad_payloads_are_refused() {
        let event = GameEvent {
            node: "a".into(),
            incarnation: 7,
            game: "abc234".into(),
            change: Change::Rematch(RematchEvent {
                id: "xyz".into(),
                blue_token: Some("t".into()),
                red_token: None,
            }),
            attendance: Headcount {
                blue: 1,
                red: 0,
                spectators: 3,
            },
        };
        assert_eq!(GameEvent::parse(&event.to_bytes()).unwrap(), event);
        assert_eq!(event.subject(), "jungle.game.abc234");
        let moved = GameEvent {
            change: Change::Moved(MoveEvent {
                ply: 1,
                mv: "g7g6".into(),
                after: Some("a3a4".into()),
                blue_ms: Some(60_000),
                red_ms: None,
                played_at: 1_700_000_000_000,
            }),
            ..event
        };
        assert_eq!(GameEvent::parse(&moved.to_bytes()).unwrap(), moved);
        assert!(
            GameEvent::parse(b"{}")
                .unwrap_err()
                .contains("not a game event")
        );
        assert!(
            GameEvent::parse(&vec![b' '; MAX_EVENT_BYTES + 1])
                .unwrap_err()
                .contains("too large")
        );
    }
}
