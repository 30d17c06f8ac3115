//! Verification: every stored value must follow from the values of its successors (and the board for a
//! finished game). Together with exact terminal values this pins the table down: a wrong win, loss,
//! distance or draw breaks the check somewhere.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use jungle_rules::{Position, Rules};
use rayon::prelude::*;

use crate::table::terminal_code;
use crate::value::{self, Code, INVALID};
use crate::{Material, Metric, Table, TbError};

/// The result of checking one table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerifyReport {
    pub checked: u64,
    pub mismatches: u64,
    /// Up to ten examples: FEN, stored value and the value its successors give.
    pub examples: Vec<String>,
}

/// The value a position must have given its successors' values (`lookup` gives the code of any position of
/// this table or of a smaller material), with distances of `metric` (for [`Metric::Zeroing`] a capture counts
/// as the end: only its result is used).
pub fn expected_code(
    pos: &Position,
    rules: &Rules,
    metric: Metric,
    lookup: &dyn Fn(&Position) -> Option<Code>,
) -> Option<Code> {
    if let Some(end) = terminal_code(pos, rules) {
        return Some(end);
    }
    let mut quickest_win: Option<u32> = None;
    let mut slowest_loss = 0;
    let mut all_lose = true;
    for &m in pos.legal_moves(rules).as_slice() {
        let child = pos.after(m);
        let code = match terminal_code(&child, rules) {
            Some(end) => end,
            None if metric == Metric::Zeroing && pos.is_capture(m) => {
                value::zeroed(lookup(&child)?)
            }
            None => lookup(&child)?,
        };
        if value::is_loss(code) {
            let n = value::plies(code) + 1;
            quickest_win = Some(quickest_win.map_or(n, |w| w.min(n)));
        } else if value::is_win(code) {
            slowest_loss = slowest_loss.max(value::plies(code) + 1);
        } else {
            all_lose = false;
        }
    }
    Some(match quickest_win {
        Some(n) => value::win_code(n),
        None if all_lose => value::loss_code(slowest_loss),
        None => value::DRAW,
    })
}

/// Checks every index of a table against its successors. `subtable` gives the table of a smaller material (of
/// either metric for a table of [`Metric::Zeroing`]).
///
/// # Errors
/// [`TbError::MissingTable`] if a successor's table is missing.
pub fn verify_table(
    table: &Table,
    rules: &Rules,
    subtable: &(dyn Fn(Material) -> Option<Arc<Table>> + Sync),
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<VerifyReport, TbError> {
    let material = table.material();
    let subs: Vec<(Material, Arc<Table>)> = material
        .captures_lead_to()
        .into_iter()
        .map(|m| {
            subtable(m)
                .map(|t| (m, t))
                .ok_or_else(|| TbError::MissingTable {
                    material: m.to_string(),
                })
        })
        .collect::<Result<_, _>>()?;
    let lookup = |pos: &Position| -> Option<Code> {
        let m = Material::of(pos).canonical();
        if m == material {
            table.code_of(pos)
        } else {
            subs.iter().find(|(sm, _)| *sm == m)?.1.code_of(pos)
        }
    };
    let codes = table.codes();
    let done = AtomicU64::new(0);
    let total = codes.len() as u64;
    let report = codes
        .par_chunks(4096)
        .enumerate()
        .map(|(chunk, slice)| {
            let mut report = VerifyReport::default();
            for (offset, &stored) in slice.iter().enumerate() {
                let idx = (chunk * 4096 + offset) as u64;
                let pos = table.indexer().position_at(idx);
                let expected = match &pos {
                    None => Some(INVALID),
                    Some(pos) => expected_code(pos, rules, table.metric(), &lookup),
                };
                if pos.is_some() {
                    report.checked += 1;
                }
                if expected != Some(stored) {
                    report.mismatches += 1;
                    if report.examples.len() < 10 {
                        report.examples.push(format!(
                            "{}: stored {}, successors give {}",
                            pos.map_or(format!("index {idx}"), |p| p.to_string()),
                            describe(stored),
                            expected.map_or("an unknown value".to_string(), describe)
                        ));
                    }
                }
            }
            let n = done.fetch_add(slice.len() as u64, Relaxed) + slice.len() as u64;
            progress(n, total);
            report
        })
        .reduce(VerifyReport::default, |mut a, b| {
            a.checked += b.checked;
            a.mismatches += b.mismatches;
            a.examples.extend(b.examples);
            a.examples.truncate(10);
            a
        });
    Ok(report)
}

fn describe(code: Code) -> String {
    if code == INVALID {
        "no position".to_string()
    } else {
        value::decode(code).to_string()
    }
}
