"""Gymnasium environments: ``JungleEnv``, one game of Jungle with the agent against an opponent (or itself), and
``JungleVectorEnv``, a ``gymnasium.vector.VectorEnv`` stepping many self-play games at once in Rust.

Actions are ``from_square * 4 + direction`` (``doushouqi.ACTION_COUNT`` = 252, see the package README); the
legal ones are ``info["action_mask"]`` and ``action_masks()`` (what sb3-contrib's ``MaskablePPO`` asks for).
Observations are ``doushouqi.OBSERVATION_SHAPE`` = ``(26, 9, 7)`` uint8 planes (``doushouqi.PLANE_NAMES``).
Needs ``gymnasium`` (``pip install doushouqi[gym]``).
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ._core import ACTION_COUNT, OBSERVATION_SHAPE, Engine, Game, Move, Rules, VectorEnv
from ._enums import Side

__all__ = ["JungleEnv", "JungleVectorEnv", "Opponent"]

Opponent = Union[None, str, Engine, Callable[[Game], Union[Move, str]]]
Observation = npt.NDArray[np.uint8]
Action = Union[int, np.integer[Any]]


def _rules(rules: Union[Rules, str, None]) -> Rules:
    return Rules(rules) if isinstance(rules, str) else (rules or Rules())


class JungleEnv(gymnasium.Env[Observation, Action]):
    """One game under ``rules``; the agent plays ``agent_side``.

    ``opponent`` answers each agent move: ``"random"`` (uniform over legal moves, from the env's seeded
    generator), a ``doushouqi.Engine`` (searching ``opponent_depth`` plies), a callable ``game -> Move or text``,
    or ``None`` for self-play (the agent moves for both sides; rewards are then the mover's). Reward: +1 when
    the agent wins, -1 when it loses, 0 otherwise. ``truncated`` after ``max_plies`` plies. An action without a
    legal move loses the game at once (reward -1, ``info["illegal_action"]``) with ``illegal_action="lose"``
    (the default, so unmasked samplers work), or raises ``IllegalMoveError`` with ``illegal_action="raise"``.
    ``copy.deepcopy`` and ``pickle`` copy the whole environment, game and random generator included (an
    ``Engine`` opponent is not copied: it is shared by ``copy.deepcopy`` and cannot be pickled).
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
        self.rules = _rules(rules)
        self.opponent = opponent
        self.agent_side = agent_side
        self.opponent_depth = opponent_depth
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.observation_space = spaces.Box(0, 255, OBSERVATION_SHAPE, np.uint8)
        self.action_space = spaces.Discrete(ACTION_COUNT)
        self.game = Game(rules=self.rules)

    def __deepcopy__(self, memo: Dict[int, Any]) -> JungleEnv:
        # An engine holds threads and a hash table: the copy shares it, as the Engine cannot be copied.
        twin = object.__new__(JungleEnv)
        memo[id(self)] = twin
        for name, value in self.__dict__.items():
            shared = name == "opponent" and isinstance(value, Engine)
            setattr(twin, name, value if shared else copy.deepcopy(value, memo))
        return twin

    def _observe(self) -> Tuple[Observation, Dict[str, Any]]:
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

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, ``(252,) bool`` (sb3-contrib's ``MaskablePPO`` calls this)."""
        return self.game.action_mask()

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Observation, Dict[str, Any]]:
        super().reset(seed=seed)
        self.game = Game((options or {}).get("fen"), rules=self.rules)
        if self.opponent is not None and self.game.turn != self.agent_side and not self.game.is_over():
            self._opponent_move()
        return self._observe()

    def step(self, action: Action) -> Tuple[Observation, float, bool, bool, Dict[str, Any]]:
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


VectorStep = Tuple[
    Observation, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], Dict[str, Any]
]


class JungleVectorEnv(gymnasium.vector.VectorEnv[Observation, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` self-play games stepped together in Rust (``doushouqi.VectorEnv``), as a Gymnasium vector
    environment: ``reset() -> (observations, infos)``, ``step(actions) -> (observations, rewards, terminated,
    truncated, infos)``.

    Each game's reward is for the side that just moved (+1 win, -1 loss, 0 otherwise): the agent plays both
    sides. Autoreset is **same-step** (``metadata["autoreset_mode"]`` is ``AutoresetMode.SAME_STEP``): a game
    that ends restarts within the step, its returned observation is the new game's, and the finished game's last
    observation is ``infos["final_obs"][i]`` (``infos["_final_obs"]`` marks which games ended), so episodes cut
    at ``max_plies`` (``truncated``) can be bootstrapped. ``infos["action_mask"]`` ``(n, 252) bool`` holds the
    legal actions after the step, also returned by ``action_masks()``.

    With ``copy=True`` (the default, as Gymnasium's vector environments) the returned arrays are new each step;
    ``copy=False`` returns the raw environment's own read-only arrays, overwritten by the next step, and saves
    the copying. The raw interface — ``sample_actions``, ``sample_masked``, ``step_logits``,
    ``float_observations`` — is ``self.env``.
    """

    metadata: Dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int,
        rules: Union[Rules, str, None] = None,
        seed: int = 0,
        max_plies: int = 1000,
        fen: Optional[str] = None,
        copy: bool = True,
    ) -> None:
        self.env = VectorEnv(num_envs, rules=_rules(rules), seed=seed, max_plies=max_plies, fen=fen)
        self.num_envs = num_envs
        self.copy = copy
        self.single_observation_space = spaces.Box(0, 255, OBSERVATION_SHAPE, np.uint8)
        self.single_action_space = spaces.Discrete(ACTION_COUNT)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def _out(self, array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return array.copy() if self.copy else array

    def _infos(self) -> Dict[str, Any]:
        return {
            "action_mask": self._out(self.env.action_masks),
            "_action_mask": np.ones(self.num_envs, dtype=np.bool_),
        }

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every game now, ``(n, 252) bool``."""
        return self.env.action_masks.copy()

    def reset(
        self,
        *,
        seed: Union[int, List[int], None] = None,
        options: Optional[Dict[str, Any]] = None,
    ) -> Tuple[Observation, Dict[str, Any]]:
        """Restarts every game; ``seed`` (one int, or one per game) reseeds the games' generators."""
        if options:
            raise ValueError(f"reset takes no options, got {sorted(options)}")
        super().reset(seed=seed if isinstance(seed, int) else None)
        observations = self.env.reset(seed=seed)
        return self._out(observations), self._infos()

    def step(self, actions: npt.ArrayLike) -> VectorStep:
        observations, rewards, terminated, truncated = self.env.step(actions)
        infos = self._infos()
        ended = terminated | truncated
        if ended.any():
            final_obs = np.full(self.num_envs, None, dtype=object)
            finals = self.env.final_observations
            for i in np.flatnonzero(ended):
                final_obs[i] = finals[i].copy()
            infos["final_obs"], infos["_final_obs"] = final_obs, ended
            infos["final_info"], infos["_final_info"] = {}, ended.copy()
        return self._out(observations), self._out(rewards), self._out(terminated), self._out(truncated), infos
