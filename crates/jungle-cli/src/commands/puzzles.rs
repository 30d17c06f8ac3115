//! `jungle puzzles`: make and check the puzzle collection (docs/puzzles.md).
//!
//! - `jungle puzzles tablebase --tb DIR [--material KEY…] [--per-material N] [--min-plies N] [--max-plies N]
//!   [--samples N] [--seed N]`: puzzles from the tables, one JSON line each on stdout.
//! - `jungle puzzles games --games N [--first N] [--nodes N] [--verify-nodes N] [--seed N] [--jobs N]`:
//!   puzzles from engine self-play games, one JSON line each on stdout, progress on stderr; ids
//!   `game-GAME-PLY` for seed 1 at 10,000 nodes, `game-sSEED-nNODES-GAME-PLY` for any other run.
//! - `jungle puzzles verify FILE [--tb DIR] [--nodes N]`: checks every puzzle again (exit 1 if any fails).

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

use jungle_puzzles::selfplay::{SelfPlay, game_puzzles};
use jungle_puzzles::tablebase::{Search, puzzles_of_material};
use jungle_puzzles::{Verdict, read_collection, verify, write_collection};
use jungle_tb::{Material, Tablebases};

use crate::input::bad_input;
use crate::numbered_jobs::run_in_order;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: PuzzlesCommand,
}

#[derive(Debug, clap::Subcommand)]
enum PuzzlesCommand {
    /// Puzzles from tablebase positions where exactly one move keeps the win.
    Tablebase(TablebaseArgs),
    /// Puzzles from the critical moments of engine self-play games, confirmed by a deep search.
    Games(GamesArgs),
    /// Check every puzzle of a collection file again.
    Verify(VerifyArgs),
}

#[derive(Debug, clap::Args)]
struct TablebaseArgs {
    /// The directory of tables (standard rules).
    #[arg(long)]
    tb: PathBuf,
    /// Only these materials (default: every table of the directory).
    #[arg(long, num_args = 1..)]
    material: Vec<String>,
    /// At most this many puzzles per material.
    #[arg(long, default_value_t = 3)]
    per_material: usize,
    /// The solver wins in at least this many plies.
    #[arg(long, default_value_t = 5)]
    min_plies: u32,
    /// The solver wins in at most this many plies.
    #[arg(long, default_value_t = 15)]
    max_plies: u32,
    /// The line has at least this many moves of the solver.
    #[arg(long, default_value_t = 2)]
    min_solver_moves: usize,
    /// Keep lines that show no theme too (by default a line must enter the den, capture or leap a river).
    #[arg(long)]
    any_line: bool,
    /// Random positions looked at per material, at most.
    #[arg(long, default_value_t = 200_000)]
    samples: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(Debug, clap::Args)]
struct GamesArgs {
    /// Games to play.
    #[arg(long)]
    games: u32,
    /// The number of the first game (a run can be continued with other numbers).
    #[arg(long, default_value_t = 1)]
    first: u32,
    /// Nodes per move of the games.
    #[arg(long, default_value_t = SelfPlay::default().nodes)]
    nodes: u64,
    /// Nodes of the deep search that confirms each solver's move.
    #[arg(long, default_value_t = SelfPlay::default().verify_nodes)]
    verify_nodes: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
}

#[derive(Debug, clap::Args)]
struct VerifyArgs {
    /// The collection file (one JSON puzzle per line).
    file: PathBuf,
    /// Tables to check the puzzles they cover with.
    #[arg(long)]
    tb: Option<PathBuf>,
    /// Search nodes for a tablebase puzzle the tables given do not cover.
    #[arg(long, default_value_t = SelfPlay::default().verify_nodes)]
    nodes: u64,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        PuzzlesCommand::Tablebase(a) => tablebase(a),
        PuzzlesCommand::Games(a) => games(a),
        PuzzlesCommand::Verify(a) => verify_file(a),
    }
}

fn tablebase(args: TablebaseArgs) -> anyhow::Result<ExitCode> {
    let tables = Tablebases::open_dir(&args.tb).map_err(bad_input)?;
    if !tables.rules().is_standard() {
        return Err(bad_input(format!(
            "the tables are made under \"{}\"; puzzles are for the standard rules",
            tables.rules()
        )));
    }
    let materials: Vec<Material> = if args.material.is_empty() {
        tables.materials()
    } else {
        let mut list = Vec::new();
        for key in &args.material {
            let m: Material = key.parse().map_err(bad_input)?;
            if tables.table(m).is_none() {
                return Err(bad_input(format!(
                    "no readable table of {key} in {}",
                    args.tb.display()
                )));
            }
            list.push(m.canonical());
        }
        list
    };
    let started = Instant::now();
    let mut total = 0;
    for material in materials {
        let search = Search {
            min_plies: args.min_plies,
            max_plies: args.max_plies,
            min_choices: 3,
            min_solver_moves: args.min_solver_moves,
            require_theme: !args.any_line,
            wanted: args.per_material,
            samples: args.samples,
            seed: args.seed,
        };
        let prefix = format!("tb-{}", material.to_string().to_ascii_lowercase());
        let found = puzzles_of_material(&tables, material, &search, &prefix);
        eprintln!("{material}: {} puzzles", found.len());
        total += found.len();
        print!("{}", write_collection(&found));
    }
    eprintln!(
        "{total} puzzles in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

fn games(args: GamesArgs) -> anyhow::Result<ExitCode> {
    if args.games == 0 || args.jobs == 0 {
        return Err(bad_input("--games and --jobs must be at least 1"));
    }
    let options = SelfPlay {
        nodes: args.nodes,
        verify_nodes: args.verify_nodes,
        seed: args.seed,
        ..SelfPlay::default()
    };
    let started = Instant::now();
    let candidates = AtomicU32::new(0);
    let prefix = options.id_prefix();
    let mut printed = 0;
    run_in_order(
        u64::from(args.first)..=u64::from(args.first) + u64::from(args.games) - 1,
        args.jobs,
        |number| {
            let number = u32::try_from(number).expect("the numbers of a u32 range");
            let found = game_puzzles(&options, number, &prefix, &mut |_, _| {
                candidates.fetch_add(1, Ordering::Relaxed);
            });
            eprintln!(
                "game {number}: {} puzzles ({:.0} s)",
                found.len(),
                started.elapsed().as_secs_f64()
            );
            found
        },
        |_, puzzles| {
            printed += puzzles.len();
            print!("{}", write_collection(&puzzles));
            let _ = std::io::Write::flush(&mut std::io::stdout());
            ControlFlow::Continue(())
        },
    );
    eprintln!(
        "{} games, {} candidates, {printed} puzzles in {:.1} s",
        args.games,
        candidates.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

fn verify_file(args: VerifyArgs) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| bad_input(format!("{}: {e}", args.file.display())))?;
    let puzzles = read_collection(&text).map_err(bad_input)?;
    let tables = match &args.tb {
        Some(dir) => Some(Tablebases::open_dir(dir).map_err(bad_input)?),
        None => None,
    };
    let started = Instant::now();
    let (mut by_tables, mut by_search, mut failed) = (0, 0, 0);
    for (puzzle, _) in &puzzles {
        match verify(puzzle, tables.as_ref(), args.nodes) {
            Ok(Verdict::Tables { plies }) => {
                by_tables += 1;
                say!("{} ok tables win in {plies}", puzzle.id);
            }
            Ok(Verdict::Search { nodes }) => {
                by_search += 1;
                say!("{} ok search {nodes} nodes", puzzle.id);
            }
            Err(e) => {
                failed += 1;
                say!("{} FAILED {e}", puzzle.id);
            }
        }
    }
    say!(
        "{} puzzles: {by_tables} verified by the tables, {by_search} by search, {failed} failed ({:.1} s)",
        puzzles.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
