//! The `Engine`: owns the transposition table, the search threads' state and the options, and runs searches
//! on a game (its history matters for the draw rules).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use jungle_rules::{Game, Move, Rules};
use jungle_tb::Tablebases;

use crate::eval::Evaluator;
use crate::iterate::{IterationPlan, internal_to_score};
use crate::nnue::Network;
use crate::nnue::stack::AccumulatorStack;
use crate::scale::MAX_PLY;
use crate::search::{Control, Features, Worker};
use crate::skill::Skill;
use crate::tablebase;
use crate::tt::TranspositionTable;
use crate::{EngineOptions, Limits, Score, SearchInfo, SearchResult, StopHandle, time};
use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};

/// A Jungle engine. Create one per game or player; [`Engine::set_game`] before each [`Engine::go`].
///
/// ```
/// use jungle_rules::{Game, Rules};
/// use jungle_search::{Engine, EngineOptions, Limits};
/// let mut engine = Engine::new(EngineOptions::default());
/// let game = Game::new(Rules::default());
/// engine.set_game(&game);
/// let result = engine.go(&Limits::depth(4), &mut |_| {});
/// assert!(game.position().is_legal(game.rules(), result.best_move.unwrap()));
/// ```
#[derive(Debug)]
pub struct Engine {
    options: EngineOptions,
    tt: Arc<TranspositionTable>,
    stop: Arc<AtomicBool>,
    nodes: Arc<AtomicU64>,
    eval: Arc<Evaluator>,
    workers: Vec<Worker>,
    game: Game,
    features: Features,
    weights: crate::Weights,
    /// Only skill choices use it; seeded from the OS, so weak levels vary from game to game.
    random: SmallRng,
    /// The open tables, if `tablebase_path` is set and they are valid for the game's rules.
    tablebases: Option<Arc<Tablebases>>,
    /// The directory and rules `tablebases` was opened for (so they are reopened only when either changes).
    tablebases_for: Option<(std::path::PathBuf, Rules)>,
    /// Why the tables could not be opened, until [`Engine::take_tablebase_error`] reports it.
    tablebase_error: Option<String>,
    /// Why the transposition table is smaller than `options.hash_mb`, until [`Engine::take_hash_notice`]
    /// reports it.
    hash_notice: Option<String>,
    /// The learned evaluation the options ask for (`use_nnue`, `eval_file`), whatever the game's rules.
    network: NetSource,
    /// Why the net of the options could not be read, until [`Engine::take_network_error`] reports it.
    network_error: Option<String>,
}

/// Where the learned evaluation comes from, as the options say.
#[derive(Debug)]
enum NetSource {
    /// `use_nnue` off, or an `eval_file` that could not be read: the hand-written evaluation everywhere.
    Hand,
    /// The built-in net of the game's rules where there is one, the hand-written evaluation elsewhere.
    BuiltIn,
    /// The `eval_file`'s net for the rules it serves, the hand-written evaluation elsewhere.
    File(Arc<Network>),
}

impl Engine {
    pub fn new(options: EngineOptions) -> Engine {
        let options = options.clamped();
        let rules = Rules::default();
        let (tt, hash_notice) = allocate_table(options.hash_mb, None);
        let mut engine = Engine {
            tt,
            stop: Arc::new(AtomicBool::new(false)),
            nodes: Arc::new(AtomicU64::new(0)),
            eval: Arc::new(Evaluator::new(&rules)),
            workers: Vec::new(),
            game: Game::new(rules),
            features: Features::ALL,
            weights: crate::eval::W,
            random: SmallRng::from_os_rng(),
            options: options.clone(),
            tablebases: None,
            tablebases_for: None,
            tablebase_error: None,
            hash_notice,
            network: NetSource::Hand,
            network_error: None,
        };
        engine.resize_workers();
        engine.open_tablebases();
        engine.load_network();
        engine
    }

    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Applies new options: the table is reallocated (and so emptied) only when its size changes.
    pub fn set_options(&mut self, options: EngineOptions) {
        let options = options.clamped();
        if options.hash_mb != self.options.hash_mb {
            // The old table is released first, so its memory can go to the new one.
            let old = self.tt.megabytes();
            self.tt = allocate_table(1, None).0;
            for w in &mut self.workers {
                w.tt = Arc::clone(&self.tt);
            }
            let (tt, notice) = allocate_table(options.hash_mb, Some(old));
            self.tt = tt;
            self.hash_notice = notice;
            for w in &mut self.workers {
                w.tt = Arc::clone(&self.tt);
            }
        }
        let net_changed = (options.use_nnue, &options.eval_file)
            != (self.options.use_nnue, &self.options.eval_file);
        self.options = options;
        self.resize_workers();
        self.open_tablebases();
        if net_changed {
            self.load_network();
        }
    }

    /// Reads the net the options ask for. A file that cannot be used leaves the hand-written evaluation in
    /// use and the reason in [`Engine::take_network_error`].
    fn load_network(&mut self) {
        self.network = NetSource::Hand;
        self.network_error = None;
        if self.options.use_nnue {
            match &self.options.eval_file {
                None => self.network = NetSource::BuiltIn,
                Some(path) => match Network::load(path) {
                    Ok(net) => self.network = NetSource::File(Arc::new(net)),
                    Err(e) => {
                        self.network_error = Some(format!(
                            "EvalFile \"{}\" not used ({e}): evaluating by hand",
                            path.display()
                        ));
                    }
                },
            }
        }
        // Stored static evaluations came from the other evaluation.
        self.tt.clear();
    }

    /// Why the `eval_file` option's net is not in use, once per failed reading.
    pub fn take_network_error(&mut self) -> Option<String> {
        self.network_error.take()
    }

    /// The learned net evaluating the current game: the built-in net of the game's rules, if there is one
    /// ([`Network::built_in`]), or the `eval_file`'s net if it serves the game's rules ([`Network::serves`]).
    pub fn active_network(&self) -> Option<&Arc<Network>> {
        match &self.network {
            NetSource::Hand => None,
            NetSource::BuiltIn => Network::built_in(self.game.rules()),
            NetSource::File(net) => Some(net).filter(|net| net.serves(self.game.rules())),
        }
    }

    /// Gives each search thread the accumulators of the active net (kept when the net is the same).
    fn share_network(&mut self) {
        let net = self.active_network().cloned();
        for w in &mut self.workers {
            let same = match (&w.nnue, &net) {
                (Some(stack), Some(net)) => Arc::ptr_eq(stack.network(), net),
                (None, None) => true,
                _ => false,
            };
            if !same {
                w.nnue = net
                    .as_ref()
                    .map(|net| AccumulatorStack::new(Arc::clone(net), MAX_PLY + 2));
            }
        }
    }

    /// Opens (or closes) the tables for the current option and rules, when either changed. A directory that
    /// cannot be used leaves the engine without tables and the reason in [`Engine::take_tablebase_error`].
    fn open_tablebases(&mut self) {
        let wanted = self
            .options
            .tablebase_path
            .clone()
            .map(|path| (path, self.game.rules().clone()));
        if wanted != self.tablebases_for {
            self.tablebases = None;
            self.tablebase_error = None;
            if let Some((path, rules)) = &wanted {
                match Tablebases::open(path, rules) {
                    Ok(tb) => self.tablebases = Some(Arc::new(tb)),
                    Err(e) => {
                        self.tablebase_error =
                            Some(format!("tablebases not used (\"{}\"): {e}", path.display()));
                    }
                }
            }
            self.tablebases_for = wanted;
        }
        for w in &mut self.workers {
            w.set_tablebases(self.tablebases.clone());
        }
    }

    /// Why the tables of the `tablebase_path` option are not in use, once per failed opening.
    pub fn take_tablebase_error(&mut self) -> Option<String> {
        self.tablebase_error.take()
    }

    /// Why the transposition table is smaller than the `hash_mb` option asked for (the memory was not
    /// available), once per resize.
    pub fn take_hash_notice(&mut self) -> Option<String> {
        self.hash_notice.take()
    }

    /// The tables in use, if any.
    pub fn tablebases(&self) -> Option<&Tablebases> {
        self.tablebases.as_deref()
    }

    fn resize_workers(&mut self) {
        let wanted = self.options.threads;
        self.workers.truncate(wanted);
        while self.workers.len() < wanted {
            let mut w = Worker::new(
                self.workers.len(),
                Arc::clone(&self.eval),
                Arc::clone(&self.tt),
                Arc::clone(&self.stop),
                Arc::clone(&self.nodes),
            );
            w.features = self.features;
            w.set_tablebases(self.tablebases.clone());
            self.workers.push(w);
        }
    }

    /// Switches search features off or on (for strength tests against a plain alpha-beta baseline).
    pub fn set_features(&mut self, features: Features) {
        self.features = features;
        for w in &mut self.workers {
            w.features = features;
        }
    }

    /// Sets the game to search: its rules, start position and moves (the history decides repetitions).
    pub fn set_game(&mut self, game: &Game) {
        if game.rules() != &self.eval.rules {
            self.rebuild_evaluator(game.rules().clone());
        }
        self.game = game.clone();
        self.open_tablebases();
    }

    /// Evaluates with other weights than the engine's own (for tuning and strength tests).
    pub fn set_weights(&mut self, weights: crate::Weights) {
        self.weights = weights;
        self.rebuild_evaluator(self.eval.rules.clone());
    }

    fn rebuild_evaluator(&mut self, rules: Rules) {
        self.eval = Arc::new(Evaluator::with_weights(&rules, self.weights));
        for w in &mut self.workers {
            w.set_evaluator(Arc::clone(&self.eval));
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(Arc::clone(&self.stop))
    }

    /// Forgets everything learnt (a new game): the table and the move-ordering statistics.
    pub fn clear(&mut self) {
        self.tt.clear();
        for w in &mut self.workers {
            w.clear();
        }
    }

    /// The static evaluation of the current position from the side to move's point of view.
    pub fn evaluate(&self) -> i32 {
        match self.active_network() {
            Some(net) => net.evaluate(self.game.position()),
            None => self.eval.evaluate(self.game.position()),
        }
    }

    /// Searches the current position within the limits, calling `on_info` after each completed depth (and
    /// line). Blocks until done; [`StopHandle::stop`] from another thread ends it early. A stop requested
    /// before the search starts ends it after depth 1.
    ///
    /// The best move is `None` only when the game is over (then the score is `Mate(0)` for a loss, `Cp(0)` for
    /// a draw).
    pub fn go(&mut self, limits: &Limits, on_info: &mut dyn FnMut(&SearchInfo)) -> SearchResult {
        let result = self.search(limits, on_info);
        self.stop.store(false, Ordering::SeqCst);
        result
    }

    fn search(&mut self, limits: &Limits, on_info: &mut dyn FnMut(&SearchInfo)) -> SearchResult {
        let start = Instant::now();
        let pos = *self.game.position();
        let root_moves = self.game.legal_moves();
        if root_moves.is_empty() {
            let score = match self.game.outcome() {
                Some(outcome) if outcome.winner.is_none() => Score::Cp(0),
                _ => Score::Mate(0),
            };
            return SearchResult {
                best_move: None,
                ponder: None,
                score,
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
            };
        }
        let skill = Skill::new(self.options.skill_level);
        let lines = self.options.multipv.max(skill.lines).min(root_moves.len());
        let max_depth = [limits.depth, skill.max_depth]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(MAX_PLY as u32 - 8)
            .clamp(1, MAX_PLY as u32 - 8);
        let budget = time::budget(
            limits,
            pos.side_to_move(),
            Duration::from_millis(self.options.move_overhead_ms),
        );

        self.tt.new_search();
        self.share_network();
        self.nodes.store(0, Ordering::SeqCst);
        let hashes: Vec<u64> = self.game.positions().iter().map(|p| p.hash()).collect();
        for w in &mut self.workers {
            w.prepare(&hashes);
            w.contempt = self.options.contempt;
            w.control = None;
            // Helpers may stop at any time: only the main thread's result is used.
            w.may_stop = w.id != 0;
        }
        let (main, helpers) = self.workers.split_first_mut().expect("at least one worker");
        main.control = Some(Control {
            start,
            hard: budget.hard,
            nodes: [limits.nodes, skill.max_nodes].into_iter().flatten().min(),
        });
        let tt = Arc::clone(&self.tt);
        let stop = Arc::clone(&self.stop);
        let reported_lines = self.options.multipv.min(lines);
        let may_finish_early = !limits.infinite && limits.depth.is_none();
        let iterations = std::thread::scope(|scope| {
            for helper in helpers.iter_mut() {
                let tt = Arc::clone(&tt);
                scope.spawn(move || {
                    let plan = IterationPlan {
                        max_depth,
                        lines: 1,
                        reported_lines: 0,
                        soft: None,
                        start,
                        on_info: None,
                        may_finish_early: false,
                        root_moves: root_moves.len(),
                    };
                    helper.iterate(&pos, plan, &tt);
                    helper.flush_nodes();
                });
            }
            let plan = IterationPlan {
                max_depth,
                lines,
                reported_lines,
                soft: budget.soft,
                start,
                on_info: Some(on_info),
                may_finish_early,
                root_moves: root_moves.len(),
            };
            let done = main.iterate(&pos, plan, &tt);
            if limits.infinite {
                // `go infinite` answers only after `stop`.
                while !stop.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            main.flush_nodes();
            stop.store(true, Ordering::SeqCst);
            done
        });
        let nodes = self.nodes.load(Ordering::SeqCst);
        let scores: Vec<i32> = iterations.lines.iter().map(|l| l.score).collect();
        let chosen = skill.choose(&scores, self.random.next_u64());
        let line = iterations.lines.get(chosen);
        let best_move = line
            .and_then(|l| l.pv.first().copied())
            .filter(|m| root_moves.contains(*m))
            .or_else(|| root_moves.first().copied());
        let mut pv: Vec<Move> = line.map(|l| l.pv.clone()).unwrap_or_default();
        let mut score = internal_to_score(line.map_or(0, |l| l.score));
        let mut best_move = best_move;
        // At the root the tables have the last word (at full strength): the search's move is kept when it has
        // the best value by the tables under the quiet-ply rule (the search chooses among equally good moves),
        // else the tables' best move. Not when the rule may overrule a table value and no table of distances to
        // a capture settles it: then the search, which counts quiet plies, decides.
        if skill.is_full_strength()
            && let Some(tb) = &self.tablebases
            && let Some(choice) = tablebase::best_root_move(tb, &pos, self.game.rules())
        {
            let keeps_value = best_move
                .and_then(|m| tablebase::root_move_score(tb, &pos, m, self.game.rules()))
                == Some(choice.score);
            if !keeps_value {
                best_move = Some(choice.best);
                pv = vec![choice.best];
            }
            score = internal_to_score(choice.score);
        }
        SearchResult {
            best_move,
            ponder: pv.get(1).copied(),
            score,
            depth: iterations.depth,
            nodes,
            pv,
        }
    }
}

/// A table of `wanted` MiB if the system can give it, else the largest it can (halving from the limit of
/// [`crate::max_hash_mb`]; `previous` is tried first as the size known to work), with a notice saying so.
fn allocate_table(
    wanted: usize,
    previous: Option<usize>,
) -> (Arc<TranspositionTable>, Option<String>) {
    let limit = crate::max_hash_mb();
    let mut size = wanted.min(limit);
    let table = loop {
        if let Some(table) = TranspositionTable::try_new(size) {
            break table;
        }
        size = match previous {
            Some(p) if p < size => p,
            _ if size > 1 => size / 2,
            // Not even one MiB: nothing else will work either, and the abort says why.
            _ => std::alloc::handle_alloc_error(std::alloc::Layout::new::<[u8; 1 << 20]>()),
        };
    };
    let notice = (table.megabytes() < wanted).then(|| {
        format!(
            "Hash {wanted} MiB is more than this machine can give (at most {limit} MiB, half the memory available); the table has {} MiB",
            table.megabytes()
        )
    });
    (Arc::new(table), notice)
}

/// The engine's move at a skill level (1–8) within a time budget: for user interfaces (call it from a blocking
/// thread in async code). `None` only when the game is over.
pub fn best_move(game: &Game, skill_level: u8, movetime: Duration) -> Option<Move> {
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        skill_level,
        move_overhead_ms: 0,
        ..EngineOptions::default()
    });
    engine.set_game(game);
    engine
        .go(&Limits::movetime(movetime), &mut |_| {})
        .best_move
}
