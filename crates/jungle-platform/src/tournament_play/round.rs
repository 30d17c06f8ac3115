//! Writing a round the pairing decided: a game per board with the tournament's clock and rules, both seats
//! given to their accounts, rated through the ratings' own path when the tournament is rated (as a rated
//! lobby game is), created only if no other node created this round first; then the rooms are opened so the
//! clocks' waits start and the players find their games live.

use std::sync::Arc;

use jungle_rules::{BySide, Rules};

use super::TournamentError;
use super::record::{Record, category_of};
use crate::hub::{Hub, new_token};
use crate::lobby::game_between;
use crate::store::{RoundGame, now_ms};

/// Creates round `current_round + 1` of the record's tournament with `boards` (accounts, Blue first) and the
/// bye; whether this node created it (false: another node did first, or the tournament ended meanwhile).
///
/// # Errors
/// When the database fails or the ratings refuse a game (nothing is written then).
pub fn create(
    hub: &Arc<Hub>,
    record: &Record,
    boards: &[BySide<i64>],
    bye: Option<i64>,
) -> Result<bool, TournamentError> {
    let tournament = &record.tournament;
    let rules: Rules = tournament
        .rules
        .parse()
        .map_err(|e| TournamentError::Bad(format!("stored rules: {e}")))?;
    let name_of = |account: i64| {
        record
            .players
            .iter()
            .find(|p| p.user_id == account)
            .map_or_else(|| account.to_string(), |p| p.name.clone())
    };
    let now = now_ms();
    let games: Vec<RoundGame> = boards
        .iter()
        .map(|&players| {
            let tokens = BySide::new(new_token(), new_token());
            RoundGame {
                record: game_between(
                    &crate::hub::new_game_id(),
                    now,
                    &rules,
                    players.map(name_of),
                    &tokens,
                    Some((tournament.clock_initial_ms, tournament.clock_increment_ms)),
                ),
                players,
            }
        })
        .collect();
    let rated = tournament.rated.then(|| category_of(tournament));
    if !hub
        .store
        .create_round(&tournament.id, tournament.current_round, &games, bye, rated)?
    {
        return Ok(false);
    }
    for game in &games {
        match hub.room(&game.record.id) {
            Ok(Some(room)) => hub.after_change(&room),
            Ok(None) => {}
            // The game is stored: a later request or the unattended sweep opens its room.
            Err(e) => {
                tracing::error!(game = %game.record.id, error = %e, "a tournament game's room did not open")
            }
        }
    }
    tracing::info!(
        tournament = %tournament.id,
        round = tournament.current_round + 1,
        games = games.len(),
        "tournament round paired"
    );
    Ok(true)
}
