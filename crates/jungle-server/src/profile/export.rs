//! `GET /api/users/NAME/games.pgn`: every finished game of a player as one PGN file, oldest first, streamed a
//! page of games at a time so a long career never sits in memory at once.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};

use crate::games::pgn_text;
use crate::shared::error::ApiError;
use crate::{AppState, Hub};

/// Games read and written per step of the stream.
const GAMES_PER_CHUNK: u32 = 50;

/// A game's place in the export's order: its finish time and id.
type Cursor = (i64, String);

pub(super) async fn pgn(
    State(hub): State<AppState>,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    let account = super::account_named(&hub, &name)?;
    let user_id = account.id;
    // The cursor: the last game written (finish time, id); `None` before the first and after the last page.
    let start: Option<Option<Cursor>> = Some(None);
    let chunks = futures_util::stream::unfold(start, move |cursor| {
        let hub = hub.clone();
        async move {
            let after = cursor?;
            match chunk(&hub, user_id, after.as_ref()) {
                Ok(None) => None,
                Ok(Some((text, last))) => Some((Ok(text), Some(Some(last)))),
                Err(e) => {
                    tracing::error!(error = %e, "PGN export failed");
                    Some((Err(std::io::Error::other(e.to_string())), None))
                }
            }
        }
    });
    // Account names are letters, digits, _ and -; anything else stays out of the header regardless.
    let safe_name: String = account
        .name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .collect();
    let filename = format!("jungle-{safe_name}.pgn");
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{filename}\""),
            ),
        ],
        Body::from_stream(chunks),
    )
        .into_response())
}

/// The PGN of the player's next games after `after`, and the last of them; `None` when there are no more.
fn chunk(
    hub: &Arc<Hub>,
    user_id: i64,
    after: Option<&Cursor>,
) -> Result<Option<(String, Cursor)>, crate::StoreError> {
    let ids = hub
        .store
        .player_game_ids_after(user_id, after, GAMES_PER_CHUNK)?;
    let Some(last) = ids.last().cloned() else {
        return Ok(None);
    };
    let mut text = String::new();
    for (_, id) in &ids {
        let Some(record) = hub.store.game(id)? else {
            continue;
        };
        let moves = hub.store.moves(id)?;
        // A game whose record no longer replays is left out of the export (its page says why).
        let Ok(state) =
            jungle_platform::room::open::room_state(&record, &moves, hub.limits.claim_after)
        else {
            continue;
        };
        match pgn_text(
            &state,
            Some(record.created_at),
            jungle_rules::Notation::default(),
        ) {
            Ok(pgn) => {
                text.push_str(&pgn);
                if !pgn.ends_with('\n') {
                    text.push('\n');
                }
                text.push('\n');
            }
            Err(e) => tracing::warn!(game = %id, error = %e, "a game left out of a PGN export"),
        }
    }
    Ok(Some((text, last)))
}
