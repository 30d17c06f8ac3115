//! One file per subcommand: its arguments and `run`.

pub mod bench;
pub mod explorer;
pub mod match_cmd;
pub mod moves;
pub mod perft;
pub mod play;
pub mod puzzles;
pub mod rules;
pub mod serve;
pub mod show;
pub mod tb;
pub mod uci;
