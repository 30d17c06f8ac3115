//! The Hidden Jungle AI. It receives a [`View`] and nothing else, so it cannot read what it was not shown.
//!
//! It reads a [`Belief`] about the unknown enemy pieces from the view — a posterior over the other side's setup:
//! the setup table's prior, conditioned on every reveal, the terrain the pieces stood on and how they behaved next
//! to revealed pieces —, draws worlds — complete positions — from it exactly, and
//! scores every legal move by its average over the worlds, each searched by the open-game engine
//! (determinized alpha-beta, [`search`]). Levels 1–8 set how many worlds, how deep, and how often it picks a
//! near-best move instead of the best, as in the open game.
//!
//! [`OneWorld`] is the cheap baseline it is measured against: one world drawn without reading behaviour,
//! searched with all the time by the engine.

mod belief;
mod posterior;
mod screen;
pub mod search;
pub mod setup;
mod world;

use std::time::{Duration, Instant};

use jungle_rules::{Move, Rules, Side, Square};
use jungle_search::skill::Skill;
use jungle_search::{Engine, EngineOptions};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

pub use belief::Belief;
pub use search::Budget;
pub use world::{
    Assignment, QuietStretch, sample as sample_world, sample_keeping as sample_world_keeping,
};

use crate::{Arrangement, View};

/// The fewest root moves searched at the next depth.
const MIN_CANDIDATES: usize = 3;

/// Transposition table per AI: the worlds' searches are shallow.
const HASH_MB: usize = 8;

/// The options of the AI's and the baseline's engines. The hand-written evaluation, not the learned net that
/// is the engine's default under the standard rules: every number in docs/hidden.md (the levels, the plans, the
/// setup table, the score against the one-world baseline) was measured with it, and the plans scale its
/// weights (`set_weights`), which the net does not read.
fn engine_options() -> EngineOptions {
    EngineOptions {
        hash_mb: HASH_MB,
        move_overhead_ms: 0,
        use_nnue: false,
        ..EngineOptions::default()
    }
}

/// What a draw costs the top levels, in the engine's units (a Cat is about 200).
const TOP_CONTEMPT: i32 = 50;

/// The top levels' bonus for a piece's nearness to the enemy den, in percent of the open game's
/// (`EVAL_WEIGHTS.den_distance`): almost every decided hidden game ends in a den, and the AI scored more against
/// the one-world baseline valuing the race higher (docs/hidden.md).
const TOP_DEN_DISTANCE_PERCENT: i32 = 150;

/// The top levels' value of a jumper's jumps (the Lion's and the Tiger's `EVAL_WEIGHTS.jumper`, part of their
/// material), in percent of the open game's: a revealed Lion or Tiger that jumps is often taken by a piece the AI
/// did not know, and the AI scored more against the one-world baseline valuing them less (docs/hidden.md).
const TOP_JUMPER_PERCENT: i32 = 50;

/// The top levels' bonus for a jumper standing where it can jump (`EVAL_WEIGHTS.jumper_on_bank`), in percent of
/// the open game's (measured together with `TOP_JUMPER_PERCENT`).
const TOP_JUMPER_ON_BANK_PERCENT: i32 = 0;

/// How much every level's belief trusts the setup table as the other side's prior, in percent of its scores
/// (`LevelPlan::prior_percent`).
const PRIOR_PERCENT: i32 = 100;

/// The chance of losing a Tiger, Lion or Elephant to an unknown piece, in percent, from which the top levels'
/// screen searches a second world (`LevelPlan::screen_percent`).
const TOP_SCREEN_PERCENT: i32 = 40;

/// The budget of the screen's second search, in percent of the move's nodes ([`screen`]); the nodes it spends
/// are taken from the next moves' budgets (at most half of each), so the AI's work stays the same.
const SCREEN_SHARE_PERCENT: u64 = 50;

/// The share of a move's time kept back for the screen's second search, in percent, when the budget is a time
/// (a move's time cannot be borrowed from the next: the answer is due at its end); unused when nothing is
/// screened.
const SCREEN_TIME_PERCENT: u32 = 20;

/// The deepest whole-world search (level 8's, and the baseline's), when no budget stops it sooner.
const MAX_DEPTH: u32 = 64;

/// What one level searches: worlds drawn per move and the deepest search after each root move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelPlan {
    pub worlds: usize,
    pub max_depth: u32,
    /// Whether each world is searched whole by the engine and the worlds vote, instead of every root move
    /// being scored in every world.
    pub vote: bool,
    /// How much less than zero a draw found in the worlds' searches is worth to the AI.
    pub contempt: i32,
    /// Whether each world's search is given the quiet moves since the last attack, replayed with that world's
    /// animals, so it sees repetitions of the game.
    pub history: bool,
    /// Whether the first world keeps last move's animals wherever the game has not contradicted them, instead
    /// of being drawn afresh each move: the AI then follows one plan for one picture of the other side, rather
    /// than a new plan for a new picture each move (and the engine's table still holds last move's positions).
    pub keep_world: bool,
    /// The engine's bonus for nearness to the enemy den, in percent of the open game's.
    pub den_distance_percent: i32,
    /// The engine's value of a jumper's jumps (`Weights::jumper`), in percent of the open game's.
    pub jumper_percent: i32,
    /// The engine's bonus for a jumper standing where it can jump (`Weights::jumper_on_bank`), in percent of the
    /// open game's.
    pub jumper_on_bank_percent: i32,
    /// Whether the AI sets its animals up as the ordinary start position does, instead of at random.
    pub start_setup: bool,
    /// The chance of losing a Tiger, Lion or Elephant to an unknown piece, in percent, from which the top levels
    /// search a second world where the loss is real (`screen`); 0: never.
    pub screen_percent: i32,
    /// How much the belief trusts that the other side sets up as the setup table draws, in percent of the
    /// table's scores (100: as the table draws, 0: every setup as likely; `Belief::posterior`).
    pub prior_percent: i32,
    /// Whether the worlds' searches evaluate with the engine's learned net (`EngineOptions::use_nnue`) instead
    /// of the hand-written evaluation: never by default, as the open game (an experiment of
    /// `hidden_match --nnue 1`, which gives the baseline the net too; docs/hidden.md).
    pub nnue: bool,
}

impl LevelPlan {
    pub fn of(level: u8) -> LevelPlan {
        let level = level.clamp(1, 8);
        let (worlds, max_depth) = match level {
            1 => (2, 1),
            2 => (3, 1),
            3 => (4, 2),
            4 => (4, 3),
            5 => (6, 4),
            6 => (6, 5),
            7 => (1, 8),
            _ => (1, MAX_DEPTH),
        };
        let top = level >= 7;
        LevelPlan {
            worlds,
            max_depth,
            // At the top levels depth counts most: the world is searched whole (with several, they vote).
            // One world searched deeper beat three voting at equal work (docs/hidden.md).
            vote: top,
            // About 40 % of games were drawn, mostly by repetition: the top levels play on (docs/hidden.md).
            contempt: if top { TOP_CONTEMPT } else { 0 },
            history: top,
            // A kept world scored about 10 points more against the one-world baseline (docs/hidden.md).
            keep_world: top,
            den_distance_percent: if top { TOP_DEN_DISTANCE_PERCENT } else { 100 },
            jumper_percent: if top { TOP_JUMPER_PERCENT } else { 100 },
            jumper_on_bank_percent: if top { TOP_JUMPER_ON_BANK_PERCENT } else { 100 },
            // Never by default: a setup known in advance hands the opponent every hidden identity, and the
            // ordinary setup's gain against the baseline was inside the noise (docs/hidden.md).
            start_setup: false,
            prior_percent: PRIOR_PERCENT,
            // The screen scored about 6 points more against the AI of 81d89c0 (docs/hidden.md).
            screen_percent: if top { TOP_SCREEN_PERCENT } else { 0 },
            nnue: false,
        }
    }

    /// The engine's evaluation weights under this plan: the open game's, with the den-nearness bonus and the
    /// jumpers' values scaled by the plan's percentages.
    pub fn weights(&self) -> jungle_search::Weights {
        let mut weights = jungle_search::EVAL_WEIGHTS;
        for bonus in &mut weights.den_distance {
            *bonus = *bonus * self.den_distance_percent / 100;
        }
        weights.jumper = weights.jumper * self.jumper_percent / 100;
        weights.jumper_on_bank = weights.jumper_on_bank * self.jumper_on_bank_percent / 100;
        weights
    }
}

/// What the last [`HiddenAi::choose`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Worlds searched at the deepest completed depth.
    pub worlds: usize,
    /// The deepest depth (plies after the root move) completed over every world.
    pub depth: u32,
    /// World searches completed (one world, every root move, one depth).
    pub world_searches: usize,
    /// Engine nodes searched, over every world.
    pub nodes: u64,
    pub elapsed: Duration,
    /// The root moves with their average values, best first.
    pub scores: Vec<(Move, i32)>,
    /// Whether the screen searched a second world (`screen`).
    pub screened: bool,
}

/// The AI: an engine for the worlds' searches and a seeded random source (so a choice is reproducible from the
/// view and the seed when no time limit cuts it short).
#[derive(Debug)]
pub struct HiddenAi {
    level: u8,
    plan: LevelPlan,
    engine: Engine,
    seed: u64,
    report: Report,
    /// The first world of the last choice, kept for the next one (`LevelPlan::keep_world`).
    kept: Option<KeptWorld>,
    /// Engine nodes the screen spent beyond its moves' budgets, still to be taken from the next ones.
    owed: u64,
}

/// The animals the AI gave the unknown pieces in its last choice, and which game position that was.
#[derive(Clone, Debug)]
struct KeptWorld {
    viewer: Side,
    plies: usize,
    assignment: world::Assignment,
}

impl KeptWorld {
    /// Whether `view` can be a later position of the same game (an AI handed a new game starts afresh).
    fn continues(&self, view: &View) -> bool {
        view.viewer() == Some(self.viewer) && view.history().len() > self.plies
    }
}

impl HiddenAi {
    pub fn new(level: u8, seed: u64) -> HiddenAi {
        HiddenAi {
            level: level.clamp(1, 8),
            engine: Engine::new(engine_options()),
            plan: LevelPlan::of(level),
            seed,
            report: Report::default(),
            kept: None,
            owed: 0,
        }
        .with_plan(LevelPlan::of(level))
    }

    /// The same AI searching another plan than its level's (for measuring plans against each other).
    #[must_use]
    pub fn with_plan(mut self, plan: LevelPlan) -> HiddenAi {
        self.plan = plan;
        self.engine.set_weights(plan.weights());
        if self.engine.options().use_nnue != plan.nnue {
            let options = EngineOptions {
                use_nnue: plan.nnue,
                ..self.engine.options().clone()
            };
            self.engine.set_options(options);
        }
        self
    }

    /// The same AI evaluating with `weights` instead of its plan's ([`LevelPlan::weights`]; for measuring weights
    /// against each other: `hidden_match --weights`).
    #[must_use]
    pub fn with_weights(mut self, weights: jungle_search::Weights) -> HiddenAi {
        self.engine.set_weights(weights);
        self
    }

    /// Sets the engine's contempt for a search whose root side is the AI (`ours`) or its opponent.
    fn set_contempt(&mut self, ours: bool) {
        self.set_contempt_to(if ours {
            self.plan.contempt
        } else {
            -self.plan.contempt
        });
    }

    /// Sets the engine's contempt for a search whose root side is the AI to `contempt`.
    fn set_contempt_to(&mut self, contempt: i32) {
        if self.engine.options().contempt != contempt {
            let options = EngineOptions {
                contempt,
                ..self.engine.options().clone()
            };
            self.engine.set_options(options);
        }
    }

    pub fn level(&self) -> u8 {
        self.level
    }

    /// What the last choice searched.
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// A setup for `side`: random (so that the opponent cannot learn it from game to game) but favouring the
    /// placements that won more ([`setup::SetupTable`]; uniformly random where its table does not apply), or the
    /// ordinary start position's when the plan says so (an experiment of `hidden_match --start-setup 1`).
    pub fn choose_setup(&self, rules: &Rules, side: Side) -> Arrangement {
        self.choose_setup_from(&setup::SetupTable::FITTED, rules, side)
    }

    /// A setup for `side` as [`HiddenAi::choose_setup`] draws it, from `table` instead of the fitted one (an
    /// experiment of `hidden_match --setup-temperature T`); the same seed draws the same random number.
    pub fn choose_setup_from(
        &self,
        table: &setup::SetupTable,
        rules: &Rules,
        side: Side,
    ) -> Arrangement {
        if self.plan.start_setup {
            return Arrangement::standard(rules, side);
        }
        table.choose(
            rules,
            side,
            &mut StdRng::seed_from_u64(self.seed ^ 0x5e70_5e70),
        )
    }

    /// The move to play in `view` (which must be the view of the side to move), within `time` if given (else
    /// the level's depth bounds it); `None` when the view has no legal move.
    pub fn choose(&mut self, view: &View, time: Option<Duration>) -> Option<Move> {
        self.choose_within(view, Budget { time, nodes: None })
    }

    /// The move to play in `view` within `budget` (time, engine nodes over all worlds, or both; with neither
    /// the level's depth bounds it); `None` when the view has no legal move.
    pub fn choose_within(&mut self, view: &View, budget: Budget) -> Option<Move> {
        let start = Instant::now();
        let mut budget = budget;
        if let Some(nodes) = budget.nodes {
            let paid = self.owed.min(nodes / 2);
            self.owed -= paid;
            budget.nodes = Some(nodes - paid);
        }
        let root = view.legal_moves();
        let root = root.as_slice();
        let us = view.viewer()?;
        let mut rng = StdRng::seed_from_u64(
            self.seed ^ (view.history().len() as u64).wrapping_mul(0x9E37_79B9),
        );
        let plan = self.plan;
        let belief = Belief::posterior(view, !us, &setup::SetupTable::FITTED, plan.prior_percent);
        let worlds_wanted = if belief.pieces().is_empty() {
            1
        } else {
            plan.worlds
        };
        let kept = self
            .kept
            .take()
            .filter(|kept| plan.keep_world && kept.continues(view));
        let mut worlds = Vec::with_capacity(worlds_wanted);
        if let Some((world, assignment)) = world::sample_keeping(
            view,
            &belief,
            kept.as_ref().map_or(&[], |k| &k.assignment),
            &mut rng,
        ) {
            worlds.push(world);
            self.kept = Some(KeptWorld {
                viewer: us,
                plies: view.history().len(),
                assignment,
            });
        }
        worlds.extend((1..worlds_wanted).filter_map(|_| world::sample(view, &belief, &mut rng)));
        self.report = Report::default();
        if root.len() <= 1 || worlds.is_empty() {
            return root.first().copied();
        }
        let rules = view.rules();
        if plan.vote {
            self.set_contempt(true);
            let screens = plan.screen_percent > 0 && worlds.len() == 1;
            let first = Budget {
                time: budget
                    .time
                    .filter(|_| screens)
                    .map(|t| t * (100 - SCREEN_TIME_PERCENT) / 100)
                    .or(budget.time),
                ..budget
            };
            let chosen = self.vote(view, root, &worlds, first, start)?;
            if screens {
                // The second search's budget: the time left of the move, half the move's nodes.
                let second = Budget {
                    time: budget
                        .time
                        .map(|t| (start + t).saturating_duration_since(Instant::now())),
                    nodes: budget
                        .nodes
                        .map(|n| (n * SCREEN_SHARE_PERCENT / 100).max(1)),
                };
                return Some(self.screen(view, &belief, &worlds[0], chosen, second, &mut rng));
            }
            return Some(chosen);
        }
        // The worlds' searches start after the AI's move: their root side is the opponent.
        self.set_contempt(false);
        let mut allowance = search::Allowance::new(budget, start);
        // Each depth scores the candidates in every world; the next, deeper one only the better half of them
        // (at least `MIN_CANDIDATES`), so the time goes to depth where the choice is made. The first depth is
        // always finished, however small the budget: a move is never played unsearched.
        let mut candidates: Vec<Move> = root.to_vec();
        let mut scores: Vec<(Move, i32)> = Vec::new();
        'deepen: for depth in 1..=plan.max_depth {
            let mut totals = vec![0i64; candidates.len()];
            for world in &worlds {
                let Some(values) = search::score_world(
                    &mut self.engine,
                    rules,
                    world,
                    &candidates,
                    depth,
                    &mut allowance,
                    depth == 1,
                ) else {
                    break 'deepen;
                };
                for (total, value) in totals.iter_mut().zip(values) {
                    *total += i64::from(value);
                }
                self.report.world_searches += 1;
            }
            scores = candidates
                .iter()
                .zip(&totals)
                .map(|(&m, &t)| (m, (t / worlds.len() as i64) as i32))
                .collect();
            scores.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
            self.report.depth = depth;
            let keep = (scores.len() / 2).max(MIN_CANDIDATES).min(scores.len());
            candidates = scores[..keep].iter().map(|&(m, _)| m).collect();
            if allowance.is_spent() {
                break;
            }
        }
        if scores.is_empty() {
            return root.first().copied();
        }
        // The worlds' searches know no history: a move back into a placement already seen is a step towards a
        // draw by repetition, scored as a draw.
        let seen = placements_seen(view);
        for (m, value) in &mut scores {
            if seen.contains(&placement_after(view, *m)) {
                *value = 0;
            }
        }
        scores.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
        let values: Vec<i32> = scores.iter().map(|&(_, v)| v).collect();
        let chosen = Skill::new(self.level).choose(&values, rng.random());
        self.report.worlds = worlds.len();
        self.report.nodes = allowance.spent();
        self.report.elapsed = start.elapsed();
        self.report.scores = scores;
        Some(self.report.scores[chosen].0)
    }
}

impl HiddenAi {
    /// Each world searched by the engine alone with an equal share of the budget; the move most worlds choose
    /// wins (ties to the higher total score).
    fn vote(
        &mut self,
        view: &View,
        root: &[Move],
        worlds: &[jungle_rules::Position],
        budget: Budget,
        start: Instant,
    ) -> Option<Move> {
        let plan = self.plan;
        let mut allowance = search::Allowance::new(budget, start);
        let stretch = plan.history.then(|| world::QuietStretch::of(view));
        let mut tally: Vec<(Move, u32, i64)> = Vec::new();
        for (i, world) in worlds.iter().enumerate() {
            // Worlds left out when the time is gone simply do not vote.
            if i > 0 && allowance.is_spent() {
                break;
            }
            let game = match &stretch {
                Some(stretch) => stretch.game(view, world),
                None => jungle_rules::Game::from_position(view.rules().clone(), *world),
            };
            self.engine.set_game(&game);
            let shares = worlds.len() - i;
            let chosen = self.search_world(&mut allowance, shares);
            let Some((m, value)) = chosen.filter(|&(m, _)| root.contains(&m)) else {
                continue;
            };
            let value = i64::from(value);
            match tally.iter_mut().find(|(t, _, _)| *t == m) {
                Some((_, votes, total)) => {
                    *votes += 1;
                    *total += value;
                }
                None => tally.push((m, 1, value)),
            }
        }
        tally.sort_by_key(|&(_, votes, total)| std::cmp::Reverse((votes, total)));
        self.report.worlds = self.report.world_searches;
        self.report.nodes = allowance.spent();
        self.report.elapsed = start.elapsed();
        self.report.scores = tally
            .iter()
            .map(|&(m, votes, total)| (m, (total / i64::from(votes)) as i32))
            .collect();
        tally
            .first()
            .map(|&(m, _, _)| m)
            .or_else(|| root.first().copied())
    }
}

impl HiddenAi {
    /// `chosen`, the kept world's move, checked against the belief ([`screen`]): when it gambles a Tiger, Lion or
    /// Elephant on unknown pieces' animals with at least the plan's chance of losing it, the move of a second
    /// search within `second`, in a world drawn from the belief given that the likeliest danger is real.
    fn screen(
        &mut self,
        view: &View,
        belief: &Belief,
        world: &jungle_rules::Position,
        chosen: Move,
        second: Budget,
        rng: &mut StdRng,
    ) -> Move {
        let Some(gamble) = screen::gamble(view, belief, world, chosen) else {
            return chosen;
        };
        if gamble.chance * 100.0 < f64::from(self.plan.screen_percent) {
            return chosen;
        }
        let origin = view.piece_at(gamble.square).map(|seen| seen.origin);
        let kept: Assignment = self.kept.as_ref().map_or_else(Vec::new, |k| {
            k.assignment
                .iter()
                .filter(|&&(o, a)| Some(o) != origin && !gamble.takers.contains(&a))
                .copied()
                .collect()
        });
        let given = belief.given(gamble.square, &gamble.takers);
        let Some((danger, _)) = world::sample_keeping(view, &given, &kept, rng) else {
            return chosen;
        };
        let game = if self.plan.history {
            world::QuietStretch::of(view).game(view, &danger)
        } else {
            jungle_rules::Game::from_position(view.rules().clone(), danger)
        };
        self.engine.set_game(&game);
        let mut allowance = search::Allowance::new(second, Instant::now());
        let answer = self.search_world(&mut allowance, 1);
        self.owed += allowance.spent();
        self.report.screened = true;
        self.report.nodes += allowance.spent();
        answer
            .map(|(m, _)| m)
            .filter(|&m| view.legal_moves().contains(m))
            .unwrap_or(chosen)
    }

    /// Searches the engine's game (set already) with the next of `shares` equal shares of what is left: the
    /// best move with its value.
    fn search_world(
        &mut self,
        allowance: &mut search::Allowance,
        shares: usize,
    ) -> Option<ScoredMove> {
        let limits = allowance.share(shares, self.plan.max_depth);
        let result = self.engine.go(&limits, &mut |_| {});
        allowance.spend(result.nodes);
        self.report.world_searches += 1;
        self.report.depth = self.report.depth.max(result.depth);
        result
            .best_move
            .map(|m| (m, search::score_value(result.score)))
    }
}

/// A root move with its value for the AI.
type ScoredMove = (Move, i32);

/// A placement as the view can compare it over time: each piece's square with the start square it came from (so
/// the same animals on the same squares), and the side to move.
type Placement = (Vec<(Square, Square)>, Side);

fn placement(view: &View) -> Placement {
    let pieces = view.pieces().map(|(sq, seen)| (sq, seen.origin)).collect();
    (pieces, view.side_to_move())
}

/// Every placement before a move of the view's history.
fn placements_seen(view: &View) -> Vec<Placement> {
    let mut seen = Vec::with_capacity(view.history().len());
    view.walk(|before, _| seen.push(placement(before)));
    seen
}

/// The placement after the move `m` of the side to move (an attack gives one never seen: it removes a piece).
fn placement_after(view: &View, m: Move) -> Placement {
    let (mut pieces, side) = placement(view);
    if view.piece_at(m.to).is_some() {
        pieces.clear();
    }
    for (sq, _) in &mut pieces {
        if *sq == m.from {
            *sq = m.to;
        }
    }
    pieces.sort_unstable();
    (pieces, !side)
}

/// The baseline: one world drawn from the hard facts only (no reading of behaviour) and searched by the
/// open-game engine with all the time.
#[derive(Debug)]
pub struct OneWorld {
    engine: Engine,
    rng: StdRng,
}

impl OneWorld {
    pub fn new(seed: u64) -> OneWorld {
        OneWorld {
            engine: Engine::new(engine_options()),
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// The same baseline evaluating with the engine's learned net, or not (`EngineOptions::use_nnue`; an
    /// experiment of `hidden_match --nnue 1`).
    #[must_use]
    pub fn with_nnue(mut self, nnue: bool) -> OneWorld {
        let options = EngineOptions {
            use_nnue: nnue,
            ..self.engine.options().clone()
        };
        self.engine.set_options(options);
        self
    }

    /// The engine's move in one world consistent with `view`, within `time`.
    pub fn choose(&mut self, view: &View, time: Duration) -> Option<Move> {
        self.choose_within(view, Budget::time(time))
    }

    /// The engine's move in one world consistent with `view`, within `budget` (which should set a limit: with
    /// none the engine searches to its maximum depth).
    pub fn choose_within(&mut self, view: &View, budget: Budget) -> Option<Move> {
        let us = view.viewer()?;
        let root = view.legal_moves();
        let belief = Belief::of(view, !us, false);
        let Some(world) = world::sample(view, &belief, &mut self.rng) else {
            return root.first().copied();
        };
        self.engine.set_game(&jungle_rules::Game::from_position(
            view.rules().clone(),
            world,
        ));
        let limits = search::Allowance::new(budget, Instant::now()).share(1, MAX_DEPTH);
        let result = self.engine.go(&limits, &mut |_| {});
        result
            .best_move
            .filter(|&m| root.contains(m))
            .or_else(|| root.first().copied())
    }
}
