"""The type stubs of the extension (menagerie/_menagerie.pyi) match it:
mypy's stubtest compares every name, signature and default with the
module itself. Skipped without mypy unless MENAGERIE_REQUIRE_MYPY=1
(which CI sets)."""

import os
import subprocess
import sys

import pytest


def test_stubtest_accepts_the_stubs():
    if os.environ.get("MENAGERIE_REQUIRE_MYPY") != "1":
        pytest.importorskip("mypy")
    done = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "menagerie._menagerie"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
