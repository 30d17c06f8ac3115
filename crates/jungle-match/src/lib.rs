#![doc = include_str!("../README.md")]

pub mod adjudication;
pub mod args;
pub mod balance;
pub mod engine;
pub mod game;
pub mod hidden_game;
pub mod openings;
pub mod pgn_out;
pub mod setup;
pub mod sprt;
pub mod standings;
pub mod stats;
pub mod time_control;
pub mod tournament;

pub use sprt::{EloModel, Sprt, SprtError, SprtStatus};
pub use stats::{EloEstimate, Pentanomial, Wld};
