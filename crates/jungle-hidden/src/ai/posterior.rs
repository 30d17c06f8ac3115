//! Exact draws from a distribution over ways to give distinct animals to pieces, in which a way's probability is
//! the product of a weight for each piece and the animal it gets: the form of the AI's [`Belief`] about the other
//! side's setup (the setup table's prior and the evidence both weigh each piece's animal alone; only "no two
//! pieces are the same animal" ties them together).
//!
//! A side has at most eight unknown pieces, so every way (at most 8! = 40,320) is enumerated: the draws and the
//! marginals are exact, not approximated by drawing piece after piece.
//!
//! [`Belief`]: super::Belief

use jungle_rules::Animal;
use rand::Rng;

/// One way: the animal of each piece, in the pieces' order (the first `weights.len()` entries).
type Way = [Animal; 8];

/// Each way to give `animals` to the pieces (one animal a piece, at most eight pieces) with its weight, the
/// product of `weights[piece][animal.index()]`; ways of weight zero are left out.
fn ways(weights: &[[f64; 8]], animals: &[Animal]) -> Vec<(Way, f64)> {
    let mut ways = Vec::new();
    if weights.len() <= 8 {
        let mut used = [false; 8];
        extend(
            weights,
            animals,
            0,
            &mut [Animal::Rat; 8],
            &mut used,
            1.0,
            &mut ways,
        );
    }
    ways
}

fn extend(
    weights: &[[f64; 8]],
    animals: &[Animal],
    piece: usize,
    chosen: &mut Way,
    used: &mut [bool; 8],
    product: f64,
    ways: &mut Vec<(Way, f64)>,
) {
    if piece == weights.len() {
        ways.push((*chosen, product));
        return;
    }
    for (i, &animal) in animals.iter().enumerate().take(8) {
        let weight = weights[piece][animal.index()];
        if used[i] || weight <= 0.0 {
            continue;
        }
        used[i] = true;
        chosen[piece] = animal;
        extend(
            weights,
            animals,
            piece + 1,
            chosen,
            used,
            product * weight,
            ways,
        );
        used[i] = false;
    }
}

/// One way to give distinct animals of `animals` to the pieces, drawn with probability proportional to the
/// product of the pieces' weights for their animals; `None` when every way weighs zero (or there are more
/// pieces than animals).
pub fn draw(weights: &[[f64; 8]], animals: &[Animal], rng: &mut impl Rng) -> Option<Vec<Animal>> {
    let ways = ways(weights, animals);
    let total: f64 = ways.iter().map(|(_, w)| w).sum();
    if total <= 0.0 {
        return None;
    }
    let mut target = rng.random_range(0.0..total);
    let last = ways.len() - 1;
    let pick = ways
        .iter()
        .position(|(_, w)| {
            target -= w;
            target < 0.0
        })
        .unwrap_or(last);
    Some(ways[pick].0[..weights.len()].to_vec())
}

/// The sum of the weights of every way (the normaliser of the distribution [`draw`] draws from).
pub fn total(weights: &[[f64; 8]], animals: &[Animal]) -> f64 {
    ways(weights, animals).iter().map(|(_, w)| w).sum()
}

/// The probability that each piece is each animal (indexed by `Animal::index`) under the same distribution;
/// `None` when every way weighs zero.
pub fn marginals(weights: &[[f64; 8]], animals: &[Animal]) -> Option<Vec<[f64; 8]>> {
    let ways = ways(weights, animals);
    let total: f64 = ways.iter().map(|(_, w)| w).sum();
    if total <= 0.0 {
        return None;
    }
    let mut marginals = vec![[0.0; 8]; weights.len()];
    for (way, w) in &ways {
        for (piece, animal) in way.iter().take(weights.len()).enumerate() {
            marginals[piece][animal.index()] += w / total;
        }
    }
    Some(marginals)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use super::*;
    use Animal::{Cat, Elephant, Rat};

    #[test]
    fn marginals_weigh_every_way_by_its_product() {
        // Two pieces, two animals: ways (Rat, Cat) of weight 2·1 = 2, and (Cat, Rat) of weight 1·4 = 4.
        let mut weights = [[0.0; 8]; 2];
        weights[0][Rat.index()] = 2.0;
        weights[0][Cat.index()] = 1.0;
        weights[1][Rat.index()] = 4.0;
        weights[1][Cat.index()] = 1.0;
        let m = marginals(&weights, &[Rat, Cat]).unwrap();
        assert!((m[0][Rat.index()] - 2.0 / 6.0).abs() < 1e-12, "{m:?}");
        assert!((m[1][Rat.index()] - 4.0 / 6.0).abs() < 1e-12, "{m:?}");
        // Drawing piece by piece (the first piece's own weights, 2:1 for the Rat) would say 2/3, not 1/3.
        let mut rng = StdRng::seed_from_u64(1);
        let draws = 3000;
        let rats = (0..draws)
            .filter(|_| draw(&weights, &[Rat, Cat], &mut rng).unwrap()[0] == Rat)
            .count();
        let share = rats as f64 / f64::from(draws);
        assert!((share - 1.0 / 3.0).abs() < 0.03, "{share}");
    }

    #[test]
    fn animals_weighing_zero_are_never_drawn_and_impossible_ways_are_none() {
        let mut weights = [[1.0; 8]; 2];
        weights[0][Elephant.index()] = 0.0;
        let mut rng = StdRng::seed_from_u64(2);
        for _ in 0..50 {
            let way = draw(&weights, &[Rat, Elephant, Cat], &mut rng).unwrap();
            assert_ne!(way[0], Elephant);
            assert_ne!(way[0], way[1]);
        }
        // Both pieces can only be the Elephant: no way gives them distinct animals.
        let mut only_elephant = [[0.0; 8]; 2];
        only_elephant[0][Elephant.index()] = 1.0;
        only_elephant[1][Elephant.index()] = 1.0;
        assert!(draw(&only_elephant, &[Rat, Elephant], &mut rng).is_none());
        assert!(marginals(&only_elephant, &[Rat, Elephant]).is_none());
        assert!(draw(&[[1.0; 8]; 3], &[Rat, Cat], &mut rng).is_none());
    }
}
