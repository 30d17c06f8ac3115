"""Engines in other processes: any program speaking the protocol of ``jungle uci`` (UCI grammar, Jungle moves).

>>> import jungle, jungle.uci
>>> with jungle.uci.Engine(["jungle", "uci"]) as engine:          # doctest: +SKIP
...     engine.search(jungle.Game(), depth=6).best_move
"""

from ._jungle import UciEngine as Engine
from ._jungle import UciResult

__all__ = ["Engine", "UciResult"]
