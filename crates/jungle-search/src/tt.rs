//! The transposition table: a fixed-size hash table of search results shared by all threads.
//!
//! Each entry is two `AtomicU64`s: the position key xor the data, and the data. A reader recomputes
//! `key ^ data` and only trusts an entry whose stored key matches, so a torn write by another thread (one word
//! from each of two writes) is simply a miss — no locks and no `unsafe` (the "lockless hashing" of Hyatt & Mann).

use std::sync::atomic::{AtomicU64, Ordering};

use jungle_rules::{Move, Square};

/// How the stored score bounds the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The score is a lower bound (the search failed high).
    Lower = 1,
    /// The score is an upper bound (the search failed low).
    Upper = 2,
    Exact = 3,
}

/// A decoded entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TtEntry {
    pub mv: Option<Move>,
    /// Score as stored: mate scores are relative to the node, see [`score_to_tt`].
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

#[derive(Debug, Default)]
struct Slot {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

/// Entries in a cluster: the probe looks at all of them, a store replaces the least valuable.
const CLUSTER: usize = 2;

#[derive(Debug)]
pub(crate) struct TranspositionTable {
    slots: Vec<Slot>,
    clusters: usize,
    generation: AtomicU64,
}

const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

// Data layout: bits 0..12 move (from | to << 6, 0 = none), 12..28 score (i16), 28..44 eval (i16),
// 44..52 depth + DEPTH_OFFSET, 52..54 bound, 54..62 generation.
const DEPTH_OFFSET: i32 = 16;

fn pack(mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, generation: u64) -> u64 {
    let mv_bits = mv.map_or(0, |m| m.from.index() as u64 | (m.to.index() as u64) << 6);
    let score = u64::from(score.clamp(-32_000, 32_000) as i16 as u16);
    let eval = u64::from(eval.clamp(-32_000, 32_000) as i16 as u16);
    let depth = (depth + DEPTH_OFFSET).clamp(0, 255) as u64;
    mv_bits
        | score << 12
        | eval << 28
        | depth << 44
        | (bound as u64) << 52
        | (generation & 0xFF) << 54
}

fn unpack(data: u64) -> Option<TtEntry> {
    let bound = match (data >> 52) & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        3 => Bound::Exact,
        _ => return None,
    };
    let from = (data & 63) as u8;
    let to = ((data >> 6) & 63) as u8;
    let mv = if from == to {
        None
    } else {
        Some(Move::new(Square::new(from)?, Square::new(to)?))
    };
    Some(TtEntry {
        mv,
        score: i32::from(((data >> 12) & 0xFFFF) as u16 as i16),
        eval: i32::from(((data >> 28) & 0xFFFF) as u16 as i16),
        depth: ((data >> 44) & 0xFF) as i32 - DEPTH_OFFSET,
        bound,
    })
}

impl TranspositionTable {
    /// A table of `megabytes` MiB, or `None` when that much memory cannot be had (the allocation is tried
    /// with `try_reserve`, so a size the system refuses is an answer, not an abort).
    pub fn try_new(megabytes: usize) -> Option<TranspositionTable> {
        let bytes = megabytes.max(1).checked_mul(1 << 20)?;
        let clusters = (bytes / SLOT_BYTES / CLUSTER).max(1);
        let mut table = Vec::new();
        table.try_reserve_exact(clusters * CLUSTER).ok()?;
        table.resize_with(clusters * CLUSTER, Slot::default);
        Some(TranspositionTable {
            slots: table,
            clusters,
            generation: AtomicU64::new(0),
        })
    }

    /// The size in MiB.
    pub fn megabytes(&self) -> usize {
        (self.slots.len() * SLOT_BYTES) >> 20
    }

    /// Empties the table (a new game).
    pub fn clear(&self) {
        for slot in &self.slots {
            slot.key_xor_data.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search, so entries of older searches are replaced first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn cluster(&self, key: u64) -> usize {
        ((u128::from(key) * self.clusters as u128) >> 64) as usize * CLUSTER
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let base = self.cluster(key);
        for slot in &self.slots[base..base + CLUSTER] {
            let data = slot.data.load(Ordering::Relaxed);
            if slot.key_xor_data.load(Ordering::Relaxed) ^ data == key {
                return unpack(data);
            }
        }
        None
    }

    #[inline]
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let generation = self.generation.load(Ordering::Relaxed) & 0xFF;
        let base = self.cluster(key);
        let cluster = &self.slots[base..base + CLUSTER];
        // Choose the slot: the same position, else the one of least worth (old generation, shallow depth).
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, slot) in cluster.iter().enumerate() {
            let data = slot.data.load(Ordering::Relaxed);
            if slot.key_xor_data.load(Ordering::Relaxed) ^ data == key {
                victim = i;
                // Keep a deeper result of this search for the same position, but keep its move if we have none.
                if let Some(old) = unpack(data) {
                    let same_generation = (data >> 54) & 0xFF == generation;
                    if same_generation && old.depth > depth + 2 && bound != Bound::Exact {
                        return;
                    }
                    let mv = mv.or(old.mv);
                    let data = pack(mv, score, eval, depth, bound, generation);
                    slot.key_xor_data.store(key ^ data, Ordering::Relaxed);
                    slot.data.store(data, Ordering::Relaxed);
                    return;
                }
                break;
            }
            let worth = match unpack(data) {
                None => i32::MIN,
                Some(old) => {
                    let age = ((generation + 256 - ((data >> 54) & 0xFF)) & 0xFF) as i32;
                    old.depth - 8 * age
                }
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let data = pack(mv, score, eval, depth, bound, generation);
        cluster[victim]
            .key_xor_data
            .store(key ^ data, Ordering::Relaxed);
        cluster[victim].data.store(data, Ordering::Relaxed);
    }

    /// Permille of a sample of slots holding entries of the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 0xFF;
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|s| {
                let data = s.data.load(Ordering::Relaxed);
                unpack(data).is_some() && (data >> 54) & 0xFF == generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_including_negative_scores() {
        let tt = TranspositionTable::try_new(1).unwrap();
        let m = Move::new(Square::A3, Square::A4);
        tt.store(0xDEAD_BEEF, Some(m), -29_990, -123, 7, Bound::Lower);
        let e = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!(e.mv, Some(m));
        assert_eq!(
            (e.score, e.eval, e.depth, e.bound),
            (-29_990, -123, 7, Bound::Lower)
        );
        assert!(tt.probe(0xDEAD_BEEE).is_none());
        tt.store(0x1234, None, 5, 6, -1, Bound::Upper);
        let e = tt.probe(0x1234).unwrap();
        assert_eq!((e.mv, e.depth, e.bound), (None, -1, Bound::Upper));
        tt.clear();
        assert!(tt.probe(0x1234).is_none());
    }

    #[test]
    fn a_table_the_system_cannot_give_is_refused_not_an_abort() {
        // 2^60 bytes: no machine has them; 2^64 MiB overflows the byte count.
        assert!(TranspositionTable::try_new(1 << 40).is_none());
        assert!(TranspositionTable::try_new(usize::MAX).is_none());
        assert_eq!(TranspositionTable::try_new(2).unwrap().megabytes(), 2);
    }
}
