//! Turning a policy's rows (probabilities or logits, one row of 252 per game) into one legal action per game,
//! in Rust and in parallel, from each game's own generator.

use pyo3::PyResult;
use rayon::prelude::*;

use super::MIN_GAMES_PER_TASK;
use super::slot::{Legal, SampleError};
use crate::encoding::ACTIONS;
use crate::errors::value_error;

/// How a row of numbers picks an action.
#[derive(Clone, Copy, Debug)]
pub enum Pick {
    /// The row holds probabilities (any non-negative weights; only the legal actions' count).
    Probabilities,
    /// The row holds logits: softmax over the legal actions at this temperature; 0 takes the best.
    Logits(f64),
}

impl Pick {
    /// Logits at a temperature, checked: 0 (the best action) or positive.
    pub fn logits(temperature: f64) -> PyResult<Pick> {
        if temperature >= 0.0 && temperature.is_finite() {
            Ok(Pick::Logits(temperature))
        } else {
            Err(value_error(format!(
                "temperature {temperature} should be 0 (the best action) or positive"
            )))
        }
    }

    /// The argument's name, for errors.
    fn name(self) -> &'static str {
        match self {
            Pick::Probabilities => "probs",
            Pick::Logits(_) => "logits",
        }
    }
}

/// One action per game from its row of `rows` (`ACTIONS` numbers a game); `ValueError` naming the first game
/// whose row cannot be sampled.
pub fn pick<T: Copy + Into<f64> + Sync>(
    legal: &mut [Legal],
    rows: &[T],
    how: Pick,
) -> PyResult<Vec<i64>> {
    let picked: Result<Vec<i64>, (usize, SampleError)> = legal
        .par_iter_mut()
        .zip(rows.par_chunks(ACTIONS))
        .with_min_len(MIN_GAMES_PER_TASK)
        .enumerate()
        .map(|(i, (legal, row))| pick_one(legal, row, how).map_err(|e| (i, e)))
        .collect();
    picked.map_err(|(i, e)| {
        let what = how.name();
        value_error(match e {
            SampleError::BadWeight { action, weight } => {
                format!("game {i}: {what}[{i}, {action}] is {weight}, which cannot weigh a legal action")
            }
            SampleError::NoWeight => {
                format!("game {i}: no legal action has any weight in {what}[{i}] (see action_masks[{i}])")
            }
        })
    })
}

/// A game's action picked from its row.
fn pick_one<T: Copy + Into<f64>>(
    legal: &mut Legal,
    row: &[T],
    how: Pick,
) -> Result<i64, SampleError> {
    let value = |a: usize| row[a].into();
    match how {
        Pick::Probabilities => legal.weighted_action(value),
        Pick::Logits(0.0) => legal.best_action(value),
        Pick::Logits(t) => {
            let max = value(legal.best_action(value)? as usize);
            if max == f64::NEG_INFINITY {
                return Err(SampleError::NoWeight);
            }
            legal.weighted_action(|a| ((value(a) - max) / t).exp())
        }
    }
}
