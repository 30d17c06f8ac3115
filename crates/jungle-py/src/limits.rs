//! The search limits every engine call takes (`depth`, `nodes`, `time`), checked once.

use std::time::Duration;

use crate::errors::value_error;
use pyo3::PyResult;

/// The longest `time` accepted, in seconds: a day.
const MAX_SECONDS: f64 = 86_400.0;
/// The deepest search accepted (the engine's own ply limit is a little above).
pub const MAX_DEPTH: u32 = 100;

/// Checked limits: at least one is set, each in range.
#[derive(Clone, Copy, Debug)]
pub struct SearchLimits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
}

impl SearchLimits {
    pub fn new(
        depth: Option<u32>,
        nodes: Option<u64>,
        time: Option<f64>,
    ) -> PyResult<SearchLimits> {
        if depth.is_none() && nodes.is_none() && time.is_none() {
            return Err(value_error("give a limit: depth, nodes or time (seconds)"));
        }
        if let Some(d) = depth
            && !(1..=MAX_DEPTH).contains(&d)
        {
            return Err(value_error(format!("depth {d} should be 1 to {MAX_DEPTH}")));
        }
        if nodes == Some(0) {
            return Err(value_error("nodes should be at least 1"));
        }
        let time = match time {
            Some(t) if t.is_finite() && t > 0.0 && t <= MAX_SECONDS => {
                Some(Duration::from_secs_f64(t))
            }
            Some(t) => {
                return Err(value_error(format!(
                    "time {t} should be a number of seconds above 0 and at most {MAX_SECONDS}"
                )));
            }
            None => None,
        };
        Ok(SearchLimits { depth, nodes, time })
    }
}
