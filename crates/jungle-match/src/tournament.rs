//! The tournament: a schedule of games (round-robin or gauntlet, rounds, games per pairing, repeated
//! openings with colours swapped), played by `concurrency` workers that each keep their own engine processes,
//! with results, PGN and the SPRT kept on the calling thread.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;

use jungle_rules::BySide;

use crate::engine::{EngineConfig, EngineProcess};
use crate::game::{GameRecord, GameSettings, Opening, Seat, play_game};
use crate::hidden_game::play_hidden_game;
use crate::pgn_out::{GameLabel, write_game};
use crate::sprt::{Sprt, SprtStatus};
use crate::standings::Standings;

/// Who plays whom.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TournamentKind {
    /// Every engine against every other.
    #[default]
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// Everything a match needs, validated.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineConfig>,
    pub kind: TournamentKind,
    /// Games per pairing per round.
    pub games: u32,
    pub rounds: u32,
    /// Each opening is played twice in a row, colours swapped (a game pair).
    pub repeat: bool,
    pub concurrency: usize,
    /// Used in turn; never empty.
    pub openings: Vec<Opening>,
    pub settings: GameSettings,
    /// Tests engine 0 against engine 1 on game pairs.
    pub sprt: Option<Sprt>,
    pub pgn_out: Option<PathBuf>,
    pub event: String,
    /// `YYYY.MM.DD` for the PGN `Date` tag.
    pub date: String,
}

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// 1-based, in schedule order.
    pub number: usize,
    pub round: u32,
    pub players: BySide<usize>,
    pub opening: usize,
    /// With `-repeat`: the pair this game belongs to, and the engine whose points the pair counts.
    pub pair: Option<(usize, usize)>,
}

/// The SPRT's state after a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtState {
    pub sprt: Sprt,
    pub llr: f64,
    pub status: SprtStatus,
}

/// What the caller hears while the match runs (on its own thread).
#[derive(Debug)]
pub enum MatchEvent<'a> {
    GameFinished {
        game: &'a ScheduledGame,
        record: &'a GameRecord,
        standings: &'a Standings,
        sprt: Option<SprtState>,
        finished: usize,
        scheduled: usize,
    },
}

/// The end of a match.
#[derive(Debug)]
pub struct MatchSummary {
    pub standings: Standings,
    pub sprt: Option<SprtState>,
    /// Every finished game in the order they finished: number, players, result, termination, reason.
    pub games: Vec<FinishedGame>,
}

#[derive(Clone, Debug)]
pub struct FinishedGame {
    pub number: usize,
    pub players: BySide<usize>,
    pub result: &'static str,
    pub termination: &'static str,
    pub reason: String,
}

/// A match that could not run at all.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    #[error("cannot write PGN to {path}: {source}")]
    PgnOut {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The games in order: rounds, then pairings, then games of a pairing. Colours alternate within a pairing;
/// openings advance every game, or every two games with `repeat`.
pub fn schedule(config: &MatchConfig) -> Vec<ScheduledGame> {
    let n = config.engines.len();
    let pairings: Vec<(usize, usize)> = match config.kind {
        TournamentKind::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
        TournamentKind::Gauntlet => (1..n).map(|j| (0, j)).collect(),
    };
    let mut games = Vec::new();
    let mut next_opening = 0;
    let mut pair_count = 0;
    for round in 1..=config.rounds {
        for &(a, b) in &pairings {
            for k in 0..config.games {
                let players = if k % 2 == 0 {
                    BySide::new(a, b)
                } else {
                    BySide::new(b, a)
                };
                // The even game opens a pair when its colour-swapped partner follows.
                let pair = if config.repeat && k % 2 == 0 && k + 1 < config.games {
                    pair_count += 1;
                    Some((pair_count - 1, a))
                } else if config.repeat && k % 2 == 1 {
                    Some((pair_count - 1, a))
                } else {
                    None
                };
                games.push(ScheduledGame {
                    number: games.len() + 1,
                    round,
                    players,
                    opening: next_opening % config.openings.len(),
                    pair,
                });
                if !config.repeat || k % 2 == 1 || k + 1 == config.games {
                    next_opening += 1;
                }
            }
        }
    }
    games
}

/// Plays the match. `on_event` runs on the calling thread after each game. Engines are killed at the end.
///
/// # Errors
/// [`MatchError`] when the PGN file cannot be opened or written.
pub fn run(
    config: &MatchConfig,
    on_event: &mut dyn FnMut(&MatchEvent<'_>),
) -> Result<MatchSummary, MatchError> {
    let scheduled = schedule(config);
    let mut pgn = match &config.pgn_out {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|source| MatchError::PgnOut {
                    path: path.clone(),
                    source,
                })?,
        ),
        None => None,
    };
    let queue = Mutex::new(scheduled.iter());
    let stop = AtomicBool::new(false);
    let (tx, rx) = channel::<(ScheduledGame, GameRecord)>();
    let mut standings = Standings::new(config.engines.iter().map(|e| e.name.clone()).collect());
    let mut summary_games = Vec::new();
    let mut sprt_state = None;
    let mut pending_pairs: HashMap<usize, f64> = HashMap::new();
    let mut failure = None;

    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.max(1) {
            let tx = tx.clone();
            let queue = &queue;
            let stop = &stop;
            scope.spawn(move || {
                let mut processes: Vec<Option<EngineProcess>> =
                    config.engines.iter().map(|_| None).collect();
                loop {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Some(&game) = queue.lock().expect("queue lock").next() else {
                        break;
                    };
                    let record = play_pairing(config, &game, &mut processes);
                    if tx.send((game, record)).is_err() {
                        break;
                    }
                }
                for p in processes.into_iter().flatten() {
                    p.quit();
                }
            });
        }
        drop(tx);

        for (finished, (game, record)) in rx.iter().enumerate() {
            let termination = record.outcome.termination.as_str();
            standings.add_game(game.players, record.outcome.winner, termination);
            if let Some((pair_id, reference)) = game.pair {
                let points = match record.outcome.winner {
                    None => 0.5,
                    Some(side) if game.players[side] == reference => 1.0,
                    Some(_) => 0.0,
                };
                match pending_pairs.remove(&pair_id) {
                    Some(first) => {
                        let other = if game.players.blue == reference {
                            game.players.red
                        } else {
                            game.players.blue
                        };
                        standings.add_pair(reference, other, (first, points));
                    }
                    None => {
                        pending_pairs.insert(pair_id, points);
                    }
                }
            }
            if let Some(sprt) = config.sprt {
                let llr = sprt.llr(&standings.pairs[0][1]);
                let status = sprt.status(llr);
                sprt_state = Some(SprtState { sprt, llr, status });
                if status != SprtStatus::Continue {
                    stop.store(true, Ordering::SeqCst);
                }
            }
            if let (Some(file), None) = (&mut pgn, &failure) {
                let label = GameLabel {
                    event: config.event.clone(),
                    site: "?".to_string(),
                    date: config.date.clone(),
                    round: game.round.to_string(),
                };
                if let Err(source) = file.write_all(write_game(&record, &label).as_bytes()) {
                    stop.store(true, Ordering::SeqCst);
                    failure = Some(MatchError::PgnOut {
                        path: config.pgn_out.clone().unwrap_or_default(),
                        source,
                    });
                }
            }
            summary_games.push(FinishedGame {
                number: game.number,
                players: game.players,
                result: record.outcome.result_str(),
                termination,
                reason: record.reason.clone(),
            });
            on_event(&MatchEvent::GameFinished {
                game: &game,
                record: &record,
                standings: &standings,
                sprt: sprt_state,
                finished: finished + 1,
                scheduled: scheduled.len(),
            });
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    Ok(MatchSummary {
        standings,
        sprt: sprt_state,
        games: summary_games,
    })
}

/// Plays one scheduled game with this worker's processes for the two engines.
fn play_pairing(
    config: &MatchConfig,
    game: &ScheduledGame,
    processes: &mut [Option<EngineProcess>],
) -> GameRecord {
    let (b, r) = (game.players.blue, game.players.red);
    // Two distinct slots of the same vector, borrowed at once.
    let (blue_slot, red_slot) = if b < r {
        let (low, high) = processes.split_at_mut(r);
        (&mut low[b], &mut high[0])
    } else {
        let (low, high) = processes.split_at_mut(b);
        (&mut high[0], &mut low[r])
    };
    let seats = BySide::new(
        Seat {
            config: &config.engines[b],
            process: blue_slot,
        },
        Seat {
            config: &config.engines[r],
            process: red_slot,
        },
    );
    if config.settings.hidden {
        play_hidden_game(&config.settings, seats)
    } else {
        play_game(&config.settings, &config.openings[game.opening], seats)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use jungle_rules::Rules;

    use super::*;
    use crate::adjudication::Adjudication;
    use crate::time_control::SearchLimits;

    fn config(
        engines: usize,
        kind: TournamentKind,
        games: u32,
        rounds: u32,
        repeat: bool,
    ) -> MatchConfig {
        let rules = Rules::default();
        MatchConfig {
            engines: (0..engines)
                .map(|i| EngineConfig {
                    name: format!("e{i}"),
                    command: "/bin/false".into(),
                    args: vec![],
                    working_dir: None,
                    options: vec![],
                    limits: SearchLimits::default(),
                })
                .collect(),
            kind,
            games,
            rounds,
            repeat,
            concurrency: 1,
            openings: vec![Opening::start(&rules); 5],
            settings: GameSettings {
                rules,
                adjudication: Adjudication::default(),
                handshake_timeout: Duration::from_secs(1),
                stall_timeout: Duration::from_secs(1),
                engine_log: None,
                hidden: false,
            },
            sprt: None,
            pgn_out: None,
            event: String::new(),
            date: String::new(),
        }
    }

    #[test]
    fn round_robin_pairs_everyone_and_alternates_colours() {
        let games = schedule(&config(3, TournamentKind::RoundRobin, 2, 2, false));
        assert_eq!(games.len(), 3 * 2 * 2);
        assert_eq!(games[0].players, BySide::new(0, 1));
        assert_eq!(games[1].players, BySide::new(1, 0));
        assert_eq!(games[2].players, BySide::new(0, 2));
        assert_eq!(games[4].players, BySide::new(1, 2));
        assert_eq!(games[6].round, 2);
        // Without repeat every game has a new opening (5 openings, used in turn).
        let openings: Vec<usize> = games.iter().map(|g| g.opening).collect();
        assert_eq!(&openings[..7], &[0, 1, 2, 3, 4, 0, 1]);
        assert!(games.iter().all(|g| g.pair.is_none()));
    }

    #[test]
    fn gauntlet_plays_only_the_first_engine() {
        let games = schedule(&config(4, TournamentKind::Gauntlet, 1, 1, false));
        let pairs: Vec<(usize, usize)> = games
            .iter()
            .map(|g| (g.players.blue, g.players.red))
            .collect();
        assert_eq!(pairs, vec![(0, 1), (0, 2), (0, 3)]);
    }

    #[test]
    fn repeat_plays_each_opening_twice_with_colours_swapped() {
        let games = schedule(&config(2, TournamentKind::RoundRobin, 4, 2, true));
        assert_eq!(games.len(), 8);
        let openings: Vec<usize> = games.iter().map(|g| g.opening).collect();
        assert_eq!(openings, vec![0, 0, 1, 1, 2, 2, 3, 3]);
        let pairs: Vec<usize> = games.iter().map(|g| g.pair.unwrap().0).collect();
        assert_eq!(pairs, vec![0, 0, 1, 1, 2, 2, 3, 3]);
        assert!(games.iter().all(|g| g.pair.unwrap().1 == 0));
        assert_eq!(games[2].players, BySide::new(0, 1));
        assert_eq!(games[3].players, BySide::new(1, 0));
    }

    #[test]
    fn engines_that_cannot_start_forfeit_and_the_match_finishes() {
        let mut c = config(2, TournamentKind::RoundRobin, 2, 1, true);
        c.engines[1].command = "/nonexistent/engine".into();
        c.engines[0].command = "/nonexistent/other".into();
        let mut events = 0;
        let summary = run(&c, &mut |_| events += 1).unwrap();
        assert_eq!(events, 2);
        assert_eq!(summary.standings.games(), 2);
        // Blue fails first, so Blue forfeits both games.
        assert_eq!(summary.standings.by_colour, (0, 2, 0));
        assert!(summary.games.iter().all(|g| g.termination == "abandoned"));
        assert!(
            summary.games[0].reason.contains("cannot start"),
            "{}",
            summary.games[0].reason
        );
        assert_eq!(summary.standings.pairs[0][1].counts, [0, 0, 1, 0, 0]);
    }
}
