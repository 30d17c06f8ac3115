//! A player as the game page is one, through the front door only: HTTP to create or join a game (with the CSRF
//! cookie the site sets), then a websocket to the game's room that reconnects, like the page, when its node
//! goes away.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::timeout;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// Generous: the machine may be busy. Tests never assert on time; this only bounds a wait that failed.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// As on the game page: a connection on which nothing arrived for this long (a node sends a heartbeat after
/// every 4 s it sent nothing else) is taken for dead.
pub const SILENT: Duration = Duration::from_secs(6);

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// One HTTP/1.0 request (so nginx answers without chunking and closes): (status, Set-Cookie pairs, body).
async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookies: &[String],
    body: &str,
) -> (u16, Vec<String>, String) {
    let mut request = format!(
        "{method} {path} HTTP/1.0\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
        body.len()
    );
    for cookie in cookies {
        request.push_str(&format!("Cookie: {cookie}\r\n"));
        if let Some(token) = cookie.strip_prefix("jungle_csrf=") {
            request.push_str(&format!("X-CSRF-Token: {token}\r\n"));
        }
    }
    request.push_str("\r\n");
    request.push_str(body);
    let exchange = async {
        let mut stream = TcpStream::connect(addr).await?;
        stream.write_all(request.as_bytes()).await?;
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).await?;
        std::io::Result::Ok(raw)
    };
    let raw = timeout(PATIENCE, exchange)
        .await
        .unwrap_or_else(|_| panic!("{method} {path}: no answer"))
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, body) = text.split_once("\r\n\r\n").expect("a response head");
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    let set_cookies = head
        .lines()
        .filter_map(|line| line.split_once(':'))
        .filter(|(name, _)| name.eq_ignore_ascii_case("set-cookie"))
        .map(|(_, value)| value.trim().split(';').next().unwrap().to_string())
        .collect();
    (status, set_cookies, body.to_string())
}

/// A visitor's cookies: the CSRF cookie the home page sets, then each seat's.
pub struct Visitor {
    addr: SocketAddr,
    cookies: Vec<String>,
}

impl Visitor {
    pub async fn arrive(addr: SocketAddr) -> Visitor {
        let (status, cookies, body) = http(addr, "GET", "/", &[], "").await;
        assert_eq!(status, 200, "{body}");
        Visitor { addr, cookies }
    }

    async fn post(&mut self, path: &str, body: &str) -> Value {
        let (status, cookies, answer) = http(self.addr, "POST", path, &self.cookies, body).await;
        assert!(
            (200..300).contains(&status),
            "POST {path}: {status} {answer}"
        );
        self.cookies.extend(cookies);
        serde_json::from_str(&answer).unwrap()
    }

    /// Creates a game (`request` as the home page's form sends it): its id.
    pub async fn create(&mut self, request: &str) -> String {
        let game = self.post("/api/games", request).await;
        game["id"].as_str().expect("a game id").to_string()
    }

    pub async fn join(&mut self, id: &str) {
        self.post(&format!("/api/games/{id}/join"), "").await;
    }

    /// Takes this visitor's seat in game `id` over a websocket.
    pub async fn sit(&self, id: &str) -> Player {
        let mut player = Player {
            addr: self.addr,
            id: id.to_string(),
            cookie: self.cookies.join("; "),
            socket: None,
            seat: String::new(),
            state: Value::Null,
            reconnections: 0,
            request_id: String::new(),
        };
        player.connect().await.expect("the first connection opens");
        player
    }
}

/// A seat's websocket and the newest state it received.
pub struct Player {
    addr: SocketAddr,
    pub id: String,
    cookie: String,
    socket: Option<Socket>,
    pub seat: String,
    pub state: Value,
    /// How often the connection was lost and opened again.
    pub reconnections: usize,
    /// The id nginx gave the upgrade of the current connection (the node that took it logs it).
    pub request_id: String,
}

impl Player {
    /// Opens the websocket (a browser's, with its `Origin`) and reads the welcome and the full state.
    async fn connect(&mut self) -> Result<(), String> {
        let mut request = format!("ws://{}/ws/{}", self.addr, self.id)
            .into_client_request()
            .unwrap();
        let headers = request.headers_mut();
        headers.insert("Cookie", self.cookie.parse().unwrap());
        headers.insert("Origin", format!("http://{}", self.addr).parse().unwrap());
        let (socket, response) = timeout(PATIENCE, tokio_tungstenite::connect_async(request))
            .await
            .map_err(|_| "no answer to the upgrade".to_string())?
            .map_err(|e| e.to_string())?;
        self.request_id = response
            .headers()
            .get("x-request-id")
            .and_then(|id| id.to_str().ok())
            .unwrap_or_default()
            .to_string();
        self.socket = Some(socket);
        let welcome = self.next().await?;
        assert_eq!(welcome["type"], "welcome", "{welcome}");
        self.seat = welcome["seat"].as_str().expect("a seat").to_string();
        self.next_state().await?;
        Ok(())
    }

    /// Opens the websocket again through the front door until it opens (the page's backoff, bounded), asking
    /// first, as the page does, whether the game's node answers: nginx passes a hung one over for the socket.
    pub async fn reconnect(&mut self) {
        self.socket = None;
        self.reconnections += 1;
        let mut delay = Duration::from_millis(100);
        let mut last = String::new();
        let alive = format!("/api/alive/{}", self.id);
        for _ in 0..12 {
            http(self.addr, "GET", &alive, &[], "").await;
            match self.connect().await {
                Ok(()) => return,
                Err(e) => last = e,
            }
            tokio::time::sleep(delay).await;
            delay = (delay * 2).min(Duration::from_secs(3));
        }
        panic!("game {}: cannot reconnect: {last}", self.id);
    }

    /// Whether the connection still answers a ping (after a fault, the ones whose node died do not).
    pub async fn answers(&mut self) -> bool {
        if self.send(r#"{"type":"ping"}"#).await.is_err() {
            return false;
        }
        loop {
            match self.next().await {
                Ok(message) if message["type"] == "pong" => return true,
                Ok(message) if message["type"] == "state" => self.state = message,
                Ok(_) => {}
                Err(_) => return false,
            }
        }
    }

    async fn send(&mut self, text: &str) -> Result<(), String> {
        let socket = self.socket.as_mut().ok_or("not connected")?;
        timeout(PATIENCE, socket.send(Message::text(text)))
            .await
            .map_err(|_| "send timed out".to_string())?
            .map_err(|e| e.to_string())
    }

    /// The next JSON message; an error when the connection closes or stays silent (the page's rule).
    async fn next(&mut self) -> Result<Value, String> {
        let socket = self.socket.as_mut().ok_or("not connected")?;
        loop {
            let frame = timeout(SILENT, socket.next())
                .await
                .map_err(|_| format!("game {}: nothing arrived for {SILENT:?}", self.id))?;
            match frame {
                Some(Ok(Message::Text(text))) => return Ok(serde_json::from_str(&text).unwrap()),
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                Some(Ok(other)) => return Err(format!("closed: {other:?}")),
                Some(Err(e)) => return Err(e.to_string()),
                None => return Err("closed".to_string()),
            }
        }
    }

    /// The next state (skipping other messages), kept as the newest.
    pub async fn next_state(&mut self) -> Result<&Value, String> {
        loop {
            let message = self.next().await?;
            if message["type"] == "state" {
                self.state = message;
                return Ok(&self.state);
            }
        }
    }

    /// Waits until the game reaches `ply` (states arrive after every change).
    pub async fn await_ply(&mut self, ply: usize) -> Result<(), String> {
        while ply_of(&self.state) < ply {
            self.next_state().await?;
        }
        Ok(())
    }

    pub fn my_turn(&self) -> bool {
        self.state["turn"] == self.seat.as_str() && self.state["outcome"].is_null()
    }

    /// Sends a legal move (the `choice`-th, round the list) without waiting for anything: the move sent.
    pub async fn send_move(&mut self, choice: usize) -> Result<String, String> {
        assert!(self.my_turn(), "game {}: not {}'s turn", self.id, self.seat);
        let legal: Vec<&str> = self.state["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let mv = legal[choice % legal.len()].to_string();
        self.send(&format!(r#"{{"type":"move","move":"{mv}"}}"#))
            .await?;
        Ok(mv)
    }

    /// Plays a legal move (the `choice`-th, round the list) and waits for its acknowledgement: the state with
    /// the move in it. `Err`: the move was not acknowledged, and why.
    pub async fn play(&mut self, choice: usize) -> Result<String, NotPlayed> {
        let ply = ply_of(&self.state);
        let mv = self.send_move(choice).await.map_err(NotPlayed::Lost)?;
        loop {
            let message = self.next().await.map_err(NotPlayed::Lost)?;
            match message["type"].as_str() {
                Some("state") => {
                    self.state = message;
                    if ply_of(&self.state) > ply {
                        assert_eq!(moves_of(&self.state)[ply], mv, "game {}", self.id);
                        return Ok(mv);
                    }
                }
                Some("error") => return Err(NotPlayed::Refused(message["message"].to_string())),
                _ => {}
            }
        }
    }
}

/// Why a move was not acknowledged.
#[derive(Debug)]
pub enum NotPlayed {
    /// The server answered with an error (the game is unchanged).
    Refused(String),
    /// The connection closed, or nothing came back.
    Lost(String),
}

pub fn ply_of(state: &Value) -> usize {
    state["ply"].as_u64().expect("a ply") as usize
}

pub fn moves_of(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .expect("the moves")
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}
