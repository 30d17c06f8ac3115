//! The engine's waiting line: at most `threads` jobs run at once, and a waiting job's place is its arrival
//! time plus the time it will take, so a short job (a low level, a quick analysis) overtakes long ones that
//! arrived a little earlier, while a long job still moves up as time passes and is never starved.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

#[derive(Debug)]
pub struct EngineQueue {
    threads: usize,
    state: Mutex<QueueState>,
}

#[derive(Debug, Default)]
struct QueueState {
    running: usize,
    waiting: BinaryHeap<Reverse<Waiter>>,
    /// Arrival order, to break ties between equal places.
    arrivals: u64,
}

#[derive(Debug)]
struct Waiter {
    place: (Instant, u64),
    wake: oneshot::Sender<()>,
}

impl PartialEq for Waiter {
    fn eq(&self, other: &Waiter) -> bool {
        self.place == other.place
    }
}
impl Eq for Waiter {}
impl PartialOrd for Waiter {
    fn partial_cmp(&self, other: &Waiter) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Waiter {
    fn cmp(&self, other: &Waiter) -> std::cmp::Ordering {
        self.place.cmp(&other.place)
    }
}

/// A running job's thread: dropping it hands the thread to the first waiting job.
#[derive(Debug)]
pub struct Slot {
    queue: Arc<EngineQueue>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.queue.release();
    }
}

/// A job waiting in line. If it is dropped (its request went away) after being handed a thread but before
/// taking it, it hands the thread on, so none is lost.
struct Pending {
    queue: Arc<EngineQueue>,
    woken: Option<oneshot::Receiver<()>>,
}

impl Drop for Pending {
    fn drop(&mut self) {
        if let Some(mut woken) = self.woken.take() {
            woken.close();
            if woken.try_recv().is_ok() {
                self.queue.release();
            }
        }
    }
}

impl EngineQueue {
    pub fn new(threads: usize) -> Arc<EngineQueue> {
        Arc::new(EngineQueue {
            threads: threads.max(1),
            state: Mutex::new(QueueState::default()),
        })
    }

    fn lock(&self) -> MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Jobs waiting for a thread now.
    pub fn waiting(&self) -> usize {
        self.lock().waiting.len()
    }

    /// Waits for a thread for a job expected to take `duration`.
    pub async fn acquire(self: &Arc<Self>, duration: Duration) -> Slot {
        let wake = {
            let mut state = self.lock();
            if state.running < self.threads {
                state.running += 1;
                return Slot {
                    queue: self.clone(),
                };
            }
            let (wake, woken) = oneshot::channel();
            state.arrivals += 1;
            let place = (Instant::now() + duration, state.arrivals);
            state.waiting.push(Reverse(Waiter { place, wake }));
            woken
        };
        // The thread is handed over by `release` (running stays counted).
        let mut pending = Pending {
            queue: self.clone(),
            woken: Some(wake),
        };
        if let Some(woken) = pending.woken.as_mut() {
            let _ = woken.await;
        }
        pending.woken = None;
        Slot {
            queue: self.clone(),
        }
    }

    /// A job ended: its thread goes to the first waiter still waiting, or becomes free.
    fn release(&self) {
        let mut state = self.lock();
        while let Some(Reverse(next)) = state.waiting.pop() {
            if next.wake.send(()).is_ok() {
                return;
            }
            // That waiter gave up (its request was dropped): try the next.
        }
        state.running -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn short_jobs_overtake_long_ones_and_no_thread_is_lost() {
        let queue = EngineQueue::new(1);
        let first = queue.acquire(Duration::from_secs(1)).await;
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for (name, seconds) in [("long", 100), ("long2", 100), ("short", 1)] {
            let line = queue.clone();
            let order = order.clone();
            tasks.push(tokio::spawn(async move {
                let _slot = line.acquire(Duration::from_secs(seconds)).await;
                order.lock().unwrap().push(name);
            }));
            // Let it join the line before the next arrives.
            while queue.waiting() < tasks.len() {
                tokio::task::yield_now().await;
            }
        }
        // A waiter that gives up leaves no hole.
        let quitter = {
            let queue = queue.clone();
            tokio::spawn(async move { queue.acquire(Duration::ZERO).await })
        };
        while queue.waiting() < 4 {
            tokio::task::yield_now().await;
        }
        quitter.abort();
        let _ = quitter.await;
        drop(first);
        for task in tasks {
            task.await.unwrap();
        }
        assert_eq!(*order.lock().unwrap(), ["short", "long", "long2"]);
        assert_eq!(queue.lock().running, 0);
        assert_eq!(queue.waiting(), 0);
    }
}
