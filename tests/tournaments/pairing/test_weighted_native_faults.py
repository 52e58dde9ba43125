"""weighted_native.c when memory runs out: weighted_native_faults.c (beside this file) makes every allocation of
a run fail in turn, once and from then on, over random graphs with blossoms, and checks that each run stops
cleanly (NULL or -1, which sends weighted.py to its own code) or gives the same matching, never holds more
blossoms than it can, and frees everything; compiled with AddressSanitizer and UBSan (any memory error, any
undefined behaviour or leak fails the run) where the compiler has them."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SOURCE_DIR = HERE.parents[2] / "tournaments" / "pairing"
SANITIZE = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer"]
COMPILER = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")


def _build(output: Path) -> bool:
    """The fault harness, with the sanitizers if they link, else without; whether it was sanitized."""
    assert COMPILER is not None
    base = [COMPILER, "-O1", "-g", f"-I{SOURCE_DIR}", "-o", str(output), str(HERE / "weighted_native_faults.c")]
    if subprocess.run(base + SANITIZE, capture_output=True, check=False).returncode == 0:
        probe = subprocess.run([str(output), "1"], capture_output=True, check=False, timeout=60)
        if probe.returncode == 0:
            return True
    subprocess.run(base, capture_output=True, check=True)
    return False


@pytest.mark.skipif(COMPILER is None, reason="no C compiler")
def test_every_failed_allocation_stops_the_run_cleanly(tmp_path: Path) -> None:
    """Before the fix a failed allocation while making a blossom left grow() scanning on over the half-made
    blossom, taking a new blossom number for each further tight edge (24 blossoms at 37 nodes on graph 11,
    past the 18 a laminar family of odd sets allows; past the end of ``unused`` on a graph with more)."""
    harness = tmp_path / "weighted_native_faults"
    sanitized = _build(harness)
    done = subprocess.run(
        [str(harness), "150"], capture_output=True, text=True, check=False, timeout=600,
        env={"ASAN_OPTIONS": "detect_leaks=1", "UBSAN_OPTIONS": "print_stacktrace=1"},
    )
    assert done.returncode == 0, (sanitized, done.stdout[-2000:], done.stderr[-4000:])
    found = re.search(r"runs (\d+) stopped (\d+) failed-blossoms (\d+)", done.stdout)
    assert found is not None, done.stdout
    runs, stopped, blossom_failures = map(int, found.groups())
    assert runs > 10_000 and stopped > 0
    assert blossom_failures > 100  # failures inside add_blossom were among them
