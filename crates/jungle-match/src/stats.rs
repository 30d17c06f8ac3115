//! Match statistics: Elo and its 95 % error from win/loss/draw counts (trinomial) and from game pairs
//! (pentanomial), the likelihood of superiority, and normalised Elo.
//!
//! Conventions follow cutechess-cli and fastchess so that numbers can be compared with theirs:
//! - logistic Elo: `elo(s) = -400 · log10(1/s − 1)` for a score fraction `s`;
//! - the error is half the width of the Elo interval mapped from `s ± 1.959964 · σ/√n`;
//! - LOS = `Φ((W − L) / √(W + L))`, draws ignored;
//! - normalised Elo = `(s − ½) / σ_game · 800/ln 10`, where `σ_game` is the per-game standard deviation
//!   (for pairs: `√(2 · var_pair)`).

/// The two-sided 95 % quantile of the standard normal distribution.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Elo units per standard deviation in the normalised scale (fishtest's "nElo").
pub const NELO_PER_SIGMA: f64 = 800.0 / std::f64::consts::LN_10;

/// The logistic Elo difference that gives an expected score fraction `score` (0 < score < 1).
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score fraction of a player `elo` points stronger (logistic model).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The standard normal cumulative distribution function.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// The error function (Abramowitz–Stegun 7.1.26 is too coarse for LOS near 0/1, so this uses the
/// series for small |x| and the continued fraction for the tails; accurate to ~1e-14).
pub fn erf(x: f64) -> f64 {
    if x < 0.0 {
        return -erf(-x);
    }
    if x < 2.5 {
        // Maclaurin series: erf x = 2/√π Σ (−1)^n x^(2n+1) / (n! (2n+1)).
        let mut term = x;
        let mut sum = x;
        let x2 = x * x;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -x2 / n;
            sum += term / (2.0 * n + 1.0);
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        1.0 - erfc_tail(x)
    }
}

/// erfc(x) for x ≥ 2.5 by Lentz's continued fraction.
fn erfc_tail(x: f64) -> f64 {
    // erfc x = exp(−x²)/√π · 1/(x + 1/2/(x + 1/(x + 3/2/(x + 2/(x + …))))).
    let mut f = x;
    let mut c = x;
    let mut d = 0.0;
    for k in 1..200 {
        let a = k as f64 / 2.0;
        d = x + a * d;
        d = 1.0 / d;
        c = x + a / c;
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    (-x * x).exp() / std::f64::consts::PI.sqrt() / f
}

/// An Elo estimate with the half-width of its 95 % confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub error: f64,
}

impl std::fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:.1} +/- {:.1}", self.elo, self.error)
    }
}

/// The mean and variance of a discrete distribution given as (value, count) pairs; `None` without data.
fn mean_variance(outcomes: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n: f64 = outcomes.iter().map(|&(_, c)| c).sum();
    if n <= 0.0 {
        return None;
    }
    let mean = outcomes.iter().map(|&(v, c)| v * c).sum::<f64>() / n;
    let var = outcomes
        .iter()
        .map(|&(v, c)| c * (v - mean).powi(2))
        .sum::<f64>()
        / n;
    Some((n, mean, var))
}

/// Elo and error from a mean score fraction, the variance of one sample and the number of samples.
fn estimate(n: f64, mean: f64, var: f64) -> EloEstimate {
    let sigma = (var / n).sqrt();
    let clamp = |s: f64| s.clamp(1e-12, 1.0 - 1e-12);
    let low = elo_from_score(clamp(mean - Z_95 * sigma));
    let high = elo_from_score(clamp(mean + Z_95 * sigma));
    EloEstimate {
        elo: elo_from_score(clamp(mean)),
        error: (high - low) / 2.0,
    }
}

/// Win/loss/draw counts of one player (trinomial model: games are independent).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wld {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
}

impl Wld {
    pub const fn new(wins: u64, losses: u64, draws: u64) -> Wld {
        Wld {
            wins,
            losses,
            draws,
        }
    }

    pub const fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Points scored: a win 1, a draw ½.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// The score fraction, ½ without games.
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            0.5
        } else {
            self.points() / self.games() as f64
        }
    }

    /// The same results seen from the opponent.
    pub const fn reversed(&self) -> Wld {
        Wld::new(self.losses, self.wins, self.draws)
    }

    fn distribution(&self) -> [(f64, f64); 3] {
        [
            (1.0, self.wins as f64),
            (0.0, self.losses as f64),
            (0.5, self.draws as f64),
        ]
    }

    /// The logistic Elo difference and its 95 % error; `None` without games.
    pub fn elo(&self) -> Option<EloEstimate> {
        let (n, mean, var) = mean_variance(&self.distribution())?;
        Some(estimate(n, mean, var))
    }

    /// The normalised Elo (score excess over the per-game standard deviation); `None` without games or
    /// without variance.
    pub fn normalized_elo(&self) -> Option<f64> {
        let (_, mean, var) = mean_variance(&self.distribution())?;
        (var > 0.0).then(|| (mean - 0.5) / var.sqrt() * NELO_PER_SIGMA)
    }

    /// The likelihood of superiority: the probability that this player is the stronger, from wins and
    /// losses (draws carry no information about it). ½ when nothing was decided.
    pub fn los(&self) -> f64 {
        let decided = (self.wins + self.losses) as f64;
        if decided == 0.0 {
            return 0.5;
        }
        normal_cdf((self.wins as f64 - self.losses as f64) / decided.sqrt())
    }

    /// The fraction of games drawn.
    pub fn draw_ratio(&self) -> f64 {
        if self.games() == 0 {
            0.0
        } else {
            self.draws as f64 / self.games() as f64
        }
    }
}

/// Game-pair results of one player (pentanomial model): each opening is played twice with colours swapped,
/// and a pair scores 0, ½, 1, 1½ or 2 points. `counts[k]` is the number of pairs that scored k/2 points:
/// `[LL, LD, WL+DD, WD, WW]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub counts: [u64; 5],
}

impl Pentanomial {
    pub const fn new(counts: [u64; 5]) -> Pentanomial {
        Pentanomial { counts }
    }

    /// Adds a pair from the points (0, ½ or 1) this player scored in each of its two games.
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let half_points = ((first + second) * 2.0).round() as usize;
        self.counts[half_points.min(4)] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The same pairs seen from the opponent.
    pub fn reversed(&self) -> Pentanomial {
        let mut counts = self.counts;
        counts.reverse();
        Pentanomial { counts }
    }

    /// (score of a pair as a fraction of its 2 points, count) for each of the five outcomes.
    pub(crate) fn distribution(&self) -> [(f64, f64); 5] {
        std::array::from_fn(|k| (k as f64 / 4.0, self.counts[k] as f64))
    }

    /// (pairs, mean score fraction, variance of one pair's score fraction); `None` without pairs.
    pub fn mean_variance(&self) -> Option<(f64, f64, f64)> {
        mean_variance(&self.distribution())
    }

    /// The logistic Elo difference and its 95 % error from the pairs; `None` without pairs.
    pub fn elo(&self) -> Option<EloEstimate> {
        let (n, mean, var) = self.mean_variance()?;
        Some(estimate(n, mean, var))
    }

    /// The normalised Elo: the per-game standard deviation is √2 times a pair's (a pair averages two games).
    pub fn normalized_elo(&self) -> Option<f64> {
        let (_, mean, var) = self.mean_variance()?;
        (var > 0.0).then(|| (mean - 0.5) / (2.0 * var).sqrt() * NELO_PER_SIGMA)
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
    fn elo_and_score_are_inverse_and_match_known_points() {
        // 75 % is 400·log10(3) Elo; 64 % is the classic "+100 Elo" (≈ 0.6401).
        close(elo_from_score(0.75), 190.848_501_887_864_97, 1e-9);
        close(score_from_elo(100.0), 0.640_064_999_802_885_1, 1e-12);
        close(elo_from_score(0.5), 0.0, 1e-12);
        for elo in [-600.0, -35.5, 0.0, 12.25, 400.0] {
            close(elo_from_score(score_from_elo(elo)), elo, 1e-9);
        }
    }

    #[test]
    fn erf_matches_tabulated_values() {
        // Abramowitz & Stegun table 7.1.
        close(erf(0.5), 0.520_499_877_813_046_5, 1e-14);
        close(erf(1.0), 0.842_700_792_949_714_9, 1e-14);
        close(erf(2.0), 0.995_322_265_018_952_7, 1e-14);
        close(erf(3.0), 0.999_977_909_503_001_4, 1e-14);
        close(erf(-1.0), -0.842_700_792_949_714_9, 1e-14);
        close(normal_cdf(Z_95), 0.975, 1e-12);
    }

    #[test]
    fn trinomial_elo_and_error_by_hand() {
        // W=60 L=40 D=100: s = 0.55; var = 0.3·0.45² + 0.2·0.55² + 0.5·0.05² = 0.1225 = 0.35²;
        // σ/√n = 0.35/√200; interval s ± 1.959964·0.024749 = [0.501493, 0.598507].
        let wld = Wld::new(60, 40, 100);
        let est = wld.elo().unwrap();
        close(est.elo, elo_from_score(0.55), 1e-9);
        close(est.elo, 34.860_070_287_560_08, 1e-9);
        let half = Z_95 * 0.35 / 200f64.sqrt();
        let expected = (elo_from_score(0.55 + half) - elo_from_score(0.55 - half)) / 2.0;
        close(est.error, expected, 1e-9);
        close(est.error, 34.159, 1e-3);
        close(wld.draw_ratio(), 0.5, 1e-12);
        // nElo = 0.05 / 0.35 · 800/ln10 = 49.63.
        close(
            wld.normalized_elo().unwrap(),
            0.05 / 0.35 * NELO_PER_SIGMA,
            1e-9,
        );
        close(wld.normalized_elo().unwrap(), 49.634, 1e-3);
    }

    #[test]
    fn los_by_hand() {
        // Equal wins and losses: no evidence either way.
        close(Wld::new(17, 17, 40).los(), 0.5, 1e-12);
        // W=60 L=40: Φ(20/√100) = Φ(2) = 0.977250.
        close(Wld::new(60, 40, 100).los(), 0.977_249_868_051_820_8, 1e-12);
        close(
            Wld::new(40, 60, 0).los(),
            1.0 - 0.977_249_868_051_820_8,
            1e-12,
        );
        close(Wld::new(0, 0, 9).los(), 0.5, 0.0);
    }

    #[test]
    fn pentanomial_elo_and_error_by_hand() {
        // Pairs [LL, LD, WL+DD, WD, WW] = [5, 20, 50, 20, 5]: symmetric, so s = 0.5 and Elo 0.
        // var = (5·0.25 + 20·0.0625 + 0 + 20·0.0625 + 5·0.25) / 100 = 0.05.
        let penta = Pentanomial::new([5, 20, 50, 20, 5]);
        let (n, mean, var) = penta.mean_variance().unwrap();
        assert_eq!(n, 100.0);
        close(mean, 0.5, 1e-12);
        close(var, 0.05, 1e-12);
        let est = penta.elo().unwrap();
        close(est.elo, 0.0, 1e-9);
        let half = Z_95 * (0.05f64 / 100.0).sqrt();
        close(est.error, elo_from_score(0.5 + half), 1e-9);
        close(est.error, 30.532, 1e-3);

        // [2, 10, 50, 30, 8]: s = (10·0.25 + 50·0.5 + 30·0.75 + 8) / 100 = 0.58.
        let penta = Pentanomial::new([2, 10, 50, 30, 8]);
        let (_, mean, var) = penta.mean_variance().unwrap();
        close(mean, 0.58, 1e-12);
        // var = Σ p (x − 0.58)² = 0.02·0.3364 + 0.1·0.1089 + 0.5·0.0064 + 0.3·0.0289 + 0.08·0.1764 = 0.0436.
        close(var, 0.0436, 1e-12);
        close(penta.elo().unwrap().elo, elo_from_score(0.58), 1e-9);
        close(
            penta.normalized_elo().unwrap(),
            0.08 / (2.0 * 0.0436f64).sqrt() * NELO_PER_SIGMA,
            1e-9,
        );
    }

    #[test]
    fn pairs_are_counted_by_points() {
        let mut penta = Pentanomial::default();
        penta.add_pair(1.0, 1.0);
        penta.add_pair(1.0, 0.0);
        penta.add_pair(0.5, 0.5);
        penta.add_pair(0.5, 0.0);
        penta.add_pair(1.0, 0.5);
        assert_eq!(penta.counts, [0, 1, 2, 1, 1]);
        assert_eq!(penta.reversed().counts, [1, 1, 2, 1, 0]);
        assert_eq!(penta.pairs(), 5);
    }

    #[test]
    fn no_games_give_no_estimate() {
        assert!(Wld::default().elo().is_none());
        assert!(Pentanomial::default().elo().is_none());
        // All draws: no variance, so no normalised Elo, but the logistic estimate is 0 ± 0.
        assert!(Wld::new(0, 0, 10).normalized_elo().is_none());
        let est = Wld::new(0, 0, 10).elo().unwrap();
        close(est.elo, 0.0, 1e-9);
        close(est.error, 0.0, 1e-9);
    }
}
