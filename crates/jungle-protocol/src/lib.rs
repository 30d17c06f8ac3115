#![doc = include_str!("../README.md")]

mod command;
mod response;
mod session;

pub use command::{Command, GoParams, ParseCommandError, StartPosition};
pub use response::{OptionKind, OptionSpec, Response};
pub use session::{ENGINE_AUTHOR, ENGINE_NAME, MAX_PERFT_DEPTH, Session, limits, option_specs};
