"""``weighted._Matcher`` in C (``weighted_native.c``), loaded with ctypes: the same algorithm step for step over
int64 arrays, with the same matching and the same duals as a result.

scripts/build_engine.py compiles the C file to ``_weighted_native.so`` beside it (``NATIVE_LIBRARIES`` of
games/engine/_compiled.py; the hash of compiled sources covers it). Where the library is absent (no C compiler,
or a build that failed), or a weight lies outside +-2 ** ``WEIGHT_BITS``, or a dual of the run would leave
+-2 ** 60 (the C code checks after every change), these functions return None and ``weighted`` runs its own
code on Python integers of any size. The bound keeps every slack (two duals less twice a weight, plus twice
the duals of the blossoms holding the edge, added with overflow checks) within a signed 64-bit word.
"""

from __future__ import annotations

import ctypes
from array import array
from collections.abc import Sequence

# Beside this module (by string: the pure core imports no file-system module; tests/tournaments/pairing/test_purity.py)
LIBRARY = __file__[: len(__file__) - len(__file__.replace("\\", "/").rsplit("/", 1)[-1])] + "_weighted_native.so"
WEIGHT_BITS = 58
_LIMIT = 1 << WEIGHT_BITS
NONE = -1


def _load() -> ctypes.CDLL | None:
    try:
        library = ctypes.CDLL(LIBRARY)
    except OSError:
        return None
    pointer = ctypes.c_void_p
    library.wm_new.restype = pointer
    library.wm_new.argtypes = [ctypes.c_int64, ctypes.c_int64, pointer, pointer]
    library.wm_free.restype = None
    library.wm_free.argtypes = [pointer]
    library.wm_solve.restype = ctypes.c_int
    library.wm_solve.argtypes = [pointer, ctypes.c_int, pointer]
    library.wm_face.restype = ctypes.c_int
    library.wm_face.argtypes = [pointer, pointer, pointer, pointer, pointer]
    library.wm_leaves.restype = ctypes.c_int64
    library.wm_leaves.argtypes = [pointer, ctypes.c_int64, pointer]
    return library


_library = _load()


def available() -> bool:
    """Whether the compiled library was loaded."""
    return _library is not None


def _address(values: array[int]) -> int:
    return values.buffer_info()[0]


class NativeRun:
    """One run of the C matcher over a graph: the matching, and for ``optimal_face`` the final duals."""

    def __init__(self, library: ctypes.CDLL, handle: int, size: int, edges: int) -> None:
        self.library, self.handle, self.size, self.edges = library, handle, size, edges

    def solve(self, maxcardinality: bool) -> list[int] | None:
        mate = array("q", bytes(8 * self.size))
        if self.library.wm_solve(self.handle, int(maxcardinality), _address(mate)) != 0:
            return None
        return mate.tolist()

    def face(self) -> tuple[list[int], list[int], list[int], list[int]] | None:
        """Every edge's slack and count of positive blossoms holding it, and every node's and blossom's dual
        and base (weighted._Matcher.slacks, .dual, .base)."""
        slacks, held = array("q", bytes(8 * self.edges)), array("q", bytes(8 * self.edges))
        dual, base = array("q", bytes(16 * self.size)), array("q", bytes(16 * self.size))
        if self.library.wm_face(self.handle, _address(slacks), _address(held), _address(dual), _address(base)) != 0:
            return None
        return slacks.tolist(), held.tolist(), dual.tolist(), base.tolist()

    def leaves(self, b: int) -> list[int]:
        found = array("q", bytes(16 * self.size))
        count = self.library.wm_leaves(self.handle, b, _address(found))
        return found[:count].tolist()

    def close(self) -> None:
        if self.handle:
            self.library.wm_free(self.handle)
            self.handle = 0


def start(size: int, edges: Sequence[tuple[int, int, int]]) -> NativeRun | None:
    """A C matcher over the graph, or None when it cannot run it (no library, a weight out of bounds, an edge
    that is not between two distinct nodes of 0..size-1, or no memory): ``weighted`` then runs its own code."""
    if _library is None or not edges or size <= 0:
        return None
    weights = [w for _, _, w in edges]
    if max(weights) >= _LIMIT or min(weights) <= -_LIMIT:
        return None
    try:
        ends = array("q", [x for u, v, _ in edges for x in (u, v)])
        packed = array("q", weights)
    except (OverflowError, TypeError):
        return None
    handle = _library.wm_new(size, len(edges), _address(ends), _address(packed))
    if not handle:
        return None
    return NativeRun(_library, handle, size, len(edges))
