//! `Position`: the pieces on the board, the side to move and the move counters — small and `Copy`, so the
//! search copies it to make a move. Only valid positions exist: build one from a [`Setup`] (or FEN), which is
//! checked against the [`Rules`].

use std::fmt;

use crate::terrain::DENS;
use crate::{
    Animal, Bitboard, BySide, Move, Outcome, Piece, Rules, Side, Square, Termination, zobrist,
};

const NO_PIECE: u8 = 0xFF;

/// A position under some [`Rules`]. It does not hold the rules: every method that needs them takes them, and
/// the caller keeps using the rules the position was validated with.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Piece code (`side * 8 + animal`) per square, `NO_PIECE` where empty.
    board: [u8; 63],
    side_to_move: Side,
    sides: BySide<Bitboard>,
    animals: [Bitboard; 8],
    quiet_plies: u32,
    move_number: u32,
    hash: u64,
}

/// An unvalidated arrangement: what FEN text or a board editor produces before [`Position::from_setup`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    pub board: [Option<Piece>; 63],
    pub side_to_move: Side,
    /// Plies since the last capture.
    pub quiet_plies: u32,
    /// The move number, starting at 1 and increasing after Red's move.
    pub move_number: u32,
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            board: [None; 63],
            side_to_move: Side::Blue,
            quiet_plies: 0,
            move_number: 1,
        }
    }
}

/// Why a setup is not a valid position under the rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("two {side} {animal}s (each side has one of each animal)")]
    Duplicate { side: Side, animal: Animal },
    #[error("the {animal} is not part of this board's game")]
    NotInPlay { animal: Animal },
    #[error("the {piece} on {square} cannot stand in water")]
    InWater { piece: Piece, square: Square },
    #[error("the {piece} on {square} stands in its own den")]
    InOwnDen { piece: Piece, square: Square },
    #[error("the {piece} on {square} stands on a trap, which trap-max-rank forbids")]
    OnForbiddenTrap { piece: Piece, square: Square },
    #[error("no pieces on the board")]
    Empty,
    #[error("both dens are occupied by enemy pieces")]
    BothDensEntered,
    #[error("move number must be at least 1")]
    MoveNumberZero,
}

#[inline]
const fn code(piece: Piece) -> u8 {
    (piece.side as u8) << 3 | piece.animal as u8
}

#[inline]
fn decode(code: u8) -> Option<Piece> {
    if code == NO_PIECE {
        None
    } else {
        let side = if code & 8 == 0 { Side::Blue } else { Side::Red };
        Some(Piece::new(side, Animal::ALL[(code & 7) as usize]))
    }
}

impl Position {
    /// The start position of the rules' board.
    pub fn start(rules: &Rules) -> Position {
        let fen = match rules.options().board {
            crate::BoardKind::Jungle => crate::fen::START_FEN,
            crate::BoardKind::AnimalCheckers => crate::fen::ANIMAL_CHECKERS_START_FEN,
        };
        Position::from_fen(fen, rules).expect("the start positions are valid")
    }

    /// Checks a setup against the rules.
    ///
    /// # Errors
    /// A [`PositionError`] naming the first problem found.
    pub fn from_setup(setup: &Setup, rules: &Rules) -> Result<Position, PositionError> {
        if setup.move_number == 0 {
            return Err(PositionError::MoveNumberZero);
        }
        let mut seen = BySide::new([false; 8], [false; 8]);
        let mut dens_entered = 0;
        for sq in Square::all() {
            let Some(piece) = setup.board[sq.index()] else {
                continue;
            };
            let Piece { side, animal } = piece;
            if std::mem::replace(&mut seen[side][animal.index()], true) {
                return Err(PositionError::Duplicate { side, animal });
            }
            if !rules.in_play(animal) {
                return Err(PositionError::NotInPlay { animal });
            }
            if rules.water().contains(sq) && !rules.can_swim(animal) {
                return Err(PositionError::InWater { piece, square: sq });
            }
            if sq == DENS[side] {
                return Err(PositionError::InOwnDen { piece, square: sq });
            }
            if rules.traps().contains(sq) && !rules.may_enter_traps(animal) {
                return Err(PositionError::OnForbiddenTrap { piece, square: sq });
            }
            if sq == DENS[!side] {
                dens_entered += 1;
            }
        }
        if dens_entered > 1 {
            return Err(PositionError::BothDensEntered);
        }
        let pos = Position::assemble(setup);
        if pos.occupied().is_empty() {
            return Err(PositionError::Empty);
        }
        Ok(pos)
    }

    /// The setup this position was made from (for editing, or re-validating under other rules).
    pub fn to_setup(&self) -> Setup {
        let mut board = [None; 63];
        for sq in Square::all() {
            board[sq.index()] = self.piece_at(sq);
        }
        Setup {
            board,
            side_to_move: self.side_to_move,
            quiet_plies: self.quiet_plies,
            move_number: self.move_number,
        }
    }

    #[inline]
    fn put(&mut self, piece: Piece, sq: Square) {
        self.board[sq.index()] = code(piece);
        self.sides[piece.side] |= Bitboard::from_square(sq);
        self.animals[piece.animal.index()] |= Bitboard::from_square(sq);
        self.hash ^= zobrist::piece_key(piece, sq);
    }

    #[inline]
    fn remove(&mut self, piece: Piece, sq: Square) {
        self.board[sq.index()] = NO_PIECE;
        self.sides[piece.side] ^= Bitboard::from_square(sq);
        self.animals[piece.animal.index()] ^= Bitboard::from_square(sq);
        self.hash ^= zobrist::piece_key(piece, sq);
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        decode(self.board[sq.index()])
    }

    #[inline]
    pub const fn side_to_move(&self) -> Side {
        self.side_to_move
    }

    /// The squares of a side's pieces.
    #[inline]
    pub fn side(&self, side: Side) -> Bitboard {
        self.sides[side]
    }

    /// The squares of an animal of either side.
    #[inline]
    pub const fn animal(&self, animal: Animal) -> Bitboard {
        self.animals[animal.index()]
    }

    /// The squares of one side's animal (a set of at most one square).
    #[inline]
    pub fn pieces(&self, piece: Piece) -> Bitboard {
        self.sides[piece.side] & self.animals[piece.animal.index()]
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.sides.blue | self.sides.red
    }

    /// Plies since the last capture (the quiet-ply counter).
    #[inline]
    pub const fn quiet_plies(&self) -> u32 {
        self.quiet_plies
    }

    #[inline]
    pub const fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The Zobrist hash of placement and side to move (not the counters), kept incrementally.
    #[inline]
    pub const fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash computed from scratch; equals [`Position::hash`] always (a test checks it).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = if self.side_to_move == Side::Red {
            zobrist::red_to_move_key()
        } else {
            0
        };
        for sq in self.occupied() {
            h ^= zobrist::piece_key(self.piece_at(sq).expect("occupied"), sq);
        }
        h
    }

    /// Whether two positions have the same pieces on the same squares and the same side to move.
    pub fn same_placement(&self, other: &Position) -> bool {
        self.hash == other.hash
            && self.board == other.board
            && self.side_to_move == other.side_to_move
    }

    /// Whether the move captures (lands on an enemy piece). Meaningful for legal moves.
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        self.board[m.to.index()] != NO_PIECE
    }

    /// Plays a move without checking it. The move must be legal in this position (from
    /// [`Position::legal_moves`] or [`Position::check_move`]); anything else leaves a meaningless position.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        let moving = decode(self.board[m.from.index()])
            .expect("play_unchecked: no piece on the origin square");
        if let Some(captured) = decode(self.board[m.to.index()]) {
            self.remove(captured, m.to);
            self.quiet_plies = 0;
        } else {
            self.quiet_plies += 1;
        }
        self.remove(moving, m.from);
        self.put(moving, m.to);
        if self.side_to_move == Side::Red {
            self.move_number += 1;
        }
        self.side_to_move = !self.side_to_move;
        self.hash ^= zobrist::red_to_move_key();
    }

    /// The position after a move, which must be legal (see [`Position::play_unchecked`]).
    #[inline]
    #[must_use]
    pub fn after(&self, m: Move) -> Position {
        let mut next = *self;
        next.play_unchecked(m);
        next
    }

    /// Plays a move after checking that it is legal.
    ///
    /// # Errors
    /// [`IllegalMoveError`](crate::IllegalMoveError) with the reason; the position is unchanged.
    pub fn play(&mut self, rules: &Rules, m: Move) -> Result<(), crate::IllegalMoveError> {
        self.check_move(rules, m)?;
        self.play_unchecked(m);
        Ok(())
    }

    /// Whether the game is over by the board alone: a den entered, or (with `capture-all-wins`) a side
    /// without pieces. Such a position has no legal moves.
    #[inline]
    pub fn is_decided(&self, rules: &Rules) -> bool {
        self.decided_winner(rules).is_some()
    }

    #[inline]
    fn decided_winner(&self, rules: &Rules) -> Option<(Side, Termination)> {
        if self.sides.blue.contains(DENS.red) {
            return Some((Side::Blue, Termination::DenEntered));
        }
        if self.sides.red.contains(DENS.blue) {
            return Some((Side::Red, Termination::DenEntered));
        }
        if rules.options().capture_all_wins {
            for side in Side::ALL {
                if self.sides[side].is_empty() {
                    return Some((!side, Termination::AllCaptured));
                }
            }
        }
        None
    }

    /// The end of the game if this position ends it by the rules of the board: den entered, all pieces
    /// captured, or no legal move for the side to move. The draw rules depend on history: see [`Game`](crate::Game).
    pub fn outcome(&self, rules: &Rules) -> Option<Outcome> {
        if let Some((winner, termination)) = self.decided_winner(rules) {
            return Some(Outcome::win(winner, termination));
        }
        if self.count_moves(rules) == 0 {
            return Some(Outcome::win(!self.side_to_move, Termination::NoLegalMove));
        }
        None
    }

    /// The position mirrored left–right (a ↔ g). The terrain is symmetric, so it is valid under the same rules.
    #[must_use]
    pub fn mirror(&self) -> Position {
        self.transformed(Square::mirror, false)
    }

    /// The position rotated by 180° with the colours swapped: the same game seen from the other side.
    #[must_use]
    pub fn swap_colours(&self) -> Position {
        self.transformed(Square::rotate, true)
    }

    fn transformed(&self, map: fn(Square) -> Square, swap: bool) -> Position {
        let mut setup = self.to_setup();
        let old = setup.board;
        for sq in Square::all() {
            setup.board[map(sq).index()] = old[sq.index()].map(|p| {
                if swap {
                    Piece::new(!p.side, p.animal)
                } else {
                    p
                }
            });
        }
        if swap {
            setup.side_to_move = !setup.side_to_move;
        }
        Position::assemble(&setup)
    }

    /// Builds the position of a setup without checking it.
    fn assemble(setup: &Setup) -> Position {
        let mut pos = Position {
            board: [NO_PIECE; 63],
            side_to_move: setup.side_to_move,
            sides: BySide::default(),
            animals: [Bitboard::EMPTY; 8],
            quiet_plies: setup.quiet_plies,
            move_number: setup.move_number,
            hash: 0,
        };
        for sq in Square::all() {
            if let Some(piece) = setup.board[sq.index()] {
                pos.put(piece, sq);
            }
        }
        if pos.side_to_move == Side::Red {
            pos.hash ^= zobrist::red_to_move_key();
        }
        pos
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self)
    }
}

/// The FEN of the position.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::fen::to_fen(self))
    }
}
