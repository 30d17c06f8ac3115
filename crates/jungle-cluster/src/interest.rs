//! Which games' events this node hears: one broker subscription per game it holds a room of, so the
//! events a node receives grow with the games it holds rather than with every game in play
//! (docs/deployment.md, "Broker traffic per game").
//!
//! A subscription takes effect only once the broker has read it, and an event published before that is not
//! delivered here; a room opened from the database may therefore miss a change made meanwhile. So each time
//! the broker confirms new subscriptions, the member is told ([`super::Member::listening`]) and reads those games
//! again — in the game's line of events, after anything delivered before.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::hash::BuildHasher;
use std::sync::Arc;

use futures_util::StreamExt;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::broker;
use super::event::{GameEvent, SUBJECT_PREFIX};

/// The most subscriptions made before one confirmation: when many rooms open at once (a node's restart, a
/// burst of new games) they share the broker's round trip.
const BATCH: usize = 1024;

/// A change of what a node wants to hear.
#[derive(Debug)]
enum Want {
    Hold(String),
    Release(String),
}

/// Where the rooms say which games this node holds (cheap to clone; every room registry keeps one).
///
/// The line is unbounded: what bounds it is the rooms themselves (one `Hold` when a room enters memory, one
/// `Release` when it leaves), which the node's memory limits bound, and the broker's task empties it as fast
/// as it can subscribe.
#[derive(Clone, Debug)]
pub struct Interest {
    wants: mpsc::UnboundedSender<Want>,
}

impl Interest {
    /// This node now holds `game`: its events are to be heard here.
    pub fn hold(&self, game: &str) {
        let _ = self.wants.send(Want::Hold(game.to_string()));
    }

    /// This node no longer holds `game`.
    pub fn release(&self, game: &str) {
        let _ = self.wants.send(Want::Release(game.to_string()));
    }
}

/// What reaches a member about one game, in the order it happened.
#[derive(Debug)]
pub(crate) enum News {
    /// Another node changed the game.
    Event(GameEvent),
    /// The broker confirmed this node's subscription to the game: what was stored before is read now.
    Listening(String),
}

impl News {
    fn game(&self) -> &str {
        match self {
            News::Event(event) => &event.game,
            News::Listening(game) => game,
        }
    }
}

/// Hands each game's news to the applier that takes that game (so one game's news keep their order). The
/// broker does not deliver this node's own events back to it (`broker::connect`).
#[derive(Clone, Debug)]
pub(crate) struct Router {
    appliers: Arc<[mpsc::Sender<News>]>,
    by_game: std::hash::RandomState,
}

impl Router {
    pub(crate) fn new(appliers: Vec<mpsc::Sender<News>>) -> Router {
        Router {
            appliers: appliers.into(),
            by_game: std::hash::RandomState::new(),
        }
    }

    /// Passes `news` on; `false` once the appliers are gone (the member was dropped).
    async fn pass(&self, news: News) -> bool {
        let applier = self.by_game.hash_one(news.game()) as usize % self.appliers.len();
        self.appliers[applier].send(news).await.is_ok()
    }

    /// Passes on one message of a game's subject (a garbled one is logged and skipped).
    async fn pass_message(&self, message: &async_nats::Message) -> bool {
        match GameEvent::parse(&message.payload) {
            Ok(event) => self.pass(News::Event(event)).await,
            Err(e) => {
                tracing::warn!(subject = %message.subject, error = %e, "ignored a message");
                true
            }
        }
    }
}

/// A game's subscription: how many registries hold the game (an open and a hidden room never share an id,
/// but nothing here relies on it), and the task that passes its messages on.
struct Held {
    holders: usize,
    listener: JoinHandle<()>,
}

/// The subscriptions held; they end with it (each listener's task holds its subscription, which
/// unsubscribes when dropped).
struct Subscriptions {
    client: async_nats::Client,
    router: Router,
    held: HashMap<String, Held>,
}

impl Subscriptions {
    /// One more holder of `game`; whether a subscription was made for it now (its first holder).
    async fn hold(&mut self, game: String) -> bool {
        let entry = match self.held.entry(game) {
            Entry::Occupied(mut entry) => {
                entry.get_mut().holders += 1;
                return false;
            }
            Entry::Vacant(entry) => entry,
        };
        match listen(&self.client, entry.key(), self.router.clone()).await {
            Ok(listener) => {
                entry.insert(Held {
                    holders: 1,
                    listener,
                });
                true
            }
            Err(e) => {
                tracing::warn!(game = %entry.key(), error = %e, "could not subscribe to a game");
                false
            }
        }
    }

    /// One holder fewer of `game`; the last one's release ends the subscription.
    fn release(&mut self, game: String) {
        if let Entry::Occupied(mut entry) = self.held.entry(game) {
            entry.get_mut().holders -= 1;
            if entry.get().holders == 0 {
                entry.remove().listener.abort();
            }
        }
    }
}

impl Drop for Subscriptions {
    fn drop(&mut self) {
        for held in self.held.values() {
            held.listener.abort();
        }
    }
}

/// The task that keeps this node's subscriptions to what its rooms hold, until every [`Interest`] is gone
/// (the hub that holds the rooms was dropped).
pub(crate) fn start(client: async_nats::Client, router: Router) -> Interest {
    let (wants, mut asked) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut subscriptions = Subscriptions {
            client,
            router,
            held: HashMap::new(),
        };
        let mut batch = Vec::new();
        while asked.recv_many(&mut batch, BATCH).await > 0 {
            let mut joined = Vec::new();
            for want in batch.drain(..) {
                match want {
                    Want::Hold(game) => {
                        if subscriptions.hold(game.clone()).await {
                            joined.push(game);
                        }
                    }
                    Want::Release(game) => subscriptions.release(game),
                }
            }
            if joined.is_empty() {
                continue;
            }
            if let Err(e) = broker::confirm_subscriptions(&subscriptions.client).await {
                // Read again all the same: a later change still reaches the room once the broker has it.
                tracing::warn!(error = %e, "the broker did not confirm new subscriptions");
            }
            for game in joined {
                if !subscriptions.router.pass(News::Listening(game)).await {
                    return;
                }
            }
        }
    });
    Interest { wants }
}

/// Subscribes to `game`'s subject; the task passes its messages on until it is aborted (released) or the
/// connection ends.
async fn listen(
    client: &async_nats::Client,
    game: &str,
    router: Router,
) -> Result<JoinHandle<()>, async_nats::SubscribeError> {
    let mut subscription = client.subscribe(format!("{SUBJECT_PREFIX}{game}")).await?;
    Ok(tokio::spawn(async move {
        while let Some(message) = subscription.next().await {
            if !router.pass_message(&message).await {
                break;
            }
        }
    }))
}
