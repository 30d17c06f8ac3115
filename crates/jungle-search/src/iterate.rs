//! Iterative deepening at the root: depth by depth, each MultiPV line searched with an aspiration window
//! around its previous score; the main thread reports each line and decides when to stop.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use jungle_rules::{Move, Position};

use crate::scale::{INFINITE, MATE, MATE_BOUND};
use crate::search::Worker;
use crate::tt::TranspositionTable;
use crate::{Score, SearchInfo};

/// One principal variation found by a completed iteration.
#[derive(Clone, Debug)]
pub(crate) struct Line {
    pub score: i32,
    pub pv: Vec<Move>,
}

/// What an iteration loop needs to know besides the position.
pub(crate) struct IterationPlan<'a> {
    pub max_depth: u32,
    pub lines: usize,
    /// Lines reported through `on_info` (the user's MultiPV).
    pub reported_lines: usize,
    pub soft: Option<Duration>,
    pub start: Instant,
    pub on_info: Option<&'a mut dyn FnMut(&SearchInfo)>,
    /// Stop early on a found mate or a single legal move (not with `go infinite` or a fixed depth).
    pub may_finish_early: bool,
    pub root_moves: usize,
}

/// The result of the iterations: the lines of the deepest completed iteration.
#[derive(Clone, Debug, Default)]
pub(crate) struct Iterations {
    pub lines: Vec<Line>,
    pub depth: u32,
    pub seldepth: u32,
}

pub(crate) fn internal_to_score(v: i32) -> Score {
    if v >= MATE_BOUND {
        Score::Mate(MATE - v)
    } else if v <= -MATE_BOUND {
        Score::Mate(-(MATE + v))
    } else {
        Score::Cp(v)
    }
}

impl Worker {
    pub(crate) fn iterate(
        &mut self,
        pos: &Position,
        mut plan: IterationPlan<'_>,
        tt: &TranspositionTable,
    ) -> Iterations {
        let main = self.id == 0;
        let mut done = Iterations::default();
        let mut stability = 1.0f64;
        let mut last_best: Option<Move> = None;
        for depth in 1..=plan.max_depth {
            // Helpers search half the iterations one ply deeper, so the threads spread over the tree.
            let search_depth = if main {
                depth
            } else {
                depth + (self.id as u32 & 1)
            };
            let mut lines: Vec<Line> = Vec::with_capacity(plan.lines);
            let mut excluded: Vec<Move> = Vec::new();
            let mut aborted = false;
            for index in 0..plan.lines.min(plan.root_moves) {
                let previous = done.lines.get(index).map(|l| l.score);
                let (score, pv) = self.aspiration(pos, search_depth as i32, previous, &excluded);
                if self.stopped() {
                    // Keep a better move found by this unfinished iteration's first line.
                    if index == 0
                        && let Some((m, s)) = self.root_best
                        && depth > 1
                        && done.lines.first().is_some_and(|l| l.pv.first() != Some(&m))
                    {
                        let mut pv = self.root_pv().to_vec();
                        if pv.first() != Some(&m) {
                            pv = vec![m];
                        }
                        lines.push(Line { score: s, pv });
                    }
                    aborted = true;
                    break;
                }
                if score == -INFINITE || pv.is_empty() {
                    break;
                }
                excluded.push(pv[0]);
                lines.push(Line { score, pv });
                if main && index < plan.reported_lines {
                    self.report(depth, index, lines.last().expect("pushed"), tt, &mut plan);
                }
            }
            if aborted {
                if !lines.is_empty() && !done.lines.is_empty() {
                    done.lines[0] = lines.swap_remove(0);
                }
                break;
            }
            done.lines = lines;
            done.depth = depth;
            done.seldepth = self.seldepth as u32;
            self.may_stop = true;
            if !main {
                continue;
            }
            // Time: stop when the expected use is spent, sooner while the best move is stable.
            let best = done.lines.first().and_then(|l| l.pv.first().copied());
            stability = if best != last_best {
                1.5
            } else {
                (stability * 0.85).max(0.5)
            };
            last_best = best;
            if plan.may_finish_early {
                if plan.root_moves == 1 && plan.soft.is_some() {
                    break;
                }
                let top = done.lines.first().map_or(0, |l| l.score);
                if top.abs() >= MATE_BOUND && depth as i32 >= (MATE - top.abs()) + 6 {
                    break;
                }
            }
            if let Some(soft) = plan.soft
                && plan.start.elapsed().as_secs_f64() >= soft.as_secs_f64() * stability
            {
                break;
            }
            if self.stop.load(Ordering::Relaxed) {
                break;
            }
        }
        done
    }

    /// One line at one depth: a narrow window around the previous score, widened on failure.
    fn aspiration(
        &mut self,
        pos: &Position,
        depth: i32,
        previous: Option<i32>,
        excluded: &[Move],
    ) -> (i32, Vec<Move>) {
        let mut delta = 25;
        let (mut alpha, mut beta) = match previous {
            Some(p) if depth >= 4 && self.features.aspiration && p.abs() < MATE_BOUND => {
                ((p - delta).max(-INFINITE), (p + delta).min(INFINITE))
            }
            _ => (-INFINITE, INFINITE),
        };
        loop {
            self.root_best = None;
            let score = self.search(pos, depth, alpha, beta, 0, false, excluded);
            if self.stopped() {
                return (score, Vec::new());
            }
            if score <= alpha && alpha > -INFINITE {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta && beta < INFINITE {
                beta = (score + delta).min(INFINITE);
            } else {
                return (score, self.root_pv().to_vec());
            }
            delta += delta / 2;
            if delta > 800 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    fn report(
        &self,
        depth: u32,
        index: usize,
        line: &Line,
        tt: &TranspositionTable,
        plan: &mut IterationPlan<'_>,
    ) {
        let Some(on_info) = plan.on_info.as_mut() else {
            return;
        };
        let time = plan.start.elapsed();
        let nodes = self.total_nodes.load(Ordering::Relaxed) + self.unpublished_nodes();
        let nps = (nodes as f64 / time.as_secs_f64().max(1e-6)) as u64;
        on_info(&SearchInfo {
            depth,
            seldepth: (self.seldepth as u32).max(depth),
            multipv: index + 1,
            score: internal_to_score(line.score),
            nodes,
            nps,
            time,
            pv: line.pv.clone(),
            hashfull: tt.hashfull(),
        });
    }
}
