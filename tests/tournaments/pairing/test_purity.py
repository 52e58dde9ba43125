"""tournaments/pairing is a pure core: it imports the standard library, networkx and itself, nothing else.

ruff's banned-imports rule (TID251) keeps Django out; this also keeps out I/O libraries the rule does not
list, and checks that no module opens files or sockets.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[3] / "tournaments" / "pairing"
MODULES = sorted(PACKAGE.glob("*.py"))
ALLOWED = {"networkx", "tournaments"} | set(sys.stdlib_module_names)
NO_IO = {"os", "io", "socket", "subprocess", "pathlib", "shutil", "tempfile", "sqlite3", "urllib", "http"}


def _imports(module: Path) -> set[str]:
    tree = ast.parse(module.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_the_package_has_modules() -> None:
    assert {module.name for module in MODULES} >= {"swiss.py", "round_robin.py", "tables.py", "tiebreaks.py"}


@pytest.mark.parametrize("module", MODULES, ids=lambda module: module.name)
def test_imports_are_pure(module: Path) -> None:
    imports = _imports(module)
    assert imports <= ALLOWED, f"{module.name} imports {sorted(imports - ALLOWED)}"
    assert not imports & NO_IO, f"{module.name} imports I/O modules {sorted(imports & NO_IO)}"
    tree = ast.parse(module.read_text(encoding="utf-8"))
    calls = {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    assert not calls & {"open", "print", "input"}, f"{module.name} does I/O"
