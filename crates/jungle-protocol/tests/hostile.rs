//! A hostile or careless client against the protocol (issue 12, item 8): a bare `go` at the end of the
//! input, long `perft` and `bench` runs, a `Hash` the machine cannot give, and a 50 MB line. Each of these
//! hung, blocked, aborted or echoed before the session bounded it.

use std::io::{self, BufRead, Read, Write};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use std::time::Duration;

use jungle_protocol::{MAX_INFO_STRING_CHARS, MAX_LINE_BYTES, Session};

/// Input fed line by line from the test, as a GUI would type it.
struct Typed {
    lines: Receiver<Vec<u8>>,
    current: Vec<u8>,
    at: usize,
}

impl Read for Typed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Typed {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.at == self.current.len() {
            // The test dropping its sender is the end of the input.
            let Ok(next) = self.lines.recv() else {
                return Ok(&[]);
            };
            self.current = next;
            self.at = 0;
        }
        Ok(&self.current[self.at..])
    }

    fn consume(&mut self, n: usize) {
        self.at += n;
    }
}

/// Output handed to the test line by line as the session writes it.
struct Lines {
    pending: Vec<u8>,
    sink: Sender<String>,
}

impl Write for Lines {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            let _ = self
                .sink
                .send(String::from_utf8_lossy(&line[..end]).into_owned());
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A session running on its own thread, typed to and read from by the test.
struct Live {
    input: Option<Sender<Vec<u8>>>,
    output: Receiver<String>,
    session: JoinHandle<()>,
}

/// How long a reply may take before the test calls the session hung. Far above any honest answer (they
/// take milliseconds); it exists so that a hang fails the test instead of stalling CI.
const HANG: Duration = Duration::from_secs(120);

impl Live {
    fn start() -> Live {
        let (input, lines) = channel();
        let (sink, output) = channel();
        let typed = Typed {
            lines,
            current: Vec::new(),
            at: 0,
        };
        let out = Lines {
            pending: Vec::new(),
            sink,
        };
        let session = std::thread::spawn(move || {
            Session::new(typed, out).run().expect("session runs");
        });
        Live {
            input: Some(input),
            output,
            session,
        }
    }

    fn send(&self, text: &str) {
        self.send_bytes(text.as_bytes().to_vec());
    }

    fn send_bytes(&self, bytes: Vec<u8>) {
        self.input
            .as_ref()
            .expect("input open")
            .send(bytes)
            .expect("session reading");
    }

    /// Lines up to and including the first one for which `last` holds.
    fn read_until(&self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self
                .output
                .recv_timeout(HANG)
                .unwrap_or_else(|_| panic!("the session hung; so far: {lines:?}"));
            let done = last(&line);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Ends the input and returns every line written after the last read.
    fn close(mut self) -> Vec<String> {
        drop(self.input.take());
        let mut lines = Vec::new();
        loop {
            match self.output.recv_timeout(HANG) {
                Ok(line) => lines.push(line),
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    panic!("the session did not end at the end of its input; so far: {lines:?}")
                }
            }
        }
        self.session.join().expect("session thread");
        lines
    }
}

#[test]
fn a_bare_go_at_the_end_of_the_input_is_stopped_and_answered() {
    let live = Live::start();
    live.send("position startpos\ngo\n");
    let lines = live.close();
    let best = lines.iter().filter(|l| l.starts_with("bestmove ")).count();
    assert_eq!(best, 1, "{lines:?}");
    assert!(lines.last().unwrap().starts_with("bestmove "));
}

#[test]
fn a_bounded_go_at_the_end_of_the_input_still_finishes() {
    let live = Live::start();
    live.send("go depth 5\n");
    let lines = live.close();
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 5 ")),
        "{lines:?}"
    );
    assert!(lines.last().unwrap().starts_with("bestmove "));
}

#[test]
fn isready_is_answered_during_a_long_perft_and_stop_ends_it() {
    let live = Live::start();
    // perft 9 from the start: about 700 G leaves, hours of work.
    live.send("perft 9\nisready\n");
    let before = live.read_until(|l| l == "readyok");
    assert!(before.iter().all(|l| !l.starts_with("nodes")), "{before:?}");
    live.send("stop\n");
    let after =
        live.read_until(|l| l.starts_with("info string perft stopped") || l.starts_with("nodes"));
    assert!(
        after
            .last()
            .unwrap()
            .starts_with("info string perft stopped"),
        "{after:?}"
    );
    // The session is idle again: a search runs and answers.
    live.send("go depth 2\n");
    live.read_until(|l| l.starts_with("bestmove "));
    assert!(live.close().is_empty());
}

#[test]
fn isready_is_answered_during_a_long_bench_and_stop_ends_it() {
    let live = Live::start();
    live.send("bench 64\nisready\n");
    let before = live.read_until(|l| l == "readyok");
    assert!(before.iter().all(|l| !l.starts_with("Nodes")), "{before:?}");
    live.send("stop\n");
    let after = live.read_until(|l| l.starts_with("Nodes/second"));
    assert!(
        after
            .iter()
            .any(|l| l.starts_with("info string bench stopped after")),
        "{after:?}"
    );
    assert!(after.iter().any(|l| l.starts_with("Nodes searched: ")));
}

#[test]
fn a_hash_the_machine_cannot_give_is_refused_with_a_reason() {
    let limit = jungle_search::max_hash_mb();
    if limit >= jungle_search::EngineOptions::MAX_HASH_MB {
        // A machine with 128 GiB free can give the largest table; there is nothing to refuse.
        return;
    }
    let live = Live::start();
    live.send(&format!(
        "setoption name Hash value {}\ngo depth 1\n",
        jungle_search::EngineOptions::MAX_HASH_MB
    ));
    let lines = live.close();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string Hash 65536 MiB refused")),
        "{lines:?}"
    );
    assert!(lines.last().unwrap().starts_with("bestmove "));
}

#[test]
fn a_50_mb_line_is_skipped_not_echoed_and_the_session_goes_on() {
    let live = Live::start();
    let mut line = vec![b'x'; 50 << 20];
    line.push(b'\n');
    // In pieces, as a pipe delivers it.
    for piece in line.chunks(1 << 16) {
        live.send_bytes(piece.to_vec());
    }
    live.send("isready\n");
    let lines = live.read_until(|l| l == "readyok");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(
        lines[0],
        format!(
            "info string line of {} bytes ignored (at most {MAX_LINE_BYTES})",
            50 << 20
        )
    );
    // A long line under the bound is read, and the reply quoting it is cut short.
    live.send(&format!("{}\nisready\n", "y".repeat(100_000)));
    let lines = live.read_until(|l| l == "readyok");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("info string unknown command"));
    assert!(lines[0].chars().count() <= "info string ".len() + MAX_INFO_STRING_CHARS + 1);
    assert!(live.close().is_empty());
}
