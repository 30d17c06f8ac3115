//! How a game ends: the winner (or a draw) and the reason.

use std::fmt;
use std::str::FromStr;

use crate::Side;

/// Why a game ended. The first five are the rules' own endings; the rest come from outside the board
/// (players, clocks, a match runner).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    DenEntered,
    AllCaptured,
    NoLegalMove,
    Repetition,
    QuietPlyLimit,
    Resignation,
    TimeForfeit,
    DrawAgreed,
    Adjudication,
    IllegalMove,
    Abandoned,
}

impl Termination {
    pub const ALL: [Termination; 11] = [
        Termination::DenEntered,
        Termination::AllCaptured,
        Termination::NoLegalMove,
        Termination::Repetition,
        Termination::QuietPlyLimit,
        Termination::Resignation,
        Termination::TimeForfeit,
        Termination::DrawAgreed,
        Termination::Adjudication,
        Termination::IllegalMove,
        Termination::Abandoned,
    ];

    /// The text of the PGN `Termination` tag.
    pub const fn as_str(self) -> &'static str {
        match self {
            Termination::DenEntered => "den entered",
            Termination::AllCaptured => "all pieces captured",
            Termination::NoLegalMove => "no legal move",
            Termination::Repetition => "repetition",
            Termination::QuietPlyLimit => "quiet-ply limit",
            Termination::Resignation => "resignation",
            Termination::TimeForfeit => "time forfeit",
            Termination::DrawAgreed => "draw agreed",
            Termination::Adjudication => "adjudication",
            Termination::IllegalMove => "illegal move",
            Termination::Abandoned => "abandoned",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A termination text that is none of [`Termination`]'s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown termination \"{0}\"")]
pub struct ParseTerminationError(pub String);

impl FromStr for Termination {
    type Err = ParseTerminationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Termination::ALL
            .into_iter()
            .find(|t| t.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| ParseTerminationError(s.to_string()))
    }
}

/// The end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<Side>,
    pub termination: Termination,
}

impl Outcome {
    pub const fn win(winner: Side, termination: Termination) -> Outcome {
        Outcome {
            winner: Some(winner),
            termination,
        }
    }

    pub const fn draw(termination: Termination) -> Outcome {
        Outcome {
            winner: None,
            termination,
        }
    }

    /// The PGN result: `1-0` Blue won, `0-1` Red won, `1/2-1/2`.
    pub const fn result_str(self) -> &'static str {
        match self.winner {
            Some(Side::Blue) => "1-0",
            Some(Side::Red) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(side) => write!(f, "{side} wins ({})", self.termination),
            None => write!(f, "draw ({})", self.termination),
        }
    }
}
