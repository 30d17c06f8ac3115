#![doc = include_str!("../README.md")]

mod build;
mod error;
pub mod file;
mod generate;
mod index;
mod material;
mod metric;
mod probe;
mod table;
pub mod value;
mod verify;

pub use build::{BuildEvent, BuildOptions, MaterialReport, build, plan, report_for};
pub use error::TbError;
pub use generate::{Stage, generate, working_bytes};
pub use index::Indexer;
pub use material::{Material, ParseMaterialError};
pub use metric::Metric;
pub use probe::Tablebases;
pub use table::{Table, TableStats, WdlCounts, terminal_code};
pub use value::{Probe, Wdl};
pub use verify::{VerifyReport, expected_code, verify_table};
