"""Compile the rules engine and the random bot to C extensions with mypyc, in place, and the plain C
libraries of NATIVE_LIBRARIES (games/engine/_compiled.py) with the same compiler.

The engine is plain typed Python and runs as it is; compiled, it is several times faster, which the
bots' searches and the benchmarks need (bench/engine.py says which one it measured). Where no C
compiler is at hand the build is skipped with a message and everything runs interpreted.

A hash of the compiled sources is written beside them; ``games/engine/_compiled.py`` refuses to load
extensions built from other sources, so an edited engine is never silently replaced by a stale one.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# mypyc type-checks what it compiles with mypy. The project's [tool.mypy] loads django-stubs' plugin, which only
# `make test`'s packages hold: read with it, a `make run` on a fresh clone failed to compile and the site's bots
# searched interpreted, at less than half the speed. The engine and the bots import no Django, so they are
# compiled under this configuration of their own (the module names from the folder layout, as in pyproject.toml).
MYPYC_CONFIG = """\
[mypy]
python_version = 3.11
explicit_package_bases = True
mypy_path = .
"""


def mypy_arguments(config_path: Path) -> list[str]:
    """Write MYPYC_CONFIG to ``config_path`` and return the mypy arguments the build hands to mypycify."""
    config_path.write_text(MYPYC_CONFIG, encoding="utf-8")
    return ["--config-file", str(config_path), *COMPILED_SOURCES]


def _load_compiled_module() -> types.ModuleType:
    # Loaded by path: importing games.engine would run its freshness check, which is what we rebuild.
    spec = importlib.util.spec_from_file_location("_engine_compiled", ROOT / "games" / "engine" / "_compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_compiled = _load_compiled_module()
COMPILED_SOURCES, HASH_FILE = _compiled.COMPILED_SOURCES, _compiled.HASH_FILE
NATIVE_LIBRARIES = _compiled.NATIVE_LIBRARIES
remove_extensions, sources_hash = _compiled.remove_extensions, _compiled.sources_hash


def build_library(compiler: str, source: str, library: str, log_path: Path) -> bool:
    """Compile one C file of NATIVE_LIBRARIES to a shared library (no Python headers: ctypes loads it)."""
    command = [compiler, "-O2", "-shared", "-fPIC", "-o", str(ROOT / library), str(ROOT / source)]
    with open(log_path, "a", encoding="utf-8") as log:
        log.write(" ".join(command) + "\n")
        log.flush()
        return subprocess.run(command, stdout=log, stderr=log, check=False).returncode == 0


def main() -> int:
    hash_file = ROOT / HASH_FILE
    built = {path.name.split(".")[0] for path in _compiled._extensions() if "__mypyc" not in path.name}
    wanted = {Path(path).stem for path in COMPILED_SOURCES} | {Path(library).stem for _, library in NATIVE_LIBRARIES}
    if "--clean" not in sys.argv and hash_file.exists() and built == wanted \
            and hash_file.read_text(encoding="utf-8").strip() == sources_hash():
        print("engine: compiled and up to date")
        return 0
    remove_extensions()
    if "--clean" in sys.argv:
        print("engine: compiled extensions removed; the engine runs interpreted")
        return 0
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        print("engine: no C compiler found; the engine runs interpreted (slower, same results)")
        return 0
    try:
        from mypyc.build import mypycify
        from setuptools import setup  # type: ignore[import-untyped]
    except ImportError as error:
        print(f"engine: mypyc is not installed ({error}); the engine runs interpreted")
        return 0
    started = time.monotonic()
    print("engine: compiling the rules engine with mypyc (about a minute)...", flush=True)
    build_dir = ROOT / "build" / "mypyc"
    log_path = ROOT / "build" / "engine-build.log"
    log_path.parent.mkdir(exist_ok=True)
    os.chdir(ROOT)  # mypyc writes its C sources under ./build
    try:
        with open(log_path, "w", encoding="utf-8") as log, contextlib.redirect_stdout(log), \
                contextlib.redirect_stderr(log):
            setup(
                name="durak-engine",
                packages=[],
                py_modules=[],
                ext_modules=mypycify(mypy_arguments(ROOT / "build" / "mypyc.ini"), opt_level="3"),
                script_args=["build_ext", "--inplace", "--build-temp", str(build_dir / "temp"),
                             "--build-lib", str(build_dir / "lib")],
            )
    except (SystemExit, Exception) as error:  # a failed C build must not stop the site from running
        remove_extensions()
        print(f"engine: compiling failed ({error}; see {log_path}); the engine runs interpreted")
        return 0
    for source, library in NATIVE_LIBRARIES:
        if not build_library(compiler, source, library, log_path):
            print(f"engine: compiling {source} failed (see {log_path}); its module runs its Python fallback")
    (ROOT / HASH_FILE).write_text(sources_hash() + "\n", encoding="utf-8")
    print(f"engine: compiled in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    hashlib.sha256()  # fail early on a Python without hashlib
    sys.exit(main())
