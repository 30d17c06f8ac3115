//! What every feature of the site shares, importing no feature: errors, pages, cookies, sessions, the CSRF
//! check, seat cookies, websockets and their loop, the request guard and proxies, the listener, the embedded assets.

pub mod arrival;
pub mod assets;
pub mod cookies;
pub mod csrf;
pub mod error;
pub mod guard;
pub mod listener;
pub mod memory;
pub mod pages;
pub mod proxy;
pub mod relay;
pub mod seat_cookie;
pub mod session;
pub mod socket;
