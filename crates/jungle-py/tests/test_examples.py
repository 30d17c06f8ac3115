"""The examples run as tests, with small arguments."""

import importlib.util
import pathlib

import numpy as np

import doushouqi as dsq

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def load(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_random_vs_engine():
    records = load("random_vs_engine").play(games=2, depth=2)
    assert len(records) == 2
    for record in records:
        assert record.result() in ("1-0", "0-1", "1/2-1/2")
        again = dsq.pgn.read_game(str(record))
        assert again.game.moves == record.game.moves
    # The engine beats a random player.
    assert all(record.result() == "0-1" for record in records)


def test_probe_tablebase(tmp_path):
    answer = load("probe_tablebase").probe(str(tmp_path), "r6/3E3/7/7/7/7/7/7/7 w")
    assert (answer["wdl"], answer["plies"], answer["best_moves"]) == ("win", 1, ["d8d9"])


def test_selfplay_data(tmp_path):
    out = tmp_path / "data.npz"
    data = load("selfplay_data").generate(str(out), games=1, depth=1, max_plies=30)
    saved = np.load(out)
    n = len(saved["value"])
    assert n == len(data["value"]) > 0
    assert saved["observation"].shape == (n, *dsq.OBSERVATION_SHAPE)
    assert saved["policy"].shape == (n, dsq.ACTION_COUNT)
    assert np.allclose(saved["policy"].sum(axis=1), 1)
    assert set(np.unique(saved["value"])) <= {-1.0, 0.0, 1.0}


def test_bench_runs():
    bench = load("bench")
    assert bench.vector_rate(8, 0.05) > 0
    assert bench.one_game_rate(0.05) > 0
    assert bench.gym_rate(0.05) > 0
