//! The accounts' storage: users (name, name key, argon2id hash) and their sessions (by token hash).

use super::db::{Row, params};
use super::{Store, StoreError};

/// A player's account.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Account {
    pub id: i64,
    /// The username as it was typed at sign-up (unique whatever its case).
    pub name: String,
}

/// The most sessions one account keeps (browsers and devices); a new one past it ends the oldest.
pub const MAX_SESSIONS_PER_ACCOUNT: u32 = 20;

/// An account with its password hash, to check a password against.
#[derive(Clone, Debug)]
pub struct Credentials {
    pub account: Account,
    /// An argon2id hash in PHC string form.
    pub password_hash: String,
}

/// The key a name is unique by: names are ASCII (see `accounts::names`), so ASCII lowercase, and a name with
/// any other letter (a look-alike such as the Kelvin sign, which Unicode lowercases to `k`) matches no key.
pub fn name_key(name: &str) -> String {
    name.to_ascii_lowercase()
}

fn account_row(r: &Row) -> Result<Account, StoreError> {
    Ok(Account {
        id: r.get(0)?,
        name: r.get(1)?,
    })
}

impl Store {
    /// The account a name belongs to, whatever its case.
    pub fn account_by_name(&self, name: &str) -> Result<Option<Account>, StoreError> {
        self.with(|conn| {
            conn.query_opt(
                "SELECT id, name FROM users WHERE name_key = ?1",
                params![name_key(name)],
                account_row,
            )
        })
    }

    pub fn account_by_id(&self, id: i64) -> Result<Option<Account>, StoreError> {
        self.with(|conn| {
            conn.query_opt(
                "SELECT id, name FROM users WHERE id = ?1",
                params![id],
                account_row,
            )
        })
    }

    /// Makes an account; `None` when the name (in any case) is taken.
    pub fn insert_account(
        &self,
        name: &str,
        password_hash: &str,
    ) -> Result<Option<Account>, StoreError> {
        let id = self.with(|conn| {
            conn.query_opt(
                "INSERT INTO users (name, name_key, password_hash, created_at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (name_key) DO NOTHING RETURNING id",
                params![name, name_key(name), password_hash, super::now_ms()],
                |r| r.get(0),
            )
        })?;
        Ok(id.map(|id| Account {
            id,
            name: name.to_string(),
        }))
    }

    /// An account's password hash, by name (any case) or by id.
    pub fn credentials(&self, by: AccountKey<'_>) -> Result<Option<Credentials>, StoreError> {
        let read = |r: &Row| {
            Ok(Credentials {
                account: account_row(r)?,
                password_hash: r.get(2)?,
            })
        };
        self.with(|conn| match by {
            AccountKey::Name(name) => conn.query_opt(
                "SELECT id, name, password_hash FROM users WHERE name_key = ?1",
                params![name_key(name)],
                read,
            ),
            AccountKey::Id(id) => conn.query_opt(
                "SELECT id, name, password_hash FROM users WHERE id = ?1",
                params![id],
                read,
            ),
        })
    }

    /// Replaces an account's password hash and ends every session of the account, in one transaction.
    pub fn set_password(&self, account_id: i64, password_hash: &str) -> Result<(), StoreError> {
        self.transaction(|tx| {
            tx.execute(
                "UPDATE users SET password_hash = ?2 WHERE id = ?1",
                params![account_id, password_hash],
            )?;
            tx.execute(
                "DELETE FROM sessions WHERE user_id = ?1",
                params![account_id],
            )?;
            Ok(())
        })
    }

    /// Records a new session; drops expired sessions (of everyone) and the account's oldest beyond
    /// [`MAX_SESSIONS_PER_ACCOUNT`], so the table stays as small as its live sessions.
    pub fn insert_session(
        &self,
        token_hash: &str,
        account_id: i64,
        expires_at: i64,
    ) -> Result<(), StoreError> {
        let now = super::now_ms();
        self.transaction(|tx| {
            tx.execute("DELETE FROM sessions WHERE expires_at <= ?1", params![now])?;
            tx.execute(
                "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4)",
                params![token_hash, account_id, now, expires_at],
            )?;
            tx.execute(
                "DELETE FROM sessions WHERE user_id = ?1 AND token_hash NOT IN
                    (SELECT token_hash FROM sessions WHERE user_id = ?1 ORDER BY created_at DESC, rowid DESC
                     LIMIT ?2)",
                params![account_id, MAX_SESSIONS_PER_ACCOUNT],
            )?;
            Ok(())
        })
    }

    /// The account of a live session: `None` for an unknown, ended or expired one.
    pub fn session_account(&self, token_hash: &str) -> Result<Option<Account>, StoreError> {
        self.with(|conn| {
            conn.query_opt(
                "SELECT u.id, u.name FROM sessions s JOIN users u ON u.id = s.user_id
                 WHERE s.token_hash = ?1 AND s.expires_at > ?2",
                params![token_hash, super::now_ms()],
                account_row,
            )
        })
    }

    /// Ends one session (log out).
    pub fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        self.with(|conn| {
            conn.execute(
                "DELETE FROM sessions WHERE token_hash = ?1",
                params![token_hash],
            )
        })?;
        Ok(())
    }
}

impl Store {
    /// Seats `account` in `side` (`blue` / `red`) of a game: its user id and, as the seat's name, its name.
    pub fn bind_seat(
        &self,
        game_id: &str,
        side: &str,
        account: &Account,
    ) -> Result<(), StoreError> {
        let sql = if side == "blue" {
            "UPDATE games SET blue_user_id = ?2, blue_name = ?3 WHERE id = ?1"
        } else {
            "UPDATE games SET red_user_id = ?2, red_name = ?3 WHERE id = ?1"
        };
        self.with(|conn| conn.execute(sql, params![game_id, account.id, account.name]))?;
        Ok(())
    }

    /// The account ids in a game's seats (`None` for a guest or a free seat; no game: both `None`).
    pub fn seat_accounts(&self, game_id: &str) -> Result<(Option<i64>, Option<i64>), StoreError> {
        let ids = self.with(|conn| {
            conn.query_opt(
                "SELECT blue_user_id, red_user_id FROM games WHERE id = ?1",
                params![game_id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
        })?;
        Ok(ids.unwrap_or((None, None)))
    }
}

/// How [`Store::credentials`] finds an account.
#[derive(Clone, Copy, Debug)]
pub enum AccountKey<'a> {
    Name(&'a str),
    Id(i64),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::on_both_backends;

    on_both_backends! {
    fn names_are_unique_whatever_their_case(store) {
        let ann = store.insert_account("Ann_1", "h").unwrap().unwrap();
        assert_eq!(store.insert_account("ann_1", "h2").unwrap(), None);
        assert_eq!(store.account_by_name("ANN_1").unwrap(), Some(ann.clone()));
        assert_eq!(store.account_by_id(ann.id).unwrap(), Some(ann));
        // The Kelvin sign lowercases to `k` in Unicode, not in ASCII.
        store.insert_account("kim", "h").unwrap().unwrap();
        assert_eq!(store.account_by_name("\u{212A}im").unwrap(), None);
    }

    fn sessions_end_on_expiry_logout_password_change_and_past_the_cap(store) {
        let ann = store.insert_account("ann", "h").unwrap().unwrap();
        let later = crate::now_ms() + 60_000;
        store.insert_session("live", ann.id, later).unwrap();
        store.insert_session("old", ann.id, 1).unwrap();
        assert_eq!(store.session_account("live").unwrap(), Some(ann.clone()));
        assert_eq!(store.session_account("old").unwrap(), None, "expired");
        store.delete_session("live").unwrap();
        assert_eq!(store.session_account("live").unwrap(), None, "logged out");

        for i in 0..=MAX_SESSIONS_PER_ACCOUNT {
            store
                .insert_session(&format!("s{i}"), ann.id, later)
                .unwrap();
        }
        assert_eq!(store.session_account("s0").unwrap(), None, "the oldest");
        assert!(store.session_account("s1").unwrap().is_some());
        store.set_password(ann.id, "new").unwrap();
        assert_eq!(
            store.session_account("s1").unwrap(),
            None,
            "password changed"
        );
        let credentials = store.credentials(AccountKey::Name("ANN")).unwrap().unwrap();
        assert_eq!(credentials.password_hash, "new");
    }
    }
}
