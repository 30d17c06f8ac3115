//! Open websockets, counted in total and per client address, so no client (and no crowd) can hold more
//! than the limits allow.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};

#[derive(Debug)]
pub struct Connections {
    total_limit: usize,
    per_client_limit: usize,
    open: Mutex<HashMap<IpAddr, usize>>,
}

/// Why a connection was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConnectionRefused {
    #[error("the server has too many open connections; try again later")]
    Full,
    #[error("too many open connections from your address")]
    TooManyFromClient,
}

/// One open connection; dropping it frees its place.
#[derive(Debug)]
pub struct ConnectionPlace {
    connections: Arc<Connections>,
    client: IpAddr,
}

impl Drop for ConnectionPlace {
    fn drop(&mut self) {
        let mut open = self.connections.lock();
        if let Some(count) = open.get_mut(&self.client) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.client);
            }
        }
    }
}

impl Connections {
    pub fn new(total_limit: usize, per_client_limit: usize) -> Arc<Connections> {
        Arc::new(Connections {
            total_limit,
            per_client_limit,
            open: Mutex::new(HashMap::new()),
        })
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<IpAddr, usize>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many connections are open.
    pub fn total(&self) -> usize {
        self.lock().values().sum()
    }

    /// Takes a place for a connection from `client`.
    ///
    /// # Errors
    /// [`ConnectionRefused`] when the total or the client's limit is reached.
    pub fn open(self: &Arc<Self>, client: IpAddr) -> Result<ConnectionPlace, ConnectionRefused> {
        let mut open = self.lock();
        if open.values().sum::<usize>() >= self.total_limit {
            return Err(ConnectionRefused::Full);
        }
        let count = open.entry(client).or_insert(0);
        if *count >= self.per_client_limit {
            return Err(ConnectionRefused::TooManyFromClient);
        }
        *count += 1;
        Ok(ConnectionPlace {
            connections: self.clone(),
            client,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_limited_per_client_and_in_total_and_freed_on_drop() {
        let connections = Connections::new(3, 2);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let a1 = connections.open(a).unwrap();
        let _a2 = connections.open(a).unwrap();
        assert_eq!(
            connections.open(a).unwrap_err(),
            ConnectionRefused::TooManyFromClient
        );
        let _b1 = connections.open(b).unwrap();
        assert_eq!(connections.open(b).unwrap_err(), ConnectionRefused::Full);
        drop(a1);
        assert_eq!(connections.total(), 2);
        let _b2 = connections.open(b).unwrap();
    }
}
