"""The inactive objects an activation needs with it: what a CDS view, table, behavior or
service definition builds on (its data sources, association targets, base entity, tables,
data elements) that is still inactive, transitively, dependencies first.

A system refuses to activate a source over an object that was never activated unless that
object is in the same activation (docs/protocol/cds-rap-dictionary.md, "Dependencies and
activation"). The faces ask this after a refusal to say what is inactive and to offer the
set: the names come from our own parser (``adt.abap.cds``) over the inactive sources, the
inactive objects from the system's list (``/sap/bc/adt/activation/inactiveobjects``), so
this works the same on a real system."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adt.errors import AdtError
from adt.kinds import KINDS
from adt.workbench.history import History, InactiveEntry

if TYPE_CHECKING:
    from adt.client import AdtClient


class ActivationDependencies:
    """Finds the inactive objects under an object, on one system."""

    def __init__(self, client: AdtClient, history: History) -> None:
        self._client = client
        self._history = history

    async def inactive_under(self, object_url: str) -> tuple[InactiveEntry, ...]:
        """The logged-on user's inactive objects that ``object_url`` builds on, directly or
        through another of them, each after what it builds on; empty for kinds without a
        CDS-family source (an ABAP class) or when nothing it uses is inactive."""
        if _parsable(object_url) is None:
            return ()  # nothing asked of the system for an ABAP object
        waiting: dict[str, list[InactiveEntry]] = {}
        for entry in await self._history.inactive():
            if entry.object_url != object_url and not entry.deleted:
                waiting.setdefault(entry.name.upper(), []).append(entry)
        found: list[InactiveEntry] = []
        seen = {object_url}

        async def visit(url: str) -> None:
            for name in await self._uses(url):
                # every object of the name: an entity and the behavior definition named
                # like it are used together (a system refuses either while inactive)
                for entry in waiting.get(name, []):
                    if entry.object_url in seen:
                        continue
                    seen.add(entry.object_url)
                    await visit(entry.object_url)
                    found.append(entry)

        if waiting:
            await visit(object_url)
        return tuple(found)

    async def _uses(self, object_url: str) -> tuple[str, ...]:
        """The names the newest source of an object depends on (none for a kind without a
        parsable source, or a source that cannot be read: it is then not followed)."""
        from adt.abap.cds.activation import depends_on
        from adt.abap.cds.parse import parse

        language = _parsable(object_url)
        if language is None:
            return ()
        try:
            read = await self._client.read_source(f"{object_url}/source/main")  # the newest
        except AdtError:
            return ()
        return tuple(name.upper() for name in depends_on(parse(read.text, language)))


def _parsable(object_url: str) -> str | None:
    """The parser's language of an object's kind (``DDLS``, ``TABL`` …), None for a kind
    without a CDS-family source."""
    from adt.abap.cds.parse import supports

    kind = KINDS.for_url(object_url)
    if kind is None or not kind.source_based or not supports(kind.r3tr):
        return None
    return kind.r3tr


__all__ = ["ActivationDependencies"]
