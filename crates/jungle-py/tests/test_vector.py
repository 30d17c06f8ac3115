import numpy as np
import pytest

import doushouqi as dsq


@pytest.mark.parametrize(
    "rules,max_plies,n,steps",
    [
        ("standard", 1000, 6, 300),
        ("quiet-ply-limit=12,repetition-draw=2", 1000, 6, 300),
        ("animal-checkers", 40, 6, 300),
        ("quiet-ply-limit=12,repetition-draw=2", 30, 150, 40),
        # Past 2048 games a step is split into runs over the thread pool; below, it runs on the calling thread.
        # Runs of 512 games or more fetch each game's memory ahead of its step: here one run does, one does not.
        ("quiet-ply-limit=12,repetition-draw=2", 20, 2100, 25),
    ],
)
def test_vector_games_match_the_one_game_api(rules, max_plies, n, steps):
    env = dsq.VectorEnv(n, rules=rules, seed=3, max_plies=max_plies)
    games = [dsq.Game(rules=rules) for _ in range(n)]
    endings = 0
    for _ in range(steps):
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
                games[i] = game = dsq.Game(rules=rules)
            assert (obs[i] == game.observation()).all(), (i, game.fen())
            assert (env.action_masks[i] == game.action_mask()).all()
            assert env.fen(i) == game.fen()
    assert endings > 0


def test_an_illegal_action_changes_nothing():
    env = dsq.VectorEnv(3)
    before = env.observations.copy()
    actions = env.sample_actions()
    bad = np.flatnonzero(~env.action_masks[1])[0]
    actions[1] = bad
    with pytest.raises(ValueError, match="game 1: action"):
        env.step(actions)
    assert (env.observations == before).all() and env.fen(1) == dsq.START_FEN
    with pytest.raises(ValueError, match="2 actions for 3 games"):
        env.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError):
        dsq.VectorEnv(0)
    with pytest.raises(ValueError, match="already decided"):
        dsq.VectorEnv(1, fen="L6/7/7/7/7/7/7/7/3r3 w")


def test_seeded_playouts_repeat():
    def run(seed):
        env = dsq.VectorEnv(4, seed=seed)
        out = []
        for _ in range(50):
            a = env.sample_actions()
            env.step(a)
            out.append(a.copy())
        return np.array(out)

    assert (run(5) == run(5)).all()
    assert (run(5) != run(6)).any()
    env = dsq.VectorEnv(4, seed=9)
    first = [env.sample_actions() for _ in range(1)]
    env.reset(seed=9)
    assert (env.sample_actions() == first[0]).all()
    assert (env.observations == dsq.Game().observation()).all()


def test_arrays_are_preallocated_and_reused():
    env = dsq.VectorEnv(5)
    arrays = (env.observations, env.rewards, env.terminated, env.truncated)
    out = env.step(env.sample_actions())
    assert all(a is b for a, b in zip(arrays, out))
    assert env.observations.shape == (5, 26, 9, 7) and env.action_masks.shape == (5, 252)


def test_repetition_draw_and_repetition_plane():
    env = dsq.VectorEnv(2)
    shuffle = [dsq.Move.parse(m).action() for m in "a1a2 g9g8 a2a1 g8g9".split()]
    for ply, action in enumerate(shuffle * 2):
        obs, rewards, terminated, truncated = env.step(np.array([action, action], dtype=np.int64))
        if ply < 7:
            assert not terminated.any()
        if ply == 3:
            assert (obs[:, 22] == 1).all()  # the start position, seen once before
    assert terminated.all() and (rewards == 0).all() and not truncated.any()
    assert env.fen(0) == dsq.START_FEN and (env.observations[:, 22] == 0).all()


def test_exposed_arrays_are_read_only():
    env = dsq.VectorEnv(3)
    obs, rewards, terminated, truncated = env.step(env.sample_actions())
    arrays = [obs, rewards, terminated, truncated, env.observations, env.action_masks, env.final_observations]
    for array in arrays:
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 1
    # What a caller could once corrupt: the next in-place update starts from the env's own planes.
    env.step(env.sample_actions())
    for i in range(3):
        game = dsq.Game(env.fen(i))
        assert (env.observations[i, :21] == game.observation()[:21]).all()
    assert env.float_observations().flags.writeable is False


def test_step_takes_lists_other_integer_types_and_strided_views():
    def run(convert):
        env = dsq.VectorEnv(4, seed=2)
        for _ in range(30):
            env.step(convert(env.sample_actions()))
        return [env.fen(i) for i in range(4)]

    expected = run(lambda a: a)
    assert run(lambda a: [int(x) for x in a]) == expected
    assert run(lambda a: tuple(int(x) for x in a)) == expected
    assert run(lambda a: a.astype(np.int32)) == expected
    assert run(lambda a: a.astype(np.uint8)) == expected
    assert run(lambda a: np.repeat(a, 2)[::2]) == expected  # a strided view
    assert run(lambda a: np.stack([a, a], axis=1)[:, 0]) == expected
    env = dsq.VectorEnv(2)
    with pytest.raises(TypeError, match="integers"):
        env.step(np.array([0.0, 1.0]))
    with pytest.raises(TypeError, match="integers"):
        env.step(np.array([True, False]))
    with pytest.raises(ValueError, match="one per game"):
        env.step(np.zeros((2, 1), dtype=np.int64))
    with pytest.raises(ValueError, match="3 actions for 2 games"):
        env.step([56, 56, 56])


def test_final_observations_keep_the_last_position_of_each_ended_game():
    env = dsq.VectorEnv(6, rules="quiet-ply-limit=10", seed=1, max_plies=7)
    games = [dsq.Game(rules="quiet-ply-limit=10") for _ in range(6)]
    ended = 0
    for _ in range(40):
        actions = env.sample_actions()
        _, _, terminated, truncated = env.step(actions)
        for i, game in enumerate(games):
            game.play_action(int(actions[i]))
            if terminated[i] or truncated[i]:
                ended += 1
                assert (env.final_observations[i] == game.observation()).all()
                games[i] = dsq.Game(rules="quiet-ply-limit=10")
    assert ended > 6


def test_reset_with_a_seed_per_game():
    env = dsq.VectorEnv(3, seed=0)
    env.reset(seed=[5, 5, 6])
    a = env.sample_actions()
    assert a[0] == a[1]
    with pytest.raises(ValueError, match="2 seeds for 3 games"):
        env.reset(seed=[1, 2])


def test_uniform_sampling_covers_the_legal_actions_evenly():
    env = dsq.VectorEnv(2000, seed=3)
    counts = np.bincount(env.sample_actions(), minlength=dsq.ACTION_COUNT)
    legal = np.flatnonzero(env.action_masks[0])
    assert set(np.flatnonzero(counts)) == set(legal)
    expected = 2000 / len(legal)
    assert np.abs(counts[legal] - expected).max() < 5 * np.sqrt(expected)


def test_sample_masked_draws_legal_actions_in_proportion():
    n = 4000
    env = dsq.VectorEnv(n, seed=1)
    legal = np.flatnonzero(env.action_masks[0])
    probs = np.zeros((n, dsq.ACTION_COUNT), dtype=np.float32)
    probs[:, legal[0]] = 3.0
    probs[:, legal[1]] = 1.0
    illegal = np.flatnonzero(~env.action_masks[0])[0]
    probs[:, illegal] = 1000.0  # weight on an illegal action is ignored
    actions = env.sample_masked(probs)
    assert set(actions) <= {legal[0], legal[1]}
    share = np.mean(actions == legal[0])
    assert abs(share - 0.75) < 0.03
    assert (env.sample_masked(probs.astype(np.float64)) >= 0).all()
    assert (env.sample_masked(probs[:, :].tolist()) >= 0).all()
    bad = probs.copy()
    bad[7, legal[0]] = -1
    with pytest.raises(ValueError, match=r"game 7: probs\[7, \d+\] is -1"):
        env.sample_masked(bad)
    none = np.zeros_like(probs)
    none[:, illegal] = 1
    with pytest.raises(ValueError, match="game 0: no legal action has any weight"):
        env.sample_masked(none)
    with pytest.raises(ValueError, match=r"shape \(4000, 252\)"):
        env.sample_masked(probs[:, :10])


def test_sample_logits_is_a_masked_softmax_and_step_logits_plays_it():
    n = 4000
    env = dsq.VectorEnv(n, seed=2)
    legal = np.flatnonzero(env.action_masks[0])
    logits = np.full((n, dsq.ACTION_COUNT), -np.inf, dtype=np.float32)
    logits[:, legal[0]] = np.log(3.0)
    logits[:, legal[1]] = 0.0
    logits[:, np.flatnonzero(~env.action_masks[0])[0]] = 50.0  # illegal: ignored
    actions = env.sample_logits(logits)
    assert set(actions) <= {legal[0], legal[1]} and abs(np.mean(actions == legal[0]) - 0.75) < 0.03
    hot = env.sample_logits(logits, temperature=1000.0)
    assert abs(np.mean(hot == legal[0]) - 0.5) < 0.04
    assert (env.sample_logits(logits, temperature=0) == legal[0]).all()
    with pytest.raises(ValueError, match="temperature"):
        env.sample_logits(logits, temperature=-1)
    played, obs, rewards, terminated, truncated = env.step_logits(logits)
    assert set(played) <= {legal[0], legal[1]}
    for i in (0, 1, n - 1):
        game = dsq.Game()
        game.play_action(int(played[i]))
        assert env.fen(i) == game.fen() and (obs[i] == game.observation()).all()


def test_float_observations_equal_the_planes():
    env = dsq.VectorEnv(70, seed=1)
    for _ in range(5):
        env.step(env.sample_actions())
    floats = env.float_observations()
    assert floats.dtype == np.float32 and floats.shape == env.observations.shape and floats.flags.c_contiguous
    assert (floats == env.observations).all()
    env.step(env.sample_actions())
    assert (env.float_observations() == env.observations).all()
