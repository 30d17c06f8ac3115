import pytest

import doushouqi as dsq
from doushouqi import Side


def play_all(game, moves):
    for m in moves.split():
        game.play(m)


def test_third_repetition_draws_and_undo_resumes():
    game = dsq.Game()
    play_all(game, "a1a2 g9g8 a2a1 g8g9 a1a2 g9g8 a2a1")
    assert game.repetitions() == 2 and not game.is_over()
    game.play("g8g9")
    assert game.outcome() == dsq.Outcome(None, "repetition")
    assert game.legal_moves == []
    with pytest.raises(dsq.IllegalMoveError, match="game is over"):
        game.play("a1a2")
    assert game.undo() == dsq.Move.parse("g8g9")
    assert not game.is_over()


def test_repetition_count_follows_the_rules():
    game = dsq.Game(rules="repetition-draw=0")
    for _ in range(4):
        play_all(game, "a1a2 g9g8 a2a1 g8g9")
    assert not game.is_over()
    assert len(game) == 16


def test_quiet_ply_limit():
    game = dsq.Game(rules="quiet-ply-limit=4,repetition-draw=0")
    play_all(game, "a1a2 g9g8 a2a1")
    assert not game.is_over()
    game.play("g8g9")
    assert game.outcome().termination == "quiet-ply limit"


def test_resign_and_declare():
    game = dsq.Game()
    game.resign(Side.BLUE)
    assert game.outcome() == dsq.Outcome(Side.RED, "resignation")
    game.undo()
    game.declare(None, "draw agreed")
    assert game.outcome().result() == "1/2-1/2"
    game.undo()
    with pytest.raises(ValueError, match="decided by the board"):
        game.declare(Side.BLUE, "den entered")
    with pytest.raises(ValueError, match="unknown termination"):
        game.declare(Side.BLUE, "boredom")


def test_position_carries_the_game_moves():
    game = dsq.Game(fen="l6/3R3/7/7/7/7/7/7/6L w")
    game.play("g1g2")
    pos = game.position
    assert [str(m) for m in pos.move_stack] == ["g1g2"]
    pos.pop()
    assert pos.fen() == game.start_fen()
    assert game.turn == Side.RED


def test_game_takes_the_fen_first_like_position():
    fen = "l6/3R3/7/7/7/7/7/7/6L w"
    assert dsq.Game(fen).fen() == dsq.Position(fen).fen()
    assert dsq.Game(fen, "modern").rules == dsq.Position(fen, "modern").rules == dsq.Rules("modern")
    assert dsq.Game(rules="modern", fen=fen).fen() == dsq.Position(rules="modern", fen=fen).fen()
    # The old order, Game(rules), still works and says what to write instead.
    with pytest.warns(DeprecationWarning, match="first argument of Game is the FEN"):
        assert dsq.Game("modern").rules == dsq.Rules("modern")
    with pytest.warns(DeprecationWarning):
        assert dsq.Game(dsq.Rules("leiden")).rules == dsq.Rules("leiden")
    with pytest.raises(ValueError, match="first argument is a FEN"):
        dsq.Game("modern", "standard")
    with pytest.raises(dsq.FenError):
        dsq.Game("l6/3R3/7 w")


def test_move_from_action_needs_the_position_to_tell_a_jump_from_a_step():
    pos = dsq.Position("6t/7/7/7/7/7/1L5/7/T6 w")
    assert dsq.Move.from_action(dsq.B3 * 4, pos) == dsq.Move.parse("b3b7")
    game = dsq.Game(pos.fen())
    assert dsq.Move.from_action(dsq.B3 * 4 + 2, game) == dsq.Move.parse("b3c3")
    for move in pos.legal_moves:
        assert dsq.Move.from_action(move.action(), pos) == move
    with pytest.raises(dsq.IllegalMoveError, match="action 251 is not legal"):
        dsq.Move.from_action(251, pos)
