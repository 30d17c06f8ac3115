"""Self-play training data on Ray: ``nnue gen`` in tasks of N games, one file per batch.

A game depends only on the seed and its number (tools/nnue/src/generate.rs), so batch ``[a, b)`` is named
``games-A-B.txt`` (zero-padded, so names sort in game order) and holds exactly what ``nnue gen --first-game a
--games b-a`` writes. A retried task writes the same bytes under the same name (through a temporary file and a
rename, so a batch is whole or absent); a run that stops is resumed by running the same command again, which
makes only the missing batches. The batches in name order concatenate to the file of one ``nnue gen`` over all
the games, and ``nnue train DIR/games-*.txt`` reads them.

    python3 -m jungle_ray.selfplay --address auto --nnue target/release/nnue --out data \\
        --games 100000 --batch 200 --nodes 5000 --seed 1
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import ray

from jungle_ray.cluster import connect, finished
from jungle_ray.progress import Progress
from jungle_ray.tasks import Interrupted, run_binary, temporary_name, where

# The settings a directory's batches were made with: resuming with others would mix two runs.
RUN_FILE = "run.json"


def batch_name(first: int, end: int) -> str:
    return f"games-{first:09d}-{end:09d}.txt"


def batches(first_game: int, games: int, size: int) -> list[tuple[int, int]]:
    """Game ranges ``[a, b)`` of at most ``size`` games covering ``first_game .. first_game + games``."""
    end = first_game + games
    return [(a, min(a + size, end)) for a in range(first_game, end, size)]


@ray.remote(num_cpus=1, max_retries=5, retry_exceptions=[Interrupted])
def make_batch(nnue: str, settings: dict[str, Any], out: str, first: int, end: int) -> dict[str, Any]:
    final = Path(out) / batch_name(first, end)
    tmp = temporary_name(final)
    argv = [
        nnue, "gen",
        "--first-game", str(first),
        "--games", str(end - first),
        "--seed", str(settings["seed"]),
        "--nodes", str(settings["nodes"]),
        "--rules", settings["rules"],
        "--jobs", "1",
        "--out", str(tmp),
    ]
    if settings["tb"]:
        argv += ["--tb", settings["tb"]]
    started = time.monotonic()
    try:
        run_binary(argv)
        tmp.replace(final)
    finally:
        tmp.unlink(missing_ok=True)
    with final.open() as f:
        positions = sum(1 for _ in f)
    return {
        "name": final.name,
        "games": end - first,
        "positions": positions,
        "seconds": time.monotonic() - started,
        "node": where(),
    }


def check_settings(out: Path, settings: dict[str, Any]) -> None:
    """Records the run's settings in a new directory, or checks that a resumed one was made with the same."""
    path = out / RUN_FILE
    if path.exists():
        before = json.loads(path.read_text())
        if before != settings:
            raise SystemExit(
                f"selfplay: {out} holds batches made with {before}, not {settings}: use another directory"
            )
    else:
        out.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings, sort_keys=True) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="jungle_ray.selfplay", description=__doc__.splitlines()[0])
    parser.add_argument("--address", default="auto", help="the Ray cluster (host:port, or auto)")
    parser.add_argument("--nnue", required=True, help="path of the nnue binary on every node")
    parser.add_argument("--out", required=True, type=Path, help="directory every node can write (shared storage)")
    parser.add_argument("--games", required=True, type=int)
    parser.add_argument("--first-game", type=int, default=0)
    parser.add_argument("--batch", type=int, default=100, help="games per task")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--nodes", type=int, default=5000, help="search nodes per move")
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--tb", default="", help="endgame tables for the same rules, on every node")
    args = parser.parse_args(argv)
    for name in ("games", "batch", "nodes"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    if args.first_game < 0:
        parser.error("--first-game must not be negative")
    settings = {"seed": args.seed, "nodes": args.nodes, "rules": args.rules, "tb": args.tb, "batch": args.batch}
    out: Path = args.out.resolve()
    check_settings(out, settings)

    ranges = batches(args.first_game, args.games, args.batch)
    todo = [(a, b) for a, b in ranges if not (out / batch_name(a, b)).exists()]
    connect(args.address)
    progress = Progress("self-play batches", len(ranges), len(ranges) - len(todo))
    pending = {make_batch.remote(args.nnue, settings, str(out), a, b): batch_name(a, b) for a, b in todo}
    failed = []
    for name, r in finished(pending, "selfplay: batch"):
        if r is None:
            failed.append(name)
            continue
        progress.finished(r["name"], r["node"], r["games"], f"{r['positions']} positions, {r['seconds']:.1f} s")
    print(progress.summary("games"))
    if failed:
        print(f"selfplay: {len(failed)} batches failed (run again to retry them): {' '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
