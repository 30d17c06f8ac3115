//! Invariants on random reachable positions under every option set of docs/rules.md: FEN round-trip, Zobrist
//! hash kept incrementally equal to the hash from scratch, and the board's two symmetries (left–right mirror;
//! 180° rotation with colours swapped) preserving move lists and perft. Also: text parsers never panic.

mod common;

use jungle_rules::{Move, Position, Rules, fen::parse_setup, perft, read_games};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// Random playouts under a random option set of docs/rules.md.
fn option_set_and_playout() -> impl Strategy<Value = (usize, (Vec<u32>, u32))> {
    (0..common::OPTION_SETS.len(), common::playout_input(300))
}

/// Runs `check` on every position of `cases` random playouts.
fn for_reachable_positions(
    cases: u32,
    check: impl Fn(&Rules, &Position) -> Result<(), TestCaseError>,
) {
    let mut runner = common::runner(cases);
    let result = runner.run(&option_set_and_playout(), |(set, (choices, bias))| {
        let rules = common::rules(common::OPTION_SETS[set]);
        for pos in common::playout(&rules, &choices, bias) {
            check(&rules, &pos)
                .map_err(|e| TestCaseError::fail(format!("rules {rules}, fen {pos}: {e}")))?;
        }
        Ok(())
    });
    match result {
        Ok(()) => {}
        Err(proptest::test_runner::TestError::Fail(reason, _)) => panic!("{reason}"),
        Err(e) => panic!("{e}"),
    }
}

fn sorted(moves: impl IntoIterator<Item = Move>) -> Vec<String> {
    let mut text: Vec<String> = moves.into_iter().map(|m| m.to_string()).collect();
    text.sort();
    text
}

#[test]
fn fen_round_trips() {
    for_reachable_positions(200, |rules, pos| {
        let text = pos.to_string();
        let back =
            Position::from_fen(&text, rules).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(back, *pos);
        prop_assert_eq!(back.to_string(), text.clone());
        prop_assert_eq!(
            Position::from_setup(&pos.to_setup(), rules).ok(),
            Some(*pos)
        );
        prop_assert_eq!(parse_setup(&text).ok(), Some(pos.to_setup()));
        Ok(())
    });
}

#[test]
fn incremental_zobrist_equals_hash_from_scratch() {
    for_reachable_positions(200, |_, pos| {
        prop_assert_eq!(pos.hash(), pos.hash_from_scratch());
        Ok(())
    });
}

#[test]
fn mirrored_positions_have_mirrored_moves_and_equal_perft() {
    // Every option of docs/rules.md is left-right symmetric (the board is symmetric about the d-file).
    for_reachable_positions(150, |rules, pos| {
        let mirror = pos.mirror();
        prop_assert_eq!(mirror.mirror(), *pos);
        prop_assert_eq!(mirror.hash(), mirror.hash_from_scratch());
        prop_assert_eq!(
            sorted(mirror.legal_moves(rules).iter().copied()),
            sorted(pos.legal_moves(rules).iter().map(|m| m.mirror()))
        );
        prop_assert_eq!(perft(&mirror, rules, 3), perft(pos, rules, 3));
        Ok(())
    });
}

#[test]
fn colour_swapped_positions_have_rotated_moves_and_equal_perft() {
    // Rotating the board by 180 degrees and swapping the colours gives the same game seen from the other side.
    for_reachable_positions(150, |rules, pos| {
        let swapped = pos.swap_colours();
        prop_assert_eq!(swapped.swap_colours().to_string(), pos.to_string());
        prop_assert_eq!(swapped.side_to_move(), !pos.side_to_move());
        prop_assert_eq!(swapped.hash(), swapped.hash_from_scratch());
        let rotate = |m: &Move| Move::new(m.from.rotate(), m.to.rotate());
        prop_assert_eq!(
            sorted(swapped.legal_moves(rules).iter().copied()),
            sorted(pos.legal_moves(rules).iter().map(rotate))
        );
        prop_assert_eq!(perft(&swapped, rules, 3), perft(pos, rules, 3));
        let outcome = pos.outcome(rules);
        let swapped_outcome = swapped.outcome(rules);
        prop_assert_eq!(
            swapped_outcome.map(|o| (o.winner.map(|w| !w), o.termination)),
            outcome.map(|o| (o.winner, o.termination))
        );
        Ok(())
    });
}

#[test]
fn checked_play_agrees_with_the_move_list() {
    // Every move of the list passes `check_move`; every other move between squares is refused.
    for_reachable_positions(30, |rules, pos| {
        let legal = pos.legal_moves(rules);
        for from in jungle_rules::Square::all() {
            for to in jungle_rules::Square::all() {
                if from == to {
                    continue;
                }
                let m = Move::new(from, to);
                prop_assert_eq!(pos.check_move(rules, m).is_ok(), legal.contains(m), "{}", m);
            }
        }
        Ok(())
    });
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn fen_parser_never_panics(text in "[rcwdptleRCWDPTLEx0-9/ wb-]{0,70}") {
        let _ = Position::from_fen(&text, &Rules::default());
    }

    #[test]
    fn rules_parser_never_panics(text in "[a-z=,0-9-]{0,40}") {
        if let Ok(rules) = text.parse::<Rules>() {
            prop_assert_eq!(rules.to_string().parse::<Rules>().ok(), Some(rules));
        }
    }

    #[test]
    fn move_parser_never_panics(text in "\\PC{0,6}") {
        if let Ok(m) = text.parse::<Move>() {
            prop_assert_eq!(m.to_string(), text.to_ascii_lowercase());
        }
    }

    #[test]
    fn pgn_reader_never_panics(text in "[\\[\\]{}();$*%\"a-g1-9. \\nEventWhiteFENRules/-]{0,120}") {
        let _ = read_games(&text);
    }
}
