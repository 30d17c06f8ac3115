//! Creating a tournament, joining it and leaving it. An arena may be joined until it ends and left and
//! rejoined at will (a player who left is not paired); a Swiss event is joined before it starts, and left
//! before it starts (the entry is removed) or withdrawn from once it runs (no more pairings, the games played
//! still count).

use std::sync::Arc;

use super::terms::{CreateRequest, LIMITS};
use super::{TournamentError, clip};
use crate::accounts::Account;
use crate::hub::{Hub, new_token};
use crate::store::{Joined, Tournament, TournamentKind, TournamentStatus, now_ms};

/// A day, in ms: the window of [`LIMITS`]'s tournaments per account per day.
const DAY_MS: i64 = 24 * 3_600_000;

/// Creates a tournament; its creator is entered in it.
///
/// # Errors
/// [`TournamentError::Bad`] for a bad field, [`TournamentError::TooMany`] past an account's limits.
pub fn create(
    hub: &Arc<Hub>,
    creator: &Account,
    request: &CreateRequest,
) -> Result<Tournament, TournamentError> {
    let now = now_ms();
    let terms = request.check(
        now,
        hub.limits.min_clock.as_millis() as u64,
        hub.limits.min_arena.as_millis() as u64,
    )?;
    let (today, open) = hub.store.tournaments_created_by(creator.id, now - DAY_MS)?;
    if open >= LIMITS.open_per_account {
        return Err(TournamentError::TooMany(format!(
            "you have {open} tournaments not yet finished: wait for one to end"
        )));
    }
    if today >= LIMITS.per_account_per_day {
        return Err(TournamentError::TooMany(format!(
            "you created {today} tournaments today: the most is {}",
            LIMITS.per_account_per_day
        )));
    }
    let tournament = Tournament {
        // Random like a game id, so that ids cannot be guessed or enumerated.
        id: new_token()[..10].to_string(),
        name: terms.name,
        creator_id: creator.id,
        creator_name: creator.name.clone(),
        rules: terms.rules,
        clock_initial_ms: terms.clock_initial_ms,
        clock_increment_ms: terms.clock_increment_ms,
        kind: terms.kind,
        starts_at: terms.starts_at,
        rated: terms.rated,
        status: TournamentStatus::Upcoming,
        current_round: 0,
        created_at: now,
        finished_at: None,
    };
    hub.store.insert_tournament(&tournament)?;
    hub.store.join_tournament(
        &tournament.id,
        creator.id,
        &creator.name,
        now,
        LIMITS.players,
    )?;
    // A tournament that starts now is started at once rather than at the next sweep.
    super::advance(hub, &tournament.id)?;
    find(hub, &tournament.id)
}

/// The tournament `id`.
///
/// # Errors
/// [`TournamentError::NoTournament`].
pub fn find(hub: &Hub, id: &str) -> Result<Tournament, TournamentError> {
    hub.store
        .tournament(id)?
        .ok_or_else(|| TournamentError::NoTournament(clip(id)))
}

/// Enters `player` (an arena player who had left is back in and may be paired at once).
///
/// # Errors
/// [`TournamentError::NoTournament`]; [`TournamentError::Refused`] when it is finished, a Swiss event has
/// started, the player is in already, or it is full.
pub fn join(hub: &Arc<Hub>, player: &Account, id: &str) -> Result<(), TournamentError> {
    let tournament = find(hub, id)?;
    let refused = |text: &str| Err(TournamentError::Refused(text.into()));
    match (tournament.status, tournament.kind) {
        (TournamentStatus::Finished, _) => return refused("this tournament is over"),
        (TournamentStatus::Running, TournamentKind::Swiss { .. }) => {
            return refused("this Swiss event has started: entries are closed");
        }
        _ => {}
    }
    match hub
        .store
        .join_tournament(id, player.id, &player.name, now_ms(), LIMITS.players)?
    {
        Joined::Entered => {}
        Joined::AlreadyIn => return refused("you are in this tournament already"),
        Joined::Full => {
            return Err(TournamentError::Refused(format!(
                "this tournament is full ({} players)",
                LIMITS.players
            )));
        }
    }
    super::advance(hub, id)?;
    Ok(())
}

/// Takes `player` out: of an arena until they join again, of a Swiss event for good once it runs.
///
/// # Errors
/// [`TournamentError::NoTournament`]; [`TournamentError::Refused`] when the player is not in it or it is
/// over.
pub fn leave(hub: &Hub, player: &Account, id: &str) -> Result<(), TournamentError> {
    let tournament = find(hub, id)?;
    if tournament.status == TournamentStatus::Finished {
        return Err(TournamentError::Refused("this tournament is over".into()));
    }
    let left = match (tournament.status, tournament.kind) {
        (TournamentStatus::Upcoming, TournamentKind::Swiss { .. }) => {
            hub.store.remove_tournament_player(id, player.id)?
        }
        _ => hub
            .store
            .set_tournament_player_active(id, player.id, false)?,
    };
    if !left {
        return Err(TournamentError::Refused(
            "you are not in this tournament".into(),
        ));
    }
    Ok(())
}
