import numpy as np
import pytest

import doushouqi as dsq

BLUE, RED = dsq.Side.BLUE, dsq.Side.RED
names = dsq.PLANE_NAMES


def test_a_view_holds_only_what_the_viewer_knows():
    game = dsq.HiddenGame(blue="standard", red="standard")
    red_view = game.observation(RED)
    assert red_view[:8].sum() == 0  # Blue's animals are unknown to Red
    assert red_view[24].sum() == 8  # ... only their places
    assert red_view[8:16].sum() == 8 and red_view[25].sum() == 8  # Red's own, none seen by Blue
    assert "X" in game.view_fen(RED) and "x" not in game.view_fen(RED)
    assert game.view_fen(None).count("X") == 8 and game.view_fen(None).count("x") == 8


def quiet_steps(game):
    """Moves onto empty land squares one step away: their public text names no animal."""
    occupied = game.observation(game.turn)
    busy = occupied[:16].any(axis=0) | occupied[24].astype(bool) | occupied[names.index("water")].astype(bool)
    out = []
    for m in game.legal_moves:
        to = m.to_square
        if abs(to - m.from_square) in (1, 7) and not busy[to // 7, to % 7]:
            out.append(m)
    return out


def test_a_secret_setup_does_not_change_the_opponents_observation():
    a = dsq.HiddenGame(blue="standard", red="standard")
    b = dsq.HiddenGame(blue="WTCDEPLR", red="standard")
    assert (a.observation(RED) == b.observation(RED)).all()
    rng = np.random.default_rng(0)
    for _ in range(10):
        common = [m for m in quiet_steps(a) if m in b.legal_moves]
        move = common[int(rng.integers(len(common)))]
        assert a.play(move) == b.play(move) == str(move)
        assert (a.observation(RED) == b.observation(RED)).all()
        assert a.view_fen(RED) == b.view_fen(RED)
    assert (a.observation(BLUE) != b.observation(BLUE)).any()


def test_actions_and_errors():
    game = dsq.HiddenGame(seed=1)
    mask = game.action_mask()
    assert mask.sum() == len(game.legal_moves) > 0
    action = int(np.flatnonzero(mask)[0])
    text = game.play_action(action)
    assert game.history == [text] and game.turn == RED
    with pytest.raises(dsq.IllegalMoveError):
        game.play_action(action)
    with pytest.raises(ValueError, match="listed twice"):
        dsq.HiddenGame(blue="LLCDEWPR")
    with pytest.raises(ValueError):
        dsq.HiddenGame(blue="LT")


def test_a_bad_setup_names_the_valid_ones():
    with pytest.raises(ValueError, match=r'blue setup "nobody": .*"random", "standard" or the animal letters'):
        dsq.HiddenGame(blue="nobody")
    with pytest.raises(ValueError, match=r'red setup "RR".*"RPWEDCLT" is the standard one'):
        dsq.HiddenGame(red="RR")
