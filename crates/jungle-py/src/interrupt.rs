//! Long Rust work with the interpreter released, still answering Ctrl-C.

use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How often the waiting thread looks for pending Python signals.
const SIGNAL_POLL: Duration = Duration::from_millis(25);

/// Runs `work` on a helper thread while this thread, without the GIL, waits for it and checks for Python signals
/// every few milliseconds. On a signal (``KeyboardInterrupt``) it calls `stop`, waits for `work` to return,
/// and raises the signal's exception.
pub fn run_interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> T + Send,
    stop: impl Fn(),
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (tx, rx) = channel();
        scope.spawn(move || {
            let _ = tx.send(work());
        });
        let mut rx = rx;
        loop {
            // The receiver travels to the detached closure and back: it may not be shared between threads.
            let (back, received) = py.detach(move || {
                let received = rx.recv_timeout(SIGNAL_POLL);
                (rx, received)
            });
            rx = back;
            match received {
                Ok(value) => return Ok(value),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(signal) = py.check_signals() {
                        stop();
                        let _ = py.detach(move || rx.recv());
                        return Err(signal);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err("the engine thread failed"));
                }
            }
        }
    })
}
