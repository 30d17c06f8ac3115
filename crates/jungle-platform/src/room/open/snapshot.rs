//! What every watcher of an open game is sent: the state as the protocol's [`Snapshot`], and the players'
//! names as the pages and PGN write them.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use jungle_rules::{Game, Move, Notation, Side};

use super::{ABORTED, Mode, RoomState, away_ms, is_engine_seat};
use crate::protocol::{
    BoardView, ClockView, EngineView, OutcomeView, PerSide, ServerMessage, SideName, Snapshot,
};

/// The display name of the player in `side`: the name a PGN gave, the engine and its level, `Anonymous` for a
/// person (players here have no accounts), or a note that the seat is still free.
pub fn player_name(state: &RoomState, side: Side) -> String {
    pgn_player_name(state, side).unwrap_or_else(|| "Waiting for a friend…".to_string())
}

/// The name of the player in `side` for a PGN tag; `None` for a seat nobody has taken.
pub fn pgn_player_name(state: &RoomState, side: Side) -> Option<String> {
    if let Some(name) = state.names.get(side) {
        return Some(name.clone());
    }
    match state.mode {
        Mode::Engine {
            level,
            side: engine,
        } if engine == side => Some(format!("Engine level {level}")),
        Mode::Engine { .. } => Some("Anonymous".to_string()),
        Mode::Friend if state.tokens.get(side).is_none() => None,
        Mode::Friend => Some("Anonymous".to_string()),
        Mode::Import => Some("?".to_string()),
    }
}

/// What a game's state message writes the same way each time, kept between messages: its rules, board and
/// start, which never change, and its moves in both notations, which only grow (but for a takeback). A state
/// lists every move of its game, and writing them all again for every ply was about a twentieth of a node's CPU
/// a move (docs/deployment.md, "What a move costs").
#[derive(Debug, Default)]
pub struct Written(Mutex<Option<Kept>>);

#[derive(Debug)]
struct Kept {
    texts: Texts,
    /// The moves `texts` has, checked against the game's each time (a takeback or a reread may have changed
    /// the last ones).
    played: Vec<Move>,
}

/// The texts a state message shares with the room.
#[derive(Clone, Debug)]
struct Texts {
    rules: Arc<str>,
    board: Arc<BoardView>,
    start_fen: Arc<str>,
    moves: Arc<Vec<String>>,
    animal_moves: Arc<Vec<String>>,
}

impl Written {
    /// The texts for `game` as it is now: those kept, brought up to its moves.
    fn of(&self, game: &Game) -> Texts {
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let Kept { texts, played } = kept.get_or_insert_with(|| Kept {
            texts: Texts {
                rules: game.rules().to_string().into(),
                board: Arc::new(BoardView::of(game.rules())),
                start_fen: jungle_rules::fen::to_fen(game.start_position()).into(),
                moves: Arc::default(),
                animal_moves: Arc::default(),
            },
            played: Vec::new(),
        });
        let now = game.moves();
        let same = played.iter().zip(now).take_while(|(a, b)| a == b).count();
        played.truncate(same);
        played.extend_from_slice(&now[same..]);
        // The last message that shared the lists is usually gone by now, so they grow in place.
        let moves = Arc::make_mut(&mut texts.moves);
        let animal_moves = Arc::make_mut(&mut texts.animal_moves);
        moves.truncate(same);
        animal_moves.truncate(same);
        for (&m, before) in now.iter().zip(game.positions()).skip(same) {
            moves.push(m.to_string());
            animal_moves.push(Notation::Animal.write(before, m));
        }
        texts.clone()
    }
}

/// The state every watcher receives, at `now` (the clocks' times).
pub fn snapshot(id: &str, state: &RoomState, now: Instant) -> Snapshot {
    let game = &state.game;
    let written = state.written.of(game);
    let clock = state.clock.as_ref().map(|clock| {
        let t = clock.millis(now);
        ClockView {
            blue_ms: t.blue,
            red_ms: t.red,
            running: clock.running_side().map(SideName),
            increment_ms: clock.increment().as_millis() as u64,
            initial_ms: state.initial_ms.unwrap_or_default(),
        }
    });
    let outcome = if state.aborted {
        Some(OutcomeView {
            winner: None,
            reason: ABORTED,
            result: "*",
            text: "Game aborted".to_string(),
        })
    } else {
        game.outcome().map(|o| OutcomeView {
            winner: o.winner.map(SideName),
            reason: o.termination.as_str(),
            result: o.result_str(),
            text: o.to_string(),
        })
    };
    let legal = if state.is_finished() {
        Vec::new()
    } else {
        game.legal_moves().iter().map(Move::to_string).collect()
    };
    Snapshot {
        id: id.to_string(),
        mode: state.mode.name(),
        rules: written.rules,
        board: written.board,
        start_fen: written.start_fen,
        fen: jungle_rules::fen::to_fen(game.position()),
        moves: written.moves,
        animal_moves: written.animal_moves,
        ply: game.moves().len(),
        turn: SideName(game.side_to_move()),
        legal,
        players: PerSide::from_fn(|side| player_name(state, side)),
        seats_taken: PerSide::from_fn(|side| {
            state.tokens.get(side).is_some() || is_engine_seat(state.mode, side)
        }),
        engine: match state.mode {
            Mode::Engine { level, side } => Some(EngineView {
                level,
                side: SideName(side),
            }),
            _ => None,
        },
        clock,
        outcome,
        draw_offer: state.draw_offer.map(SideName),
        takeback_request: state
            .takeback_request
            .filter(|_| !state.is_finished())
            .map(SideName),
        thinking: state.thinking,
        spectators: state.presence.spectators(),
        rematch: state.rematch.as_ref().map(|r| r.id.clone()),
        away: PerSide::from_fn(|side| away_ms(state, side, now)),
        correspondence: state.correspondence,
    }
}

/// The JSON of the state message.
pub(super) fn snapshot_json(id: &str, state: &RoomState, now: Instant) -> Arc<str> {
    ServerMessage::State(&snapshot(id, state, now))
        .to_json()
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_rules::Rules;

    /// What the state message would write if nothing were kept.
    fn fresh(game: &Game) -> (Vec<String>, Vec<String>) {
        let moves = game.moves().iter().map(Move::to_string).collect();
        (moves, game.written_moves(Notation::Animal))
    }

    fn kept(written: &Written, game: &Game) -> (Vec<String>, Vec<String>) {
        let texts = written.of(game);
        ((*texts.moves).clone(), (*texts.animal_moves).clone())
    }

    #[test]
    fn the_kept_moves_follow_the_game_through_moves_takebacks_and_other_lines() {
        let written = Written::default();
        let mut game = Game::new(Rules::default());
        assert_eq!(kept(&written, &game), fresh(&game));
        for m in ["a3a4", "g7g6", "a4a5"] {
            game.play_text(m).unwrap();
            assert_eq!(kept(&written, &game), fresh(&game));
        }
        let held = written.of(&game);
        game.undo();
        game.undo();
        assert_eq!(kept(&written, &game), fresh(&game), "taken back");
        game.play_text("a7a6").unwrap();
        assert_eq!(kept(&written, &game).0, ["a3a4", "a7a6"], "another line");
        assert_eq!(kept(&written, &game), fresh(&game));
        assert_eq!(
            *held.moves,
            ["a3a4", "g7g6", "a4a5"],
            "a message made before keeps its moves"
        );
        let texts = written.of(&game);
        assert_eq!(&*texts.rules, Rules::default().to_string());
        assert_eq!(*texts.board, BoardView::of(&Rules::default()));
        assert_eq!(&*texts.start_fen, jungle_rules::START_FEN);
    }
}
