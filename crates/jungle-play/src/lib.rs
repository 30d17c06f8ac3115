#![doc = include_str!("../README.md")]

pub mod app;
pub mod clock;
pub mod config;
pub mod hidden;
pub mod hidden_app;
pub mod opponent;
pub mod record;
pub mod render;

pub use app::{App, Prompt, Status, StatusKind};
pub use config::{ConfigError, Mode, PlayConfig, TimeControl};
pub use opponent::{FirstLegalMove, JungleEngine, MoveChooser, Purpose, Thinker};
pub mod line;
pub mod threats;
pub mod tui;
pub mod typing;

pub use hidden_app::{HiddenApp, HiddenConfig};
pub use line::run_lines;
pub use tui::{Screen, run_terminal};
