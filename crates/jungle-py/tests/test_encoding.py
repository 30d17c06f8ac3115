import random

import numpy as np
import pytest

import doushouqi as dsq


def random_positions(rules="standard", games=20, plies=80, seed=7):
    rng = random.Random(seed)
    for _ in range(games):
        pos = dsq.Position(rules=rules)
        for _ in range(plies):
            moves = pos.legal_moves
            if not moves:
                break
            yield pos
            pos.push(rng.choice(moves))


@pytest.mark.parametrize("rules", ["standard", "leopard-jumps=true,dog-swims=true", "animal-checkers"])
def test_every_legal_move_has_one_action_and_back(rules):
    for pos in random_positions(rules):
        game = dsq.Game(pos.fen(), rules=rules)
        mask = game.action_mask()
        moves = pos.legal_moves
        assert mask.shape == (dsq.ACTION_COUNT,) and mask.sum() == len(moves)
        for move in moves:
            action = move.action()
            assert mask[action]
            assert pos.decode_action(action) == move
        for action in np.flatnonzero(~mask)[:10]:
            with pytest.raises(dsq.IllegalMoveError):
                pos.decode_action(int(action))


def test_actions_are_square_times_four_plus_direction_and_jumps_share_the_step_direction():
    assert dsq.Move.parse("a3a4").action() == dsq.A3 * 4 + 0
    assert dsq.Move.parse("a3a2").action() == dsq.A3 * 4 + 1
    assert dsq.Move.parse("a3b3").action() == dsq.A3 * 4 + 2
    assert dsq.Move.parse("b3a3").action() == dsq.B3 * 4 + 3
    pos = dsq.Position("6t/7/7/7/7/7/1L5/7/T6 w")
    assert pos.decode_action(dsq.B3 * 4 + 0) == dsq.Move.parse("b3b7")
    assert pos.decode_action(dsq.B3 * 4 + 2) == dsq.Move.parse("b3c3")
    with pytest.raises(dsq.IllegalMoveError):
        pos.decode_action(252)
    with pytest.raises(dsq.IllegalMoveError):
        pos.decode_action(-1)


def test_observation_planes():
    names = dsq.PLANE_NAMES
    assert len(names) == dsq.OBSERVATION_SHAPE[0] == 26
    game = dsq.Game()
    obs = game.observation()
    assert obs.shape == dsq.OBSERVATION_SHAPE and obs.dtype == np.uint8
    assert obs[names.index("blue elephant"), 2, 0] == 1  # a3
    assert obs[names.index("red lion"), 8, 0] == 1  # a9
    assert obs[:16].sum() == 16
    assert obs[names.index("water")].sum() == 12
    assert obs[names.index("blue's den"), 0, 3] == 1 and obs[names.index("red's den"), 8, 3] == 1
    assert obs[names.index("blue's traps")].sum() == 3
    assert obs[names.index("red to move")].max() == 0
    assert obs[24:].sum() == 0
    for m in "a1a2 g9g8 a2a1 g8g9".split():
        game.play(m)
    obs = game.observation()
    assert (obs[22] == 1).all()  # the start position occurred once before
    assert (obs[23] == 4).all()  # four quiet plies
    game.play("a1a2")
    assert (game.observation()[21] == 1).all()
    assert dsq.Game(rules="animal-checkers").observation()[names.index("water")].sum() == 0
