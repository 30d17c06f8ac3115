//! Perft: the number of leaf positions of the legal-move tree to a depth, the standard check of a move
//! generator. Leaves are counted in bulk (the popcount of each piece's target set at depth 1).
//! A decided position (den entered, last piece captured) has no moves; the draw rules are ignored.

use crate::{Move, Position, Rules};

/// The number of leaves `depth` plies below `pos`.
pub fn perft(pos: &Position, rules: &Rules, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(rules) as u64,
        2 => {
            // The leaf parents: play and take back in place rather than copy the position for each child.
            let mut nodes = 0;
            let mut child = *pos;
            pos.for_each_move_set(rules, |_, from, targets| {
                for to in targets {
                    let m = Move::new(from, to);
                    let undo = child.play_undoable(m);
                    nodes += child.count_moves(rules) as u64;
                    child.unplay(m, undo);
                }
            });
            nodes
        }
        _ => {
            let mut nodes = 0;
            pos.for_each_move_set(rules, |_, from, targets| {
                for to in targets {
                    nodes += perft(&pos.after(Move::new(from, to)), rules, depth - 1);
                }
            });
            nodes
        }
    }
}

/// Perft split by root move, sorted by move text, spread over `threads` threads (at least one).
pub fn perft_divide(pos: &Position, rules: &Rules, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let mut moves: Vec<Move> = pos.legal_moves(rules).to_vec();
    moves.sort_by_key(|m| m.to_string());
    if depth == 0 {
        return Vec::new();
    }
    let threads = threads.clamp(1, moves.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut counts = vec![0u64; moves.len()];
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&m) = moves.get(i) else { break };
                        done.push((i, perft(&pos.after(m), rules, depth - 1)));
                    }
                    done
                })
            })
            .collect();
        for worker in workers {
            for (i, n) in worker.join().expect("perft worker panicked") {
                counts[i] = n;
            }
        }
    });
    moves.into_iter().zip(counts).collect()
}

/// Perft over `threads` threads (the root moves are shared out).
pub fn perft_parallel(pos: &Position, rules: &Rules, depth: u32, threads: usize) -> u64 {
    if depth <= 1 || threads <= 1 {
        return perft(pos, rules, depth);
    }
    perft_divide(pos, rules, depth, threads)
        .iter()
        .map(|(_, n)| n)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_perft_matches_the_published_figures() {
        let rules = Rules::default();
        let start = Position::start(&rules);
        let expected = [1, 24, 576, 12240, 260100, 5111725];
        for (depth, want) in expected.into_iter().enumerate() {
            assert_eq!(perft(&start, &rules, depth as u32), want, "depth {depth}");
        }
    }

    #[test]
    fn divide_sums_to_perft_with_any_thread_count() {
        let rules = Rules::default();
        let start = Position::start(&rules);
        for threads in [1, 2, 5] {
            let total: u64 = perft_divide(&start, &rules, 3, threads)
                .iter()
                .map(|(_, n)| n)
                .sum();
            assert_eq!(total, 12240);
        }
        assert_eq!(perft_parallel(&start, &rules, 4, 2), 260100);
    }
}
