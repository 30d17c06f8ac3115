//! Numbered jobs on several threads with their results handed on in number order: the self-play commands
//! (`jungle puzzles games`, `jungle explorer collect`) play game N from its number alone, so their output is
//! the same whatever `--jobs`, and a run cut short has printed a prefix that a later run can continue.

use std::collections::BTreeMap;
use std::ops::{ControlFlow, RangeInclusive};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Runs `work` for every number of `numbers` on `jobs` threads and gives each result to `emit` in number order,
/// as soon as every earlier one was given. `emit` breaking stops the run: no further job starts.
pub fn run_in_order<T: Send>(
    numbers: RangeInclusive<u64>,
    jobs: usize,
    work: impl Fn(u64) -> T + Sync,
    emit: impl FnMut(u64, T) -> ControlFlow<()> + Send,
) {
    let (first, last) = (*numbers.start(), *numbers.end());
    let next = AtomicU64::new(first);
    // The next number to emit, the results finished before it, and the emitter: emitting under the lock keeps
    // the order.
    let finished = Mutex::new((first, BTreeMap::new(), emit));
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                loop {
                    let number = next.fetch_add(1, Ordering::SeqCst);
                    if number > last {
                        break;
                    }
                    let result = work(number);
                    let mut guard = finished.lock().expect("not poisoned");
                    let (next_to_emit, waiting, emit) = &mut *guard;
                    waiting.insert(number, result);
                    while let Some(result) = waiting.remove(next_to_emit) {
                        if emit(*next_to_emit, result).is_break() {
                            next.store(last.saturating_add(1), Ordering::SeqCst);
                            return;
                        }
                        *next_to_emit += 1;
                    }
                }
            });
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_number_order_whatever_the_threads() {
        for jobs in [1, 2, 5] {
            let mut seen = Vec::new();
            run_in_order(
                3..=40,
                jobs,
                |n| {
                    // Later numbers finish first.
                    std::thread::sleep(std::time::Duration::from_micros(40 - n));
                    n * 10
                },
                |n, result| {
                    seen.push((n, result));
                    ControlFlow::Continue(())
                },
            );
            let expected: Vec<(u64, u64)> = (3..=40).map(|n| (n, n * 10)).collect();
            assert_eq!(seen, expected, "jobs {jobs}");
        }
    }

    #[test]
    fn a_break_stops_the_run() {
        let started = AtomicU64::new(0);
        let mut seen = Vec::new();
        run_in_order(
            1..=1_000,
            1,
            |n| {
                started.fetch_add(1, Ordering::SeqCst);
                n
            },
            |n, _| {
                seen.push(n);
                if n == 5 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        );
        assert_eq!(seen, [1, 2, 3, 4, 5]);
        assert_eq!(started.load(Ordering::SeqCst), 5);
    }
}
