//! The evaluation tuner (see `tools/tune/README.md`): logistic-regression ("Texel") tuning of the weights of
//! `eval.rs` on quiet positions from self-play games.
//!
//! - `tune gen GAMES NODES OUT [RULES]`: self-play at NODES nodes per move from random openings; writes
//!   `result fen` lines (result from Blue's view: 1, 0.5, 0) for the quiet positions of each game.
//! - `tune fit DATA [RULES]`: fits the scale K, then descends coordinate by coordinate over every weight, and
//!   prints the weights as Rust to paste into `eval.rs`.
use std::io::{BufRead, Write};

use jungle_rules::{Game, Outcome, Position, Rules, Side};
use jungle_search::{EVAL_WEIGHTS, Engine, EngineOptions, Evaluator, Limits, Weights};

struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Quiet: no capture for the side to move and no piece next to either den.
fn is_quiet(pos: &Position, rules: &Rules) -> bool {
    use jungle_rules::terrain::{DENS, STEPS};
    let moves = pos.legal_moves(rules);
    !moves.is_empty()
        && !moves.iter().any(|&m| pos.is_capture(m))
        && Side::ALL
            .into_iter()
            .all(|s| (pos.side(s) & STEPS[DENS[!s].index()]).is_empty())
}

fn generate(games: usize, nodes: u64, out: &str, rules: &Rules) {
    let mut file = std::io::BufWriter::new(std::fs::File::create(out).expect("output file"));
    // The games are played with the evaluation being tuned, the hand-written one (not the engine's default,
    // the learned net, under the standard rules).
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 8,
        use_nnue: false,
        ..EngineOptions::default()
    });
    let mut rng = Lcg(12345);
    let mut written = 0;
    for g in 0..games {
        let mut game = Game::new(rules.clone());
        for _ in 0..6 + rng.next(6) {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play(moves[rng.next(moves.len())]).unwrap();
        }
        engine.clear();
        let mut positions = Vec::new();
        while !game.is_over() && game.moves().len() < 400 {
            engine.set_game(&game);
            let m = engine
                .go(&Limits::nodes(nodes), &mut |_| {})
                .best_move
                .unwrap();
            game.play(m).unwrap();
            if is_quiet(game.position(), rules) {
                positions.push(*game.position());
            }
        }
        let result = match game.outcome() {
            Some(Outcome {
                winner: Some(Side::Blue),
                ..
            }) => "1",
            Some(Outcome {
                winner: Some(Side::Red),
                ..
            }) => "0",
            _ => "0.5",
        };
        for p in positions {
            writeln!(file, "{result} {p}").unwrap();
            written += 1;
        }
        eprintln!("game {} result {result} positions {written}", g + 1);
    }
}

fn loss(data: &[(f64, Position)], rules: &Rules, w: Weights, k: f64) -> f64 {
    let e = Evaluator::with_weights(rules, w);
    let sum: f64 = data
        .iter()
        .map(|(result, pos)| {
            let v = f64::from(e.evaluate(pos));
            let blue = if pos.side_to_move() == Side::Blue {
                v
            } else {
                -v
            };
            let p = 1.0 / (1.0 + (-k * blue / 400.0).exp());
            (result - p).powi(2)
        })
        .sum();
    sum / data.len() as f64
}

fn fit(path: &str, rules: &Rules, passes: usize) {
    let data: Vec<(f64, Position)> =
        std::io::BufReader::new(std::fs::File::open(path).expect("data file"))
            .lines()
            .map_while(Result::ok)
            .filter_map(|l| {
                let (r, fen) = l.split_once(' ')?;
                Some((r.parse().ok()?, Position::from_fen(fen, rules).ok()?))
            })
            .collect();
    eprintln!("{} positions", data.len());
    let mut k = 1.0;
    let mut best = loss(&data, rules, EVAL_WEIGHTS, k);
    for candidate in (2..=40).map(|i| f64::from(i) / 10.0) {
        let l = loss(&data, rules, EVAL_WEIGHTS, candidate);
        if l < best {
            best = l;
            k = candidate;
        }
    }
    eprintln!("K = {k}, loss {best:.6}");
    let mut params = EVAL_WEIGHTS.to_vec();
    for pass in 0..passes {
        let mut improved = false;
        for i in 0..params.len() {
            let step = (params[i].abs() / 10).max(2);
            for delta in [step, -step] {
                let mut trial = params.clone();
                trial[i] += delta;
                let l = loss(&data, rules, EVAL_WEIGHTS.from_slice(&trial), k);
                if l < best {
                    best = l;
                    params = trial;
                    improved = true;
                    break;
                }
            }
        }
        eprintln!("pass {} loss {best:.6}", pass + 1);
        if !improved {
            break;
        }
    }
    println!("{:#?}", EVAL_WEIGHTS.from_slice(&params));
    let list: Vec<String> = params.iter().map(ToString::to_string).collect();
    std::fs::write(format!("{path}.weights"), list.join(" ") + "\n").expect("weights file");
    eprintln!("weights list written to {path}.weights (selfplay --weights-a)");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("gen") => {
            let rules: Rules = args
                .get(5)
                .map_or("", String::as_str)
                .parse()
                .expect("rules");
            generate(
                args[2].parse().expect("games"),
                args[3].parse().expect("nodes"),
                &args[4],
                &rules,
            );
        }
        Some("fit") => {
            let rules: Rules = args
                .get(3)
                .map_or("", String::as_str)
                .parse()
                .expect("rules");
            let passes = std::env::var("PASSES")
                .ok()
                .and_then(|p| p.parse().ok())
                .unwrap_or(8);
            fit(&args[2], &rules, passes);
        }
        _ => eprintln!("usage: tune gen GAMES NODES OUT [RULES] | tune fit DATA [RULES]"),
    }
}
