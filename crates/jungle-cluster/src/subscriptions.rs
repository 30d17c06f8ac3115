//! Which games' subjects this node listens to: a game's `jungle.game.ID` while the node holds a room of it,
//! so the broker's traffic to a node grows with the games it holds, not with all games.
//!
//! A room takes a [`Following`] when it is made and gives it back when it is dropped; the first one of a game
//! subscribes to its subject and the last one unsubscribes (two rooms of one game may live at once: one just
//! evicted that a connection still holds, one read again). Once the broker confirmed a subscription, the node
//! is told to read the game again ([`crate::Member::followed`]): a change stored after the room was read but
//! before the subscription was in place was announced to nobody here, and the database has it.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use futures_util::StreamExt;
use tokio::sync::oneshot;

use super::event::{GameEvent, SUBJECT_PREFIX};
use super::{Appliers, Work, broker};

/// How many rooms of each game are held, and what each followed game keeps while it is (`T`): the
/// bookkeeping alone, without the broker.
#[derive(Debug)]
pub(crate) struct Follows<T> {
    games: HashMap<String, (usize, T)>,
}

impl<T> Default for Follows<T> {
    fn default() -> Self {
        Follows {
            games: HashMap::new(),
        }
    }
}

impl<T> Follows<T> {
    /// One more room of `game`; `start` makes what the game keeps when it is its first.
    pub(crate) fn follow(&mut self, game: &str, start: impl FnOnce() -> T) {
        match self.games.entry(game.to_string()) {
            Entry::Occupied(mut held) => held.get_mut().0 += 1,
            Entry::Vacant(new) => {
                new.insert((1, start()));
            }
        }
    }

    /// One room of `game` fewer; what the game kept when it was its last (to be dropped), `None` otherwise
    /// (or when the game was not followed).
    pub(crate) fn leave(&mut self, game: &str) -> Option<T> {
        let Entry::Occupied(mut held) = self.games.entry(game.to_string()) else {
            return None;
        };
        held.get_mut().0 -= 1;
        if held.get().0 == 0 {
            Some(held.remove().1)
        } else {
            None
        }
    }

    pub(crate) fn is_followed(&self, game: &str) -> bool {
        self.games.contains_key(game)
    }

    pub(crate) fn len(&self) -> usize {
        self.games.len()
    }
}

/// A node's subscriptions to the games it holds rooms of.
pub(crate) struct Subscriptions {
    /// Per followed game, the end of its listener's stop line: dropping it ends the listener, which
    /// unsubscribes.
    follows: Mutex<Follows<oneshot::Sender<()>>>,
    client: async_nats::Client,
    appliers: Arc<Appliers>,
    /// This node's name: its own events come back on the subjects it follows and are skipped.
    node: Arc<str>,
    /// Where the listeners run (a room may be made outside the runtime's tasks, in a test or a blocking
    /// thread).
    runtime: tokio::runtime::Handle,
    /// Messages received on game subjects, this node's own included.
    heard: AtomicU64,
}

impl std::fmt::Debug for Subscriptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subscriptions")
            .field("games", &self.follows().len())
            .field("heard", &self.heard())
            .finish_non_exhaustive()
    }
}

impl Subscriptions {
    pub(crate) fn new(
        client: async_nats::Client,
        appliers: Arc<Appliers>,
        node: &str,
        runtime: tokio::runtime::Handle,
    ) -> Arc<Subscriptions> {
        Arc::new(Subscriptions {
            follows: Mutex::new(Follows::default()),
            client,
            appliers,
            node: node.into(),
            runtime,
            heard: AtomicU64::new(0),
        })
    }

    fn follows(&self) -> MutexGuard<'_, Follows<oneshot::Sender<()>>> {
        // Every change to the map is one call that cannot panic half-way: a poisoned lock holds a whole map.
        self.follows.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A room of `game` is held from now on until the returned [`Following`] is dropped.
    pub(crate) fn follow(self: &Arc<Self>, game: &str) -> Following {
        self.follows().follow(game, || {
            let (stop, stopped) = oneshot::channel();
            self.runtime
                .spawn(self.clone().listen(game.to_string(), stopped));
            stop
        });
        Following {
            subscriptions: self.clone(),
            game: game.to_string(),
        }
    }

    pub(crate) fn is_followed(&self, game: &str) -> bool {
        self.follows().is_followed(game)
    }

    pub(crate) fn games(&self) -> usize {
        self.follows().len()
    }

    pub(crate) fn heard(&self) -> u64 {
        self.heard.load(Ordering::Relaxed)
    }

    /// Listens to one game's subject until `stopped`: subscribes, waits until the broker confirmed it, has
    /// the game read again, then hands its events to the appliers (after that read, in the game's order).
    async fn listen(self: Arc<Self>, game: String, mut stopped: oneshot::Receiver<()>) {
        let subject = format!("{SUBJECT_PREFIX}{game}");
        let subscribed = tokio::select! {
            subscribed = self.client.subscribe(subject) => subscribed,
            _ = &mut stopped => return,
        };
        let mut subscriber = match subscribed {
            Ok(subscriber) => subscriber,
            Err(e) => {
                // Only when the client is closed (it queues a subscription while the broker is away).
                tracing::error!(%game, error = %e, "could not subscribe to a game's events");
                return;
            }
        };
        if let Err(e) = broker::confirm_subscriptions(&self.client).await {
            // Read again all the same: the broker is away, and the reload after it comes back reads the rest.
            tracing::warn!(%game, error = %e, "the broker did not confirm a game's subscription");
        }
        if !self.appliers.hand(Work::Followed(game.clone())).await {
            return;
        }
        loop {
            let message = tokio::select! {
                message = subscriber.next() => message,
                _ = &mut stopped => break,
            };
            let Some(message) = message else {
                break;
            };
            self.heard.fetch_add(1, Ordering::Relaxed);
            match GameEvent::parse(&message.payload) {
                Ok(event) if *event.node == *self.node => {}
                Ok(event) => {
                    if !self.appliers.hand(Work::Event(event)).await {
                        break;
                    }
                }
                Err(e) => {
                    tracing::warn!(subject = %message.subject, error = %e, "ignored a message")
                }
            }
        }
        if let Err(e) = subscriber.unsubscribe().await {
            tracing::debug!(%game, error = %e, "an unsubscription was not sent");
        }
    }
}

/// A room's hold on its game's subscription, given back when dropped.
pub struct Following {
    subscriptions: Arc<Subscriptions>,
    game: String,
}

impl std::fmt::Debug for Following {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Following")
            .field("game", &self.game)
            .finish()
    }
}

impl Drop for Following {
    fn drop(&mut self) {
        // The stop line's end, dropped outside the map's lock: its listener unsubscribes.
        let last = self.subscriptions.follows().leave(&self.game);
        drop(last);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_started_by_its_first_room_and_given_up_by_its_last() {
        let mut follows = Follows::default();
        let mut started = 0;
        follows.follow("a", || {
            started += 1;
            "a's"
        });
        follows.follow("a", || {
            started += 1;
            "again"
        });
        follows.follow("b", || {
            started += 1;
            "b's"
        });
        assert_eq!(started, 2, "one start per game");
        assert_eq!(follows.len(), 2);
        assert_eq!(follows.leave("a"), None, "a room of a is still held");
        assert!(follows.is_followed("a"));
        assert_eq!(
            follows.leave("a"),
            Some("a's"),
            "the first start's, given up"
        );
        assert!(!follows.is_followed("a"));
        assert_eq!(follows.leave("a"), None, "no longer followed");
        assert_eq!(follows.len(), 1);
    }

    #[test]
    fn a_game_left_and_followed_again_starts_again() {
        let mut follows = Follows::default();
        follows.follow("a", || 1);
        assert_eq!(follows.leave("a"), Some(1));
        follows.follow("a", || 2);
        assert_eq!(follows.leave("a"), Some(2));
        assert_eq!(follows.leave("never"), None);
        assert_eq!(follows.len(), 0);
    }
}
