//! The fast move generator against the slow reference generator (tests/reference), on random reachable
//! positions under every option set of docs/rules.md: at least 10,000 distinct positions per set; and perft (which
//! counts in bulk and plays moves in place) against the reference's one-move-at-a-time perft.

mod common;
mod reference;

use std::cell::{Cell, RefCell};
use std::collections::HashSet;

use proptest::test_runner::TestCaseError;

/// Distinct positions (placement and side to move) each option set must be compared on.
const MIN_POSITIONS: usize = 10_000;
/// Playouts per option set; each compares every position along it.
const PLAYOUTS: u32 = 120;
const MAX_PLIES: usize = 400;

fn compare_on_playouts(option_set: &str) {
    let rules = common::rules(option_set);
    let options = *rules.options();
    let distinct = RefCell::new(HashSet::new());
    let compared = Cell::new(0usize);
    let sparse = Cell::new(0usize);
    let mut runner = common::runner(PLAYOUTS);
    let result = runner.run(&common::playout_input(MAX_PLIES), |(choices, bias)| {
        for pos in common::playout(&rules, &choices, bias) {
            let fen = pos.to_string();
            let fast = common::fast_moves(&pos, &rules);
            let slow = reference::legal_moves(&fen, &options);
            if fast != slow {
                return Err(TestCaseError::fail(format!(
                    "rules {option_set}, fen {fen}\n  fast: {fast:?}\n  reference: {slow:?}"
                )));
            }
            compared.set(compared.get() + 1);
            if pos.occupied().count() <= 8 {
                sparse.set(sparse.get() + 1);
            }
            distinct.borrow_mut().insert(pos.hash());
        }
        Ok(())
    });
    match result {
        Ok(()) => {}
        // The reason names the position; the shrunk playout choices add nothing to read.
        Err(proptest::test_runner::TestError::Fail(reason, (choices, bias))) => {
            panic!(
                "{reason}\n  (playout of {} plies, capture bias {bias})",
                choices.len()
            )
        }
        Err(e) => panic!("{e}"),
    }
    let distinct = distinct.borrow().len();
    println!(
        "{option_set}: {distinct} distinct positions ({} compared, {} with at most 8 pieces)",
        compared.get(),
        sparse.get()
    );
    assert!(
        distinct >= MIN_POSITIONS,
        "{option_set}: only {distinct} distinct positions compared"
    );
}

/// Positions per option set on which perft (the fast path: bulk counting, play and take back in place) is
/// compared with the reference perft (one move at a time, the reference's own board).
const PERFT_POSITIONS: u32 = 60;
const PERFT_DEPTH: u32 = 3;

fn compare_perft(option_set: &str) {
    let rules = common::rules(option_set);
    let options = *rules.options();
    let mut runner = common::runner(PERFT_POSITIONS);
    let result = runner.run(&common::playout_input(MAX_PLIES), |(choices, bias)| {
        let pos = *common::playout(&rules, &choices, bias).last().unwrap();
        let board = reference::Board::from_fen(&pos.to_string());
        for depth in 1..=PERFT_DEPTH {
            let fast = jungle_rules::perft(&pos, &rules, depth);
            let slow = reference::perft(&board, &options, depth);
            if fast != slow {
                return Err(TestCaseError::fail(format!(
                    "rules {option_set}, fen {pos}: perft {depth} is {fast}, reference {slow}"
                )));
            }
        }
        Ok(())
    });
    if let Err(e) = result {
        match e {
            proptest::test_runner::TestError::Fail(reason, _) => panic!("{reason}"),
            e => panic!("{e}"),
        }
    }
}

#[test]
fn perft_matches_the_reference_perft_under_every_option_set() {
    for set in common::OPTION_SETS {
        compare_perft(set);
    }
}

macro_rules! option_set_tests {
    ($($name:ident: $rules:expr,)*) => {
        $(
            #[test]
            fn $name() {
                compare_on_playouts($rules);
            }
        )*

        #[test]
        fn every_option_set_of_rules_md_is_compared() {
            let tested = [$($rules),*];
            for set in common::OPTION_SETS {
                assert!(tested.contains(set), "option set {set} has no comparison test");
            }
        }
    };
}

option_set_tests! {
    standard: "standard",
    modern: "modern",
    leiden: "leiden",
    mistboard: "mistboard",
    animal_checkers: "animal-checkers",
    elephant_captures_rat_false: "elephant-captures-rat=false",
    elephant_captures_rat_trapped: "elephant-captures-rat=trapped",
    lion_tiger_equal: "lion-tiger=equal",
    lion_tiger_tiger_over_lion: "lion-tiger=tiger-over-lion",
    wolf_over_dog: "wolf-over-dog=true",
    leopard_jumps: "leopard-jumps=true",
    lion_jumps_only_vertically: "lion-jumps-horizontally=false",
    universal_traps: "universal-traps=true",
    trap_max_rank_0: "trap-max-rank=0",
    trap_max_rank_1: "trap-max-rank=1",
    trap_max_rank_2: "trap-max-rank=2",
    trap_max_rank_3: "trap-max-rank=3",
    trap_max_rank_4: "trap-max-rank=4",
    trap_max_rank_5: "trap-max-rank=5",
    trap_max_rank_6: "trap-max-rank=6",
    trap_max_rank_7: "trap-max-rank=7",
    dog_swims: "dog-swims=true",
    rat_from_water_none: "rat-from-water=none",
    rat_from_water_all: "rat-from-water=all",
    land_rat_captures_water_rat: "land-rat-captures-water-rat=true",
    capture_all_wins_false: "capture-all-wins=false",
    repetition_draw_off: "repetition-draw=0",
    repetition_draw_2: "repetition-draw=2",
    quiet_ply_limit_off: "quiet-ply-limit=0",
    quiet_ply_limit_1: "quiet-ply-limit=1",
    swimming_dogs_leave_water_freely: "dog-swims=true,rat-from-water=all,land-rat-captures-water-rat=true",
    swimming_dogs_never_take_from_water: "dog-swims=true,rat-from-water=none,wolf-over-dog=true",
    trapped_elephant_rules: "universal-traps=true,elephant-captures-rat=trapped,trap-max-rank=5",
    jumpers_reshuffled: "leopard-jumps=true,lion-jumps-horizontally=false,lion-tiger=tiger-over-lion",
    animal_checkers_variant: "animal-checkers,capture-all-wins=false,elephant-captures-rat=false",
}
