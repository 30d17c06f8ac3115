"""Engines in other processes: any program speaking the protocol of ``jungle uci`` (UCI grammar, Jungle moves).

>>> import doushouqi as dsq
>>> with dsq.uci.Engine(["jungle", "uci"]) as engine:          # doctest: +SKIP
...     engine.search(dsq.Game(), depth=6).best_move
"""

from ._core import UciEngine as Engine
from ._core import UciResult

__all__ = ["Engine", "UciResult"]
