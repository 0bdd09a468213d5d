"""Where-used as lines: every place that uses an object or a component, with its snippet.

The system answers where-used in two steps (the using objects, then the snippets of their
lines); :class:`WhereUsed` joins them into one flat list of usages and pages through it. The
whole list of one search is kept for a few minutes, so reading page after page costs no
further requests.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cachetools import TTLCache

if TYPE_CHECKING:
    from adt.areas.usages import CodeSnippet, UsageResult
    from adt.client import AdtClient


@dataclass(frozen=True)
class Usage:
    """One line that uses the searched symbol."""

    object_name: str
    object_type: str
    source_url: str
    line: int
    column: int
    end_column: int
    snippet: str
    access: str = ""
    in_test: bool = False

    def to_dict(self) -> dict[str, Any]:
        found = {
            "object": self.object_name,
            "type": self.object_type,
            "sourceUrl": self.source_url,
            "line": self.line,
            "column": self.column,
            "snippet": self.snippet,
        }
        if self.access:
            found["access"] = self.access
        if self.in_test:
            found["inTest"] = True
        return found


@dataclass(frozen=True)
class UsagePage:
    """A page of usages; ``next_offset`` is where the next page starts (``None``: last)."""

    searched: str
    total: int
    objects: int
    offset: int
    usages: tuple[Usage, ...]
    next_offset: int | None

    def to_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            "searched": self.searched,
            "total": self.total,
            "objects": self.objects,
            "offset": self.offset,
            "usages": [u.to_dict() for u in self.usages],
        }
        if self.next_offset is not None:
            found["nextOffset"] = self.next_offset
        return found


@dataclass(frozen=True)
class _Search:
    searched: str
    objects: int
    usages: tuple[Usage, ...]


def _usages(result: UsageResult, snippets: dict[str, tuple[CodeSnippet, ...]]) -> list[Usage]:
    found: list[Usage] = []
    for obj in result.objects:
        for member in obj.members:
            for snippet in snippets.get(member.object_identifier, ()):
                match = snippet.matches[0] if snippet.matches else None
                found.append(
                    Usage(
                        obj.object.name,
                        obj.object.type,
                        snippet.source_url,
                        snippet.line,
                        match.start if match else snippet.column,
                        match.end if match else snippet.end_column,
                        snippet.content.strip(),
                        match.access if match else "",
                        member.is_test or obj.object.is_test,
                    )
                )
    return found


class WhereUsed:
    """Where-used of one system, flattened to lines and paged."""

    def __init__(self, client: AdtClient, *, keep_seconds: float = 300.0) -> None:
        self._client = client
        self._recent: TTLCache[str, _Search] = TTLCache(maxsize=32, ttl=keep_seconds)

    async def page(
        self,
        url: str,
        *,
        line: int | None = None,
        column: int | None = None,
        text: str | None = None,
        offset: int = 0,
        limit: int = 50,
    ) -> UsagePage:
        """Usages of the object ``url``, or of the symbol at (``line``, ``column``) of the
        source ``url``; ``text`` tells apart searches on different unsaved texts."""
        key = "|".join(
            (url, str(line), str(column), hashlib.sha256((text or "").encode()).hexdigest())
        )
        search = self._recent.get(key) if offset > 0 else None
        if search is None:
            search = await self._search(url, line, column)
            self._recent[key] = search
        window = search.usages[offset : offset + limit]
        following = offset + len(window)
        return UsagePage(
            search.searched,
            len(search.usages),
            search.objects,
            offset,
            window,
            following if following < len(search.usages) else None,
        )

    async def all(
        self, url: str, *, line: int | None = None, column: int | None = None
    ) -> tuple[Usage, ...]:
        """Every usage (an editor's find-references)."""
        return (await self._search(url, line, column)).usages

    async def _search(self, url: str, line: int | None, column: int | None) -> _Search:
        navigation = self._client.navigation
        result = await navigation.usages(url, line, column)
        groups = await navigation.snippets(result) if result.identifiers else ()
        snippets = {g.object_identifier: g.snippets for g in groups}
        searched = result.display_name or result.referenced_identifier or url
        usages = _usages(result, snippets)
        return _Search(searched, len(result.objects), tuple(usages))


__all__ = ["Usage", "UsagePage", "WhereUsed"]
