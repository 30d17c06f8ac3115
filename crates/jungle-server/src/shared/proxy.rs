//! The client's address behind a reverse proxy. Behind nginx every connection comes from the proxy, so the
//! per-client limits (requests, game creations, websockets, engine games) would count every player as one
//! client. When the connection comes from a proxy this server was told to trust (`jungle serve
//! --trust-proxy ADDR`), the client is read from the `X-Forwarded-For` header that proxy appends to, and every
//! later step (the guard, the handlers) sees that address instead of the proxy's.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::Response;

/// The header each proxy appends the address it was connected from to (`client, proxy1, proxy2`).
const FORWARDED_FOR: &str = "x-forwarded-for";

/// The proxies whose `X-Forwarded-For` is believed (empty: the header is ignored, the default).
#[derive(Clone, Debug, Default)]
pub struct TrustedProxies(Arc<[IpAddr]>);

impl TrustedProxies {
    pub fn new(addresses: &[IpAddr]) -> TrustedProxies {
        TrustedProxies(addresses.into())
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn trusts(&self, address: IpAddr) -> bool {
        // An IPv4 peer may show up as an IPv4-mapped IPv6 address on a dual-stack socket.
        self.0.contains(&address.to_canonical())
    }

    /// The client a request from `peer` was made by: `peer` itself unless `peer` is a trusted proxy, else the
    /// nearest address in `X-Forwarded-For` that is not a trusted proxy (the ones further left were written by
    /// the client, who can write anything there). `None`: keep `peer` (no header, or a hop that is not an
    /// address where one was expected).
    pub fn client_behind(&self, peer: IpAddr, headers: &HeaderMap) -> Option<IpAddr> {
        if !self.trusts(peer) {
            return None;
        }
        let mut hops = headers
            .get_all(FORWARDED_FOR)
            .iter()
            .rev()
            .flat_map(|value| value.to_str().unwrap_or("").rsplit(','))
            .map(|hop| {
                hop.trim()
                    .parse::<IpAddr>()
                    .ok()
                    .map(|ip| ip.to_canonical())
            });
        let mut nearest = None;
        for hop in &mut hops {
            let hop = hop?;
            nearest = Some(hop);
            if !self.trusts(hop) {
                break;
            }
        }
        nearest
    }
}

/// The middleware: replaces the connection's address with the client's when a trusted proxy forwarded the
/// request.
pub async fn real_client(
    State(trusted): State<TrustedProxies>,
    mut request: Request,
    next: Next,
) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|info| info.0);
    if let Some(peer) = peer
        && let Some(client) = trusted.client_behind(peer.ip(), request.headers())
    {
        request
            .extensions_mut()
            .insert(ConnectInfo(SocketAddr::new(client, peer.port())));
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn forwarded(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append(FORWARDED_FOR, value.parse().unwrap());
        }
        headers
    }

    fn nginx() -> TrustedProxies {
        TrustedProxies::new(&[ip("127.0.0.1"), ip("10.0.0.5")])
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_claims() {
        let headers = forwarded(&["203.0.113.7"]);
        assert_eq!(nginx().client_behind(ip("198.51.100.1"), &headers), None);
        assert_eq!(
            TrustedProxies::default().client_behind(ip("127.0.0.1"), &headers),
            None
        );
    }

    #[test]
    fn a_trusted_proxy_names_the_client() {
        let headers = forwarded(&["203.0.113.7"]);
        assert_eq!(
            nginx().client_behind(ip("127.0.0.1"), &headers),
            Some(ip("203.0.113.7"))
        );
    }

    #[test]
    fn addresses_a_client_wrote_itself_are_passed_over() {
        // The client sent `X-Forwarded-For: 1.2.3.4`; nginx appended the address it really came from.
        let headers = forwarded(&["1.2.3.4, 203.0.113.7"]);
        assert_eq!(
            nginx().client_behind(ip("127.0.0.1"), &headers),
            Some(ip("203.0.113.7"))
        );
    }

    #[test]
    fn a_chain_of_trusted_proxies_is_walked_back_to_the_client() {
        let headers = forwarded(&["1.2.3.4, 203.0.113.7", "10.0.0.5"]);
        assert_eq!(
            nginx().client_behind(ip("127.0.0.1"), &headers),
            Some(ip("203.0.113.7"))
        );
    }

    #[test]
    fn a_malformed_hop_keeps_the_proxy_as_the_client() {
        assert_eq!(
            nginx().client_behind(ip("127.0.0.1"), &forwarded(&["not-an-address"])),
            None
        );
        assert_eq!(
            nginx().client_behind(ip("127.0.0.1"), &HeaderMap::new()),
            None
        );
    }

    #[test]
    fn mapped_ipv4_addresses_count_as_ipv4() {
        let headers = forwarded(&["::ffff:203.0.113.7"]);
        assert_eq!(
            nginx().client_behind(ip("::ffff:127.0.0.1"), &headers),
            Some(ip("203.0.113.7"))
        );
    }
}
