//! The line of events a node hands to the broker, in the order they were handed in: every change a node
//! makes to a game (a move, an ending, a seat, a draw offer, a rematch, who came or went). None is ever
//! dropped.
//!
//! A change waits however long the broker takes: what bounds the line is the rate at which changes are
//! made (each is a write to the database or a connection's coming or going, limited per client), not a
//! capacity; while the broker is away the changes made meanwhile wait here and go out when it is back
//! (docs/deployment.md, "What the outbox can lose").

use std::sync::Arc;

use tokio::sync::mpsc;

use super::event::{Change, GameEvent, Headcount};

/// Where the rooms hand the events of their changes.
#[derive(Clone, Debug)]
pub struct Outbox {
    pub node: Arc<str>,
    /// This start of the node (see [`crate::peers`]).
    pub incarnation: u64,
    line: mpsc::UnboundedSender<GameEvent>,
}

/// The broker's end of an [`Outbox`]: the events in the order they were handed in.
#[derive(Debug)]
pub struct Line {
    line: mpsc::UnboundedReceiver<GameEvent>,
}

impl Outbox {
    /// An outbox of node `node` in its incarnation `incarnation`, and the end the broker's publisher reads.
    pub fn new(node: &str, incarnation: u64) -> (Outbox, Line) {
        let (sender, receiver) = mpsc::unbounded_channel();
        let outbox = Outbox {
            node: node.into(),
            incarnation,
            line: sender,
        };
        (outbox, Line { line: receiver })
    }

    /// An event of this node: `change` to `game`, with `attendance` its connections there.
    pub fn event(&self, game: &str, change: Change, attendance: Headcount) -> GameEvent {
        GameEvent {
            node: self.node.to_string(),
            incarnation: self.incarnation,
            game: game.to_string(),
            change,
            attendance,
        }
    }

    /// Hands in a change: it is published after every event handed in before it.
    pub fn send(&self, event: GameEvent) {
        if self.line.send(event).is_err() {
            // Only once the node has left the cluster (its publisher is gone): nobody is listening.
            tracing::debug!("a game event was not published: the node has left the cluster");
        }
    }
}

impl Line {
    /// The next event to publish; `None` once every [`Outbox`] is gone and the line is empty.
    pub async fn next(&mut self) -> Option<GameEvent> {
        self.line.recv().await
    }

    /// The next event if one waits now (for tests and draining).
    pub fn try_next(&mut self) -> Option<GameEvent> {
        self.line.try_recv().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::MoveEvent;

    #[test]
    fn every_change_goes_out_in_the_order_it_was_handed_in() {
        let (outbox, mut line) = Outbox::new("a", 7);
        for ply in 0..100 {
            let moved = Change::Moved(MoveEvent {
                ply,
                mv: "a3a4".into(),
                after: None,
                blue_ms: None,
                red_ms: None,
                played_at: 0,
            });
            outbox.send(outbox.event(&format!("g{}", ply % 3), moved, Headcount::default()));
        }
        let mut plies = Vec::new();
        while let Some(event) = line.try_next() {
            assert_eq!((&*event.node, event.incarnation), ("a", 7));
            if let Change::Moved(m) = event.change {
                plies.push(m.ply);
            }
        }
        assert_eq!(plies, (0..100).collect::<Vec<_>>());
    }
}
