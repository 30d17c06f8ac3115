//! Replays issue 12's memory attacks against an in-process server and prints its resident memory:
//! `cargo run --release -p jungle-server --example attack_memory -- [--imports 600] [--sockets 2000] [--unbounded]`.
//!
//! 1. Imports long PGN games (each just under the 64 KiB body limit, thousands of plies under rules without
//!    repetition or quiet-move draws) and views each once (`GET /api/games/ID`).
//! 2. Opens idle websockets to one game.
//!
//! `--unbounded` lifts the memory and connection limits, as the server was before them.

use std::time::Duration;

use futures_util::StreamExt;
use jungle_rules::pgn::PgnGame;
use jungle_rules::{Game, Rules};
use jungle_server::{Config, Limits, Server};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn rss_mib() -> u64 {
    jungle_server::shared::memory::resident_mib().unwrap_or(0)
}

/// The longest shuffling game whose PGN fits in `bytes`.
fn long_pgn(bytes: usize) -> String {
    let rules: Rules = "standard,repetition-draw=0,quiet-ply-limit=0"
        .parse()
        .unwrap();
    let mut plies = 16_000;
    loop {
        let mut game = Game::from_position(rules.clone(), jungle_rules::Position::start(&rules));
        for ply in 0..plies {
            game.play_text(["a3a4", "g7g6", "a4a3", "g6g7"][ply % 4])
                .unwrap();
        }
        let text = PgnGame::new(game).to_string();
        if text.len() < bytes {
            return text;
        }
        plies -= 400;
    }
}

/// The CSRF token sent as both the `jungle_csrf` cookie and the `X-CSRF-Token` header (the check is a double
/// submit, so a client that is not a browser may pick its own).
const CSRF: &str = "a77ac4a77ac4a77ac4a77ac4a77ac4a7";

async fn request(addr: std::net::SocketAddr, head: &str, body: &[u8]) -> String {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut bytes = format!(
        "{head}\r\nHost: {addr}\r\nConnection: close\r\nCookie: jungle_csrf={CSRF}\r\n\
         X-CSRF-Token: {CSRF}\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    bytes.extend_from_slice(body);
    stream.write_all(&bytes).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    answer
}

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map_or(default, |v| v.parse().expect("a number"))
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let imports = arg("--imports", 600);
    let sockets = arg("--sockets", 2000);
    let unbounded = std::env::args().any(|a| a == "--unbounded");
    let mut limits = Limits::default();
    let mut settings = vec![
        "imports-per-minute=1000000",
        "requests-per-minute=1000000",
        "connections-per-client=1000000",
        "connections=1000000",
    ];
    if unbounded {
        settings.extend([
            "rooms-memory-mib=1000000",
            "room-idle-secs=1000000",
            "process-memory-mib=0",
        ]);
    }
    for setting in settings {
        limits.set(setting).unwrap();
    }
    let db = std::env::temp_dir().join(format!("jungle-attack-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&db);
    let config = Config {
        engine_threads: 1,
        limits,
        ..Config::new("127.0.0.1:0".parse().unwrap(), db.clone())
    };
    let server = Server::bind(&config).await.unwrap();
    let addr = server.local_addr().unwrap();
    let state = server.state.clone();
    tokio::spawn(server.run());
    let pgn = long_pgn(64 * 1024);
    println!(
        "limits: {}",
        if unbounded {
            "lifted (as before)"
        } else {
            "default"
        }
    );
    println!(
        "start: {} MiB resident; each import {} bytes",
        rss_mib(),
        pgn.len()
    );
    for i in 1..=imports {
        let head = "POST /api/import HTTP/1.1\r\nContent-Type: application/x-chess-pgn";
        let answer = request(addr, head, pgn.as_bytes()).await;
        let id = answer
            .split("\"id\":\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap_or_else(|| panic!("no id in {answer}"))
            .to_string();
        request(addr, &format!("GET /api/games/{id} HTTP/1.1"), b"").await;
        if i % 100 == 0 || i == imports {
            let (rooms, bytes) = state.rooms_held();
            println!(
                "after {i} imports + views: {} MiB resident, {rooms} rooms held ({} KiB estimated)",
                rss_mib(),
                bytes / 1024
            );
        }
    }
    let before = rss_mib();
    let game = request(
        addr,
        "POST /api/games HTTP/1.1\r\nContent-Type: application/json",
        br#"{"opponent":"friend"}"#,
    )
    .await;
    let id = game
        .split("\"id\":\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap()
        .to_string();
    let mut open = Vec::new();
    for _ in 0..sockets {
        match tokio_tungstenite::connect_async(format!("ws://{addr}/ws/{id}")).await {
            Ok((socket, _)) => open.push(socket.split()),
            Err(e) => {
                println!("websocket refused after {}: {e}", open.len());
                break;
            }
        }
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = rss_mib();
    println!(
        "{} idle websockets: {before} -> {after} MiB resident ({} KiB each)",
        open.len(),
        (after.saturating_sub(before) * 1024) / (open.len().max(1) as u64)
    );
    let _ = std::fs::remove_file(&db);
}
