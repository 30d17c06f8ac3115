//! The websocket protocol: what a browser may send (JSON, one message per frame) and the small replies.
//!
//! Client → server: `{"type":"move","move":"a3a4"}`, `{"type":"resign"}`, `{"type":"offer_draw"}`,
//! `{"type":"decline_draw"}`, `{"type":"takeback"}` (between people: ask, or accept the opponent's request),
//! `{"type":"decline_takeback"}`, `{"type":"abort"}`, `{"type":"claim_win"}`, `{"type":"claim_draw"}`,
//! `{"type":"ping"}`.
//! Server → client ([`ServerMessage`]): `{"type":"welcome","seat":"blue"|"red"|null}` once, then
//! `{"type":"state",...}` ([`Snapshot`]) after every change (the same text for every watcher of the game),
//! `{"type":"error","message":...}` to the sender of a refused message, `{"type":"notice","event":...,"by":...,
//! "text":...}` for news such as a declined draw, `{"type":"pong"}`, and `{"type":"heartbeat"}` after 4 s with
//! nothing else sent (the connection loop sends it, `jungle-server`'s `shared::arrival`: a page takes a silent
//! connection for dead).

use std::sync::Arc;

use jungle_rules::{Animal, Rules, Side};
use serde::{Deserialize, Serialize, Serializer};

pub use crate::store::PerSide;

/// The largest message a client may send; a move is about 30 bytes.
pub const MAX_MESSAGE_BYTES: usize = 1024;

/// A message from a browser.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    Move {
        #[serde(rename = "move")]
        mv: String,
    },
    Resign,
    OfferDraw,
    DeclineDraw,
    /// Against the engine: take back at once. Between people: ask the opponent, or accept their request.
    Takeback,
    DeclineTakeback,
    Abort,
    /// The opponent has been gone long enough: end the game as a win for the sender, or as a draw.
    ClaimWin,
    ClaimDraw,
    Ping,
}

/// Why a message from a browser was not understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    #[error("message of {0} bytes is too large (at most {MAX_MESSAGE_BYTES})")]
    TooLarge(usize),
    #[error("unreadable message: {0}")]
    Garbled(String),
    #[error("binary messages are not accepted; send JSON text")]
    Binary,
}

impl ClientMessage {
    /// Reads one message, refusing oversized and malformed ones.
    ///
    /// # Errors
    /// [`ProtocolError::TooLarge`] past [`MAX_MESSAGE_BYTES`], [`ProtocolError::Garbled`] for anything that is
    /// not one of the messages above.
    pub fn parse(text: &str) -> Result<ClientMessage, ProtocolError> {
        if text.len() > MAX_MESSAGE_BYTES {
            return Err(ProtocolError::TooLarge(text.len()));
        }
        serde_json::from_str(text).map_err(|e| ProtocolError::Garbled(e.to_string()))
    }

    /// The message's `type`, as it is sent (for logs).
    pub fn kind(&self) -> &'static str {
        match self {
            ClientMessage::Move { .. } => "move",
            ClientMessage::Resign => "resign",
            ClientMessage::OfferDraw => "offer_draw",
            ClientMessage::DeclineDraw => "decline_draw",
            ClientMessage::Takeback => "takeback",
            ClientMessage::DeclineTakeback => "decline_takeback",
            ClientMessage::Abort => "abort",
            ClientMessage::ClaimWin => "claim_win",
            ClientMessage::ClaimDraw => "claim_draw",
            ClientMessage::Ping => "ping",
        }
    }
}

/// A side as the protocol writes it: `"blue"` or `"red"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideName(pub Side);

impl Serialize for SideName {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(crate::side_name(self.0))
    }
}

/// A message to a browser. Serialized with its kind in `type`: `{"type":"welcome","seat":"blue"}`.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage<'a> {
    /// Once, first: the seat the connection's cookie holds (`null`: watching).
    Welcome {
        seat: Option<SideName>,
    },
    /// After every change, the same to every watcher.
    State(&'a Snapshot),
    /// To the sender of a refused message (the game is unchanged).
    Error {
        message: &'a str,
    },
    /// News that is not an error and not in the state: `draw_declined` (to everyone in the room when a player
    /// declines, to the player when the engine does).
    Notice {
        event: &'static str,
        by: Option<SideName>,
        text: String,
    },
    Pong,
}

impl ServerMessage<'_> {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("server messages are plain data")
    }
}

/// The whole state of a game as every watcher sees it.
#[derive(Clone, Debug, Serialize)]
pub struct Snapshot {
    pub id: String,
    /// `engine`, `friend` or `import`.
    pub mode: &'static str,
    /// The canonical rule option string (docs/rules.md).
    pub rules: Arc<str>,
    /// The board those rules play on: ranks and terrain, so the page draws what is in force.
    pub board: Arc<BoardView>,
    pub start_fen: Arc<str>,
    pub fen: String,
    /// The moves played, shared with the room that keeps them written (`Arc`s: a state is made per change).
    pub moves: Arc<Vec<String>>,
    /// The same moves in animal notation (`Ea3-a4`, `Rg6xg7`), for people.
    pub animal_moves: Arc<Vec<String>>,
    pub ply: usize,
    pub turn: SideName,
    /// The legal moves of the side to move (none once the game is over).
    pub legal: Vec<String>,
    pub players: PerSide<String>,
    pub seats_taken: PerSide<bool>,
    pub engine: Option<EngineView>,
    pub clock: Option<ClockView>,
    pub outcome: Option<OutcomeView>,
    pub draw_offer: Option<SideName>,
    /// The player who asked to take moves back, while the opponent has not answered (games between people).
    pub takeback_request: Option<SideName>,
    pub thinking: bool,
    /// Connections watching without a seat.
    pub spectators: usize,
    /// The id of the rematch, once a player asked for one.
    pub rematch: Option<String>,
    /// For a player with no connection in a game under way: the milliseconds until the opponent may claim
    /// the game (0: now); `null` while connected (and for the engine, a free seat, a finished game).
    pub away: PerSide<Option<u64>>,
    /// A correspondence game's days per move and the moment (Unix ms) the side to move runs out.
    pub correspondence: Option<crate::store::Correspondence>,
}

/// What the rules make of the board: each animal's capture rank and where the terrain lies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardView {
    /// The rank each animal captures with, by its lowercase FEN letter (`{"e":8,"l":7,...}`); under
    /// `modern` the Lion and Tiger share a rank, under `wolf-over-dog` the Wolf outranks the Dog. Animals
    /// not in play are left out.
    pub ranks: std::collections::BTreeMap<char, u8>,
    /// The water squares (none on the Animal Checkers board).
    pub water: Vec<String>,
    /// Each side's traps (around its own den).
    pub traps: PerSide<Vec<String>>,
    pub dens: PerSide<String>,
}

impl BoardView {
    pub fn of(rules: &Rules) -> BoardView {
        let squares = |board: jungle_rules::Bitboard| board.map(|sq| sq.to_string()).collect();
        BoardView {
            ranks: Animal::ALL
                .into_iter()
                .filter(|&animal| rules.in_play(animal))
                .map(|animal| (animal.letter().to_ascii_lowercase(), rules.rank(animal)))
                .collect(),
            water: squares(rules.water()),
            traps: PerSide::from_fn(|side| squares(rules.traps_of(side))),
            dens: PerSide::from_fn(|side| jungle_rules::terrain::DENS.get(side).to_string()),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EngineView {
    pub level: u8,
    pub side: SideName,
}

/// Both clocks in milliseconds at the moment the snapshot was taken, and which one is running.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClockView {
    pub blue_ms: u64,
    pub red_ms: u64,
    pub running: Option<SideName>,
    pub increment_ms: u64,
    /// The time each side started with (with the increment: the time control the pages show).
    pub initial_ms: u64,
}

/// How the game ended: `reason` is the termination (`resignation`, `time forfeit`, … or `aborted`),
/// `result` the PGN result (`1-0`, `0-1`, `1/2-1/2`, `*` when aborted), `text` a sentence for people.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OutcomeView {
    pub winner: Option<SideName>,
    pub reason: &'static str,
    pub result: &'static str,
    pub text: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_message() {
        assert_eq!(
            ClientMessage::parse(r#"{"type":"move","move":"a3a4"}"#),
            Ok(ClientMessage::Move { mv: "a3a4".into() })
        );
        assert_eq!(
            ClientMessage::parse(r#"{"type":"resign"}"#),
            Ok(ClientMessage::Resign)
        );
        assert_eq!(
            ClientMessage::parse(r#"{"type":"takeback"}"#),
            Ok(ClientMessage::Takeback)
        );
    }

    #[test]
    fn refuses_garbled_unknown_and_oversized_messages() {
        for bad in [
            "",
            "move a3a4",
            "{",
            r#"{"type":"castle"}"#,
            r#"{"type":"move"}"#,
            r#"{"type":"move","move":5}"#,
        ] {
            assert!(
                matches!(ClientMessage::parse(bad), Err(ProtocolError::Garbled(_))),
                "{bad}"
            );
        }
        let huge = format!(r#"{{"type":"move","move":"{}"}}"#, "a".repeat(2000));
        assert!(matches!(
            ClientMessage::parse(&huge),
            Err(ProtocolError::TooLarge(_))
        ));
    }
}

#[cfg(test)]
mod server_message_tests {
    use super::*;

    #[test]
    fn messages_carry_their_type() {
        assert_eq!(
            ServerMessage::Welcome {
                seat: Some(SideName(Side::Red))
            }
            .to_json(),
            r#"{"type":"welcome","seat":"red"}"#
        );
        assert_eq!(ServerMessage::Pong.to_json(), r#"{"type":"pong"}"#);
        assert_eq!(
            ServerMessage::Error { message: "no" }.to_json(),
            r#"{"type":"error","message":"no"}"#
        );
    }

    #[test]
    fn the_board_view_follows_the_rules() {
        let standard = BoardView::of(&Rules::default());
        assert_eq!(standard.ranks[&'l'], 7);
        assert_eq!(standard.ranks[&'t'], 6);
        assert_eq!(standard.water.len(), 12);
        let mut traps = standard.traps.blue.clone();
        traps.sort();
        assert_eq!(traps, ["c1", "d2", "e1"]);
        assert_eq!(standard.dens.red, "d9");
        let modern = BoardView::of(&"modern".parse().unwrap());
        assert_eq!(modern.ranks[&'l'], modern.ranks[&'t']);
        let wolf: Rules = "wolf-over-dog=true".parse().unwrap();
        let wolf = BoardView::of(&wolf);
        assert!(wolf.ranks[&'w'] > wolf.ranks[&'d']);
        let checkers = BoardView::of(&"animal-checkers".parse().unwrap());
        assert!(checkers.water.is_empty() && checkers.traps.blue.is_empty());
    }
}
