"""Game records in PGN: read one or many games with their headers, write them back.

>>> import doushouqi as dsq
>>> game = dsq.Game()
>>> _ = game.play("a3a4")
>>> record = dsq.pgn.PgnGame(game, [("White", "Ann")])
>>> dsq.pgn.read_game(str(record)).headers["White"]
'Ann'
"""

from __future__ import annotations

from typing import IO, List, Union

from ._core import PgnError, PgnGame, read_pgn_games

__all__ = ["PgnError", "PgnGame", "read_game", "read_games", "write_games"]


def _text(source: Union[str, IO[str]]) -> str:
    return source if isinstance(source, str) else source.read()


def read_games(source: Union[str, IO[str]]) -> List[PgnGame]:
    """Every game of a PGN text or text file (none for empty text). Raises ``PgnError`` (a ``ValueError``)
    naming game, line and column of the first problem; every move is checked under the game's rules."""
    return read_pgn_games(_text(source))


def read_game(source: Union[str, IO[str]]) -> PgnGame:
    """Exactly one game of a PGN text or text file; ``PgnError`` otherwise."""
    return PgnGame.parse(_text(source))


def write_games(records: List[PgnGame], file: IO[str]) -> None:
    """Writes records to a text file, one after another (each ends with a blank line)."""
    for record in records:
        file.write(str(record))
