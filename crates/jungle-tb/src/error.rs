//! Errors of the tablebase crate.

use std::path::PathBuf;

/// Anything that can go wrong making, reading or probing tables.
#[derive(Debug, thiserror::Error)]
pub enum TbError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: not a Jungle tablebase file (bad magic)")]
    BadMagic { path: PathBuf },
    #[error(
        "{path}: unsupported tablebase format version {found} (this build reads version {supported})"
    )]
    Version {
        path: PathBuf,
        found: u16,
        supported: u16,
    },
    #[error(
        "{path}: table made under rules \"{table}\", not under the requested rules \"{wanted}\" (generate tables for these rules into another directory)"
    )]
    RulesMismatch {
        path: PathBuf,
        table: String,
        wanted: String,
    },
    #[error("{path}: corrupt tablebase file: {reason}")]
    Corrupt { path: PathBuf, reason: String },
    #[error("no table for material {material} (generate it first)")]
    MissingTable { material: String },
    #[error(
        "material {material} needs the table of {subtable}, which is not in {dir} (make the smaller materials first, or let generation make them)"
    )]
    MissingSubtable {
        material: String,
        subtable: String,
        dir: PathBuf,
    },
    #[error("material {material} has {indices} indices, more than this format holds")]
    TooLarge { material: String, indices: u64 },
    #[error(
        "material {material} needs {needed_mb} MB of working memory, over the limit of {limit_mb} MB"
    )]
    OverMemory {
        material: String,
        needed_mb: u64,
        limit_mb: u64,
    },
    #[error(transparent)]
    Material(#[from] crate::ParseMaterialError),
    #[error("material {material} has animals that are not in play under rules \"{rules}\"")]
    NotInPlay { material: String, rules: String },
    #[error("{path} is not a directory")]
    NotADirectory { path: PathBuf },
    #[error("no tables (*.{ext}) in {path}", ext = crate::file::EXTENSION)]
    NoTables { path: PathBuf },
}

impl TbError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> TbError {
        TbError::Io {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn corrupt(path: impl Into<PathBuf>, reason: impl Into<String>) -> TbError {
        TbError::Corrupt {
            path: path.into(),
            reason: reason.into(),
        }
    }
}
