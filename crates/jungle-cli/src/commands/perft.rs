//! `jungle perft [--fen FEN] [--rules OPTS] [--divide] [--threads N] DEPTH`: the leaf count, last line
//! `nodes N`; with `--divide` one `MOVE COUNT` line per root move first. Time and speed go to stderr.

use std::process::ExitCode;
use std::time::Instant;

use jungle_rules::{perft_divide, perft_parallel};

use crate::input::PositionArgs;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Print the count below each root move.
    #[arg(long)]
    divide: bool,
    /// Threads to share the root moves among.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Depth in plies.
    #[arg(value_parser = clap::value_parser!(u32).range(0..=20))]
    depth: u32,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (rules, pos) = args.position.resolve()?;
    let threads = usize::from(args.threads);
    let started = Instant::now();
    let nodes = if args.divide {
        let divide = perft_divide(&pos, &rules, args.depth, threads);
        for (m, n) in &divide {
            say!("{m} {n}");
        }
        divide.iter().map(|(_, n)| n).sum()
    } else {
        perft_parallel(&pos, &rules, args.depth, threads)
    };
    let seconds = started.elapsed().as_secs_f64();
    say!("nodes {nodes}");
    eprintln!(
        "time {:.3} s, {:.0} nodes/s ({threads} thread(s))",
        seconds,
        nodes as f64 / seconds.max(1e-9)
    );
    Ok(ExitCode::SUCCESS)
}
