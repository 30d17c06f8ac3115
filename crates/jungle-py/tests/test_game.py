import pytest

import jungle
from jungle import Side


def play_all(game, moves):
    for m in moves.split():
        game.play(m)


def test_third_repetition_draws_and_undo_resumes():
    game = jungle.Game()
    play_all(game, "a1a2 g9g8 a2a1 g8g9 a1a2 g9g8 a2a1")
    assert game.repetitions() == 2 and not game.is_over()
    game.play("g8g9")
    assert game.outcome() == jungle.Outcome(None, "repetition")
    assert game.legal_moves == []
    with pytest.raises(jungle.IllegalMoveError, match="game is over"):
        game.play("a1a2")
    assert game.undo() == jungle.Move.parse("g8g9")
    assert not game.is_over()


def test_repetition_count_follows_the_rules():
    game = jungle.Game("repetition-draw=0")
    for _ in range(4):
        play_all(game, "a1a2 g9g8 a2a1 g8g9")
    assert not game.is_over()
    assert len(game) == 16


def test_quiet_ply_limit():
    game = jungle.Game("quiet-ply-limit=4,repetition-draw=0")
    play_all(game, "a1a2 g9g8 a2a1")
    assert not game.is_over()
    game.play("g8g9")
    assert game.outcome().termination == "quiet-ply limit"


def test_resign_and_declare():
    game = jungle.Game()
    game.resign(Side.BLUE)
    assert game.outcome() == jungle.Outcome(Side.RED, "resignation")
    game.undo()
    game.declare(None, "draw agreed")
    assert game.outcome().result() == "1/2-1/2"
    game.undo()
    with pytest.raises(ValueError, match="decided by the board"):
        game.declare(Side.BLUE, "den entered")
    with pytest.raises(ValueError, match="unknown termination"):
        game.declare(Side.BLUE, "boredom")


def test_position_carries_the_game_moves():
    game = jungle.Game(fen="l6/3R3/7/7/7/7/7/7/6L w")
    game.play("g1g2")
    pos = game.position
    assert [str(m) for m in pos.move_stack] == ["g1g2"]
    pos.pop()
    assert pos.fen() == game.start_fen()
    assert game.turn == Side.RED
