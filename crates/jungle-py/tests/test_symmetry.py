import numpy as np
import pytest

import doushouqi as dsq


def game_pairs(rules, games=6, plies=60, seed=5):
    """Random games and their mirror images, played move for mirrored move (so the histories match too)."""
    rng = np.random.default_rng(seed)
    for _ in range(games):
        game = dsq.Game(rules=rules)
        mirrored = dsq.Game(dsq.Position(rules=rules).mirror().fen(), rules=rules)
        for _ in range(plies):
            if game.is_over():
                break
            yield game, mirrored
            move = game.play_action(int(rng.choice(np.flatnonzero(game.action_mask()))))
            mirrored.play(move.mirror())


@pytest.mark.parametrize("rules", ["standard", "dog-swims=true,leopard-jumps=true"])
def test_mirrors_are_the_mirrored_positions_observations_actions_and_masks(rules):
    batch, mirrored_batch = [], []
    for game, mirrored in game_pairs(rules):
        assert mirrored.fen() == game.position.mirror().fen()
        batch.append(game.observation())
        mirrored_batch.append(mirrored.observation())
        moves = game.legal_moves
        actions = dsq.mirror_actions([m.action() for m in moves])
        assert list(actions) == [m.mirror().action() for m in moves]
        assert (dsq.mirror_policies(game.action_mask()) == mirrored.action_mask()).all()
    batch, mirrored_batch = np.array(batch), np.array(mirrored_batch)
    assert (dsq.mirror_observations(batch) == mirrored_batch).all()
    assert (dsq.mirror_observations(mirrored_batch) == batch).all()


def test_mirror_of_batches_keeps_shape_and_dtype():
    env = dsq.VectorEnv(4)
    obs = env.float_observations()
    assert dsq.mirror_observations(obs).dtype == np.float32
    policies = np.random.default_rng(0).random((4, 3, dsq.ACTION_COUNT))
    mirrored = dsq.mirror_policies(policies)
    assert mirrored.shape == policies.shape and np.allclose(mirrored.sum(-1), policies.sum(-1))
    assert (dsq.mirror_policies(mirrored) == policies).all()
    actions = np.arange(dsq.ACTION_COUNT).reshape(12, 21)
    assert (dsq.mirror_actions(dsq.mirror_actions(actions)) == actions).all()
    with pytest.raises(ValueError):
        dsq.mirror_actions([252])
    with pytest.raises(TypeError):
        dsq.mirror_actions([1.5])
    with pytest.raises(ValueError):
        dsq.mirror_observations(np.zeros((4, 9, 7)))
