//! `jungle show [--fen FEN] [--rules OPTS] [--plain]`: the position as a board with its terrain, the side to
//! move and the FEN.

use std::io::IsTerminal;
use std::process::ExitCode;

use jungle_rules::{Diagram, Position, Rules};

use crate::input::PositionArgs;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// No colours, even on a terminal.
    #[arg(long)]
    plain: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (rules, pos) = args.position.resolve()?;
    let colour =
        !args.plain && std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    say!("{}", draw(&pos, &rules, colour).trim_end_matches('\n'));
    Ok(ExitCode::SUCCESS)
}

/// The board (a [`Diagram`], coloured on request), then the side to move or the result, the FEN and the rules.
fn draw(pos: &Position, rules: &Rules, colour: bool) -> String {
    let mut out = Diagram::new(pos, rules).coloured(colour).to_string();
    match pos.outcome(rules) {
        Some(o) => out.push_str(&format!("game over: {o}\n")),
        None => out.push_str(&format!("{} to move\n", pos.side_to_move())),
    }
    out.push_str(&format!("fen: {pos}\nrules: {rules}\n"));
    out
}
