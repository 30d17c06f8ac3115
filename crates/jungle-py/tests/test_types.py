"""The type stubs match the compiled module (mypy's stubtest) and the package type-checks against them."""

import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("mypy")

ALLOWLIST = pathlib.Path(__file__).with_name("stubtest-allowlist.txt")


def run(*args):
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, cwd=ALLOWLIST.parent)


def test_stubs_match_the_extension_module():
    result = run("mypy.stubtest", "jungle._jungle", "--allowlist", str(ALLOWLIST))
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_package_type_checks():
    result = run("mypy", "-p", "jungle", "--ignore-missing-imports")
    assert result.returncode == 0, result.stdout + result.stderr
