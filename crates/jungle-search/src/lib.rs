#![doc = include_str!("../README.md")]

mod bench;
mod engine;
pub mod eval;
mod iterate;
mod memory;
mod movepick;
pub mod nnue;
mod scale;
mod search;
pub mod skill;
mod static_eval;
mod tablebase;
mod time;
mod tt;
mod types;

pub use bench::{BENCH_DEPTH, BenchPosition, BenchReport, bench, bench_positions};
pub use engine::{Engine, best_move};
pub use eval::{Evaluator, W as EVAL_WEIGHTS, Weights};
pub use memory::{available_memory_mb, max_hash_mb};
pub use nnue::{NetError, Network};
pub use search::Features;
pub use types::{Clock, EngineOptions, Limits, Score, SearchInfo, SearchResult, StopHandle};
