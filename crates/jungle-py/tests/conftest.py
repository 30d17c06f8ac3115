import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def jungle_bin():
    """The `jungle` program for the engine-process tests: $JUNGLE_BIN (scripts/test sets it after the Rust
    tests built it), else the ci build of this checkout."""
    path = pathlib.Path(os.environ.get("JUNGLE_BIN", REPO / "target" / "ci" / "jungle"))
    if not path.is_file():
        if "JUNGLE_BIN" in os.environ:
            pytest.fail(f"JUNGLE_BIN={path} does not exist")
        pytest.skip(f"no jungle binary at {path} (cargo build --profile ci --bin jungle)")
    return str(path)
