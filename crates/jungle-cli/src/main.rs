//! The `jungle` command. Thin: parses arguments, calls the crates, maps errors to exit codes
//! (2 for bad input with one line on stderr, 1 for other failures).

/// `println!` for command output that returns an error instead of panicking when stdout is closed
/// (`jungle moves | head`); `main` ends such a run quietly.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($arg)*)?
    }};
}

mod commands;
mod input;
mod numbered_jobs;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Jungle (Dou Shou Qi): rules, engine and tools.
#[derive(Debug, Parser)]
#[command(name = "jungle", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count the leaf positions of the move tree to a depth.
    Perft(commands::perft::Args),
    /// List the legal moves of a position, one per line, sorted.
    Moves(commands::moves::Args),
    /// List the rule options and presets, or check an option string.
    Rules(commands::rules::Args),
    /// Draw a position as a board in the terminal.
    Show(commands::show::Args),
    /// Endgame tablebases: generate, probe, stats, verify.
    Tb(commands::tb::Args),
    /// Play engine-vs-engine matches and tournaments (cutechess-style flags), with Elo, SPRT and PGN.
    Match(commands::match_cmd::Args),
    /// Speak the engine protocol (UCI for Jungle) on standard input and output.
    Uci(commands::uci::Args),
    /// Search the fixed bench positions; prints `Nodes searched: N` and `Nodes/second: M` last.
    Bench(commands::bench::Args),
    /// Start the web platform: play the engine or a friend in the browser, watch, replay, analyse.
    Serve(commands::serve::Args),
    /// Play a game in the terminal: against the engine, two players, or watch the engine play itself.
    Play(commands::play::Args),
    /// Puzzles: make them from the tablebases or engine games, and verify a collection.
    Puzzles(commands::puzzles::Args),
    /// The opening explorer: play the engine self-play games of its self-play collection.
    Explorer(commands::explorer::Args),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return input::report_clap_error(e),
    };
    let result = match cli.command {
        Command::Perft(args) => commands::perft::run(args),
        Command::Moves(args) => commands::moves::run(args),
        Command::Rules(args) => commands::rules::run(args),
        Command::Show(args) => commands::show::run(args),
        Command::Tb(args) => commands::tb::run(args),
        Command::Match(args) => commands::match_cmd::run(args),
        Command::Uci(args) => commands::uci::run(args),
        Command::Bench(args) => commands::bench::run(args),
        Command::Serve(args) => commands::serve::run(args),
        Command::Play(args) => commands::play::run(args),
        Command::Puzzles(args) => commands::puzzles::run(args),
        Command::Explorer(args) => commands::explorer::run(args),
    };
    input::exit_code(result)
}
