import numpy as np
import pytest

import jungle

gym_env = pytest.importorskip("jungle.gym")
pz = pytest.importorskip("jungle.pettingzoo")


def test_gymnasium_env_passes_the_checker():
    from gymnasium.utils.env_checker import check_env

    check_env(gym_env.JungleEnv(), skip_render_check=True)


def test_gym_games_end_with_the_right_reward():
    env = gym_env.JungleEnv(opponent="random", agent_side=jungle.Side.RED)
    rng = np.random.default_rng(0)
    for episode in range(5):
        obs, info = env.reset(seed=episode)
        assert env.game.turn == jungle.Side.RED and len(env.game) == 1
        done = False
        while not done:
            action = rng.choice(np.flatnonzero(info["action_mask"]))
            obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        outcome = env.game.outcome()
        if terminated:
            expected = 0 if outcome.winner is None else (1 if outcome.winner == jungle.Side.RED else -1)
            assert reward == expected
        assert obs.shape == jungle.OBSERVATION_SHAPE


def test_gym_env_against_the_engine_and_self_play():
    env = gym_env.JungleEnv(opponent=jungle.Engine(), opponent_depth=1, max_plies=6)
    obs, info = env.reset(seed=1)
    steps = 0
    truncated = terminated = False
    while not (terminated or truncated):
        _, _, terminated, truncated, info = env.step(np.flatnonzero(info["action_mask"])[0])
        steps += 1
    assert truncated and len(env.game) == 6 and steps == 3
    selfplay = gym_env.JungleEnv(opponent=None, illegal_action="raise")
    _, info = selfplay.reset()
    selfplay.step(jungle.Move.parse("a3a4").action())
    assert selfplay.game.turn == jungle.Side.RED
    with pytest.raises(jungle.IllegalMoveError):
        selfplay.step(jungle.Move.parse("a3a4").action())
    with pytest.raises(ValueError):
        gym_env.JungleEnv(opponent="strong")
    loser = gym_env.JungleEnv()
    loser.reset()
    _, reward, terminated, _, info = loser.step(jungle.D1 * 4)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    assert loser.game.outcome() == jungle.Outcome(jungle.Side.RED, "resignation")


def test_pettingzoo_env_passes_the_api_test():
    from pettingzoo.test import api_test

    api_test(pz.env(), num_cycles=300)


def test_pettingzoo_game_to_the_end():
    env = pz.raw_env(rules="quiet-ply-limit=20")
    env.reset(seed=0)
    rng = np.random.default_rng(1)
    final = {}
    for agent in env.agent_iter(max_iter=1000):
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            final[agent] = reward
            env.step(None)
            continue
        other = "red" if agent == "blue" else "blue"
        assert env.observe(other)["action_mask"].sum() == 0
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    outcome = env.game.outcome()
    assert outcome is not None and set(final) == {"blue", "red"}
    if outcome.winner is None:
        assert final == {"blue": 0, "red": 0}
    else:
        winner = "blue" if outcome.winner == jungle.Side.BLUE else "red"
        assert final[winner] == 1 and sum(final.values()) == 0
