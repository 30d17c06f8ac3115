"""A PettingZoo AEC environment: two agents, ``"blue"`` and ``"red"``, alternate in one game of Jungle.

Each agent observes ``{"observation": (26, 9, 7) uint8 planes, "action_mask": (252,) int8}`` (the mask is
all zero when it is not the agent's turn). Rewards at the end: +1 for the winner, -1 for the loser, 0 for a
draw. Needs ``pettingzoo`` (``pip install doushouqi[pettingzoo]``).
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Union

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ._core import ACTION_COUNT, OBSERVATION_SHAPE, Game, Rules
from ._enums import Side

AGENTS = {Side.BLUE: "blue", Side.RED: "red"}


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's standard checks (illegal moves end the game, order enforced)."""
    wrapped = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):
    """The AEC environment without wrappers: ``raw_env(rules=None, max_plies=1000, render_mode=None)``."""

    metadata = {"render_modes": ["ansi"], "name": "jungle_v0", "is_parallelizable": False, "render_fps": 1}

    def __init__(
        self, rules: Union[Rules, str, None] = None, max_plies: int = 1000, render_mode: Optional[str] = None
    ) -> None:
        super().__init__()
        self.rules = Rules(rules) if isinstance(rules, str) else (rules or Rules())
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.possible_agents = ["blue", "red"]
        self.agents = self.possible_agents[:]
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0, 255, OBSERVATION_SHAPE, np.uint8),
                    "action_mask": spaces.Box(0, 1, (ACTION_COUNT,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(ACTION_COUNT) for a in self.possible_agents}
        self.game = Game(rules=self.rules)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        mask = np.zeros(ACTION_COUNT, np.int8)
        if agent == self.agent_selection:
            mask[:] = self.game.action_mask()
        return {"observation": self.game.observation(), "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        self.game = Game((options or {}).get("fen"), rules=self.rules)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = AGENTS[self.game.turn]

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is only for agents whose game has ended")
        self._cumulative_rewards[agent] = 0
        self.game.play_action(int(action))
        outcome = self.game.outcome()
        if outcome is not None:
            for side, name in AGENTS.items():
                self.rewards[name] = 0 if outcome.winner is None else (1 if outcome.winner == side else -1)
                self.terminations[name] = True
        elif len(self.game) >= self.max_plies:
            self.truncations = {a: True for a in self.agents}
        self.agent_selection = AGENTS[self.game.turn]
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> Optional[str]:
        return repr(self.game.position) if self.render_mode == "ansi" else None

    def close(self) -> None:
        pass
