"""games.cache.VersionedCache: values kept with their version, the least recently used dropped first."""

from __future__ import annotations

import threading

from games.cache import VersionedCache


def test_a_value_comes_back_with_its_version_and_a_newer_put_replaces_it() -> None:
    cache: VersionedCache[str, str] = VersionedCache(4)
    assert cache.get("a") is None
    cache.put("a", 1, "one")
    assert cache.get("a") == (1, "one")
    cache.put("a", 2, "two")
    assert cache.get("a") == (2, "two") and len(cache) == 1


def test_the_least_recently_used_goes_first_when_full() -> None:
    cache: VersionedCache[int, int] = VersionedCache(3)
    for key in range(3):
        cache.put(key, 0, key)
    assert cache.get(0) is not None  # 0 is now the most recently used; 1 the least
    cache.put(3, 0, 3)
    assert cache.get(1) is None
    assert [cache.get(key) for key in (0, 2, 3)] == [(0, 0), (0, 2), (0, 3)]
    cache.clear()
    assert len(cache) == 0 and cache.get(0) is None


def test_threads_putting_at_once_keep_it_within_its_size() -> None:
    cache: VersionedCache[int, int] = VersionedCache(50)

    def fill(offset: int) -> None:
        for key in range(offset, offset + 500):
            cache.put(key, 1, key)
            cache.get(key - 3)

    threads = [threading.Thread(target=fill, args=(offset,)) for offset in range(0, 4000, 500)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(cache) == 50
