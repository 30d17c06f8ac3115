import sys
import textwrap

import pytest

import doushouqi as dsq


def test_a_jungle_uci_process_answers_legal_moves(jungle_bin):
    with dsq.uci.Engine([jungle_bin, "uci"], options=[("Hash", "8")]) as engine:
        result = engine.search(dsq.Position("l6/3R3/7/7/7/7/7/7/6L w"), depth=3)
        assert result.best_move == dsq.Move.parse("d8d9")
        assert result.score.mate == 1 and result.depth >= 1
        engine.new_game()
        game = dsq.Game()
        game.play("a3a4")
        reply = engine.search(game, nodes=2000)
        assert reply.best_move in game.legal_moves


def test_the_rules_go_to_the_engine(jungle_bin):
    fen = "6t/7/7/7/7/7/1D5/7/T6 w"
    with dsq.uci.Engine([jungle_bin, "uci"], rules="dog-swims=true") as engine:
        assert engine.rules == dsq.Rules("dog-swims=true")
        result = engine.search(dsq.Position(fen, rules="dog-swims=true"), depth=2)
        assert result.best_move in dsq.Position(fen, rules="dog-swims=true").legal_moves
        with pytest.raises(ValueError, match="started with"):
            engine.search(dsq.Position(fen), depth=1)


def fake_engine(tmp_path, body):
    script = tmp_path / "engine.py"
    script.write_text(textwrap.dedent(body))
    return [sys.executable, str(script)]


def test_an_illegal_answer_is_refused(tmp_path):
    command = fake_engine(
        tmp_path,
        """
        import sys
        for line in sys.stdin:
            word = line.split()[0] if line.split() else ""
            if word == "uci": print("uciok", flush=True)
            elif word == "isready": print("readyok", flush=True)
            elif word == "go": print("info depth 1 score cp 5\\nbestmove a3a5", flush=True)
            elif word == "quit": break
        """,
    )
    with dsq.uci.Engine(command) as engine:
        with pytest.raises(dsq.IllegalMoveError, match='bestmove "a3a5"'):
            engine.search(dsq.Game(), depth=1)


def test_a_silent_or_missing_engine_raises(tmp_path):
    with pytest.raises(RuntimeError, match="cannot start"):
        dsq.uci.Engine(str(tmp_path / "no-such-program"))
    command = fake_engine(
        tmp_path,
        """
        import sys
        for line in sys.stdin:
            if line.strip() == "uci": print("uciok", flush=True)
            elif line.strip() == "isready": print("readyok", flush=True)
        """,
    )
    engine = dsq.uci.Engine(command, timeout=0.5)
    with pytest.raises(RuntimeError, match="did not answer"):
        engine.search(dsq.Game(), depth=1)
    with pytest.raises(RuntimeError, match="has quit"):
        engine.search(dsq.Game(), depth=1)
    engine.quit()
    with pytest.raises(ValueError, match="empty"):
        dsq.uci.Engine([])
