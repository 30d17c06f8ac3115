//! The integration tests as one binary (each test binary links axum, tokio and chromiumoxide: one link instead
//! of five). `cargo test -p jungle-server --test it MODULE::` runs one part.

mod accounts;
mod adversarial;
mod analysis;
mod browser;
mod chinese_scripts;
mod cluster;
mod correspondence;
mod game_terms;
mod hidden;
mod hidden_browser;
mod lessons;
mod lobby;
mod navigation;
mod opening_explorer;
mod piece_labels;
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
mod tablebase_explorer;
mod takeback;
mod tournaments;
mod tournaments_browser;
mod websocket;
