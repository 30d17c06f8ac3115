//! The engine pool: engine thinking runs on blocking threads, at most `threads` searches at once, so any
//! number of engine games (and analysis requests) queue for the engine instead of starving the server. The
//! line is fair (see `engine_queue`): each requester's turn comes by the engine time it was given lately, so
//! nobody waits behind the jobs others keep in line.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use jungle_rules::{Game, Move, Side};
use serde::Serialize;

use crate::clock::Clock;
use crate::engine_queue::{EngineQueue, Requester};

/// How long the engine thinks per move at each level (1–8) in untimed games. Short at the low levels: they
/// are weak by their skill setting, not by their speed, and nobody likes waiting for a weak opponent.
const LEVEL_MOVETIME_MS: [u64; 8] = [100, 150, 250, 400, 600, 1000, 1500, 2500];

/// How long one analysis request may search.
pub const ANALYSIS_TIME: Duration = Duration::from_millis(1500);

/// The engine's time for a move: the level's time, less when the clock is short.
pub fn movetime(level: u8, clock: Option<&Clock>, side: Side) -> Duration {
    let index = usize::from(level.clamp(1, 8) - 1);
    let by_level = Duration::from_millis(LEVEL_MOVETIME_MS[index]);
    match clock {
        Some(clock) => {
            let left = clock.remaining(side, std::time::Instant::now());
            let budget = left / 30 + clock.increment() / 2;
            by_level.min(budget).max(Duration::from_millis(20))
        }
        None => by_level,
    }
}

/// The engine's view of a position, for the analysis page.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Analysis {
    /// From Blue's point of view: centipawns, or plies to a forced win (positive: Blue wins).
    pub score_cp: Option<i32>,
    pub mate_plies: Option<i32>,
    pub depth: u32,
    pub best: Option<String>,
    pub pv: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct EnginePool {
    queue: Arc<EngineQueue>,
    /// Moves searched for games since the start (several nodes: each game's move is searched by one).
    moves_searched: Arc<AtomicU64>,
}

impl EnginePool {
    /// A pool running at most `threads` searches at once (at least one).
    pub fn new(threads: usize) -> EnginePool {
        EnginePool {
            queue: EngineQueue::new(threads),
            moves_searched: Arc::new(AtomicU64::new(0)),
        }
    }

    /// Jobs waiting for a thread.
    pub fn waiting(&self) -> usize {
        self.queue.waiting()
    }

    /// How many game moves this pool has searched since it started.
    pub fn moves_searched(&self) -> u64 {
        self.moves_searched.load(Ordering::Relaxed)
    }

    /// Runs `requester`'s blocking engine work expected to take `duration` once its turn comes; returns its
    /// result and when it started.
    pub(crate) async fn run<T: Send + 'static>(
        &self,
        requester: &Requester,
        duration: Duration,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Option<(T, Instant)> {
        let _slot = self.queue.acquire(requester, duration).await;
        let started = Instant::now();
        let result = tokio::task::spawn_blocking(work).await.ok()?;
        Some((result, started))
    }

    /// The engine's move at `level` within `movetime` and when its search started (the wait before is not
    /// the engine's time); `None` when the game is over.
    pub async fn best_move(
        &self,
        requester: &Requester,
        game: Game,
        level: u8,
        movetime: Duration,
    ) -> Option<(Move, Instant)> {
        self.moves_searched.fetch_add(1, Ordering::Relaxed);
        let (found, started) = self
            .run(requester, movetime, move || {
                search::best_move(&game, level, movetime)
            })
            .await?;
        Some((found?, started))
    }

    /// The engine's evaluation and best line for the last position of `game`, asked for by `requester`.
    pub async fn analyse(&self, requester: &Requester, game: Game) -> Option<Analysis> {
        self.run(requester, ANALYSIS_TIME, move || {
            search::analyse(&game, ANALYSIS_TIME)
        })
        .await
        .map(|(analysis, _)| analysis)
    }

    /// Whether the engine (playing `engine_side`) accepts a draw offer now: only when it does not think it is
    /// better.
    pub fn accepts_draw(game: &Game, engine_side: Side) -> bool {
        search::accepts_draw(game, engine_side)
    }
}

/// The calls into `jungle-search`, all blocking (run them on the pool).
mod search {
    use super::*;
    use jungle_search::{Engine, EngineOptions, Limits, Score};

    pub fn best_move(game: &Game, level: u8, movetime: Duration) -> Option<Move> {
        jungle_search::best_move(game, level, movetime)
    }

    pub fn analyse(game: &Game, time: Duration) -> Analysis {
        let mut engine = Engine::new(EngineOptions {
            move_overhead_ms: 0,
            ..EngineOptions::default()
        });
        engine.set_game(game);
        let result = engine.go(&Limits::movetime(time), &mut |_| {});
        // The engine scores for the side to move; the page shows Blue's point of view.
        let sign = if game.side_to_move() == Side::Blue {
            1
        } else {
            -1
        };
        let (score_cp, mate_plies) = match (game.is_over(), result.score) {
            (true, _) => (None, None),
            (false, Score::Cp(cp)) => (Some(sign * cp), None),
            (false, Score::Mate(n)) => (None, Some(sign * n)),
        };
        Analysis {
            score_cp,
            mate_plies,
            depth: result.depth,
            best: result.best_move.map(|m| m.to_string()),
            pv: result.pv.iter().map(Move::to_string).collect(),
        }
    }

    /// Accepts when the static evaluation says the engine is clearly worse (a draw is then a gift to it).
    pub fn accepts_draw(game: &Game, engine_side: Side) -> bool {
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 1,
            ..EngineOptions::default()
        });
        engine.set_game(game);
        let for_mover = engine.evaluate();
        let for_engine = if game.side_to_move() == engine_side {
            for_mover
        } else {
            -for_mover
        };
        for_engine <= -DRAW_ACCEPT_MARGIN
    }
}

/// How far behind (in centipawns, a Cat is about 200) the engine must think it is to accept a draw.
const DRAW_ACCEPT_MARGIN: i32 = 100;
