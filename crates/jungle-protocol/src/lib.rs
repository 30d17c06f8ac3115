#![doc = include_str!("../README.md")]

mod command;
mod hidden;
mod info;
mod input;
mod perft;
mod response;
mod session;

pub use command::{Command, GoParams, ParseCommandError, StartPosition};
pub use hidden::{HiddenSession, game_seed, position_line};
pub use info::{Info, ParseInfoError, ScoreBound, WireScore};
pub use input::MAX_LINE_BYTES;
pub use response::{OptionKind, OptionSpec, ParseResponseError, Response};
pub use session::{
    ENGINE_AUTHOR, ENGINE_NAME, MAX_INFO_STRING_CHARS, MAX_PERFT_DEPTH, Session, limits,
    option_specs,
};
