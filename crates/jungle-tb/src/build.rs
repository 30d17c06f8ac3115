//! Making a directory of tables: the plan (requested materials and every smaller material a capture leads
//! to, fewest pieces first), resuming (a material whose file exists and reads back intact is kept), memory
//! accounting, and one report per material (and one per table of distances to the next capture, when asked
//! for: these are made right after the material's own table, from the same sub-tables).

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use jungle_rules::Rules;

use crate::file::{self, table_path};
use crate::generate::{self, Stage};
use crate::{Indexer, Material, Metric, Table, TableStats, TbError};

/// What to make and where.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    pub out: PathBuf,
    /// The materials asked for (any orientation); smaller materials they need are added when
    /// `with_smaller_materials` is set.
    pub materials: Vec<Material>,
    /// Also make every smaller material a capture leads to. When false, only the materials asked for are
    /// made and their sub-tables must already be in the directory: what a distributed run needs, where each
    /// material is one task and its sub-tables were written by other tasks.
    pub with_smaller_materials: bool,
    /// The most memory to use for one material's working arrays plus the sub-tables it needs, in bytes.
    pub memory_limit: u64,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Also make the tables of distances to the next capture (`KEY.jtz`, [`Metric::Zeroing`]).
    pub dtz: bool,
}

/// One material's figures after [`build`].
#[derive(Clone, Debug)]
pub struct MaterialReport {
    pub material: Material,
    /// What the table's distances count (its longest win is in these plies).
    pub metric: Metric,
    pub stats: TableStats,
    /// The FEN of a position with the longest win.
    pub longest_win_fen: Option<String>,
    pub indices: u64,
    /// Seconds spent generating (0 when kept).
    pub seconds: f64,
    pub file_bytes: u64,
    /// The most working memory the generation could take (its arrays at their fullest, and the sub-tables),
    /// in bytes; 0 when kept.
    pub working_bytes: u64,
    /// Whether an existing file was kept instead of generating.
    pub kept: bool,
}

/// What [`build`] is doing, for progress displays.
#[derive(Clone, Debug)]
pub enum BuildEvent {
    /// The full plan: materials in order and their index counts.
    Plan(Vec<(Material, u64)>),
    Start {
        material: Material,
        indices: u64,
    },
    Stage {
        material: Material,
        stage: Stage,
    },
    Done(MaterialReport),
}

/// The materials to make for `targets`, closed under captures, fewest pieces first, then by key.
pub fn plan(targets: &[Material]) -> Vec<Material> {
    let mut all = BTreeSet::new();
    let mut todo: Vec<Material> = targets.iter().map(|m| m.canonical()).collect();
    while let Some(m) = todo.pop() {
        if all.insert((m.piece_count(), m.to_string(), m)) {
            todo.extend(m.captures_lead_to());
        }
    }
    all.into_iter().map(|(_, _, m)| m).collect()
}

/// The materials asked for alone, canonical, each once, fewest pieces first, then by key.
fn only(targets: &[Material]) -> Vec<Material> {
    let all: BTreeSet<_> = targets
        .iter()
        .map(|m| m.canonical())
        .map(|m| (m.piece_count(), m.to_string(), m))
        .collect();
    all.into_iter().map(|(_, _, m)| m).collect()
}

/// Checks, before any work, that the sub-table of every capture of `order` is in `dir` (or is one of `order`,
/// made before it), so a run without its smaller materials fails at once with the name of what is missing.
fn require_subtables(dir: &Path, order: &[Material], rules: &Rules) -> Result<(), TbError> {
    for (at, material) in order.iter().enumerate() {
        for sub in material.captures_lead_to() {
            if order[..at].contains(&sub) {
                continue;
            }
            let path = table_path(dir, sub, Metric::End);
            if !path.exists() {
                return Err(TbError::MissingSubtable {
                    material: material.to_string(),
                    subtable: sub.to_string(),
                    dir: dir.to_path_buf(),
                });
            }
            // The header is enough to know the file is a table of these rules; a damaged body is found when
            // it is read for the generation.
            let header = file::read_header(&path)?;
            file::check_rules(&path, &header, rules)?;
        }
    }
    Ok(())
}

/// Generates (or keeps) every table of the plan for `options.materials` into `options.out`.
///
/// # Errors
/// A table in the directory made under other rules ([`TbError::RulesMismatch`]), I/O errors, a material
/// over the memory limit, an animal not in play under the rules, or (without `with_smaller_materials`) a
/// sub-table missing from the directory ([`TbError::MissingSubtable`]).
pub fn build(
    rules: &Rules,
    options: &BuildOptions,
    on_event: &(dyn Fn(BuildEvent) + Sync),
) -> Result<Vec<MaterialReport>, TbError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|e| TbError::io(&options.out, std::io::Error::other(e)))?;
    pool.install(|| build_in_pool(rules, options, on_event))
}

fn build_in_pool(
    rules: &Rules,
    options: &BuildOptions,
    on_event: &(dyn Fn(BuildEvent) + Sync),
) -> Result<Vec<MaterialReport>, TbError> {
    for m in &options.materials {
        if !m.in_play(rules) {
            return Err(TbError::NotInPlay {
                material: m.to_string(),
                rules: rules.to_string(),
            });
        }
    }
    std::fs::create_dir_all(&options.out).map_err(|e| TbError::io(&options.out, e))?;
    let order = if options.with_smaller_materials {
        plan(&options.materials)
    } else {
        let order = only(&options.materials);
        require_subtables(&options.out, &order, rules)?;
        order
    };
    let largest = order.iter().map(|m| m.piece_count()).max().unwrap_or(0);
    on_event(BuildEvent::Plan(
        order
            .iter()
            .map(|&m| (m, Indexer::new(m, rules).size()))
            .collect(),
    ));
    let mut cache: HashMap<Material, Arc<Table>> = HashMap::new();
    let mut reports = Vec::with_capacity(order.len());
    for &material in &order {
        // Tables two sizes below are never needed again.
        cache.retain(|m, _| m.piece_count() + 1 >= material.piece_count());
        let indexer = Indexer::new(material, rules);
        on_event(BuildEvent::Start {
            material,
            indices: indexer.size(),
        });
        let metrics: &[Metric] = if options.dtz {
            &[Metric::End, Metric::Zeroing]
        } else {
            &[Metric::End]
        };
        let mut made = None;
        for &metric in metrics {
            let (table, report) =
                make_or_keep(rules, options, material, metric, &mut cache, on_event)?;
            on_event(BuildEvent::Done(report.clone()));
            reports.push(report);
            if metric == Metric::End {
                made = Some(table);
            }
        }
        if material.piece_count() < largest
            && let Some(table) = made
        {
            cache.insert(material, Arc::new(table));
        }
    }
    Ok(reports)
}

/// The table of `material` with distances of `metric`: the intact file in the directory, or made and written.
fn make_or_keep(
    rules: &Rules,
    options: &BuildOptions,
    material: Material,
    metric: Metric,
    cache: &mut HashMap<Material, Arc<Table>>,
    on_event: &(dyn Fn(BuildEvent) + Sync),
) -> Result<(Table, MaterialReport), TbError> {
    let path = table_path(&options.out, material, metric);
    if path.exists() {
        match file::read_table(&path, rules) {
            Ok(table) => {
                let file_bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
                let report = report_for(&table, 0.0, file_bytes, 0, true);
                return Ok((table, report));
            }
            Err(e @ TbError::RulesMismatch { .. }) => return Err(e),
            Err(_) => {}
        }
    }
    let mut subtables = HashMap::new();
    for sub in material.captures_lead_to() {
        let table = match cache.get(&sub) {
            Some(t) => t.clone(),
            None => Arc::new(file::read_table(
                &table_path(&options.out, sub, Metric::End),
                rules,
            )?),
        };
        subtables.insert(sub, table);
    }
    let sub_bytes: u64 = subtables.values().map(|t| t.memory_bytes()).sum();
    let indexer = Indexer::new(material, rules);
    let working = generate::working_bytes(&indexer) + sub_bytes;
    if working > options.memory_limit {
        return Err(TbError::OverMemory {
            material: material.to_string(),
            needed_mb: working.div_ceil(1 << 20),
            limit_mb: options.memory_limit >> 20,
        });
    }
    // Keep the cache within what is left of the limit.
    let room = options.memory_limit - working;
    let mut cached: u64 = cache.values().map(|t| t.memory_bytes()).sum();
    if cached > room {
        cache.retain(|m, t| {
            if cached > room && !subtables.contains_key(m) {
                cached -= t.memory_bytes();
                false
            } else {
                true
            }
        });
    }
    let started = Instant::now();
    let table = generate::generate(material, rules, &subtables, metric, &|stage| {
        on_event(BuildEvent::Stage { material, stage })
    })?;
    let seconds = started.elapsed().as_secs_f64();
    let file_bytes = file::write_table(&path, &table, rules)?;
    let report = report_for(&table, seconds, file_bytes, working, false);
    Ok((table, report))
}

/// The figures of a table.
pub fn report_for(
    table: &Table,
    seconds: f64,
    file_bytes: u64,
    working_bytes: u64,
    kept: bool,
) -> MaterialReport {
    let stats = table.stats();
    MaterialReport {
        material: table.material(),
        metric: table.metric(),
        stats,
        longest_win_fen: stats
            .longest_win
            .and_then(|(_, idx)| table.indexer().position_at(idx))
            .map(|p| p.to_string()),
        indices: table.indexer().size(),
        seconds,
        file_bytes,
        working_bytes,
        kept,
    }
}
