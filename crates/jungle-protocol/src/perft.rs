//! `perft` inside the protocol: the move-path count split into subtrees small enough that a `stop` ends it
//! within milliseconds, while the subtrees themselves use the bulk-counting `jungle_rules::perft`.

use std::sync::atomic::{AtomicBool, Ordering};

use jungle_rules::{Position, Rules, perft};

/// Subtrees of at most this many plies are counted without checking for `stop` (about 5 M leaves, a few
/// milliseconds).
const UNSTOPPABLE_DEPTH: u32 = 5;

/// The leaf count `depth` plies below `pos`, or `None` once `stop` is set.
pub(crate) fn perft_until_stopped(
    pos: &Position,
    rules: &Rules,
    depth: u32,
    stop: &AtomicBool,
) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth <= UNSTOPPABLE_DEPTH {
        return Some(perft(pos, rules, depth));
    }
    let mut total = 0;
    for &m in pos.legal_moves(rules).iter() {
        total += perft_until_stopped(&pos.after(m), rules, depth - 1, stop)?;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_like_perft_and_stops_when_asked() {
        let rules = Rules::default();
        let start = Position::start(&rules);
        let go_on = AtomicBool::new(false);
        assert_eq!(
            perft_until_stopped(&start, &rules, 6, &go_on),
            Some(100_459_989)
        );
        assert_eq!(
            perft_until_stopped(&start, &rules, 6, &AtomicBool::new(true)),
            None
        );
    }
}
