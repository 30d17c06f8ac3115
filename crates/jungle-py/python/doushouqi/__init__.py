"""Jungle (Dou Shou Qi, Animal Chess) at Rust speed: the rules under every documented variation, the engine,
the endgame tablebases, and environments for agents.

>>> import doushouqi as dsq
>>> pos = dsq.Position(rules="modern")
>>> pos.push("a3a4")
Move.parse('a3a4')
>>> pos.turn
<Side.RED: 1>
"""

from ._core import (
    __version__,
    ACTION_COUNT,
    MIRRORED_ACTIONS,
    OBSERVATION_SHAPE,
    PLANE_NAMES,
    A1, A2, A3, A4, A5, A6, A7, A8, A9,
    B1, B2, B3, B4, B5, B6, B7, B8, B9,
    C1, C2, C3, C4, C5, C6, C7, C8, C9,
    D1, D2, D3, D4, D5, D6, D7, D8, D9,
    E1, E2, E3, E4, E5, E6, E7, E8, E9,
    F1, F2, F3, F4, F5, F6, F7, F8, F9,
    G1, G2, G3, G4, G5, G6, G7, G8, G9,
    SQUARE_NAMES,
    START_FEN,
    Engine,
    FenError,
    Game,
    HiddenGame,
    IllegalMoveError,
    Line,
    Move,
    Outcome,
    PgnError,
    Piece,
    Position,
    Rules,
    RulesError,
    Score,
    SearchResult,
    TablebaseError,
    TablebaseProbe,
    Tablebases,
    VectorEnv,
    parse_square,
    square_name,
)
from ._enums import Animal, Side
from .symmetry import mirror_actions, mirror_observations, mirror_policies
from . import pgn, uci

# doushouqi.gym and doushouqi.pettingzoo are imported on demand: they need the optional gymnasium / pettingzoo.

# Written out name by name (not computed) so that type checkers read it: mypy --strict and pyright take a name
# as exported only when __all__ lists it literally.
__all__ = [
    "__version__",
    "ACTION_COUNT",
    "MIRRORED_ACTIONS",
    "OBSERVATION_SHAPE",
    "PLANE_NAMES",
    "A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9",
    "B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9",
    "C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9",
    "D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8", "D9",
    "E1", "E2", "E3", "E4", "E5", "E6", "E7", "E8", "E9",
    "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9",
    "G1", "G2", "G3", "G4", "G5", "G6", "G7", "G8", "G9",
    "SQUARE_NAMES",
    "START_FEN",
    "Animal",
    "Engine",
    "FenError",
    "Game",
    "HiddenGame",
    "IllegalMoveError",
    "Line",
    "Move",
    "Outcome",
    "PgnError",
    "Piece",
    "Position",
    "Rules",
    "RulesError",
    "Score",
    "SearchResult",
    "Side",
    "TablebaseError",
    "TablebaseProbe",
    "Tablebases",
    "VectorEnv",
    "mirror_actions",
    "mirror_observations",
    "mirror_policies",
    "parse_square",
    "pgn",
    "square_name",
    "uci",
]
