//! The lobby: open challenges (seeks) between accounts, direct challenges, quick pairing, and the games they
//! make. Everything is in the database, not in one server's memory, so several servers on one database share
//! one lobby; accepting a seek is decided by the database (see `Store::pair`), so two people accepting one seek
//! make exactly one game.
//!
//! Seeks need an account (a rating, a name to show, a seat to find again from any device); guests keep friend
//! links and engine games.

pub mod rating;
pub mod seek;

use std::sync::Arc;

use jungle_rules::{BySide, Position, Rules, Side};
use rand::Rng;
use serde::Serialize;

use crate::accounts::Account;
use crate::hub::{Hub, HubError, new_token};
use crate::store::Correspondence;
use crate::store::{GameRecord, LiveGame, MarkRatedError, Pairing, StoreError, Taken, now_ms};
use seek::{Colour, MAX_OPEN_SEEKS, QUICK_PAIRINGS, Seek, SeekRequest, TimeControl};

/// Why a lobby action was refused (nothing was changed).
#[derive(Debug, thiserror::Error)]
pub enum LobbyError {
    #[error("{0}")]
    Bad(String),
    #[error("no seek \"{0}\": it was cancelled, it expired, or it is not meant for you")]
    NoSeek(String),
    #[error("already taken: someone else accepted this seek first")]
    AlreadyTaken,
    #[error("{0}")]
    Refused(String),
    #[error("you have {MAX_OPEN_SEEKS} open seeks: cancel one first")]
    TooManySeeks,
    #[error(transparent)]
    Hub(#[from] HubError),
}

impl From<StoreError> for LobbyError {
    fn from(e: StoreError) -> LobbyError {
        LobbyError::Hub(HubError::Store(e))
    }
}

/// The ratings module refuses to rate the game a rated seek would make (the seek's checks should have
/// refused it first): the pairing is not made, and the player is told why.
impl From<MarkRatedError> for LobbyError {
    fn from(e: MarkRatedError) -> LobbyError {
        match e {
            MarkRatedError::Store(e) => e.into(),
            refused => LobbyError::Refused(refused.to_string()),
        }
    }
}

/// A game the lobby made, for one of its players: where to go and the player's seat and its token.
#[derive(Clone, Debug)]
pub struct Seat {
    pub game_id: String,
    pub side: Side,
    pub token: String,
}

/// What quick pairing did: paired with an open seek, or opened one and waits.
#[derive(Clone, Debug)]
pub enum Quick {
    Paired(Seat),
    Waiting(Seek),
}

/// The id of a new seek: like a game id, random, so ids cannot be guessed or enumerated.
fn new_seek_id() -> String {
    new_token()[..12].to_string()
}

/// Opens a seek for `creator`.
///
/// # Errors
/// [`LobbyError::Bad`] for a bad field or an unknown opponent, [`LobbyError::TooManySeeks`].
pub fn create_seek(
    hub: &Hub,
    creator: &Account,
    request: &SeekRequest,
) -> Result<Seek, LobbyError> {
    let terms = request.check(hub.limits.min_clock.as_millis() as u64)?;
    let now = now_ms();
    if hub.store.open_seeks_of(creator.id, now)? >= MAX_OPEN_SEEKS {
        return Err(LobbyError::TooManySeeks);
    }
    let target = match request.opponent.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(name) => {
            let found = hub
                .store
                .account_by_name(name)?
                .ok_or_else(|| LobbyError::Bad(format!("no player named \"{}\"", clip(name))))?;
            if found.id == creator.id {
                return Err(LobbyError::Bad("you cannot challenge yourself".into()));
            }
            Some(found)
        }
    };
    let seek = Seek {
        id: new_seek_id(),
        created_at: now,
        creator_id: creator.id,
        creator_name: creator.name.clone(),
        rules: terms.rules,
        time: terms.time,
        rated: terms.rated,
        colour: terms.colour,
        rating_min: terms.rating_min,
        rating_max: terms.rating_max,
        target_id: target.as_ref().map(|t| t.id),
        target_name: target.map(|t| t.name),
        declined: false,
    };
    hub.store.insert_seek(&seek)?;
    Ok(seek)
}

/// At most this much of a name the user typed is repeated in an error.
fn clip(text: &str) -> String {
    text.chars().take(30).collect()
}

/// Cancels a seek of `creator` (or dismisses a declined challenge).
///
/// # Errors
/// [`LobbyError::NoSeek`] when the creator has no such seek.
pub fn cancel_seek(hub: &Hub, creator: &Account, id: &str) -> Result<(), LobbyError> {
    if hub.store.delete_seek(id, creator.id)? {
        Ok(())
    } else {
        Err(LobbyError::NoSeek(clip(id)))
    }
}

/// The target of a direct challenge declines it.
///
/// # Errors
/// [`LobbyError::NoSeek`] when there is no such challenge for this account.
pub fn decline(hub: &Hub, target: &Account, id: &str) -> Result<(), LobbyError> {
    if hub.store.decline_seek(id, target.id)? {
        Ok(())
    } else {
        Err(LobbyError::NoSeek(clip(id)))
    }
}

/// `acceptor` accepts a seek: the game is made and both players have a seat in it. Returns the acceptor's.
///
/// # Errors
/// [`LobbyError::AlreadyTaken`] when someone else was first (or it was cancelled meanwhile),
/// [`LobbyError::NoSeek`], [`LobbyError::Refused`] for a rating outside the seek's range or one's own seek.
pub fn accept(hub: &Arc<Hub>, acceptor: &Account, id: &str) -> Result<Seat, LobbyError> {
    let now = now_ms();
    let Some(seek) = hub.store.seek(id, now)?.filter(|s| {
        s.target_id
            .is_none_or(|t| t == acceptor.id || s.creator_id == acceptor.id)
    }) else {
        // Gone: say "taken" when it was (the late one of two accepting at once), else that it is not there.
        return Err(if hub.store.seek_was_paired(id)? {
            LobbyError::AlreadyTaken
        } else {
            LobbyError::NoSeek(clip(id))
        });
    };
    if seek.creator_id == acceptor.id {
        return Err(LobbyError::Refused("this is your own seek".into()));
    }
    if seek.declined {
        return Err(LobbyError::NoSeek(clip(id)));
    }
    let acceptor_rating = rating::rating_of(&hub.store, acceptor.id, seek.time)?;
    if !seek.admits(acceptor_rating) {
        return Err(LobbyError::Refused(format!(
            "your rating {} is outside this seek's range {}",
            acceptor_rating,
            range_text(&seek)
        )));
    }
    let creator_side = match seek.colour {
        Colour::Blue => Side::Blue,
        Colour::Red => Side::Red,
        Colour::Random if rand::rng().random::<bool>() => Side::Blue,
        Colour::Random => Side::Red,
    };
    let players = by_side(creator_side, seek.creator_id, acceptor.id);
    let names = by_side(
        creator_side,
        seek.creator_name.clone(),
        acceptor.name.clone(),
    );
    let tokens = BySide::new(new_token(), new_token());
    let rules: Rules = seek
        .rules
        .parse()
        .map_err(|e| LobbyError::Bad(format!("rules: {e}")))?;
    let (clock_initial_ms, clock_increment_ms, correspondence) = match seek.time {
        TimeControl::Clock {
            initial_ms,
            increment_ms,
        } => (Some(initial_ms), Some(increment_ms), None),
        TimeControl::Correspondence { days_per_move } => (
            None,
            None,
            Some(Correspondence::starting(days_per_move, now)),
        ),
    };
    let game_id = crate::hub::new_game_id();
    let clock = clock_initial_ms.map(|initial| (initial, clock_increment_ms.unwrap_or(0)));
    let record = game_between(&game_id, now, &rules, names, &tokens, clock);
    let pairing = Pairing {
        game_id: game_id.clone(),
        seek_id: seek.id.clone(),
        created_at: now,
        players,
        correspondence,
    };
    match hub.store.pair(
        &seek.id,
        acceptor.id,
        now,
        &record,
        &pairing,
        seek.rated.then(|| rating::category_of(seek.time)),
    )? {
        Taken::Gone => return Err(LobbyError::AlreadyTaken),
        Taken::Paired => {}
    }
    // Open the room now: the wait for the first moves starts, and both players find it live.
    if let Some(room) = hub.room(&game_id)? {
        hub.after_change(&room);
    }
    let side = creator_side.opponent();
    Ok(Seat {
        game_id,
        side,
        token: tokens.get(side).clone(),
    })
}

/// The record of a new game between two accounts from the start position, both seats taken (their tokens):
/// what a seek makes, and a tournament's pairing.
pub(crate) fn game_between(
    game_id: &str,
    now: i64,
    rules: &Rules,
    names: BySide<String>,
    tokens: &BySide<String>,
    clock: Option<(u64, u64)>,
) -> GameRecord {
    GameRecord {
        id: game_id.to_string(),
        created_at: now,
        mode: "friend".to_string(),
        rules: rules.to_string(),
        start_fen: jungle_rules::fen::to_fen(&Position::start(rules)),
        engine_level: None,
        engine_side: None,
        blue_token: Some(tokens.blue.clone()),
        red_token: Some(tokens.red.clone()),
        blue_name: Some(names.blue),
        red_name: Some(names.red),
        clock_initial_ms: clock.map(|c| c.0),
        clock_increment_ms: clock.map(|c| c.1),
        result: None,
        winner: None,
        termination: None,
        finished_at: None,
    }
}

/// The creator's and the acceptor's something, by side.
fn by_side<T>(creator_side: Side, creator: T, acceptor: T) -> BySide<T> {
    match creator_side {
        Side::Blue => BySide::new(creator, acceptor),
        Side::Red => BySide::new(acceptor, creator),
    }
}

/// The `min–max` of a seek's rating range, for messages.
fn range_text(seek: &Seek) -> String {
    let end = |v: Option<i32>| v.map(|v| v.to_string()).unwrap_or_default();
    format!("{}–{}", end(seek.rating_min), end(seek.rating_max))
}

/// Quick pairing at `minutes + increment` (one of [`QUICK_PAIRINGS`]): accepts the oldest open seek that
/// matches (same clock, standard rules, rated, public, open to the player's rating), or opens such a seek. A
/// player already waiting at this time control keeps their seek.
///
/// # Errors
/// [`LobbyError::Bad`] for a time control not offered; as [`create_seek`] and [`accept`] otherwise.
pub fn quick_pair(
    hub: &Arc<Hub>,
    player: &Account,
    minutes: u32,
    increment: u32,
) -> Result<Quick, LobbyError> {
    if !QUICK_PAIRINGS.contains(&(minutes, increment)) {
        return Err(LobbyError::Bad(format!(
            "quick pairing is offered at {}",
            QUICK_PAIRINGS.map(|(m, i)| format!("{m}+{i}")).join(", ")
        )));
    }
    let time = TimeControl::Clock {
        initial_ms: u64::from(minutes) * 60_000,
        increment_ms: u64::from(increment) * 1000,
    };
    let mine = rating::rating_of(&hub.store, player.id, time)?;
    let seeks = hub.store.seeks_for(Some(player.id), now_ms(), LIST_LIMIT)?;
    let standard = Rules::default().to_string();
    let fits = |s: &&Seek| {
        s.time == time && s.rated && s.rules == standard && s.target_id.is_none() && !s.declined
    };
    if let Some(waiting) = seeks
        .iter()
        .filter(fits)
        .find(|s| s.creator_id == player.id)
    {
        return Ok(Quick::Waiting(waiting.clone()));
    }
    for seek in seeks.iter().filter(fits).filter(|s| s.admits(mine)) {
        match accept(hub, player, &seek.id) {
            Ok(seat) => return Ok(Quick::Paired(seat)),
            // Someone else was quicker: try the next one.
            Err(LobbyError::AlreadyTaken | LobbyError::NoSeek(_)) => continue,
            Err(e) => return Err(e),
        }
    }
    let request = SeekRequest {
        minutes: Some(f64::from(minutes)),
        increment: Some(increment),
        rated: true,
        ..SeekRequest::default()
    };
    Ok(Quick::Waiting(create_seek(hub, player, &request)?))
}

/// A player's seat in a game the lobby made (from any device: the account is the key).
///
/// # Errors
/// [`LobbyError::Refused`] when the account does not play in that game.
pub fn seat(hub: &Hub, player: &Account, game_id: &str) -> Result<Seat, LobbyError> {
    let refused = || LobbyError::Refused("you do not play in this game".into());
    let players = hub.store.players_of(game_id)?.ok_or_else(refused)?;
    let side = Side::ALL
        .into_iter()
        .find(|&s| *players.get(s) == Some(player.id))
        .ok_or_else(refused)?;
    let game = hub.store.game(game_id)?.ok_or_else(refused)?;
    let token = match side {
        Side::Blue => game.blue_token,
        Side::Red => game.red_token,
    }
    .ok_or_else(refused)?;
    Ok(Seat {
        game_id: game_id.to_string(),
        side,
        token,
    })
}

/// The most seeks and games a lobby list shows.
pub const LIST_LIMIT: u32 = 100;

/// A game of a player, with their side and whether it is their move.
#[derive(Clone, Debug, Serialize)]
pub struct MyGame {
    #[serde(flatten)]
    pub game: LiveGame,
    pub side: &'static str,
    pub my_turn: bool,
}

/// A player's games in progress (made by the lobby or not), the ones awaiting their move first, then by
/// deadline.
///
/// # Errors
/// When the database cannot be read.
pub fn games_of(hub: &Hub, player: &Account) -> Result<Vec<MyGame>, LobbyError> {
    let mut games = Vec::new();
    for game in hub.store.games_of_player(player.id, LIST_LIMIT)? {
        let Some(side) = Side::ALL
            .into_iter()
            .find(|&s| *game.players.get(s) == Some(player.id))
        else {
            continue;
        };
        let my_turn = match hub.room(&game.id) {
            Ok(Some(room)) => {
                let state = room.lock();
                !state.is_finished() && state.game.side_to_move() == side
            }
            _ => false,
        };
        games.push(MyGame {
            game,
            side: crate::side_name(side),
            my_turn,
        });
    }
    // Stable: within each group the store's order (soonest deadline first) stays.
    games.sort_by_key(|g| !g.my_turn);
    Ok(games)
}

/// The lobby's periodic work: forget real-time seeks whose creator left, decide overdue correspondence
/// games.
pub fn sweep(hub: &Arc<Hub>) {
    if let Err(e) = hub.store.expire_seeks(now_ms()) {
        tracing::error!(error = %e, "expired seeks were not removed");
    }
    if let Err(e) = crate::correspondence::sweep(hub) {
        tracing::error!(error = %e, "the correspondence sweep failed");
    }
}

#[cfg(test)]
mod tests;
