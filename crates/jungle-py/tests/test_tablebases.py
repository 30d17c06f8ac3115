import pytest

import doushouqi as dsq


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    directory = tmp_path_factory.mktemp("tb")
    made = dsq.Tablebases.generate(directory, ["E-r"], memory_mb=64, threads=1)
    assert "E-r" in made or "R-e" in made
    return directory


def test_a_den_entry_is_a_win_in_one(tables):
    tb = dsq.Tablebases(tables)
    pos = dsq.Position("r6/3E3/7/7/7/7/7/7/7 w")
    probe = tb.probe(pos)
    assert (probe.wdl, probe.plies, probe.value()) == ("win", 1, 1)
    assert tb.best_moves(pos) == [dsq.Move.parse("d8d9")]
    moves = tb.probe_moves(pos)
    assert moves[0] == (dsq.Move.parse("d8d9"), probe)
    assert len(moves) == len(pos.legal_moves)


def test_probes_agree_with_the_values_after_each_move(tables):
    tb = dsq.Tablebases(tables)
    pos = dsq.Position("7/7/7/r6/7/7/7/6E/7 w")
    probe = tb.probe(pos)
    best = max(tb.probe_moves(pos), key=lambda mv: (mv[1].value(), -(mv[1].plies or 0) * mv[1].value()))
    assert best[1] == probe
    for move, value in tb.probe_moves(pos):
        pos.push(move)
        after = tb.probe(pos)
        pos.pop()
        assert after.value() == -value.value()
        if after.plies is not None:
            assert value.plies == after.plies + 1


def test_uncovered_positions_and_wrong_rules(tables):
    tb = dsq.Tablebases(tables)
    assert tb.max_pieces == 2 and tb.materials
    assert tb.probe(dsq.Position()) is None
    assert tb.best_moves(dsq.Position()) == []
    with pytest.raises(ValueError, match="under rules"):
        tb.probe(dsq.Position("r6/3E3/7/7/7/7/7/7/7 w", rules="modern,dog-swims=true"))
    with pytest.raises(dsq.TablebaseError, match="rules"):
        dsq.Tablebases(tables, rules="dog-swims=true")
    with pytest.raises(dsq.TablebaseError):
        dsq.Tablebases(tables / "missing")
    with pytest.raises(ValueError):
        dsq.Tablebases.generate(tables, ["X-y"])


def test_the_engine_uses_the_tables(tables):
    engine = dsq.Engine(tablebases=tables)
    result = engine.search(dsq.Position("r6/3E3/7/7/7/7/7/7/7 w"), depth=2)
    assert result.best_move == dsq.Move.parse("d8d9")
    with pytest.raises(dsq.TablebaseError):
        engine.search(dsq.Position(rules="dog-swims=true"), depth=1)
