//! Reading ahead: a batch of thousands of games does not fit in the core's caches, so each game's step used to
//! wait on memory for every line it touched (its `Slot`, the tail of its history, its mask and the rows of its
//! observation it updates), one miss after the other. Reading one byte of each of those lines a few games
//! before the game is stepped lets the misses of several games overlap (the loads do not hold up the step in
//! between: nothing depends on them), so the step itself finds its lines in the cache. Plain loads, not
//! prefetch instructions, which need `unsafe` in this workspace.

use std::hint::black_box;

use super::slot::Slot;
use crate::encoding::{COUNTER_BYTES, PLANE_SIZE, piece_plane};

/// A cache line's size on the machines this runs on (x86-64 and most Arm cores).
const LINE: usize = 64;

/// How many games ahead a game's `Slot` is read, and (half as far) its output rows: far enough for the misses
/// to arrive before the step needs them, near enough for the lines to still be in the cache then.
pub const SLOT_AHEAD: usize = 8;
pub const ROWS_AHEAD: usize = SLOT_AHEAD / 2;

/// One byte of every line of `bytes`.
fn touch(bytes: &[u8]) -> u8 {
    bytes
        .iter()
        .step_by(LINE)
        .chain(bytes.last())
        .fold(0u8, |sum, &b| sum.wrapping_add(b))
}

/// Brings a game's `Slot` and the end of its history into the cache.
pub fn read_slot(slot: &Slot) {
    black_box(slot.touch());
}

/// Brings the lines a game's step will write into the cache: its mask, its counter planes, and the moving
/// piece's squares on its plane (`action` is legal: every action is checked before any game steps).
pub fn read_rows(slot: &Slot, action: i64, observation: &[u8], mask: &[u8]) {
    let m = slot.decode(action as usize);
    let mut sum = touch(mask).wrapping_add(touch(&observation[COUNTER_BYTES]));
    if let Some(piece) = slot.pos.piece_at(m.from) {
        let plane = piece_plane(piece) * PLANE_SIZE;
        sum = sum
            .wrapping_add(observation[plane + m.from.index()])
            .wrapping_add(observation[plane + m.to.index()]);
    }
    black_box(sum);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn touch_reads_every_line_and_the_last_byte() {
        let mut bytes = vec![0u8; 130];
        (bytes[0], bytes[64], bytes[128], bytes[129]) = (1, 2, 4, 8);
        assert_eq!(touch(&bytes), 15);
        assert_eq!(touch(&[]), 0);
    }
}
