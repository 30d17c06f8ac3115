import numpy as np
import pytest

import jungle


@pytest.mark.parametrize(
    "rules,max_plies",
    [("standard", 1000), ("quiet-ply-limit=12,repetition-draw=2", 1000), ("animal-checkers", 40)],
)
def test_vector_games_match_the_one_game_api(rules, max_plies):
    n = 6
    env = jungle.VectorEnv(n, rules=rules, seed=3, max_plies=max_plies)
    games = [jungle.Game(rules) for _ in range(n)]
    endings = 0
    for _ in range(300):
        actions = env.sample_actions()
        assert all(env.action_masks[i, a] for i, a in enumerate(actions))
        obs, rewards, terminated, truncated = env.step(actions)
        for i, game in enumerate(games):
            mover = game.turn
            game.play_action(int(actions[i]))
            outcome = game.outcome()
            assert terminated[i] == (outcome is not None)
            assert truncated[i] == (outcome is None and len(game) >= max_plies)
            expected = 0.0 if outcome is None or outcome.winner is None else (1.0 if outcome.winner == mover else -1.0)
            assert rewards[i] == expected
            if terminated[i] or truncated[i]:
                endings += 1
                games[i] = game = jungle.Game(rules)
            assert (obs[i] == game.observation()).all(), (i, game.fen())
            assert (env.action_masks[i] == game.action_mask()).all()
            assert env.fen(i) == game.fen()
    assert endings > 0


def test_an_illegal_action_changes_nothing():
    env = jungle.VectorEnv(3)
    before = env.observations.copy()
    actions = env.sample_actions()
    bad = np.flatnonzero(~env.action_masks[1])[0]
    actions[1] = bad
    with pytest.raises(ValueError, match="game 1: action"):
        env.step(actions)
    assert (env.observations == before).all() and env.fen(1) == jungle.START_FEN
    with pytest.raises(ValueError, match="2 actions for 3 games"):
        env.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError):
        jungle.VectorEnv(0)
    with pytest.raises(ValueError, match="already decided"):
        jungle.VectorEnv(1, fen="L6/7/7/7/7/7/7/7/3r3 w")


def test_seeded_playouts_repeat():
    def run(seed):
        env = jungle.VectorEnv(4, seed=seed)
        out = []
        for _ in range(50):
            a = env.sample_actions()
            env.step(a)
            out.append(a.copy())
        return np.array(out)

    assert (run(5) == run(5)).all()
    assert (run(5) != run(6)).any()
    env = jungle.VectorEnv(4, seed=9)
    first = [env.sample_actions() for _ in range(1)]
    env.reset(seed=9)
    assert (env.sample_actions() == first[0]).all()
    assert (env.observations == jungle.Game().observation()).all()


def test_arrays_are_preallocated_and_reused():
    env = jungle.VectorEnv(5)
    arrays = (env.observations, env.rewards, env.terminated, env.truncated)
    out = env.step(env.sample_actions())
    assert all(a is b or np.shares_memory(a, b) for a, b in zip(arrays, out))
    assert env.observations.shape == (5, 26, 9, 7) and env.action_masks.shape == (5, 252)


def test_repetition_draw_and_repetition_plane():
    env = jungle.VectorEnv(2)
    shuffle = [jungle.Move.parse(m).action() for m in "a1a2 g9g8 a2a1 g8g9".split()]
    for ply, action in enumerate(shuffle * 2):
        obs, rewards, terminated, truncated = env.step(np.array([action, action], dtype=np.int64))
        if ply < 7:
            assert not terminated.any()
        if ply == 3:
            assert (obs[:, 22] == 1).all()  # the start position, seen once before
    assert terminated.all() and (rewards == 0).all() and not truncated.any()
    assert env.fen(0) == jungle.START_FEN and (env.observations[:, 22] == 0).all()
