//! The line of events a node hands to the broker, in the order they were handed in. Two kinds go through
//! it: a *change* (a move, an ending, a seat, a draw offer, a rematch, who came or went), which the other
//! nodes need and which is never dropped; and a *repeat* of what the node already said (every 30 s, who is
//! connected here to a room: `Hub::announce_attendance` in the platform), which is dropped when too many wait
//! — the next repeat says the same. One line for both, so that a repeat never overtakes a later change of
//! the same room (a stale headcount arriving last would stand for 90 s).
//!
//! A change waits however long the broker takes: what bounds the line is the rate at which changes are
//! made (each is a write to the database, limited per client), not a capacity; while the broker is away the
//! changes made meanwhile wait here and go out when it is back (docs/deployment.md, "What the outbox can
//! lose").

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::mpsc;

use super::event::GameEvent;

/// Repeats that may wait in the line; past this a repeat is dropped (the others' word about it runs out
/// only after three missed repeats: `REMOTE_TTL` in the platform's presence).
pub const REPEATS_WAITING: usize = 16_384;

/// Where a room hands the events of its changes, and the hub its repeats.
#[derive(Clone, Debug)]
pub struct Outbox {
    pub node: Arc<str>,
    line: mpsc::UnboundedSender<Waiting>,
    /// Repeats in the line now (taken out by [`Line::next`]).
    repeats: Arc<AtomicUsize>,
}

/// An event in the line, and whether it is a repeat.
#[derive(Debug)]
struct Waiting {
    event: GameEvent,
    repeat: bool,
}

/// The broker's end of an [`Outbox`]: the events in the order they were handed in.
#[derive(Debug)]
pub struct Line {
    line: mpsc::UnboundedReceiver<Waiting>,
    repeats: Arc<AtomicUsize>,
}

impl Outbox {
    /// An outbox of node `node`, and the end the broker's publisher reads.
    pub fn new(node: &str) -> (Outbox, Line) {
        let (sender, receiver) = mpsc::unbounded_channel();
        let repeats = Arc::new(AtomicUsize::new(0));
        let outbox = Outbox {
            node: node.into(),
            line: sender,
            repeats: repeats.clone(),
        };
        (
            outbox,
            Line {
                line: receiver,
                repeats,
            },
        )
    }

    /// Hands in a change: it is published (never dropped), after every event handed in before it.
    pub fn send(&self, event: GameEvent) {
        self.hand_in(event, false);
    }

    /// Hands in a repeat of what this node said before; whether it was taken: `false` when
    /// [`REPEATS_WAITING`] repeats already wait (the broker is slow or away).
    pub fn repeat(&self, event: GameEvent) -> bool {
        // Counted before it is in the line, so that the line never holds more than the bound.
        if self.repeats.fetch_add(1, Ordering::SeqCst) >= REPEATS_WAITING {
            self.repeats.fetch_sub(1, Ordering::SeqCst);
            return false;
        }
        self.hand_in(event, true);
        true
    }

    fn hand_in(&self, event: GameEvent, repeat: bool) {
        if self.line.send(Waiting { event, repeat }).is_err() {
            // Only once the node has left the cluster (its publisher is gone): nobody is listening.
            if repeat {
                self.repeats.fetch_sub(1, Ordering::SeqCst);
            }
            tracing::debug!("a game event was not published: the node has left the cluster");
        }
    }
}

impl Line {
    /// The next event to publish; `None` once every [`Outbox`] is gone and the line is empty.
    pub async fn next(&mut self) -> Option<GameEvent> {
        let waiting = self.line.recv().await?;
        Some(self.taken(waiting))
    }

    /// The next event if one waits now (for tests and draining).
    pub fn try_next(&mut self) -> Option<GameEvent> {
        let waiting = self.line.try_recv().ok()?;
        Some(self.taken(waiting))
    }

    fn taken(&self, waiting: Waiting) -> GameEvent {
        if waiting.repeat {
            self.repeats.fetch_sub(1, Ordering::SeqCst);
        }
        waiting.event
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Change, Headcount, MoveEvent};

    fn event(game: usize, change: Change) -> GameEvent {
        GameEvent {
            node: "a".into(),
            game: format!("g{game}"),
            change,
            attendance: Headcount {
                blue: 1,
                red: 0,
                spectators: 0,
            },
        }
    }

    fn moved(ply: u32) -> Change {
        Change::Moved(MoveEvent {
            ply,
            mv: "a3a4".into(),
            after: None,
            blue_ms: None,
            red_ms: None,
            played_at: 0,
        })
    }

    #[test]
    fn a_burst_of_repeats_drops_repeats_only_and_every_change_goes_out_in_order() {
        let (outbox, mut line) = Outbox::new("a");
        // More repeats than may wait, with moves among them, all handed in while the broker takes nothing.
        let mut moves_sent = 0;
        let mut repeats_taken = 0;
        for game in 0..3 * REPEATS_WAITING {
            if outbox.repeat(event(game, Change::Attendance)) {
                repeats_taken += 1;
            }
            if game % 3 == 0 {
                outbox.send(event(game, moved(game as u32)));
                moves_sent += 1;
            }
        }
        assert_eq!(repeats_taken, REPEATS_WAITING);
        let mut published = Vec::new();
        while let Some(event) = line.try_next() {
            published.push(event);
        }
        let moves: Vec<u32> = published
            .iter()
            .filter_map(|e| match &e.change {
                Change::Moved(m) => Some(m.ply),
                _ => None,
            })
            .collect();
        assert_eq!(moves.len(), moves_sent, "a move event was dropped");
        assert!(moves.windows(2).all(|w| w[0] < w[1]), "moves out of order");
        assert_eq!(published.len(), moves_sent + REPEATS_WAITING);
        // Once the broker took them, repeats are taken again.
        assert!(outbox.repeat(event(0, Change::Attendance)));
    }

    #[test]
    fn a_repeat_never_overtakes_a_later_change_of_its_room() {
        let (outbox, mut line) = Outbox::new("a");
        outbox.repeat(event(1, Change::Attendance));
        let gone = GameEvent {
            attendance: Headcount::default(),
            ..event(1, Change::Attendance)
        };
        outbox.send(gone.clone());
        assert_eq!(line.try_next().unwrap().attendance.blue, 1);
        assert_eq!(
            line.try_next(),
            Some(gone),
            "the newer headcount is published last"
        );
    }
}
