//! Asking the processor for memory a few games ahead of the one being stepped.
//!
//! At n = 4096 a batch's arrays (about 10 MB) do not stay in the core's caches between two steps, and a game's
//! step stalls on each line it touches. Which lines those are is known from the game's action before its step
//! begins, so the loop names them a few games early and the loads overlap with the work on the games between.

/// The processor's hint to fetch the cache line holding `address` (no-op where there is no stable intrinsic).
#[inline(always)]
#[allow(unsafe_code)]
pub fn prefetch<T>(address: *const T) {
    #[cfg(target_arch = "x86_64")]
    // Safety: a prefetch is only a hint: it never faults and loads nothing the program reads, whatever the
    // address (dangling or past an end included). The gain, measured: 0.77 of the CPU of 2,000 steps of
    // `VectorEnv(4096)` (crates/jungle-py/README.md, "Speed").
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(address.cast())
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}

/// Every cache line of the `len` bytes from `start` (lines of 64 bytes, as on every x86-64).
#[inline(always)]
pub fn prefetch_bytes(start: *const u8, len: usize) {
    for offset in (0..len).step_by(64) {
        prefetch(start.wrapping_add(offset));
    }
    if len > 0 {
        prefetch(start.wrapping_add(len - 1));
    }
}
