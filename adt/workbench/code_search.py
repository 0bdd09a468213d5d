"""Search the sources of a whole package: a bounded grep over each source-based object of the
package, in name order, paged by hit. Sources come through the source service, so a source
read for an earlier page (or by an earlier read) is served from its cache and only lines
travel to the caller.

The ADT source-code search (``/sap/bc/adt/repository/informationsystem/textsearch``) exists
on newer systems only and is not in the emulator; this walk works everywhere.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from adt.kinds import KINDS
from adt.source.errors import InvalidArgument, as_source_error
from adt.source.grep import compile_pattern

if TYPE_CHECKING:
    from adt.models import TreeNode
    from adt.source import SourceService

MAX_OBJECTS = 200
"""Objects searched at most in one package (an answer says when more were left out)."""
PER_OBJECT = 200
"""Matches taken from one source (a pattern that matches everywhere is not a search)."""
_PARALLEL = 4


@dataclass(frozen=True)
class PackageHit:
    object_url: str
    name: str
    line: int
    content: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "objectUrl": self.object_url,
            "name": self.name,
            "line": self.line,
            "snippet": self.content.strip(),
        }


@dataclass
class PackageMatches:
    """One page of hits, and how much of the package was searched."""

    package: str
    pattern: str
    hits: list[PackageHit]
    objects: int
    searched: int
    next_offset: int | None = None
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            "package": self.package,
            "pattern": self.pattern,
            "hits": [h.to_dict() for h in self.hits],
            "objectCount": self.objects,
            "objectsSearched": self.searched,
        }
        if self.next_offset is not None:
            found["nextOffset"] = self.next_offset
        if self.notes:
            found["notes"] = self.notes
        return found


def _searchable(node: TreeNode) -> bool:
    kind = KINDS.for_url(node.uri) if node.uri else None
    return kind is not None and kind.source_based and not node.is_package


class PackageSearch:
    """Grep over the sources of one package."""

    def __init__(self, source: SourceService) -> None:
        self._source = source

    async def search(
        self,
        package: str,
        pattern: str,
        *,
        case_insensitive: bool = False,
        offset: int = 0,
        limit: int = 50,
    ) -> PackageMatches:
        """Hits ``offset .. offset + limit`` in object-name order; ``next_offset`` when
        more exist among the searched objects."""
        compile_pattern(pattern, case_insensitive=case_insensitive)
        if offset < 0 or limit < 1:
            raise InvalidArgument("offset must be 0 or more and limit 1 or more")
        try:
            tree = await self._source.client.package_contents(package)
        except Exception as exc:
            raise as_source_error(exc) from exc
        nodes = sorted((n for n in tree.nodes if _searchable(n)), key=lambda n: n.name)
        chosen = nodes[:MAX_OBJECTS]
        wanted = offset + limit + 1
        hits: list[PackageHit] = []
        searched = 0
        slots = asyncio.Semaphore(_PARALLEL)

        async def grep(node: TreeNode) -> list[PackageHit]:
            async with slots:
                found = await self._source.grep(
                    node.uri,
                    pattern=pattern,
                    case_insensitive=case_insensitive,
                    max_matches=PER_OBJECT,
                )
            return [
                PackageHit(node.uri, node.name, m.line_number, m.content) for m in found.matches
            ]

        for start in range(0, len(chosen), _PARALLEL):  # in order, a few at a time
            batch = chosen[start : start + _PARALLEL]
            for found in await asyncio.gather(*(grep(n) for n in batch)):
                hits += found
            searched += len(batch)
            if len(hits) >= wanted:
                break
        page = PackageMatches(
            package.upper(), pattern, hits[offset : offset + limit], len(nodes), searched
        )
        if len(hits) > offset + limit:
            page.next_offset = offset + limit
        if len(nodes) > MAX_OBJECTS:
            page.notes.append(
                f"only the first {MAX_OBJECTS} of {len(nodes)} objects (by name) are searched"
            )
        return page


__all__ = ["PackageHit", "PackageMatches", "PackageSearch"]
