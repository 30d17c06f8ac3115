//! The search's score scale and depth limit, shared by the search, the tablebase probes that score their
//! results on the same scale, and the skill levels that read them.

/// The score of a won position at the root: a mate in `n` plies scores `MATE - n`.
pub(crate) const MATE: i32 = 30_000;
/// Scores beyond this are forced wins or losses.
pub(crate) const MATE_BOUND: i32 = MATE - 1_000;
/// Above every score a search can return.
pub(crate) const INFINITE: i32 = 31_000;
/// The deepest ply a search reaches.
pub(crate) const MAX_PLY: usize = 120;
