//! The process's resident memory, for the memory bound (`process-memory-mib`): read from
//! `/proc/self/status` on Linux; elsewhere unknown, and the bound is not enforced.

use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How old a reading [`recent_resident_mib`] may hand out.
const READING_LIFETIME: Duration = Duration::from_secs(1);

/// Resident memory in MiB, if the system says.
pub fn resident_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    parse_vm_rss_kib(&status).map(|kib| kib / 1024)
}

/// Resident memory as read at most a second (`READING_LIFETIME`) ago: the guard asks on every API request, and a
/// fresh reading opens and parses a file.
pub fn recent_resident_mib() -> Option<u64> {
    static LAST: Mutex<Option<(Instant, Option<u64>)>> = Mutex::new(None);
    let mut last = LAST.lock().unwrap_or_else(PoisonError::into_inner);
    match *last {
        Some((read_at, mib)) if read_at.elapsed() < READING_LIFETIME => mib,
        _ => {
            let mib = resident_mib();
            *last = Some((Instant::now(), mib));
            mib
        }
    }
}

/// The `VmRSS:   123456 kB` line of a `/proc/PID/status` text, in KiB.
fn parse_vm_rss_kib(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_resident_size() {
        let status = "Name:\tjungle\nVmPeak:\t  900000 kB\nVmRSS:\t   51234 kB\nThreads:\t4\n";
        assert_eq!(parse_vm_rss_kib(status), Some(51234));
        assert_eq!(parse_vm_rss_kib("Name: x\n"), None);
        if cfg!(target_os = "linux") {
            assert!(resident_mib().is_some());
        }
    }
}
