//! The learned evaluation (NNUE: an efficiently updatable neural network), an alternative to the hand-written
//! [`crate::eval`] chosen by the option `use_nnue` (protocol: `Use NNUE`; on by default) for the rules the net
//! was trained on; every other rule set is evaluated by hand.
//!
//! - [`features`]: the sparse inputs, animal × own/enemy × square, seen from each side (the side to move's
//!   view first);
//! - [`network`]: the quantised net and its file format (the shipped net is embedded in the binary);
//! - [`kernels`]: the integer arithmetic, in portable code the compiler vectorises;
//! - [`accumulator`]: the first layer's output per side, updated move by move;
//! - `stack`: one accumulator per ply of the search, brought up to date only when a node is evaluated.
//!
//! The net: 1008 inputs → 128 per side (the same weights for both sides' views), clipped ReLU on the two
//! halves concatenated (side to move first) → 1 output in centipawns. The data and the trainer are in
//! `tools/nnue`; docs/engine.md has the recipe.

pub mod accumulator;
pub mod features;
pub mod kernels;
pub mod network;
pub(crate) mod stack;

pub use accumulator::Accumulator;
pub use network::{NetError, Network};
