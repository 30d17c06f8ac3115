"""Connecting a driver to the Ray cluster, with the package shipped to the workers, and collecting its tasks."""

from __future__ import annotations

import sys
from typing import Any, Iterator

import ray

import jungle_ray
from jungle_ray.tasks import Failed, Interrupted


def connect(address: str) -> None:
    """Joins the cluster at ``address`` (``auto``: the one started on this machine with ``ray start``); the
    workers get this package from the driver, so nodes need only Ray and the binaries, not the repository."""
    ray.init(
        address=address,
        runtime_env={"py_modules": [jungle_ray]},
        logging_level="WARNING",
        log_to_driver=False,
    )


def finished(pending: dict[Any, str], job: str) -> Iterator[tuple[str, dict[str, Any] | None]]:
    """Each task of ``pending`` (its reference to its name) as it finishes: its name and its result, or
    ``None`` when it failed (said on stderr as ``JOB: NAME failed: …``; running the driver again retries it)."""
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        name = pending.pop(ready[0])
        try:
            result = ray.get(ready[0])
        except (Failed, Interrupted, ray.exceptions.RayError) as e:
            print(f"{job}: {name} failed: {str(e).strip().splitlines()[-1]}", file=sys.stderr)
            result = None
        yield name, result
