//! A slow, obviously-correct move generator, written from docs/rules.md alone to check the fast one.
//!
//! It shares nothing with the library's generator: it reads the position from its FEN text, names squares by
//! file letter and rank digit, lists the terrain and the river jumps as docs/rules.md words them, and decides each
//! candidate move by asking the rules one question at a time. It takes the option values from
//! `Rules::options()` (plain data; the option parser has its own tests) and nothing else from the library.
//! Speed does not matter here; clarity does.

#![allow(dead_code)] // each test binary uses a different part

use jungle_rules::rules::{BoardKind, ElephantCapturesRat, LionTiger, RatFromWater, RuleOptions};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    Blue,
    Red,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Rat,
    Cat,
    Wolf,
    Dog,
    Leopard,
    Tiger,
    Lion,
    Elephant,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Man {
    pub colour: Colour,
    pub kind: Kind,
}

/// A square as (file 0..7 for a..g, rank 1..=9), the way docs/rules.md names it.
pub type Sq = (u8, u8);

pub fn name(sq: Sq) -> String {
    format!("{}{}", (b'a' + sq.0) as char, sq.1)
}

fn sq(text: &str) -> Sq {
    let b = text.as_bytes();
    (b[0] - b'a', b[1] - b'0')
}

/// A board read from FEN: `men[file][rank - 1]`, and the side to move.
#[derive(Clone, Copy)]
pub struct Board {
    men: [[Option<Man>; 9]; 7],
    pub to_move: Colour,
}

impl Board {
    /// Reads the placement and side fields of a FEN (the counters do not matter for moves).
    pub fn from_fen(fen: &str) -> Board {
        let mut fields = fen.split_whitespace();
        let placement = fields.next().expect("placement");
        let mut men = [[None; 9]; 7];
        for (row, text) in placement.split('/').enumerate() {
            let rank = 9 - row as u8;
            let mut file = 0u8;
            for c in text.chars() {
                if let Some(run) = c.to_digit(10) {
                    file += run as u8;
                    continue;
                }
                let colour = if c.is_ascii_uppercase() {
                    Colour::Blue
                } else {
                    Colour::Red
                };
                let kind = match c.to_ascii_lowercase() {
                    'r' => Kind::Rat,
                    'c' => Kind::Cat,
                    'w' => Kind::Wolf,
                    'd' => Kind::Dog,
                    'p' => Kind::Leopard,
                    't' => Kind::Tiger,
                    'l' => Kind::Lion,
                    'e' => Kind::Elephant,
                    other => panic!("not a piece letter: {other}"),
                };
                men[file as usize][rank as usize - 1] = Some(Man { colour, kind });
                file += 1;
            }
        }
        let to_move = match fields.next() {
            Some("b") => Colour::Red,
            _ => Colour::Blue,
        };
        Board { men, to_move }
    }

    /// The board after a move of the side to move: the piece leaves `from`, whatever stood on `to` leaves the
    /// game, and the other side moves next.
    pub fn after(&self, from: Sq, to: Sq) -> Board {
        let mut next = *self;
        next.men[to.0 as usize][to.1 as usize - 1] = self.at(from);
        next.men[from.0 as usize][from.1 as usize - 1] = None;
        next.to_move = other(self.to_move);
        next
    }

    pub fn at(&self, sq: Sq) -> Option<Man> {
        self.men[sq.0 as usize][sq.1 as usize - 1]
    }

    fn squares() -> impl Iterator<Item = Sq> {
        (1..=9u8).flat_map(|rank| (0..7u8).map(move |file| (file, rank)))
    }

    fn men_of(&self, colour: Colour) -> Vec<(Sq, Kind)> {
        Board::squares()
            .filter_map(|s| {
                self.at(s)
                    .filter(|m| m.colour == colour)
                    .map(|m| (s, m.kind))
            })
            .collect()
    }
}

/// The board's terrain under the `board` option, listed square by square as docs/rules.md names it.
struct Terrain {
    water: Vec<Sq>,
    blue_traps: Vec<Sq>,
    red_traps: Vec<Sq>,
    /// The river jumps, each as (from, to, the water squares crossed, horizontal?).
    jumps: Vec<(Sq, Sq, Vec<Sq>, bool)>,
}

impl Terrain {
    fn new(board: BoardKind) -> Terrain {
        if board == BoardKind::AnimalCheckers {
            // No traps and no rivers (so no jumps).
            return Terrain {
                water: vec![],
                blue_traps: vec![],
                red_traps: vec![],
                jumps: vec![],
            };
        }
        let squares = |names: &[&str]| names.iter().map(|n| sq(n)).collect::<Vec<Sq>>();
        Terrain {
            water: squares(&[
                "b4", "c4", "b5", "c5", "b6", "c6", "e4", "f4", "e5", "f5", "e6", "f6",
            ]),
            blue_traps: squares(&["c1", "e1", "d2"]),
            red_traps: squares(&["c9", "e9", "d8"]),
            jumps: Terrain::river_jumps(),
        }
    }

    fn is_water(&self, s: Sq) -> bool {
        self.water.contains(&s)
    }

    /// The traps a side owns (those around its den).
    fn traps_of(&self, colour: Colour) -> &[Sq] {
        match colour {
            Colour::Blue => &self.blue_traps,
            Colour::Red => &self.red_traps,
        }
    }

    fn is_trap(&self, s: Sq) -> bool {
        self.blue_traps.contains(&s) || self.red_traps.contains(&s)
    }

    fn den_of(colour: Colour) -> Sq {
        match colour {
            Colour::Blue => sq("d1"),
            Colour::Red => sq("d9"),
        }
    }

    /// The river jumps of docs/rules.md.
    fn river_jumps() -> Vec<(Sq, Sq, Vec<Sq>, bool)> {
        let mut jumps = Vec::new();
        // Vertically: rank 3 <-> rank 7 on files b, c, e, f, over ranks 4, 5, 6.
        for file in ["b", "c", "e", "f"] {
            let over: Vec<Sq> = (4..=6).map(|r| sq(&format!("{file}{r}"))).collect();
            let low = sq(&format!("{file}3"));
            let high = sq(&format!("{file}7"));
            jumps.push((low, high, over.clone(), false));
            jumps.push((high, low, over, false));
        }
        // Horizontally: a <-> d over b, c and d <-> g over e, f, on ranks 4-6.
        for rank in 4..=6 {
            for (x, y, over) in [("a", "d", ["b", "c"]), ("d", "g", ["e", "f"])] {
                let over: Vec<Sq> = over.iter().map(|f| sq(&format!("{f}{rank}"))).collect();
                let a = sq(&format!("{x}{rank}"));
                let b = sq(&format!("{y}{rank}"));
                jumps.push((a, b, over.clone(), true));
                jumps.push((b, a, over, true));
            }
        }
        jumps
    }
}

fn other(colour: Colour) -> Colour {
    match colour {
        Colour::Blue => Colour::Red,
        Colour::Red => Colour::Blue,
    }
}

/// The rank an animal fights with under the options.
pub fn rank(kind: Kind, o: &RuleOptions) -> u8 {
    match kind {
        Kind::Rat => 1,
        Kind::Cat => 2,
        Kind::Wolf if o.wolf_over_dog => 4,
        Kind::Wolf => 3,
        Kind::Dog if o.wolf_over_dog => 3,
        Kind::Dog => 4,
        Kind::Leopard => 5,
        Kind::Tiger => match o.lion_tiger {
            LionTiger::TigerOverLion => 7,
            _ => 6,
        },
        Kind::Lion => match o.lion_tiger {
            LionTiger::Standard => 7,
            _ => 6,
        },
        Kind::Elephant => 8,
    }
}

/// Whether the game is already over on the board: a den entered, or (with `capture-all-wins`) a side that
/// has lost all its pieces. Such a position has no moves.
pub fn decided(board: &Board, o: &RuleOptions) -> bool {
    for colour in [Colour::Blue, Colour::Red] {
        let enemy_den = Terrain::den_of(other(colour));
        if board.at(enemy_den).is_some_and(|m| m.colour == colour) {
            return true;
        }
        if o.capture_all_wins && board.men_of(colour).is_empty() {
            return true;
        }
    }
    false
}

/// Whether `attacker` moving from `from` may capture the enemy `defender` on `to` (docs/rules.md §4).
fn may_capture(
    terrain: &Terrain,
    o: &RuleOptions,
    side: Colour,
    attacker: Kind,
    from: Sq,
    defender: Kind,
    to: Sq,
) -> bool {
    let from_water = terrain.is_water(from);
    if terrain.is_water(to) {
        // Rule 3: a swimmer in the water is reached only by an enemy swimmer moving within the water ...
        if from_water {
            return rank(attacker, o) >= rank(defender, o);
        }
        // ... or, under the option, by a land Rat taking a Rat.
        return o.land_rat_captures_water_rat && attacker == Kind::Rat && defender == Kind::Rat;
    }
    if from_water {
        // Leaving the water: `rat-from-water` limits what may be taken.
        match o.rat_from_water {
            RatFromWater::None => return false,
            RatFromWater::AllButElephant if defender == Kind::Elephant => return false,
            _ => {}
        }
    }
    // Rule 1: on a trap that weakens it, the defender has rank 0.
    let weakened = if o.universal_traps {
        terrain.is_trap(to)
    } else {
        terrain.traps_of(side).contains(&to)
    };
    if attacker == Kind::Elephant && defender == Kind::Rat {
        return match o.elephant_captures_rat {
            ElephantCapturesRat::Always => true,
            ElephantCapturesRat::Never => false,
            ElephantCapturesRat::Trapped => weakened,
        };
    }
    if weakened {
        return true;
    }
    // Rule 2: the Rat takes the Elephant (from the water only under rat-from-water=all, checked above).
    if attacker == Kind::Rat && defender == Kind::Elephant {
        return true;
    }
    rank(attacker, o) >= rank(defender, o)
}

/// Every legal move of the side to move, as sorted move text.
pub fn legal_moves(fen: &str, o: &RuleOptions) -> Vec<String> {
    let mut moves: Vec<String> = moves_on(&Board::from_fen(fen), o)
        .into_iter()
        .map(|(from, to)| format!("{}{}", name(from), name(to)))
        .collect();
    moves.sort();
    moves
}

/// The number of leaves `depth` plies below the board, counted one move at a time.
pub fn perft(board: &Board, o: &RuleOptions, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    moves_on(board, o)
        .into_iter()
        .map(|(from, to)| perft(&board.after(from, to), o, depth - 1))
        .sum()
}

/// Every legal move of the side to move, as (from, to).
pub fn moves_on(board: &Board, o: &RuleOptions) -> Vec<(Sq, Sq)> {
    let terrain = Terrain::new(o.board);
    let mut moves = Vec::new();
    if decided(board, o) {
        return moves;
    }
    let us = board.to_move;
    for (from, kind) in board.men_of(us) {
        // Movement 2: one square horizontally or vertically.
        let mut candidates: Vec<Sq> = Vec::new();
        for (df, dr) in [(0i8, 1i8), (0, -1), (1, 0), (-1, 0)] {
            let file = from.0 as i8 + df;
            let rank = from.1 as i8 + dr;
            if (0..7).contains(&file) && (1..=9).contains(&rank) {
                candidates.push((file as u8, rank as u8));
            }
        }
        // Movement 6: river jumps, for the animals and directions the options allow, unless a piece swims
        // in the way.
        for (start, landing, over, horizontal) in &terrain.jumps {
            if *start != from {
                continue;
            }
            let jumps_this_way = match kind {
                Kind::Tiger => true,
                Kind::Lion => !horizontal || o.lion_jumps_horizontally,
                Kind::Leopard => *horizontal && o.leopard_jumps,
                _ => false,
            };
            if jumps_this_way && over.iter().all(|s| board.at(*s).is_none()) {
                candidates.push(*landing);
            }
        }
        for to in candidates {
            // Movement 3: never into its own den.
            if to == Terrain::den_of(us) {
                continue;
            }
            // Movement 4: water only for the Rat (and the Dog under dog-swims).
            let swims = kind == Kind::Rat || (kind == Kind::Dog && o.dog_swims);
            if terrain.is_water(to) && !swims {
                continue;
            }
            // Movement 5: traps for every piece up to trap-max-rank.
            if terrain.is_trap(to) && rank(kind, o) > o.trap_max_rank {
                continue;
            }
            match board.at(to) {
                // Movement 7: never onto its own piece.
                Some(man) if man.colour == us => continue,
                Some(man) if !may_capture(&terrain, o, us, kind, from, man.kind, to) => continue,
                _ => {}
            }
            moves.push((from, to));
        }
    }
    moves
}
