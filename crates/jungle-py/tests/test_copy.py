"""Pickling and copying: each object comes back equal in every observable way and independent of the original."""

import copy
import pickle

import numpy as np
import pytest

import doushouqi as dsq

COPIES = [
    pytest.param(lambda x: pickle.loads(pickle.dumps(x)), id="pickle"),
    pytest.param(copy.copy, id="copy"),
    pytest.param(copy.deepcopy, id="deepcopy"),
]


@pytest.mark.parametrize("clone", COPIES)
def test_values(clone):
    move = dsq.Move.parse("b3b7")
    assert clone(move) == move
    piece = dsq.Piece(dsq.Side.RED, dsq.Animal.LION)
    assert clone(piece) == piece
    outcome = dsq.Outcome(dsq.Side.RED, "resignation")
    assert clone(outcome) == outcome
    assert clone(dsq.Side.BLUE) is dsq.Side.BLUE and clone(dsq.Animal.CAT) is dsq.Animal.CAT


@pytest.mark.parametrize("clone", COPIES)
def test_position_keeps_its_move_stack(clone):
    pos = dsq.Position(rules="modern")
    pos.push("a3a4")
    pos.push("g7g6")
    back = clone(pos)
    assert back.fen() == pos.fen() and back.move_stack == pos.move_stack and back.rules == pos.rules
    back.pop()
    assert len(pos.move_stack) == 2


@pytest.mark.parametrize("clone", COPIES)
def test_game_keeps_history_repetitions_and_declared_endings(clone):
    game = dsq.Game(rules="modern")
    for m in "a1a2 g9g8 a2a1 g8g9 a1a2".split():
        game.play(m)
    back = clone(game)
    assert back.moves == game.moves and back.repetitions() == game.repetitions() == 2
    assert back.start_fen() == game.start_fen() and back.rules == game.rules
    back.play("g9g8")
    assert len(game) == 5
    game.resign(dsq.Side.RED)
    assert clone(game).outcome() == dsq.Outcome(dsq.Side.BLUE, "resignation")


@pytest.mark.parametrize("clone", COPIES)
def test_hidden_game(clone):
    game = dsq.HiddenGame(blue="WTCDEPLR", red="standard")
    game.play_action(int(np.flatnonzero(game.action_mask())[0]))
    back = clone(game)
    assert back.history == game.history and back.turn == game.turn
    for side in dsq.Side:
        assert (back.observation(side) == game.observation(side)).all()
    back.play_action(int(np.flatnonzero(back.action_mask())[0]))
    assert len(game.history) == 1


@pytest.mark.parametrize("clone", COPIES)
def test_vector_env_goes_on_exactly_as_the_original(clone):
    env = dsq.VectorEnv(5, rules="quiet-ply-limit=20", seed=4, max_plies=30)
    for _ in range(25):
        env.step(env.sample_actions())
    twin = clone(env)
    assert twin.observations is not env.observations
    for _ in range(40):
        a, b = env.sample_actions(), twin.sample_actions()
        assert (a == b).all()
        for x, y in zip(env.step(a), twin.step(b)):
            assert (x == y).all()
        assert (env.action_masks == twin.action_masks).all()
        assert [env.fen(i) for i in range(5)] == [twin.fen(i) for i in range(5)]
    assert (env.final_observations == twin.final_observations).all()


def test_deepcopy_of_the_gymnasium_env():
    gym_env = pytest.importorskip("doushouqi.gym")
    env = gym_env.JungleEnv()
    env.reset(seed=3)
    env.step(dsq.Move.parse("a3a4").action())
    twin = copy.deepcopy(env)
    assert twin.game.moves == env.game.moves and twin.game is not env.game
    # The random opponent's generator was copied too: both answer the same move.
    action = int(np.flatnonzero(env.action_masks())[0])
    assert (env.step(action)[0] == twin.step(action)[0]).all()
    back = pickle.loads(pickle.dumps(env))
    assert back.game.moves == env.game.moves
    engine = dsq.Engine()
    with_engine = copy.deepcopy(gym_env.JungleEnv(opponent=engine))
    assert with_engine.opponent is engine


def test_a_forged_vector_state_is_refused_not_a_crash():
    env = dsq.VectorEnv(2)
    cls, args, state = env.__reduce__()
    games = list(state[0])
    games[1] = ("L6/7/7/7/7/7/7/7/3r3 w 0 1", [], 0, 0, 1)  # Red's den entered: no move left
    twin = cls(*args)
    with pytest.raises(ValueError, match="without a move"):
        twin.__setstate__((games, *state[1:]))
    games[1] = ("not a fen", [], 0, 0, 1)
    with pytest.raises(ValueError, match="refuse"):
        twin.__setstate__((games, *state[1:]))
