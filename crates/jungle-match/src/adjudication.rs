//! Ending games early on the engines' own evaluations, as cutechess does: `-draw movenumber= movecount=
//! score=`, `-resign movecount= score= [twosided=]`, and `-maxmoves`.

use jungle_rules::{BySide, Outcome, Side, Termination};

use crate::engine::EngineScore;

/// `-draw`: from full move `move_number` on, when both engines' scores stay within ±`score` centipawns for
/// `move_count` consecutive moves each, the game is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub move_number: u32,
    pub move_count: u32,
    pub score: i32,
}

/// `-resign`: an engine whose score stays at or below −`score` for `move_count` consecutive moves loses; with
/// `two_sided`, only while its opponent's score is at or above +`score` too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub move_count: u32,
    pub score: i32,
    pub two_sided: bool,
}

/// All adjudication settings of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    pub draw: Option<DrawRule>,
    pub resign: Option<ResignRule>,
    /// `-maxmoves N`: a game still going after N full moves is drawn.
    pub max_moves: Option<u32>,
}

/// An adjudicated ending with the reason for the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub outcome: Outcome,
    pub reason: String,
}

/// Follows one game's evaluations.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    rules: Adjudication,
    /// Consecutive plies with both scores inside the draw window.
    draw_plies: u32,
    /// Consecutive own moves with a losing score.
    resign_moves: BySide<u32>,
    last_score: BySide<Option<i32>>,
}

impl Adjudicator {
    pub fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator {
            rules,
            draw_plies: 0,
            resign_moves: BySide::default(),
            last_score: BySide::default(),
        }
    }

    /// Records the score `mover` reported for its move (`None` if it reported none); `plies` is the number of
    /// plies in the game after this move. Returns a verdict when the game should end here.
    pub fn after_move(
        &mut self,
        mover: Side,
        score: Option<EngineScore>,
        plies: usize,
    ) -> Option<Verdict> {
        let score = score.map(EngineScore::as_cp);
        self.last_score[mover] = score;
        // The full move the last ply belongs to (ply 1 and 2 are move 1).
        let move_number = plies.div_ceil(2) as u32;

        if let Some(rule) = self.rules.resign {
            let opponent_agrees =
                |s: &Self| !rule.two_sided || s.last_score[!mover].is_some_and(|o| o >= rule.score);
            match score {
                Some(s) if s <= -rule.score && opponent_agrees(self) => {
                    self.resign_moves[mover] += 1;
                }
                _ => self.resign_moves[mover] = 0,
            }
            if self.resign_moves[mover] >= rule.move_count {
                return Some(Verdict {
                    outcome: Outcome::win(!mover, Termination::Adjudication),
                    reason: format!(
                        "{mover} resigns: score at or below -{} cp for {} moves",
                        rule.score, rule.move_count
                    ),
                });
            }
        }

        if let Some(rule) = self.rules.draw {
            match score {
                Some(s) if move_number >= rule.move_number && s.abs() <= rule.score => {
                    self.draw_plies += 1;
                }
                _ => self.draw_plies = 0,
            }
            if self.draw_plies >= 2 * rule.move_count {
                return Some(Verdict {
                    outcome: Outcome::draw(Termination::Adjudication),
                    reason: format!(
                        "draw by adjudication: scores within {} cp for {} moves",
                        rule.score, rule.move_count
                    ),
                });
            }
        }

        if let Some(max) = self.rules.max_moves
            && plies >= 2 * max as usize
        {
            return Some(Verdict {
                outcome: Outcome::draw(Termination::Adjudication),
                reason: format!("draw by adjudication: {max} moves played"),
            });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cp(v: i32) -> Option<EngineScore> {
        Some(EngineScore::Cp(v))
    }

    #[test]
    fn resign_needs_consecutive_losing_scores() {
        let mut adj = Adjudicator::new(Adjudication {
            resign: Some(ResignRule {
                move_count: 3,
                score: 500,
                two_sided: false,
            }),
            ..Adjudication::default()
        });
        assert_eq!(adj.after_move(Side::Blue, cp(-600), 1), None);
        assert_eq!(adj.after_move(Side::Red, cp(600), 2), None);
        assert_eq!(adj.after_move(Side::Blue, cp(-600), 3), None);
        assert_eq!(adj.after_move(Side::Red, cp(600), 4), None);
        // A better score resets the count.
        assert_eq!(adj.after_move(Side::Blue, cp(-100), 5), None);
        for ply in [6, 8] {
            assert_eq!(adj.after_move(Side::Red, cp(550), ply), None);
            assert_eq!(adj.after_move(Side::Blue, cp(-700), ply + 1), None);
        }
        assert_eq!(adj.after_move(Side::Red, cp(550), 10), None);
        let verdict = adj
            .after_move(Side::Blue, Some(EngineScore::Mate(-4)), 11)
            .unwrap();
        assert_eq!(
            verdict.outcome,
            Outcome::win(Side::Red, Termination::Adjudication)
        );
        assert!(
            verdict.reason.contains("Blue resigns"),
            "{}",
            verdict.reason
        );
    }

    #[test]
    fn two_sided_resign_needs_the_winner_to_agree() {
        let mut adj = Adjudicator::new(Adjudication {
            resign: Some(ResignRule {
                move_count: 1,
                score: 300,
                two_sided: true,
            }),
            ..Adjudication::default()
        });
        assert_eq!(adj.after_move(Side::Blue, cp(0), 1), None);
        assert_eq!(adj.after_move(Side::Red, cp(-400), 2), None);
        assert_eq!(adj.after_move(Side::Blue, cp(350), 3), None);
        let verdict = adj.after_move(Side::Red, cp(-400), 4).unwrap();
        assert_eq!(verdict.outcome.winner, Some(Side::Blue));
    }

    #[test]
    fn draw_waits_for_the_move_number_and_both_engines() {
        let mut adj = Adjudicator::new(Adjudication {
            draw: Some(DrawRule {
                move_number: 3,
                move_count: 2,
                score: 10,
            }),
            ..Adjudication::default()
        });
        // Moves 1 and 2 are too early to count.
        for ply in 1..=4 {
            let side = if ply % 2 == 1 { Side::Blue } else { Side::Red };
            assert_eq!(adj.after_move(side, cp(0), ply), None);
        }
        assert_eq!(adj.after_move(Side::Blue, cp(5), 5), None);
        assert_eq!(adj.after_move(Side::Red, cp(-5), 6), None);
        assert_eq!(adj.after_move(Side::Blue, cp(10), 7), None);
        // A missing score breaks the run.
        assert_eq!(adj.after_move(Side::Red, None, 8), None);
        assert_eq!(adj.after_move(Side::Blue, cp(0), 9), None);
        assert_eq!(adj.after_move(Side::Red, cp(0), 10), None);
        assert_eq!(adj.after_move(Side::Blue, cp(0), 11), None);
        let verdict = adj.after_move(Side::Red, cp(-3), 12).unwrap();
        assert_eq!(verdict.outcome, Outcome::draw(Termination::Adjudication));
    }

    #[test]
    fn max_moves_draws_after_full_moves() {
        let mut adj = Adjudicator::new(Adjudication {
            max_moves: Some(2),
            ..Adjudication::default()
        });
        assert_eq!(adj.after_move(Side::Blue, None, 1), None);
        assert_eq!(adj.after_move(Side::Red, None, 2), None);
        assert_eq!(adj.after_move(Side::Blue, None, 3), None);
        assert!(adj.after_move(Side::Red, None, 4).is_some());
    }
}
