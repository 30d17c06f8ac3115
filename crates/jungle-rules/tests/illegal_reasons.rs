//! Illegal moves say which rule they break (`IllegalReason`): one position per reason, and on random reachable
//! positions every refused move is refused with a reason that fits it.

mod common;

use jungle_rules::{IllegalReason, Move, Position, Rules, Square};
use proptest::test_runner::TestCaseError;

fn reason(rules: &str, fen: &str, mv: &str) -> IllegalReason {
    let rules: Rules = rules.parse().unwrap();
    let pos = Position::from_fen(fen, &rules).unwrap();
    let m: Move = mv.parse().unwrap();
    let e = pos
        .check_move(&rules, m)
        .expect_err(&format!("{mv} should be illegal in {fen}"));
    assert_eq!(e.mv, m);
    assert!(
        e.to_string().starts_with(&format!("illegal move {mv}: ")),
        "{e}"
    );
    e.reason
}

/// A case: rules, FEN, move, and the test its reason must pass.
type Case = (
    &'static str,
    &'static str,
    &'static str,
    fn(&IllegalReason) -> bool,
);

const START: &str = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w";

#[test]
fn each_rule_broken_has_its_reason() {
    use IllegalReason as R;
    let cases: Vec<Case> = vec![
        ("", "6c/7/7/7/7/7/3W3/7/7 w", "d9d8", |r| {
            matches!(r, R::NoPiece(_))
        }),
        ("", "3W3/7/7/7/7/7/7/7/6c b", "g1g2", |r| {
            matches!(r, R::GameOver(_))
        }),
        (
            "",
            START,
            "a4a5",
            |r| matches!(r, R::NoPiece(sq) if *sq == Square::A4),
        ),
        ("", START, "a7a6", |r| matches!(r, R::NotYourPiece { .. })),
        ("", START, "a3a5", |r| matches!(r, R::Unreachable { .. })),
        ("", START, "a3b4", |r| matches!(r, R::Unreachable { .. })),
        ("", "e6/7/7/7/7/7/2P4/7/7 w", "c3c7", |r| {
            matches!(r, R::Unreachable { .. })
        }),
        (
            "leopard-jumps=true",
            "e6/7/7/7/7/7/2P4/7/7 w",
            "c3c7",
            |r| matches!(r, R::JumpDirection { .. }),
        ),
        (
            "lion-jumps-horizontally=false",
            "e6/7/7/7/3L3/7/7/7/7 w",
            "d5a5",
            |r| matches!(r, R::JumpDirection { .. }),
        ),
        ("", "7/7/7/7/2r4/7/2T4/7/7 w", "c3c7", |r| {
            matches!(r, R::JumpBlocked { .. })
        }),
        ("", "e6/7/7/7/7/7/7/7/2C4 w", "c1d1", |r| {
            matches!(r, R::OwnDen { .. })
        }),
        ("", "e6/7/7/7/6C/7/7/7/7 w", "g5f5", |r| {
            matches!(r, R::Water { .. })
        }),
        ("trap-max-rank=4", "6r/7/7/7/7/7/7/2E4/7 w", "c2c1", |r| {
            matches!(r, R::TrapRank { max: 4, .. })
        }),
        ("", START, "a1a2", |_| false), // legal: checked below as a control
        ("", "e6/7/7/7/7/3C3/3W3/7/7 w", "d3d4", |r| {
            matches!(r, R::OwnPiece { .. })
        }),
        ("", "7/7/7/7/7/7/2Ce3/7/7 w", "c3d3", |r| {
            matches!(r, R::CannotCapture { .. })
        }),
        ("", "7/7/7/7/eR5/7/7/7/7 w", "b5a5", |r| {
            matches!(r, R::CannotCapture { .. })
        }),
    ];
    for (rules, fen, mv, fits) in cases {
        if mv == "a1a2" {
            let r: Rules = rules.parse().unwrap();
            assert!(
                Position::from_fen(fen, &r)
                    .unwrap()
                    .is_legal(&r, mv.parse().unwrap())
            );
            continue;
        }
        let got = reason(rules, fen, mv);
        assert!(fits(&got), "{mv} in {fen} under {rules:?}: {got:?}");
    }
}

#[test]
fn refusals_on_reachable_positions_give_fitting_reasons() {
    use IllegalReason as R;
    let mut runner = common::runner(60);
    let result = runner.run(
        &(0..common::OPTION_SETS.len(), common::playout_input(200)),
        |(set, (choices, bias))| {
            let rules = common::rules(common::OPTION_SETS[set]);
            for pos in common::playout(&rules, &choices, bias)
                .into_iter()
                .step_by(7)
            {
                let legal = pos.legal_moves(&rules);
                for from in Square::all() {
                    for to in Square::all().filter(|to| *to != from) {
                        let m = Move::new(from, to);
                        let Err(e) = pos.check_move(&rules, m) else {
                            continue;
                        };
                        let piece = pos.piece_at(from);
                        let fits = match &e.reason {
                            R::GameOver(_) => legal.is_empty() && pos.is_decided(&rules),
                            R::NoPiece(sq) => *sq == from && piece.is_none(),
                            R::NotYourPiece { .. } => {
                                piece.is_some_and(|p| p.side != pos.side_to_move())
                            }
                            R::OwnPiece { square } => {
                                *square == to
                                    && pos
                                        .piece_at(to)
                                        .is_some_and(|p| p.side == pos.side_to_move())
                            }
                            R::CannotCapture { .. } => pos
                                .piece_at(to)
                                .is_some_and(|p| p.side != pos.side_to_move()),
                            R::Water { .. } => rules.water().contains(to),
                            R::TrapRank { .. } => rules.traps().contains(to),
                            R::OwnDen { .. } => {
                                to == jungle_rules::terrain::DENS[pos.side_to_move()]
                            }
                            R::Unreachable { .. }
                            | R::JumpDirection { .. }
                            | R::JumpBlocked { .. } => piece.is_some(),
                        };
                        if !fits || legal.contains(m) {
                            return Err(TestCaseError::fail(format!(
                                "rules {rules}, fen {pos}: {m} refused with {:?}",
                                e.reason
                            )));
                        }
                    }
                }
            }
            Ok(())
        },
    );
    if let Err(e) = result {
        panic!("{e}");
    }
}
