"""Endgame tablebases on Ray: one task per material, each depending on the tasks of the materials its captures
lead to.

The graph is ``jungle tb plan`` (each material with the materials it needs). A task runs ``jungle tb generate
--only --material KEY`` into the shared directory (its sub-tables are there: the tasks it depends on wrote them),
then ``jungle tb verify DIR --material KEY``, which recomputes every stored value from its successors, and only
then records the material as done in ``DIR/verified/KEY.txt`` (the two commands' output). Tables are written
under a temporary name and renamed, so a killed task leaves no half table, and a retried one writes the same
bytes. A run that stops is resumed by running the same command again: verified materials are skipped, a table
on disk that was not yet verified is kept by ``generate`` and verified.

    python3 -m jungle_ray.tablebases --address auto --jungle target/release/jungle --out tb5 --pieces 5
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import ray

from jungle_ray.cluster import connect, finished
from jungle_ray.progress import Progress
from jungle_ray.tasks import Failed, Interrupted, run_binary, where, write_atomically

VERIFIED = "verified"


def read_plan(jungle: str, selection: list[str]) -> list[tuple[str, int, list[str]]]:
    """``jungle tb plan``: (material, indices, materials it needs), fewest pieces first."""
    plan = []
    for line in run_binary([jungle, "tb", "plan", *selection]).splitlines():
        key, _indices, indices, _needs, *needs = line.split()
        plan.append((key, int(indices), [] if needs == ["-"] else needs))
    return plan


def working_bytes(indices: int, needed_indices: list[int]) -> int:
    """The memory ``jungle tb generate`` may take for one material (docs/tablebases.md): 13 bytes per index of
    its own, 2 per index of each sub-table, and room for the program itself."""
    return 13 * indices + 2 * sum(needed_indices) + (64 << 20)


@ray.remote(max_retries=5, retry_exceptions=[Interrupted])
def make_material(jungle: str, settings: dict[str, Any], out: str, key: str, indices: int, *needed: Any) -> dict[str, Any]:
    # ``needed`` are the results of the tasks this one depends on: Ray starts it only once they are done.
    started = time.monotonic()
    generated = run_binary([
        jungle, "tb", "generate", "--only", "--material", key,
        "--rules", settings["rules"],
        "--threads", str(settings["threads"]),
        "--memory-mb", str(settings["memory_mb"]),
        "--out", out,
    ])
    made = time.monotonic()
    try:
        verified = run_binary([jungle, "tb", "verify", out, "--material", key])
    except Failed as e:
        # A table that disagrees with its successors must not stay where the next run would keep it.
        (Path(out) / f"{key}.jtb").unlink(missing_ok=True)
        raise Failed(f"{key} failed verification, table removed: {e}") from None
    done = time.monotonic()
    record = Path(out) / VERIFIED / f"{key}.txt"
    record.parent.mkdir(exist_ok=True)
    write_atomically(record, generated + verified)
    return {
        "key": key,
        "indices": indices,
        "generate_seconds": made - started,
        "verify_seconds": done - made,
        "kept": "kept existing file" in generated,
        "node": where(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="jungle_ray.tablebases", description=__doc__.splitlines()[0])
    parser.add_argument("--address", default="auto", help="the Ray cluster (host:port, or auto)")
    parser.add_argument("--jungle", required=True, help="path of the jungle binary on every node")
    parser.add_argument("--out", required=True, type=Path, help="directory every node can write (shared storage)")
    parser.add_argument("--pieces", type=int, help="every material with 2 to N pieces (with --material: at most N)")
    parser.add_argument("--material", nargs="+", default=[], help="only these materials, with what they need")
    parser.add_argument("--rules", default="")
    parser.add_argument("--threads", type=int, default=1, help="threads (and Ray CPUs) per task")
    parser.add_argument("--memory-mb", type=int, default=12000, help="working memory bound of one material")
    args = parser.parse_args(argv)
    if args.pieces is None and not args.material:
        parser.error("give --pieces N or --material KEY…")
    if args.threads < 1:
        parser.error("--threads must be at least 1")
    selection = ["--rules", args.rules]
    if args.pieces is not None:
        selection += ["--pieces", str(args.pieces)]
    if args.material:
        selection += ["--material", *args.material]
    try:
        plan = read_plan(args.jungle, selection)
    except (Failed, OSError) as e:
        print(f"tablebases: {e}", file=sys.stderr)
        return 2
    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    done = {key for key, _, _ in plan if (out / VERIFIED / f"{key}.txt").exists()}
    settings = {"rules": args.rules, "threads": args.threads, "memory_mb": args.memory_mb}

    connect(args.address)
    progress = Progress("tablebase materials", len(plan), len(done))
    refs: dict[str, Any] = {}
    size = {key: indices for key, indices, _ in plan}
    for key, indices, needs in plan:
        if key in done:
            continue
        waits = [refs[n] for n in needs if n in refs]
        # Ray places a task only where this much memory is free: a 5-piece material takes up to 7 GB.
        memory = working_bytes(indices, [size[n] for n in needs])
        task = make_material.options(num_cpus=args.threads, memory=memory)
        refs[key] = task.remote(args.jungle, settings, str(out), key, indices, *waits)
    pending = {ref: key for key, ref in refs.items()}
    failed = []
    for key, r in finished(pending, "tablebases"):
        if r is None:
            failed.append(key)
            continue
        how = "kept, verified" if r["kept"] else f"made in {r['generate_seconds']:.1f} s"
        progress.finished(key, r["node"], r["indices"], f"{r['indices']} indices, {how}, verified in {r['verify_seconds']:.1f} s")
    print(progress.summary("indices"))
    if failed:
        print(f"tablebases: {len(failed)} materials not made (run again to resume): {' '.join(sorted(failed))}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
