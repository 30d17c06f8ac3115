//! The package's exceptions. Each is a `ValueError` subclass carrying the library's own message, so callers
//! may catch the precise kind or plain `ValueError`.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    doushouqi,
    RulesError,
    PyValueError,
    "A rule option string that is not valid; the message lists the valid options and values."
);
create_exception!(
    doushouqi,
    FenError,
    PyValueError,
    "FEN text that is not a valid position under the rules; the message says where."
);
create_exception!(
    doushouqi,
    IllegalMoveError,
    PyValueError,
    "Text that is not a move, or a move that is not legal in the position; the message says which rule it breaks."
);
create_exception!(
    doushouqi,
    PgnError,
    PyValueError,
    "PGN text that is not a valid Jungle game record; the message gives game, line and column."
);
create_exception!(
    doushouqi,
    TablebaseError,
    PyValueError,
    "A tablebase directory or file that cannot be used for the requested rules."
);

pub fn rules_error(e: impl std::fmt::Display) -> PyErr {
    RulesError::new_err(e.to_string())
}

pub fn fen_error(e: impl std::fmt::Display) -> PyErr {
    FenError::new_err(e.to_string())
}

pub fn move_error(e: impl std::fmt::Display) -> PyErr {
    IllegalMoveError::new_err(e.to_string())
}

pub fn pgn_error(e: impl std::fmt::Display) -> PyErr {
    PgnError::new_err(e.to_string())
}

pub fn tablebase_error(e: impl std::fmt::Display) -> PyErr {
    TablebaseError::new_err(e.to_string())
}

pub fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Adds the exception classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("RulesError", py.get_type::<RulesError>())?;
    m.add("FenError", py.get_type::<FenError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("PgnError", py.get_type::<PgnError>())?;
    m.add("TablebaseError", py.get_type::<TablebaseError>())?;
    Ok(())
}
