//! Shared test helpers: a real server on a port-0 loopback socket, a minimal HTTP client and websocket
//! clients that carry a seat cookie.
#![allow(dead_code)]

pub mod browser;
pub mod nats;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use jungle_server::{AppState, Config, Server};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// Generous: the machine may be busy with other builds. Tests never assert on time.
pub const PATIENCE: Duration = Duration::from_secs(60);

pub struct TestServer {
    pub addr: SocketAddr,
    pub state: AppState,
    task: tokio::task::JoinHandle<()>,
}

impl TestServer {
    /// Stops the server abruptly (no graceful shutdown): like a killed process, only what was written to the
    /// database survives.
    pub async fn kill(self) {
        self.task.abort();
        let _ = self.task.await;
    }
}

/// The server's config on the database the tests run on: the SQLite file it names, or with
/// `JUNGLE_TEST_SERVER_DB=postgres` (a check run by hand, `docs/server.md`) a PostgreSQL schema of the test
/// server (`JUNGLE_TEST_POSTGRES`) standing for that file — the same one each time the file is named, so a
/// restarted server finds its games. Those schemas stay after the run (named `jungle_test_PID_N`). Tests that
/// read or edit the SQLite file behind the server's back fail on PostgreSQL.
fn on_chosen_database(config: &Config) -> Config {
    use jungle_server::store::scratch::{ScratchSchema, test_postgres_url};
    static SCHEMAS: std::sync::Mutex<Vec<(PathBuf, String)>> = std::sync::Mutex::new(Vec::new());
    if std::env::var("JUNGLE_TEST_SERVER_DB").as_deref() != Ok("postgres") {
        return config.clone();
    }
    let mut schemas = SCHEMAS.lock().unwrap();
    let url = match schemas.iter().find(|(file, _)| *file == config.db) {
        Some((_, url)) => url.clone(),
        None => {
            let schema = ScratchSchema::new(&test_postgres_url()).unwrap_or_else(|e| panic!("{e}"));
            let url = schema.url();
            // Kept for the rest of the run: a restart test opens the same database again.
            std::mem::forget(schema);
            schemas.push((config.db.clone(), url.clone()));
            url
        }
    };
    Config {
        db: PathBuf::from(url),
        ..config.clone()
    }
}

/// A fresh directory for a test's database.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("jungle-server-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub async fn start(db: PathBuf) -> TestServer {
    start_with(db, 2).await
}

pub async fn start_with(db: PathBuf, engine_threads: usize) -> TestServer {
    let config = Config {
        engine_threads,
        ..Config::new("127.0.0.1:0".parse().unwrap(), db)
    };
    start_config(&config).await
}

pub async fn start_config(config: &Config) -> TestServer {
    let config = on_chosen_database(config);
    let server = Server::bind(&config).await.expect("server starts");
    let addr = server.local_addr().unwrap();
    let state = server.state.clone();
    let task = tokio::spawn(async move {
        let _ = server.run().await;
    });
    TestServer { addr, state, task }
}

/// The CSRF token the server at `addr` gave this test client: asked once (opening the home page sets the
/// `jungle_csrf` cookie, even when the API is refusing requests), then kept, like a browser keeps the cookie.
pub async fn csrf_token(addr: SocketAddr) -> String {
    static TOKENS: std::sync::Mutex<Vec<(SocketAddr, String)>> = std::sync::Mutex::new(Vec::new());
    let known = |tokens: &Vec<(SocketAddr, String)>| {
        tokens
            .iter()
            .find(|(a, _)| *a == addr)
            .map(|(_, t)| t.clone())
    };
    if let Some(token) = known(&TOKENS.lock().unwrap()) {
        return token;
    }
    let (status, headers, body) = http_bare(addr, "GET", "/", &[], b"").await;
    assert_eq!(status, 200, "{body}");
    let token = set_cookies(&headers)
        .find_map(|c| c.strip_prefix("jungle_csrf=").map(str::to_string))
        .expect("a CSRF cookie for a client without one");
    let mut tokens = TOKENS.lock().unwrap();
    tokens.push((addr, token.clone()));
    token
}

/// The header lines a page of the site sends with its CSRF cookie: the cookie on every request, and the
/// `X-CSRF-Token` header too on a state-changing one.
pub async fn csrf_lines(addr: SocketAddr, method: &str) -> Vec<String> {
    let token = csrf_token(addr).await;
    let mut lines = vec![format!("Cookie: jungle_csrf={token}")];
    if !matches!(method, "GET" | "HEAD" | "OPTIONS") {
        lines.push(format!("X-CSRF-Token: {token}"));
    }
    lines
}

/// One HTTP/1.1 request over a fresh connection, as the site's pages send it (JSON, with the CSRF cookie and
/// header): (status, headers lowercased, body).
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
    cookie: Option<&str>,
) -> (u16, Vec<(String, String)>, String) {
    let cookie_line = cookie.map(|c| format!("Cookie: {c}")).unwrap_or_default();
    let mut headers = vec!["Content-Type: application/json".to_string()];
    headers.extend(cookie.map(|_| cookie_line));
    http_raw(addr, method, path, &headers, body.as_bytes()).await
}

/// One HTTP/1.1 request with the given header lines and body bytes, plus the CSRF cookie and header the site's
/// pages send ([`csrf_lines`]).
pub async fn http_raw(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[String],
    body: &[u8],
) -> (u16, Vec<(String, String)>, String) {
    let mut lines = csrf_lines(addr, method).await;
    lines.extend_from_slice(headers);
    http_bare(addr, method, path, &lines, body).await
}

/// One HTTP/1.1 request with exactly the given header lines (and `Host`, `Connection`, `Content-Length`).
pub async fn http_bare(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[String],
    body: &[u8],
) -> (u16, Vec<(String, String)>, String) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for line in headers {
        request.push_str(line);
        request.push_str("\r\n");
    }
    request.push_str("\r\n");
    let mut bytes = request.into_bytes();
    bytes.extend_from_slice(body);
    stream.write_all(&bytes).await.unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, rest) = text.split_once("\r\n\r\n").expect("a response head");
    let mut lines = head.lines();
    let status: u16 = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    (status, headers, body)
}

fn dechunk(mut text: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = text.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.push_str(&rest[..size]);
        text = &rest[size + 2..];
    }
    out
}

/// The `name=value` of each of a response's Set-Cookie headers.
pub fn set_cookies(headers: &[(String, String)]) -> impl Iterator<Item = &str> {
    headers
        .iter()
        .filter(|(k, _)| k == "set-cookie")
        .map(|(_, v)| v.split(';').next().unwrap())
}

/// The `name=value` of a response's (first) Set-Cookie header.
pub fn cookie_of(headers: &[(String, String)]) -> Option<String> {
    set_cookies(headers).next().map(str::to_string)
}

/// Creates a game through the API: (id, the creator's cookie).
pub async fn create(addr: SocketAddr, request: &str) -> (String, String) {
    let (status, headers, body) = http(addr, "POST", "/api/games", request, None).await;
    assert_eq!(status, 201, "{body}");
    let value: Value = serde_json::from_str(&body).unwrap();
    (
        value["id"].as_str().unwrap().to_string(),
        cookie_of(&headers).unwrap(),
    )
}

/// Opens the game page as a new visitor and presses "Join"; returns the seat cookie if the visitor got a
/// seat (`None`: no seat was free, the visitor watches).
pub async fn visit(addr: SocketAddr, id: &str) -> Option<String> {
    let (status, headers, _) = http(addr, "GET", &format!("/game/{id}"), "", None).await;
    assert_eq!(status, 200);
    assert_eq!(cookie_of(&headers), None, "opening the page takes no seat");
    let (status, headers, body) =
        http(addr, "POST", &format!("/api/games/{id}/join"), "", None).await;
    match status {
        200 => Some(cookie_of(&headers).expect("a seat cookie")),
        409 => None,
        other => panic!("join answered {other}: {body}"),
    }
}

pub type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// A websocket to `path` on the server at `addr`, sending `cookie` (a `Cookie` header's value) if given.
pub async fn open_socket(addr: SocketAddr, path: &str, cookie: Option<&str>) -> Socket {
    let mut request = format!("ws://{addr}{path}").into_client_request().unwrap();
    if let Some(cookie) = cookie {
        request
            .headers_mut()
            .insert("Cookie", cookie.parse().unwrap());
    }
    let (socket, _) = tokio_tungstenite::connect_async(request)
        .await
        .expect("websocket connects");
    socket
}

/// A websocket client of a game's room.
pub struct Client {
    pub socket: Socket,
    pub seat: Option<String>,
    /// The newest state received.
    pub state: Value,
}

impl Client {
    pub async fn connect(addr: SocketAddr, id: &str, cookie: Option<&str>) -> Client {
        let socket = open_socket(addr, &format!("/ws/{id}"), cookie).await;
        let mut client = Client {
            socket,
            seat: None,
            state: Value::Null,
        };
        let welcome = client.next().await.expect("a welcome");
        assert_eq!(welcome["type"], "welcome");
        client.seat = welcome["seat"].as_str().map(str::to_string);
        let state = client.next().await.expect("a first state");
        assert_eq!(state["type"], "state");
        client
    }

    /// The next JSON message but a heartbeat; `None` when the connection ends.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            let frame = tokio::time::timeout(PATIENCE, self.socket.next())
                .await
                .expect("the server answers in time");
            match frame {
                Some(Ok(Message::Text(text))) => {
                    let value: Value = serde_json::from_str(&text).unwrap();
                    // The server's heartbeat (after a few seconds of silence) says only that it is alive.
                    if value["type"] == "heartbeat" {
                        continue;
                    }
                    if value["type"] == "state" {
                        self.state = value.clone();
                    }
                    return Some(value);
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
                Some(Ok(_)) => {}
            }
        }
    }

    pub async fn send_text(&mut self, text: &str) {
        self.socket.send(Message::Text(text.into())).await.unwrap();
    }

    pub async fn send_move(&mut self, mv: &str) {
        self.send_text(&format!(r#"{{"type":"move","move":"{mv}"}}"#))
            .await;
    }

    /// Waits for a message of a type (`notice`, `error`, ...), skipping others.
    pub async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let message = self.next().await.expect("the connection stays open");
            if message["type"] == kind {
                return message;
            }
        }
    }

    /// Waits for an error reply; returns its message.
    pub async fn expect_error(&mut self) -> String {
        loop {
            let message = self
                .next()
                .await
                .expect("an error reply, not a closed connection");
            if message["type"] == "error" {
                return message["message"].as_str().unwrap().to_string();
            }
        }
    }

    /// Waits for a state that satisfies `done`.
    pub async fn wait_for(&mut self, done: impl Fn(&Value) -> bool) -> Value {
        if done(&self.state) {
            return self.state.clone();
        }
        loop {
            let message = self.next().await.expect("the connection stays open");
            if message["type"] == "state" && done(&message) {
                return message;
            }
        }
    }

    pub async fn wait_for_ply(&mut self, ply: u64) -> Value {
        self.wait_for(|s| s["ply"] == ply).await
    }
}

/// A move's list of legal moves from a state.
pub fn legal(state: &Value) -> Vec<String> {
    state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// The cookie of a seat, read from the server's state (as a browser that already holds it would send it).
pub fn cookie_for(server: &TestServer, id: &str, side: &str) -> String {
    let room = server.state.room(id).unwrap().unwrap();
    let state = room.lock();
    let token = if side == "blue" {
        &state.tokens.blue
    } else {
        &state.tokens.red
    };
    format!("seat_{id}={}", token.clone().unwrap())
}

/// A server on its own runtime: killing it drops every task it had (listener, connections, engine replies,
/// clock timers) at once, like a killed process. Only what it wrote to the database survives.
pub struct IsolatedServer {
    pub addr: SocketAddr,
    pub state: AppState,
    runtime: Option<tokio::runtime::Runtime>,
}

impl IsolatedServer {
    pub fn start(db: PathBuf) -> IsolatedServer {
        IsolatedServer::start_at(db, "127.0.0.1:0".parse().unwrap())
    }

    /// Starts a server at `addr`; a given port may still be held for a moment by the server just killed there,
    /// so binding is retried until it is free.
    pub fn start_at(db: PathBuf, addr: SocketAddr) -> IsolatedServer {
        let deadline = std::time::Instant::now() + PATIENCE;
        while let Err(e) = std::net::TcpListener::bind(addr) {
            assert!(
                std::time::Instant::now() < deadline,
                "{addr} stays taken: {e}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        IsolatedServer::start_config(&on_chosen_database(&Config {
            engine_threads: 2,
            ..Config::new(addr, db)
        }))
    }

    /// Starts a server as `config` says.
    pub fn start_config(config: &Config) -> IsolatedServer {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let server = std::thread::scope(|s| {
            s.spawn(|| {
                runtime
                    .block_on(Server::bind(config))
                    .expect("server starts")
            })
            .join()
            .unwrap()
        });
        let addr = server.local_addr().unwrap();
        let state = server.state.clone();
        runtime.spawn(async move {
            let _ = server.run().await;
        });
        IsolatedServer {
            addr,
            state,
            runtime: Some(runtime),
        }
    }

    pub fn kill(mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

impl Drop for IsolatedServer {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}
