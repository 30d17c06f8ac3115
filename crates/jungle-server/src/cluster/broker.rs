//! The connection to the message broker (NATS). The client reconnects by itself and resubscribes; what it
//! cannot give back are the events published while this node was cut off, so after every reconnection the
//! node is told to reload its rooms from the database.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use async_nats::{Client, ConnectOptions, Event};
use futures_util::StreamExt;
use tokio::sync::Notify;

use super::ClusterError;

/// How long the first connection may take before the server refuses to start.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Connects to the broker at `url` as `node`; `reconnected` is notified each time the connection comes back
/// after it was lost.
///
/// # Errors
/// When the broker cannot be reached now (a server is not started without its broker).
pub async fn connect(
    url: &str,
    node: &str,
    reconnected: Arc<Notify>,
) -> Result<Client, ClusterError> {
    let was_lost = Arc::new(AtomicBool::new(false));
    let node_name = node.to_string();
    ConnectOptions::new()
        .name(format!("jungle {node}"))
        .connection_timeout(CONNECT_TIMEOUT)
        .event_callback(move |event| {
            let was_lost = was_lost.clone();
            let reconnected = reconnected.clone();
            let node = node_name.clone();
            async move {
                match event {
                    Event::Disconnected => {
                        was_lost.store(true, Ordering::SeqCst);
                        tracing::warn!(%node, "lost the broker: reconnecting");
                    }
                    Event::Connected if was_lost.swap(false, Ordering::SeqCst) => {
                        tracing::info!(%node, "the broker is back: reloading the rooms held");
                        reconnected.notify_one();
                    }
                    Event::Connected => {}
                    other => tracing::warn!(%node, event = %other, "broker"),
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

/// Waits until the broker has taken every subscription `client` asked for so far.
///
/// `subscribe` returns once the request is queued, and `flush` once it is written to the socket: neither
/// means the server has read it, and an event published by another node before it does is not delivered
/// here. The server reads a connection's requests in order, so a message this client publishes to an
/// inbox of its own and gets back was read after every earlier subscription.
///
/// # Errors
/// When the round trip fails or does not come back within the connection's timeout.
pub async fn confirm_subscriptions(client: &Client) -> Result<(), ClusterError> {
    let broker = |e: &dyn std::fmt::Display| ClusterError::Broker(e.to_string());
    let inbox = client.new_inbox();
    let mut echo = client
        .subscribe(inbox.clone())
        .await
        .map_err(|e| broker(&e))?;
    client
        .publish(inbox, bytes::Bytes::new())
        .await
        .map_err(|e| broker(&e))?;
    let came_back = tokio::time::timeout(CONNECT_TIMEOUT, echo.next())
        .await
        .ok()
        .flatten()
        .is_some();
    let _ = echo.unsubscribe().await;
    if came_back {
        Ok(())
    } else {
        Err(ClusterError::Broker(
            "the broker did not confirm the subscription".into(),
        ))
    }
}
