//! The integration tests as one binary (each test binary links axum, tokio and chromiumoxide: one link instead
//! of five). `cargo test -p jungle-server --test it MODULE::` runs one part.

mod accounts;
mod adversarial;
mod analysis;
mod browser;
mod cluster;
mod correspondence;
mod hidden;
mod hidden_browser;
mod lobby;
mod presentation;
mod profile;
mod proxy;
mod puzzle_streak;
mod puzzles;
mod puzzles_browser;
mod ratings;
mod restart;
mod router;
mod support;
mod websocket;
