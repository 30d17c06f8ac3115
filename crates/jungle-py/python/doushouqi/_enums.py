"""``Side`` and ``Animal``: the game's two enumerations, as ``enum.IntEnum`` so they iterate, pickle, copy and
compare like any Python enum; the compiled classes take and return these members."""

from __future__ import annotations

import enum

__all__ = ["Animal", "Side"]


class Side(enum.IntEnum):
    """One of the two players. Blue moves first (FEN ``w``, PGN "White"); Red second (``b``, "Black")."""

    BLUE = 0
    RED = 1

    def opponent(self) -> Side:
        """The other side."""
        return Side.RED if self is Side.BLUE else Side.BLUE

    def __str__(self) -> str:
        return self.name.lower()

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


class Animal(enum.IntEnum):
    """The eight animals, by standard rank: RAT (1) … ELEPHANT (8). ``int(animal)`` is ``rank - 1``."""

    RAT = 0
    CAT = 1
    WOLF = 2
    DOG = 3
    LEOPARD = 4
    TIGER = 5
    LION = 6
    ELEPHANT = 7

    @property
    def letter(self) -> str:
        """The uppercase letter of FEN and move notation: ``R C W D P T L E``."""
        return "RCWDPTLE"[self.value]

    @property
    def rank(self) -> int:
        """The standard rank, 1 (Rat) to 8 (Elephant)."""
        return self.value + 1

    def __str__(self) -> str:
        return self.name.lower()

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)
