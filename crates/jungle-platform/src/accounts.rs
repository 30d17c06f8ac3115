//! Accounts without the web: the rules of usernames and the hashing of passwords (argon2id). The account
//! itself is a stored record ([`crate::store::Account`]); sessions and cookies are the web's business.

pub mod names;
pub mod password;

pub use crate::store::Account;
