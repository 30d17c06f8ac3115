"""The type stubs match the compiled module (mypy's stubtest), the package type-checks against them, and a user's
script using the package passes mypy --strict and pyright's strict mode."""

import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("mypy")

HERE = pathlib.Path(__file__).parent
ALLOWLIST = HERE / "stubtest-allowlist.txt"
USAGE = HERE / "typing" / "usage.py"


def run(cwd, *args):
    # In a temporary directory, so the checkers' caches do not land in the checkout.
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, cwd=cwd)


def test_stubs_match_the_extension_module(tmp_path):
    result = run(tmp_path, "mypy.stubtest", "doushouqi._core", "--allowlist", str(ALLOWLIST))
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_package_type_checks_strictly(tmp_path):
    # PettingZoo ships no types: its classes are Any to mypy, and subclassing them has to be allowed.
    result = run(tmp_path, "mypy", "--strict", "--ignore-missing-imports", "--allow-subclassing-any", "-p", "doushouqi")
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_user_script_passes_mypy_strict(tmp_path):
    result = run(tmp_path, "mypy", "--strict", str(USAGE))
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_user_script_passes_pyright_strict(tmp_path):
    pytest.importorskip("pyright")
    result = run(tmp_path, "pyright", "--pythonpath", sys.executable, str(USAGE))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 errors" in result.stdout


def test_the_user_script_runs(tmp_path):
    result = subprocess.run([sys.executable, str(USAGE)], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
