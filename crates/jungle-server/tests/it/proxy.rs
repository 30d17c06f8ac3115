//! Behind a reverse proxy (`--trust-proxy`): the per-client limits count the clients the proxy names in
//! `X-Forwarded-For`, and nobody else can name a client.

use std::net::SocketAddr;

use crate::support::{http_raw, start_config, temp_dir};
use jungle_server::{Config, Limits};

const NEW_GAME: &[u8] = br#"{"opponent":"friend"}"#;

/// Creates a friend game as the client `forwarded_for` (the header's value, as a proxy sends it): the status.
async fn create_as(addr: SocketAddr, forwarded_for: &str) -> u16 {
    let headers = [
        "Content-Type: application/json".to_string(),
        format!("X-Forwarded-For: {forwarded_for}"),
    ];
    http_raw(addr, "POST", "/api/games", &headers, NEW_GAME)
        .await
        .0
}

async fn server(name: &str, trusted_proxies: &[&str]) -> crate::support::TestServer {
    let mut limits = Limits::default();
    limits.set("creates-per-minute=2").unwrap();
    let config = Config {
        engine_threads: 1,
        limits,
        trusted_proxies: trusted_proxies.iter().map(|a| a.parse().unwrap()).collect(),
        ..Config::new(
            "127.0.0.1:0".parse().unwrap(),
            temp_dir(name).join("games.db"),
        )
    };
    start_config(&config).await
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_limit() {
    let server = server("proxy-trusted", &["127.0.0.1"]).await;
    for _ in 0..2 {
        assert_eq!(create_as(server.addr, "203.0.113.1").await, 201);
    }
    assert_eq!(create_as(server.addr, "203.0.113.1").await, 429);
    // Another player behind the same proxy is not held back by the first one's creations.
    assert_eq!(create_as(server.addr, "203.0.113.2").await, 201);
    // Nor can the first one escape the limit by claiming an address of its own: the proxy appends the real one.
    assert_eq!(
        create_as(server.addr, "198.51.100.9, 203.0.113.1").await,
        429
    );
}

#[tokio::test]
async fn without_trust_the_forwarded_header_is_ignored() {
    let server = server("proxy-untrusted", &[]).await;
    assert_eq!(create_as(server.addr, "203.0.113.1").await, 201);
    assert_eq!(create_as(server.addr, "203.0.113.2").await, 201);
    // Both were counted against the connection's own address.
    assert_eq!(create_as(server.addr, "203.0.113.3").await, 429);
}
