//! From command-line arguments to a ready match: openings loaded or generated, ordered by the seed.

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use crate::args::{MatchArgs, OpeningSource};
use crate::balance::BalanceCheck;
use crate::engine::EngineLog;
use crate::game::{GameSettings, Opening};
use crate::openings::{self, OpeningsError};
use crate::tournament::{MatchConfig, TournamentKind};

/// At most this many openings are generated; a longer match uses them again in turn.
pub const MAX_GENERATED_OPENINGS: usize = 200;

/// How many games the arguments schedule.
pub fn scheduled_games(args: &MatchArgs) -> usize {
    let n = args.engines.len();
    let pairings = match args.kind {
        TournamentKind::RoundRobin => n * (n - 1) / 2,
        TournamentKind::Gauntlet => n - 1,
    };
    pairings * args.games as usize * args.rounds as usize
}

/// A match that cannot be assembled from its arguments.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error(transparent)]
    Openings(#[from] OpeningsError),
    #[error("cannot open the engine log {path}: {source}")]
    EngineLog {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

/// Loads or generates the openings and assembles the match. `seed` orders random openings and drives the
/// generator, so a seed replays the same match schedule.
///
/// # Errors
/// [`SetupError`] when a file cannot be read or created, or the generator finds no balanced opening.
pub fn build(args: &MatchArgs, seed: u64, date: String) -> Result<MatchConfig, SetupError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let openings = match &args.openings {
        // Hidden games start from the setups the engines choose.
        _ if args.hidden => vec![Opening::start(&args.rules)],
        OpeningSource::File {
            path,
            format,
            random_order,
            plies,
            start,
        } => {
            let mut list = openings::load(path, *format, &args.rules, *plies)?;
            if *random_order {
                list.shuffle(&mut rng);
            }
            let first = (start - 1) % list.len();
            list.rotate_left(first);
            list
        }
        OpeningSource::Generated {
            plies,
            depth,
            margin,
        } => {
            let uses = scheduled_games(args).div_ceil(if args.repeat { 2 } else { 1 });
            let count = uses.clamp(1, MAX_GENERATED_OPENINGS);
            let mut check = BalanceCheck::new(*depth, *margin);
            let list = openings::generate(&args.rules, count, *plies, &mut rng, &mut |game| {
                check.is_balanced(game)
            });
            if list.is_empty() {
                return Err(OpeningsError::NoneGenerated {
                    plies: *plies,
                    margin: *margin,
                }
                .into());
            }
            list
        }
    };
    let engine_log = match &args.engine_log {
        Some(path) => Some(EngineLog::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|source| SetupError::EngineLog {
                    path: path.clone(),
                    source,
                })?,
        )),
        None => None,
    };
    Ok(MatchConfig {
        engines: args.engines.clone(),
        kind: args.kind,
        games: args.games,
        rounds: args.rounds,
        repeat: args.repeat,
        concurrency: args.concurrency,
        openings,
        settings: GameSettings {
            rules: args.rules.clone(),
            adjudication: args.adjudication,
            handshake_timeout: std::time::Duration::from_secs(10),
            stall_timeout: args.stall_timeout,
            engine_log,
            hidden: args.hidden,
        },
        sprt: args.sprt,
        pgn_out: args.pgn_out.clone(),
        event: args.event.clone(),
        date,
    })
}
