"""Whether the engine runs compiled (mypyc) or interpreted, and a guard against stale extensions.

``scripts/build_engine.py`` compiles COMPILED_SOURCES in place and records a hash of them. Python
prefers an extension module to the .py beside it, so an engine edited after compiling would run the
old code; ``check_fresh`` (called when ``games.engine`` is imported) refuses that with a clear error.
"""

from __future__ import annotations

import hashlib
import importlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
COMPILED_SOURCES = (
    "games/engine/cards.py",
    "games/engine/errors.py",
    "games/engine/rules.py",
    "games/engine/result.py",
    "games/engine/actions.py",
    "games/engine/state.py",
    "games/engine/table.py",
    "games/engine/start.py",
    "games/engine/end.py",
    "games/engine/aktobe.py",
    "games/engine/legal.py",
    "games/engine/play.py",
    "games/engine/acting.py",
    "games/engine/simulate.py",
    "games/bots/random_bot.py",
    "games/bots/heuristic.py",
    "games/bots/knowledge.py",
    "games/bots/endgame.py",
    "games/bots/inference.py",
    "games/bots/search.py",
    # The exact Dutch pairing's matchings (pure, like the engine; they run interpreted too, with the same results).
    "tournaments/pairing/weighted.py",
    "tournaments/pairing/cardinality.py",
)
# Plain C compiled to shared libraries that their Python modules load with ctypes (the source, the library): the
# exact Dutch's weighted matching over int64 arrays (tournaments/pairing/weighted_native.py).
NATIVE_LIBRARIES = (("tournaments/pairing/weighted_native.c", "tournaments/pairing/_weighted_native.so"),)
HASH_FILE = "games/engine/.compiled-sources.sha256"
_EXTENSION_SUFFIXES = (".so", ".pyd")


def sources_hash() -> str:
    digest = hashlib.sha256()
    for path in (*COMPILED_SOURCES, *(source for source, _ in NATIVE_LIBRARIES)):
        digest.update(path.encode() + b"\0" + (ROOT / path).read_bytes() + b"\0")
    return digest.hexdigest()


def _extensions() -> list[Path]:
    # Every extension in the compiled packages, also of modules no longer in COMPILED_SOURCES.
    found = []
    for folder in sorted({(ROOT / path).parent for path in COMPILED_SOURCES}):
        found += [p for p in folder.glob("*") if p.suffix in _EXTENSION_SUFFIXES]
    found += [p for p in ROOT.glob("*__mypyc*") if p.suffix in _EXTENSION_SUFFIXES]
    return found


def is_compiled() -> bool:
    """Whether the engine's hot module was loaded from a compiled extension."""
    module = importlib.import_module("games.engine.play")
    return not str(module.__file__).endswith(".py")


def remove_extensions() -> None:
    for path in _extensions():
        path.unlink()
    hash_file = ROOT / HASH_FILE
    if hash_file.exists():
        hash_file.unlink()


def check_fresh() -> None:
    if not _extensions():
        return
    hash_file = ROOT / HASH_FILE
    recorded = hash_file.read_text(encoding="utf-8").strip() if hash_file.exists() else ""
    if recorded != sources_hash():
        raise ImportError(
            "the compiled engine was built from other sources than games/engine now holds: "
            "run `make engine` to rebuild it, or `.venv/bin/python scripts/build_engine.py --clean` "
            "to run interpreted"
        )
