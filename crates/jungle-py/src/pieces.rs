//! Squares, sides, animals and pieces as Python values.
//!
//! Squares are ints ``0..63`` (a1 = 0, g1 = 6, a2 = 7, …, g9 = 62: ``(rank - 1) * 7 + file``), with the module
//! constants ``jungle.A1`` … ``jungle.G9``; every function that takes a square also accepts its name (``"a3"``).

use jungle_rules::{Animal, Piece, Side, Square};
use pyo3::prelude::*;

use crate::errors::value_error;

/// One of the two players. Blue moves first (FEN ``w``, PGN "White"); Red second (``b``, "Black").
#[pyclass(
    name = "Side",
    module = "jungle",
    eq,
    eq_int,
    frozen,
    hash,
    from_py_object
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PySide {
    #[pyo3(name = "BLUE")]
    Blue = 0,
    #[pyo3(name = "RED")]
    Red = 1,
}

#[pymethods]
impl PySide {
    /// The other side.
    fn opponent(&self) -> PySide {
        (!Side::from(*self)).into()
    }

    fn __str__(&self) -> &'static str {
        Side::from(*self).name()
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

/// The eight animals, by standard rank: RAT (1) … ELEPHANT (8). ``int(animal)`` is ``rank - 1``.
#[pyclass(
    name = "Animal",
    module = "jungle",
    eq,
    eq_int,
    frozen,
    hash,
    from_py_object
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PyAnimal {
    #[pyo3(name = "RAT")]
    Rat = 0,
    #[pyo3(name = "CAT")]
    Cat = 1,
    #[pyo3(name = "WOLF")]
    Wolf = 2,
    #[pyo3(name = "DOG")]
    Dog = 3,
    #[pyo3(name = "LEOPARD")]
    Leopard = 4,
    #[pyo3(name = "TIGER")]
    Tiger = 5,
    #[pyo3(name = "LION")]
    Lion = 6,
    #[pyo3(name = "ELEPHANT")]
    Elephant = 7,
}

const PY_ANIMALS: [PyAnimal; 8] = [
    PyAnimal::Rat,
    PyAnimal::Cat,
    PyAnimal::Wolf,
    PyAnimal::Dog,
    PyAnimal::Leopard,
    PyAnimal::Tiger,
    PyAnimal::Lion,
    PyAnimal::Elephant,
];

#[pymethods]
impl PyAnimal {
    /// The uppercase letter: ``R C W D P T L E``.
    #[getter]
    fn letter(&self) -> char {
        Animal::from(*self).letter()
    }

    fn __str__(&self) -> &'static str {
        Animal::from(*self).name()
    }
}

impl From<PyAnimal> for Animal {
    fn from(a: PyAnimal) -> Animal {
        Animal::ALL[a as usize]
    }
}

impl From<Animal> for PyAnimal {
    fn from(a: Animal) -> PyAnimal {
        PY_ANIMALS[a.index()]
    }
}

/// An animal of one side. ``Piece(Side.RED, Animal.LION)``; ``Piece.from_symbol("l")`` reads a FEN letter
/// (uppercase Blue, lowercase Red).
#[pyclass(name = "Piece", module = "jungle", frozen, eq, hash, from_py_object)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PyPiece(pub Piece);

#[pymethods]
impl PyPiece {
    #[new]
    fn new(side: PySide, animal: PyAnimal) -> PyPiece {
        PyPiece(Piece::new(side.into(), animal.into()))
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
        self.0.animal.into()
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
    m.add_class::<PySide>()?;
    m.add_class::<PyAnimal>()?;
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
