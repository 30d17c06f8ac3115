//! The wire format of web Hidden Jungle (docs/hidden.md, "Web"): what a browser may send on `/ws/hidden/ID`, the
//! request that creates a game, and the state each audience is sent. The state is built from a [`View`] (and
//! the viewer's own setup) only, so what it can carry is what the viewer may know; both setups are added only
//! once the game is over.

use jungle_hidden::{Arrangement, View};
use jungle_rules::{Animal, BySide, Move, Outcome, Rules, Side, Square};
use serde::{Deserialize, Serialize};

use crate::protocol::{BoardView, EngineView, MAX_MESSAGE_BYTES, PerSide, ProtocolError, SideName};

/// `POST /api/hidden`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewHiddenGame {
    /// `engine` or `friend`.
    pub mode: String,
    /// A rule option string or preset (docs/rules.md); default the standard rules.
    #[serde(default)]
    pub rules: Option<String>,
    /// The creator's side: `blue`, `red` or `random` (the default).
    #[serde(default)]
    pub side: Option<String>,
    /// The engine's level, 1–8 (engine games; default 3).
    #[serde(default)]
    pub level: Option<u8>,
}

/// A message from a browser.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// `{"type":"setup","setup":"TLCDEWPR"}` or `{"type":"setup","random":true}`.
    Setup {
        #[serde(default)]
        setup: Option<String>,
        #[serde(default)]
        random: bool,
    },
    Move {
        #[serde(rename = "move")]
        mv: String,
    },
    Resign,
    Ping,
}

impl ClientMessage {
    /// Reads one message, refusing oversized and malformed ones (the open game's limits).
    ///
    /// # Errors
    /// [`ProtocolError`] saying what is wrong.
    pub fn parse(text: &str) -> Result<ClientMessage, ProtocolError> {
        if text.len() > MAX_MESSAGE_BYTES {
            return Err(ProtocolError::TooLarge(text.len()));
        }
        serde_json::from_str(text).map_err(|e| ProtocolError::Garbled(e.to_string()))
    }
}

/// A message to a browser.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage<'a> {
    State(&'a HiddenState),
    Error { message: &'a str },
    Pong,
}

impl ServerMessage<'_> {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("server messages are plain data")
    }
}

/// `setup`, `play` or `over`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Waiting for a setup (or for the friend to arrive).
    Setup,
    Play,
    Over,
}

/// The state of a hidden game as one audience (a seat, or the spectators) sees it.
#[derive(Clone, Debug, Serialize)]
pub struct HiddenState {
    pub id: String,
    /// `engine` or `friend`.
    pub mode: &'static str,
    pub rules: String,
    pub board: BoardView,
    pub phase: Phase,
    /// The seat this state is for (`null`: a spectator's).
    pub you: Option<SideName>,
    pub players: PerSide<String>,
    /// Whether each seat has a player (the AI's seat always has).
    pub seats_taken: PerSide<bool>,
    pub engine: Option<EngineView>,
    pub setup_done: PerSide<bool>,
    /// Each side's start squares, in the order of a setup's letters.
    pub start_squares: PerSide<Vec<String>>,
    /// The viewer's own setup once handed in (`null` for spectators).
    pub setup: Option<String>,
    /// The view FEN: `X`/`x` for a piece whose animal the viewer does not know. Before a seat has handed in
    /// its setup, its own pieces stand in the ordinary arrangement (what the setup screen starts from).
    pub fen: String,
    /// The squares of the pieces whose animal both players know (revealed); a seat's own pieces not among
    /// them are the ones the opponent has not seen.
    pub revealed: Vec<String>,
    pub turn: SideName,
    pub ply: usize,
    /// The public moves (`a3a4`, `g3g4=R`, `c3c4=LxC`, `c3c4=C/L`).
    pub moves: Vec<String>,
    /// The view FEN after each ply, 0 to `ply`, as the viewer saw it then (every animal shown once over).
    pub positions: Vec<String>,
    /// The viewer's legal moves when it is its move (else none).
    pub legal: Vec<String>,
    /// The animals of each side whose place the viewer does not know (by letter).
    pub unknown: PerSide<Vec<char>>,
    pub thinking: bool,
    pub outcome: Option<OutcomeView>,
    /// Both setups, once the game is over.
    pub setups: Option<PerSide<String>>,
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OutcomeView {
    pub winner: Option<SideName>,
    pub reason: &'static str,
    pub text: String,
}

impl OutcomeView {
    pub fn of(outcome: Outcome) -> OutcomeView {
        OutcomeView {
            winner: outcome.winner.map(SideName),
            reason: outcome.termination.as_str(),
            text: outcome.to_string(),
        }
    }
}

/// What a state is made of besides the view: the room's public facts.
#[derive(Debug)]
pub struct Facts<'a> {
    pub id: &'a str,
    pub mode: &'static str,
    pub players: PerSide<String>,
    pub seats_taken: PerSide<bool>,
    pub engine: Option<EngineView>,
    pub setup_done: PerSide<bool>,
    pub thinking: bool,
}

impl HiddenState {
    /// The state of `view`'s viewer: `own` is its own setup (when handed in), `setups` both setups once the
    /// game is over, `phase` the room's.
    pub fn of(
        facts: Facts<'_>,
        phase: Phase,
        view: &View,
        own: Option<String>,
        setups: Option<&BySide<Arrangement>>,
    ) -> HiddenState {
        let rules = view.rules();
        let moves = view.history().iter().map(ToString::to_string).collect();
        HiddenState {
            id: facts.id.to_string(),
            mode: facts.mode,
            rules: rules.to_string(),
            board: BoardView::of(rules),
            phase,
            you: view.viewer().map(SideName),
            players: facts.players,
            seats_taken: facts.seats_taken,
            engine: facts.engine,
            setup_done: facts.setup_done,
            start_squares: PerSide::from_fn(|side| start_squares(rules, side)),
            setup: own,
            fen: view.fen(),
            revealed: view
                .pieces()
                .filter(|(_, seen)| seen.revealed)
                .map(|(sq, _)| sq.to_string())
                .collect(),
            turn: SideName(view.side_to_move()),
            ply: view.history().len(),
            moves,
            positions: positions(view, setups),
            legal: view.legal_moves().iter().map(Move::to_string).collect(),
            unknown: PerSide::from_fn(|side| {
                view.unknown_animals(side)
                    .into_iter()
                    .map(Animal::letter)
                    .collect()
            }),
            thinking: facts.thinking,
            outcome: view.outcome().map(OutcomeView::of),
            setups: setups.map(|both| PerSide::from_fn(|side| both[side].to_string())),
        }
    }
}

fn start_squares(rules: &Rules, side: Side) -> Vec<String> {
    Arrangement::start_squares(rules, side)
        .into_iter()
        .map(|sq: Square| sq.to_string())
        .collect()
}

/// The view FEN before each move and after the last, as the viewer knew them; with every animal shown when the
/// game is over (`setups` given: the view then knows every animal, and each earlier position is shown with
/// them too).
fn positions(view: &View, setups: Option<&BySide<Arrangement>>) -> Vec<String> {
    let outcome = view.outcome();
    let mut fens = Vec::with_capacity(view.history().len() + 1);
    view.walk(|before, _| match (setups, outcome) {
        (Some(both), Some(outcome)) => {
            let mut shown = before.clone();
            // The view's own history fits these setups (the game's own), so this cannot fail; a view that
            // did not fit would keep what it knew.
            let _ = shown.finish(outcome, both);
            fens.push(shown.fen());
        }
        _ => fens.push(before.fen()),
    });
    fens.push(view.fen());
    fens
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_message_and_refuses_the_rest() {
        assert_eq!(
            ClientMessage::parse(r#"{"type":"setup","setup":"TLCDEWPR"}"#),
            Ok(ClientMessage::Setup {
                setup: Some("TLCDEWPR".into()),
                random: false
            })
        );
        assert_eq!(
            ClientMessage::parse(r#"{"type":"setup","random":true}"#),
            Ok(ClientMessage::Setup {
                setup: None,
                random: true
            })
        );
        assert_eq!(
            ClientMessage::parse(r#"{"type":"move","move":"a3a4"}"#),
            Ok(ClientMessage::Move { mv: "a3a4".into() })
        );
        for bad in [
            "",
            "{",
            r#"{"type":"offer_draw"}"#,
            r#"{"type":"setup","setup":5}"#,
            r#"{"type":"move","move":"a3a4","x":1}"#,
        ] {
            assert!(
                matches!(ClientMessage::parse(bad), Err(ProtocolError::Garbled(_))),
                "{bad}"
            );
        }
        let huge = format!(r#"{{"type":"setup","setup":"{}"}}"#, "T".repeat(2000));
        assert!(matches!(
            ClientMessage::parse(&huge),
            Err(ProtocolError::TooLarge(_))
        ));
    }
}
