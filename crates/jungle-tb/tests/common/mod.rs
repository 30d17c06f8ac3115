//! Helpers shared by the integration tests: generating small materials in memory, and an independent
//! brute-force solver.

#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::Arc;

use jungle_rules::{Position, Rules};
use jungle_tb::{Material, Metric, Probe, Table, generate, plan};

/// The tables of `keys` and every smaller material they need, generated in memory.
pub fn tables_for(keys: &[&str], rules: &Rules) -> HashMap<Material, Arc<Table>> {
    let targets: Vec<Material> = keys.iter().map(|k| k.parse().unwrap()).collect();
    let mut tables = HashMap::new();
    for material in plan(&targets) {
        let table = generate(material, rules, &tables, Metric::End, &|_| {}).unwrap();
        tables.insert(material, Arc::new(table));
    }
    tables
}

/// Plain depth-limited minimax with the rules' own move generation and endings, memoised on
/// (position, depth): the exact value if the game is decided within `depth` plies with perfect play, else
/// `None`. Knows nothing of tables.
pub struct BruteForce<'a> {
    rules: &'a Rules,
    memo: HashMap<(Position, u32), Option<Probe>>,
}

impl<'a> BruteForce<'a> {
    pub fn new(rules: &'a Rules) -> Self {
        BruteForce {
            rules,
            memo: HashMap::new(),
        }
    }

    pub fn solve(&mut self, pos: &Position, depth: u32) -> Option<Probe> {
        if let Some(outcome) = pos.outcome(self.rules) {
            return Some(if outcome.winner == Some(pos.side_to_move()) {
                Probe::win(0)
            } else {
                Probe::loss(0)
            });
        }
        if depth == 0 {
            return None;
        }
        let mut key = *pos;
        // The counters do not change the value: normalise them so the memo shares entries.
        key = normalise(&key, self.rules);
        if let Some(v) = self.memo.get(&(key, depth)) {
            return *v;
        }
        let mut quickest_win: Option<u32> = None;
        let mut slowest_loss = 0;
        let mut all_lose = true;
        for &m in pos.legal_moves(self.rules).as_slice() {
            match self.solve(&pos.after(m), depth - 1) {
                Some(p) if p.wdl == jungle_tb::Wdl::Loss => {
                    let n = p.plies.unwrap() + 1;
                    quickest_win = Some(quickest_win.map_or(n, |w| w.min(n)));
                }
                Some(p) if p.wdl == jungle_tb::Wdl::Win => {
                    slowest_loss = slowest_loss.max(p.plies.unwrap() + 1);
                }
                _ => all_lose = false,
            }
        }
        let value = match quickest_win {
            Some(n) => Some(Probe::win(n)),
            None if all_lose => Some(Probe::loss(slowest_loss)),
            None => None,
        };
        self.memo.insert((key, depth), value);
        value
    }
}

fn normalise(pos: &Position, rules: &Rules) -> Position {
    let mut setup = pos.to_setup();
    setup.quiet_plies = 0;
    setup.move_number = 1;
    Position::from_setup(&setup, rules).unwrap()
}
