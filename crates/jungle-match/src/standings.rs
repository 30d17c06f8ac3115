//! Results so far: per engine, per pairing (head to head, and game pairs for the pentanomial model), and how
//! games ended; rendered as the final table.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use jungle_rules::{BySide, Side};

use crate::stats::{Pentanomial, Wld};

/// The running results of a match or tournament.
#[derive(Clone, Debug)]
pub struct Standings {
    pub names: Vec<String>,
    /// Each engine's results against everyone.
    pub totals: Vec<Wld>,
    /// `head_to_head[i][j]`: engine i's results against engine j.
    pub head_to_head: Vec<Vec<Wld>>,
    /// `pairs[i][j]`: engine i's game pairs (same opening, colours swapped) against engine j.
    pub pairs: Vec<Vec<Pentanomial>>,
    /// Games per termination text (`den entered`, `time forfeit`, …).
    pub terminations: BTreeMap<String, u64>,
    /// Games won by Blue, won by Red, drawn.
    pub by_colour: (u64, u64, u64),
}

impl Standings {
    pub fn new(names: Vec<String>) -> Standings {
        let n = names.len();
        Standings {
            names,
            totals: vec![Wld::default(); n],
            head_to_head: vec![vec![Wld::default(); n]; n],
            pairs: vec![vec![Pentanomial::default(); n]; n],
            terminations: BTreeMap::new(),
            by_colour: (0, 0, 0),
        }
    }

    pub fn games(&self) -> u64 {
        self.totals.iter().map(Wld::games).sum::<u64>() / 2
    }

    /// Records a game between engine `players.blue` and engine `players.red`.
    pub fn add_game(&mut self, players: BySide<usize>, winner: Option<Side>, termination: &str) {
        let (b, r) = (players.blue, players.red);
        let (blue_points, red_points) = match winner {
            Some(Side::Blue) => {
                self.by_colour.0 += 1;
                (1, 0)
            }
            Some(Side::Red) => {
                self.by_colour.1 += 1;
                (0, 1)
            }
            None => {
                self.by_colour.2 += 1;
                (0, 0)
            }
        };
        for (me, them, won, lost) in [
            (b, r, blue_points, red_points),
            (r, b, red_points, blue_points),
        ] {
            let draw = u64::from(winner.is_none());
            for wld in [&mut self.totals[me], &mut self.head_to_head[me][them]] {
                wld.wins += won;
                wld.losses += lost;
                wld.draws += draw;
            }
        }
        *self
            .terminations
            .entry(termination.to_string())
            .or_default() += 1;
    }

    /// Records a completed pair: `first` scored `points` (0, ½ or 1 each game) against `second`.
    pub fn add_pair(&mut self, first: usize, second: usize, points: (f64, f64)) {
        self.pairs[first][second].add_pair(points.0, points.1);
        self.pairs[second][first].add_pair(1.0 - points.0, 1.0 - points.1);
    }

    /// The one-line summary of engine `a` against engine `b`, as cutechess prints it.
    pub fn score_line(&self, a: usize, b: usize) -> String {
        let wld = self.head_to_head[a][b];
        format!(
            "Score of {} vs {}: {} - {} - {} [{:.3}] {}",
            self.names[a],
            self.names[b],
            wld.wins,
            wld.losses,
            wld.draws,
            wld.score(),
            wld.games()
        )
    }

    /// Elo, error, LOS and draw ratio of `a` against `b` (pentanomial Elo when pairs were played).
    pub fn elo_line(&self, a: usize, b: usize) -> String {
        let wld = self.head_to_head[a][b];
        let pairs = self.pairs[a][b];
        let mut line = match wld.elo() {
            Some(_) if wld.score() == 1.0 => "Elo difference: +inf".to_string(),
            Some(_) if wld.score() == 0.0 => "Elo difference: -inf".to_string(),
            Some(est) => format!("Elo difference: {est}"),
            None => "Elo difference: -".to_string(),
        };
        if let Some(nelo) = wld.normalized_elo() {
            let _ = write!(line, ", nElo: {nelo:.1}");
        }
        let _ = write!(
            line,
            ", LOS: {:.1} %, DrawRatio: {:.1} %",
            wld.los() * 100.0,
            wld.draw_ratio() * 100.0
        );
        if pairs.pairs() > 0 {
            let c = pairs.counts;
            let _ = write!(
                line,
                "\nGame pairs [LL LD WL+DD WD WW]: [{} {} {} {} {}]",
                c[0], c[1], c[2], c[3], c[4]
            );
            if let Some(est) = pairs.elo() {
                let _ = write!(line, ", pentanomial Elo: {est}");
            }
        }
        line
    }

    /// The final table: rank, name, Elo ± error, games, score, W/L/D, draw ratio; best first.
    pub fn table(&self) -> String {
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by(|&x, &y| {
            self.totals[y]
                .score()
                .partial_cmp(&self.totals[x].score())
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        let width = self.names.iter().map(String::len).max().unwrap_or(4).max(4);
        let mut out = format!(
            "{:>4} {:<width$} {:>8} {:>7} {:>6} {:>8} {:>6} {:>6} {:>6} {:>7}\n",
            "Rank", "Name", "Elo", "+/-", "Games", "Score", "Wins", "Losses", "Draws", "Draw%"
        );
        for (rank, &i) in order.iter().enumerate() {
            let wld = self.totals[i];
            let (elo, err) = match wld.elo() {
                // All won or all lost: the estimate is unbounded.
                Some(_) if wld.score() == 1.0 => ("+inf".to_string(), "-".to_string()),
                Some(_) if wld.score() == 0.0 => ("-inf".to_string(), "-".to_string()),
                Some(e) if e.elo.is_finite() && e.error.is_finite() => {
                    (format!("{:.1}", e.elo), format!("{:.1}", e.error))
                }
                _ => ("-".to_string(), "-".to_string()),
            };
            let _ = writeln!(
                out,
                "{:>4} {:<width$} {:>8} {:>7} {:>6} {:>7.1}% {:>6} {:>6} {:>6} {:>6.1}%",
                rank + 1,
                self.names[i],
                elo,
                err,
                wld.games(),
                wld.score() * 100.0,
                wld.wins,
                wld.losses,
                wld.draws,
                wld.draw_ratio() * 100.0
            );
        }
        let (b, r, d) = self.by_colour;
        let _ = writeln!(out, "Blue wins {b}, Red wins {r}, draws {d}");
        let endings: Vec<String> = self
            .terminations
            .iter()
            .map(|(t, n)| format!("{t}: {n}"))
            .collect();
        let _ = writeln!(out, "Endings: {}", endings.join(", "));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_counted_for_both_players() {
        let mut s = Standings::new(vec!["a".into(), "b".into(), "c".into()]);
        s.add_game(BySide::new(0, 1), Some(Side::Blue), "den entered");
        s.add_game(BySide::new(1, 0), Some(Side::Blue), "den entered");
        s.add_game(BySide::new(2, 0), None, "repetition");
        assert_eq!(s.games(), 3);
        assert_eq!(s.totals[0], Wld::new(1, 1, 1));
        assert_eq!(s.totals[1], Wld::new(1, 1, 0));
        assert_eq!(s.head_to_head[0][1], Wld::new(1, 1, 0));
        assert_eq!(s.head_to_head[2][0], Wld::new(0, 0, 1));
        assert_eq!(s.by_colour, (2, 0, 1));
        assert_eq!(s.terminations["den entered"], 2);
        s.add_pair(0, 1, (1.0, 0.0));
        assert_eq!(s.pairs[0][1].counts, [0, 0, 1, 0, 0]);
        assert!(
            s.score_line(0, 1)
                .starts_with("Score of a vs b: 1 - 1 - 0 [0.500] 2")
        );
        let table = s.table();
        assert!(
            table.contains("Endings: den entered: 2, repetition: 1"),
            "{table}"
        );
    }
}
