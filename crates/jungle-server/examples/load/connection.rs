//! A player's two ways to the server: one-shot HTTP requests and the game's websocket.

use std::net::IpAddr;

use futures_util::StreamExt;
use rand::Rng;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use crate::report::{Failure, Step, Wait};
use crate::target::Target;

pub type Socket = tokio_tungstenite::WebSocketStream<TcpStream>;

/// The CSRF token this client sends as both the `jungle_csrf` cookie and the `X-CSRF-Token` header (the check
/// is a double submit, so a client that is not a browser may pick its own).
const CSRF: &str = "10ad10ad10ad10ad10ad10ad10ad10ad";

/// The most a player's websocket reads from its socket at once.
const READ_BUFFER: usize = 8 * 1024;

/// The largest answer read (the API's answers here are a few hundred bytes).
const MOST_ANSWER_BYTES: u64 = 1 << 20;

/// An HTTP answer: its status, head (status line and headers) and body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub head: String,
    pub body: String,
}

impl Answer {
    /// The `seat_…` cookie the answer sets (header names in any case: nginx capitalises them).
    pub fn seat_cookie(&self) -> Option<String> {
        self.head
            .lines()
            .filter_map(|line| line.split_once(':'))
            .filter(|(name, _)| name.trim().eq_ignore_ascii_case("set-cookie"))
            .filter_map(|(_, value)| value.trim().split(';').next())
            .find(|cookie| cookie.starts_with("seat_"))
            .map(str::to_string)
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.head
            .lines()
            .filter_map(|line| line.split_once(':'))
            .find(|(n, _)| n.trim().eq_ignore_ascii_case(name))
            .map(|(_, value)| value.trim())
    }
}

/// A POST with a JSON body on a connection of its own (`Connection: close`); a 2xx status or a failure.
pub async fn post(
    target: &Target,
    source: Option<IpAddr>,
    step: Step,
    path: &str,
    body: &str,
) -> Result<Answer, Failure> {
    let connect_failed = |e: std::io::Error| Failure::Connect {
        step,
        error: e.kind(),
    };
    let mut stream = target.connect(source).await.map_err(connect_failed)?;
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: application/json\r\n\
         Cookie: jungle_csrf={CSRF}\r\nX-CSRF-Token: {CSRF}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len(),
        host = target.authority,
    );
    stream
        .write_all(request.as_bytes())
        .await
        .map_err(connect_failed)?;
    let mut raw = Vec::new();
    stream
        .take(MOST_ANSWER_BYTES)
        .read_to_end(&mut raw)
        .await
        .map_err(connect_failed)?;
    let text = String::from_utf8_lossy(&raw);
    let unreadable = Failure::BadAnswer {
        step,
        what: "a status line",
    };
    let (head, body) = text.split_once("\r\n\r\n").ok_or(unreadable.clone())?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .ok_or(unreadable)?;
    let mut answer = Answer {
        status,
        head: head.to_string(),
        body: body.to_string(),
    };
    if !(200..300).contains(&answer.status) {
        return Err(Failure::Status { step, status });
    }
    if answer
        .header("transfer-encoding")
        .is_some_and(|v| v.eq_ignore_ascii_case("chunked"))
    {
        answer.body = dechunk(&answer.body).ok_or(Failure::BadAnswer {
            step,
            what: "well-formed chunks",
        })?;
    }
    Ok(answer)
}

/// The body of a `Transfer-Encoding: chunked` answer (a proxy may re-encode the server's answer so).
fn dechunk(mut chunked: &str) -> Option<String> {
    let mut body = String::new();
    loop {
        let (size, rest) = chunked.split_once("\r\n")?;
        let size = usize::from_str_radix(size.split(';').next()?.trim(), 16).ok()?;
        if size == 0 {
            return Some(body);
        }
        body.push_str(rest.get(..size)?);
        chunked = rest.get(size..)?.strip_prefix("\r\n")?;
    }
}

/// Opens game `id`'s websocket on `target` with a seat's cookie.
pub async fn websocket(
    target: &Target,
    source: Option<IpAddr>,
    id: &str,
    cookie: &str,
) -> Result<Socket, Failure> {
    let step = Step::Websocket;
    let mut request = format!("ws://{}/ws/{id}", target.authority)
        .into_client_request()
        .map_err(|_| Failure::BadAnswer {
            step: Step::Create,
            what: "a usable game id",
        })?;
    let cookie = cookie.parse().map_err(|_| Failure::BadAnswer {
        step: Step::Create,
        what: "a usable seat cookie",
    })?;
    request.headers_mut().insert("Cookie", cookie);
    let stream = target.connect(source).await.map_err(|e| Failure::Connect {
        step,
        error: e.kind(),
    })?;
    use tokio_tungstenite::tungstenite::Error;
    // tungstenite zeroes its whole read buffer before each read of the socket (128 KiB by default): that
    // memset was a fifth of this client's CPU. A state is a few KiB; a longer one takes more reads.
    let config = WebSocketConfig::default().read_buffer_size(READ_BUFFER);
    match tokio_tungstenite::client_async_with_config(request, stream, Some(config)).await {
        Ok((socket, _)) => Ok(socket),
        Err(Error::Http(answer)) => Err(Failure::Status {
            step,
            status: answer.status().as_u16(),
        }),
        Err(Error::Io(e)) => Err(Failure::Connect {
            step,
            error: e.kind(),
        }),
        Err(_) => Err(Failure::BadAnswer {
            step,
            what: "a websocket upgrade",
        }),
    }
}

/// What a player reads of a `state` message: whose turn, the ply, one of the legal moves drawn at random (the
/// move the side to move will play; `None` when there is none) and whether it is over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub ply: u64,
    pub blue_to_move: bool,
    pub random_legal: Option<String>,
    pub over: bool,
}

/// A message as the player reads it: its type and the few fields it needs, borrowed from the text (moves and
/// names hold no escapes); every other field (the whole move list, the board, the names) is skipped unread,
/// so a state costs the client a scan rather than a tree of values.
#[derive(serde::Deserialize)]
struct Seen<'a> {
    #[serde(rename = "type", borrow)]
    kind: &'a str,
    #[serde(default)]
    ply: u64,
    #[serde(default, borrow)]
    turn: Option<&'a str>,
    #[serde(default, borrow)]
    legal: Vec<&'a str>,
    #[serde(default)]
    outcome: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    message: Option<String>,
}

/// The next `state` message on a socket; an `error` message is the server refusing what this player sent.
pub async fn next_state(socket: &mut Socket, waiting_for: Wait) -> Result<State, Failure> {
    let closed = Failure::Closed { waiting_for };
    while let Some(frame) = socket.next().await {
        let Ok(frame) = frame else {
            return Err(closed);
        };
        let Message::Text(text) = frame else {
            continue;
        };
        if let Some(seen) = read_state(&text)? {
            return Ok(seen);
        }
    }
    Err(closed)
}

/// A `state` message read; `None` for any other (a heartbeat, news); an `error` message as the refusal it is.
fn read_state(text: &str) -> Result<Option<State>, Failure> {
    let Ok(seen) = serde_json::from_str::<Seen<'_>>(text) else {
        return Ok(None);
    };
    match seen.kind {
        "state" => Ok(Some(State {
            ply: seen.ply,
            blue_to_move: seen.turn == Some("blue"),
            // Drawn here, so only the one move is copied out of the text.
            random_legal: (!seen.legal.is_empty())
                .then(|| seen.legal[rand::rng().random_range(0..seen.legal.len())].to_string()),
            over: seen.outcome.is_some(),
        })),
        "error" => Err(Failure::Refused {
            message: seen.message.unwrap_or_else(|| "?".to_string()),
        }),
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_is_read_and_other_messages_passed_over() {
        let text = r#"{"type":"state","id":"g","moves":["a3a4"],"ply":1,"turn":"red","legal":["g7g6","a7a6"],
                "outcome":null,"players":{"blue":"A \"B\"","red":"C"}}"#;
        let state = read_state(text).unwrap().unwrap();
        assert_eq!(
            (state.ply, state.blue_to_move, state.over),
            (1, false, false)
        );
        let drawn = (0..64)
            .map(|_| read_state(text).unwrap().unwrap().random_legal.unwrap())
            .collect::<std::collections::BTreeSet<_>>();
        assert_eq!(drawn, ["a7a6".to_string(), "g7g6".to_string()].into());
        let over = read_state(
            r#"{"type":"state","ply":9,"turn":"blue","legal":[],"outcome":{"result":"1-0"}}"#,
        );
        let over = over.unwrap().unwrap();
        assert!(over.over && over.random_legal.is_none());
        assert_eq!(read_state(r#"{"type":"heartbeat","at":1}"#).unwrap(), None);
        assert!(matches!(
            read_state(r#"{"type":"error","message":"not \"yours\""}"#),
            Err(Failure::Refused { message }) if message == "not \"yours\""
        ));
    }

    #[test]
    fn chunked_bodies_are_joined_and_bad_ones_refused() {
        assert_eq!(
            dechunk("4\r\n{\"id\r\n3\r\n\":1\r\n1;x=y\r\n}\r\n0\r\n\r\n").as_deref(),
            Some("{\"id\":1}")
        );
        assert_eq!(dechunk("9\r\nshort\r\n0\r\n\r\n"), None);
        assert_eq!(dechunk("zz\r\n"), None);
    }

    #[test]
    fn the_seat_cookie_is_found_in_any_case() {
        let answer = Answer {
            status: 201,
            head: "HTTP/1.1 201 Created\r\nSet-Cookie: jungle_csrf=a; Path=/\r\nSet-Cookie: seat_ab=cd; \
                   HttpOnly"
                .to_string(),
            body: String::new(),
        };
        assert_eq!(answer.seat_cookie().as_deref(), Some("seat_ab=cd"));
    }
}
