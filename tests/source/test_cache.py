"""The source cache: TTL, LRU, cleanup and statistics."""

from __future__ import annotations

from adt.source.cache import CacheKey, SourceCache


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def _key(name: str, include: str = "main") -> CacheKey:
    return CacheKey("A4H", f"/sap/bc/adt/oo/classes/{name}", include, "")


def _put(cache: SourceCache, key: CacheKey, text: str = "x") -> None:
    cache.put(key, text=text, token=f"1_{text:0<16}"[:18], changed_at_ms=1)


def test_entries_expire_after_the_ttl() -> None:
    clock = Clock()
    cache = SourceCache(ttl_ms=5_000, max_size=10, clock=clock)
    _put(cache, _key("a"))
    clock.now += 4.9
    assert cache.get(_key("a")) is not None
    clock.now += 0.2
    assert cache.get(_key("a")) is None
    stats = cache.stats()
    assert (stats.hits, stats.misses, stats.expirations) == (1, 1, 1)


def test_least_recently_used_goes_first() -> None:
    cache = SourceCache(ttl_ms=60_000, max_size=2, clock=Clock())
    _put(cache, _key("a"))
    _put(cache, _key("b"))
    assert cache.get(_key("a")) is not None  # a is now more recent than b
    _put(cache, _key("c"))
    assert cache.get(_key("b")) is None
    assert cache.get(_key("a")) is not None and cache.get(_key("c")) is not None
    assert cache.stats().evictions == 1


def test_includes_and_systems_are_separate_keys() -> None:
    cache = SourceCache(clock=Clock())
    _put(cache, _key("a", "definitions"), "defs")
    _put(cache, _key("a", "implementations"), "impl")
    entry = cache.get(_key("a", "definitions"))
    assert entry is not None and entry.text == "defs"
    assert cache.get(CacheKey("OTHER", _key("a").object_url, "definitions", "")) is None


def test_cleanup_and_invalidation() -> None:
    clock = Clock()
    cache = SourceCache(ttl_ms=1_000, max_size=10, clock=clock)
    _put(cache, _key("a"))
    _put(cache, _key("b", "definitions"))
    _put(cache, _key("b", "testclasses"))
    cache.invalidate_object("A4H", _key("b").object_url)
    assert cache.stats().size == 1
    clock.now += 2
    assert cache.cleanup() == 1
    assert cache.stats().size == 0


def test_issued_tokens_outlive_entries() -> None:
    clock = Clock()
    cache = SourceCache(ttl_ms=1_000, clock=clock)
    entry = cache.put(_key("a"), text="t", token="7_0123456789abcdef", changed_at_ms=7)
    assert entry.expires_at_ms == entry.fetched_at_ms + 1_000
    clock.now += 5
    assert cache.get(_key("a")) is None
    assert cache.issued_for("7_0123456789abcdef") == _key("a")
