//! `doushouqi.Rules`: a validated rule set, built from an option string of docs/rules.md.

use jungle_rules::Rules;
use jungle_rules::rules::{OPTIONS, Preset};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::errors::rules_error;

/// A validated set of rule options.
///
/// ``Rules("modern,dog-swims=true")`` parses an option string: an optional preset first (``standard``,
/// ``modern``, ``leiden``, ``mistboard``, ``animal-checkers``), then ``name=value`` items separated by commas.
/// The empty string and ``"standard"`` are the standard rules. A bad string raises ``RulesError`` (a
/// ``ValueError``) whose message lists the valid options or values. ``str(rules)`` is the canonical string:
/// parsing it gives equal rules.
#[pyclass(name = "Rules", module = "doushouqi", frozen, eq, hash)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PyRules(pub Rules);

#[pymethods]
impl PyRules {
    #[new]
    #[pyo3(signature = (options = "standard"))]
    fn new(options: &str) -> PyResult<PyRules> {
        options.parse().map(PyRules).map_err(rules_error)
    }

    /// Every option's current value as text, ``{name: value}`` in the order of docs/rules.md.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let canonical = self.0.to_string();
        let changed: Vec<(&str, &str)> = canonical
            .split(',')
            .filter_map(|item| item.split_once('='))
            .collect();
        let dict = PyDict::new(py);
        for info in OPTIONS {
            let value = changed
                .iter()
                .find(|(name, _)| *name == info.name)
                .map_or(info.default, |(_, value)| value);
            dict.set_item(info.name, value)?;
        }
        Ok(dict)
    }

    /// Whether these are the standard rules.
    #[getter]
    fn is_standard(&self) -> bool {
        self.0.is_standard()
    }

    /// Every option as ``(name, default, values, help)``; ``"N"`` among the values stands for a number.
    #[staticmethod]
    fn describe() -> Vec<(&'static str, &'static str, Vec<&'static str>, &'static str)> {
        OPTIONS
            .iter()
            .map(|o| (o.name, o.default, o.values.to_vec(), o.help))
            .collect()
    }

    /// The presets as ``{name: option string it stands for}``.
    #[staticmethod]
    fn presets(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        let dict = PyDict::new(py);
        for p in Preset::ALL {
            dict.set_item(p.name(), p.expansion())?;
        }
        Ok(dict)
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Rules('{}')", self.0)
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let args = PyTuple::new(slf.py(), [slf.get().0.to_string()])?;
        Ok((slf.get_type().into_any(), args))
    }
}

/// A rules argument: a `Rules` object or an option string; `None` means the standard rules.
#[derive(Debug, FromPyObject)]
pub enum RulesArg<'py> {
    Rules(Bound<'py, PyRules>),
    Text(String),
}

impl RulesArg<'_> {
    pub fn resolve(arg: Option<RulesArg<'_>>) -> PyResult<Rules> {
        match arg {
            None => Ok(Rules::default()),
            Some(RulesArg::Rules(r)) => Ok(r.get().0.clone()),
            Some(RulesArg::Text(text)) => text.parse().map_err(rules_error),
        }
    }
}
