//! Puzzles without the web: the embedded collection and how a solver's attempt moves the Glicko-2 ratings.

pub mod collection;
pub mod rating;
