//! The vocabulary of the engine API: options, limits, scores, progress reports and results.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use jungle_rules::{BySide, Move};

/// The engine's settings (the protocol's `setoption`s).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Transposition table size in MiB (rounded down to a whole number of entries, at least one MiB).
    pub hash_mb: usize,
    /// Search threads (Lazy SMP); 1 is deterministic.
    pub threads: usize,
    /// Principal variations reported per depth.
    pub multipv: usize,
    /// 1 (beatable by a beginner) ..= 8 (full strength); see [`crate::skill`].
    pub skill_level: u8,
    /// Time kept in reserve per move for communication and process scheduling.
    pub move_overhead_ms: u64,
    /// A directory of endgame tables (`jungle tb generate`) made under the game's rules: probed at the root
    /// and inside the search. `None`: no tables.
    pub tablebase_path: Option<PathBuf>,
    /// Evaluate with the learned net ([`crate::nnue`]) for the rules it was trained on (the built-in net: the
    /// standard rules); the hand-written evaluation otherwise (and for every rule set when `false`). On by
    /// default: the net beat the hand-written evaluation in SPRTs at two time controls (docs/engine.md).
    pub use_nnue: bool,
    /// The net file to use instead of the one built in (`None`: the built-in net).
    pub eval_file: Option<PathBuf>,
    /// What a draw by the draw rules (repetition, quiet plies) found inside the search is worth *less* than
    /// zero to the side to move at the root (and more to the other): with a positive value the engine avoids
    /// draws when it is not clearly worse. 0: a draw is worth 0 to both.
    pub contempt: i32,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            skill_level: crate::skill::MAX_LEVEL,
            move_overhead_ms: 30,
            tablebase_path: None,
            use_nnue: true,
            eval_file: None,
            contempt: 0,
        }
    }
}

impl EngineOptions {
    /// Largest accepted values, as announced by the protocol.
    pub const MAX_HASH_MB: usize = 65_536;
    pub const MAX_THREADS: usize = 256;
    pub const MAX_MULTIPV: usize = 32;
    pub const MAX_MOVE_OVERHEAD_MS: u64 = 10_000;
    /// The largest contempt either way (a Cat is worth about 200).
    pub const MAX_CONTEMPT: i32 = 1_000;

    /// The options with every value clamped into its valid range.
    #[must_use]
    pub fn clamped(mut self) -> EngineOptions {
        self.hash_mb = self.hash_mb.clamp(1, Self::MAX_HASH_MB);
        self.threads = self.threads.clamp(1, Self::MAX_THREADS);
        self.multipv = self.multipv.clamp(1, Self::MAX_MULTIPV);
        self.skill_level = self
            .skill_level
            .clamp(crate::skill::MIN_LEVEL, crate::skill::MAX_LEVEL);
        self.move_overhead_ms = self.move_overhead_ms.min(Self::MAX_MOVE_OVERHEAD_MS);
        self.contempt = self.contempt.clamp(-Self::MAX_CONTEMPT, Self::MAX_CONTEMPT);
        self
    }
}

/// What bounds a search (the protocol's `go` parameters). With none set the search runs to the maximum depth.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
    /// Search until stopped; the result is returned only after [`StopHandle::stop`].
    pub infinite: bool,
}

impl Limits {
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    pub fn movetime(movetime: Duration) -> Limits {
        Limits {
            movetime: Some(movetime),
            ..Limits::default()
        }
    }

    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Whether the search ends by itself: some depth, node, time or clock limit is set and it is not
    /// infinite. An unbounded search (a bare `go`) runs until stopped.
    pub fn is_bounded(&self) -> bool {
        !self.infinite
            && (self.depth.is_some()
                || self.nodes.is_some()
                || self.movetime.is_some()
                || self.clock.is_some())
    }
}

/// A game clock: time left and increment per side (`wtime`/`winc` are Blue's, `btime`/`binc` Red's).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time: BySide<Duration>,
    pub increment: BySide<Duration>,
    /// Moves until the next time control, if the control is not sudden death.
    pub moves_to_go: Option<u32>,
}

/// A search score from the point of view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawn-like units (a Cat is worth about 200).
    Cp(i32),
    /// A forced result: win in `n` plies if `n > 0`, loss in `-n` plies if `n < 0`; `Mate(0)`: the game is
    /// already lost for the side to move.
    Mate(i32),
}

impl Score {
    /// Whether this score is better for the side to move than `other`.
    pub fn beats(self, other: Score) -> bool {
        self.order_key() > other.order_key()
    }

    /// A total order consistent with "better for the side to move".
    pub fn order_key(self) -> i64 {
        match self {
            Score::Cp(cp) => i64::from(cp),
            Score::Mate(n) if n > 0 => 1_000_000 - i64::from(n),
            Score::Mate(n) => -1_000_000 - i64::from(n),
        }
    }

    /// The number of full moves (UCI's `score mate` unit) to the forced result, signed as the plies are.
    pub fn mate_in_moves(self) -> Option<i32> {
        match self {
            Score::Cp(_) => None,
            Score::Mate(n) if n > 0 => Some((n + 1) / 2),
            Score::Mate(n) => Some(n / 2),
        }
    }
}

/// `cp 35`, `mate 3` (moves, as UCI prints it), `mate -2`.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(_) => write!(f, "mate {}", self.mate_in_moves().unwrap_or(0)),
        }
    }
}

/// A progress report, sent after each completed depth (and each line of MultiPV).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based index of the line.
    pub multipv: usize,
    pub score: Score,
    pub nodes: u64,
    pub nps: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// `None` only when the game is over.
    pub best_move: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Move>,
}

/// Stops a running [`crate::Engine::go`] from another thread: the search returns its best move soon after.
#[derive(Clone, Debug, Default)]
pub struct StopHandle(pub(crate) Arc<AtomicBool>);

impl StopHandle {
    pub fn stop(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Withdraws a stop request that no search has consumed yet (a stop that arrived just after a search ended
    /// would otherwise cut the next one short). Call it before starting a search, never during one.
    pub fn clear(&self) {
        self.0.store(false, Ordering::SeqCst);
    }

    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}
