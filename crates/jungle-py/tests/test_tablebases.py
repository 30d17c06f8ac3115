import pytest

import jungle


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    directory = tmp_path_factory.mktemp("tb")
    made = jungle.Tablebases.generate(directory, ["E-r"], memory_mb=64, threads=1)
    assert "E-r" in made or "R-e" in made
    return directory


def test_a_den_entry_is_a_win_in_one(tables):
    tb = jungle.Tablebases(tables)
    pos = jungle.Position("r6/3E3/7/7/7/7/7/7/7 w")
    probe = tb.probe(pos)
    assert (probe.wdl, probe.plies, probe.value()) == ("win", 1, 1)
    assert tb.best_moves(pos) == [jungle.Move.parse("d8d9")]
    moves = tb.probe_moves(pos)
    assert moves[0] == (jungle.Move.parse("d8d9"), probe)
    assert len(moves) == len(pos.legal_moves)


def test_probes_agree_with_the_values_after_each_move(tables):
    tb = jungle.Tablebases(tables)
    pos = jungle.Position("7/7/7/r6/7/7/7/6E/7 w")
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
    tb = jungle.Tablebases(tables)
    assert tb.max_pieces == 2 and tb.materials
    assert tb.probe(jungle.Position()) is None
    assert tb.best_moves(jungle.Position()) == []
    with pytest.raises(ValueError, match="under rules"):
        tb.probe(jungle.Position("r6/3E3/7/7/7/7/7/7/7 w", rules="modern,dog-swims=true"))
    with pytest.raises(jungle.TablebaseError, match="rules"):
        jungle.Tablebases(tables, rules="dog-swims=true")
    with pytest.raises(jungle.TablebaseError):
        jungle.Tablebases(tables / "missing")
    with pytest.raises(ValueError):
        jungle.Tablebases.generate(tables, ["X-y"])


def test_the_engine_uses_the_tables(tables):
    engine = jungle.Engine(tablebases=tables)
    result = engine.search(jungle.Position("r6/3E3/7/7/7/7/7/7/7 w"), depth=2)
    assert result.best_move == jungle.Move.parse("d8d9")
    with pytest.raises(jungle.TablebaseError):
        engine.search(jungle.Position(rules="dog-swims=true"), depth=1)
