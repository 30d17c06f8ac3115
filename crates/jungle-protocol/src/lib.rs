#![doc = include_str!("../README.md")]

mod command;
mod hidden;
mod response;
mod session;

pub use command::{Command, GoParams, ParseCommandError, StartPosition};
pub use hidden::{HiddenSession, position_line};
pub use response::{OptionKind, OptionSpec, Response};
pub use session::{ENGINE_AUTHOR, ENGINE_NAME, MAX_PERFT_DEPTH, Session, limits, option_specs};
