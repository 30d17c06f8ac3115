//! The sequential probability ratio test on game pairs, as fishtest and fastchess run it.
//!
//! H0: the Elo difference is `elo0`; H1: it is `elo1`. After every completed game pair the generalised
//! log-likelihood ratio of the pentanomial results is compared with the bounds `ln(β/(1−α))` and
//! `ln((1−β)/α)`; the test stops when one is crossed.
//!
//! The LLR is the approximation of M. Van den Bergh ("GSPRT approximation") that fastchess uses:
//! with `N` pairs whose score fractions have empirical distribution `p`, and `σᵢ² = Σ p(x)(x − sᵢ)²` the
//! second moment about the score `sᵢ` each hypothesis expects, `LLR = N/2 · ln(σ₀²/σ₁²)`.
//! The bounds' Elo may be **normalised** (the default, as fishtest and fastchess: `sᵢ = ½ + eloᵢ · σ_game ·
//! ln10/800` with the per-game deviation `σ_game = √(2·var_pair)`) or **logistic** (`sᵢ = 1/(1+10^(−eloᵢ/400))`,
//! as cutechess).

use std::fmt;
use std::str::FromStr;

use crate::stats::{NELO_PER_SIGMA, Pentanomial, Wld, score_from_elo};

/// What scale `elo0` and `elo1` are on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EloModel {
    /// Normalised Elo (fishtest's nElo): independent of the draw rate.
    #[default]
    Normalized,
    /// Logistic Elo: the usual rating difference.
    Logistic,
}

impl FromStr for EloModel {
    type Err = SprtError;
    fn from_str(s: &str) -> Result<Self, SprtError> {
        match s {
            "normalized" | "normalised" => Ok(EloModel::Normalized),
            "logistic" => Ok(EloModel::Logistic),
            _ => Err(SprtError::Model(s.to_string())),
        }
    }
}

impl fmt::Display for EloModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EloModel::Normalized => "normalized",
            EloModel::Logistic => "logistic",
        })
    }
}

/// An SPRT setting that makes no sense.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SprtError {
    #[error("sprt: {name}={value} must be strictly between 0 and 1")]
    Probability { name: &'static str, value: f64 },
    #[error("sprt: elo0={elo0} must be below elo1={elo1}")]
    Order { elo0: f64, elo1: f64 },
    #[error("sprt: unknown model \"{0}\" (valid: normalized, logistic)")]
    Model(String),
}

/// The decision so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtStatus {
    Continue,
    /// The lower bound was crossed: the change is not worth `elo1` (H0 accepted).
    AcceptH0,
    /// The upper bound was crossed: the change gains (H1 accepted).
    AcceptH1,
}

impl fmt::Display for SprtStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtStatus::Continue => "continue",
            SprtStatus::AcceptH0 => "H0 accepted",
            SprtStatus::AcceptH1 => "H1 accepted",
        })
    }
}

/// An SPRT: hypotheses, error probabilities and the Elo scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: EloModel,
}

impl Sprt {
    /// # Errors
    /// When α or β is not in (0, 1) or `elo0 >= elo1`.
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: EloModel,
    ) -> Result<Sprt, SprtError> {
        for (name, value) in [("alpha", alpha), ("beta", beta)] {
            if !(value > 0.0 && value < 1.0) {
                return Err(SprtError::Probability { name, value });
            }
        }
        // Also refuses NaN.
        if elo0.partial_cmp(&elo1) != Some(std::cmp::Ordering::Less) {
            return Err(SprtError::Order { elo0, elo1 });
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// The lower bound `ln(β/(1−α))`: at or below it, H0 is accepted.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The upper bound `ln((1−β)/α)`: at or above it, H1 is accepted.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of game-pair results (0 without pairs).
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        let Some((n, _mean, var)) = pairs.mean_variance() else {
            return 0.0;
        };
        // A pair's score fraction averages two games, so the per-game deviation is √2 times the pair's.
        let sigma_game = (2.0 * var).sqrt();
        self.llr_of(&pairs.distribution(), n, sigma_game)
    }

    /// The log-likelihood ratio of independent games (trinomial model; 0 without games). Offered for
    /// comparison: the match runner decides on pairs.
    pub fn llr_trinomial(&self, games: &Wld) -> f64 {
        let dist = [
            (1.0, games.wins as f64),
            (0.0, games.losses as f64),
            (0.5, games.draws as f64),
        ];
        let n = games.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let mean = games.score();
        let var = dist
            .iter()
            .map(|&(v, c)| c * (v - mean).powi(2))
            .sum::<f64>()
            / n;
        self.llr_of(&dist, n, var.sqrt())
    }

    fn llr_of(&self, dist: &[(f64, f64)], n: f64, sigma_game: f64) -> f64 {
        let expected = |elo: f64| match self.model {
            EloModel::Logistic => score_from_elo(elo),
            EloModel::Normalized => 0.5 + elo / NELO_PER_SIGMA * sigma_game,
        };
        let second_moment =
            |s: f64| dist.iter().map(|&(v, c)| c * (v - s).powi(2)).sum::<f64>() / n;
        let (m0, m1) = (
            second_moment(expected(self.elo0)),
            second_moment(expected(self.elo1)),
        );
        if m0 <= 0.0 || m1 <= 0.0 {
            // Every sample equals a hypothesis' score exactly: no evidence can be weighed.
            return 0.0;
        }
        n / 2.0 * (m0 / m1).ln()
    }

    /// Where an LLR stands against the bounds.
    pub fn status(&self, llr: f64) -> SprtStatus {
        if llr >= self.upper_bound() {
            SprtStatus::AcceptH1
        } else if llr <= self.lower_bound() {
            SprtStatus::AcceptH0
        } else {
            SprtStatus::Continue
        }
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={} elo1={} alpha={} beta={} ({} Elo)",
            self.elo0, self.elo1, self.alpha, self.beta, self.model
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) {
        assert!(
            (a - b).abs() <= tolerance,
            "{a} differs from {b} by more than {tolerance}"
        );
    }

    #[test]
    fn bounds_from_alpha_and_beta() {
        // The familiar ±2.94 of fishtest's [0, 2] tests at α = β = 0.05: ln(19) = 2.944439.
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, EloModel::Normalized).unwrap();
        close(sprt.lower_bound(), -19f64.ln(), 1e-12);
        close(sprt.upper_bound(), 2.944_438_979_166_440_4, 1e-12);
        let uneven = Sprt::new(0.0, 5.0, 0.05, 0.10, EloModel::Logistic).unwrap();
        close(uneven.lower_bound(), (0.10f64 / 0.95).ln(), 1e-12);
        close(uneven.upper_bound(), 18f64.ln(), 1e-12);
        assert_eq!(sprt.status(2.95), SprtStatus::AcceptH1);
        assert_eq!(sprt.status(-2.95), SprtStatus::AcceptH0);
        assert_eq!(sprt.status(0.3), SprtStatus::Continue);
    }

    #[test]
    fn trinomial_llr_matches_a_published_gsprt_figure() {
        // W=4307 L=4063 D=8620 with logistic bounds [0, 3] gives a GSPRT LLR of 2.99 (published example of an
        // SPRT calculator); the exact figure of this formula is 2.991487.
        let sprt = Sprt::new(0.0, 3.0, 0.05, 0.05, EloModel::Logistic).unwrap();
        let llr = sprt.llr_trinomial(&Wld::new(4307, 4063, 8620));
        close(llr, 2.991_486_779_938, 1e-9);
        assert_eq!(sprt.status(llr), SprtStatus::AcceptH1);
    }

    #[test]
    fn pentanomial_llr_by_hand() {
        // [2, 10, 50, 30, 8]: N = 100 pairs, mean 0.58, var 0.0436 (see stats). The second moment about s is
        // var + (0.58 − s)².
        let pairs = Pentanomial::new([2, 10, 50, 30, 8]);
        let logistic = Sprt::new(0.0, 5.0, 0.05, 0.05, EloModel::Logistic).unwrap();
        let s1 = score_from_elo(5.0);
        let expected = 50.0 * ((0.0436 + 0.08f64.powi(2)) / (0.0436 + (0.58 - s1).powi(2))).ln();
        close(logistic.llr(&pairs), expected, 1e-9);
        close(logistic.llr(&pairs), 1.111_711_813_225_5, 1e-9);

        let normalized = Sprt::new(0.0, 5.0, 0.05, 0.05, EloModel::Normalized).unwrap();
        let s1 = 0.5 + 5.0 / NELO_PER_SIGMA * (2.0 * 0.0436f64).sqrt();
        let expected = 50.0 * ((0.0436 + 0.08f64.powi(2)) / (0.0436 + (0.58 - s1).powi(2))).ln();
        close(normalized.llr(&pairs), expected, 1e-9);
        close(normalized.llr(&pairs), 0.666_305_615_392, 1e-9);
    }

    #[test]
    fn symmetric_results_weigh_nothing_between_symmetric_hypotheses() {
        // Mean exactly ½ is as far from −5 as from +5, in either model.
        let pairs = Pentanomial::new([10, 5, 2, 5, 10]);
        for model in [EloModel::Normalized, EloModel::Logistic] {
            let sprt = Sprt::new(-5.0, 5.0, 0.05, 0.05, model).unwrap();
            close(sprt.llr(&pairs), 0.0, 1e-12);
        }
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, EloModel::Normalized).unwrap();
        assert_eq!(sprt.llr(&Pentanomial::default()), 0.0);
    }

    #[test]
    fn llr_grows_with_evidence_and_points_the_right_way() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05, EloModel::Normalized).unwrap();
        let winning = Pentanomial::new([5, 20, 50, 30, 10]);
        let losing = winning.reversed();
        assert!(sprt.llr(&winning) > 0.0);
        assert!(sprt.llr(&losing) < 0.0);
        let more = Pentanomial::new(winning.counts.map(|c| c * 4));
        close(sprt.llr(&more), 4.0 * sprt.llr(&winning), 1e-9);
    }

    #[test]
    fn nonsense_settings_are_refused() {
        assert!(matches!(
            Sprt::new(5.0, 0.0, 0.05, 0.05, EloModel::Logistic),
            Err(SprtError::Order { .. })
        ));
        assert!(matches!(
            Sprt::new(0.0, 5.0, 0.0, 0.05, EloModel::Logistic),
            Err(SprtError::Probability { name: "alpha", .. })
        ));
        assert!(matches!(
            Sprt::new(0.0, 5.0, 0.05, 1.0, EloModel::Logistic),
            Err(SprtError::Probability { name: "beta", .. })
        ));
        assert!(matches!(
            "bayes".parse::<EloModel>(),
            Err(SprtError::Model(_))
        ));
    }
}
