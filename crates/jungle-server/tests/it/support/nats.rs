//! The broker for multi-node tests: the machine's NATS (`JUNGLE_TEST_NATS`, default `nats://127.0.0.1:4222`;
//! `scripts/test` makes sure it runs), or a private `nats-server` a test may stop and start again.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The shared broker's address.
pub fn broker_url() -> String {
    std::env::var("JUNGLE_TEST_NATS").unwrap_or_else(|_| "nats://127.0.0.1:4222".to_string())
}

/// A `nats-server` of the test's own on a free loopback port, stopped when dropped.
pub struct PrivateNats {
    pub port: u16,
    /// Its monitoring port (`/varz`).
    monitor_port: u16,
    child: Option<Child>,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl PrivateNats {
    pub fn start() -> PrivateNats {
        let mut nats = PrivateNats {
            port: free_port(),
            monitor_port: free_port(),
            child: None,
        };
        nats.resume();
        nats
    }

    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    /// Starts the server (again) on its port and waits until it takes connections.
    pub fn resume(&mut self) {
        let binary = ["/usr/sbin/nats-server", "/usr/bin/nats-server"]
            .into_iter()
            .find(|path| std::path::Path::new(path).exists())
            .unwrap_or("nats-server");
        let child = Command::new(binary)
            .args(["-a", "127.0.0.1", "-p", &self.port.to_string()])
            .args(["-m", &self.monitor_port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {binary} (apt-get install nats-server): {e}"));
        self.child = Some(child);
        for _ in 0..500 {
            if std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("nats-server never listened on port {}", self.port);
    }

    /// How many subscriptions the server holds now, all its clients together (its monitoring's `/varz`).
    pub fn subscriptions(&self) -> u64 {
        self.varz("subscriptions")
    }

    /// How many messages the server has delivered to its clients since it started.
    pub fn messages_out(&self) -> u64 {
        self.varz("out_msgs")
    }

    /// One count of the server's monitoring page (`/varz`).
    fn varz(&self, count: &str) -> u64 {
        use std::io::{Read, Write};
        let mut monitor = std::net::TcpStream::connect(("127.0.0.1", self.monitor_port))
            .expect("the broker's monitoring port");
        monitor
            .write_all(b"GET /varz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
            .unwrap();
        let mut answer = String::new();
        monitor.read_to_string(&mut answer).unwrap();
        let body = answer.split_once("\r\n\r\n").expect("an HTTP answer").1;
        let varz: serde_json::Value = serde_json::from_str(body).expect("the broker's /varz");
        varz[count]
            .as_u64()
            .unwrap_or_else(|| panic!("a count of {count}"))
    }

    /// Kills the server (the nodes lose their broker).
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for PrivateNats {
    fn drop(&mut self) {
        self.stop();
    }
}
