//! `nnue`: the recipe of the engine's learned evaluation (docs/engine.md, "Learned evaluation").
//!
//! - `nnue gen`: self-play positions with search scores and game results;
//! - `nnue train`: fits the net on them and writes the quantised file the engine reads.

mod generate;
mod rng;
mod train;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use jungle_rules::Rules;

#[derive(Parser, Debug)]
#[command(
    name = "nnue",
    about = "Data generation and training for the engine's learned evaluation"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Self-play at a fixed node budget; writes `RESULT SCORE FEN` lines (side to move's view).
    Gen {
        /// Number of the first game: a run can be made in pieces whose files concatenate to the whole run's.
        #[arg(long, default_value_t = 0)]
        first_game: usize,
        #[arg(long, default_value_t = 1000)]
        games: usize,
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once (one engine thread each).
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        #[arg(long, default_value = "standard")]
        rules: String,
        /// Endgame tables for the same rules: covered positions get the tables' exact result.
        #[arg(long)]
        tb: Option<PathBuf>,
        /// A net file of the same rules to evaluate with (default: the hand-written evaluation).
        #[arg(long)]
        eval: Option<PathBuf>,
        #[arg(long)]
        out: PathBuf,
    },
    /// Fits the net on `gen` files and writes the quantised net file.
    Train {
        /// `gen` output files.
        #[arg(required = true)]
        data: Vec<PathBuf>,
        #[arg(long, default_value = "standard")]
        rules: String,
        #[arg(long, default_value_t = 30)]
        epochs: usize,
        #[arg(long, default_value_t = 1024)]
        batch: usize,
        #[arg(long, default_value_t = 0.001)]
        lr: f32,
        /// Weight of the search score in the target; the rest is the game's result.
        #[arg(long, default_value_t = 0.75)]
        lambda: f32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long)]
        out: PathBuf,
    },
}

fn parse_rules(text: &str) -> Result<Rules, String> {
    text.parse::<Rules>()
        .map_err(|e| format!("rules \"{text}\": {e}"))
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Gen {
            first_game,
            games,
            nodes,
            seed,
            jobs,
            rules,
            tb,
            eval,
            out,
        } => generate::generate(&generate::GenOptions {
            first_game,
            games,
            nodes,
            seed,
            jobs: jobs.max(1),
            rules: parse_rules(&rules)?,
            tablebases: tb,
            eval_file: eval,
            out,
        }),
        Command::Train {
            data,
            rules,
            epochs,
            batch,
            lr,
            lambda,
            seed,
            out,
        } => {
            if !(0.0..=1.0).contains(&lambda) {
                return Err(format!("--lambda {lambda}: must be within 0..=1"));
            }
            train::train(&train::TrainOptions {
                data,
                rules: parse_rules(&rules)?,
                epochs,
                batch: batch.max(1),
                learning_rate: lr,
                lambda,
                seed,
                out,
            })
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("nnue: {e}");
            ExitCode::from(2)
        }
    }
}
