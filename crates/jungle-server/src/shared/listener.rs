//! The server's listener: TCP connections whose framework refusals are worded as JSON.
//!
//! hyper answers a request it cannot parse before any middleware sees it, with an empty body: `400` for a
//! garbled request line or header, `414` for an address over 65,534 bytes, `431` for too many or too large
//! headers. Every other refusal of the API is `{"error": ...}` JSON (`guard::json_errors`), so each
//! connection's writes pass through [`JsonRefusals`], which swaps such a bare answer for a worded one. hyper
//! closes the connection after it, so nothing follows the swapped bytes.
//!
//! Each connection also sends its small writes (a move, a clock) at once (`TCP_NODELAY`), rather than holding
//! one back until the previous is acknowledged (Nagle's algorithm).

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use axum::serve::{ListenerExt, TapIo};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

/// The connections the server answers. (Tapped, because axum gives a tapped listener's connections their
/// `ConnectInfo<SocketAddr>`.)
pub fn listening(tcp: TcpListener) -> TapIo<Listener, fn(&mut JsonRefusals<TcpStream>)> {
    Listener(tcp).tap_io(send_at_once)
}

fn send_at_once(io: &mut JsonRefusals<TcpStream>) {
    if let Err(e) = io.inner.set_nodelay(true) {
        tracing::debug!(error = %e, "could not set TCP_NODELAY");
    }
}

/// Accepts TCP connections, each wrapped in [`JsonRefusals`].
#[derive(Debug)]
pub struct Listener(pub TcpListener);

impl axum::serve::Listener for Listener {
    type Io = JsonRefusals<TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        let (stream, addr) = axum::serve::Listener::accept(&mut self.0).await;
        (
            JsonRefusals {
                inner: stream,
                swapping: None,
            },
            addr,
        )
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.0.local_addr()
    }
}

/// A connection whose bare framework refusals are written with a JSON body instead.
#[derive(Debug)]
pub struct JsonRefusals<S> {
    inner: S,
    /// The worded answer being written in place of a bare one.
    swapping: Option<Swap>,
}

#[derive(Debug)]
struct Swap {
    bytes: Vec<u8>,
    written: usize,
    /// How many of the caller's bytes the swapped answer stands for.
    replaces: usize,
}

impl<S: AsyncRead + Unpin> AsyncRead for JsonRefusals<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for JsonRefusals<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.swapping.is_none() {
            match worded(buf) {
                Some(bytes) => {
                    this.swapping = Some(Swap {
                        bytes,
                        written: 0,
                        replaces: buf.len(),
                    })
                }
                None => return Pin::new(&mut this.inner).poll_write(cx, buf),
            }
        }
        let Some(swap) = this.swapping.as_mut() else {
            return Poll::Ready(Ok(0));
        };
        // A write left pending is asked again with the same bytes, so the swap goes on where it stopped.
        while swap.written < swap.bytes.len() {
            let n = ready!(Pin::new(&mut this.inner).poll_write(cx, &swap.bytes[swap.written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            swap.written += n;
        }
        let replaces = swap.replaces.min(buf.len());
        this.swapping = None;
        Poll::Ready(Ok(replaces))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

/// The worded answer for `bytes` when they are one of hyper's bare refusals: a whole response head with an
/// empty body. The application's own errors already carry their JSON and are left alone.
fn worded(bytes: &[u8]) -> Option<Vec<u8>> {
    let rest = bytes.strip_prefix(b"HTTP/1.1 ")?;
    let (status, message) = match rest.get(..4)? {
        b"400 " => (
            "400 Bad Request",
            "bad request: the request line or a header could not be read",
        ),
        b"414 " => (
            "414 URI Too Long",
            "the address is too long (at most 65,534 bytes)",
        ),
        b"431 " => (
            "431 Request Header Fields Too Large",
            "the request's headers are too many or too large",
        ),
        _ => return None,
    };
    let bare = bytes.ends_with(b"\r\n\r\n")
        && bytes
            .windows(b"\r\ncontent-length: 0\r\n".len())
            .any(|w| w.eq_ignore_ascii_case(b"\r\ncontent-length: 0\r\n"));
    if !bare {
        return None;
    }
    let body = serde_json::json!({ "error": message }).to_string();
    Some(
        format!(
            "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
             x-content-type-options: nosniff\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_bare_refusal_is_worded() {
        let bare = b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let worded_answer = String::from_utf8(worded(bare).unwrap()).unwrap();
        assert!(worded_answer.starts_with("HTTP/1.1 414 URI Too Long\r\n"));
        assert!(
            worded_answer
                .ends_with(r#"{"error":"the address is too long (at most 65,534 bytes)"}"#)
        );
        // The application's own 400 with its body, a success, and a head whose body follows are untouched.
        assert!(worded(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 12\r\n\r\n").is_none());
        assert!(worded(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
        assert!(worded(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n{}").is_none());
    }
}
