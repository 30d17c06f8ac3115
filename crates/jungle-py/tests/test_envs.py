import numpy as np
import pytest

import doushouqi as dsq

gym_env = pytest.importorskip("doushouqi.gym")
pz = pytest.importorskip("doushouqi.pettingzoo")


def test_gymnasium_env_passes_the_checker():
    from gymnasium.utils.env_checker import check_env

    check_env(gym_env.JungleEnv(), skip_render_check=True)


def test_gym_games_end_with_the_right_reward():
    env = gym_env.JungleEnv(opponent="random", agent_side=dsq.Side.RED)
    rng = np.random.default_rng(0)
    for episode in range(5):
        obs, info = env.reset(seed=episode)
        assert env.game.turn == dsq.Side.RED and len(env.game) == 1
        done = False
        while not done:
            action = rng.choice(np.flatnonzero(info["action_mask"]))
            obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        outcome = env.game.outcome()
        if terminated:
            expected = 0 if outcome.winner is None else (1 if outcome.winner == dsq.Side.RED else -1)
            assert reward == expected
        assert obs.shape == dsq.OBSERVATION_SHAPE


def test_gym_env_against_the_engine_and_self_play():
    env = gym_env.JungleEnv(opponent=dsq.Engine(), opponent_depth=1, max_plies=6)
    obs, info = env.reset(seed=1)
    steps = 0
    truncated = terminated = False
    while not (terminated or truncated):
        _, _, terminated, truncated, info = env.step(np.flatnonzero(info["action_mask"])[0])
        steps += 1
    assert truncated and len(env.game) == 6 and steps == 3
    selfplay = gym_env.JungleEnv(opponent=None, illegal_action="raise")
    _, info = selfplay.reset()
    selfplay.step(dsq.Move.parse("a3a4").action())
    assert selfplay.game.turn == dsq.Side.RED
    with pytest.raises(dsq.IllegalMoveError):
        selfplay.step(dsq.Move.parse("a3a4").action())
    with pytest.raises(ValueError):
        gym_env.JungleEnv(opponent="strong")
    loser = gym_env.JungleEnv()
    loser.reset()
    _, reward, terminated, _, info = loser.step(dsq.D1 * 4)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    assert loser.game.outcome() == dsq.Outcome(dsq.Side.RED, "resignation")


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
        winner = "blue" if outcome.winner == dsq.Side.BLUE else "red"
        assert final[winner] == 1 and sum(final.values()) == 0


def test_action_masks_for_maskable_ppo():
    env = gym_env.JungleEnv()
    _, info = env.reset(seed=0)
    assert (env.action_masks() == info["action_mask"]).all() and env.action_masks().dtype == np.bool_


def test_the_vector_env_is_a_gymnasium_vector_env():
    import gymnasium
    from gymnasium.vector import AutoresetMode

    env = gym_env.JungleVectorEnv(4, seed=0, max_plies=12)
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert env.single_observation_space.shape == dsq.OBSERVATION_SHAPE
    assert env.observation_space.shape == (4, *dsq.OBSERVATION_SHAPE)
    assert env.single_action_space.n == dsq.ACTION_COUNT and env.action_space.shape == (4,)
    obs, infos = env.reset(seed=1)
    assert obs in env.observation_space and infos["action_mask"].shape == (4, dsq.ACTION_COUNT)
    games = [dsq.Game() for _ in range(4)]
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(30):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.action_masks()])
        obs, rewards, terminated, truncated, infos = env.step(actions)
        assert obs in env.observation_space and rewards.dtype == np.float32
        for i, game in enumerate(games):
            game.play_action(int(actions[i]))
            if terminated[i] or truncated[i]:
                ended += 1
                assert infos["_final_obs"][i] and (infos["final_obs"][i] == game.observation()).all()
                games[i] = game = dsq.Game()
            elif "_final_obs" in infos:
                assert not infos["_final_obs"][i] and infos["final_obs"][i] is None
            assert (obs[i] == game.observation()).all()
            assert (infos["action_mask"][i] == game.action_mask()).all()
    assert ended >= 4  # max_plies=12 cuts each game by the 12th step at the latest
    env.close()
    assert env.closed


def test_the_vector_env_copies_unless_told_not_to():
    copying = gym_env.JungleVectorEnv(2)
    obs, _ = copying.reset()
    obs[0] = 7  # the caller's own array
    assert copying.env.observations[0].max() == 1
    raw = gym_env.JungleVectorEnv(2, copy=False)
    obs, _ = raw.reset()
    assert obs is raw.env.observations and not obs.flags.writeable


def test_gymnasium_vector_wrappers_accept_it():
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    env = RecordEpisodeStatistics(gym_env.JungleVectorEnv(3, max_plies=5))
    env.reset(seed=0)
    finished = []
    for _ in range(12):
        _, _, _, _, infos = env.step(env.unwrapped.env.sample_actions())
        if "episode" in infos:
            finished.extend(infos["episode"]["l"][infos["_episode"]])
    assert finished and all(length == 5 for length in finished)
