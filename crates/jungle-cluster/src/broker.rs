//! The connection to the message broker (NATS). The client reconnects by itself and resubscribes; what it
//! cannot give back are the events published while this node was cut off, or those it dropped because this
//! node did not take them fast enough (a slow consumer), so after either the node is told to reload its
//! rooms from the database.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use async_nats::{Client, ConnectOptions, Event, RequestErrorKind, ServerError};
use bytes::Bytes;
use tokio::sync::Notify;

use super::ClusterError;

/// How long the first connection may take before the server refuses to start.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Connects to the broker at `url` as `node`; `events_lost` is notified each time events for this node may
/// have been lost: the connection came back after it was lost, or the client dropped events this node did
/// not take in time (it holds 65,536 for a subscription, its default).
///
/// # Errors
/// When the broker cannot be reached now (a server is not started without its broker).
pub async fn connect(
    url: &str,
    node: &str,
    events_lost: Arc<Notify>,
) -> Result<Client, ClusterError> {
    let was_lost = Arc::new(AtomicBool::new(false));
    let node_name = node.to_string();
    ConnectOptions::new()
        .name(format!("jungle {node}"))
        // The broker does not send this node's own messages back to it: each move's event would come back
        // to the node that made it, to be read and dropped.
        .no_echo()
        .connection_timeout(CONNECT_TIMEOUT)
        .event_callback(move |event| {
            let was_lost = was_lost.clone();
            let events_lost = events_lost.clone();
            let node = node_name.clone();
            async move {
                match &event {
                    Event::Disconnected => tracing::warn!(%node, "lost the broker: reconnecting"),
                    Event::Connected | Event::SlowConsumer(_) => {}
                    other => tracing::warn!(%node, event = %other, "broker"),
                }
                if events_may_be_lost(&event, &was_lost) {
                    tracing::warn!(%node, %event, "events may have been lost: reloading the rooms held");
                    events_lost.notify_one();
                }
            }
        })
        .connect(url)
        .await
        .map_err(|e| ClusterError::Connect {
            url: url.to_string(),
            reason: e.to_string(),
        })
}

/// Whether, after the client's `event`, events for this node may have been lost (so the rooms it holds must
/// be read again): the connection came back after it was lost (`was_lost`, kept from event to event), or the
/// client dropped events because this node's subscription did not take them in time — its buffer was full
/// (`SlowConsumer`, one notice per dropped event) or the broker said so.
fn events_may_be_lost(event: &Event, was_lost: &AtomicBool) -> bool {
    match event {
        Event::Disconnected => {
            was_lost.store(true, Ordering::SeqCst);
            false
        }
        Event::Connected => was_lost.swap(false, Ordering::SeqCst),
        Event::SlowConsumer(_) | Event::ServerError(ServerError::SlowConsumer(_)) => true,
        _ => false,
    }
}

/// Waits until the broker has taken every subscription `client` asked for so far.
///
/// `subscribe` returns once the request is queued, and `flush` once it is written to the socket: neither
/// means the server has read it, and an event published by another node before it does is not delivered
/// here. The server reads a connection's requests in order, so its answer to a request sent after the
/// subscriptions comes after it read every one of them. The request goes to a subject nobody listens on,
/// which the server itself answers ("no responders"): the connection has no echo, so a message to an inbox
/// of its own would never come back.
///
/// # Errors
/// When the round trip fails or does not come back within the connection's timeout.
pub async fn confirm_subscriptions(client: &Client) -> Result<(), ClusterError> {
    let nobody = client.new_inbox();
    let answer = tokio::time::timeout(CONNECT_TIMEOUT, client.request(nobody, Bytes::new())).await;
    match answer {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(e)) if e.kind() == RequestErrorKind::NoResponders => Ok(()),
        Ok(Err(e)) => Err(ClusterError::Broker(e.to_string())),
        Err(_) => Err(ClusterError::Broker(
            "the broker did not confirm the subscription".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reconnection_or_a_dropped_event_means_events_may_be_lost() {
        let was_lost = AtomicBool::new(false);
        assert!(
            !events_may_be_lost(&Event::Connected, &was_lost),
            "the first connection"
        );
        assert!(!events_may_be_lost(&Event::Disconnected, &was_lost));
        assert!(
            events_may_be_lost(&Event::Connected, &was_lost),
            "back after a loss"
        );
        assert!(
            !events_may_be_lost(&Event::Connected, &was_lost),
            "once per loss"
        );
        assert!(events_may_be_lost(&Event::SlowConsumer(1), &was_lost));
        let notice = Event::ServerError(ServerError::SlowConsumer(1));
        assert!(events_may_be_lost(&notice, &was_lost));
        let other = Event::ServerError(ServerError::Other("x".into()));
        assert!(!events_may_be_lost(&other, &was_lost));
    }
}
