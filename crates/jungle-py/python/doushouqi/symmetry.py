"""Left–right mirror images (files a ↔ g) of observations, actions and per-action arrays, batched, for data
augmentation. The board, its terrain and every rule are symmetric about the d-file, so the mirror image of a
position is a position of the same game with the same value, and the mirrored move is its mirrored move.

>>> import doushouqi as dsq
>>> int(dsq.mirror_actions([dsq.Move.parse("a3b3").action()])[0]) == dsq.Move.parse("g3f3").action()
True
"""

from __future__ import annotations

from typing import TypeVar

import numpy as np
import numpy.typing as npt

from ._core import ACTION_COUNT, MIRRORED_ACTIONS, OBSERVATION_SHAPE

__all__ = ["mirror_actions", "mirror_observations", "mirror_policies"]

_T = TypeVar("_T", bound=np.generic)

# MIRRORED_ACTIONS[a] is the action of a's move mirrored; mirroring twice gives a back, so the table is also
# its own inverse.
_MIRRORED = np.array(MIRRORED_ACTIONS, dtype=np.int64)
_MIRRORED.flags.writeable = False


def mirror_observations(observations: npt.NDArray[_T]) -> npt.NDArray[_T]:
    """The planes of the mirrored positions: ``(..., 26, 9, 7)`` in, the same shape and dtype out (a new
    C-contiguous array, files reversed)."""
    if observations.shape[-3:] != OBSERVATION_SHAPE:
        raise ValueError(f"observations should end in the shape {OBSERVATION_SHAPE}, got {observations.shape}")
    return np.ascontiguousarray(observations[..., ::-1])


def mirror_actions(actions: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """The actions of the mirrored moves, for any shape of integer actions in ``0..252``."""
    array = np.asarray(actions)
    if array.dtype.kind not in "iu":
        raise TypeError(f"actions should be integers, got an array of {array.dtype}")
    if array.size and (array.min() < 0 or array.max() >= ACTION_COUNT):
        raise ValueError(f"actions should be 0 to {ACTION_COUNT - 1}")
    mirrored: npt.NDArray[np.int64] = _MIRRORED[array]
    return mirrored


def mirror_policies(policies: npt.NDArray[_T]) -> npt.NDArray[_T]:
    """Per-action arrays of the mirrored positions — policies, logits, visit counts, legal-action masks:
    ``(..., 252)`` in, the same shape and dtype out, each value moved to its mirrored action."""
    if policies.shape[-1:] != (ACTION_COUNT,):
        raise ValueError(f"policies should end in the axis of the {ACTION_COUNT} actions, got {policies.shape}")
    return policies[..., _MIRRORED]
