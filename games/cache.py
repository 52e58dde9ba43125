"""A bounded, thread-safe cache of values by key, each kept with the version it is for; the least recently
used goes first when it is full. The process-wide caches of live games use it (games.snapshots: states by
game and version; games.selectors: seats by game and seats' version)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class VersionedCache(Generic[K, V]):
    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, tuple[int, V]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> tuple[int, V] | None:
        """``(version, value)`` kept for ``key``, or None; the caller decides whether that version will do."""
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key: K, version: int, value: V) -> None:
        with self._lock:
            self._items[key] = (version, value)
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
