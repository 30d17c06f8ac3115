//! The static evaluation: every weight is in [`W`], every term is computed in [`Evaluator::evaluate`].
//!
//! Terms (from Blue's point of view, negated for Red to move):
//! 1. material, with the Rat–Elephant interplay (a Rat is worth more while the enemy Elephant lives, the
//!    Elephant more once the enemy Rat is gone) and the jumpers (Lion, Tiger, jumping Leopard) valued for
//!    their river jumps; a Rat in the river blocks enemy jumps;
//! 2. distance to the enemy den, measured by a breadth-first search over the squares each animal may use under
//!    the rules (water only for swimmers, jumps only for jumpers, trap-max-rank), so it is right for every
//!    rule option and board;
//! 3. den attack and defence: attackers close to the enemy den count more when few defenders are near it;
//! 4. mobility (the squares a piece could step to);
//! 5. river control: jumpers on a river bank, swimmers in the water;
//! 6. a tempo bonus for the side to move.
//!
//! Provenance: the weights were set by hand from the rules' logic (a Cat ≈ 200), then adjusted by the
//! self-play matches recorded in `docs/engine.md`; `tools/tune` can re-fit them on self-play positions.

use jungle_rules::terrain::{DENS, Direction, JUMPS, STEPS};
use jungle_rules::{Animal, Bitboard, BySide, Piece, Position, Rules, Side, Square};

/// Every evaluation weight.
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    /// Base value by capture rank (index 0 unused): what the piece can take and what can take it.
    pub rank_value: [i32; 9],
    /// Extra value of a piece that can jump rivers in all four directions (scaled by the directions it has).
    pub jumper: i32,
    /// The Rat's worth as the Elephant's killer, while the enemy Elephant lives.
    pub rat_kills_elephant: i32,
    /// Extra for a swimmer (the Rat, a swimming Dog): water is its refuge and road.
    pub swimmer: i32,
    /// Extra for the Elephant once the enemy Rat is gone (nothing but traps can stop it).
    pub elephant_without_enemy_rat: i32,
    /// Bonus by path distance to the enemy den (index = plies of travel; 0 never happens).
    pub den_distance: [i32; 10],
    /// Percent of `den_distance` per animal (strong pieces are harder to stop).
    pub den_distance_scale: [i32; 8],
    /// Per own piece within two steps of the own den, up to `den_defenders_counted`.
    pub den_defender: i32,
    pub den_defenders_counted: u32,
    /// Per enemy attacker within three plies of our den beyond the number of our defenders there.
    pub den_attack_excess: i32,
    /// Per square a piece could step to.
    pub mobility: [i32; 8],
    /// A jumper standing where it can jump.
    pub jumper_on_bank: i32,
    /// A swimmer in the water while the enemy has jumpers (it blocks their jumps).
    pub swimmer_blocks_jumps: i32,
    /// A piece standing on a trap that weakens it.
    pub weakened_on_trap: i32,
    pub tempo: i32,
}

impl Weights {
    /// The tunable weights as one list (for the tuner), in a fixed order; [`Weights::from_slice`] reads it back.
    pub fn to_vec(&self) -> Vec<i32> {
        let mut v = Vec::new();
        v.extend_from_slice(&self.rank_value[1..]);
        v.extend_from_slice(&[
            self.jumper,
            self.rat_kills_elephant,
            self.swimmer,
            self.elephant_without_enemy_rat,
        ]);
        v.extend_from_slice(&self.den_distance[1..]);
        v.extend_from_slice(&self.den_distance_scale);
        v.extend_from_slice(&[self.den_defender, self.den_attack_excess]);
        v.extend_from_slice(&self.mobility);
        v.extend_from_slice(&[
            self.jumper_on_bank,
            self.swimmer_blocks_jumps,
            self.weakened_on_trap,
            self.tempo,
        ]);
        v
    }

    /// Weights from a list made by [`Weights::to_vec`] (fields not in the list are kept from `self`).
    ///
    /// # Panics
    /// If the list is shorter than `to_vec`'s.
    #[must_use]
    pub fn from_slice(&self, v: &[i32]) -> Weights {
        let mut w = *self;
        let mut it = v.iter().copied();
        let mut next = || it.next().expect("weights list too short");
        for x in &mut w.rank_value[1..] {
            *x = next();
        }
        w.jumper = next();
        w.rat_kills_elephant = next();
        w.swimmer = next();
        w.elephant_without_enemy_rat = next();
        for x in &mut w.den_distance[1..] {
            *x = next();
        }
        for x in &mut w.den_distance_scale {
            *x = next();
        }
        w.den_defender = next();
        w.den_attack_excess = next();
        for x in &mut w.mobility {
            *x = next();
        }
        w.jumper_on_bank = next();
        w.swimmer_blocks_jumps = next();
        w.weakened_on_trap = next();
        w.tempo = next();
        w
    }
}

/// The weights in use. Provenance: hand-set (see the module comment); `den_distance` and `den_attack_excess`
/// were raised after self-play showed den races decide most games.
pub const W: Weights = Weights {
    rank_value: [0, 100, 200, 250, 300, 380, 480, 580, 700],
    jumper: 220,
    rat_kills_elephant: 160,
    swimmer: 80,
    elephant_without_enemy_rat: 120,
    den_distance: [0, 180, 110, 65, 40, 24, 14, 8, 4, 0],
    den_distance_scale: [70, 55, 65, 75, 85, 110, 115, 100],
    den_defender: 25,
    den_defenders_counted: 2,
    den_attack_excess: 45,
    mobility: [2, 2, 2, 2, 3, 4, 4, 3],
    jumper_on_bank: 12,
    swimmer_blocks_jumps: 15,
    weakened_on_trap: -40,
    tempo: 12,
};

const UNREACHABLE: u8 = 99;

/// The evaluation's tables for one rule set, built once when the rules change.
#[derive(Clone, Debug)]
pub struct Evaluator {
    pub(crate) rules: Rules,
    w: Weights,
    /// Material + den distance, per side, animal and square (from that side's point of view).
    psq: BySide<[[i32; 63]; 8]>,
    /// Squares each side's animal may step to from each square, terrain-wise.
    steps_allowed: BySide<[[Bitboard; 63]; 8]>,
    /// Squares within two steps of each side's den.
    den_zone: BySide<Bitboard>,
    /// The squares next to two of the squares next to each side's den: a piece there threatens to step next to
    /// the den on two sides at once (a den fork).
    pub(crate) den_fork: BySide<Bitboard>,
    /// Squares within three steps of each side's den.
    den_approach: BySide<Bitboard>,
    /// The material value of each animal for move ordering and pruning margins.
    pub(crate) value: [i32; 8],
    jumpers_exist: bool,
}

impl Evaluator {
    /// The evaluator of the engine's weights [`W`].
    pub fn new(rules: &Rules) -> Evaluator {
        Evaluator::with_weights(rules, W)
    }

    /// An evaluator with other weights (for tuning).
    pub fn with_weights(rules: &Rules, w: Weights) -> Evaluator {
        let mut value = [0; 8];
        let mut bank = [Bitboard::EMPTY; 8];
        for animal in Animal::ALL {
            let mut v = w.rank_value[rules.rank(animal) as usize];
            let directions = Direction::ALL
                .into_iter()
                .filter(|&d| rules.jumps(animal, d))
                .count() as i32;
            v += w.jumper * directions / 4;
            if rules.can_swim(animal) && rules.water().any() {
                v += w.swimmer;
            }
            value[animal.index()] = v;
            for sq in Square::all() {
                if Direction::ALL
                    .into_iter()
                    .zip(&JUMPS[sq.index()])
                    .any(|(d, j)| j.is_some() && rules.jumps(animal, d) && rules.water().any())
                {
                    bank[animal.index()] |= Bitboard::from_square(sq);
                }
            }
        }
        let mut psq = BySide::new([[0; 63]; 8], [[0; 63]; 8]);
        let mut steps_allowed = BySide::new([[Bitboard::EMPTY; 63]; 8], [[Bitboard::EMPTY; 63]; 8]);
        for side in Side::ALL {
            for animal in Animal::ALL {
                let distance = den_distances(rules, side, animal);
                for sq in Square::all() {
                    steps_allowed[side][animal.index()][sq.index()] =
                        STEPS[sq.index()] & rules.destinations(side, animal);
                    let d = distance[sq.index()] as usize;
                    let bonus = if d < w.den_distance.len() {
                        w.den_distance[d] * w.den_distance_scale[animal.index()] / 100
                    } else {
                        0
                    };
                    let on_bank = if bank[animal.index()].contains(sq) {
                        w.jumper_on_bank
                    } else {
                        0
                    };
                    psq[side][animal.index()][sq.index()] = value[animal.index()] + bonus + on_bank;
                }
            }
        }
        let zone = |side: Side, radius: u8| -> Bitboard {
            let den = DENS[side];
            Square::all()
                .filter(|s| s.file().abs_diff(den.file()) + s.rank().abs_diff(den.rank()) <= radius)
                .filter(|&s| s != den)
                .collect()
        };
        Evaluator {
            rules: rules.clone(),
            w,
            psq,
            steps_allowed,
            den_zone: BySide::new(zone(Side::Blue, 2), zone(Side::Red, 2)),
            den_fork: BySide::new(den_fork_squares(Side::Blue), den_fork_squares(Side::Red)),
            den_approach: BySide::new(zone(Side::Blue, 3), zone(Side::Red, 3)),
            value,
            jumpers_exist: Animal::ALL.into_iter().any(|a| rules.is_jumper(a)),
        }
    }

    /// Whether an enemy piece stands within two steps of `side`'s den: a den attack the static evaluation
    /// cannot judge, so the search does not prune on it.
    #[inline]
    pub(crate) fn den_in_danger(&self, pos: &Position, side: Side) -> bool {
        (pos.side(!side) & self.den_zone[side]).any()
    }

    /// The static evaluation from the side to move's point of view.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let blue = self.side_score(pos, Side::Blue);
        let red = self.side_score(pos, Side::Red);
        let score = blue - red;
        self.w.tempo
            + if pos.side_to_move() == Side::Blue {
                score
            } else {
                -score
            }
    }

    #[inline]
    fn side_score(&self, pos: &Position, side: Side) -> i32 {
        let own = pos.side(side);
        let enemy = pos.side(!side);
        let psq = &self.psq[side];
        let mut score = 0;
        let mut enemy_has_jumpers = false;
        for animal in Animal::ALL {
            let a = animal.index();
            if let Some(sq) = pos.square_of(Piece::new(side, animal)) {
                // Material, den distance and the river-bank bonus are in `psq`.
                score += psq[a][sq.index()];
                let reach = self.steps_allowed[side][a][sq.index()] & !own;
                score += self.w.mobility[a] * reach.count() as i32;
            }
            if self.rules.is_jumper(animal) && pos.pieces(Piece::new(!side, animal)).any() {
                enemy_has_jumpers = true;
            }
        }
        // Rat–Elephant interplay.
        let has = |s: Side, animal: Animal| pos.pieces(Piece::new(s, animal)).any();
        if has(side, Animal::Rat) && has(!side, Animal::Elephant) {
            score += self.w.rat_kills_elephant;
        }
        if has(side, Animal::Elephant) && !has(!side, Animal::Rat) {
            score += self.w.elephant_without_enemy_rat;
        }
        // River control: a swimmer in the water blocks the enemy's jumps.
        let water = self.rules.water();
        if enemy_has_jumpers && self.jumpers_exist && (own & water).any() {
            score += self.w.swimmer_blocks_jumps * (own & water).count() as i32;
        }
        // Pieces standing weakened on a trap.
        let weakened = own & self.rules.weakening_squares(!side);
        score += self.w.weakened_on_trap * weakened.count() as i32;
        // Den attack against the enemy, measured against the enemy's defenders.
        let defenders = (enemy & self.den_zone[!side]).count();
        let attackers = (own & self.den_approach[!side]).count();
        if attackers > defenders {
            score += self.w.den_attack_excess * (attackers - defenders) as i32;
        }
        score += self.w.den_defender
            * (own & self.den_zone[side])
                .count()
                .min(self.w.den_defenders_counted) as i32;
        score
    }
}

/// Plies a piece needs to reach the enemy den from each square (ignoring other pieces), by breadth-first search
/// backwards from the den over the moves the rules allow the animal.
fn den_distances(rules: &Rules, side: Side, animal: Animal) -> [u8; 63] {
    let allowed = rules.destinations(side, animal);
    let target = DENS[!side];
    let mut dist = [UNREACHABLE; 63];
    dist[target.index()] = 0;
    let mut frontier = vec![target];
    let mut d = 0;
    while !frontier.is_empty() {
        d += 1;
        let mut next = Vec::new();
        for &to in &frontier {
            for from in Square::all() {
                if dist[from.index()] != UNREACHABLE || !allowed.contains(from) {
                    continue;
                }
                let step = STEPS[from.index()].contains(to);
                let jump = Direction::ALL
                    .into_iter()
                    .zip(&JUMPS[from.index()])
                    .any(|(dir, j)| {
                        matches!(j, Some(j) if j.to == to)
                            && rules.jumps(animal, dir)
                            && rules.water().any()
                    });
                if step || jump {
                    dist[from.index()] = d;
                    next.push(from);
                }
            }
        }
        frontier = next;
    }
    dist
}

/// The squares (not the den nor next to it) next to at least two squares next to `side`'s den.
fn den_fork_squares(side: Side) -> Bitboard {
    let neighbours = STEPS[DENS[side].index()];
    Square::all()
        .filter(|&s| s != DENS[side] && !neighbours.contains(s))
        .filter(|s| (STEPS[s.index()] & neighbours).count() >= 2)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_round_trip_through_the_tuning_list() {
        let v = W.to_vec();
        let w = W.from_slice(&v);
        assert_eq!(w.to_vec(), v);
        assert_eq!(format!("{w:?}"), format!("{W:?}"));
    }

    #[test]
    fn start_position_is_balanced() {
        for preset in [
            "",
            "modern",
            "mistboard",
            "animal-checkers",
            "leopard-jumps=true",
        ] {
            let rules: Rules = preset.parse().unwrap();
            let e = Evaluator::new(&rules);
            let start = Position::start(&rules);
            assert_eq!(e.evaluate(&start), W.tempo, "{preset}");
        }
    }

    #[test]
    fn evaluation_is_symmetric_under_colour_swap() {
        let rules = Rules::default();
        let e = Evaluator::new(&rules);
        let pos =
            Position::from_fen("l5t/1d3c1/r1p1w1e/7/3E3/7/2W1P1R/1C3D1/T5L b 0 1", &rules).unwrap();
        assert_eq!(e.evaluate(&pos), e.evaluate(&pos.swap_colours()));
        assert_eq!(e.evaluate(&pos), e.evaluate(&pos.mirror()));
    }

    #[test]
    fn den_distances_respect_water() {
        let rules = Rules::default();
        let rat = den_distances(&rules, Side::Blue, Animal::Rat);
        let cat = den_distances(&rules, Side::Blue, Animal::Cat);
        let lion = den_distances(&rules, Side::Blue, Animal::Lion);
        assert_eq!(rat[Square::D8.index()], 1);
        assert_eq!(
            cat[Square::D1.index()],
            UNREACHABLE,
            "own den is never entered"
        );
        // Only the Rat may stand in the river; from b3 the Lion jumps to b7 while the Cat walks around.
        assert_eq!(cat[Square::B5.index()], UNREACHABLE);
        assert!(rat[Square::B5.index()] < UNREACHABLE);
        assert!(lion[Square::B3.index()] < cat[Square::B3.index()]);
    }
}
