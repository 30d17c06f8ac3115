//! `jungle explorer collect --games N [--first N] [--nodes N] [--seed N] [--jobs N] [--rules R]`: engine
//! self-play games for the opening explorer's self-play collection, as the collection's text on stdout (its
//! header, then one game a line in game order), progress on stderr. The shipped collection is this output
//! compressed with zstd (docs/server.md, "Opening explorer").

use std::io::Write;
use std::ops::ControlFlow;
use std::process::ExitCode;
use std::time::Instant;

use jungle_platform::selfplay_openings::SelfPlay;
use jungle_platform::selfplay_openings::collection::{game_line, header};
use jungle_rules::Rules;

use crate::input::bad_input;
use crate::numbered_jobs::run_in_order;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: ExplorerCommand,
}

#[derive(Debug, clap::Subcommand)]
enum ExplorerCommand {
    /// Play engine self-play games for the opening explorer and print them as a collection.
    Collect(CollectArgs),
}

#[derive(Debug, clap::Args)]
struct CollectArgs {
    /// Games to play.
    #[arg(long)]
    games: u64,
    /// The number of the first game (a run can be continued with other numbers).
    #[arg(long, default_value_t = 1)]
    first: u64,
    /// Nodes a move.
    #[arg(long, default_value_t = SelfPlay::default().nodes)]
    nodes: u64,
    #[arg(long, default_value_t = SelfPlay::default().seed)]
    seed: u64,
    /// The rules' option string.
    #[arg(long, default_value = "standard")]
    rules: String,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        ExplorerCommand::Collect(a) => collect(a),
    }
}

fn collect(args: CollectArgs) -> anyhow::Result<ExitCode> {
    if args.games == 0 || args.jobs == 0 || args.nodes == 0 {
        return Err(bad_input("--games, --nodes and --jobs must be at least 1"));
    }
    let rules: Rules = args
        .rules
        .parse()
        .map_err(|e| bad_input(format!("--rules: {e}")))?;
    let options = SelfPlay {
        rules,
        nodes: args.nodes,
        seed: args.seed,
        ..SelfPlay::default()
    };
    say!(
        "{}",
        header(
            &options.rules,
            &format!(
                "{}, games {} to {}",
                options.describe(),
                args.first,
                args.first + args.games - 1
            )
        )
        .trim_end()
    );
    let started = Instant::now();
    let last = args.first + args.games - 1;
    run_in_order(
        args.first..=last,
        args.jobs,
        |number| game_line(&options.play(number)),
        |number, line| {
            if writeln!(std::io::stdout(), "{line}").is_err() {
                // Stdout closed (`| head`): no game left to play is worth playing.
                return ControlFlow::Break(());
            }
            if number.is_multiple_of(100) {
                eprintln!(
                    "{} games in {:.0} s",
                    number - args.first + 1,
                    started.elapsed().as_secs_f64()
                );
            }
            ControlFlow::Continue(())
        },
    );
    eprintln!(
        "{} games in {:.1} s",
        args.games,
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}
