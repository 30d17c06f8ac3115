//! Table statistics: the counts split by side to move agree with the positions themselves.

mod common;

use jungle_rules::{BySide, Rules};
use jungle_tb::{Wdl, WdlCounts};

use common::tables_for;

#[test]
fn counts_by_side_to_move_match_the_positions() {
    let rules = Rules::default();
    let tables = tables_for(&["LR-e", "R-r"], &rules);
    for key in ["LR-e", "E-l", "R-r"] {
        let table = &tables[&key.parse().unwrap()];
        let mut expected = BySide::<WdlCounts>::default();
        for idx in 0..table.indexer().size() {
            let Some(pos) = table.indexer().position_at(idx) else {
                continue;
            };
            let counts = &mut expected[pos.side_to_move()];
            match table.probe(&pos).unwrap().wdl {
                Wdl::Win => counts.wins += 1,
                Wdl::Draw => counts.draws += 1,
                Wdl::Loss => counts.losses += 1,
            }
        }
        let stats = table.stats();
        assert_eq!(stats.by_side_to_move, expected, "{key}");
        let sum = |f: fn(&WdlCounts) -> u64| f(&expected.blue) + f(&expected.red);
        assert_eq!(stats.wins, sum(|c| c.wins), "{key}");
        assert_eq!(stats.draws, sum(|c| c.draws), "{key}");
        assert_eq!(stats.losses, sum(|c| c.losses), "{key}");
        // Both sides to move are stored unless the material is symmetric.
        assert_eq!(expected.red == WdlCounts::default(), key == "R-r", "{key}");
        assert!(expected.blue.wins > 0 && expected.blue.losses > 0, "{key}");
    }
}
