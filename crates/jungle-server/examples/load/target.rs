//! A server to load: where to connect, and the name to send as `Host`.

use std::net::{IpAddr, SocketAddr, ToSocketAddrs};

use serde::{Deserialize, Serialize};
use tokio::net::{TcpSocket, TcpStream};

/// One address the games are spread over: a `jungle serve` node or a front door (nginx) before several.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Target {
    /// `host:port`, as written: the `Host` header and the websocket URL's authority.
    pub authority: String,
    pub addr: SocketAddr,
}

impl Target {
    /// `http://host:port`, `host:port` (a trailing `/` is allowed); the name is resolved now.
    ///
    /// # Errors
    /// For `https://`, another scheme, a path, a missing port or a name that does not resolve.
    pub fn parse(url: &str) -> Result<Target, String> {
        if url.starts_with("https://") {
            return Err(format!(
                "--target {url}: https is not supported, give the plain-HTTP address (the front door's \
                 or a node's)"
            ));
        }
        let authority = url.strip_prefix("http://").unwrap_or(url);
        let authority = authority.strip_suffix('/').unwrap_or(authority);
        if authority.contains('/') || authority.contains("://") {
            return Err(format!(
                "--target {url}: should be http://HOST:PORT (no path)"
            ));
        }
        let addr = authority
            .to_socket_addrs()
            .map_err(|e| format!("--target {url}: {e}"))?
            .next()
            .ok_or_else(|| format!("--target {url}: the name has no address"))?;
        Ok(Target {
            authority: authority.to_string(),
            addr,
        })
    }

    /// A TCP connection to the target, from `source` (port chosen by the system) when given.
    pub async fn connect(&self, source: Option<IpAddr>) -> std::io::Result<TcpStream> {
        let Some(source) = source else {
            return TcpStream::connect(self.addr).await;
        };
        let socket = match source {
            IpAddr::V4(_) => TcpSocket::new_v4()?,
            IpAddr::V6(_) => TcpSocket::new_v6()?,
        };
        socket.bind(SocketAddr::new(source, 0))?;
        socket.connect(self.addr).await
    }
}

/// The source address client process `index` connects from. Every connection to one address and port needs
/// its own local port, and the system has about 28,000 (`net.ipv4.ip_local_port_range`): through one front
/// door 20,000 games' 40,000 websockets would run out. A loopback target is reachable from all of
/// 127.0.0.0/8, so each client process takes its own source address there and its own 28,000 ports.
pub fn source_for_process(targets: &[Target], index: usize) -> Option<IpAddr> {
    let all_loopback_v4 = targets
        .iter()
        .all(|t| t.addr.is_ipv4() && t.addr.ip().is_loopback());
    let host = u8::try_from(2 + index % 250).expect("below 252");
    all_loopback_v4.then(|| IpAddr::from([127, 0, 0, host]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_and_authorities() {
        let target = Target::parse("http://127.0.0.1:8080/").unwrap();
        assert_eq!(target.authority, "127.0.0.1:8080");
        assert_eq!(target.addr, "127.0.0.1:8080".parse().unwrap());
        assert_eq!(
            Target::parse("localhost:9").unwrap().authority,
            "localhost:9"
        );
        assert!(Target::parse("127.0.0.1").is_err(), "no port");
        assert!(Target::parse("http://127.0.0.1:8080/games").is_err());
        assert!(Target::parse("ftp://127.0.0.1:21").is_err());
    }

    #[test]
    fn loopback_targets_get_a_source_address_per_process() {
        let loopback = [Target::parse("127.0.0.1:1").unwrap()];
        assert_eq!(
            source_for_process(&loopback, 0),
            Some(IpAddr::from([127, 0, 0, 2]))
        );
        assert_eq!(
            source_for_process(&loopback, 3),
            Some(IpAddr::from([127, 0, 0, 5]))
        );
        let remote = [Target {
            authority: "x:1".to_string(),
            addr: "192.0.2.1:1".parse().unwrap(),
        }];
        assert_eq!(source_for_process(&remote, 0), None);
    }
}
