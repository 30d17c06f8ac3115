//! What `VectorEnv` takes from the caller, as slices: the actions (any integer array, list or view) and rows of
//! probabilities or logits (any float array). The fast case — a C-contiguous array of the native type — is
//! borrowed as it is; anything else is converted once by numpy, and non-numbers are refused.

use numpy::{
    PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyModule;

use crate::encoding::ACTIONS;
use crate::errors::value_error;

static NUMPY: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

fn numpy(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
    NUMPY
        .get_or_try_init(py, || py.import("numpy").map(Bound::unbind))
        .map(|m| m.bind(py))
}

/// `numpy.asarray(obj)` after checking that its dtype kind is one of `kinds` (`"iu"`: integers, `"fiu"`:
/// numbers); `what` names the argument in the error.
fn as_numeric_array<'py>(
    obj: &Bound<'py, PyAny>,
    kinds: &str,
    what: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let array = numpy(obj.py())?.call_method1("asarray", (obj,))?;
    let dtype = array.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    if !kinds.contains(kind.as_str()) {
        return Err(PyTypeError::new_err(format!(
            "{what} should be {}, got an array of {}",
            if kinds == "iu" { "integers" } else { "numbers" },
            dtype.str()?
        )));
    }
    Ok(array)
}

/// One action per game: borrowed from an `(n,)` int64 C-contiguous array, else converted (lists, tuples, other
/// integer dtypes, strided views).
pub enum Actions<'py> {
    Borrowed(PyReadonlyArray1<'py, i64>),
    Owned(Vec<i64>),
}

impl<'py> Actions<'py> {
    pub fn from_py(obj: &Bound<'py, PyAny>, games: usize) -> PyResult<Actions<'py>> {
        let actions = match obj.cast::<PyArray1<i64>>() {
            Ok(array) => {
                let array = array.try_readonly()?;
                if array.is_c_contiguous() {
                    Actions::Borrowed(array)
                } else {
                    Actions::Owned(array.as_array().to_vec())
                }
            }
            Err(_) => {
                let array = as_numeric_array(obj, "iu", "actions")?;
                let ndim: usize = array.getattr("ndim")?.extract()?;
                if ndim != 1 {
                    return Err(value_error(format!(
                        "actions should be one per game, shape ({games},), got {ndim} dimensions"
                    )));
                }
                let array = array.call_method1("astype", (numpy(obj.py())?.getattr("int64")?,))?;
                Actions::Owned(
                    array
                        .cast::<PyArray1<i64>>()?
                        .try_readonly()?
                        .as_array()
                        .to_vec(),
                )
            }
        };
        if actions.as_slice().len() != games {
            return Err(value_error(format!(
                "{} actions for {games} games",
                actions.as_slice().len()
            )));
        }
        Ok(actions)
    }

    pub fn as_slice(&self) -> &[i64] {
        match self {
            Actions::Borrowed(array) => array.as_slice().expect("checked to be contiguous"),
            Actions::Owned(vec) => vec,
        }
    }
}

/// Rows of 252 numbers per game (probabilities or logits), as `f32` or `f64`.
pub enum Rows<'py> {
    F32(PyReadonlyArray2<'py, f32>),
    F64(PyReadonlyArray2<'py, f64>),
}

impl<'py> Rows<'py> {
    /// An `(n, 252)` float32 or float64 C-contiguous array is read in place; any other array of numbers is
    /// converted to float64.
    pub fn from_py(obj: &Bound<'py, PyAny>, games: usize, what: &str) -> PyResult<Rows<'py>> {
        let rows = if let Ok(array) = obj.cast::<PyArray2<f32>>()
            && array.is_c_contiguous()
        {
            Rows::F32(array.try_readonly()?)
        } else if let Ok(array) = obj.cast::<PyArray2<f64>>()
            && array.is_c_contiguous()
        {
            Rows::F64(array.try_readonly()?)
        } else {
            let array = as_numeric_array(obj, "fiu", what)?;
            let array = numpy(obj.py())?.call_method1(
                "ascontiguousarray",
                (array, numpy(obj.py())?.getattr("float64")?),
            )?;
            match array.cast_into::<PyArray2<f64>>() {
                Ok(array) => Rows::F64(array.try_readonly()?),
                Err(_) => {
                    return Err(value_error(format!(
                        "{what} should have shape ({games}, {ACTIONS}): one row per game"
                    )));
                }
            }
        };
        let shape = match &rows {
            Rows::F32(a) => a.shape().to_vec(),
            Rows::F64(a) => a.shape().to_vec(),
        };
        if shape != [games, ACTIONS] {
            return Err(value_error(format!(
                "{what} should have shape ({games}, {ACTIONS}), got {shape:?}"
            )));
        }
        Ok(rows)
    }
}
