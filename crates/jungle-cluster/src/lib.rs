//! Several server nodes on one database: any node serves any game.
//!
//! Each node holds in memory the rooms its own connections use, so one game may have a room on several
//! nodes. The database decides everything that must happen once (the unique ply of a move, an ending written
//! only while the game has none, a seat taken only while free, an engine job claimed with a lease). After a
//! change, the node that made it publishes a small [`event::GameEvent`] through the broker (NATS); the other
//! nodes that hold the game catch up from the database and tell their own connections. A node whose room was
//! out of date when it tried to store a move gets the database's refusal, reloads the room and the player is
//! told. A game no node holds is decided, when its time runs out, by a sweep every node runs.
//! See docs/deployment.md, "How nodes cooperate".
//!
//! This crate is the broker and the events only: what a node does with the others' news is its [`Member`]'s
//! business (the server's hub), and nothing here knows of rooms or the database.

mod broker;
pub mod event;
mod interest;
pub mod outbox;
pub mod peers;
pub use interest::Interest;
pub use outbox::Outbox;
pub use peers::PeerNews;

use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use tokio::sync::{Notify, mpsc, oneshot};

use event::GameEvent;
use interest::{News, Router};
use peers::{Heartbeat, Peers};

/// How this node joins the others.
#[derive(Clone, Debug)]
pub struct ClusterConfig {
    /// The broker's address, `nats://127.0.0.1:4222`.
    pub broker: String,
    /// This node's name (in events, logs and engine-job leases): unique among the nodes.
    pub node_id: String,
    /// How long an engine job claimed by a node is its own: another node takes over a job whose node has
    /// not answered within it (the node died).
    pub engine_lease: Duration,
}

impl ClusterConfig {
    /// A node reaching the broker at `broker`, with a fresh random name and the default lease.
    pub fn new(broker: impl Into<String>) -> ClusterConfig {
        ClusterConfig {
            broker: broker.into(),
            node_id: format!("node-{:08x}", rand::random::<u32>()),
            engine_lease: DEFAULT_ENGINE_LEASE,
        }
    }
}

/// Long enough for the slowest level's move (2.5 s) and a wait in the engine's line.
pub const DEFAULT_ENGINE_LEASE: Duration = Duration::from_secs(10);

/// The tasks that apply other nodes' events to this node's rooms. A catch-up may wait for the database; with
/// one task, every game's events would wait behind it (and the broker drops what a slow subscriber does not
/// take). Each task takes the games whose id hashes to it, so a game's events are applied in their order.
const APPLIERS: usize = 8;

/// News waiting for one applier; past this the subscriptions wait (and the broker's own buffers fill).
const APPLIER_BACKLOG: usize = 1024;

/// What a node does with the other nodes' news (the server's hub implements it).
pub trait Member: Send + Sync + 'static {
    /// Another node changed a game.
    fn apply_event(self: &Arc<Self>, event: &GameEvent);
    /// This node now hears `game`'s events (it holds the game since a moment ago, see [`Interest`]): a
    /// change stored before the broker had the subscription is read from the database now.
    fn listening(self: &Arc<Self>, game: &str);
    /// Events meant for this node may have been lost: everything held in memory is read again.
    fn reload_all(self: &Arc<Self>);
    /// Another node went silent or is heard again (see [`peers`]): what it said of its connections to
    /// this node's rooms stops holding, or holds again.
    fn peer_news(self: &Arc<Self>, news: &PeerNews);
}

/// Starts the appliers of `member`'s events; each ends when the member is gone or its line closes.
fn start_appliers<M: Member>(member: &Arc<M>) -> Vec<mpsc::Sender<News>> {
    (0..APPLIERS)
        .map(|_| {
            let (line, mut news) = mpsc::channel::<News>(APPLIER_BACKLOG);
            let member = Arc::downgrade(member);
            tokio::spawn(async move {
                while let Some(news) = news.recv().await {
                    let Some(member) = member.upgrade() else {
                        break;
                    };
                    match news {
                        News::Event(event) => member.apply_event(&event),
                        News::Listening(game) => member.listening(&game),
                    }
                }
            });
            line
        })
        .collect()
}

/// Why a node could not join.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error("cannot reach the broker at {url}: {reason}")]
    Connect { url: String, reason: String },
    #[error("broker: {0}")]
    Broker(String),
}

/// A node's membership: its name, its lease, the line of events it publishes and what it listens to.
#[derive(Debug)]
pub struct Cluster {
    pub node: String,
    pub engine_lease: Duration,
    outbox: Outbox,
    interest: Interest,
    /// Notified when events meant for this node may have been lost: its rooms are read again.
    events_lost: Arc<Notify>,
    /// Dropped with the cluster: the task that reloads the rooms after lost events ends (and lets the
    /// broker's connection go).
    _left: oneshot::Sender<()>,
}

impl Cluster {
    pub fn outbox(&self) -> Outbox {
        self.outbox.clone()
    }

    /// Where the node's rooms say which games it holds: it hears only their events.
    pub fn interest(&self) -> Interest {
        self.interest.clone()
    }

    /// Tells the node that events meant for it were lost, as the broker's client does after a reconnection
    /// or when it dropped events this node did not take in time: every room it holds is read again from the
    /// database. (Public for the tests: a real overload drops a given event only by chance.)
    pub fn events_were_lost(&self) {
        self.events_lost.notify_one();
    }
}

/// Connects `member` to the broker and the other nodes: it publishes its changes through the cluster's
/// [`Outbox`] from now on, and is handed the others' changes to the games its rooms hold (they say which
/// through the cluster's [`Interest`]).
///
/// # Errors
/// When the broker cannot be reached.
pub async fn join<M: Member>(
    member: &Arc<M>,
    config: &ClusterConfig,
) -> Result<Arc<Cluster>, ClusterError> {
    let events_lost = Arc::new(Notify::new());
    let client = broker::connect(&config.broker, &config.node_id, events_lost.clone()).await?;
    let incarnation = rand::random::<u64>();
    let (outbox, mut outgoing) = Outbox::new(&config.node_id, incarnation);
    let publisher = client.clone();
    tokio::spawn(async move {
        while let Some(event) = outgoing.next().await {
            if let Err(e) = publisher
                .publish(event.subject(), event.to_bytes().into())
                .await
            {
                tracing::warn!(game = %event.game, error = %e, "a game event was not published");
            }
        }
    });
    let router = Router::new(start_appliers(member));
    let interest = interest::start(client.clone(), router);
    let heartbeats = client
        .subscribe(peers::SUBJECT)
        .await
        .map_err(|e| ClusterError::Broker(e.to_string()))?;
    // The node has joined once the broker has its subscriptions (and the client its one inbox for the
    // confirmations, so a node's subscriptions are one per game held from now on).
    broker::confirm_subscriptions(&client).await?;
    let me = Heartbeat {
        node: config.node_id.clone(),
        incarnation,
    };
    tokio::spawn(keep_in_touch(
        Arc::downgrade(member),
        client.clone(),
        me,
        heartbeats,
    ));
    let (left, leaving) = oneshot::channel();
    tokio::spawn(reload_after_lost_events(
        Arc::downgrade(member),
        client,
        events_lost.clone(),
        leaving,
    ));
    let cluster = Arc::new(Cluster {
        node: config.node_id.clone(),
        engine_lease: config.engine_lease,
        outbox,
        interest,
        events_lost,
        _left: left,
    });
    tracing::info!(node = %config.node_id, broker = %config.broker, "joined the cluster");
    Ok(cluster)
}

/// Says every [`peers::HEARTBEAT_EVERY`] that this node is alive, hears the others say it, and tells
/// `member` when one goes silent or is heard again. Ends with the member.
async fn keep_in_touch<M: Member>(
    member: Weak<M>,
    client: async_nats::Client,
    me: Heartbeat,
    mut heartbeats: async_nats::Subscriber,
) {
    let mut peers = Peers::default();
    let mut every = tokio::time::interval(peers::HEARTBEAT_EVERY);
    loop {
        let news = tokio::select! {
            // Heartbeats that wait are read before a check: after a stall of this node, the others'
            // heartbeats queued meanwhile say they are alive.
            biased;
            message = heartbeats.next() => {
                let Some(message) = message else { break };
                match Heartbeat::parse(&message.payload) {
                    Some(beat) if beat.node != me.node => {
                        peers.heard(&beat.node, beat.incarnation, Instant::now())
                    }
                    Some(_) => Vec::new(),
                    None => {
                        tracing::warn!(subject = %message.subject, "not a heartbeat");
                        Vec::new()
                    }
                }
            }
            _ = every.tick() => {
                if let Err(e) = client.publish(peers::SUBJECT, me.to_bytes().into()).await {
                    tracing::warn!(error = %e, "the heartbeat was not published");
                }
                peers.check(Instant::now())
            }
        };
        let Some(member) = member.upgrade() else {
            break;
        };
        for news in &news {
            if let PeerNews::Silent { node, .. } = news {
                tracing::warn!(%node, "a node went silent: its connections no longer count");
            }
            member.peer_news(news);
        }
    }
}

/// Events may have been missed (the broker was away, or this node fell behind and the broker's client dropped
/// some): every room held is reloaded from the database — once the broker has the subscription again, so
/// that a change stored after the reload is announced here. Notices that come during a reload make one more
/// reload (the events dropped during this one are read by the next), not one each.
async fn reload_after_lost_events<M: Member>(
    member: Weak<M>,
    client: async_nats::Client,
    events_lost: Arc<Notify>,
    mut leaving: oneshot::Receiver<()>,
) {
    loop {
        tokio::select! {
            () = events_lost.notified() => {}
            _ = &mut leaving => break,
        }
        if let Err(e) = broker::confirm_subscriptions(&client).await {
            // Reloaded all the same: the next reconnection (or the rooms' next events) catches up the rest.
            tracing::warn!(error = %e, "the broker did not confirm the subscription after reconnecting");
        }
        let Some(member) = member.upgrade() else {
            break;
        };
        member.reload_all();
    }
}
