//! The tree search of one thread: principal variation search with a transposition table, null-move pruning,
//! reverse futility, late-move reductions and pruning, and a quiescence search over captures and den threats.
//!
//! Jungle's "check" is a piece next to the den: the side to move wins at once if one of its pieces stands next
//! to the enemy den, and must capture an enemy piece standing next to its own den (two such pieces cannot both
//! be captured: the game is lost). Both facts are exact and cut the tree a great deal.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use jungle_rules::terrain::{DENS, STEPS};
use jungle_rules::{Move, Position, Rules, Side};
use jungle_tb::Tablebases;

use crate::eval::Evaluator;
use crate::movepick::{History, MovePicker, Wanted};
use crate::nnue::stack::AccumulatorStack;
use crate::scale::{INFINITE, MATE, MATE_BOUND, MAX_PLY};
use crate::tablebase;
use crate::tt::{Bound, TranspositionTable};

/// How often (in nodes) a thread publishes its node count and the main thread checks the clock.
const CHECK_EVERY: u64 = 1024;

/// Mate scores are stored in the table relative to the node, and made relative to the root when read.
#[inline]
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Search features that can be switched off, for the strength tests that justify each of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    pub null_move: bool,
    pub reverse_futility: bool,
    pub late_move_reductions: bool,
    pub late_move_pruning: bool,
    pub futility: bool,
    pub aspiration: bool,
    pub quiescence_threats: bool,
    /// No reverse futility or null move while an enemy piece is within two steps of our den, and reverse
    /// futility only to depth 4 with a wider margin.
    pub guarded_pruning: bool,
    /// Internal iterative reduction: one ply less at a node of depth ≥ 4 with no hash move to search first.
    pub iir: bool,
    /// Quiet moves that fork the enemy den (to a square next to two of its neighbours, threatening both) are
    /// ordered early and never pruned or reduced (the static evaluation cannot see the double threat).
    pub den_approach: bool,
}

impl Features {
    /// The engine's configuration: every feature that self-play showed not to lose.
    pub const ALL: Features = Features {
        null_move: true,
        reverse_futility: true,
        late_move_reductions: true,
        late_move_pruning: true,
        futility: true,
        aspiration: true,
        quiescence_threats: true,
        guarded_pruning: true,
        // Tested and not kept: −14 ± 37 Elo over 100 games at 20k nodes/move, and with the learned evaluation
        // +1.9 ± 8.4 over 2,000 games at 1 s + 10 ms (see docs/engine.md).
        iir: false,
        den_approach: true,
    };
    /// Plain alpha-beta with quiescence (the baseline of the strength comparison).
    pub const NONE: Features = Features {
        null_move: false,
        reverse_futility: false,
        late_move_reductions: false,
        late_move_pruning: false,
        futility: false,
        aspiration: false,
        quiescence_threats: false,
        guarded_pruning: false,
        iir: false,
        den_approach: false,
    };
}

/// Deadline and node checks, done by the main thread only.
#[derive(Debug)]
pub(crate) struct Control {
    pub start: std::time::Instant,
    pub hard: Option<std::time::Duration>,
    pub nodes: Option<u64>,
}

/// One search thread's state.
pub(crate) struct Worker {
    pub id: usize,
    pub rules: Rules,
    pub eval: Arc<Evaluator>,
    pub tt: Arc<TranspositionTable>,
    pub stop: Arc<AtomicBool>,
    pub total_nodes: Arc<AtomicU64>,
    pub features: Features,
    pub nodes: u64,
    unpublished: u64,
    pub seldepth: usize,
    pub history: History,
    killers: Vec<[Option<Move>; 2]>,
    /// Hashes of the game's positions, then of the positions on the current search path.
    pub hashes: Vec<u64>,
    /// Length of `hashes` at the root (game history plus the root position).
    pub root_len: usize,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    reductions: [[u8; 64]; 64],
    pub control: Option<Control>,
    /// Whether the search may be stopped (false until depth 1 is complete, so a move always exists).
    pub may_stop: bool,
    /// What a draw found in the search costs the side to move at the root ([`crate::EngineOptions::contempt`]).
    pub contempt: i32,
    /// The best root move of the current iteration so far, with its score (for a search stopped mid-iteration).
    pub root_best: Option<(Move, i32)>,
    /// Endgame tables probed below the root, and the most pieces they cover (0 without tables).
    tablebases: Option<Arc<Tablebases>>,
    tablebase_pieces: u32,
    /// The learned evaluation's accumulators, when it is in use (else the hand-written evaluation).
    pub(crate) nnue: Option<AccumulatorStack>,
}

impl std::fmt::Debug for Worker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Worker")
            .field("id", &self.id)
            .field("nodes", &self.nodes)
            .finish()
    }
}

impl Worker {
    pub fn new(
        id: usize,
        eval: Arc<Evaluator>,
        tt: Arc<TranspositionTable>,
        stop: Arc<AtomicBool>,
        total_nodes: Arc<AtomicU64>,
    ) -> Worker {
        let mut reductions = [[0u8; 64]; 64];
        for (d, row) in reductions.iter_mut().enumerate().skip(1) {
            for (n, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.5 + (d as f64).ln() * (n as f64).ln() / 2.2) as u8;
            }
        }
        let null = Move::new(jungle_rules::Square::A1, jungle_rules::Square::A2);
        Worker {
            id,
            rules: eval.rules.clone(),
            eval,
            tt,
            stop,
            total_nodes,
            features: Features::ALL,
            nodes: 0,
            unpublished: 0,
            seldepth: 0,
            history: History::new(),
            killers: vec![[None; 2]; MAX_PLY + 2],
            hashes: Vec::new(),
            root_len: 0,
            pv: vec![[null; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            reductions,
            control: None,
            may_stop: false,
            contempt: 0,
            root_best: None,
            tablebases: None,
            tablebase_pieces: 0,
            nnue: None,
        }
    }

    pub fn set_tablebases(&mut self, tablebases: Option<Arc<Tablebases>>) {
        self.tablebase_pieces = tablebases
            .as_ref()
            .map_or(0, |tb| u32::try_from(tb.max_pieces()).unwrap_or(u32::MAX));
        self.tablebases = tablebases;
    }

    pub fn set_evaluator(&mut self, eval: Arc<Evaluator>) {
        self.rules = eval.rules.clone();
        self.eval = eval;
    }

    /// Forgets what earlier searches learnt (a new game).
    pub fn clear(&mut self) {
        self.history.clear();
        for k in &mut self.killers {
            *k = [None; 2];
        }
    }

    /// Prepares for a search: counters, killers, and the hashes of the game so far.
    pub fn prepare(&mut self, game_hashes: &[u64]) {
        self.nodes = 0;
        self.unpublished = 0;
        self.seldepth = 0;
        self.may_stop = false;
        self.hashes.clear();
        self.hashes.extend_from_slice(game_hashes);
        self.root_len = self.hashes.len();
        for k in &mut self.killers {
            *k = [None; 2];
        }
    }

    /// The principal variation found at the root by the last `search` call.
    pub fn root_pv(&self) -> &[Move] {
        &self.pv[0][..self.pv_len[0]]
    }

    #[inline]
    pub fn stopped(&self) -> bool {
        self.may_stop && self.stop.load(Ordering::Relaxed)
    }

    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        self.unpublished += 1;
        if self.unpublished >= CHECK_EVERY {
            let total = self
                .total_nodes
                .fetch_add(self.unpublished, Ordering::Relaxed)
                + self.unpublished;
            self.unpublished = 0;
            if let Some(control) = &self.control
                && self.may_stop
            {
                let out_of_time = control
                    .hard
                    .is_some_and(|hard| control.start.elapsed() >= hard);
                let out_of_nodes = control.nodes.is_some_and(|n| total >= n);
                if out_of_time || out_of_nodes {
                    self.stop.store(true, Ordering::Relaxed);
                }
            }
        }
    }

    pub fn unpublished_nodes(&self) -> u64 {
        self.unpublished
    }

    /// Publishes the last nodes counted (at the end of a search).
    pub fn flush_nodes(&mut self) {
        self.total_nodes
            .fetch_add(self.unpublished, Ordering::Relaxed);
        self.unpublished = 0;
    }

    /// Whether the node (not the root) is a draw by the game's draw rules, history included. A repetition
    /// inside the search tree counts at once (the side that could avoid it did not); one of the game before the
    /// root only when the game's count would be reached.
    #[inline]
    fn is_draw(&self, pos: &Position) -> bool {
        let options = self.rules.options();
        if options.quiet_ply_limit != 0 && pos.quiet_plies() >= options.quiet_ply_limit {
            return true;
        }
        if options.repetition_draw == 0 {
            return false;
        }
        let key = pos.hash();
        let len = self.hashes.len();
        let reach = (pos.quiet_plies() as usize).min(len - 1);
        let mut count = 1;
        let mut back = 2;
        while back <= reach {
            let i = len - 1 - back;
            if self.hashes[i] == key {
                if i >= self.root_len - 1 {
                    return true;
                }
                count += 1;
                if count >= options.repetition_draw as usize {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    /// A draw's score for the side to move at `ply`: the contempt is the root side's, and the sides alternate.
    #[inline]
    fn draw_score(&self, ply: usize) -> i32 {
        if ply.is_multiple_of(2) {
            -self.contempt
        } else {
            self.contempt
        }
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][ply] = m;
        head[ply][ply + 1..child_len].copy_from_slice(&tail[0][ply + 1..child_len]);
        self.pv_len[ply] = child_len;
    }

    /// The opponent's pieces next to our den: each threatens to enter it next move.
    #[inline]
    fn den_threats(pos: &Position, us: Side) -> jungle_rules::Bitboard {
        pos.side(!us) & STEPS[DENS[us].index()]
    }

    /// Whether the game is already decided against the side to move (the opponent entered its den or took
    /// its last piece).
    #[inline]
    fn lost_already(&self, pos: &Position, us: Side) -> bool {
        pos.side(!us).contains(DENS[us])
            || (self.rules.options().capture_all_wins && pos.side(us).is_empty())
    }

    /// Whether `plies` more plies fit under the quiet-ply rule before it draws the game: the shortcuts for den
    /// entries (a piece next to the den wins next move, a threat must be captured) hold only then.
    #[inline]
    fn quiet_plies_left(&self, pos: &Position, plies: u32) -> bool {
        let limit = self.rules.options().quiet_ply_limit;
        limit == 0 || pos.quiet_plies() + plies <= limit
    }

    /// Whether a win or loss score at `ply` still ends the game before the quiet-ply rule would draw it
    /// (other scores always do).
    #[inline]
    fn mate_fits_quiet_rule(&self, score: i32, ply: usize, pos: &Position) -> bool {
        let limit = self.rules.options().quiet_ply_limit;
        if limit == 0 || score.abs() < MATE_BOUND {
            return true;
        }
        let distance = (MATE - score.abs()) as i64 - ply as i64;
        i64::from(pos.quiet_plies()) + distance <= i64::from(limit)
    }

    /// Negamax principal variation search. Returns a score from the side to move's point of view.
    #[allow(clippy::too_many_lines, clippy::too_many_arguments)]
    pub fn search(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        cut_node: bool,
        excluded_root: &[Move],
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.pv_len[ply] = ply;
        let us = pos.side_to_move();
        if root {
            self.nnue_root(pos);
        }

        // Step 1. Decided positions: lost already, or won next move by entering the den.
        if self.lost_already(pos, us) {
            return -MATE + ply as i32;
        }
        if (pos.side(us) & STEPS[DENS[!us].index()]).any() && !root && self.quiet_plies_left(pos, 1)
        {
            return MATE - ply as i32 - 1;
        }
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply, 0);
        }
        self.count_node();
        if self.stopped() {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.static_eval(pos, ply);
        }
        self.seldepth = self.seldepth.max(ply);

        // Step 2. Draws, and mate distance pruning.
        if !root {
            if self.is_draw(pos) {
                return self.draw_score(ply);
            }
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 3. Probe the transposition table.
        let key = pos.hash();
        let entry = if excluded_root.is_empty() {
            self.tt.probe(key)
        } else {
            None
        };
        let hash_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry
            && !pv_node
            && e.depth >= depth
        {
            let score = score_from_tt(e.score, ply);
            let fits = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            // The key does not include the quiet-ply count: a win or loss stored when more quiet plies were
            // left may be a draw now.
            if fits && self.mate_fits_quiet_rule(score, ply, pos) {
                return score;
            }
        }

        // Step 3b. Endgame tables: the value of a position they cover, under the quiet-ply rule
        // (`tablebase::verdict`).
        if !root
            && self.tablebase_pieces != 0
            && pos.occupied().count() <= self.tablebase_pieces
            && let Some(tb) = &self.tablebases
            && let Some(verdict) = tablebase::verdict(tb, pos, &self.rules)
        {
            return verdict.score(ply);
        }

        // Step 4. Threats against our den: two cannot both be met; one must be captured.
        // (At the root every move is searched, so there is always a best move with a true score.)
        let threats = if root || !self.quiet_plies_left(pos, 2) {
            jungle_rules::Bitboard::EMPTY
        } else {
            Self::den_threats(pos, us)
        };
        if threats.count() >= 2 {
            return -MATE + ply as i32 + 2;
        }
        let in_check = threats.any();
        if in_check {
            depth += 1;
        }

        // Step 5. Static evaluation and the pruning it allows.
        let static_eval = if in_check {
            -INFINITE
        } else {
            entry.map_or_else(|| self.static_eval(pos, ply), |e| e.eval)
        };
        let guarded = self.features.guarded_pruning;
        let danger = guarded && self.eval.den_in_danger(pos, us);
        if !pv_node && !in_check && !root && !danger {
            // Reverse futility: far above beta at low depth, assume a quiet move keeps it there.
            let (max_depth, margin) = if guarded { (4, 150) } else { (6, 110) };
            if self.features.reverse_futility
                && depth <= max_depth
                && static_eval - margin * depth >= beta
                && static_eval.abs() < MATE_BOUND
            {
                return static_eval;
            }
            // Null move: if passing still fails high, a real move almost surely will.
            if self.features.null_move
                && depth >= 3
                && static_eval >= beta
                && beta.abs() < MATE_BOUND
                && self.hashes.last() != Some(&0)
                && pos.side(us).count() >= 2
            {
                let r = 3 + depth / 4;
                let passed = pos.after_null_move();
                self.nnue_push(ply + 1, pos, None);
                self.hashes.push(0);
                let score = -self.search(
                    &passed,
                    depth - 1 - r,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    !cut_node,
                    &[],
                );
                self.hashes.pop();
                if self.stopped() {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        // Without a hash move the ordering is poor and the node probably unimportant: search it a ply shallower.
        if self.features.iir && depth >= 4 && hash_move.is_none() && !in_check && !root {
            depth -= 1;
        }

        // Step 6. The moves.
        let wanted = if in_check {
            Wanted::Onto(threats)
        } else {
            Wanted::All
        };
        let mut picker = MovePicker::new(
            pos,
            &self.rules,
            &self.eval,
            wanted,
            hash_move,
            self.killers[ply],
            &self.history,
            self.features.den_approach,
        );
        if picker.len() == 0 {
            // No capture of the threatening piece (it enters next move), or no legal move at all (lost now).
            return if in_check && pos.count_moves(&self.rules) > 0 {
                -MATE + ply as i32 + 2
            } else {
                -MATE + ply as i32
            };
        }

        let original_alpha = alpha;
        let mut best_score = -INFINITE;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiets: [Option<Move>; 32] = [None; 32];
        let mut quiet_count = 0;
        let improving_margin = 90 + 140 * depth;

        while let Some((m, order)) = picker.next() {
            if root && excluded_root.contains(&m) {
                continue;
            }
            let tactical = MovePicker::is_tactical(order) || pos.is_capture(m);
            let quiet = !tactical;

            // Step 7. Prune late quiet moves at low depth. Quiet moves come last in the ordering and both
            // conditions only grow truer as the loop goes on, so every remaining move is pruned too: stop here.
            if !root && !in_check && quiet && best_score > -MATE_BOUND {
                if self.features.late_move_pruning
                    && depth <= 4
                    && searched >= 4 + (depth * depth) as usize
                {
                    break;
                }
                if self.features.futility
                    && depth <= 3
                    && !pv_node
                    && static_eval + improving_margin <= alpha
                {
                    break;
                }
            }

            let child = pos.after(m);
            self.nnue_push(ply + 1, pos, Some(m));
            self.hashes.push(child.hash());
            let mut score;
            if searched == 0 {
                score = -self.search(&child, depth - 1, -beta, -alpha, ply + 1, false, &[]);
            } else {
                // Step 8. Late move reductions, then a null-window search, then a full re-search.
                let mut r = 0;
                if self.features.late_move_reductions && depth >= 3 && quiet && !in_check {
                    r = i32::from(self.reductions[depth.min(63) as usize][searched.min(63)]);
                    if pv_node {
                        r -= 1;
                    }
                    if cut_node {
                        r += 1;
                    }
                    if order >= crate::movepick::HISTORY_MAX / 2 {
                        r -= 1;
                    }
                    r = r.clamp(0, depth - 2);
                }
                score = -self.search(
                    &child,
                    depth - 1 - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    true,
                    &[],
                );
                if score > alpha && r > 0 {
                    score = -self.search(
                        &child,
                        depth - 1,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        !cut_node,
                        &[],
                    );
                }
                if score > alpha && score < beta {
                    score = -self.search(&child, depth - 1, -beta, -alpha, ply + 1, false, &[]);
                }
            }
            self.hashes.pop();
            searched += 1;
            if self.stopped() {
                return 0;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if root {
                        self.root_best = Some((m, score));
                    }
                    if score >= beta {
                        if quiet {
                            self.reward_quiet(pos, m, &quiets[..quiet_count], depth, ply);
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet && quiet_count < quiets.len() {
                quiets[quiet_count] = Some(m);
                quiet_count += 1;
            }
        }

        if searched == 0 {
            // Every move was excluded (MultiPV beyond the number of moves) or pruned.
            return if root { -INFINITE } else { alpha };
        }

        // Step 9. Store the result.
        if excluded_root.is_empty() {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if best_score > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let eval_to_store = if in_check { 0 } else { static_eval };
            self.tt.store(
                key,
                best_move,
                score_to_tt(best_score, ply),
                eval_to_store,
                depth,
                bound,
            );
        }
        best_score
    }

    fn reward_quiet(
        &mut self,
        pos: &Position,
        m: Move,
        tried: &[Option<Move>],
        depth: i32,
        ply: usize,
    ) {
        let side = pos.side_to_move().index();
        let bonus = (depth * depth * 16).min(2000);
        self.history.update(side, m, bonus);
        for other in tried.iter().flatten() {
            if *other != m {
                self.history.update(side, *other, -bonus);
            }
        }
        let killers = &mut self.killers[ply];
        if killers[0] != Some(m) {
            killers[1] = killers[0];
            killers[0] = Some(m);
        }
    }

    /// Quiescence search: captures, and (in its first plies) moves next to the enemy den, which force a capture.
    pub fn quiescence(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
    ) -> i32 {
        let us = pos.side_to_move();
        if self.lost_already(pos, us) {
            return -MATE + ply as i32;
        }
        if !self.quiet_plies_left(pos, 1) {
            // The quiet-ply rule draws the game before anyone moves again (captures were just searched away
            // from here, so the count is that of this position).
            return 0;
        }
        if (pos.side(us) & STEPS[DENS[!us].index()]).any() {
            return MATE - ply as i32 - 1;
        }
        self.count_node();
        self.seldepth = self.seldepth.max(ply);
        if self.stopped() {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.static_eval(pos, ply);
        }
        let threats = if self.quiet_plies_left(pos, 2) {
            Self::den_threats(pos, us)
        } else {
            jungle_rules::Bitboard::EMPTY
        };
        if threats.count() >= 2 {
            return -MATE + ply as i32 + 2;
        }
        let in_check = threats.any();
        let mut best_score;
        let wanted;
        if in_check {
            best_score = -INFINITE;
            wanted = Wanted::Onto(threats);
        } else {
            let options = self.rules.options();
            if options.quiet_ply_limit != 0 && pos.quiet_plies() >= options.quiet_ply_limit {
                return 0;
            }
            let stand_pat = self.static_eval(pos, ply);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best_score = stand_pat;
            wanted = Wanted::Tactical {
                threats: self.features.quiescence_threats && qply < 2,
            };
        }
        let mut picker = MovePicker::new(
            pos,
            &self.rules,
            &self.eval,
            wanted,
            None,
            [None; 2],
            &self.history,
            false,
        );
        if in_check && picker.len() == 0 {
            return if pos.count_moves(&self.rules) > 0 {
                -MATE + ply as i32 + 2
            } else {
                -MATE + ply as i32
            };
        }
        while let Some((m, _)) = picker.next() {
            let child = pos.after(m);
            self.nnue_push(ply + 1, pos, Some(m));
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1, qply + 1);
            if self.stopped() {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        best_score
    }
}
