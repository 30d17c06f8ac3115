//! Measures the Hidden Jungle AI: games against random moves, the one-world baseline, or itself given the truth.
//!
//! ```sh
//! cargo run --release -p jungle-hidden --example hidden_match -- --opponent one-world --games 200 --ms 50
//! ```
//! Options: `--opponent random|one-world|truth|current` (default one-world; `current` is another program
//! speaking `jungle uci --hidden`, the `jungle` binary given by `--engine PATH`: docs/hidden.md says how to build
//! the AI of the issue's commit as one), `--games N` (200), `--ms T` and/or
//! `--nodes N` per move for both sides (50 ms when neither is given; nodes make the work the same whatever else
//! the machine runs), `--level L` of the AI (8), `--rules OPTS` (standard), `--seed S` (1), `--worlds W` and
//! `--vote 0|1` (worlds per move and whether they vote; the level's by default), `--contempt CP` (what a draw
//! found in the search costs the AI), `--history 0|1` (the worlds' searches see the quiet moves since the last
//! attack), `--keep-world 0|1` (the first world keeps last move's animals where the game allows),
//! `--nnue 1` (both sides' engines evaluate with the learned net), `--den-distance PCT` (the engine's bonus for
//! nearness to the enemy den, percent of the open game's), `--weights NAME=PCT,…` (the AI's evaluation weights
//! of `jungle_search::Weights` so named scaled, after the level's own scaling: `mobility=50,tempo=0`) and
//! `--start-setup 0|1` (the AI sets up as the ordinary start position, else as `HiddenAi::choose_setup` does),
//! `--prior PCT` (how much the AI's belief trusts the setup table as the opponent's prior, percent of its scores:
//! 0 a uniform prior), `--screen PCT` (the top levels search a second world when their move risks a Tiger, Lion
//! or Elephant with at least PCT % chance of losing it to an unknown piece; 0: never),
//! `--uniform-setup 0|1` (the AI's setup uniformly at random, as before the setup table: the games the table
//! is fitted to), `--setup-temperature T` (the AI's setup drawn from the fitted table at temperature T instead of
//! the shipped one: lower favours the table's best setups more and is less random), `--setup-table FILE` (the AI's
//! setup drawn from the table in FILE, as `hidden_setup_fit --out FILE` writes it: its weights per animal and
//! place, then per pair of animals and relation, then its temperature, numbers separated by white space; a
//! `--setup-temperature` given after it overrides the file's);
//! `--pgn FILE` writes every game's record there (both setups, a tag `AI` with the AI's side, and tags `AISetup`
//! and `OpponentSetup` with the setups also for games cut at 300 plies, whose records otherwise hold none). Colours
//! alternate; the opponent's setup is random (`current` chooses its own); a game still going after 300 plies
//! counts as a draw. The summary counts the draws by how they ended and each side's pieces taken by an attacker
//! that side did not know.

mod engine;

use std::time::Duration;

use jungle_hidden::ai::setup::SetupTable;
use jungle_hidden::ai::{Budget, HiddenAi, LevelPlan, OneWorld};
use jungle_hidden::record::Record;
use jungle_hidden::{Arrangement, Effect, HiddenGame};
use jungle_rules::{Move, Rules, Side};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::engine::ExternalEngine;

const MAX_PLIES: usize = 300;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Opponent {
    Random,
    OneWorld,
    Truth,
    /// Another program speaking `jungle uci --hidden` (the `--engine`).
    Current,
}

struct Options {
    opponent: Opponent,
    /// The `jungle` binary of `--opponent current`.
    engine: Option<String>,
    games: usize,
    budget: Budget,
    level: u8,
    rules: Rules,
    seed: u64,
    /// Worlds per move instead of the level's.
    worlds: Option<usize>,
    /// The worlds vote (each searched whole) instead of scoring every move in every world.
    vote: Option<bool>,
    contempt: Option<i32>,
    history: Option<bool>,
    keep_world: Option<bool>,
    /// Both sides' engines evaluate with the learned net.
    nnue: bool,
    /// The AI's evaluation weights scaled: (name, percent).
    weights: Vec<(String, i32)>,
    den_distance_percent: Option<i32>,
    start_setup: Option<bool>,
    /// How much the AI's belief trusts the setup table as the opponent's prior, percent.
    prior_percent: Option<i32>,
    screen_percent: Option<i32>,
    /// The AI's setup drawn uniformly at random instead of by its own choice.
    uniform_setup: bool,
    /// The table the AI's setup is drawn from: the fitted one, perhaps at another temperature.
    setup_table: SetupTable,
    /// Where to write every game's record.
    pgn: Option<String>,
}

fn parse_args() -> Result<Options, String> {
    let mut options = Options {
        opponent: Opponent::OneWorld,
        engine: None,
        games: 200,
        budget: Budget::default(),
        level: 8,
        rules: Rules::default(),
        seed: 1,
        worlds: None,
        vote: None,
        contempt: None,
        history: None,
        keep_world: None,
        nnue: false,
        weights: Vec::new(),
        den_distance_percent: None,
        start_setup: None,
        prior_percent: None,
        screen_percent: None,
        uniform_setup: false,
        setup_table: SetupTable::FITTED,
        pgn: None,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let [name, value] = pair else {
            return Err(format!("{} needs a value", pair[0]));
        };
        let number = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("{name}: \"{value}\" is not a number"))
        };
        match name.as_str() {
            "--opponent" => {
                options.opponent = match value.as_str() {
                    "random" => Opponent::Random,
                    "one-world" => Opponent::OneWorld,
                    "truth" => Opponent::Truth,
                    "current" => Opponent::Current,
                    _ => {
                        return Err(format!(
                            "--opponent: \"{value}\" is not random, one-world, truth or current"
                        ));
                    }
                }
            }
            "--engine" => options.engine = Some(value.clone()),
            "--games" => options.games = number()? as usize,
            "--ms" => options.budget.time = Some(Duration::from_millis(number()?)),
            "--nodes" => options.budget.nodes = Some(number()?.max(1)),
            "--level" => options.level = number()?.clamp(1, 8) as u8,
            "--seed" => options.seed = number()?,
            "--worlds" => options.worlds = Some(number()?.max(1) as usize),
            "--vote" => options.vote = Some(number()? != 0),
            "--history" => options.history = Some(number()? != 0),
            "--keep-world" => options.keep_world = Some(number()? != 0),
            "--nnue" => options.nnue = number()? != 0,
            "--weights" => {
                for item in value.split(',') {
                    let (name, pct) = item
                        .split_once('=')
                        .and_then(|(n, p)| Some((n.to_string(), p.parse::<i32>().ok()?)))
                        .ok_or_else(|| format!("--weights: \"{item}\" is not NAME=PERCENT"))?;
                    options.weights.push((name, pct));
                }
            }
            "--den-distance" => options.den_distance_percent = Some(number()? as i32),
            "--start-setup" => options.start_setup = Some(number()? != 0),
            "--prior" => options.prior_percent = Some(number()? as i32),
            "--screen" => options.screen_percent = Some(number()? as i32),
            "--uniform-setup" => options.uniform_setup = number()? != 0,
            "--setup-temperature" => {
                options.setup_table.temperature = value
                    .parse::<f64>()
                    .ok()
                    .filter(|t| t.is_finite() && *t > 0.0)
                    .ok_or_else(|| {
                        format!("--setup-temperature: \"{value}\" is not a positive number")
                    })?;
            }
            "--setup-table" => {
                let text = std::fs::read_to_string(value)
                    .map_err(|e| format!("--setup-table: {value}: {e}"))?;
                options.setup_table = SetupTable::from_text(&text)
                    .map_err(|e| format!("--setup-table: {value}: {e}"))?;
            }
            "--contempt" => {
                options.contempt = Some(
                    value
                        .parse()
                        .map_err(|_| format!("--contempt: \"{value}\" is not a number"))?,
                );
            }
            "--pgn" => options.pgn = Some(value.clone()),
            "--rules" => options.rules = value.parse().map_err(|e| format!("--rules: {e}"))?,
            _ => return Err(format!("unknown option {name}")),
        }
    }
    if options.budget == Budget::default() {
        options.budget = Budget::time(Duration::from_millis(50));
    }
    if (options.opponent == Opponent::Current) != options.engine.is_some() {
        return Err("--engine PATH goes with --opponent current, and only with it".to_string());
    }
    Ok(options)
}

/// Stops the program with `message` and exit code `code`.
fn fail(message: &str, code: i32) -> ! {
    eprintln!("hidden_match: {message}");
    std::process::exit(code);
}

fn main() {
    let options = parse_args().unwrap_or_else(|message| fail(&message, 2));
    let mut external = options
        .engine
        .as_deref()
        .map(|program| ExternalEngine::start(program).unwrap_or_else(|e| fail(&e, 1)));
    if !options.uniform_setup
        && let Some(bits) = options.setup_table.entropy_bits(&options.rules, Side::Blue)
    {
        println!(
            "the AI's setups: {bits:.2} bits of entropy (temperature {})",
            options.setup_table.temperature
        );
    }
    let mut rng = StdRng::seed_from_u64(options.seed);
    let mut records = String::new();
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let (mut world_searches, mut searching) = (0usize, Duration::ZERO);
    let (mut depths, mut choices) = (0u64, 0u64);
    // The AI's moves its screen searched a second world for, and its engine nodes.
    let (mut screened, mut ai_nodes) = (0u64, 0u64);
    // Wall time spent choosing, by the AI and by its opponent, with their move counts.
    let mut thinking = [(Duration::ZERO, 0u32); 2];
    // Attacks on a piece whose animal the attacker did not know, by the AI and by its opponent: (won, lost).
    let mut blind_attacks = [(0u32, 0u32); 2];
    // Pieces of the AI and of its opponent taken by an attacker their side did not know, by animal.
    let mut taken_unseen = [[0u32; 8]; 2];
    // Draws by how they ended.
    let mut draws_by = std::collections::BTreeMap::<String, u32>::new();
    for i in 0..options.games {
        let ai_side = if i % 2 == 0 { Side::Blue } else { Side::Red };
        let mut ai = HiddenAi::new(options.level, rng.random());
        let level_plan = LevelPlan::of(options.level);
        let plan = LevelPlan {
            worlds: options.worlds.unwrap_or(level_plan.worlds),
            vote: options.vote.unwrap_or(level_plan.vote),
            contempt: options.contempt.unwrap_or(level_plan.contempt),
            history: options.history.unwrap_or(level_plan.history),
            keep_world: options.keep_world.unwrap_or(level_plan.keep_world),
            nnue: options.nnue,
            den_distance_percent: options
                .den_distance_percent
                .unwrap_or(level_plan.den_distance_percent),
            start_setup: options.start_setup.unwrap_or(level_plan.start_setup),
            prior_percent: options.prior_percent.unwrap_or(level_plan.prior_percent),
            screen_percent: options.screen_percent.unwrap_or(level_plan.screen_percent),
            ..level_plan
        };
        ai = ai.with_plan(plan);
        if !options.weights.is_empty() {
            let mut weights = plan.weights();
            for (name, pct) in &options.weights {
                let scale = |v: &mut i32| *v = *v * pct / 100;
                match name.as_str() {
                    "rank_value" => weights.rank_value.iter_mut().for_each(scale),
                    "jumper" => scale(&mut weights.jumper),
                    "rat_kills_elephant" => scale(&mut weights.rat_kills_elephant),
                    "swimmer" => scale(&mut weights.swimmer),
                    "elephant_without_enemy_rat" => scale(&mut weights.elephant_without_enemy_rat),
                    "den_defender" => scale(&mut weights.den_defender),
                    "den_attack_excess" => scale(&mut weights.den_attack_excess),
                    "mobility" => weights.mobility.iter_mut().for_each(scale),
                    "jumper_on_bank" => scale(&mut weights.jumper_on_bank),
                    "swimmer_blocks_jumps" => scale(&mut weights.swimmer_blocks_jumps),
                    "weakened_on_trap" => scale(&mut weights.weakened_on_trap),
                    "tempo" => scale(&mut weights.tempo),
                    _ => {
                        fail(&format!("--weights: no weight \"{name}\""), 2);
                    }
                }
            }
            ai = ai.with_weights(weights);
        }
        let mut truth = HiddenAi::new(options.level, rng.random());
        truth = truth.with_plan(LevelPlan {
            nnue: options.nnue,
            ..LevelPlan::of(options.level)
        });
        let mut one_world = OneWorld::new(rng.random()).with_nnue(options.nnue);
        let ai_setup = if options.uniform_setup {
            Arrangement::random(&options.rules, ai_side, &mut rng)
        } else {
            ai.choose_setup_from(&options.setup_table, &options.rules, ai_side)
        };
        let other_setup = match &mut external {
            Some(engine) => engine
                .new_game(rng.random())
                .and_then(|()| engine.setup(&options.rules, !ai_side))
                .unwrap_or_else(|e| fail(&e, 1)),
            None => Arrangement::random(&options.rules, !ai_side, &mut rng),
        };
        let setup_tags = [
            ("AISetup".to_string(), ai_setup.to_string()),
            ("OpponentSetup".to_string(), other_setup.to_string()),
        ];
        let (blue, red) = match ai_side {
            Side::Blue => (ai_setup, other_setup),
            Side::Red => (other_setup, ai_setup),
        };
        let mut game = HiddenGame::new(options.rules.clone(), blue, red).expect("valid setups");
        while !game.is_over() && game.history().len() < MAX_PLIES {
            let side = game.side_to_move();
            let view = game.view(Some(side));
            let started = std::time::Instant::now();
            let choice: Option<Move> = if side == ai_side {
                let m = ai.choose_within(&view, options.budget);
                world_searches += ai.report().world_searches;
                depths += u64::from(ai.report().depth);
                screened += u64::from(ai.report().screened);
                ai_nodes += ai.report().nodes;
                choices += 1;
                searching += ai.report().elapsed;
                m
            } else {
                match options.opponent {
                    Opponent::Random => {
                        let moves = view.legal_moves();
                        (!moves.is_empty())
                            .then(|| moves.as_slice()[rng.random_range(0..moves.len())])
                    }
                    Opponent::OneWorld => one_world.choose_within(&view, options.budget),
                    Opponent::Truth => {
                        truth.choose_within(&game.view_with_everything_shown(side), options.budget)
                    }
                    Opponent::Current => {
                        let engine = external.as_mut().expect("--engine checked");
                        let setup = game.arrangement(side);
                        Some(
                            engine
                                .choose(&view, setup, options.budget)
                                .unwrap_or_else(|e| fail(&e, 1)),
                        )
                    }
                }
            };
            let clock = &mut thinking[usize::from(side != ai_side)];
            clock.0 += started.elapsed();
            clock.1 += 1;
            let m = choice.expect("a game that is not over has a legal move");
            let blind = view
                .piece_at(m.to)
                .is_some_and(|seen| seen.animal.is_none());
            let unseen_attacker = game
                .view(Some(!side))
                .piece_at(m.from)
                .is_some_and(|seen| seen.animal.is_none());
            let public = game.play(m).expect("players choose legal moves");
            if let (true, Effect::Captured(victim)) = (unseen_attacker, public.effect) {
                taken_unseen[usize::from(side == ai_side)][victim.index()] += 1;
            }
            if blind {
                let count = &mut blind_attacks[usize::from(side != ai_side)];
                match public.effect {
                    Effect::Captured(_) => count.0 += 1,
                    _ => count.1 += 1,
                }
            }
        }
        if options.pgn.is_some() {
            let mut tags = vec![("AI".to_string(), ai_side.to_string())];
            tags.extend(setup_tags);
            records.push_str(&Record::of(&game, None, &tags).to_pgn());
            records.push('\n');
        }
        match game.outcome().and_then(|o| o.winner) {
            Some(winner) if winner == ai_side => wins += 1,
            Some(_) => losses += 1,
            None => {
                draws += 1;
                let reason = game
                    .outcome()
                    .map_or("300 plies".to_string(), |o| o.termination.to_string());
                *draws_by.entry(reason).or_default() += 1;
            }
        }
        let played = (i + 1) as f64;
        println!(
            "game {:>3}: AI {ai_side:<4} {:<28} score {:.1}% (+{wins} ={draws} -{losses})",
            i + 1,
            game.outcome()
                .map_or("300 plies: draw".to_string(), |o| o.to_string()),
            100.0 * (wins as f64 + 0.5 * draws as f64) / played,
        );
    }
    if let Some(path) = &options.pgn
        && let Err(e) = std::fs::write(path, records)
    {
        eprintln!("hidden_match: {path}: {e}");
    }
    let games = options.games.max(1) as f64;
    let mean_ms =
        |(time, moves): (Duration, u32)| time.as_secs_f64() * 1000.0 / f64::from(moves.max(1));
    println!(
        "final: AI score {:.1}% over {} games (+{wins} ={draws} -{losses}); {:.0} world searches per second, mean depth {:.1} after the root move; {:.1} ms a move (opponent {:.1} ms)",
        100.0 * (wins as f64 + 0.5 * draws as f64) / games,
        options.games,
        world_searches as f64 / searching.as_secs_f64().max(1e-9),
        depths as f64 / choices.max(1) as f64,
        mean_ms(thinking[0]),
        mean_ms(thinking[1]),
    );
    println!(
        "the AI's moves: {choices}, {:.0} engine nodes a move, {screened} screened by a second world",
        ai_nodes as f64 / choices.max(1) as f64
    );
    println!(
        "attacks on unknown pieces (won/lost): AI {}/{}, opponent {}/{}",
        blind_attacks[0].0, blind_attacks[0].1, blind_attacks[1].0, blind_attacks[1].1,
    );
    let draws_by: Vec<String> = draws_by.iter().map(|(r, n)| format!("{r} {n}")).collect();
    println!("draws: {}", draws_by.join(", "));
    let by_animal = |counts: &[u32; 8]| {
        jungle_rules::Animal::ALL
            .iter()
            .map(|a| format!("{a:?} {}", counts[a.index()]))
            .collect::<Vec<_>>()
            .join(" ")
    };
    println!(
        "taken by an attacker its side did not know: the AI's {}; the opponent's {}",
        by_animal(&taken_unseen[0]),
        by_animal(&taken_unseen[1]),
    );
    let big = |counts: &[u32; 8]| {
        use jungle_rules::Animal::{Elephant, Lion, Tiger};
        [Tiger, Lion, Elephant]
            .iter()
            .map(|a| counts[a.index()])
            .sum::<u32>() as f64
            / games
    };
    println!(
        "Tiger, Lion or Elephant taken by an attacker its side did not know, a game: the AI's {:.2}, the opponent's {:.2}",
        big(&taken_unseen[0]),
        big(&taken_unseen[1]),
    );
}
