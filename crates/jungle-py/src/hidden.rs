//! `doushouqi.HiddenGame`: Hidden Jungle, where each side's animals start face down, seen only as each player
//! may see them.

use jungle_hidden::{Arrangement, HiddenGame};
use jungle_rules::{Rules, Side};
use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyList;
use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::encoding::{self, ACTIONS, OBSERVATION_SIZE, Observer, PLANES};
use crate::errors::{move_error, value_error};
use crate::moves::{MoveArg, py_moves};
use crate::outcome::PyOutcome;
use crate::pieces::PySide;
use crate::rules::{PyRules, RulesArg};

/// A Hidden Jungle game (docs/rules.md §9): ``HiddenGame(rules=None, blue="random", red="random", seed=None)``.
///
/// A setup is ``"random"`` (from ``seed``), ``"standard"``, or the animal letters on the side's start squares in
/// increasing square order (``"LTCDEWPR"``). Nothing here hands out the hidden animals while the game goes on:
/// ``view_fen(side)`` and ``observation(side)`` hold only what that player knows (``X``/``x`` and plane 24 for
/// enemy pieces of unknown animal), and ``legal_moves`` are the mover's own (an attack onto any enemy piece
/// included).
///
/// Copies (``copy.copy``, ``copy.deepcopy``) are independent games in the same state. Pickling writes the whole
/// true game, both secret setups included, as the referee holds it: hand players their views, not the pickle.
#[pyclass(name = "HiddenGame", module = "doushouqi")]
#[derive(Clone, Debug)]
pub struct PyHiddenGame {
    game: HiddenGame,
    observer: Observer,
}

fn arrangement(rules: &Rules, side: Side, text: &str, rng: &mut StdRng) -> PyResult<Arrangement> {
    match text {
        "random" => Ok(Arrangement::random(rules, side, rng)),
        "standard" => Ok(Arrangement::standard(rules, side)),
        letters => Arrangement::parse(rules, side, letters).map_err(|e| {
            value_error(format!(
                "{} setup \"{letters}\": {e}; a setup is \"random\", \"standard\" or the animal letters on \
                 the start squares in increasing square order (\"{}\" is the standard one)",
                side.name().to_lowercase(),
                letters_of(&Arrangement::standard(rules, side))
            ))
        }),
    }
}

/// An arrangement as its animal letters, in increasing square order.
fn letters_of(arrangement: &Arrangement) -> String {
    arrangement.animals().iter().map(|a| a.letter()).collect()
}

#[pymethods]
impl PyHiddenGame {
    #[new]
    #[pyo3(signature = (rules = None, blue = "random", red = "random", seed = None))]
    fn new(
        rules: Option<RulesArg<'_>>,
        blue: &str,
        red: &str,
        seed: Option<u64>,
    ) -> PyResult<PyHiddenGame> {
        let rules = RulesArg::resolve(rules)?;
        let mut rng = match seed {
            Some(s) => StdRng::seed_from_u64(s),
            None => StdRng::from_os_rng(),
        };
        let blue = arrangement(&rules, Side::Blue, blue, &mut rng)?;
        let red = arrangement(&rules, Side::Red, red, &mut rng)?;
        let observer = Observer::new(&rules);
        let game = HiddenGame::new(rules, blue, red).map_err(value_error)?;
        Ok(PyHiddenGame { game, observer })
    }

    #[getter]
    fn rules(&self) -> PyRules {
        PyRules(self.game.rules().clone())
    }

    #[getter]
    fn turn(&self) -> PySide {
        self.game.side_to_move().into()
    }

    /// The mover's legal moves, sorted; none once the game is over.
    #[getter]
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mut moves = self.game.legal_moves();
        moves.sort_unstable();
        py_moves(py, &moves)
    }

    /// Plays a move of the side to move and returns its public text (what both players see, e.g. an attack's
    /// result); ``IllegalMoveError`` otherwise.
    fn play(&mut self, r#move: MoveArg) -> PyResult<String> {
        let m = r#move.parse()?;
        self.game.play(m).map(|p| p.to_string()).map_err(move_error)
    }

    /// Plays the move of an action (``from_square * 4 + direction``).
    fn play_action(&mut self, action: i64) -> PyResult<String> {
        let m = usize::try_from(action)
            .ok()
            .and_then(|a| {
                let moves = self.game.legal_moves();
                moves.iter().copied().find(|&m| encoding::encode(m) == a)
            })
            .ok_or_else(|| move_error(format!("action {action} is not a legal move now")))?;
        self.game.play(m).map(|p| p.to_string()).map_err(move_error)
    }

    /// The mover's legal actions, ``(252,) bool``.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; ACTIONS];
        for m in self.game.legal_moves().iter() {
            mask[encoding::encode(*m)] = true;
        }
        PyArray1::from_vec(py, mask)
    }

    /// The public moves so far, as text.
    #[getter]
    fn history(&self) -> Vec<String> {
        self.game
            .history()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn outcome(&self) -> Option<PyOutcome> {
        self.game.outcome().map(PyOutcome)
    }

    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The view FEN of a player (``None``: a spectator): ``X``/``x`` for a Blue/Red piece it cannot name.
    #[pyo3(signature = (viewer))]
    fn view_fen(&self, viewer: Option<PySide>) -> String {
        self.game.view(viewer.map(Into::into)).fen()
    }

    fn __copy__(&self) -> PyHiddenGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyHiddenGame {
        self.clone()
    }

    /// Pickles as the rules and both setups, then the moves (replayed).
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (Bound<'py, PyAny>, (String, String, String), Vec<String>) {
        let game = &slf.borrow().game;
        let args = (
            game.rules().to_string(),
            letters_of(game.arrangement(Side::Blue)),
            letters_of(game.arrangement(Side::Red)),
        );
        let moves = game.history().iter().map(|p| p.mv.to_string()).collect();
        (slf.get_type().into_any(), args, moves)
    }

    fn __setstate__(&mut self, moves: Vec<String>) -> PyResult<()> {
        for m in moves {
            let m = MoveArg::Text(m).parse()?;
            self.game.play(m).map_err(move_error)?;
        }
        Ok(())
    }

    /// The observation planes of a player's view, ``(26, 9, 7) uint8``: only what that player knows.
    fn observation<'py>(
        &self,
        py: Python<'py>,
        viewer: PySide,
    ) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let mut planes = vec![0u8; OBSERVATION_SIZE];
        self.observer
            .write_view(&self.game.view(Some(viewer.into())), &mut planes);
        PyArray1::from_vec(py, planes).reshape([PLANES, 9, 7])
    }
}
