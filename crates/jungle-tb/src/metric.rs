//! What a table's distances count.
//!
//! A table of distances to the **end** of the game (DTM-like, `KEY.jtb`) tells the quickest win. But the
//! quiet-ply rule draws a game after so many plies without a capture, so a win in 150 plies with 100 quiet
//! plies left may be a draw — or a win, if a capture on the way resets the count. A table of distances to the
//! **zeroing** move (DTZ, as in Syzygy; `KEY.jtz`) counts, for each won or lost position, the plies to the next
//! capture or the end of the game, whichever comes first, the winner hurrying and the loser delaying. A win
//! with `q` quiet plies already played holds under a limit `L` when `q + dtz ≤ L` (and the position after the
//! capture is again such a win, which holds whenever every table's longest DTZ is at most `L`).

use std::fmt;

/// The distance a table stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Plies to the end of the game.
    End,
    /// Plies to the next capture or the end of the game.
    Zeroing,
}

impl Metric {
    /// The file extension of tables of this metric.
    pub const fn extension(self) -> &'static str {
        match self {
            Metric::End => "jtb",
            Metric::Zeroing => "jtz",
        }
    }

    /// The header byte (0 in every table made before DTZ tables existed).
    pub(crate) const fn byte(self) -> u8 {
        match self {
            Metric::End => 0,
            Metric::Zeroing => 1,
        }
    }

    pub(crate) const fn from_byte(byte: u8) -> Option<Metric> {
        match byte {
            0 => Some(Metric::End),
            1 => Some(Metric::Zeroing),
            _ => None,
        }
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Metric::End => "distance to the end",
            Metric::Zeroing => "distance to the next capture",
        })
    }
}
