//! A self-play loop for strength tests, in one process (no engine protocol): two configurations of the engine
//! play pairs of games from random balanced openings, colours swapped within a pair.
//!
//! `cargo run --release -p jungle-search --example selfplay -- --a all --b none --games 100 --movetime 100`
//! (`--depth-a N` / `--depth-b N` give one side a fixed depth instead; `--rules modern` other rules; `--hand` the
//! hand-written evaluation instead of the learned net under the standard rules)
//!
//! A configuration is `all` (the engine's defaults, `Features::ALL`), `none`, or `all-FEATURE,...` / `none+FEATURE,...` with features `nmp` (null move),
//! `rfp` (reverse futility), `lmr`, `lmp`, `fut` (futility), `asp` (aspiration), `qthreat` (den threats in
//! quiescence), `guard` (no pruning on a den attack), `iir`, `approach` (den approach moves never pruned); `--weights-a FILE` / `--weights-b FILE` evaluate with the weights listed in FILE (the
//! `tune fit` output list). Prints the score and the Elo difference of A over B with its 95% error.
use std::time::Duration;

use jungle_rules::{Game, Outcome, Rules, Side};
use jungle_search::{Engine, EngineOptions, Features, Limits};

fn features(spec: &str) -> Features {
    let (mut f, rest) = if let Some(rest) = spec.strip_prefix("all") {
        (Features::ALL, rest)
    } else if let Some(rest) = spec.strip_prefix("none") {
        (Features::NONE, rest)
    } else {
        panic!("configuration {spec}: start with all or none");
    };
    // `-name` switches a feature off, `+name` on; after `all` a bare `,name` is off, after `none` on.
    let mut on = spec.starts_with("none");
    let mut name = String::new();
    for c in rest.chars().chain(std::iter::once(',')) {
        if matches!(c, ',' | '-' | '+') {
            if !name.is_empty() {
                let field = match name.as_str() {
                    "nmp" => &mut f.null_move,
                    "rfp" => &mut f.reverse_futility,
                    "lmr" => &mut f.late_move_reductions,
                    "lmp" => &mut f.late_move_pruning,
                    "fut" => &mut f.futility,
                    "asp" => &mut f.aspiration,
                    "qthreat" => &mut f.quiescence_threats,
                    "guard" => &mut f.guarded_pruning,
                    "iir" => &mut f.iir,
                    "approach" => &mut f.den_approach,
                    other => panic!("unknown feature {other}"),
                };
                *field = on;
                name.clear();
            }
            match c {
                '-' => on = false,
                '+' => on = true,
                _ => {}
            }
        } else {
            name.push(c);
        }
    }
    f
}

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

fn opening(rules: &Rules, rng: &mut Lcg, judge: &mut Engine) -> Game {
    loop {
        let mut game = Game::new(rules.clone());
        let plies = 4 + rng.next(5);
        for _ in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play(moves[rng.next(moves.len())]).unwrap();
        }
        if game.is_over() {
            continue;
        }
        judge.set_game(&game);
        let r = judge.go(&Limits::depth(6), &mut |_| {});
        if matches!(r.score, jungle_search::Score::Cp(cp) if cp.abs() < 150) {
            return game;
        }
    }
}

/// Plays one game; returns the result for Blue (1, 0.5, 0).
fn play(start: &Game, (blue, blue_limits): Player<'_>, (red, red_limits): Player<'_>) -> f64 {
    let mut game = start.clone();
    blue.clear();
    red.clear();
    for _ in 0..400 {
        if let Some(Outcome { winner, .. }) = game.outcome() {
            return match winner {
                Some(Side::Blue) => 1.0,
                Some(Side::Red) => 0.0,
                None => 0.5,
            };
        }
        let (engine, limits) = if game.side_to_move() == Side::Blue {
            (&mut *blue, blue_limits)
        } else {
            (&mut *red, red_limits)
        };
        engine.set_game(&game);
        let m = engine
            .go(limits, &mut |_| {})
            .best_move
            .expect("a move while the game is on");
        game.play(m).expect("the engine's move is legal");
    }
    0.5
}

/// An engine and the limits of its searches.
type Player<'a> = (&'a mut Engine, &'a Limits);

fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / s - 1.0).log10()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let get = |name: &str, default: &str| -> String {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
            .unwrap_or_else(|| default.to_string())
    };
    let a = features(&get("--a", "all"));
    let b = features(&get("--b", "none"));
    let pairs: usize = get("--games", "20").parse::<usize>().unwrap().div_ceil(2);
    let movetime: u64 = get("--movetime", "100").parse().unwrap();
    let nodes: u64 = get("--nodes", "0").parse().unwrap();
    let rules: Rules = get("--rules", "").parse().unwrap();
    let seed: u64 = get("--seed", "1").parse().unwrap();
    let limits = if nodes > 0 {
        Limits::nodes(nodes)
    } else {
        Limits::movetime(Duration::from_millis(movetime))
    };
    // `--depth-a N` / `--depth-b N`: a fixed depth for one side instead of the time or node limit.
    let limits_of = |name: &str| match get(name, "").parse::<u32>() {
        Ok(depth) => Limits::depth(depth),
        Err(_) => limits.clone(),
    };
    let (limits_a, limits_b) = (limits_of("--depth-a"), limits_of("--depth-b"));
    // `--hand`: the hand-written evaluation under every rule set instead of the engine's default (the learned
    // net under the standard rules). The measurements in docs/engine.md were made with it, and the weights of
    // `--weights-a`/`--weights-b` are the hand-written evaluation's (the net does not read them).
    let hand = args.iter().any(|a| a == "--hand");
    let weighted = !get("--weights-a", "").is_empty() || !get("--weights-b", "").is_empty();
    assert!(
        hand || !weighted || rules != Rules::default(),
        "--weights-a/--weights-b change the hand-written evaluation: add --hand"
    );
    let options = EngineOptions {
        hash_mb: 16,
        move_overhead_ms: 0,
        use_nnue: !hand,
        ..EngineOptions::default()
    };
    let weights = |name: &str| {
        let path = get(name, "");
        (!path.is_empty()).then(|| {
            let list: Vec<i32> = std::fs::read_to_string(&path)
                .expect("weights file")
                .split_whitespace()
                .map(|x| x.parse().expect("a weight"))
                .collect();
            jungle_search::EVAL_WEIGHTS.from_slice(&list)
        })
    };
    let mut engine_a = Engine::new(options.clone());
    engine_a.set_features(a);
    if let Some(w) = weights("--weights-a") {
        engine_a.set_weights(w);
    }
    let mut engine_b = Engine::new(options.clone());
    engine_b.set_features(b);
    if let Some(w) = weights("--weights-b") {
        engine_b.set_weights(w);
    }
    let mut judge = Engine::new(options);
    let mut rng = Lcg(seed);
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let mut results = Vec::new();
    for pair in 0..pairs {
        let start = opening(&rules, &mut rng, &mut judge);
        let first = play(
            &start,
            (&mut engine_a, &limits_a),
            (&mut engine_b, &limits_b),
        );
        let second = 1.0
            - play(
                &start,
                (&mut engine_b, &limits_b),
                (&mut engine_a, &limits_a),
            );
        for r in [first, second] {
            results.push(r);
            match r {
                x if x > 0.75 => wins += 1,
                x if x < 0.25 => losses += 1,
                _ => draws += 1,
            }
        }
        let n = results.len() as f64;
        let mean = results.iter().sum::<f64>() / n;
        let var = results.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / n;
        let se = (var / n).sqrt();
        let (lo, hi) = (elo(mean - 1.96 * se), elo(mean + 1.96 * se));
        eprintln!(
            "pair {:>3}: games {} +{wins} ={draws} -{losses} score {:.3} elo {:+.0} [{:+.0}, {:+.0}]",
            pair + 1,
            results.len(),
            mean,
            elo(mean),
            lo,
            hi
        );
    }
    let n = results.len() as f64;
    let mean = results.iter().sum::<f64>() / n;
    let var = results.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / n;
    let se = (var / n).sqrt();
    println!(
        "games {} +{wins} ={draws} -{losses} score {:.1}/{} ({:.1}%) elo {:+.0} ± {:.0}",
        results.len(),
        mean * n,
        results.len(),
        mean * 100.0,
        elo(mean),
        (elo(mean + 1.96 * se) - elo(mean - 1.96 * se)) / 2.0
    );
}
