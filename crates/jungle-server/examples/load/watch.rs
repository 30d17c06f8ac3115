//! The CPU time, CPU wait and memory of the server processes under load (`--watch-pids`) and of the client
//! processes, read from Linux's /proc.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the watched processes had used at one moment, summed over them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Usage {
    /// User and system CPU time since each process started.
    pub cpu: Duration,
    /// Time its living threads were ready to run but waited for a CPU (the machine's other work), when the
    /// kernel keeps scheduler statistics.
    pub waiting: Option<Duration>,
    pub resident_kib: u64,
}

/// /proc/PID/stat counts CPU time in clock ticks of `USER_HZ`, which Linux fixes at 100 a second for
/// user space on every architecture it runs on.
const TICKS_PER_SECOND: u64 = 100;

/// The usage of `pid` now.
///
/// # Errors
/// When /proc has no such process (it ended, or this is not Linux) or its files cannot be read.
pub fn usage(pid: u32) -> Result<Usage, String> {
    let read = |file: &str| {
        std::fs::read_to_string(format!("/proc/{pid}/{file}"))
            .map_err(|e| format!("/proc/{pid}/{file}: {e}"))
    };
    let stat = read("stat")?;
    let status = read("status")?;
    let mut usage =
        parse(&stat, &status).ok_or_else(|| format!("/proc/{pid}: unexpected contents"))?;
    usage.waiting = waiting(pid);
    Ok(usage)
}

/// The run-queue wait of every thread of `pid`: the second field of /proc/PID/task/TID/schedstat, in ns.
/// `None` when the kernel keeps no such statistics; a thread that ends meanwhile is left out.
fn waiting(pid: u32) -> Option<Duration> {
    std::fs::metadata(format!("/proc/{pid}/schedstat")).ok()?;
    let nanos = std::fs::read_dir(format!("/proc/{pid}/task"))
        .ok()?
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok())
        .filter_map(|schedstat| schedstat_wait_ns(&schedstat))
        .sum();
    Some(Duration::from_nanos(nanos))
}

fn schedstat_wait_ns(schedstat: &str) -> Option<u64> {
    schedstat.split_whitespace().nth(1)?.parse().ok()
}

fn parse(stat: &str, status: &str) -> Option<Usage> {
    // The command name in parentheses may hold spaces: the fields that follow start after the last ')'.
    // utime and stime are the 14th and 15th fields, the 12th and 13th after the name.
    let mut after_name = stat.rsplit_once(')')?.1.split_whitespace().skip(11);
    let utime: u64 = after_name.next()?.parse().ok()?;
    let stime: u64 = after_name.next()?.parse().ok()?;
    let resident_kib = status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    Some(Usage {
        cpu: Duration::from_millis((utime + stime) * 1000 / TICKS_PER_SECOND),
        waiting: None,
        resident_kib,
    })
}

/// The usage of every pid, summed.
pub fn total(pids: &[u32]) -> Result<Usage, String> {
    let mut sum = Usage {
        cpu: Duration::ZERO,
        waiting: Some(Duration::ZERO),
        resident_kib: 0,
    };
    for &pid in pids {
        let one = usage(pid)?;
        sum.cpu += one.cpu;
        sum.waiting = sum.waiting.zip(one.waiting).map(|(a, b)| a + b);
        sum.resident_kib += one.resident_kib;
    }
    Ok(sum)
}

/// One sample: when, and the usage then (or why it could not be read).
type Sample = (Instant, Result<Usage, String>);

/// Samples taken at the window's start and end (or when the run stops first).
#[derive(Debug)]
pub struct Watch {
    pids: Vec<u32>,
    samples: Arc<Mutex<Vec<Sample>>>,
    task: tokio::task::JoinHandle<()>,
}

/// What the watched processes used over the window.
#[derive(Clone, Debug, PartialEq)]
pub struct Spent {
    pub cpu: Duration,
    /// Ready to run but waiting for a CPU (threads that ended meanwhile are not counted).
    pub waiting: Option<Duration>,
    pub wall: Duration,
    /// At the end of the window.
    pub resident_kib: u64,
}

impl Watch {
    /// Begins watching (on the current tokio runtime): a moment already past is sampled now.
    pub fn start(pids: Vec<u32>, window_start: Instant, end: Instant) -> Watch {
        let mut taken = Vec::new();
        let mut ahead = Vec::new();
        for at in [window_start, end] {
            if at <= Instant::now() {
                taken.push((Instant::now(), total(&pids)));
            } else {
                ahead.push(at);
            }
        }
        let samples = Arc::new(Mutex::new(taken));
        let task = tokio::spawn({
            let samples = Arc::clone(&samples);
            let pids = pids.clone();
            async move {
                for at in ahead {
                    tokio::time::sleep_until(at.into()).await;
                    let usage = total(&pids);
                    samples.lock().expect("samples").push((at, usage));
                }
            }
        });
        Watch {
            pids,
            samples,
            task,
        }
    }

    /// What was spent from the window's start to its end, or to now when the run stopped first; `None` when
    /// the run stopped before the window began.
    pub fn finish(self) -> Option<Result<Spent, String>> {
        self.task.abort();
        let mut samples = std::mem::take(&mut *self.samples.lock().expect("samples"));
        if samples.len() == 1 {
            samples.push((Instant::now(), total(&self.pids)));
        }
        let [(began, before), (ended, after)] = <[_; 2]>::try_from(samples).ok()?;
        Some(before.and_then(|before| {
            let after = after?;
            Ok(Spent {
                cpu: after.cpu.saturating_sub(before.cpu),
                waiting: after
                    .waiting
                    .zip(before.waiting)
                    .map(|(after, before)| after.saturating_sub(before)),
                wall: ended - began,
                resident_kib: after.resident_kib,
            })
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_and_status_are_read_past_a_name_with_spaces() {
        let stat =
            "4242 (jungle serve) S 1 4242 4242 0 -1 4194560 900 0 0 0 250 50 0 0 20 0 5 0 1 0 0";
        let status = "Name:\tjungle\nVmPeak:\t  9000 kB\nVmRSS:\t  123456 kB\nThreads:\t5\n";
        assert_eq!(
            parse(stat, status),
            Some(Usage {
                cpu: Duration::from_secs(3),
                waiting: None,
                resident_kib: 123_456
            })
        );
        assert_eq!(parse("4242 (x) S 1", status), None);
        assert_eq!(schedstat_wait_ns("5000 7000 12\n"), Some(7000));
        assert_eq!(schedstat_wait_ns("5000"), None);
    }

    #[tokio::test]
    #[cfg(target_os = "linux")]
    async fn a_window_is_measured_from_its_start_to_when_the_run_stops() {
        let pid = std::process::id();
        let now = Instant::now();
        let watch = Watch::start(vec![pid], now, now + Duration::from_secs(3600));
        let spent = watch
            .finish()
            .expect("the window began")
            .expect("/proc is readable");
        assert!(spent.resident_kib > 0);
        let later = now + Duration::from_secs(3600);
        let not_begun = Watch::start(vec![pid], later, later + Duration::from_secs(1));
        assert_eq!(not_begun.finish(), None);
        let gone = Watch::start(vec![u32::MAX], now, now + Duration::from_secs(3600));
        assert!(gone.finish().expect("the window began").is_err());
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn this_process_can_be_watched() {
        let usage = usage(std::process::id()).expect("this test runs on Linux");
        assert!(usage.resident_kib > 0);
    }
}
