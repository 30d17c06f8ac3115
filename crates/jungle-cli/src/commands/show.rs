//! `jungle show [--fen FEN] [--rules OPTS] [--plain]`: the position as a board with its terrain, the side to
//! move and the FEN.

use std::io::IsTerminal;
use std::process::ExitCode;

use jungle_rules::terrain::DENS;
use jungle_rules::{Position, Rules, Side, Square};

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

/// The board, rank 9 on top. Empty squares show their terrain: `~` water, `#` trap, `*` den, `.` land;
/// Blue pieces are uppercase, Red lowercase. With colour, terrain is the background and sides are coloured.
pub fn draw(pos: &Position, rules: &Rules, colour: bool) -> String {
    let mut out = String::from("     a  b  c  d  e  f  g\n");
    for rank in (0..9u8).rev() {
        out.push_str(&format!("  {} ", rank + 1));
        for file in 0..7u8 {
            let sq = Square::from_coords(file, rank).expect("on board");
            let (mark, background) = terrain(sq, rules);
            let cell = match pos.piece_at(sq) {
                Some(p) if colour => {
                    let fg = if p.side == Side::Blue { "1;34" } else { "1;31" };
                    format!("\x1b[{fg}m {} \x1b[39;22m", p.fen_char())
                }
                Some(p) => format!(" {} ", p.fen_char()),
                None => format!(" {mark} "),
            };
            if colour {
                out.push_str(&format!("\x1b[{background}m{cell}\x1b[0m"));
            } else {
                out.push_str(&cell);
            }
        }
        out.push_str(&format!(" {}\n", rank + 1));
    }
    out.push_str("     a  b  c  d  e  f  g\n");
    let outcome = pos.outcome(rules);
    match outcome {
        Some(o) => out.push_str(&format!("game over: {o}\n")),
        None => out.push_str(&format!("{} to move\n", pos.side_to_move())),
    }
    out.push_str(&format!("fen: {pos}\nrules: {rules}\n"));
    out
}

fn terrain(sq: Square, rules: &Rules) -> (char, &'static str) {
    if rules.water().contains(sq) {
        ('~', "46")
    } else if rules.traps().contains(sq) {
        ('#', "43")
    } else if sq == DENS.blue || sq == DENS.red {
        ('*', "45")
    } else {
        ('.', "42")
    }
}
