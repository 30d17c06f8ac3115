//! Jungle puzzles: the puzzle type and its collection file, generation from the tablebases (exact, with
//! distances) and from engine self-play (critical moments confirmed by a deep search), and verification.
//! The guide is `docs/puzzles.md`.

mod attempt;
mod collection;
pub mod judge;
mod puzzle;
pub mod selfplay;
pub mod tablebase;
mod themes;
mod verify;

pub use attempt::{AttemptError, Step, judge_attempt};
pub use collection::{CollectionError, MAX_LINE_BYTES, read_collection, write_collection};
pub use judge::{Judgement, decisive};
pub use puzzle::{
    Eval, Line, MAX_ID_LEN, MAX_SOLUTION_PLIES, Puzzle, PuzzleError, Source, Verification,
    is_puzzle_id, side_name,
};
pub use themes::{Theme, themes_of};
pub use verify::{Verdict, VerifyError, verify};
