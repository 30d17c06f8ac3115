//! The process's resident memory, for the memory bound (`process-memory-mib`): read from
//! `/proc/self/status` on Linux; elsewhere unknown, and the bound is not enforced.

/// Resident memory in MiB, if the system says.
pub fn resident_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    parse_vm_rss_kib(&status).map(|kib| kib / 1024)
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
