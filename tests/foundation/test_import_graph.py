"""No circle of imports between the product's modules (every .py of each app, migrations and tests left out).

The graph is read with ``ast``, not by importing. Only imports that run when a module is loaded count: those at
module level and in class bodies, outside ``if TYPE_CHECKING:``. An import inside a function runs when the
function is called, after every module has loaded; that is the HackSoft Django-Styleguide's way to break a
circle, so it is not an edge. ``from package import submodule`` is an edge to the submodule alone, since
Python imports it without needing the package's own module to have finished; ``from module import name`` is
an edge to the module. A circle is a strongly connected component of two or more modules, or a module that
imports itself; the failure names each one with a path around it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from tests.processes import PROJECT_DIR

Graph = dict[str, set[str]]

LEFT_OUT = {"migrations", "tests", "__pycache__"}


def app_folders(root: Path) -> list[Path]:
    """The project's apps: the top-level folders with an ``apps.py`` (durak_site among them)."""
    return sorted(path.parent for path in root.glob("*/apps.py"))


def module_files(root: Path, folders: Iterable[Path]) -> dict[str, Path]:
    """Each module's dotted name and file, for every .py under ``folders`` outside migrations and tests."""
    modules: dict[str, Path] = {}
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if LEFT_OUT & set(parts):
                continue
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _load_time_imports(nodes: Iterable[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements that run when the module loads: not in functions, not under TYPE_CHECKING."""
    for node in nodes:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from _load_time_imports(node.orelse)
        else:  # class bodies, if, try, with, for, while, match: all run as the module loads
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    yield from _load_time_imports([child])
                elif isinstance(child, (ast.ExceptHandler, ast.match_case)):
                    yield from _load_time_imports(child.body)


def _target(name: str, known: Mapping[str, Path]) -> str | None:
    """The project module that ``name`` is, or is inside of (its longest known prefix); None outside it."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in known:
            return candidate
    return None


def module_imports(module: str, path: Path, known: Mapping[str, Path]) -> set[str]:
    """The project modules that ``module`` imports when it loads."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in _load_time_imports(ast.parse(path.read_text(encoding="utf-8")).body):
        if isinstance(node, ast.Import):
            found.update(target for alias in node.names if (target := _target(alias.name, known)) is not None)
            continue
        base = node.module or ""
        if node.level:
            anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            base = ".".join([*anchor, *([base] if base else [])])
        for alias in node.names:
            submodule = f"{base}.{alias.name}"
            target = submodule if submodule in known else _target(base, known)
            if target is not None:
                found.add(target)
    return found


def import_graph(root: Path, folders: Iterable[Path]) -> Graph:
    known = module_files(root, folders)
    return {module: module_imports(module, path, known) for module, path in known.items()}


def _components(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components, without recursion (the graph has hundreds of modules)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph.get(successor, ())))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component: list[str] = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    components.append(sorted(component))
    return components


def _path_around(graph: Mapping[str, set[str]], component: list[str]) -> list[str]:
    """A shortest way from the component's first module back to itself, inside the component."""
    start, inside = component[0], set(component)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for successor in sorted(graph[node] & inside):
                if successor == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if successor not in came_from:
                    came_from[successor] = node
                    following.append(successor)
        frontier = following
    raise AssertionError(f"{component} is not a circle")


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """Each circle as a path around it (first module repeated at the end), in a stable order."""
    return sorted(
        _path_around(graph, component)
        for component in _components(graph)
        if len(component) > 1 or component[0] in graph[component[0]]
    )


def _described(found: list[list[str]]) -> str:
    return "\n".join(" -> ".join(path) for path in found)


def test_the_product_s_modules_import_no_circle() -> None:
    graph = import_graph(PROJECT_DIR, app_folders(PROJECT_DIR))
    assert {"games.services", "ratings.elo", "durak_site.settings.base"} <= set(graph)
    found = circles(graph)
    assert not found, f"import circles (import by name inside the function that needs it):\n{_described(found)}"


def _package(root: Path, files: Mapping[str, str]) -> list[Path]:
    for name, source in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    return app_folders(root)


def test_a_circle_is_found_and_named(tmp_path: Path) -> None:
    folders = _package(tmp_path, {
        "shop/apps.py": "try:\n    import shop.orders\nexcept ImportError:\n    pass\n",
        "shop/__init__.py": "",
        "shop/orders.py": "from shop.stock import reserve\n",
        "shop/stock.py": "from shop import billing\n",
        "shop/billing.py": "import shop.orders\n",
        # Not edges: a function-level import, one under TYPE_CHECKING, one of a migration.
        "shop/mail.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from shop.views import Page\n",
        "shop/views.py": "import shop.mail\n\ndef page():\n    from shop import views\n",
        "shop/migrations/0001_initial.py": "from shop import orders\n",
    })  # fmt: skip
    graph = import_graph(tmp_path, folders)
    assert "shop.migrations.0001_initial" not in graph
    assert graph["shop.views"] == {"shop.mail"} and graph["shop.mail"] == set()
    assert graph["shop.apps"] == {"shop.orders"}
    assert circles(graph) == [["shop.billing", "shop.orders", "shop.stock", "shop.billing"]]


def test_a_self_import_and_relative_imports(tmp_path: Path) -> None:
    folders = _package(tmp_path, {
        "club/apps.py": "",
        "club/__init__.py": "from . import members\n",
        "club/members.py": "from club import members\n",
        "club/rules.py": "from .fees import RATE\n",
        "club/fees.py": "from . import rules\n",
        "club/board/__init__.py": "from ..rules import LIMIT\n",
    })  # fmt: skip
    graph = import_graph(tmp_path, folders)
    assert graph["club"] == {"club.members"} and graph["club.board"] == {"club.rules"}
    assert circles(graph) == [["club.fees", "club.rules", "club.fees"], ["club.members", "club.members"]]
