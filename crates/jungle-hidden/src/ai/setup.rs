//! The AI's setup: still drawn at random, so that no opponent can learn it from game to game, but favouring the
//! placements that won more.
//!
//! A setup's **score** is the sum, over its animals, of a weight for the animal standing on a *place*: the start
//! squares seen from the side's own end of the board, a square and its left–right mirror image being one place
//! (the board is symmetric, so a placement and its mirror image are worth the same):
//!
//! | place | Blue | Red |
//! |---|---|---|
//! | back corners | a1 g1 | a9 g9 |
//! | second rank | b2 f2 | b8 f8 |
//! | third rank, outer | a3 g3 | a7 g7 |
//! | third rank, inner | c3 e3 | c7 e7 |
//!
//! A table may also weigh pairs of animals: two animals on the same half of the board (both on the a–c files or
//! both on the e–g files), or on the same place ([`RELATION_NAMES`]); the shipped table has none (fitted so far,
//! they have not predicted the games measurably better; docs/hidden.md). A setup is drawn from all 8! of them
//! with a probability proportional to `exp(score / TEMPERATURE)`. Without pair weights the two squares of a place
//! always stay equally likely, so at least 4 bits of the setup (which of each pair) are a coin's;
//! [`SetupTable::entropy_bits`] says how much is left in all (a uniform draw has log2(8!) = 15.3 bits).
//!
//! The weights were fitted to games the AI played with uniformly random setups against the one-world baseline
//! (docs/hidden.md, "The AI's setup", has the commands and the numbers). They hold for the rules they were fitted
//! under (the standard ones); under any other rules, or another board, the setup is uniformly random.

use jungle_rules::rules::RuleOptions;
use jungle_rules::{Animal, Rules, Side, Square};
use rand::Rng;

use crate::Arrangement;

/// How many places a side's start squares form on the standard board.
pub const PLACES: usize = 4;

/// The places' names, in the order of the table's columns.
pub const PLACE_NAMES: [&str; PLACES] = [
    "back corners",
    "second rank",
    "third rank, outer",
    "third rank, inner",
];

/// Setups drawn are those with a higher score more often: `exp(score / TEMPERATURE)`. The lower, the more the
/// draw favours the best setups and the less it is random: 0.034 keeps 8.13 bits of the uniform draw's 15.3, just
/// above the 8 bits below which an opponent who knows the table could prepare for the AI's likeliest setups
/// (`hidden_setup_fit` prints the entropy and the score the model expects at each temperature; 0.034 scored
/// 2.1 points more than the earlier 0.05 over 1,600 games, docs/hidden.md, "The AI's setup").
const TEMPERATURE: f64 = 0.034;

/// Weight of each animal (rows: Rat, Cat, Wolf, Dog, Leopard, Tiger, Lion, Elephant) on each place (columns as
/// [`PLACE_NAMES`]), in logits of the AI's score. Fitted by `hidden_setup_fit --opponent-setups 1` (logistic
/// regression with an L2 penalty of 100, chosen by cross-validation) to 4,800 games of level 8 with uniformly
/// random setups against the one-world baseline, both sides' setups (the baseline's counting against the AI):
///
/// ```sh
/// for s in $(seq 500 511) $(seq 550 561); do
///   cargo run --profile ci -p jungle-hidden --example hidden_match -- --uniform-setup 1 --games 200 \
///     --nodes 10000 --seed $s --pgn s$s.pgn
/// done
/// cargo run --profile ci -p jungle-hidden --example hidden_setup_fit -- --opponent-setups 1 s5*.pgn
/// ```
const FITTED: [[f64; PLACES]; 8] = [
    [0.054, -0.045, 0.011, -0.020],  // Rat
    [-0.005, -0.041, -0.009, 0.054], // Cat
    [0.005, 0.015, -0.005, -0.015],  // Wolf
    [-0.029, -0.041, 0.063, 0.007],  // Dog
    [-0.021, 0.005, 0.065, -0.050],  // Leopard
    [0.117, 0.001, -0.057, -0.061],  // Tiger
    [0.054, 0.027, -0.022, -0.059],  // Lion
    [-0.177, 0.078, -0.045, 0.144],  // Elephant
];

/// How two animals' start squares can stand to each other, for the table's pair weights: on the same half of
/// the board (both on the a–c files or both on the e–g files), and on the same place (a square and its mirror
/// image).
pub const RELATIONS: usize = 2;

/// The relations' names, in the order of [`SetupTable::pairs`].
pub const RELATION_NAMES: [&str; RELATIONS] = ["same half", "same place"];

/// How many unordered pairs of the eight animals there are.
pub const PAIRS: usize = 28;

/// The index of the unordered pair of the animals of indices `a` and `b` (different), 0 to 27.
pub fn pair_index(a: usize, b: usize) -> usize {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    debug_assert!(hi < 8 && lo < hi);
    // Pairs (0, 1..8), then (1, 2..8), …: the rows before `lo` hold 7 + 6 + … of them.
    lo * (15 - lo) / 2 + (hi - lo - 1)
}

/// No pair weights: a table of places alone.
pub const NO_PAIRS: [[f64; PAIRS]; RELATIONS] = [[0.0; PAIRS]; RELATIONS];

/// A table of weights per animal and place, per pair of animals standing in each relation, and the temperature
/// setups are drawn at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SetupTable {
    pub weights: [[f64; PLACES]; 8],
    /// `pairs[relation][pair_index(a, b)]`: added to the score when animals `a` and `b` stand in `relation`
    /// ([`RELATION_NAMES`]).
    pub pairs: [[f64; PAIRS]; RELATIONS],
    pub temperature: f64,
}

/// Which relations (in the order of [`RELATION_NAMES`]) the start squares `i` and `j` of a side stand in, given
/// each start square's place and half of the board (0: the a–c files, 1: the e–g files).
pub fn relations(places: &[usize], halves: &[usize], i: usize, j: usize) -> [bool; RELATIONS] {
    [halves[i] == halves[j], places[i] == places[j]]
}

/// The place of `square` for `side`'s start squares on the standard board, if it is one of them.
pub fn place_of(side: Side, square: Square) -> Option<usize> {
    // Seen from the side's own end: Red's squares rotated onto Blue's.
    let own = match side {
        Side::Blue => square,
        Side::Red => square.rotate(),
    };
    let from_edge = own.file().min(own.mirror().file());
    match (own.rank(), from_edge) {
        (0, 0) => Some(0),
        (1, 1) => Some(1),
        (2, 0) => Some(2),
        (2, 2) => Some(3),
        _ => None,
    }
}

impl SetupTable {
    /// The table the AI uses.
    pub const FITTED: SetupTable = SetupTable {
        weights: FITTED,
        pairs: NO_PAIRS,
        temperature: TEMPERATURE,
    };

    /// The half of the board of each of `side`'s start squares (0: the a–c files, 1: the e–g files), in increasing
    /// square order, when the table applies to `rules`.
    pub fn halves(rules: &Rules, side: Side) -> Option<Vec<usize>> {
        SetupTable::places(rules, side)?;
        Some(
            Arrangement::start_squares(rules, side)
                .into_iter()
                .map(|sq| usize::from(sq.file() > 3))
                .collect(),
        )
    }

    /// The place of each of `side`'s start squares, in increasing square order, when the table applies to
    /// `rules`: the standard rules (every animal in play, the standard board and start squares).
    pub fn places(rules: &Rules, side: Side) -> Option<Vec<usize>> {
        if rules.options() != &RuleOptions::default() {
            return None;
        }
        let places = Arrangement::start_squares(rules, side)
            .into_iter()
            .map(|sq| place_of(side, sq))
            .collect::<Option<Vec<usize>>>()?;
        let each_twice = (0..PLACES).all(|p| places.iter().filter(|&&q| q == p).count() == 2);
        (places.len() == 2 * PLACES && each_twice).then_some(places)
    }

    /// The score of the animals `animals` standing on start squares of the places `places` and the halves
    /// `halves`, in order.
    fn score_of(&self, places: &[usize], halves: &[usize], animals: &[Animal]) -> f64 {
        let mut score: f64 = places
            .iter()
            .zip(animals)
            .map(|(&place, animal)| self.weights[animal.index()][place])
            .sum();
        if self.pairs != NO_PAIRS {
            for i in 0..animals.len() {
                for j in i + 1..animals.len() {
                    let pair = pair_index(animals[i].index(), animals[j].index());
                    for (r, holds) in relations(places, halves, i, j).into_iter().enumerate() {
                        if holds {
                            score += self.pairs[r][pair];
                        }
                    }
                }
            }
        }
        score
    }

    /// The score of an arrangement, when the table applies to its rules.
    pub fn score(&self, rules: &Rules, arrangement: &Arrangement) -> Option<f64> {
        let places = SetupTable::places(rules, arrangement.side())?;
        let halves = SetupTable::halves(rules, arrangement.side())?;
        Some(self.score_of(&places, &halves, &arrangement.animals()))
    }

    /// For each of `side`'s start squares, the factor by which the table multiplies a setup's probability for
    /// each animal standing there (indexed by `Animal::index`), its scores scaled by `strength` (1: as the table
    /// draws, 0: uniform), when the table applies. A setup's probability is the product of its animals' factors
    /// over the sum of all the products, so these are the table as a prior over an opponent's setup that
    /// weighs each animal's square alone — as a table without pair weights (the shipped one) does; pair
    /// weights are left out.
    pub fn place_factors(
        &self,
        rules: &Rules,
        side: Side,
        strength: f64,
    ) -> Option<Vec<(Square, [f64; 8])>> {
        let places = SetupTable::places(rules, side)?;
        Some(
            Arrangement::start_squares(rules, side)
                .into_iter()
                .zip(places)
                .map(|(square, place)| {
                    let factors = Animal::ALL.map(|animal| {
                        (strength * self.weights[animal.index()][place] / self.temperature).exp()
                    });
                    (square, factors)
                })
                .collect(),
        )
    }

    /// The probability that `animal` stands on `place` in a setup drawn for `side`, when the table applies.
    pub fn share(&self, rules: &Rules, side: Side, animal: Animal, place: usize) -> Option<f64> {
        let places = SetupTable::places(rules, side)?;
        let setups = self.distribution(rules, side)?;
        Some(
            setups
                .iter()
                .filter(|(animals, _)| {
                    places
                        .iter()
                        .zip(animals)
                        .any(|(&p, &a)| a == animal && p == place)
                })
                .map(|&(_, p)| p)
                .sum(),
        )
    }

    /// Every setup of `side` (animals in start-square order) with its probability, when the table applies.
    pub fn distribution(&self, rules: &Rules, side: Side) -> Option<Vec<([Animal; 8], f64)>> {
        let places = SetupTable::places(rules, side)?;
        let halves = SetupTable::halves(rules, side)?;
        let mut animals: [Animal; 8] = Arrangement::standard(rules, side)
            .animals()
            .try_into()
            .ok()?;
        let mut setups = Vec::with_capacity(40_320);
        for_each_permutation(&mut animals, &mut |animals| {
            let score = self.score_of(&places, &halves, animals);
            setups.push((animals.try_into().expect("eight animals"), score));
        });
        let best = setups
            .iter()
            .map(|&(_, score)| score)
            .fold(f64::NEG_INFINITY, f64::max);
        let mut total = 0.0;
        for (_, weight) in &mut setups {
            *weight = ((*weight - best) / self.temperature).exp();
            total += *weight;
        }
        for (_, weight) in &mut setups {
            *weight /= total;
        }
        Some(setups)
    }

    /// The entropy of the setups drawn for `side`, in bits (log2(8!) = 15.3 for a uniform draw), when the table
    /// applies.
    pub fn entropy_bits(&self, rules: &Rules, side: Side) -> Option<f64> {
        let setups = self.distribution(rules, side)?;
        Some(
            setups
                .iter()
                .filter(|&&(_, p)| p > 0.0)
                .map(|&(_, p)| -p * p.log2())
                .sum(),
        )
    }

    /// The table as text, one line per animal (its weights by place), one per relation (its weights by pair),
    /// then the temperature: what `hidden_setup_fit --out` writes and `hidden_match --setup-table` reads
    /// ([`SetupTable::from_text`]).
    pub fn to_text(&self) -> String {
        let row = |cells: &[f64]| {
            let cells: Vec<String> = cells.iter().map(|w| format!("{w:.6}")).collect();
            cells.join(" ") + "\n"
        };
        let mut text: String = self.weights.iter().map(|r| row(r)).collect();
        text.extend(self.pairs.iter().map(|r| row(r)));
        text + &format!("{}\n", self.temperature)
    }

    /// A table from the text of [`SetupTable::to_text`] (any white space between the numbers): 8 × [`PLACES`]
    /// place weights, [`RELATIONS`] × [`PAIRS`] pair weights, a positive temperature.
    pub fn from_text(text: &str) -> Result<SetupTable, String> {
        let numbers = text
            .split_whitespace()
            .map(|w| {
                w.parse::<f64>()
                    .map_err(|_| format!("\"{w}\" is not a number"))
            })
            .collect::<Result<Vec<f64>, String>>()?;
        let wanted = 8 * PLACES + RELATIONS * PAIRS + 1;
        if numbers.len() != wanted || numbers.iter().any(|n| !n.is_finite()) {
            return Err(format!(
                "{} numbers, not {wanted} finite ones",
                numbers.len()
            ));
        }
        let mut table = SetupTable::FITTED;
        for (a, row) in table.weights.iter_mut().enumerate() {
            row.copy_from_slice(&numbers[a * PLACES..(a + 1) * PLACES]);
        }
        for (r, row) in table.pairs.iter_mut().enumerate() {
            let start = 8 * PLACES + r * PAIRS;
            row.copy_from_slice(&numbers[start..start + PAIRS]);
        }
        table.temperature = numbers[wanted - 1];
        if table.temperature <= 0.0 {
            return Err("the temperature must be positive".to_string());
        }
        Ok(table)
    }

    /// A setup for `side` drawn from the table's distribution, or uniformly at random where it does not apply.
    pub fn choose(&self, rules: &Rules, side: Side, rng: &mut impl Rng) -> Arrangement {
        let Some(setups) = self.distribution(rules, side) else {
            return Arrangement::random(rules, side, rng);
        };
        let mut left: f64 = rng.random();
        for (animals, p) in &setups {
            left -= p;
            if left < 0.0 {
                return Arrangement::new(rules, side, animals)
                    .expect("a permutation of the start animals");
            }
        }
        // Rounding left a sliver past the last setup.
        let (animals, _) = setups.last().expect("8! setups");
        Arrangement::new(rules, side, animals).expect("a permutation of the start animals")
    }
}

/// Calls `f` with every ordering of `items` (Heap's algorithm).
fn for_each_permutation<T>(items: &mut [T], f: &mut impl FnMut(&[T])) {
    let n = items.len();
    let mut counters = vec![0usize; n];
    f(items);
    let mut i = 1;
    while i < n {
        if counters[i] < i {
            let j = if i % 2 == 0 { 0 } else { counters[i] };
            items.swap(j, i);
            f(items);
            counters[i] += 1;
            i = 1;
        } else {
            counters[i] = 0;
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use jungle_rules::{BySide, Position, Preset};
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use super::*;
    use crate::ai::HiddenAi;

    #[test]
    fn places_pair_each_start_square_with_its_mirror_image_seen_from_its_own_side() {
        let rules = Rules::default();
        let letters = |side| {
            SetupTable::places(&rules, side)
                .unwrap()
                .iter()
                .map(|p| p.to_string())
                .collect::<String>()
        };
        // Blue a1 g1 b2 f2 a3 c3 e3 g3; Red a7 c7 e7 g7 b8 f8 a9 g9.
        assert_eq!(letters(Side::Blue), "00112332");
        assert_eq!(letters(Side::Red), "23321100");
        for side in Side::ALL {
            for sq in Arrangement::start_squares(&rules, side) {
                assert_eq!(place_of(side, sq), place_of(side, sq.mirror()));
                assert_eq!(place_of(side, sq), place_of(!side, sq.rotate()));
            }
        }
    }

    #[test]
    fn a_table_written_as_text_reads_back_the_same_and_bad_text_is_refused() {
        let mut table = SetupTable::FITTED;
        table.pairs[1][pair_index(2, 5)] = -0.25;
        assert_eq!(SetupTable::from_text(&table.to_text()), Ok(table));
        let text = table.to_text();
        let without_temperature = text.trim_end().rsplit_once('\n').unwrap().0;
        assert!(SetupTable::from_text(without_temperature).is_err());
        assert!(SetupTable::from_text(&text.replacen("0.", "x.", 1)).is_err());
        assert!(SetupTable::from_text(&format!("{without_temperature}\n-1\n")).is_err());
        assert!(SetupTable::from_text(&format!("{without_temperature}\ninf\n")).is_err());
    }

    #[test]
    fn pair_indices_number_the_28_pairs_once_each_and_halves_split_the_files() {
        let mut seen = HashSet::new();
        for a in 0..8 {
            for b in 0..8 {
                if a != b {
                    assert_eq!(pair_index(a, b), pair_index(b, a));
                    assert!(pair_index(a, b) < PAIRS);
                    seen.insert(pair_index(a, b));
                }
            }
        }
        assert_eq!(seen.len(), PAIRS);
        let rules = Rules::default();
        // Blue a1 g1 b2 f2 a3 c3 e3 g3; Red a7 c7 e7 g7 b8 f8 a9 g9.
        assert_eq!(
            SetupTable::halves(&rules, Side::Blue).unwrap(),
            [0, 1, 0, 1, 0, 0, 1, 1]
        );
        assert_eq!(
            SetupTable::halves(&rules, Side::Red).unwrap(),
            [0, 0, 1, 1, 0, 1, 0, 1]
        );
        let checkers: Rules = "animal-checkers".parse().unwrap();
        assert!(SetupTable::halves(&checkers, Side::Blue).is_none());
    }

    #[test]
    fn a_pair_weight_draws_the_pair_in_its_relation_more_often() {
        // The Lion and the Tiger on the same half weigh 1 logit: of the 7 squares left for the Tiger once the
        // Lion stands, 3 are on its half, so they stand together with probability 3e/(3e + 4) ≈ 0.67 (uniform 3/7).
        let rules = Rules::default();
        let mut pairs = NO_PAIRS;
        pairs[0][pair_index(Animal::Lion.index(), Animal::Tiger.index())] = 1.0;
        let table = SetupTable {
            weights: [[0.0; PLACES]; 8],
            pairs,
            temperature: 1.0,
        };
        let halves = SetupTable::halves(&rules, Side::Red).unwrap();
        let together: f64 = table
            .distribution(&rules, Side::Red)
            .unwrap()
            .iter()
            .filter(|(animals, _)| {
                let half = |animal| halves[animals.iter().position(|&a| a == animal).unwrap()];
                half(Animal::Lion) == half(Animal::Tiger)
            })
            .map(|&(_, p)| p)
            .sum();
        let e = 1.0f64.exp();
        let expected = 3.0 * e / (3.0 * e + 4.0);
        assert!((together - expected).abs() < 1e-9, "{together} {expected}");
        // A setup and its mirror image stay equally likely.
        let squares = Arrangement::start_squares(&rules, Side::Red);
        let mirror: Vec<usize> = squares
            .iter()
            .map(|sq| squares.iter().position(|&m| m == sq.mirror()).unwrap())
            .collect();
        let setups = table.distribution(&rules, Side::Red).unwrap();
        let probability: std::collections::HashMap<[Animal; 8], f64> =
            setups.iter().copied().collect();
        for (animals, p) in setups.iter().step_by(97) {
            let mut mirrored = *animals;
            for (i, &m) in mirror.iter().enumerate() {
                mirrored[m] = animals[i];
            }
            assert!((probability[&mirrored] - p).abs() < 1e-15);
        }
    }

    #[test]
    fn the_table_applies_to_the_standard_rules_only_and_elsewhere_setups_are_uniform() {
        for preset in Preset::ALL {
            let rules = Rules::preset(preset);
            for side in Side::ALL {
                let applies = SetupTable::FITTED.distribution(&rules, side).is_some();
                assert_eq!(applies, preset == Preset::Standard, "{preset}");
            }
        }
        // Where it does not apply every setup comes up: Animal Checkers has 4! of them a side.
        let checkers: Rules = "animal-checkers".parse().unwrap();
        let mut rng = StdRng::seed_from_u64(3);
        let seen: HashSet<String> = (0..400)
            .map(|_| {
                SetupTable::FITTED
                    .choose(&checkers, Side::Red, &mut rng)
                    .to_string()
            })
            .collect();
        assert_eq!(seen.len(), 24);
    }

    #[test]
    fn setups_chosen_are_legal_under_every_preset_and_vary_with_the_seed() {
        for preset in Preset::ALL {
            let rules = Rules::preset(preset);
            let mut seen = HashSet::new();
            for seed in 0..60 {
                let ai = HiddenAi::new(8, seed);
                let both = BySide::new(
                    ai.choose_setup(&rules, Side::Blue),
                    ai.choose_setup(&rules, Side::Red),
                );
                let start = Arrangement::start_position(&rules, &both).unwrap();
                assert_eq!(
                    start.occupied(),
                    Position::start(&rules).occupied(),
                    "{preset}"
                );
                seen.insert(both[Side::Blue].to_string());
            }
            // 60 draws from at least 2^8 equally likely setups (the board with 24 setups a side: about 22).
            let distinct = if preset == Preset::AnimalCheckers {
                15
            } else {
                45
            };
            assert!(seen.len() >= distinct, "{preset}: {} distinct", seen.len());
        }
    }

    #[test]
    fn the_fitted_table_keeps_at_least_eight_bits_of_entropy_on_both_sides() {
        let rules = Rules::default();
        let blue = SetupTable::FITTED.entropy_bits(&rules, Side::Blue).unwrap();
        let red = SetupTable::FITTED.entropy_bits(&rules, Side::Red).unwrap();
        assert!(blue >= 8.0, "{blue} bits");
        assert!((blue - red).abs() < 1e-9);
        let uniform = SetupTable {
            temperature: f64::INFINITY,
            ..SetupTable::FITTED
        };
        let bits = uniform.entropy_bits(&rules, Side::Blue).unwrap();
        assert!((bits - 40_320f64.log2()).abs() < 1e-9, "{bits}");
    }

    #[test]
    fn the_ai_favours_the_placements_the_table_favours() {
        // The mean table score of the AI's setups lies nearer the table distribution's than a uniform draw's.
        let rules = Rules::default();
        let table = SetupTable::FITTED;
        let setups = table.distribution(&rules, Side::Red).unwrap();
        let uniform_mean = setups
            .iter()
            .map(|(animals, _)| {
                table.score_of(
                    &SetupTable::places(&rules, Side::Red).unwrap(),
                    &SetupTable::halves(&rules, Side::Red).unwrap(),
                    animals,
                )
            })
            .sum::<f64>()
            / setups.len() as f64;
        let table_mean = setups
            .iter()
            .map(|(animals, p)| {
                p * table.score_of(
                    &SetupTable::places(&rules, Side::Red).unwrap(),
                    &SetupTable::halves(&rules, Side::Red).unwrap(),
                    animals,
                )
            })
            .sum::<f64>();
        assert!(
            table_mean > uniform_mean + 0.1,
            "{table_mean} {uniform_mean}"
        );
        let drawn = 400;
        let mean = (0..drawn)
            .map(|seed| {
                let setup = HiddenAi::new(8, seed).choose_setup(&rules, Side::Red);
                table.score(&rules, &setup).unwrap()
            })
            .sum::<f64>()
            / drawn as f64;
        assert!(
            mean > (uniform_mean + table_mean) / 2.0,
            "drawn {mean}, uniform {uniform_mean}, the table's {table_mean}"
        );
    }

    #[test]
    fn a_lower_temperature_draws_the_tables_better_setups_from_the_same_seed() {
        // `choose_setup` is `choose_setup_from` the fitted table; the same seed at a lower temperature draws
        // setups the table scores higher on average (what `hidden_match --setup-temperature` measures).
        let rules = Rules::default();
        let colder = SetupTable {
            temperature: 0.02,
            ..SetupTable::FITTED
        };
        let (mut fitted_total, mut colder_total) = (0.0, 0.0);
        for seed in 0..200 {
            let ai = HiddenAi::new(8, seed);
            let fitted = ai.choose_setup(&rules, Side::Blue);
            assert_eq!(
                fitted,
                ai.choose_setup_from(&SetupTable::FITTED, &rules, Side::Blue)
            );
            fitted_total += SetupTable::FITTED.score(&rules, &fitted).unwrap();
            let cold = ai.choose_setup_from(&colder, &rules, Side::Blue);
            colder_total += SetupTable::FITTED.score(&rules, &cold).unwrap();
        }
        assert!(colder_total > fitted_total, "{colder_total} {fitted_total}");
        let bits = |table: SetupTable| table.entropy_bits(&rules, Side::Blue).unwrap();
        assert!(bits(colder) < bits(SetupTable::FITTED));
    }

    #[test]
    fn a_heavier_weight_draws_its_placement_more_often() {
        // The Rat on the back corners weighs 2 logits more than anywhere: it stands there with probability
        // e²·2/(e²·2 + 6) ≈ 0.71 (a uniform draw: 2/8).
        let rules = Rules::default();
        let mut weights = [[0.0; PLACES]; 8];
        weights[Animal::Rat.index()][0] = 2.0;
        let table = SetupTable {
            weights,
            pairs: NO_PAIRS,
            temperature: 1.0,
        };
        let cornered = |animals: &[Animal]| {
            let places = SetupTable::places(&rules, Side::Blue).unwrap();
            places
                .iter()
                .zip(animals)
                .any(|(&place, &a)| a == Animal::Rat && place == 0)
        };
        let expected = 2.0f64.exp() * 2.0 / (2.0f64.exp() * 2.0 + 6.0);
        let exact: f64 = table
            .distribution(&rules, Side::Blue)
            .unwrap()
            .iter()
            .filter(|(animals, _)| cornered(animals))
            .map(|&(_, p)| p)
            .sum();
        assert!(
            (exact - expected).abs() < 1e-9,
            "{exact} against {expected}"
        );
        let mut rng = StdRng::seed_from_u64(5);
        let draws = 300;
        let drawn = (0..draws)
            .filter(|_| cornered(&table.choose(&rules, Side::Blue, &mut rng).animals()))
            .count();
        // 0.71 ± 0.026 (one standard deviation): far from a uniform draw's 0.25.
        let share = drawn as f64 / f64::from(draws);
        assert!((share - expected).abs() < 0.1, "{share} against {expected}");
    }
}
