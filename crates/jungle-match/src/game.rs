//! One game between two engine processes: openings, clocks, the rules' endings, adjudication, and the
//! failures (crash, stall, illegal move, time overrun) that lose a game for the engine at fault.

use std::time::Duration;

use jungle_protocol::{Command, GoParams, StartPosition};
use jungle_rules::{BySide, Game, Move, Outcome, Position, Rules, Side, Termination, fen};

use crate::adjudication::{Adjudication, Adjudicator};
use crate::engine::{EngineConfig, EngineError, EngineProcess, InfoSummary};
use crate::time_control::{Charge, Clock};

/// Where a game starts: a position and the book moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub start: Position,
    pub moves: Vec<Move>,
}

impl Opening {
    /// The rules' start position with no book moves.
    pub fn start(rules: &Rules) -> Opening {
        Opening {
            start: Position::start(rules),
            moves: Vec::new(),
        }
    }
}

/// Settings shared by every game of a match.
#[derive(Clone, Debug)]
pub struct GameSettings {
    pub rules: Rules,
    pub adjudication: Adjudication,
    /// How long an engine may take to start, or to answer `isready`.
    pub handshake_timeout: Duration,
    /// How long to wait for a move when neither a clock nor a move time bounds the engine.
    pub stall_timeout: Duration,
    /// Where to copy every line exchanged with the engines, if anywhere.
    pub engine_log: Option<crate::engine::EngineLog>,
    /// Hidden Jungle (`-hidden`): the engines choose setups and are sent only their own views.
    pub hidden: bool,
}

/// A move the engines played, with what its engine said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub mv: Move,
    /// `None` for book moves.
    pub thinking: Option<Thinking>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thinking {
    pub info: InfoSummary,
    pub elapsed: Duration,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub players: BySide<String>,
    pub rules: Rules,
    pub moves: GameMoves,
    pub outcome: Outcome,
    /// Why it ended, in words (names the engine at fault for forfeits).
    pub reason: String,
    /// The PGN `TimeControl` tag (both engines' when they differ, Blue's first).
    pub time_control: String,
}

/// The moves of a finished game, open or hidden.
#[derive(Clone, Debug)]
pub enum GameMoves {
    Open {
        start: Position,
        moves: Vec<PlayedMove>,
    },
    /// A Hidden Jungle game: the record with both setups and the public moves, and what the engine said about
    /// each move (in the order of the record's moves).
    Hidden {
        record: Box<jungle_hidden::record::Record>,
        thinking: Vec<Thinking>,
    },
}

/// An engine slot: the config and the process, started on demand and dropped when it misbehaves.
#[derive(Debug)]
pub struct Seat<'a> {
    pub config: &'a EngineConfig,
    pub process: &'a mut Option<EngineProcess>,
}

/// Plays one game. Engines that are not running (or died in an earlier game) are started first; an engine
/// that crashes or stalls is killed and its slot emptied so the next game restarts it.
pub fn play_game(
    settings: &GameSettings,
    opening: &Opening,
    mut seats: BySide<Seat<'_>>,
) -> GameRecord {
    let players = BySide::new(
        seats.blue.config.name.clone(),
        seats.red.config.name.clone(),
    );
    let time_control = time_control_tag(&seats);
    let mut game = Game::from_position(settings.rules.clone(), opening.start);
    let mut moves: Vec<PlayedMove> = Vec::new();
    for &mv in &opening.moves {
        // Openings are checked when they are loaded; a move that does not fit these rules ends the book.
        if game.play(mv).is_err() {
            break;
        }
        moves.push(PlayedMove { mv, thinking: None });
    }
    let finish =
        |game: &Game, moves: Vec<PlayedMove>, outcome: Outcome, reason: String| GameRecord {
            players: players.clone(),
            rules: settings.rules.clone(),
            moves: GameMoves::Open {
                start: *game.start_position(),
                moves,
            },
            outcome,
            reason,
            time_control: time_control.clone(),
        };

    // Step 1. Engines up and told a new game starts.
    for side in Side::ALL {
        if let Err(e) = prepare(settings, &mut seats[side]) {
            let outcome = Outcome::win(!side, Termination::Abandoned);
            return finish(&game, moves, outcome, format!("{side} forfeits: {e}"));
        }
    }

    // Step 2. Moves until the rules, an adjudicator or a failure end the game.
    let from_start = *game.start_position() == Position::start(&settings.rules);
    let start_fen = fen::to_fen(game.start_position());
    let mut clocks = BySide::new(
        Clock::new(&seats.blue.config.limits),
        Clock::new(&seats.red.config.limits),
    );
    let mut adjudicator = Adjudicator::new(settings.adjudication);
    loop {
        if let Some(outcome) = game.outcome() {
            let reason = match outcome.winner {
                Some(w) => format!("{w} wins: {}", outcome.termination),
                None => format!("draw: {}", outcome.termination),
            };
            return finish(&game, moves, outcome, reason);
        }
        let side = game.side_to_move();
        let position = Command::Position {
            start: if from_start {
                StartPosition::StartPos
            } else {
                StartPosition::Fen(start_fen.clone())
            },
            moves: game.moves().to_vec(),
        }
        .to_string();
        let answer = match engine_move(settings, &mut seats[side], side, &mut clocks, &position) {
            Ok(answer) => answer,
            Err((outcome, reason)) => return finish(&game, moves, outcome, reason),
        };
        let mv = match game.play_text(&answer.best_move) {
            Ok(mv) => mv,
            Err(e) => {
                let reason = format!(
                    "{side} forfeits: {} played illegal move \"{}\": {e}",
                    seats[side].config.name, answer.best_move
                );
                return finish(
                    &game,
                    moves,
                    Outcome::win(!side, Termination::IllegalMove),
                    reason,
                );
            }
        };
        moves.push(PlayedMove {
            mv,
            thinking: Some(Thinking {
                info: answer.info,
                elapsed: answer.elapsed,
            }),
        });
        if !game.is_over()
            && let Some(verdict) =
                adjudicator.after_move(side, answer.info.score, game.moves().len())
        {
            game.declare(verdict.outcome);
            return finish(&game, moves, verdict.outcome, verdict.reason);
        }
    }
}

/// The PGN `TimeControl` tag: both engines' when they differ, Blue's first.
pub(crate) fn time_control_tag(seats: &BySide<Seat<'_>>) -> String {
    let blue = seats.blue.config.limits.pgn_tag();
    let red = seats.red.config.limits.pgn_tag();
    if blue == red {
        blue
    } else {
        format!("{blue}:{red}")
    }
}

/// Asks `side`'s engine for a move after the `position` line: the `go` with the clocks, a deadline past which it
/// loses on time, and the clock charged. A failure (crash, stall, time overrun) kills a misbehaving engine and
/// gives the outcome and reason of the lost game.
pub(crate) fn engine_move(
    settings: &GameSettings,
    seat: &mut Seat<'_>,
    side: Side,
    clocks: &mut BySide<Clock>,
    position: &str,
) -> Result<crate::engine::SearchAnswer, (Outcome, String)> {
    let limits = seat.config.limits;
    let go = Command::Go(go_params(&limits, clocks)).to_string();
    let deadline = if clocks[side].is_running() {
        clocks[side].remaining() + limits.time_margin
    } else if let Some(st) = limits.move_time {
        st + limits.time_margin
    } else {
        settings.stall_timeout
    };
    let timed = clocks[side].is_running() || limits.move_time.is_some();
    let process = seat.process.as_mut().expect("prepared engines are running");
    let answer = match process.search(position, &go, deadline) {
        Ok(answer) => answer,
        Err(e) => {
            if let Some(p) = seat.process.take() {
                p.kill();
            }
            let termination = match e {
                EngineError::Stalled { .. } if timed => Termination::TimeForfeit,
                _ => Termination::Abandoned,
            };
            let reason = match (&e, termination) {
                (_, Termination::TimeForfeit) => format!(
                    "{side} loses on time: {} sent no move within {:.3} s",
                    seat.config.name,
                    deadline.as_secs_f64()
                ),
                _ => format!("{side} forfeits: {e}"),
            };
            return Err((Outcome::win(!side, termination), reason));
        }
    };
    let over_time = match clocks[side].charge(answer.elapsed, limits.time_margin) {
        Charge::Overrun { .. } => true,
        Charge::InTime => limits
            .move_time
            .is_some_and(|st| answer.elapsed > st + limits.time_margin),
    };
    if over_time {
        let reason = format!(
            "{side} loses on time: {} took {:.3} s",
            seat.config.name,
            answer.elapsed.as_secs_f64()
        );
        return Err((Outcome::win(!side, Termination::TimeForfeit), reason));
    }
    Ok(answer)
}

/// Starts the seat's engine if needed and announces a new game; a failing engine is killed.
pub(crate) fn prepare(settings: &GameSettings, seat: &mut Seat<'_>) -> Result<(), EngineError> {
    if seat.process.is_none() {
        *seat.process = Some(EngineProcess::start(
            seat.config,
            settings.handshake_timeout,
            settings.engine_log.clone(),
        )?);
    }
    let process = seat.process.as_mut().expect("just started");
    if let Err(e) = process.new_game(settings.handshake_timeout) {
        if let Some(p) = seat.process.take() {
            p.kill();
        }
        return Err(e);
    }
    Ok(())
}

/// The `go` of the side to move: both clocks, or the fixed move time, plus depth and node caps; `infinite`
/// when nothing bounds it.
pub(crate) fn go_params(
    limits: &crate::time_control::SearchLimits,
    clocks: &BySide<Clock>,
) -> GoParams {
    let mut go = GoParams {
        depth: limits.depth,
        nodes: limits.nodes,
        ..GoParams::default()
    };
    if clocks.blue.is_running() || clocks.red.is_running() {
        go.wtime = Some(clocks.blue.remaining());
        go.btime = Some(clocks.red.remaining());
        go.winc = Some(clocks.blue.increment());
        go.binc = Some(clocks.red.increment());
        // Each side's own period; engines read the mover's.
        go.movestogo = clocks.blue.moves_to_go().or(clocks.red.moves_to_go());
    } else {
        go.movetime = limits.move_time;
    }
    go.infinite = go == GoParams::default();
    go
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time_control::SearchLimits;

    #[test]
    fn go_lines_carry_clocks_move_time_and_caps() {
        let tc = SearchLimits {
            time_control: "40/60+0.6".parse().unwrap(),
            ..SearchLimits::default()
        };
        let clocks = BySide::new(Clock::new(&tc), Clock::new(&tc));
        assert_eq!(
            Command::Go(go_params(&tc, &clocks)).to_string(),
            "go wtime 60000 btime 60000 winc 600 binc 600 movestogo 40"
        );
        let st = SearchLimits {
            move_time: Some(Duration::from_millis(250)),
            depth: Some(6),
            ..SearchLimits::default()
        };
        let none = BySide::new(Clock::new(&st), Clock::new(&st));
        let go = |limits: &SearchLimits| Command::Go(go_params(limits, &none)).to_string();
        assert_eq!(go(&st), "go depth 6 movetime 250");
        let nodes = SearchLimits {
            nodes: Some(5000),
            ..SearchLimits::default()
        };
        assert_eq!(go(&nodes), "go nodes 5000");
        assert_eq!(go(&SearchLimits::default()), "go infinite");
    }
}
