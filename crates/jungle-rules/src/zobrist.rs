//! Zobrist keys: a random 64-bit key per (side, animal, square) and one for Red to move, built at compile time.
//! A position's hash is the xor of the keys of its pieces and, with Red to move, the side key; it ignores the
//! move counters, so equal hashes mean the same placement with the same side to move (repetition detection).

use crate::{Piece, Square};

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn build_keys() -> ([[[u64; 63]; 8]; 2], u64) {
    let mut keys = [[[0u64; 63]; 8]; 2];
    // Fixed seed so hashes (and so the engine's bench signature) are the same on every build.
    let mut state = 0x4A55_4E47_4C45_2121;
    let mut side = 0;
    while side < 2 {
        let mut animal = 0;
        while animal < 8 {
            let mut sq = 0;
            while sq < 63 {
                let (next, key) = splitmix64(state);
                state = next;
                keys[side][animal][sq] = key;
                sq += 1;
            }
            animal += 1;
        }
        side += 1;
    }
    let (_, red_to_move) = splitmix64(state);
    (keys, red_to_move)
}

static KEYS: ([[[u64; 63]; 8]; 2], u64) = build_keys();

/// The key of a piece standing on a square.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS.0[piece.side.index()][piece.animal.index()][sq.index()]
}

/// The key of the piece with code `side * 8 + animal` on the square with index `sq`.
#[inline(always)]
pub(crate) fn code_key(code: u8, sq: usize) -> u64 {
    KEYS.0[(code >> 3) as usize & 1][(code & 7) as usize][sq]
}

/// The key xored in when Red is to move.
#[inline]
pub fn red_to_move_key() -> u64 {
    KEYS.1
}
