"""The pure cores (engine, bots, pairing, elo, fair play) cannot import Django or any I/O library: ruff refuses it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.processes import PROJECT_DIR

FRAMEWORK_IMPORTS = "import django.db\nfrom channels.layers import get_channel_layer\nimport celery\n"


def _ruff_banned_imports(path: str, source: str) -> list[str]:
    """TID251 findings for `source` as if it were the file at `path` (nothing is written to disk)."""
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--select", "TID251", "--output-format", "concise",
         "--stdin-filename", path, "-"],
        input=source, cwd=PROJECT_DIR, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    return [line for line in result.stdout.splitlines() if "TID251" in line]


@pytest.mark.parametrize(
    "path",
    ["games/engine/any_module.py", "games/bots/any_bot.py", "tournaments/pairing/swiss.py", "ratings/elo.py", "ratings/fairplay.py"],
)
def test_pure_cores_cannot_import_frameworks(path: str) -> None:
    findings = _ruff_banned_imports(path, FRAMEWORK_IMPORTS)
    assert len(findings) == 3, findings
    assert any("`django` is banned" in line for line in findings)


@pytest.mark.parametrize("path", ["games/services.py", "ratings/models.py", "accounts/views.py", "tests/x.py"])
def test_the_django_shell_may_import_frameworks(path: str) -> None:
    assert _ruff_banned_imports(path, FRAMEWORK_IMPORTS) == []
