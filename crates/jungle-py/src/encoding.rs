//! The fixed encodings agents see: actions (origin square × direction) and observation planes.
//!
//! Action `a` = `from_square * 4 + direction`, direction 0 north (towards rank 9), 1 south, 2 east (towards
//! file g), 3 west; 63 × 4 = 252 actions. A river jump has the direction of the step it extends, so every
//! legal move has exactly one action and every action at most one legal move (no animal may both swim and
//! jump). Observation planes are `uint8`, shape `(PLANES, 9, 7)`, indexed `[plane, rank - 1, file]` from
//! Blue's side (not flipped for Red: plane 21 says who moves). Planes 24–25 are for Hidden Jungle views and
//! are 0 in the open game.

use jungle_hidden::View;
use jungle_rules::terrain::{DENS, Direction, JUMPS};
use jungle_rules::{Move, Piece, Position, Rules, Side, Square};

pub const ACTIONS: usize = 63 * 4;
pub const PLANES: usize = 26;
pub const PLANE_SIZE: usize = 63;
pub const OBSERVATION_SIZE: usize = PLANES * PLANE_SIZE;

/// What each plane holds, in order.
pub const PLANE_NAMES: [&str; PLANES] = [
    "blue rat",
    "blue cat",
    "blue wolf",
    "blue dog",
    "blue leopard",
    "blue tiger",
    "blue lion",
    "blue elephant",
    "red rat",
    "red cat",
    "red wolf",
    "red dog",
    "red leopard",
    "red tiger",
    "red lion",
    "red elephant",
    "water",
    "blue's traps",
    "red's traps",
    "blue's den",
    "red's den",
    "red to move",
    "repetitions of this position before (0, 1, 2, ...)",
    "quiet plies (since the last capture, at most 255)",
    "hidden jungle: a piece of the opponent whose animal the viewer does not know",
    "hidden jungle: a piece of the viewer's whose animal the opponent does not know",
];

const FIRST_TERRAIN_PLANE: usize = 16;
const TERRAIN_PLANES: usize = 5;
const SIDE_PLANE: usize = 21;
const REPETITION_PLANE: usize = 22;
const QUIET_PLANE: usize = 23;
const UNKNOWN_ENEMY_PLANE: usize = 24;
const UNREVEALED_OWN_PLANE: usize = 25;

/// The action of a move (any move between neighbouring squares or across a river in a straight line).
pub fn encode(m: Move) -> usize {
    // Squares count along the ranks, 7 to a rank: a move to another rank changes the index by 7 or more, a
    // move along the rank (a step, or a jump over the river's two files) by 3 at most.
    let delta = m.to.index() as isize - m.from.index() as isize;
    let direction = if delta >= 7 {
        Direction::North
    } else if delta <= -7 {
        Direction::South
    } else if delta > 0 {
        Direction::East
    } else {
        Direction::West
    };
    m.from.index() * 4 + direction as usize
}

/// The action of the left–right mirror image (a ↔ g) of an action's move: the mirrored origin, east and west
/// swapped. The board is symmetric about the d-file, so it is the mirrored position's action of the mirrored
/// move.
pub fn mirror_action(action: usize) -> usize {
    let from = Square::new((action / 4) as u8).expect("an action starts on a square");
    let direction = match Direction::ALL[action % 4] {
        Direction::East => Direction::West,
        Direction::West => Direction::East,
        vertical => vertical,
    };
    from.mirror().index() * 4 + direction as usize
}

/// The legal move of an action in a position, if it has one.
pub fn decode(action: usize, pos: &Position, rules: &Rules) -> Option<Move> {
    if action >= ACTIONS {
        return None;
    }
    let from = Square::new((action / 4) as u8)?;
    let direction = Direction::ALL[action % 4];
    let (df, dr) = direction.delta();
    let step = from.offset(df, dr).map(|to| Move::new(from, to));
    let jump = JUMPS[from.index()][direction as usize].map(|j| Move::new(from, j.to));
    [step, jump]
        .into_iter()
        .flatten()
        .find(|&m| pos.is_legal(rules, m))
}

/// Writes the legal-action mask of a position (`mask.len() == ACTIONS`).
pub fn write_mask(pos: &Position, rules: &Rules, over: bool, mask: &mut [bool]) {
    mask.fill(false);
    if over {
        return;
    }
    pos.for_each_move_set(rules, |_, from, targets| {
        for to in targets {
            mask[encode(Move::new(from, to))] = true;
        }
    });
}

/// The planes that depend only on the rules (terrain), computed once.
#[derive(Clone, Debug)]
pub struct Observer {
    terrain: Vec<u8>,
}

impl Observer {
    pub fn new(rules: &Rules) -> Observer {
        let mut terrain = vec![0u8; TERRAIN_PLANES * PLANE_SIZE];
        let boards = [
            rules.water(),
            rules.traps_of(Side::Blue),
            rules.traps_of(Side::Red),
        ];
        for (plane, board) in boards.into_iter().enumerate() {
            for sq in board {
                terrain[square_offset(plane, sq)] = 1;
            }
        }
        terrain[3 * PLANE_SIZE + DENS.blue.index()] = 1;
        terrain[4 * PLANE_SIZE + DENS.red.index()] = 1;
        Observer { terrain }
    }

    /// Writes the planes of a position (`out.len() == OBSERVATION_SIZE`); `repetitions` counts the earlier
    /// occurrences of the position.
    pub fn write(&self, pos: &Position, repetitions: usize, out: &mut [u8]) {
        out[..FIRST_TERRAIN_PLANE * PLANE_SIZE].fill(0);
        for sq in pos.occupied() {
            if let Some(p) = pos.piece_at(sq) {
                out[square_offset(piece_plane(p), sq)] = 1;
            }
        }
        let terrain_end = (FIRST_TERRAIN_PLANE + TERRAIN_PLANES) * PLANE_SIZE;
        out[FIRST_TERRAIN_PLANE * PLANE_SIZE..terrain_end].copy_from_slice(&self.terrain);
        write_counters(
            pos.side_to_move(),
            Some(repetitions),
            pos.quiet_plies(),
            out,
        );
        out[(QUIET_PLANE + 1) * PLANE_SIZE..].fill(0);
    }

    /// Turns the planes written for the position before `m` into those of `after` (the position after it)
    /// by touching only what the move changed: the mover's two squares, the captured piece, the counters (the
    /// repetitions only when `repetitions` gives a new count).
    pub fn update(
        &self,
        m: Move,
        mover: Piece,
        captured: Option<Piece>,
        after: &Position,
        repetitions: Option<usize>,
        out: &mut [u8],
    ) {
        let [from, to] = update_offsets(mover, m);
        out[from] = 0;
        out[to] = 1;
        if let Some(victim) = captured {
            out[square_offset(piece_plane(victim), m.to)] = 0;
        }
        write_counters(after.side_to_move(), repetitions, after.quiet_plies(), out);
    }
}

impl Observer {
    /// Writes the planes of a Hidden Jungle view: the animals the viewer knows on the piece planes, enemy pieces
    /// of unknown animal on plane 24, the viewer's own pieces the opponent has not seen on plane 25. Built from
    /// the view alone, so it holds nothing the viewer may not know. Repetitions are not tracked (plane 22 is 0).
    pub fn write_view(&self, view: &View, out: &mut [u8]) {
        out[..FIRST_TERRAIN_PLANE * PLANE_SIZE].fill(0);
        out[(QUIET_PLANE + 1) * PLANE_SIZE..].fill(0);
        for (sq, seen) in view.pieces() {
            let plane = match seen.animal {
                Some(animal) => piece_plane(Piece::new(seen.side, animal)),
                None => UNKNOWN_ENEMY_PLANE,
            };
            out[square_offset(plane, sq)] = 1;
            if Some(seen.side) == view.viewer() && !seen.revealed {
                out[square_offset(UNREVEALED_OWN_PLANE, sq)] = 1;
            }
        }
        let terrain_end = (FIRST_TERRAIN_PLANE + TERRAIN_PLANES) * PLANE_SIZE;
        out[FIRST_TERRAIN_PLANE * PLANE_SIZE..terrain_end].copy_from_slice(&self.terrain);
        write_counters(view.side_to_move(), Some(0), view.quiet_plies(), out);
    }
}

/// The offsets in an observation of the mover's plane at a move's two squares (what `update` writes there).
pub fn update_offsets(mover: Piece, m: Move) -> [usize; 2] {
    let plane = piece_plane(mover);
    [square_offset(plane, m.from), square_offset(plane, m.to)]
}

/// The bytes of an observation that the counter planes (side to move, repetitions, quiet plies) take.
pub const COUNTER_BYTES: std::ops::Range<usize> =
    SIDE_PLANE * PLANE_SIZE..(QUIET_PLANE + 1) * PLANE_SIZE;

/// Where a square of a plane is in an observation.
fn square_offset(plane: usize, sq: Square) -> usize {
    plane * PLANE_SIZE + sq.index()
}

fn piece_plane(p: Piece) -> usize {
    p.side.index() * 8 + p.animal.index()
}

/// The side-to-move, repetition and quiet-ply planes (each one value everywhere); the repetition plane is
/// left as it is without a count.
fn write_counters(
    side_to_move: Side,
    repetitions: Option<usize>,
    quiet_plies: u32,
    out: &mut [u8],
) {
    constant_plane(out, SIDE_PLANE, u8::from(side_to_move == Side::Red));
    if let Some(count) = repetitions {
        constant_plane(out, REPETITION_PLANE, count.min(255) as u8);
    }
    constant_plane(out, QUIET_PLANE, quiet_plies.min(255) as u8);
}

fn constant_plane(out: &mut [u8], plane: usize, value: u8) {
    out[plane * PLANE_SIZE..(plane + 1) * PLANE_SIZE].fill(value);
}
