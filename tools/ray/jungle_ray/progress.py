"""The drivers' progress view: one line per finished task with the counts done and left, and a summary of which
node did how much (Ray's dashboard shows the same tasks when the cluster runs it; the core package has none)."""

from __future__ import annotations

import sys
import time
from collections import Counter


class Progress:
    def __init__(self, what: str, total: int, already: int) -> None:
        self.what = what
        self.total = total
        self.done = already
        self.started = time.monotonic()
        self.by_node: Counter[str] = Counter()
        self.work = 0.0
        self.work_by_node: Counter[str] = Counter()
        print(f"{what}: {total} in all, {already} already done, {total - already} to do", file=sys.stderr)

    def finished(self, name: str, node: str, work: float, note: str) -> None:
        """Counts one task; ``work`` is its amount of work in the job's unit (games, indices)."""
        self.done += 1
        self.by_node[node] += 1
        self.work += work
        self.work_by_node[node] += work
        elapsed = time.monotonic() - self.started
        print(
            f"[{self.done}/{self.total}, {self.total - self.done} left, {elapsed:.0f} s] {name} on node {node}: {note}",
            file=sys.stderr,
            flush=True,
        )

    def summary(self, unit: str) -> str:
        elapsed = time.monotonic() - self.started
        nodes = ", ".join(f"{n}: {c} tasks {self.work_by_node[n]:.0f} {unit}" for n, c in sorted(self.by_node.items()))
        rate = self.work / elapsed if elapsed > 0 else 0.0
        return (
            f"{self.what}: done {self.done}/{self.total}; this run {self.work:.0f} {unit} in {elapsed:.1f} s "
            f"({rate:.1f} {unit}/s) on {len(self.by_node)} nodes ({nodes})"
        )
