#![doc = include_str!("../README.md")]

use std::f64::consts::PI;

/// Glicko-2's internal scale: ratings and deviations are divided by this (and ratings centred on 1500).
const SCALE: f64 = 173.7178;
const CENTRE: f64 = 1500.0;

/// The volatility search stops when its bracket is narrower than this (the paper's ε).
const CONVERGENCE: f64 = 1e-6;
/// The volatility search converges in a handful of steps; this only bounds the work on absurd inputs.
const MAX_ITERATIONS: usize = 100;

/// A player's Glicko-2 rating: the rating, its deviation (one standard deviation of the uncertainty, in rating
/// points) and the volatility (how much the player's strength is expected to fluctuate).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    rating: f64,
    deviation: f64,
    volatility: f64,
}

/// Why numbers are not a rating.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error(
    "invalid rating {rating}/{deviation}/{volatility}: the rating must be finite, the deviation and volatility finite and positive"
)]
pub struct InvalidRating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Rating {
    /// A rating from its three numbers.
    ///
    /// # Errors
    /// When the rating is not finite, or the deviation or volatility is not finite and positive.
    pub const fn new(
        rating: f64,
        deviation: f64,
        volatility: f64,
    ) -> Result<Rating, InvalidRating> {
        let valid = rating.is_finite()
            && deviation.is_finite()
            && deviation > 0.0
            && volatility.is_finite()
            && volatility > 0.0;
        if valid {
            Ok(Rating {
                rating,
                deviation,
                volatility,
            })
        } else {
            Err(InvalidRating {
                rating,
                deviation,
                volatility,
            })
        }
    }

    pub const fn rating(&self) -> f64 {
        self.rating
    }

    pub const fn deviation(&self) -> f64 {
        self.deviation
    }

    pub const fn volatility(&self) -> f64 {
        self.volatility
    }

    /// Whether the rating is still too uncertain to be taken at face value (shown with a "?"): a deviation
    /// above 110, lichess's threshold.
    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The score this player is expected to make against `opponent` (0 to 1), as the update uses it.
    pub fn expected_score(&self, opponent: &Rating) -> f64 {
        let (mu, _) = self.to_internal();
        let (mu_j, phi_j) = opponent.to_internal();
        expectation(mu, mu_j, g(phi_j))
    }

    /// (μ, φ): the rating and deviation on Glicko-2's internal scale (step 2).
    fn to_internal(self) -> (f64, f64) {
        ((self.rating - CENTRE) / SCALE, self.deviation / SCALE)
    }
}

/// A deviation above this marks a rating as provisional.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// How one game ended for the player being rated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl Outcome {
    /// The score Glicko-2 counts: 1, ½ or 0.
    pub fn score(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    }

    /// The same game seen from the other side.
    pub fn reversed(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }
}

/// One game of a rating period: the opponent's rating before the period, and how it ended for the player.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Game {
    pub opponent: Rating,
    pub outcome: Outcome,
}

/// The system's constants and bounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// τ: how much the volatility may change in a period (Glickman suggests 0.3 to 1.2; smaller is steadier).
    pub tau: f64,
    /// Deviations never fall below this, so that a rating can always still move.
    pub min_deviation: f64,
    /// Deviations never grow beyond this: the deviation of a newcomer, about whom nothing is known.
    pub max_deviation: f64,
    /// Volatilities never grow beyond this, so that a run of surprising results cannot make a rating erratic
    /// for ever.
    pub max_volatility: f64,
    /// A newcomer's rating.
    pub initial: Rating,
}

impl Settings {
    /// The settings for games between players: lichess's (τ 0.75, deviation 45 to 350 here, volatility at most
    /// 0.1, newcomers 1500 ± 350 with volatility 0.06). Each rated game is a rating period of its own, so a
    /// rating moves after every game.
    pub const GAMES: Settings = Settings {
        tau: 0.75,
        min_deviation: 45.0,
        max_deviation: 350.0,
        max_volatility: 0.1,
        initial: Rating {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
        },
    };

    /// The rating after one rating period in which the player played `games` (each against the opponent's
    /// rating from before the period). With no games, the same as [`Settings::idle`] for one period.
    pub fn update(&self, player: Rating, games: &[Game]) -> Rating {
        if games.is_empty() {
            return self.idle(player, 1.0);
        }
        // Step 2. Convert to the Glicko-2 scale.
        let (mu, phi) = player.to_internal();
        let sigma = player.volatility;

        // Steps 3 and 4. The estimated variance v of the rating from the games alone, and the estimated
        // improvement Δ = v · Σ g(φj)(sj − Ej).
        let mut inverse_variance = 0.0;
        let mut surprise = 0.0;
        for game in games {
            let (mu_j, phi_j) = game.opponent.to_internal();
            let g_j = g(phi_j);
            let expected = expectation(mu, mu_j, g_j);
            inverse_variance += g_j * g_j * expected * (1.0 - expected);
            surprise += g_j * (game.outcome.score() - expected);
        }
        let v = 1.0 / inverse_variance;
        let delta = v * surprise;

        // Step 5. The new volatility.
        let sigma = self.new_volatility(phi, v, delta, sigma);

        // Step 6. The pre-period deviation, grown by the new volatility.
        let phi_star = (phi * phi + sigma * sigma).sqrt();

        // Step 7. The new deviation and rating.
        let phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu = mu + phi * phi * surprise;

        // Step 8. Back to the rating scale, within the bounds.
        self.bounded(mu * SCALE + CENTRE, phi * SCALE, sigma, player)
    }

    /// The rating after `periods` rating periods without games: the deviation grows as
    /// φ' = √(φ² + periods · σ²) (the paper's rule for one period, continued linearly in the variance, so a
    /// fraction of a period grows it by a fraction), up to the maximum.
    pub fn idle(&self, player: Rating, periods: f64) -> Rating {
        let periods = if periods.is_finite() {
            periods.max(0.0)
        } else {
            0.0
        };
        let (mu, phi) = player.to_internal();
        let sigma = player.volatility;
        let phi = (phi * phi + periods * sigma * sigma).sqrt();
        self.bounded(mu * SCALE + CENTRE, phi * SCALE, sigma, player)
    }

    /// Step 5 of the paper: the volatility σ' solving f(x) = 0 for x = ln σ'², by the Illinois algorithm.
    fn new_volatility(&self, phi: f64, v: f64, delta: f64, sigma: f64) -> f64 {
        let tau = self.tau;
        let a = (sigma * sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            let denominator = phi * phi + v + ex;
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * denominator * denominator)
                - (x - a) / (tau * tau)
        };

        // The initial bracket [A, B] around the root (the paper's names: x_a, x_b).
        let mut x_a = a;
        let mut x_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * tau) < 0.0 && k < MAX_ITERATIONS as f64 {
                k += 1.0;
            }
            a - k * tau
        };

        let mut f_a = f(x_a);
        let mut f_b = f(x_b);
        for _ in 0..MAX_ITERATIONS {
            if (x_b - x_a).abs() <= CONVERGENCE {
                break;
            }
            let c = x_a + (x_a - x_b) * f_a / (f_b - f_a);
            let f_c = f(c);
            if f_c * f_b <= 0.0 {
                x_a = x_b;
                f_a = f_b;
            } else {
                f_a /= 2.0;
            }
            x_b = c;
            f_b = f_c;
        }
        (x_a / 2.0).exp()
    }

    /// The computed rating clamped to the bounds, or `fallback` if the arithmetic failed (which valid inputs
    /// never make it do).
    fn bounded(&self, rating: f64, deviation: f64, volatility: f64, fallback: Rating) -> Rating {
        let deviation = deviation.clamp(self.min_deviation, self.max_deviation);
        let volatility = volatility.min(self.max_volatility);
        Rating::new(rating, deviation, volatility).unwrap_or(fallback)
    }
}

/// g(φ): how much a game against an opponent of deviation φ counts (less the less sure their rating is).
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

/// E(μ, μj, φj): the expected score against an opponent, on the internal scale.
fn expectation(mu: f64, mu_j: f64, g_j: f64) -> f64 {
    1.0 / (1.0 + (-g_j * (mu - mu_j)).exp())
}

#[cfg(test)]
mod tests;
