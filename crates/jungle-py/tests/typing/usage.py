"""A user's script, checked by `mypy --strict` and pyright in strict mode (tests/test_types.py): every name it
uses must be exported and typed so that neither checker complains."""

# pyright: strict

from __future__ import annotations

import copy
import pickle
from typing import List, Optional

import numpy as np
import numpy.typing as npt

import doushouqi as dsq
import doushouqi.pgn
from doushouqi import Animal, Game, Move, Position, Side, VectorEnv


def random_playout(game: Game, seed: int) -> Optional[dsq.Outcome]:
    rng = np.random.default_rng(seed)
    while not game.is_over() and len(game) < 200:
        actions = np.flatnonzero(game.action_mask())
        game.play_action(int(rng.choice(actions)))
    return game.outcome()


def batch(env: VectorEnv) -> npt.NDArray[np.float32]:
    logits = np.zeros((env.num_envs, dsq.ACTION_COUNT), dtype=np.float32)
    actions, observations, rewards, terminated, truncated = env.step_logits(logits)
    assert actions.shape == rewards.shape == terminated.shape == truncated.shape
    env.step(env.sample_masked(env.action_masks.astype(np.float32)))
    mirrored: npt.NDArray[np.uint8] = dsq.mirror_observations(observations)
    assert mirrored.shape == observations.shape
    return env.float_observations()


def main() -> None:
    position = Position(dsq.START_FEN, rules=dsq.Rules("modern"))
    move: Move = position.push("a3a4")
    side: Side = position.turn
    piece = position.piece_at(dsq.A4)
    animal: Optional[Animal] = piece.animal if piece is not None else None
    print(move, side.opponent(), animal, dsq.__version__, dsq.square_name(dsq.G9))
    game = copy.deepcopy(Game(rules="modern"))
    outcome = random_playout(pickle.loads(pickle.dumps(game)), seed=1)
    print(outcome.termination if outcome is not None else "unfinished")
    record = doushouqi.pgn.PgnGame(game, [("White", "Ann")])
    games: List[doushouqi.pgn.PgnGame] = doushouqi.pgn.read_games(str(record))
    print(len(games), Move.from_action(56, Position()), dsq.mirror_actions([56]))
    print(batch(VectorEnv(8, seed=0)).shape)
    hidden = dsq.HiddenGame(blue="random", seed=1)
    print(hidden.view_fen(Side.RED), [a.letter for a in Animal])


if __name__ == "__main__":
    main()
