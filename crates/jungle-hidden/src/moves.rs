//! Moves in Hidden Jungle: which moves are legal (they depend only on the mover's own identities and where the
//! pieces stand), what a move reveals, and the public record of a move that both players receive.

use std::fmt;
use std::str::FromStr;

use jungle_rules::{
    Animal, Bitboard, Move, MoveList, ParseMoveError, Position, Rules, Side, Square, reach,
};

/// The legal moves of `side` whose pieces are `pieces` (animal and square), with `own` its squares and
/// `occupied` every piece's square: every step and jump the animal may make, including onto any enemy piece
/// (an attack), whatever stands there.
pub fn legal_moves(
    rules: &Rules,
    side: Side,
    pieces: impl IntoIterator<Item = (Animal, Square)>,
    own: Bitboard,
    occupied: Bitboard,
) -> MoveList {
    let mut list = MoveList::new();
    for (animal, from) in pieces {
        for to in reach(rules, side, animal, from, own, occupied) {
            list.push(Move::new(from, to));
        }
    }
    list
}

/// Whether a move jumps (a river jump rather than a one-square step).
pub fn is_jump(m: Move) -> bool {
    m.from.file().abs_diff(m.to.file()) + m.from.rank().abs_diff(m.to.rank()) > 1
}

/// Whether a move that attacks nothing still reveals the mover: it enters water or jumps.
pub fn reveals_mover(rules: &Rules, m: Move) -> bool {
    rules.water().contains(m.to) || is_jump(m)
}

/// The position after a legal hidden move of the side to move, and what happened on the destination: a move
/// onto an enemy piece is an attack, won when the capture rules let the attacker capture the defender, else lost
/// (the attacker is captured and the defender stays).
pub fn resolve(pos: &Position, rules: &Rules, m: Move) -> (Position, Effect) {
    let Some(defender) = pos.piece_at(m.to) else {
        return (pos.after(m), Effect::Quiet);
    };
    let attacker = pos
        .piece_at(m.from)
        .expect("a legal move has a mover")
        .animal;
    if rules.can_capture(pos.side_to_move(), attacker, m.from, defender.animal, m.to) {
        (pos.after(m), Effect::Captured(defender.animal))
    } else {
        (
            pos.after_lost_attack(m.from),
            Effect::Repelled(defender.animal),
        )
    }
}

/// What happened on the destination square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    /// The destination was empty.
    Quiet,
    /// An attack the attacker won: it captured this animal.
    Captured(Animal),
    /// An attack the attacker lost: this animal, the defender, captured it and stays where it was.
    Repelled(Animal),
}

/// A move as both players (and spectators) see it: who moved, from where to where, the mover's animal if it is
/// known to both, and the effect. It holds nothing that the rules keep secret.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PublicMove {
    pub side: Side,
    pub mv: Move,
    /// The mover's animal when it is public after this move (revealed by it or before); `None` while hidden.
    pub mover: Option<Animal>,
    pub effect: Effect,
}

/// Move text with what it made public (the token of the hidden-game record and protocol): `a3a4` for an unknown
/// piece's quiet move, `g3g4=R` when the mover is known, `c3c4=LxC` for a Lion that captured a Cat, `c3c4=C/L`
/// for a Cat that attacked a Lion and was captured.
impl fmt::Display for PublicMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.mv)?;
        if let Some(mover) = self.mover {
            write!(f, "={}", mover.letter())?;
        }
        match self.effect {
            Effect::Quiet => Ok(()),
            Effect::Captured(defender) => write!(f, "x{}", defender.letter()),
            Effect::Repelled(defender) => write!(f, "/{}", defender.letter()),
        }
    }
}

/// Public move text that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParsePublicMoveError {
    #[error(transparent)]
    Move(#[from] ParseMoveError),
    #[error(
        "\"{0}\": after the move comes =ANIMAL, then optionally xANIMAL or /ANIMAL (animals R C W D P T L E)"
    )]
    Shape(String),
    #[error("\"{0}\": an attack always reveals the attacker (write =ANIMAL before x or /)")]
    HiddenAttacker(String),
}

/// The text of [`PublicMove`]'s `Display` without the side (which the record's move order gives).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PublicMoveText {
    pub mv: Move,
    pub mover: Option<Animal>,
    pub effect: Effect,
}

impl PublicMoveText {
    pub fn by(self, side: Side) -> PublicMove {
        PublicMove {
            side,
            mv: self.mv,
            mover: self.mover,
            effect: self.effect,
        }
    }
}

impl FromStr for PublicMoveText {
    type Err = ParsePublicMoveError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        let shape = || ParsePublicMoveError::Shape(s.to_string());
        let (move_text, rest) = match s.find('=') {
            Some(i) => s.split_at(i),
            None => (s, ""),
        };
        if rest.is_empty() && (move_text.contains('x') || move_text.contains('/')) {
            return Err(ParsePublicMoveError::HiddenAttacker(s.to_string()));
        }
        let mv: Move = move_text.parse()?;
        let mut chars = rest.chars();
        let animal = |c: Option<char>| c.and_then(Animal::from_letter).ok_or_else(shape);
        let mover = match chars.next() {
            None => None,
            Some('=') => Some(animal(chars.next())?),
            Some(_) => return Err(shape()),
        };
        let effect = match chars.next() {
            None => Effect::Quiet,
            Some('x') => Effect::Captured(animal(chars.next())?),
            Some('/') => Effect::Repelled(animal(chars.next())?),
            Some(_) => return Err(shape()),
        };
        if chars.next().is_some() {
            return Err(shape());
        }
        Ok(PublicMoveText { mv, mover, effect })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_move_text_reads_back() {
        for text in ["a3a4", "g3g4=R", "c3c4=LxC", "c3c4=C/L", "a4a8=T"] {
            let read: PublicMoveText = text.parse().unwrap();
            assert_eq!(read.by(Side::Blue).to_string(), text);
        }
        for bad in [
            "a3a4=",
            "a3a4=Q",
            "a3a4=Lx",
            "a3a4=LxCC",
            "a3a4=L+C",
            "a3a4xC",
            "a3a4/C",
            "zz",
        ] {
            assert!(bad.parse::<PublicMoveText>().is_err(), "{bad}");
        }
    }

    #[test]
    fn jumps_and_water_reveal_the_mover() {
        let rules = Rules::default();
        let m = |t: &str| t.parse::<Move>().unwrap();
        assert!(reveals_mover(&rules, m("a4d4")));
        assert!(reveals_mover(&rules, m("b3b4")));
        assert!(reveals_mover(&rules, m("b3b7")));
        assert!(!reveals_mover(&rules, m("a3a4")));
        assert!(!reveals_mover(&rules, m("c3d3")));
    }
}
