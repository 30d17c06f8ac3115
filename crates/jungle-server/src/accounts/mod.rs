//! Accounts: sign-up and log-in with a username and a password (argon2id), sessions in `HttpOnly` cookies,
//! and the CSRF check every state-changing request passes. Guests play as before; a handler that cares who
//! is asking takes a [`Viewer`] (anyone) or a [`SignedIn`] (refuses guests).

mod api;
pub mod cookies;
pub mod csrf;
pub mod names;
pub mod password;
pub mod seats;
pub mod session;

pub use api::routes;
pub use session::{SignedIn, Viewer};

pub use crate::store::Account;
