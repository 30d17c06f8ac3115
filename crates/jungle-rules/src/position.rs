//! `Position`: the pieces on the board, the side to move and the move counters — small and `Copy`, so the
//! search copies it to make a move. Only valid positions exist: build one from a [`Setup`] (or FEN), which is
//! checked against the [`Rules`].

use std::fmt;

use crate::terrain::DENS;
use crate::{
    Animal, Bitboard, BySide, Move, Outcome, Piece, Rules, Side, Square, Termination, zobrist,
};

const NO_PIECE: u8 = 0xFF;
const NO_SQUARE: u8 = 0xFF;

/// A position under some [`Rules`]. It does not hold the rules: every method that needs them takes them, and
/// the caller keeps using the rules the position was validated with.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Piece code (`side * 8 + animal`) per square, `NO_PIECE` where empty.
    board: [u8; 63],
    side_to_move: Side,
    sides: BySide<Bitboard>,
    /// The square index of each side's animals (`NO_SQUARE` when captured): a piece list, smaller to copy
    /// than a bitboard per animal.
    squares: BySide<[u8; 8]>,
    quiet_plies: u32,
    move_number: u32,
    hash: u64,
}

/// What taking back a move needs that the position after it has lost.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Undo {
    captured: u8,
    quiet_plies: u32,
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
    #[error("{field} {value} is too large (at most {MAX_COUNTER})")]
    CounterTooLarge { field: &'static str, value: u32 },
}

/// The largest move number and quiet-ply count a position may start from. Play counts both up without
/// checks (the hot path); this bound keeps them billions of plies away from wrapping around.
pub const MAX_COUNTER: u32 = 1_000_000_000;

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
    /// Checks a setup against the rules.
    ///
    /// # Errors
    /// A [`PositionError`] naming the first problem found.
    pub fn from_setup(setup: &Setup, rules: &Rules) -> Result<Position, PositionError> {
        if setup.move_number == 0 {
            return Err(PositionError::MoveNumberZero);
        }
        for (field, value) in [
            ("move number", setup.move_number),
            ("quiet-ply count", setup.quiet_plies),
        ] {
            if value > MAX_COUNTER {
                return Err(PositionError::CounterTooLarge { field, value });
            }
        }
        let mut seen = BySide::new([false; 8], [false; 8]);
        let mut dens_entered = 0;
        for sq in Square::all() {
            let Some(piece) = setup.board[sq.index()] else {
                continue;
            };
            check_placement(piece, sq, rules, &mut seen, &mut dens_entered)?;
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

    /// A position from a list of pieces on distinct squares (all other squares empty) with the counters at 0
    /// and 1, checked as [`Position::from_setup`] checks a setup but without visiting the whole board: for tools
    /// that build positions in bulk (tablebase indexing).
    ///
    /// # Errors
    /// A [`PositionError`] naming the first problem found.
    ///
    /// # Panics
    /// If two pieces are given the same square.
    pub fn from_pieces(
        pieces: &[(Piece, Square)],
        side_to_move: Side,
        rules: &Rules,
    ) -> Result<Position, PositionError> {
        let mut seen = BySide::new([false; 8], [false; 8]);
        let mut dens_entered = 0;
        for &(piece, sq) in pieces {
            check_placement(piece, sq, rules, &mut seen, &mut dens_entered)?;
        }
        if dens_entered > 1 {
            return Err(PositionError::BothDensEntered);
        }
        if pieces.is_empty() {
            return Err(PositionError::Empty);
        }
        let mut pos = Position::assemble(&Setup {
            side_to_move,
            ..Setup::default()
        });
        for &(piece, sq) in pieces {
            assert!(
                pos.piece_at(sq).is_none(),
                "from_pieces: two pieces on {sq}"
            );
            pos.put(piece, sq);
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
        self.squares[piece.side][piece.animal.index()] = sq.index() as u8;
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
    pub fn animal(&self, animal: Animal) -> Bitboard {
        self.square_of(Piece::new(Side::Blue, animal))
            .map_or(Bitboard::EMPTY, Bitboard::from_square)
            | self
                .square_of(Piece::new(Side::Red, animal))
                .map_or(Bitboard::EMPTY, Bitboard::from_square)
    }

    /// The squares of one side's animal (a set of at most one square).
    #[inline]
    pub fn pieces(&self, piece: Piece) -> Bitboard {
        self.square_of(piece)
            .map_or(Bitboard::EMPTY, Bitboard::from_square)
    }

    /// The square index of each animal of a side, `0xFF` for a captured one (for move generation's hot loop).
    #[inline]
    pub(crate) fn piece_squares(&self, side: Side) -> &[u8; 8] {
        &self.squares[side]
    }

    /// Where a piece stands, if it is on the board.
    #[inline]
    pub fn square_of(&self, piece: Piece) -> Option<Square> {
        Square::new(self.squares[piece.side][piece.animal.index()])
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
        let (from, to) = (m.from.index(), m.to.index());
        let moving = self.board[from];
        debug_assert!(moving != NO_PIECE, "play_unchecked: no piece on {}", m.from);
        let us = self.side_to_move;
        let captured = self.board[to];
        if captured != NO_PIECE {
            self.sides[!us] ^= Bitboard::from_square(m.to);
            self.squares[!us][(captured & 7) as usize] = NO_SQUARE;
            self.hash ^= zobrist::code_key(captured, to);
            self.quiet_plies = 0;
        } else {
            self.quiet_plies += 1;
        }
        self.board[from] = NO_PIECE;
        self.board[to] = moving;
        self.sides[us] ^= Bitboard::from_square(m.from) | Bitboard::from_square(m.to);
        self.squares[us][(moving & 7) as usize] = to as u8;
        self.hash ^= zobrist::code_key(moving, from)
            ^ zobrist::code_key(moving, to)
            ^ zobrist::red_to_move_key();
        if us == Side::Red {
            self.move_number += 1;
        }
        self.side_to_move = !us;
    }

    /// Plays a legal move in place and returns what [`Position::unplay`] needs to take it back: the hot loops
    /// that visit many children of one position (perft) avoid copying the position for each.
    #[inline(always)]
    pub(crate) fn play_undoable(&mut self, m: Move) -> Undo {
        let undo = Undo {
            captured: self.board[m.to.index()],
            quiet_plies: self.quiet_plies,
            hash: self.hash,
        };
        self.play_unchecked(m);
        undo
    }

    /// Takes back the move `m` played by [`Position::play_undoable`].
    #[inline(always)]
    pub(crate) fn unplay(&mut self, m: Move, undo: Undo) {
        let (from, to) = (m.from.index(), m.to.index());
        let us = !self.side_to_move;
        let moving = self.board[to];
        self.board[from] = moving;
        self.board[to] = undo.captured;
        self.sides[us] ^= Bitboard::from_square(m.from) | Bitboard::from_square(m.to);
        self.squares[us][(moving & 7) as usize] = from as u8;
        if undo.captured != NO_PIECE {
            self.sides[!us] |= Bitboard::from_square(m.to);
            self.squares[!us][(undo.captured & 7) as usize] = to as u8;
        }
        if us == Side::Red {
            self.move_number -= 1;
        }
        self.side_to_move = us;
        self.quiet_plies = undo.quiet_plies;
        self.hash = undo.hash;
    }

    /// The position before the quiet move `m` was played: the piece on `m.to` goes back to `m.from` and the side
    /// that made the move is to move again (for retrograde analysis: tablebases). Nothing is checked: `m.to` must
    /// hold a piece of the side not to move and `m.from` must be empty; whether the result is a valid position in
    /// which `m` is legal is for the caller to check (e.g. with [`Position::targets_from`]).
    #[must_use]
    pub fn retracted(&self, m: Move) -> Position {
        let (from, to) = (m.from.index(), m.to.index());
        let us = !self.side_to_move;
        let moving = self.board[to];
        debug_assert!(moving != NO_PIECE, "retracted: no piece on {}", m.to);
        let mut prev = *self;
        prev.board[to] = NO_PIECE;
        prev.board[from] = moving;
        prev.sides[us] ^= Bitboard::from_square(m.from) | Bitboard::from_square(m.to);
        prev.squares[us][(moving & 7) as usize] = from as u8;
        prev.hash ^= zobrist::code_key(moving, from)
            ^ zobrist::code_key(moving, to)
            ^ zobrist::red_to_move_key();
        if us == Side::Red {
            prev.move_number = prev.move_number.saturating_sub(1).max(1);
        }
        prev.quiet_plies = prev.quiet_plies.saturating_sub(1);
        prev.side_to_move = us;
        prev
    }

    /// The position after a move, which must be legal (see [`Position::play_unchecked`]).
    #[inline]
    #[must_use]
    pub fn after(&self, m: Move) -> Position {
        let mut next = *self;
        next.play_unchecked(m);
        next
    }

    /// The position after the piece on `from`, of the side to move, attacked and lost (Hidden Jungle, where a
    /// move onto a piece the attacker may not capture is legal and costs the attacker): the attacker is removed,
    /// the counters go on as after a capture, and the turn passes.
    ///
    /// # Panics
    /// If `from` holds no piece of the side to move.
    #[must_use]
    pub fn after_lost_attack(&self, from: Square) -> Position {
        let us = self.side_to_move;
        let attacker = self
            .piece_at(from)
            .filter(|p| p.side == us)
            .unwrap_or_else(|| panic!("after_lost_attack: no piece of the side to move on {from}"));
        let mut next = *self;
        next.board[from.index()] = NO_PIECE;
        next.sides[us] ^= Bitboard::from_square(from);
        next.squares[us][attacker.animal.index()] = NO_SQUARE;
        next.hash ^= zobrist::piece_key(attacker, from) ^ zobrist::red_to_move_key();
        next.quiet_plies = 0;
        if us == Side::Red {
            next.move_number += 1;
        }
        next.side_to_move = !us;
        next
    }

    /// The same placement with the other side to move and one more quiet ply: a "null move" for the engine's
    /// null-move pruning. Passing is illegal in Jungle; this is never a move of a game.
    #[inline]
    #[must_use]
    pub fn after_null_move(&self) -> Position {
        let mut next = *self;
        next.side_to_move = !self.side_to_move;
        next.quiet_plies += 1;
        next.hash ^= zobrist::red_to_move_key();
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
            squares: BySide::new([NO_SQUARE; 8], [NO_SQUARE; 8]),
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

/// The checks of one piece on one square shared by [`Position::from_setup`] and [`Position::from_pieces`].
fn check_placement(
    piece: Piece,
    sq: Square,
    rules: &Rules,
    seen: &mut BySide<[bool; 8]>,
    dens_entered: &mut u32,
) -> Result<(), PositionError> {
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
        *dens_entered += 1;
    }
    Ok(())
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_stays_small_enough_to_copy_cheaply() {
        assert!(
            std::mem::size_of::<Position>() <= 112,
            "{}",
            std::mem::size_of::<Position>()
        );
    }

    #[test]
    fn piece_list_follows_moves_and_captures() {
        let rules = Rules::default();
        let mut pos = Position::from_fen("6t/7/7/7/7/7/7/r6/R6 w", &rules).unwrap();
        let red_rat = Piece::new(Side::Red, Animal::Rat);
        assert_eq!(pos.square_of(red_rat), Some(Square::A2));
        pos.play_unchecked("a1a2".parse().unwrap());
        assert_eq!(pos.square_of(red_rat), None);
        assert_eq!(pos.animal(Animal::Rat), Bitboard::from_square(Square::A2));
        assert_eq!(pos.quiet_plies(), 0);
        assert_eq!(pos.hash(), pos.hash_from_scratch());
    }

    #[test]
    fn from_pieces_agrees_with_from_setup() {
        let rules = Rules::default();
        let start = Position::start(&rules);
        let pieces: Vec<(Piece, Square)> = start
            .occupied()
            .map(|sq| (start.piece_at(sq).unwrap(), sq))
            .collect();
        assert_eq!(
            Position::from_pieces(&pieces, Side::Blue, &rules),
            Ok(start)
        );
        let rat = Piece::new(Side::Blue, Animal::Rat);
        let lion = Piece::new(Side::Red, Animal::Lion);
        for (sq, other) in [
            (Square::D1, Square::A1),
            (Square::B4, Square::D9),
            (Square::A1, Square::B4),
        ] {
            let list = [(lion, sq), (rat, other)];
            let mut setup = Setup::default();
            for (p, s) in list {
                setup.board[s.index()] = Some(p);
            }
            let fast = Position::from_pieces(&list, Side::Blue, &rules);
            let slow = Position::from_setup(&setup, &rules);
            assert_eq!(fast.is_ok(), slow.is_ok(), "{list:?}");
            if let (Ok(f), Ok(s)) = (fast, slow) {
                assert_eq!(f, s);
                assert_eq!(f.hash(), f.hash_from_scratch());
            }
        }
        assert_eq!(
            Position::from_pieces(&[], Side::Red, &rules),
            Err(PositionError::Empty)
        );
    }

    #[test]
    fn retracting_a_quiet_move_gives_back_the_position_before_it() {
        let rules = Rules::default();
        let mut pos = Position::start(&rules);
        for ply in 0..60 {
            let moves = pos.legal_moves(&rules);
            if moves.is_empty() {
                break;
            }
            for &m in moves.iter().filter(|&&m| !pos.is_capture(m)) {
                let back = pos.after(m).retracted(m);
                assert_eq!(back, pos, "{m} in {pos}");
                assert_eq!(back.hash(), back.hash_from_scratch());
            }
            pos.play_unchecked(moves[(ply * 7) % moves.len()]);
        }
    }

    #[test]
    fn unplay_restores_the_position_exactly() {
        // A deterministic random walk through many positions with captures, under rules where captures abound.
        for rules_text in [
            "standard",
            "dog-swims=true,leopard-jumps=true",
            "animal-checkers",
        ] {
            let rules: Rules = rules_text.parse().unwrap();
            let mut seed = 0x2545_F491_4F6C_DD1Du64;
            for _ in 0..40 {
                let mut pos = Position::start(&rules);
                for _ in 0..120 {
                    let moves = pos.legal_moves(&rules);
                    if moves.is_empty() {
                        break;
                    }
                    for &m in moves.iter() {
                        let before = pos;
                        let undo = pos.play_undoable(m);
                        assert_eq!(pos, before.after(m));
                        pos.unplay(m, undo);
                        assert_eq!(pos, before, "{rules_text}: {m} in {before}");
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    pos.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
                }
            }
        }
    }

    #[test]
    fn a_lost_attack_removes_the_attacker_and_passes_the_turn() {
        let rules = Rules::default();
        let pos = Position::from_fen("6t/7/7/7/7/7/7/r6/C6 b 5 3", &rules).unwrap();
        let after = pos.after_lost_attack(Square::A2);
        assert_eq!(
            after,
            Position::from_fen("6t/7/7/7/7/7/7/7/C6 w 0 4", &rules).unwrap()
        );
        assert_eq!(after.hash(), after.hash_from_scratch());
    }

    #[test]
    fn null_move_only_hands_over_the_turn() {
        let rules = Rules::default();
        let start = Position::start(&rules);
        let passed = start.after_null_move();
        let mut setup = start.to_setup();
        setup.side_to_move = Side::Red;
        setup.quiet_plies = 1;
        assert_eq!(passed, Position::from_setup(&setup, &rules).unwrap());
        assert_eq!(passed.hash(), passed.hash_from_scratch());
        assert_eq!(passed.after_null_move().hash(), start.hash());
    }
}
