#![doc = include_str!("../README.md")]

pub mod sprt;
pub mod stats;

pub use sprt::{EloModel, Sprt, SprtError, SprtStatus};
pub use stats::{EloEstimate, Pentanomial, Wld};
