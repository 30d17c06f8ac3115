"""What both jobs' Ray tasks share: running one of the project's binaries so that it dies with the task, telling
a killed run (which Ray should retry) from a failed one (which it should not), and writing files atomically."""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import subprocess
import uuid
from pathlib import Path
from typing import Sequence

# Linux prctl(PR_SET_PDEATHSIG): the binary gets SIGKILL when the worker that started it dies, so a killed
# worker leaves no orphan computing on (and a retried task does not race its first try for the CPU).
_PR_SET_PDEATHSIG = 1


class Interrupted(Exception):
    """The binary was killed by a signal: the work was lost, not wrong, so the task may run again."""


class Failed(Exception):
    """The binary exited with an error: running it again would give the same answer."""


def _die_with_parent() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def run_binary(argv: Sequence[str]) -> str:
    """Runs ``argv`` and returns its standard output; raises :class:`Interrupted` or :class:`Failed`."""
    done = subprocess.run(
        list(argv),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_die_with_parent,
        check=False,
    )
    if done.returncode < 0:
        raise Interrupted(f"{argv[0]} killed by signal {-done.returncode}: {' '.join(argv)}")
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
        raise Failed(f"{' '.join(argv)} exited {done.returncode}: " + " | ".join(tail))
    return done.stdout


def temporary_name(final: Path) -> Path:
    """A name beside ``final`` that no other try of the same task uses, for writing before an atomic rename."""
    return final.with_name(f".{final.name}.{socket.gethostname()}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")


def write_atomically(final: Path, text: str) -> None:
    tmp = temporary_name(final)
    tmp.write_text(text)
    os.replace(tmp, final)


def where() -> str:
    """The Ray node this task runs on (its id, short), for the report of which node did what."""
    import ray

    return ray.get_runtime_context().get_node_id()[:8]
