//! Squares, sides, animals and pieces as Python values.
//!
//! Squares are ints ``0..63`` (a1 = 0, g1 = 6, a2 = 7, …, g9 = 62: ``(rank - 1) * 7 + file``), with the module
//! constants ``doushouqi.A1`` … ``doushouqi.G9``; every function that takes a square also accepts its name (``"a3"``).

use jungle_rules::{Animal, Piece, Side, Square};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

use crate::errors::value_error;

/// A side as Python sees it: a member of the enum `doushouqi.Side` (an `enum.IntEnum` defined in Python, so it
/// iterates, pickles and copies like any enum). Taken and returned as that enum's members.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PySide {
    Blue = 0,
    Red = 1,
}

/// An animal as Python sees it: a member of the enum `doushouqi.Animal` (`int(animal)` is `rank - 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PyAnimal(pub Animal);

/// One of the Python enums of `doushouqi._enums`: its class and its members by value.
#[derive(Debug)]
struct PyEnum {
    class: Py<PyType>,
    members: Vec<Py<PyAny>>,
}

static SIDE_ENUM: PyOnceLock<PyEnum> = PyOnceLock::new();
static ANIMAL_ENUM: PyOnceLock<PyEnum> = PyOnceLock::new();

impl PyEnum {
    /// The enum `name` with members `0..count`, imported once (the package imports its enums after this module,
    /// so the import happens at the first use, not when the module loads).
    fn get<'a>(
        cell: &'a PyOnceLock<PyEnum>,
        py: Python<'_>,
        name: &str,
        count: usize,
    ) -> PyResult<&'a PyEnum> {
        cell.get_or_try_init(py, || {
            let class = py
                .import("doushouqi._enums")?
                .getattr(name)?
                .cast_into::<PyType>()?;
            let members = (0..count)
                .map(|value| class.call1((value,)).map(Bound::unbind))
                .collect::<PyResult<_>>()?;
            Ok(PyEnum {
                class: class.unbind(),
                members,
            })
        })
    }

    fn member<'py>(&self, py: Python<'py>, value: usize) -> Bound<'py, PyAny> {
        self.members[value].bind(py).clone()
    }

    /// The value of a member of this enum; `TypeError` for anything else (a plain int included, so a
    /// square or an index passed by mistake is refused).
    fn value_of(&self, obj: &Bound<'_, PyAny>, name: &str) -> PyResult<usize> {
        if !obj.is_instance(self.class.bind(obj.py()))? {
            return Err(PyTypeError::new_err(format!(
                "expected a doushouqi.{name}, got {}",
                obj.repr()?
            )));
        }
        obj.extract()
    }
}

impl<'py> IntoPyObject<'py> for PySide {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(PyEnum::get(&SIDE_ENUM, py, "Side", 2)?.member(py, self as usize))
    }
}

impl FromPyObject<'_, '_> for PySide {
    type Error = PyErr;

    fn extract(obj: Borrowed<'_, '_, PyAny>) -> PyResult<PySide> {
        let side = PyEnum::get(&SIDE_ENUM, obj.py(), "Side", 2)?;
        Ok(match side.value_of(&obj, "Side")? {
            0 => PySide::Blue,
            _ => PySide::Red,
        })
    }
}

impl<'py> IntoPyObject<'py> for PyAnimal {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(PyEnum::get(&ANIMAL_ENUM, py, "Animal", 8)?.member(py, self.0.index()))
    }
}

impl FromPyObject<'_, '_> for PyAnimal {
    type Error = PyErr;

    fn extract(obj: Borrowed<'_, '_, PyAny>) -> PyResult<PyAnimal> {
        let animal = PyEnum::get(&ANIMAL_ENUM, obj.py(), "Animal", 8)?;
        Ok(PyAnimal(Animal::ALL[animal.value_of(&obj, "Animal")?]))
    }
}

impl From<PySide> for Side {
    fn from(s: PySide) -> Side {
        match s {
            PySide::Blue => Side::Blue,
            PySide::Red => Side::Red,
        }
    }
}

impl From<Side> for PySide {
    fn from(s: Side) -> PySide {
        match s {
            Side::Blue => PySide::Blue,
            Side::Red => PySide::Red,
        }
    }
}

/// An animal of one side. ``Piece(Side.RED, Animal.LION)``; ``Piece.from_symbol("l")`` reads a FEN letter
/// (uppercase Blue, lowercase Red).
#[pyclass(name = "Piece", module = "doushouqi", frozen, eq, hash, from_py_object)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PyPiece(pub Piece);

#[pymethods]
impl PyPiece {
    #[new]
    fn new(side: PySide, animal: PyAnimal) -> PyPiece {
        PyPiece(Piece::new(side.into(), animal.0))
    }

    #[staticmethod]
    fn from_symbol(symbol: &str) -> PyResult<PyPiece> {
        let mut chars = symbol.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Piece::from_fen_char(c).map(PyPiece),
            _ => None,
        }
        .ok_or_else(|| {
            value_error(format!(
                "piece symbol \"{symbol}\" should be one of RCWDPTLE (Blue) or rcwdptle (Red)"
            ))
        })
    }

    #[getter]
    fn side(&self) -> PySide {
        self.0.side.into()
    }

    #[getter]
    fn animal(&self) -> PyAnimal {
        PyAnimal(self.0.animal)
    }

    /// The FEN letter: uppercase for Blue, lowercase for Red.
    fn symbol(&self) -> char {
        self.0.fen_char()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Piece.from_symbol('{}')", self.0.fen_char())
    }

    /// Pickles as its side and animal.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyAny>, (PySide, PyAnimal)) {
        let p = slf.get().0;
        (
            slf.get_type().into_any(),
            (p.side.into(), PyAnimal(p.animal)),
        )
    }
}

/// A square argument: an index ``0..63`` or a name like ``"a3"``.
#[derive(Debug, FromPyObject)]
pub enum SquareArg {
    Index(i64),
    Name(String),
}

impl SquareArg {
    pub fn square(&self) -> PyResult<Square> {
        match self {
            SquareArg::Index(i) => u8::try_from(*i)
                .ok()
                .and_then(Square::new)
                .ok_or_else(|| value_error(format!("square {i} is not on the board (0..62)"))),
            SquareArg::Name(name) => name.parse().map_err(value_error),
        }
    }
}

/// The name of a square index: ``square_name(0) == "a1"``.
#[pyfunction]
pub fn square_name(square: SquareArg) -> PyResult<String> {
    Ok(square.square()?.to_string())
}

/// The index of a square name: ``parse_square("a1") == 0``.
#[pyfunction]
pub fn parse_square(name: &str) -> PyResult<usize> {
    name.parse::<Square>()
        .map(Square::index)
        .map_err(value_error)
}

/// Adds the classes, the square functions and the constants ``A1`` … ``G9`` to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPiece>()?;
    m.add_function(wrap_pyfunction!(square_name, m)?)?;
    m.add_function(wrap_pyfunction!(parse_square, m)?)?;
    for sq in Square::all() {
        m.add(sq.to_string().to_uppercase().as_str(), sq.index())?;
    }
    m.add(
        "SQUARE_NAMES",
        Square::all().map(|s| s.to_string()).collect::<Vec<_>>(),
    )?;
    Ok(())
}
