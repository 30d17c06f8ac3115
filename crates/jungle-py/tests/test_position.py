import copy
import pickle
import random

import numpy as np
import pytest

import doushouqi as dsq
from doushouqi import Animal, Piece, Side


def test_start_position_and_perft_match_the_reference_counts():
    pos = dsq.Position()
    assert pos.fen() == dsq.START_FEN
    assert pos.turn == Side.BLUE
    assert len(pos.legal_moves) == 24
    assert [pos.perft(d) for d in range(4)] == [1, 24, 576, 12240]


def test_perft_depth_is_bounded():
    with pytest.raises(ValueError, match="over the limit"):
        dsq.Position().perft(11)


def test_push_pop_and_move_stack():
    pos = dsq.Position()
    before = pos.fen()
    played = pos.push("a3a4")
    assert played == dsq.Move.parse("a3a4") == dsq.Move(dsq.A3, "a4")
    assert pos.turn == Side.RED
    assert pos.piece_at("a4") == Piece(Side.BLUE, Animal.ELEPHANT)
    assert pos.piece_at(dsq.A3) is None
    pos.push(dsq.Move.parse("g7g6"))
    assert [str(m) for m in pos.move_stack] == ["a3a4", "g7g6"]
    assert pos.peek() == dsq.Move.parse("g7g6")
    assert pos.pop() == dsq.Move.parse("g7g6")
    assert pos.pop() == dsq.Move.parse("a3a4")
    assert pos.fen() == before
    with pytest.raises(IndexError):
        pos.pop()


def test_illegal_moves_say_which_rule_they_break_and_change_nothing():
    pos = dsq.Position()
    fen = pos.fen()
    with pytest.raises(dsq.IllegalMoveError, match="no piece on a4"):
        pos.push("a4a5")
    with pytest.raises(dsq.IllegalMoveError, match="belongs to the side not to move"):
        pos.push("a7a6")
    with pytest.raises(ValueError, match="two squares like a3a4"):
        pos.push("hello")
    with pytest.raises(ValueError, match="not on the board"):
        pos.push("h3a4")
    assert pos.fen() == fen and pos.move_stack == []
    assert pos.is_legal("a3a4")
    assert not pos.is_legal("a3a5")


def test_bad_fen_and_bad_rules_raise_value_errors():
    with pytest.raises(dsq.FenError, match="ranks"):
        dsq.Position("l5t/1d3c1 w")
    with pytest.raises(ValueError, match="cannot stand in water"):
        dsq.Position("6t/7/7/1E5/7/7/7/7/T6 w")
    with pytest.raises(dsq.RulesError):
        dsq.Position(rules="no-such-rule=1")


def test_den_entry_ends_the_game():
    pos = dsq.Position("l6/3R3/7/7/7/7/7/7/6L w")
    assert not pos.is_game_over()
    pos.push("d8d9")
    outcome = pos.outcome()
    assert outcome == dsq.Outcome(Side.BLUE, "den entered")
    assert outcome.winner == Side.BLUE and outcome.result() == "1-0"
    assert pos.legal_moves == []


def test_capture_of_the_last_piece_ends_the_game():
    pos = dsq.Position("7/7/7/7/7/7/7/e6/E6 w")
    assert pos.is_capture("a1a2")
    pos.push("a1a2")
    assert pos.outcome().termination == "all pieces captured"


def test_rules_change_the_moves():
    fen = "6t/7/7/7/7/7/1D5/7/T6 w"
    standard = dsq.Position(fen)
    swimming = dsq.Position(fen, rules="dog-swims=true")
    with pytest.raises(dsq.IllegalMoveError, match="may not enter water"):
        standard.push("b3b4")
    swimming.push("b3b4")
    dog_in_river = "6t/7/7/7/1D5/7/7/7/T6 w"
    with pytest.raises(ValueError, match="cannot stand in water"):
        dsq.Position(dog_in_river)
    assert dsq.Position(dog_in_river, rules=dsq.Rules("dog-swims=true")).piece_at("b5") is not None


def test_pieces_squares_and_mirror():
    pos = dsq.Position()
    pieces = pos.piece_map()
    assert len(pieces) == 16
    assert pieces[dsq.A1] == Piece.from_symbol("T")
    assert pos.square_of(Piece(Side.RED, Animal.LION)) == dsq.A9
    assert dsq.square_name(62) == "g9" and dsq.parse_square("a2") == 7
    assert dsq.SQUARE_NAMES[dsq.D5] == "d5"
    mirrored = pos.mirror()
    assert mirrored.piece_at("g1") == Piece.from_symbol("T")
    assert mirrored.mirror() == pos
    swapped = pos.swap_colours()
    assert swapped.turn == Side.RED
    assert swapped.zobrist != pos.zobrist
    with pytest.raises(ValueError):
        pos.piece_at(63)
    with pytest.raises(ValueError):
        pos.piece_at("z9")
    with pytest.raises(ValueError):
        Piece.from_symbol("X")


def test_zobrist_follows_the_position_not_the_path():
    a = dsq.Position()
    for m in ["a1a2", "g9g8", "a2a1", "g8g9"]:
        a.push(m)
    assert a.zobrist == dsq.Position().zobrist
    a.push("a1a2")
    assert a.zobrist != dsq.Position().zobrist


def test_repr_draws_the_board_and_svg_shows_every_piece():
    pos = dsq.Position()
    text = repr(pos)
    lines = text.splitlines()
    assert lines[1] == " 9  l  .  #  *  #  .  t  9"
    assert "~" in text and lines[-1] == f"Position('{dsq.START_FEN}', rules='standard')"
    svg = pos._repr_svg_()
    assert svg.startswith("<svg") and svg.count("<circle") == 16
    assert "獅" in svg and "象" in svg


def test_copy_and_pickle_keep_the_position():
    pos = dsq.Position(rules="modern")
    pos.push("a3a4")
    dup = copy.copy(pos)
    dup.push("a7a6")
    assert len(pos.move_stack) == 1
    back = pickle.loads(pickle.dumps(pos))
    assert back.fen() == pos.fen() and back.rules == pos.rules


def test_legal_moves_are_sorted_and_legal_actions_match_the_mask():
    rng = random.Random(3)
    for rules in ("standard", "dog-swims=true,leopard-jumps=true"):
        game = dsq.Game(rules=rules)
        for _ in range(150):
            if game.is_over():
                break
            moves = game.legal_moves
            assert moves == sorted(moves) == game.position.legal_moves
            assert len(set(moves)) == len(moves) == game.position.perft(1)
            assert game.legal_actions() == list(np.flatnonzero(game.action_mask()))
            game.play(rng.choice(moves))
    game = dsq.Game()
    for m in "a1a2 g9g8 a2a1 g8g9 a1a2 g9g8 a2a1 g8g9".split():
        game.play(m)
    assert game.is_over() and game.legal_actions() == [] and game.legal_moves == []
