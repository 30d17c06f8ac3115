//! `jungle moves [--fen FEN] [--rules OPTS]`: the legal moves, one per line, sorted.

use std::process::ExitCode;

use crate::input::PositionArgs;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (rules, pos) = args.position.resolve()?;
    let mut moves: Vec<String> = pos
        .legal_moves(&rules)
        .iter()
        .map(ToString::to_string)
        .collect();
    moves.sort();
    for m in moves {
        say!("{m}");
    }
    Ok(ExitCode::SUCCESS)
}
