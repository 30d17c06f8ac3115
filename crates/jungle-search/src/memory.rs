//! How much memory the transposition table may take: never more than the system can give, so a large `Hash`
//! is clamped with a notice instead of aborting the process on a failed allocation.

/// The memory the system reports available to new allocations, in MiB (Linux: `MemAvailable` of
/// `/proc/meminfo`); `None` where it cannot be read.
pub fn available_memory_mb() -> Option<usize> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib >> 10)
}

/// The largest transposition table accepted now, in MiB: half the available memory (the other half stays
/// for the rest of the process, other programs and the page cache), or the protocol maximum where the
/// available memory is unknown (the allocation itself is still fallible).
pub fn max_hash_mb() -> usize {
    available_memory_mb().map_or(crate::EngineOptions::MAX_HASH_MB, |mb| {
        (mb / 2).clamp(1, crate::EngineOptions::MAX_HASH_MB)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_is_within_the_protocol_range_and_below_what_is_available() {
        let limit = max_hash_mb();
        assert!((1..=crate::EngineOptions::MAX_HASH_MB).contains(&limit));
        if let Some(available) = available_memory_mb() {
            assert!(limit <= available.max(1));
        }
    }
}
