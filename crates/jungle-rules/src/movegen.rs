//! Legal move generation in bulk: for each piece of the side to move, the set of squares it may move to.
//!
//! Targets are built from the step and jump tables, masked by the terrain the rules allow the animal
//! ([`Rules::destinations`]) and by its own pieces; a target holding an enemy piece stays only if
//! [`Rules::can_capture`] allows it. Perft counts leaves by popcount of these sets.

use crate::terrain::{Direction, JUMPS, STEPS};
use crate::{Animal, Bitboard, Move, MoveList, Piece, Position, Rules, Side, Square};

/// The occupancy sets every piece's targets are built from, computed once per position.
struct Sides {
    own: Bitboard,
    enemy: Bitboard,
    occupied: Bitboard,
}

impl Sides {
    #[inline(always)]
    fn of(pos: &Position) -> Sides {
        let own = pos.side(pos.side_to_move());
        let enemy = pos.side(!pos.side_to_move());
        Sides {
            own,
            enemy,
            occupied: own | enemy,
        }
    }
}

impl Position {
    /// The squares the piece on `from` (an animal of the side to move) may move to.
    #[inline]
    pub fn targets_from(&self, rules: &Rules, animal: Animal, from: Square) -> Bitboard {
        self.targets(rules, &Sides::of(self), animal, from)
    }

    #[inline(always)]
    fn targets(&self, rules: &Rules, sides: &Sides, animal: Animal, from: Square) -> Bitboard {
        let us = self.side_to_move();
        let mut targets = reach(rules, us, animal, from, sides.own, sides.occupied);
        let contested = targets & sides.enemy;
        if contested.any() {
            targets ^= contested;
            for to in contested {
                let defender = self.piece_at(to).expect("enemy square is occupied").animal;
                if rules.can_capture(us, animal, from, defender, to) {
                    targets |= Bitboard::from_square(to);
                }
            }
        }
        targets
    }

    /// Calls `f(animal, from, targets)` for every piece of the side to move that has a legal move.
    /// A decided position (den entered, all captured) has none.
    #[inline]
    pub fn for_each_move_set(&self, rules: &Rules, mut f: impl FnMut(Animal, Square, Bitboard)) {
        if self.is_decided(rules) {
            return;
        }
        let sides = Sides::of(self);
        for (animal, &index) in Animal::ALL
            .into_iter()
            .zip(self.piece_squares(self.side_to_move()))
        {
            if let Some(from) = Square::new(index) {
                let targets = self.targets(rules, &sides, animal, from);
                if targets.any() {
                    f(animal, from, targets);
                }
            }
        }
    }

    /// The legal moves, in generation order (by animal, then origin, then destination square index).
    pub fn legal_moves(&self, rules: &Rules) -> MoveList {
        let mut list = MoveList::new();
        self.for_each_move_set(rules, |_, from, targets| {
            for to in targets {
                list.push(Move::new(from, to));
            }
        });
        list
    }

    /// The number of legal moves, counted without listing them.
    #[inline]
    pub fn count_moves(&self, rules: &Rules) -> usize {
        let mut n = 0;
        self.for_each_move_set(rules, |_, _, targets| n += targets.count() as usize);
        n
    }

    /// Whether the move is legal here.
    pub fn is_legal(&self, rules: &Rules, m: Move) -> bool {
        self.check_move(rules, m).is_ok()
    }

    /// Checks a move, saying why it is illegal if it is.
    ///
    /// # Errors
    /// [`IllegalMoveError`] naming the move and the rule it breaks.
    pub fn check_move(&self, rules: &Rules, m: Move) -> Result<(), IllegalMoveError> {
        let fail = |reason| Err(IllegalMoveError { mv: m, reason });
        if let Some(outcome) = self.outcome_if_decided(rules) {
            return fail(IllegalReason::GameOver(outcome));
        }
        let us = self.side_to_move();
        let Some(piece) = self.piece_at(m.from) else {
            return fail(IllegalReason::NoPiece(m.from));
        };
        if piece.side != us {
            return fail(IllegalReason::NotYourPiece {
                piece,
                square: m.from,
            });
        }
        let targets = self.targets_from(rules, piece.animal, m.from);
        if targets.contains(m.to) {
            return Ok(());
        }
        fail(self.explain(rules, piece, m))
    }

    fn outcome_if_decided(&self, rules: &Rules) -> Option<crate::Outcome> {
        if self.is_decided(rules) {
            self.outcome(rules)
        } else {
            None
        }
    }

    /// Why the piece cannot make the move (the move is known not to be among its targets).
    fn explain(&self, rules: &Rules, piece: Piece, m: Move) -> IllegalReason {
        let Move { from, to } = m;
        let is_step = STEPS[from.index()].contains(to);
        let jump = Direction::ALL
            .into_iter()
            .zip(&JUMPS[from.index()])
            .find_map(|(d, j)| {
                j.filter(|j| j.to == to && rules.water().any())
                    .map(|j| (d, j))
            });
        match jump {
            _ if is_step => {}
            Some((direction, jump)) if rules.jumps(piece.animal, direction) => {
                if (jump.over & self.occupied()).any() {
                    return IllegalReason::JumpBlocked { piece, from, to };
                }
            }
            Some(_) if rules.is_jumper(piece.animal) => {
                return IllegalReason::JumpDirection { piece, from, to };
            }
            _ => return IllegalReason::Unreachable { piece, from, to },
        }
        if to == crate::terrain::DENS[piece.side] {
            return IllegalReason::OwnDen { piece };
        }
        if rules.water().contains(to) && !rules.can_swim(piece.animal) {
            return IllegalReason::Water { piece };
        }
        if rules.traps().contains(to) && !rules.may_enter_traps(piece.animal) {
            return IllegalReason::TrapRank {
                piece,
                max: rules.options().trap_max_rank,
            };
        }
        match self.piece_at(to) {
            Some(other) if other.side == piece.side => IllegalReason::OwnPiece { square: to },
            Some(defender) => IllegalReason::CannotCapture {
                attacker: piece,
                from,
                defender,
                to,
            },
            None => IllegalReason::Unreachable { piece, from, to },
        }
    }
}

/// The squares a piece of `side` on `from` may move to before the capture rules are asked: its steps and the
/// river jumps not blocked by any piece of `occupied`, on terrain the animal may enter, not on its `own` pieces.
/// Squares of enemy pieces are included whatever their animal. The move generator filters those by
/// [`Rules::can_capture`]; Hidden Jungle, where the defender may be unknown, makes every one of them an attack.
#[inline(always)]
pub fn reach(
    rules: &Rules,
    side: Side,
    animal: Animal,
    from: Square,
    own: Bitboard,
    occupied: Bitboard,
) -> Bitboard {
    let mut targets = STEPS[from.index()];
    if rules.is_jumper(animal) {
        for (direction, jump) in Direction::ALL.into_iter().zip(&JUMPS[from.index()]) {
            if let Some(jump) = jump
                && rules.jumps(animal, direction)
                && (jump.over & occupied).is_empty()
            {
                targets |= Bitboard::from_square(jump.to);
            }
        }
    }
    targets & rules.destinations(side, animal) & !own
}

/// A move that is not legal in a position (the second, semantic stage of reading a move).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {mv}: {reason}")]
pub struct IllegalMoveError {
    pub mv: Move,
    pub reason: IllegalReason,
}

/// The rule an illegal move breaks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalReason {
    #[error("the game is over ({0})")]
    GameOver(crate::Outcome),
    #[error("there is no piece on {0}")]
    NoPiece(Square),
    #[error("the {piece} on {square} belongs to the side not to move")]
    NotYourPiece { piece: Piece, square: Square },
    #[error(
        "the {piece} on {from} cannot reach {to}: it is neither a one-square step nor a river jump this piece may make"
    )]
    Unreachable {
        piece: Piece,
        from: Square,
        to: Square,
    },
    #[error("the {piece} on {from} may not jump to {to} in that direction under these rules")]
    JumpDirection {
        piece: Piece,
        from: Square,
        to: Square,
    },
    #[error("the jump of the {piece} from {from} to {to} is blocked by a swimmer in the river")]
    JumpBlocked {
        piece: Piece,
        from: Square,
        to: Square,
    },
    #[error("the {piece} may not enter its own den")]
    OwnDen { piece: Piece },
    #[error("the {piece} may not enter water")]
    Water { piece: Piece },
    #[error("the {piece} may not step onto a trap (trap-max-rank={max})")]
    TrapRank { piece: Piece, max: u8 },
    #[error("{square} is occupied by a piece of the same side")]
    OwnPiece { square: Square },
    #[error("the {attacker} on {from} may not capture the {defender} on {to}")]
    CannotCapture {
        attacker: Piece,
        from: Square,
        defender: Piece,
        to: Square,
    },
}
