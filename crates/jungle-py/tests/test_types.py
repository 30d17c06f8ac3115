"""The type stubs match the compiled module (mypy's stubtest) and the package type-checks against them."""

import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("mypy")

ALLOWLIST = pathlib.Path(__file__).with_name("stubtest-allowlist.txt")


def run(cwd, *args):
    # In a temporary directory, so mypy's cache does not land in the checkout.
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, cwd=cwd)


def test_stubs_match_the_extension_module(tmp_path):
    result = run(tmp_path, "mypy.stubtest", "jungle._jungle", "--allowlist", str(ALLOWLIST))
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_package_type_checks(tmp_path):
    result = run(tmp_path, "mypy", "-p", "jungle", "--ignore-missing-imports")
    assert result.returncode == 0, result.stdout + result.stderr
