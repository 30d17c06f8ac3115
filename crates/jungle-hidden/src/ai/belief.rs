//! What a player believes about the other side's unknown pieces: for each, a weight per animal it may be.
//!
//! Hard facts first: the animals still unknown (not seen on the board, not captured), and the terrain each piece
//! has stood on (a piece that stood on a trap is an animal allowed there under `trap-max-rank`). Then behaviour:
//! players do not walk a weak piece next to a revealed enemy piece that may capture it, so a piece that ends a
//! move there is probably not one of the animals that enemy piece captures. And, for the AI, the prior: the
//! other side probably sets up as the setup table says (`Belief::with_prior`).
//!
//! The AI's belief is a posterior over the other side's whole setup: a setup's probability is the table's prior
//! times the evidence for each piece, given that it agrees with every reveal. Both weigh each piece's animal
//! alone, so the posterior is a product of per-piece weights over the ways to give the unknown animals to the
//! unknown pieces, and the AI draws its worlds from it exactly ([`posterior`](super::posterior)).

use jungle_rules::{Animal, Rules, Side, Square};
use rand::Rng;

use super::posterior;
use super::setup::SetupTable;
use crate::View;

/// How much less likely an animal becomes for each move that put it, unknown, where a revealed enemy piece
/// could capture it. Players blunder, so it is not zero.
const EXPOSED_FACTOR: f64 = 0.35;

/// Weights over the candidate animals of each unknown piece of one side.
#[derive(Clone, Debug)]
pub struct Belief {
    side: Side,
    /// The animals of `side` whose place is unknown.
    candidates: Vec<Animal>,
    /// Each unknown piece's square and a weight per animal (indexed by `Animal::index`).
    pieces: Vec<(Square, [f64; 8])>,
    /// Each unknown piece's start square, in the order of `pieces`.
    origins: Vec<Square>,
    /// Whether draws are exact draws from the posterior the weights make ([`posterior::draw`]), instead of the
    /// one-world baseline's piece-by-piece draw.
    exact: bool,
}

impl Belief {
    /// What `view` says about `side`'s unknown pieces: the hard facts, and behaviour when `read_behaviour`.
    pub fn of(view: &View, side: Side, read_behaviour: bool) -> Belief {
        let candidates = view.unknown_animals(side);
        let rules = view.rules();
        let mut by_origin: Vec<(Square, [f64; 8])> = view
            .pieces()
            .filter(|(_, seen)| seen.side == side && seen.animal.is_none())
            .map(|(_, seen)| {
                let mut weights = [0.0; 8];
                for &animal in &candidates {
                    weights[animal.index()] = 1.0;
                }
                (seen.origin, weights)
            })
            .collect();
        view.walk(|before, public| {
            let Some(mover) = before.piece_at(public.mv.from) else {
                return;
            };
            if public.side != side || mover.animal.is_some() || public.mover.is_some() {
                return;
            }
            let Some((_, weights)) = by_origin
                .iter_mut()
                .find(|(origin, _)| *origin == mover.origin)
            else {
                return;
            };
            let to = public.mv.to;
            for animal in Animal::ALL {
                if !rules.destinations(side, animal).contains(to) {
                    weights[animal.index()] = 0.0;
                } else if read_behaviour && exposed(before, rules, side, animal, to) {
                    weights[animal.index()] *= EXPOSED_FACTOR;
                }
            }
        });
        let origins = by_origin.iter().map(|&(origin, _)| origin).collect();
        let pieces = by_origin
            .into_iter()
            .map(|(origin, weights)| (current_square(view, origin), weights))
            .collect();
        Belief {
            side,
            candidates,
            pieces,
            origins,
            exact: false,
        }
    }

    /// The AI's belief: the evidence of [`Belief::of`] (behaviour read) times the prior that the other side set
    /// up as `table` draws (with `strength` percent of its scores: 100 is the table as it draws, 0 a uniform
    /// prior; the table applies to the standard rules only), drawn from exactly.
    pub fn posterior(view: &View, side: Side, table: &SetupTable, strength: i32) -> Belief {
        let mut belief = Belief::of(view, side, true);
        belief.exact = true;
        if let Some(prior) = table.place_factors(view.rules(), side, f64::from(strength) / 100.0) {
            for ((_, weights), origin) in belief.pieces.iter_mut().zip(&belief.origins) {
                let Some(factors) = prior.iter().find(|(sq, _)| sq == origin).map(|(_, f)| f)
                else {
                    continue;
                };
                for (weight, factor) in weights.iter_mut().zip(factors) {
                    *weight *= factor;
                }
            }
        }
        belief
    }

    pub fn side(&self) -> Side {
        self.side
    }

    /// Each unknown piece's square with its weight per animal (zero for animals it cannot be).
    pub fn pieces(&self) -> &[(Square, [f64; 8])] {
        &self.pieces
    }

    /// The weights of one piece normalised to probabilities (before the pieces' animals exclude each other).
    pub fn probabilities(&self, square: Square) -> Option<[f64; 8]> {
        let (_, weights) = self.pieces.iter().find(|(sq, _)| *sq == square)?;
        let total: f64 = weights.iter().sum();
        Some(weights.map(|w| if total > 0.0 { w / total } else { 0.0 }))
    }

    /// The probability that each unknown piece (by square, in the order of [`Belief::pieces`]) is each animal,
    /// the pieces' animals excluding each other: the posterior's marginals. `None` when the evidence allows no
    /// assignment at all.
    pub fn marginals(&self) -> Option<Vec<(Square, [f64; 8])>> {
        let weights: Vec<[f64; 8]> = self.pieces.iter().map(|&(_, w)| w).collect();
        let marginals = posterior::marginals(&weights, &self.candidates)?;
        Some(
            self.pieces
                .iter()
                .zip(marginals)
                .map(|(&(sq, _), m)| (sq, m))
                .collect(),
        )
    }

    /// The probability that at least one of the pieces on the squares named is one of the animals named with its
    /// square (the pieces' animals excluding each other); 0 when the evidence allows no assignment.
    pub fn chance_any(&self, which: &[(Square, Vec<Animal>)]) -> f64 {
        let weights: Vec<[f64; 8]> = self.pieces.iter().map(|&(_, w)| w).collect();
        let total = posterior::total(&weights, &self.candidates);
        if total <= 0.0 {
            return 0.0;
        }
        let mut none = weights;
        for ((sq, _), w) in self.pieces.iter().zip(&mut none) {
            for (_, animals) in which.iter().filter(|(s, _)| s == sq) {
                for animal in animals {
                    w[animal.index()] = 0.0;
                }
            }
        }
        1.0 - posterior::total(&none, &self.candidates) / total
    }

    /// The belief given that the piece on `square` is one of `animals`.
    #[must_use]
    pub fn given(&self, square: Square, animals: &[Animal]) -> Belief {
        let mut belief = self.clone();
        for (sq, weights) in &mut belief.pieces {
            if *sq == square {
                for animal in Animal::ALL {
                    if !animals.contains(&animal) {
                        weights[animal.index()] = 0.0;
                    }
                }
            }
        }
        belief
    }

    /// One assignment of distinct candidate animals to the unknown pieces, drawn piece by piece (in random order)
    /// in proportion to the weights; a piece whose remaining weights are all zero (the facts were read
    /// approximately) takes a remaining animal uniformly.
    pub fn sample(&self, rng: &mut impl Rng) -> Vec<(Square, Animal)> {
        self.sample_keeping(rng, |_| None)
    }

    /// Like [`Belief::sample`], but each piece for which `kept` names an animal it may still be (a candidate
    /// no other piece has kept, with a weight above zero) keeps it; only the others are drawn (from an exact
    /// belief: exactly from the posterior given the kept ones).
    pub fn sample_keeping(
        &self,
        rng: &mut impl Rng,
        kept: impl Fn(Square) -> Option<Animal>,
    ) -> Vec<(Square, Animal)> {
        let mut left = self.candidates.clone();
        let mut assignment = Vec::with_capacity(self.pieces.len());
        let mut order: Vec<usize> = Vec::with_capacity(self.pieces.len());
        for (i, (square, weights)) in self.pieces.iter().enumerate() {
            let keeps = kept(*square).and_then(|animal| {
                let at = left.iter().position(|&a| a == animal)?;
                (weights[animal.index()] > 0.0).then_some(at)
            });
            match keeps {
                Some(at) => assignment.push((*square, left.swap_remove(at))),
                None => order.push(i),
            }
        }
        if self.exact {
            let weights: Vec<[f64; 8]> = order.iter().map(|&i| self.pieces[i].1).collect();
            if let Some(drawn) = posterior::draw(&weights, &left, rng) {
                assignment.extend(order.iter().map(|&i| self.pieces[i].0).zip(drawn));
                return assignment;
            }
            // The kept animals leave the others no way the evidence allows: drawn as the baseline draws.
        }
        for i in (1..order.len()).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        for i in order {
            let (square, weights) = &self.pieces[i];
            if left.is_empty() {
                break;
            }
            let total: f64 = left.iter().map(|a| weights[a.index()]).sum();
            let pick = if total > 0.0 {
                let mut target = rng.random_range(0.0..total);
                left.iter()
                    .position(|a| {
                        target -= weights[a.index()];
                        target < 0.0
                    })
                    .unwrap_or(left.len() - 1)
            } else {
                rng.random_range(0..left.len())
            };
            assignment.push((*square, left.swap_remove(pick)));
        }
        assignment
    }
}

/// Whether a piece of `side` that is `animal`, arriving on `to`, stands next to an enemy piece revealed to it
/// (so the mover knew the danger) that may capture it there.
fn exposed(before: &View, rules: &Rules, side: Side, animal: Animal, to: Square) -> bool {
    let mut neighbours = [(0, 1), (0, -1), (1, 0), (-1, 0)]
        .into_iter()
        .filter_map(|(df, dr)| to.offset(df, dr));
    neighbours.any(|sq| {
        before.piece_at(sq).is_some_and(|enemy| {
            enemy.side != side
                && enemy.revealed
                && enemy
                    .animal
                    .is_some_and(|hunter| rules.can_capture(!side, hunter, sq, animal, to))
        })
    })
}

/// Where the piece that started on `origin` stands now.
fn current_square(view: &View, origin: Square) -> Square {
    view.pieces()
        .find(|(_, seen)| seen.origin == origin)
        .map_or(origin, |(sq, _)| sq)
}
