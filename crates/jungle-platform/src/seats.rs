//! Games know their players' accounts: a signed-in player's seat is bound to the account (the seat's name is
//! the username), so the player has the seat on any device they sign in on, without the seat cookie.

use std::sync::Arc;

use jungle_rules::{BySide, Side};

use crate::accounts::Account;
use crate::cluster::event::Change;
use crate::hub::{Hub, HubError, NewGame};
use crate::room::Room;
use crate::side_name;

impl Hub {
    /// Seats `account` in `side` of `room`: stored, and the room's players are told the seat's new name.
    ///
    /// # Errors
    /// When the database write fails.
    pub fn bind_seat(&self, room: &Room, side: Side, account: &Account) -> Result<(), HubError> {
        self.store.bind_seat(&room.id, side_name(side), account)?;
        {
            let mut state = room.lock();
            state.names[side] = Some(account.name.clone());
            state.generation += 1;
        }
        room.notify();
        room.publish_now(Change::Stored);
        Ok(())
    }

    /// Seats the accounts of a finished game's players in its rematch `new`, each on the other side, so a
    /// rematch between two accounts is theirs on any device whoever asked for it. The asker, now in
    /// `asker_seat`, is seated by their account `asker` when their old seat was a guest's. Seats already bound
    /// stay as they are (asking again binds nothing new).
    ///
    /// # Errors
    /// When the database cannot be read or written.
    pub fn bind_rematch_seats(
        &self,
        old: &Room,
        new: &Room,
        asker_seat: Side,
        asker: Option<&Account>,
    ) -> Result<(), HubError> {
        let (blue, red) = self.store.seat_accounts(&old.id)?;
        let players = BySide::new(blue, red);
        let (blue, red) = self.store.seat_accounts(&new.id)?;
        let bound = BySide::new(blue, red);
        for side in [Side::Blue, Side::Red] {
            if bound[side].is_some() {
                continue;
            }
            let account = match players[side.opponent()] {
                Some(id) => self.store.account_by_id(id)?,
                None if side == asker_seat => asker.cloned(),
                None => None,
            };
            if let Some(account) = account {
                self.bind_seat(new, side, &account)?;
            }
        }
        Ok(())
    }

    /// The seat a visitor holds in `room`: by the seat's `token` (its cookie), else by its signed-in account.
    ///
    /// # Errors
    /// When the database cannot be read.
    pub fn seat_for(
        &self,
        room: &Room,
        token: Option<&str>,
        viewer: Option<&Account>,
    ) -> Result<Option<Side>, HubError> {
        if let Some(seat) = room.seat_of(token) {
            return Ok(Some(seat));
        }
        // In a cluster the seat may have been taken on another node a moment ago, its event not here yet:
        // read the room's seats from the database once before taking the token for nothing.
        if token.is_some() && self.cluster().is_some() {
            room.refresh(&self.store)?;
            if let Some(seat) = room.seat_of(token) {
                return Ok(Some(seat));
            }
        }
        let Some(account) = viewer else {
            return Ok(None);
        };
        let (blue, red) = self.store.seat_accounts(&room.id)?;
        Ok(if blue == Some(account.id) {
            Some(Side::Blue)
        } else if red == Some(account.id) {
            Some(Side::Red)
        } else {
            None
        })
    }

    /// A game between two accounts, `blue` and `red`, with the options of `game` (its rules, start and clock;
    /// its opponent and side are set here): for the lobby's pairings and challenges. Both seats are taken and
    /// bound; the players open `/game/ID` and have their seats by their accounts.
    ///
    /// # Errors
    /// [`HubError::BadRequest`] for bad options or the same account twice; a failed database write.
    pub fn create_between(
        self: &Arc<Self>,
        blue: &Account,
        red: &Account,
        game: &NewGame,
    ) -> Result<Arc<Room>, HubError> {
        if blue.id == red.id {
            return Err(HubError::BadRequest(
                "a game between an account and itself".into(),
            ));
        }
        let request = NewGame {
            opponent: "friend".into(),
            side: Some("blue".into()),
            level: None,
            ..game.clone()
        };
        let (room, _, _) = self.create(&request, None)?;
        self.claim_seat(&room)?;
        self.bind_seat(&room, Side::Blue, blue)?;
        self.bind_seat(&room, Side::Red, red)?;
        // The wait for the first moves starts now.
        self.after_change(&room);
        Ok(room)
    }
}
