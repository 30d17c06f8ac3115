//! What every websocket of the site shares: the origin check, the frame and buffer limits, the connection
//! limits, and the socket seen as text out and [`Incoming`] frames in.

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode, header};
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use jungle_platform::Hub;
use jungle_platform::connections::{ConnectionPlace, ConnectionRefused};

use crate::shared::error::ApiError;
use crate::shared::relay::Incoming;

/// The largest websocket frame the transport accepts; the protocol's own limit is lower.
pub const MAX_WS_FRAME: usize = 16 * 1024;
/// A websocket's read buffer (the transport's default, 128 KiB, made an idle connection cost that much).
pub const WS_READ_BUFFER: usize = 4 * 1024;

/// Refuses a websocket opened by another site's page (see [`origin_allowed`]).
pub(crate) fn refuse_cross_site(hub: &Hub, headers: &HeaderMap) -> Result<(), ApiError> {
    if origin_allowed(headers, hub.public_origin.as_deref()) {
        Ok(())
    } else {
        Err(ApiError(
            StatusCode::FORBIDDEN,
            "cross-site websocket refused".into(),
        ))
    }
}

/// A websocket upgrade with the frame and buffer limits every socket of the site has.
pub(crate) fn bounded(upgrade: WebSocketUpgrade) -> WebSocketUpgrade {
    upgrade
        .max_message_size(MAX_WS_FRAME)
        .max_frame_size(MAX_WS_FRAME)
        .read_buffer_size(WS_READ_BUFFER)
        .write_buffer_size(0)
}

/// A websocket as the connection loops see it: text out, [`Incoming`] in (pings are the library's business).
pub(crate) fn text_frames(
    socket: WebSocket,
) -> (
    impl Sink<String, Error = axum::Error> + Unpin + Send,
    impl Stream<Item = Incoming> + Unpin + Send,
) {
    let (sink, stream) = socket.split();
    let tx = Box::pin(
        sink.with(|text: String| async move { Ok::<_, axum::Error>(Message::Text(text.into())) }),
    );
    let rx = Box::pin(stream.filter_map(|frame| async move {
        match frame {
            Ok(Message::Text(text)) => Some(Incoming::Text(text.to_string())),
            Ok(Message::Binary(_)) => Some(Incoming::Binary),
            Ok(Message::Ping(_) | Message::Pong(_)) => None,
            Ok(Message::Close(_)) | Err(_) => Some(Incoming::Broken),
        }
    }));
    (tx, rx)
}

/// Counts a new websocket against the connection limits (total and per client).
pub(crate) fn open_connection(
    hub: &Hub,
    client: Option<std::net::IpAddr>,
) -> Result<ConnectionPlace, ApiError> {
    hub.connections
        .open(client.unwrap_or(std::net::IpAddr::from([0, 0, 0, 0])))
        .map_err(|refused| {
            let status = match refused {
                ConnectionRefused::Full => StatusCode::SERVICE_UNAVAILABLE,
                ConnectionRefused::TooManyFromClient => StatusCode::TOO_MANY_REQUESTS,
            };
            ApiError(status, refused.to_string())
        })
}

/// A browser always sends `Origin`; it must name this server, so a page elsewhere cannot act with our
/// cookies. With a configured public origin, only that origin. Without one, the origin must name the `Host`
/// the request was sent to, and that must be `localhost` or an IP address: a DNS-rebinding page has a domain
/// name of its own as both its origin and the `Host`, so it is refused.
pub(crate) fn origin_allowed(headers: &HeaderMap, public_origin: Option<&str>) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        return true; // not a browser
    };
    if let Some(public) = public_origin {
        return origin.trim_end_matches('/') == public.trim_end_matches('/');
    }
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    let origin_host = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"));
    origin_host.is_some() && origin_host == host && origin_host.is_some_and(is_address_or_localhost)
}

/// Whether `host[:port]` names `localhost` or an IP address (not a domain name).
fn is_address_or_localhost(host_port: &str) -> bool {
    let host = match host_port.strip_prefix('[') {
        Some(bracketed) => bracketed.split(']').next().unwrap_or(""),
        None => host_port
            .rsplit_once(':')
            .map_or(host_port, |(host, _)| host),
    };
    host.eq_ignore_ascii_case("localhost") || host.parse::<std::net::IpAddr>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin_headers(origin: &str, host: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::ORIGIN, origin.parse().unwrap());
        headers.insert(header::HOST, host.parse().unwrap());
        headers
    }

    #[test]
    fn websocket_origins_are_checked_against_the_public_origin_or_an_address() {
        let ok = |origin, host, public| origin_allowed(&origin_headers(origin, host), public);
        assert!(ok("http://127.0.0.1:8080", "127.0.0.1:8080", None));
        assert!(ok("http://localhost:8080", "localhost:8080", None));
        assert!(ok("http://[::1]:8080", "[::1]:8080", None));
        assert!(
            !ok("http://evil.example", "127.0.0.1:8080", None),
            "another site"
        );
        assert!(
            !ok("http://evil.example:8080", "evil.example:8080", None),
            "DNS rebinding"
        );
        assert!(!ok("null", "127.0.0.1:8080", None));
        let public = Some("https://jungle.example");
        assert!(ok("https://jungle.example", "jungle.example", public));
        assert!(!ok("http://127.0.0.1:8080", "127.0.0.1:8080", public));
        assert!(!ok("https://evil.example", "jungle.example", public));
        assert!(origin_allowed(&HeaderMap::new(), public), "not a browser");
    }
}
