"""``weighted._Matcher`` in C (``weighted_native.c``), loaded with ctypes: the same algorithm step for step over
arrays of machine integers, with the same matching and the same duals as a result.

scripts/build_engine.py compiles the C file to ``_weighted_native.so`` beside it (``NATIVE_LIBRARIES`` of
games/engine/_compiled.py; the hash of compiled sources covers it). The C code is compiled twice, over int64
for weights within +-2 ** ``WEIGHT_BITS`` and, where the compiler has ``__int128``, over 128-bit integers for
weights within +-2 ** ``WIDE_WEIGHT_BITS`` (the lexicographic phases whose one digit exceeds a word). Where the
library is absent (no C compiler, or a build that failed), or a weight lies past both bounds, or a dual of the
run would leave +-2 ** 60 (+-2 ** 124 for the wide one; the C code checks after every change), these functions
return None and ``weighted`` runs its own code on Python integers of any size. The bounds keep every slack (two
duals less twice a weight, plus twice the duals of the blossoms holding the edge, added with overflow checks)
within a signed word.

Beside the matcher, the same library does the Dutch engine's per-edge work over arrays (``dutch_bracket``): a
phase's weights added up (:func:`compose`), the edges numbered and narrowed (:func:`relabel`, :func:`gather`,
:func:`gather_values`), chosen by their ends' classes (:func:`select`), a matching's total by edge or by pair
(:func:`matched_total`, :class:`PairWeights`), and S2's transposition checks (:class:`Trials`). Each stands
for Python code that runs where there is no library and gives the same results (the tests compare them).
"""

from __future__ import annotations

import ctypes
import sys
from array import array
from collections.abc import Sequence
from itertools import chain

# Beside this module (by string: the pure core imports no file-system module; tests/tournaments/pairing/test_purity.py)
LIBRARY = __file__[: len(__file__) - len(__file__.replace("\\", "/").rsplit("/", 1)[-1])] + "_weighted_native.so"
WEIGHT_BITS = 58
WIDE_WEIGHT_BITS = 120
_LIMIT, _WIDE_LIMIT = 1 << WEIGHT_BITS, 1 << WIDE_WEIGHT_BITS
_MASK = (1 << 64) - 1
_MAX_SIZE = (1 << 61) - 1  # weighted_native.c's new() refuses more (INT64_MAX / 4: twice it must fit)
NONE = -1


def _load() -> ctypes.CDLL | None:
    try:
        library = ctypes.CDLL(LIBRARY)
    except OSError:
        return None
    pointer = ctypes.c_void_p
    for prefix in ("wm_", "wm128_"):
        if not hasattr(library, prefix + "new"):  # no __int128 where it was compiled
            continue
        getattr(library, prefix + "new").restype = pointer
        getattr(library, prefix + "new").argtypes = [ctypes.c_int64, ctypes.c_int64, pointer, pointer]
        getattr(library, prefix + "free").restype = None
        getattr(library, prefix + "free").argtypes = [pointer]
        getattr(library, prefix + "solve").restype = ctypes.c_int
        getattr(library, prefix + "solve").argtypes = [pointer, ctypes.c_int, pointer]
        getattr(library, prefix + "face").restype = ctypes.c_int
        getattr(library, prefix + "face").argtypes = [pointer, pointer, pointer, pointer, pointer]
        getattr(library, prefix + "leaves").restype = ctypes.c_int64
        getattr(library, prefix + "leaves").argtypes = [pointer, ctypes.c_int64, pointer]
        getattr(library, prefix + "face_tight").restype = ctypes.c_int
        getattr(library, prefix + "face_tight").argtypes = [pointer, pointer, pointer, pointer, pointer, pointer]
        getattr(library, prefix + "compose").restype = ctypes.c_int
        getattr(library, prefix + "compose").argtypes = [
            ctypes.c_int64, pointer, ctypes.c_int64, pointer, ctypes.c_int64, pointer, pointer, pointer, pointer,
            pointer, pointer,
        ]
    library.wm_gather.restype = None
    library.wm_gather.argtypes = [pointer, pointer, ctypes.c_int64, pointer]
    library.wm_gather1.restype = None
    library.wm_gather1.argtypes = [pointer, pointer, ctypes.c_int64, pointer]
    library.wm_mark.restype = ctypes.c_int
    library.wm_mark.argtypes = [pointer, ctypes.c_int64, ctypes.c_int64, pointer]
    library.wm_extent.restype = None
    library.wm_extent.argtypes = [pointer, ctypes.c_int64, pointer]
    library.wm_relabel.restype = ctypes.c_int64
    library.wm_relabel.argtypes = [pointer, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64, pointer, pointer, pointer]
    library.wm_card_new.restype = pointer
    library.wm_card_new.argtypes = [ctypes.c_int64, ctypes.c_int64, pointer]
    library.wm_card_free.restype = None
    library.wm_card_free.argtypes = [pointer]
    library.wm_card_degree.restype = ctypes.c_int64
    library.wm_card_degree.argtypes = [pointer, ctypes.c_int64]
    library.wm_card_neighbours.restype = ctypes.c_int64
    library.wm_card_neighbours.argtypes = [pointer, ctypes.c_int64, pointer]
    library.wm_card_fixed.restype = ctypes.c_int
    library.wm_card_fixed.argtypes = [
        pointer, pointer, ctypes.c_int64, ctypes.c_int64, pointer, pointer, ctypes.c_int, pointer,
    ]
    library.wm_select.restype = ctypes.c_int64
    library.wm_select.argtypes = [pointer, ctypes.c_int64, pointer, ctypes.c_int64, pointer, pointer]
    library.wm_matched_total.restype = ctypes.c_int64
    library.wm_matched_total.argtypes = [pointer, pointer, ctypes.c_int64, pointer]
    library.wm_pairs_new.restype = pointer
    library.wm_pairs_new.argtypes = [ctypes.c_int64, ctypes.c_int64, pointer, pointer]
    library.wm_pairs_free.restype = None
    library.wm_pairs_free.argtypes = [pointer]
    library.wm_pairs_total.restype = ctypes.c_int
    library.wm_pairs_total.argtypes = [pointer, pointer, pointer]
    if hasattr(library, "wm_narrow128"):
        library.wm_narrow128.restype = ctypes.c_int
        library.wm_narrow128.argtypes = [pointer, ctypes.c_int64, pointer]
    return library


_library = _load()
# The wide functions read and write 128-bit integers as two words, the low one first.
_wide = _library is not None and hasattr(_library, "wm128_new") and sys.byteorder == "little"


def available() -> bool:
    """Whether the compiled library was loaded."""
    return _library is not None


def wide_available() -> bool:
    """Whether the library has the 128-bit functions."""
    return _wide


def _address(values: array[int]) -> int:
    return values.buffer_info()[0]


def _wide_values(words: array[int]) -> list[int]:
    """128-bit integers from their words (low, high, low, high...)."""
    return [(high << 64) | (low & _MASK) for low, high in zip(words[0::2], words[1::2])]


class NativeRun:
    """One run of the C matcher over a graph: the matching, and for ``optimal_face`` the final duals."""

    def __init__(self, library: ctypes.CDLL, handle: int, size: int, edges: int, wide: bool) -> None:
        self.library, self.handle, self.size, self.edges, self.wide = library, handle, size, edges, wide
        prefix = "wm128_" if wide else "wm_"
        self._solve, self._face = getattr(library, prefix + "solve"), getattr(library, prefix + "face")
        self._leaves, self._free = getattr(library, prefix + "leaves"), getattr(library, prefix + "free")
        self._face_tight = getattr(library, prefix + "face_tight")

    def solve(self, maxcardinality: bool) -> list[int] | None:
        mate = array("q", bytes(8 * self.size))
        if self._solve(self.handle, int(maxcardinality), _address(mate)) != 0:
            return None
        return mate.tolist()

    def face(self) -> tuple[list[int], list[int], list[int], list[int]] | None:
        """Every edge's slack and count of positive blossoms holding it, and every node's and blossom's dual
        and base (weighted._Matcher.slacks, .dual, .base)."""
        words = 2 if self.wide else 1
        slacks, held = array("q", bytes(8 * words * self.edges)), array("q", bytes(8 * self.edges))
        dual, base = array("q", bytes(16 * words * self.size)), array("q", bytes(16 * self.size))
        if self._face(self.handle, _address(slacks), _address(held), _address(dual), _address(base)) != 0:
            return None
        if self.wide:
            return _wide_values(slacks), held.tolist(), _wide_values(dual), base.tolist()
        return slacks.tolist(), held.tolist(), dual.tolist(), base.tolist()

    def face_tight(self) -> tuple[array[int], array[int], list[int], list[int]] | None:
        """The edges without slack (indices), each one's face weight (``weighted.optimal_face``), and every node's
        and blossom's dual and base: what ``face`` gives, with no list of every edge made (the first two as
        arrays, which the lexicographic phases narrow in C)."""
        words = 2 if self.wide else 1
        kept, face, count = array("q", bytes(8 * self.edges)), array("q", bytes(8 * self.edges)), array("q", [0])
        dual, base = array("q", bytes(16 * words * self.size)), array("q", bytes(16 * self.size))
        status = self._face_tight(
            self.handle, _address(kept), _address(face), _address(count), _address(dual), _address(base)
        )
        if status != 0:
            return None
        size = count[0]
        del kept[size:], face[size:]
        return kept, face, _wide_values(dual) if self.wide else dual.tolist(), base.tolist()

    def leaves(self, b: int) -> list[int]:
        found = array("q", bytes(16 * self.size))
        count = self._leaves(self.handle, b, _address(found))
        return found[:count].tolist()

    def close(self) -> None:
        if self.handle:
            self._free(self.handle)
            self.handle = 0


class Packed:
    """Weights already in the C matcher's words (:func:`compose`): ``values`` int64, or with ``wide`` 128-bit
    integers as two words each, the low one first."""

    __slots__ = ("values", "wide")

    def __init__(self, values: array[int], wide: bool) -> None:
        self.values, self.wide = values, wide

    def __len__(self) -> int:
        return len(self.values) // 2 if self.wide else len(self.values)

    def integers(self) -> list[int]:
        return _wide_values(self.values) if self.wide else self.values.tolist()


class FlatEnds(Sequence[tuple[int, int]]):
    """Edges' ends kept flat (u, v, u, v...: :func:`flatten`), read as (u, v) pairs only where Python code needs
    them."""

    def __init__(self, flat: array[int]) -> None:
        self.flat = flat

    def __len__(self) -> int:
        return len(self.flat) // 2

    def __getitem__(self, k):  # type: ignore[no-untyped-def]  # Sequence's overloads; ints only here
        return self.flat[2 * k], self.flat[2 * k + 1]

    def __iter__(self):  # type: ignore[no-untyped-def]
        return zip(self.flat[0::2], self.flat[1::2])


def _words(values: Sequence[int], wide: bool) -> array[int] | None:
    """``values`` as the C code's integers (see :class:`Packed`), or None when one does not fit."""
    try:
        if wide:
            return array("Q", b"".join([value.to_bytes(16, "little", signed=True) for value in values]))
        return array("q", values)
    except OverflowError:
        return None


def compose(
    kinds: array[int], orders: array[int], face: array[int] | None, scale: int, fixed: Sequence[int],
    order: Sequence[int],
) -> Packed | None:
    """Each edge's weight ``face[i] * scale + fixed[kinds[i]] + order[orders[i]]`` (no face: none), computed in C
    and kept in its words: int64 when every weight lies within +-2 ** WEIGHT_BITS, else 128-bit. None without
    the library, or when a weight or a part does not fit (the caller then adds them in Python)."""
    if _library is None or not kinds:
        return None
    count, wide = len(kinds), _wide  # over 128-bit integers where the library has them, narrowed after
    fixed_words, order_words, scale_words = _words(fixed, wide), _words(order, wide), _words([scale], wide)
    if fixed_words is None or order_words is None or scale_words is None:
        return None
    words = 2 if wide else 1
    out, extremes = array("q", bytes(8 * words * count)), array("q", bytes(16 * words))
    function = _library.wm128_compose if wide else _library.wm_compose
    status = function(
        count, _address(kinds), len(fixed), _address(orders), len(order),
        None if face is None else _address(face), _address(scale_words), _address(fixed_words),
        _address(order_words), _address(out), _address(extremes),
    )  # fmt: skip
    if status != 0:
        return None
    top, bottom = _wide_values(extremes) if wide else extremes.tolist()
    if -_LIMIT < bottom and top < _LIMIT:
        if not wide:
            return Packed(out, False)
        narrow = array("q", bytes(8 * count))
        if _library.wm_narrow128(_address(out), count, _address(narrow)) == 0:
            return Packed(narrow, False)
    elif wide and -_WIDE_LIMIT < bottom and top < _WIDE_LIMIT:
        return Packed(out, True)
    return None


def gather_values(values: array[int], kept: array[int]) -> array[int]:
    """``values[k]`` for each k of ``kept`` (each in range), in that order."""
    out = array("q", bytes(8 * len(kept)))
    if kept:
        assert _library is not None
        _library.wm_gather1(_address(values), _address(kept), len(kept), _address(out))
    return out


def present(values: array[int], limit: int) -> list[int] | None:
    """The distinct ``values`` (each within 0..limit-1), in increasing order; None without the library or for a
    value out of range."""
    if _library is None:
        return None
    marks = array("b", bytes(max(limit, 1)))
    if values and _library.wm_mark(_address(values), len(values), limit, _address(marks)) != 0:
        return None
    return [v for v in range(limit) if marks[v]]


def relabel(ends: Sequence[tuple[int, int]]) -> tuple[list[int], array[int]] | None:
    """The distinct nodes of ``ends`` numbered 0, 1, ... by first appearance: the nodes by number, and the ends
    flattened by number (as :func:`flatten` gives them). None without the library, for no edge, or for node
    names past a word."""
    if _library is None or not ends:
        return None
    try:
        ids = array("q", chain.from_iterable(ends))
    except (OverflowError, TypeError):
        return None
    extent = array("q", [0, 0])
    _library.wm_extent(_address(ids), len(ids), _address(extent))
    low, span = extent[0], extent[1] - extent[0] + 1
    if span > 4 * len(ids) + 1024:  # sparse names: a table that large is not worth it
        return None
    table, out, names = array("q", bytes(8 * span)), array("q", bytes(8 * len(ids))), array("q", bytes(8 * span))
    found = _library.wm_relabel(_address(ids), len(ids), low, span, _address(table), _address(out), _address(names))
    return names[:found].tolist(), out


def select(ends: FlatEnds, classes: Sequence[int], keep: Sequence[Sequence[bool]]) -> array[int]:
    """The edges (indices) whose ends' classes (``classes[v]``, small numbers) ``keep[class of u][class of v]``
    admits, in their order."""
    assert _library is not None
    kinds = len(keep)
    table = array("b", [int(keep[a][b]) for a in range(kinds) for b in range(kinds)])
    kept, node_classes = array("q", bytes(8 * len(ends))), array("b", classes)  # held while C reads them
    count = _library.wm_select(
        _address(ends.flat) if len(ends) else None, len(ends), _address(node_classes), kinds, _address(table),
        _address(kept),
    )  # fmt: skip
    if count < 0:
        raise ValueError("a node's class is past the table")
    del kept[count:]
    return kept


def matched_total(ends: FlatEnds, weights: array[int], partners: Sequence[int]) -> int:
    """The sum of the int64 ``weights`` of the edges whose two ends are partners (``partners[u] == v``)."""
    assert _library is not None
    if not len(ends):
        return 0
    mate = array("q", partners)  # held while C reads it
    total: int = _library.wm_matched_total(_address(ends.flat), _address(weights), len(ends), _address(mate))
    return total


class PairWeights:
    """The int64 weights of a graph's edges by pair of nodes, in C (a matching's total without a dict of every
    edge)."""

    def __init__(self, library: ctypes.CDLL, handle: int) -> None:
        self.library, self.handle = library, handle

    def total(self, partners: Sequence[int]) -> int:
        """The sum of the weights of the pairs ``v``, ``partners[v]`` (-1: none); KeyError for a pair that is
        not an edge."""
        total, mate = array("q", [0]), array("q", partners)  # held while C reads them
        if self.library.wm_pairs_total(self.handle, _address(mate), _address(total)) != 0:
            raise KeyError("a pair of the matching is not an edge")
        return total[0]

    def close(self) -> None:
        if self.handle:
            self.library.wm_pairs_free(self.handle)
            self.handle = 0

    def __del__(self) -> None:
        self.close()


def pair_weights(size: int, ends: FlatEnds, weights: array[int]) -> PairWeights | None:
    """:class:`PairWeights` of the edges ``ends`` of nodes 0..size-1 weighing ``weights`` (int64), or None without
    the library (or no memory, or an end out of range)."""
    if _library is None or not 0 < size <= _MAX_SIZE:
        return None
    handle = _library.wm_pairs_new(
        size, len(ends), _address(ends.flat) if len(ends) else None, _address(weights) if len(weights) else None
    )  # fmt: skip
    return PairWeights(_library, handle) if handle else None


class Trials:
    """``transposition._fixed`` in C over one graph (the optimal face's tight edges): the same searches, step
    for step, with the same partners as a result."""

    def __init__(self, library: ctypes.CDLL, handle: int, size: int) -> None:
        self.library, self.handle, self.size = library, handle, size

    def neighbours(self, v: int) -> array[int]:
        """Node v's neighbours, in the edges' order (an edge listed twice, twice)."""
        out = array("q", bytes(8 * self.library.wm_card_degree(self.handle, v)))
        if out:
            self.library.wm_card_neighbours(self.handle, v, _address(out))
        return out

    def fixed(
        self, partners: array[int], node: int, other: int, optional: array[int], blocked: array[int], keep_size: bool
    ) -> array[int] | None:
        """``partners`` (FREE -1 for none) changed to pair ``node`` with ``other`` and still cover every node
        not ``optional`` (with ``keep_size``, as many as before), or None; ``optional`` and ``blocked`` are
        arrays of one byte a node."""
        out = array("q", bytes(8 * self.size))
        status = self.library.wm_card_fixed(
            self.handle, _address(partners), node, other, _address(optional), _address(blocked), int(keep_size),
            _address(out),
        )  # fmt: skip
        if status < 0:
            raise MemoryError("the transposition's search ran out of memory")
        return out if status == 1 else None

    def close(self) -> None:
        if self.handle:
            self.library.wm_card_free(self.handle)
            self.handle = 0


def trials(size: int, ends: Sequence[tuple[int, int]]) -> Trials | None:
    """:class:`Trials` over the edges ``ends`` of nodes 0..size-1, or None without the library (or for an end
    out of range, or no memory)."""
    if _library is None or not 0 < size <= _MAX_SIZE:
        return None
    try:
        flat = ends.flat if isinstance(ends, FlatEnds) else array("q", chain.from_iterable(ends))
    except (OverflowError, TypeError):
        return None
    handle = _library.wm_card_new(size, len(flat) // 2, _address(flat) if flat else None)
    return Trials(_library, handle, size) if handle else None


def start(size: int, edges: Sequence[tuple[int, int, int]]) -> NativeRun | None:
    """A C matcher over the graph, or None when it cannot run it (no library, a weight out of bounds, an edge
    that is not between two distinct nodes of 0..size-1, a size past 2 ** 61 - 1, or no memory): ``weighted``
    then runs its own code."""
    return start_split(size, [(u, v) for u, v, _ in edges], [w for _, _, w in edges])


def flatten(ends: Sequence[tuple[int, int]]) -> array[int] | None:
    """The edges' ends in one array (u, v, u, v...), as :func:`start_split` takes them; None without the library
    or for ends past a word."""
    if _library is None:
        return None
    try:
        return array("q", chain.from_iterable(ends))
    except (OverflowError, TypeError):
        return None


def gather(flat: array[int], kept: Sequence[int]) -> array[int]:
    """The flat ends of the edges ``kept`` (indices into ``flat``'s edges, each in range), in that order."""
    assert _library is not None
    indices = array("q", kept)
    out = array("q", bytes(16 * len(indices)))
    if indices:
        _library.wm_gather(_address(flat), _address(indices), len(indices), _address(out))
    return out


def start_split(
    size: int, ends: Sequence[tuple[int, int]], weights: Sequence[int] | Packed, flat: array[int] | None = None
) -> NativeRun | None:
    """:func:`start` over the edges ``ends[k]`` of weight ``weights[k]`` (``flat``: the same ends flattened, when
    the caller has them; ``weights`` may be :func:`compose`'s)."""
    if _library is None or not ends or not 0 < size <= _MAX_SIZE:  # ctypes would pass 2 ** 64 + 3 as 3
        return None
    if isinstance(weights, Packed):
        wide, packed = weights.wide, weights.values
    else:
        top, bottom = max(weights), min(weights)
        wide = top >= _LIMIT or bottom <= -_LIMIT
        if wide and (not _wide or top >= _WIDE_LIMIT or bottom <= -_WIDE_LIMIT):
            return None
        words = _words(weights, wide)
        if words is None:
            return None
        packed = words
    if isinstance(ends, FlatEnds):
        flat = ends.flat
    try:
        if flat is None or len(flat) != 2 * len(ends):
            flat = array("q", chain.from_iterable(ends))
    except (OverflowError, TypeError):
        return None
    new = _library.wm128_new if wide else _library.wm_new
    handle = new(size, len(ends), _address(flat), _address(packed))
    if not handle:
        return None
    return NativeRun(_library, handle, size, len(ends), wide)
