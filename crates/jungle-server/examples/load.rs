//! Load benchmark (not a test): many concurrent PvP games over websockets on loopback.
//!
//! `cargo run --release -p jungle-server --example load -- [--games 500] [--seconds 30] [--pace-ms 500]`
//!
//! Starts a server in this process (its own runtime, a throwaway database), then for each game slot: creates a
//! friend game over HTTP, takes both seats, connects both players' websockets and plays random legal moves,
//! each player waiting about `pace` before moving (like a quick human). When a game ends the slot starts a new
//! one. Latency is measured from sending a move to receiving the new state on the mover's socket (the server
//! has checked it, saved it to SQLite and broadcast it) and on the opponent's socket.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use rand::Rng;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

struct Options {
    games: usize,
    seconds: u64,
    pace_ms: u64,
}

fn options() -> Options {
    let mut options = Options {
        games: 500,
        seconds: 30,
        pace_ms: 500,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).and_then(|v| v.parse::<u64>().ok());
        match (pair[0].as_str(), value) {
            ("--games", Some(v)) => options.games = v as usize,
            ("--seconds", Some(v)) => options.seconds = v,
            ("--pace-ms", Some(v)) => options.pace_ms = v,
            _ => {
                eprintln!("usage: load [--games N] [--seconds S] [--pace-ms MS]");
                std::process::exit(2);
            }
        }
    }
    options
}

/// One HTTP request: (headers, body).
/// The CSRF token this client sends as both the `jungle_csrf` cookie and the `X-CSRF-Token` header (the check
/// is a double submit, so a client that is not a browser may pick its own).
const CSRF: &str = "10ad10ad10ad10ad10ad10ad10ad10ad";

async fn http(addr: SocketAddr, method: &str, path: &str, body: &str) -> (String, String) {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\n\
         Cookie: jungle_csrf={CSRF}\r\nX-CSRF-Token: {CSRF}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.expect("read");
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    (head.to_string(), body.to_string())
}

fn cookie(head: &str) -> String {
    head.lines()
        .filter_map(|l| l.strip_prefix("set-cookie: "))
        .filter_map(|v| v.split(';').next())
        .find(|c| c.starts_with("seat_"))
        .expect("a seat cookie")
        .to_string()
}

async fn connect(addr: SocketAddr, id: &str, cookie: &str) -> Socket {
    let mut request = format!("ws://{addr}/ws/{id}")
        .into_client_request()
        .unwrap();
    request
        .headers_mut()
        .insert("Cookie", cookie.parse().unwrap());
    tokio_tungstenite::connect_async(request)
        .await
        .expect("websocket")
        .0
}

/// The next state message on a socket.
async fn next_state(socket: &mut Socket) -> Option<Value> {
    while let Some(frame) = socket.next().await {
        if let Ok(Message::Text(text)) = frame {
            let value: Value = serde_json::from_str(&text).ok()?;
            if value["type"] == "state" {
                return Some(value);
            }
            if value["type"] == "error" {
                eprintln!("refused: {}", value["message"]);
            }
        } else if frame.is_err() {
            return None;
        }
    }
    None
}

async fn state_with_ply(socket: &mut Socket, ply: u64) -> Option<Value> {
    loop {
        let state = next_state(socket).await?;
        if state["ply"].as_u64() >= Some(ply) {
            return Some(state);
        }
    }
}

#[derive(Default)]
struct SlotReport {
    latencies_us: Vec<u64>,
    moves: u64,
    games_finished: u64,
    failures: u64,
}

/// One game slot: plays games back to back until the deadline.
async fn slot(addr: SocketAddr, deadline: Instant, pace: Duration) -> SlotReport {
    let mut report = SlotReport::default();
    while Instant::now() < deadline {
        let (head, body) = http(
            addr,
            "POST",
            "/api/games",
            r#"{"opponent":"friend","side":"blue"}"#,
        )
        .await;
        let Ok(created) = serde_json::from_str::<Value>(&body) else {
            report.failures += 1;
            continue;
        };
        let id = created["id"].as_str().unwrap().to_string();
        let blue_cookie = cookie(&head);
        let (head, _) = http(addr, "POST", &format!("/api/games/{id}/join"), "").await;
        let red_cookie = cookie(&head);
        let mut blue = connect(addr, &id, &blue_cookie).await;
        let mut red = connect(addr, &id, &red_cookie).await;
        let (Some(mut state), Some(_)) = (next_state(&mut blue).await, next_state(&mut red).await)
        else {
            report.failures += 1;
            continue;
        };
        loop {
            if !state["outcome"].is_null() {
                report.games_finished += 1;
                break;
            }
            if Instant::now() >= deadline {
                break;
            }
            let blue_to_move = state["turn"] == "blue";
            let (mover, other) = if blue_to_move {
                (&mut blue, &mut red)
            } else {
                (&mut red, &mut blue)
            };
            let jitter = rand::rng().random_range(0.5..1.5);
            tokio::time::sleep(pace.mul_f64(jitter)).await;
            let legal = state["legal"].as_array().unwrap();
            let mv = legal[rand::rng().random_range(0..legal.len())]
                .as_str()
                .unwrap()
                .to_string();
            let ply = state["ply"].as_u64().unwrap() + 1;
            let sent = Instant::now();
            if mover
                .send(Message::Text(
                    format!(r#"{{"type":"move","move":"{mv}"}}"#).into(),
                ))
                .await
                .is_err()
            {
                report.failures += 1;
                break;
            }
            let Some(new_state) = state_with_ply(mover, ply).await else {
                report.failures += 1;
                break;
            };
            report.latencies_us.push(sent.elapsed().as_micros() as u64);
            let Some(_) = state_with_ply(other, ply).await else {
                report.failures += 1;
                break;
            };
            report.latencies_us.push(sent.elapsed().as_micros() as u64);
            report.moves += 1;
            state = new_state;
        }
        let _ = blue.close(None).await;
        let _ = red.close(None).await;
    }
    report
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index] as f64 / 1000.0
}

fn main() {
    let options = options();
    let db = std::env::temp_dir().join(format!("jungle-load-{}.db", std::process::id()));
    let server_runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    // Every game's clients come from one address here: the per-client limits are lifted.
    let mut limits = jungle_server::Limits::default();
    for setting in [
        "connections=1000000",
        "connections-per-client=1000000",
        "creates-per-minute=1000000",
        "requests-per-minute=1000000",
        "messages-per-minute=1000000",
    ] {
        limits.set(setting).expect("a known limit");
    }
    let config = jungle_server::Config {
        engine_threads: 1,
        limits,
        ..jungle_server::Config::new("127.0.0.1:0".parse().unwrap(), db.clone())
    };
    let server = server_runtime
        .block_on(jungle_server::Server::bind(&config))
        .expect("server starts");
    let addr = server.local_addr().unwrap();
    server_runtime.spawn(async move { server.run().await });

    let client_runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let pace = Duration::from_millis(options.pace_ms);
    println!(
        "load: {} concurrent PvP games for {} s, each player moving after ~{} ms, server at {addr}",
        options.games, options.seconds, options.pace_ms
    );
    let started = Instant::now();
    let deadline = started + Duration::from_secs(options.seconds);
    let reports = client_runtime.block_on(async {
        let tasks: Vec<_> = (0..options.games)
            .map(|_| tokio::spawn(slot(addr, deadline, pace)))
            .collect();
        let mut reports = Vec::new();
        for task in tasks {
            reports.push(task.await.expect("slot task"));
        }
        reports
    });
    let elapsed = started.elapsed().as_secs_f64();
    let mut latencies: Vec<u64> = reports
        .iter()
        .flat_map(|r| r.latencies_us.iter().copied())
        .collect();
    latencies.sort_unstable();
    let moves: u64 = reports.iter().map(|r| r.moves).sum();
    let finished: u64 = reports.iter().map(|r| r.games_finished).sum();
    let failures: u64 = reports.iter().map(|r| r.failures).sum();
    println!("concurrent games: {}", options.games);
    println!("games finished: {finished}");
    println!(
        "moves: {moves} in {elapsed:.1} s = {:.0} moves/s",
        moves as f64 / elapsed
    );
    println!(
        "move latency (send -> new state on both sockets, {} samples): p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        latencies.len(),
        percentile(&latencies, 0.50),
        percentile(&latencies, 0.90),
        percentile(&latencies, 0.99),
        percentile(&latencies, 1.0)
    );
    println!("failures: {failures}");
    client_runtime.shutdown_background();
    server_runtime.shutdown_background();
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
}
