"""Connecting a driver to the Ray cluster, with the package shipped to the workers."""

from __future__ import annotations

import ray

import jungle_ray


def connect(address: str) -> None:
    """Joins the cluster at ``address`` (``auto``: the one started on this machine with ``ray start``); the
    workers get this package from the driver, so nodes need only Ray and the binaries, not the repository."""
    ray.init(
        address=address,
        runtime_env={"py_modules": [jungle_ray]},
        logging_level="WARNING",
        log_to_driver=False,
    )
