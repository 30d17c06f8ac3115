//! Fits the AI's setup table (`jungle_hidden::ai::setup`): which animal on which place of the start squares wins
//! more. Reads the records written by `hidden_match --pgn FILE` with uniformly random AI setups, and fits a
//! logistic model of the AI's score (win 1, draw ½, loss 0): a weight per animal and place of the AI's setup
//! (standard rules only), an intercept and a term for the AI playing Blue, with an L2 penalty chosen by 5-fold
//! cross-validation. Prints the games' score per animal and place, the table in Rust and, for a few
//! temperatures, the entropy of the setups drawn and the score the model expects from them.
//!
//! ```sh
//! cargo run --profile ci -p jungle-hidden --example hidden_match -- --uniform-setup 1 --games 200 --nodes 10000 --seed 500 --pgn s500.pgn
//! cargo run --profile ci -p jungle-hidden --example hidden_setup_fit -- s500.pgn s501.pgn …
//! ```
//! Add `--opponent-setups 1` to fit the opponent's setups as well (its score is the AI's taken from one, with
//! the same weights), and `--pairs 1` to fit a weight for each pair of animals standing in each relation of
//! `setup::RELATION_NAMES` as well (on the same half of the board, on the same place), with its own L2 penalty,
//! chosen by cross-validation together with the places' penalty. `--out FILE` writes the fitted table, at the
//! coldest temperature that keeps 8 bits of entropy (or at `--temperature T`), for `hidden_match --setup-table
//! FILE`.

use jungle_hidden::Arrangement;
use jungle_hidden::ai::setup::{
    PAIRS, PLACE_NAMES, PLACES, RELATION_NAMES, RELATIONS, SetupTable, pair_index, relations,
};
use jungle_hidden::record::Record;
use jungle_rules::{Animal, Rules, Side};

/// Features: a weight per animal and place, a weight per relation and pair of animals, then the intercept and
/// "the AI is Blue" (not penalised).
const PAIR_BASE: usize = 8 * PLACES;
const INTERCEPT: usize = PAIR_BASE + RELATIONS * PAIRS;
const FEATURES: usize = INTERCEPT + 2;
const FOLDS: usize = 5;
/// The pair weights' penalties tried with `--pairs 1` (infinite: no pair weights).
const PAIR_PENALTIES: [f64; 7] = [10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0, f64::INFINITY];
/// Penalties tried; the last (infinite) fits no placement weights at all, the model to beat.
const PENALTIES: [f64; 9] = [
    1.0,
    3.0,
    10.0,
    30.0,
    100.0,
    300.0,
    1000.0,
    3000.0,
    f64::INFINITY,
];
const TEMPERATURES: [f64; 10] = [0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0];

/// One game's features (+1 for the AI's placements, −1 for the opponent's) and the AI's score.
struct Sample {
    x: Vec<(usize, f64)>,
    score: f64,
}

fn main() {
    let mut files = Vec::new();
    let mut opponent_setups = false;
    let mut pairs = false;
    let mut out: Option<String> = None;
    let mut out_temperature: Option<f64> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--out" {
            out = args.next();
        } else if arg == "--temperature" {
            out_temperature = args.next().and_then(|t| t.parse().ok());
        } else if arg == "--opponent-setups" {
            opponent_setups = args.next().is_some_and(|v| v != "0");
        } else if arg == "--pairs" {
            pairs = args.next().is_some_and(|v| v != "0");
        } else {
            files.push(arg);
        }
    }
    if files.is_empty() {
        eprintln!("hidden_setup_fit: give the files written by hidden_match --pgn");
        std::process::exit(2);
    }
    let rules = Rules::default();
    let mut samples = Vec::new();
    // Per animal and place: (games, AI score) for the AI's setups, then the opponent's.
    let mut tally = [[[(0u32, 0.0f64); PLACES]; 8]; 2];
    for path in &files {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("hidden_setup_fit: {path}: {e}");
                std::process::exit(2);
            }
        };
        for chunk in text.split("\n\n[") {
            let chunk = if chunk.starts_with('[') {
                chunk.to_string()
            } else {
                format!("[{chunk}")
            };
            if let Some(sample) = Record::parse(&chunk)
                .ok()
                .and_then(|record| read(&record, &rules, opponent_setups, pairs, &mut tally))
            {
                samples.push(sample);
            }
        }
    }
    let mean = samples.iter().map(|s| s.score).sum::<f64>() / samples.len().max(1) as f64;
    println!("{} games, AI score {:.1} %", samples.len(), 100.0 * mean);
    for (whose, tally) in ["AI's", "opponent's"].iter().zip(&tally) {
        println!("\nthe AI's score by the {whose} setup (games, score %):");
        print!("{:<9}", "");
        for name in PLACE_NAMES {
            print!("{name:>20}");
        }
        println!();
        for animal in Animal::ALL {
            print!("{:<9}", animal.to_string());
            for &(games, score) in &tally[animal.index()] {
                print!(
                    "{:>11} {:>6.1} %",
                    games,
                    100.0 * score / f64::from(games.max(1))
                );
            }
            println!();
        }
    }
    let mut best = (f64::INFINITY, PENALTIES[0], f64::INFINITY);
    println!("\ncross-validated log loss by penalty (places, pairs):");
    let pair_penalties: &[f64] = if pairs {
        &PAIR_PENALTIES
    } else {
        &[f64::INFINITY]
    };
    for penalty in PENALTIES {
        for &pair_penalty in pair_penalties {
            let mut loss = 0.0;
            for fold in 0..FOLDS {
                let train: Vec<&Sample> = samples
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| i % FOLDS != fold)
                    .map(|(_, s)| s)
                    .collect();
                let w = fit(&train, penalty, pair_penalty);
                loss += samples
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| i % FOLDS == fold)
                    .map(|(_, s)| log_loss(&w, s))
                    .sum::<f64>();
            }
            loss /= samples.len().max(1) as f64;
            println!("  {penalty:>6} {pair_penalty:>6}: {loss:.5}");
            if loss < best.0 {
                best = (loss, penalty, pair_penalty);
            }
        }
    }
    let all: Vec<&Sample> = samples.iter().collect();
    let w = fit(&all, best.1, best.2);
    let mut weights = [[0.0; PLACES]; 8];
    for (a, row) in weights.iter_mut().enumerate() {
        for (p, weight) in row.iter_mut().enumerate() {
            *weight = w[a * PLACES + p];
        }
    }
    let mut pair_weights = [[0.0; PAIRS]; RELATIONS];
    for (r, row) in pair_weights.iter_mut().enumerate() {
        for (k, weight) in row.iter_mut().enumerate() {
            *weight = w[PAIR_BASE + r * PAIRS + k];
        }
    }
    println!(
        "\npenalty {} (pairs {}), held-out log loss {:.5}; the table (rows Rat … Elephant, columns as PLACE_NAMES):",
        best.1, best.2, best.0
    );
    println!("const FITTED: [[f64; PLACES]; 8] = [");
    for (animal, row) in Animal::ALL.iter().zip(&weights) {
        let cells: Vec<String> = row.iter().map(|w| format!("{w:.3}")).collect();
        println!("    [{}], // {animal}", cells.join(", "));
    }
    println!("];");
    if pairs {
        println!("const FITTED_PAIRS: [[f64; PAIRS]; RELATIONS] = [");
        for (name, row) in RELATION_NAMES.iter().zip(&pair_weights) {
            println!("    // {name}");
            println!("    [");
            for a in 0..8 {
                for b in a + 1..8 {
                    println!(
                        "        {:.3}, // {} {}",
                        row[pair_index(a, b)],
                        Animal::ALL[a],
                        Animal::ALL[b]
                    );
                }
            }
            println!("    ],");
        }
        println!("];");
    }
    let intercept = w[INTERCEPT] + 0.5 * w[INTERCEPT + 1];
    let uniform = SetupTable {
        weights,
        pairs: pair_weights,
        temperature: f64::INFINITY,
    };
    let expected = |table: &SetupTable| {
        table
            .distribution(&rules, Side::Blue)
            .expect("standard rules")
            .iter()
            .map(|(animals, p)| {
                let arrangement = Arrangement::new(&rules, Side::Blue, animals).expect("setup");
                p * sigmoid(intercept + table.score(&rules, &arrangement).expect("standard"))
            })
            .sum::<f64>()
    };
    let shipped = SetupTable::FITTED;
    println!(
        "\nthe shipped table (temperature {}): entropy {:.2} bits, the model expects {:.1} %; each animal's \
         chance of each place (uniform: 25 %):",
        shipped.temperature,
        shipped
            .entropy_bits(&rules, Side::Blue)
            .expect("standard rules"),
        100.0 * expected(&shipped)
    );
    let setups = shipped
        .distribution(&rules, Side::Blue)
        .expect("standard rules");
    let (likeliest, p) = setups
        .iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .expect("8! setups");
    let letters: String = likeliest.iter().map(|a| a.letter()).collect();
    println!(
        "the likeliest setup (Blue, a1 g1 b2 f2 a3 c3 e3 g3): {letters}, {:.2} %",
        100.0 * p
    );
    for animal in Animal::ALL {
        print!("{:<9}", animal.to_string());
        for place in 0..PLACES {
            let share = shipped
                .share(&rules, Side::Blue, animal, place)
                .expect("standard rules");
            print!("{:>19.1} %", 100.0 * share);
        }
        println!();
    }
    println!(
        "\nuniform setups: the model expects {:.1} %",
        100.0 * expected(&uniform)
    );
    for temperature in TEMPERATURES {
        let table = SetupTable {
            weights,
            pairs: pair_weights,
            temperature,
        };
        println!(
            "temperature {temperature}: entropy {:.2} bits, the model expects {:.1} %",
            table
                .entropy_bits(&rules, Side::Blue)
                .expect("standard rules"),
            100.0 * expected(&table)
        );
    }
    // The coldest temperature (to 0.001) that keeps 8 bits.
    let mut temperature = 0.1;
    while temperature > 0.011 {
        let table = SetupTable {
            weights,
            pairs: pair_weights,
            temperature: temperature - 0.001,
        };
        if table
            .entropy_bits(&rules, Side::Blue)
            .expect("standard rules")
            < 8.0
        {
            break;
        }
        temperature -= 0.001;
    }
    let table = SetupTable {
        weights,
        pairs: pair_weights,
        temperature,
    };
    println!(
        "the coldest temperature keeping 8 bits: {temperature:.3} ({:.2} bits), the model expects {:.1} %",
        table
            .entropy_bits(&rules, Side::Blue)
            .expect("standard rules"),
        100.0 * expected(&table)
    );
    if let Some(path) = out {
        let table = SetupTable {
            temperature: out_temperature.unwrap_or(temperature),
            ..table
        };
        if let Err(e) = std::fs::write(&path, table.to_text()) {
            eprintln!("hidden_setup_fit: {path}: {e}");
            std::process::exit(2);
        }
        println!(
            "wrote {path}: temperature {}, {:.2} bits, the model expects {:.1} %",
            table.temperature,
            table
                .entropy_bits(&rules, Side::Blue)
                .expect("standard rules"),
            100.0 * expected(&table)
        );
    }
}

/// The features and score of one record, if it is a game under the standard rules with the setups known.
fn read(
    record: &Record,
    rules: &Rules,
    opponent_setups: bool,
    pairs: bool,
    tally: &mut [[[(u32, f64); PLACES]; 8]; 2],
) -> Option<Sample> {
    if &record.rules != rules {
        return None;
    }
    let ai: Side = match record.tag("AI")? {
        "blue" | "Blue" => Side::Blue,
        "red" | "Red" => Side::Red,
        _ => return None,
    };
    let setup = |tag: &str, side: Side| {
        record
            .tag(tag)
            .and_then(|text| Arrangement::parse(rules, side, text).ok())
            .or_else(|| record.setups[side].clone())
    };
    let setups = [setup("AISetup", ai)?, setup("OpponentSetup", !ai)?];
    let score = match record.outcome.and_then(|o| o.winner) {
        Some(winner) if winner == ai => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    let mut x = Vec::new();
    for (i, arrangement) in setups.iter().enumerate() {
        let places = SetupTable::places(rules, arrangement.side())?;
        let halves = SetupTable::halves(rules, arrangement.side())?;
        let animals = arrangement.animals();
        let sign = if i == 0 { 1.0 } else { -1.0 };
        for (&place, animal) in places.iter().zip(&animals) {
            let cell = &mut tally[i][animal.index()][place];
            cell.0 += 1;
            cell.1 += score;
            if i == 0 || opponent_setups {
                x.push((animal.index() * PLACES + place, sign));
            }
        }
        if pairs && (i == 0 || opponent_setups) {
            for a in 0..animals.len() {
                for b in a + 1..animals.len() {
                    let pair = pair_index(animals[a].index(), animals[b].index());
                    for (r, holds) in relations(&places, &halves, a, b).into_iter().enumerate() {
                        if holds {
                            x.push((PAIR_BASE + r * PAIRS + pair, sign));
                        }
                    }
                }
            }
        }
    }
    x.push((INTERCEPT, 1.0));
    if ai == Side::Blue {
        x.push((INTERCEPT + 1, 1.0));
    }
    Some(Sample { x, score })
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

fn predict(w: &[f64], sample: &Sample) -> f64 {
    sigmoid(sample.x.iter().map(|&(i, v)| w[i] * v).sum())
}

fn log_loss(w: &[f64], sample: &Sample) -> f64 {
    let p = predict(w, sample).clamp(1e-9, 1.0 - 1e-9);
    -(sample.score * p.ln() + (1.0 - sample.score) * (1.0 - p).ln())
}

/// Weights minimising the summed log loss plus `penalty` × the squared placement weights and `pair_penalty` ×
/// the squared pair weights (an infinite penalty fits no such weights), by Newton's method.
fn fit(samples: &[&Sample], penalty: f64, pair_penalty: f64) -> Vec<f64> {
    let mut w = vec![0.0; FEATURES];
    for _ in 0..30 {
        let mut gradient = vec![0.0; FEATURES];
        let mut hessian = vec![vec![0.0; FEATURES]; FEATURES];
        for i in 0..INTERCEPT {
            let penalty = if i < PAIR_BASE { penalty } else { pair_penalty }.min(1e12);
            gradient[i] = penalty * w[i];
            hessian[i][i] = penalty;
        }
        for sample in samples {
            let p = predict(&w, sample);
            for &(i, u) in &sample.x {
                gradient[i] += (p - sample.score) * u;
                for &(j, v) in &sample.x {
                    hessian[i][j] += p * (1.0 - p) * u * v;
                }
            }
        }
        let step = solve(hessian, gradient);
        for (wi, si) in w.iter_mut().zip(&step) {
            *wi -= si;
        }
        if step.iter().all(|s| s.abs() < 1e-10) {
            break;
        }
    }
    w
}

/// The solution of `a` x = `b` (Gaussian elimination with partial pivoting; `a` is positive definite here).
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .expect("rows left");
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (above, below) = a.split_at_mut(col + 1);
        let pivot_row = &above[col];
        for (row, target) in below.iter_mut().enumerate() {
            let factor = target[col] / pivot_row[col];
            for (cell, &p) in target.iter_mut().zip(pivot_row).skip(col) {
                *cell -= factor * p;
            }
            b[col + 1 + row] -= factor * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let rest: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    x
}
