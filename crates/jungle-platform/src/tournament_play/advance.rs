//! Moving tournaments on: starting them at their start time, pairing the next Swiss round once every game of
//! the last one ended, pairing an arena's free players at once, and ending them. It runs at two moments:
//! right after a tournament game ends on this node ([`on_game_end`], from the hub's game-end listener), and
//! from a sweep every second on every node ([`sweep`]) for start times, an arena's end, games that ended on
//! another node and work a dead node left. Both may run at once on several nodes: every decision is taken by
//! the database (`Store::start_tournament`, `Store::create_round`, `Store::finish_tournament` change a row
//! only from the state they were read in), so each happens once.

use std::sync::Arc;

use jungle_rules::BySide;

use super::record::Record;
use super::{TournamentError, round};
use crate::hub::Hub;
use crate::store::{Tournament, TournamentKind, TournamentStatus, now_ms};
use crate::tournaments::{arena, swiss};

/// Starts, pairs or ends tournament `id` as its state and the time call for; a finished or unknown one is
/// left alone.
///
/// # Errors
/// When the database fails.
pub fn advance(hub: &Arc<Hub>, id: &str) -> Result<(), TournamentError> {
    let now = now_ms();
    let Some(mut tournament) = hub.store.tournament(id)? else {
        return Ok(());
    };
    match tournament.status {
        TournamentStatus::Finished => return Ok(()),
        TournamentStatus::Upcoming if tournament.starts_at > now => return Ok(()),
        TournamentStatus::Upcoming => {
            hub.store.start_tournament(id, now)?;
            // Read again: whoever started it, its state is the database's.
            match hub.store.tournament(id)? {
                Some(t) => tournament = t,
                None => return Ok(()),
            }
        }
        TournamentStatus::Running => {}
    }
    if tournament.status != TournamentStatus::Running || !may_move(hub, &tournament, now)? {
        return Ok(());
    }
    let record = Record::load(&hub.store, tournament)?;
    match record.tournament.kind {
        TournamentKind::Swiss { rounds } => advance_swiss(hub, &record, rounds, now),
        TournamentKind::Arena { .. } => advance_arena(hub, &record, now),
    }
}

/// Whether a running tournament may have something to do, from its games and players alone: the sweep asks
/// every second for every running tournament, and most of the time the answer is no, without reading every
/// player's rating (which the pairing needs). A Swiss round being played, or an arena with fewer than two
/// free players before its end or games still running after it, waits.
fn may_move(hub: &Hub, t: &Tournament, now: i64) -> Result<bool, TournamentError> {
    let games = hub.store.tournament_games(&t.id)?;
    let busy = |account: i64| {
        games.iter().any(|g| {
            g.finished_at.is_none() && (g.players.blue == account || g.players.red == account)
        })
    };
    Ok(match t.kind {
        TournamentKind::Swiss { .. } => !games.iter().any(|g| g.finished_at.is_none()),
        TournamentKind::Arena { .. } if t.ends_at().is_some_and(|end| now >= end) => {
            !games.iter().any(|g| g.finished_at.is_none())
        }
        TournamentKind::Arena { .. } => {
            let players = hub.store.tournament_players(&t.id)?;
            players
                .iter()
                .filter(|p| p.active && !busy(p.user_id))
                .count()
                >= 2
        }
    })
}

/// A Swiss event: the next round once the last one is over, or the end after the last round (or when no
/// pairing without a repeat is left, or fewer than two players remain).
fn advance_swiss(
    hub: &Arc<Hub>,
    record: &Record,
    rounds: u32,
    now: i64,
) -> Result<(), TournamentError> {
    let t: &Tournament = &record.tournament;
    if record.unfinished().next().is_some() {
        return Ok(());
    }
    let active: Vec<(u64, u32)> = record
        .players
        .iter()
        .filter(|p| p.active)
        .map(|p| {
            (
                super::record::player_id(p.user_id),
                record.rating(p.user_id),
            )
        })
        .collect();
    if t.current_round >= rounds || active.len() < 2 {
        finish(hub, t, now)?;
        return Ok(());
    }
    let players = record.crosstable().players(&active);
    let pairing = match swiss::pair(&players) {
        Ok(pairing) => pairing,
        Err(e) => {
            // Every pairing would repeat a game: the event has run out of rounds.
            tracing::info!(tournament = %t.id, error = %e, "Swiss event ends early");
            finish(hub, t, now)?;
            return Ok(());
        }
    };
    let account = |id: u64| i64::try_from(id).unwrap_or_default();
    let boards: Vec<BySide<i64>> = pairing
        .boards
        .iter()
        .map(|b| BySide::new(account(b.blue), account(b.red)))
        .collect();
    round::create(hub, record, &boards, pairing.bye.map(account))?;
    Ok(())
}

/// An arena: its free players paired at once until its end; then, once its last games are over, the end.
fn advance_arena(hub: &Arc<Hub>, record: &Record, now: i64) -> Result<(), TournamentError> {
    let t = &record.tournament;
    if t.ends_at().is_some_and(|end| now >= end) {
        // No new pairings; the games still running count when they end.
        if record.unfinished().next().is_none() {
            finish(hub, t, now)?;
        }
        return Ok(());
    }
    let free = record.free_players();
    if free.len() < 2 {
        return Ok(());
    }
    let account = |id: u64| i64::try_from(id).unwrap_or_default();
    let boards: Vec<BySide<i64>> = arena::pair(&free)
        .into_iter()
        .map(|(a, b)| {
            let (a, b) = (account(a), account(b));
            // Blue to whoever has had it less often, so colours stay balanced.
            let (a_blue, _) = record.colours(a);
            let (b_blue, _) = record.colours(b);
            if a_blue <= b_blue {
                BySide::new(a, b)
            } else {
                BySide::new(b, a)
            }
        })
        .collect();
    if !boards.is_empty() {
        round::create(hub, record, &boards, None)?;
    }
    Ok(())
}

fn finish(hub: &Hub, t: &Tournament, now: i64) -> Result<(), TournamentError> {
    if hub.store.finish_tournament(&t.id, now)? {
        tracing::info!(tournament = %t.id, "tournament finished");
    }
    Ok(())
}

/// The hub's game-end listener: if the game belongs to a tournament, its next pairing is made now rather
/// than at the next sweep (and an arena player who never came to it is paused first).
pub fn on_game_end(hub: &Arc<Hub>, game_id: &str) {
    let found = match hub.store.tournament_of_game(game_id) {
        Ok(found) => found,
        Err(e) => {
            tracing::error!(game = %game_id, error = %e, "could not read a game's tournament");
            return;
        }
    };
    let Some((id, _)) = found else { return };
    if let Err(e) = pause_no_show(hub, &id, game_id) {
        tracing::error!(tournament = %id, error = %e, "an absent arena player was not paused");
    }
    if let Err(e) = advance(hub, &id) {
        tracing::error!(tournament = %id, error = %e, "a tournament did not move on after a game");
    }
}

/// An arena game aborted because a side never made its first move (its player left the page without leaving
/// the arena): that player is taken out as if they had left, so they are not paired again and again with
/// players who wait for them; joining again brings them back. Told by the node that stored the abort (the
/// only one whose listener hears it), so it happens once. Blue moves first: no move means Blue was away,
/// one move Red.
fn pause_no_show(hub: &Hub, id: &str, game_id: &str) -> Result<(), TournamentError> {
    let Some(tournament) = hub.store.tournament(id)? else {
        return Ok(());
    };
    if !matches!(tournament.kind, TournamentKind::Arena { .. }) {
        return Ok(());
    }
    let Some(game) = hub
        .store
        .tournament_games(id)?
        .into_iter()
        .find(|g| g.id == game_id)
    else {
        return Ok(());
    };
    let away = match (game.aborted(), game.plies) {
        (true, 0) => game.players.blue,
        (true, 1) => game.players.red,
        _ => return Ok(()),
    };
    hub.store.set_tournament_player_active(id, away, false)?;
    Ok(())
}

/// Every node's periodic pass over the tournaments that are due or running.
pub fn sweep(hub: &Arc<Hub>) {
    let due = match hub.store.tournaments_due(now_ms()) {
        Ok(due) => due,
        Err(e) => {
            tracing::error!(error = %e, "the tournament sweep could not read the tournaments");
            return;
        }
    };
    for id in due {
        if let Err(e) = advance(hub, &id) {
            tracing::error!(tournament = %id, error = %e, "a tournament did not move on");
        }
    }
}
