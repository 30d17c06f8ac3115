//! The websocket protocol: what a browser may send (JSON, one message per frame) and the small replies.
//!
//! Client → server: `{"type":"move","move":"a3a4"}`, `{"type":"resign"}`, `{"type":"offer_draw"}`,
//! `{"type":"decline_draw"}`, `{"type":"takeback"}`, `{"type":"ping"}`.
//! Server → client: `{"type":"welcome","seat":"blue"|"red"|null}` once, then `{"type":"state",...}` after every
//! change (the same text for every watcher of the game), `{"type":"error","message":...}` to the sender of a
//! refused message, and `{"type":"pong"}`.

use serde::Deserialize;

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
    Takeback,
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
}

/// The JSON of an error reply.
pub fn error_json(message: &str) -> String {
    serde_json::json!({ "type": "error", "message": message }).to_string()
}

/// The JSON of the greeting that tells a connection which seat (if any) it holds.
pub fn welcome_json(seat: Option<jungle_rules::Side>) -> String {
    serde_json::json!({ "type": "welcome", "seat": seat.map(crate::side_name) }).to_string()
}

pub const PONG_JSON: &str = r#"{"type":"pong"}"#;

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
