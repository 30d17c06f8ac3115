//! The value of a position for the side to move: win, draw or loss with perfect play, and the distance in
//! plies to the end of the game. Stored as one `u16` code per position.

use std::fmt;

/// Win, draw or loss for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wdl {
    Loss,
    Draw,
    Win,
}

impl Wdl {
    pub const fn as_str(self) -> &'static str {
        match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a table says about a position: the result with perfect play for the side to move and, for a win or
/// loss, the number of plies until the game ends (the winner hurrying, the loser delaying).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Probe {
    pub wdl: Wdl,
    /// `None` for a draw. 0 for a finished game (the side to move has lost, or in a hand-made position
    /// already won).
    pub plies: Option<u32>,
}

impl Probe {
    pub const DRAW: Probe = Probe {
        wdl: Wdl::Draw,
        plies: None,
    };

    pub const fn win(plies: u32) -> Probe {
        Probe {
            wdl: Wdl::Win,
            plies: Some(plies),
        }
    }

    pub const fn loss(plies: u32) -> Probe {
        Probe {
            wdl: Wdl::Loss,
            plies: Some(plies),
        }
    }

    /// The value for the player who made the move leading to a position of this value.
    #[must_use]
    pub fn before_move(self) -> Probe {
        match (self.wdl, self.plies) {
            (Wdl::Win, Some(n)) => Probe::loss(n + 1),
            (Wdl::Loss, Some(n)) => Probe::win(n + 1),
            _ => Probe::DRAW,
        }
    }

    /// Orders values from the side to move's point of view: quicker wins, then draws, then slower losses.
    pub fn preference(self) -> i64 {
        match (self.wdl, self.plies) {
            (Wdl::Win, Some(n)) => 1_000_000 - i64::from(n),
            (Wdl::Loss, Some(n)) => -1_000_000 + i64::from(n),
            _ => 0,
        }
    }
}

impl fmt::Display for Probe {
    /// `win 7`, `loss 4`, `draw -`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.plies {
            Some(n) => write!(f, "{} {n}", self.wdl),
            None => write!(f, "{} -", self.wdl),
        }
    }
}

/// The stored code of a value: 0 draw (and "not yet known" while generating), `1 + 2n` a win in `n` plies,
/// `2 + 2n` a loss in `n` plies, [`INVALID`] for an index that is no position of the table.
pub type Code = u16;

pub const DRAW: Code = 0;
pub const INVALID: Code = u16::MAX;
/// The longest distance a code can hold.
pub const MAX_PLIES: u32 = (INVALID as u32 - 3) / 2;

pub const fn win_code(plies: u32) -> Code {
    (1 + 2 * plies) as Code
}

pub const fn loss_code(plies: u32) -> Code {
    (2 + 2 * plies) as Code
}

pub const fn is_win(code: Code) -> bool {
    code != INVALID && code % 2 == 1
}

pub const fn is_loss(code: Code) -> bool {
    code != INVALID && code != DRAW && code.is_multiple_of(2)
}

/// The distance of a win or loss code.
pub const fn plies(code: Code) -> u32 {
    (code as u32 - 1) / 2
}

/// The same result at distance 0: a capture into a position of this value resets the count of quiet plies.
pub const fn zeroed(code: Code) -> Code {
    if is_win(code) {
        win_code(0)
    } else if is_loss(code) {
        loss_code(0)
    } else {
        code
    }
}

/// The probe of a valid code.
pub fn decode(code: Code) -> Probe {
    if is_win(code) {
        Probe::win(plies(code))
    } else if is_loss(code) {
        Probe::loss(plies(code))
    } else {
        Probe::DRAW
    }
}

pub fn encode(probe: Probe) -> Code {
    match (probe.wdl, probe.plies) {
        (Wdl::Win, Some(n)) => win_code(n),
        (Wdl::Loss, Some(n)) => loss_code(n),
        _ => DRAW,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for n in [0, 1, 2, 7, 100, MAX_PLIES] {
            assert_eq!(decode(win_code(n)), Probe::win(n));
            assert_eq!(decode(loss_code(n)), Probe::loss(n));
            assert_eq!(encode(Probe::win(n)), win_code(n));
        }
        assert_eq!(decode(DRAW), Probe::DRAW);
        assert!(!is_win(INVALID) && !is_loss(INVALID));
        assert!(loss_code(MAX_PLIES) < INVALID);
    }

    #[test]
    fn preference_orders_quick_wins_first_and_slow_losses_last() {
        let mut values = [
            Probe::loss(2),
            Probe::win(5),
            Probe::DRAW,
            Probe::win(1),
            Probe::loss(8),
        ];
        values.sort_by_key(|p| std::cmp::Reverse(p.preference()));
        assert_eq!(
            values,
            [
                Probe::win(1),
                Probe::win(5),
                Probe::DRAW,
                Probe::loss(8),
                Probe::loss(2)
            ]
        );
        assert_eq!(Probe::loss(0).before_move(), Probe::win(1));
        assert_eq!(Probe::DRAW.to_string(), "draw -");
    }
}
