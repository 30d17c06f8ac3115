//! Probing a directory of tables: the API the engine and the `jungle tb probe` command use.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use jungle_rules::{Move, Position, Rules};

use crate::file;
use crate::table::terminal_code;
use crate::value;
use crate::{Material, Metric, Probe, Table, TbError};

/// The tables of one directory, all made under one rule set. Tables are read from disk on first use and
/// kept; probing is thread-safe (`&self`) so a multi-threaded search can share one value.
#[derive(Debug)]
pub struct Tablebases {
    rules: Rules,
    entries: HashMap<Material, Entry>,
    /// The tables of distances to the next capture present (`KEY.jtz`), which are optional.
    zeroing: HashMap<Material, Entry>,
    max_pieces: usize,
}

#[derive(Debug)]
struct Entry {
    path: PathBuf,
    table: OnceLock<Option<Arc<Table>>>,
}

impl Tablebases {
    /// Opens the `*.jtb` tables of a directory, and the `*.jtz` tables of distances to the next capture there
    /// are (reading only their headers).
    ///
    /// # Errors
    /// [`TbError::RulesMismatch`] if any table was made under other rules; [`TbError::Io`],
    /// [`TbError::BadMagic`], [`TbError::Version`] or [`TbError::Corrupt`] for an unreadable directory or
    /// header; [`TbError::NotADirectory`].
    pub fn open(dir: &Path, rules: &Rules) -> Result<Tablebases, TbError> {
        let mut entries = HashMap::new();
        let mut zeroing = HashMap::new();
        for metric in [Metric::End, Metric::Zeroing] {
            for path in table_paths(dir, metric)? {
                let header = file::read_header(&path)?;
                file::check_rules(&path, &header, rules)?;
                let map = match metric {
                    Metric::End => &mut entries,
                    Metric::Zeroing => &mut zeroing,
                };
                map.insert(
                    header.material,
                    Entry {
                        path,
                        table: OnceLock::new(),
                    },
                );
            }
        }
        let max_pieces = entries.keys().map(|m| m.piece_count()).max().unwrap_or(0);
        Ok(Tablebases {
            rules: rules.clone(),
            entries,
            zeroing,
            max_pieces,
        })
    }

    /// Opens the `*.jtb` tables of a directory under the rules they were made with (read from the first
    /// table's header; every other table must have been made under the same rules).
    ///
    /// # Errors
    /// As [`Tablebases::open`]; [`TbError::NoTables`] for a directory without tables, and
    /// [`TbError::Corrupt`] when the first header's rules are not a valid option string.
    pub fn open_dir(dir: &Path) -> Result<Tablebases, TbError> {
        let first = table_paths(dir, Metric::End)?
            .into_iter()
            .next()
            .ok_or_else(|| TbError::NoTables {
                path: dir.to_path_buf(),
            })?;
        let header = file::read_header(&first)?;
        let rules: Rules = header.rules.parse().map_err(|e| {
            TbError::corrupt(&first, format!("rules \"{}\" in header: {e}", header.rules))
        })?;
        Tablebases::open(dir, &rules)
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The most pieces of any table present (0 with none): positions with more pieces are never found.
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// The materials present, canonical, sorted by key.
    pub fn materials(&self) -> Vec<Material> {
        let mut out: Vec<Material> = self.entries.keys().copied().collect();
        out.sort_by_key(|m| (m.piece_count(), m.to_string()));
        out
    }

    /// The table of a material (either orientation), read on first use; `None` if absent or unreadable.
    pub fn table(&self, material: Material) -> Option<Arc<Table>> {
        self.read(self.entries.get(&material.canonical())?)
    }

    /// The table of distances to the next capture of a material, read on first use; `None` if absent or
    /// unreadable.
    pub fn zeroing_table(&self, material: Material) -> Option<Arc<Table>> {
        self.read(self.zeroing.get(&material.canonical())?)
    }

    /// The materials with a table of distances to the next capture, canonical, sorted by key.
    pub fn zeroing_materials(&self) -> Vec<Material> {
        let mut out: Vec<Material> = self.zeroing.keys().copied().collect();
        out.sort_by_key(|m| (m.piece_count(), m.to_string()));
        out
    }

    fn read(&self, entry: &Entry) -> Option<Arc<Table>> {
        entry
            .table
            .get_or_init(|| {
                file::read_table(&entry.path, &self.rules)
                    .ok()
                    .map(Arc::new)
            })
            .clone()
    }

    /// Reads a material's table, reporting why it cannot be read.
    ///
    /// # Errors
    /// [`TbError::MissingTable`] or the file's error.
    pub fn load(&self, material: Material) -> Result<Arc<Table>, TbError> {
        let entry =
            self.entries
                .get(&material.canonical())
                .ok_or_else(|| TbError::MissingTable {
                    material: material.canonical().to_string(),
                })?;
        let table = Arc::new(file::read_table(&entry.path, &self.rules)?);
        let _ = entry.table.set(Some(table.clone()));
        Ok(table)
    }

    /// Drops the copies of a material's tables held in memory (it is read again on next use), so that a pass over
    /// a large directory holds only the tables it still needs.
    pub fn release(&mut self, material: Material) {
        for map in [&mut self.entries, &mut self.zeroing] {
            if let Some(entry) = map.get_mut(&material.canonical()) {
                entry.table.take();
            }
        }
    }

    /// The value of a position for its side to move, if the tables cover it. A finished game needs no
    /// table (a loss in 0 for the side to move).
    pub fn probe(&self, pos: &Position) -> Option<Probe> {
        if let Some(code) = terminal_code(pos, &self.rules) {
            return Some(value::decode(code));
        }
        if pos.occupied().count() as usize > self.max_pieces {
            return None;
        }
        self.table(Material::of(pos))?.probe(pos)
    }

    /// The distance to the next capture or the end of the game (the winner hurrying, the loser delaying) of a
    /// position, with its result, if a `*.jtz` table covers it: a win holds under the quiet-ply rule when the
    /// plies already played without a capture plus this distance fit under the limit. A finished game is a
    /// loss in 0.
    pub fn probe_zeroing(&self, pos: &Position) -> Option<Probe> {
        if let Some(code) = terminal_code(pos, &self.rules) {
            return Some(value::decode(code));
        }
        if pos.occupied().count() as usize > self.max_pieces {
            return None;
        }
        self.zeroing_table(Material::of(pos))?.probe(pos)
    }

    /// Every legal move with its value for the side to move (the value of the position after it, seen from
    /// the mover), best first: quickest win, then draws, then slowest loss. `None` if any successor is not
    /// covered, or the game is over.
    pub fn probe_moves(&self, pos: &Position) -> Option<Vec<(Move, Probe)>> {
        let moves = pos.legal_moves(&self.rules);
        if moves.is_empty() {
            return None;
        }
        let mut out = Vec::with_capacity(moves.len());
        for &m in moves.as_slice() {
            out.push((m, self.probe(&pos.after(m))?.before_move()));
        }
        out.sort_by_key(|(m, p)| (std::cmp::Reverse(p.preference()), m.to_string()));
        Some(out)
    }

    /// The best move by the tables: the quickest win, else a drawing move, else the slowest loss.
    pub fn best_move(&self, pos: &Position) -> Option<(Move, Probe)> {
        self.probe_moves(pos)?.into_iter().next()
    }
}

/// The table files of one metric in a directory, sorted by name.
fn table_paths(dir: &Path, metric: Metric) -> Result<Vec<PathBuf>, TbError> {
    if !dir.is_dir() {
        return Err(TbError::NotADirectory {
            path: dir.to_path_buf(),
        });
    }
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| TbError::io(dir, e))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == metric.extension()))
        .collect();
    paths.sort();
    Ok(paths)
}
