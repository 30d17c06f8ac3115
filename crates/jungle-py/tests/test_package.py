"""The package as installed: its distribution name, version, exports and enums."""

import enum
import importlib.metadata
import pickle

import pytest

import doushouqi as dsq


def test_the_distribution_is_doushouqi_and_knows_its_version():
    assert dsq.__version__ == importlib.metadata.version("doushouqi")
    extras = importlib.metadata.metadata("doushouqi").get_all("Provides-Extra")
    assert {"gym", "pettingzoo"} <= set(extras)
    requires = importlib.metadata.requires("doushouqi")
    assert any(r.startswith("gymnasium") and "extra ==" in r and "gym" in r for r in requires)


def test_all_lists_every_export_literally():
    assert len(dsq.__all__) == len(set(dsq.__all__))
    for name in dsq.__all__:
        assert hasattr(dsq, name), name
    assert {f + r for f in "ABCDEFG" for r in "123456789"} <= set(dsq.__all__)
    assert dsq.G9 == 62 and "Position" in dsq.__all__ and "Side" in dsq.__all__


def test_side_and_animal_are_enums():
    assert issubclass(dsq.Side, enum.Enum) and issubclass(dsq.Animal, enum.Enum)
    assert list(dsq.Side) == [dsq.Side.BLUE, dsq.Side.RED]
    assert [a.letter for a in dsq.Animal] == [dsq.Piece(dsq.Side.BLUE, a).symbol() for a in dsq.Animal]
    assert dsq.Animal.ELEPHANT.rank == 8 and int(dsq.Animal.RAT) == 0
    assert dsq.Side["RED"] is dsq.Side.BLUE.opponent() and dsq.Side(0) is dsq.Side.BLUE
    assert str(dsq.Side.RED) == "red" and f"{dsq.Animal.LION}" == "lion"
    assert dsq.Position().turn is dsq.Side.BLUE
    assert dsq.Position().piece_at("a3").animal is dsq.Animal.ELEPHANT
    assert pickle.loads(pickle.dumps(dsq.Side.RED)) is dsq.Side.RED


def test_a_plain_int_is_not_a_side():
    with pytest.raises(TypeError, match="expected a doushouqi.Side"):
        dsq.Game().resign(1)
    with pytest.raises(TypeError, match="expected a doushouqi.Animal"):
        dsq.Piece(dsq.Side.RED, 3)
