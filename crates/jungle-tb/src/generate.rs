//! Retrograde analysis of one material.
//!
//! Step 1 (forward, every index in parallel): decode the position; a finished game is a loss in 0 (or, in a
//! hand-made position, a win in 0). Otherwise look at every move: a capture leads into a smaller material
//! whose table is already made (or ends the game), so its value is known now; a quiet move leads to another
//! position of this table. Count the *distinct* quiet successors (by index) plus the captures that are not
//! wins for the opponent: a position is lost when that count reaches zero.
//!
//! Step 2 (backward, level by level): the positions decided at distance `n - 1` are the frontier. For each,
//! un-make every quiet move of the side that just moved (validated by the forward move generator) to find
//! its predecessors. A lost frontier position makes each undecided predecessor a win in `n`; a won one
//! lowers each predecessor's count, and a predecessor whose count reaches zero is lost in `n` (or later, if
//! a capture leads to a slower win for the opponent). Values from captures enter at their own distance.
//! When nothing changes any more, the undecided positions are draws: neither side can force a win.
//!
//! For distances to the next capture ([`Metric::Zeroing`]) the same passes run with every capture counted as
//! the end: a capture's value is its result in the smaller material at distance 0, so the capture itself is a
//! win or loss in 1, like a den entry.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU16, Ordering::Relaxed};

use jungle_rules::terrain::{JUMPS, STEPS};
use jungle_rules::{Bitboard, Move, Position, Rules};
use rayon::prelude::*;

use crate::table::terminal_code;
use crate::value::{self, Code, DRAW, INVALID};
use crate::{Indexer, Material, Metric, Table, TbError};

/// Work items per parallel chunk.
const CHUNK: usize = 4096;

/// How far the generation of one material has come, for progress displays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Forward pass: `done` of `total` indices.
    Scan { done: u64, total: u64 },
    /// Backward pass: positions decided at this distance, and decided so far in all.
    Level { plies: u32, decided: u64 },
}

/// Bytes of working memory per index, at most: the value (2), the successor count (1), the slowest capture
/// loss (2), and the value arriving through a capture (index and value, 8 with padding), which at most one
/// entry per index can have.
const BYTES_PER_INDEX: u64 = 13;

/// The most working memory a material's generation needs, in bytes, not counting its sub-tables.
pub fn working_bytes(indexer: &Indexer) -> u64 {
    indexer.size() * BYTES_PER_INDEX
}

/// Generates the table of a canonical material, with distances of `metric`. `subtables` must hold every
/// material in [`Material::captures_lead_to`] (of either metric: only their results are used for
/// [`Metric::Zeroing`]).
///
/// # Errors
/// [`TbError::MissingTable`] if a sub-table is missing, [`TbError::TooLarge`] if the material has more than
/// `u32::MAX` indices.
pub fn generate(
    material: Material,
    rules: &Rules,
    subtables: &HashMap<Material, Arc<Table>>,
    metric: Metric,
    progress: &(dyn Fn(Stage) + Sync),
) -> Result<Table, TbError> {
    for sub in material.captures_lead_to() {
        if !subtables.contains_key(&sub) {
            return Err(TbError::MissingTable {
                material: sub.to_string(),
            });
        }
    }
    let indexer = Indexer::new(material, rules);
    let size = indexer.size();
    if size > u64::from(u32::MAX) {
        return Err(TbError::TooLarge {
            material: material.to_string(),
            indices: size,
        });
    }
    let size = size as usize;
    let codes: Vec<AtomicU16> = (0..size).map(|_| AtomicU16::new(DRAW)).collect();
    let remaining: Vec<AtomicU8> = (0..size).map(|_| AtomicU8::new(0)).collect();
    let mut floor = vec![0u16; size];
    let ctx = Context {
        indexer: &indexer,
        rules,
        subtables,
        metric,
    };

    // Step 1. Forward scan.
    let scanned = std::sync::atomic::AtomicU64::new(0);
    let scans: Vec<Scan> = floor
        .par_chunks_mut(CHUNK)
        .enumerate()
        .map(|(chunk, floors)| {
            let mut scan = Scan::default();
            let base = chunk * CHUNK;
            for (offset, floor) in floors.iter_mut().enumerate() {
                let idx = base + offset;
                ctx.scan(idx, &codes[idx], &remaining[idx], floor, &mut scan);
            }
            let done = scanned.fetch_add(floors.len() as u64, Relaxed) + floors.len() as u64;
            progress(Stage::Scan {
                done,
                total: size as u64,
            });
            scan
        })
        .collect();
    // Values arriving through captures, by distance. Each list is allocated at its final size so that it
    // never holds spare room (there can be one entry for every index).
    let mut per_distance: Vec<usize> = Vec::new();
    for &(_, code) in scans.iter().flat_map(|scan| &scan.events) {
        let at = value::plies(code) as usize;
        if per_distance.len() <= at {
            per_distance.resize(at + 1, 0);
        }
        per_distance[at] += 1;
    }
    let mut pending: Vec<Vec<(u32, Code)>> =
        per_distance.into_iter().map(Vec::with_capacity).collect();
    let mut frontier = Vec::new();
    for scan in scans {
        frontier.extend(scan.finished);
        for (idx, code) in scan.events {
            schedule(&mut pending, idx, code);
        }
    }

    // Step 2. Backward, one distance at a time.
    let mut decided = frontier.len() as u64;
    progress(Stage::Level { plies: 0, decided });
    let mut n: u32 = 1;
    while !frontier.is_empty() || pending.len() > n as usize {
        if n > value::MAX_PLIES {
            return Err(TbError::TooLarge {
                material: material.to_string(),
                indices: size as u64,
            });
        }
        let results: Vec<LevelResult> = frontier
            .par_chunks(256)
            .map(|chunk| {
                let mut next = Vec::new();
                let mut later = Vec::new();
                let mut preds = Vec::new();
                for &q in chunk {
                    let q_code = codes[q as usize].load(Relaxed);
                    ctx.predecessors(q, &mut preds);
                    for &p in &preds {
                        let p_usize = p as usize;
                        if value::is_loss(q_code) {
                            if codes[p_usize]
                                .compare_exchange(DRAW, value::win_code(n), Relaxed, Relaxed)
                                .is_ok()
                            {
                                next.push(p);
                            }
                        } else if codes[p_usize].load(Relaxed) == DRAW
                            && remaining[p_usize].fetch_sub(1, Relaxed) == 1
                        {
                            let at = u32::from(floor[p_usize]).max(n);
                            if at == n {
                                codes[p_usize].store(value::loss_code(n), Relaxed);
                                next.push(p);
                            } else {
                                later.push((at, p));
                            }
                        }
                    }
                }
                (next, later)
            })
            .collect();
        let mut next = Vec::new();
        for (mut found, later) in results {
            next.append(&mut found);
            for (at, p) in later {
                schedule(&mut pending, p, value::loss_code(at));
            }
        }
        if let Some(events) = pending.get_mut(n as usize) {
            for (idx, code) in std::mem::take(events) {
                let slot = &codes[idx as usize];
                if slot.load(Relaxed) == DRAW {
                    slot.store(code, Relaxed);
                    next.push(idx);
                }
            }
        }
        decided += next.len() as u64;
        progress(Stage::Level { plies: n, decided });
        frontier = next;
        n += 1;
    }
    drop(remaining);
    drop(floor);
    let codes = codes.into_iter().map(AtomicU16::into_inner).collect();
    Ok(Table::from_codes(indexer, codes, metric))
}

/// What one chunk of a level found: positions decided now, and losses due later (distance, index).
type LevelResult = (Vec<u32>, Vec<(u32, u32)>);

/// Enters `code` for index `idx` at the level of its distance.
fn schedule(pending: &mut Vec<Vec<(u32, Code)>>, idx: u32, code: Code) {
    let at = value::plies(code) as usize;
    if pending.len() <= at {
        pending.resize_with(at + 1, Vec::new);
    }
    pending[at].push((idx, code));
}

/// What a forward-scan chunk found: positions finished on the board, and values arriving through captures
/// (index, value; the value's distance is when it takes effect).
#[derive(Default)]
struct Scan {
    finished: Vec<u32>,
    events: Vec<(u32, Code)>,
}

struct Context<'a> {
    indexer: &'a Indexer,
    rules: &'a Rules,
    subtables: &'a HashMap<Material, Arc<Table>>,
    metric: Metric,
}

impl Context<'_> {
    /// The forward scan of one index: its initial code, successor count and capture floor.
    fn scan(
        &self,
        idx: usize,
        code: &AtomicU16,
        remaining: &AtomicU8,
        floor: &mut u16,
        scan: &mut Scan,
    ) {
        let Some(pos) = self.indexer.position_at(idx as u64) else {
            code.store(INVALID, Relaxed);
            return;
        };
        if let Some(end) = terminal_code(&pos, self.rules) {
            code.store(end, Relaxed);
            scan.finished.push(idx as u32);
            return;
        }
        let mut quiet = Vec::with_capacity(32);
        let mut open = 0u32;
        let mut quickest_win: Option<u32> = None;
        let mut slowest_loss = 0u32;
        for m in pos.legal_moves(self.rules).as_slice() {
            let child = pos.after(*m);
            if pos.is_capture(*m) {
                let child_code = self.capture_value(&child);
                if value::is_loss(child_code) {
                    let n = value::plies(child_code) + 1;
                    quickest_win = Some(quickest_win.map_or(n, |w| w.min(n)));
                    open += 1;
                } else if value::is_win(child_code) {
                    slowest_loss = slowest_loss.max(value::plies(child_code) + 1);
                } else {
                    open += 1;
                }
            } else {
                let child_idx = self
                    .indexer
                    .index_of(&child)
                    .expect("a quiet move keeps the material");
                quiet.push(child_idx);
            }
        }
        quiet.sort_unstable();
        quiet.dedup();
        let count = quiet.len() as u32 + open;
        remaining.store(count.min(255) as u8, Relaxed);
        *floor = slowest_loss as u16;
        if let Some(n) = quickest_win {
            scan.events.push((idx as u32, value::win_code(n)));
        } else if count == 0 {
            scan.events
                .push((idx as u32, value::loss_code(slowest_loss)));
        }
    }

    /// The value (for the side to move there) of the position after a capture.
    fn capture_value(&self, child: &Position) -> Code {
        if let Some(end) = terminal_code(child, self.rules) {
            return end;
        }
        let material = Material::of(child).canonical();
        let code = self.subtables[&material]
            .code_of(child)
            .expect("a sub-table covers every position of its material");
        match self.metric {
            Metric::End => code,
            Metric::Zeroing => value::zeroed(code),
        }
    }

    /// The distinct indices of the positions from which one quiet move leads to (an image of) index `q`.
    ///
    /// Un-making moves from the stored position alone is enough: the predecessors of a mirror or colour-swap
    /// image are the images of the predecessors, which have the same indices.
    fn predecessors(&self, q: u32, out: &mut Vec<u32>) {
        out.clear();
        let pos = self
            .indexer
            .position_at(u64::from(q))
            .expect("frontier positions are valid");
        self.unmoves(&pos, out);
        out.sort_unstable();
        out.dedup();
    }

    /// Pushes the index of every position from which a quiet move of the side not to move reaches `pos`.
    fn unmoves(&self, pos: &Position, out: &mut Vec<u32>) {
        let mover = !pos.side_to_move();
        let empty = !pos.occupied();
        for to in pos.side(mover) {
            let animal = pos.piece_at(to).expect("occupied").animal;
            let mut origins = STEPS[to.index()];
            for jump in JUMPS[to.index()].iter().flatten() {
                origins |= Bitboard::from_square(jump.to);
            }
            for from in origins & empty {
                let m = Move::new(from, to);
                let before = pos.retracted(m);
                // The indexer rejects squares the piece may not stand on; the move generator says whether the
                // move was legal there.
                if let Some(idx) = self.indexer.index_of(&before)
                    && !before.is_decided(self.rules)
                    && before.targets_from(self.rules, animal, from).contains(to)
                {
                    out.push(idx as u32);
                }
            }
        }
    }
}
