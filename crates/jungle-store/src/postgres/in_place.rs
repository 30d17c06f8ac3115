//! Polling a connection and its statement in the task that waits for them, without that task waking itself.
//!
//! A statement's answer comes out of the connection's future, which [`race`](super::session::race) polls in
//! the waiting task: reading the answer off the socket wakes whoever last polled the answer — that same task,
//! still running. tokio then counts the task as woken while it ran, and once its poll ends it queues the task
//! again and wakes another worker thread to take it: a `futex` system call and a thread woken for a poll that
//! could have happened at once, on every statement (a profile of a node playing moves found 44 % of its
//! `futex` calls there). Here both futures are polled with a waker of their own that, while the task itself
//! polls them, only notes that they asked to be polled again — and the task does that before its poll ends.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Wake, Waker};

/// How many times one poll of the task goes round before it lets the runtime have the task back: a future
/// that asks to be polled again every time (tokio's budget for a task ran out) must not hold the thread.
const ROUNDS: usize = 4;

/// Polls futures in the current task through a waker that does not wake the task while it polls them.
pub(super) struct InPlace {
    shared: Arc<Shared>,
    waker: Waker,
}

struct Shared {
    /// The task is polling the futures now: a wake only asks for another round.
    polling: AtomicBool,
    /// A future asked to be polled again since the round began.
    again: AtomicBool,
    /// The task to wake when it is not polling.
    task: Mutex<Option<Waker>>,
}

impl Wake for Shared {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        // Both sides store before they load (here `again`, there `polling`), so a wake that comes as a
        // round ends is seen by that round's check or wakes the task: never lost.
        self.again.store(true, Ordering::SeqCst);
        if !self.polling.load(Ordering::SeqCst) {
            let task = self.task.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(task) = task.as_ref() {
                task.wake_by_ref();
            }
        }
    }
}

impl InPlace {
    pub fn new() -> InPlace {
        let shared = Arc::new(Shared {
            polling: AtomicBool::new(false),
            again: AtomicBool::new(false),
            task: Mutex::new(None),
        });
        InPlace {
            waker: Waker::from(shared.clone()),
            shared,
        }
    }

    /// Polls `round` (which polls the futures with the context it is given) until it is ready, or nothing it
    /// polled asked to be polled again; the task `cx` belongs to is woken later by any future that was left
    /// waiting.
    pub fn poll<T>(
        &self,
        cx: &mut Context<'_>,
        mut round: impl FnMut(&mut Context<'_>) -> Poll<T>,
    ) -> Poll<T> {
        {
            let mut task = self
                .shared
                .task
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if !task.as_ref().is_some_and(|t| t.will_wake(cx.waker())) {
                *task = Some(cx.waker().clone());
            }
        }
        let mut own = Context::from_waker(&self.waker);
        for _ in 0..ROUNDS {
            self.shared.polling.store(true, Ordering::SeqCst);
            self.shared.again.store(false, Ordering::SeqCst);
            let poll = round(&mut own);
            self.shared.polling.store(false, Ordering::SeqCst);
            if poll.is_ready() || !self.shared.again.load(Ordering::SeqCst) {
                return poll;
            }
        }
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// Counts the wakes of the task that polls.
    struct Counter(AtomicUsize);

    impl Wake for Counter {
        fn wake(self: Arc<Self>) {
            self.wake_by_ref();
        }
        fn wake_by_ref(self: &Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn task() -> (Arc<Counter>, Waker) {
        let counter = Arc::new(Counter(AtomicUsize::new(0)));
        (counter.clone(), Waker::from(counter))
    }

    #[test]
    fn a_wake_during_the_poll_is_another_round_not_a_wake_of_the_task() {
        let (wakes, waker) = task();
        let in_place = InPlace::new();
        let mut rounds = 0;
        // The first round wakes its own waker (as a connection does when it reads an answer), the second
        // finds the answer.
        let poll = in_place.poll(&mut Context::from_waker(&waker), |cx| {
            rounds += 1;
            if rounds == 1 {
                cx.waker().wake_by_ref();
                Poll::Pending
            } else {
                Poll::Ready("answered")
            }
        });
        assert_eq!(poll, Poll::Ready("answered"));
        assert_eq!(rounds, 2);
        assert_eq!(wakes.0.load(Ordering::SeqCst), 0);
    }

    #[test]
    fn a_wake_after_the_poll_wakes_the_task() {
        let (wakes, waker) = task();
        let in_place = InPlace::new();
        let mut kept = None;
        let poll: Poll<()> = in_place.poll(&mut Context::from_waker(&waker), |cx| {
            kept = Some(cx.waker().clone());
            Poll::Pending
        });
        assert!(poll.is_pending());
        assert_eq!(wakes.0.load(Ordering::SeqCst), 0);
        kept.unwrap().wake();
        assert_eq!(wakes.0.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_future_that_always_asks_again_gives_the_thread_back_and_is_woken() {
        let (wakes, waker) = task();
        let in_place = InPlace::new();
        let mut rounds = 0;
        let poll: Poll<()> = in_place.poll(&mut Context::from_waker(&waker), |cx| {
            rounds += 1;
            cx.waker().wake_by_ref();
            Poll::Pending
        });
        assert!(poll.is_pending());
        assert_eq!(rounds, ROUNDS);
        assert_eq!(wakes.0.load(Ordering::SeqCst), 1);
    }
}
