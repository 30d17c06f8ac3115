//! Cross-checks of generated tables against brute-force search on random positions, for 3- and 4-piece
//! materials under several rule sets (capture-all-wins=false included), and `verify` on every generated table.

mod common;

use jungle_rules::Rules;
use jungle_tb::{Material, Probe, verify_table};
use rand::{Rng, SeedableRng, rngs::StdRng};

use common::{BruteForce, tables_for};

/// Positions decided within this many plies are checked exactly; the others must stay undecided to this
/// depth.
const DEPTH: u32 = 9;

fn cross_check(rules_text: &str, keys: &[&str], samples: usize) {
    let rules: Rules = rules_text.parse().unwrap();
    let tables = tables_for(keys, &rules);
    let mut rng = StdRng::seed_from_u64(0x7ab1e);
    for key in keys {
        let material: Material = key.parse::<Material>().unwrap().canonical();
        let table = &tables[&material];
        let mut brute = BruteForce::new(&rules);
        let (mut exact, mut undecided) = (0, 0);
        let mut tried = 0;
        while exact + undecided < samples {
            tried += 1;
            assert!(
                tried < samples * 100,
                "{rules_text} {key}: too few valid positions"
            );
            let idx = rng.random_range(0..table.indexer().size());
            let Some(pos) = table.indexer().position_at(idx) else {
                continue;
            };
            let stored = table.probe(&pos).unwrap();
            match stored.plies {
                Some(n) if n <= DEPTH => {
                    assert_eq!(
                        brute.solve(&pos, n),
                        Some(stored),
                        "{rules_text}: {pos} stored {stored}"
                    );
                    exact += 1;
                }
                _ => {
                    assert_eq!(
                        brute.solve(&pos, DEPTH),
                        None,
                        "{rules_text}: {pos} stored {stored}, but search decides it within {DEPTH} plies"
                    );
                    undecided += 1;
                }
            }
        }
        assert!(
            exact > samples / 10,
            "{rules_text} {key}: only {exact} short wins/losses sampled"
        );
    }
    // Verification costs as much as generation: check the small tables here (the CLI test verifies a
    // directory too).
    for table in tables.values().filter(|t| t.material().piece_count() <= 3) {
        let report = verify_table(table, &rules, &|m| tables.get(&m).cloned(), &|_, _| {}).unwrap();
        assert_eq!(report.mismatches, 0, "{rules_text}: {:?}", report.examples);
    }
}

#[test]
fn three_piece_tables_agree_with_search_under_several_rule_sets() {
    cross_check("standard", &["LR-e", "T-pr"], 100);
    cross_check("modern,dog-swims=true", &["DR-l", "L-td"], 100);
    cross_check("mistboard", &["ER-w", "C-er"], 100);
    cross_check(
        "capture-all-wins=false,elephant-captures-rat=false",
        &["ER-r", "W-ec"],
        100,
    );
    cross_check(
        "leopard-jumps=true,universal-traps=true,trap-max-rank=4,rat-from-water=all",
        &["PR-d", "R-pw"],
        100,
    );
    cross_check("animal-checkers", &["TR-e", "D-tr"], 100);
}

#[test]
fn four_piece_tables_agree_with_search() {
    cross_check("standard", &["CR-wd"], 120);
    cross_check(
        "capture-all-wins=false,lion-tiger=tiger-over-lion",
        &["TW-lc"],
        120,
    );
    // Swimming Dog and Rats: captures in and out of the water.
    cross_check("modern,dog-swims=true", &["DR-wr"], 120);
}

#[test]
fn a_table_and_its_colour_swap_give_the_same_values() {
    let rules = Rules::default();
    let tables = tables_for(&["LR-e"], &rules);
    let table = &tables[&"LR-e".parse::<Material>().unwrap()];
    let mut checked = 0;
    for idx in (0..table.indexer().size()).step_by(97) {
        if let Some(pos) = table.indexer().position_at(idx) {
            let value: Probe = table.probe(&pos).unwrap();
            assert_eq!(table.probe(&pos.swap_colours()), Some(value));
            assert_eq!(table.probe(&pos.mirror()), Some(value));
            checked += 1;
        }
    }
    assert!(checked > 1000);
}
