#![doc = include_str!("../README.md")]

mod animal;
mod bitboard;
mod diagram;
pub mod fen;
mod game;
mod movegen;
mod moves;
mod notation;
mod outcome;
mod perft;
pub mod pgn;
mod position;
pub mod rules;
mod side;
mod square;
pub mod terrain;
mod zobrist;

pub use animal::{Animal, Piece};
pub use bitboard::Bitboard;
pub use diagram::Diagram;
pub use fen::{ParseFenError, START_FEN};
pub use game::{Game, GameError, draw_by_history};
pub use movegen::{IllegalMoveError, IllegalReason, reach};
pub use moves::{Move, MoveError, MoveList, ParseMoveError};
pub use notation::{AnimalMove, Notation, NotationError, WrittenMove};
pub use outcome::{Outcome, ParseTerminationError, Termination};
pub use perft::{perft, perft_divide, perft_parallel};
pub use pgn::{ParsePgnError, PgnErrorKind, PgnGame, TagError, read_games};
pub use position::{Position, PositionError, Setup};
pub use rules::{BoardKind, Preset, Rules, RulesError};
pub use side::{BySide, Side};
pub use square::{ParseSquareError, Square};
