import io

import pytest

import doushouqi as dsq
from doushouqi import pgn


def test_write_then_read_keeps_headers_rules_and_moves():
    game = dsq.Game(rules="modern")
    for m in ["a3a4", "g7g6", "a4a5"]:
        game.play(m)
    record = pgn.PgnGame(game, [("White", "Ann"), ("Black", "Bo")])
    text = str(record)
    assert '[White "Ann"]' in text and '[Rules "lion-tiger=equal"]' in text
    assert "1. a3a4 g7g6 2. a4a5 *" in text
    back = pgn.read_game(text)
    assert back.headers["White"] == "Ann" and back.headers["Black"] == "Bo"
    assert back.game.moves == game.moves
    assert back.game.rules == dsq.Rules("modern")
    assert back.result() == "*"


def test_reading_many_games_from_a_file():
    one = dsq.Game()
    one.play("a3a4")
    one.resign(dsq.Side.RED)
    two = dsq.Game()
    buffer = io.StringIO()
    pgn.write_games([pgn.PgnGame(one), pgn.PgnGame(two)], buffer)
    buffer.seek(0)
    games = pgn.read_games(buffer)
    assert [g.result() for g in games] == ["1-0", "*"]
    assert games[0].game.outcome().termination == "resignation"
    assert pgn.read_games("") == []


def test_headers_can_be_changed_but_not_derived_ones():
    record = pgn.PgnGame(dsq.Game())
    record.set_header("Event", "Club")
    assert record.remove_header("Event") == "Club"
    assert record.remove_header("Event") is None
    with pytest.raises(pgn.PgnError, match="written from the game"):
        record.set_header("Result", "1-0")
    with pytest.raises(ValueError, match="letters, digits"):
        record.set_header("bad name", "x")


def test_bad_pgn_says_where():
    with pytest.raises(pgn.PgnError, match=r"game 1, line 2.*a3a5") as err:
        pgn.read_game('[Event "x"]\n1. a3a5 *\n')
    assert isinstance(err.value, ValueError)
    with pytest.raises(ValueError, match="expected one game"):
        pgn.read_game("1. a3a4 *\n\n1. a3a4 *\n")
