"""The source cache: fresh reads cost no request; writes never trust it.

Built on ``cachetools.TTLCache``: entries expire after the TTL, and when the cache is full
the least recently used entry goes first. Keyed by system + object + include + version.
The cache only ever saves reads. A write always re-reads the source under the lock and
compares tokens there, so a stale or missing entry can never make a write unsafe.

Beside the entries it keeps the text of every token it hands out, for the same TTL and within
a character budget (:meth:`SourceCache.base_lines`): a write made against an older token is
rebased over a colleague's change only when that token's text is known (see
:mod:`adt.source.rebase`). An entry and its token text share one :class:`~adt.text.TextLines`
(the text as one string, lines sliced out on demand), and so does the line buffer of an editor
that opens the read.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from cachetools import LRUCache, TTLCache

from adt.text import TextLines


class CacheKey(NamedTuple):
    system: str
    object_url: str
    include: str
    version: str  # "" for the server's default (the working version)


@dataclass(frozen=True)
class CacheEntry:
    """A source as read, kept as its lines so that a range read slices instead of splitting
    the whole text again (the token was computed over the exact text at read time)."""

    lines: TextLines
    token: str
    changed_at_ms: int
    etag: str
    fetched_at_ms: int
    expires_at_ms: int
    changed_by: str | None = None

    @property
    def line_count(self) -> int:
        return len(self.lines)

    @property
    def text(self) -> str:
        """The whole canonical text."""
        return self.lines.text


@dataclass(frozen=True)
class CacheStats:
    hits: int
    misses: int
    evictions: int
    expirations: int
    size: int
    max_size: int
    ttl_ms: int


TokenTextKey = tuple[str, str, str, str]
"""(system, object URL, include, token): the text a token named, whatever version it was read as."""

BASE_TEXTS_BUDGET = 32_000_000
"""Characters of token texts kept at most (about 1,200 reads of a 10,000-line class)."""


def _weight(lines: Sequence[str]) -> int:
    if isinstance(lines, TextLines):
        return len(lines.text) + 2
    return sum(map(len, lines)) + len(lines) + 1


class _CountingTTLCache(TTLCache[CacheKey, CacheEntry]):
    """Counts capacity evictions (``popitem`` is only called when the cache is full) and
    expirations (``TTLCache`` expires on every access, ``len`` included, through ``expire``)."""

    evictions = 0
    expirations = 0

    def popitem(self) -> tuple[CacheKey, CacheEntry]:
        self.evictions += 1
        return super().popitem()

    def expire(self, time: float | None = None) -> list[tuple[CacheKey, CacheEntry]]:
        expired = list(super().expire(time))
        self.expirations += len(expired)
        return expired


class SourceCache:
    """TTL + LRU cache of canonical source texts and their tokens."""

    def __init__(
        self,
        *,
        ttl_ms: int = 300_000,
        max_size: int = 100,
        clock: Callable[[], float] = time.time,
        base_budget: int = BASE_TEXTS_BUDGET,
    ) -> None:
        self.ttl_ms = ttl_ms
        self.max_size = max_size
        self._clock = clock
        self._entries = _CountingTTLCache(maxsize=max_size, ttl=ttl_ms / 1000, timer=clock)
        self._issued: LRUCache[str, CacheKey] = LRUCache(maxsize=max(1000, max_size * 10))
        self._texts: TTLCache[TokenTextKey, Sequence[str]] = TTLCache(
            maxsize=base_budget, ttl=ttl_ms / 1000, timer=clock, getsizeof=_weight
        )
        self._hits = 0
        self._misses = 0

    def now_ms(self) -> int:
        return int(self._clock() * 1000)

    def get(self, key: CacheKey) -> CacheEntry | None:
        self._entries.expire()  # a lookup alone would hide, not drop, an expired entry
        entry = self._entries.get(key)
        if entry is None:
            self._misses += 1
        else:
            self._hits += 1
        return entry

    def put(
        self,
        key: CacheKey,
        *,
        text: str,
        token: str,
        changed_at_ms: int,
        etag: str = "",
        changed_by: str | None = None,
    ) -> CacheEntry:
        now = self.now_ms()
        entry = CacheEntry(
            lines=TextLines(text),
            token=token,
            changed_at_ms=changed_at_ms,
            etag=etag,
            fetched_at_ms=now,
            expires_at_ms=now + self.ttl_ms,
            changed_by=changed_by,
        )
        self._entries[key] = entry
        self._issued[token] = key
        with contextlib.suppress(ValueError):  # a text over the whole budget is not kept
            self._texts[(key.system, key.object_url, key.include, token)] = entry.lines
        return entry

    def base_lines(self, key: CacheKey, token: str) -> Sequence[str] | None:
        """The lines of the text ``token`` was handed out for, for the source ``key`` names
        (any version), while the cache's TTL lasts; ``None`` when no longer known."""
        return self._texts.get((key.system, key.object_url, key.include, token))

    def keep_base(self, key: CacheKey, token: str, text: str) -> None:
        """Remember the text a token named, known to a caller that holds it (an editor's
        base), so a write made against that token can be rebased after the entry expired."""
        with contextlib.suppress(ValueError):  # a text over the whole budget is not kept
            self._texts[(key.system, key.object_url, key.include, token)] = TextLines(text)

    def issued_for(self, token: str) -> CacheKey | None:
        """The key a token was handed out for (remembered beyond the entries' TTL)."""
        return self._issued.get(token)

    def invalidate(self, key: CacheKey) -> None:
        self._entries.pop(key, None)

    def invalidate_object(self, system: str, object_url: str) -> None:
        for key in [k for k in self._entries if k.system == system and k.object_url == object_url]:
            self._entries.pop(key, None)

    def cleanup(self) -> int:
        """Drop expired entries (and token texts) now; returns how many entries went."""
        self._texts.expire()
        return len(self._entries.expire())

    def clear(self) -> None:
        self._entries.clear()
        self._texts.clear()

    def stats(self) -> CacheStats:
        return CacheStats(
            hits=self._hits,
            misses=self._misses,
            evictions=self._entries.evictions,
            expirations=self._entries.expirations,
            size=len(self._entries),
            max_size=self.max_size,
            ttl_ms=self.ttl_ms,
        )

    def stats_dict(self) -> dict[str, Any]:
        stats = self.stats()
        return {
            "hits": stats.hits,
            "misses": stats.misses,
            "evictions": stats.evictions,
            "expirations": stats.expirations,
            "size": stats.size,
            "maxSize": stats.max_size,
            "ttlMs": stats.ttl_ms,
        }
