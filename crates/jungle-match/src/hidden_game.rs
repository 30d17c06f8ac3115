//! One Hidden Jungle game between two engine processes (`jungle match -hidden`): the runner holds the true game,
//! asks each engine for its setup (`hidden setup SIDE`), sends each only its own view (`hidden position …`, built
//! from that side's setup and the public moves) before every `go`, plays the answer in the true game, and
//! records the game with both setups once it is over. Clocks, adjudication and forfeits are as in open games.

use jungle_hidden::record::Record;
use jungle_hidden::{Arrangement, HiddenGame};
use jungle_protocol::position_line;
use jungle_rules::{BySide, Move, Outcome, Side, Termination};

use crate::adjudication::Adjudicator;
use crate::engine::EngineError;
use crate::game::{
    GameMoves, GameRecord, GameSettings, Seat, Thinking, engine_move, prepare, time_control_tag,
};
use crate::time_control::Clock;

/// A game that ended before both setups were known: who forfeits and why.
struct SetupFailure {
    side: Side,
    reason: String,
}

/// Plays one hidden game. Engines are started and restarted as in [`play_game`](crate::game::play_game).
pub fn play_hidden_game(settings: &GameSettings, mut seats: BySide<Seat<'_>>) -> GameRecord {
    let players = BySide::new(
        seats.blue.config.name.clone(),
        seats.red.config.name.clone(),
    );
    let time_control = time_control_tag(&seats);
    let record = |moves: GameMoves, outcome: Outcome, reason: String| GameRecord {
        players: players.clone(),
        rules: settings.rules.clone(),
        moves,
        outcome,
        reason,
        time_control: time_control.clone(),
    };

    // Step 1. Engines up, each with its setup.
    let mut game = match setups(settings, &mut seats) {
        Ok(game) => game,
        Err(SetupFailure { side, reason }) => {
            // No game to record: the moves are empty and no setup is shown.
            let moves = GameMoves::Hidden {
                record: Box::new(Record {
                    tags: Vec::new(),
                    rules: settings.rules.clone(),
                    setups: BySide::new(None, None),
                    moves: Vec::new(),
                    outcome: None,
                    comments: Vec::new(),
                }),
                thinking: Vec::new(),
            };
            return record(moves, Outcome::win(!side, Termination::Abandoned), reason);
        }
    };

    // Step 2. Moves until the rules, an adjudicator or a failure end the game.
    let mut clocks = BySide::new(
        Clock::new(&seats.blue.config.limits),
        Clock::new(&seats.red.config.limits),
    );
    let mut adjudicator = Adjudicator::new(settings.adjudication);
    let mut thinking = Vec::new();
    let reason = loop {
        if let Some(outcome) = game.outcome() {
            break match outcome.winner {
                Some(w) => format!("{w} wins: {}", outcome.termination),
                None => format!("draw: {}", outcome.termination),
            };
        }
        let side = game.side_to_move();
        // The engine's own view: its setup and the public moves, nothing of the other side's animals.
        let position = position_line(&game.view(Some(side)), game.arrangement(side));
        let answer = match engine_move(settings, &mut seats[side], side, &mut clocks, &position) {
            Ok(answer) => answer,
            Err((outcome, reason)) => {
                game.declare(outcome);
                break reason;
            }
        };
        let played = answer
            .best_move
            .parse::<Move>()
            .map_err(|e| e.to_string())
            .and_then(|mv| game.play(mv).map_err(|e| e.to_string()));
        if let Err(e) = played {
            game.declare(Outcome::win(!side, Termination::IllegalMove));
            break format!(
                "{side} forfeits: {} played illegal move \"{}\": {e}",
                seats[side].config.name, answer.best_move
            );
        }
        thinking.push(Thinking {
            info: answer.info,
            elapsed: answer.elapsed,
        });
        if !game.is_over()
            && let Some(verdict) =
                adjudicator.after_move(side, answer.info.score, game.history().len())
        {
            game.declare(verdict.outcome);
            break verdict.reason;
        }
    };
    let outcome = game.outcome().expect("the loop ends with the game over");
    let moves = GameMoves::Hidden {
        record: Box::new(Record::of(&game, None, &[])),
        thinking,
    };
    record(moves, outcome, reason)
}

/// Starts both engines and asks each for its setup; the game from the two setups.
fn setups(
    settings: &GameSettings,
    seats: &mut BySide<Seat<'_>>,
) -> Result<HiddenGame, SetupFailure> {
    let setup = |seats: &mut BySide<Seat<'_>>, side: Side| {
        setup_of(settings, &mut seats[side], side).map_err(|reason| SetupFailure { side, reason })
    };
    let blue = setup(seats, Side::Blue)?;
    let red = setup(seats, Side::Red)?;
    // Each setup was checked for its own side, so together they make a start position.
    HiddenGame::new(settings.rules.clone(), blue, red).map_err(|e| SetupFailure {
        side: Side::Blue,
        reason: format!("the setups do not make a game: {e}"),
    })
}

/// Starts `side`'s engine if needed and asks for its setup; the reason it forfeits if it gives none.
fn setup_of(
    settings: &GameSettings,
    seat: &mut Seat<'_>,
    side: Side,
) -> Result<Arrangement, String> {
    let forfeit = |e: &dyn std::fmt::Display| format!("{side} forfeits: {e}");
    prepare(settings, seat).map_err(|e| forfeit(&e))?;
    let mut ask = format!("hidden setup {}", side.name().to_ascii_lowercase());
    if !settings.rules.is_standard() {
        ask.push_str(&format!(" rules {}", settings.rules));
    }
    let process = seat.process.as_mut().expect("prepared engines are running");
    let letters = match process.ask(
        &ask,
        "setup",
        settings.handshake_timeout,
        "choosing a setup",
    ) {
        Ok(letters) => letters,
        Err(e) => {
            // A refusal is an answer; an engine that crashed or stalls is restarted for the next game.
            if !matches!(e, EngineError::Refused { .. })
                && let Some(p) = seat.process.take()
            {
                p.kill();
            }
            return Err(forfeit(&e));
        }
    };
    Arrangement::parse(&settings.rules, side, &letters).map_err(|e| {
        forfeit(&format!(
            "{} chose the setup \"{letters}\": {e}",
            seat.config.name
        ))
    })
}
