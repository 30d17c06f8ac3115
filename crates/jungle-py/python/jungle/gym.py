"""A Gymnasium environment: one game of Jungle, the agent against an opponent (or itself).

Actions are ``from_square * 4 + direction`` (``jungle.ACTION_COUNT`` = 252, see the package README); the
legal ones are ``info["action_mask"]``. Observations are ``jungle.OBSERVATION_SHAPE`` = ``(26, 9, 7)`` uint8
planes (``jungle.PLANE_NAMES``). Needs ``gymnasium`` (``pip install jungle[gym]``).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Tuple, Union

import gymnasium
import numpy as np
from gymnasium import spaces

from ._jungle import ACTION_COUNT, OBSERVATION_SHAPE, Engine, Game, Move, Rules, Side

Opponent = Union[None, str, Engine, Callable[[Game], Union[Move, str]]]


class JungleEnv(gymnasium.Env):
    """One game under ``rules``; the agent plays ``agent_side``.

    ``opponent`` answers each agent move: ``"random"`` (uniform over legal moves, from the env's seeded
    generator), a ``jungle.Engine`` (searching ``opponent_depth`` plies), a callable ``game -> Move or text``,
    or ``None`` for self-play (the agent moves for both sides; rewards are then the mover's). Reward: +1 when
    the agent wins, -1 when it loses, 0 otherwise. ``truncated`` after ``max_plies`` plies. An action without a
    legal move loses the game at once (reward -1, ``info["illegal_action"]``) with ``illegal_action="lose"``
    (the default, so unmasked samplers work), or raises ``IllegalMoveError`` with ``illegal_action="raise"``.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        rules: Union[Rules, str, None] = None,
        opponent: Opponent = "random",
        agent_side: Side = Side.BLUE,
        opponent_depth: int = 2,
        max_plies: int = 1000,
        render_mode: Optional[str] = None,
        illegal_action: str = "lose",
    ) -> None:
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action {illegal_action!r} should be 'lose' or 'raise'")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r} should be None or 'ansi'")
        if isinstance(opponent, str) and opponent != "random":
            raise ValueError(f"opponent {opponent!r}: use 'random', an Engine, a callable or None")
        self.rules = Rules(rules) if isinstance(rules, str) else (rules or Rules())
        self.opponent = opponent
        self.agent_side = agent_side
        self.opponent_depth = opponent_depth
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.observation_space = spaces.Box(0, 255, OBSERVATION_SHAPE, np.uint8)
        self.action_space = spaces.Discrete(ACTION_COUNT)
        self.game = Game(self.rules)

    def _observe(self) -> Tuple[np.ndarray, Dict[str, Any]]:
        return self.game.observation(), {"action_mask": self.game.action_mask()}

    def _opponent_move(self) -> None:
        if self.opponent == "random":
            mask = self.game.action_mask()
            self.game.play_action(int(self.np_random.choice(np.flatnonzero(mask))))
        elif isinstance(self.opponent, Engine):
            best = self.opponent.search(self.game, depth=self.opponent_depth).best_move
            if best is None:  # only when the game is over, which the callers rule out
                raise RuntimeError(f"the engine found no move in {self.game.fen()}")
            self.game.play(best)
        elif callable(self.opponent):
            self.game.play(self.opponent(self.game))

    def _reward(self, side: Side) -> float:
        outcome = self.game.outcome()
        if outcome is None or outcome.winner is None:
            return 0.0
        return 1.0 if outcome.winner == side else -1.0

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        super().reset(seed=seed)
        self.game = Game(self.rules, fen=(options or {}).get("fen"))
        if self.opponent is not None and self.game.turn != self.agent_side and not self.game.is_over():
            self._opponent_move()
        return self._observe()

    def step(self, action: int) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        mover = self.game.turn
        if self.illegal_action == "lose" and not self.game.action_mask()[int(action)]:
            self.game.resign(mover)
            observation, info = self._observe()
            info["illegal_action"] = True
            return observation, -1.0, True, False, info
        self.game.play_action(int(action))
        if self.opponent is not None and not self.game.is_over() and len(self.game) < self.max_plies:
            self._opponent_move()
        side = mover if self.opponent is None else self.agent_side
        terminated = self.game.is_over()
        truncated = not terminated and len(self.game) >= self.max_plies
        observation, info = self._observe()
        return observation, self._reward(side), terminated, truncated, info

    def render(self) -> Optional[str]:
        return repr(self.game.position) if self.render_mode == "ansi" else None
